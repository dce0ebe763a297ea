"""The rules at hand (issue #31): each command's and each status's rule in the book's words, with its lines in the
demo text (/work/shared/seeds/zvezdny-desant-demo-rules.ru.md) and the setting that decides it where the spec names
an ambiguity (§5). The msgids are English; the catalogue holds the book's own Russian sentences.

Keys: the board's commands (start_turn, give_orders, act, fight, strike, end_turn, mark, wounds, end_game) and the
status chips of a unit's card (order_move, order_defence, order_attack, acted, in_melee, panicked, suppressed,
markers)."""

from __future__ import annotations

from rules.contract import Rule
from rules.i18n import N_

FIRST_PLAYER = Rule(
    N_("The First Player"),
    N_(
        "At the start of every turn the First Player is found: the player who acts first during the turn. Both "
        "players roll a D20; whoever rolls higher is the First Player until the end of this turn."
    ),
    "L152–156",
    "rolloff_ties",
)
ORDERS = Rule(
    N_("Orders and initiative"),
    N_(
        "Each player gives every unit an order and an initiative, written on its order card and laid face down; "
        "orders and initiative are chosen in secret from the opponent, and both players may fill in their cards at "
        "the same time. Every unit gets an order, except a unit in close combat or in a state of panic. A unit's "
        "initiative equals the command points spent on it; the initiatives may never add up to more than the "
        "player's command points, and the player must spend all of them."
    ),
    "L206–228",
    "cp_underspend",
)
SHOOTING = Rule(
    N_("Shooting: the hit test and the wound test"),
    N_(
        "A unit may shoot at only one enemy unit. For every shooting figure as many D20 are rolled as the Rate of "
        "fire of its weapon: the hit test, passed on 8+. A shooter on Attack gets +2; a target on Defence +2, on "
        "Attack −2; a vehicle −4; light, medium or heavy cover +2, +4 or +6. The hit test is never lower than 4+ "
        "and never higher than 20+. For every hit a D20 is rolled, the wound test: on a roll equal to or higher "
        "than the number of the weapon's Penetration against the target's armour class the target takes as many "
        "wounds as the weapon's Power, one marker each. One figure is removed for every Toughness markers."
    ),
    "L402–573",
    "attack_target_modifier",
)
STRIKES = Rule(
    N_("Close combat: striking"),
    N_(
        "Strikes are made by every figure in base contact with the enemy and every figure no more than 3 steps "
        "from an enemy figure, unless an obstruction to the line of sight stands between them. A D20 is rolled for "
        "each: a roll equal to or higher than the enemy's Combat Ability hits and deals one wound. A unit gets +1 "
        "to its Combat Ability if it has more figures than the enemy unit, and +2 if its player has more figures "
        "in base contact; the Combat Ability never becomes higher than 20. Units in close combat strike at the "
        "same time, and their dead are removed at the same time."
    ),
    "L633–665",
    "melee_figure_count",
)
STRIKE_BACK = Rule(
    N_("Close combat: casualties and the result"),
    N_(
        "Units in close combat strike at the same time; the dead are removed at the same time. One figure is "
        "removed for every Toughness markers, the melee's wounds added to those from shooting: first the figures "
        "in base contact, then those within 3 steps of the nearest enemy figure, then all the others. A unit that "
        "destroyed its enemy completely has won the close combat in any case."
    ),
    "L659, L673–685, L724–726",
    "melee_result",
)
ACTIVATION = Rule(
    N_("The order of carrying out the orders"),
    N_(
        "The unit with the highest initiative of both players acts first, then the next in descending order. With "
        "equal initiative, a unit of the First Player acts first, then one of the other player, and so on. A unit "
        "with initiative 0 does not act during the turn. A unit that cannot carry out its order when its turn "
        "comes is passed over, and the next unit acts."
    ),
    "L254–278",
    "skipped_unit",
)
END_OF_TURN = Rule(
    N_("The end of the turn"),
    N_(
        "A turn ends as soon as the actions of its last phase are done; then a new turn begins. The standard game "
        "lasts 5 turns, but the players may agree otherwise."
    ),
    "L140, L782–786",
)
VICTORY = Rule(
    N_("Victory points"),
    N_(
        "The player with more victory points wins the game; they are counted at the end of the game. For every "
        "enemy unit destroyed completely a player gets victory points equal to its full cost; for an enemy unit "
        "that lost more than ½ of its starting figures, ½ of its cost."
    ),
    "L788–796",
    "vp_half_threshold",
)
PANIC = Rule(
    N_("Panic"),
    N_(
        "A unit in a state of panic gets no order. If the turn of a unit comes and it cannot carry out its order "
        "(for example, it has panicked), the next unit in descending initiative acts instead. The demo rules have "
        "no panic test: the players mark the state by hand."
    ),
    "L228, L272, L630",
    "states_by_hand",
)
SUPPRESSION = Rule(
    N_("Fire suppression"),
    N_(
        "A unit in fire suppression can neither shoot nor move; it keeps all the terms of its order (−3 to Mobility "
        "on Attack, +2 to the hit test against it and so on), but cannot carry it out and stays in place. The demo "
        "rules do not say how a unit falls into it: the players mark it by hand."
    ),
    "L286–290",
    "states_by_hand",
)
MARKERS = Rule(
    N_("Wound markers"),
    N_(
        "For every wound one marker is put on the unit. One figure is removed for every Toughness markers; the "
        "markers left stay on the unit, and new wounds add up with them. If no figure that can be killed is left, "
        "the remaining markers are removed as well."
    ),
    "L536–565",
    "leftover_markers",
)
IN_MELEE = Rule(
    N_("In close combat"),
    N_(
        "Units in close combat can neither get nor carry out orders until the close combat ends: their order "
        "cards are removed. A unit in close combat cannot shoot and cannot be chosen as a target of shooting. It "
        "cannot leave the close combat by a simple move: the only way is to destroy the enemy or put it to flight."
    ),
    "L615–621, L730–738",
    "assault_unit_in_melee",
)
MOVE = Rule(
    N_("The order Move"),
    N_(
        "A unit with the order Move may move, declare an assault on the enemy and enter close combat. Shooting at "
        "it gets no plus or minus to the hit test."
    ),
    "L180–185, L448",
)
DEFENCE = Rule(
    N_("The order Defence"),
    N_(
        "A unit with the order Defence may stay in place, or stay in place and shoot. It counts as lying down: "
        "shooting at it gets +2 to the hit test."
    ),
    "L187–192, L450",
    "defence_out_of_cd",
)
ATTACK = Rule(
    N_("The order Attack"),
    N_(
        "A unit with the order Attack may move; shoot, then move; move, then shoot; declare an assault and enter "
        "close combat; or shoot, then declare an assault. Its shooting gets +2 to the hit test, its Mobility −3, "
        "and shooting at it gets −2: it gives itself away."
    ),
    "L194–202, L304, L444, L452",
    "attack_target_modifier",
)

RULES = {
    "start_turn": FIRST_PLAYER,
    "give_orders": ORDERS,
    "act": SHOOTING,
    "fight": STRIKES,
    "strike": STRIKE_BACK,
    "end_turn": END_OF_TURN,
    "end_game": VICTORY,
    "mark": PANIC,
    "wounds": MARKERS,
    "order_move": MOVE,
    "order_defence": DEFENCE,
    "order_attack": ATTACK,
    "acted": ACTIVATION,
    "in_melee": IN_MELEE,
    "panicked": PANIC,
    "suppressed": SUPPRESSION,
    "markers": MARKERS,
}
