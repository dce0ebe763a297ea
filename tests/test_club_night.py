"""Club night on one laptop (issue 11, server half): the server `make run` starts, on the LAN, SQLite set up for
several phones, and busy answers that are 503 + Retry-After rather than 500.

Every server here is gunicorn started the way scripts/run.sh starts it (`python -m config.lan serve` with the
environment of `config.lan.server_env`), on a free port, with its own database, and stopped by the test. Requests
go to 127.0.0.1 only; the LAN address appears only in a Host header.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest

from config import lan
from tests.club_server import (
    ROOT,
    Server,
    base_env,
    django_json,
    listening_addresses,
    manage,
    send,
    serving,
)

WRITES_PER_PHONE = 200


# The server make run starts ------------------------------------------------------------------------------------
def printed_url(env: dict) -> str:
    """The address `make run` prints (the first URL of `python -m config.lan banner`)."""
    result = subprocess.run(
        [sys.executable, "-m", "config.lan", "banner"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=90
    )
    assert result.returncode == 0, result.stderr
    return re.search(r"https?://\S+", result.stdout).group(0)


def test_make_run_server_listens_on_all_interfaces_and_accepts_its_lan_address(migrated_sqlite, tmp_path):
    static = str(tmp_path / "static")
    manage(base_env(migrated_sqlite, STATIC_ROOT=static), "collectstatic", "--noinput", "--verbosity", "0")  # as run.sh
    with serving(migrated_sqlite, tmp_path, local_only=False, STATIC_ROOT=static) as server:
        bound = listening_addresses(server.port)
        assert bound, "nothing listens on the port"
        assert bound <= {"0.0.0.0", "::"}, bound  # every interface, nothing narrower

        url = printed_url(server.env)
        assert url in server.env["ARMLIST_URL"]
        host = urlsplit(url).netloc
        addresses = lan.lan_addresses()
        if addresses:  # a machine on a network prints its LAN address, never loopback
            assert urlsplit(url).hostname == addresses[0]
        # Over loopback, as a phone would ask for it on the Wi-Fi.
        status, _, _ = server.request("GET", "/", host=host, headers={"Accept": "text/html"})
        assert status == 200
        status, _, body = server.request("GET", "/healthz", host=host)
        assert status == 200, body
        status, headers, _ = server.request("GET", "/static/css/site.css", host=host)  # whitenoise, DEBUG off
        assert status == 200
        assert headers["content-type"].startswith("text/css")
        for name in lan.host_names():
            assert server.request("GET", "/healthz", host=f"{name}:{server.port}")[0] == 200
        # A Host the laptop is not known by.
        assert server.request("GET", "/", host="evil.example", headers={"Accept": "text/html"})[0] == 400
        assert server.request("GET", "/healthz", host=f"203.0.113.9:{server.port}")[0] == 400


def test_local_only_setting_keeps_the_server_on_loopback(migrated_sqlite, tmp_path):
    with serving(migrated_sqlite, tmp_path, local_only=True) as server:
        assert listening_addresses(server.port) == {"127.0.0.1"}
        assert server.request("GET", "/healthz", host=f"127.0.0.1:{server.port}")[0] == 200
        for address in lan.lan_addresses():
            assert server.request("GET", "/healthz", host=f"{lan.url_host(address)}:{server.port}")[0] == 400
        assert "this laptop only" in lan.banner(server.env)


def test_server_env_on_the_lan_and_local_only():
    env = lan.server_env(8123, environ={"ALLOWED_HOSTS": "club.example"})
    hosts = env["ALLOWED_HOSTS"].split(",")
    assert {"club.example", "localhost", "127.0.0.1", "[::1]"} <= set(hosts)
    for address in lan.lan_addresses():
        assert lan.url_host(address) in hosts
        assert f"http://{lan.url_host(address)}:8123" in env["CSRF_TRUSTED_ORIGINS"].split(",")
    assert all(b.rsplit(":", 1)[0] in {"0.0.0.0", "[::]"} for b in env["ARMLIST_BIND"].split())
    local = lan.server_env(8123, environ={"ARMLIST_LOCAL_ONLY": "1"})
    assert local["ARMLIST_BIND"] == "127.0.0.1:8123"
    assert local["ARMLIST_URL"] == "http://127.0.0.1:8123/"
    assert local["ALLOWED_HOSTS"] == "localhost,127.0.0.1,[::1]"


def make_battle(server: Server) -> dict:
    """Two players with API tokens; alice builds two rosters through the armies API and starts the battle through
    the battles API (POST /api/v1/battles/); bob takes the second side by its invitation. The battle's state once
    bob has joined (CHECK's) and its spectator link come back from the same shell ("start", "spectator")."""
    env = server.env
    setup = django_json(
        env,
        """
import json
from django.core.management import call_command
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from armies.models import DataPack
call_command("load_packs", "rules/systems/bronepekhota/data/tehnolog-classic.json", verbosity=0)
pack = DataPack.objects.filter(system="bronepekhota", slug="tehnolog-classic").order_by("-version").first()
out = {"pack": pack.pk}
for name in ("alice", "bob"):
    out[name] = Token.objects.create(user=get_user_model().objects.create_user(name)).key
print("JSON" + json.dumps(out))
""",
    )
    alice = setup["alice"]

    def roster(name, faction, squad, vehicle, pilot_soldier):
        status, _, body = server.request(
            "POST", "/api/v1/rosters/", token=alice, body={"pack": setup["pack"], "name": name, "faction": faction}
        )
        assert status == 201, body
        rid = body["id"]
        status, _, body = server.request(
            "POST", f"/api/v1/rosters/{rid}/entries/", token=alice, body={"profile": squad}
        )
        assert status == 201, body
        squad_key = body["entries"][-1]["key"]
        pilot = [{"entry": squad_key, "soldier": pilot_soldier, "copy": 1}]
        status, _, body = server.request(
            "POST",
            f"/api/v1/rosters/{rid}/entries/",
            token=alice,
            body={"profile": vehicle, "options": {"pilot": pilot}},
        )
        assert status == 201, body
        return rid, body["entries"][-1]["key"]

    blue, blue_vehicle = roster("Blue", "protectorate", "protectorate_kiberpehota", "salamander", 2)
    red, red_vehicle = roster("Red", "polaris", "polaris_lineynaya_klon_pehota", "raptor", 3)
    status, _, body = server.request(
        "POST", "/api/v1/battles/", token=alice, body={"name": "Club night", "rosters": [blue, red], "my_side": 0}
    )
    assert status == 201, body
    battle_id = body["id"]
    invite = next(i for i in body["invitations"] if i["side"] == 1)["url"].rstrip("/").rsplit("/", 1)[1]
    joined = django_json(env, JOIN.format(invite=invite, battle_id=battle_id))
    return {
        "id": battle_id,
        "phones": [("a", alice, f"0.{blue_vehicle}.1"), ("b", setup["bob"], f"1.{red_vehicle}.1")],
        "start": joined["start"],
        "spectator": joined["spectator"],
    }


def command_request(battle_id: int, unit: str, ammo: int, etag: str, key: str) -> tuple[str, str, dict, dict]:
    """One write as the battle API takes it: (method, path, body, headers). The only place that knows the endpoint."""
    return (
        "POST",
        f"/api/v1/battles/{battle_id}/commands/adjust/",
        {"unit": unit, "changes": {"ammo": ammo}},
        {"If-Match": etag, "Idempotency-Key": key},
    )


def phone_writer(server: Server, battle_id: int, tag: str, token: str, unit: str, stats: Counter, failures: list):
    """200 writes in a row, each retried on 412 with the version the answer gives; every 50th is sent twice (a
    phone that missed the answer): the second must replay the first."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        status, headers, _ = send(conn, "GET", f"/api/v1/battles/{battle_id}/", token=token)
        etag = headers["etag"]
        for i in range(WRITES_PER_PHONE):
            method, path, body, hdrs = command_request(battle_id, unit, i % 12, etag, f"{tag}-{i}")
            while True:
                status, headers, answer = send(conn, method, path, body=body, headers=hdrs, token=token)
                stats[status] += 1
                if status == 201:
                    etag = headers["etag"]
                    break
                if status != 412:
                    failures.append(f"{tag}-{i}: {status} {str(answer)[:300]}")
                    return
                hdrs = {**hdrs, "If-Match": f'"v{answer["version"]}"'}
            if i % 50 == 0:
                status, headers, answer = send(conn, method, path, body=body, headers=hdrs, token=token)
                stats[status] += 1
                stats["replayed"] += headers.get("idempotent-replayed") == "true"
                if status != 201:
                    failures.append(f"{tag}-{i} again: {status} {str(answer)[:300]}")
    except Exception as exc:  # reported by the main thread
        failures.append(f"{tag}: {exc!r}")
    finally:
        conn.close()


# A battle's events and units as the tests check them (each shell loads Django and every system: a second or two
# apiece, so one shell checks all it can).
STATE = """
import json
from collections import Counter
from battles import services
from battles.models import Battle, BattleEvent, BattleUnit


def state(battle):
    events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    ok, why = services.replay_matches(battle)
    return {{
        "keys": Counter(e.idempotency_key for e in events if e.idempotency_key),
        "seqs": [e.seq for e in events],
        "version": battle.version,
        "replay": [ok, str(why)],
        "ammo": {{u.key: u.state.get("ammo") for u in BattleUnit.objects.filter(battle=battle)}},
    }}
"""

CHECK = (
    STATE
    + """
print("JSON" + json.dumps(state(Battle.objects.get(pk={battle_id}))))
"""
)

# The same for many battles in one shell.
CHECK_MANY = (
    STATE
    + """
print("JSON" + json.dumps({{battle.pk: state(battle) for battle in Battle.objects.filter(pk__in={battle_ids})}}))
"""
)

# Bob takes the second side by its invitation; the battle's state then, and its spectator link.
JOIN = (
    STATE
    + """
from django.contrib.auth import get_user_model
services.battle_join(token={invite!r}, user=get_user_model().objects.get(username="bob"))
battle = Battle.objects.get(pk={battle_id})
print("JSON" + json.dumps({{"start": state(battle), "spectator": battle.spectator_token}}))
"""
)


def two_phones_at_once(server: Server) -> None:
    battle = make_battle(server)
    start = battle["start"]
    stats = {tag: Counter() for tag, _, _ in battle["phones"]}
    failures: list[str] = []
    threads = [
        threading.Thread(target=phone_writer, args=(server, battle["id"], tag, token, unit, stats[tag], failures))
        for tag, token, unit in battle["phones"]
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    server_errors = {tag: {s: n for s, n in c.items() if isinstance(s, int) and s >= 500} for tag, c in stats.items()}
    assert not any(server_errors.values()), (server_errors, failures[:5])
    assert not failures, failures[:5]

    end = django_json(server.env, CHECK.format(battle_id=battle["id"]))
    keys = Counter(end["keys"])
    mine = Counter({k: n for k, n in keys.items() if k not in start["keys"]})
    assert len(mine) == 2 * WRITES_PER_PHONE  # none lost
    assert set(mine.values()) == {1}  # none doubled (the re-sent ones replayed)
    assert end["seqs"] == list(range(1, len(end["seqs"]) + 1))
    assert end["version"] == end["seqs"][-1] == start["version"] + 2 * WRITES_PER_PHONE
    for tag, _, unit in battle["phones"]:
        assert stats[tag][201] == WRITES_PER_PHONE + WRITES_PER_PHONE // 50
        assert stats[tag]["replayed"] == WRITES_PER_PHONE // 50
        assert end["ammo"][unit] == (WRITES_PER_PHONE - 1) % 12
        order = [int(k.split("-")[1]) for k in end["keys"] if k.startswith(f"{tag}-")]
        assert sorted(order) == list(range(WRITES_PER_PHONE))
    assert end["replay"][0], end["replay"][1]
    print({tag: dict(c) for tag, c in stats.items()})


def test_two_phones_200_writes_each_on_sqlite_no_5xx_nothing_lost(migrated_sqlite, tmp_path):
    with serving(migrated_sqlite, tmp_path) as server:
        two_phones_at_once(server)


def test_two_phones_200_writes_each_on_postgresql_no_5xx_nothing_lost(migrated_postgres, tmp_path):
    with serving(migrated_postgres, tmp_path) as server:
        two_phones_at_once(server)


def test_a_write_that_cannot_get_the_lock_answers_503_retry_after_and_reads_go_on(migrated_sqlite, tmp_path):
    """Another writer holds SQLite's lock longer than SQLITE_TIMEOUT: the write answers 503 + Retry-After (API and
    page alike), polls still answer (WAL), and the same write succeeds once the lock is free."""
    with serving(migrated_sqlite, tmp_path, SQLITE_TIMEOUT="0.5") as server:
        battle = make_battle(server)
        _, token, unit = battle["phones"][0]
        status, headers, state = server.request("GET", f"/api/v1/battles/{battle['id']}/", token=token)
        assert status == 200
        method, path, body, hdrs = command_request(battle["id"], unit, 5, headers["etag"], "held-1")

        holder = sqlite3.connect(migrated_sqlite.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, as a long transaction would hold it
        try:
            status, headers, answer = server.request(method, path, body=body, headers=hdrs, token=token)
            assert status == 503, answer
            assert int(headers["retry-after"]) > 0
            assert answer["code"] == "busy"
            # A page whose answer writes (a spectator link stores itself in a new session) fails the same way,
            # in the middleware that saves the session rather than in the view.
            status, headers, page = server.request(
                "GET", f"/battles/watch/{battle['spectator']}/", headers={"Accept": "text/html"}
            )
            assert status == 503, page[:500]
            assert int(headers["retry-after"]) > 0
            assert b"<h1>" in page
            # Reads are not blocked by the writer.
            assert server.request("GET", f"/api/v1/battles/{battle['id']}/", token=token)[0] == 200
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        status, _, answer = server.request(method, path, body=body, headers=hdrs, token=token)
        assert status == 201, answer


# QR codes ------------------------------------------------------------------------------------------------------
def render_qr(rf, settings, *, host: str, url: str, public: str = "") -> str:
    from django.template.loader import render_to_string

    settings.ARMLIST_URL = public
    request = rf.get("/battles/1/", HTTP_HOST=host)
    return render_to_string("includes/qr.html", {"url": url, "label": "Scan <me>"}, request=request)


def test_qr_include_renders_an_inline_svg_of_the_link(rf, settings):
    from config.qr import svg

    settings.ALLOWED_HOSTS = ["*"]
    html = render_qr(rf, settings, host="192.0.2.7:8000", url="/battles/join/abc/")
    assert "<svg" in html
    assert 'href="http://192.0.2.7:8000/battles/join/abc/"' in html
    assert svg("http://192.0.2.7:8000/battles/join/abc/", "Scan <me>") in html
    assert "Scan &lt;me&gt;" in html
    assert "<me>" not in html


def test_qr_from_a_page_opened_on_the_laptop_carries_the_lan_address(rf, settings):
    settings.ALLOWED_HOSTS = ["*"]
    html = render_qr(
        rf,
        settings,
        host="127.0.0.1:8000",
        url="http://127.0.0.1:8000/battles/join/abc/",
        public="http://192.0.2.7:8000/",
    )
    assert 'href="http://192.0.2.7:8000/battles/join/abc/"' in html
    assert "127.0.0.1" not in html
    # Without a LAN address (local-only), the link stays as it was.
    html = render_qr(rf, settings, host="127.0.0.1:8000", url="/battles/join/abc/")
    assert 'href="http://127.0.0.1:8000/battles/join/abc/"' in html


def test_banner_prints_the_address_and_a_terminal_qr_code():
    text = lan.banner(
        {"ARMLIST_URL": "http://192.0.2.7:8000/", "ARMLIST_URLS": "http://192.0.2.7:8000/", "PORT": "8000"}
    )
    assert text.splitlines()[0] == "Armlist is at http://192.0.2.7:8000/"
    assert "█" in text or "▀" in text


@pytest.mark.alone  # a stop within seconds: no neighbour (conftest.py)
def test_a_graceful_stop_ends_the_phones_event_streams_at_once(migrated_sqlite, tmp_path):
    """`make run`'s Ctrl-C stops gunicorn with SIGTERM; a phone's open stream must not hold a worker for the whole
    graceful timeout (config/gunicorn_conf.py, 10 s)."""
    with serving(migrated_sqlite, tmp_path) as server:
        battle = make_battle(server)
        token = battle["spectator"]
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", f"/battles/{battle['id']}/stream?watch={token}")
        response = conn.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        assert b"event: version" in response.fp.readline() + response.fp.readline() + response.fp.readline()
        start = time.monotonic()
        os.killpg(server.proc.pid, signal.SIGTERM)
        server.proc.wait(timeout=30)
        stopped_in = time.monotonic() - start
        conn.close()
    assert stopped_in < 5.0  # not the 10 s graceful timeout: the stream ended when the stop began


@pytest.mark.alone  # a stop within seconds: no neighbour (conftest.py)
def test_a_stop_while_the_workers_warm_up_ends_every_worker_without_sigkill(migrated_sqlite, tmp_path):
    """Ctrl-C soon after `make run`: a worker may still be importing the app (post_worker_init) when SIGTERM comes,
    twice (the process group, then the arbiter). Its handler must neither import (the import met its own module
    half-initialised and raised, and the worker lived on until SIGKILL at the graceful timeout) nor wait for the
    warm-up to end."""
    for delay in (0.5, 1.5, 3.0):
        with serving(migrated_sqlite, tmp_path) as server:
            time.sleep(delay)
            start = time.monotonic()
            os.killpg(server.proc.pid, signal.SIGTERM)
            code = server.proc.wait(timeout=30)
            stopped_in = time.monotonic() - start
            log = server.log.read_text(errors="replace")
        assert "SIGKILL" not in log, log[-4000:]
        assert "Traceback" not in log, log[-4000:]
        assert code == 0
        assert stopped_in < 10.0  # config/gunicorn_conf.py graceful_timeout, after which the arbiter kills
