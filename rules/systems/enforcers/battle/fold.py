"""How each event changes the state. Pure and deterministic: replaying the log gives the stored state.

Every event that touches agents carries `effects` (wounds.py's effect dicts, each naming its `unit`), folded one
by one; the event type adds the bookkeeping of the activation and the round (§3.2, §4).
"""

from __future__ import annotations

import copy

from rules.contract import Event, GameState
from rules.systems.enforcers.battle import questions
from rules.systems.enforcers.statuses import stun_now
from rules.systems.enforcers.wounds import DEAD, apply_effect

BATTLE_KINDS = ("ammo_spent", "actions", "activation_ends", "moved", "prayer_used", "benediction", "intercession",
                "medkit_used", "reloaded", "weapon_readied")  # fmt: skip


def initial_game(side_indexes: list[int], notes: list, side_names: dict | None = None) -> dict:
    return {
        "round": 1,
        "side_names": {str(k): v for k, v in (side_names or {}).items()},  # prompts name sides by their rosters
        "questions": [],  # what the game asks of a player before anything else (questions.py)
        "last_text": None,  # the latest result, read on both phones
        "phase": "pick",  # pick: someone picks the next model; activation: a model is acting
        "active": None,
        "picker": None,  # the side that picks next (None: the players choose, L63)
        "last": None,
        "activated": [],
        "sides": side_indexes,
        "result": None,
        "notes": notes,
    }


def writable(state: GameState, unit) -> dict:
    """The unit's state to change: a copy the first time an event of this command touches it, since the runner
    compares each changed unit with the state it loaded (battles/services._save_state) and keeps only real changes."""
    if unit.key not in state.changed:
        unit.state = copy.deepcopy(unit.state)
        state.changed.add(unit.key)
    return unit.state


def fold_effect(state: GameState, effect: dict) -> None:
    key = effect.get("unit")
    unit = state.units.get(key) if key else None
    if unit is None:
        return
    s = writable(state, unit)
    kind = effect["kind"]
    if kind == "ammo_spent" and "weapon" in effect:
        s["weapons"][effect["weapon"]]["ammo"] = effect["ammo"]
    elif kind == "reloaded":
        s["weapons"][effect["weapon"]]["ammo"] = effect["ammo"]
        s["spare_magazines"] = effect["spare_magazines"]
    elif kind == "weapon_readied":
        for i, weapon in enumerate(s["weapons"]):
            weapon["drawn"] = i in effect["drawn"]
        if effect["uses_free"]:
            s["free_swap_used"] = True
        s["switches"] += int(effect["how"] == "switch")
    elif kind == "actions":
        s["actions_left"] = effect["actions"]
    elif kind == "activation_ends":
        s["actions_left"] = 0
    elif kind == "moved":
        s["moves_this_activation"] += 1
    elif kind == "prayer_used":
        s["prayed_this_round"] = True
    elif kind == "benediction":
        apply_effect(s, effect)
        s["benediction_rounds"] = effect["rounds"]
    elif kind == "intercession":
        s["rerolls"] = effect["rerolls_per_round"]
        s["intercession_rounds"] = effect["rounds"]
    elif kind == "medkit_used":
        s["medkit"] = False
    else:
        apply_effect(s, effect)
        if kind == "status_gained" and effect["status"] == "stunned" and state.game.get("active") == key:
            _stun_now(state, s)
    state.changed.add(key)


def _stun_now(state: GameState, s: dict) -> None:
    """L307: a stun gained while acting takes an action of this activation if one is left (stun_timing)."""
    left, keeps = stun_now(s["actions_left"], state.system_settings)
    if keeps:
        return
    s["actions_left"] = left
    stacks = s["statuses"]["stunned"].get("stacks", 1) - 1
    if stacks:
        s["statuses"]["stunned"]["stacks"] = stacks
    else:
        del s["statuses"]["stunned"]


def _new_round(state: GameState) -> None:
    game = state.game
    game["round"] += 1
    game["activated"] = []
    per_round = state.system_settings.get("counter_limit", "round") == "round"
    for unit in state.units.values():
        s = writable(state, unit)
        s["activated"] = False
        s["prayed_this_round"] = False
        if per_round:
            s["counter_used"] = False
        if s["benediction_rounds"]:
            s["benediction_rounds"] -= 1
            s["benediction"] = s["benediction_rounds"] > 0
        if s["intercession_rounds"]:
            s["intercession_rounds"] -= 1
        s["rerolls"] = 1 if s["intercession_rounds"] else 0
        state.changed.add(unit.key)
    if state.system_settings.get("next_round_picker", "last_model") == "players":
        game["picker"] = None


def apply(state: GameState, event: Event) -> None:
    game, p = state.game, event.payload
    for effect in p.get("effects") or ():
        fold_effect(state, effect)
    actor = state.units.get(p.get("unit")) if p.get("unit") else None
    if actor is not None:
        writable(state, actor)
    if event.type == "activation_started":
        game.update(phase="activation", active=p["unit"])
        game["activated"].append(p["unit"])
        actor.state.update(activated=True, moves_this_activation=0, free_swap_used=False, switches=0)
        if state.system_settings.get("counter_limit", "round") == "activation":
            for unit in state.units.values():
                writable(state, unit)["counter_used"] = False
    elif event.type == "activation_ended":
        actor.state["moves_last_activation"] = actor.state["moves_this_activation"]
        actor.state["actions_left"] = 0
        game.update(phase="pick", active=None, last=p["unit"], picker=actor.side)
        if p.get("round_over"):
            for effect in p.get("round_effects") or ():
                fold_effect(state, effect)
            _new_round(state)
    elif event.type == "game_ended":
        game["result"] = {"winner": p.get("winner"), "note": p.get("note", ""), "round": game["round"]}
        if "confirmed_by" in p:
            game["result"]["confirmed_by"] = p["confirmed_by"]
    elif actor is not None and p.get("spent"):
        actor.state["actions_left"] = max(0, actor.state["actions_left"] - p["spent"])
    if actor is not None:
        state.changed.add(actor.key)
    if "questions" in p:
        game["questions"] = copy.deepcopy(p["questions"])
    if game.get("questions"):
        questions.prune(state)
    if p.get("text"):
        game["last_text"] = {"seq": event.seq, "text": p["text"]}


def waiting_units(state: GameState) -> list[str]:
    """Models that still activate this round: every model on the table but the dead (L63–65)."""
    done = set(state.game["activated"])
    return [k for k, u in state.units.items() if k not in done and DEAD not in u.state["statuses"]]
