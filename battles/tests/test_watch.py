"""Long polling through one watcher thread: a waiting request wakes within a tick of a change, and waits its time
out when nothing changes."""

import threading
import time

import pytest
from django.db import connection

from battles.tests import commands
from battles.watch import VersionWatch


@pytest.mark.django_db(transaction=True)
def test_a_waiter_wakes_soon_after_the_battle_changes(battle, alice):
    watch = VersionWatch(tick=0.05)
    answers = []

    def waiter():
        try:
            start = time.monotonic()
            answers.append((watch.wait(battle.pk, battle.version, seconds=5), time.monotonic() - start))
        finally:
            connection.close()

    thread = threading.Thread(target=waiter)
    thread.start()
    time.sleep(0.3)
    commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
    )
    thread.join(timeout=10)
    version, waited = answers[0]
    assert version == battle.version + 1
    assert 0.3 <= waited < 3.0  # a tick after the change (generous: the machine is shared)


@pytest.mark.django_db(transaction=True)
def test_a_waiter_times_out_when_nothing_changes(battle):
    watch = VersionWatch(tick=0.05)
    start = time.monotonic()
    assert watch.wait(battle.pk, battle.version, seconds=0.4) == battle.version
    assert time.monotonic() - start >= 0.4


# The long poll's "changed" answer and the shared render (issue 11: club night on SQLite) ---------------------
def _wake_after_change(battle, alice, client, *, notify: bool):
    """A long poll from `client` that waits on the battle's version while alice records a change 0.3 s later."""
    from battles import watch

    answers = []

    def change():
        time.sleep(0.3)
        try:
            commands.unit_adjust(
                battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
            )
        finally:
            connection.close()

    thread = threading.Thread(target=change)
    thread.start()
    try:
        url = f"/battles/{battle.pk}/board?wait=5" + ("&notify=1" if notify else "")
        answers.append(client.get(url, HTTP_IF_NONE_MATCH=f'"v{battle.version}"'))
    finally:
        thread.join(timeout=10)
    assert watch.WATCH  # the process's one watcher served the wait
    return answers[0]


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_with_notify_answers_a_change_with_the_new_etag_and_no_board(battle, alice, bob, monkeypatch):
    from battles import views
    from battles.tests.test_api import client_for

    drawn = []
    monkeypatch.setattr(views, "_board_context", lambda *a, **k: drawn.append(1) or pytest.fail("rendered"))
    response = _wake_after_change(battle, alice, client_for(bob), notify=True)
    assert response.status_code == 204
    assert response["ETag"] == f'"v{battle.version + 1}"'
    assert response.content == b""
    assert drawn == []  # the wake drew no board: the phone fetches it only when it lacks that version


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_without_notify_still_answers_the_board(battle, alice, bob):
    from battles.tests.test_api import client_for

    response = _wake_after_change(battle, alice, client_for(bob), notify=False)
    assert response.status_code == 200
    assert response["ETag"] == f'"v{battle.version + 1}"'
    assert "SALAMANDER" in response.content.decode()


@pytest.mark.django_db
def test_a_long_poll_on_a_stale_etag_answers_the_board_at_once(battle, bob):
    from battles.tests.test_api import client_for

    c = client_for(bob)
    start = time.monotonic()
    response = c.get(f"/battles/{battle.pk}/board?wait=20&notify=1", HTTP_IF_NONE_MATCH='"v1"')
    assert response.status_code == 200
    assert response["ETag"] == f'"v{battle.version}"'
    assert time.monotonic() - start < 10  # not held for its 20 s (generous: the machine is shared)


@pytest.mark.django_db
def test_one_render_per_version_and_viewer_and_never_across_what_viewers_may_see(battle, alice, bob, monkeypatch):
    from battles import views
    from battles.tests.test_api import client_for, spectator_client

    real = views._board_context
    drawn = []

    def counting(request, access):
        drawn.append((access.role, access.sides))
        return real(request, access)

    monkeypatch.setattr(views, "_board_context", counting)
    commands.unit_adjust(  # an event a player may undo: the undo button is a player's control
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 10}
    )
    battle.refresh_from_db()
    url = f"/battles/{battle.pk}/board"
    spectator = spectator_client(battle).get(url).content.decode()
    first = client_for(alice).get(url).content.decode()
    again = client_for(alice).get(url).content.decode()  # her second phone: the same render
    bobs = client_for(bob).get(url).content.decode()
    assert drawn == [("spectator", ()), ("player", (0,)), ("player", (1,))]
    assert again == first
    assert "data-undo=" in first
    assert "data-undo=" not in spectator
    assert bobs != first
    assert spectator_client(battle).get(url).content.decode() == spectator
    assert len(drawn) == 3
    # A new version is drawn anew, and each answer carries the version it shows.
    commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
    )
    response = client_for(alice).get(url, HTTP_IF_NONE_MATCH=f'"v{battle.version}"')
    assert response.status_code == 200
    assert response["ETag"] == f'"v{battle.version + 1}"'
    assert len(drawn) == 4
    assert client_for(alice).get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


