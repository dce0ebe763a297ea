"""Forms of the builder pages. They only parse input; checks of the data itself live in armies.services."""

from __future__ import annotations

import json
import re

from django import forms

from armies.models import Membership, Roster
from armies.services import slug_from

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


class RosterCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    pack = forms.TypedChoiceField(coerce=int, label="Data pack")
    faction = forms.ChoiceField(label="Army faction")
    points_limit = forms.IntegerField(required=False, min_value=0, label="Points limit (optional)")

    def __init__(self, *args, packs=(), factions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pack"].choices = [(p.pk, f"{p.name} v{p.version}") for p in packs]
        self.fields["faction"].choices = list(factions)


class RosterSettingsForm(forms.Form):
    name = forms.CharField(max_length=120)
    faction = forms.ChoiceField(label="Army faction")
    points_limit = forms.IntegerField(required=False, min_value=0, label="Points limit (optional)")
    visibility = forms.ChoiceField(choices=Roster.Visibility.choices)
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, factions=(), clubs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)
        self.fields["club"].choices = [("", "No club")] + [(c.pk, c.name) for c in clubs]


class ImportForm(forms.Form):
    file = forms.FileField(label="Roster file (.json exported from Armlist)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 1_000_000:
            raise forms.ValidationError("The file is larger than 1 MB; it is not a roster export.")
        try:
            return json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise forms.ValidationError("The file is not valid JSON, so it cannot be a roster export.") from exc


class PackCreateForm(forms.Form):
    name = forms.CharField(max_length=120)
    club = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Owner")

    def __init__(self, *args, clubs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [("", "Me")] + [(c.pk, f"Club: {c.name}") for c in clubs]


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=80, required=False, help_text="Short id; made from the name when empty.")
    faction = forms.ChoiceField()
    kind = forms.ChoiceField(choices=[("squad", "Squad"), ("vehicle", "Vehicle"), ("gun", "Gun")])
    cost = forms.IntegerField(min_value=0, max_value=10000)
    data = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 18, "spellcheck": "false", "class": "code"}),
        help_text="The Armlist values as JSON. Dice as on the cards: range Д6+2, power 3Д20; melee weapons {melee: 2}.",
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, factions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = list(factions)

    def clean_data(self):
        try:
            value = json.loads(self.cleaned_data["data"])
        except ValueError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise forms.ValidationError("The values must be a JSON object { … }.")
        return value


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class MemberAddForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.MEMBER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)


# Structured unit editor ----------------------------------------------------------------------------------------
# The browser form for players: one input per Armlist value, rows for soldiers, speed sectors and weapons. It posts
# flat names ("soldiers-2-range"); UnitEditor turns them into the same profile dict the JSON box holds, and turns
# the schema's errors (keyed "data.soldiers.2.range") back into plain words next to the field they concern.
# Field spec: (name, label, type); types: int (required), opt_int, dice, text, check, select, hidden.
WEIGHTS = [("light", "Light"), ("heavy", "Heavy")]
LOCOMOTIONS = [("wheeled", "Wheeled"), ("tracked", "Tracked"), ("walker", "Walker"), ("flying", "Flying")]
CHARGES = [("shell", "shell"), ("mine", "mine"), ("rocket", "rocket")]

