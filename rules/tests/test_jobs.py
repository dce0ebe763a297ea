"""Balance jobs without a worker: submission (202, 400 naming the field, 404, 503 with nothing created), chunks
run in-process (idempotent, the last one aggregates), cancellation, progress, downloads and pages."""

from __future__ import annotations

import csv
import io
import socket
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from rules.jobs import selectors, services
from rules.models import BalanceJob, JobChunk
from rules.tests.jobs_support import ARMY_A, ARMY_B, DUEL_UNITS, make_roster, make_user, official_pack, purge_queue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clean_queue():
    yield
    purge_queue()


@pytest.fixture
def pack(db):
    return official_pack()


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


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


def roster_body(rosters, **extra):
    body = {"roster_a": rosters[0].pk, "roster_b": rosters[1].pk, "battles": 300, "params": {"rounds": 6}}
    body.update(extra)
    return body


def run_all_chunks(job: BalanceJob) -> list[str]:
    return [services.balance_chunk_run(job_id=job.pk, index=i) for i in range(job.chunk_count)]


# Submission ---------------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)  # published on commit
@override_settings(BALANCE_CHUNK_BATTLES=100)
def test_submit_answers_202_and_creates_the_job_and_its_chunks(api, rosters):
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters, seed=5), format="json")
    assert response.status_code == 202, response.content
    data = response.json()
    job = BalanceJob.objects.get(pk=data["id"])
    assert response["Location"] == f"/api/v1/jobs/{job.pk}/status/"
    assert data["status"] == "queued"
    assert data["progress"] == 0
    assert data["eta_seconds"] is None
    assert job.seed == 5
    assert job.chunk_count == 3
    assert job.total_battles == 300
    assert list(job.chunks.values_list("index", "battles")) == [(0, 100), (1, 100), (2, 100)]
    assert job.inputs["side_a"]["cost"] == 240
    assert job.inputs["side_b"]["cost"] == 220
    from config.celery import app

    with app.connection_for_write() as conn:  # the group is on the queue, one message per chunk
        assert conn.default_channel.client.llen("celery") == 3


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"battles": 0}, "battles"),
        ({"battles": 1001}, "battles"),
        ({"params": {"distance": 0}}, "params.distance"),
        ({"params": {"cover_b": "hidden"}}, "params.cover_b"),
        ({"params": {"speed": 3}}, "params.speed"),
        ({"settings": {"mode": "real"}}, "settings.mode"),
        ({"settings": {"panic": "often"}}, "settings.panic"),
        ({"seed": -1}, "seed"),
    ],
)
@override_settings(BALANCE_MAX_BATTLES=1000)
def test_nonsense_parameters_get_400_naming_the_field_and_create_nothing(api, rosters, change, field):
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters, **change), format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body["errors"]
    assert field in body["detail"]
    assert not BalanceJob.objects.exists()
    assert not JobChunk.objects.exists()


def test_empty_roster_and_other_system_rosters_are_400(api, rosters, alice, pack):
    empty = make_roster(alice, pack, "Nothing yet", "polaris", [])
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters, roster_b=empty.pk), format="json")
    assert response.status_code == 400
    assert "no units" in response.json()["errors"]["roster_b"]
    type(rosters[0]).objects.filter(pk=rosters[0].pk).update(system="5150")
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters), format="json")
    assert response.status_code == 400
    assert "5150" in response.json()["errors"]["roster_a"]
    assert not BalanceJob.objects.exists()


def test_a_roster_you_cannot_see_is_404(api, rosters, bob, pack):
    hidden = make_roster(bob, pack, "Bob's private army", "polaris", ARMY_B)
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters, roster_b=hidden.pk), format="json")
    assert response.status_code == 404
    assert not BalanceJob.objects.exists()


