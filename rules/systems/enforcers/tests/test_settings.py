"""Every setting: named, with its spec source and the spec's default (the book's where the errata says so), and a
test showing that changing it changes what the rules do. Settings the battle or campaign part reads are shown
changing behaviour in test_battle.py and test_campaign.py (listed in ELSEWHERE)."""

import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules import dice as dicelib
from rules.errors import RuleInputError
from rules.systems.enforcers import agents, core, tables, wounds
from rules.systems.enforcers.rolling import LiveRoller
from rules.systems.enforcers.settings import SETTINGS, SETTINGS_BY_KEY
from rules.systems.enforcers.statuses import end_of_activation, end_of_round, start_of_activation, stun_now
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, as_dist, effects_of, frac, odds, resolve, settings

ELSEWHERE = {
    "counter_limit": "test_simulator.py",
    "free_weapon_swaps": "test_battle.py",
    "next_round_picker": "test_battle.py",
    "armour_restored_after_scenario": "test_campaign.py",
    "days_between_scenarios": "test_campaign.py",
}
TESTED_HERE: set[str] = set()


def changes(key):
    TESTED_HERE.add(key)
    return key


def p_test(**inputs) -> Fraction:
    overrides = inputs.pop("overrides", {})
    return frac(odds("test", inputs, **overrides)["p_success"])


