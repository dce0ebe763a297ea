"""The activation roll (§3.2) with all its modifiers, the failed activation (§3.4), and the chain: a failed roll
passes the initiative (§3.1). The roll itself is shared with melee withdrawal and dodging a vehicle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rules.contract import distribution, exact, prob
from rules.i18n import N_, _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.common import (
    ACTIVATION_UNIT,
    NAME,
    SquadAction,
    boolean,
    deterministic,
    err,
    length,
    pair,
)


def out_of_coherency(positions: list, settings: dict) -> int:
    """Figures out of coherency from their positions (§5 B20): within 3"/8 cm of another figure is a link.
    chain: every figure outside the largest linked group; isolated_only: figures linked to nobody."""
    reach = pair(tables.COHERENCY, settings)
    n = len(positions)
    links = [[j for j in range(n) if j != i and math.dist(positions[i], positions[j]) <= reach] for i in range(n)]
    if settings["coherency"] == "isolated_only":
        return sum(1 for i in range(n) if not links[i]) if n > 1 else 0
    seen: set[int] = set()
    largest = 0
    for start in range(n):
        if start in seen:
            continue
        group, stack = 0, [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            group += 1
            for j in links[i]:
                if j not in seen:
                    seen.add(j)
                    stack.append(j)
        largest = max(largest, group)
    return n - largest


@dataclass
class Roll:
    """What an activation roll needs: the target number, the modifier and why."""

    need: int
    modifier: int
    level: str
    parts: list[str]

    def success_on(self, die: int, settings: dict) -> bool:
        if settings["natural_one_six"] and die in (1, 6):  # §5 B24, FUBAR: off by default
            return die == 6
        return die + self.modifier >= self.need

    def p_success(self, settings: dict) -> Fraction:
        return Fraction(sum(1 for d in range(1, 7) if self.success_on(d, settings)), 6)

    def describe(self) -> str:
        mod = f" {self.modifier:+d}" if self.modifier else ""
        why = f" ({', '.join(self.parts)})" if self.parts else ""
        return _("needs {need}+").format(need=self.need) + mod + why


def check_unit(unit: dict, field: str, settings: dict) -> dict:
    """Rule checks of an activating unit; fills in defaults and the coherency count."""
    unit = dict(unit)
    kind = unit.setdefault("kind", "squad")
    if kind == "vehicle":
        if unit.get("suppressed"):
            raise err(f"{field}.suppressed", _("A vehicle cannot be suppressed (L90)."))
        if unit.get("positions") or unit.get("out_of_coherency"):
            raise err(f"{field}.out_of_coherency", _("A vehicle has no coherency to keep (L2 is about units)."))
    elif unit.get("crew_stunned"):
        raise err(f"{field}.crew_stunned", _("Only a vehicle's crew can be stunned (L86)."))
    if "positions" in unit:
        if "out_of_coherency" in unit:
            raise err(f"{field}.positions", _("Give either the positions or the figures out of coherency, not both."))
        unit["out_of_coherency"] = out_of_coherency(unit["positions"], settings)
    figures = unit.get("figures")
    if figures is not None:
        if unit.get("suppressed", 0) > figures:
            raise err(
                f"{field}.suppressed",
                _("Only {figures} figures stand: {suppressed} cannot be suppressed.").format(
                    figures=figures, suppressed=unit["suppressed"]
                ),
            )
        if unit.get("out_of_coherency", 0) > figures:
            raise err(f"{field}.out_of_coherency", _("Only {figures} figures stand.").format(figures=figures))
    if unit.get("casualties", 0) > unit.get("strength", unit.get("casualties", 0)):
        raise err(f"{field}.casualties", _("More casualties than figures at the start."))
    if unit.get("in_melee") and "melee_role" not in unit:
        raise err(f"{field}.melee_role", _("Say whether the unit attacked or was attacked."))
    return unit


def activation_roll(unit: dict, settings: dict) -> Roll:
    """The target number and modifiers of §3.2."""
    level = unit["level"]
    if unit.get("kind") == "vehicle" and settings["vehicle_level"] == "regular":  # §5 B14
        level = "regular"
    parts = []
    need = tables.TRAINING[level].activation
    leader = unit.get("leader")
    if leader is not None:
        alive = leader.get("alive", True)
        better = tables.TRAINING[leader["level"]].activation < need  # «более высоким уровнем» = a lower number
        if better and (alive or settings["leader_lost"] == "keep"):
            need = tables.TRAINING[leader["level"]].activation
            level = leader["level"]
            parts.append(_("the leader's level") if alive else _("the fallen leader's level (§5 B21)"))
    mod = 0
    if unit.get("out_of_coherency"):
        mod -= unit["out_of_coherency"]
        parts.append(_("−{n} out of coherency").format(n=unit["out_of_coherency"]))
    if unit.get("suppressed"):
        mod -= unit["suppressed"]
        parts.append(_("−{n} suppressed").format(n=unit["suppressed"]))
    if not unit.get("sees_enemy", True):
        mod += 1
        parts.append(_("+1 no visible enemy"))
    stuns = unit.get("crew_stunned", 0)
    if stuns:
        penalty = tables.CREW_STUN_PENALTY * (stuns if settings["stun_stacking"] == "stacking" else 1)
        mod -= penalty
        parts.append(_("−{n} crew stunned").format(n=penalty))
    return Roll(need=need, modifier=mod, level=level, parts=parts)


def check_may_activate(unit: dict, field: str, settings: dict) -> None:
    """A unit locked in melee may only try to withdraw (L42, §5 B12)."""
    if not unit.get("in_melee"):
        return
    if settings["melee_lock"] == "both" or unit.get("melee_role") == "defender":
        raise err(
            f"{field}.in_melee",
            _("This unit is locked in melee: its only activation is a withdrawal attempt (L42)."),
        )


ACTIVATION_ROLL = N_("activation roll")


def roll_activation(dice, unit: dict, role: str, settings: dict, steps: list[str], purpose: str = ACTIVATION_ROLL):
    """Rolls, and answers (success, die, roll, effects): suppression clears after the roll whatever it shows (L31).
    `purpose` is a msgid (N_), named in the reader's language here."""
    roll = activation_roll(unit, settings)
    purpose = _(purpose)
    named = names.whose(purpose, unit["name"]) if unit.get("name") else purpose
    die = dice.roll(6, named)
    ok = roll.success_on(die, settings)
    line = _("{roll}: d6 = {die}, {needs}: success.") if ok else _("{roll}: d6 = {die}, {needs}: failure.")
    steps.append(line.format(roll=purpose[:1].upper() + purpose[1:], die=die, needs=roll.describe()))
    effects = []
    if unit.get("suppressed"):
        effects.append({"kind": "suppression_cleared", "role": role, "figures": unit["suppressed"]})
        steps.append(_("Suppressed figures recover after the roll (L31): {n}.").format(n=unit["suppressed"]))
    if unit.get("crew_stunned"):
        effects.append({"kind": "crew_stun_spent", "role": role})
    return ok, die, roll, effects


