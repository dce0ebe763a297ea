"""Units on the table (spec §4): squads of figures and vehicles built from the rosters, and what the rules need to
know of them now (who may act, their figures standing and suppressed, the inputs the actions take).

Squad state: {"kind": "squad", "level", "strength", "figures": [{"n", "weapon", "armour", "leader", "casualty",
"suppressed"}], "attempted", "stance", "on_guard", "reaction_used", "melee": {"with": [keys], "role"} | None}
Vehicle state: {"kind": "vehicle", "level" (crew), "armour", "weapons": [{"n", "weapon", "destroyed"}],
"immobilised", "destroyed", "stun_next_turn", "stunned", "attempted", "stance", "on_guard", "reaction_used",
"passengers": [keys]}
"""

from __future__ import annotations

from rules.systems.squads import tables
from rules.systems.squads.actions.turn import may_fire
from rules.systems.squads.army import ARMY, squad_figures, vehicle_weapons
from rules.systems.squads.settings import full_settings


def system_settings(settings: dict) -> dict:
    return full_settings(settings.get("system"))


def build_units(side: int, roster: dict) -> list[dict]:
    """Every squad and vehicle of a roster (each copy of an entry its own unit), keys "s<side>-<entry>[-copy]"."""
    built = []
    entries = [e for e in roster.get("entries") or [] if isinstance(e, dict) and isinstance(e.get("profile"), dict)]
    for entry in entries:
        profile = entry["profile"]
        options = entry.get("options") or ARMY.default_options(profile)
        count = entry.get("count", 1) if isinstance(entry.get("count"), int) else 1
        for copy in range(1, max(count, 1) + 1):
            key = f"s{side}-{entry.get('key', len(built))}" + (f"-{copy}" if count > 1 else "")
            name = profile.get("name", key) + (f" #{copy}" if count > 1 else "")
            if profile.get("kind") == "vehicle":
                state = {
                    "kind": "vehicle",
                    "level": options.get("crew_level", "regular"),
                    "armour": profile["data"]["armour"],
                    "weapons": [{"n": i + 1, "weapon": w, "destroyed": False} for i, w in enumerate(vehicle_weapons(options))],
                    "immobilised": False,
                    "destroyed": False,
                    "stun_next_turn": 0,
                    "stunned": 0,
                    "passengers": [f"s{side}-{p}" for p in options.get("passengers") or []],
                }  # fmt: skip
            else:
                figures = squad_figures(profile, options)
                state = {
                    "kind": "squad",
                    "level": profile["data"]["level"],
                    "strength": len(figures),
                    "figures": [
                        {
                            "n": i + 1,
                            "weapon": f["weapon"],
                            "armour": f["armour"],
                            "leader": f["leader"],
                            "level": f["level"],
                            "casualty": False,
                            "suppressed": False,
                        }
                        for i, f in enumerate(figures)
                    ],  # fmt: skip
                    "melee": None,
                }
            state.update(attempted=False, stance=None, on_guard=False, reaction_used=False)
            built.append(
                {"key": key, "name": name, "kind": state["kind"], "profile": profile, "entry": entry, "state": state}
            )
    return built


# Facts ---------------------------------------------------------------------------------------------------------
def standing(state: dict) -> list[dict]:
    return [f for f in state.get("figures", []) if not f["casualty"]]


def suppressed(state: dict) -> list[dict]:
    return [f for f in standing(state) if f["suppressed"]]


def alive(state: dict) -> bool:
    if state["kind"] == "vehicle":
        return not state["destroyed"]
    return bool(standing(state))


def pending(units: dict, side: int | None = None) -> list[str]:
    """Units that have not yet tried to activate this turn (each tries once, L12)."""
    return [
        k for k, u in units.items() if alive(u.state) and not u.state["attempted"] and (side is None or u.side == side)
    ]


def side_to_act(state) -> int | None:
    """The side holding the initiative now: the current one while it has units to try, else the next in the pass
    order that has (L12, §5 B22). None: every unit has tried; the turn is over."""
    game = state.game
    order = (game.get("initiative") or {}).get("pass_order") or game["sides"]
    current = game.get("current")
    if current is None:
        return None
    start = order.index(current)
    for step in range(len(order)):
        side = order[(start + step) % len(order)]
        if pending(state.units, side):
            return side
    return None


