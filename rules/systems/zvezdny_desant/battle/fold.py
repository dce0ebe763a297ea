"""How each event changes the state (deterministic: replaying the log gives the stored state).

Secret orders live in game["orders"][side] until the public "orders_revealed" event copies them onto the units;
redact_game hides the other side's entry, and no unit carries an order before the reveal.
"""

from __future__ import annotations

from rules.contract import Event, GameState
from rules.systems.zvezdny_desant.battle import rules


def _touch(state: GameState, key: str) -> dict:
    """The unit's state as a fresh dict: the runner compares it with the stored one it still holds, so an
    in-place change would look like no change and never be saved (battles/services._save_state)."""
    state.changed.add(key)
    unit = state.units[key]
    unit.state = dict(unit.state)
    return unit.state


def _settle_phase(state: GameState) -> None:
    """Order Execution ends once no unit is left to act (L244); then the Close Combat phase."""
    if state.game["phase"] == "execution" and rules.next_slot(state) is None:
        state.game["phase"] = "melee"


def turn_started(state: GameState, p: dict) -> None:
    game = state.game
    game.update(first_player=p["first_player"], phase="orders", orders={}, last_at={}, fought=[])
    for key in state.units:  # order cards of the last turn are removed (L149, L232–234)
        _touch(state, key).update(order=None, initiative=None, acted=False, moved=False, shot_at=None)
    game["ordered"] = [s for s in rules.SIDES if not rules.eligible_for_orders(state, s)]
    if set(game["ordered"]) >= set(rules.SIDES):  # nobody can take an order: nothing to reveal
        game["phase"] = "melee"


def orders_given(state: GameState, p: dict) -> None:
    game = state.game
    game["orders"][str(p["side"])] = p["orders"]
    if p["side"] not in game["ordered"]:
        game["ordered"] = sorted([*game["ordered"], p["side"]])


def orders_revealed(state: GameState, p: dict) -> None:
    if not set(rules.SIDES) <= set(state.game["ordered"]):
        return  # a side's orders were taken back (an undo both players agreed to): it orders again, then a new reveal
    for key, card in p["orders"].items():
        _touch(state, key).update(order=card["order"], initiative=card["initiative"])
    state.game.update(orders={}, ordered=list(rules.SIDES))
    state.game["phase"] = "execution"
    _settle_phase(state)


def activated(state: GameState, p: dict) -> None:
    unit = _touch(state, p["unit"])
    unit.update(acted=True, moved=p["moved"])
    state.game["last_at"][str(p["initiative"])] = state.units[p["unit"]].side
    _settle_phase(state)


def shot(state: GameState, p: dict) -> None:
    _touch(state, p["unit"])["shot_at"] = p["target"]
    target = _touch(state, p["target"])
    target["figures"] -= p["removed"]
    target["markers"] = p["markers"]
    target["destroyed"] = target["figures"] == 0
    _settle_phase(state)


def melee_started(state: GameState, p: dict) -> None:
    """Units in melee lose their order cards (L621). A melee joined by a unit of another melee merges (A27)."""
    game = state.game
    joined = set(p["units"])
    merged = [m for m in game["melees"] if joined & set(m["units"])]
    units = sorted(joined.union(*(set(m["units"]) for m in merged)), key=list(state.units).index)
    keep = [m for m in game["melees"] if m not in merged]
    melee_id = min((m["id"] for m in merged), default=game["next_melee"])
    if not merged:
        game["next_melee"] += 1
    game["melees"] = sorted([*keep, {"id": melee_id, "units": units}], key=lambda m: m["id"])
    for key in units:
        _touch(state, key).update(in_melee=True, order=None, initiative=None)
    _settle_phase(state)


def strikes_rolled(state: GameState, p: dict) -> None:
    """One side's strikes are rolled; the other side is asked for its own before anybody is removed (L659)."""
    state.game["strikes"] = {k: p[k] for k in ("melee", "side", "rolls", "contact", "near", "targets") if k in p}


def melee_fought(state: GameState, p: dict) -> None:
    """Casualties of both sides at once (L659); the melee ends when one side is gone (L736–738)."""
    game = state.game
    game["strikes"] = None
    for key, fate in p["units"].items():
        unit = _touch(state, key)
        unit["figures"] -= fate["removed"]
        unit["markers"] = fate["markers"]
        unit["destroyed"] = unit["figures"] == 0
    game["fought"] = [*game["fought"], p["melee"]]
    melees = []
    for m in game["melees"]:
        living = [k for k in m["units"] if rules.alive(state.units[k])]
        if len({state.units[k].side for k in living}) == 2:
            melees.append({**m, "units": living})
            continue
        for key in m["units"]:  # the melee is over: the survivors may take orders again
            _touch(state, key)["in_melee"] = False
    game["melees"] = melees


def turn_ended(state: GameState, p: dict) -> None:
    game = state.game
    game.update(turn=p["turn"] + 1, phase="start", previous_first=game["first_player"], first_player=None,
                fought=[], ordered=[], last_at={})  # fmt: skip


def game_over(state: GameState, p: dict) -> None:
    state.game["result"] = {k: p[k] for k in ("vp", "winner", "draw", "reason")}
    state.game["phase"] = "over"


def marked(state: GameState, p: dict) -> None:
    unit = _touch(state, p["unit"])
    for flag in ("panicked", "suppressed"):
        if flag in p:
            unit[flag] = p[flag]
    _settle_phase(state)


def wounds_marked(state: GameState, p: dict) -> None:
    _touch(state, p["unit"])["markers"] = p["markers"]


FOLDS = {
    "turn_started": turn_started,
    "orders_given": orders_given,
    "orders_revealed": orders_revealed,
    "activated": activated,
    "shot": shot,
    "melee_started": melee_started,
    "strikes_rolled": strikes_rolled,
    "melee_fought": melee_fought,
    "turn_ended": turn_ended,
    "game_over": game_over,
    "marked": marked,
    "wounds_marked": wounds_marked,
}


def apply(state: GameState, event: Event) -> None:
    fold = FOLDS.get(event.type)
    if fold is not None:  # unknown types (from a newer version) change nothing
        fold(state, event.payload)
