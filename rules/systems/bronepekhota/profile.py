"""Unit profile schema of «Бронепехота» (spec §2.3, §2.6): what a data pack or a custom Armlist holds, what a
roster entry of each profile chooses (options_schema), how a profile reads on the builder's pages, and the
structured custom-unit editor (PROFILE_EDITOR, pure data drawn by armies).

Dice are written as the cards write them, Cyrillic or Latin: range "Д6+2" / "D12", power "3Д20" / "2D6".
A melee weapon of a vehicle has `melee` (the «ББ/n» value) and no range or power.
"""

from rules.i18n import N_, _
from rules.systems.bronepekhota import words

RANGE_PATTERN = r"^\s*[1]?\s*[ДдDd]\s*(6|12|20)\s*([+-]\s*\d+)?\s*$"
POWER_PATTERN = r"^\s*\d*\s*[ДдDd]\s*(6|12|20)\s*([+-]\s*\d+)?\s*$"

DICE_HINT = "dice as on the cards, e.g. Д6+2 for range, 3Д20 for power"
_range = {"type": "string", "pattern": RANGE_PATTERN, "description": DICE_HINT}
_power = {"type": "string", "pattern": POWER_PATTERN, "description": DICE_HINT}
_dice_or_none = {"anyOf": [{"type": "null"}, _range]}
_power_or_none = {"anyOf": [{"type": "null"}, _power]}

WEAPON = {
    "type": "object",
    "required": ["key", "name"],
    "additionalProperties": False,
    "properties": {
        "key": {"type": "string", "pattern": r"^[a-z0-9_-]+$", "maxLength": 60},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "range": _dice_or_none,
        "power": _power_or_none,
        "melee": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 20}]},
        # Special property (§3.7.3 IV), e.g. the heavy rocket: {"blast_steps": 2, "blast_power": "1Д20"}.
        "special": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "blast_steps": {"type": "integer", "minimum": 1, "maximum": 10},
                        "blast_power": _power,
                        "text": {"type": "string", "maxLength": 500},
                    },
                },
            ]
        },
        # Real-shooting charges this launcher may fire (Table 3): shell 2, mine 3 (mortars), rocket 4.
        "charges": {"type": "array", "items": {"enum": ["shell", "mine", "rocket"]}, "uniqueItems": True},
        # Notes where the transcription is odd (e.g. GRINDER's "D12+2" power).
        "note": {"type": "string", "maxLength": 500},
    },
}

SOLDIER = {
    "type": "object",
    "required": ["num", "rank", "speed", "melee", "armour"],
    "additionalProperties": False,
    "properties": {
        "num": {"type": "integer", "minimum": 1, "maximum": 12},
        "rank": {"type": "integer", "minimum": 0, "maximum": 10},
        "speed": {"type": "integer", "minimum": 0, "maximum": 20},
        "range": _dice_or_none,
        "power": _power_or_none,
        "melee": {"type": "integer", "minimum": 0, "maximum": 20},
        "armour": {"type": "integer", "minimum": 0, "maximum": 20},
        # «Св»: "repair" («Рм»), "jump:N" («ПрN»), or free text for anything else.
        "abilities": {"type": "array", "items": {"type": "string", "maxLength": 60}},
    },
}

SPEED_SECTOR = {
    "type": "object",
    "required": ["min", "max", "speed"],
    "additionalProperties": False,
    "properties": {
        "min": {"type": "integer", "minimum": 0},
        "max": {"type": "integer", "minimum": 0},
        "speed": {"type": "integer", "minimum": 0, "maximum": 30},
        "colour": {"type": "string", "maxLength": 20},
    },
}

SQUAD = {
    "type": "object",
    "required": ["soldiers"],
    "additionalProperties": False,
    "properties": {"soldiers": {"type": "array", "minItems": 1, "maxItems": 12, "items": SOLDIER}},
}

