"""The widgets a system declares to draw the phone board. The generic templates (templates/battles/widgets/)
render each by its "type"; a button sends a battle command ({"command": name, "inputs": {...}}).

A board is {"controls": [widget…] (battle level: rounds, initiative, orders, prompts), "units": {unit key:
{"title", "subtitle", "flags": [flag…], "widgets": [widget…]}}}. Every widget is a plain JSON-safe dict made by
the functions below, so a system never writes HTML.
"""

from __future__ import annotations


def flag(label: str, tone: str = "", *, rule: str = "") -> dict:
    """A chip: tone "" | "good" | "warn" | "bad". `rule`: the key of its rule at hand (rules/contract/at_roll.py),
    which the chip links to."""
    return {"type": "flag", "label": label, "tone": tone, "rule": rule}


def status(label: str, turns: int | None = None, tone: str = "warn", *, rule: str = "") -> dict:
    """A status chip with the turns it still lasts (None: until removed); `rule` as for flag()."""
    return {"type": "status", "label": label, "turns": turns, "tone": tone, "rule": rule}


def stats(items: list[tuple[str, object]]) -> dict:
    """A line of labelled values («Броня 4 · Скорость 2»)."""
    return {"type": "stats", "items": [{"label": k, "value": v} for k, v in items]}


def text(value: str, tone: str = "muted") -> dict:
    return {"type": "text", "value": value, "tone": tone}


def set_value(command: str, inputs: dict, field: str) -> dict:
    """How a slider sets a value by hand (a long press or a drag): the command, its inputs, and the dotted path in
    the inputs where the value goes ("changes.ammo")."""
    return {"command": command, "inputs": inputs, "field": field}


def track(
    label: str,
    value: int,
    maximum: int,
    cells: list[dict] | None = None,
    *,
    set_command=None,
    minus: dict | None = None,
    plus: dict | None = None,
    minimum: int = 0,
) -> dict:
    """A slider on a printed track (strength, ammo), drawn on the unit's row. `cells`: [{"n", "on", "lost",
    "colour"}] from max to 1. `minus`/`plus`: button() dicts, one tap steps; `set_command` (set_value()): a long
    press or a drag along the track sets a value."""
    step = {"minus": minus, "plus": plus} if minus and plus else None
    return {
        "type": "track",
        "label": label,
        "value": value,
        "max": maximum,
        "min": minimum,
        "cells": cells,
        "set": set_command,
        "step": step,
    }


def counter(
    label: str,
    value: int,
    maximum: int | None = None,
    *,
    minus: dict | None = None,
    plus: dict | None = None,
    set_command=None,
    minimum: int = 0,
) -> dict:
    """A number with − and + buttons (ammo, wound markers, command points): `minus`/`plus` are button() dicts, one
    tap steps. With a `maximum` and `set_command` (set_value()) the row also draws a scale from `minimum` to it:
    a long press or a drag sets a value."""
    step = {"minus": minus, "plus": plus} if minus and plus else None
    return {
        "type": "counter",
        "label": label,
        "value": value,
        "max": maximum,
        "min": minimum,
        "step": step,
        "set": set_command,
    }


def button(
    label: str,
    command: str,
    inputs: dict | None = None,
    *,
    secondary: bool = True,
    disabled: bool = False,
    attrs: dict | None = None,
    aria_label: str = "",
) -> dict:
    """A button that sends a command at once. `attrs`: extra data-* attributes the board script reads;
    `aria_label`: what a screen reader says when the label is a sign (the − and + of a slider: «Ammo −1»)."""
    return {
        "type": "button",
        "label": label,
        "aria_label": aria_label,
        "command": command,
        "inputs": inputs or {},
        "secondary": secondary,
        "disabled": disabled,
        "attrs": attrs or {},
    }


def buttons(items: list[dict], *, title: str = "", folded: bool = False, help: str = "") -> dict:
    """A row of buttons, optionally folded under a title (e.g. rulings by hand); `help` says what they are for."""
    return {"type": "buttons", "items": items, "title": title, "folded": folded, "help": help}


def rows(items: list[dict]) -> dict:
    """Sub-rows of a unit (soldiers, figures): each {"key", "title", "subtitle", "flags", "widgets", "dead"}."""
    return {"type": "rows", "items": items}


def order_form(command: str, *, fields: list[dict], title: str, given: bool = False, summary: str = "") -> dict:
    """A secret order: the fields (each {"name", "label", "kind": "choice"|"number", "choices"?, "min"?, "max"?})
    are sent together as one command; the other side sees only that an order was given."""
    return {
        "type": "order_form",
        "command": command,
        "fields": fields,
        "title": title,
        "given": given,
        "summary": summary,
    }


def prompt(
    question: str,
    command: str,
    *,
    options: list[dict] | None = None,
    fields: list[dict] | None = None,
    dice: list[dict] | None = None,
    odds: bool = False,
    compare: tuple[str, ...] = (),
    rule: str = "",
) -> dict:
    """A question to this player, or a command's form (answer with `command`): `options` are one-tap answers
    ({"label", "inputs"}), `fields` a small form, `dice` a dice entry for typing in real dice. `odds`: the form shows
    the exact odds of its roll as it is filled (the system's at_roll part maps it); `compare`: fields whose values a
    "which …?" view ranks; `rule`: the key of the rule at hand the form links to."""
    return {
        "type": "prompt",
        "question": question,
        "command": command,
        "options": options or [],
        "fields": fields or [],
        "dice": dice or [],
        "odds": odds,
        "compare": list(compare),
        "rule": rule,
    }


def fold(title: str, widgets: list[dict], *, key: str, open: bool = False) -> dict:
    """Widgets folded under a title a tap opens (an action's form on a unit's card). `key` (letters, digits and
    dashes) names the fold among the card's others, so it stays open when the board is redrawn."""
    return {"type": "fold", "title": title, "widgets": widgets, "key": key, "open": open}


def dice_entry(label: str, dice: list[dict]) -> dict:
    """Boxes for dice rolled at the table, one per die: [{"label": "Д12 дальность", "faces": 12}]."""
    return {"type": "dice_entry", "label": label, "dice": dice}