def test_anonymous_users_cannot_submit(rosters):
    response = APIClient().post("/api/v1/jobs/rosters/", roster_body(rosters), format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert not BalanceJob.objects.exists()


@pytest.fixture
def dead_broker():
    """Points the Celery app at a port where nothing listens, as if Redis were down."""
    from config.celery import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    old = app.conf.broker_url, app.conf.broker_write_url
    app.conf.broker_url = app.conf.broker_write_url = f"redis://127.0.0.1:{port}/0"
    yield
    app.conf.broker_url, app.conf.broker_write_url = old


@pytest.mark.django_db(transaction=True)  # published on commit
def test_broker_down_answers_503_and_nothing_is_half_created(api, rosters, dead_broker):
    response = api.post("/api/v1/jobs/rosters/", roster_body(rosters), format="json")
    assert response.status_code == 503
    assert "no job was created" in response.json()["detail"]
    assert not BalanceJob.objects.exists()
    assert not JobChunk.objects.exists()


@pytest.mark.django_db(transaction=True)  # published on commit
def test_broker_down_on_the_page_shows_the_message_and_keeps_the_form(client, alice, rosters, dead_broker):
    client.force_login(alice)
    form = {
        "r-roster_a": rosters[0].pk,
        "r-roster_b": rosters[1].pk,
        "r-battles": 100,
        "r-distance": 14,
        "r-cover_a": "none",
        "r-cover_b": "none",
        "r-rounds": 8,
        "r-initiative": "rolled",
        "r-approach": "advance",
    }
    response = client.post(reverse("jobs:submit-rosters"), form)
    assert response.status_code == 503
    assert "job queue is not reachable" in response.content.decode()
    assert not BalanceJob.objects.exists()


def test_duels_validate_their_units(api, pack):
    response = api.post("/api/v1/jobs/duels/", {"pack": pack.pk, "battles": 10, "profiles": ["trex"]}, format="json")
    assert response.status_code == 400
    assert "two units" in response.json()["errors"]["profiles"]
    response = api.post(
        "/api/v1/jobs/duels/", {"pack": pack.pk, "battles": 10, "profiles": ["trex", "nope"]}, format="json"
    )
    assert response.status_code == 400
    assert "nope" in response.json()["errors"]["profiles"]
    with override_settings(BALANCE_MAX_BATTLES=50):
        response = api.post("/api/v1/jobs/duels/", {"pack": pack.pk, "battles": 10, "profiles": DUEL_UNITS}, "json")
    assert response.status_code == 400
    assert "6 pairs" in response.json()["errors"]["battles"]
    response = api.post("/api/v1/jobs/duels/", {"pack": 999999, "battles": 10}, format="json")
    assert response.status_code == 404
    assert not BalanceJob.objects.exists()


# Chunks ------------------------------------------------------------------------------------------------------
@override_settings(BALANCE_CHUNK_BATTLES=100)
def test_chunks_are_idempotent_and_the_last_one_aggregates(alice, rosters):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=250, params={"rounds": 5}, seed=9
    )
    assert [c.battles for c in job.chunks.order_by("index")] == [100, 100, 50]
    assert run_all_chunks(job) == ["done", "done", "finished"]
    job.refresh_from_db()
    assert job.status == "done"
    assert job.battles_done == 250
    assert job.chunks_done == 3
    # a redelivered chunk changes nothing
    assert services.balance_chunk_run(job_id=job.pk, index=1) == "skipped"
    again = services.compute_chunk(job, job.chunks.get(index=1))
    assert services._record(job.pk, 1, again) == "duplicate"
    job.refresh_from_db()
    assert job.battles_done == 250
    assert job.chunks_done == 3
    r = job.result
    assert r["battles"] == 250
    assert r["win_a"]["count"] + r["win_b"]["count"] + r["draw"]["count"] == 250
    assert sum(r["rounds_hist"]) == 250
    assert len(r["rounds_hist"]) == 5
    assert sum(r["surviving"]["a"]["hist"]) == 250
    assert r["win_a"]["low"] <= r["win_a"]["p"] <= r["win_a"]["high"]
    assert r["verdict"]["level"] in ("balanced", "acceptable", "unbalanced")
    assert r["verdict"]["points_gap"] == pytest.approx(20 / 240)


