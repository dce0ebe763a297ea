"""Settings of «Бронепехота»: the options players agree before play (spec §1.8) and every ambiguity of §5
that changes play or the tracker, each defaulting to the spec's recommendation.

Keys are stable: the battle tracker stores them with each battle and the balance simulator reads them.
Readings that the engine takes as given (A0, A1, A5, A20, A27–A29) are settings of category "interpretation"
with a single choice, so every ambiguity is a named setting with its default and source.

Where the settings that have no dice of their own are read (issue 17; none was removed):
- deployment_order (A3): the battle's deployment (battle/commands.py Deploy and DeploymentRoll, battle/fold.py):
  alternate = a d12 roll-off, then one unit at a time; free = any order.
- half_step_obstacle_free (A8), obstacle_cost_additive (A9): the movement cost action (actions/movement.py, Table 1),
  played from the board as the "move" command; flyer_full_speed_each_move (A10) there too, and in the simulator.
- dismounted_pilot_rejoins_squad (A19): who activates a dismounted pilot (battle/units.py solo_soldiers; turns,
  "done" with a soldier).
- enforce_mount_limit (A30): the battle's start (battle/units.py check_mounts). The builder's own check
  (army.py "too_many_weapons") does not read it yet: cost_roster takes no settings.
- balance_info_percent, balance_warning_percent (A2): the balance jobs' verdict (rules/jobs/analysis.thresholds). The
  builder's balance note reads the same two settings (army.py _balance_thresholds) from the roster's settings.
"""

from __future__ import annotations

from rules.contract.settings import INTERPRETATION, OPTION, Setting, SettingsCatalogue
from rules.i18n import N_

