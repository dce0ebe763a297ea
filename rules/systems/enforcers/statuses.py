"""Statuses (spec §3.16–§3.17, book L270–325): how each is applied, ticks and ends. Used by the actions and by the
battle part, on sheets (agents.py) through a roller (rolling.py), so every tick has its dice and exact odds.

| status            | gained by                  | ticks                                              | ends                      |
|-------------------|----------------------------|----------------------------------------------------|---------------------------|
| fear              | a failed WL test           | WL re-test at each activation start                | a passed re-test          |
| bleeding          | weapon trait               | −2 HP (past AP) at the end of own activation       | medical aid               |
| poisoned          | weapon trait               | TN test first: pass ends it; else −1 HP (past AP)  | TN test, medical aid      |
| burning           | weapon trait               | 2 damage, a WL fear test, then one turn less       | 3 turns, aid, repair      |
| stunned           | trait, fall                | each stack takes one action                        | when its actions are lost |
| disoriented       | weapon trait               | one turn less                                      | 2 turns                   |
| pinned            | suppressive fire           | one turn less (A15)                                | its next activation's end |
| seriously_wounded | HP 0 or less               | no actions                                         | revive (HP 1)             |
| dying             | HP under −half HL (A6)     | no actions; one turn more, dead at 3               | stabilize (HP 0)          |

"Turns" count the owner's own activations, or rounds (the duration_unit setting, A7).
"""

from __future__ import annotations

from rules.i18n import N_
from rules.systems.enforcers import tables, words
from rules.systems.enforcers.agents import crit_chance, effective_stats
from rules.systems.enforcers.core import RollSpec, test_name
from rules.systems.enforcers.texts import NT, T
from rules.systems.enforcers.wounds import (
    DEAD,
    DYING,
    SERIOUSLY_WOUNDED,
    die,
    emit,
    gain_status,
    lose_status,
    take_damage,
)

INCAPACITATED = (SERIOUSLY_WOUNDED, DYING, DEAD)  # L321, L325: count as Stunned, skip every action
COUNTDOWN = ("burning", "disoriented", "pinned")
# What the end of an activation rolls or costs HP for (§3.17): a poison's TN test, bleeding, burning (and its Fear
# test), the count to death while Dying. Disoriented and Pinned only count down.
TICKING = ("poisoned", "bleeding", "burning", "dying")
FEAR_ACTIONS = tables.FEAR_ACTIONS


def incapacitated(sheet: dict) -> bool:
    return any(s in (sheet.get("statuses") or {}) for s in INCAPACITATED)


def _echo(sheet: dict, role: str) -> dict:
    return {"role": role, **({"ref": sheet["ref"]} if "ref" in sheet else {})}


# Fear (L272–291) --------------------------------------------------------------------------------------
def fear_spec(sheet: dict, settings: dict, *, label, retest: bool = False, reroll: bool = False) -> RollSpec:
    """A WL test, or a friend's LD in line of sight if higher (L274); the re-test may use it too (setting)."""
    stats = effective_stats(sheet)
    value, stat = stats["WL"], "WL"
    friend = sheet.get("friendly_ld")
    if friend and friend > value and (not retest or settings.get("fear_retest_leadership", True)):
        value, stat = friend, "LD"
    return RollSpec(label=T("{label} ({stat} {value})", label=label, stat=stat, value=value), difficulty=value,
                    crit_chance=crit_chance(sheet, "WL"), reroll=reroll, name=test_name(label))  # fmt: skip


def fear_action(sheet: dict, roller, settings: dict, effects: list, steps: list, *, role: str) -> str:
    """L291: one of Fight, Flee, Freeze at random (a d3). A22: «Fight» is a shot at the nearest visible enemy;
    without a drawn ranged weapon the agent fights in melee if an enemy is within reach, else freezes."""
    face = roller.roll(3, N_("fear action (1 fight, 2 flee, 3 freeze)"))  # stored in English, worded when shown
    action = FEAR_ACTIONS[face]
    rolled = action
    if action == "fight" and not sheet.get("ranged_drawn", True):
        in_reach = sheet.get("enemy_in_reach", False)
        action = "melee" if in_reach and settings.get("fear_fight_unarmed") == "melee_or_freeze" else "freeze"
    if action != rolled:
        steps.append(
            T(
                "Fear action: d3 {face} = {rolled}, done as {action}.",
                face=face,
                rolled=words.word(words.FEAR_ACTION, rolled),
                action=words.word(words.FEAR_ACTION, action),
            )
        )
    else:
        steps.append(T("Fear action: d3 {face} = {rolled}.", face=face, rolled=words.word(words.FEAR_ACTION, rolled)))
    emit(sheet, effects, {"kind": "fear_action", **_echo(sheet, role), "action": action, "d3": face})
    if action == "freeze":  # «Замереть»: the Take cover action (L289)
        emit(sheet, effects, {"kind": "stance", **_echo(sheet, role), "stance": "took_cover", "on": True})
    return action


