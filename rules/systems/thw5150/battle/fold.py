"""How each event changes a «5150» battle (spec §4.4). Pure and deterministic: replaying the log gives the state.

Game dict: {"turn", "phase": "roll" | "acting", "dice": {side: die}, "doubles", "order": [sides], "active": side,
"pending": [question…], "initial": {side: figures}, "casualties": {side: n}, "result": None | {...},
"side_names": {side: roster name}, "last": None | {"seq", "type", "payload"} (the activation's last roll, which the
board explains on both phones)}. "stay_or_run_at": {side: casualties at its last Stay or Run}.

A pending question, asked of one side's player (the first one waits for its answer):
- {"kind": "received_fire", "side", "testers": [unit keys], "group", "shooter", "shooter_outgun"} (L925–931);
- {"kind": "return_fire", "side", "shooters": {unit key: {"at": unit key | None, "rep_modifier": 0 | -1}}, "why"?}
  ("why": "in_sight" when In Sight lets them fire, "charged" when a charged figure fires at its charger);
- {"kind": "in_sight", "side", "testers", "group", "mover"}: an enemy moved into their sight (L598–601);
- {"kind": "being_charged", "side", "testers", "charger"}: «МЕНЯ АТАКОВАЛИ» (L1060–1063);
- {"kind": "melee", "side", "fighter", "opponents", "penalised": [unit keys]}: the charge meets (L1082–1087);
- {"kind": "stay_or_run", "side", "casualties", "initial"}: at the end of an activation (L1187–1191).
Questions other than the first two come only from events that name them (new payload fields), so the logs of older
battles replay as they were played.
"""

from __future__ import annotations

import copy

from rules.contract import Event, GameState
from rules.i18n import N_
from rules.systems.thw5150 import core
from rules.systems.thw5150.battle.units import ON_TABLE, standing_sides, system_settings

UNIT_FIELDS = ("condition", "prone", "loaded", "in_cover", "hero", "covering_fire", "fast_moved", "moved",
               "activated", "stopped_fighting")  # fmt: skip


ROLLS = ("turn.rolled", "shot", "reaction", "in_sight", "melee", "grenade", "stay_or_run", "recovered", "tested",
         "charge", "charged")  # fmt: skip


def initial_game(sides: list[int], units: dict, names: dict | None = None) -> dict:
    initial = {str(s): sum(1 for side in units.values() if side == s) for s in sides}
    return {
        "side_names": {str(s): n for s, n in (names or {}).items()},
        "turn": 0,
        "phase": "roll",
        "dice": {},
        "doubles": False,
        "order": [],
        "active": None,
        "pending": [],
        "initial": initial,
        "casualties": {str(s): 0 for s in sides},
        "result": None,
    }


def _set(state: GameState, key: str, **changes) -> None:
    unit = state.units[key]
    unit.state = {**unit.state, **changes}  # a new dict: the web runner saves a unit whose state is not the one it read
    state.changed.add(key)


def _apply_effects(state: GameState, effects: list[dict]) -> None:
    """The actions' effects, already mapped from roles to unit keys by the command handlers."""
    for e in effects:
        key = e.get("unit")
        if key not in state.units:
            continue
        kind = e["kind"]
        if kind == "condition":
            changes = {"condition": e["value"]}
            if e["value"] != core.FINE:
                changes["prone"] = False
            _set(state, key, **changes)
        elif kind == "prone":
            _set(state, key, prone=bool(e["value"]))
        elif kind == "loaded":
            _set(state, key, loaded=bool(e["value"]))
        elif kind == "hero":
            _set(state, key, hero=True)
        elif kind == "stopped_fighting":
            _set(state, key, stopped_fighting=True)


def _casualties(state: GameState) -> None:
    for side in state.game["casualties"]:
        state.game["casualties"][side] = sum(
            1 for u in state.units.values() if str(u.side) == side and u.state["condition"] in core.CASUALTIES
        )


def _check_victory(state: GameState) -> None:
    """§1.9: a side wins when none of the other side's figures is left on the table."""
    standing = standing_sides(state.units)
    alive = [s for s, n in standing.items() if n > 0]
    if len(alive) <= 1 and len(standing) > 1:
        state.game["result"] = {
            "winner": alive[0] if alive else None,
            # msgids: the banner translates them for each reader (view.why)
            "why": N_("no enemy figure is left on the table") if alive else N_("nobody is left on the table"),
        }


def _start_side(state: GameState, side: int | None) -> None:
    """A side's activation begins: covering fire declared at its last activation ends (§5 A25 default)."""
    state.game["active"] = side
    if side is None or system_settings(state.settings).get("covering_fire_ends") != "next_activation":
        return
    for u in state.units.values():
        if u.side == side and u.state["covering_fire"]:
            _set(state, u.key, covering_fire=False)


def _ask(game: dict, questions: list[dict]) -> None:
    """New questions wait behind those already asked, but before a charge's melee: the fire it draws is resolved
    before contact (spec §3.15 [interp])."""
    pending = game["pending"]
    at = next((i for i, q in enumerate(pending) if q["kind"] == "melee"), len(pending))
    pending[at:at] = copy.deepcopy(questions)


