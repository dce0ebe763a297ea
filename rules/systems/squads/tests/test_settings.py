"""Each setting changes what the rules answer (spec §5 B1–B25 and the book's option). A guard test makes sure every
setting has its test here; the one-choice interpretations are recorded readings and refuse any other value."""

from fractions import Fraction

import pytest

from rules.contract import RuleInputError
from rules.systems.squads import tables
from rules.systems.squads.settings import SETTINGS, SETTINGS_BY_KEY
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.support import dist, effect, frac, odds, refuse, run

COVERED: set[str] = set()


def covers(*keys):
    def mark(fn):
        COVERED.update(keys)
        return fn

    return mark


def shooting(level="regular", weapon="rifle", distance=6, action="aimed_fire", target=None, **group):
    return {
        "shooter": {"level": level, "action": action, "groups": [{"weapon": weapon, "count": 1, "distance": distance, **group}]},
        "target": target or {"groups": [{"count": 5}]},
    }  # fmt: skip


def test_every_setting_has_a_test_and_a_source():
    assert {s.key for s in SETTINGS} == COVERED
    for s in SETTINGS:
        assert s.source
        assert s.help
        assert s.label
        s.check(s.default)  # each default is one of its own values
    assert all(SETTINGS_BY_KEY[f"suppression_cap_{lvl}"].source.startswith("§5 B1") for lvl in tables.LEVELS)
    sources = " ".join(s.source for s in SETTINGS)
    for n in range(1, 26):
        assert f"§5 B{n} " in sources, f"B{n} has no setting"


@covers("units")
def test_units_inches_or_cm():
    assert odds("unit_action", {"action": "run"})["result"]["move"] == 12
    assert odds("unit_action", {"action": "run"}, units="cm")["result"]["move"] == 30
    refuse("shooting", shooting(weapon="pistol", distance=10), "shooter.groups.0.distance")
    odds("shooting", shooting(weapon="pistol", distance=10), units="cm")  # 10 cm is within 20 cm


@covers(*(f"suppression_cap_{lvl}" for lvl in tables.LEVELS))
@pytest.mark.parametrize(("level", "cap"), [("recruit", 1), ("regular", 2), ("veteran", 3), ("elite", 4)])
def test_b1_suppression_caps(level, cap):
    target = {"level": level, "figures": 10}
    assert odds("split_hits", {"unsaved": 6, "suppress": 0, "target": target})["result"]["max_suppressed"] == cap
    raised = odds("split_hits", {"unsaved": 6, "suppress": 0, "target": target}, **{f"suppression_cap_{level}": 5})
    assert raised["result"]["max_suppressed"] == 5


@covers("expertise_reading", "melee_dice", "damage_rows", "text_artefacts")
@pytest.mark.parametrize("key", ["expertise_reading", "melee_dice", "damage_rows", "text_artefacts"])
def test_one_reading_interpretations_are_recorded_and_refuse_other_values(key):
    setting = SETTINGS_BY_KEY[key]
    assert setting.category == "interpretation"
    assert setting.choices == (setting.default,)
    with pytest.raises(RuleInputError):
        SYSTEM.resolve_settings({key: "something_else"})


@covers("save_allocation")
def test_b3_saves_by_figure_or_by_majority_armour():
    target = {"groups": [{"count": 1, "armour": "battle_suit"}, {"count": 2, "armour": "none"}]}
    # Three hits: by figure, one meets the battle suit (2+) and two meet no armour.
    by_figure = dist(odds("armour_saves", {"hits": 3, "target": target})["unsaved"])
    assert by_figure == {2: Fraction(5, 6), 3: Fraction(1, 6)}
    majority = dist(odds("armour_saves", {"hits": 3, "target": target}, save_allocation="majority_armour")["unsaved"])
    assert majority == {3: Fraction(1)}


