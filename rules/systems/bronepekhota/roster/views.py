"""How «Бронепехота» roster entries read on the builder's pages (rules/contract/army.py ENTRY_VIEW_DOC): weapon
checkboxes, pilot slots, the squad's table and the printed card."""

from __future__ import annotations

from rules.i18n import _
from rules.systems.bronepekhota import profile as profiles
from rules.systems.bronepekhota.roster.options import (
    _count,
    allowed_weapons,
    entry_loadout,
    entry_pilot,
    fitted_weapons,
    pilot_refs,
    vehicle_variant,
)


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
    mounts = _(" (up to {n})").format(n=data["mounts"]) if data.get("mounts") else ""
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
    columns = [{"label": _(label), "title": _(title)} for label, title in profiles.SOLDIER_COLUMNS]
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
