"""What a hit does, shared by shots, thrown weapons, stray shots and melee: the weapon's damage to AP then HP
(L146, L220), the crit effect (A3), the TN test of each status trait (L230), and the Fear test on HP loss when
the table plays it as automatic (L278, setting). Also the target's WL test to keep its aim when shot at (L93)."""

from __future__ import annotations

from rules.systems.enforcers import agents, words
from rules.systems.enforcers.actions.common import STATUS_TRAITS, name_of, who
from rules.systems.enforcers.core import RollSpec
from rules.systems.enforcers.statuses import fear_test, incapacitated, status_test
from rules.systems.enforcers.texts import T
from rules.systems.enforcers.wounds import DEAD, emit, take_damage


def damage_of(weapon: dict, crit: bool, settings: dict) -> tuple[int, bool]:
    """The damage of a hit and whether it ignores armour (A3: what a crit does is a setting)."""
    amount, bypass = weapon["damage"], False
    if crit and settings.get("crit_effect") == "double_damage":
        amount *= 2
    elif crit and settings.get("crit_effect") == "ignore_armour":
        bypass = True
    return amount, bypass


def deal_hit(target: dict, weapon: dict, crit: bool, settings: dict, roller, effects: list, steps: list, *,
             role: str, by=None, cause: str) -> dict:  # fmt: skip
    amount, bypass = damage_of(weapon, crit, settings)
    traits = set(weapon.get("traits") or ())
    split = take_damage(target, amount, settings, effects, role=role, cause=cause, kinetic="kinetic" in traits,
                        bypass_armour=bypass)  # fmt: skip
    line = T("{name} takes {amount} damage", name=name_of(target, role), amount=amount)
    if split["reduced"]:
        line += T(" (−{n} Kinetic, Police Riot Gear)", n=split["reduced"])
    line += T(": AP {ap} (−{ap_lost}), HP {hp} (−{hp_lost})", ap=split["ap"], ap_lost=split["ap_lost"], hp=split["hp"],
              hp_lost=split["hp_lost"])  # fmt: skip
    if split["state"] != "none":
        line += T(", {state}", state=words.status(split["state"]))
    steps.append(line + ".")
    gained = []
    for status in STATUS_TRAITS:
        if status in traits and status_test(target, status, roller, settings, effects, steps, role=role, by=by):
            gained.append(status)
    fear = None
    lost_hp = split["hp_lost"] > 0
    if lost_hp and DEAD not in target["statuses"] and not incapacitated(target) and "fear" not in target["statuses"]:
        if settings.get("fear_test_on_hp_loss") == "always" and "WL" in agents.effective_stats(target):
            fear = fear_test(target, roller, settings, effects, steps, role=role)
        else:
            effects.append({"kind": "fear_test_offered", **who(target, role), "reason": "lost HP (L278)"})
    return {"damage": split, "statuses": gained, "fear": fear, "crit": crit}


def keep_aim(target: dict, roller, settings: dict, effects: list, steps: list, *, role: str) -> bool | None:
    """L93: a model that is aiming and is shot at tests WL; on a failure it loses its aim. None: not aiming."""
    if not target.get("aim") or DEAD in target["statuses"]:
        return None
    wl = agents.effective_stats(target)["WL"]
    label = T("WL test to keep aim (WL {value})", value=wl)
    spec = RollSpec(label, wl, crit_chance=agents.crit_chance(target, "WL"), name="WL test to keep aim")
    record = roller.test(spec, crit_matters=False)
    steps.append(record["line"])
    if not record["success"]:
        emit(target, effects, {"kind": "aim", **who(target, role), "stacks": 0, "reason": "shot at"})
    return record["success"]
