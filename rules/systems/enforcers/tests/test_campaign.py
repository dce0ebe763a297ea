"""The campaign part: after a scenario, injuries and armour repair are rolled with the dice source, carried into
the roster entries' options, and told in a readable record (§3.18–§3.19)."""

import pytest

from rules import dice as dicelib
from rules.systems.enforcers import tables
from rules.systems.enforcers.army import ARMY
from rules.systems.enforcers.campaign import CAMPAIGN
from rules.systems.enforcers.tests.helpers import settings

APPRENTICE = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
STATS = dict.fromkeys(tables.STATS, 10)


def roster():
    return {"faction": "enforcers", "entries": [
        {"key": "kate", "profile": APPRENTICE, "count": 1, "options": {"name": "Kate", "stats": STATS,
                                                                       "armour": "military-carapace"}},
        {"key": "bob", "profile": APPRENTICE, "count": 1, "options": {"name": "Bob", "stats": {**STATS, "IT": 14}}},
    ]}  # fmt: skip


def final(kate: dict, bob: dict | None = None) -> dict:
    bob = bob or {}
    return {"game": {}, "units": {
        "kate": {"side": 0, "profile": APPRENTICE, "state": {"entry": "kate", "name": "Kate", "stats": STATS,
                                                              "armour": "military-carapace", "hp": 10, "ap": 8,
                                                              "statuses": {}, "flags": {}, **kate}},
        "bob": {"side": 0, "profile": APPRENTICE, "state": {"entry": "bob", "name": "Bob",
                                                             "stats": {**STATS, "IT": 14}, "armour": None, "hp": 10,
                                                             "ap": 0, "statuses": {}, "flags": {}, **bob}},
        "thug": {"side": 1, "profile": APPRENTICE, "state": {"entry": "x", "statuses": {"dead": {}}}},
    }}  # fmt: skip


def after(final_state, dice, **overrides):
    return CAMPAIGN.after_battle(roster=roster(), side_index=0, final=final_state, settings=settings(**overrides),
                                 dice=dicelib.dice_source(dice=dice))  # fmt: skip


def test_injuries_and_a_failed_repair_are_carried_into_the_options():
    # Kate was seriously wounded and ended at 0 AP: TN tests 15 and 20 (a natural 20: WL −1) fail: d6 4,
    # 2d6 3+5; then Bob (IT 14, the best) repairs her Carapace: 20 fails: 2d6 6+1 days.
    state = final({"hp": 2, "ap": 0, "flags": {"half_hp": True, "seriously_wounded": True}})
    out = after(state, [15, 4, 20, 3, 5, 20, 6, 1])
    kate = out["entries"]["kate"]["campaign"]
    assert kate == {"scenarios": 1, "injury_days": 8, "stat_losses": {"WL": 1}, "armour_broken": False,
                    "armour_unusable_days": 7}  # fmt: skip
    assert out["entries"]["bob"]["campaign"] == {"scenarios": 1}
    assert [d["value"] for d in out["dice"]] == [15, 4, 20, 3, 5, 20, 6, 1]
    assert out["record"]["repairs"][0]["repairer"] == "bob"
    assert any("Kate" in line and "days" in line for line in out["record"]["lines"])
    report = ARMY.cost_roster({"entries": [{**roster()["entries"][0], "options": out["entries"]["kate"]}]})
    assert {"injured", "armour_broken"} <= {i.code for i in report.issues}


def test_a_dead_agent_takes_no_test_and_is_marked():
    out = after(final({"hp": -20, "statuses": {"dead": {}}, "flags": {"dying": True}}), [])
    assert out["entries"]["kate"]["campaign"]["dead"] is True
    assert out["dice"] == []


@pytest.mark.parametrize(("restored", "carried"), [(True, None), (False, 3)])
def test_armour_restored_after_scenario(restored, carried):
    out = after(final({"ap": 3}), [], armour_restored_after_scenario=restored)
    assert out["entries"]["kate"]["campaign"].get("armour_ap") == carried


def test_unhurt_agents_roll_nothing():
    out = after(final({}), [])
    assert out["record"]["agents"][0]["injuries"] == []
    assert out["dice"] == []


def out_of(campaign: dict) -> dict:
    """The roster with Kate carrying `campaign` into a scenario she could not play (so she has no unit)."""
    r = roster()
    r["entries"][0]["options"]["campaign"] = campaign
    return r


@pytest.mark.parametrize(("days_between", "left"), [(7, 1), (3, 5), (8, None)])
def test_days_between_scenarios_count_injury_and_armour_downtime_down(days_between, left):
    # Spec §3.18 (L240, L248): an injured agent cannot take part until its days have passed; the book keeps no
    # calendar (§1 "implied campaign calendar"), so each scenario carried takes "days_between_scenarios" off.
    state = final({})
    del state["units"]["kate"]
    out = CAMPAIGN.after_battle(roster=out_of({"scenarios": 1, "injury_days": 8, "armour_unusable_days": 8}),
                                side_index=0, final=state, settings=settings(days_between_scenarios=days_between),
                                dice=dicelib.dice_source(dice=[]))  # fmt: skip
    kate = out["entries"]["kate"]["campaign"]
    assert kate.get("injury_days") == left
    assert kate.get("armour_unusable_days") == left
    assert kate["scenarios"] == 2
    line = out["record"]["lines"][0]
    assert line == (f"Kate sat out the scenario, injured: {left} more days." if left else
                    "Kate has healed and may take part again.")  # fmt: skip
    report = ARMY.cost_roster({"entries": [{**roster()["entries"][0], "options": out["entries"]["kate"]}]})
    assert ("injured" in {i.code for i in report.issues}) is bool(left)


def test_a_healed_agent_is_back_in_the_next_scenario():
    from rules.systems.enforcers.battle.units import unit_state

    entry = out_of({"scenarios": 1, "injury_days": 4})["entries"][0]
    assert unit_state(entry, 1) is None
    state = final({})
    del state["units"]["kate"]
    out = CAMPAIGN.after_battle(roster=out_of({"scenarios": 1, "injury_days": 4}), side_index=0, final=state,
                                settings=settings(), dice=dicelib.dice_source(dice=[]))  # fmt: skip
    assert unit_state({**entry, "options": out["entries"]["kate"]}, 1)["name"] == "Kate"


def test_the_record_keeps_its_lines_as_data_for_the_readers_language():
    state = final({"hp": 2, "ap": 0, "flags": {"half_hp": True, "seriously_wounded": True}})
    out = after(state, [15, 4, 20, 3, 5, 20, 6, 1])
    texts, lines = out["record"]["texts"], out["record"]["lines"]
    assert len(texts) == len(lines)
    assert texts[0] == {"msgid": "{name}: TN test against a {tier}: failed, out for {days} days.",
                        "params": {"name": "Kate", "tier": {"msgid": "light injury"}, "days": 4}}  # fmt: skip
    assert lines[0] == "Kate: TN test against a light injury: failed, out for 4 days."
    assert "Bob repairs" in lines[-1]
    assert "unusable for 7 days" in lines[-1]
