"""The worked examples of the spec's §6, one test each, with the book's numbers (G1–G16), and the derived cases
D1–D9. G15 (the army budget) is in test_army.py, next to the army part it exercises."""

from __future__ import annotations

from fractions import Fraction

from rules.systems.zvezdny_desant.tests.support import effect, frac, odds, run


def order_of(units, first_player):
    return run("activation_order", {"first_player": first_player, "units": units}).result["sequence"]


def test_g1_activation_order():
    # Player A (side 0): 5, 3, 2; player B (side 1): 6, 4 (L262).
    units = [{"unit": f"A{i}", "side": 0, "initiative": i} for i in (5, 3, 2)]
    units += [{"unit": f"B{i}", "side": 1, "initiative": i} for i in (6, 4)]
    assert order_of(units, first_player=0) == ["B6", "A5", "B4", "A3", "A2"]
    assert order_of(units, first_player=1) == ["B6", "A5", "B4", "A3", "A2"]  # no ties: First Player irrelevant


def test_g2_ties_alternate_from_the_first_player():
    # First Player (F, side 0): 5, 4, 4, 2; player B (side 1): 7, 4, 4 (L270). List order = the owner's choice.
    units = [{"unit": n, "side": 0, "initiative": i} for n, i in (("F5", 5), ("F4a", 4), ("F4b", 4), ("F2", 2))]
    units += [{"unit": n, "side": 1, "initiative": i} for n, i in (("B7", 7), ("B4a", 4), ("B4b", 4))]
    assert order_of(units, first_player=0) == ["B7", "F5", "F4a", "B4a", "F4b", "B4b", "F2"]


def test_g3_an_order_binds_even_when_it_cannot_be_carried_out():
    # An «Атака» unit in fire suppression neither moves nor shoots (skipped) but keeps the order's conditions.
    sequence = run("activation_order", {"first_player": 0, "units": [
        {"unit": "suppressed", "side": 0, "initiative": 6, "suppressed": True},
        {"unit": "other", "side": 1, "initiative": 4}]})  # fmt: skip
    assert sequence.result["sequence"] == ["other"]
    assert sequence.result["skipped"] == ["suppressed"]
    # Core rules (A1): shooting AT it is −2 (8 → 6+), and its own shooting would be +2 (8 → 10+).
    assert odds("hit_test", {"shooter_order": "defence", "target_order": "attack"})["need"] == 6
    assert odds("hit_test", {"shooter_order": "attack", "target_order": "move"})["need"] == 10
    # Its ПДВ still carries the −3 of «Атака» (G4 below shows the sum).
    assert run("movement", {"pdv": 12, "order": "attack"}).result["max_steps"] == 9


def test_g4_terrain_minuses_add_up():
    crossing = [{"grade": "light"}, {"grade": "medium"}]
    assert run("movement", {"pdv": 12, "order": "move", "terrain": crossing}).result["max_steps"] == 6
    assert run("movement", {"pdv": 12, "order": "attack", "terrain": crossing}).result["max_steps"] == 3


def test_g5_range_of_an_assault_rifle():
    rifle = {"name": "Автомат", "dln": 30, "hrk": "В12"}
    shot = {"shooter": {"order": "defence", "groups": [{"count": 1, "weapon": rifle}]},
            "target": {"armour": "В", "stk": 1, "groups": [{"count": 1, "distance": 30}]}}  # fmt: skip
    assert odds("shooting", shot)["hits"][-1]["value"] == 1  # at 30 steps it rolls one die
    shot["target"]["groups"][0]["distance"] = 31
    out_of_range = run("shooting", shot, [])  # no die: the figure cannot hit, yet counts as having shot
    assert out_of_range.result["hits"] == 0
    assert out_of_range.dice == []
    assert effect(out_of_range, "shot", "shooter") is not None


def test_g6_cover_first_case_mixed_types_give_the_smallest_plus():
    out = run("cover", {"figures": [{"count": 5, "cover": "medium"}, {"count": 4}, {"count": 1, "cover": "light"}]})
    assert out.result["cover"] == "light"
    assert out.result["bonus"] == 2


def test_g7_cover_second_case_one_type_over_half():
    out = run("cover", {"figures": [{"count": 6, "cover": "heavy"}, {"count": 3}, {"count": 1, "cover": "light"}]})
    assert out.result["cover"] == "heavy"
    assert out.result["bonus"] == 6


def test_g8_sum_of_pluses_and_minuses():
    # 8 base +2 shooting on the move +2 target on «Оборона» +4 medium cover = 16+ (L520).
    answer = odds("hit_test", {"shooter_order": "attack", "target_order": "defence", "cover": "medium"})
    assert answer["raw"] == 16
    assert answer["need"] == 16
    assert frac(answer["p_hit"]) == Fraction(1, 4)


def test_g9_wound_test_against_class_b():
    # Target with В armour, 3 hits with «ХРК: В12», rolls 13, 17, 9: the first two wound (L534).
    out = run("wound_test", {"hits": 3, "hrk": "ХРК: В12", "armour": "В"}, [13, 17, 9])
    assert out.result["passed"] == 2
    assert out.result["wounds"] == 2
    latin = run("wound_test", {"hits": 3, "hrk": {"B": 12}, "armour": "b"}, [13, 17, 9])
    assert latin.result == out.result


def test_g10_casualty_removal():
    out = run("casualties", {"stk": 3, "wounds": 8, "groups": [{"count": 10}]})
    assert out.result["removed"] == 2
    assert out.result["markers"] == 2


