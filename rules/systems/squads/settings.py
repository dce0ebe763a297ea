"""Settings of «Отряды»: the book's one option (the unit of length) and every ambiguity of spec §5 (B1–B25), each
defaulting to the spec's recommendation; where the spec shows a contradiction the default follows the core rule.

Keys are stable: the battle tracker stores them with each battle and the simulator reads them. The spec numbers
its ambiguities B1–B25, so `source` reads "§5 B<n>" with the book's lines. Readings the engine takes as given
(B2, B11's dice, B17's rows, B25) are settings of category "interpretation" with one choice, so a game records
every reading it was played under.
"""

from __future__ import annotations

from rules.contract.settings import HOUSE, INTERPRETATION, OPTION, Setting, SettingsCatalogue
from rules.i18n import N_

SETTINGS: tuple[Setting, ...] = (
    # The book's option ----------------------------------------------------------------------------------
    Setting(
        key="units",
        label=N_("Unit of length"),
        default="in",
        kind="choice",
        choices=("in", "cm"),
        source="§0 (every distance of the text is an inches/cm pair)",
        category=OPTION,
        help=N_("Inches, or the book's centimetres (6\" = 15 cm where no cm is given; melee moves d6 x 2.5 cm)."),
    ),
    # B1: the blank «Подавление» column -------------------------------------------------------------------
    *(
        Setting(
            key=f"suppression_cap_{level}",
            label=label,
            default=cap,
            kind="int",
            source="§5 B1 (L4–8, L31)",
            help=help_,
        )
        for level, label, help_, cap in (
            (
                "recruit",
                N_("Most suppressed figures: Recruit"),
                N_("The book's column is blank; FUBAR 4th edition gives 1 for a Recruit."),
                1,
            ),
            (
                "regular",
                N_("Most suppressed figures: Regular"),
                N_("The book's column is blank; FUBAR 4th edition gives 2 for a Regular."),
                2,
            ),
            (
                "veteran",
                N_("Most suppressed figures: Veteran"),
                N_("The book's column is blank; FUBAR 4th edition gives 3 for a Veteran."),
                3,
            ),
            (
                "elite",
                N_("Most suppressed figures: Elite"),
                N_("The book's column is blank; FUBAR 4th edition gives 4 for an Elite."),
                4,
            ),
        )  # fmt: skip
    ),
    Setting(
        key="expertise_reading",
        label=N_("«Опыт» is"),
        default="hit_number",
        kind="choice",
        choices=("hit_number",),
        source="§5 B2 (L5–8, L28, L33)",
        category=INTERPRETATION,
        help=N_("The «Опыт» column is the number each fire die must reach; cover raises it."),
    ),
    # B3: who takes the hits and who splits them ----------------------------------------------------------
    Setting(
        key="save_allocation",
        label=N_("Saves against hits"),
        default="by_figure",
        kind="choice",
        choices=("by_figure", "majority_armour"),
        source="§5 B3 (L28)",
        help=N_(
            "By figure: the target's owner gives each hit to a figure, which saves with its own armour. "
            "Majority armour: every hit is saved with the armour most of the unit wears."
        ),
    ),
    Setting(
        key="split_chooser",
        label=N_("Who splits unsaved hits"),
        default="target_owner",
        kind="choice",
        choices=("target_owner", "shooter"),
        source="§5 B3 (L28)",
        help=N_("Who chooses how many unsaved hits become suppression and how many casualties."),
    ),
    Setting(
        key="suppressed_then_casualty",
        label=N_("A suppressed figure as a casualty"),
        default="other_bout",
        kind="choice",
        choices=("other_bout", "never_while_suppressed"),
        source="§5 B4 (L28)",
        help=N_(
            "Other bout: a figure takes one outcome per bout of fire; one suppressed earlier may still become a "
            "casualty. Never while suppressed: casualties fall only on figures that are not suppressed."
        ),
    ),
    Setting(
        key="aimed_cap_order",
        label=N_("Aimed fire and the 6+ cap"),
        default="cap_then_aim",
        kind="choice",
        choices=("cap_then_aim", "aim_then_cap"),
        source="§5 B5 (L23, L38)",
        help=N_(
            "Cap then aim: the hit number is capped at 6+, then the die gets +1 (an aimed Recruit hits a bunker "
            "on 5+). Aim then cap: aim lowers the uncapped number first (6+ against the bunker)."
        ),
    ),
    Setting(
        key="walk_fire",
        label=N_("Weapons fired on a Walk"),
        default="small_arms_and_grenades",
        kind="choice",
        choices=("small_arms_and_grenades", "any_weapon"),
        source="§5 B6 (L18)",
        help=N_(
            "«небольшого оружия»: the small-arms table and thrown grenades; support weapons need Aimed fire, On "
            "Guard or a stationary vehicle. Any weapon: everything fires on a Walk."
        ),
    ),
    # B7: cover --------------------------------------------------------------------------------------------
    Setting(
        key="mixed_cover",
        label=N_("Mixed cover"),
        default="majority",
        kind="choice",
        choices=("majority", "worst", "best"),
        source="§5 B7 (L33)",
        help=N_(
            "When the covered figures stand in different covers: the type covering most of them (ties: the "
            "lower), the lowest type, or the highest."
        ),
    ),
    Setting(
        key="cover_edge_only",
        label=N_("Only figures at the cover's edge can be hit"),
        default=True,
        source="§5 B7 (L28)",
        help=N_(
            'Firing into cover needs enemy figures within 2"/5 cm of its edge; on: suppression and casualties '
            "fall only on those figures."
        ),
    ),
    Setting(
        key="hmg_infantry_crew",
        label=N_("Infantry heavy machine gun crew"),
        default="two_per_gun",
        kind="choice",
        choices=("two_per_gun", "one_enough"),
        source="§5 B8 (L64)",
        help=N_("Two per gun: 4 dice per two-man team, a lone gunner cannot fire. One enough: any crewman fires it."),
    ),
    Setting(
        key="mortar_line_of_sight",
        label=N_("Mortar fire without line of sight"),
        default="none_needed",
        kind="choice",
        choices=("none_needed", "spotter"),
        source="§5 B9 (L66)",
        help=N_("None needed: the text. Spotter: some friendly figure must see the target (FUBAR)."),
    ),
    Setting(
        key="melee_attackers",
        label=N_("Attacking figures that fight"),
        default="within_reach",
        kind="choice",
        choices=("within_reach", "whole_unit"),
        source="§5 B10 (L42)",
        help=N_('Within reach: the attackers that end within 3"/8 cm of an enemy figure. Whole unit: every figure.'),
    ),
    Setting(
        key="melee_dice",
        label=N_("Melee dice"),
        default="one_per_figure",
        kind="choice",
        choices=("one_per_figure",),
        source="§5 B11 (L42)",
        category=INTERPRETATION,
        help=N_("One die per figure whatever its weapon; the fight ends when a side has no figures or withdraws."),
    ),
    Setting(
        key="melee_round_clears_suppression",
        label=N_("A melee round clears suppression"),
        default=True,
        source="§5 B11 (L31, L42)",
        help=N_(
            "Units locked in melee make no activation roll; on: their suppression clears at the start of each "
            "later melee round. Off: suppressed figures keep striking last."
        ),
    ),
    Setting(
        key="melee_lock",
        label=N_("Locked in melee"),
        default="both",
        kind="choice",
        choices=("both", "defender_only"),
        source="§5 B12 (L42)",
        help=N_(
            "Both: attacker and defender may only try to withdraw. Defender only: the text's «атакованные отряды»."
        ),
    ),
    # B13: On Guard -----------------------------------------------------------------------------------------
    Setting(
        key="on_guard_timing",
        label=N_("On Guard fires"),
        default="interrupt",
        kind="choice",
        choices=("interrupt", "after_action"),
        source="§5 B13 (L21)",
        help=N_(
            "Interrupt: after an enemy unit declares its action, before it is resolved. After action: once the "
            "enemy's action is done."
        ),
    ),
    Setting(
        key="on_guard_until",
        label=N_("On Guard lasts"),
        default="next_activation",
        kind="choice",
        choices=("next_activation", "end_of_turn"),
        source="§5 B13 (L21)",
        help=N_("Until the unit's next activation attempt, or only until the end of the turn."),
    ),
    Setting(
        key="vehicle_level",
        label=N_("A vehicle activates and shoots as"),
        default="crew_level",
        kind="choice",
        choices=("crew_level", "regular"),
        source="§5 B14 (L76)",
        help=N_("Crew level: each vehicle has a crew training level. Regular: every vehicle as «Рядовой»."),
    ),
    # B15: vehicle moves -----------------------------------------------------------------------------------
    Setting(
        key="vehicle_move_fire",
        label=N_("A moving vehicle fires one weapon"),
        default="any_move",
        kind="choice",
        choices=("any_move", "light_cover_move_only"),
        source="§5 B15 (L77)",
        help=N_(
            'Any move: both the 12" open move and the 6" light-cover move fire one weapon. Light-cover move '
            "only: the open move does not fire."
        ),
    ),
    Setting(
        key="tank_classes",
        label=N_("«Средние и тяжелые танки» are"),
        default="heavy_and_super_heavy",
        kind="choice",
        choices=("heavy_and_super_heavy", "medium_and_heavy"),
        source="§5 B15 (L77, L81–83)",
        help=N_(
            "Which vehicle armour classes may cross medium cover: Heavy 3+ (medium tanks) and Super-heavy 2+ "
            "(heavy tanks), or the armour classes Medium and Heavy."
        ),
    ),
    # B16: the damage die by facing -------------------------------------------------------------------------
    Setting(
        key="facing_best",
        label=N_("«Лучший» result for a front hit"),
        default="front_lower",
        kind="choice",
        choices=("front_lower", "front_higher"),
        source="§5 B16 (L90)",
        help=N_(
            "Front lower: the front takes the lower (milder) of two dice, the rear the higher. Front higher: the "
            "other way round."
        ),
    ),
    Setting(
        key="facing_doubles",
        label=N_("Doubles on the two damage dice"),
        default="reroll",
        kind="choice",
        choices=("reroll", "keep"),
        source="§5 B16 (L90)",
        help=N_(
            "«Перебросьте кубик в случае совпадения»: re-roll both when they match (a front hit then never "
            "destroys), or keep them."
        ),
    ),
    # B17: the damage table ----------------------------------------------------------------------------------
    Setting(
        key="damage_rows",
        label=N_("Damage table rows 5 and 6"),
        default="5_immobilised_6_destroyed",
        kind="choice",
        choices=("5_immobilised_6_destroyed",),
        source="§5 B17 (L88–89)",
        category=INTERPRETATION,
        help=N_("The rows lost their numbers; by elimination 5 is loss of mobility, 6 destroyed."),
    ),
    Setting(
        key="bail_out_hits",
        label=N_("Hits on crew and passengers of a destroyed vehicle"),
        default="per_figure",
        kind="choice",
        choices=("per_figure", "per_unit"),
        source="§5 B17 (L89)",
        help=N_("«получают один хит»: one hit per figure, or one hit per unit aboard."),
    ),
    Setting(
        key="stun_stacking",
        label=N_("Repeated crew stuns"),
        default="flat",
        kind="choice",
        choices=("flat", "stacking"),
        source="§5 B17 (L86)",
        help=N_("Flat: stunned is −2 however often. Stacking: −2 per stun result."),
    ),
    Setting(
        key="armour_immune_weapons",
        label=N_("Weapons that cannot harm armour (save 5+ or better)"),
        default="small_arms_and_hmg",
        kind="choice",
        choices=("small_arms_and_hmg", "firearms_and_hmg"),
        source="§5 B18 (L84)",
        help=N_(
            "Small arms and HMG: the whole small-arms table (grenade launcher too) and the HMG. Firearms and HMG: "
            "the grenade launcher can harm armour."
        ),
    ),
    Setting(
        key="behind_vehicle_save",
        label=N_("Troops behind a vehicle save with"),
        default="better",
        kind="choice",
        choices=("better", "vehicle"),
        source="§5 B19 (L77)",
        help=N_("The better of their own armour and the vehicle's, or the vehicle's instead of their own."),
    ),
    Setting(
        key="coherency",
        label=N_("Unit coherency"),
        default="chain",
        kind="choice",
        choices=("chain", "isolated_only"),
        source="§5 B20 (L2)",
        help=N_(
            'Chain: figures within 3"/8 cm of another link up; every figure outside the largest group costs −1. '
            'Isolated only: only figures with nobody within 3"/8 cm cost −1.'
        ),
    ),
    Setting(
        key="leader_lost",
        label=N_("A unit whose leader fell"),
        default="revert",
        kind="choice",
        choices=("revert", "keep"),
        source="§5 B21 (L13)",
        help=N_("Revert: the unit activates on its own level again. Keep: it keeps the leader's level."),
    ),
    Setting(
        key="pass_order",
        label=N_("With more than two players the initiative passes"),
        default="initiative_order",
        kind="choice",
        choices=("initiative_order", "seating_order"),
        source="§5 B22 (L12)",
        help=N_("To the next player in the initiative roll's order, or to the next player round the table."),
    ),
    Setting(
        key="withdraw_from",
        label=N_("A failed unit above 50 % casualties withdraws away from"),
        default="nearest_visible",
        kind="choice",
        choices=("nearest_visible", "nearest_any"),
        source="§5 B23 (L25)",
        help=N_("The nearest visible enemy (to its deployment point when none is visible), or the nearest enemy."),
    ),
    Setting(
        key="natural_one_six",
        label=N_("A natural 1 fails and a natural 6 passes"),
        default=False,
        source="§5 B24 (not in the text)",
        category=HOUSE,
        help=N_("FUBAR's rule for activation rolls; the book has no such rule."),
    ),
    Setting(
        key="text_artefacts",
        label=N_("Stray table rows and typos"),
        default="ignored",
        kind="choice",
        choices=("ignored",),
        source="§5 B25 (L16, L29, L39, L66, L74)",
        category=INTERPRETATION,
        help=N_("Empty «|» rows carry nothing; «могу» is «могут», «днедноут» is «дредноут»."),
    ),
    # Ambiguities of §3 that the spec leaves without a number -------------------------------------------------
    Setting(
        key="initiative_ties",
        label=N_("Initiative ties re-rolled"),
        default="all_ties",
        kind="choice",
        choices=("all_ties", "top_only"),
        source="§3.1 (L12 «При надобности кубик перебрасывается»)",
        help=N_(
            "All ties: every tie is re-rolled among the tied so the whole order is known. Top only: only a tie "
            "for first; lower ties keep the seating order."
        ),
    ),
    Setting(
        key="pursuit_catch",
        label=N_("A pursuer catches the withdrawing unit when its d6"),
        default="equal_or_more",
        kind="choice",
        choices=("equal_or_more", "more"),
        source="§3.8 (L42 «догоняет»)",
        help=N_("Equal or more: the pursuit reaches contact again. More: it must roll higher than the withdrawal."),
    ),
)

