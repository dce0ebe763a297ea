"""What «Бронепехота»'s odds page offers besides the actions' schemas: the weapons and targets of the official
pack files, and the cover levels, as presets. Pure: it reads this package's own data folder."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules.i18n import _
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.words import ARMOUR, MELEE

PACK_DIR = Path(__file__).resolve().parent / "data"


def known_weapons_and_targets() -> dict:
    """Weapons (range + power) and targets (armour / strength) from the official pack files, when present, with
    their labels in the reader's language (one cached copy per language)."""
    return _known_weapons_and_targets(_("Infantry"))


@lru_cache(maxsize=8)
def _known_weapons_and_targets(_language: str) -> dict:
    weapons: dict[tuple, dict] = {}
    targets: list[dict] = []
    melee: list[dict] = []
    for path in sorted(PACK_DIR.glob("*.json")):
        try:
            pack = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a half-written or broken pack file must not break the page
        profiles = pack.get("profiles", []) if isinstance(pack, dict) else []
        for profile in profiles:
            if not isinstance(profile, dict) or not isinstance(profile.get("data"), dict):
                continue
            _collect(profile, weapons, targets, melee)
    return {
        "weapons": sorted(weapons.values(), key=lambda w: (w["group"], w["label"])),
        "targets": targets,
        "melee": melee,
    }


def _collect(profile: dict, weapons: dict, targets: list, melee: list) -> None:
    name, kind, data = profile.get("name", "?"), profile.get("kind"), profile["data"]
    if kind == "squad":
        for s in data.get("soldiers", []):
            if s.get("range") and s.get("power"):
                key = (s["range"], s["power"], "infantry", name)
                weapons.setdefault(
                    key,
                    {
                        "label": f"{name}: {s['range']} / {s['power']}",
                        "group": _("Infantry"),
                        "range": s["range"],
                        "power": s["power"],
                        "shooter": "infantry",
                    },
                )
        armours = sorted({s.get("armour", 0) for s in data.get("soldiers", [])})
        targets.append(
            {"label": f"{name} ({_(ARMOUR)} {'/'.join(map(str, armours))})", "kind": "infantry", "armour": armours[-1]}
        )
        for s in data.get("soldiers", [])[:1]:
            melee.append(
                {
                    "label": f"{name} ({_(MELEE)} {s.get('melee', 0)}, {_(ARMOUR)} {s.get('armour', 0)})",
                    "kind": "infantry",
                    "melee": s.get("melee", 0),
                    "armour": s.get("armour", 0),
                }
            )
        return
    arsenal = data.get("arsenal") if kind == "vehicle" else data.get("weapons")
    for w in arsenal or []:
        if w.get("range") and w.get("power"):
            key = (w["range"], w["power"], kind, name, w.get("name"))
            weapons[key] = {
                "label": f"{name}: {w.get('name', '')} {w['range']} / {w['power']}",
                "group": _("Vehicles") if kind == "vehicle" else _("Guns"),
                "range": w["range"],
                "power": w["power"],
                "shooter": kind,
                "special": w.get("special"),
            }
    strength = data.get("strength_max")
    if strength:
        targets.append(
            {
                "label": _("{name} (strength {strength})").format(name=name, strength=strength),
                "kind": kind,
                "strength": strength,
            }
        )
        melee_sum = sum((w.get("melee") or 0) for w in arsenal or [])
        melee.append(
            {
                "label": _("{name} (strength {strength}").format(name=name, strength=strength)
                + (f", {_(MELEE)} {melee_sum})" if melee_sum else ")"),
                "kind": kind,
                "strength": strength,
                "melee": melee_sum,
            }
        )


def odds_context() -> dict:
    known = known_weapons_and_targets()
    return {
        "known": known,
        "covers": [(key, _(tables.COVER_LABELS[key])) for key in tables.COVER_CHOICES if key != tables.COVER_HIDDEN],
        "has_pack": bool(known["weapons"]),
    }