VEHICLE = {
    "type": "object",
    "required": ["rank", "weight", "locomotion", "rof", "ammo_max", "strength_max", "speed_sectors", "arsenal"],
    "additionalProperties": False,
    "properties": {
        "rank": {"type": "integer", "minimum": 0, "maximum": 10},
        "weight": {"enum": ["light", "heavy"]},
        "locomotion": {"enum": ["wheeled", "tracked", "walker", "flying"]},
        "rof": {"type": "integer", "minimum": 0, "maximum": 10},
        "ammo_max": {"type": "integer", "minimum": 0, "maximum": 99},
        "strength_max": {"type": "integer", "minimum": 1, "maximum": 99},
        "speed_sectors": {"type": "array", "minItems": 1, "items": SPEED_SECTOR},
        "arsenal": {"type": "array", "items": WEAPON},
        # How many arsenal weapons may be fitted at once (§5 A30); null = all of them.
        "mounts": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1}]},
        # Alternative fits, e.g. HELIX: rockets or the repair-transport platform (§3.11).
        "variants": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["key", "name"],
                "additionalProperties": False,
                "properties": {
                    "key": {"type": "string"},
                    "name": {"type": "string"},
                    "weapons": {"type": "array", "items": {"type": "string"}},
                    "repair_platform": {"type": "boolean"},
                },
            },
        },
    },
}

GUN = {
    "type": "object",
    "required": ["rank", "mobile", "rof", "ammo_max", "strength_max", "weapons"],
    "additionalProperties": False,
    "properties": {
        "rank": {"type": "integer", "minimum": 0, "maximum": 10},
        "mobile": {"type": "boolean"},
        "rof": {"type": "integer", "minimum": 0, "maximum": 10},
        "ammo_max": {"type": "integer", "minimum": 0, "maximum": 99},
        "strength_max": {"type": "integer", "minimum": 1, "maximum": 99},
        "weapons": {"type": "array", "minItems": 1, "items": WEAPON},
    },
}

# A profile in a pack: {"slug", "name", "faction", "kind", "cost", "data"}; `data` follows the kind.
PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "faction", "kind", "cost", "data"],
    "properties": {
        "slug": {"type": "string", "pattern": r"^[a-z0-9_-]+$", "maxLength": 80},
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "faction": {"enum": ["protectorate", "polaris", "green"]},
        "kind": {"enum": ["squad", "vehicle", "gun"]},
        "cost": {"type": "integer", "minimum": 0, "maximum": 10000},
        "data": {"type": "object"},
        "notes": {"type": "string"},
    },
    "allOf": [
        {"if": {"properties": {"kind": {"const": "squad"}}}, "then": {"properties": {"data": SQUAD}}},
        {"if": {"properties": {"kind": {"const": "vehicle"}}}, "then": {"properties": {"data": VEHICLE}}},
        {"if": {"properties": {"kind": {"const": "gun"}}}, "then": {"properties": {"data": GUN}}},
    ],
}


# A roster entry's options ------------------------------------------------------------------------------------
PILOT_REF = {
    "type": "object",
    "required": ["entry", "soldier"],
    "additionalProperties": False,
    "properties": {
        "entry": {"type": "string", "minLength": 1, "maxLength": 16, "title": "Squad entry"},
        "soldier": {"type": "integer", "minimum": 1, "maximum": 12, "title": "Soldier"},
        "copy": {"type": "integer", "minimum": 1, "maximum": 99, "title": "Copy of the squad entry"},
    },
}


