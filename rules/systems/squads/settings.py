"""Settings of «Отряды»: the book's one option (the unit of length) and every ambiguity of spec §5 (B1–B25), each
defaulting to the spec's recommendation; where the spec shows a contradiction the default follows the core rule.

Keys are stable: the battle tracker stores them with each battle and the simulator reads them. The spec numbers
its ambiguities B1–B25, so `source` reads "§5 B<n>" with the book's lines. Readings the engine takes as given
(B2, B11's dice, B17's rows, B25) are settings of category "interpretation" with one choice, so a game records
every reading it was played under.
"""

from __future__ import annotations

from rules.contract import Setting

OPTION = "option"
AMBIGUITY = "ambiguity"
HOUSE = "house"
INTERPRETATION = "interpretation"

SETTINGS: tuple[Setting, ...] = (
    # The book's option ----------------------------------------------------------------------------------
    Setting(
        key="units",
        label="Unit of length",
        default="in",
        kind="choice",
        choices=("in", "cm"),
        source="§0 (every distance of the text is an inches/cm pair)",
        category=OPTION,
        help="Inches, or the book's centimetres (6\" = 15 cm where no cm is given; melee moves d6 x 2.5 cm).",
    ),
    # B1: the blank «Подавление» column -------------------------------------------------------------------
    *(
        Setting(
            key=f"suppression_cap_{level}",
            label=f"Most suppressed figures: {name}",
            default=cap,
            kind="int",
            source="§5 B1 (L4–8, L31)",
            help=f"The book's column is blank; FUBAR 4th edition gives {cap} for {name}.",
        )
        for level, name, cap in (
            ("recruit", "Рекрут", 1),
            ("regular", "Рядовой", 2),
            ("veteran", "Ветеран", 3),
            ("elite", "Элита", 4),
        )
    ),
    Setting(
        key="expertise_reading",
        label="«Опыт» is",
        default="hit_number",
        kind="choice",
        choices=("hit_number",),
        source="§5 B2 (L5–8, L28, L33)",
        category=INTERPRETATION,
        help="The «Опыт» column is the number each fire die must reach; cover raises it.",
    ),
    # B3: who takes the hits and who splits them ----------------------------------------------------------
    Setting(
        key="save_allocation",
        label="Saves against hits",
        default="by_figure",
        kind="choice",
        choices=("by_figure", "majority_armour"),
        source="§5 B3 (L28)",
        help="By figure: the target's owner gives each hit to a figure, which saves with its own armour. "
        "Majority armour: every hit is saved with the armour most of the unit wears.",
    ),
    Setting(
        key="split_chooser",
        label="Who splits unsaved hits",
        default="target_owner",
        kind="choice",
        choices=("target_owner", "shooter"),
        source="§5 B3 (L28)",
        help="Who chooses how many unsaved hits become suppression and how many casualties.",
    ),
    Setting(
        key="suppressed_then_casualty",
        label="A suppressed figure as a casualty",
        default="other_bout",
        kind="choice",
        choices=("other_bout", "never_while_suppressed"),
        source="§5 B4 (L28)",
        help="Other bout: a figure takes one outcome per bout of fire; one suppressed earlier may still become a "
        "casualty. Never while suppressed: casualties fall only on figures that are not suppressed.",
    ),
    Setting(
        key="aimed_cap_order",
        label="Aimed fire and the 6+ cap",
        default="cap_then_aim",
        kind="choice",
        choices=("cap_then_aim", "aim_then_cap"),
        source="§5 B5 (L23, L38)",
        help="Cap then aim: the hit number is capped at 6+, then the die gets +1 (an aimed Recruit hits a bunker "
        "on 5+). Aim then cap: aim lowers the uncapped number first (6+ against the bunker).",
    ),
    Setting(
        key="walk_fire",
        label="Weapons fired on a Walk",
        default="small_arms_and_grenades",
        kind="choice",
        choices=("small_arms_and_grenades", "any_weapon"),
        source="§5 B6 (L18)",
        help="«небольшого оружия»: the small-arms table and thrown grenades; support weapons need Aimed fire, On "
        "Guard or a stationary vehicle. Any weapon: everything fires on a Walk.",
    ),
    # B7: cover --------------------------------------------------------------------------------------------
    Setting(
        key="mixed_cover",
        label="Mixed cover",
        default="majority",
        kind="choice",
        choices=("majority", "worst", "best"),
        source="§5 B7 (L33)",
        help="When the covered figures stand in different covers: the type covering most of them (ties: the "
        "lower), the lowest type, or the highest.",
    ),
    Setting(
        key="cover_edge_only",
        label="Only figures at the cover's edge can be hit",
        default=True,
        source="§5 B7 (L28)",
        help='Firing into cover needs enemy figures within 2"/5 cm of its edge; on: suppression and casualties '
        "fall only on those figures.",
    ),
    Setting(
        key="hmg_infantry_crew",
        label="Infantry heavy machine gun crew",
        default="two_per_gun",
        kind="choice",
        choices=("two_per_gun", "one_enough"),
        source="§5 B8 (L64)",
        help="Two per gun: 4 dice per two-man team, a lone gunner cannot fire. One enough: any crewman fires it.",
    ),
    Setting(
        key="mortar_line_of_sight",
        label="Mortar fire without line of sight",
        default="none_needed",
        kind="choice",
        choices=("none_needed", "spotter"),
        source="§5 B9 (L66)",
        help="None needed: the text. Spotter: some friendly figure must see the target (FUBAR).",
    ),
    Setting(
        key="melee_attackers",
        label="Attacking figures that fight",
        default="within_reach",
        kind="choice",
        choices=("within_reach", "whole_unit"),
        source="§5 B10 (L42)",
        help='Within reach: the attackers that end within 3"/8 cm of an enemy figure. Whole unit: every figure.',
    ),
    Setting(
        key="melee_dice",
        label="Melee dice",
        default="one_per_figure",
        kind="choice",
        choices=("one_per_figure",),
        source="§5 B11 (L42)",
        category=INTERPRETATION,
        help="One die per figure whatever its weapon; the fight ends when a side has no figures or withdraws.",
    ),
    Setting(
        key="melee_round_clears_suppression",
        label="A melee round clears suppression",
        default=True,
        source="§5 B11 (L31, L42)",
        help="Units locked in melee make no activation roll; on: their suppression clears at the start of each "
        "later melee round. Off: suppressed figures keep striking last.",
    ),
    Setting(
        key="melee_lock",
        label="Locked in melee",
        default="both",
        kind="choice",
        choices=("both", "defender_only"),
        source="§5 B12 (L42)",
        help="Both: attacker and defender may only try to withdraw. Defender only: the text's «атакованные отряды».",
    ),
    # B13: On Guard -----------------------------------------------------------------------------------------
    Setting(
        key="on_guard_timing",
        label="On Guard fires",
        default="interrupt",
        kind="choice",
        choices=("interrupt", "after_action"),
        source="§5 B13 (L21)",
        help="Interrupt: after an enemy unit declares its action, before it is resolved. After action: once the "
        "enemy's action is done.",
    ),
    Setting(
        key="on_guard_until",
        label="On Guard lasts",
        default="next_activation",
        kind="choice",
        choices=("next_activation", "end_of_turn"),
        source="§5 B13 (L21)",
        help="Until the unit's next activation attempt, or only until the end of the turn.",
    ),
    Setting(
        key="vehicle_level",
        label="A vehicle activates and shoots as",
        default="crew_level",
        kind="choice",
        choices=("crew_level", "regular"),
        source="§5 B14 (L76)",
        help="Crew level: each vehicle has a crew training level. Regular: every vehicle as «Рядовой».",
    ),
    # B15: vehicle moves -----------------------------------------------------------------------------------
    Setting(
        key="vehicle_move_fire",
        label="A moving vehicle fires one weapon",
        default="any_move",
        kind="choice",
        choices=("any_move", "light_cover_move_only"),
        source="§5 B15 (L77)",
        help='Any move: both the 12" open move and the 6" light-cover move fire one weapon. Light-cover move '
        "only: the open move does not fire.",
    ),
    Setting(
        key="tank_classes",
        label="«Средние и тяжелые танки» are",
        default="heavy_and_super_heavy",
        kind="choice",
        choices=("heavy_and_super_heavy", "medium_and_heavy"),
        source="§5 B15 (L77, L81–83)",
        help="Which vehicle armour classes may cross medium cover: Heavy 3+ (medium tanks) and Super-heavy 2+ "
        "(heavy tanks), or the armour classes Medium and Heavy.",
    ),
    # B16: the damage die by facing -------------------------------------------------------------------------
    Setting(
        key="facing_best",
        label="«Лучший» result for a front hit",
        default="front_lower",
        kind="choice",
        choices=("front_lower", "front_higher"),
        source="§5 B16 (L90)",
        help="Front lower: the front takes the lower (milder) of two dice, the rear the higher. Front higher: the "
        "other way round.",
    ),
    Setting(
        key="facing_doubles",
        label="Doubles on the two damage dice",
        default="reroll",
        kind="choice",
        choices=("reroll", "keep"),
        source="§5 B16 (L90)",
        help="«Перебросьте кубик в случае совпадения»: re-roll both when they match (a front hit then never "
        "destroys), or keep them.",
    ),
    # B17: the damage table ----------------------------------------------------------------------------------
    Setting(
        key="damage_rows",
        label="Damage table rows 5 and 6",
        default="5_immobilised_6_destroyed",
        kind="choice",
        choices=("5_immobilised_6_destroyed",),
        source="§5 B17 (L88–89)",
        category=INTERPRETATION,
        help="The rows lost their numbers; by elimination 5 is loss of mobility, 6 destroyed.",
    ),
    Setting(
        key="bail_out_hits",
        label="Hits on crew and passengers of a destroyed vehicle",
        default="per_figure",
        kind="choice",
        choices=("per_figure", "per_unit"),
        source="§5 B17 (L89)",
        help="«получают один хит»: one hit per figure, or one hit per unit aboard.",
    ),
    Setting(
        key="stun_stacking",
        label="Repeated crew stuns",
        default="flat",
        kind="choice",
        choices=("flat", "stacking"),
        source="§5 B17 (L86)",
        help="Flat: stunned is −2 however often. Stacking: −2 per stun result.",
    ),
    Setting(
        key="armour_immune_weapons",
        label="Weapons that cannot harm armour (save 5+ or better)",
        default="small_arms_and_hmg",
        kind="choice",
        choices=("small_arms_and_hmg", "firearms_and_hmg"),
        source="§5 B18 (L84)",
        help="Small arms and HMG: the whole small-arms table (grenade launcher too) and the HMG. Firearms and HMG: "
        "the grenade launcher can harm armour.",
    ),
    Setting(
        key="behind_vehicle_save",
        label="Troops behind a vehicle save with",
        default="better",
        kind="choice",
        choices=("better", "vehicle"),
        source="§5 B19 (L77)",
        help="The better of their own armour and the vehicle's, or the vehicle's instead of their own.",
    ),
    Setting(
        key="coherency",
        label="Unit coherency",
        default="chain",
        kind="choice",
        choices=("chain", "isolated_only"),
        source="§5 B20 (L2)",
        help='Chain: figures within 3"/8 cm of another link up; every figure outside the largest group costs −1. '
        'Isolated only: only figures with nobody within 3"/8 cm cost −1.',
    ),
    Setting(
        key="leader_lost",
        label="A unit whose leader fell",
        default="revert",
        kind="choice",
        choices=("revert", "keep"),
        source="§5 B21 (L13)",
        help="Revert: the unit activates on its own level again. Keep: it keeps the leader's level.",
    ),
    Setting(
        key="pass_order",
        label="With more than two players the initiative passes",
        default="initiative_order",
        kind="choice",
        choices=("initiative_order", "seating_order"),
        source="§5 B22 (L12)",
        help="To the next player in the initiative roll's order, or to the next player round the table.",
    ),
    Setting(
        key="withdraw_from",
        label="A failed unit above 50 % casualties withdraws away from",
        default="nearest_visible",
        kind="choice",
        choices=("nearest_visible", "nearest_any"),
        source="§5 B23 (L25)",
        help="The nearest visible enemy (to its deployment point when none is visible), or the nearest enemy.",
    ),
    Setting(
        key="natural_one_six",
        label="A natural 1 fails and a natural 6 passes",
        default=False,
        source="§5 B24 (not in the text)",
        category=HOUSE,
        help="FUBAR's rule for activation rolls; the book has no such rule.",
    ),
    Setting(
        key="text_artefacts",
        label="Stray table rows and typos",
        default="ignored",
        kind="choice",
        choices=("ignored",),
        source="§5 B25 (L16, L29, L39, L66, L74)",
        category=INTERPRETATION,
        help="Empty «|» rows carry nothing; «могу» is «могут», «днедноут» is «дредноут».",
    ),
    # Ambiguities of §3 that the spec leaves without a number -------------------------------------------------
    Setting(
        key="initiative_ties",
        label="Initiative ties re-rolled",
        default="all_ties",
        kind="choice",
        choices=("all_ties", "top_only"),
        source="§3.1 (L12 «При надобности кубик перебрасывается»)",
        help="All ties: every tie is re-rolled among the tied so the whole order is known. Top only: only a tie "
        "for first; lower ties keep the seating order.",
    ),
    Setting(
        key="pursuit_catch",
        label="A pursuer catches the withdrawing unit when its d6",
        default="equal_or_more",
        kind="choice",
        choices=("equal_or_more", "more"),
        source="§3.8 (L42 «догоняет»)",
        help="Equal or more: the pursuit reaches contact again. More: it must roll higher than the withdrawal.",
    ),
)

SETTINGS_BY_KEY = {s.key: s for s in SETTINGS}


def defaults() -> dict:
    return {s.key: s.default for s in SETTINGS}


def full_settings(settings: dict | None) -> dict:
    """Defaults under the given (already checked) settings, so an action never misses a key."""
    return {**defaults(), **(settings or {})}
