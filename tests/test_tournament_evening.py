"""A tournament's evening in a minute, on PostgreSQL (issue «200 phones on one laptop or on PostgreSQL»): 200
phones hold their event streams while 40 of them write, through the server `make run` starts (tests/club_server.py),
on a database of its own, over loopback.

Its own file so that the serial phase (scripts/test.sh, conftest.py SERIAL_FILES) can give it a lane of its own:
it runs for a minute and asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter

import pytest

from config import serving as sizes
from tests.club_server import connections_to, django_json, phones, serving, worker_pids
from tests.loopback_http import LoopbackClient
from tests.test_club_night import CHECK_MANY

# PostgreSQL, a tournament's evening in a minute ---------------------------------------------------------------
WRITERS = 40
EVENT_S = 2.0
RUN_S = 60.0


@pytest.mark.postgres_load
@pytest.mark.serial
def test_200_phones_on_postgresql_no_5xx_nothing_lost_connections_within_the_pools(migrated_postgres, tmp_path):
    """200 phones hold their event streams; 40 of them (20 battles, both sides) write an event every 2 s through
    gunicorn for 60 s. No answer is 5xx (503 included), every event is stored once (retries replay), and the
    server's connections never pass its pools' size."""
    url = migrated_postgres
    with serving(url, tmp_path, WEB_WORKERS="4") as server:  # make run's on this machine's 2 cores
        limit = 4 * sizes.connections_per_process(server.env)
        clients = phones(server, 200)
        assert len(worker_pids(server)) == 4
        peak = [0]
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                peak[0] = max(peak[0], connections_to(url))
                time.sleep(0.25)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            statuses, sent, failures, heard = asyncio.run(_evening(server.port, clients))
        finally:
            sampling.set()
            sampler.join(timeout=30)
        written = sorted({c["battle"] for c in clients[:WRITERS]})
        ends = django_json(server.env, CHECK_MANY.format(battle_ids=written))
        assert sorted(map(int, ends)) == written
    assert failures == [], failures[:5]
    assert [s for s in statuses if s >= 500] == [], Counter(statuses)
    assert set(statuses) <= {201, 412}, Counter(statuses)
    stored = Counter()
    for end in ends.values():
        assert end["seqs"] == list(range(1, len(end["seqs"]) + 1))  # no gap, nothing doubled
        assert end["replay"][0], end["replay"][1]
        stored.update(end["keys"])  # the battles were new: every key is one of the writers'
    assert set(stored) == set(sent)  # every event answered 201 is stored, and nothing else
    assert set(stored.values()) == {1}  # each once: the re-sent ones replayed
    assert len(sent) >= WRITERS * (RUN_S / EVENT_S) * 0.8
    assert heard > 0
    assert 0 < peak[0] <= limit, (peak[0], limit)
    print(
        f"{len(sent)} events, {len(statuses)} answers {dict(Counter(statuses))}, peak {peak[0]} of {limit} connections"
    )


async def _evening(port: int, clients: list[dict]):
    statuses: list[int] = []
    sent: set[str] = set()
    failures: list[str] = []
    heard = [0]
    deadline = time.monotonic() + RUN_S
    rng = random.Random(7)

    async def listen(client):
        phone = LoopbackClient(port, session=client["session"])
        try:
            status, events = await phone.open_stream(f"/battles/{client['battle']}/stream")
            if status != 200:
                failures.append(f"stream {status}")
                return
            # The phone listens until the evening ends, not until its next event after it (a quiet battle's
            # stream says nothing but its ping, every STREAM_PING_SECONDS).
            evening = asyncio.timeout(deadline - time.monotonic())
            try:
                async with evening:
                    async for event in events:
                        heard[0] += event.get("event") == "version"
            except TimeoutError:
                if not evening.expired():
                    raise
        except (OSError, asyncio.IncompleteReadError) as exc:
            failures.append(f"stream: {exc!r}")
        finally:
            phone.close()

    async def write(client, tag: str):
        phone = LoopbackClient(port, token=client["token"])
        path = f"/api/v1/battles/{client['battle']}/commands/adjust/"
        status, headers, _ = await phone.request("GET", f"/api/v1/battles/{client['battle']}/")
        etag = headers["etag"]
        await asyncio.sleep(rng.uniform(0, EVENT_S))
        n = 0
        try:
            while time.monotonic() < deadline:
                n += 1
                key = f"{tag}-{n}"
                body = {"unit": client["unit"], "changes": {"ammo": n % 12}}
                for attempt in range(2 if n % 10 == 0 else 1):  # every tenth is sent again, as after a lost answer
                    while True:
                        status, headers, raw = await phone.request(
                            "POST", path, body=body, headers={"If-Match": etag, "Idempotency-Key": key}
                        )
                        statuses.append(status)
                        if status == 412:
                            etag = f'"v{json.loads(raw)["version"]}"'
                            continue
                        break
                    if status != 201:
                        failures.append(f"{key}: {status} {raw[:200]!r}")
                        return
                    if attempt:
                        assert headers.get("idempotent-replayed") == "true"
                    etag = headers["etag"]
                sent.add(key)
                await asyncio.sleep(EVENT_S)
        except (OSError, asyncio.IncompleteReadError) as exc:
            failures.append(f"{tag}: {exc!r}")
        finally:
            phone.close()

    listeners = [asyncio.create_task(listen(c)) for c in clients]
    await asyncio.gather(*(write(c, f"w{i}") for i, c in enumerate(clients[:WRITERS])))
    await asyncio.wait(listeners, timeout=20)
    for task in listeners:
        task.cancel()
    return statuses, sent, failures, heard[0]
