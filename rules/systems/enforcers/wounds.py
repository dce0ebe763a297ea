"""Damage, HP and the wound states (spec §3.13, book L47, L216–226), status primitives (gain, resist, lose), and
the fold of an effect into an agent's sheet.

Every change to a sheet is an effect dict (see `apply_effect`). The rules build them with the functions here,
which fold each effect into the working sheet at once, so what an action reports is exactly what the battle
tracker will do when it folds the same effects into its state. Effects carry absolute values (HP after, turns
left) so folding them twice gives the same sheet.
"""

from __future__ import annotations

from rules.systems.enforcers import tables
from rules.systems.enforcers.agents import effective_stats

NONE, SERIOUSLY_WOUNDED, DYING, DEAD = "none", "seriously_wounded", "dying", "dead"
WOUND_STATUSES = (SERIOUSLY_WOUNDED, DYING, DEAD)


def half_hl(hl: int) -> int:
    return hl // 2  # L222 «половина макс. здоровья», rounded down (L13)


def wound_state(hp: int, hl: int, settings: dict) -> str:
    """L222–224 (A6): dead when −HP exceeds HL; Dying when −HP exceeds half of HL (or reaches it, «at_half»);
    Seriously wounded at 0 HP or less."""
    if hp < 0 and -hp > hl:
        return DEAD
    if hp < 0:
        at_half = settings.get("dying_threshold", "below_half") == "at_half"
        if -hp > half_hl(hl) or (at_half and -hp >= half_hl(hl)):
            return DYING
    if hp <= 0:
        return SERIOUSLY_WOUNDED
    return NONE


def current_wound(sheet: dict) -> str:
    statuses = sheet.get("statuses") or {}
    for state in (DEAD, DYING, SERIOUSLY_WOUNDED):
        if state in statuses:
            return state
    return NONE


def immune(sheet: dict, status: str) -> bool:
    return status in tables.immunities(sheet.get("armour"))


# The fold ---------------------------------------------------------------------------------------------
def apply_effect(sheet: dict, effect: dict) -> None:
    """Folds one effect into a sheet (kinds that concern the battle only, e.g. ammo, are left to it)."""
    kind = effect["kind"]
    statuses = sheet.setdefault("statuses", {})
    if kind in ("damage", "heal", "hp"):
        # The lowest HP of the scenario: what the character went through, for the injury tests (L242–246).
        sheet["lowest_hp"] = min(sheet.get("lowest_hp", sheet.get("hp", effect["hp"])), effect["hp"])
        sheet["hp"] = effect["hp"]
        if "ap" in effect:
            sheet["ap"] = effect["ap"]
    elif kind == "ap":
        sheet["ap"] = effect["ap"]
    elif kind == "status_gained":
        statuses[effect["status"]] = {k: effect[k] for k in ("turns", "stacks", "by") if k in effect}
    elif kind == "status_ticked":
        statuses.setdefault(effect["status"], {}).update({k: effect[k] for k in ("turns", "stacks") if k in effect})
    elif kind == "status_removed":
        statuses.pop(effect["status"], None)
    elif kind == "flag":
        sheet.setdefault("flags", {})[effect["flag"]] = True
    elif kind == "aim":
        sheet["aim"] = effect["stacks"]
    elif kind == "stance":
        sheet[effect["stance"]] = effect["on"]
    elif kind == "counter_used":
        sheet["counter_used"] = True
    elif kind == "benediction":
        sheet["benediction"] = True
    elif kind == "reroll_used":
        sheet["rerolls"] = max(0, sheet.get("rerolls", 0) - 1)


def emit(sheet: dict, effects: list[dict], effect: dict) -> dict:
    """Records an effect and folds it into the working sheet."""
    apply_effect(sheet, effect)
    effects.append(effect)
    return effect


def _echo(sheet: dict, role: str) -> dict:
    out = {"role": role}
    if "ref" in sheet:
        out["ref"] = sheet["ref"]
    return out


# Statuses ---------------------------------------------------------------------------------------------
def status_turns(status: str, settings: dict) -> int | None:
    """How long a newly gained status lasts (L303, L311; Pinned: A15)."""
    if status == "burning":
        return tables.BURNING_TURNS
    if status == "disoriented":
        return tables.DISORIENTED_TURNS
    if status == "pinned":
        return 1 if settings.get("pinned_duration", "next_activation") == "next_activation" else None
    if status == "dying":
        return 0  # turns spent Dying; dead at 3 (L224)
    return None


def gain_status(sheet: dict, status: str, settings: dict, effects: list, *, role: str, by=None) -> bool:
    """Gives a status unless the armour makes the agent immune (L333–350). Stuns stack (L307); a burning or
    disoriented agent that gains it again starts the count afresh. Returns whether it took hold."""
    if immune(sheet, status):
        effects.append({"kind": "status_resisted", **_echo(sheet, role), "status": status, "reason": "immune"})
        return False
    statuses = sheet.setdefault("statuses", {})
    effect = {"kind": "status_gained", **_echo(sheet, role), "status": status}
    if status == "stunned":
        effect["stacks"] = statuses.get("stunned", {}).get("stacks", 0) + 1
    else:
        effect["turns"] = status_turns(status, settings)
    if by is not None:
        effect["by"] = by
    emit(sheet, effects, effect)
    return True