@override_settings(BALANCE_CHUNK_BATTLES=100)
def test_same_seed_same_result_whatever_order_the_chunks_finish(alice, rosters):
    first = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=300, seed=77
    )
    second = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=300, seed=77
    )
    other = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=300, seed=78
    )
    run_all_chunks(first)
    for i in (2, 0, 1):
        services.balance_chunk_run(job_id=second.pk, index=i)
    run_all_chunks(other)
    for job in (first, second, other):
        job.refresh_from_db()
    assert first.result == second.result
    assert first.result != other.result


def test_duel_results_do_not_depend_on_the_chunk_size(alice, pack):
    jobs = []
    for size in (10_000, 150):
        with override_settings(BALANCE_CHUNK_BATTLES=size):
            job = services.balance_job_submit_duels(
                user=alice, pack_id=pack.pk, profiles=DUEL_UNITS, battles=150, params={"rounds": 6}, seed=3
            )
        run_all_chunks(job)
        job.refresh_from_db()
        jobs.append(job)
    assert jobs[0].chunk_count == 1
    assert jobs[1].chunk_count == 6
    assert jobs[0].result == jobs[1].result
    r = jobs[0].result
    from armies.selectors import pack_profiles

    assert [u["slug"] for u in r["units"]] == [p.slug for p in pack_profiles(pack) if p.slug in DUEL_UNITS]
    assert len(r["matrix"]) == 4
    assert all(r["matrix"][i][i] == 0.5 for i in range(4))
    for i in range(4):
        for j in range(4):
            if i != j:
                assert r["matrix"][i][j] + r["matrix"][j][i] == pytest.approx(1.0)
    assert sum(u["fitted_cost"] for u in r["units"]) == pytest.approx(sum(u["cost"] for u in r["units"]))
    assert r["games"] == 6 * 150


def test_a_failing_chunk_fails_the_job_with_a_message(alice, rosters):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=50
    )
    BalanceJob.objects.filter(pk=job.pk).update(params={**job.params, "distance": 0})  # corrupted behind our back
    assert services.balance_chunk_run(job_id=job.pk, index=0) == "failed"
    job.refresh_from_db()
    assert job.status == "failed"
    assert "distance" in job.error


def test_a_chunk_whose_job_is_gone_is_missing_at_once():
    started = time.monotonic()
    assert services.balance_chunk_run(job_id=123456, index=0) == "missing"
    assert time.monotonic() - started < 1  # published after the commit: nothing to wait for


@pytest.mark.django_db(transaction=True)
def test_chunks_are_published_only_once_the_job_is_committed(alice, rosters):
    from config.celery import app

    with app.connection_for_write() as conn:
        queue = conn.default_channel.client
        with transaction.atomic():
            job = services.balance_job_submit_rosters(
                user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=200, seed=3
            )
            assert queue.llen("celery") == 0  # not yet: a worker could not see the rows
        assert queue.llen("celery") == job.chunk_count


# Cancel, progress, access ----------------------------------------------------------------------------------------
def test_cancel_then_chunks_skip(api, alice, rosters):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=100
    )
    response = api.post(f"/api/v1/jobs/{job.pk}/cancel/")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert api.post(f"/api/v1/jobs/{job.pk}/cancel/").status_code == 200  # idempotent
    assert services.balance_chunk_run(job_id=job.pk, index=0) == "skipped"
    job.refresh_from_db()
    assert job.status == "cancelled"
    assert job.battles_done == 0
    assert job.result is None


def test_a_finished_job_cannot_be_cancelled(api, alice, rosters):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=20
    )
    run_all_chunks(job)
    response = api.post(f"/api/v1/jobs/{job.pk}/cancel/")
    assert response.status_code == 409
    assert "already done" in response.json()["detail"]


