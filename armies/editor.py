"""The structured custom-unit editor: one input per value of a unit, rows for its lists (soldiers, weapons…).

What the form holds is the system's answer: its army part's `profile_editor` (pure data, rules/contract/army.py
PROFILE_EDITOR_DOC), or, for a system that gives none, a plain form derived from its profile schema. The page posts
flat names ("soldiers-2-range"); UnitEditor turns them into the profile dict the JSON box holds, and turns the
schema's errors (keyed "data.soldiers.2.range") back into plain words next to the field they concern.
"""

from __future__ import annotations

import json
import re

from armies import systems
from armies.services import slug_from

COMMON_LABELS = {"name": "Name", "faction": "Faction", "cost": "Cost", "notes": "Notes"}


# The layout ----------------------------------------------------------------------------------------------------
def layout_for(system: str) -> dict:
    """{"help", "reference", "kinds": {kind: form}} of the system's custom units."""
    given = systems.profile_editor(system)
    if given:
        return {"help": [], "reference": [], **given}
    return derived_layout(systems.profile_schema(system), systems.kind_labels(system))


def _resolve(schema, root: dict) -> dict:
    """A local "$ref" (#/$defs/…) followed; anything else as it is."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        target = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        schema = target
    return schema if isinstance(schema, dict) else {}


def _data_schema(schema: dict, kind: str | None) -> dict:
    """The schema of a profile's `data` for one kind (a kind-specific if/then, else the plain `data`)."""
    found = (schema.get("properties") or {}).get("data") or {}
    for part in [schema, *(schema.get("allOf") or [])]:
        condition = (((part.get("if") or {}).get("properties") or {}).get("kind")) or {}
        if kind is not None and (condition.get("const") == kind or kind in (condition.get("enum") or [])):
            found = (((part.get("then") or {}).get("properties") or {}).get("data")) or found
    return _resolve(found, schema)


def _derived_field(name: str, prop: dict, required: bool) -> dict | None:
    types = prop.get("type") if isinstance(prop.get("type"), list) else [prop.get("type")]
    alternatives = [a for a in prop.get("anyOf") or prop.get("oneOf") or [] if isinstance(a, dict)]
    nullable = "null" in types or any(a.get("type") == "null" for a in alternatives)
    types += [a.get("type") for a in alternatives]
    field = {"name": name, "label": prop.get("title") or name.replace("_", " ").capitalize()}
    if prop.get("description"):
        field["hint"] = prop["description"]
    if "enum" in prop:
        choices = [[v, str(v)] for v in prop["enum"]]
        if not required:
            return {**field, "type": "select", "choices": [["", "—"], *choices], "omit_empty": True}
        return {**field, "type": "select", "choices": choices}
    if "boolean" in types:
        return {**field, "type": "check"}
    if "integer" in types:
        return {**field, "type": "int" if required and not nullable else "opt_int", "omit_empty": not required}
    if "number" in types:
        return {**field, "type": "number", "omit_empty": not required}
    if "string" in types:
        wide = (prop.get("maxLength") or 1000) > 60
        return {**field, "type": "text" if wide else "short", "nullable": nullable, "omit_empty": not required}
    if "array" in types and (prop.get("items") or {}).get("type") == "string":
        return {**field, "type": "text", "rest": True, "omit_empty": not required}
    return None


def _derived_fields(schema: dict, root: dict) -> tuple[list, list]:
    fields, sections = [], []
    required = set(schema.get("required") or [])
    for name, prop in (schema.get("properties") or {}).items():
        prop = _resolve(prop, root)
        field = _derived_field(name, prop, name in required)
        items = _resolve(prop.get("items") or {}, root)
        if field is not None:
            fields.append(field)
        elif prop.get("type") == "array" and items.get("type") == "object":
            row_fields, _nested = _derived_fields(items, root)
            label = prop.get("title") or name.replace("_", " ").capitalize()
            section = {"name": name, "key": name, "label": label, "legend": label, "title": label}
            sections.append({**section, "min": prop.get("minItems", 0), "fields": row_fields})
        else:
            label = prop.get("title") or name.replace("_", " ").capitalize()
            fields.append({"name": name, "label": label, "type": "json", "omit_empty": name not in required})
    return fields, sections


