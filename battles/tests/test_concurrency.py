"""Two phones writing to one battle at the same time: 500 events each, through the API, in two threads with their
own database connections. Stale writes get 412 and are retried with the same Idempotency-Key; some successful
writes are re-sent on purpose. No event may be lost or doubled, and the final state must equal the replay."""

from __future__ import annotations

import json
import threading
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from battles import services
from battles.models import Battle, BattleEvent, BattleUnit
from battles.tests.conftest import PASSWORD

EVENTS_PER_CLIENT = 500


def writer(user, battle_id: int, unit: str, tag: str, stats: dict, errors: list) -> None:
    try:
        client = Client()
        assert client.login(username=user.username, password=PASSWORD)
        url = f"/api/v1/battles/{battle_id}/commands/adjust/"
        etag = client.get(f"/api/v1/battles/{battle_id}/")["ETag"]
        for i in range(EVENTS_PER_CLIENT):
            key = f"{tag}-{i}"
            body = json.dumps({"unit": unit, "changes": {"ammo": i % 12}})
            while True:
                r = client.post(
                    url, data=body, content_type="application/json", HTTP_IF_MATCH=etag, HTTP_IDEMPOTENCY_KEY=key
                )
                if r.status_code == 201:
                    etag = r["ETag"]
                    stats["ok"] += 1
                    break
                if r.status_code != 412:
                    raise AssertionError(f"{key}: {r.status_code} {r.content[:300]!r}")
                stats["stale"] += 1
                etag = f'"v{r.json()["version"]}"'
            if i % 50 == 0:  # a phone that did not hear the answer sends the same write again
                again = client.post(
                    url, data=body, content_type="application/json", HTTP_IF_MATCH=etag, HTTP_IDEMPOTENCY_KEY=key
                )
                assert again.status_code == 201, again.content
                assert again["Idempotent-Replayed"] == "true"
                stats["replayed"] += 1
    except BaseException as exc:  # reported to the main thread
        errors.append(exc)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_two_clients_500_events_each_nothing_lost_or_doubled(battle, alice, bob):
    stats = {"alice": Counter(), "bob": Counter()}
    errors: list = []
    threads = [
        threading.Thread(target=writer, args=(alice, battle.pk, "0.e2.1", "a", stats["alice"], errors)),
        threading.Thread(target=writer, args=(bob, battle.pk, "1.e2.1", "b", stats["bob"], errors)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors[0]
    assert all(not t.is_alive() for t in threads)

    battle.refresh_from_db()
    events = list(BattleEvent.objects.filter(battle=battle).order_by("seq"))
    keys = Counter(e.idempotency_key for e in events if e.idempotency_key)
    assert len(keys) == 2 * EVENTS_PER_CLIENT  # none lost
    assert set(keys.values()) == {1}  # none doubled
    assert [e.seq for e in events] == list(range(1, 2 + 2 * EVENTS_PER_CLIENT + 1))
    assert battle.version == events[-1].seq == 2 + 2 * EVENTS_PER_CLIENT
    assert stats["alice"]["ok"] == stats["bob"]["ok"] == EVENTS_PER_CLIENT
    # Each phone's writes landed in its own order.
    for tag, unit in (("a", "0.e2.1"), ("b", "1.e2.1")):
        mine = [int(e.idempotency_key.split("-")[1]) for e in events if (e.idempotency_key or "").startswith(tag)]
        assert mine == sorted(mine)
        assert BattleUnit.objects.get(battle=battle, key=unit).state["ammo"] == (EVENTS_PER_CLIENT - 1) % 12
    ok, why = services.replay_matches(Battle.objects.get(pk=battle.pk))
    assert ok, why
    print(f"stale writes retried: alice {stats['alice']['stale']}, bob {stats['bob']['stale']}")


@pytest.mark.django_db(transaction=True)
def test_a_retry_storm_gets_the_first_answer_every_time(battle, alice):
    """20 copies of one write with one Idempotency-Key at the same moment: one event, and every copy gets 201."""
    body = json.dumps({"unit": "0.e2.1", "changes": {"ammo": 7}})
    url = f"/api/v1/battles/{battle.pk}/commands/adjust/"
    answers: list = []
    barrier = threading.Barrier(20)

    def copy():
        try:
            client = Client()
            assert client.login(username=alice.username, password=PASSWORD)
            barrier.wait(timeout=30)
            r = client.post(
                url, data=body, content_type="application/json", HTTP_IF_MATCH='"v2"', HTTP_IDEMPOTENCY_KEY="storm-1"
            )
            answers.append((r.status_code, r.json().get("events", [{}])[0].get("seq")))
        finally:
            connection.close()

    threads = [threading.Thread(target=copy) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(answers) == 20
    assert {status for status, _ in answers} == {201}, Counter(status for status, _ in answers)
    assert {seq for _, seq in answers} == {3}
    assert BattleEvent.objects.filter(battle=battle, idempotency_key="storm-1").count() == 1
