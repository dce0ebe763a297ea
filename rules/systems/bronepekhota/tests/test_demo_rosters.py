"""`make run`'s demo armies (ArmyPart.demo_rosters): two legal armies of the official pack, one of each side, every
vehicle piloted by a soldier of high enough rank, their costs within the book's 10 % (p.3), named in Russian."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation

from rules.systems.bronepekhota.army import ARMY

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json").read_text("utf-8"))
PROFILES = PACK["profiles"]


def demo():
    with translation.override("ru"):
        return ARMY.demo_rosters(PROFILES)


def test_two_armies_one_of_each_side_named_in_russian():
    rosters = demo()
    assert [r["faction"] for r in rosters] == ["protectorate", "polaris"]
    assert [r["name"] for r in rosters] == ["Демо: ударная группа Протектората", "Демо: штурмовое крыло Поляриса"]
    with translation.override("en"):
        assert ARMY.demo_rosters(PROFILES)[0]["name"] == "Demo: Protectorate strike group"


@pytest.mark.parametrize("index", [0, 1])
def test_each_demo_army_is_legal_and_every_vehicle_has_a_pilot_of_its_rank(index):
    roster = demo()[index]
    report = ARMY.cost_roster(roster)
    assert not report.has_errors, [i.message for i in report.issues]
    assert report.total <= roster["points_limit"]
    keys = [e["key"] for e in roster["entries"]]
    assert len(set(keys)) == len(keys)
    vehicles = [e for e in roster["entries"] if e["profile"]["kind"] == "vehicle"]
    assert vehicles
    for i, e in enumerate(roster["entries"]):
        ARMY.validate_options(e["profile"], e["options"])  # what the builder would accept
        if e["profile"]["kind"] != "vehicle":
            continue
        (pilot,) = e["options"]["pilot"]
        squad = next(s for s in roster["entries"][:i] if s["key"] == pilot["entry"])  # an earlier entry's key
        soldier = next(s for s in squad["profile"]["data"]["soldiers"] if s["num"] == pilot["soldier"])
        assert soldier["rank"] >= e["profile"]["data"]["rank"]


def test_the_two_armies_cost_within_ten_percent_of_each_other():
    totals = [ARMY.cost_roster(r).total for r in demo()]
    assert totals == [275, 260]
    assert (max(totals) - min(totals)) / max(totals) <= 0.10


def test_a_pack_without_the_demo_armlists_gets_the_example_rosters():
    squads = [p for p in PROFILES if p["kind"] == "squad"][:4]
    rosters = ARMY.demo_rosters(squads)
    assert len(rosters) == 2
    assert all(r["entries"] for r in rosters)  # unnamed: setup_demo names them after the system
