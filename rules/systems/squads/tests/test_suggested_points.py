"""Points the book never gave (issue #16): the suggested pack (data/squads-suggested.json) is priced by the duel
job it records; the job re-run from the builder's link gives its numbers again; the builder shows the points with
their interval and the link; a changed build loses them; the command regenerates the pack."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from armies import services as armies_services
from armies.models import DataPack
from battles.tests.conftest import PASSWORD, make_user
from rules.jobs import pricing, services
from rules.models import BalanceJob
from rules.systems.squads.army import ARMY
from rules.systems.squads.data.build_squads_suggested import build


def purge_queue() -> None:
    """Drops the chunk messages this test published and ran itself (no worker should find them later)."""
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")


DATA = Path(__file__).resolve().parents[1] / "data"
PACK = json.loads((DATA / "squads-suggested.json").read_text(encoding="utf-8"))


def test_the_shipped_pack_prices_every_build_with_an_interval_and_its_job():
    recipe = PACK["provenance"]["job"]
    assert len(PACK["profiles"]) == len(build()["profiles"]) == 12
    for p in PACK["profiles"]:
        s = p["data"]["suggested"]
        assert p["cost"] == s["points"] >= 1
        assert s["low"] - 0.5 <= s["points"] <= s["high"] + 0.5
        assert s["low"] < s["high"]
        assert {k: s["job"][k] for k in ("battles", "seed", "params")} == {
            k: recipe[k] for k in ("battles", "seed", "params")
        }
    costs = {p["slug"]: p["cost"] for p in PACK["profiles"]}
    # better training and more firepower are worth more (the simulation agrees with the book's tables)
    assert costs["recruit-rifles"] < costs["regular-rifles"] < costs["veteran-rifles"] < costs["elite-rifles"]
    assert costs["regular-rifles"] < costs["regular-lmg"]


def test_pricing_is_a_pure_function_of_the_recipe():
    small = {**build(), "profiles": build()["profiles"][:4]}
    one = pricing.suggest_points(small, battles=40, seed=7, rounds=20)
    two = pricing.suggest_points(one, battles=40, seed=7, rounds=20)  # the old costs change no duel
    assert [p["data"]["suggested"] for p in one["profiles"]] == [p["data"]["suggested"] for p in two["profiles"]]
    other = pricing.suggest_points(small, battles=40, seed=8, rounds=20)
    assert [p["cost"] for p in other["profiles"]] != [p["cost"] for p in one["profiles"]] or [
        p["data"]["suggested"]["strength"] for p in other["profiles"]
    ] != [p["data"]["suggested"]["strength"] for p in one["profiles"]]


def test_the_command_writes_the_pack_and_refuses_a_bad_file(tmp_path):
    source = tmp_path / "builds.json"
    source.write_text(json.dumps({**build(), "profiles": build()["profiles"][:3]}), encoding="utf-8")
    out = tmp_path / "priced.json"
    call_command(
        "suggest_points", str(source), "--out", str(out), "--battles", "30", "--seed", "3", "--bootstrap", "10"
    )
    priced = json.loads(out.read_text(encoding="utf-8"))
    assert all(p["cost"] == p["data"]["suggested"]["points"] for p in priced["profiles"])
    assert priced["provenance"]["job"]["seed"] == 3
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("suggest_points", str(tmp_path / "bad.json"))
    with pytest.raises(CommandError):
        call_command("suggest_points", str(source), "--params", '{"distance": -5}', "--battles", "5")


@pytest.fixture
def suggested_pack(db):
    armies_services.load_packs()
    return DataPack.objects.get(system="squads", slug="squads-suggested")


@pytest.fixture
def alice(db):
    return make_user("alice")


def _client(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _roster(owner, pack, *slugs):
    roster = armies_services.roster_create(owner=owner, pack=pack, name="Взвод", faction="any")
    for slug in slugs:
        armies_services.entry_add(roster=roster, profile=slug)
    roster.refresh_from_db()
    return roster


def _job_link(html: str) -> str:
    start = html.index('href="/jobs/replay/duels/?') + len('href="')
    return html[start : html.index('"', start)].replace("&amp;", "&")


@pytest.mark.django_db(transaction=True)
def test_the_job_behind_the_link_gives_the_pack_numbers_again(alice, suggested_pack):
    roster = _roster(alice, suggested_pack, "regular-rifles", "veteran-lmg")
    client = _client(alice)
    page = client.get(f"/rosters/{roster.pk}/").content.decode()
    link = _job_link(page)
    query = parse_qs(urlparse(link).query)
    assert query["pack"] == [str(suggested_pack.pk)]
    assert query["seed"] == [str(PACK["provenance"]["job"]["seed"])]
    form = client.get(link)  # no such job of hers yet: the duel form, filled in with the recipe
    assert form.status_code == 200
    body = form.content.decode()
    assert f'name="d-seed" value="{query["seed"][0]}"' in body
    assert f'name="d-battles" value="{query["battles"][0]}"' in body
    recipe = PACK["provenance"]["job"]
    try:
        job = services.balance_job_submit_duels(user=alice, pack_id=suggested_pack.pk, battles=recipe["battles"],
                                                params=recipe["params"], settings=recipe["settings"], seed=recipe["seed"])  # fmt: skip
        for i in range(job.chunk_count):
            services.balance_chunk_run(job_id=job.pk, index=i)
    finally:
        purge_queue()
    job.refresh_from_db()
    assert job.status == BalanceJob.Status.DONE
    units = {u["slug"]: u for u in job.result["units"]}
    for p in PACK["profiles"]:
        assert units[p["slug"]]["strength"] == pytest.approx(p["data"]["suggested"]["strength"], rel=1e-5)
        assert units[p["slug"]]["fitted_cost"] == pytest.approx(p["cost"], abs=1.0)
    opened = client.get(link)  # now the link opens her job
    assert opened.status_code == 302
    assert opened["Location"] == f"/jobs/{job.pk}/"


def test_the_builder_shows_the_points_their_interval_and_a_changed_build_loses_them(alice, suggested_pack):
    roster = _roster(alice, suggested_pack, "regular-rifles")
    s = next(p for p in PACK["profiles"] if p["slug"] == "regular-rifles")["data"]["suggested"]
    client = _client(alice)
    page = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert f"Suggested points (simulated): {s['points']}" in page
    assert "95 % interval" in page
    state = client.get(f"/api/v1/rosters/{roster.pk}/").json()
    assert state["total"] == s["points"]
    entry = roster.entries.get()
    armies_services.entry_update(entry=entry, options={**entry.options, "armour": "heavy"})
    state = client.get(f"/api/v1/rosters/{roster.pk}/").json()
    assert state["total"] == 0
    assert "changed_build" in [i["code"] for e in state["entries"] for i in e["issues"]]
    assert "/jobs/replay/duels/" not in client.get(f"/rosters/{roster.pk}/").content.decode()


@pytest.mark.russian_default
def test_a_russian_reader_sees_the_book_free_points_in_russian(alice, suggested_pack):
    roster = _roster(alice, suggested_pack, "elite-rifles")
    page = _client(alice).get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Предлагаемые очки (по моделированию)" in page


def test_broken_or_foreign_links_are_refused(alice, suggested_pack):
    client = _client(alice)
    assert client.get("/jobs/replay/duels/?pack=x&battles=1&seed=1").status_code == 400
    assert client.get(f"/jobs/replay/duels/?pack={suggested_pack.pk}&battles=5&seed=1&params=[1]").status_code == 400
    bad = f"/jobs/replay/duels/?pack={suggested_pack.pk}&battles=5&seed=1&params=" + '{"distance":-3}'
    assert client.get(bad).status_code == 400
    assert client.get("/jobs/replay/duels/?pack=999999&battles=5&seed=1").status_code == 404
    assert Client().get(f"/jobs/replay/duels/?pack={suggested_pack.pk}&battles=5&seed=1").status_code == 302


def test_every_suggested_profile_is_a_legal_squad_whose_default_build_is_priced():
    for p in PACK["profiles"]:
        entry = {"key": "e", "profile": p, "count": 2, "options": ARMY.default_options(p)}
        report = ARMY.cost_roster({"entries": [entry]})
        assert not report.has_errors
        assert report.total == 2 * p["cost"]