def next_side(state, after: int) -> int | None:
    """Where the initiative goes when `after` fails an activation: the next side in the pass order with units."""
    order = (state.game.get("initiative") or {}).get("pass_order") or state.game["sides"]
    start = order.index(after)
    for step in range(1, len(order) + 1):
        side = order[(start + step) % len(order)]
        if pending(state.units, side):
            return side
    return None


def locked(unit_state: dict, settings: dict) -> bool:
    """A squad in melee may only try to withdraw (L42, §5 B12)."""
    melee = unit_state.get("melee")
    if not melee:
        return False
    return settings["melee_lock"] == "both" or melee["role"] == "defender"


def leader_input(state: dict) -> dict | None:
    leaders = [f for f in state.get("figures", []) if f["leader"]]
    if not leaders:
        return None
    return {"level": leaders[0]["level"], "alive": not leaders[0]["casualty"]}


def activation_inputs(unit, *, sees_enemy: bool = True, out_of_coherency: int = 0) -> dict:
    """The Activation action's unit from the tracker's state (§3.2)."""
    s = unit.state
    if s["kind"] == "vehicle":
        return {"kind": "vehicle", "name": unit.name, "level": s["level"], "sees_enemy": sees_enemy,
                "crew_stunned": s["stunned"], "on_guard": s["on_guard"]}  # fmt: skip
    live = standing(s)
    melee = s.get("melee")
    out = {
        "kind": "squad",
        "name": unit.name,
        "level": s["level"],
        "leader": leader_input(s),
        "figures": len(live),
        "suppressed": len(suppressed(s)),
        "out_of_coherency": min(out_of_coherency, len(live)),
        "sees_enemy": sees_enemy,
        "on_guard": s["on_guard"],
        "strength": s["strength"],
        "casualties": s["strength"] - len(live),
        "in_melee": bool(melee),
    }
    if melee:
        out["melee_role"] = melee["role"]
    return out


def fire_groups(unit, distance, settings: dict, *, action: str | None, weapons: list[int] | None = None) -> list[dict]:
    """The shooter's figures (or a vehicle's weapons) that can fire at `distance`, grouped by weapon (§3.5).
    Suppressed figures never fire (L27); weapons out of range are left out."""
    s = unit.state
    groups: dict[str, dict] = {}
    if s["kind"] == "vehicle":
        for w in s["weapons"]:
            if w["destroyed"] or (weapons is not None and w["n"] not in weapons):
                continue
            if distance <= tables.weapon_range(tables.WEAPONS[w["weapon"]], settings):
                groups.setdefault(w["weapon"], {"weapon": w["weapon"], "count": 0, "distance": distance})["count"] += 1
        return list(groups.values())
    for f in standing(s):
        w = tables.WEAPONS[f["weapon"]]
        if f["suppressed"] or distance > tables.weapon_range(w, settings):
            continue
        if action is not None and not may_fire(action, w.key, settings):
            continue
        group = groups.setdefault(f["weapon"], {"weapon": f["weapon"], "count": 0, "distance": distance})
        group["count"] += 1
    if "hmg" in groups:
        groups["hmg"]["crew"] = groups["hmg"]["count"]  # two figures per gun (L64): count = crew here
        groups["hmg"]["count"] = max(1, groups["hmg"]["count"] // 2)
    return list(groups.values())


def target_groups(unit, cover: str) -> list[dict]:
    """The target's standing figures by armour, all in the cover the shooter declared."""
    groups: dict[str, dict] = {}
    for f in standing(unit.state):
        groups.setdefault(f["armour"], {"count": 0, "armour": f["armour"], "cover": cover})["count"] += 1
    return list(groups.values())


def pick_figures(state: dict, count: int, *, exclude: set[int], unsuppressed: bool) -> list[int]:
    """Figure numbers chosen for the owner when he names none: the lowest numbers, the leader last."""
    pool = [f for f in standing(state) if f["n"] not in exclude and not (unsuppressed and f["suppressed"])]
    pool.sort(key=lambda f: (f["leader"], f["n"]))
    return [f["n"] for f in pool[:count]]
