"""How each «Бронепехота» event changes the game: the fold the runner applies on every append and on replay, so the
stored state and the replayed state cannot drift apart.

Event payload keys the fold understands, whatever the event type:
- "apply": [{"unit": key, "effect": {...}}]: unit effects, applied in order through the tracker;
- "actor_unit": the unit acting now (its player finishes it before another of theirs acts; cleared by unit.done).
Game-level types: round.started, initiative.rolled, order.set, mission.completed, action.resolved (a grenade throw
waits in game["grenades"] until its burst is resolved; a pilot's test asked of his own player waits in
game["questions"] until answered), question.lapsed. Anything derived (who controls each unit, soldiers alive,
who is eliminated, whose turn, the result by elimination) is recomputed by `derive()` after every event, so an undo
that revives a soldier also revives his player.
"""

from __future__ import annotations

from rules.contract import Event, GameState
from rules.systems.bronepekhota import tracker
from rules.systems.bronepekhota.battle.units import actor_facts, owner_of, system_settings, unit_facts


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
        "deployment": new_deployment(),
    }


def new_deployment() -> dict:
    """Deployment before the first round (p.3–4, §5 A3): who places first (a d12 roll-off when players alternate)
    and the units placed so far, in order."""
    return {"first": None, "rolls": [], "placed": []}


def apply(state: GameState, event: Event) -> None:
    game = state.game
    payload = event.payload
    kind = event.type
    if kind == "round.started":
        game["round"] = payload["round"]
        game["initiative"] = None
        game["order"] = []
        game["active_unit"] = None
    elif kind == "initiative.rolled":
        game["initiative"] = {"rolls": payload["rolls"], "winner": payload["winner"]}
    elif kind == "order.set":
        game["order"] = list(payload["order"])
    elif kind == "mission.completed":
        game["result"] = {"winner": payload["side"], "reason": "mission", "note": payload.get("note", "")}
    elif kind == "deployment.rolled":
        deployment = game.setdefault("deployment", new_deployment())
        deployment.update(first=payload["winner"], rolls=payload["rolls"])
    elif kind == "deployment.placed":
        game.setdefault("deployment", new_deployment())["placed"].append(payload["unit"])
    elif kind == "dispute.rolled":
        game.setdefault("disputes", []).append(
            {"winner": payload["winner"], "note": payload.get("note", ""), "seq": event.seq}
        )
    elif kind == "action.resolved":
        _grenades(game, event)
        _questions(game, event)
    elif kind == "question.lapsed":
        _questions(game, event)
    if payload.get("actor_unit") and not game.get("active_unit"):
        game["active_unit"] = payload["actor_unit"]
    if kind == "unit.done" and game.get("active_unit") == payload.get("actor", payload.get("unit")):
        game["active_unit"] = None
    for item in payload.get("apply") or ():
        unit = state.units[item["unit"]]
        unit.state = tracker.apply_effect(unit.state, item["effect"])
        state.changed.add(unit.key)
    derive(state)


def _grenades(game: dict, event: Event) -> None:
    """A throw whose burst is to be measured at the table waits here until its burst is resolved (p.33)."""
    payload = event.payload
    inputs = payload.get("inputs") or {}
    if payload.get("action") == "grenade" and "burst_steps" not in inputs:
        burst = ((payload.get("outcome") or {}).get("result") or {}).get("burst_steps")
        game.setdefault("grenades", {})[str(event.seq)] = {
            "unit": inputs.get("unit"),
            "soldier": inputs.get("soldier"),
            "burst_steps": burst,
        }
    elif payload.get("action") == "grenade_burst":
        game.get("grenades", {}).pop(str(inputs.get("throw")), None)


def _questions(game: dict, event: Event) -> None:
    """A pilot's test asked of his own player waits in game["questions"] until his answer (battle/questions.py)."""
    payload = event.payload
    if payload.get("answers"):
        game["questions"] = [q for q in game.get("questions", []) if q.get("id") != payload["answers"]]
    for i, q in enumerate(payload.get("questions") or ()):
        game.setdefault("questions", []).append({**q, "id": f"{event.seq}.{i}"})


def derive(state: GameState) -> None:
    """Soldiers alive per side, eliminations (§3.15), the result by elimination, and whose turn it is (§3.2)."""
    game = state.game
    sides = game["sides"]
    soldiers = dict.fromkeys(sides, 0)
    pending = dict.fromkeys(sides, 0)
    done = dict.fromkeys(sides, 0)
    owners = {}
    for key, unit in state.units.items():
        owner = owners[key] = owner_of(unit.state, unit.side)
        facts = unit_facts(unit.state, unit.profile, settings=state.settings, round_=game["round"])
        soldiers[unit.side] += facts["soldiers_alive"]  # soldiers stay with the Armlist they came from
        for part in [facts, *facts.get("solos", [])]:  # a squad, and its dismounted pilots acting alone (A19)
            if part["activated"]:
                done[owner] += 1
            elif part["activatable"]:
                pending[owner] += 1
    eliminated = [s for s in sides if soldiers[s] == 0]
    game["owners"] = owners
    active = game.get("active_unit")
    if active:
        facts = actor_facts(state.units, active, settings=state.settings, round_=game["round"])
        if facts is None or facts["activated"] or not facts["activatable"]:
            game["active_unit"] = None
    _derive_deployment(state)
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


def _derive_deployment(state: GameState) -> None:
    """Whose unit is placed next (§5 A3). Alternate: one unit at a time, the roll-off winner first, then the next
    side in order; a side with nothing left to place is skipped. Free: any order. Deployment is open in round 1
    until initiative is rolled; once a unit is placed, every unit is placed before initiative."""
    game = state.game
    deployment = game.get("deployment")
    if deployment is None:
        return
    rules = system_settings(state.settings)
    sides = game["sides"]
    placed = set(deployment["placed"])
    left = dict.fromkeys(sides, 0)
    for key, unit in state.units.items():
        if key not in placed:
            left[unit.side] += 1
    deployment["left"] = {str(s): n for s, n in left.items()}
    deployment["open"] = game["round"] == 1 and not game.get("initiative") and any(left.values())
    deployment["started"] = bool(deployment["placed"]) or deployment["first"] is not None
    deployment["alternate"] = rules["deployment_order"] == "alternate"
    nxt = None
    if deployment["open"] and deployment["alternate"] and deployment["first"] is not None:
        order = sides[sides.index(deployment["first"]) :] + sides[: sides.index(deployment["first"])]
        last = state.units[deployment["placed"][-1]].side if deployment["placed"] else None
        start = (order.index(last) + 1) if last in order else 0
        for i in range(len(order)):
            side = order[(start + i) % len(order)]
            if left[side]:
                nxt = side
                break
    deployment["next"] = nxt
