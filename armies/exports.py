"""Readable renderings of a roster state (armies.selectors.roster_state): the entry views the builder, the print
view and the text export draw, and the plain text for chat.

How an entry reads is the system's answer (`army.entry_views`, rules/contract/army.py ENTRY_VIEW_DOC); an entry it
leaves out is drawn from its options schema: a choice per enum, checks per list of enums, a number, a text, and
the JSON text of anything else.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armies import systems


def rules_roster(state: dict) -> dict:
    """The roster as the army part reads it, rebuilt from a roster state (no query)."""
    fields = ("slug", "name", "faction", "kind", "cost", "data")
    return {
        "system": state["system"],
        "faction": state["faction"],
        "points_limit": state["points_limit"],
        "entries": [
            {
                "key": e["key"],
                "profile": {k: e["profile"][k] for k in fields},
                "count": e["count"],
                "options": e["options"],
            }
            for e in state["entries"]
        ],
    }


def _encoded(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _choices_of(schema: dict) -> list[tuple] | None:
    """(value, label) of a schema that allows a fixed set of values: enum, const alternatives or a boolean. The
    labels a system gives (x-labels, titles) are msgids, said in the reader's language."""
    if "enum" in schema:
        labels = schema.get("x-labels") or {}
        return [(v, _(labels[str(v)]) if labels.get(str(v)) else str(v)) for v in schema["enum"]]
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if alternatives and all(isinstance(a, dict) and "const" in a for a in alternatives):
        return [(a["const"], _(a["title"]) if a.get("title") else str(a["const"])) for a in alternatives]
    if schema.get("type") == "boolean":
        return [(False, _("no")), (True, _("yes"))]
    return None


