"""Changes by hand (a ruling, a correction): slider positions, soldiers, flags, turned into tracker effects."""

from __future__ import annotations

from rules.errors import RuleInputError
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tracker

ADJUST_HELP = N_(
    "What to set by hand. Vehicle or gun: {'strength': n, 'ammo': n, 'flags': {'lying': true, …}, "
    "'action_used': 'move'}. Squad: {'soldier': n, 'alive': false, 'on_field': false, 'flags': {'in_melee': true}, "
    "'action_used': 'move'}. Any unit: {'activated': false}."
)


def adjust_effects(state: dict, profile: dict, changes: dict) -> list[dict]:
    """Turns a change by hand into tracker effects, checked by applying them (a slider outside its scale, an unknown
    flag or soldier raise RuleInputError). Values already in place are left out."""
    if not isinstance(changes, dict) or not changes:
        raise RuleInputError({"changes": tr("Say what to change, e.g. {example}.").format(example="{'strength': 5}")})
    changes = _steps_to_values(state, changes)
    known = {"strength", "ammo", "flags", "soldier", "alive", "on_field", "activated", "action_used", "in_melee"}
    unknown = sorted(set(changes) - known)
    if unknown:
        raise RuleInputError({"changes": tr("Cannot change {keys} by hand here.").format(keys=", ".join(unknown))})
    effects: list[dict] = []
    kind = state["kind"]
    if kind == "squad":
        if {"strength", "ammo"} & set(changes):
            raise RuleInputError({"changes": tr("A squad has no strength or ammo slider.")})
        if "activated" in changes:
            effects.append({"kind": "activated", "value": _bool(changes, "activated")})
        soldier_keys = {"alive", "on_field", "flags", "action_used", "in_melee"} & set(changes)
        if soldier_keys:
            num = changes.get("soldier")
            if isinstance(num, bool) or not isinstance(num, int):
                raise RuleInputError({"changes.soldier": tr("Say which soldier (his number).")})
            if not any(s["num"] == num for s in state["soldiers"]):
                raise RuleInputError({"changes.soldier": tr("This squad has no soldier {num}.").format(num=num)})
            person = {k: _bool(changes, k) for k in ("alive", "on_field") if k in changes}
            if person:
                effects.append({"kind": "set_soldier", "soldier": num, **person})
            flags = dict(changes.get("flags") or {})
            if "in_melee" in changes:
                flags["in_melee"] = changes["in_melee"]
            for flag in flags:
                effects.append({"kind": "set_flag", "soldier": num, "flag": flag, "value": _bool(flags, flag)})
            if "action_used" in changes:
                effects.append({"kind": "action_used", "soldier": num, "action": changes["action_used"]})
    else:
        if "soldier" in changes or "alive" in changes or "on_field" in changes:
            raise RuleInputError(
                {"changes": tr("A {kind} has no soldiers; change its strength instead.").format(kind=tr(kind))}
            )
        if "strength" in changes:
            effects.append({"kind": "set_strength", "value": _int(changes, "strength")})
        if "ammo" in changes:
            effects.append({"kind": "set_ammo", "value": _int(changes, "ammo")})
        flags = dict(changes.get("flags") or {})
        if "activated" in changes:
            flags["activated"] = changes["activated"]
        if "in_melee" in changes:
            flags["in_melee"] = changes["in_melee"]
        for flag in flags:
            effects.append({"kind": "set_flag", "flag": flag, "value": _bool(flags, flag)})
        if "action_used" in changes:
            effects.append({"kind": "action_used", "action": changes["action_used"]})
    # Check by applying; keep only the effects that change something.
    kept, current = [], state
    for effect in effects:
        try:
            after = tracker.apply_effect(current, effect)
        except RuleInputError as exc:
            raise RuleInputError({"changes": next(iter(exc.errors.values()))}) from exc
        if after != current:
            kept.append(effect)
            current = after
    return kept


#: Relative moves of a slider ({"ammo_step": -1}): they commute with any other change, so two phones' taps both
#: count (see BronepekhotaBattle.commutes).
STEPS = {"strength_step": "strength", "ammo_step": "ammo"}


def is_step_only(changes) -> bool:
    return isinstance(changes, dict) and bool(changes) and set(changes) <= set(STEPS)


def _steps_to_values(state: dict, changes: dict) -> dict:
    changes = dict(changes)
    for step, slider in STEPS.items():
        if step not in changes:
            continue
        by = changes.pop(step)
        if isinstance(by, bool) or not isinstance(by, int) or not -20 <= by <= 20:
            raise RuleInputError({f"changes.{step}": tr("must be a whole number of steps from −20 to 20")})
        if slider in changes:
            raise RuleInputError(
                {f"changes.{step}": tr("Set the {slider} or move it, not both.").format(slider=tr(slider))}
            )
        if slider not in state:
            raise RuleInputError({"changes": tr("A squad has no strength or ammo slider.")})
        changes[slider] = state[slider] + by
    return changes


def _bool(d: dict, key: str) -> bool:
    if not isinstance(d.get(key), bool):
        raise RuleInputError({f"changes.{key}": tr("must be true or false")})
    return d[key]


def _int(d: dict, key: str) -> int:
    value = d.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleInputError({f"changes.{key}": tr("must be a whole number")})
    return value