def test_progress_and_time_left():
    now = timezone.now()
    job = BalanceJob(
        status="running",
        total_battles=1000,
        battles_done=250,
        chunks_done=1,
        chunk_count=4,
        started_at=now - timedelta(seconds=10),
    )
    p = selectors.job_progress(job, now=now)
    assert p["progress"] == 0.25
    assert p["eta_seconds"] == pytest.approx(30.0)
    job.battles_done = 0
    assert selectors.job_progress(job, now=now)["eta_seconds"] is None


def test_jobs_belong_to_their_creator(api, alice, bob, rosters):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=20
    )
    other = APIClient()
    other.force_authenticate(bob)
    for url in (f"/api/v1/jobs/{job.pk}/", f"/api/v1/jobs/{job.pk}/status/"):
        assert other.get(url).status_code == 404
        assert api.get(url).status_code == 200
    assert other.post(f"/api/v1/jobs/{job.pk}/cancel/").status_code == 404
    assert other.get("/api/v1/jobs/").json() == []
    assert [j["id"] for j in api.get("/api/v1/jobs/").json()] == [job.pk]
    from django.test import Client

    page = Client()
    page.force_login(bob)
    for name in ("jobs:job", "jobs:result-json", "jobs:result-csv"):
        assert page.get(reverse(name, args=[job.pk])).status_code == 404
    job.refresh_from_db()
    assert job.status == "queued"