# Each choice in words (Setting.describe() translates them; the raw value is what the game stores).
CHOICE_LABELS = {
    "units": (("in", N_("inches")), ("cm", N_("centimetres"))),
    "expertise_reading": (("hit_number", N_("the number a fire die must reach")),),
    "save_allocation": (("by_figure", N_("by figure")), ("majority_armour", N_("the armour most of the unit wears"))),
    "split_chooser": (("target_owner", N_("the target's owner")), ("shooter", N_("the shooter"))),
    "suppressed_then_casualty": (
        ("other_bout", N_("in another bout of fire")),
        ("never_while_suppressed", N_("never while suppressed")),
    ),
    "aimed_cap_order": (("cap_then_aim", N_("cap at 6+, then aim")), ("aim_then_cap", N_("aim, then cap at 6+"))),
    "walk_fire": (("small_arms_and_grenades", N_("small arms and thrown grenades")), ("any_weapon", N_("any weapon"))),
    "mixed_cover": (
        ("majority", N_("the cover of most figures")),
        ("worst", N_("the lowest cover")),
        ("best", N_("the highest cover")),
    ),
    "hmg_infantry_crew": (("two_per_gun", N_("two men per gun")), ("one_enough", N_("one man is enough"))),
    "mortar_line_of_sight": (("none_needed", N_("not needed")), ("spotter", N_("a spotter must see the target"))),
    "melee_attackers": (("within_reach", N_("figures within reach")), ("whole_unit", N_("the whole unit"))),
    "melee_dice": (("one_per_figure", N_("one die per figure")),),
    "melee_lock": (("both", N_("attacker and defender")), ("defender_only", N_("the attacked unit only"))),
    "on_guard_timing": (
        ("interrupt", N_("before the enemy's action is resolved")),
        ("after_action", N_("after the enemy's action")),
    ),
    "on_guard_until": (
        ("next_activation", N_("until the next activation attempt")),
        ("end_of_turn", N_("until the end of the turn")),
    ),
    "vehicle_level": (("crew_level", N_("the crew's training level")), ("regular", N_("as a Regular"))),
    "vehicle_move_fire": (
        ("any_move", N_("on any move")),
        ("light_cover_move_only", N_("only on the light-cover move")),
    ),
    "tank_classes": (
        ("heavy_and_super_heavy", N_("Heavy and Super-heavy armour")),
        ("medium_and_heavy", N_("Medium and Heavy armour")),
    ),
    "facing_best": (
        ("front_lower", N_("the front takes the lower die")),
        ("front_higher", N_("the front takes the higher die")),
    ),
    "facing_doubles": (("reroll", N_("re-roll doubles")), ("keep", N_("keep doubles"))),
    "damage_rows": (("5_immobilised_6_destroyed", N_("5 loss of mobility, 6 destroyed")),),
    "bail_out_hits": (("per_figure", N_("one hit per figure")), ("per_unit", N_("one hit per unit"))),
    "stun_stacking": (("flat", N_("−2 however often")), ("stacking", N_("−2 per stun"))),
    "armour_immune_weapons": (
        ("small_arms_and_hmg", N_("small arms and the heavy machine gun")),
        ("firearms_and_hmg", N_("firearms and the heavy machine gun")),
    ),
    "behind_vehicle_save": (("better", N_("the better armour")), ("vehicle", N_("the vehicle's armour"))),
    "coherency": (("chain", N_("a chain of figures")), ("isolated_only", N_("isolated figures only"))),
    "leader_lost": (("revert", N_("back to its own level")), ("keep", N_("keeps the leader's level"))),
    "pass_order": (("initiative_order", N_("in initiative order")), ("seating_order", N_("round the table"))),
    "withdraw_from": (("nearest_visible", N_("the nearest visible enemy")), ("nearest_any", N_("the nearest enemy"))),
    "text_artefacts": (("ignored", N_("ignored: read as the book means")),),
    "initiative_ties": (("all_ties", N_("every tie")), ("top_only", N_("only a tie for first"))),
    "pursuit_catch": (("equal_or_more", N_("equal or more")), ("more", N_("more only"))),
}
CATALOGUE = SettingsCatalogue(SETTINGS, choice_labels=CHOICE_LABELS)
SETTINGS, SETTINGS_BY_KEY = CATALOGUE.all, CATALOGUE.by_key
defaults, full_settings = CATALOGUE.defaults, CATALOGUE.full
