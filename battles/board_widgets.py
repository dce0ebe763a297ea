"""What the board templates need beside a system's widgets (rules/contract/board.py): each button's inputs as JSON
for its data-inputs attribute, each slider's scale and the command that sets it.

The cards of the units are prepared only when they are drawn (battles/templatetags/battle_board.py): a card that did
not change since the last render is served from the memo without walking its widgets again.
"""

from __future__ import annotations

import json

MAX_SCALE_CELLS = 40  # a counter with a longer range is stepped only (its cells would not fit a phone's row)


def _scale(widget: dict) -> list[dict]:
    """The cells a slider is set along: a track's printed cells (and 0 below them), a counter's min..max."""
    low, high, value = widget.get("min") or 0, widget.get("max"), widget.get("value")
    if widget["type"] == "track":
        cells = list(widget.get("cells") or [])
        if widget.get("set") and low == 0 and cells and not any(c.get("n") == 0 for c in cells):
            cells.append({"n": 0, "on": value == 0, "lost": False, "colour": ""})
        return cells
    if not widget.get("set") or high is None or not 0 < high - low <= MAX_SCALE_CELLS:
        return []
    return [{"n": n, "on": n == value, "lost": n > value, "colour": ""} for n in range(low, high + 1)]


def with_json_inputs(node):
    """Every button of a board gets its inputs as JSON for its data-inputs attribute; every slider its scale and
    the command that sets it."""
    if isinstance(node, dict):
        if node.get("type") == "button":
            node["inputs_json"] = json.dumps(node.get("inputs") or {}, ensure_ascii=False)
        elif node.get("type") in ("track", "counter"):
            node["scale"] = _scale(node)
            if node.get("set"):
                node["set_json"] = json.dumps(node["set"], ensure_ascii=False)
        for value in list(node.values()):
            with_json_inputs(value)
    elif isinstance(node, list):
        for value in node:
            with_json_inputs(value)
    return node


def prepare_board(board: dict) -> dict:
    """Every part of the board but the unit cards (see the module's note)."""
    return {key: value if key == "groups" else with_json_inputs(value) for key, value in board.items()}
