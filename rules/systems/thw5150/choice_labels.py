"""«5150»: each choice of a setting in words (issue #19); settings.py gives them to its SettingsCatalogue."""

from rules.i18n import N_

# Each choice in words (Setting.describe() translates them; the raw value is what the game stores).
CHOICE_LABELS = {
    "victory": (("last_standing", N_("last side standing")), ("points", N_("points at the end"))),
    "law_level": (("normal", N_("Normal (+0)")), ("lax", N_("Lax (+1)")), ("low", N_("Low (+2)"))),
    "outgunned_stationary_in_open": (("prone", N_("goes prone (the spec)")), ("fire", N_("fires (as printed)"))),
    "group_test_readers": (("triggered", N_("only the figures it applies to")), ("whole_group", N_("the whole group"))),
    "leader_dice": (
        ("shared_extra_die", N_("an extra die on the group's roll")),
        ("own_three_dice", N_("the Leader's own 3d6")),
    ),
    "pass_cap": (("two", N_("at most pass 2")),),
    "hero_from_shared_roll": (
        ("every_reader", N_("each figure with two 1s")),
        ("off", N_("no Heroes from reaction rolls")),
    ),
    "hero_tests": (("all_tables", N_("every test in battle")), ("reaction_tests", N_("reaction tests only"))),
    "hero_choice": (("per_table", N_("where the table says so")), ("any_test", N_("on any test but In Sight"))),
    "activation_rep": (("leader", N_("the Leader's Rep")), ("highest", N_("the highest Rep in the group"))),
    "ranged_no_armour_column": (("lb_or_ib", N_('the "light or distortion" column')),),
    "melee_armour_columns": (
        ("armour_rules", N_("by the armour rules")),
        ("as_printed", N_("as printed in the table")),
    ),
    "slag_example": (("normals_table", N_("the Normals' table (Impact 3)")),),
    "weapon_table_dice": (("2d6", N_("2d6 (as the rows run)")), ("3d6", N_("3d6 (as the header prints)"))),
    "hidden_vs_concealed": (("two_flags", N_("two separate marks")),),
    "hit_low_totals": (("miss", N_("a miss")),),
    "lucky_shot_rep": (
        ("base_then_effective", N_("base Rep, then effective Rep")),
        ("effective", N_("effective Rep")),
        ("base", N_("base Rep")),
    ),
    "grenade_miss_dice": (("2d6", N_("2d6 against the thrower's Rep")), ("1d6", N_("1d6 (as printed)"))),
    "grenade_template": (("radius_5", N_("5″ radius")), ("diameter_5", N_("5″ diameter"))),
    "grenade_cost": (("per_grenade", N_("14 points per grenade")),),
    "no_cover_within_reach": (("prone", N_("goes prone")), ("duck_back_in_place", N_("ducks back where it stands"))),
    "received_fire_order": (("printed", N_("in the printed order")), ("flank_first", N_("flank or rear first"))),
    "own_outgun_weapon": (("best_loaded", N_("best loaded weapon")), ("best", N_("best weapon carried"))),
    "hunker_down_recovery": (
        ("rally_house_rule", N_("Rally test near a friend (house rule)")),
        ("never", N_("never recovers")),
    ),
    "runaway_speed": (("normal_move", N_("full normal move")), ("fast_move", N_("Fast Move test"))),
    "melee_impact_basis": (
        ("opponent_armour", N_("against the opponent's armour")),
        ("no_armour", N_("the no-armour column for both")),
    ),
    "melee_pass_cap": (("two", N_("at most 2 passes")), ("none", N_("no cap"))),
    "stay_or_run_rounding": (("half_up", N_("round half up")), ("half_even", N_("round half to even"))),
    "stay_or_run_per_threshold": (("each", N_("one test per threshold")), ("once", N_("a single test"))),
    "covering_fire_ends": (("next_activation", N_("until its next activation")), ("when_moving", N_("until it moves"))),
    "two_gun_rof": (("sum", N_("sum of both guns")), ("best_plus_one", N_("the better gun plus 1"))),
    "reload": (("move_no_fire", N_("may move, not fast, no fire")),),
    "playing_cards": (("unused", N_("not used")),),
    "awareness_leader": (
        ("contacted_group", N_("the contacted group's Leader")),
        ("contacting_group", N_("your own group's Leader")),
    ),
    "recovery_timing": (("group_activation", N_("when its group activates")),),
    "melee_continues": (("on_activation", N_("when a fighter activates")), ("next_turn", N_("on the next turn"))),
    "victory_points_count": (
        ("standing", N_("every figure still standing")),
        ("fine_only", N_("only figures in normal state")),
    ),
    "typos": (("as_spec", N_("read as the spec does")),),
    "group_size": (("any", N_("any size")),),
    "laser_upgrade": (("spec_mapping", N_("by the spec's mapping")), ("off", N_("no laser weapons"))),
    "mg_vs_exo": (("as_printed", N_("Impact 0 (as printed)")), ("no_effect", N_("NE (no effect)"))),
    "energy_melee_cost": (("unpriced", N_("no extra cost")),),
    "being_charged_order": (("printed", N_("in the printed order")), ("flank_first", N_("flank or rear first"))),
    "out_of_ammo_volley": (("resolves", N_("the whole volley counts")), ("stops", N_("the 1s do not fire"))),
    "dead_target_fire": (("must_fire", N_("they still fire")),),
    "absorbing_vs_beam": (("use_number", N_("use the printed number")),),
}
