"""Army building for «Бронепехота»: roster costing and validation (spec §2.1–§2.2, §5 A1, A2, A27, A30).

Pure Python. `cost_roster(roster)` takes the roster dict of rules/systems/base.py:
    {"faction", "points_limit", "opponent_total"?, "entries": [{"key", "profile", "count", "loadout", "pilot"}]}
with each profile as stored in the pack ({"slug","name","faction","kind","cost","data"}), and answers a
RosterReport: total, cost per entry and the issues, each naming the entry it concerns (None: whole roster).

Entry fields of this system:
- loadout (vehicles): {"variant": variant key (vehicles with variants; default the first),
                       "weapons": [arsenal weapon keys] (absent: every weapon the variant allows)};
- pilot (vehicles): a list with one soldier per vehicle copy, [{"entry": squad entry key, "soldier": num,
                    "copy": 1-based copy of that squad entry (default 1)}]. A single dict is read as a list of one.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from rules.contract import ArmyPart, Issue, RosterReport
from rules.systems.bronepekhota.profile import PROFILE_SCHEMA

SIDES = ("protectorate", "polaris")  # blue and red never share an army; green joins either (p.3)
SHARED = "green"
SQUAD_SIZE = 6  # p.5 «по шесть воинов в каждом»
BALANCE_INFO = 0.10  # §5 A2: info above 10 %, warning above 20 %, relative to the larger army
BALANCE_WARNING = 0.20

FACTION_NAMES = {"protectorate": "Protectorate (blue)", "polaris": "Polaris (red)", "green": "green (shared)"}


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def pilot_refs(pilot) -> list:
    """The stored pilot value as a list of soldier references (None and {} are no pilot; a dict is one)."""
    if not pilot:
        return []
    if isinstance(pilot, dict):
        return [pilot]
    if isinstance(pilot, list):
        return pilot
    return [pilot]


def vehicle_variant(data: dict, loadout: dict) -> dict | None:
    variants = data.get("variants") or []
    if not variants:
        return None
    wanted = loadout.get("variant")
    if wanted is None:
        return variants[0]
    return next((v for v in variants if v.get("key") == wanted), None)


def allowed_weapons(data: dict, variant: dict | None) -> list[str]:
    arsenal = [w["key"] for w in data.get("arsenal") or []]
    if variant is not None and "weapons" in variant:
        return [k for k in arsenal if k in set(variant["weapons"])]
    return arsenal


def fitted_weapons(data: dict, loadout: dict) -> list[str]:
    """The weapon keys a vehicle fights with: the chosen ones, or everything its variant allows (up to mounts)."""
    loadout = loadout if isinstance(loadout, dict) else {}
    if isinstance(loadout.get("weapons"), list):
        return list(loadout["weapons"])
    allowed = allowed_weapons(data, vehicle_variant(data, loadout))
    mounts = data.get("mounts")
    return allowed[:mounts] if mounts else allowed


def default_loadout(profile: dict) -> dict:
    """A new entry's loadout: the first variant (if any) and every weapon it allows, up to the mount limit."""
    if profile.get("kind") != "vehicle":
        return {}
    data = profile.get("data") or {}
    loadout: dict = {}
    variant = vehicle_variant(data, {})
    if variant is not None:
        loadout["variant"] = variant["key"]
    loadout["weapons"] = fitted_weapons(data, loadout)
    return loadout


def soldier_pool(entries: Iterable[dict]) -> dict[tuple[str, int, int], int]:
    """Every soldier of every squad copy: (entry key, copy, soldier num) -> rank."""
    pool = {}
    for e in entries:
        if e["profile"].get("kind") != "squad":
            continue
        soldiers = (e["profile"].get("data") or {}).get("soldiers") or []
        for copy in range(1, _count(e) + 1):
            for s in soldiers:
                pool[(e["key"], copy, s["num"])] = s["rank"]
    return pool