def failed_consequence(unit: dict, role: str, settings: dict) -> tuple[dict, list[dict], str]:
    """§3.4: On Guard, or above 50 % casualties a 6"/15 cm withdrawal away from the nearest (visible) enemy, or to
    the deployment point when no enemy is in sight (L25, §5 B23)."""
    strength, casualties = unit.get("strength", 0), unit.get("casualties", 0)
    if strength and casualties * 2 > strength:
        distance = pair(tables.FAILED_WITHDRAWAL, settings)
        if unit.get("sees_enemy", True):
            key = "nearest_visible_enemy" if settings["withdraw_from"] == "nearest_visible" else "nearest_enemy"
            away = unit.get(key) or unit.get("nearest_visible_enemy") or unit.get("nearest_enemy")
            effect = {"kind": "withdraw", "role": role, "distance": distance, "away_from": away or "the nearest enemy"}
            line = (
                _("the unit has lost more than half ({casualties} of {strength}) and withdraws {distance} away from {away}")
                if away
                else _("the unit has lost more than half ({casualties} of {strength}) and withdraws {distance} away "
                       "from the nearest enemy")
            )  # fmt: skip
            text = line.format(casualties=casualties, strength=strength, distance=length(distance, settings), away=away)
        else:
            effect = {"kind": "withdraw", "role": role, "distance": distance, "toward": "deployment_point"}
            text = _(
                "the unit has lost more than half ({casualties} of {strength}), sees no enemy and withdraws {distance} "
                "toward its deployment point"
            ).format(casualties=casualties, strength=strength, distance=length(distance, settings))
        return (
            {"consequence": "withdraw", **{k: v for k, v in effect.items() if k not in ("kind", "role")}},
            [effect],
            text,
        )
    return {"consequence": "on_guard"}, [{"kind": "on_guard", "role": role}], _("the unit goes On Guard")