# Downloads and pages -----------------------------------------------------------------------------------------
def test_downloads_json_and_csv(client, alice, rosters, pack):
    job = services.balance_job_submit_rosters(
        user=alice, roster_a_id=rosters[0].pk, roster_b_id=rosters[1].pk, battles=60
    )
    client.force_login(alice)
    assert client.get(reverse("jobs:result-csv", args=[job.pk])).status_code == 409  # not done yet
    run_all_chunks(job)
    response = client.get(reverse("jobs:result-json", args=[job.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert response.json()["result"]["battles"] == 60
    rows = list(csv.reader(io.StringIO(client.get(reverse("jobs:result-csv", args=[job.pk])).content.decode())))
    assert rows[0] == ["section", "key", "value", "low", "high"]
    assert ["battles", "count", "60", "", ""] in rows
    assert sum(int(r[2]) for r in rows if r[0] == "rounds") == 60

    duel = services.balance_job_submit_duels(user=alice, pack_id=pack.pk, profiles=DUEL_UNITS[:3], battles=30)
    run_all_chunks(duel)
    units = list(csv.DictReader(io.StringIO(client.get(reverse("jobs:result-csv", args=[duel.pk])).content.decode())))
    assert sorted(u["slug"] for u in units) == sorted(DUEL_UNITS[:3])
    matrix = client.get(reverse("jobs:result-csv", args=[duel.pk]) + "?table=matrix").content.decode()
    assert len(matrix.strip().splitlines()) == 1 + 3 * 2


def test_pages_list_submit_and_show_a_job(client, alice, rosters, pack):
    client.force_login(alice)
    page = client.get(reverse("jobs:jobs"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Roster against roster" in html
    assert "Unit against unit" in html
    assert "Blue" in html
    form = {
        "r-roster_a": rosters[0].pk,
        "r-roster_b": rosters[1].pk,
        "r-battles": 40,
        "r-distance": 12,
        "r-cover_a": "over_half_visible",
        "r-cover_b": "none",
        "r-rounds": 6,
        "r-initiative": "a",
        "r-approach": "hold",
        "r-seed": 4,
        "r-opt_panic": "on",
    }
    response = client.post(reverse("jobs:submit-rosters"), form)
    job = BalanceJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("jobs:job", args=[job.pk])
    assert job.params["approach"] == "hold"
    assert job.params["cover_a"] == "over_half_visible"
    assert job.settings["panic"] is True
    assert job.settings["grenades"] is False
    html = client.get(reverse("jobs:job", args=[job.pk])).content.decode()
    assert "Cancel the job" in html
    assert "The model" in html
    assert "Panic" in html
    run_all_chunks(job)
    html = client.get(reverse("jobs:job", args=[job.pk])).content.decode()
    assert "chart-rounds" in html
    assert "result.json" in html
    assert "Cancel the job" not in html

    bad = dict(form, **{"r-battles": 0})
    response = client.post(reverse("jobs:submit-rosters"), bad)
    assert response.status_code == 400
    assert BalanceJob.objects.count() == 1

    duel_form = {
        "d-pack": pack.pk,
        "d-profiles": "aborigeny, salamander nope",
        "d-battles": 10,
        "d-distance": 14,
        "d-cover_a": "none",
        "d-cover_b": "none",
        "d-rounds": 6,
        "d-initiative": "rolled",
        "d-approach": "advance",
    }
    response = client.post(reverse("jobs:submit-duels"), duel_form)
    assert response.status_code == 400
    assert "nope" in response.content.decode()
    response = client.post(reverse("jobs:submit-duels"), dict(duel_form, **{"d-profiles": "aborigeny salamander"}))
    assert response.status_code == 302


def test_openapi_schema_has_the_job_endpoints(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    for path in ("/api/v1/jobs/rosters/", "/api/v1/jobs/duels/", "/api/v1/jobs/{job_id}/cancel/"):
        assert path in text


def test_the_form_offers_club_rosters_and_takes_side_b_by_a_share_link(client, alice, bob, pack):
    """Issue #25: the side lists held only the user's own rosters. A club's roster is offered with its owner, and
    an opponent's roster that is only shared by link can be side B; a dead link is a clear form error."""
    from armies import services as armies_services
    from armies.models import Roster

    club = armies_services.club_create(user=bob, name="Клуб")
    armies_services.member_add(club=club, username="alice", role="member")
    mine = make_roster(alice, pack, "Blue", "protectorate", ARMY_A)
    clubs = make_roster(bob, pack, "Club red", "polaris", ARMY_B)
    armies_services.roster_update(roster=clubs, user=bob, club=club, visibility=Roster.Visibility.CLUB)
    stranger = make_user("carol")
    theirs = make_roster(stranger, pack, "Linked green", "polaris", ARMY_B)
    link = armies_services.share_link_create(roster=theirs, user=stranger)
    client.force_login(alice)
    html = client.get(reverse("jobs:jobs")).content.decode()
    assert "Club red (bob)" in html
    assert "Linked green" not in html  # not readable by id: only through its link
    form = {"r-roster_a": mine.pk, "r-roster_b": "", "r-battles": 40, "r-rounds": 6, "r-seed": 1}
    dead = client.post(reverse("jobs:submit-rosters"), dict(form, **{"r-roster_b_link": "http://x/s/nope/"}))
    assert dead.status_code == 400
    assert "No roster is shared by this link" in dead.content.decode()
    missing = client.post(reverse("jobs:submit-rosters"), form)
    assert missing.status_code == 400
    assert "paste its share link" in missing.content.decode()
    assert not BalanceJob.objects.exists()
    url = f"http://testserver/s/{link.token}/"
    response = client.post(reverse("jobs:submit-rosters"), dict(form, **{"r-roster_b_link": url}))
    assert response.status_code == 302, response.content.decode()[:2000]
    job = BalanceJob.objects.get()
    assert job.inputs["side_b"]["name"] == "Linked green"
    assert job.roster_b_id == theirs.pk
    response = client.post(reverse("jobs:submit-rosters"), dict(form, **{"r-roster_b": clubs.pk}))
    assert response.status_code == 302
    assert BalanceJob.objects.latest("pk").inputs["side_b"]["name"] == "Club red"