def derived_layout(schema: dict, kinds: dict[str, str]) -> dict:
    """A plain form per kind from a profile schema: a number, a text, a box or a choice per value, rows per list
    of objects, JSON text for anything else."""
    result = {}
    for kind, label in (kinds or {"unit": "unit"}).items():
        fields, sections = _derived_fields(_data_schema(schema, kind), schema)
        result[kind] = {"label": label, "template": {}, "fields": fields, "sections": sections}
    return {"help": [], "reference": [], "kinds": result}


# Values between the profile and the form -------------------------------------------------------------------------
def _dig(item: dict, path: str):
    for part in path.split("."):
        item = item.get(part) if isinstance(item, dict) else None
    return item


def _place(item: dict, path: str, value) -> None:
    """Sets a dotted path; a nested value left empty is not stored (nor its parents)."""
    parts = path.split(".")
    if len(parts) > 1 and value in (None, ""):
        return
    for part in parts[:-1]:
        item = item.setdefault(part, {})
    item[parts[-1]] = value


def _empty(value) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _flat(field: dict, item: dict, fields: list[dict]):
    """A field's form value from a data object."""
    path = field.get("path", field["name"])
    value = _dig(item, path)
    if "member" in field:
        return field["member"] in (value or [])
    if "prefix" in field:
        found = [str(v)[len(field["prefix"]) :] for v in value or [] if str(v).startswith(field["prefix"])]
        return found[0] if found else ""
    if field.get("rest"):
        mine = [f for f in fields if f.get("path", f["name"]) == path and f is not field]
        taken = {f["member"] for f in mine if "member" in f}
        prefixes = [f["prefix"] for f in mine if "prefix" in f]
        return ", ".join(str(v) for v in value or [] if v not in taken and not str(v).startswith(tuple(prefixes)))
    if field["type"] == "json":
        return json.dumps(value, ensure_ascii=False) if not _empty(value) else ""
    if field["type"] == "check":
        return bool(value)
    return "" if value is None else str(value)


