"""Readable renderings of a roster state (armies.selectors.roster_state): plain text for chat."""

from __future__ import annotations

KIND_LABELS = {"squad": "Squads", "vehicle": "Vehicles", "gun": "Guns"}


def _weapons_line(entry: dict) -> str:
    data = entry["profile"]["data"]
    arsenal = {w["key"]: w for w in data.get("arsenal") or data.get("weapons") or []}
    chosen = entry["loadout"].get("weapons")
    keys = chosen if isinstance(chosen, list) else list(arsenal)
    parts = []
    for key in keys:
        w = arsenal.get(key)
        if w is None:
            continue
        stat = (
            f"ББ/{w['melee']}" if w.get("melee") is not None else f"{w.get('range') or '–'} / {w.get('power') or '–'}"
        )
        parts.append(f"{w['name']} ({stat})")
    variant = entry["loadout"].get("variant")
    variants = {v["key"]: v["name"] for v in data.get("variants") or []}
    prefix = f"[{variants.get(variant, variant)}] " if variant else ""
    return prefix + (", ".join(parts) if parts else "no weapons")


def pilot_names(state: dict) -> dict[str, list[str]]:
    """Vehicle entry key -> readable pilot names ("soldier 3 of Киберспецназ")."""
    names = {e["key"]: e["profile"]["name"] for e in state["entries"]}
    result = {}
    for e in state["entries"]:
        labels = []
        for ref in e["pilot"] or []:
            if isinstance(ref, dict):
                copy = f" #{ref['copy']}" if ref.get("copy", 1) != 1 else ""
                labels.append(f"soldier {ref.get('soldier')} of {names.get(ref.get('entry'), '?')}{copy}")
        result[e["key"]] = labels
    return result


def roster_text(state: dict) -> str:
    limit = f" / {state['points_limit']}" if state["points_limit"] else ""
    lines = [f"{state['name']}: {state['total']}{limit} pts", f"{state['pack']['name']} v{state['pack']['version']}"]
    lines.append(f"Faction: {state['faction']}")
    pilots = pilot_names(state)
    for kind, label in KIND_LABELS.items():
        group = [e for e in state["entries"] if e["profile"]["kind"] == kind]
        if not group:
            continue
        lines.append("")
        lines.append(f"{label}:")
        for e in group:
            count = f"{e['count']}× " if e["count"] != 1 else ""
            lines.append(f"- {count}{e['profile']['name']} [{e['cost']}]")
            if kind == "vehicle":
                lines.append(f"  {_weapons_line(e)}")
                if pilots.get(e["key"]):
                    lines.append(f"  pilot: {', '.join(pilots[e['key']])}")
    problems = [i for i in state["issues"] if i["severity"] == "error"] + [
        i for e in state["entries"] for i in e["issues"] if i["severity"] == "error"
    ]
    if problems:
        lines.append("")
        lines.append(f"Not valid: {len(problems)} error(s)")
    return "\n".join(lines) + "\n"


def pilot_slots(state: dict) -> dict[str, list[dict]]:
    """For each vehicle entry, one pilot slot per vehicle copy with the soldiers to choose from. A soldier below
    the vehicle's rank, or already driving another vehicle, is listed but disabled."""
    squads = [e for e in state["entries"] if e["profile"]["kind"] == "squad"]
    driving: dict[str, str] = {}
    for e in state["entries"]:
        if e["profile"]["kind"] == "vehicle":
            for ref in e["pilot"] or []:
                if isinstance(ref, dict):
                    driving[f"{ref.get('entry')}:{ref.get('copy', 1)}:{ref.get('soldier')}"] = e["key"]
    names = {e["key"]: e["profile"]["name"] for e in state["entries"]}
    slots = {}
    for e in state["entries"]:
        if e["profile"]["kind"] != "vehicle":
            continue
        rank = e["profile"]["data"].get("rank", 0)
        refs = [r for r in e["pilot"] or [] if isinstance(r, dict)]
        entry_slots = []
        for i in range(max(e["count"], len(refs))):
            ref = refs[i] if i < len(refs) else None
            current = f"{ref.get('entry')}:{ref.get('copy', 1)}:{ref.get('soldier')}" if ref else ""
            options = []
            for squad in squads:
                for copy in range(1, squad["count"] + 1):
                    for s in squad["profile"]["data"].get("soldiers") or []:
                        value = f"{squad['key']}:{copy}:{s['num']}"
                        busy = driving.get(value)
                        label = f"{squad['profile']['name']}{f' #{copy}' if squad['count'] > 1 else ''} · №{s['num']}"
                        label += f" · rank {s['rank']}"
                        if busy and value != current:
                            label += f" (drives {names.get(busy, '?')})"
                        options.append(
                            {
                                "value": value,
                                "label": label,
                                "disabled": value != current and (s["rank"] < rank or bool(busy)),
                            }
                        )
            entry_slots.append({"index": i, "current": current, "options": options})
        slots[e["key"]] = entry_slots
    return slots


ABILITY_LABELS = {"repair": "Рм"}


def ability_label(code: str) -> str:
    if code.startswith("jump:"):
        return f"Пр{code.split(':', 1)[1]}"
    return ABILITY_LABELS.get(code, code)


def weapon_stat(w: dict) -> str:
    if w.get("melee") is not None:
        return f"ББ/{w['melee']}"
    return f"{w.get('range') or '–'} / {w.get('power') or '–'}"


def decorate(state: dict) -> dict:
    """Adds display rows to each entry of a roster state: weapons (fitted or not) and soldiers (who drives what)."""
    from armies import systems

    module = systems.army_module(state["system"])
    names = {e["key"]: e["profile"]["name"] for e in state["entries"]}
    drives: dict[str, list[str]] = {}
    for e in state["entries"]:
        for ref in e["pilot"] if e["profile"]["kind"] == "vehicle" else []:
            if isinstance(ref, dict):
                copy = ref.get("copy", 1)
                label = e["profile"]["name"] if copy == 1 else f"{e['profile']['name']} (squad #{copy})"
                drives.setdefault(f"{ref.get('entry')}:{ref.get('soldier')}", []).append(label)
    for e in state["entries"]:
        data, kind = e["profile"]["data"], e["profile"]["kind"]
        arsenal = data.get("arsenal") or data.get("weapons") or []
        fitted = allowed = {w["key"] for w in arsenal}
        if kind == "vehicle" and module is not None:
            variant = module.vehicle_variant(data, e["loadout"])
            fitted = set(module.fitted_weapons(data, e["loadout"]))
            allowed = set(module.allowed_weapons(data, variant))
            e["variant_key"] = (variant or {}).get("key", "")
        e["weapon_rows"] = [
            {
                "key": w["key"],
                "name": w["name"],
                "stat": weapon_stat(w),
                "fitted": w["key"] in fitted,
                "allowed": w["key"] in allowed,
                "special": (w.get("special") or {}).get("text", ""),
            }
            for w in arsenal
        ]
        e["soldier_rows"] = [
            {
                **s,
                "abilities_label": " ".join(ability_label(a) for a in s.get("abilities") or []),
                "drives": drives.get(f"{e['key']}:{s['num']}", []),
            }
            for s in data.get("soldiers") or []
        ]
    state["names"] = names
    return state