def test_every_ambiguity_of_section_5_is_a_setting_with_its_source():
    named = {int(n) for s in SETTINGS for n in re.findall(r"A(\d+)", s.source)}
    assert named >= set(range(1, 26)), set(range(1, 26)) - named
    assert all(s.source and s.label for s in SETTINGS)
    assert len({s.key for s in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize(
    ("key", "default"),
    [("homerule_max_only", False), ("crit_auto_success", True), ("dying_threshold", "below_half"),
     ("injury_tiers", "every_tier"), ("fall_damage", "whole_height"), ("counter_on_counter", True),
     ("counter_reach", "opponent"), ("repair_modifier", "roll"), ("duration_unit", "own_activation"),
     ("parry_penalty", "curses"), ("medic_tests", "healer")],
)  # fmt: skip
def test_defaults_follow_the_spec_and_the_book_where_they_disagree(key, default):
    assert SETTINGS_BY_KEY[key].default == default


def test_settings_are_checked():
    with pytest.raises(RuleInputError):
        SYSTEM.resolve_settings({"dying_threshold": "sometimes"})
    with pytest.raises(RuleInputError):
        SYSTEM.resolve_settings({"homerule": True})


def test_homerule_max_only():
    changes("homerule_max_only")
    assert p_test(difficulty=10, blessings=2) == Fraction(38, 45)
    assert p_test(difficulty=10, blessings=2, overrides={"homerule_max_only": True}) == Fraction(521, 720)


def test_homerule_cancel_first():
    changes("homerule_cancel_first")
    on = {"homerule_max_only": True}
    cancelled = resolve("test", {"difficulty": 10, "blessings": 3, "curses": 1}, dice=[12, 1, 2], **on)
    all_dice = resolve("test", {"difficulty": 10, "blessings": 3, "curses": 1}, dice=[12, 1, 2, 6, 5],
                       homerule_cancel_first=False, **on)  # fmt: skip
    assert cancelled.result["test"]["result"] == 12 - 2
    assert all_dice.result["test"]["result"] == 12 - 6 + 5


def test_modifier_applies_to_the_roll():
    changes("modifier_applies_to")
    assert SETTINGS_BY_KEY["modifier_applies_to"].choices == ("roll",)
    assert resolve("test", {"difficulty": 16, "modifier": -1}, dice=[17]).result["test"]["result"] == 16


def test_crit_auto_success():
    changes("crit_auto_success")
    assert resolve("test", {"difficulty": 1, "curses": 1}, dice=[2, 6]).result["success"] is True
    assert (
        resolve("test", {"difficulty": 1, "curses": 1}, dice=[2, 6], crit_auto_success=False).result["success"] is False
    )


def test_crit_effect():
    changes("crit_effect")
    inputs = {"shooter": agent(BS=10), "weapon": {"damage": 3}, "target": agent(HL=10, armour="kevlar-vest")}
    plain = resolve("shoot", inputs, dice=[1])
    double = resolve("shoot", inputs, dice=[1], crit_effect="double_damage")
    pierce = resolve("shoot", inputs, dice=[1], crit_effect="ignore_armour")
    assert (plain.result["target_ap"], plain.result["target_hp"]) == (0, 9)
    assert (double.result["target_ap"], double.result["target_hp"]) == (0, 6)
    assert (pierce.result["target_ap"], pierce.result["target_hp"]) == (2, 7)


def test_cover_crit_immunity():
    changes("cover_crit_immunity")
    inputs = {"shooter": agent(BS=3), "weapon": {"damage": 3}, "target": agent(took_cover=True)}
    effect_only = resolve("shoot", inputs, dice=[2, 6])
    no_auto = resolve("shoot", inputs, dice=[2, 6], cover_crit_immunity="crit_success")
    assert (effect_only.result["hit"], effect_only.result["crit"]) == (True, False)
    assert no_auto.result["hit"] is False


MELEE = {"attacker": agent(WS=12), "attacker_weapon": {"damage": 1, "reach_cm": 1}, "defender": agent(WS=10),
         "defender_weapon": {"damage": 1, "reach_cm": 1}}  # fmt: skip


def test_parry_penalty():
    changes("parry_penalty")
    curses = frac(odds("melee", MELEE)["p_attacker_hits"])
    modifier = frac(odds("melee", MELEE, parry_penalty="modifier")["p_attacker_hits"])
    assert curses == Fraction(23, 90)
    assert modifier == Fraction(1, 2)  # d20 + 2 <= 12


def test_parry_on_counter():
    changes("parry_on_counter")
    key = "p_defender_hit_by_counter"
    assert frac(odds("melee", MELEE)[key]) < frac(odds("melee", MELEE, parry_on_counter=False)[key])


def test_reach_disadvantage():
    changes("reach_disadvantage")
    short = {**MELEE, "defender_weapon": {"damage": 1, "reach_cm": 3}, "distance_cm": 1}
    assert odds("melee", short)["curses"] == 2 + 2
    assert odds("melee", short, reach_disadvantage="ignored")["curses"] == 2


def test_dying_threshold():
    changes("dying_threshold")
    assert wounds.wound_state(-3, 6, settings()) == "seriously_wounded"
    assert wounds.wound_state(-3, 6, settings(dying_threshold="at_half")) == "dying"


def tick(sheet_in, s, dice=(), moment="activation"):
    sheet = agents.sheet(sheet_in, "a")
    roller = LiveRoller(dicelib.dice_source(dice=list(dice)), s)
    out = end_of_activation(sheet, roller, s) if moment == "activation" else end_of_round(sheet, s)
    return sheet, out


def test_duration_unit():
    changes("duration_unit")
    disoriented = agent(statuses={"disoriented": {"turns": 2}})
    by_activation, _ = tick(disoriented, settings())
    by_round, _ = tick(disoriented, settings(duration_unit="round"))
    assert by_activation["statuses"]["disoriented"]["turns"] == 1
    assert by_round["statuses"]["disoriented"]["turns"] == 2
    at_round_end, _ = tick(disoriented, settings(duration_unit="round"), moment="round")
    assert at_round_end["statuses"]["disoriented"]["turns"] == 1


def test_jump_limit():
    changes("jump_limit")
    inputs = {"agent": agent(DX=10), "distance_cm": 8, "jump_across_cm": 4}
    assert odds("move", inputs)["max_cm"] == 10
    with pytest.raises(RuleInputError, match="capped at the jump distance"):
        odds("move", inputs, jump_limit="jump_distance")


def test_charge_reach():
    changes("charge_reach")
    # Spear 3 cm against a knife 1 cm: moving from 2.5 cm to 1 cm enters the knife's reach only.
    inputs = {**MELEE, "attacker_weapon": {"damage": 1, "reach_cm": 3}, "distance_cm": 1, "start_distance_cm": 2.5}
    assert odds("melee", inputs)["blessings"] == 2 + 1  # reach +2, charge into the opponent's reach
    assert odds("melee", inputs, charge_reach="own")["blessings"] == 2  # already within its own 3 cm


def test_counter_on_counter():
    changes("counter_on_counter")
    assert frac(odds("melee", MELEE)["p_attacker_hit_back"]) > 0
    assert frac(odds("melee", MELEE, counter_on_counter=False)["p_attacker_hit_back"]) == 0


def test_counter_reach():
    changes("counter_reach")
    inputs = {**MELEE, "attacker_weapon": {"damage": 1, "reach_cm": 3}, "distance_cm": 2}
    assert frac(odds("melee", inputs)["p_counter"]) > 0  # within the attacker's 3 cm
    assert frac(odds("melee", inputs, counter_reach="own")["p_counter"]) == 0  # outside its own 1 cm


STRAY = {"shooter": agent(BS=17), "weapon": {"damage": 2}, "target": agent(), "stray_victim": agent("Friend"),
         "cover": "full"}  # fmt: skip


def test_stray_shot_trigger():
    changes("stray_shot_trigger")
    natural = frac(odds("shoot", STRAY)["p_stray_hit"])
    assert natural == Fraction(3, 20)  # faces 18–20 always fail against BS 17 with two curses
    close = {**STRAY, "shooter": agent(BS=12), "cover": "none", "range_band": "short"}
    by_face = frac(odds("shoot", close)["p_stray_hit"])
    by_result = frac(odds("shoot", close, stray_shot_trigger="result")["p_stray_hit"])
    assert by_face == Fraction(1, 20) * (Fraction(5, 6) + 1 + 1)  # face 18 fails unless the blessing d6 is 6
    assert by_result == Fraction(1, 20) * Fraction(1 + 2, 6)  # 19 − 1, 20 − 1, 20 − 2
    assert frac(odds("shoot", STRAY, stray_shot_trigger="off")["p_stray_hit"]) == 0


def test_line_of_fire_cm():
    changes("line_of_fire_cm")
    off_line = {**STRAY, "stray_victim_off_line_cm": 3}
    assert frac(odds("shoot", off_line)["p_stray_hit"]) == 0
    assert frac(odds("shoot", off_line, line_of_fire_cm=3)["p_stray_hit"]) > 0


def test_fall_damage():
    changes("fall_damage")
    assert odds("fall", {"agent": agent(DX=10), "height_cm": 7})["damage"] == 7
    assert odds("fall", {"agent": agent(DX=10), "height_cm": 7}, fall_damage="excess")["damage"] == 2


def test_fall_damage_armour():
    changes("fall_damage_armour")
    inputs = {"agent": agent(DX=10, HL=10, TN=20, armour="kevlar-vest"), "height_cm": 7}
    assert as_dist(odds("fall", inputs)["hp"]) == {5: 1}
    assert as_dist(odds("fall", inputs, fall_damage_armour=False)["hp"]) == {3: 1}


def test_medic_tests():
    changes("medic_tests")
    inputs = {"healer": agent(HL=20), "target": agent(HL=5, hp=1), "mode": "restore_hp"}
    assert frac(odds("medical_aid", inputs)["p_success"]) == 1
    assert frac(odds("medical_aid", inputs, medic_tests="target")["p_success"]) == Fraction(5, 20)


def test_medkit_consumed():
    changes("medkit_consumed")
    inputs = {"healer": agent(), "target": agent(hp=4), "mode": "restore_hp"}
    assert effects_of(resolve("medical_aid", inputs, seed=1), "medkit_used") == []
    assert effects_of(resolve("medical_aid", inputs, seed=1, medkit_consumed=True), "medkit_used")


def test_heal_seriously_wounded():
    changes("heal_seriously_wounded")
    inputs = {"healer": agent(), "target": agent(hp=-1, statuses={"seriously_wounded": {}}), "mode": "restore_hp"}
    with pytest.raises(RuleInputError, match="revived"):
        odds("medical_aid", inputs)
    assert as_dist(odds("medical_aid", inputs, heal_seriously_wounded=True)["hp"]) == {
        1: Fraction(1, 2),
        5: Fraction(1, 2),
    }


def test_repair_modifier():
    changes("repair_modifier")
    inputs = {"repairer": agent(IT=15), "armour": "military-carapace"}
    assert frac(odds("armour_repair", inputs)["p_repaired"]) == Fraction(7, 20)  # d20 + 8 <= 15
    assert frac(odds("armour_repair", inputs, repair_modifier="difficulty")["p_repaired"]) == 1  # d20 <= 23


def test_pinned_duration():
    changes("pinned_duration")
    inputs = {"agent": agent(), "weapon": {"damage": 1, "ammo": 4, "capacity": 4}, "targets": [agent("Thug")]}
    assert effects_of(resolve("suppressive_fire", inputs), "status_gained")[0]["turns"] == 1
    assert (
        effects_of(resolve("suppressive_fire", inputs, pinned_duration="until_removed"), "status_gained")[0]["turns"]
        is None
    )


def test_suppressor_reactions():
    changes("suppressor_reactions")
    pinned = {"agent": agent(statuses={"pinned": {"turns": 1, "by": "Sniper"}}), "distance_cm": 2}
    assert effects_of(resolve("move", pinned), "reaction_shot_due")[0]["shots"] == 1
    assert (
        effects_of(resolve("move", pinned, suppressor_reactions="unlimited"), "reaction_shot_due")[0]["shots"] is None
    )


def test_burning_armour():
    changes("burning_armour")
    burning = agent(HL=10, WL=20, armour="kevlar-vest", statuses={"burning": {"turns": 3}})
    absorbed, _ = tick(burning, settings(), dice=[1])
    past, _ = tick(burning, settings(burning_armour=False), dice=[1])
    assert (absorbed["ap"], absorbed["hp"]) == (0, 10)
    assert (past["ap"], past["hp"]) == (2, 8)


def test_injury_tiers():
    changes("injury_tiers")
    dying = {"agent": agent(TN=10, flags={"half_hp": True, "seriously_wounded": True, "dying": True})}
    assert odds("injuries", dying)["tests"] == ["light", "medium", "critical"]
    assert odds("injuries", dying, injury_tiers="worst_only")["tests"] == ["critical"]


def test_last_rites():
    changes("last_rites")
    inputs = {"priest": agent(), "prayer": "last_rites", "target": agent(hp=-7, statuses={"dying": {"turns": 1}})}
    assert effects_of(resolve("prayer", inputs), "no_fear_for_friends")
    assert not effects_of(resolve("prayer", inputs, last_rites="death"), "no_fear_for_friends")


@pytest.mark.parametrize(("key", "mode"), [("burst_ammo", "burst"), ("auto_ammo", "auto")])
def test_burst_and_auto_ammo(key, mode):
    changes(key)
    inputs = {"shooter": agent(), "weapon": {"damage": 1, "ammo": 5}, "target": agent(), "mode": mode}
    assert effects_of(resolve("shoot", inputs, seed=2), "ammo_spent")[0]["amount"] == 1
    assert effects_of(resolve("shoot", inputs, seed=2, **{key: 3}), "ammo_spent")[0]["amount"] == 3


def test_grenade_blast_cm():
    changes("grenade_blast_cm")
    inputs = {"thrower": agent(BS=10), "weapon": {"damage": 1}, "target": agent(), "distance_cm": 5}
    assert frac(odds("throw", inputs)["p_hit"]) == Fraction(7, 12)
    assert frac(odds("throw", inputs, grenade_blast_cm=6)["p_hit"]) > Fraction(7, 12)


def test_missing_sections_and_table_artefacts_and_psi_traits_are_pinned_readings():
    for key in ("missing_sections", "table_artefacts", "psi_armour_traits"):
        changes(key)
        assert len(SETTINGS_BY_KEY[key].choices) == 1
    apprentice = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
    assert apprentice["data"]["stats"] is None  # missing: the group gives them
    assert tables.ARMOUR["sanctified"]["req"] == 6  # not the stray «0» of L336
    assert tables.ARMOUR["psi-skin"]["psi_casting"] == "blessing"


def test_fear_fight_unarmed():
    changes("fear_fight_unarmed")
    inputs = {"agent": agent(WL=1), "ranged_drawn": False, "enemy_in_reach": True}
    assert resolve("fear_test", inputs, dice=[20, 1]).result["action"] == "melee"
    assert resolve("fear_test", inputs, dice=[20, 1], fear_fight_unarmed="freeze").result["action"] == "freeze"


def test_encumbrance_counts():
    changes("encumbrance_counts")
    loaded = agent(TN=8, DX=10, items=6, weapons_carried=2)
    assert agents.max_move(loaded, settings()) == 6
    assert agents.max_move(loaded, settings(encumbrance_counts="weapons_only")) == 10


def test_aim_consumed():
    changes("aim_consumed")
    inputs = {"shooter": agent(aim=2), "weapon": {"damage": 1}, "target": agent()}
    assert effects_of(resolve("shoot", inputs, seed=1), "aim", "shooter")[0]["stacks"] == 0
    assert effects_of(resolve("shoot", inputs, seed=1, aim_consumed="until_move"), "aim", "shooter") == []


def test_reroll_scope():
    changes("reroll_scope")
    inputs = {"difficulty": 8, "curses": 1, "use_reroll": True}
    whole = resolve("test", inputs, dice=[10, 6, 3, 1])
    d20_only = resolve("test", inputs, dice=[10, 6, 3], reroll_scope="d20_only")
    assert whole.result["test"]["result"] == 4
    assert d20_only.result["test"]["result"] == 9
    assert p_test(**inputs) != p_test(**inputs, overrides={"reroll_scope": "d20_only"})


def test_move_penalty_order():
    changes("move_penalty_order")
    hot = agent(DX=9, statuses={"burning": {"turns": 1}, "poisoned": {}})
    assert agents.max_move(hot, settings()) == 3  # (9 − 2) / 2
    assert agents.max_move(hot, settings(move_penalty_order="halve_then_subtract")) == 2  # 9 / 2 − 2


def test_stance_expiry():
    changes("stance_expiry")
    guard = agent(overwatch=True)
    sheet = agents.sheet(guard, "a")
    start_of_activation(sheet, LiveRoller(dicelib.dice_source(dice=[]), settings()), settings())
    assert sheet["overwatch"] is False
    kept = agents.sheet(guard, "a")
    s = settings(stance_expiry="end_of_round")
    start_of_activation(kept, LiveRoller(dicelib.dice_source(dice=[]), s), s)
    assert kept["overwatch"] is True
    end_of_round(kept, s)
    assert kept["overwatch"] is False


def test_fear_retest_leadership():
    changes("fear_retest_leadership")
    afraid = {"agent": agent(WL=2, friendly_ld=18, statuses={"fear": {}})}
    assert frac(odds("activation", afraid)["p_still_afraid"]) == Fraction(2, 20)
    assert frac(odds("activation", afraid, fear_retest_leadership=False)["p_still_afraid"]) == Fraction(18, 20)


def test_poison_cure_skips_damage():
    changes("poison_cure_skips_damage")
    poisoned = agent(HL=10, statuses={"poisoned": {}})
    skipped, _ = tick(poisoned, settings(), dice=[1])
    hurt, _ = tick(poisoned, settings(poison_cure_skips_damage=False), dice=[1])
    assert (skipped["hp"], hurt["hp"]) == (10, 9)


def test_stun_timing():
    changes("stun_timing")
    assert stun_now(2, settings()) == (1, False)
    assert stun_now(2, settings(stun_timing="next_activation")) == (2, True)


def test_scatter_direction():
    changes("scatter_direction")
    inputs = {"thrower": agent(BS=1), "weapon": {"damage": 1}, "target": agent(), "distance_cm": 5}
    clock = resolve("throw", inputs, dice=[20, 2, 5, 3])
    assert clock.result["scatter"]["direction"]["clock"] == 3
    reported = resolve("throw", {**inputs, "direction_deg": 90}, dice=[20, 2, 5], scatter_direction="reported")
    assert reported.result["scatter"]["direction"]["degrees"] == 90


def test_fear_test_on_hp_loss():
    changes("fear_test_on_hp_loss")
    inputs = {"target": agent(WL=1), "amount": 3}
    offered = resolve("damage", inputs, dice=[])
    assert effects_of(offered, "fear_test_offered")
    always = resolve("damage", inputs, dice=[20, 2], fear_test_on_hp_loss="always")
    assert "fear" in always.result["statuses"]


def test_core_spec_reads_settings_it_does_not_know_about_safely():
    assert core.dice_plan(3, 1, {}) == (2, 0)


def test_every_setting_is_shown_to_change_behaviour():
    """Run last in this module (pytest keeps file order): every setting is covered here or in the module named."""
    assert {s.key for s in SETTINGS} == TESTED_HERE | set(ELSEWHERE)
    here = Path(__file__).parent
    for key, module in ELSEWHERE.items():
        assert f"def test_{key}" in (here / module).read_text(encoding="utf-8"), (key, module)