def fear_test(sheet: dict, roller, settings: dict, effects: list, steps: list, *, role: str, reroll=False) -> dict:
    """The GM's Fear test (L274–283): a failure gives Fear and an immediate random Fear action (L291)."""
    record = roller.test(fear_spec(sheet, settings, label=T("Fear test"), reroll=reroll), crit_matters=False)
    steps.append(record["line"])
    if record.get("rerolled"):
        emit(sheet, effects, {"kind": "reroll_used", **_echo(sheet, role)})
    result = {"passed": record["success"], "action": None}
    if not record["success"]:
        if "fear" not in sheet.get("statuses", {}):
            gain_status(sheet, "fear", settings, effects, role=role)
        result["action"] = fear_action(sheet, roller, settings, effects, steps, role=role)
    return result


# Start of an activation (§4) ----------------------------------------------------------------------------
def start_of_activation(sheet: dict, roller, settings: dict, *, role: str = "agent", extra_actions: int = 0) -> dict:
    """Stances end (§3.7), the Fear re-test (L291), then the actions: 2 (+ perks), 1 under Fear, each stun stack
    one fewer (L307); none while Seriously wounded or Dying (L321, L325). Stun stacks are used up."""
    effects: list[dict] = []
    steps: list[str] = []
    statuses = sheet.setdefault("statuses", {})
    if settings.get("stance_expiry", "next_activation") == "next_activation":
        for stance in ("overwatch", "took_cover"):
            if sheet.get(stance):
                emit(sheet, effects, {"kind": "stance", **_echo(sheet, role), "stance": stance, "on": False})
    if DEAD in statuses:
        return {"actions": 0, "effects": effects, "steps": [T("Dead: no activation.")], "fear_action": None}
    if incapacitated(sheet):
        state = words.status(DYING if DYING in statuses else SERIOUSLY_WOUNDED)
        steps.append(T("{state}: counts as stunned and skips every action (L321, L325).", state=state))
        return {"actions": 0, "effects": effects, "steps": steps, "fear_action": None}
    actions = tables.ACTIONS_PER_ACTIVATION + extra_actions
    afraid = False
    if "fear" in statuses:
        record = roller.test(fear_spec(sheet, settings, label=T("Fear re-test"), retest=True), crit_matters=False)
        steps.append(record["line"])
        if record["success"]:
            lose_status(sheet, "fear", effects, role=role, reason="passed the re-test")
        else:
            afraid = True
            actions = 1  # L285: one action, from the Fear list only
    stacks = statuses.get("stunned", {}).get("stacks", 0)
    if stacks:
        lost = min(stacks, actions)
        actions -= lost
        steps.append(NT("Stunned x{stacks}: {n} action lost (L307).", "Stunned x{stacks}: {n} actions lost (L307).", lost,
                        stacks=stacks))  # fmt: skip
        lose_status(sheet, "stunned", effects, role=role, reason="actions lost")
    fear_choice = None
    if afraid and actions:
        fear_choice = fear_action(sheet, roller, settings, effects, steps, role=role)
    steps.append(NT("{n} action this activation.", "{n} actions this activation.", actions))
    emit(sheet, effects, {"kind": "actions", **_echo(sheet, role), "actions": actions})
    return {"actions": actions, "effects": effects, "steps": steps, "fear_action": fear_choice, "afraid": afraid}


def stun_now(actions_left: int, settings: dict) -> tuple[int, bool]:
    """A stun gained mid-activation (L307): it takes an action left now (current_first), else it waits for the
    next activation. Answers (actions left, whether the stack stays for later)."""
    if settings.get("stun_timing", "current_first") == "current_first" and actions_left > 0:
        return actions_left - 1, False
    return actions_left, True


# End of an activation, end of a round -------------------------------------------------------------------
def _countdown(sheet: dict, status: str, effects: list, *, role: str) -> None:
    entry = sheet["statuses"].get(status)
    if entry is None or entry.get("turns") is None:
        return
    left = entry["turns"] - 1
    if left <= 0:
        lose_status(sheet, status, effects, role=role, reason="ran out")
    else:
        emit(sheet, effects, {"kind": "status_ticked", **_echo(sheet, role), "status": status, "turns": left})


def _dying_count(sheet: dict, effects: list, steps: list, *, role: str) -> None:
    entry = sheet["statuses"].get(DYING)
    if entry is None:
        return
    spent = (entry.get("turns") or 0) + 1
    emit(sheet, effects, {"kind": "status_ticked", **_echo(sheet, role), "status": DYING, "turns": spent})
    if spent >= tables.DYING_TURNS:
        steps.append(NT("Dying for {n} turn: dead (L224).", "Dying for {n} turns: dead (L224).", spent))
        die(sheet, effects, role=role, reason="dying for 3 turns")


