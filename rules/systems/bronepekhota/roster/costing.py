"""Roster costing and validation of «Бронепехота» (spec §2.1–§2.2, §5 A1, A2, A27, A30): factions, loadouts,
pilots (Hall's condition on ranks), the points balance, and moving an entry to a newer pack version."""

from __future__ import annotations

from bisect import bisect_left

from rules.contract import Issue, RosterReport
from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.bronepekhota.roster.options import (
    FACTION_NAMES,
    SIDES,
    SQUAD_SIZE,
    _count,
    _issue,
    allowed_weapons,
    entry_loadout,
    entry_pilot,
    options_from_columns,
    pilot_refs,
    soldier_pool,
    vehicle_variant,
)
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY


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
                    _(
                        "{name} is a {value} Armlist and cannot join a {value2} army; only its own colour and green may (p.3)."
                    ).format(
                        name=e["profile"].get("name"), value=_(FACTION_NAMES[faction]), value2=_(FACTION_NAMES[army])
                    ),
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
                _(
                    "Blue and red Armlists cannot be in one army: {name} is {value}, the army already has {value2} units (p.3)."
                ).format(
                    name=e["profile"].get("name"), value=_(FACTION_NAMES[faction]), value2=_(FACTION_NAMES[first])
                ),
                e["key"],
            )


def _check_loadout(e: dict, data: dict, issues: list) -> None:
    loadout = entry_loadout(e)
    if not isinstance(loadout, dict):
        _issue(issues, "error", "bad_loadout", _("The loadout is not readable; choose the weapons again."), e["key"])
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
            _("{name} has no variant {variant!r}; choose one of: {options}.").format(
                name=name, variant=loadout.get("variant"), options=options
            ),
            e["key"],
        )
        return
    weapons = loadout.get("weapons")
    if weapons is None:
        return
    if not isinstance(weapons, list) or not all(isinstance(w, str) for w in weapons):
        _issue(
            issues,
            "error",
            "bad_loadout",
            _("The weapons of {name} must be a list of weapon keys.").format(name=name),
            e["key"],
        )
        return
    arsenal = {w["key"]: w.get("name", w["key"]) for w in data.get("arsenal") or []}
    allowed = set(allowed_weapons(data, variant))
    seen = set()
    for key in weapons:
        if key in seen:
            _issue(
                issues,
                "error",
                "weapon_twice",
                _("{get} is fitted twice to {name}.").format(get=arsenal.get(key, key), name=name),
                e["key"],
            )
        seen.add(key)
        if key not in arsenal:
            _issue(
                issues,
                "error",
                "not_in_arsenal",
                _(
                    "{key!r} is not in the arsenal of {name}; a vehicle may only fit weapons from its Armlist (p.7)."
                ).format(key=key, name=name),
                e["key"],
            )
        elif key not in allowed:
            _issue(
                issues,
                "error",
                "not_in_variant",
                _("{value} cannot be fitted to {name} as {name2}.").format(
                    value=arsenal[key], name=name, name2=variant["name"]
                ),
                e["key"],
            )
    mounts = data.get("mounts")
    if mounts and len(weapons) > mounts:
        _issue(
            issues,
            "error",
            "too_many_weapons",
            _("{name} can mount {mounts} weapon(s) at once; {value} are chosen.").format(
                name=name, mounts=mounts, value=len(weapons)
            ),
            e["key"],
        )
    if not weapons and not (variant or {}).get("repair_platform"):
        _issue(
            issues,
            "warning",
            "no_weapons",
            _("{name} has no weapon fitted and cannot shoot.").format(name=name),
            e["key"],
        )


