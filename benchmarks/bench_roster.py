"""Costing and validating a 100-entry «Бронепехота» roster (goal: under 10 ms).

Run: make bench ARGS=benchmarks/bench_roster.py
Reports, from one run: the time of army.cost_roster on 100 entries and per entry, its scaling from 10 to 100
entries, the ratio of the pilot check by Hall's condition against a naive explicit bipartite matching, the time of
the entry views the builder draws (army.entry_views), and the time and query count of the whole database read
(armies.selectors.roster_state) for the same roster.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from rules.systems.bronepekhota import army  # noqa: E402

PACK = json.loads((ROOT / "rules/systems/bronepekhota/data/tehnolog-classic.json").read_text(encoding="utf-8"))
P = {p["slug"]: p for p in PACK["profiles"]}
SQUADS = ["protectorate_kiberspetsnaz", "protectorate_spetsnaz_planety_felitsiya", "aborigeny"]
VEHICLES = ["griffin", "viper", "bronekhod", "varan", "hurricane"]
GUNS = ["minomet", "sparennaya_pushka"]


def roster_100() -> dict:
    """50 squads, 40 vehicles (each with a pilot), 10 guns; some deliberate problems to report."""
    entries, squad_keys = [], []
    for i in range(50):
        key = f"s{i}"
        squad_keys.append(key)
        entries.append({"key": key, "profile": P[SQUADS[i % 3]], "count": 1, "options": {}})
    for i in range(40):
        profile = P[VEHICLES[i % 5]]
        options = {**army.ARMY.default_options(profile), "pilot": [{"entry": squad_keys[i], "soldier": 1 + i % 6}]}
        entries.append({"key": f"v{i}", "profile": profile, "count": 1, "options": options})
    for i in range(10):
        entries.append({"key": f"g{i}", "profile": P[GUNS[i % 2]], "count": 1, "options": {}})
    return {"faction": "protectorate", "points_limit": 5000, "opponent_total": 4800, "entries": entries}


def pilot_pools(roster: dict) -> tuple[list[int], list[int]]:
    soldiers, vehicles = [], []
    for e in roster["entries"]:
        if e["profile"]["kind"] == "squad":
            soldiers += [s["rank"] for s in e["profile"]["data"]["soldiers"]] * e["count"]
        elif e["profile"]["kind"] == "vehicle":
            vehicles += [e["profile"]["data"]["rank"]] * e["count"]
    return vehicles, soldiers


def naive_enough_pilots(pools) -> bool:
    """Can every vehicle get its own qualified soldier? Explicit bipartite matching (Kuhn's augmenting paths)."""
    vehicles, soldiers = pools
    match = [-1] * len(soldiers)

    def augment(v, seen):
        for s, rank in enumerate(soldiers):
            if rank >= vehicles[v] and not seen[s]:
                seen[s] = True
                if match[s] == -1 or augment(match[s], seen):
                    match[s] = v
                    return True
        return False

    return all(augment(v, [False] * len(soldiers)) for v in range(len(vehicles)))


def hall_enough_pilots(pools) -> bool:
    """What army.py does: Hall's condition on nested rank thresholds (sort + count)."""
    issues = []
    army._check_hall(pools[0], pools[1], issues)
    return not issues


def best_of(fn, arg, *, repeat=7, number=50) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn(arg)
        times.append((time.perf_counter() - start) / number)
    return min(times), statistics.median(times)


def bench_database(roster_dict: dict) -> tuple[float, int] | None:
    """roster_state() from the database for the same 100 entries (needs the env of scripts/test.sh)."""
    if not os.environ.get("DATABASE_URL"):
        return None
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from armies import selectors, services
    from armies.models import RosterEntry

    class Rollback(Exception):
        pass

    result = None
    try:
        with transaction.atomic():
            (pack, _), *_ = services.load_packs()
            user = get_user_model().objects.create_user(username="bench-roster-user", password=None)
            roster = services.roster_create(owner=user, pack=pack, name="Bench", faction="protectorate")
            profiles = {p.slug: p for p in pack.profiles.all()}
            RosterEntry.objects.bulk_create(
                RosterEntry(
                    roster=roster,
                    key=e["key"],
                    profile=profiles[e["profile"]["slug"]],
                    count=e["count"],
                    options=e["options"],
                    position=i,
                )
                for i, e in enumerate(roster_dict["entries"])
            )
            selectors.roster_state(roster)
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                state = selectors.roster_state(roster)
                elapsed = time.perf_counter() - start
            assert len(state["entries"]) == 100
            result = (elapsed, len(ctx.captured_queries))
            raise Rollback
    except Rollback:
        pass
    return result


def main() -> None:
    roster = roster_100()
    small = {**roster, "entries": roster["entries"][:5] + roster["entries"][50:54] + roster["entries"][90:91]}
    report = army.cost_roster(roster)
    assert len(roster["entries"]) == 100
    assert len(small["entries"]) == 10
    fast, fast_median = best_of(army.cost_roster, roster)
    ten, _ = best_of(army.cost_roster, small)
    pools = pilot_pools(roster)
    assert naive_enough_pilots(pools) == hall_enough_pilots(pools)
    hall, _ = best_of(hall_enough_pilots, pools)
    naive, _ = best_of(naive_enough_pilots, pools, number=10)
    print(f"entries: {len(roster['entries'])}, total {report.total}, issues {len(report.issues)}")
    print(
        f"army.cost_roster, 100 entries: {fast * 1000:.3f} ms best, {fast_median * 1000:.3f} ms median (goal < 10 ms)"
    )
    print(f"per entry: {fast / 100 * 1e6:.1f} µs; 100 vs 10 entries: {fast / ten:.1f}x the time (linear would be 10x)")
    print(
        f"pilot check, {len(pools[0])} vehicles / {len(pools[1])} soldiers: Hall's condition {hall * 1e6:.0f} µs, "
        f"explicit matching {naive * 1e6:.0f} µs; ratio {naive / hall:.0f}x"
    )
    views, _ = best_of(army.ARMY.entry_views, roster, repeat=3, number=5)
    print(f"army.entry_views (what the builder draws, pilot choices included), 100 entries: {views * 1000:.1f} ms")
    db = bench_database(roster)
    if db is not None:
        elapsed, queries = db
        print(f"roster_state from the database, 100 entries: {elapsed * 1000:.1f} ms, {queries} SQL queries")
    print("PASS" if fast < 0.010 else "FAIL: over 10 ms")


if __name__ == "__main__":
    main()