def options_schema(profile: dict) -> dict:
    """A vehicle chooses its variant, its weapons from the arsenal and one pilot per copy; squads and guns choose
    nothing. Which weapons a variant allows, the mounts and the pilots' ranks are roster rules (cost_roster)."""
    if profile.get("kind") != "vehicle":
        return {"type": "object", "additionalProperties": False, "properties": {}}
    data = profile.get("data") or {}
    properties: dict = {
        "weapons": {
            "title": "Arsenal",
            "type": "array",
            "uniqueItems": True,
            "items": {"enum": [w["key"] for w in data.get("arsenal") or []]},
        },
        "pilot": {"title": "Pilot", "type": "array", "maxItems": 99, "items": PILOT_REF},
    }
    if data.get("variants"):
        properties["variant"] = {"title": "Variant", "enum": [v["key"] for v in data["variants"]]}
    return {"type": "object", "additionalProperties": False, "properties": properties}


# How a profile reads on the builder's pages --------------------------------------------------------------------
def ability_label(code: str) -> str:
    """The card's short form of an ability in the reader's letters: "repair" -> Рм, "jump:5" -> Пр5."""
    return words.ability(code)


def weapon_stat(w: dict) -> str:
    """A weapon as the card prints it: «ББ/2» for melee (in the reader's letters), else "range / power"."""
    if w.get("melee") is not None:
        return f"{_(words.MELEE)}/{w['melee']}"
    return f"{w.get('range') or '–'} / {w.get('power') or '–'}"


def profile_weapons(data: dict) -> list[dict]:
    """A vehicle's arsenal or a gun's weapons."""
    return data.get("arsenal") or data.get("weapons") or []


# The Armlist's words for a vehicle's type and locomotion (p.7, p.16) and a gun's mobility (p.8–9).
WEIGHT_WORDS = {"light": N_("light"), "heavy": N_("heavy")}
LOCOMOTION_WORDS = {
    "wheeled": N_("wheeled"),
    "tracked": N_("tracked"),
    "walker": N_("walking"),
    "flying": N_("flyer"),
}


def _word(words: dict, code) -> str:
    return _(words[code]) if code in words else str(code)


def _mobility(d: dict) -> str:
    return _("mobile gun") if d.get("mobile") else _("stationary gun")


def _tail(d: dict) -> str:
    return _("RoF {rof} · ammo {ammo} · strength {strength}").format(
        rof=d.get("rof"), ammo=d.get("ammo_max"), strength=d.get("strength_max")
    )


def stats_line(profile: dict) -> str:
    """The builder's line of a vehicle's or a gun's values, in the Armlist's words."""
    d = profile.get("data") or {}
    if profile.get("kind") == "gun":
        return _("{mobility} · crew rank {rank}+ · {values}").format(
            mobility=_mobility(d), rank=d.get("rank"), values=_tail(d)
        )
    speeds = "/".join(str(s.get("speed")) for s in d.get("speed_sectors") or [])
    return _("{weight} · {locomotion} · {values} · speed {speeds}").format(
        weight=_word(WEIGHT_WORDS, d.get("weight")),
        locomotion=_word(LOCOMOTION_WORDS, d.get("locomotion")),
        values=_tail(d),
        speeds=speeds,
    )


def card_line(profile: dict) -> str:
    """The printed card's line of a vehicle's or a gun's values."""
    d = profile.get("data") or {}
    line = _("Rank {rank}").format(rank=d.get("rank")) + " · " + _tail(d)
    if profile.get("kind") == "gun":
        return f"{line} · {_mobility(d)}"
    sectors = ", ".join(f"{s.get('min')}–{s.get('max')}: {s.get('speed')}" for s in d.get("speed_sectors") or [])
    return _("{values} · {weight} {locomotion} · speed {sectors}").format(
        values=line,
        weight=_word(WEIGHT_WORDS, d.get("weight")),
        locomotion=_word(LOCOMOTION_WORDS, d.get("locomotion")),
        sectors=sectors,
    )


#: The columns of a squad's table, as on the Armlist: (label, what it means), msgids read where drawn (p.6).
SOLDIER_COLUMNS = [
    ("№", ""),
    (words.RANK, N_("Army rank")),
    (words.SPEED, N_("Speed of movement")),
    (words.RANGE, N_("Range of fire")),
    (words.POWER, N_("Power of the shot")),
    (words.MELEE, N_("Close combat skill")),
    (words.ARMOUR, N_("Armour of the soldier")),
    (words.ABILITIES, N_("Abilities")),
]