@pytest.mark.django_db
def test_the_render_is_per_language(battle, alice, monkeypatch):
    from battles import views
    from battles.tests.test_api import client_for

    real = views._board_context
    drawn = []
    monkeypatch.setattr(views, "_board_context", lambda request, access: drawn.append(1) or real(request, access))
    c = client_for(alice)
    english = c.get(f"/battles/{battle.pk}/board", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    russian = c.get(f"/battles/{battle.pk}/board", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert len(drawn) == 2
    assert "History" in english
    assert "History" not in russian


# Server-sent events: the phone hears of each new version on one open connection (issue 11) ----------------------
@pytest.mark.django_db(transaction=True)
def test_the_stream_says_the_version_at_once_and_each_new_one_as_it_comes(battle, alice, bob, monkeypatch):
    from battles import views
    from battles.tests.test_api import client_for

    monkeypatch.setattr(views, "STREAM_SECONDS", 3.0)
    response = client_for(bob).get(f"/battles/{battle.pk}/stream")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert "no-cache" in response["Cache-Control"]
    received = []

    def read():
        try:
            for chunk in response.streaming_content:
                received.append((time.monotonic(), chunk.decode()))
        finally:
            connection.close()

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.5)
    changed_at = time.monotonic()
    commands.unit_adjust(
        battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
    )
    reader.join(timeout=15)
    text = "".join(chunk for _, chunk in received)
    assert text.startswith("retry: 2000\nevent: version\n")
    assert f"event: version\ndata: {battle.version}\n\n" in text
    assert f"event: version\ndata: {battle.version + 1}\n\n" in text
    later = [at for at, chunk in received if f"data: {battle.version + 1}" in chunk]
    assert later[0] - changed_at < 2.0  # within a few of the watcher's ticks (generous: the machine is shared)
    assert "SALAMANDER" not in text  # only versions: no game content travels on the stream


@pytest.mark.django_db
def test_the_stream_is_404_for_outsiders_and_open_to_spectators(battle, outsider, monkeypatch):
    from battles import views
    from battles.tests.test_api import client_for, spectator_client

    monkeypatch.setattr(views, "STREAM_SECONDS", 0.4)
    monkeypatch.setattr(views, "STREAM_PING_SECONDS", 0.1)
    assert client_for(outsider).get(f"/battles/{battle.pk}/stream").status_code == 404
    assert client_for(outsider).get("/battles/999999/stream").status_code == 404
    response = spectator_client(battle).get(f"/battles/{battle.pk}/stream")
    assert response.status_code == 200
    chunks = [chunk.decode() for chunk in response.streaming_content]  # read to its end, as a phone would
    assert f"data: {battle.version}" in chunks[0]
    assert ": ping\n\n" in chunks[1:]  # nothing changed: comment lines keep the connection open


# Coroutine waiters: the streams and long polls of config/asgi.py (issue: 200 phones) -----------------------------
@pytest.mark.django_db(transaction=True)
def test_a_coroutine_waiter_wakes_soon_after_the_battle_changes_holding_no_thread(battle, alice):
    import asyncio

    watch = VersionWatch(tick=0.05)

    async def waiting():
        threads_before = threading.active_count()
        start = time.monotonic()
        waiters = [asyncio.create_task(watch.wait_async(battle.pk, battle.version, seconds=5)) for _ in range(50)]
        await asyncio.sleep(0.3)
        threads_while = threading.active_count()  # 50 waiters: the watcher's thread at most
        await asyncio.to_thread(change)
        versions = await asyncio.gather(*waiters)
        return versions, time.monotonic() - start, threads_while - threads_before

    def change():
        try:
            commands.unit_adjust(
                battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1", changes={"ammo": 11}
            )
        finally:
            connection.close()

    versions, waited, more_threads = asyncio.run(waiting())
    watch.stop()
    assert versions == [battle.version + 1] * 50
    assert waited < 3.0
    assert more_threads <= 1  # the watcher: no thread per waiter
    assert watch._battles == {}  # every waiter left


@pytest.mark.django_db(transaction=True)
def test_a_coroutine_waiter_times_out_is_cancelled_cleanly_and_wakes_on_stop(battle):
    import asyncio

    watch = VersionWatch(tick=0.05)

    async def waiting():
        start = time.monotonic()
        assert await watch.wait_async(battle.pk, battle.version, seconds=0.3) == battle.version
        timed = time.monotonic() - start
        gone = asyncio.create_task(watch.wait_async(battle.pk, battle.version, seconds=30))
        await asyncio.sleep(0.2)
        gone.cancel()  # the phone went away
        with pytest.raises(asyncio.CancelledError):
            await gone
        left_clean = battle.pk not in watch._battles
        stopped = asyncio.create_task(watch.wait_async(battle.pk, battle.version, seconds=30))
        await asyncio.sleep(0.2)
        start = time.monotonic()
        await asyncio.to_thread(watch.stop)  # the server stops: every waiter wakes
        version = await asyncio.wait_for(stopped, 5)
        return timed, left_clean, version, time.monotonic() - start

    timed, left_clean, version, woke_in = asyncio.run(waiting())
    assert timed >= 0.3
    assert left_clean
    assert version == battle.version
    assert woke_in < 3.0
