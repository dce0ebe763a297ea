"""What the builder shows of a roster entry (rules/contract/army.py ENTRY_VIEW_DOC): a control for everything the
player chooses, in the book's words, never a JSON text box.

A squad (§2.1, L2–13): its personal armour (a choice), its figures one by one, each with its weapon (slots: a
weapon in the empty last slot adds a figure, «— нет фигуры —» takes one away), and its leader (a choice of
level, then his weapon). A vehicle (L75–90): its crew's training (§5 B14), its weapons one by one (slots) and the
squads of the roster it carries (checks, named as the roster names them).
"""

from __future__ import annotations

from rules.i18n import _
from rules.systems.squads import names, tables

MAX_FIGURES = 30  # army.MAX_FIGURES
MAX_VEHICLE_WEAPONS = 10


def choice(option: str, label: str, value, choices: list[tuple]) -> dict:
    return {"type": "choice", "option": option, "label": label, "resets": [],
            "choices": [{"value": v, "label": t, "selected": v == value, "disabled": False} for v, t in choices]}  # fmt: skip


def one_by_one(groups) -> list[dict]:
    """[{"weapon", "count", "armour"?}] as one item per figure (or per vehicle weapon), each with count 1."""
    out = []
    for group in groups or []:
        if not isinstance(group, dict) or group.get("weapon") not in tables.WEAPONS:
            continue
        extra = {"armour": group["armour"]} if group.get("armour") in tables.PERSONAL_ARMOUR else {}
        count = group.get("count") if isinstance(group.get("count"), int) else 1
        out += [{"weapon": group["weapon"], "count": 1, **extra} for _n in range(max(count, 0))]
    return out


def weapon_slots(option: str, label: str, placeholder: str, items: list[dict], most: int) -> dict:
    """A slot per figure or weapon, and an empty one to add another (while there is room)."""

    def slot(current: dict | None) -> dict:
        extra = {"armour": current["armour"]} if current and "armour" in current else {}
        return {"choices": [{"value": {"weapon": k, "count": 1, **extra}, "label": names.weapon(k),
                             "selected": bool(current) and current["weapon"] == k, "disabled": False}
                            for k in tables.WEAPONS]}  # fmt: skip

    slots = [slot(item) for item in items] + ([slot(None)] if len(items) < most else [])
    return {"type": "slots", "option": option, "label": label, "placeholder": placeholder, "slots": slots}


def leader_blocks(options: dict, figures: list[dict]) -> list[dict]:
    """The leader (L13): none or a level, then, when there is one, his weapon."""
    leader = options.get("leader") if isinstance(options.get("leader"), dict) else None
    weapon = leader["weapon"] if leader else (figures[0]["weapon"] if figures else "rifle")
    levels = [(None, _("No leader"))] + [({"level": k, "weapon": weapon}, names.level(k)) for k in tables.LEVELS]
    current = {"level": leader["level"], "weapon": leader["weapon"]} if leader else None
    blocks = [choice("leader", _("Leader"), current, levels)]
    if leader:
        weapons = [({"level": leader["level"], "weapon": k}, names.weapon(k)) for k in tables.WEAPONS]
        blocks.append(choice("leader", _("Leader's weapon"), current, weapons))
    return blocks


def squad_blocks(options: dict) -> list[dict]:
    figures = one_by_one(options.get("figures"))
    return [
        choice("armour", _("Personal armour"), options.get("armour", "none"),
               [(k, names.armour(k)) for k in tables.PERSONAL_ARMOUR]),
        weapon_slots("figures", _("Squad figure"), _("— no figure —"), figures, MAX_FIGURES),
        {"type": "text", "text": _("A weapon in the empty line adds a figure; «— no figure —» takes one away.")},
        *leader_blocks(options, figures),
    ]  # fmt: skip


def squad_names(roster: dict) -> dict[str, str]:
    """{entry key: the name a player reads} of the roster's squads; the same name twice gets its number."""
    squads = [e for e in roster.get("entries") or [] if (e.get("profile") or {}).get("kind") == "squad"]
    seen: dict[str, int] = {}
    for e in squads:
        seen[e["profile"].get("name", "")] = seen.get(e["profile"].get("name", ""), 0) + 1
    out, numbered = {}, {}
    for e in squads:
        name = e["profile"].get("name", "")
        if seen[name] > 1:
            numbered[name] = numbered.get(name, 0) + 1
            name = f"{name} №{numbered[name]}"
        out[e.get("key")] = name
    return out


def vehicle_blocks(options: dict, squads: dict[str, str]) -> list[dict]:
    carried = options.get("passengers") or []
    items = [
        {"value": key, "label": name, "checked": key in carried, "disabled": False} for key, name in squads.items()
    ]
    return [
        choice("crew_level", _("Crew training"), options.get("crew_level"),
               [(k, names.level(k)) for k in tables.TRAINING]),
        weapon_slots("weapons", _("Weapon"), _("— no weapon —"), one_by_one(options.get("weapons")),
                     MAX_VEHICLE_WEAPONS),
        {"type": "checks", "option": "passengers", "label": _("Passengers"), "items": items,
         "empty": _("No squads in the roster to carry.")},
    ]  # fmt: skip


def summary(kind: str, options: dict, figures: list[dict], squads: dict[str, str]) -> str:
    """One line of the entry (the print view, the compact list, the text export)."""
    if kind == "vehicle":
        parts = [_("crew: {level}").format(level=names.level(options.get("crew_level", "regular")))]
        weapons = [w["weapon"] for w in one_by_one(options.get("weapons"))]
        if weapons:
            parts.append(", ".join(f"{names.weapon(w)} ×{weapons.count(w)}" for w in dict.fromkeys(weapons)))
        riders = [squads[k] for k in options.get("passengers") or [] if k in squads]
        if riders:
            parts.append(_("carries: {squads}").format(squads=", ".join(riders)))
        return "; ".join(parts)
    troops = [f for f in figures if not f["leader"]]
    counts: dict[str, int] = {}
    for f in troops:
        counts[f["weapon"]] = counts.get(f["weapon"], 0) + 1
    parts = [_("armour: {armour}").format(armour=names.armour(options.get("armour", "none")))]
    if counts:
        parts.append(", ".join(f"{names.weapon(w)} ×{n}" for w, n in counts.items()))
    leader = next((f for f in figures if f["leader"]), None)
    if leader:
        parts.append(_("leader: {level}, {weapon}").format(level=names.level(leader["level"]),
                                                           weapon=names.weapon(leader["weapon"])))  # fmt: skip
    return "; ".join(parts)