def editor_initial(form: dict, profile: dict) -> dict:
    """Flat form values ({"name": .., "soldiers-0-rank": ..}) of a profile dict {name, faction, cost, notes, data}."""
    data = profile.get("data") or {}
    values = {k: "" if profile.get(k) is None else str(profile[k]) for k in COMMON_LABELS}
    for field in form["fields"]:
        if field.get("auto") != "number":
            values[field["name"]] = _flat(field, data, form["fields"])
    for section in form["sections"]:
        items = data.get(section["key"]) or []
        rows = items or [{}] * section.get("min", 0)
        for i, item in enumerate(rows):
            for field in section["fields"]:
                if field.get("auto") != "number":
                    values[f"{section['name']}-{i}-{field['name']}"] = _flat(field, item, section["fields"])
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
    """The structured unit form of one kind: flat values in, a profile dict out, errors per flat field name."""

    def __init__(self, form: dict, kind: str, values, *, factions=()):
        self.form, self.kind = form, kind
        self.factions = list(factions)
        self.values = values  # a dict or a QueryDict of strings; checkboxes are "on" or absent/True/False
        self.errors: dict[str, str] = {}  # flat field name (or "" for the whole unit) -> message
        self.labels: dict[str, str] = {}  # flat field name -> "Soldier 3 · Range"
        self.row_of: dict[tuple[str, int], int] = {}  # (data key, index in data) -> form row number

    # Reading the form
    def _get(self, name: str) -> str:
        value = self.values.get(name, "")
        return value if isinstance(value, str) else ("on" if value else "")

    def rows(self, section: str) -> list[int]:
        prefix = f"{section}-"
        found = {int(k.split("-")[1]) for k in self.values if k.startswith(prefix) and k.split("-")[1].isdigit()}
        return sorted(found)

    def _value(self, name: str, field: dict, label: str):
        raw, ftype = self._get(name), field["type"]
        self.labels[name] = label
        if ftype == "check":
            return raw not in ("", "off", "false", "False")
        if ftype in ("int", "opt_int"):
            value, error = _int(raw, required=ftype == "int")
            if error:
                self.errors[name] = error
            return value
        raw = raw.strip()
        if ftype == "select":  # the choice's own value (a number stays a number)
            return next((c[0] for c in field.get("choices") or () if str(c[0]) == raw), raw)
        if ftype == "number":
            try:
                return (float(raw) if "." in raw else int(raw)) if raw else None
            except ValueError:
                self.errors[name] = "write a number, e.g. 2.5"
                return None
        if ftype == "json":
            try:
                return json.loads(raw) if raw else None
            except ValueError:
                if not field.get("hidden"):
                    self.errors[name] = "not valid JSON"
                return None
        return (raw or None) if field.get("nullable") else raw

    def _row_is_blank(self, section: str, row: int, fields) -> bool:
        shown = [f for f in fields if not f.get("hidden") and f.get("auto") != "number"]
        return not any(self._get(f"{section}-{row}-{f['name']}").strip() for f in shown)

    def _assemble(self, fields: list[dict], values: dict, number: int | None = None) -> dict:
        item: dict = {}
        lists: dict[str, list] = {}
        optional: set[str] = set()
        for field in fields:
            path, value = field.get("path", field["name"]), values.get(field["name"])
            if field.get("auto") == "number":
                value = number
            if "member" in field or "prefix" in field or field.get("rest"):
                found = lists.setdefault(path, [])
                if field.get("omit_empty"):
                    optional.add(path)
                if "member" in field and value:
                    found.append(field["member"])
                elif "prefix" in field and not _empty(value):
                    found.append(f"{field['prefix']}{value}")
                elif field.get("rest"):
                    found += [a.strip() for a in (value or "").split(",") if a.strip()]
                continue
            if _empty(value) and field.get("omit_empty"):
                continue
            _place(item, path, value)
        for path, found in lists.items():
            if found or path not in optional:
                _place(item, path, found)
        return item

    def _read(self, prefix: str, fields: list[dict], label: str) -> dict:
        shown = [f for f in fields if f.get("auto") != "number"]
        return {f["name"]: self._value(f"{prefix}{f['name']}", f, (label + f.get("label", "")).strip()) for f in shown}

    def profile(self, *, slug: str | None = None) -> dict:
        """The profile dict for services.profile_save; parse errors (not numbers…) land in self.errors."""
        self.labels.update(COMMON_LABELS)
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
        data = self._assemble(self.form["fields"], self._read("", self.form["fields"], ""))
        for section in self.form["sections"]:
            items, fields, name = [], section["fields"], section["name"]
            for row in self.rows(name):
                if self._row_is_blank(name, row, fields):
                    continue
                self.row_of[(section["key"], len(items))] = row
                values = self._read(f"{name}-{row}-", fields, f"{section['label']} {len(items) + 1} · ")
                items.append(self._assemble(fields, values, number=len(items) + 1))
            for field in fields:  # keys the player never sees: made from another field, unique in the list
                auto = field.get("auto") or ""
                if auto.startswith("slug:"):
                    taken: set = set()
                    for item in items:
                        base = item.get(field["name"]) or slug_from(str(item.get(auto[5:]) or "")).replace("-", "_")
                        base = base or section["label"].lower().replace(" ", "_")
                        item[field["name"]], n = base, 2
                        while item[field["name"]] in taken:
                            item[field["name"]], n = f"{base}_{n}", n + 1
                        taken.add(item[field["name"]])
            data[section["key"]] = items
        profile["data"] = data
        return profile

    # Errors from the service, in words a player understands
    @staticmethod
    def _field_for(fields: list[dict], rest: list[str]) -> dict | None:
        path = ".".join(rest)
        shown = [f for f in fields if f.get("auto") != "number"]
        for field in shown:
            if field.get("path", field["name"]) == path and not ("member" in field or "prefix" in field):
                return field
        if rest:
            listed = [f for f in shown if f.get("path", f["name"]) == rest[0]]
            if listed:
                return next((f for f in listed if f.get("rest")), listed[0])
        return next((f for f in shown if f.get("path", f["name"]).startswith(path + ".")), None)

    def add_service_errors(self, errors: dict[str, str], message: str) -> None:
        sections = {s["key"]: s for s in self.form["sections"]}
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
                self.errors[name if name in COMMON_LABELS else ""] = self._words(None, text)
                continue
            key = parts[1]
            section = sections.get(key)
            if section is not None and len(parts) >= 3 and parts[2].isdigit():
                row, field = self.row_of.get((key, int(parts[2]))), self._field_for(section["fields"], parts[3:])
                flat = f"{section['name']}-{row}-{field['name']}" if field else ""
                if row is None or flat not in self.labels:
                    self.errors[""] = f"{section['label']} {int(parts[2]) + 1}: {text}"
                    continue
                self.errors[flat] = self._words(field, text)
            elif section is not None:
                self.errors[section["name"]] = self._words(None, text, row_label=section["label"])
            else:
                field = self._field_for(self.form["fields"], parts[1:])
                known = field is not None and field["name"] in self.labels
                self.errors[field["name"] if known else ""] = self._words(field, text)
        if not errors:
            self.errors[""] = message

    @staticmethod
    def _words(field: dict | None, text: str, *, row_label: str = "") -> str:
        if field and field.get("hint") and "format" in text:
            return field["hint"]
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
        titles = {s["name"]: s.get("title") or s["label"] for s in self.form["sections"]}
        out = []
        for name, message in self.errors.items():
            label = self.labels.get(name) or titles.get(name, "")
            out.append(f"{label}: {message}" if label else message)
        return out

    # Rendering
    def _field(self, name: str, field: dict) -> dict:
        value = self._get(name)
        return {
            "name": name,
            "label": field.get("label", ""),
            "type": field["type"],
            "value": value not in ("", "off", "false", "False") if field["type"] == "check" else value,
            "error": self.errors.get(name, ""),
            "choices": [(str(c[0]), c[1]) for c in field.get("choices") or ()],
            "hidden": bool(field.get("hidden")),
            "numeric": field["type"] in ("int", "opt_int", "number"),
            "placeholder": field.get("placeholder", ""),
            "code": bool(field.get("code")),
        }

    def top_fields(self) -> list[dict]:
        return [self._field(f["name"], f) for f in self.form["fields"] if f.get("auto") != "number"]

    def sections(self) -> list[dict]:
        result = []
        for section in self.form["sections"]:
            name, fields = section["name"], [f for f in section["fields"] if f.get("auto") != "number"]
            rows = [
                {"row": row, "number": n, "fields": [self._field(f"{name}-{row}-{f['name']}", f) for f in fields]}
                for n, row in enumerate(self.rows(name), start=1)
            ]
            result.append(
                {
                    "name": name,
                    "label": section["label"],
                    "legend": section.get("legend") or section["label"],
                    "rows": rows,
                    "error": self.errors.get(name, ""),
                    "template": [self._field(f"{name}-__row__-{f['name']}", f) for f in fields],
                    "minimum": section.get("min", 0),
                }
            )
        return result

    def with_rows_changed(self, action: str) -> dict:
        """Form values after an "add:<section>" or "remove:<section>:<row>" button (for pages without JS)."""
        values = {k: self.values.get(k) for k in self.values}
        parts = action.split(":")
        sections = {s["name"]: s["fields"] for s in self.form["sections"]}
        if parts[0] == "add" and len(parts) == 2 and parts[1] in sections:
            row = max(self.rows(parts[1]), default=-1) + 1
            values.update(
                {f"{parts[1]}-{row}-{f['name']}": "" for f in sections[parts[1]] if f.get("auto") != "number"}
            )
        elif parts[0] == "remove" and len(parts) == 3 and parts[1] in sections:
            prefix = f"{parts[1]}-{parts[2]}-"
            values = {k: v for k, v in values.items() if not k.startswith(prefix)}
        return values