def _said(value) -> str:
    """A value as a person reads it: {"weapon": "rifle", "count": 2} -> "weapon rifle · count 2"."""
    if isinstance(value, dict):
        return " · ".join(f"{k} {_said(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_said(v) for v in value)
    return str(value)


def schema_view(schema: dict, options: dict) -> dict:
    """An entry view drawn from the entry's options schema (for systems that give none of their own)."""
    blocks, said = [], []
    required = set(schema.get("required") or [])
    for key, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        # The title is the system's msgid ("Loadout"), said in the reader's language.
        label, value = _(prop["title"]) if prop.get("title") else key.replace("_", " ").capitalize(), options.get(key)
        choices = _choices_of(prop)
        items = _choices_of(prop.get("items") or {}) if prop.get("type") == "array" else None
        if choices is not None:
            listed = [{"value": v, "label": text, "selected": v == value} for v, text in choices]
            if key not in required:
                listed.insert(0, {"value": None, "label": "—", "selected": value is None})
            blocks.append({"type": "choice", "option": key, "label": label, "choices": listed, "resets": []})
        elif items is not None:
            chosen = value if isinstance(value, list) else []
            checks = [{"value": v, "label": text, "checked": v in chosen} for v, text in items]
            blocks.append({"type": "checks", "option": key, "label": label, "items": checks, "empty": "—"})
        elif prop.get("type") in ("integer", "number", "string"):
            kind = "input" if prop["type"] == "string" else "number"
            bounds = {"min": prop.get("minimum"), "max": prop.get("maximum")}
            blocks.append({"type": kind, "option": key, "label": label, "value": value, **bounds})
        else:  # anything else is edited as its JSON text
            text = "" if value is None else json.dumps(value, ensure_ascii=False)
            blocks.append({"type": "json", "option": key, "label": label, "value": text})
        if value not in (None, [], ""):
            names = {str(v): text for v, text in (choices or items or [])}
            shown = [names.get(str(v), _said(v)) for v in (value if isinstance(value, list) else [value])]
            said.append(f"{label}: {', '.join(shown)}")
    summary = "; ".join(said)
    return {"blocks": blocks, "card": [{"type": "text", "text": summary}] if said else [], "summary": summary,
            "lines": [summary] if said else []}  # fmt: skip


def entry_views(state: dict) -> dict[str, dict]:
    """{entry key: view} of every entry of a roster state: the system's views, the schema's for the rest."""
    roster = rules_roster(state)
    views = systems.entry_views(state["system"], roster)
    for e in roster["entries"]:
        if e["key"] not in views:
            schema = systems.options_schema(state["system"], e["profile"]) if systems.army(state["system"]) else {}
            views[e["key"]] = schema_view(schema, e["options"])
    for view in views.values():
        for block in [*view.get("blocks", []), *view.get("card", [])]:
            for item in [*block.get("choices", []), *block.get("items", [])]:
                item["json"] = _encoded(item.get("value"))
            for slot in block.get("slots", []):
                for item in slot.get("choices", []):
                    item["json"] = _encoded(item.get("value"))
                slot["current"] = next((c["label"] for c in slot["choices"] if c.get("selected")), "")
            if block.get("type") == "json" and not isinstance(block.get("value"), str):
                block["value"] = "" if block.get("value") is None else _encoded(block["value"])
            if block.get("type") == "choice":
                block["current"] = next((c["label"] for c in block["choices"] if c.get("selected")), "")
            if block.get("type") == "job":
                block["href"] = job_link(state, block.get("job") or {})
    return views


def job_link(state: dict, job: dict) -> str:
    """The page of the duel job a system's suggested points came from (rules/jobs/replay.py): the viewer's own
    job with that recipe, or the form to run it, for the pack the roster pins."""
    query = {
        "pack": (state.get("pack") or {}).get("id", ""),
        "battles": job.get("battles", ""),
        "seed": job.get("seed", ""),
        "params": _encoded(job.get("params") or {}),
        "settings": _encoded(job.get("settings") or {}),
    }
    return f"{reverse('jobs:replay-duels')}?{urlencode(query)}"


def decorate(state: dict) -> dict:
    """Adds to each entry of a roster state its view, its options as JSON (for the builder's script) and its
    kind's note (e.g. "rank 2"); and to the state the headings of its kinds."""
    views = entry_views(state)
    for e in state["entries"]:
        e["view"] = views.get(e["key"]) or {"blocks": [], "card": [], "summary": "", "lines": []}
        e["options_json"] = _encoded(e["options"])
        e["note"] = systems.profile_note(state["system"], e["profile"])
    state["groups"] = systems.kind_groups(state["system"])
    return state


def roster_text(state: dict) -> str:
    currency = state.get("currency", "")
    limit = f" / {state['points_limit']}" if state["points_limit"] else ""
    lines = [f"{state['name']}: {state['total']}{limit} {currency}".rstrip()]
    packs = state.get("packs") or [state["pack"]]
    faction = state.get("faction_name") or state["faction"]
    lines += [" + ".join(f"{p['name']} v{p['version']}" for p in packs), _("Faction: {name}").format(name=faction)]
    views = entry_views(state)
    groups = systems.kind_groups(state["system"])
    kinds = list(groups) + sorted({e["profile"]["kind"] for e in state["entries"]} - set(groups))
    for kind in kinds:
        group = [e for e in state["entries"] if e["profile"]["kind"] == kind]
        if not group:
            continue
        lines += ["", f"{groups.get(kind, kind)}:"]
        for e in group:
            count = f"{e['count']}× " if e["count"] != 1 else ""
            lines.append(f"- {count}{e['profile']['name']} [{e['cost']}]")
            lines += [f"  {line}" for line in (views.get(e["key"]) or {}).get("lines", [])]
    problems = [i for i in state["issues"] if i["severity"] == "error"] + [
        i for e in state["entries"] for i in e["issues"] if i["severity"] == "error"
    ]
    if problems:
        lines += ["", ngettext("Not valid: {n} error", "Not valid: {n} errors", len(problems)).format(n=len(problems))]
    return "\n".join(lines) + "\n"
