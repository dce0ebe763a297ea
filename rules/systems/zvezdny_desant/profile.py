"""A unit's «Лист Боевых Характеристик» (ЛБХ) as a profile, the options a player picks for a roster entry, and
the compiled unit the simulator and the battle tracker use. Pure data and small functions.

A profile's data, as quick to type from a card as the book's abbreviations allow (§2.2–§2.4):
    {"strikes_per_figure": 1, "wounds_per_strike": 1,
     "figures": [{"key", "name", "pdv", "stk", "kbr", "bsp", "ldr", "cost", "min", "max", "default",
                  "weapons": [weapon keys the figure may carry, the first by default]}],
     "weapons": [{"key", "name", "dln", "skr", "msch", "hrk": "В12 С15" or {"B": 12}, "cost"}],
     "upgrades": [{"key", "name", "cost", "per": "figure" | "unit"}]}
A cost the demo does not print is null: the player types it from the card in the entry's `card_costs`.
An entry's options: {"loadout": [{"figure", "weapon", "count"}], "upgrades": [keys], "card_costs": {...}}.
"""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables

KEY = {"type": "string", "minLength": 1, "maxLength": 40, "pattern": "^[a-z0-9_-]+$"}
NAME = {"type": "string", "minLength": 1, "maxLength": 120}
COST = {"type": ["integer", "null"], "minimum": 0, "maximum": 5000}
KBR = {"enum": ["A", "B", "C", "D", "E", "А", "В", "С", "Д", "Е"], "description": N_("Armour class, Latin or Cyrillic")}
HRK_TEXT = r"^\s*((ХРК|Хрк|хрк|HRK|hrk)\s*:?)?(\s*[ABCDEАВСДЕabcdeавсде]\s*\d{1,2}[\s,;]*)+$"
HRK = {
    "anyOf": [
        {"type": "string", "pattern": HRK_TEXT, "maxLength": 60},
        {"type": "object", "minProperties": 1, "maxProperties": 5,
         "propertyNames": {"enum": ["A", "B", "C", "D", "E", "А", "В", "С", "Д", "Е"]},
         "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 40}},
    ]
}  # fmt: skip
MAX_PER_FIGURE = 50

FIGURE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["key", "name", "pdv", "stk", "kbr", "bsp"],
    "properties": {
        "key": KEY,
        "name": NAME,
        "pdv": {"type": "integer", "minimum": 1, "maximum": 50, "description": N_("Mob")},
        "stk": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("Tgh")},
        "kbr": KBR,
        "bsp": {"type": "integer", "minimum": 0, "maximum": 40, "description": N_("CA")},
        "ldr": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 40,
            "description": N_("Ldr (no use in the demo)"),
        },
        "cost": {**COST, "description": N_("Cost of one figure; null: not printed here")},
        "min": {"type": "integer", "minimum": 0, "maximum": MAX_PER_FIGURE, "default": 0},
        "max": {"type": "integer", "minimum": 1, "maximum": MAX_PER_FIGURE, "default": 10},
        "default": {"type": "integer", "minimum": 0, "maximum": MAX_PER_FIGURE},
        "weapons": {"type": "array", "maxItems": 20, "items": KEY, "default": []},
    },
}
WEAPON = {
    "type": "object",
    "additionalProperties": False,
    "required": ["key", "name", "dln", "skr", "msch", "hrk"],
    "properties": {
        "key": KEY,
        "name": NAME,
        "dln": {"type": "integer", "minimum": 0, "maximum": 200, "description": N_("Rng, steps")},
        "skr": {"type": "integer", "minimum": 1, "maximum": 10, "description": N_("ROF")},
        "msch": {"type": "integer", "minimum": 1, "maximum": 10, "description": N_("Pow")},
        "hrk": HRK,
        "cost": {**COST, "description": N_("Extra cost; 0 when it has none")},
    },
}
UPGRADE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["key", "name"],
    "properties": {"key": KEY, "name": NAME, "cost": COST, "per": {"enum": ["figure", "unit"], "default": "unit"},
                   "text": {"type": "string", "maxLength": 1000}},
}  # fmt: skip
DATA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["figures"],
    "properties": {
        "strikes_per_figure": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
        "wounds_per_strike": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
        "figures": {"type": "array", "minItems": 1, "maxItems": 10, "items": FIGURE},
        "weapons": {"type": "array", "maxItems": 20, "items": WEAPON, "default": []},
        "upgrades": {"type": "array", "maxItems": 20, "items": UPGRADE, "default": []},
        "example": {"type": "boolean", "description": N_("An example built from the demo text, not a real ЛБХ")},
    },
}
PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "kind", "data"],
    "properties": {
        "slug": {"type": "string", "minLength": 1, "maxLength": 80},
        "name": NAME,
        "faction": {"type": "string", "maxLength": 80},
        "kind": {"enum": ["infantry"]},
        "cost": {"type": ["number", "null"], "minimum": 0},
        "notes": {"type": "string", "maxLength": 4000},
        "data": DATA,
    },
}
PROFILE_KINDS = {"infantry": N_("Infantry")}
# The select shows each class as the book prints it (Cyrillic) with the Latin letter a card may use (L43–50).
KBR_LABELS = {"A": "А / A", "B": "В / B", "C": "С / C", "D": "D / Д", "E": "Е / E"}


