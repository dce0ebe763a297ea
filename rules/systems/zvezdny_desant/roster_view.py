"""How a «Звездный Десант» roster entry reads and is edited in the builder (rules/contract/army.py ENTRY_VIEW_DOC).

At the top, a number field for every cost of the unit the card data does not print (the demo prints none: they
are on the unit's ЛБХ, L754); then how many figures of each kind carry each weapon, by the card's names; then the
upgrades («расширения», L752) when the card has any. The controls write the stored options as they are:
{"loadout": [{"figure", "weapon", "count"}], "upgrades": [keys], "card_costs": {"figures"|"weapons"|"upgrades":
{key: points}}}.
"""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.i18n import _
from rules.systems.zvezdny_desant import profile as lbh
from rules.systems.zvezdny_desant import tables

MAX_COST = 5000  # profile.COST


def _hrk(weapon: dict) -> str:
    """Хрк with Latin class letters («В12» reads B12): the same in both alphabets, and no Cyrillic on an English
    page."""
    hrk = weapon.get("hrk")
    try:
        return tables.hrk_text(tables.parse_hrk(hrk))
    except RuleInputError:
        return " ".join(f"{k}{v}" for k, v in hrk.items()) if isinstance(hrk, dict) else str(hrk or "")


def weapon_note(weapon: dict) -> str:
    stat = tables.stat
    return (f"{stat('dln')} {weapon['dln']} · {stat('skr')} {weapon['skr']} · {stat('msch')} {weapon['msch']} · "
            f"{stat('hrk')} {_hrk(weapon)}")  # fmt: skip


def _rows(entry: dict) -> list[dict]:
    """The entry's loadout rows with their counts merged by (figure, weapon), in order."""
    merged: dict[tuple, dict] = {}
    for row in lbh.loadout_of(entry):
        if not isinstance(row, dict):
            continue
        key = (row.get("figure"), row.get("weapon"))
        count = row.get("count") if isinstance(row.get("count"), int) else 0
        if key in merged:
            merged[key]["count"] += count
        else:
            merged[key] = {"figure": key[0], "weapon": key[1], "count": count}
    return list(merged.values())


def _typed(entry: dict, group: str) -> dict:
    costs = (entry.get("options") or {}).get("card_costs") or {}
    found = costs.get(group) if isinstance(costs, dict) else None
    return found if isinstance(found, dict) else {}


def _price_fields(entry: dict, rows: list[dict]) -> tuple[list[dict], list[str]]:
    """A number field for every cost the card data leaves out, for what the unit uses; and the prices as lines."""
    profile = entry["profile"]
    figures, weapons, upgrades = lbh.figures_of(profile), lbh.weapons_of(profile), lbh.upgrades_of(profile)
    used_figures = [k for k in dict.fromkeys(r["figure"] for r in rows if r["count"] > 0) if k in figures]
    used_weapons = [k for k in dict.fromkeys(r["weapon"] for r in rows if r["count"] > 0) if k in weapons]
    chosen = (entry.get("options") or {}).get("upgrades") or []
    used_upgrades = [k for k in chosen if isinstance(k, str) and k in upgrades]
    fields, prices = [], []
    for group, keys, table, label in (
        ("figures", used_figures, figures, _("«{name}»: cost of one figure from the ЛБХ, points")),
        ("weapons", used_weapons, weapons, _("«{name}»: extra cost per figure carrying it, from the ЛБХ (0 if none)")),
        ("upgrades", used_upgrades, upgrades, _("«{name}»: cost of the upgrade from the ЛБХ, points")),
    ):
        typed = _typed(entry, group)
        for key in keys:
            item = table[key]
            printed = item.get("cost", 0) if group == "weapons" else item.get("cost")  # a weapon may cost nothing (L68)
            if printed is not None:
                prices.append(f"{item['name']} {printed}")
                continue
            value = typed.get(key)
            fields.append({"type": "number", "option": "card_costs", "path": f"{group}.{key}",
                           "label": label.format(name=item["name"]), "value": value, "min": 0, "max": MAX_COST})  # fmt: skip
            if isinstance(value, int):
                prices.append(f"{item['name']} {value}")
    return fields, prices