def test_g11_markers_accumulate():
    out = run("casualties", {"stk": 3, "markers": 2, "wounds": 2, "groups": [{"count": 8}]})
    assert out.result["removed"] == 1
    assert out.result["markers"] == 1


def test_g12_figures_out_of_sight_cannot_die():
    groups = [{"count": 2, "killable": True}, {"count": 4, "killable": False}]
    out = run("casualties", {"stk": 2, "markers": 1, "wounds": 7, "groups": groups})
    assert out.result["removed"] == 2
    assert out.result["markers"] == 0
    assert out.result["discarded"] == 4


def test_g13_melee_strikes():
    units = [{"unit": "attackers", "side": 0, "figures": 5, "bsp": 7, "stk": 1},
             {"unit": "defenders", "side": 1, "figures": 5, "bsp": 7, "stk": 1, "in_contact": 0, "hidden": 5}]  # fmt: skip
    out = run("melee", {"units": units}, [3, 7, 12, 15, 5])
    assert out.result["units"]["defenders"]["bsp"] == 7  # the defenders have no pluses here
    assert out.result["units"]["defenders"]["wounds"] == 3


def test_g14_forcer_assault_squad_strikes_twice():
    units = [{"unit": "штурмовое звено форсеров", "side": 0, "figures": 3, "bsp": 7, "stk": 1,
              "strikes_per_figure": 2},
             {"unit": "пехота", "side": 1, "figures": 3, "bsp": 7, "stk": 1, "in_contact": 0, "hidden": 3}]  # fmt: skip
    out = run("melee", {"units": units}, [20, 20, 1, 1, 1, 1])
    assert len(out.dice) == 6
    assert out.result["units"]["пехота"]["wounds"] == 2


def test_g16_command_point_limit():
    overspent = run("order_cards", {"units": [{"unit": "a", "order": "move", "initiative": 11}]})
    assert overspent.result["status"] == "overspent"
    assert overspent.result["overspend"] == 1
    all_on_one = run("order_cards", {"units": [{"unit": "a", "order": "attack", "initiative": 10},
                                               {"unit": "b", "order": "defence", "initiative": 0}]})  # fmt: skip
    assert all_on_one.result["status"] == "ok"
    assert all_on_one.result["initiative"] == {"a": 10, "b": 0}


def test_d1_hit_test_never_below_4():
    answer = odds("hit_test", {"shooter_order": "defence", "target_order": "attack", "target_kind": "vehicle"})
    assert answer["raw"] == 2
    assert answer["need"] == 4
    assert frac(answer["p_hit"]) == Fraction(17, 20)


def test_d2_hardest_shot_at_infantry():
    answer = odds("hit_test", {"shooter_order": "attack", "target_order": "defence", "cover": "heavy"})
    assert answer["need"] == 18
    assert frac(answer["p_hit"]) == Fraction(3, 20)


def test_d3_exactly_half_in_cover_is_open():
    assert run("cover", {"figures": [{"count": 5, "cover": "light"}, {"count": 5}]}).result["cover"] == "open"


def test_d4_mixed_cover_majority():
    figures = [{"count": 4, "cover": "light"}, {"count": 3, "cover": "heavy"}, {"count": 3}]
    assert run("cover", {"figures": figures}).result["cover"] == "light"


def test_d5_mobility_never_below_one():
    out = run("movement", {"pdv": 4, "order": "attack", "terrain": [{"grade": "severe"}]})
    assert out.result["raw"] == -5
    assert out.result["max_steps"] == 1


def test_d6_melee_pluses():
    units = [{"unit": "six", "side": 0, "figures": 6, "bsp": 7, "stk": 1, "in_contact": 3, "near": 3},
             {"unit": "four", "side": 1, "figures": 4, "bsp": 7, "stk": 1, "in_contact": 2, "near": 2}]  # fmt: skip
    answer = odds("melee", {"units": units})
    assert answer["units"]["six"]["bsp"] == 10
    assert frac(answer["units"]["six"]["p_strike_hits"]) == Fraction(11, 20)
    assert answer["units"]["four"]["bsp"] == 7
    assert frac(answer["units"]["four"]["p_strike_hits"]) == Fraction(7, 10)


def test_d7_bsp_cap():
    units = [{"unit": "elite", "side": 0, "figures": 4, "bsp": 19, "stk": 1, "in_contact": 2, "near": 2},
             {"unit": "rabble", "side": 1, "figures": 2, "bsp": 7, "stk": 1, "in_contact": 1, "near": 1}]  # fmt: skip
    answer = odds("melee", {"units": units})
    assert answer["units"]["elite"]["bsp"] == 20
    assert frac(answer["units"]["elite"]["p_strike_hits"]) == Fraction(1, 20)


def test_d8_victory_points():
    def vp(alive):
        out = run("victory_points", {"units": [{"side": 1, "cost": 120, "start": 10, "alive": alive}]})
        return out.result["vp_by_side"][0]

    assert (vp(4), vp(5), vp(0)) == (60, 0, 120)


def test_d9_overspend_cut_by_the_opponent():
    cards = [{"unit": "a", "order": "attack", "initiative": 6}, {"unit": "b", "order": "move", "initiative": 5}]
    for cut in ({"a": 1}, {"b": 1}):
        out = run("order_cards", {"units": cards, "reductions": cut})
        assert out.result["status"] == "reduced"
        assert sum(out.result["initiative"].values()) == 10