def soldier_cells(s: dict) -> list[str]:
    """One soldier's row of the squad table (the last cell: his abilities as the card writes them)."""
    cells = [s.get("num"), s.get("rank"), s.get("speed"), s.get("range") or "–", s.get("power") or "–"]
    cells += [s.get("melee"), s.get("armour"), " ".join(ability_label(a) for a in s.get("abilities") or [])]
    return [str(c) for c in cells]


# The structured custom-unit editor (pure data; rules/contract/army.py PROFILE_EDITOR_DOC) ---------------------
PROFILE_TEMPLATES = {
    "squad": {
        "soldiers": [
            {"num": n, "rank": 1, "speed": 4, "range": "Д6+1", "power": "1Д6", "melee": 2, "armour": 2, "abilities": []}
            for n in range(1, 7)
        ]
    },
    "vehicle": {
        "rank": 1,
        "weight": "light",
        "locomotion": "tracked",
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 9,
        "speed_sectors": [
            {"min": 7, "max": 9, "speed": 5},
            {"min": 4, "max": 6, "speed": 4},
            {"min": 1, "max": 3, "speed": 3},
        ],
        "arsenal": [
            {
                "key": "rockets",
                "name": "Ракетная установка",
                "range": "Д6+3",
                "power": "2Д20",
                "charges": ["shell", "rocket"],
            },
            {"key": "saw", "name": "Вибропила", "melee": 2},
        ],
        "mounts": None,
    },
    "gun": {
        "rank": 1,
        "mobile": True,
        "rof": 1,
        "ammo_max": 12,
        "strength_max": 4,
        "weapons": [{"key": "cannon", "name": "Пушка", "range": "Д12", "power": "2Д20", "charges": ["shell"]}],
    },
}

_RANGE_HINT = "write it like Д6+2, or leave it empty for no ranged weapon"


def _dice(name: str, label: str, placeholder: str, hint: str, **more) -> dict:
    return {"name": name, "label": label, "type": "short", "nullable": True, "code": True, "placeholder": placeholder,
            "hint": hint, **more}  # fmt: skip


def _int(name: str, label: str, **more) -> dict:
    return {"name": name, "label": label, "type": "int", **more}


SOLDIER_FIELDS = [
    {"name": "num", "type": "int", "auto": "number"},
    _int("rank", "Rank"),
    _int("speed", "Speed"),
    _dice("range", "Range", "Д6+2", _RANGE_HINT),
    _dice("power", "Power", "2Д6", "write it like 2Д6"),
    _int("melee", "Melee"),
    _int("armour", "Armour"),
    {"name": "repair", "label": "Рм repair", "type": "check", "path": "abilities", "member": "repair"},
    {"name": "jump", "label": "Jump pack", "type": "opt_int", "path": "abilities", "prefix": "jump:"},
    {"name": "other", "label": "Other abilities", "type": "text", "path": "abilities", "rest": True},
]
SECTOR_FIELDS = [
    _int("min", "From"),
    _int("max", "To"),
    _int("speed", "Speed"),
    {"name": "colour", "type": "text", "hidden": True, "omit_empty": True},
]
CHARGES = (("shell", "shell"), ("mine", "mine"), ("rocket", "rocket"))
WEAPON_FIELDS = [
    {"name": "name", "label": "Name", "type": "text"},
    _dice("range", "Range", "Д6+2", _RANGE_HINT, omit_empty=True),
    _dice("power", "Power", "2Д6", "write it like 2Д6", omit_empty=True),
    {"name": "melee", "label": "Melee ББ", "type": "opt_int", "omit_empty": True},
    {"name": "blast_steps", "label": "Blast steps", "type": "opt_int", "path": "special.blast_steps"},
    _dice("blast_power", "Blast power", "2Д6", "write it like 1Д20", path="special.blast_power"),
    *[
        {
            "name": f"charge_{c}",
            "label": f"Fires {label}",
            "type": "check",
            "path": "charges",
            "member": c,
            "omit_empty": True,
        }  # fmt: skip
        for c, label in CHARGES
    ],
    {"name": "key", "type": "text", "hidden": True, "auto": "slug:name"},
    {"name": "note", "type": "text", "hidden": True, "omit_empty": True},
    {"name": "special_text", "type": "text", "hidden": True, "path": "special.text"},
]
_MACHINE = [
    _int("rank", "Rank"),
    _int("rof", "Rate of fire"),
    _int("ammo_max", "Ammo (max)"),
    _int("strength_max", "Strength (max)"),
]
_WEIGHTS = [["light", "Light"], ["heavy", "Heavy"]]
_LOCOMOTIONS = [["wheeled", "Wheeled"], ["tracked", "Tracked"], ["walker", "Walker"], ["flying", "Flying"]]


