"""Settings of «Энфорсеры»: the book's one optional rule (the homerule, L15–17) and every ambiguity of the spec's
§5 (A1–A25) plus the open points the spec names in §3 and its errata, each with the spec's suggested default.

Where the errata (checked against the Russian book) contradicts a §5 recommendation, the default follows the
book: injuries test every tier (A17), fall damage counts the whole height (A12), a counter may be countered and
the counter needs the opponent's reach (§3.12). Readings the engine takes as given (A2, A20, A21, A23) are
settings of category "interpretation" with a single choice, so every ambiguity is named with its source.

Keys are stable: battles store them and the simulator reads them.
"""

from __future__ import annotations

from rules.contract.settings import HOUSE, INTERPRETATION, Setting, SettingsCatalogue
from rules.systems.enforcers.choice_labels import CHOICE_LABELS

SETTINGS: tuple[Setting, ...] = (
    # The book's optional rule ---------------------------------------------------------------------------------
    Setting(
        key="homerule_max_only",
        label="Homerule: only the highest extra d6 counts",
        default=False,
        source="§5 A1 (L15–17)",
        category=HOUSE,
        help="Off: every blessing d6 is subtracted and every curse d6 added (L9–11). On: only the highest one counts.",
    ),
    Setting(
        key="homerule_cancel_first",
        label="Blessings and curses cancel before the homerule",
        default=True,
        source="§5 A1 (L11)",
        help="On: 3 blessings and 1 curse roll 2 blessing dice, then keep the highest. Off: roll all four and keep "
        "the highest of each kind, then net them.",
    ),
    Setting(
        key="modifier_applies_to",
        label="Modifiers change the roll",
        default="roll",
        kind="choice",
        choices=("roll",),
        source="§5 A2 (L7)",
        category=INTERPRETATION,
        help="A modifier is added to the d20 (17 with −1 is 16; the «-16» of the book is an OCR dash).",
    ),
    # A3 crits -------------------------------------------------------------------------------------------------
    Setting(
        key="crit_auto_success",
        label="A critical success always succeeds",
        default=True,
        source="§5 A3 (L43)",
        help="On: a die face at or under the crit chance succeeds whatever the blessings, curses and modifiers.",
    ),
    Setting(
        key="crit_effect",
        label="What a critical hit does",
        default="none",
        kind="choice",
        choices=("none", "double_damage", "ignore_armour"),
        source="§5 A3 (L43, L111)",
        help="The book never says. None: it is only flagged. Double damage, or damage that ignores AP.",
    ),
    Setting(
        key="cover_crit_immunity",
        label="Taking cover cancels",
        default="crit_effect",
        kind="choice",
        choices=("crit_effect", "crit_success"),
        source="§5 A3 (L111)",
        help="Crit effect: a crit against a model that took cover has no effect but still hits (§3.10). Crit "
        "success: it also loses its automatic success.",
    ),
    # A4–A5 melee ----------------------------------------------------------------------------------------------
    Setting(
        key="parry_penalty",
        label="Parry and block penalty",
        default="curses",
        kind="choice",
        choices=("curses", "modifier"),
        source="§5 A4 (L191, L210)",
        help="Curses: one curse per full 5 of the defender's WS (WS 10 gives 2). Modifier: +1 to the roll per 5.",
    ),
    Setting(
        key="parry_on_counter",
        label="Parry applies to counter-attacks",
        default=True,
        source="§5 A4 (L210)",
        help="The original attacker parries a counter-attack unless it is stunned or attacked from outside its arc.",
    ),
    Setting(
        key="reach_disadvantage",
        label="Shorter reach",
        default="curse_per_cm",
        kind="choice",
        choices=("curse_per_cm", "ignored"),
        source="§5 A5 (L187–190)",
        help="Curse per cm: each cm the opponent's weapon outreaches yours is a curse. Ignored: the garbled row «1 1» "
        "read literally (a blessing and a curse, which cancel).",
    ),
    # A6 dying -------------------------------------------------------------------------------------------------
    Setting(
        key="dying_threshold",
        label="Dying starts",
        default="below_half",
        kind="choice",
        choices=("below_half", "at_half"),
        source="§5 A6 (L222)",
        help="Below half: Dying when −HP is more than half of HL (HL 6: HP −4). At half: HP at or under −half (−3).",
    ),
    # A7 turn and round ----------------------------------------------------------------------------------------
    Setting(
        key="duration_unit",
        label="Status durations count",
        default="own_activation",
        kind="choice",
        choices=("own_activation", "round"),
        source="§5 A7 (L224, L303, L311)",
        help="Own activation: Burning, Disoriented, Pinned and Dying count down at the end of the model's own "
        "activations. Round: at the end of each round.",
    ),
    Setting(
        key="counter_limit",
        label="One counter-attack per",
        default="round",
        kind="choice",
        choices=("round", "activation"),
        source="§5 A7 (L214)",
        help="«1 контр-атаку в ход»: one per round, or one per activation of the attacker.",
    ),
    # A8–A10 movement and charge -------------------------------------------------------------------------------
    Setting(
        key="jump_limit",
        label="A move with a jump",
        default="move_total",
        kind="choice",
        choices=("move_total", "jump_distance"),
        source="§5 A8 (L85)",
        help="Move total: the jump is part of a move of at most DX. Jump distance: the whole move is capped at the "
        "jump distance (the literal words).",
    ),
    Setting(
        key="free_weapon_swaps",
        label="Free weapon stow/draw/switch",
        default="one_per_activation",
        kind="choice",
        choices=("one_per_activation", "switch_unlimited"),
        source="§5 A9 (L73)",
        help="One per activation: one free stow, draw or switch. Switch unlimited: one stow or draw, any switches.",
    ),
    Setting(
        key="charge_reach",
        label="Charge: moving into whose reach",
        default="opponent",
        kind="choice",
        choices=("opponent", "own"),
        source="§5 A10 (L204–206)",
        help="Opponent: the charge blessing needs a move into the opponent's weapon reach (the book's words). Own: "
        "into the charger's own reach. The charge is a Move then a Fight, both actions.",
    ),
    # Counter-attack (errata §3.12) ----------------------------------------------------------------------------
    Setting(
        key="counter_on_counter",
        label="A counter-attack may be countered",
        default=True,
        source="Errata §3.12 (L214)",
        help="The book only limits each fighter to one counter per turn: a failed counter may be answered by the "
        "original attacker if it still has its counter.",
    ),
    Setting(
        key="counter_reach",
        label="Counter-attack needs to be within",
        default="opponent",
        kind="choice",
        choices=("opponent", "own"),
        source="Errata §3.12 (L214)",
        help="«в пределах дистанции противника»: within the attacker's weapon reach (the book), or the defender's own.",
    ),
    # A11 stray shots ------------------------------------------------------------------------------------------
    Setting(
        key="stray_shot_trigger",
        label="A stray shot happens on",
        default="natural",
        kind="choice",
        choices=("natural", "result", "off"),
        source="§5 A11 (L170)",
        help="Natural: a failed shot whose d20 shows 18–20. Result: a failed shot whose final result is 18–20. Off.",
    ),
    # A12 falling ----------------------------------------------------------------------------------------------
    Setting(
        key="fall_damage",
        label="Fall damage counts",
        default="whole_height",
        kind="choice",
        choices=("whole_height", "excess"),
        source="§5 A12 (L234), errata",
        help="Whole height: 1 damage per cm fallen once over the safe height (the book). Excess: per cm over it.",
    ),
    Setting(
        key="fall_damage_armour",
        label="Armour absorbs fall damage",
        default=True,
        source="§5 A12 (L220)",
        help="The general rule: every damage goes to AP first unless a rule says otherwise.",
    ),
    # A13 medical aid ------------------------------------------------------------------------------------------
    Setting(
        key="medic_tests",
        label="Medical aid tests the HL of",
        default="healer",
        kind="choice",
        choices=("healer", "target"),
        source="§5 A13 (L117)",
    ),
    Setting(
        key="medkit_consumed",
        label="Medical aid uses up the med-kit",
        default=False,
        source="§5 A13 (L117)",
    ),
    Setting(
        key="heal_seriously_wounded",
        label="Restoring HP works on a seriously wounded model",
        default=False,
        source="§5 A13 (L119–120)",
        help="Off: a seriously wounded model must be revived (HP to 1 on a success), not merely healed.",
    ),
    # A14 armour repair ----------------------------------------------------------------------------------------
    Setting(
        key="repair_modifier",
        label="Armour repair: +1 per AP goes to",
        default="roll",
        kind="choice",
        choices=("roll", "difficulty"),
        source="§5 A14 (L264)",
        help="Roll: +1 per AP is added to the roll (L7), so heavy armour is harder to repair. Difficulty: to the IT.",
    ),
    Setting(
        key="armour_restored_after_scenario",
        label="Unbroken armour is restored to full AP after a scenario",
        default=True,
        source="§5 A14 (L262)",
    ),
    # A15 pinned -----------------------------------------------------------------------------------------------
    Setting(
        key="pinned_duration",
        label="Pinned lasts",
        default="next_activation",
        kind="choice",
        choices=("next_activation", "until_removed"),
        source="§5 A15 (L105–107, L313–317)",
        help="Next activation: until the end of the pinned model's next activation. Until removed: by hand.",
    ),
    Setting(
        key="suppressor_reactions",
        label="Suppressor's reaction shots",
        default="one_per_action",
        kind="choice",
        choices=("one_per_action", "unlimited"),
        source="§5 A15 (L317)",
        help="One reaction shot for each move or shot of the pinned model, or as many as the suppressor likes.",
    ),
    Setting(
        key="line_of_fire_cm",
        label="Line-of-fire corridor (cm each side)",
        default=2,
        kind="int",
        source="§5 A15, A11 (L170)",
        help="Models this close to the shooter–target line take stray shots and suppression.",
    ),
    # A16 burning ----------------------------------------------------------------------------------------------
    Setting(
        key="burning_armour",
        label="Armour absorbs burning damage",
        default=True,
        source="§5 A16 (L303)",
        help="Unlike Bleeding and Poisoned, Burning does not say «regardless of AP».",
    ),
    # A17 injuries ---------------------------------------------------------------------------------------------
    Setting(
        key="injury_tiers",
        label="Post-scenario injury tests",
        default="every_tier",
        kind="choice",
        choices=("every_tier", "worst_only"),
        source="§5 A17 (L242–246), errata",
        help="Every tier: a model that was Dying also tests for Seriously wounded and half HP (the book); the "
        "longest downtime counts. Worst only: one test, for the worst tier reached.",
    ),
    # A18 popcorn ----------------------------------------------------------------------------------------------
    Setting(
        key="next_round_picker",
        label="Who picks first in the next round",
        default="last_model",
        kind="choice",
        choices=("last_model", "players"),
        source="§5 A18 (L63)",
        help="Last model: the model that went last picks (the GM for an NPC), itself included. Players: the players "
        "choose again as at the start of the scenario.",
    ),
    # A19 last rites -------------------------------------------------------------------------------------------
    Setting(
        key="last_rites",
        label="Last Rites",
        default="peaceful_death",
        kind="choice",
        choices=("peaceful_death", "death"),
        source="§5 A19 (L137–138)",
        help="Peaceful death: the Dying target dies and friends take no Fear test for it. Death: it simply dies.",
    ),
    # A20 data gaps --------------------------------------------------------------------------------------------
    Setting(
        key="burst_ammo",
        label="Ammo a burst uses",
        default=1,
        kind="int",
        source="§5 A20 (L160)",
        help="The book gives no ammo use for bursts: set your group's (1: like a single shot).",
    ),
    Setting(
        key="auto_ammo",
        label="Ammo automatic fire uses",
        default=1,
        kind="int",
        source="§5 A20 (L161)",
        help="The book gives no ammo use for automatic fire: set your group's (1: like a single shot).",
    ),
    Setting(
        key="grenade_blast_cm",
        label="Grenade blast radius (cm)",
        default=0,
        kind="int",
        source="§5 A20 (L174)",
        help="The book gives none: 0 means a thrown weapon hits only the model it lands on.",
    ),
    Setting(
        key="missing_sections",
        label="Sections missing from the book",
        default="group_content",
        kind="choice",
        choices=("group_content",),
        source="§5 A20",
        category=INTERPRETATION,
        help="Archetypes, stat rolling, perks, weapons, psi powers, the repair action and victory conditions come "
        "from your group: the army builder lets you define them.",
    ),
    Setting(
        key="table_artefacts",
        label="OCR artefacts of the tables",
        default="dropped",
        kind="choice",
        choices=("dropped",),
        source="§5 A21",
        category=INTERPRETATION,
        help="Duplicated rows and digits (prayers L134/L136, L159, L188/L190, L336 «0», L344 «17») are dropped.",
    ),
    # A22 fear "Fight" -----------------------------------------------------------------------------------------
    Setting(
        key="fear_fight_unarmed",
        label="Fear «Сражаться» without a drawn ranged weapon",
        default="melee_or_freeze",
        kind="choice",
        choices=("melee_or_freeze", "freeze"),
        source="§5 A22 (L287)",
        help="Melee or freeze: fight in melee if an enemy is within reach, else freeze (take cover).",
    ),
    Setting(
        key="psi_armour_traits",
        label="Sanctified and Psi Skin",
        default="casting_test",
        kind="choice",
        choices=("casting_test",),
        source="§5 A23 (L335–338)",
        category=INTERPRETATION,
        help="The curse or blessing goes on whatever test your group uses to cast psi powers (the section is absent).",
    ),
    Setting(
        key="encumbrance_counts",
        label="Items that count against carrying capacity",
        default="all_but_worn_armour",
        kind="choice",
        choices=("all_but_worn_armour", "weapons_only"),
        source="§5 A24 (L49)",
    ),
    Setting(
        key="aim_consumed",
        label="Aim bonus is used up",
        default="first_shot",
        kind="choice",
        choices=("first_shot", "until_move"),
        source="§5 A25 (L93)",
        help="First shot: the stacks go with the first shot at the aimed point. Until move: they last until it moves.",
    ),
    # Open points named in §3 and §3.17 ------------------------------------------------------------------------
    Setting(
        key="reroll_scope",
        label="Intercession re-rolls",
        default="whole_test",
        kind="choice",
        choices=("whole_test", "d20_only"),
        source="§3.1 (L135)",
        help="Whole test: the d20 and every extra d6 again. D20 only: the blessing and curse dice stay.",
    ),
    Setting(
        key="move_penalty_order",
        label="Speed penalties: order",
        default="subtract_then_halve",
        kind="choice",
        choices=("subtract_then_halve", "halve_then_subtract"),
        source="§3.4 (L49, L299, L303)",
        help="Encumbrance and poison take −2 cm each; burning halves the speed. Which comes first.",
    ),
    Setting(
        key="stance_expiry",
        label="Overwatch and Take cover end",
        default="next_activation",
        kind="choice",
        choices=("next_activation", "end_of_round"),
        source="§3.7 (L101–111)",
        help="Next activation: when the model's next activation starts (or when it moves). End of round.",
    ),
    Setting(
        key="fear_retest_leadership",
        label="The Fear re-test may use a friend's LD",
        default=True,
        source="§3.16 (L274, L291)",
    ),
    Setting(
        key="poison_cure_skips_damage",
        label="Shaking off poison skips that activation's damage",
        default=True,
        source="§3.17 (L299)",
        help="The TN test comes «before the damage»: on a success the status ends before it hurts.",
    ),
    Setting(
        key="stun_timing",
        label="A stun gained mid-activation",
        default="current_first",
        kind="choice",
        choices=("current_first", "next_activation"),
        source="§3.17 (L307)",
        help="Current first: it takes an action left in this activation, else one of the next. Next activation.",
    ),
    Setting(
        key="scatter_direction",
        label="Thrown weapon scatter direction",
        default="clock_d12",
        kind="choice",
        choices=("clock_d12", "reported"),
        source="§3.11 (L174)",
        help="The book draws a line between the two dice on the table. Clock d12: a d12 gives the direction as on "
        "a clock face (12 = straight on). Reported: the player types the direction in degrees.",
    ),
    Setting(
        key="fear_test_on_hp_loss",
        label="Fear test when HP is lost",
        default="gm_decides",
        kind="choice",
        choices=("gm_decides", "always"),
        source="§3.16 (L278, L283)",
        help="GM decides: the tracker offers the test. Always: every HP loss asks for a WL test.",
    ),
    Setting(
        key="days_between_scenarios",
        label="Days between scenarios",
        default=7,
        kind="int",
        source="§1 campaign layer, §3.18–3.19 (L248, L268)",
        help="The book counts injuries and unusable armour in days but keeps no calendar. Each scenario carried "
        "into the crew takes this many days off them.",
    ),
)

CATALOGUE = SettingsCatalogue(SETTINGS, choice_labels=CHOICE_LABELS)  # issue #19: each choice in words
SETTINGS, SETTINGS_BY_KEY = CATALOGUE.all, CATALOGUE.by_key
defaults, full_settings = CATALOGUE.defaults, CATALOGUE.full
