"""The book's weapons and armour (spec §2.5–§2.8), read from the official pack data/normals.json, and the lookups
every rule uses: Impact of a weapon against an armour (ranged and melee columns), Outgun ratings, custom weapons.

An Impact cell is a whole number, «НЭ» (no effect: Hand of Fate) or «Спец.» (ПБ/ОБ: a 1–3 roll absorbs the hit,
4–6 reads the ТБ column). Armour is named by its Latin slug or the book's code («ЛБ»).
"""

from __future__ import annotations

import json
from pathlib import Path

from rules.errors import RuleInputError
from rules.i18n import _

PACK_PATH = Path(__file__).resolve().parent / "data" / "normals.json"
PACK = json.loads(PACK_PATH.read_text(encoding="utf-8"))

NO_EFFECT = "НЭ"
SPECIAL = "Спец."

RANGED: dict[str, dict] = {w["slug"]: w for w in PACK["equipment"]["ranged"]}
MELEE: dict[str, dict] = {w["slug"]: w for w in PACK["equipment"]["melee"]}
ARMOUR: dict[str, dict] = {a["slug"]: a for a in PACK["equipment"]["armour"]}
TABLES: dict = PACK["equipment"]["tables"]
GRENADES = RANGED["grenades"]
REP_COST = {p["data"]["rep"]: p["cost"] for p in PACK["profiles"]}  # У5 83, У4 66, У3 50 (L1420–1423)

ARMOUR_BY_CODE = {a["code"]: slug for slug, a in ARMOUR.items()}
ARMOUR_CHOICES = sorted(ARMOUR) + sorted(ARMOUR_BY_CODE) + ["НБ"]  # «НБ» is the melee table's «нет брони»

# The ranged table has no «Н» column: «ЛБ или ИБ» serves Н, ЛБ and ИБ (L215, L230; §5 A8).
RANGED_COLUMN = {
    "none": "ЛБ или ИБ",
    "light": "ЛБ или ИБ",
    "distortion": "ЛБ или ИБ",
    "heavy": "ТБ",
    "absorbing": "ПБ",
    "reflective": "ОБ",
    "shimmer": "Ш",
    "exo": "ЭКЗ",
    "battle": "ББ",
}
MELEE_COLUMN = {slug: ("НБ" if slug == "none" else a["code"]) for slug, a in ARMOUR.items()}
# §5 A9 armour_rules: ИБ counts as ЛБ when hit; ОБ works only against beams and ПБ only against projectiles.
MELEE_COLUMN_BY_ARMOUR_RULES = {**MELEE_COLUMN, "distortion": "ЛБ", "reflective": "НБ", "absorbing": "НБ"}

# Two-gun firing: «два пистолета или пистолета-пулемета» (L780–781); a laser pistol is a pistol too (L187–189).
TWO_GUN_WEAPONS = frozenset({"pistol", "kk_pistol", "laser_pistol", "rapid_fire_laser_pistol", "smg"})
PISTOL_CLASS = frozenset({"pistol", "kk_pistol", "laser_pistol", "rapid_fire_laser_pistol"})

IMPACT_VALUE = {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 6}, {"enum": [NO_EFFECT, SPECIAL]}]}
CUSTOM_WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "rof", "impact"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "rof": {"type": "integer", "minimum": 1, "maximum": 6, "description": "Скорострельность: dice rolled"},
        "impact": {
            "description": "Ущерб: one value for every armour, or {column: value} with the book's column names",
            "anyOf": [
                IMPACT_VALUE,
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": dict.fromkeys(["ЛБ или ИБ", "НБ", "ЛБ", "ИБ", *RANGED_COLUMN.values()], IMPACT_VALUE),
                },
            ],
        },
        "outgun": {"type": "integer", "minimum": 1, "maximum": 5, "description": "ПД"},
        "kind": {"enum": ["projectile", "beam", "other", "melee"]},
    },
}
WEAPON_REF = {
    "description": "A weapon of the book by its slug (e.g. assault_rifle) or a custom weapon",
    "anyOf": [{"enum": sorted(RANGED)}, CUSTOM_WEAPON],
}
MELEE_REF = {
    "description": "A melee weapon of the book by its slug (e.g. combat_knife) or a custom one",
    "anyOf": [{"enum": sorted(MELEE)}, CUSTOM_WEAPON],
}


def armour_slug(value: str, field: str = "armour") -> str:
    if value in ARMOUR:
        return value
    if value in ARMOUR_BY_CODE:
        return ARMOUR_BY_CODE[value]
    if value in ("Н", "НБ"):
        return "none"
    raise RuleInputError(
        {field: _("unknown armour «{value}»; use one of: {known}").format(value=value, known=", ".join(sorted(ARMOUR)))}
    )


def weapon(ref, field: str = "weapon", *, melee: bool = False) -> dict:
    """A weapon record from a slug or a custom weapon object (already schema-checked)."""
    table = MELEE if melee else RANGED
    if isinstance(ref, str):
        if ref not in table:
            raise RuleInputError({field: _("unknown weapon «{ref}»").format(ref=ref)})
        return table[ref]
    custom = dict(ref)
    custom.setdefault("slug", "custom")
    custom.setdefault("kind", "melee" if melee else "other")
    custom.setdefault("outgun", 1 if melee else (3 if custom["rof"] >= 3 else 2))
    return custom


def _cell(w: dict, column: str, fallbacks: tuple[str, ...]):
    impact = w["impact"]
    if not isinstance(impact, dict):
        return impact
    for col in (column, *fallbacks):
        if col in impact:
            return impact[col]
    name = w.get("name") or _("the weapon")
    raise RuleInputError(
        {"weapon.impact": _("{name} has no Impact for the «{column}» column").format(name=name, column=column)}
    )


def ranged_impact(w: dict, armour: str, settings: dict):
    """Ущерб of a ranged weapon against an armour slug: a number, «НЭ» or «Спец.»."""
    column = RANGED_COLUMN[armour]
    value = _cell(w, column, ("НБ",) if column == "ЛБ или ИБ" else ())
    if w.get("slug") == "machine_gun" and armour == "exo" and settings.get("mg_vs_exo") == "no_effect":
        return NO_EFFECT  # §5 A37
    return value


def special_fallback(w: dict, settings: dict):
    """The ТБ value a «Спец.» hit uses on a 4–6 (L222–227)."""
    value = ranged_impact(w, "heavy", settings)
    if value == SPECIAL:
        raise RuleInputError({"weapon.impact": "«Спец.» needs a number (or «НЭ») in the ТБ column for a 4–6."})
    return value


def melee_impact(w: dict, armour: str, settings: dict, *, energy: bool = False, improvised: bool = False):
    """Ущерб of a melee weapon against an armour (§2.7): improvised 1; energy +1 and «НЭ» → 1 (L199–201)."""
    if improvised:
        return 1
    columns = MELEE_COLUMN_BY_ARMOUR_RULES if settings.get("melee_armour_columns") == "armour_rules" else MELEE_COLUMN
    value = _cell(w, columns[armour], ("ЛБ или ИБ",))
    if energy:
        return 1 if value == NO_EFFECT else (value + 1 if isinstance(value, int) else value)
    return value


def outgun(w: dict | None) -> int:
    """ПД (L962–972); no weapon or an empty one counts as unarmed, a melee weapon (ПД 1) [spec §3.13]."""
    return int(w.get("outgun", 1)) if w else 1


def impact_number(value) -> int:
    """A value to compare two melee Impacts (§5 A22): «НЭ» is below 0."""
    return value if isinstance(value, int) else -1