def figures_of(profile: dict) -> dict[str, dict]:
    return {f["key"]: f for f in (profile.get("data") or {}).get("figures", [])}


def weapons_of(profile: dict) -> dict[str, dict]:
    return {w["key"]: w for w in (profile.get("data") or {}).get("weapons", [])}


def upgrades_of(profile: dict) -> dict[str, dict]:
    return {u["key"]: u for u in (profile.get("data") or {}).get("upgrades", [])}


def options_schema(profile: dict) -> dict:
    figures, weapons, upgrades = list(figures_of(profile)), list(weapons_of(profile)), list(upgrades_of(profile))
    card = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 5000}}
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "loadout": {
                "type": "array",
                "maxItems": 20,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["figure", "count"],
                    "properties": {
                        "figure": {"enum": figures},
                        "weapon": {"enum": [*weapons, None]},
                        "count": {"type": "integer", "minimum": 1, "maximum": MAX_PER_FIGURE},
                    },
                },
            },
            "upgrades": {"type": "array", "uniqueItems": True, "maxItems": 20, "items": {"enum": upgrades or [""]}},
            "card_costs": {
                "type": "object",
                "additionalProperties": False,
                "description": _("Costs typed from the ЛБХ card where the profile has none"),
                "properties": {"figures": card, "weapons": card, "upgrades": card},
            },
        },
    }


def default_options(profile: dict) -> dict:
    """Each figure type at its default (else its minimum; the first type at least 1) with its first weapon."""
    loadout = []
    for i, f in enumerate((profile.get("data") or {}).get("figures", [])):
        count = f.get("default", max(f.get("min", 0), 1 if i == 0 else 0))
        if count:
            weapons = f.get("weapons") or []
            loadout.append({"figure": f["key"], "weapon": weapons[0] if weapons else None, "count": count})
    return {"loadout": loadout, "upgrades": []}


def loadout_of(entry: dict) -> list[dict]:
    """The entry's loadout; the card's defaults only when it has none at all (an emptied one stays empty)."""
    options = entry.get("options") or {}
    if options.get("loadout") is None:
        return list(default_options(entry["profile"])["loadout"])
    return list(options["loadout"])


def compile_unit(entry: dict, settings: dict) -> dict:
    """One roster entry as the rules see a unit: figures, the one СТК (A10: lowest if mixed), КБР, БСП, the
    melee strikes, and the weapon groups (figures with one weapon). Assumes the entry passed cost_roster."""
    profile = entry["profile"]
    data = profile.get("data") or {}
    figures, weapons = figures_of(profile), weapons_of(profile)
    rows = [r for r in loadout_of(entry) if r["figure"] in figures]
    chosen = [figures[r["figure"]] for r in rows]
    groups = []
    for r in rows:
        w = weapons.get(r.get("weapon"))
        if w is None:
            continue
        groups.append({"name": w["name"], "count": r["count"], "dln": w["dln"], "skr": w["skr"],
                       "msch": w["msch"], "hrk": tables.parse_hrk(w["hrk"], "hrk")})  # fmt: skip
    count = sum(r["count"] for r in rows)
    first = chosen[0] if chosen else {"stk": 1, "kbr": "A", "bsp": 0, "pdv": 1}
    return {
        "name": profile.get("name", ""),
        "figures": count,
        "stk": min(f["stk"] for f in chosen) if chosen else 1,
        "kbr": tables.armour_class(first["kbr"]),
        "bsp": max(f["bsp"] for f in chosen) if chosen else 0,
        "pdv": min(f["pdv"] for f in chosen) if chosen else 1,
        "strikes_per_figure": data.get("strikes_per_figure", 1),
        "wounds_per_strike": data.get("wounds_per_strike", 1),
        "groups": groups,
        "cost_rows": rows,
    }


