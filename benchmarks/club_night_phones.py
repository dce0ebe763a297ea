"""The phones of the club-night benchmark (benchmarks/bench_club_night.py): each does what the board page does
(static/battles/battle.js), over one keep-alive HTTP/1.1 connection per purpose, on loopback.

A phone keeps the board's event stream open (BENCH_SYNC=sse; `long`: the board's long poll; `poll`: API polls),
fetches the board only when it lacks the version it was told of, and records an event every 2 s through the API
(a 412 is retried with the version it returns). A Battle gathers its two phones' moments, from which the sync delay
between them is read.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

from tests.loopback_http import LoopbackClient

SYNC = os.environ.get("BENCH_SYNC", "sse")  # "sse": the board page's event stream; "long": its long poll; "poll": API
LONG_POLL_S = 15  # as static/battles/battle.js asks
NOTIFY = os.environ.get("BENCH_NOTIFY", "1") == "1"  # 0: the long poll answers a change with the whole board


# The keep-alive client is the tests' (tests/loopback_http.py); the benchmarks put the project root on sys.path.
LAST_AMMO: dict = {}  # per unit: the ammo the last recorded event set (the next one always differs, so never a 400)


def next_ammo_event(info: dict, n: int) -> tuple[str, str, dict]:
    """A phone's next slider change, as the board's «−»/«+» send it: (path, Idempotency-Key, body). It sets its unit's
    ammo to a value other than the last one recorded: a change to the value it already has is refused."""
    value = (LAST_AMMO.get((info["battle"], info["unit"]), info["max_ammo"]) + 1) % (info["max_ammo"] + 1)
    key = f"{info['token'][:8]}-{n}-{time.time_ns()}"
    return f"/api/v1/battles/{info['battle']}/commands/adjust/", key, {"unit": info["unit"], "changes": {"ammo": value}}


def ammo_recorded(info: dict, body: dict) -> None:
    LAST_AMMO[(info["battle"], info["unit"])] = body["changes"]["ammo"]


def version_of(etag: str | None) -> int:
    return int(etag.strip('W/"').lstrip("v")) if etag else 0


# Phones ----------------------------------------------------------------------------------------------------
class Battle:
    """What the two phones of one battle record for the sync measure: when each event was sent and its version, and
    when each phone came to hold which version. Matched after the run (a phone may see an event before its sender
    has read the answer)."""

    def __init__(self):
        self.sent: dict[int, list[tuple[int, float]]] = {0: [], 1: []}  # phone -> [(version, sent at)]
        self.held: dict[int, list[tuple[float, int]]] = {0: [], 1: []}  # phone -> [(at, version it then held)]

    def sync_delays(self) -> tuple[list[float], int]:
        """(delays in ms from sending an event to the other phone holding it, events the other phone never saw)."""
        delays, unseen = [], 0
        for phone in (0, 1):
            held = self.held[1 - phone]
            for version, sent_at in self.sent[phone]:
                at = next((t for t, v in held if v >= version and t >= sent_at), None)
                if at is None:
                    unseen += 1
                else:
                    delays.append((at - sent_at) * 1000)
        return delays, unseen


class Phone:
    def __init__(self, port: int, info: dict, index: int, battle: Battle, stats: dict):
        self.conn = LoopbackClient(port, token=info["token"])  # the API: reads and writes
        self.page = LoopbackClient(port, session=info["session"])  # the board page's long poll and board fetches
        self.info, self.index, self.battle, self.stats = info, index, battle, stats
        self.etag = None
        self.posting = False  # a write of this phone is on its way
        self.missed = 0  # a version the stream said while it was
        self.fetching = asyncio.Lock()  # the board connection serves one request at a time
        self.n = 0

    def holds(self, version: int) -> None:
        """This phone now holds the battle at `version` (it has been shown every event up to it)."""
        self.battle.held[self.index].append((time.perf_counter(), version))

    async def _get(self, conn: LoopbackClient, path: str, what: str) -> tuple[int, dict, float] | None:
        """A GET with the ETag this phone holds: (status, headers, ms), or None after a broken connection (recorded
        as an error)."""
        headers = {"If-None-Match": self.etag} if self.etag else {}
        t = time.perf_counter()
        try:
            status, headers, _ = await conn.request("GET", path, headers=headers)
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.stats["errors"].append(f"{what}: {exc!r}")
            return None
        return status, headers, (time.perf_counter() - t) * 1000

    async def poll(self):
        answer = await self._get(self.conn, f"/api/v1/battles/{self.info['battle']}/", "poll")
        if answer is None:
            return
        status, headers, ms = answer
        if status == 304:
            self.stats["poll304"].append(ms)
        elif status == 200:
            self.stats["poll200"].append(ms)
            self.etag = headers.get("etag")
            self.holds(version_of(self.etag))
        else:
            self.stats["errors"].append(f"poll {status}")

    async def watch(self, deadline: float) -> None:
        """The board page: a long poll (`?wait=`) after another, each answered when the battle changes."""
        while (left := deadline - time.monotonic()) > 1:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            path = f"/battles/{self.info['battle']}/board?wait={min(LONG_POLL_S, int(left))}" + (
                "&notify=1" if NOTIFY else ""
            )
            t = time.perf_counter()
            try:
                status, headers, _ = await self.page.request("GET", path, headers=headers)
                if status == 204:  # "changed to vN", no board: fetch it only when this phone lacks vN
                    self.stats["long204"] += 1
                    if version_of(headers.get("etag")) <= version_of(self.etag):
                        continue  # its own write brought it
                    headers = {"If-None-Match": self.etag} if self.etag else {}
                    t = time.perf_counter()
                    status, headers, _ = await self.page.request(
                        "GET", f"/battles/{self.info['battle']}/board", headers=headers
                    )
            except (OSError, asyncio.IncompleteReadError) as exc:
                self.stats["errors"].append(f"long poll: {exc!r}")
                await asyncio.sleep(1)
                continue
            if status == 200:
                self.stats["board200"].append((time.perf_counter() - t) * 1000)
                self.etag = headers.get("etag")
                self.holds(version_of(self.etag))
            elif status == 304:
                self.stats["long304"] += 1
            else:
                self.stats["errors"].append(f"long poll {status}")
                await asyncio.sleep(1)

    async def listen(self, deadline: float) -> None:
        """The board page with server-sent events (GET /battles/<id>/stream, as static/battles/battle.js opens it):
        one connection says every new version; the board is fetched only when this phone lacks it (not while its
        own write is on its way: that write's answer decides, as the page's `busy` flag does)."""
        while deadline - time.monotonic() > 1:
            stream = LoopbackClient(self.page.port, session=self.info["session"])
            try:
                status, events = await stream.open_stream(f"/battles/{self.info['battle']}/stream")
                if status != 200:
                    raise OSError(f"stream {status}")
                self.stats["streams"] += 1
                while (left := deadline - time.monotonic()) > 0:
                    try:
                        fields = await asyncio.wait_for(anext(events), left)
                    except StopAsyncIteration:
                        break  # the server ended the stream: open the next one
                    if fields.get("event") == "version":
                        self.stats["sse"] += 1
                        await self.learn(int(fields["data"]))
            except TimeoutError:
                pass
            except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
                self.stats["errors"].append(f"stream: {exc!r}")
                await asyncio.sleep(1)
            finally:
                stream.close()

    async def learn(self, version: int) -> None:
        if self.posting:
            self.missed = max(self.missed, version)
            return
        async with self.fetching:  # the stream and the end of a write may both ask: one board request at a time
            await self._learn(version)

    async def _learn(self, version: int) -> None:
        if version <= version_of(self.etag):
            return  # its own write brought it (or the other fetch did)
        answer = await self._get(self.page, f"/battles/{self.info['battle']}/board", "board")
        if answer is None:
            return
        status, headers, ms = answer
        if status == 200:
            self.stats["board200"].append(ms)
            self.etag = headers.get("etag")
            self.holds(version_of(self.etag))
        elif status != 304:
            self.stats["errors"].append(f"board {status}")

    async def post_event(self):
        self.posting = True
        try:
            await self._post_event()
        finally:
            self.posting = False
        if self.missed:
            missed, self.missed = self.missed, 0
            await self.learn(missed)

    async def _post_event(self):
        self.n += 1
        path, key, body = next_ammo_event(self.info, self.n)
        first = time.perf_counter()
        while True:
            if self.etag is None:
                await self.poll()
            t = time.perf_counter()
            try:
                status, headers, raw = await self.conn.request(
                    "POST", path, body=body, headers={"If-Match": self.etag, "Idempotency-Key": key}
                )
            except (OSError, asyncio.IncompleteReadError) as exc:
                self.stats["errors"].append(f"post: {exc!r}")
                return
            done = time.perf_counter()
            if status == 201:
                self.stats["post"].append((done - t) * 1000)
                self.stats["post_sent"].append(t)
                self.stats["event"].append((done - first) * 1000)
                version = version_of(headers.get("etag"))
                self.battle.sent[self.index].append((version, first))
                ammo_recorded(self.info, body)
                if version - version_of(self.etag) > len(json.loads(raw)["events"]):
                    # Rebased on the other phone's newer events (accepted without a 412): this phone has not seen
                    # those yet. The pending long poll brings them (the version moved); a polling phone reads now.
                    self.stats["rebased"] += 1
                    if SYNC != "long":
                        await self.poll()
                else:
                    self.etag = headers.get("etag")
                return
            if status == 412:
                self.stats["stale"].append((done - t) * 1000)
                version = json.loads(raw)["version"]
                self.etag = f'"v{version}"'
                self.holds(version)  # the 412 carries the current state
                continue
            self.stats["errors"].append(f"post {status} {raw[:120]!r}")
            return