def _loadout_block(entry: dict, rows: list[dict]) -> dict:
    """A count for every kind of figure with every weapon it may carry (the card's names); rows the card no longer
    has stay listed, so nothing is lost without the player seeing it."""
    profile = entry["profile"]
    figures, weapons = lbh.figures_of(profile), lbh.weapons_of(profile)
    counts = {(r["figure"], r["weapon"]): r["count"] for r in rows}
    items = []
    for fig in figures.values():
        allowed = [w for w in fig.get("weapons") or [] if w in weapons] or [None]
        limits = _("figures: {low} to {high}").format(low=fig.get("min", 0), high=fig.get("max", 10))
        for weapon_key in allowed:
            weapon = weapons.get(weapon_key)
            label = (
                _("{figure} with «{weapon}»").format(figure=fig["name"], weapon=weapon["name"])
                if weapon
                else _("{figure}, no weapon").format(figure=fig["name"])
            )
            note = " · ".join(([weapon_note(weapon)] if weapon else []) + ([limits] if len(allowed) == 1 else []))
            items.append({"value": {"figure": fig["key"], "weapon": weapon_key}, "label": label, "note": note,
                          "count": counts.pop((fig["key"], weapon_key), 0), "min": 0,
                          "max": fig.get("max", 10)})  # fmt: skip
    for (figure, weapon), count in counts.items():  # not on the card (any more): shown so it can be set to 0
        name = (figures.get(figure) or {}).get("name") or str(figure)
        wname = (weapons.get(weapon) or {}).get("name") or str(weapon)
        items.append({"value": {"figure": figure, "weapon": weapon}, "count": count, "min": 0,
                      "max": lbh.MAX_PER_FIGURE, "label": _("{figure} with «{weapon}» (not on the card)").format(
                          figure=name, weapon=wname), "note": ""})  # fmt: skip
    return {"type": "counts", "option": "loadout", "key": "count", "label": _("Figures and their weapons"),
            "items": items}  # fmt: skip


def _upgrades_block(entry: dict) -> dict | None:
    upgrades = lbh.upgrades_of(entry["profile"])
    if not upgrades:
        return None
    chosen = (entry.get("options") or {}).get("upgrades") or []
    items = []
    for up in upgrades.values():
        cost = up.get("cost")
        if cost is None:
            note = _("cost from the ЛБХ")
        elif up.get("per") == "figure":
            note = _("{cost} per figure").format(cost=cost)
        else:
            note = _("{cost} per unit").format(cost=cost)
        items.append({"value": up["key"], "label": up["name"], "note": note, "title": up.get("text", ""),
                      "checked": up["key"] in chosen})  # fmt: skip
    return {"type": "checks", "option": "upgrades", "label": _("Upgrades"), "items": items, "empty": ""}


def loadout_text(entry: dict) -> str:
    """«5 × Форсер («Автомат»)» for the printed list and the text export."""
    profile = entry["profile"]
    figures, weapons = lbh.figures_of(profile), lbh.weapons_of(profile)
    parts = []
    for r in _rows(entry):
        if r["count"] <= 0:
            continue
        name = (figures.get(r["figure"]) or {}).get("name") or str(r["figure"])
        weapon = (weapons.get(r["weapon"]) or {}).get("name")
        parts.append(f"{r['count']} × {name}" + (f" («{weapon}»)" if weapon else ""))
    return ", ".join(parts)


def entry_view(entry: dict) -> dict:
    rows = _rows(entry)
    fields, prices = _price_fields(entry, rows)
    blocks: list[dict] = []
    if fields:
        missing = any(f["value"] is None for f in fields)
        intro = (
            _("The demo rules print no costs: type them from the unit's ЛБХ card (L754). The roster is not valid "
              "until every cost is typed.")
            if missing
            else _("Costs typed from the unit's ЛБХ card (the demo rules print none, L754):")
        )  # fmt: skip
        blocks.append({"type": "text", "text": intro})
        blocks += fields
    blocks.append(_loadout_block(entry, rows))
    upgrades = _upgrades_block(entry)
    if upgrades:
        blocks.append(upgrades)
    said = loadout_text(entry)
    chosen_upgrades = [
        u["name"]
        for k, u in lbh.upgrades_of(entry["profile"]).items()
        if k in ((entry.get("options") or {}).get("upgrades") or [])
    ]
    lines = [said] if said else []
    if chosen_upgrades:
        lines.append(_("upgrades: {names}").format(names=", ".join(chosen_upgrades)))
    if prices:
        lines.append(_("costs from the ЛБХ: {prices}").format(prices=", ".join(prices)))
    card = [{"type": "text", "text": line} for line in lines]
    weapons = [
        w for w in lbh.weapons_of(entry["profile"]).values() if any(r["weapon"] == w["key"] for r in rows if r["count"])
    ]
    if weapons:
        card.append({"type": "list", "items": [{"label": w["name"], "note": weapon_note(w)} for w in weapons]})
    return {"blocks": blocks, "card": card, "summary": "; ".join(lines[:2]), "lines": lines}


def entry_views(roster: dict) -> dict[str, dict]:
    views = {}
    for entry in roster.get("entries") or []:
        if isinstance(entry, dict) and isinstance(entry.get("profile"), dict) and entry.get("key"):
            views[entry["key"]] = entry_view(entry)
    return views