def _text(name: str, label: str, **extra) -> dict:
    return {"name": name, "label": label, "type": "short", **extra}


def _int(name: str, label: str) -> dict:
    return {"name": name, "label": label, "type": "int"}


FIGURE_FIELDS = [
    {"name": "key", "type": "short", "auto": "slug:name", "hidden": True},
    {"name": "name", "label": N_("Name"), "type": "text"},
    _int("pdv", N_("Mob")),
    _int("stk", N_("Tgh")),
    {
        "name": "kbr",
        "label": N_("AC"),
        "type": "select",
        "choices": [[c, KBR_LABELS[c]] for c in tables.ARMOUR_CLASSES],
    },
    _int("bsp", N_("CA")),
    {"name": "ldr", "label": N_("Ldr"), "type": "opt_int"},
    {"name": "cost", "label": N_("Cost"), "type": "opt_int"},
    {"name": "min", "label": N_("At least"), "type": "opt_int", "omit_empty": True},
    {"name": "max", "label": N_("At most"), "type": "opt_int", "omit_empty": True},
    _text("weapons", N_("Weapons (keys)"), path="weapons", rest=True, code=True, placeholder="avtomat"),
]
WEAPON_FIELDS = [
    {"name": "key", "type": "short", "auto": "slug:name", "hidden": True},
    {"name": "name", "label": N_("Name"), "type": "text"},
    _int("dln", N_("Rng")),
    _int("skr", N_("ROF")),
    _int("msch", N_("Pow")),
    _text(
        "hrk",
        N_("Pen"),
        code=True,
        placeholder="B12 C15",
        hint=N_("a class letter and a number per class, e.g. B12 C15"),
    ),
    {"name": "cost", "label": N_("Extra cost"), "type": "opt_int"},
]
UPGRADE_FIELDS = [
    {"name": "key", "type": "short", "auto": "slug:name", "hidden": True},
    {"name": "name", "label": N_("Name"), "type": "text"},
    {"name": "cost", "label": N_("Cost"), "type": "opt_int"},
    {"name": "per", "label": N_("Per"), "type": "select", "choices": [["unit", N_("unit")], ["figure", N_("figure")]]},
]


def _section(name: str, label: str, fields: list, minimum: int) -> dict:
    return {"name": name, "key": name, "label": label, "legend": label, "title": label, "min": minimum,
            "fields": fields}  # fmt: skip


PROFILE_EDITOR = {
    "help": [
        N_(
            "Type the unit from its ЛБХ card: one row per kind of figure (Mob, Tgh, AC, CA, Ldr, cost), one row "
            "per weapon (Rng, ROF, Pow, Pen, extra cost) and the upgrades."
        ),
        N_("Pen: a class letter and the number for it, several separated by spaces: `B12 C15` (Latin or Cyrillic)."),
        N_("A figure's weapons: the weapon keys it may carry, the first one by default."),
    ],
    "reference": [
        N_(
            "**infantry**: `figures` [{key, name, pdv, stk, kbr, bsp, ldr, cost, min, max, weapons}], `weapons` [{key, "
            "name, dln, skr, msch, hrk, cost}], `upgrades` [{key, name, cost, per}], `strikes_per_figure`, "
            "`wounds_per_strike` (e.g. 2 strikes for the Forcer assault squad)."
        ),
    ],
    "kinds": {
        "infantry": {
            "label": N_("Infantry"),
            "template": {"strikes_per_figure": 1, "wounds_per_strike": 1, "figures": [], "weapons": [], "upgrades": []},
            "fields": [
                _int("strikes_per_figure", N_("Strikes in close combat")),
                _int("wounds_per_strike", N_("Wounds per strike")),
            ],
            "sections": [
                _section("figures", N_("Kinds of figures"), FIGURE_FIELDS, 1),
                _section("weapons", N_("Weapons"), WEAPON_FIELDS, 0),
                _section("upgrades", N_("Upgrades"), UPGRADE_FIELDS, 0),
            ],
        }
    },
}


TRANSLATED_KEYS = ("help", "reference", "label", "legend", "title", "hint")


def translated(node):
    """The editor layout in the reader's language: its help, labels and hints (marked N_() above)."""
    if isinstance(node, list):
        return [translated(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in TRANSLATED_KEYS and isinstance(value, str):
            out[key] = _(value)
        elif key in ("help", "reference") and isinstance(value, list):
            out[key] = [_(line) for line in value]
        elif key == "choices" and isinstance(value, list):
            out[key] = [[c[0], _(c[1])] for c in value]
        else:
            out[key] = translated(value)
    return out
