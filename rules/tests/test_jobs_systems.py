"""Balance jobs know no game: the system comes from the rosters or the pack, a system without a simulator (or
without the kind of job) is refused with 400, the forms are drawn from the part's params_schema and the system's
options, and a job of any system runs, is summed up and is shown through its simulator part."""

from __future__ import annotations

import numpy as np
import pytest
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from rules import registry
from rules.contract import GameSystem, Setting
from rules.contract.simulator import Prepared, SimulatorPart
from rules.jobs import reading, services, sources
from rules.jobs.forms import RosterJobForm
from rules.models import BalanceJob, JobChunk
from rules.tests.jobs_support import ARMY_A, ARMY_B, make_roster, make_user, official_pack, purge_queue

pytestmark = pytest.mark.django_db


class CoinSimulator(SimulatorPart):
    """A test-only simulator: coin flips, rosters only, no rounds limit of its own (Prepared.rounds = 0)."""

    model_version = 3
    params_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "range": {
                "type": "integer",
                "minimum": 1,
                "maximum": 9,
                "default": 3,
                "title": "Firing range",
                "description": "Inches between the sides.",
            },
            "weather": {
                "enum": ["sun", "rain"],
                "default": "sun",
                "title": "Weather",
                "x-labels": {"sun": "Clear sky", "rain": "Pouring rain"},
            },
            "night": {"type": "boolean", "default": False, "title": "Night fight"},
        },
    }
    simulated = ("Coin flips decide every battle",)
    left_out = ("Everything the coins do not say",)
    job_kinds = ("rosters",)
    ignored_settings = {"ignored_option": "The coins do not care."}
    fixed_settings = {"fixed_option": "heads"}

    def prepare(self, side_a, side_b, params, settings):
        return Prepared(
            cost=(10.0, 20.0),
            warnings=["Coins only"],
            forces=[{"side": "A", "text": "ten copper coins"}, {"side": "B", "text": "twenty silver coins"}],
            model=dict(params),
        )

    def run(self, prepared, n, rng):
        return {
            "winner": rng.integers(-1, 2, size=n),
            "rounds": rng.integers(1, 5, size=n),
            "left_a": rng.random(n) * 10,
            "left_b": rng.random(n) * 20,
        }


class CoinSystem(GameSystem):
    slug = "coin-test"
    name = "Coin test"
    dice = "coin"
    settings = (
        Setting("fast_play", "Fast play", False, category="option", help="Flip faster."),
        Setting("ignored_option", "Ignored option", False, category="option"),
        Setting("fixed_option", "Fixed option", "heads", kind="choice", choices=("heads", "tails"), category="option"),
        Setting("reading", "A reading", "x", kind="choice", choices=("x", "y")),
    )
    simulator = CoinSimulator()


class NoSimulatorSystem(GameSystem):
    slug = "nosim-test"
    name = "Paper only"
    dice = "d6"


@pytest.fixture(autouse=True)
def test_systems():
    coin, paper = registry.register(CoinSystem()), registry.register(NoSimulatorSystem())
    yield coin, paper
    registry.unregister(coin.slug)
    registry.unregister(paper.slug)
    purge_queue()


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def pack(db):
    return official_pack()


@pytest.fixture
def rosters(alice, pack):
    return (
        make_roster(alice, pack, "Blue", "protectorate", ARMY_A),
        make_roster(alice, pack, "Red", "polaris", ARMY_B),
    )


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def set_system(obj, slug: str) -> None:
    type(obj).objects.filter(pk=obj.pk).update(system=slug)


def test_the_roster_source_is_named_by_settings_and_follows_the_protocol():
    assert isinstance(sources.source(), sources.RosterSource)
    with override_settings(BALANCE_SOURCE=""), pytest.raises(Exception, match="BALANCE_SOURCE"):
        sources.source()


