"""«Энфорсеры»: each choice of a setting in words (issue #19); settings.py gives them to its SettingsCatalogue."""

from rules.i18n import N_

# Each choice in words (Setting.describe() translates them; the raw value is what the game stores).
CHOICE_LABELS = {
    "modifier_applies_to": (("roll", N_("added to the d20 roll")),),
    "crit_effect": (
        ("none", N_("only flagged")),
        ("double_damage", N_("double damage")),
        ("ignore_armour", N_("damage ignores AP")),
    ),
    "cover_crit_immunity": (
        ("crit_effect", N_("the crit's effect only")),
        ("crit_success", N_("the automatic success too")),
    ),
    "parry_penalty": (("curses", N_("a curse per 5 WS")), ("modifier", N_("+1 to the roll per 5 WS"))),
    "reach_disadvantage": (("curse_per_cm", N_("a curse per cm of reach")), ("ignored", N_("ignored (as printed)"))),
    "dying_threshold": (("below_half", N_("below half of HL")), ("at_half", N_("at half of HL"))),
    "duration_unit": (("own_activation", N_("the model's own activations")), ("round", N_("rounds"))),
    "counter_limit": (("round", N_("one per round")), ("activation", N_("one per attacker's activation"))),
    "jump_limit": (
        ("move_total", N_("part of a move up to DX")),
        ("jump_distance", N_("the whole move up to the jump distance")),
    ),
    "free_weapon_swaps": (
        ("one_per_activation", N_("one free per activation")),
        ("switch_unlimited", N_("any number of switches")),
    ),
    "charge_reach": (("opponent", N_("the opponent's reach")), ("own", N_("the charger's own reach"))),
    "counter_reach": (("opponent", N_("the attacker's reach")), ("own", N_("the defender's own reach"))),
    "stray_shot_trigger": (
        ("natural", N_("a natural 18–20 on the d20")),
        ("result", N_("a final result of 18–20")),
        ("off", N_("no stray shots")),
    ),
    "fall_damage": (
        ("whole_height", N_("the whole height fallen")),
        ("excess", N_("only the cm over the safe height")),
    ),
    "medic_tests": (("healer", N_("the healer's HL")), ("target", N_("the target's HL"))),
    "repair_modifier": (("roll", N_("added to the roll")), ("difficulty", N_("added to the IT"))),
    "pinned_duration": (
        ("next_activation", N_("until the end of its next activation")),
        ("until_removed", N_("until removed by hand")),
    ),
    "suppressor_reactions": (("one_per_action", N_("one per move or shot")), ("unlimited", N_("as many as it likes"))),
    "injury_tiers": (("every_tier", N_("a test for every tier")), ("worst_only", N_("one test for the worst tier"))),
    "next_round_picker": (("last_model", N_("the model that went last")), ("players", N_("the players choose again"))),
    "last_rites": (("peaceful_death", N_("a peaceful death, no Fear test")), ("death", N_("it simply dies"))),
    "missing_sections": (("group_content", N_("your group's own content")),),
    "table_artefacts": (("dropped", N_("dropped from the tables")),),
    "fear_fight_unarmed": (
        ("melee_or_freeze", N_("melee, or freeze if no enemy in reach")),
        ("freeze", N_("Freeze (take cover)")),
    ),
    "psi_armour_traits": (("casting_test", N_("on the psi casting test")),),
    "encumbrance_counts": (
        ("all_but_worn_armour", N_("everything but the worn armour")),
        ("weapons_only", N_("weapons only")),
    ),
    "aim_consumed": (("first_shot", N_("with the first shot")), ("until_move", N_("until the model moves"))),
    "reroll_scope": (("whole_test", N_("the whole test")), ("d20_only", N_("the d20 only"))),
    "move_penalty_order": (
        ("subtract_then_halve", N_("subtract, then halve")),
        ("halve_then_subtract", N_("halve, then subtract")),
    ),
    "stance_expiry": (
        ("next_activation", N_("at its next activation")),
        ("end_of_round", N_("at the end of the round")),
    ),
    "stun_timing": (
        ("current_first", N_("this activation first")),
        ("next_activation", N_("from the next activation")),
    ),
    "scatter_direction": (("clock_d12", N_("a d12 as a clock face")), ("reported", N_("typed in by the player"))),
    "fear_test_on_hp_loss": (("gm_decides", N_("the GM decides")), ("always", N_("on every HP loss"))),
}
