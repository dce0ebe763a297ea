"""The projection of a battle's event log: game state plus every unit's state. Pure Python, no database.

The same code folds events on every append (battles.services) and when the whole log is replayed (undo, the
replay check), so the stored state and the replayed state cannot drift apart.

Event payload keys the projection understands, whatever the event type:
- "apply": [{"unit": key, "effect": {...}}]: unit effects, applied in order through the rules tracker;
- "actor_unit": the unit acting now (its player finishes it before another of theirs acts; cleared by unit.done).
Game-level types: battle.started (sets the initial game state), round.started, initiative.rolled, order.set,
mission.completed. Anything derived (who controls each unit, soldiers alive, who is eliminated, whose turn, the
result by elimination) is recomputed by `derive()` after every event, so an undo that revives a soldier also
revives his player.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from battles import rules_bridge


@dataclass
class UnitRecord:
    key: str
    side: int  # the side that brought it (the current controller is game["owners"][key])
    profile: dict
    state: dict


def initial_game(*, sides: list[int], units: dict[str, int], names: dict | None = None) -> dict:
    """`names`: {"sides": {index: name}, "units": {key: name}}, kept for the readable log without a query."""
    names = names or {}
    return {
        "side_names": {str(k): v for k, v in (names.get("sides") or {}).items()},
        "unit_names": dict(names.get("units") or {}),
        "round": 1,
        "initiative": None,
        "order": [],
        "active_unit": None,
        "owners": dict(units),
        "sides": list(sides),
        "result": None,
        "eliminated": [],
        "soldiers": {},
        "pending": {},
        "done": {},
        "turn": None,
        "round_over": False,
    }


class Projection:
    def __init__(self, *, game: dict, units: dict[str, UnitRecord], settings: dict):
        self.game = game
        self.units = units
        self.settings = settings
        self.changed: set[str] = set()

    def owner(self, unit_key: str) -> int:
        unit = self.units[unit_key]
        return rules_bridge.owner_of(unit.state, unit.side)

    # Folding -----------------------------------------------------------------------------------------------
    def apply(self, event_type: str, payload: dict) -> None:
        game = self.game
        if event_type == "battle.started":
            self.game = game = copy.deepcopy(payload["game"])
        elif event_type == "round.started":
            game["round"] = payload["round"]
            game["initiative"] = None
            game["order"] = []
            game["active_unit"] = None
        elif event_type == "initiative.rolled":
            game["initiative"] = {"rolls": payload["rolls"], "winner": payload["winner"]}
        elif event_type == "order.set":
            game["order"] = list(payload["order"])
        elif event_type == "mission.completed":
            game["result"] = {"winner": payload["side"], "reason": "mission", "note": payload.get("note", "")}
        if payload.get("actor_unit") and not game.get("active_unit"):
            game["active_unit"] = payload["actor_unit"]
        if event_type == "unit.done" and game.get("active_unit") == payload.get("unit"):
            game["active_unit"] = None
        for item in payload.get("apply") or ():
            unit = self.units[item["unit"]]
            unit.state = rules_bridge.apply_effect(unit.state, item["effect"], unit.profile)
            self.changed.add(unit.key)
        self.derive()

    def derive(self) -> None:
        """Soldiers alive per side, eliminations (§3.15), the result by elimination, and whose turn it is (§3.2)."""
        game = self.game
        sides = game["sides"]
        soldiers = dict.fromkeys(sides, 0)
        pending = dict.fromkeys(sides, 0)
        done = dict.fromkeys(sides, 0)
        owners = {}
        for key, unit in self.units.items():
            owner = owners[key] = self.owner(key)
            facts = rules_bridge.unit_facts(unit.state, unit.profile, settings=self.settings, round_=game["round"])
            soldiers[unit.side] += facts["soldiers_alive"]  # soldiers stay with the Armlist they came from
            if facts["activated"]:
                done[owner] += 1
            elif facts["activatable"]:
                pending[owner] += 1
        eliminated = [s for s in sides if soldiers[s] == 0]
        game["owners"] = owners
        active = game.get("active_unit")
        if active and active in self.units:
            facts = rules_bridge.unit_facts(
                self.units[active].state, self.units[active].profile, settings=self.settings, round_=game["round"]
            )
            if facts["activated"] or not facts["activatable"]:
                game["active_unit"] = None
        game["soldiers"] = {str(s): n for s, n in soldiers.items()}
        game["pending"] = {str(s): n for s, n in pending.items()}
        game["done"] = {str(s): n for s, n in done.items()}
        game["eliminated"] = eliminated
        result = game.get("result")
        if result is None or result.get("reason") == "elimination":
            standing = [s for s in sides if s not in eliminated]
            if len(sides) > 1 and len(standing) <= 1:
                game["result"] = {"winner": standing[0] if standing else None, "reason": "elimination", "note": ""}
            else:
                game["result"] = None
        # Whose turn: players take one unit each in the chosen order; a player with no unit left waits (p.10).
        # Among players with units still to act, the one who has acted least goes next, ties by the order.
        order = [s for s in game["order"] if s not in eliminated]
        candidates = [s for s in order if pending[s] > 0]
        if game["result"] is not None or not order:
            game["turn"] = None
            game["round_over"] = False
        elif candidates:
            game["turn"] = min(candidates, key=lambda s: (done[s], order.index(s)))
            game["round_over"] = False
        else:
            game["turn"] = None
            game["round_over"] = True
