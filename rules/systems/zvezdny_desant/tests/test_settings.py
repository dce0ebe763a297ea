"""Every setting changes what the rules answer: one test per setting, each comparing the default reading with the
other. The army, simulator and battle settings are tested in their own files (listed in ELSEWHERE)."""

from __future__ import annotations

import pytest

from rules.contract import RuleInputError
from rules.systems.zvezdny_desant.settings import INTERPRETATION, SETTINGS, SETTINGS_BY_KEY
from rules.systems.zvezdny_desant.tests.support import effect, odds, refuse, run, settings

ELSEWHERE = {
    "army_limit": "test_army.py",
    "tournament": "test_army.py",
    "max_turns": "test_simulate.py",
}
SINGLE_READING = {s.key for s in SETTINGS if s.category == INTERPRETATION}


def test_every_setting_has_a_test_here_or_elsewhere():
    tested = {name[len("test_") :] for name in globals() if name.startswith("test_")}
    missing = {s.key for s in SETTINGS} - tested - set(ELSEWHERE) - SINGLE_READING
    assert not missing, f"settings without a behaviour test: {sorted(missing)}"


@pytest.mark.parametrize("key", sorted(SINGLE_READING))
def test_single_reading_settings_name_their_reading_and_refuse_others(key):
    setting = SETTINGS_BY_KEY[key]
    assert setting.choices == (setting.default,)
    assert setting.source.startswith("§5 A")
    with pytest.raises(RuleInputError):
        settings(**{key: "something else"})


def test_every_ambiguity_of_section_5_is_a_setting():
    named = {s.source.split()[1] for s in SETTINGS if s.source.startswith("§5 A")}
    assert named >= {f"A{n}" for n in range(1, 33)}


SHOT = {
    "shooter": {"order": "defence", "groups": [{"count": 4, "weapon": {"hrk": "В12"}}]},
    "target": {"armour": "В", "stk": 1, "groups": [{"count": 4}]},
}


def test_shooting_morale():
    dice = [20] * 4 + [20] * 4  # every shot hits and wounds: 4 figures die
    assert effect(run("shooting", SHOT, dice), "morale_check") is None
    flagged = run("shooting", SHOT, dice, shooting_morale="manual")
    assert effect(flagged, "morale_check", "target") is not None


MELEE = [{"unit": "a", "side": 0, "figures": 4, "bsp": 11, "stk": 2},
         {"unit": "b", "side": 1, "figures": 4, "bsp": 11, "stk": 2}]  # fmt: skip


def test_melee_result():
    dice = [20, 20, 20, 1] + [20, 1, 1, 1]  # a inflicts 3 wounds, b 1: nobody is destroyed
    assert run("melee", {"units": MELEE}, dice).result["winner"] is None
    assert run("melee", {"units": MELEE}, dice, melee_result="more_wounds").result["winner"] == 0
    assert odds("melee", {"units": MELEE})["p_side_wins"][0]["p"] < odds(
        "melee", {"units": MELEE}, melee_result="more_wounds")["p_side_wins"][0]["p"]  # fmt: skip


def test_states_by_hand():
    units = {"first_player": 0, "units": [{"unit": "x", "side": 0, "initiative": 5, "panicked": True}]}
    assert run("activation_order", units).result["skipped"] == ["x"]
    assert "A4" in refuse("activation_order", units, "units.0.panicked", states_by_hand=False)


def test_command_points():
    cards = {"units": [{"unit": "a", "order": "move", "initiative": 8}]}
    assert run("order_cards", cards, command_points=8).result["status"] == "ok"
    assert "Spend all 10" in refuse("order_cards", cards, "units")


def test_attack_target_modifier():
    shot = {"shooter_order": "defence", "target_order": "attack"}
    assert odds("hit_test", shot)["need"] == 6
    assert odds("hit_test", shot, attack_target_modifier="example")["need"] == 10


def test_rolloff_ties():
    tie = {"previous": 1}
    assert run("first_player", tie, [5, 5, 3, 9]).result["winner"] == 1  # re-rolled: 3 against 9
    assert run("first_player", tie, [5, 5, 9, 3]).result["winner"] == 0
    kept = run("first_player", tie, [5, 5], rolloff_ties="keep_previous")
    assert kept.result["winner"] == 1
    assert kept.result["kept"]
    assert odds("first_player", tie, rolloff_ties="keep_previous")["p_first"]["Игрок 2"]["exact"] == "21/40"


def test_cp_underspend():
    cards = {"units": [{"unit": "a", "order": "move", "initiative": 7}]}
    refuse("order_cards", cards, "units")
    assert run("order_cards", cards, cp_underspend="lost").result["lost"] == 3