TOP_FIELDS = {
    "squad": [],
    "vehicle": [
        ("rank", "Rank", "int"),
        ("weight", "Weight", "select"),
        ("locomotion", "Locomotion", "select"),
        ("rof", "Rate of fire", "int"),
        ("ammo_max", "Ammo (max)", "int"),
        ("strength_max", "Strength (max)", "int"),
        ("mounts", "Mounts (empty = all weapons)", "opt_int"),
        ("variants", "", "hidden"),
    ],
    "gun": [
        ("rank", "Rank", "int"),
        ("mobile", "Mobile", "check"),
        ("rof", "Rate of fire", "int"),
        ("ammo_max", "Ammo (max)", "int"),
        ("strength_max", "Strength (max)", "int"),
    ],
}
SOLDIER_FIELDS = [
    ("rank", "Rank", "int"),
    ("speed", "Speed", "int"),
    ("range", "Range", "dice"),
    ("power", "Power", "dice"),
    ("melee", "Melee", "int"),
    ("armour", "Armour", "int"),
    ("repair", "Рм repair", "check"),
    ("jump", "Jump pack", "opt_int"),
    ("other", "Other abilities", "text"),
]
SECTOR_FIELDS = [("min", "From", "int"), ("max", "To", "int"), ("speed", "Speed", "int"), ("colour", "", "hidden")]
WEAPON_FIELDS = [
    ("name", "Name", "text"),
    ("range", "Range", "dice"),
    ("power", "Power", "dice"),
    ("melee", "Melee ББ", "opt_int"),
    ("blast_steps", "Blast steps", "opt_int"),
    ("blast_power", "Blast power", "dice"),
    *[(f"charge_{c}", f"Fires {label}", "check") for c, label in CHARGES],
    ("key", "", "hidden"),
    ("note", "", "hidden"),
    ("special_text", "", "hidden"),
]
# kind -> [(section, data key, row label, fields, minimum rows)]
SECTIONS = {
    "squad": [("soldiers", "soldiers", "Soldier", SOLDIER_FIELDS, 1)],
    "vehicle": [
        ("sectors", "speed_sectors", "Speed sector", SECTOR_FIELDS, 1),
        ("arsenal", "arsenal", "Weapon", WEAPON_FIELDS, 0),
    ],
    "gun": [("weapons", "weapons", "Weapon", WEAPON_FIELDS, 1)],
}
HINTS = {
    "range": "write it like Д6+2, or leave it empty for no ranged weapon",
    "power": "write it like 2Д6",
    "blast_power": "write it like 1Д20",
}


def _flat_row(fields, item: dict) -> dict:
    """Form values of one row from one data item (soldier, speed sector or weapon)."""
    row = {}
    for name, _label, _type in fields:
        value = item.get(name)
        if name in ("repair", "jump", "other"):
            abilities = item.get("abilities") or []
            jumps = [a.split(":", 1)[1] for a in abilities if a.startswith("jump:")]
            value = {
                "repair": "repair" in abilities,
                "jump": jumps[0] if jumps else "",
                "other": ", ".join(a for a in abilities if a != "repair" and not a.startswith("jump:")),
            }[name]
        elif name in ("blast_steps", "blast_power"):
            value = (item.get("special") or {}).get(name)
        elif name == "special_text":
            value = (item.get("special") or {}).get("text")
        elif name.startswith("charge_"):
            value = name.removeprefix("charge_") in (item.get("charges") or [])
        row[name] = value if isinstance(value, bool) else ("" if value is None else str(value))
    return row


def editor_initial(kind: str, profile: dict) -> dict:
    """Flat form values ({"name": .., "soldiers-0-rank": ..}) of a profile dict {name, faction, cost, notes, data}."""
    data = profile.get("data") or {}
    values = {k: "" if profile.get(k) is None else str(profile[k]) for k in ("name", "faction", "cost", "notes")}
    for name, _label, ftype in TOP_FIELDS[kind]:
        value = data.get(name)
        if name == "variants":
            value = json.dumps(value, ensure_ascii=False) if value else ""
        values[name] = value if ftype == "check" else ("" if value is None else str(value))
    for section, key, _label, fields, _min in SECTIONS[kind]:
        for i, item in enumerate(data.get(key) or []):
            values.update({f"{section}-{i}-{k}": v for k, v in _flat_row(fields, item).items()})
    return values


def _int(text: str, *, required: bool) -> tuple[int | None, str | None]:
    text = (text or "").strip()
    if not text:
        return None, ("fill this in" if required else None)
    try:
        return int(text), None
    except ValueError:
        return None, "write a whole number, e.g. 3"


