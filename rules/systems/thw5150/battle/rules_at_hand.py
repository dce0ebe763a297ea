"""The rules at hand (rules/contract/at_roll.py): each command form and each status chip of the board links to the
rule it applies, in the book's words (the Russian text in locale/ is the book's, shortened; the msgid its English),
with the book's lines and the spec's section, and the setting of the battle where the spec lists an ambiguity.
"""

from __future__ import annotations

from rules.contract.at_roll import Rule
from rules.i18n import N_

ACTIVATION = Rule(
    N_("The activation dice"),
    N_(
        "Each side rolls its own die: the activation roll. Equal numbers: no side moves or fires, but every side "
        "may reload, swap or pick up weapons. Otherwise the side with the higher die acts first with its groups. "
        "The number also says which figures may act: those whose Rep is that number or higher, or those in a group "
        "whose Leader's Rep is. Groups act from the highest Rep to the lowest; then the other side, within its own "
        "die."
    ),
    "§1.4, §3.1 (L413–440)",
    "activation_rep",
)
SHOOTING = Rule(
    N_("Shooting: the Hit table"),
    N_(
        "Roll 1 to 6 dice by the weapon's rate of fire and add the shooter's Rep to each; the highest dice go to the "
        "first target. 3–7: a miss. 8: a miss at a target in cover, concealed or prone, when the target or the "
        "shooter moved fast, with two guns, at a second or later target; otherwise a hit. 9: a miss at a target in "
        "cover or a third or later target; otherwise a hit. 10+: a hit. Each hit rolls 1d6 against the weapon's "
        "Impact: a 1 kills, at most the Impact puts the figure out of the fight, above it knocks it down. Two or "
        "more 1s: out of ammo. A figure fired on without damage takes the Received Fire test."
    ),
    "§3.5–§3.8 (L660–747, L770–778)",
    "damage_every_hit",
)
RECEIVED_FIRE = Rule(
    N_("The Received Fire test"),
    N_(
        "Every time a figure is fired on and takes no damage it takes this test (2d6 against its Rep, once for "
        "fire at one moment). A Hero may choose his reaction. An inactive figure fires back only at whoever fired on "
        "it. Passed by 2: in cover, outgunned figures duck back, others fire; in the open, outgunned figures go "
        "prone (after a fast move: to cover within 3″ and duck back), others stop and fire. Passed by 1: fired on "
        "from the flank or rear they run away; in cover outgunned figures duck back, in the open they go prone; "
        "others fire at Rep −1. Passed by 0: in cover they hunker down, the others run away."
    ),
    "§3.11 (L923–951)",
    "received_fire_order",
)
IN_SIGHT = Rule(
    N_("The In Sight test"),
    N_(
        "Every time an enemy that began its move out of a figure's sight (or range) comes into it, that figure "
        "takes this test; +1d6 for a figure on covering fire. Passed by 2: they fire. Passed by 1: those in cover "
        "fire at full rate of fire and Rep −1; those in the open duck back or go prone. Passed by 0: they stand and "
        "do nothing. Hidden figures with their Leader may choose to fire or not."
    ),
    "§3.4 (L593–624)",
    "group_test_readers",
)
WANTING_TO_CHARGE = Rule(
    N_("The Wanting to Charge test"),
    N_(
        "A figure that tries to charge an enemy first takes this test; it must have the speed to reach the enemy. "
        "The Leader Die counts, a Hero may choose his reaction. Passed by 2: all charge. Passed by 1: those in cover "
        "stay and fire if they can, the others charge. Passed by 0: all stay where they are."
    ),
    "§3.14 (L1042–1058)",
    "leader_dice",
)
BEING_CHARGED = Rule(
    N_("The Being Charged test"),
    N_(
        "Every figure successfully charged takes this test; a Hero may choose his reaction. Passed by 2: those who "
        "can fire and prepare for melee; charged in the flank or rear they turn and fight the first round at Rep "
        "−1; the others stay and prepare. Passed by 1: in cover they fire at the charger and prepare; charged in "
        "the flank or rear they run away; the others cannot fire but prepare. Passed by 0: in cover they prepare "
        "for melee, the others run away."
    ),
    "§3.15 (L1060–1078)",
    "being_charged_order",
)
MELEE = Rule(
    N_("Hand-to-hand fight"),
    N_(
        "Every figure in the fight rolls 2d6 against its Rep: +1d6 for attributes, −1d6 lying, minus the difference "
        "of Impacts to the one with the lower, −1 against two opponents, −2 against three, never below 1. Equal "
        "passes: all miss, the melee goes on. One more: the winner rolls on the melee damage table (a 1 kills, at "
        "most the Impact: out of the fight, above: knocked down). Two more: the winner rolls 1d6, a 1 kills, "
        "otherwise out of the fight."
    ),
    "§3.16 (L1080–1159)",
    "melee_impact_basis",
)
RECOVERY = Rule(
    N_("The Recovery test"),
    N_(
        "A Knocked Down or Duck Back figure takes it at its next activation (2d6, a Leader 3d6). Passed by 2: back "
        "in the fight, it may act at once as it likes. Passed by 1: roll again at once; passed by 1 again reads as "
        "passed by 0. Passed by 0: Knocked Down figures are out of the fight, Duck Back figures run away. A Hero may "
        "choose the result when recovering from Duck Back."
    ),
    "§3.9 (L741–762, L990–991)",
    "recovery_timing",
)
GRENADE = Rule(
    N_("Throwing grenades"),
    N_(
        "A grenade is thrown up to 6″ on the Hit table: 1d6 plus the thrower's Rep. Every figure under the blast "
        "template takes damage as if hit, each with its own cover. A hand-thrown miss rolls on Where Is The "
        "Grenade?: passed by 2, it explodes harmlessly; by 1, look out: roll to hit again against the nearest group "
        "on the line of the throw; by 0, it drops at the thrower's feet: each figure under the template on him "
        "rolls 1d6 against its Rep, those who pass go prone and duck back, the others take damage."
    ),
    "§3.10 (L815–861)",
    "grenade_template",
)
STAY_OR_RUN = Rule(
    N_("The Stay or Run test"),
    N_(
        "Divide the figures the side began with by six, rounded to the nearest whole number. Every time at the end "
        "of an activation the side's casualties (dead or out of the fight) reach another such number, roll 2d6 and "
        "read them for each figure; while the force's leader is on his feet the Leader Die may be used. The result "
        "follows the side's motivation and its losses (3/4, 1/2, 1/3 of the force). Figures that stop fighting do "
        "not advance nor fire except in reaction, and try to leave the table."
    ),
    "§3.17 (L1181–1227)",
    "stay_or_run_rounding",
)
MOVE = Rule(
    N_("Moving a figure"),
    N_(
        "A figure of Rep 2 or less moves 6″, the others 8″. A fast move needs a test on 2d6: up to 16″, 12″ or 8″, "
        "and the figure counts as having moved fast. A figure may fire at any moment of its move. Every time an "
        "enemy comes into a figure's sight, that figure takes the In Sight test."
    ),
    "§3.2 (L464–549, L598–601)",
)
OUT_OF_AMMO = Rule(
    N_("Out of ammo and reloading"),
    N_(
        "Every time a figure rolls two or more 1s when firing it can fire no more until it reloads. Reloading takes "
        "a whole activation, in which the figure may move but not fire."
    ),
    "§3.8 (L770–778)",
    "reload",
)
COVERING_FIRE = Rule(
    N_("Covering fire"),
    N_(
        "A figure that stood still in its activation may declare covering fire; mark it. Figures on covering fire "
        "roll an extra die on the In Sight test."
    ),
    "§3.7 (L785–791)",
    "covering_fire_ends",
)
KNOCKED_DOWN = Rule(
    N_("Knocked Down"),
    N_(
        "The figure was hit and fell; what became of it is not yet clear. At its next activation it takes the "
        "Recovery test."
    ),
    "§3.6 (L740–742)",
    "knocked_down_is_prone",
)
DUCK_BACK = Rule(
    N_("Duck Back"),
    N_(
        "Move away from the threat to the nearest cover within 12″ and hide behind it. A figure that ducked back "
        "does not see whom it hid from, nor is it seen. It takes the Recovery test at its next activation, and may "
        "still take reaction tests."
    ),
    "§3.12 (L987–993)",
    "no_cover_within_reach",
)
HUNKER_DOWN = Rule(
    N_("Hunker Down"),
    N_(
        "The figure in cover is gripped by fear and takes no action; another figure must bring it round. Fired on, "
        "it runs away at once; an armed enemy within 6″ and in sight takes it prisoner."
    ),
    "§3.12 (L995–1000)",
    "hunker_down_recovery",
)
RUNAWAY = Rule(
    N_("Runaway"),
    N_(
        "The figure tries to leave the battle: at top speed to a building away from the enemy, or to the nearest "
        "table edge. Surrounded, it surrenders. With a friend in normal state within 2″ it may take the Rally test "
        "to return."
    ),
    "§3.12 (L1002–1012)",
    "runaway_speed",
)
OUT_OF_FIGHT = Rule(
    N_("Out of the Fight"),
    N_(
        "The target is badly wounded and out of the fight: it can act no more in this battle. It counts as a "
        "casualty for the Stay or Run test."
    ),
    "§3.6 (L737–738, L1190–1191)",
)
DEAD = Rule(
    N_("Obviously Dead"),
    N_("A 1 on the damage die: the figure is dead; the wound leaves no doubt. It counts as a casualty."),
    "§3.6 (L735–736, L1190–1191)",
)
CAPTURED = Rule(
    N_("Taken prisoner"),
    N_(
        "A hunkered-down figure with an armed enemy within 6″ in sight, or a runaway surrounded with no way to keep "
        "6″ from the enemy, surrenders."
    ),
    "§3.12 (L998–1004)",
)
LEADER = Rule(
    N_("Leaders"),
    N_(
        "A Leader lets every figure of his group activate on his Rep. Leaders roll 3d6 on every personal reaction "
        "test except In Sight, and give their group the Leader Die on some tests: roll 1d6 against the Leader's "
        "Rep; if it passes, add it to the result of the other figures taking the test."
    ),
    "§2.1 (L262–282)",
    "leader_dice",
)
HERO = Rule(
    N_("Heroic behaviour"),
    N_(
        "A figure that rolls two 1s on any reaction test except In Sight becomes a Hero: it need not take reaction "
        "tests and may choose any result of a test, until the end of the battle or until it is out of the fight."
    ),
    "§3.19 (L1161–1167)",
    "hero_choice",
)
PRONE = Rule(
    N_("Going prone"),
    N_(
        "A prone figure is a harder target (an 8 misses it), but charged in melee it rolls one die less. Going "
        "prone ends the figure's move, though one that went prone by choice may still fire."
    ),
    "§3.2 (L501–509), §3.5 (L696)",
    "knocked_down_is_prone",
)
COVER = Rule(
    N_("Cover"),
    N_(
        "A target in cover is behind a solid obstacle that hides part of it and stops bullets: an 8 or a 9 misses "
        "it. Those inside a building always count as in cover."
    ),
    "§3.5 (L693, L702, L715–717)",
)
FAST_MOVE = Rule(
    N_("Fast Move"),
    N_(
        "Whatever the distance it really covered, a figure that took the Fast Move test counts as having moved "
        "fast: an 8 misses when the target or the shooter moved fast. It may not reload while moving fast."
    ),
    "§3.2 (L474–499, L533–538), §3.5 (L697)",
)
STOPPED_FIGHTING = Rule(
    N_("Stopped fighting"),
    N_(
        "The figures may not advance except to carry the wounded, and may not fire except in reaction tests. They "
        "must try to leave the table."
    ),
    "§3.17 (L1223–1227)",
)