SETTINGS: tuple[Setting, ...] = (
    # §1.8: options to agree before play --------------------------------------------------------------
    Setting(
        key="mode",
        label=N_("Shooting mode"),
        default="virtual",
        kind="choice",
        choices=("virtual", "real"),
        source="§1.2 p.2",
        category=OPTION,
        help=N_(
            "Virtual: shots are resolved with dice and infantry can shoot. Real: spring launchers; infantry cannot shoot."
        ),
        choice_labels=(
            ("virtual", N_("Virtual shooting (dice)")),
            ("real", N_("Real shooting (spring launchers)")),
        ),
    ),
    Setting(
        key="ammo_limited",
        label=N_("Limited ammo"),
        default=True,
        source="§1.8 p.24, p.35",
        category=OPTION,
        help=N_("Vehicles and guns spend their ammo track before each shot; at 0 they never fire again."),
    ),
    Setting(
        key="ammo_refreshes",
        label=N_("Ammo refreshes per element"),
        default=0,
        kind="int",
        source="§5 A22 (p.25, p.36)",
        category=OPTION,
        help=N_("How many times each vehicle or gun may refill its ammo track to the maximum (e.g. 1 per game)."),
    ),
    Setting(
        key="special_properties",
        label=N_("Special weapon properties"),
        default=False,
        source="§1.8 p.33 (7.4 IV)",
        category=OPTION,
        help=N_("E.g. the heavy rocket's blast: 1Д20 against everything within 2 steps of the target."),
    ),
    Setting(
        key="grenades",
        label=N_("Grenades"),
        default=False,
        source="§1.8 p.36 (7.8)",
        category=OPTION,
        help=N_("Every infantryman may throw one grenade instead of shooting: Д6 steps, blast 1 step, 1Д20."),
    ),
    Setting(
        key="jump_packs",
        label=N_("Jump packs"),
        default=False,
        source="§1.8 p.44 (9.4)",
        category=OPTION,
        help=N_("Soldiers with «JpN» may jump instead of walking: length + height <= N."),
    ),
    Setting(
        key="aimed_fire",
        label=N_("Aimed fire"),
        default=False,
        source="§1.8 p.49 (11.1)",
        category=OPTION,
        help=N_("An infantryman who neither moves nor melees doubles his aimed range with his personal weapon."),
    ),
    Setting(
        key="panic",
        label=N_("Panic"),
        default=False,
        source="§1.8 p.50 (11.2)",
        category=OPTION,
        help=N_(
            "A survival test equal to «Arm» survives but panics: the soldier flees «Spd» steps to the nearest edge."
        ),
    ),
    # §5: ambiguities ------------------------------------------------------------------------------------
    Setting(
        key="balance_info_percent",
        label=N_("Balance note above (%)"),
        default=10,
        kind="int",
        source="§5 A2 (p.3)",
        help=N_(
            "Armies whose totals differ by more than this share of the larger army get a note (balance jobs' verdict)."
        ),
    ),
    Setting(
        key="balance_warning_percent",
        label=N_("Balance warning above (%)"),
        default=20,
        kind="int",
        source="§5 A2 (p.3)",
        help=N_("Armies whose totals differ by more than this share of the larger army get a warning (balance jobs)."),
    ),
    Setting(
        key="deployment_order",
        label=N_("Deployment order"),
        default="alternate",
        kind="choice",
        choices=("alternate", "free"),
        source="§5 A3 (p.3–4)",
        help=N_(
            "Alternate: one unit at a time, who starts settled by a d12 roll-off. Free: in any order. The board's deployment (before the first initiative) follows it."
        ),
        choice_labels=(
            ("alternate", N_("In turn, one unit each")),
            ("free", N_("In any order")),
        ),
    ),
    Setting(
        key="initiative_reroll",
        label=N_("Initiative ties"),
        default="tied_only",
        kind="choice",
        choices=("tied_only", "everyone"),
        source="§5 A4 (p.9)",
        help=N_("Who re-rolls when the highest initiative results tie: only the tied players, or everyone."),
        choice_labels=(
            ("tied_only", N_("Only the tied players re-roll")),
            ("everyone", N_("Everyone re-rolls")),
        ),
    ),
    Setting(
        key="blast_hits_target",
        label=N_("Blast also hits the primary target"),
        default=False,
        source="§5 A6 (p.34)",
        help=N_("Off: the blast attacks every OTHER element within its radius; the target only takes the shot."),
    ),
    Setting(
        key="blast_cover",
        label=N_("Cover counts against blasts"),
        default=False,
        source="§5 A6, A15 (p.34, p.37)",
        help=N_("Off: blast and grenade victims get no cover bonus."),
    ),
    Setting(
        key="ammo_short_shot",
        label=N_("Shot with less ammo than its cost"),
        default="literal",
        kind="choice",
        choices=("literal", "strict"),
        source="§5 A7 (p.35–36)",
        help=N_("Literal: allowed while ammo > 0, the slider stops at 0. Strict: ammo must cover the whole cost."),
        choice_labels=(
            ("literal", N_("Allowed while ammo is above 0")),
            ("strict", N_("Ammo must cover the whole cost")),
        ),
    ),
    Setting(
        key="half_step_obstacle_free",
        label=N_("Obstacles up to 2.5 cm are free"),
        default=True,
        source="§5 A8 (p.13, p.15)",
        help=N_(
            "On: <= 2.5 cm costs nothing (the prose). Off: exactly half a step already costs 2 SP (Table 1). Read by the movement cost (the board's Move)."
        ),
    ),
    Setting(
        key="obstacle_cost_additive",
        label=N_("Obstacle SP are added to the distance"),
        default=True,
        source="§5 A9 (p.13)",
        help=N_(
            "On: a half-to-one-step obstacle costs 2 SP on top of the horizontal distance. Off: the 2 SP are the whole cost of the step over it (1 more than a plain step)."
        ),
    ),
    Setting(
        key="flyer_full_speed_each_move",
        label=N_("Each flyer move has full speed"),
        default=True,
        source="§5 A10 (p.11, p.19)",
        help=N_("A flying vehicle's two moves each get the Speed of its current sector, in any order with its shot."),
    ),
    Setting(
        key="captured_acts_next_round",
        label=N_("Captured vehicles act next round"),
        default=True,
        source="§5 A11 (p.42)",
        help=N_("A captured or re-crewed vehicle cannot act in the round of capture."),
    ),
    Setting(
        key="jump_downward_height",
        label=N_("Height of a downward jump"),
        default="zero",
        kind="choice",
        choices=("zero", "absolute"),
        source="§5 A12 (p.46–48)",
        help=N_("Zero: a drop counts as height 0. Absolute: the drop counts like a rise."),
        choice_labels=(
            ("zero", N_("A drop counts as height 0")),
            ("absolute", N_("A drop counts like a rise")),
        ),
    ),
    Setting(
        key="panic_ends_actions",
        label=N_("A panicked soldier acts no more this round"),
        default=True,
        source="§5 A13 (p.50–51)",
        help=N_("He flees at once and takes no further actions this round, even if he has not activated yet."),
    ),
    Setting(
        key="panic_flyer_lands_safely",
        label=N_("A panicking flying pilot lands first without damage"),
        default=True,
        source="§5 A13 (p.19, p.50)",
        help=N_("On: the vehicle lands with no damage (it is not an emergency landing: the pilot lives)."),
    ),
    Setting(
        key="survival_die",
        label=N_("Survival-test die"),
        default=6,
        kind="choice",
        choices=(6, 12, 20),
        source="§5 A14 (p.21)",
        help=N_("The book says Д6 «usually» and never names a case for Д12 or Д20."),
        choice_labels=(
            (6, N_("D6 (the book: «usually»)")),
            (12, N_("D12")),
            (20, N_("D20")),
        ),
    ),
    Setting(
        key="grenade_replaces_shot",
        label=N_("A grenade replaces the soldier's shot"),
        default=True,
        source="§5 A15 (p.34, p.37)",
        help=N_("The thrower may not also fire his personal weapon this round; grenades cost no tracked ammo."),
    ),
    Setting(
        key="shooting_ban",
        label=N_("Who may not shoot in contact"),
        default="unified",
        kind="choice",
        choices=("unified", "literal"),
        source="§5 A16 (p.23, p.31, p.41)",
        help=N_("Unified: anything touching an enemy model cannot fire. Literal: each mode's own wording."),
        choice_labels=(
            ("unified", N_("Nothing touching an enemy may fire")),
            ("literal", N_("Each mode's own wording")),
        ),
    ),
    Setting(
        key="melee_in_contact",
        label=N_("Melee without moving when already in contact"),
        default="in_contact_may_attack",
        kind="choice",
        choices=("in_contact_may_attack", "movement_only"),
        source="§5 A17 (p.38, p.41)",
        help=N_("(b) a unit that starts in contact may attack without moving; (a) only a new contact by movement."),
        choice_labels=(
            ("in_contact_may_attack", N_("A unit already in contact may attack")),
            ("movement_only", N_("Only a new contact by movement")),
        ),
    ),
    Setting(
        key="lying_vehicle_defence",
        label=N_("A lying vehicle defends normally"),
        default=True,
        source="§5 A18 (p.26)",
        help=N_("On: Д6 + Armour + CC while its pilot is aboard (it still cannot attack). Off: flat Armour."),
    ),
    Setting(
        key="dismounted_pilot_rejoins_squad",
        label=N_("A dismounted pilot rejoins his squad"),
        default=True,
        source="§5 A19 (p.19–20)",
        help=N_(
            "On: he activates with his original squad (or alone if it is gone). Off: always a one-man unit, with his own turn and his own 'done'."
        ),
    ),
    Setting(
        key="cover_exactly_half",
        label=N_("Exactly half hidden"),
        default=1,
        kind="choice",
        choices=(1, 3),
        source="§5 A21 (p.31)",
        help=N_("Armour bonus when exactly half of the target is hidden: +1 (recommended) or +3."),
        choice_labels=(
            (1, N_("+1 to armour (recommended)")),
            (3, N_("+3 to armour")),
        ),
    ),
    Setting(
        key="gun_rof_rule",
        label=N_("Gun rate of fire"),
        default="per_gun",
        kind="choice",
        choices=("per_gun", "per_barrel"),
        source="§5 A23 (p.24, p.35)",
        help=N_("Per gun: a gun may fire its listed weapon up to its RoF each round. Per barrel: once per weapon."),
        choice_labels=(
            ("per_gun", N_("Per gun: up to its rate of fire")),
            ("per_barrel", N_("Per weapon: once each")),
        ),
    ),
    Setting(
        key="virtual_infantry_damage",
        label=N_("Infantry hit in virtual shooting"),
        default="destroyed",
        kind="choice",
        choices=("destroyed", "survival_test"),
        source="§5 A24 (p.20)",
        help=N_("Destroyed: any damage kills (the book). Survival test: a house rule giving a Д6 test instead."),
        choice_labels=(
            ("destroyed", N_("Destroyed (the book)")),
            ("survival_test", N_("A D6 survival test (house rule)")),
        ),
    ),
    Setting(
        key="armour_test_after_damage",
        label=N_("Armour test uses the armour after damage"),
        default=True,
        source="§5 A25 (p.25–26)",
        help=N_("On: the damage is marked first, so a destroyed vehicle's pilot always takes the survival test."),
    ),
    Setting(
        key="airborne_no_melee",
        label=N_("Airborne vehicles take no part in melee"),
        default=True,
        source="§5 A26 (p.11, p.19)",
        help=N_("A flying vehicle can be neither attacker nor defender; landed and pilotless it can be attacked."),
    ),
    Setting(
        key="enforce_mount_limit",
        label=N_("Check the arsenal mount limit"),
        default=True,
        source="§5 A30 (p.7)",
        help=N_(
            "A vehicle may fit at most its data's `mounts` weapons (none given: any number). On: a battle refuses a roster that fits more."
        ),
    ),
    Setting(
        key="repair_needs_idle_soldier",
        label=N_("Repair needs a soldier who did nothing else"),
        default=True,
        source="§5 A31 (p.43)",
        help=N_("A «Rpr» soldier repairs only if he has taken no action this round; it uses his whole activation."),
    ),
    Setting(
        key="repair_cap_at_max",
        label=N_("Repair never exceeds the maximum"),
        default=True,
        source="§5 A32 (p.44, p.48)",
        help=N_("On: HELIX and infantry repair stop at the Armlist maximum."),
    ),
    Setting(
        key="dispute_die",
        label=N_("Dispute roll die"),
        default=12,
        kind="choice",
        choices=(6, 12, 20),
        source="§5 A33 (p.51)",
        help=N_("Each disputing player rolls this die; ties re-roll among the tied."),
        choice_labels=(
            (6, N_("D6")),
            (12, N_("D12")),
            (20, N_("D20")),
        ),
    ),
    Setting(
        key="pilot_tests",
        label=N_("Who rolls a pilot's tests"),
        default="owner",
        kind="choice",
        choices=("owner", "attacker"),
        source="§5 (who rolls is not said: p.19, p.33, p.40)",
        help=N_(
            "The pilot of a hit vehicle takes a survival test (and, in real shooting, the armour test first); the "
            "vehicle's owner rolls its emergency landing (p.19). Owner: his player is asked on his own phone and "
            "the game waits for the answer. Attacker: the attacking player rolls them with the attack."
        ),
        choice_labels=(
            ("owner", N_("The pilot's player, on his own phone")),
            ("attacker", N_("The attacker, with the attack")),
        ),
    ),
)

