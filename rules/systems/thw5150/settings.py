"""Settings of «5150»: the book's options, every ambiguity of spec §5 (A1–A42) and the spec's errata, each with the
spec's suggested default. Where the spec shows a contradiction, the default follows the book's core rule (A9).

Keys are stable: battles store them and the simulator reads them. Readings that admit no real alternative (a typo,
an unused deck of cards) are settings of category "interpretation" with a single choice, so that every ambiguity is
a named setting with its default and its source.
"""

from __future__ import annotations

from rules.contract.settings import AMBIGUITY, HOUSE, INTERPRETATION, OPTION, Setting, SettingsCatalogue
from rules.i18n import N_
from rules.systems.thw5150.choice_labels import CHOICE_LABELS


def _one(key: str, label: str, value: str, source: str, help_text: str) -> Setting:
    """A reading the engine takes as given: one choice, recorded so the ambiguity has a name."""
    return Setting(key, label, value, "choice", (value,), source, INTERPRETATION, help_text)


def _choice(key: str, label: str, default, choices: tuple, source: str, help_text: str, category=AMBIGUITY):
    return Setting(key, label, default, "choice", choices, source, category, help_text)


def _flag(key: str, label: str, default: bool, source: str, help_text: str, category=AMBIGUITY):
    return Setting(key, label, default, "bool", (), source, category, help_text)