class Activation(SquadAction):
    key = "activation"
    label = "Activation roll"
    spec_ref = "§3.1–§3.4 (L2, L12–14, L25, L31, L86), §5 B12, B14, B20–B24"
    description = (
        "One d6 against the unit's «Активация» (or its better leader's): −1 per figure out of coherency, −1 per "
        "suppressed figure, +1 with no visible enemy, −2 for a stunned vehicle crew. Suppression ends after the "
        "roll. Success gives one action; failure sends the unit On Guard (or withdraws it above 50 % casualties) "
        "and passes the initiative."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {"unit": ACTIVATION_UNIT},
    }

    def check_inputs(self, inputs, settings):
        unit = check_unit(inputs["unit"], "unit", settings)
        check_may_activate(unit, "unit", settings)
        return {**inputs, "unit": unit}

    def resolve_clean(self, clean, settings, dice):
        unit = clean["unit"]
        steps: list[str] = []
        ok, die, roll, effects = roll_activation(dice, unit, "unit", settings, steps)
        if unit.get("on_guard") and settings["on_guard_until"] == "next_activation":
            effects.insert(0, {"kind": "on_guard_ends", "role": "unit"})  # §5 B13: it ends at the next attempt
        result = {"success": ok, "die": die, "need": roll.need, "modifier": roll.modifier, "level": roll.level,
                  "total": die + roll.modifier}  # fmt: skip
        if ok:
            effects.append({"kind": "activated", "role": "unit"})
            summary = _("Activated (d6 {die}): choose one action.").format(die=die)
        else:
            consequence, more, text = failed_consequence(unit, "unit", settings)
            effects += more + [{"kind": "initiative_passes", "role": "game"}]
            result.update(consequence)
            steps.append(_("Failed: {consequence}; the initiative passes (L12).").format(consequence=text))
            summary = _("Failed (d6 {die}): {consequence}; the initiative passes.").format(die=die, consequence=text)
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        unit = clean["unit"]
        roll = activation_roll(unit, settings)
        p = roll.p_success(settings)
        consequence, _, _ = failed_consequence(unit, "unit", settings)
        return {
            "need": roll.need,
            "modifier": roll.modifier,
            "p_success": prob(p),
            "p_fail": prob(1 - p),
            "on_failure": consequence["consequence"],
            "p_withdraw": prob(1 - p if consequence["consequence"] == "withdraw" else 0),
        }


class FailedActivation(SquadAction):
    key = "failed_activation"
    label = "Failed or skipped activation"
    spec_ref = "§3.4 (L25), §5 B23"
    description = (
        "A unit that fails its activation, or that its player does not activate, goes On Guard; above 50 % "
        'casualties it withdraws 6"/15 cm away from the nearest enemy, or toward its deployment point when no '
        "enemy is in sight. No dice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unit"],
        "properties": {
            "unit": {
                "type": "object",
                "additionalProperties": False,
                "required": ["strength", "casualties"],
                "properties": {
                    "name": NAME,
                    "strength": ACTIVATION_UNIT["properties"]["strength"],
                    "casualties": ACTIVATION_UNIT["properties"]["casualties"],
                    "sees_enemy": {"type": "boolean"},
                    "nearest_enemy": NAME,
                    "nearest_visible_enemy": NAME,
                },
            },
            "passes_initiative": {"type": "boolean", "description": "true when the roll failed (L12)"},
        },
    }

    def check_inputs(self, inputs, settings):
        unit = inputs["unit"]
        if unit["casualties"] > unit["strength"]:
            raise err("unit.casualties", _("More casualties than figures at the start."))
        return inputs

    def _apply(self, clean, settings):
        consequence, effects, text = failed_consequence(clean["unit"], "unit", settings)
        if clean.get("passes_initiative", True):
            effects = effects + [{"kind": "initiative_passes", "role": "game"}]
        return consequence, effects, text

    def resolve_clean(self, clean, settings, dice):
        consequence, effects, text = self._apply(clean, settings)
        return self.outcome(text[:1].upper() + text[1:] + ".", consequence, effects, [f"L25: {text}."])

    def odds_clean(self, clean, settings):
        consequence, _, _ = self._apply(clean, settings)
        return {**deterministic(consequence), "withdraw": boolean(Fraction(consequence["consequence"] == "withdraw"))}


