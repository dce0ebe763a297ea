"""Pure questions about a battle's state, shared by the commands, the fold and the views: who may get an order,
who acts next (§3.4 ties alternate from the First Player), and the victory points (§3.15).

Unit state: {"figures", "start", "markers", "order", "initiative",
"acted", "moved", "shot_at", "in_melee", "panicked", "suppressed", "destroyed"}. The compiled card is the
unit's profile (profile.compile_unit plus its cost).
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import GameState
from rules.i18n import _
from rules.systems.zvezdny_desant import tables

SIDES = (0, 1)


def side_name(game: dict, index, names: dict | None = None) -> str:
    """A side as the players named it (the roster's name, kept in the game since the start); a battle started
    before the names were kept falls back to «сторона N», counted from 1 as players count."""
    name = (names or {}).get(index) or (game.get("side_names") or {}).get(str(index))
    return name or _("side {n}").format(n=int(index) + 1)


def alive(unit) -> bool:
    return unit.state["figures"] > 0


def eligible_for_orders(state: GameState, side: int) -> list[str]:
    """Every unit of the side except those destroyed, in melee or panicked (L226–228)."""
    return [
        k
        for k, u in state.units.items()
        if u.side == side and alive(u) and not u.state["in_melee"] and not u.state["panicked"]
    ]


def can_act(unit) -> bool:
    """A unit that cannot carry out its order when its turn comes is skipped (L272): destroyed, in melee (its card
    was removed, L621), panicked, or suppressed (it may neither move nor shoot, L290)."""
    s = unit.state
    return alive(unit) and not s["in_melee"] and not s["panicked"] and not s["suppressed"]


def pending(state: GameState) -> list:
    return [
        u
        for u in state.units.values()
        if u.state["order"] is not None and (u.state["initiative"] or 0) > 0 and not u.state["acted"] and can_act(u)
    ]


def next_slot(state: GameState) -> tuple[int, int] | None:
    """(side, initiative) of the unit that acts next: the highest initiative of both players; at a tie between
    players the First Player's unit first, then alternating (L256–266). The owner picks among his tied units."""
    waiting = pending(state)
    if not waiting:
        return None
    level = max(u.state["initiative"] for u in waiting)
    sides = {u.side for u in waiting if u.state["initiative"] == level}
    if len(sides) == 1:
        return next(iter(sides)), level
    last = state.game["last_at"].get(str(level))
    side = state.game["first_player"] if last is None else 1 - last
    return side, level


def living_sides(state: GameState) -> set[int]:
    return {u.side for u in state.units.values() if alive(u)}


def victory(state: GameState, settings: dict) -> dict:
    """Each side scores the enemy's losses: full cost destroyed, ½ cost above ½ of the starting figures lost."""
    vp = {s: Fraction(0) for s in SIDES}
    for u in state.units.values():
        points = tables.unit_victory_points(int(u.profile["cost"]), u.state["start"], u.state["figures"], settings)
        vp[1 - u.side] += points
    winner = None if vp[0] == vp[1] else (0 if vp[0] > vp[1] else 1)
    return {"vp": [tables.number(vp[0]), tables.number(vp[1])], "winner": winner, "draw": winner is None}


def shooter_groups(unit) -> list[dict]:
    """The unit's living figures by weapon: casualties leave the last weapon group first (the owner's choice,
    fixed here so the tracker needs no figure list)."""
    left, out = unit.state["figures"], []
    for g in unit.profile["groups"]:
        take = min(left, g["count"])
        left -= take
        if take:
            out.append({"count": take, "weapon": {"name": g["name"], "dln": g["dln"], "skr": g["skr"],
                                                  "msch": g["msch"], "hrk": tables.hrk_text(g["hrk"])}})  # fmt: skip
    return out


def melee_of(state: GameState, unit_key: str) -> dict | None:
    return next((m for m in state.game["melees"] if unit_key in m["units"]), None)