def lose_status(sheet: dict, status: str, effects: list, *, role: str, reason: str) -> bool:
    if status not in (sheet.get("statuses") or {}):
        return False
    emit(sheet, effects, {"kind": "status_removed", **_echo(sheet, role), "status": status, "reason": reason})
    return True


def sync_wounds(sheet: dict, settings: dict, effects: list, *, role: str) -> str:
    """Sets Seriously wounded / Dying / dead from the HP now, and the flags the injury tests read (L242–246).
    A Dying agent keeps its count of turns; death is final."""
    if DEAD in sheet.get("statuses", {}):
        return DEAD
    hl = effective_stats(sheet)["HL"]
    hp = sheet["hp"]
    state = wound_state(hp, hl, settings)
    flags = sheet.setdefault("flags", {})
    if hp <= half_hl(hl) and not flags.get("half_hp"):
        emit(sheet, effects, {"kind": "flag", **_echo(sheet, role), "flag": "half_hp"})
    # A model that reached Dying was also seriously wounded on its way (spec A17).
    reached = {NONE: (), SERIOUSLY_WOUNDED: ("seriously_wounded",), DYING: ("seriously_wounded", "dying")}
    for flag in reached.get(state, ("seriously_wounded", "dying")):
        if not flags.get(flag):
            emit(sheet, effects, {"kind": "flag", **_echo(sheet, role), "flag": flag})
    for other in (SERIOUSLY_WOUNDED, DYING):
        if other != state:
            lose_status(sheet, other, effects, role=role, reason="wound state")
    if state != NONE and state not in sheet["statuses"]:
        gain_status(sheet, state, settings, effects, role=role)
    return state


def die(sheet: dict, effects: list, *, role: str, reason: str) -> None:
    for other in (SERIOUSLY_WOUNDED, DYING):
        lose_status(sheet, other, effects, role=role, reason=reason)
    if DEAD not in sheet.setdefault("statuses", {}):
        emit(sheet, effects, {"kind": "status_gained", **_echo(sheet, role), "status": DEAD, "reason": reason})


# Damage and healing -----------------------------------------------------------------------------------
def damage_split(hp: int, ap: int, amount: int, *, armour: str | None, kinetic: bool, bypass_armour: bool) -> dict:
    """L220, L337: Police Riot Gear takes 4 off Kinetic damage; what is left goes to AP first, the rest to HP
    (which may go below 0, L47). Pure arithmetic."""
    reduced = 0
    entry = tables.armour(armour)
    if kinetic and entry and entry["kinetic_reduction"]:
        reduced = min(amount, entry["kinetic_reduction"])
    left = amount - reduced
    absorbed = 0 if bypass_armour else min(ap, left)
    return {
        "amount": amount,
        "reduced": reduced,
        "ap_lost": absorbed,
        "hp_lost": left - absorbed,
        "ap": ap - absorbed,
        "hp": hp - (left - absorbed),
    }


def take_damage(
    sheet: dict,
    amount: int,
    settings: dict,
    effects: list,
    *,
    role: str,
    cause: str,
    kinetic: bool = False,
    bypass_armour: bool = False,
) -> dict:
    """Deals damage to a sheet and updates its wound state. Answers the split (see `damage_split`)."""
    if DEAD in sheet.get("statuses", {}):
        return {"amount": amount, "reduced": 0, "ap_lost": 0, "hp_lost": 0, "ap": sheet["ap"], "hp": sheet["hp"],
                "state": DEAD}  # fmt: skip
    split = damage_split(
        sheet["hp"], sheet["ap"], amount, armour=sheet.get("armour"), kinetic=kinetic, bypass_armour=bypass_armour
    )
    if amount > 0:
        emit(sheet, effects, {"kind": "damage", **_echo(sheet, role), "cause": cause, **split})
    split["state"] = sync_wounds(sheet, settings, effects, role=role)
    return split


def heal(sheet: dict, amount: int, settings: dict, effects: list, *, role: str, cause: str, cap: int | None = None):
    """Adds HP up to HL (L47), or up to `cap` (a failed revive stops at 0, L120)."""
    hl = effective_stats(sheet)["HL"]
    limit = hl if cap is None else min(cap, hl)
    after = max(sheet["hp"], min(limit, sheet["hp"] + amount))
    emit(
        sheet,
        effects,
        {"kind": "heal", **_echo(sheet, role), "cause": cause, "amount": after - sheet["hp"], "hp": after},
    )
    return sync_wounds(sheet, settings, effects, role=role)


def set_hp(sheet: dict, hp: int, settings: dict, effects: list, *, role: str, cause: str) -> str:
    emit(sheet, effects, {"kind": "hp", **_echo(sheet, role), "cause": cause, "hp": hp})
    return sync_wounds(sheet, settings, effects, role=role)
