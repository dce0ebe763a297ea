"""Unit profile schema of «Бронепехота» (spec §2.3, §2.6): what a data pack or a custom Armlist holds.

Dice are written as the cards write them, Cyrillic or Latin: range "Д6+2" / "D12", power "3Д20" / "2D6".
A melee weapon of a vehicle has `melee` (the «ББ/n» value) and no range or power.
"""

RANGE_PATTERN = r"^\s*[1]?\s*[ДдDd]\s*(6|12|20)\s*([+-]\s*\d+)?\s*$"
POWER_PATTERN = r"^\s*\d*\s*[ДдDd]\s*(6|12|20)\s*([+-]\s*\d+)?\s*$"

_dice_or_none = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": RANGE_PATTERN}]}
_power_or_none = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": POWER_PATTERN}]}

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
                        "blast_power": {"type": "string", "pattern": POWER_PATTERN},
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
