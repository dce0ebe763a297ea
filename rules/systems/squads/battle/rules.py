"""The rules at hand (issue «The odds and the rule at the moment of the roll»): for each command form and each status
chip of the board, a short statement of the rule it applies. The msgids are English; their Russian in locale/ru is
the book's own wording (seeds/squads-d6-rules.ru.txt, lines L..), so a Russian reader reads the book. `setting`
names the battle's setting where the spec lists an ambiguity (§5 B..): the rule's page says how this battle plays it.
"""

from __future__ import annotations

from rules.contract.at_roll import Rule
from rules.i18n import N_
from rules.systems.squads import tables

INITIATIVE = Rule(
    N_("Initiative"),
    N_(
        "At the start of a turn each player rolls a d6 and adds the scenario's modifiers; the die is re-rolled when "
        "needed. The player with the highest score may try to activate his first squad. The initiative passes from "
        "player to player until they have tried to activate all their squads."
    ),
    "L12",
    "initiative_ties",
)
ACTIVATION = Rule(
    N_("Activation"),
    N_(
        "To activate a squad, roll on the die the number of its level in the «Activation» column of the table «Squad "
        "training/experience» or more. "
        "If the squad has a leader of a better activation level, the roll is made for him. −1 for each figure out of "
        "the squad's reach (3\"/8 cm), −1 for each suppressed figure, +1 if the squad sees no enemy. The player who "
        "won the initiative may go on activating his squads until he fails an activation roll; then the initiative "
        "passes to the opponent."
    ),
    "L2, L12–14, L31",
    "natural_one_six",
)
ACTIONS_TEXT = N_(
    'After a successful activation roll the squad may take one of the actions: Walk 6"/15 cm (it may fire small '
    'weapons or throw grenades), Run 12"/30 cm (no fire), Crouch 8"/20 cm (no fire; it counts as in light cover), '
    'On Guard 0" (once a turn it may react and fire at enemy squads within its weapons\' reach), Go to ground 3"/8 '
    "cm (no fire; the cover's passive quality improves by +1), Aimed Fire 0\" (every figure gets +1 to its shooting), "
    'Assault 8"/20 cm (it may start a melee).'
)
ACTIONS_TITLE = N_("Actions")
VEHICLES_TEXT = N_(
    'Vehicles activate like squads. They may move 12"/30 cm in the open, or 6"/15 cm through light cover, and '
    'fire one weapon. Medium and heavy tanks may move 6"/15 cm through medium cover, but may not fire then. A '
    "stationary vehicle may attack with all its weapons."
)
SHOOTING = Rule(
    N_("Shooting"),
    N_(
        "A suppressed figure may not fire. Each figure of the squad rolls a die for each fire point of its weapon and "
        "compares it with the «Experience» of the table «Squad training/experience»: each die equal to it or more is a "
        "hit. If "
        "the target is in cover, the shooter adds its modifier to the number: light +1, medium +2, hard +3; the "
        "modifier cannot make it worse than 6+. Any figure may roll a save against these hits with the armour tables."
    ),
    "L27–28, L33–38, L68",
    "aimed_cap_order",
)
ON_GUARD_TEXT = N_(
    "On Guard: once a turn the squad may react and open fire at enemy squads within its weapons' reach. Squads the "
    "player did not activate take the On Guard action."
)
SPLIT = Rule(
    N_("Unsaved hits"),
    N_(
        "Hits no save stopped are taken as suppression points, outright casualties or a combination of them, but no "
        "more damage than the squad can take. A figure cannot be suppressed and become a casualty at once. The most "
        "suppressed figures a squad may have is given in the table «Squad training/experience»."
    ),
    "L28, L31",
    "split_chooser",
)
MELEE_TEXT = N_(
    "To start a melee with an enemy squad the player must take the Assault action: the attacking squad moves as "
    "close as it can to the enemy's figures, no more than 8\"/20 cm. The enemy may then bring into the fight every "
    'figure not yet engaged within 3"/8 cm of the attackers. Both sides roll a die for each figure at once and '
    "compare it with their own «Experience» to find the hits. Figures suppressed before this attack strike last of all. "
    "Every hit not stopped by a personal armour save is a casualty. Cover has no effect in a melee."
)
MELEE_ON_TEXT = N_(
    "The fight goes on at the start of every following turn. Squads attacked take part in the melee at once and "
    "cannot activate in the next turn. In a melee figures may only become casualties, never suppressed."
)
WITHDRAWAL = Rule(
    N_("Leaving a melee"),
    N_(
        'To try to take a squad out of a melee it must pass an activation roll and move 1d6" away from the enemy. If '
        'the enemy also passes an activation roll, it may follow the withdrawing squad 1d6". If the pursuer catches '
        "it, the melee goes on. This replaces the usual activation."
    ),
    "L42",
    "pursuit_catch",
)
DAMAGE_TITLE = N_("Damage to a vehicle")
DAMAGE_TEXT = N_(
    "Small arms and heavy machine guns cannot harm armoured vehicles (save 5+). For each hit no save stopped a die "
    "is rolled: 1–2 the crew is stunned, −2 to the activation roll next turn; 3–4 a weapon is destroyed (its owner "
    "chooses); loss of mobility; the vehicle is destroyed, its crew and passengers leave it and take one hit. Hit "
    "from the front, roll 2 dice and take the best result; from the side 1 die; from the rear 2 dice and the worst "
    "result. Re-roll the die on a match."
)
RETREAT_TEXT = N_(
    "Squads the player did not activate take the On Guard action, except when the squad has lost more than half "
    'its figures: then on a failed activation it retreats 6"/15 cm away from the nearest enemy, or to its landing '
    "point if no enemy squad is in sight."
)
SUPPRESSION_TEXT = N_(
    "A suppressed figure turns to face backward. It cannot fire, and its squad gets −1 to its activation roll for "
    "each suppressed figure. The penalties last until the next activation roll; after it the figure is no longer "
    "suppressed. The most suppressed figures a squad may have is given in the table «Squad training/experience»."
)
END = Rule(
    N_("The end of the battle"),
    N_("The book has no victory conditions: the scenario says when the battle ends and who has won."),
    "L1–91",
)