SETTINGS: tuple[Setting, ...] = (
    # The book's options --------------------------------------------------------------------------------------
    _choice(
        "victory",
        N_("How the battle is won"),
        "last_standing",
        ("last_standing", "points"),
        "§1.9 (L1329–1335)",
        N_(
            "last_standing: a side wins when no enemy figure is left on the table (unlimited turns). points: after the "
            "last turn the side with more points of figures still standing wins."
        ),
        OPTION,
    ),
    Setting(
        "turn_limit",
        N_("Turn limit"),
        0,
        "int",
        (),
        "§1.9 (L1331–1334)",
        OPTION,
        N_("0: unlimited turns. Otherwise the battle ends after this many turns and points decide."),
    ),
    _flag(
        "hidden_deployment",
        N_("Hidden deployment"),
        False,
        "§3.3 (L580–589)",
        N_("Figures may be set up hidden (marked, or drawn on paper); only then can a figure be hidden."),
        OPTION,
    ),
    _choice(
        "law_level",
        N_("Planet law level (random Normals)"),
        "normal",
        ("normal", "lax", "low"),
        "§2.9 (L1436–1437); §5 A36",
        N_("Lax adds 1 and Low 2 to the weapon and armour availability rolls; any other level adds 0."),
        OPTION,
    ),
    _flag(
        "stars",
        N_("Stars play as Heroes"),
        True,
        "§0.3, §1.10",
        N_(
            "The basic rules have no Star/Grunt split; a roster entry marked Star starts the battle as a Hero (THW's "
            "Star may choose his reaction). Off: a Star is an ordinary figure until he rolls double 1s."
        ),
        HOUSE,
    ),
    # Errata (the book wins) ---------------------------------------------------------------------------------
    _flag(
        "damage_every_hit",
        N_("Roll damage for every hit of a volley"),
        True,
        "Errata §3.5 (L681, L728)",
        N_(
            '"One figure may be hit several times": a later hit of the same volley still rolls damage on a figure an '
            "earlier die knocked down. Off: the spec's pseudo-code, which skips figures already down."
        ),
    ),
    _choice(
        "outgunned_stationary_in_open",
        N_("Outgunned in the open without having moved"),
        "prone",
        ("prone", "fire"),
        "Errata §3.11 (L939–948)",
        N_(
            "Received Fire pass 2 in the open covers only a figure that moved. prone: the spec's default. fire: the "
            'literal "otherwise … they fire".'
        ),
    ),
    # §5 ambiguities ----------------------------------------------------------------------------------------
    _choice(
        "group_test_readers",
        N_("Who reads a group's reaction roll"),
        "triggered",
        ("triggered", "whole_group"),
        "§5 A1",
        N_(
            "triggered: only the figures the trigger applies to (e.g. the one fired at, as with Chopo). whole_group: every"
            " member listed reads the roll."
        ),
    ),
    _choice(
        "leader_dice",
        N_("How a Leader rolls 3d6"),
        "shared_extra_die",
        ("shared_extra_die", "own_three_dice"),
        "§5 A2",
        N_(
            "shared_extra_die: a third die is added to the group's roll and only the Leader reads it. own_three_dice: the "
            "Leader rolls his own separate 3d6."
        ),
    ),
    _one(
        "pass_cap",
        N_("Best result of a test"),
        "two",
        "§5 A3",
        N_("No table has a «pass 3» row: passes count at most 2."),
    ),
    _flag(
        "leader_die_on_leader",
        N_("The Leader adds his own Leader Die"),
        False,
        "§5 A4",
        N_('The Leader Die is given to "the members of his group"; by default not to the Leader himself (he has 3d6).'),
    ),
    _choice(
        "hero_from_shared_roll",
        N_("Double 1s on a shared roll"),
        "every_reader",
        ("every_reader", "off"),
        "§5 A5",
        N_("every_reader: each figure whose dice show two 1s becomes a Hero. off: no heroes from reaction rolls."),
    ),
    _choice(
        "hero_tests",
        N_("Which tests can make a Hero"),
        "all_tables",
        ("all_tables", "reaction_tests"),
        "§5 A5",
        N_(
            "all_tables: every pass-2/1/0 test taken in battle except In Sight (Fast Move, Stay or Run and the grenade "
            "tables too). reaction_tests: only Received Fire, Wanting to Charge, Being Charged, Rally and Recovery."
        ),
    ),
    _choice(
        "hero_choice",
        N_("Where a Hero chooses his result"),
        "per_table",
        ("per_table", "any_test"),
        "§5 A6",
        N_(
            "per_table: where the table says so (Received Fire, Wanting to Charge, Being Charged, Rally, Recovery "
            'from Duck Back). any_test: L1165\'s "may choose any result" on every test except In Sight.'
        ),
    ),
    _choice(
        "activation_rep",
        N_("A group's activation Rep"),
        "leader",
        ("leader", "highest"),
        "§5 A7",
        N_(
            'Groups act "from the highest Rep to the lowest". leader: the Rep of its Leader (or acting Group '
            "Leader). highest: the highest Rep in the group."
        ),
    ),
    _one(
        "ranged_no_armour_column",
        N_("Ranged Impact of an unarmoured target"),
        "lb_or_ib",
        "§5 A8",
        N_(
            'The ranged table has no no-armour column: "light or distortion" serves no armour, light and distortion '
            "armour."
        ),
    ),
    _choice(
        "melee_armour_columns",
        N_("Melee table against distortion, reflective and absorbing armour"),
        "armour_rules",
        ("armour_rules", "as_printed"),
        "§5 A9",
        N_(
            "The melee table contradicts the armour rules. armour_rules (the core rule, L211–233): distortion armour "
            "reads the light armour column, reflective (beams only) and absorbing (projectiles only) read the "
            "no-armour column. as_printed: the numbers as printed."
        ),
    ),
    _one(
        "slag_example",
        N_("The Slag example's Impact 2"),
        "normals_table",
        "§5 A10",
        N_(
            "The example's light MG is from an absent list; the Normals' machine gun against light armour is 3 as "
            "printed."
        ),
    ),
    _choice(
        "weapon_table_dice",
        N_("Dice of the weapon availability table"),
        "2d6",
        ("2d6", "3d6"),
        "§5 A11",
        N_('The header prints "3" but the rows run 2–12+ and the text says "roll 2d6 again".'),
    ),
    _one(
        "hidden_vs_concealed",
        N_("Hidden and concealed"),
        "two_flags",
        "§5 A12",
        N_('"Hidden" (at deployment) and "concealed" (behind bushes) are separate flags.'),
    ),
    _one("hit_low_totals", N_("Hit totals below 3"), "miss", "§5 A13", N_("Any total of 7 or less misses.")),
    _choice(
        "lucky_shot_rep",
        N_("Which Rep a lucky shot uses"),
        "base_then_effective",
        ("base_then_effective", "effective", "base"),
        "§5 A14",
        N_(
            "base_then_effective: base Rep >= 3 to be allowed, the re-roll against the effective Rep (after −1). "
            "effective: both against the effective Rep. base: both against the base Rep."
        ),
    ),
    _choice(
        "grenade_miss_dice",
        N_("Dice of Where's the grenade?"),
        "2d6",
        ("2d6", "1d6"),
        "§5 A15",
        N_(
            "The header prints «1» but the rows are pass 2/1/0: 2d6 against the thrower's Rep. 1d6: as printed (only pass "
            "1 or 0 can happen)."
        ),
    ),
    _choice(
        "grenade_template",
        N_("Grenade template"),
        "radius_5",
        ("radius_5", "diameter_5"),
        "§5 A16",
        N_("The table's 5″ read as a radius (default) or as a diameter (2.5″ radius)."),
    ),
    _flag(
        "grenade_later_targets",
        N_("2nd/3rd-target misses under a template"),
        False,
        "§5 A16",
        N_("Off: every figure under the template is a first target. On: the 2nd and 3rd listed read those rows."),
    ),
    _flag(
        "grenade_miss_received_fire",
        N_("Figures the blast missed take Received Fire"),
        True,
        "§5 A16",
        N_("A figure under the template that is missed takes Received Fire, outgunned (Outgun Rating 5)."),
    ),
    _flag(
        "grenade_preparation",
        N_("Grenades must be readied"),
        False,
        "§5 A16 (L547–548)",
        N_("The summary says a figure must spend a whole turn stationary to ready a grenade; the main text does not."),
    ),
    _one(
        "grenade_cost",
        N_('What 14 points of "Grenades" buy'),
        "per_grenade",
        "§5 A16",
        N_("The army builder prices 14 points per grenade."),
    ),
    _choice(
        "no_cover_within_reach",
        N_("No cover within reach"),
        "prone",
        ("prone", "duck_back_in_place"),
        "§5 A17",
        N_(
            "Received Fire sends an outgunned fast mover to cover within 3″; with none there it goes prone (default) or "
            "ducks back where it stands."
        ),
    ),
    _choice(
        "received_fire_order",
        N_("Order of the Received Fire conditions"),
        "printed",
        ("printed", "flank_first"),
        "§5 A18",
        N_(
            "printed: first match in the book's order (pass 1: in cover flank before outgunned, in the open outgunned "
            "before flank). flank_first: flank/rear is checked first in both."
        ),
    ),
    _choice(
        "own_outgun_weapon",
        N_("A target's own Outgun Rating"),
        "best_loaded",
        ("best_loaded", "best"),
        "§5 A18, §3.13",
        N_(
            "best_loaded: the highest Outgun Rating among its loaded weapons (an unloaded figure counts as unarmed, "
            "1). best: the highest it carries, loaded or not."
        ),
    ),
    _choice(
        "hunker_down_recovery",
        N_("Recovering a hunkered-down figure"),
        "rally_house_rule",
        ("rally_house_rule", "never"),
        "§5 A19",
        N_(
            '"must be brought round … by another figure", no procedure given. rally_house_rule: with a friendly '
            "figure in normal state within 2″ it takes the Rally test. never: it stays hunkered down."
        ),
        HOUSE,
    ),
    _choice(
        "runaway_speed",
        N_("A runaway's top speed"),
        "normal_move",
        ("normal_move", "fast_move"),
        "§5 A20",
        N_("normal_move: its full normal move (8″, 6″ at Rep 2 or less). fast_move: it takes the Fast Move test."),
    ),
    _flag(
        "charger_received_fire",
        N_("A missed charger takes Received Fire"),
        True,
        "§5 A21",
        N_("A charger fired at by the charged figure and not damaged takes Received Fire (the general rule, L926)."),
    ),
    _flag(
        "flanked_pass2_fires",
        N_("Charged in the flank, pass 2: fire too"),
        True,
        "§5 A21",
        N_('"Those who can will fire": a figure charged in the flank or rear that passes 2 also fires if able.'),
    ),
    _choice(
        "melee_impact_basis",
        N_("Melee Impact difference against"),
        "opponent_armour",
        ("opponent_armour", "no_armour"),
        "§5 A22",
        N_(
            "opponent_armour: each weapon's Impact against the other fighter's armour. no_armour: both read the "
            "no-armour column."
        ),
    ),
    _choice(
        "melee_pass_cap",
        N_("Melee passes cap"),
        "two",
        ("two", "none"),
        "§5 A22",
        N_("two: a fighter with +1d6 counts at most 2 passes. none: 3 passes count, a win by 3 reads as by 2."),
    ),
    _flag(
        "melee_hand_of_fate",
        N_("Hand of Fate in melee"),
        False,
        "§5 A22",
        N_(
            "The Hand of Fate is written for the shooter; on: a melee win by 1 with NE (no effect) rolls the two dice "
            "as well."
        ),
    ),
    _flag(
        "knocked_down_is_prone",
        N_("Knocked Down counts as prone"),
        True,
        "§5 A23",
        N_('"was hit and fell": a Knocked Down figure is lying (8 misses it; −1d6 in melee).'),
    ),
    _choice(
        "stay_or_run_rounding",
        N_("Stay or Run: rounding the sixth"),
        "half_up",
        ("half_up", "half_even"),
        "§5 A24, errata §3.17",
        N_('"round to the nearest whole number": half up (9 → 2), never below 1. half_even: 9 → 2 but 15 → 2.'),
    ),
    _choice(
        "stay_or_run_per_threshold",
        N_("Stay or Run: several thresholds at once"),
        "each",
        ("each", "once"),
        "§5 A24",
        N_("each: one test per threshold crossed in one activation. once: a single test."),
    ),
    _choice(
        "covering_fire_ends",
        N_("Covering fire lasts"),
        "next_activation",
        ("next_activation", "when_moving"),
        "§5 A25",
        N_("next_activation: until the figure next activates. when_moving: until it moves."),
    ),
    _choice(
        "two_gun_rof",
        N_("Rate of fire with two guns"),
        "sum",
        ("sum", "best_plus_one"),
        "§5 A26",
        N_('"A higher rate of fire": the sum of both weapons (2 pistols = 4 dice), or the better one plus 1.'),
    ),
    _one(
        "reload",
        N_("Reloading"),
        "move_no_fire",
        "§5 A27",
        N_("A reloading figure may move normally but not fast nor fire."),
    ),
    _one(
        "playing_cards", N_("Playing cards"), "unused", "§5 A28", N_("The deck of cards is listed but no rule uses it.")
    ),
    _choice(
        "awareness_leader",
        N_("Whose Leader takes the Awareness test"),
        "contacted_group",
        ("contacted_group", "contacting_group"),
        "§5 A29",
        N_("The modifiers apply \"to the Leader's Rep\": the contacted enemy group's Leader (default) or yours."),
    ),
    _one(
        "recovery_timing",
        N_("When Recovery and Rally happen"),
        "group_activation",
        "§5 A30",
        N_("A figure whose group does not activate stays Knocked Down or Duck Back until it does."),
    ),
    _choice(
        "melee_continues",
        N_("When a melee continues"),
        "on_activation",
        ("on_activation", "next_turn"),
        "§5 A31",
        N_(
            "on_activation: the next round is fought when one of the fighters activates (L1137). next_turn: the "
            'table\'s "goes on next turn".'
        ),
    ),
    _choice(
        "victory_points_count",
        N_("Points that count at the end"),
        "standing",
        ("standing", "fine_only"),
        "§5 A32",
        N_(
            "standing: every figure not dead, out of the fight, run away, removed or captured. fine_only: only figures in "
            "normal state."
        ),
    ),
    _one(
        "typos",
        N_("Typos and name drift"),
        "as_spec",
        "§5 A33",
        N_('Typos of the names (Friz/Fritz, "Grantu", OSTATSYA): read as the spec does.'),
    ),
    _one("group_size", N_("Group size"), "any", "§5 A34", N_('"1d6+?": a group of Normals may have any size.')),
    _choice(
        "laser_upgrade",
        N_("A 12 on the laser check"),
        "spec_mapping",
        ("spec_mapping", "off"),
        "§5 A35",
        N_(
            "spec_mapping: pistols → laser pistol, SMG → rapid-fire laser pistol, shotgun and rifles → laser carbine "
            "/ laser rifle. off: no laser replacement."
        ),
    ),
    _choice(
        "mg_vs_exo",
        N_("Machine gun against exo-armour"),
        "as_printed",
        ("as_printed", "no_effect"),
        "§5 A37",
        N_(
            "as_printed: Impact 0 (every hit knocks down). no_effect: NE (no effect) like the other projectile weapons."
        ),
    ),
    _one(
        "energy_melee_cost",
        N_("Energy melee weapons"),
        "unpriced",
        "§5 A38",
        N_("+1 Impact and NE (no effect) → 1, no cost given: the army builder adds nothing."),
    ),
    _choice(
        "being_charged_order",
        N_("Order of the Being Charged conditions"),
        "printed",
        ("printed", "flank_first"),
        "§5 A39",
        N_("Pass 1 in cover and charged in the flank: printed order fires and prepares; flank_first runs away."),
    ),
    _choice(
        "out_of_ammo_volley",
        N_("The volley that runs out of ammo"),
        "resolves",
        ("resolves", "stops"),
        "§5 A40",
        N_(
            "resolves: every die of the volley counts; the weapon is empty afterwards. stops: the 1s themselves do not "
            "fire (matters only at Rep 7, where 1 + 7 = 8)."
        ),
    ),
    _one(
        "dead_target_fire",
        N_("Declared shooters at a dead target"),
        "must_fire",
        "§5 A41",
        N_("They still fire (L664–665): the dice are wasted but count toward running out of ammo."),
    ),
    _one(
        "absorbing_vs_beam",
        N_("Absorbing armour against lasers, reflective against bullets"),
        "use_number",
        "§5 A42",
        N_("The printed number applies; there is no absorb roll."),
    ),
)

CATALOGUE = SettingsCatalogue(SETTINGS, choice_labels=CHOICE_LABELS)  # issue #19: each choice in words
SETTINGS, SETTING_KEYS = CATALOGUE.all, CATALOGUE.keys
defaults, full = CATALOGUE.defaults, CATALOGUE.full
