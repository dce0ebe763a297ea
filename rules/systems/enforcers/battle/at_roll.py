"""The odds and the rule at the moment of the roll (issue #31, rules/contract/at_roll.py) for «Энфорсеры».

Every board form that rolls maps to the action the command itself resolves, with the inputs the command itself
builds: `roll_odds` runs the command's own checks and builders (`odds_inputs`: the acting model, its actions left,
the target, the weapon, the question being answered) on the viewer's state, so the form refuses exactly what the
command refuses and its odds are the odds API's for the same inputs. A shot and a blow rank targets and weapons by
the chance the target ends out of the fight (seriously wounded, dying or dead: L321, L325); after the roll the board
places the target's HP in its distribution.

The rules at hand are the book's own words (the Russian in the package's catalogue), with the book's chapter and
lines (the OCR text has no pages: its lines stand in), and the setting of the battle where the spec names an
ambiguity.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import AtRollPart, CommandContext, RollOdds, Rule
from rules.i18n import N_

# The die boxes the board script (static/battles/dice_boxes.js) draws: typed at the table, never an input of the odds.
TABLE_DICE_FIELDS = ("die", "dice")


@dataclass(frozen=True)
class FormOdds:
    """What a command's form shows: the headline chance (an odds key of its action) and where a roll falls."""

    headline: str = ""
    label: str = ""
    place: tuple[str, str] | None = None


SHOT = FormOdds("p_target_down", N_("the target is out of the fight"), ("target_hp", "target_hp"))
BLOW = FormOdds("p_defender_down", N_("the opponent is out of the fight"), ("defender_hp", "defender_hp"))
FORMS = {
    "shoot": SHOT,
    "throw": SHOT,
    "reaction_shot": SHOT,
    "melee": BLOW,
    "counter_attack": BLOW,
    "medical_aid": FormOdds("p_success", N_("the HL test succeeds"), ("hp", "hp")),
    "prayer": FormOdds("p_success", N_("the prayer takes effect"), ("hp", "hp")),
    "move": FormOdds("p_crosses", N_("the move goes through"), None),
    "end_activation": FormOdds("p_dead", N_("the agent dies"), ("hp", "hp")),
    "damage": FormOdds("", "", ("hp", "hp")),
    "fall": FormOdds("p_stunned", N_("the agent is stunned"), ("hp", "hp")),
}


def _rule(title: str, text: str, source: str, setting: str = "") -> Rule:
    return Rule(title, text, source, setting)