@covers("split_chooser")
def test_b3_who_splits_the_hits():
    inputs = shooting(target={"groups": [{"count": 5}]})
    assert effect(run("shooting", inputs, [6]), "hits_to_split")["chooser"] == "target"
    assert effect(run("shooting", inputs, [6], split_chooser="shooter"), "hits_to_split")["chooser"] == "shooter"


@covers("suppressed_then_casualty")
def test_b4_a_suppressed_figure_as_a_casualty():
    target = {"level": "veteran", "figures": 3, "suppressed": 2}
    assert run("split_hits", {"unsaved": 3, "suppress": 0, "target": target}, []).result["casualties"] == 3
    strict = run(
        "split_hits",
        {"unsaved": 3, "suppress": 0, "target": target},
        [],
        suppressed_then_casualty="never_while_suppressed",
    )
    assert strict.result["casualties"] == 1
    assert strict.result["lost"] == 2


@covers("aimed_cap_order")
def test_b5_aimed_recruit_against_a_bunker():
    bunker = shooting(level="recruit", target={"groups": [{"count": 4, "cover": "heavy"}]})
    assert frac(odds("shooting", bunker)["groups"][0]["p_hit"]) == Fraction(1, 3)
    assert frac(odds("shooting", bunker, aimed_cap_order="aim_then_cap")["groups"][0]["p_hit"]) == Fraction(1, 6)


@covers("walk_fire")
def test_b6_support_weapons_on_a_walk():
    walk = shooting(weapon="rpg", action="walk")
    assert "Walk" in refuse("shooting", walk, "shooter.groups.0.weapon")
    odds("shooting", walk, walk_fire="any_weapon")
    odds("shooting", shooting(weapon="grenades", action="walk"))  # thrown grenades may go on a Walk


@covers("mixed_cover")
def test_b7_mixed_cover_type():
    target = {"groups": [{"count": 2, "cover": "light"}, {"count": 1, "cover": "heavy"}]}
    need = {choice: odds("shooting", shooting(level="elite", action="walk", target=target), mixed_cover=choice)["groups"][0]["need"]
            for choice in ("majority", "worst", "best")}  # fmt: skip
    assert need == {"majority": 5, "worst": 5, "best": 6}
    tie = {"groups": [{"count": 1, "cover": "light"}, {"count": 1, "cover": "medium"}]}
    assert odds("shooting", shooting(level="elite", action="walk", target=tie))["groups"][0]["need"] == 5  # tie: lower


@covers("cover_edge_only")
def test_b7_only_figures_at_the_edge_take_the_hits():
    target = {"level": "regular", "figures": 6, "allocatable": 2}
    edge = odds("split_hits", {"unsaved": 5, "suppress": 1, "target": target})["result"]
    assert (edge["suppressed"], edge["casualties"], edge["lost"]) == (1, 1, 3)
    anyone = odds("split_hits", {"unsaved": 5, "suppress": 1, "target": target}, cover_edge_only=False)["result"]
    assert (anyone["suppressed"], anyone["casualties"], anyone["lost"]) == (1, 4, 0)


@covers("hmg_infantry_crew")
def test_b8_infantry_hmg_crew():
    lone = shooting(weapon="hmg", crew=1)
    assert odds("shooting", lone)["groups"][0]["dice"] == 0
    assert odds("shooting", lone, hmg_infantry_crew="one_enough")["groups"][0]["dice"] == 4
    mounted = shooting(weapon="hmg", crew=1, mounted=True)
    assert odds("shooting", mounted)["groups"][0]["dice"] == 4  # on a bunker or vehicle one man is enough


@covers("mortar_line_of_sight")
def test_b9_mortar_without_line_of_sight():
    blind = shooting(weapon="light_mortar", distance=30, line_of_sight=False)
    odds("shooting", blind)
    refuse("shooting", blind, "shooter.groups.0.spotter", mortar_line_of_sight="spotter")
    odds(
        "shooting",
        shooting(weapon="light_mortar", distance=30, line_of_sight=False, spotter=True),
        mortar_line_of_sight="spotter",
    )
    refuse("shooting", shooting(weapon="rifle", line_of_sight=False), "shooter.groups.0.line_of_sight")