# Readings of §5 that the engine takes as given. They are settings too, so that a game records every
# interpretation it was played under; each has one reading until a club asks for another.
SETTINGS += (
    Setting(
        key="armlist_data_source",
        label=N_("Where Armlist numbers come from"),
        default="data_pack",
        kind="choice",
        choices=("data_pack",),
        source="§5 A0 (p.3)",
        category=INTERPRETATION,
        help=N_("The book prints no unit numbers: they come from a data pack or from custom Armlists typed in."),
        choice_labels=(("data_pack", N_("A data pack or custom Armlists")),),
    ),
    Setting(
        key="cost_per",
        label=N_("What carries a cost"),
        default="squad",
        kind="choice",
        choices=("squad",),
        source="§5 A1 (p.3, p.6)",
        category=INTERPRETATION,
        help=N_(
            "Each squad Armlist (six soldiers), vehicle and gun has its own cost; the «platoon» of p.3 is loose wording."
        ),
        choice_labels=(("squad", N_("Each squad, vehicle and gun")),),
    ),
    Setting(
        key="grenade_damage_section",
        label=N_("Grenade damage follows"),
        default="7.4",
        kind="choice",
        choices=("7.4",),
        source="§5 A5 (p.37)",
        category=INTERPRETATION,
        help=N_("The grenade text points at items II and III of «section 7.3»; they are in §7.4 (damage, pilot test)."),
        choice_labels=(("7.4", N_("§7.4 (damage, pilot test)")),),
    ),
    Setting(
        key="distance_measured_between",
        label=N_("Distances are measured between"),
        default="closest_points",
        kind="choice",
        choices=("closest_points",),
        source="§5 A20 (p.31)",
        category=INTERPRETATION,
        help=N_("Closest points of base or hull; players measure and type the distance, rounded up to 5 cm steps."),
        choice_labels=(("closest_points", N_("The closest points of bases or hulls")),),
    ),
    Setting(
        key="light_heavy_mechanics",
        label=N_("Light vs heavy vehicles differ in"),
        default="pilot_figure_only",
        kind="choice",
        choices=("pilot_figure_only",),
        source="§5 A27 (p.8, p.42)",
        category=INTERPRETATION,
        help=N_("Only where the pilot figure stands (platform or Armlist); no rule changes with the weight class."),
        choice_labels=(("pilot_figure_only", N_("Only where the pilot figure stands")),),
    ),
    Setting(
        key="twin_cannon_names",
        label=N_("«Twin Cannon» and «Twin Automatic Cannon»"),
        default="one_gun",
        kind="choice",
        choices=("one_gun",),
        source="§5 A28 (p.23, p.34)",
        category=INTERPRETATION,
        help=N_("The two names in the book are one stationary gun of rank 2."),
        choice_labels=(("one_gun", N_("One stationary gun of rank 2")),),
    ),
    Setting(
        key="speed_sectors_from",
        label=N_("Speed sectors come from"),
        default="data_pack",
        kind="choice",
        choices=("data_pack",),
        source="§5 A29 (p.15–16)",
        category=INTERPRETATION,
        help=N_("Sector bounds and speeds are printed only on the cards: each profile's speed_sectors."),
        choice_labels=(("data_pack", N_("The cards in the data pack")),),
    ),
)

CATALOGUE = SettingsCatalogue(SETTINGS)
SETTINGS_BY_KEY = CATALOGUE.by_key
defaults, full_settings = CATALOGUE.defaults, CATALOGUE.full