def test_missing_hrk():
    hits = {"hits": 2, "hrk": "A10 В12", "armour": "С"}
    assert run("wound_test", hits).result["wounds"] == 0
    assert "A8" in refuse("wound_test", hits, "hrk", missing_hrk="refuse")


def test_wound_test_clamp():
    assert odds("wound_test", {"hits": 1, "hrk": "В2", "armour": "B"})["need"] == 2
    assert odds("wound_test", {"hits": 1, "hrk": "В2", "armour": "B"}, wound_test_clamp="like_hit_test")["need"] == 4


def test_mixed_stk():
    groups = {"stk": 2, "wounds": 3, "groups": [{"count": 3}, {"count": 2, "stk": 1}]}
    assert "A10" in refuse("casualties", groups, "groups")
    assert run("casualties", groups, mixed_stk="lowest").result["removed"] == 3


def test_killable_basis():
    # The shooting figure sees one target figure that is out of its range, and reaches another it cannot see.
    shot = {"shooter": {"order": "defence", "groups": [{"count": 1, "weapon": {"hrk": "В12"}}]},
            "target": {"armour": "В", "stk": 1, "groups": [{"count": 1, "seen_by": [0], "in_range_of": []},
                                                            {"count": 1, "seen_by": [], "in_range_of": [0]}]}}  # fmt: skip
    assert run("shooting", shot, []).result["hits"] == 0  # no figure it both sees and reaches: no die
    loose = run("shooting", shot, [20, 20], killable_basis="whole_unit")
    assert loose.result["hits"] == 1
    assert loose.result["wounds"] == 1
    assert loose.result["removed"] == 0  # seen-but-out-of-range and in-range-but-unseen: neither can die


def test_cover_basis():
    figures = {"figures": [{"count": 3, "cover": "heavy", "visible": False}, {"count": 2}]}
    assert run("cover", figures).result["cover"] == "heavy"
    assert run("cover", figures, cover_basis="visible_only").result["cover"] == "open"


def test_grey_zone_cover():
    woods = {"figures": [{"count": 3, "grey_zone": True}]}
    assert "A13" in refuse("cover", woods, "figures.0.cover")
    assert run("cover", woods, grey_zone_cover="light").result["cover"] == "light"
    ruins = {"figures": [{"count": 3, "grey_zone": True, "cover": "medium"}]}
    assert run("cover", ruins).result["cover"] == "medium"


def test_same_unit_screens():
    screen = {"between": [{"kind": "enemy_infantry", "same_unit_as_target": True}]}
    assert run("sight", screen).result["visible"] is True
    assert run("sight", screen, same_unit_screens=True).result["visible"] is False


def test_shoot_then_assault_target():
    charge = {"order": "attack", "shot_at": "B", "target": {"unit": "C"}, "figures": [{"pdv": 6, "distance": 4}]}
    assert "A15" in refuse("assault", charge, "shot_at")
    assert run("assault", charge, shoot_then_assault_target="any").result["engaged"] is True


def test_closing_in_attack_penalty():
    unit = {"first_player": 0, "units": [{"unit": "a", "side": 0, "order": "attack",
                                          "figures": [{"pdv": 6, "distance": 5}]}]}  # fmt: skip
    assert run("closing_in", unit).result["units"][0]["in_contact"] == 1
    assert run("closing_in", unit, closing_in_attack_penalty=True).result["units"][0]["in_contact"] == 0


def test_zero_initiative_order_counts():
    shot = {"shooter_order": "defence", "target_order": "defence", "target_initiative": 0}
    assert odds("hit_test", shot)["need"] == 10
    assert odds("hit_test", shot, zero_initiative_order_counts=False)["need"] == 8


def test_bsp_floor():
    units = [{"unit": "a", "side": 0, "figures": 1, "bsp": 0, "stk": 1},
             {"unit": "b", "side": 1, "figures": 1, "bsp": 7, "stk": 1}]  # fmt: skip
    assert odds("melee", {"units": units})["units"]["a"]["p_strike_hits"]["exact"] == "1/1"
    assert odds("melee", {"units": units}, bsp_floor=3)["units"]["a"]["p_strike_hits"]["exact"] == "9/10"


def test_no_order_target():
    shot = {"shooter_order": "defence", "target_order": None}
    assert odds("hit_test", shot)["need"] == 8
    assert odds("hit_test", shot, no_order_target="defence")["need"] == 10