@covers("melee_attackers")
def test_b10_which_attackers_fight():
    inputs = {
        "attacker": {"level": "regular", "figures": 6, "in_reach": 2},
        "defender": {"level": "regular", "figures": 6},
    }
    assert len(run("melee", inputs, [1, 1, 1, 1, 1, 1, 1, 1]).result["waves"][0]["dice"]["attacker"]) == 2
    whole = run("melee", inputs, [1] * 12, melee_attackers="whole_unit")
    assert len(whole.result["waves"][0]["dice"]["attacker"]) == 6


@covers("melee_round_clears_suppression")
def test_b11_later_rounds_clear_suppression():
    inputs = {"round": 2, "attacker": {"level": "regular", "figures": 2, "suppressed": 2},
              "defender": {"level": "regular", "figures": 1}}  # fmt: skip
    cleared = run("melee", inputs, [1, 1, 1])
    assert len(cleared.result["waves"]) == 1  # everybody strikes at once
    assert effect(cleared, "suppression_cleared", "attacker")["figures"] == 2
    kept = run("melee", inputs, [1, 1, 1], melee_round_clears_suppression=False)
    assert [len(w["dice"]["attacker"]) for w in kept.result["waves"]] == [0, 2]  # they strike last


@covers("melee_lock")
def test_b12_who_is_locked_in_melee():
    attacker = {"level": "regular", "in_melee": True, "melee_role": "attacker"}
    refuse("activation", {"unit": attacker}, "unit.in_melee")
    run("activation", {"unit": attacker}, [6], melee_lock="defender_only")
    refuse("activation", {"unit": {**attacker, "melee_role": "defender"}}, "unit.in_melee", melee_lock="defender_only")


@covers("on_guard_timing")
def test_b13_on_guard_fires_before_or_after_the_enemy_action():
    inputs = {**shooting(action="on_guard"), "reaction": {"enemy_action": "declared"}}
    odds("shooting", inputs)
    refuse("shooting", inputs, "reaction.enemy_action", on_guard_timing="after_action")
    odds("shooting", {**inputs, "reaction": {"enemy_action": "resolved"}}, on_guard_timing="after_action")
    refuse(
        "shooting",
        {**inputs, "reaction": {"enemy_action": "declared", "used_this_turn": True}},
        "reaction.used_this_turn",
    )


@covers("on_guard_until")
def test_b13_on_guard_ends_at_the_next_attempt_or_at_the_end_of_turn():
    unit = {"level": "regular", "on_guard": True}
    assert effect(run("activation", {"unit": unit}, [5]), "on_guard_ends", "unit") is not None
    assert effect(run("activation", {"unit": unit}, [5], on_guard_until="end_of_turn"), "on_guard_ends") is None


@covers("vehicle_level")
def test_b14_vehicle_crew_level():
    vehicle = {"kind": "vehicle", "level": "elite"}
    assert odds("activation", {"unit": vehicle})["need"] == 2
    assert odds("activation", {"unit": vehicle}, vehicle_level="regular")["need"] == 4
    gun = {"shooter": {"kind": "vehicle", "level": "elite", "groups": [{"weapon": "light_cannon", "count": 1, "distance": 10}]},
           "target": {"groups": [{"count": 3}]}}  # fmt: skip
    assert odds("shooting", gun)["groups"][0]["need"] == 4
    assert odds("shooting", gun, vehicle_level="regular")["groups"][0]["need"] == 5


