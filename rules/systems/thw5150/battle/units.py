"""Figures of a «5150» battle (spec §4.3): one unit per figure, built from the roster entries, and the facts the
commands read from them (who leads a group, who may activate on the turn's die, what the actions take).
"""

from __future__ import annotations

from rules.contract import RuleInputError
from rules.i18n import _
from rules.systems.thw5150 import army, core, equipment
from rules.systems.thw5150.actions.shooting import rof_of
from rules.systems.thw5150.settings import full as full_settings

ON_TABLE = (core.FINE, core.KNOCKED_DOWN, core.DUCK_BACK, core.HUNKER_DOWN)


def system_settings(settings: dict) -> dict:
    return full_settings(settings.get("system", {}))


def build_units(side_index: int, roster: dict, settings: dict) -> list[dict]:
    """Every figure of a roster: entries × count, each with its own state (spec §4.3)."""
    s = system_settings(settings)
    units = []
    for e in roster.get("entries") or []:
        profile = e.get("profile") or {}
        options = army.options_of(e)
        rep = int((profile.get("data") or {}).get("rep") or 4)
        for copy in range(1, army.count_of(e) + 1):
            name = profile.get("name", e.get("key", "?"))  # numbered by number_alike() when not alone
            units.append(
                {
                    "key": f"{side_index}.{e.get('key')}.{copy}",
                    "name": name,
                    "kind": "figure",
                    "profile": profile,
                    "entry": e,
                    "state": {
                        "rep": rep,
                        "group": f"{side_index}.{options.get('group') or '1'}",
                        "leader": bool(options.get("leader")),
                        "hero": bool(options.get("star")) and s.get("stars", True),
                        "weapon": options.get("weapon"),
                        "second_weapon": options.get("second_weapon"),
                        "melee_weapon": options.get("melee_weapon"),
                        "armour": options.get("armour") or "none",
                        "grenades": int(options.get("grenades") or 0),
                        "cost": army.figure_cost(profile, options),
                        "condition": core.FINE,
                        "prone": False,
                        "loaded": True,
                        "in_cover": False,
                        "covering_fire": False,
                        "fast_moved": False,
                        "moved": False,
                        "activated": False,
                        "stopped_fighting": False,
                    },
                }
            )
    return units


def number_alike(units: list[dict]) -> None:
    """Figures of one name in a battle get «#1», «#2»… in roster order: a target list must tell them apart (two
    entries of «Преступники У4» on one side, or the same Normals on both)."""
    seen: dict[str, int] = {}
    for u in units:
        seen[u["name"]] = seen.get(u["name"], 0) + 1
    counter: dict[str, int] = {}
    for u in units:
        if seen[u["name"]] > 1:
            counter[u["name"]] = counter.get(u["name"], 0) + 1
            u["name"] = f"{u['name']} #{counter[u['name']]}"


def side_name(game: dict, side) -> str:
    """A side by its roster's name, kept in the game since the start (older battles: «Сторона 1»)."""
    name = (game.get("side_names") or {}).get(str(side))
    return name if name else _("Side {side}").format(side=side)


def group_members(units: dict, group: str) -> list:
    return [u for u in units.values() if u.state["group"] == group]


def leader_rep(units: dict, group: str) -> int:
    """The Rep a group activates on: its Leader's while he is up, else the acting Group Leader's, the highest Rep
    of the figures in normal state (L284–294)."""
    members = group_members(units, group)
    leader = next((u for u in members if u.state["leader"]), None)
    if leader is not None and leader.state["condition"] in (core.FINE, core.DUCK_BACK):
        return leader.state["rep"]
    return max((u.state["rep"] for u in members if u.state["condition"] == core.FINE), default=0)


def may_activate(units: dict, unit, die: int) -> bool:
    """L426–428: its own Rep at least the die, or a group whose Leader's Rep is."""
    return max(unit.state["rep"], leader_rep(units, unit.state["group"])) >= die


def own_weapons(unit) -> list[dict]:
    st = unit.state
    return [{"weapon": w, "loaded": st["loaded"]} for w in (st["weapon"], st["second_weapon"]) if w]


TWO_GUNS = "two_guns"


def firing(shooter, choice: str | None) -> list[str]:
    """The guns a shot fires: «Можно одновременно стрелять из двух пистолетов» (L780–783): a figure with two may
    fire both (the default) or either one alone."""
    st = shooter.state
    guns = [w for w in (st["weapon"], st["second_weapon"]) if w]
    if choice in (None, "", TWO_GUNS) or not guns:
        if choice == TWO_GUNS and len(guns) < 2:
            raise RuleInputError({"weapon": _("{name} has one gun only.").format(name=shooter.name)})
        return guns
    if choice not in guns:
        raise RuleInputError({"weapon": _("{name} has no such weapon.").format(name=shooter.name)})
    return [choice]


def guns_rof(guns: list[str], settings: dict) -> int:
    """The dice a shot rolls at most (two guns: §5 A26)."""
    found = [equipment.RANGED.get(g, {}) for g in guns]
    if not found:
        return 1
    return rof_of(found[0], found[1] if len(found) > 1 else None, settings) if found[0].get("rof") else 1


def outgun_of(unit) -> int:
    st = unit.state
    return max(
        equipment.outgun(equipment.RANGED.get(st["weapon"] or "")),
        equipment.outgun(equipment.RANGED.get(st["second_weapon"] or "")),
    )


def member(unit, **extra) -> dict:
    """A unit as a group-test member of the actions."""
    st = unit.state
    m = {"name": unit.name, "ref": unit.key, "rep": st["rep"], "leader": st["leader"], "hero": st["hero"]}
    if st["condition"] in core.CONDITIONS:
        m["condition"] = st["condition"]
    return {**m, **extra}


def standing_sides(units: dict) -> dict[int, int]:
    """Figures of each side still on the table (not out of the fight, dead, run away, captured or removed)."""
    count: dict[int, int] = {}
    for u in units.values():
        count.setdefault(u.side, 0)
        if u.state["condition"] in ON_TABLE:
            count[u.side] += 1
    return count