def _section(name: str, key: str, label: str, fields: list, minimum: int, title: str = "") -> dict:
    return {"name": name, "key": key, "label": label, "legend": f"{label}s", "title": title or f"{label}s",
            "min": minimum, "fields": fields}  # fmt: skip


PROFILE_EDITOR = {
    "help": [
        "Dice as on the cards: range like `Д6+2` or `Д12`, power like `2Д6` or `3Д20` (Latin D works too). Leave "
        "range and power empty for a soldier with no ranged weapon.",
        "A melee weapon of a vehicle: only its «ББ» value in Melee, range and power empty.",
        "Speed sectors: the strength from – to and the speed at that strength.",
    ],
    "reference": [
        "**squad**: `soldiers`: list of {num, rank, speed, range, power, melee, armour, abilities}; range like "
        "`Д6+2`, power like `2Д6`, `null` for a dash; abilities `repair` (Рм), `jump:5` (Пр5).",
        "**vehicle**: rank, weight (light/heavy), locomotion (wheeled/tracked/walker/flying), rof, ammo_max, "
        "strength_max, speed_sectors [{min, max, speed}], arsenal [{key, name, range, power} or {key, name, melee}], "
        "mounts (number or null), variants.",
        "**gun**: rank, mobile (true/false), rof, ammo_max, strength_max, weapons.",
    ],
    "kinds": {
        "squad": {
            "label": "squad",
            "template": PROFILE_TEMPLATES["squad"],
            "fields": [],
            "sections": [_section("soldiers", "soldiers", "Soldier", SOLDIER_FIELDS, 1)],
        },
        "vehicle": {
            "label": "vehicle",
            "template": PROFILE_TEMPLATES["vehicle"],
            "fields": [
                _MACHINE[0],
                {"name": "weight", "label": "Weight", "type": "select", "choices": _WEIGHTS},
                {"name": "locomotion", "label": "Locomotion", "type": "select", "choices": _LOCOMOTIONS},
                *_MACHINE[1:],
                {"name": "mounts", "label": "Mounts (empty = all weapons)", "type": "opt_int"},
                {"name": "variants", "type": "json", "hidden": True, "omit_empty": True},
            ],
            "sections": [
                _section("sectors", "speed_sectors", "Speed sector", SECTOR_FIELDS, 1),
                _section("arsenal", "arsenal", "Weapon", WEAPON_FIELDS, 0, title="Arsenal"),
            ],
        },
        "gun": {
            "label": "gun",
            "template": PROFILE_TEMPLATES["gun"],
            "fields": [
                _MACHINE[0],
                {"name": "mobile", "label": "Mobile", "type": "check"},
                *_MACHINE[1:],
            ],
            "sections": [_section("weapons", "weapons", "Weapon", WEAPON_FIELDS, 1)],
        },
    },
}