@covers("vehicle_move_fire")
def test_b15_open_move_fires_one_weapon_or_none():
    truck = {"armour": "unarmoured", "weapons": 2}
    assert odds("vehicle_move", {"vehicle": truck, "move": "open"})["result"]["weapons_may_fire"] == 1
    none = odds("vehicle_move", {"vehicle": truck, "move": "open"}, vehicle_move_fire="light_cover_move_only")
    assert none["result"]["weapons_may_fire"] == 0


@covers("tank_classes")
def test_b15_which_armour_classes_are_medium_and_heavy_tanks():
    medium = {"vehicle": {"armour": "medium"}, "move": "medium_cover"}
    refuse("vehicle_move", medium, "move")
    odds("vehicle_move", medium, tank_classes="medium_and_heavy")
    refuse(
        "vehicle_move",
        {"vehicle": {"armour": "super_heavy"}, "move": "medium_cover"},
        "move",
        tank_classes="medium_and_heavy",
    )


@covers("facing_best")
def test_b16_front_takes_the_lower_or_higher_die():
    hit = {"vehicle": {"armour": "light", "facing": "front"}, "hits": 1, "weapon": "rpg"}
    assert run("vehicle_hit", hit, [1, 2, 5]).result["damage"][0]["value"] == 2
    assert run("vehicle_hit", hit, [1, 2, 5], facing_best="front_higher").result["damage"][0]["value"] == 5


@covers("facing_doubles")
def test_b16_doubles_rerolled_or_kept():
    front = dist(
        odds("vehicle_hit", {"vehicle": {"armour": "light", "facing": "front"}, "hits": 1, "weapon": "rpg"})[
            "damage_die"
        ]
    )
    assert front.get(6, 0) == 0  # a front hit never destroys when doubles are re-rolled
    kept = odds(
        "vehicle_hit",
        {"vehicle": {"armour": "light", "facing": "front"}, "hits": 1, "weapon": "rpg"},
        facing_doubles="keep",
    )
    assert dist(kept["damage_die"])[6] == Fraction(1, 36)
    hit = {"vehicle": {"armour": "light", "facing": "front"}, "hits": 1, "weapon": "rpg"}
    assert run("vehicle_hit", hit, [1, 6, 6], facing_doubles="keep").result["damage"][0]["effect"] == "destroyed"


@covers("bail_out_hits")
def test_b17_bail_out_hits_per_figure_or_per_unit():
    hit = {"vehicle": {"armour": "light", "facing": "side"}, "hits": 1, "weapon": "rpg"}
    assert effect(run("vehicle_hit", hit, [1, 6]), "bail_out")["hits"] == "per_figure"
    assert effect(run("vehicle_hit", hit, [1, 6], bail_out_hits="per_unit"), "bail_out")["hits"] == "per_unit"


@covers("stun_stacking")
def test_b17_repeated_stuns_flat_or_stacking():
    vehicle = {"kind": "vehicle", "level": "elite", "crew_stunned": 2}
    assert odds("activation", {"unit": vehicle})["modifier"] == -2
    assert odds("activation", {"unit": vehicle}, stun_stacking="stacking")["modifier"] == -4


@covers("armour_immune_weapons")
def test_b18_grenade_launcher_against_armour():
    hit = {"vehicle": {"armour": "light", "facing": "side"}, "hits": 1, "weapon": "grenade_launcher"}
    assert run("vehicle_hit", hit, []).result["immune"] is True
    assert run("vehicle_hit", hit, [6], armour_immune_weapons="firearms_and_hmg").result["immune"] is False


@covers("behind_vehicle_save")
def test_b19_troops_behind_a_vehicle():
    target = {"groups": [{"count": 2, "armour": "heavy", "behind_vehicle": "unarmoured"}]}
    better = dist(odds("armour_saves", {"hits": 1, "target": target})["unsaved"])
    assert better[1] == Fraction(1, 2)  # their own 4+ beats the truck's 6+
    vehicle = dist(odds("armour_saves", {"hits": 1, "target": target}, behind_vehicle_save="vehicle")["unsaved"])
    assert vehicle[1] == Fraction(5, 6)


