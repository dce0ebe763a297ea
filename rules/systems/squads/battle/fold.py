"""How each event changes the state (spec §4's table of events). Deterministic: the handlers put every rolled or
chosen value in the payload, so replaying the log gives the stored state.

Game dict: {"sides", "side_names", "turn", "initiative": {"first", "order", "pass_order", "rolls"}, "current"
(the side holding the initiative), "acting" (the unit that activated and has not finished), "phase" ("declare",
"fire", "assault", "move"), "window" (On Guard reactions: {"unit", "timing": "declared" | "resolved"}),
"pending_split" (unsaved hits the chooser must split), "pending_weapon_loss", "melees" ([[attacker, defender]]),
"melee_due" (melees still to fight at the start of this turn), "result"}.
"""

from __future__ import annotations

import copy

from rules.contract import Event, GameState
from rules.systems.squads.battle.units import system_settings

FIRING_ACTIONS = ("walk", "aimed_fire")


def initial_game(sides: list[int], names: dict[int, str]) -> dict:
    return {
        "sides": sides,
        "side_names": {str(s): n for s, n in names.items()},
        "turn": 0,
        "initiative": None,
        "current": None,
        "acting": None,
        "phase": None,
        "window": None,
        "pending_split": None,
        "pending_weapon_loss": None,
        "melees": [],
        "melee_due": [],
        "result": None,
    }


def _unit(state: GameState, key: str) -> dict:
    """The unit's state to change: a fresh copy the first time in a command, so the runner, which compares it with
    the state it loaded (battles/services.py _save_state), sees the change and stores it."""
    record = state.units[key]
    if key not in state.changed:
        record.state = copy.deepcopy(record.state)
        state.changed.add(key)
    return record.state


def _finish(game: dict, unit: str) -> None:
    """The acting unit's activation is over; On Guard may now answer it (after_action timing)."""
    game.update(acting=None, phase=None, window={"unit": unit, "timing": "resolved"})


def _end_melee(state: GameState, pair: list[str]) -> None:
    game = state.game
    game["melees"] = [m for m in game["melees"] if m != pair]
    game["melee_due"] = [m for m in game["melee_due"] if m != pair]
    for key in pair:
        _unit(state, key)["melee"] = None


def _clear_suppression(state: GameState, key: str) -> None:
    for f in _unit(state, key).get("figures", []):
        f["suppressed"] = False


def _vehicle_effect(state: GameState, key: str, kind: str, settings: dict) -> None:
    v = _unit(state, key)
    if kind == "crew_stunned":  # −2 to the activation roll next turn (L86); §5 B17 stacking setting
        v["stun_next_turn"] = v["stun_next_turn"] + 1 if settings["stun_stacking"] == "stacking" else 1
    elif kind == "immobilised":
        v["immobilised"] = True
    elif kind == "destroyed":
        v["destroyed"] = True
    elif kind == "weapon_destroyed":
        loss = state.game.get("pending_weapon_loss") or {"unit": key, "count": 0}
        loss["count"] += 1
        state.game["pending_weapon_loss"] = loss


def apply(state: GameState, event: Event) -> None:
    game, p = state.game, event.payload
    settings = system_settings(state.settings)
    kind = event.type
    if kind == "turn.started":
        game.update(turn=p["turn"], initiative=p["initiative"], current=p["initiative"]["first"], acting=None,
                    phase=None, window=None, melee_due=[list(m) for m in p["melee_due"]])  # fmt: skip
        for key in state.units:
            u = _unit(state, key)
            u.update(attempted=False, reaction_used=False)
            if settings["on_guard_until"] == "end_of_turn":
                u["on_guard"] = False
            if u["kind"] == "vehicle":
                u["stunned"], u["stun_next_turn"] = u["stun_next_turn"], 0
    elif kind == "activation.rolled":
        u = _unit(state, p["unit"])
        u["attempted"] = True
        _clear_suppression(state, p["unit"])  # L31: after the roll, whatever it showed
        if settings["on_guard_until"] == "next_activation":
            u["on_guard"] = False
        if u["kind"] == "vehicle":
            u["stunned"] = 0
        game["window"] = None
        if p["success"]:
            game.update(acting=p["unit"], phase="declare")
        else:
            u["stance"] = "withdrew" if p["consequence"] == "withdraw" else "on_guard"
            u["on_guard"] = p["consequence"] == "on_guard"
            game.update(acting=None, phase=None, current=p["passes_to"])
    elif kind == "action.chosen":
        u = _unit(state, p["unit"])
        u["stance"] = p["action"]
        if p["action"] == "on_guard":
            u["on_guard"] = True
        if u["kind"] == "vehicle":
            phase = "move" if p["action"] == "medium_cover" else "fire"
        else:
            phase = "fire" if p["action"] in FIRING_ACTIONS else "assault" if p["action"] == "assault" else "move"
        game.update(phase=phase, window={"unit": p["unit"], "timing": "declared"})
    elif kind == "shot":
        if p["reaction"]:
            _unit(state, p["shooter"])["reaction_used"] = True
        else:
            _finish(game, p["shooter"])
        if p.get("split"):
            game["pending_split"] = dict(p["split"])
        for effect in p.get("vehicle_effects") or []:
            _vehicle_effect(state, p["target"], effect, settings)
    elif kind == "hits.split":
        target = _unit(state, p["target"])
        for f in target["figures"]:
            if f["n"] in p["suppressed"]:
                f["suppressed"] = True
            if f["n"] in p["casualties"]:
                f.update(casualty=True, suppressed=False)
        game["pending_split"] = None
        if not any(not f["casualty"] for f in target["figures"]) and target.get("melee"):
            _end_melee(state, next(m for m in game["melees"] if p["target"] in m))
    elif kind == "activation.done":
        _finish(game, p["unit"])
    elif kind == "melee.fought":
        _melee(state, p)
    elif kind == "withdrawal.rolled":
        u = _unit(state, p["unit"])
        u["attempted"] = True
        for key in p["cleared"]:
            _clear_suppression(state, key)
        game["window"] = None
        pair = next((m for m in game["melees"] if p["unit"] in m), None)
        if p["outcome"] == "escaped" and pair:
            _end_melee(state, pair)
        elif p["outcome"] == "failed":
            game["current"] = p["passes_to"]
    elif kind == "weapon.lost":
        v = _unit(state, p["unit"])
        next(w for w in v["weapons"] if w["n"] == p["n"])["destroyed"] = True
        loss = game["pending_weapon_loss"]
        loss["count"] -= 1
        if loss["count"] <= 0:
            game["pending_weapon_loss"] = None
    elif kind == "game.ended":
        game["result"] = {"winner": p.get("winner"), "reason": p.get("reason", "agreed")}


def _melee(state: GameState, p: dict) -> None:
    game = state.game
    a, d = p["attacker"], p["defender"]
    pair = [a, d]
    for key in p.get("cleared", []):
        _clear_suppression(state, key)
    for role, key in (("attacker", a), ("defender", d)):
        lost = set(p["casualties"][role])
        for f in _unit(state, key)["figures"]:
            if f["n"] in lost:
                f.update(casualty=True, suppressed=False)
    if p["round"] == 1:
        _unit(state, a)["stance"] = "assault"
        _finish(game, a)
        if not p["over"]:
            _unit(state, a)["melee"] = {"with": [d], "role": "attacker"}
            _unit(state, d)["melee"] = {"with": [a], "role": "defender"}
            game["melees"].append(pair)
        return
    game["melee_due"] = [m for m in game["melee_due"] if m != pair]
    if p["over"]:
        _end_melee(state, pair)
