"""Army building for «Бронепехота»: roster costing and validation (spec §2.1–§2.2, §5 A1, A2, A27, A30), entry
options, and how entries read on the builder's pages.

Pure Python. `cost_roster(roster)` takes the roster dict of rules/contract/army.py:
    {"faction", "points_limit", "opponent_total"?, "entries": [{"key", "profile", "count", "options"}]}
with each profile as stored in the pack ({"slug","name","faction","kind","cost","data"}), and answers a
RosterReport: total, cost per entry and the issues, each naming the entry it concerns (None: whole roster).

An entry's options (vehicles only; squads and guns have none):
    {"variant": variant key (vehicles with variants; default the first),
     "weapons": [arsenal weapon keys] (absent: every weapon the variant allows, up to the mounts),
     "pilot": one soldier per vehicle copy, [{"entry": squad entry key, "soldier": num, "copy": 1-based copy of
              that squad entry (default 1)}]}
Older snapshots (battles, balance jobs) hold `loadout` ({"variant", "weapons"}) and `pilot` beside each other
instead; entry_loadout() and entry_pilot() read both shapes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from rules.contract import ArmyPart, Issue, RosterReport
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.bronepekhota import profile as profiles
from rules.systems.bronepekhota.profile import PROFILE_EDITOR, PROFILE_SCHEMA
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY

SIDES = ("protectorate", "polaris")  # blue and red never share an army; green joins either (p.3)
SHARED = "green"
# p.5 «по шесть воинов в каждом»; yet the squad's Armlist lists "each infantryman of the squad" (p.6), and two
# printed Armlists have four: «Тяжёлая штурмовая пехота Велиана» and «Спецназ планеты Шиду» (four rows, miniatures
# 1–4, in /work/shared/reference/bronepekhota-tehnolog). The card wins: a squad of 1 to 6 is accepted as printed.
SQUAD_SIZE = 6

FACTION_NAMES = {
    "protectorate": N_("Protectorate (blue)"),
    "polaris": N_("Polaris (red)"),
    "green": N_("green (shared)"),
}


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def entry_loadout(entry: dict) -> dict:
    """An entry's vehicle fit ({"variant"?, "weapons"?}): from `options`, or from an older snapshot's `loadout`."""
    options = entry.get("options")
    if isinstance(options, dict):
        return {k: v for k, v in options.items() if k != "pilot"}
    if options is not None:
        return options  # unreadable: reported by cost_roster as bad_loadout
    return entry.get("loadout") or {}


def entry_pilot(entry: dict):
    """An entry's pilot references as stored: from `options`, or from an older snapshot's `pilot`."""
    options = entry.get("options")
    if isinstance(options, dict):
        return options.get("pilot")
    return entry.get("pilot")


def options_from_columns(loadout, pilot) -> dict:
    """The options of an entry stored (or exported) before options existed: the loadout, plus the pilot if any."""
    options = dict(loadout) if isinstance(loadout, dict) else {}
    refs = pilot_refs(pilot)
    if refs:
        options["pilot"] = refs
    return options


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


# Entry options ------------------------------------------------------------------------------------------------
def _without_pilots_from(options: dict, removed: set[str]) -> dict:
    kept = [p for p in pilot_refs(options.get("pilot")) if not (isinstance(p, dict) and p.get("entry") in removed)]
    return {**{k: v for k, v in options.items() if k != "pilot"}, **({"pilot": kept} if kept else {})}


# How entries read on the builder's pages (rules/contract/army.py ENTRY_VIEW_DOC) ----------------------------------
def _pilot_label(ref: dict, names: dict) -> str:
    copy = f" #{ref['copy']}" if ref.get("copy", 1) != 1 else ""
    return _("soldier {soldier} of {get}{copy}").format(
        soldier=ref.get("soldier"), get=names.get(ref.get("entry"), "?"), copy=copy
    )


def _weapon_items(e: dict) -> list[dict]:
    """Every weapon of a vehicle or a gun: fitted or not, allowed by the chosen variant or not."""
    data = e["profile"].get("data") or {}
    weapons = profiles.profile_weapons(data)
    fitted = allowed = {w["key"] for w in weapons}
    if e["profile"].get("kind") == "vehicle":
        loadout = entry_loadout(e) if isinstance(entry_loadout(e), dict) else {}
        fitted = set(fitted_weapons(data, loadout))
        allowed = set(allowed_weapons(data, vehicle_variant(data, loadout)))
    return [
        {
            "value": w["key"],
            "label": w["name"],
            "note": profiles.weapon_stat(w),
            "title": (w.get("special") or {}).get("text", ""),
            "checked": w["key"] in fitted,
            "disabled": w["key"] not in allowed and w["key"] not in fitted,
            "muted": w["key"] not in allowed,
        }
        for w in weapons
    ]


def _pilot_slots(e: dict, squads: list[dict], driving: dict, names: dict) -> list[dict]:
    """One pilot slot per vehicle copy, offering every soldier; one below the vehicle's rank, or driving another
    vehicle, is offered but disabled."""
    rank = (e["profile"].get("data") or {}).get("rank", 0)
    refs = [r for r in pilot_refs(entry_pilot(e)) if isinstance(r, dict)]
    slots = []
    for i in range(max(_count(e), len(refs))):
        ref = refs[i] if i < len(refs) else None
        current = (ref.get("entry"), ref.get("copy", 1), ref.get("soldier")) if ref else None
        choices = []
        for squad in squads:
            for copy in range(1, _count(squad) + 1):
                for s in (squad["profile"].get("data") or {}).get("soldiers") or []:
                    here = (squad["key"], copy, s["num"])
                    busy = driving.get(here)
                    label = f"{squad['profile']['name']}{f' #{copy}' if _count(squad) > 1 else ''} · №{s['num']}"
                    label += _(" · rank {rank}").format(rank=s["rank"])
                    if busy and here != current:
                        label += _(" (drives {get})").format(get=names.get(busy, "?"))
                    choices.append(
                        {
                            "value": {"entry": squad["key"], "soldier": s["num"], "copy": copy},
                            "label": label,
                            "selected": here == current,
                            "disabled": here != current and (s["rank"] < rank or bool(busy)),
                        }
                    )
        slots.append({"choices": choices})
    return slots


def _machine_view(e: dict, squads: list[dict], driving: dict, names: dict) -> dict:
    profile, data = e["profile"], e["profile"].get("data") or {}
    items = _weapon_items(e)
    fitted = [w for w in items if w["checked"]]
    card = [{"type": "text", "text": profiles.card_line(profile)}, {"type": "list", "items": fitted}]
    view = {"blocks": [{"type": "text", "text": profiles.stats_line(profile)}], "card": card, "lines": []}
    view["summary"] = ", ".join(w["label"] for w in fitted)
    if profile.get("kind") == "gun":
        view["blocks"].append({"type": "list", "items": [{**w, "title": ""} for w in items]})
        return view
    loadout = entry_loadout(e) if isinstance(entry_loadout(e), dict) else {}
    variant = vehicle_variant(data, loadout)
    if data.get("variants"):
        key = (variant or {}).get("key")
        choices = [{"value": v["key"], "label": v["name"], "selected": v["key"] == key} for v in data["variants"]]
        view["blocks"].append({"type": "choice", "option": "variant", "label": _("Variant"), "choices": choices,
                               "resets": ["weapons"]})  # fmt: skip
    mounts = f" (up to {data['mounts']})" if data.get("mounts") else ""
    view["blocks"] += [
        {"type": "checks", "option": "weapons", "label": _("Arsenal{mounts}").format(mounts=mounts), "items": items, "empty": _("No weapons.")},
        {"type": "slots", "option": "pilot", "label": _("Pilot"), "slots": _pilot_slots(e, squads, driving, names),
         "placeholder": _("— choose a soldier of rank {rank}+ —").format(rank=data.get('rank'))},
    ]  # fmt: skip
    prefix = f"[{variant['name']}] " if loadout.get("variant") and variant else ""
    view["lines"] = [prefix + (", ".join(f"{w['label']} ({w['note']})" for w in fitted) or _("no weapons"))]
    pilots = ", ".join(_pilot_label(r, names) for r in pilot_refs(entry_pilot(e)) if isinstance(r, dict))
    if pilots:
        card.append({"type": "text", "text": _("Pilot: {pilots}").format(pilots=pilots)})
        view["summary"] += _(" · pilot: {pilots}").format(pilots=pilots)
        view["lines"].append(_("pilot: {pilots}").format(pilots=pilots))
    return view


def _squad_view(e: dict, drives: dict) -> dict:
    rows, card_rows, driving = [], [], []
    for s in (e["profile"].get("data") or {}).get("soldiers") or []:
        cells, labels = profiles.soldier_cells(s), drives.get((e["key"], s.get("num")), [])
        rows.append(
            {"cells": cells[:-1] + [cells[-1] + (f" 🚗 {', '.join(labels)}" if labels else "")], "mark": bool(labels)}
        )
        card_rows.append(
            {"cells": cells[:-1] + [cells[-1] + (f" → {', '.join(labels)}" if labels else "")], "mark": False}
        )
        if labels:
            driving.append(_(" · №{num} drives {value}").format(num=s.get("num"), value=", ".join(labels)))
    columns = [{"label": label, "title": title} for label, title in profiles.SOLDIER_COLUMNS]
    table = {
        "type": "table",
        "columns": columns,
        "rows": rows,
        "summary": _("{value} soldiers").format(value=len(rows)) + "".join(driving),
    }
    card = {"type": "table", "columns": [{"label": c["label"], "title": ""} for c in columns], "rows": card_rows}
    return {"blocks": [table], "card": [card], "summary": "", "lines": []}


def entry_views(roster: dict) -> dict[str, dict]:
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    names = {e["key"]: e["profile"].get("name") for e in entries}
    squads = [e for e in entries if e["profile"].get("kind") == "squad"]
    driving: dict[tuple, str] = {}  # (squad entry, copy, soldier) -> the vehicle entry he drives
    drives: dict[tuple, list[str]] = {}  # (squad entry, soldier) -> what he drives, as people read it
    for e in entries:
        if e["profile"].get("kind") != "vehicle":
            continue
        for ref in pilot_refs(entry_pilot(e)):
            if isinstance(ref, dict):
                copy = ref.get("copy", 1)
                driving[(ref.get("entry"), copy, ref.get("soldier"))] = e["key"]
                label = (
                    e["profile"]["name"]
                    if copy == 1
                    else _("{name} (squad #{copy})").format(name=e["profile"]["name"], copy=copy)
                )
                drives.setdefault((ref.get("entry"), ref.get("soldier")), []).append(label)
    views = {}
    for e in entries:
        kind = e["profile"].get("kind")
        if kind in ("vehicle", "gun"):
            views[e["key"]] = _machine_view(e, squads, driving, names)
        elif kind == "squad":
            views[e["key"]] = _squad_view(e, drives)
    return views


class BronepekhotaArmy(ArmyPart):
    """Armlists of squads, vehicles and guns, priced in the book's points (p.3)."""

    pricing = "points"
    currency = N_("pts")
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"squad": "Отряд", "vehicle": "Техника", "gun": "Орудие"}
    kind_groups = {"squad": N_("Squads"), "vehicle": N_("Vehicles"), "gun": N_("Guns")}
    profile_editor = PROFILE_EDITOR

    def options_schema(self, profile: dict) -> dict:
        return profiles.options_schema(profile)

    def default_options(self, profile: dict) -> dict:
        return default_loadout(profile)

    def validate_options(self, profile: dict, options: dict) -> dict:
        if isinstance(options, dict) and isinstance(options.get("pilot"), dict):  # one soldier: a list of one
            options = {**options, "pilot": [options["pilot"]]}
        return super().validate_options(profile, options)

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)

    def upgrade_changes(self, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
        return upgrade_changes(entry, new_profile)

    def profile_note(self, profile: dict) -> str:
        return "" if profile.get("kind") == "squad" else f"rank {(profile.get('data') or {}).get('rank')}"

    def copy_options(self, entry: dict) -> dict:
        """A copy keeps the fit but not the pilot: a soldier drives one vehicle."""
        return options_from_columns(entry_loadout(entry), None)

    def options_without(self, entry: dict, removed: set[str]) -> dict:
        """Vehicles piloted by soldiers of a removed squad lose those pilots."""
        return _without_pilots_from(options_from_columns(entry_loadout(entry), entry_pilot(entry)), removed)

    def entry_views(self, roster: dict) -> dict[str, dict]:
        return entry_views(roster)


ARMY = BronepekhotaArmy()
