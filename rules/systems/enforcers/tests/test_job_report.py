"""The balance job page of «Энфорсеры» duels shows each build's formula price against the REQ it is worth in the
duels (SimulatorPart.report): roster against roster through the real job machinery, unit against unit from the
stored result."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from armies import services as armies_services
from rules.jobs import services
from rules.models import BalanceJob
from rules.systems.enforcers.simulate import SIMULATOR, req_value

PACK = Path(__file__).resolve().parents[1] / "data/enforcers-core.json"
STATS = dict.fromkeys(("HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD"), 10)
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "capacity": 6,
       "range_bands_cm": {"short": 10, "medium": 25, "long": 50}}  # fmt: skip


def purge_queue() -> None:
    """Drops the chunk messages this test published (it ran the chunks itself; no worker should see them)."""
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")


@pytest.fixture
def crews(db):
    alice = get_user_model().objects.create_user(username="alice", password=None)
    ((pack, _created),) = armies_services.load_packs(paths=[PACK])
    out = []
    for name, bump, armour in (("Veteran", 1, "military-carapace"), ("Rookie", 0, None)):
        roster = armies_services.roster_create(owner=alice, pack=pack, name=name, faction="enforcers")
        options = {"name": name, "stats": STATS, "stat_bump": bump, "own_gear": True, "armour": armour,
                   "weapons": [GUN]}  # fmt: skip
        armies_services.entry_add(roster=roster, profile="apprentice", options=options)
        out.append(roster)
    yield alice, out
    purge_queue()


def test_the_job_page_shows_each_build_against_its_formula_price(client, crews):
    alice, (veteran, rookie) = crews
    job = services.balance_job_submit_rosters(user=alice, roster_a_id=veteran.pk, roster_b_id=rookie.pk,
                                              battles=2000, seed=7)  # fmt: skip
    for i in range(job.chunk_count):
        services.balance_chunk_run(job_id=job.pk, index=i)
    job.refresh_from_db()
    assert job.status == BalanceJob.Status.DONE, job.error
    r = job.result
    (table,) = SIMULATOR.report({"kind": "rosters", "inputs": job.inputs, "result": r, "params": job.params,
                                 "settings": job.settings})  # fmt: skip
    vet, rook = table["rows"]
    assert vet[1] == r["cost_a"] > rook[1] == r["cost_b"]  # the bump and the carapace cost REQ
    assert vet[4] == round(req_value(r["cost_b"], r["win_a"]["p"], r["win_b"]["p"]), 1)
    assert vet[5] == round(vet[4] - vet[1], 1)
    client.force_login(alice)
    html = client.get(reverse("jobs:job", args=[job.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="system-report"' in html
    assert "Price by the formula, REQ" in html
    assert f"<td>{vet[4]}</td>" in html


def test_unit_against_unit_shares_the_strengths_out_as_req():
    apprentice = {"slug": "apprentice", "name": "Apprentice", "faction": "enforcers", "kind": "archetype", "cost": 20,
                  "data": {"gear_req": 0, "stats": STATS, "gear": [{"kind": "weapon", **GUN}]}}  # fmt: skip
    armoured = {**apprentice, "slug": "armoured", "name": "Armoured",
                "data": {**apprentice["data"], "gear": [*apprentice["data"]["gear"], {"armour": "kevlar-vest"}]}}  # fmt: skip
    result = {"units": [{"slug": "apprentice", "name": "Apprentice", "strength": 0.5, "mean_score": 0.3},
                        {"slug": "armoured", "name": "Armoured", "strength": 2.0, "mean_score": 0.7}]}  # fmt: skip
    job = {"kind": "units", "inputs": {"profiles": [apprentice, armoured]}, "result": result, "params": {},
           "settings": {}}  # fmt: skip
    (table,) = SIMULATOR.report(job)
    (a_price, a_worth), (b_price, b_worth) = [(row[1], row[3]) for row in table["rows"]]
    assert a_worth + b_worth == pytest.approx(a_price + b_price)
    assert b_worth == pytest.approx(4 * a_worth)
    assert SIMULATOR.report({"kind": "units", "result": {}}) == []