class UnitEditor:
    """The structured unit form: flat values in, a profile dict out, errors per flat field name."""

    def __init__(self, kind: str, values, *, factions=()):
        self.kind = kind if kind in SECTIONS else "squad"
        self.factions = list(factions)
        self.values = values  # a dict or a QueryDict of strings; checkboxes are "on" or absent/True/False
        self.errors: dict[str, str] = {}  # flat field name (or "" for the whole unit) -> message
        self.labels: dict[str, str] = {}  # flat field name -> "Soldier 3 · Range"
        self.row_of: dict[tuple[str, int], int] = {}  # (section, index in data) -> form row number

    # Reading the form
    def _get(self, name: str) -> str:
        value = self.values.get(name, "")
        return value if isinstance(value, str) else ("on" if value else "")

    def rows(self, section: str) -> list[int]:
        prefix = f"{section}-"
        found = {int(k.split("-")[1]) for k in self.values if k.startswith(prefix) and k.split("-")[1].isdigit()}
        return sorted(found)

    def _value(self, name: str, ftype: str, label: str):
        raw = self._get(name)
        self.labels[name] = label
        if ftype == "check":
            return raw not in ("", "off", "false", "False")
        if ftype in ("int", "opt_int"):
            value, error = _int(raw, required=ftype == "int")
            if error:
                self.errors[name] = error
            return value
        raw = raw.strip()
        if ftype == "dice":
            return raw or None
        return raw

    def _row_is_blank(self, section: str, row: int, fields) -> bool:
        return not any(self._get(f"{section}-{row}-{n}").strip() for n, _l, t in fields if t not in ("hidden",))

    def _item(self, section: str, row: int, number: int, label: str, fields) -> dict:
        v = {n: self._value(f"{section}-{row}-{n}", t, f"{label} {number} · {lab}") for n, lab, t in fields}
        if section == "soldiers":
            abilities = ["repair"] if v["repair"] else []
            if v["jump"] is not None:
                abilities.append(f"jump:{v['jump']}")
            abilities += [a.strip() for a in v["other"].split(",") if a.strip()]
            keys = ("rank", "speed", "range", "power", "melee", "armour")
            return {"num": number, **{k: v[k] for k in keys}, "abilities": abilities}
        if section == "sectors":
            return {k: v[k] for k in ("min", "max", "speed")} | ({"colour": v["colour"]} if v["colour"] else {})
        weapon = {"key": v["key"], "name": v["name"]}
        if v["melee"] is not None and not (v["range"] or v["power"]):
            weapon["melee"] = v["melee"]
        else:
            weapon.update(range=v["range"], power=v["power"])
            if v["melee"] is not None:
                weapon["melee"] = v["melee"]
        special = {"blast_steps": v["blast_steps"], "blast_power": v["blast_power"], "text": v["special_text"]}
        special = {k: s for k, s in special.items() if s not in (None, "")}
        if special:
            weapon["special"] = special
        charges = [c for c, _l in CHARGES if v[f"charge_{c}"]]
        if charges:
            weapon["charges"] = charges
        if v["note"]:
            weapon["note"] = v["note"]
        return weapon

    def profile(self, *, slug: str | None = None) -> dict:
        """The profile dict for services.profile_save; parse errors (not numbers…) land in self.errors."""
        common = {"name": "Name", "faction": "Faction", "cost": "Cost", "notes": "Notes"}
        self.labels.update(common)
        cost, error = _int(self._get("cost"), required=True)
        if error:
            self.errors["cost"] = error
        profile = {
            "slug": slug or "",
            "name": self._get("name").strip(),
            "faction": self._get("faction"),
            "kind": self.kind,
            "cost": cost,
            "notes": self._get("notes").strip(),
        }
        data = {}
        for name, label, ftype in TOP_FIELDS[self.kind]:
            if name == "variants":
                try:
                    variants = json.loads(self._get("variants") or "[]")
                except ValueError:
                    variants = []
                if variants:
                    data["variants"] = variants
                continue
            data[name] = self._value(name, ftype, label)
        for section, key, label, fields, _min in SECTIONS[self.kind]:
            items = []
            for row in self.rows(section):
                if self._row_is_blank(section, row, fields):
                    continue
                self.row_of[(key, len(items))] = row
                items.append(self._item(section, row, len(items) + 1, label, fields))
            if fields is WEAPON_FIELDS:  # keys the player never sees: made from the names, unique in the list
                taken = set()
                for item in items:
                    base = item["key"] or slug_from(item["name"]).replace("-", "_") or "weapon"
                    item["key"], n = base, 2
                    while item["key"] in taken:
                        item["key"], n = f"{base}_{n}", n + 1
                    taken.add(item["key"])
            data[key] = items
        profile["data"] = data
        return profile

    # Errors from the service, in words a player understands
    def add_service_errors(self, errors: dict[str, str], message: str) -> None:
        sections = {key: (section, label) for section, key, label, _f, _m in SECTIONS[self.kind]}
        for path, text in errors.items():
            parts = path.split(".")
            name = parts[0]
            if name == "slug":  # the slug is made from the name: a clash or a bad slug is about the name
                if text == "taken":
                    self.errors["name"] = "another unit in this pack already has this name; choose another name"
                else:
                    self.errors.setdefault("name", "the name needs at least one letter or digit")
                continue
            if name == "faction":
                self.errors["faction"] = "choose one of the pack's factions"
                continue
            if name != "data" or len(parts) == 1:
                self.errors[name if name in ("name", "cost", "notes") else ""] = self._words(name, text)
                continue
            key = parts[1]
            if key in sections and len(parts) >= 4 and parts[2].isdigit():
                section, label = sections[key]
                row = self.row_of.get((key, int(parts[2])))
                field = {"abilities": "other"}.get(parts[3], parts[3])
                if field == "special":  # "null or {blast_steps, blast_power}": the dice one fails on its format
                    field = "blast_power" if "format" in text or parts[-1] == "blast_power" else "blast_steps"
                flat = f"{section}-{row}-{field}"
                if row is None or flat not in self.labels:
                    self.errors[""] = f"{label} {int(parts[2]) + 1}: {text}"
                    continue
                self.errors[flat] = self._words(field, text)
            elif key in sections:
                section, label = sections[key]
                self.errors[section] = self._words(section, text, row_label=label)
            else:
                self.errors[key if key in self.labels else ""] = self._words(key, text)
        if not errors:
            self.errors[""] = message

    @staticmethod
    def _words(field: str, text: str, *, row_label: str = "") -> str:
        if field in HINTS and "format" in text:
            return HINTS[field]
        if match := re.search(r"greater than the maximum of (\d+)", text):
            return f"must be {match[1]} or less"
        if match := re.search(r"less than the minimum of (\d+)", text):
            return f"must be {match[1]} or more"
        if row_label and ("too short" in text or "non-empty" in text):
            return f"add at least one {row_label.lower()}"
        if row_label and ("too long" in text or "too many" in text):
            return f"too many rows of {row_label.lower()}"
        if "required" in text or "non-empty" in text or "too short" in text:
            return "fill this in"
        if "is not one of" in text:
            return "choose one of the options"
        return text

    def error_list(self) -> list[str]:
        """All errors as "Soldier 3 · Range: write it like Д6+2", in form order."""
        out = []
        for name, message in self.errors.items():
            label = self.labels.get(name) or {"soldiers": "Soldiers", "sectors": "Speed sectors"}.get(name, "")
            label = label or {"arsenal": "Arsenal", "weapons": "Weapons"}.get(name, "")
            out.append(f"{label}: {message}" if label else message)
        return out

    # Rendering
    def _field(self, name: str, label: str, ftype: str, choices=()) -> dict:
        value = self._get(name) if ftype != "check" else self._get(name) not in ("", "off", "false", "False")
        return {
            "name": name,
            "label": label,
            "type": ftype,
            "value": value,
            "error": self.errors.get(name, ""),
            "choices": choices,
        }

    def top_fields(self) -> list[dict]:
        choices = {"weight": WEIGHTS, "locomotion": LOCOMOTIONS}
        return [self._field(n, lab, t, choices.get(n, ())) for n, lab, t in TOP_FIELDS[self.kind]]

    def sections(self) -> list[dict]:
        result = []
        for section, _key, label, fields, minimum in SECTIONS[self.kind]:
            rows = []
            for number, row in enumerate(self.rows(section), start=1):
                cells = [self._field(f"{section}-{row}-{n}", lab, t) for n, lab, t in fields]
                rows.append({"row": row, "number": number, "fields": cells})
            result.append(
                {
                    "name": section,
                    "label": label,
                    "rows": rows,
                    "error": self.errors.get(section, ""),
                    "template": [self._field(f"{section}-__row__-{n}", lab, t) for n, lab, t in fields],
                    "minimum": minimum,
                }
            )
        return result

    def with_rows_changed(self, action: str) -> dict:
        """Form values after an "add:<section>" or "remove:<section>:<row>" button (for pages without JS)."""
        values = {k: self.values.get(k) for k in self.values}
        parts = action.split(":")
        sections = {s: fields for s, _k, _l, fields, _m in SECTIONS[self.kind]}
        if parts[0] == "add" and len(parts) == 2 and parts[1] in sections:
            row = max(self.rows(parts[1]), default=-1) + 1
            values.update({f"{parts[1]}-{row}-{n}": "" for n, _l, _t in sections[parts[1]]})
        elif parts[0] == "remove" and len(parts) == 3 and parts[1] in sections:
            prefix = f"{parts[1]}-{parts[2]}-"
            values = {k: v for k, v in values.items() if not k.startswith(prefix)}
        return values