MAX_CHAIN = 30  # units one player tries in one run of the initiative
CHAIN_UNIT = {
    **ACTIVATION_UNIT,
    "properties": {
        **ACTIVATION_UNIT["properties"],
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_CHAIN, "description": "Units like this one in a row"},
    },
}
CHAIN_ENDS = ("on_guard", "withdraw", "all_activated")


class ActivationChain(SquadAction):
    key = "activation_chain"
    label = "Activation chain"
    spec_ref = "§3.1–§3.2 (L12–14, L25, L31), §5 B22"
    description = (
        "«Инициатива» (L12): the player holding the initiative tries his units one at a time, in the order given, "
        "and goes on while the activation rolls succeed; the first failure sends that unit On Guard (or withdraws "
        "it above 50 % casualties) and passes the initiative. Each roll has its unit's own level and modifiers. "
        "The odds give how many units activate before a roll fails, taking the units as they stand now."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["units"],
        "properties": {
            "units": {
                "type": "array",
                "items": CHAIN_UNIT,
                "minItems": 1,
                "maxItems": MAX_CHAIN,
                "description": "The units in the order the player tries them",
            }
        },
    }

    def case_labels(self) -> dict:
        return {
            "chain_end": {
                "on_guard": _("A roll fails: that unit goes On Guard"),
                "withdraw": _("A roll fails: that unit retreats (L25)"),
                "all_activated": _("Every unit activates"),
            }
        }

    def check_inputs(self, inputs, settings):
        units = []
        for i, given in enumerate(inputs["units"]):
            given = dict(given)
            copies = given.pop("count", 1)
            if len(units) + copies > MAX_CHAIN:
                raise err(
                    f"units.{i}.count",
                    _("At most {n} units try in one run of the initiative.").format(n=MAX_CHAIN),
                    {"units": MAX_CHAIN},
                )
            unit = check_unit(given, f"units.{i}", settings)
            check_may_activate(unit, f"units.{i}", settings)
            units += [unit] * copies
        return {"units": units}

    def resolve_clean(self, clean, settings, dice):
        units = clean["units"]
        steps: list[str] = []
        effects: list[dict] = []
        rolls = []
        failed = None
        result: dict = {}
        for i, unit in enumerate(units):
            ok, die, roll, more = roll_activation(dice, unit, "unit", settings, steps)
            effects += [{**e, "index": i} for e in more]
            rolls.append({"index": i, "die": die, "need": roll.need, "modifier": roll.modifier,
                          "total": die + roll.modifier, "success": ok})  # fmt: skip
            if ok:
                effects.append({"kind": "activated", "role": "unit", "index": i})
                continue
            failed = i
            consequence, after, text = failed_consequence(unit, "unit", settings)
            effects += [{**e, "index": i} for e in after] + [{"kind": "initiative_passes", "role": "game"}]
            result.update(consequence)
            steps.append(_("Failed: {consequence}; the initiative passes (L12).").format(consequence=text))
            break
        activated = len(rolls) - (failed is not None)
        result.update({"activated": activated, "tried": len(rolls), "units": len(units), "failed": failed,
                       "rolls": rolls, "chain_end": "all_activated" if failed is None else result["consequence"]})  # fmt: skip
        summary = _("Activated {k} of {n} units before a roll failed.") if failed is not None else _(
            "Activated {k} of {n} units: every roll succeeded.")  # fmt: skip
        return self.outcome(summary.format(k=activated, n=len(units)), result, effects, steps)

    def odds_clean(self, clean, settings):
        units = clean["units"]
        reach = Fraction(1)  # P(every roll so far succeeded)
        activated: dict[int, Fraction] = {}
        ends = dict.fromkeys(CHAIN_ENDS, Fraction(0))
        for k, unit in enumerate(units):
            p = activation_roll(unit, settings).p_success(settings)
            stop = reach * (1 - p)  # exactly k activate: the (k+1)-th roll is the first to fail
            if stop:
                activated[k] = stop
            ends[failed_consequence(unit, "unit", settings)[0]["consequence"]] += stop
            reach *= p
        if reach:
            activated[len(units)] = reach
        ends["all_activated"] = reach
        first = activation_roll(units[0], settings)
        return {
            "activated": distribution(activated),
            "expected_activated": exact(sum((k * p for k, p in activated.items()), Fraction(0))),
            "p_first_activates": prob(first.p_success(settings)),
            "p_all": prob(reach),
            "chain_end": {key: prob(p) for key, p in ends.items()},
            "first_roll": distribution({die + first.modifier: Fraction(1, 6) for die in range(1, 7)}),
        }