def _count(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def _check_factions(roster: dict, entries: list[dict], issues: list) -> None:
    army = roster.get("faction")
    if army in SIDES:
        for e in entries:
            faction = e["profile"].get("faction")
            if faction in SIDES and faction != army:
                _issue(
                    issues,
                    "error",
                    "hostile_faction",
                    f"{e['profile'].get('name')} is a {FACTION_NAMES[faction]} Armlist and cannot join a "
                    f"{FACTION_NAMES[army]} army; only its own colour and green may (p.3).",
                    e["key"],
                )
        return
    # No side chosen (or a green-only army): the first side seen sets it; the other side is hostile.
    first = None
    for e in entries:
        faction = e["profile"].get("faction")
        if faction not in SIDES:
            continue
        if first is None:
            first = faction
        elif faction != first:
            _issue(
                issues,
                "error",
                "hostile_faction",
                f"Blue and red Armlists cannot be in one army: {e['profile'].get('name')} is "
                f"{FACTION_NAMES[faction]}, the army already has {FACTION_NAMES[first]} units (p.3).",
                e["key"],
            )


def _check_loadout(e: dict, data: dict, issues: list) -> None:
    loadout = e.get("loadout") or {}
    if not isinstance(loadout, dict):
        _issue(issues, "error", "bad_loadout", "The loadout is not readable; choose the weapons again.", e["key"])
        return
    name = e["profile"].get("name")
    variants = data.get("variants") or []
    variant = vehicle_variant(data, loadout)
    if variants and variant is None:
        options = ", ".join(v["name"] for v in variants)
        _issue(
            issues,
            "error",
            "unknown_variant",
            f"{name} has no variant {loadout.get('variant')!r}; choose one of: {options}.",
            e["key"],
        )
        return
    weapons = loadout.get("weapons")
    if weapons is None:
        return
    if not isinstance(weapons, list) or not all(isinstance(w, str) for w in weapons):
        _issue(issues, "error", "bad_loadout", f"The weapons of {name} must be a list of weapon keys.", e["key"])
        return
    arsenal = {w["key"]: w.get("name", w["key"]) for w in data.get("arsenal") or []}
    allowed = set(allowed_weapons(data, variant))
    seen = set()
    for key in weapons:
        if key in seen:
            _issue(issues, "error", "weapon_twice", f"{arsenal.get(key, key)} is fitted twice to {name}.", e["key"])
        seen.add(key)
        if key not in arsenal:
            _issue(
                issues,
                "error",
                "not_in_arsenal",
                f"{key!r} is not in the arsenal of {name}; a vehicle may only fit weapons from its Armlist (p.7).",
                e["key"],
            )
        elif key not in allowed:
            _issue(
                issues,
                "error",
                "not_in_variant",
                f"{arsenal[key]} cannot be fitted to {name} as {variant['name']}.",
                e["key"],
            )
    mounts = data.get("mounts")
    if mounts and len(weapons) > mounts:
        _issue(
            issues,
            "error",
            "too_many_weapons",
            f"{name} can mount {mounts} weapon(s) at once; {len(weapons)} are chosen.",
            e["key"],
        )
    if not weapons and not (variant or {}).get("repair_platform"):
        _issue(issues, "warning", "no_weapons", f"{name} has no weapon fitted and cannot shoot.", e["key"])


def _check_pilots(e: dict, data: dict, pool: dict, kinds: dict, used: dict, issues: list) -> None:
    key, name, rank, count = e["key"], e["profile"].get("name"), data.get("rank", 0), _count(e)
    refs = pilot_refs(e.get("pilot"))
    if len(refs) > count:
        _issue(
            issues,
            "error",
            "too_many_pilots",
            f"{name} has {len(refs)} pilots for {count} vehicle(s); each vehicle takes one pilot.",
            key,
        )
    for ref in refs:
        if (
            not isinstance(ref, dict)
            or not isinstance(ref.get("entry"), str)
            or not isinstance(ref.get("soldier"), int)
        ):
            _issue(issues, "error", "pilot_unknown", f"A pilot of {name} is not a soldier of this roster.", key)
            continue
        copy = ref.get("copy", 1)
        soldier = (ref["entry"], copy, ref["soldier"])
        if kinds.get(ref["entry"]) not in (None, "squad"):
            _issue(issues, "error", "pilot_not_infantry", f"The pilot of {name} must be an infantryman.", key)
            continue
        if soldier not in pool:
            _issue(
                issues,
                "error",
                "pilot_unknown",
                f"The pilot of {name} (soldier {ref['soldier']} of {ref['entry']}) is not in this roster.",
                key,
            )
            continue
        if pool[soldier] < rank:
            _issue(
                issues,
                "error",
                "pilot_rank",
                f"{name} needs a pilot of rank {rank} or higher; soldier {ref['soldier']} has rank {pool[soldier]} "
                f"(p.7).",
                key,
            )
        if soldier in used:
            _issue(
                issues,
                "error",
                "pilot_twice",
                f"Soldier {ref['soldier']} of {ref['entry']} already pilots {used[soldier]}; one soldier drives one "
                f"vehicle.",
                key,
            )
        else:
            used[soldier] = name
    if len(refs) < count:
        missing = count - len(refs)
        what = "a pilot" if missing == 1 else f"{missing} more pilots"
        _issue(
            issues,
            "error",
            "no_pilot",
            f"{name} needs {what}: choose an infantryman of rank {rank} or higher (every vehicle needs one, p.4).",
            key,
        )


def _check_hall(vehicle_ranks: list[int], soldier_ranks: list[int], issues: list) -> None:
    """Hall's condition for nested thresholds: for every rank r, vehicles needing >= r <= soldiers of rank >= r."""
    if not vehicle_ranks:
        return
    soldiers = sorted(soldier_ranks)
    vehicles = sorted(vehicle_ranks)
    for r in sorted(set(vehicles), reverse=True):
        need = len(vehicles) - bisect_left(vehicles, r)
        have = len(soldiers) - bisect_left(soldiers, r)
        if need > have:
            _issue(
                issues,
                "error",
                "not_enough_pilots",
                f"{need} vehicle(s) need a pilot of rank {r} or higher but the army has only {have} such "
                f"soldier(s); add infantry of rank {r}+ or drop a vehicle.",
            )
            return


def cost_roster(roster: dict) -> RosterReport:
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    issues: list[Issue] = []
    entry_costs: dict[str, int] = {}
    total = 0
    for e in entries:
        count = _count(e)
        if count == 0:
            _issue(issues, "error", "bad_count", "The count must be a whole number of 1 or more.", e["key"])
        cost = int(e["profile"].get("cost") or 0) * count
        entry_costs[e["key"]] = cost
        total += cost

    _check_factions(roster, entries, issues)
    pool = soldier_pool(entries)
    kinds = {e["key"]: e["profile"].get("kind") for e in entries}
    used: dict[tuple, str] = {}
    vehicle_ranks: list[int] = []
    best_soldier = max(pool.values(), default=None)
    for e in entries:
        kind, data = e["profile"].get("kind"), e["profile"].get("data") or {}
        if kind == "squad":
            size = len(data.get("soldiers") or [])
            if size != SQUAD_SIZE:
                _issue(
                    issues,
                    "warning",
                    "squad_size",
                    f"{e['profile'].get('name')} has {size} soldiers; the rules say a squad has {SQUAD_SIZE} (p.5).",
                    e["key"],
                )
        elif kind == "vehicle":
            vehicle_ranks += [data.get("rank", 0)] * _count(e)
            _check_loadout(e, data, issues)
            _check_pilots(e, data, pool, kinds, used, issues)
        elif kind == "gun":
            if best_soldier is None or best_soldier < data.get("rank", 0):
                _issue(
                    issues,
                    "warning",
                    "no_gun_crew",
                    f"No soldier in this army has rank {data.get('rank', 0)} or higher, so nobody can fire "
                    f"{e['profile'].get('name')} (p.9).",
                    e["key"],
                )
        else:
            _issue(issues, "error", "unknown_kind", f"Unknown kind of Armlist: {kind!r}.", e["key"])
    _check_hall(vehicle_ranks, list(pool.values()), issues)

    limit = roster.get("points_limit")
    if limit and total > limit:
        _issue(issues, "error", "over_limit", f"The army costs {total}, over its limit of {limit} by {total - limit}.")
    opponent = roster.get("opponent_total")
    if opponent is not None:
        larger = max(total, opponent)
        if larger > 0:
            share = abs(total - opponent) / larger
            text = f"This army costs {total}, the opponent's {opponent}: {share:.0%} apart"
            if share > BALANCE_WARNING:
                _issue(issues, "warning", "balance", f"{text}; the rules advise at most 10–20 % (p.3).")
            elif share > BALANCE_INFO:
                _issue(issues, "info", "balance", f"{text}; the rules advise at most 10–20 % (p.3).")
    return RosterReport(total=total, entry_costs=entry_costs, issues=issues)


def upgrade_changes(entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
    """What moving one entry to a newer pack version changes: readable lines and the entry's new loadout
    (None when the profile is gone). Weapons that left the arsenal are dropped from the loadout."""
    old = entry["profile"]
    name = old.get("name")
    if new_profile is None:
        return [f"{name} is no longer in the pack and will be removed."], None
    lines = []
    count = _count(entry) or 1
    if new_profile.get("cost") != old.get("cost"):
        lines.append(f"{name}: cost {old.get('cost')} → {new_profile.get('cost')} (×{count}).")
    if new_profile.get("kind") != old.get("kind"):
        lines.append(f"{name}: now a {new_profile.get('kind')} instead of a {old.get('kind')}.")
    loadout = dict(entry.get("loadout") or {})
    if new_profile.get("kind") == "vehicle":
        data = new_profile.get("data") or {}
        arsenal = {w["key"]: w.get("name", w["key"]) for w in data.get("arsenal") or []}
        old_names = {w["key"]: w.get("name", w["key"]) for w in (old.get("data") or {}).get("arsenal") or []}
        if isinstance(loadout.get("weapons"), list):
            kept = [k for k in loadout["weapons"] if k in arsenal]
            for k in loadout["weapons"]:
                if k not in arsenal:
                    lines.append(f"{name}: weapon {old_names.get(k, k)} was removed from the arsenal and is dropped.")
            loadout["weapons"] = kept
        variants = {v["key"]: v for v in data.get("variants") or []}
        if loadout.get("variant") and loadout["variant"] not in variants:
            lines.append(f"{name}: variant {loadout['variant']!r} was removed; the default is used.")
            loadout.pop("variant")
        if (old.get("data") or {}).get("rank") != data.get("rank"):
            lines.append(f"{name}: pilot rank {(old.get('data') or {}).get('rank')} → {data.get('rank')}.")
    elif old.get("data") != new_profile.get("data"):
        lines.append(f"{name}: profile values changed.")
    if new_profile.get("name") != name:
        lines.append(f"{name} is now called {new_profile.get('name')}.")
    return lines, loadout


class BronepekhotaArmy(ArmyPart):
    """Armlists of squads, vehicles and guns, priced in the book's points (p.3)."""

    pricing = "points"
    currency = "pts"
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"squad": "Отряд", "vehicle": "Техника", "gun": "Орудие"}

    def default_options(self, profile: dict) -> dict:
        return default_loadout(profile)

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)

    def upgrade_changes(self, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
        return upgrade_changes(entry, new_profile)


ARMY = BronepekhotaArmy()