def _rules() -> dict[str, Rule]:
    act = Rule(ACTIONS_TITLE, ACTIONS_TEXT, "L15–24", "walk_fire")
    vehicle = Rule(N_("Transport vehicles"), VEHICLES_TEXT, "L76–77", "vehicle_move_fire")
    retreat = Rule(N_("Retreat"), RETREAT_TEXT, "L25", "withdraw_from")
    melee_on = Rule(N_("The melee goes on"), MELEE_ON_TEXT, "L42", "melee_round_clears_suppression")
    rules = {
        # the command forms
        "start_turn": INITIATIVE,
        "activate": ACTIVATION,
        "act": act,
        "shoot": SHOOTING,
        "react": Rule(N_("On Guard"), ON_GUARD_TEXT, "L21, L25", "on_guard_timing"),
        "split_hits": SPLIT,
        "assault": Rule(N_("Close combat"), MELEE_TEXT, "L42", "melee_attackers"),
        "melee_round": melee_on,
        "withdraw": WITHDRAWAL,
        "lose_weapon": Rule(DAMAGE_TITLE, DAMAGE_TEXT, "L84–90", "facing_best"),
        "end": END,
        # the status chips of a card
        "acting": ACTIVATION,
        "on_guard": Rule(N_("On Guard"), ON_GUARD_TEXT, "L21, L25", "on_guard_until"),
        "casualties": retreat,
        "withdrew": retreat,
        "in_melee": Rule(N_("The melee goes on"), MELEE_ON_TEXT, "L42", "melee_lock"),
        "crew_stunned": Rule(DAMAGE_TITLE, DAMAGE_TEXT, "L84–90", "stun_stacking"),
        "immobilised": Rule(DAMAGE_TITLE, DAMAGE_TEXT, "L84–90", "damage_rows"),
        "destroyed": Rule(DAMAGE_TITLE, DAMAGE_TEXT, "L84–90", "bail_out_hits"),
        "aimed_fire": Rule(ACTIONS_TITLE, ACTIONS_TEXT, "L15–24", "aimed_cap_order"),
    }
    for action in tables.ACTIONS:
        rules.setdefault(action, act)
    for move in tables.VEHICLE_MOVES:
        rules[move] = vehicle
    for level in tables.LEVELS:  # the cap is the blank «Подавление» column: a setting per level (§5 B1)
        rules[f"suppressed_{level}"] = Rule(
            N_("Suppression"), SUPPRESSION_TEXT, "L27, L31", tables.SUPPRESSION_CAP_SETTING[level]
        )
    return rules


RULES = _rules()


def stance_rule(stance: str | None) -> str:
    """The rule key of a stance chip (an action of L17–24, a vehicle's move of L77, a retreat of L25)."""
    return stance if stance in RULES else ""