# The book's chapters are numbered (1. ОСНОВНЫЕ ПРИНЦИПЫ … 4. БОЙ, 5. УРОН, 6. СТАТУСЫ); the actions come between 2
# and 4 without a number (spec §0). Lines are those of /work/shared/seeds/enforcers-d20-rules.ru.md.
RULES: dict[str, Rule] = {
    "activate": _rule(
        N_("Popcorn initiative"),
        N_(
            "The players choose who goes first. A model that ends its activation picks the next one, a player "
            "character or an NPC, never one that has already activated this round. The player character that went last "
            "in a round picks who goes first in the next, itself included."
        ),
        "L61–65",
        "next_round_picker",
    ),
    "shoot": _rule(
        N_("Shooting"),
        N_(
            "Roll a d20: above your BS the shot fails, otherwise it succeeds and the target takes your weapon's damage. "
            "Curses: partial cover 1, full cover 2, long range 1, the target moved twice 1. Blessings: short range 1, "
            "aiming 1, the shooter 5 cm or more higher 1, a burst 1, automatic fire 2, outside the target's arc 1. Stray "
            "shots: a failed shot that rolls 18–20 hits the model nearest the shooter within 2 cm of the line of fire."
        ),
        "§4, L142–170",
        "stray_shot_trigger",
    ),
    "reaction_shot": _rule(
        N_("Reaction shot"),
        N_(
            "A model on Overwatch shoots the first enemy in view that moves, shoots or fights in melee: an ordinary "
            "shooting attack. A pinned model that moves or shoots draws an immediate shooting attack from the one "
            "suppressing it."
        ),
        "L101–103, §6 L313–317",
        "suppressor_reactions",
    ),
    "throw": _rule(
        N_("Thrown weapon"),
        N_(
            "Grenades and knives are thrown up to 1.5 × Toughness, with a shooting test. On a failure roll 2d6 to "
            "scatter: a double hits as if the test had passed; otherwise it lands twice the higher die away, on the line "
            "from the lower die to the higher."
        ),
        "§4, L172–174",
        "scatter_direction",
    ),
    "melee": _rule(
        N_("Melee"),
        N_(
            "Melee is like shooting with WS instead of BS. Blessings: the attacker 1 cm or more higher, a stunned "
            "defender, an attack outside the target's arc, a charge, each unit of reach your weapon has over the "
            "opponent's. Curses: each unit of reach the opponent's weapon has over yours; parry and block, a penalty "
            "for every 5 points of the opponent's WS (not when it is stunned or attacked outside its arc); a "
            "counter-attack."
        ),
        "§4, L176–210",
        "parry_penalty",
    ),
    "counter_attack": _rule(
        N_("Counter-attack"),
        N_(
            "If the attacker fails the melee test, the defender may strike back at once. It costs the defender no "
            "action. A fighter makes one counter-attack a turn, and only within its opponent's reach; facing away, it "
            "turns to face the attacker. A counter-attack gives a curse."
        ),
        "§4, L212–214",
        "counter_reach",
    ),
    "move": _rule(
        N_("Move"),
        N_(
            "Move the model up to its Dexterity in cm. Difficult terrain halves the move. A model jumps half its "
            "Dexterity across and a quarter up, within a normal move. Each item over the carrying capacity costs 2 cm "
            "and a Dexterity test to cross difficult terrain."
        ),
        "L45–49, L79–85",
        "jump_limit",
    ),
    "suppressive_fire": _rule(
        N_("Suppressive fire"),
        N_(
            "Choose a point (an area up to 5 cm across). Every fighter there and between the shooter and it is Pinned. "
            "Suppressive fire deals no damage and uses half the weapon's ammo: the weapon needs at least half a "
            "magazine."
        ),
        "L105–107",
        "pinned_duration",
    ),
    "medical_aid": _rule(
        N_("Medical aid"),
        N_(
            "Aid yourself or another: a med-kit and an HL test. Restore HP: a success heals 6 HP, a failure 2. Revive a "
            "seriously wounded target: a success raises its HP to 1; a failure leaves it seriously wounded with 2 HP "
            "more, at most 0. Stabilize a dying target: a success makes it seriously wounded at 0 HP; a failure does "
            "nothing. Whatever the result, you may also remove any one effect."
        ),
        "L115–123",
        "medic_tests",
    ),
    "prayer": _rule(
        N_("Prayer"),
        N_(
            "A character with the perk Prayer may pray once a round, for one fighter. Anointing (touch): the target may "
            "test HL and on a success heal 1 HP or shed one status. Benediction (line of sight, 1 round): +2 to every "
            "crit chance. Intercession (line of sight, 2 rounds): the target may re-roll one test a round. Last Rites "
            "(touch, the dying): the target's soul goes to the Emperor."
        ),
        "L125–138",
        "last_rites",
    ),
    "ready_weapon": _rule(
        N_("Draw, stow or switch"),
        N_(
            "Once a turn a character may stow or draw a weapon without spending an action, and may switch weapons "
            "without spending actions. Only a weapon that is not stowed can be used."
        ),
        "L71–73",
        "free_weapon_swaps",
    ),
    "reload": _rule(N_("Reload"), N_("With a spare magazine you may spend an action to reload your weapon."), "L95–99"),
    "aim": _rule(
        N_("Aim"),
        N_(
            "Spend an action to aim at a point (up to 5 cm across): a blessing on the next shooting test at the "
            "target. Aims stack but are lost as soon as the fighter moves. A fighter attacked by shooting tests WL or "
            "loses its aim."
        ),
        "L91–93",
        "aim_consumed",
    ),
    "listen": _rule(
        N_("Listen"),
        N_("Spend an action on a Perception test: on a success every enemy within Perception cm is revealed."),
        "L87–89",
    ),
    "overwatch": _rule(
        N_("Overwatch"),
        N_(
            "The character ends its activation at once, but shoots the first enemy in view that moves, shoots or "
            "fights in melee: an ordinary shooting attack."
        ),
        "L101–103",
        "stance_expiry",
    ),
    "take_cover": _rule(
        N_("Take cover"),
        N_(
            "The character ends its turn in a protected position: enemies shooting at it take a curse, and it is "
            "immune to crits."
        ),
        "L109–111",
        "cover_crit_immunity",
    ),
    "end_activation": _rule(
        N_("Status upkeep"),
        N_(
            "At the end of its own activation: Bleeding loses 2 HP whatever the AP; Poisoned tests Toughness first (a "
            "pass ends it), else loses 1 HP whatever the AP; Burning deals 2 damage a turn for 3 turns and asks a Will "
            "test against Fear; Disoriented lasts 2 turns; Dying for 3 turns is death."
        ),
        "§5 L224, §6 L293–311",
        "duration_unit",
    ),
    "damage": _rule(
        N_("Take damage"),
        N_(
            "Damage comes off AP first, then HP. At 0 HP the fighter is seriously wounded; below 0 by more than half its "
            "maximum HP (−3 for 6 HP) it is dying; below 0 by more than its maximum HP it is dead."
        ),
        "§5, L218–224",
        "dying_threshold",
    ),
    "fall": _rule(
        N_("Falling"),
        N_(
            "A fighter falls up to half its Dexterity unharmed (5 cm for Dexterity 10). Higher, it takes 1 damage per "
            "cm and tests Toughness or is Stunned."
        ),
        "§5, L232–234",
        "fall_damage",
    ),
    "fear_test": _rule(
        N_("Fear test"),
        N_(
            "The GM may ask for a Will test against fear: when the fighter loses HP, starts burning, is hit by a psychic "
            "power, or a friend dies. A friendly character's Leadership in sight may stand in for Will. A failure gives "
            "Fear and at once one of its actions, chosen at random."
        ),
        "§6, L272–291",
        "fear_test_on_hp_loss",
    ),
    "set_status": _rule(
        N_("Status by hand"),
        N_(
            "The GM decides when a Fear test is taken; burning may be put out by medical aid, armour repair, water and "
            "other suitable means."
        ),
        "§6, L283, L303",
    ),
    "adjust": _rule(
        N_("HP and AP by hand"),
        N_(
            "Health and armour are restored by the actions for them, never above their maximum; armour can be repaired "
            "in battle."
        ),
        "L47, L226",
    ),
    "propose_end": _rule(
        N_("The end of the scenario"),
        N_(
            "The book gives no victory conditions: they belong to the scenario and the GM. One player proposes the "
            "result, the other confirms it."
        ),
        "L63, L240",
    ),
    # Statuses (chapter 6) and stances.
    "fear": _rule(
        N_("Fear"),
        N_(
            "Under Fear a character has one action an activation and only these: Fight (a shot at the nearest visible "
            "enemy), Flee (to the nearest cover), Freeze (take cover). At each later activation it tests Will again: a "
            "pass removes Fear."
        ),
        "§6, L285–291",
        "fear_retest_leadership",
    ),
    "bleeding": _rule(
        N_("Bleeding"),
        N_("Loses 2 HP at the end of each of its activations, whatever the AP. Medical aid removes it."),
        "§6, L293–295",
    ),
    "poisoned": _rule(
        N_("Poisoned"),
        N_(
            "Loses 1 HP at the end of each of its activations, whatever the AP, and moves 2 cm less. At the end of each "
            "activation, before the damage, it tests Toughness: a pass removes the poison."
        ),
        "§6, L297–299",
        "poison_cure_skips_damage",
    ),
    "burning": _rule(
        N_("Burning"),
        N_(
            "Burning lasts 3 turns and deals 2 damage a turn; the fighter moves half as far and tests Will against fear "
            "each turn. Medical aid, armour repair, water or other suitable means put it out."
        ),
        "§6, L301–303",
        "burning_armour",
    ),
    "stunned": _rule(
        N_("Stunned"),
        N_(
            "A stunned fighter loses one action in this activation or the next. Stuns stack: twice stunned, it skips a "
            "whole activation."
        ),
        "§6, L305–307",
        "stun_timing",
    ),
    "disoriented": _rule(
        N_("Disoriented"),
        N_(
            "Lasts 2 turns: a curse on BS, WS and observation tests; no aiming, overwatch, suppressive fire, psychic "
            "powers, medical aid or armour repair."
        ),
        "§6, L309–311",
        "duration_unit",
    ),
    "pinned": _rule(
        N_("Pinned"),
        N_(
            "Caused by suppressive fire: a curse on BS and no aiming. If it moves or shoots, the one suppressing it "
            "makes an immediate shooting attack."
        ),
        "§6, L313–317",
        "pinned_duration",
    ),
    "seriously_wounded": _rule(
        N_("Seriously wounded"),
        N_(
            "Given when the fighter's HP falls to 0. It counts as stunned, skipping all its actions, until the status is "
            "removed."
        ),
        "§5 L222, §6 L319–321",
        "heal_seriously_wounded",
    ),
    "dying": _rule(
        N_("Dying"),
        N_(
            "Given when HP is below 0 by more than half the maximum. The fighter skips all its actions until the status "
            "is removed; after 3 turns dying it is dead."
        ),
        "§5 L222–224, §6 L323–325",
        "dying_threshold",
    ),
    "dead": _rule(
        N_("dead (status)"),
        N_("Dying for 3 turns, or HP below 0 by more than the maximum HP: the fighter is dead."),
        "§5, L224",
    ),
}
RULES["confirm_end"] = RULES["propose_end"]
RULES["hold_fire"] = RULES["reaction_shot"]


class EnforcersAtRoll(AtRollPart):
    compare_fields = {
        "shoot": ("target", "weapon"),
        "throw": ("target", "weapon"),
        "melee": ("target", "weapon"),
        "reaction_shot": ("weapon",),
        "medical_aid": ("target",),
    }
    rules = RULES

    def roll_odds(self, state, command, inputs, sides):
        from rules.systems.enforcers.battle import BATTLE

        form = FORMS.get(command)
        found = BATTLE.commands.get(command)
        if form is None or found is None:
            return None
        inputs = {k: v for k, v in (inputs or {}).items() if k not in TABLE_DICE_FIELDS}
        BATTLE.check_allowed(state, found, sides)  # not this player's move: refused as the command would be
        found.validate(inputs)  # the command's schema: a refusal names the field
        ctx = CommandContext(part=BATTLE, state=state, sides=sides, next_seq=0, dice_source=_no_dice)
        action = found.odds_inputs(ctx, inputs)
        if action is None:
            return None
        key, action_inputs = action
        return RollOdds(key, action_inputs, form.headline, form.label, form.place)


def _no_dice():
    raise AssertionError("the odds at the moment of the roll never roll")  # pragma: no cover


AT_ROLL = EnforcersAtRoll()