@covers("coherency")
def test_b20_coherency_chain_or_isolated_figures():
    # Two pairs 10" apart: the chain reading penalises the smaller pair; nobody is isolated.
    unit = {"level": "regular", "positions": [[0, 0], [2, 0], [12, 0], [14, 0]]}
    assert odds("activation", {"unit": unit})["modifier"] == -2
    assert odds("activation", {"unit": unit}, coherency="isolated_only")["modifier"] == 0
    in_cm = {"level": "regular", "positions": [[0, 0], [7, 0], [14, 0]]}
    assert odds("activation", {"unit": in_cm}, units="cm")["modifier"] == 0
    assert odds("activation", {"unit": in_cm})["modifier"] == -2  # 7" apart in inches


@covers("leader_lost")
def test_b21_a_fallen_leader():
    unit = {"level": "regular", "leader": {"level": "elite", "alive": False}}
    assert odds("activation", {"unit": unit})["need"] == 4
    assert odds("activation", {"unit": unit}, leader_lost="keep")["need"] == 2


@covers("pass_order")
def test_b22_initiative_passes_by_score_or_round_the_table():
    players = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}]}
    wraps = run("initiative", players, [2, 6, 4], pass_order="seating_order")
    assert wraps.result["pass_order"] == ["Bob", "Cid", "Ann"]  # round the table from the winner
    low_first = run("initiative", players, [6, 3, 5], pass_order="seating_order")
    assert low_first.result["pass_order"] == ["Ann", "Bob", "Cid"]
    assert run("initiative", players, [6, 3, 5]).result["pass_order"] == ["Ann", "Cid", "Bob"]


@covers("withdraw_from")
def test_b23_withdraw_away_from_the_nearest_visible_or_any_enemy():
    unit = {
        "level": "regular",
        "strength": 6,
        "casualties": 4,
        "nearest_enemy": "Snipers",
        "nearest_visible_enemy": "Rifles",
    }
    assert effect(run("activation", {"unit": unit}, [1]), "withdraw")["away_from"] == "Rifles"
    assert (
        effect(run("activation", {"unit": unit}, [1], withdraw_from="nearest_any"), "withdraw")["away_from"]
        == "Snipers"
    )


@covers("natural_one_six")
def test_b24_natural_one_and_six():
    hopeless = {"level": "recruit", "suppressed": 2, "figures": 4}
    assert frac(odds("activation", {"unit": hopeless})["p_success"]) == 0
    assert frac(odds("activation", {"unit": hopeless}, natural_one_six=True)["p_success"]) == Fraction(1, 6)
    sure = {"level": "elite", "sees_enemy": False}
    assert frac(odds("activation", {"unit": sure}, natural_one_six=True)["p_success"]) == Fraction(5, 6)


@covers("initiative_ties")
def test_initiative_ties_all_or_top_only():
    players = {"players": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}]}
    settled = run("initiative", players, [6, 3, 3, 2, 5])  # Bob and Cid tie at 3 and re-roll
    assert settled.result["order"] == ["Ann", "Cid", "Bob"]
    top_only = run("initiative", players, [6, 3, 3], initiative_ties="top_only")
    assert top_only.result["order"] == ["Ann", "Bob", "Cid"]  # the lower tie keeps the seating order


@covers("pursuit_catch")
def test_pursuit_catches_on_equal_or_only_on_more():
    inputs = {"withdrawing": {"level": "elite"}, "pursuer": {"level": "elite"}}
    assert run("withdrawal", inputs, [6, 3, 6, 3]).result["outcome"] == "caught"
    assert run("withdrawal", inputs, [6, 3, 6, 3], pursuit_catch="more").result["outcome"] == "escaped"
    assert frac(odds("withdrawal", inputs)["p_caught"]) > frac(
        odds("withdrawal", inputs, pursuit_catch="more")["p_caught"]
    )