def _melee_still_on(state: GameState, q: dict) -> bool:
    """A charger hit, ducking back or running away does not arrive (spec §3.15 [interp]); nor at a gone target."""
    fighter = state.units.get(q["fighter"])
    opponents = [state.units[k] for k in q["opponents"] if k in state.units]
    return (fighter is not None and fighter.state["condition"] == core.FINE
            and any(o.state["condition"] in ON_TABLE for o in opponents))  # fmt: skip


def apply(state: GameState, event: Event) -> None:
    game, p = state.game, event.payload
    kind = event.type
    if kind in ROLLS:
        # the runner keeps the head's result beside its payload ("outcome"), which the board does not read
        game["last"] = {
            "seq": event.seq,
            "type": kind,
            "payload": copy.deepcopy({k: v for k, v in p.items() if k != "outcome"}),
        }
    elif kind in ("activation.ended",):
        game["last"] = None
    if kind == "turn.rolled":
        game["turn"] += 1
        game["dice"] = dict(p["dice"])
        game["doubles"] = p["doubles"]
        game["order"] = list(p["order"])
        game["phase"] = "acting"
        game["pending"] = []
        for u in state.units.values():
            if u.state["activated"] or u.state["fast_moved"] or u.state["moved"]:
                _set(state, u.key, activated=False, fast_moved=False, moved=False)
        _start_side(state, game["order"][0] if game["order"] else None)
    elif kind == "activation.ended":
        order = game["order"]
        later = order[order.index(game["active"]) + 1 :] if game["active"] in order else []
        if later and not game["doubles"]:
            _start_side(state, later[0])
        else:
            game["phase"], game["active"] = "roll", None
        for q in p.get("stay_or_run", []):  # «на конец активации» (L1189): each side due answers it
            game["pending"].append({"kind": "stay_or_run", **q})
    elif kind == "shot":
        _apply_effects(state, p["effects"])
        if not p.get("reaction"):  # fire in reaction is not the figure's activation (L975–981); older events lack it
            _set(state, p["shooter"], activated=True)
        if p.get("return_fire"):
            head = game["pending"][0]
            head["shooters"].pop(p["shooter"], None)
            if not head["shooters"]:
                game["pending"].pop(0)
        _ask(game, p.get("questions", []))
    elif kind == "reaction":
        _apply_effects(state, p["effects"])
        game["pending"].pop(0)
        if p.get("return_fire"):
            game["pending"].insert(0, p["return_fire"])
    elif kind == "in_sight":
        _apply_effects(state, p["effects"])
        if p.get("answers"):  # the question a recorded move asked
            game["pending"].pop(0)
        if p.get("return_fire"):  # those that passed fire at once (L609–624): asked like return fire
            game["pending"].insert(0, p["return_fire"])
    elif kind == "melee":
        _apply_effects(state, p["effects"])
        if p.get("answers"):  # the melee a charge brought on
            game["pending"].pop(0)
    elif kind == "charge":
        _apply_effects(state, p["effects"])
        if not p.get("stays_and_fires"):  # «остаются на месте и по возможности стреляют»: it may still fire
            _set(state, p["charger"], activated=True)
        if p.get("question"):
            game["pending"].append(copy.deepcopy(p["question"]))
    elif kind == "charged":
        _apply_effects(state, p["effects"])
        game["pending"].pop(0)
        game["pending"][0:0] = copy.deepcopy(p.get("then", []))
    elif kind == "grenade":
        _apply_effects(state, p["effects"])
        _set(state, p["thrower"], grenades=max(0, state.units[p["thrower"]].state["grenades"] - 1), activated=True)
        _ask(game, p.get("questions", []))
    elif kind == "stay_or_run":
        _apply_effects(state, p["effects"])
        if p.get("answers"):
            game["pending"].pop(0)
        game.setdefault("stay_or_run_at", {})[str(p["side"])] = p["casualties"]
    elif kind == "return_fire.declined":
        game["pending"].pop(0)
    elif kind in ("recovered", "tested"):
        _apply_effects(state, p["effects"])  # back to normal state, a figure may act at once (L756)
    elif kind == "reloaded":
        _set(state, p["unit"], loaded=True, activated=True)
    elif kind == "covering_fire":
        _set(state, p["unit"], covering_fire=True, activated=True)
    elif kind == "moved":
        if p.get("question"):  # it came into an enemy group's sight: «В ПОЛЕ ВИДИМОСТИ» is asked of them
            game["pending"].append(copy.deepcopy(p["question"]))
        changes = {"moved": True, "activated": True, "in_cover": p["in_cover"], "prone": p["prone"],
                   "fast_moved": p.get("fast", False)}  # fmt: skip
        if system_settings(state.settings).get("covering_fire_ends") == "when_moving":
            changes["covering_fire"] = False
        _set(state, p["unit"], **changes)
    elif kind == "state.set":
        _set(state, p["unit"], **{k: v for k, v in p["changes"].items() if k in UNIT_FIELDS})
    elif kind == "battle.ended":
        game["result"] = {"winner": p.get("winner"), "why": p.get("why", N_("ended by the players"))}
        if p.get("why") == "more points still standing":  # since issue 13: a msgid, the points shown beside it
            game["result"]["points"] = p.get("points", {})
        return
    if any(q["kind"] == "melee" for q in game["pending"]):
        game["pending"] = [q for q in game["pending"] if q["kind"] != "melee" or _melee_still_on(state, q)]
    _casualties(state)
    if game["result"] is None:
        _check_victory(state)