def test_melee_figure_count():
    units = [{"unit": "many", "side": 0, "figures": 6, "bsp": 7, "stk": 1, "in_contact": 1, "hidden": 5},
             {"unit": "few", "side": 1, "figures": 3, "bsp": 7, "stk": 1, "in_contact": 1, "near": 2}]  # fmt: skip
    assert odds("melee", {"units": units})["bonus"] == {0: 1, 1: 0}
    assert odds("melee", {"units": units}, melee_figure_count="engaged_only")["bonus"] == {0: 0, 1: 1}


def test_multi_sided_strikes():
    units = [{"unit": "a", "side": 0, "figures": 2, "bsp": 7, "stk": 1, "targets": {"b": 1, "c": 1}},
             {"unit": "b", "side": 1, "figures": 1, "bsp": 7, "stk": 1},
             {"unit": "c", "side": 1, "figures": 1, "bsp": 7, "stk": 1}]  # fmt: skip
    assert (
        odds(
            "melee",
            {
                "units": units,
            },
        )["units"]["b"]["wounds"][-1]["value"]
        == 1
    )  # split 1 + 1
    assert "A22" in refuse("melee", {"units": units}, "units.0.targets", multi_sided_strikes="per_unit")


def test_vp_rounding():
    unit = {"units": [{"side": 1, "cost": 125, "start": 4, "alive": 1}]}
    assert [run("victory_points", unit, vp_rounding=r).result["vp_by_side"][0] for r in ("exact", "down", "up")] == [
        62.5,
        62,
        63,
    ]


def test_vp_half_threshold():
    unit = {"units": [{"side": 1, "cost": 100, "start": 10, "alive": 5}]}
    assert run("victory_points", unit).result["vp_by_side"][0] == 0
    assert run("victory_points", unit, vp_half_threshold="half_or_more").result["vp_by_side"][0] == 50


def test_melee_engages():
    charge = {"order": "move", "target": {"unit": "B"}, "figures": [{"pdv": 6, "distance": 6}],
              "others": [{"unit": "C", "distance": 2}]}  # fmt: skip
    assert run("assault", charge).result["engaged_units"] == ["B", "C"]
    assert run("assault", charge, melee_engages="target_only").result["engaged_units"] == ["B"]


def test_skipped_unit():
    units = {"first_player": 0, "units": [{"unit": "x", "side": 0, "initiative": 5, "in_melee": True},
                                          {"unit": "y", "side": 1, "initiative": 3}]}  # fmt: skip
    assert run("activation_order", units).result["skipped"] == ["x"]
    late = run("activation_order", units, skipped_unit="at_end").result
    assert late["skipped"] == []
    assert late["late_chance"] == ["x"]


def test_assault_unit_in_melee():
    charge = {"order": "move", "target": {"unit": "B", "in_melee": True}, "figures": [{"pdv": 6, "distance": 2}]}
    assert run("assault", charge).result["engaged"] is True
    assert "A27" in refuse("assault", charge, "target.in_melee", assault_unit_in_melee=False)


def test_grey_zone_symmetric():
    deep = {"grey_zone": {"size": "large", "observer_depth": 5}}
    assert run("sight", deep).result["visible"] is False
    assert run("sight", deep, grey_zone_symmetric=False).result["visible"] is True


def test_slopes_downhill():
    down = {"pdv": 8, "order": "move", "terrain": [{"grade": "medium", "slope": True, "uphill": False}]}
    assert run("movement", down).result["max_steps"] == 8
    assert run("movement", down, slopes_downhill=True).result["max_steps"] == 4


def test_deployment_geometry():
    table = {"units": [2, 2], "table_length": 48}
    assert run("deployment", table, [10, 3]).result["zone_depth"] == 14
    assert "60 steps" in refuse("deployment", table, "table_length", deployment_geometry="thirds")
    assert (
        run("deployment", {**table, "table_length": 60}, [10, 3], deployment_geometry="thirds").result["neutral"] == 20
    )


def test_reroll_scope():
    test = {"need": 8, "rolls": [3, 15, 5]}
    assert len(run("reroll", test, [9, 9, 9]).dice) == 3  # the whole figure's test (L430)
    assert len(run("reroll", test, [9], reroll_scope="one_die").dice) == 1
    assert "one die" in refuse("reroll", {**test, "reroll": [0, 2]}, "reroll", reroll_scope="one_die")


def test_leftover_markers():
    # СТК 2: 5 markers, only 2 figures can die: both die, 1 marker is left over.
    wounds = {"stk": 2, "wounds": 5, "groups": [{"count": 2}, {"count": 3, "killable": False}]}
    assert run("casualties", wounds).result["markers"] == 0
    assert run("casualties", wounds, leftover_markers="keep_remainder").result["markers"] == 1