def test_a_job_for_a_system_without_a_simulator_is_refused_with_400(api, client, alice, rosters, pack):
    for roster in rosters:
        set_system(roster, "nosim-test")
    response = api.post(
        "/api/v1/jobs/rosters/", {"roster_a": rosters[0].pk, "roster_b": rosters[1].pk, "battles": 10}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "«Paper only» has no simulator" in response.json()["errors"]["system"]

    set_system(pack, "nosim-test")
    response = api.post("/api/v1/jobs/duels/", {"pack": pack.pk, "battles": 10}, format="json")
    assert response.status_code == 400
    assert "has no simulator" in response.json()["errors"]["pack"]

    set_system(pack, "coin-test")  # a simulator, but one that runs roster jobs only
    response = api.post("/api/v1/jobs/duels/", {"pack": pack.pk, "battles": 10}, format="json")
    assert response.status_code == 400
    assert "does not run unit against unit" in response.json()["errors"]["pack"]

    client.force_login(alice)
    assert client.get(reverse("jobs:jobs") + "?system=nosim-test").status_code == 404
    assert not BalanceJob.objects.exists()
    assert not JobChunk.objects.exists()


def test_rosters_of_two_systems_are_refused(api, rosters):
    set_system(rosters[1], "coin-test")
    response = api.post(
        "/api/v1/jobs/rosters/", {"roster_a": rosters[0].pk, "roster_b": rosters[1].pk, "battles": 10}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert "«Coin test»" in errors["roster_b"]
    assert "both sides must be of one system" in errors["roster_a"]
    body = {"roster_a": rosters[0].pk, "roster_b": rosters[1].pk, "battles": 10}
    response = api.post("/api/v1/jobs/rosters/", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "обе стороны должны быть одной системы" in response.json()["errors"]["roster_a"]  # the asker's language
    assert "«Coin test»" in response.json()["errors"]["roster_a"]
    assert not BalanceJob.objects.exists()


def test_the_form_draws_its_fields_from_params_schema(client, alice, test_systems):
    coin, _paper = test_systems
    form = RosterJobForm(system=coin, rosters=[])
    assert form.param_keys == ["range", "weather", "night"]
    assert form.fields["range"].label == "Firing range"
    assert form.fields["range"].min_value == 1
    assert form.fields["range"].max_value == 9
    assert form.fields["range"].initial == 3
    assert form.fields["range"].help_text == "Inches between the sides."
    assert list(form.fields["weather"].choices) == [("sun", "Clear sky"), ("rain", "Pouring rain")]
    assert form.fields["night"].label == "Night fight"
    # the book's options: neither the ignored nor the fixed one, nor a non-option setting
    assert [f.name for f in form.option_fields()] == ["opt_fast_play"]

    client.force_login(alice)
    html = client.get(reverse("jobs:jobs") + "?system=coin-test").content.decode()
    assert html.count('name="r-range"') == 1
    assert 'max="9"' in html
    assert "Firing range" in html
    assert "Pouring rain" in html
    assert 'name="r-night"' in html
    assert 'name="r-opt_fast_play"' in html
    assert "r-opt_ignored_option" not in html
    assert "r-opt_fixed_option" not in html
    assert 'name="r-distance"' not in html  # another system's parameter
    assert 'id="new-duels"' not in html  # this simulator runs roster jobs only
    assert "Coin flips decide every battle" in html
    assert 'href="?system=bronepekhota"' in html  # the picker offers the other systems

    html = client.get(reverse("jobs:jobs")).content.decode()  # the first system with a simulator
    assert 'name="r-distance"' in html
    assert "More than half visible (+1)" in html
    assert 'name="d-distance"' in html
    assert "r-opt_mode" not in html  # fixed by the simulator: virtual shooting only
    assert "r-opt_special_properties" in html  # blasts are simulated: the job may turn them on
    assert "r-opt_dispute_die" not in html  # ignored by the simulator (no disputes in a simulation)
    assert 'href="?system=coin-test"' in html


@override_settings(BALANCE_CHUNK_BATTLES=100)
def test_a_job_of_another_system_runs_through_its_part(client, alice, rosters):
    for roster in rosters:
        set_system(roster, "coin-test")
    client.force_login(alice)
    form = {
        "system": "coin-test",
        "r-roster_a": rosters[0].pk,
        "r-roster_b": rosters[1].pk,
        "r-battles": 250,
        "r-range": 5,
        "r-weather": "rain",
        "r-night": "on",
        "r-opt_fast_play": "on",
        "r-seed": 12,
    }
    response = client.post(reverse("jobs:submit-rosters"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    job = BalanceJob.objects.get()
    assert job.system == "coin-test"
    assert job.params == {"range": 5, "weather": "rain", "night": True}
    assert job.settings["fast_play"] is True
    assert job.settings["reading"] == "x"
    assert job.model_version == 3
    assert job.warnings == ["Coins only"]
    assert (job.inputs["side_a"]["cost"], job.inputs["side_b"]["cost"]) == (10.0, 20.0)
    for i in range(job.chunk_count):
        services.balance_chunk_run(job_id=job.pk, index=i)
    job.refresh_from_db()
    assert job.status == "done", job.error
    r = job.result
    assert r["battles"] == 250
    assert r["win_a"]["count"] + r["win_b"]["count"] + r["draw"]["count"] == 250
    assert sum(r["rounds_hist"]) == 250
    assert len(r["rounds_hist"]) == 4  # no limit given: as long as the longest battle
    assert sum(r["surviving"]["b"]["hist"]) == 250
    said = reading.verdict_text(r["verdict"])
    assert "Armlist" in said  # no balance advice in this system's settings: Armlist's thresholds
    assert "the book" not in said

    # the arrays of the part, summed up generically, give the same counts
    rng = np.random.default_rng(np.random.SeedSequence(12, spawn_key=(0,)))
    arrays = CoinSimulator().run(None, 100, rng)
    first = services.summarise(arrays, rounds=0, cost=(10.0, 20.0))
    assert job.chunks.get(index=0).result == first
    assert first["wins_a"] == int((arrays["winner"] == 0).sum())
    assert first["draws"] == int((arrays["winner"] == -1).sum())

    html = client.get(reverse("jobs:job", args=[job.pk])).content.decode()
    assert "Coin test" in html
    assert "Firing range" in html
    assert "Pouring rain" in html
    assert "ten copper coins" in html
    assert "Coin flips decide every battle" in html
    assert "Everything the coins do not say" in html
    assert "Fast play" in html  # a setting changed from its default


def test_every_system_with_a_simulator_gets_its_form(client, alice):
    """The page draws a form for each registered system with a simulator, one field per parameter."""
    client.force_login(alice)
    systems = services.simulated_systems()
    assert {"bronepekhota", "coin-test"} <= {s.slug for s in systems}
    assert "nosim-test" not in {s.slug for s in systems}
    for system in systems:
        response = client.get(reverse("jobs:jobs"), {"system": system.slug})
        assert response.status_code == 200, system.slug
        html = response.content.decode()
        prefix = "r" if "rosters" in system.simulator.job_kinds else "d"
        for key in system.simulator.params_schema.get("properties") or {}:
            assert html.count(f'name="{prefix}-{key}"') == 1, (system.slug, key)
        assert f'<input type="hidden" name="system" value="{system.slug}">' in html