def end_of_activation(sheet: dict, roller, settings: dict, *, role: str = "agent") -> dict:
    """§3.17 in order: poison (TN test before the damage), bleeding, burning (damage, WL fear test, one turn
    less), then, counting own activations (A7), Disoriented, Pinned and Dying."""
    effects: list[dict] = []
    steps: list[str] = []
    statuses = sheet.setdefault("statuses", {})
    if DEAD in statuses:
        return {"effects": effects, "steps": steps}
    by_activation = settings.get("duration_unit", "own_activation") == "own_activation"
    if "poisoned" in statuses:
        stats = effective_stats(sheet)
        record = roller.test(RollSpec(T("Poison TN test"), stats["TN"], crit_chance=crit_chance(sheet, "TN"),
                                      name="Poison TN test"),
                             crit_matters=False)  # fmt: skip
        steps.append(record["line"])
        cured = record["success"]
        if cured:
            lose_status(sheet, "poisoned", effects, role=role, reason="passed the TN test")
        if not cured or not settings.get("poison_cure_skips_damage", True):
            take_damage(sheet, tables.POISON_DAMAGE, settings, effects, role=role, cause="poison", bypass_armour=True)
            steps.append(T("Poison: {n} HP past armour (L299).", n=tables.POISON_DAMAGE))
    if "bleeding" in statuses and DEAD not in statuses:
        take_damage(sheet, tables.BLEEDING_DAMAGE, settings, effects, role=role, cause="bleeding", bypass_armour=True)
        steps.append(T("Bleeding: {n} HP past armour (L295).", n=tables.BLEEDING_DAMAGE))
    if "burning" in statuses and DEAD not in statuses:
        split = take_damage(sheet, tables.BURNING_DAMAGE, settings, effects, role=role, cause="burning",
                            bypass_armour=not settings.get("burning_armour", True))  # fmt: skip
        steps.append(T("Burning: {n} damage ({ap} AP, {hp} HP, L303).", n=tables.BURNING_DAMAGE, ap=split["ap_lost"],
                       hp=split["hp_lost"]))  # fmt: skip
        if DEAD not in statuses and not incapacitated(sheet):
            fear_test(sheet, roller, settings, effects, steps, role=role)
        if by_activation:
            _countdown(sheet, "burning", effects, role=role)
    if by_activation and DEAD not in statuses:
        for status in ("disoriented", "pinned"):
            _countdown(sheet, status, effects, role=role)
        _dying_count(sheet, effects, steps, role=role)
    return {"effects": effects, "steps": steps}


def end_of_round(sheet: dict, settings: dict, *, role: str = "agent") -> dict:
    """Stances that last to the end of the round end (§3.7 setting); counting durations in rounds (A7), Burning,
    Disoriented, Pinned and Dying tick here instead of at the end of the activation."""
    effects: list[dict] = []
    steps: list[str] = []
    if DEAD in sheet.get("statuses", {}):
        return {"effects": effects, "steps": steps}
    if settings.get("stance_expiry", "next_activation") == "end_of_round":
        for stance in ("overwatch", "took_cover"):
            if sheet.get(stance):
                emit(sheet, effects, {"kind": "stance", **_echo(sheet, role), "stance": stance, "on": False})
    if settings.get("duration_unit", "own_activation") == "round":
        for status in COUNTDOWN:
            _countdown(sheet, status, effects, role=role)
        _dying_count(sheet, effects, steps, role=role)
    return {"effects": effects, "steps": steps}


def status_test(sheet: dict, status: str, roller, settings: dict, effects: list, steps: list, *, role: str,
                by=None) -> bool:  # fmt: skip
    """L230: a hit by a weapon with a status trait gives the status only if the target fails a TN test; an
    immune armour needs no test (L333–350)."""
    if DEAD in sheet.get("statuses", {}):
        return False
    if status in tables.immunities(sheet.get("armour")):
        steps.append(T("{status}: immune through its armour.", status=words.status(status)))
        effects.append({"kind": "status_resisted", **_echo(sheet, role), "status": status, "reason": "immune"})
        return False
    stats = effective_stats(sheet)
    label = T("TN test against {status}", status=words.status(status))
    name = f"TN test against {words.STATUS[status]}" if status in words.STATUS else ""
    record = roller.test(RollSpec(label, stats["TN"], crit_chance=crit_chance(sheet, "TN"), name=name),
                         crit_matters=False)  # fmt: skip
    steps.append(record["line"])
    if record["success"]:
        effects.append({"kind": "status_resisted", **_echo(sheet, role), "status": status, "reason": "TN test"})
        return False
    gain_status(sheet, status, settings, effects, role=role, by=by)
    if status == "burning":  # L279: gaining Burning is a Fear trigger (the GM's call, §3.16)
        steps.append(T("Gained Burning: the GM may call a Fear test (L279)."))
    return True