RULES: dict[str, Rule] = {
    # the board's forms and buttons, by command
    "activation": ACTIVATION,
    "shoot": SHOOTING,
    "answer_reaction": RECEIVED_FIRE,
    "in_sight": IN_SIGHT,
    "charge": WANTING_TO_CHARGE,
    "answer_charge": BEING_CHARGED,
    "melee": MELEE,
    "recover": RECOVERY,
    "grenade": GRENADE,
    "stay_or_run": STAY_OR_RUN,
    "move": MOVE,
    "reload": OUT_OF_AMMO,
    "covering_fire": COVERING_FIRE,
    # the chips of a figure's card, by the state's key (and the tests a figure owes)
    "received_fire": RECEIVED_FIRE,
    "being_charged": BEING_CHARGED,
    "knocked_down": KNOCKED_DOWN,
    "duck_back": DUCK_BACK,
    "hunker_down": HUNKER_DOWN,
    "runaway": RUNAWAY,
    "out_of_fight": OUT_OF_FIGHT,
    "dead": DEAD,
    "captured": CAPTURED,
    "leader": LEADER,
    "hero": HERO,
    "prone": PRONE,
    "in_cover": COVER,
    "fast_moved": FAST_MOVE,
    "stopped_fighting": STOPPED_FIGHTING,
    "out_of_ammo": OUT_OF_AMMO,
}