def _check_pilots(e: dict, data: dict, pool: dict, kinds: dict, used: dict, issues: list) -> None:
    key, name, rank, count = e["key"], e["profile"].get("name"), data.get("rank", 0), _count(e)
    refs = pilot_refs(entry_pilot(e))
    if len(refs) > count:
        _issue(
            issues,
            "error",
            "too_many_pilots",
            _("{name} has {value} pilots for {count} vehicle(s); each vehicle takes one pilot.").format(
                name=name, value=len(refs), count=count
            ),
            key,
        )
    for ref in refs:
        if (
            not isinstance(ref, dict)
            or not isinstance(ref.get("entry"), str)
            or not isinstance(ref.get("soldier"), int)
        ):
            _issue(
                issues,
                "error",
                "pilot_unknown",
                _("A pilot of {name} is not a soldier of this roster.").format(name=name),
                key,
            )
            continue
        copy = ref.get("copy", 1)
        soldier = (ref["entry"], copy, ref["soldier"])
        if kinds.get(ref["entry"]) not in (None, "squad"):
            _issue(
                issues,
                "error",
                "pilot_not_infantry",
                _("The pilot of {name} must be an infantryman.").format(name=name),
                key,
            )
            continue
        if soldier not in pool:
            _issue(
                issues,
                "error",
                "pilot_unknown",
                _("The pilot of {name} (soldier {soldier} of {entry}) is not in this roster.").format(
                    name=name, soldier=ref["soldier"], entry=ref["entry"]
                ),
                key,
            )
            continue
        if pool[soldier] < rank:
            _issue(
                issues,
                "error",
                "pilot_rank",
                _("{name} needs a pilot of rank {rank} or higher; soldier {soldier} has rank {value} (p.7).").format(
                    name=name, rank=rank, soldier=ref["soldier"], value=pool[soldier]
                ),
                key,
            )
        if soldier in used:
            _issue(
                issues,
                "error",
                "pilot_twice",
                _("Soldier {soldier} of {entry} already pilots {value}; one soldier drives one vehicle.").format(
                    soldier=ref["soldier"], entry=ref["entry"], value=used[soldier]
                ),
                key,
            )
        else:
            used[soldier] = name
    if len(refs) < count:
        missing = count - len(refs)
        what = _("a pilot") if missing == 1 else _("{missing} more pilots").format(missing=missing)
        _issue(
            issues,
            "error",
            "no_pilot",
            _(
                "{name} needs {what}: choose an infantryman of rank {rank} or higher (every vehicle needs one, p.4)."
            ).format(name=name, what=what, rank=rank),
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
                _(
                    "{need} vehicle(s) need a pilot of rank {r} or higher but the army has only {have} such soldier(s); add infantry of rank {r}+ or drop a vehicle."
                ).format(need=need, r=r, have=have),
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
            _issue(issues, "error", "bad_count", _("The count must be a whole number of 1 or more."), e["key"])
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
            if not 1 <= size <= SQUAD_SIZE:  # fewer is a printed card (see SQUAD_SIZE); more or none is not
                _issue(
                    issues,
                    "warning",
                    "squad_size",
                    _("{name} has {size} soldiers; the rules say a squad has {SQUAD_SIZE} (p.5).").format(
                        name=e["profile"].get("name"), size=size, SQUAD_SIZE=SQUAD_SIZE
                    ),
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
                    _("No soldier in this army has rank {rank} or higher, so nobody can fire {name} (p.9).").format(
                        rank=data.get("rank", 0), name=e["profile"].get("name")
                    ),
                    e["key"],
                )
        else:
            _issue(issues, "error", "unknown_kind", _("Unknown kind of Armlist: {kind!r}.").format(kind=kind), e["key"])
    _check_hall(vehicle_ranks, list(pool.values()), issues)

    limit = roster.get("points_limit")
    if limit and total > limit:
        _issue(
            issues,
            "error",
            "over_limit",
            _("The army costs {total}, over its limit of {limit} by {value}.").format(
                total=total, limit=limit, value=total - limit
            ),
        )
    opponent = roster.get("opponent_total")
    if opponent is not None:
        larger = max(total, opponent)
        if larger > 0:
            share = abs(total - opponent) / larger
            info, warning = _balance_thresholds(roster.get("settings"))
            text = _("This army costs {total}, the opponent's {opponent}: {share:.0%} apart").format(
                total=total, opponent=opponent, share=share
            )
            advice = _("{text}; the rules advise at most {info}–{warning} % (p.3).")
            level = "warning" if share * 100 > warning else "info" if share * 100 > info else None
            if level:
                _issue(issues, level, "balance", advice.format(text=text, info=info, warning=warning))
    return RosterReport(total=total, entry_costs=entry_costs, issues=issues)


def _balance_thresholds(settings: dict | None) -> tuple[int, int]:
    """§5 A2 (p.3): the same named settings as the balance jobs' verdict (balance_info_percent and
    balance_warning_percent, book default 10 and 20); a roster may carry settings, else the book's values."""
    settings = settings if isinstance(settings, dict) else {}
    values = []
    for key in ("balance_info_percent", "balance_warning_percent"):
        setting = SETTINGS_BY_KEY[key]
        try:
            values.append(setting.check(settings.get(key, setting.default)))
        except RuleInputError:  # a junk value in a stored roster falls back to the book
            values.append(setting.default)
    return values[0], values[1]


def upgrade_changes(entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
    """What moving one entry to a newer pack version changes: readable lines and the entry's new options
    (None when the profile is gone). Weapons that left the arsenal are dropped; the pilot stays."""
    old = entry["profile"]
    name = old.get("name")
    if new_profile is None:
        return [f"{name} is no longer in the pack and will be removed."], None
    lines = []
    count = _count(entry) or 1
    if new_profile.get("cost") != old.get("cost"):
        lines.append(
            _("{name}: cost {cost} → {cost2} (×{count}).").format(
                name=name, cost=old.get("cost"), cost2=new_profile.get("cost"), count=count
            )
        )
    if new_profile.get("kind") != old.get("kind"):
        lines.append(
            _("{name}: now a {kind} instead of a {kind2}.").format(
                name=name, kind=new_profile.get("kind"), kind2=old.get("kind")
            )
        )
    options = options_from_columns(entry_loadout(entry), entry_pilot(entry))
    if new_profile.get("kind") == "vehicle":
        data = new_profile.get("data") or {}
        arsenal = {w["key"]: w.get("name", w["key"]) for w in data.get("arsenal") or []}
        old_names = {w["key"]: w.get("name", w["key"]) for w in (old.get("data") or {}).get("arsenal") or []}
        if isinstance(options.get("weapons"), list):
            kept = [k for k in options["weapons"] if k in arsenal]
            for k in options["weapons"]:
                if k not in arsenal:
                    lines.append(
                        _("{name}: weapon {get} was removed from the arsenal and is dropped.").format(
                            name=name, get=old_names.get(k, k)
                        )
                    )
            options["weapons"] = kept
        variants = {v["key"]: v for v in data.get("variants") or []}
        if options.get("variant") and options["variant"] not in variants:
            lines.append(
                _("{name}: variant {variant!r} was removed; the default is used.").format(
                    name=name, variant=options["variant"]
                )
            )
            options.pop("variant")
        if (old.get("data") or {}).get("rank") != data.get("rank"):
            lines.append(
                _("{name}: pilot rank {rank} → {rank2}.").format(
                    name=name, rank=(old.get("data") or {}).get("rank"), rank2=data.get("rank")
                )
            )
    elif old.get("data") != new_profile.get("data"):
        lines.append(_("{name}: profile values changed.").format(name=name))
    if new_profile.get("name") != name:
        lines.append(_("{name} is now called {name2}.").format(name=name, name2=new_profile.get("name")))
    return lines, options
