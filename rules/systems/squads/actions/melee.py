"""Close combat (§3.8, L41–42, §5 B10–B12): a simultaneous round, one die per figure against its own «Опыт», the
figures suppressed before the attack striking last, personal armour saves, casualties only; and withdrawal with
pursuit, which replaces a locked unit's activation.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from rules.contract import distribution, prob
from rules.i18n import N_, _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.activation import activation_roll, check_unit, roll_activation
from rules.systems.squads.actions.common import (
    ACTIVATION_UNIT,
    COUNT,
    LEVEL,
    PERSONAL_ARMOUR,
    SquadAction,
    err,
    length,
)

SIDE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["level", "figures"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "level": LEVEL,
        "figures": {**COUNT, "minimum": 1, "maximum": 30, "description": "Figures standing in the unit"},
        "in_reach": {**COUNT, "description": 'Figures within 3"/8 cm of an enemy figure (default: all)'},
        "suppressed": {**COUNT, "description": "Of the fighting figures, those suppressed before this attack"},
        "armour": PERSONAL_ARMOUR,
    },
}
ROLES = ("attacker", "defender")
ROLE_NAMES = {"attacker": N_("the attacker"), "defender": N_("the defender")}
ROLE_TITLES = {"attacker": N_("The attacking unit"), "defender": N_("The defending unit")}
WITHDRAWAL_ROLL = N_("withdrawal roll")
PURSUIT_ROLL = N_("pursuit activation roll")


def fighters(side: dict, role: str, settings: dict) -> int:
    if role == "attacker" and settings["melee_attackers"] == "whole_unit":  # §5 B10
        return side["figures"]
    return side.get("in_reach", side["figures"])


def q_unsaved(striker: dict, struck: dict) -> Fraction:
    """P(one melee die becomes a casualty): it hits on the striker's «Опыт» (no cover, L42) and is not saved."""
    save = tables.PERSONAL_ARMOUR[struck.get("armour", "none")].save
    return tables.p_at_least(tables.TRAINING[striker["level"]].expertise) * (
        1 - (tables.p_at_least(save) if save else 0)
    )


def waiting_left(figures: int, waiting: int, casualties: int) -> int:
    """Suppressed fighters still standing for the second wave: casualties fall first on the figures that
    struck, then on those out of the fight, last on those still to strike (the owner's best choice)."""
    return waiting - max(0, casualties - (figures - waiting))


@cache
def _binomial(n: int, q: Fraction) -> tuple:
    return tuple(tables.binomial(n, q).items())


class Melee(SquadAction):
    key = "melee"
    label = "Melee round"
    spec_ref = "§3.8 (L41–42), §5 B10, B11, B12"
    description = (
        "Both sides roll one die per fighting figure at once against their own «Опыт»; figures suppressed before "
        "the attack strike last. Hits get personal armour saves only; unsaved hits are casualties, never "
        "suppression; cover has no effect. The fight goes on at the start of each later turn."
    )

    def case_labels(self) -> dict:
        return {"p_die_kills": {role: _(ROLE_NAMES[role]) for role in ROLES}}

    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["attacker", "defender"],
        "properties": {
            "round": {"type": "integer", "minimum": 1, "maximum": 100, "description": "1: the assault itself"},
            "attacker": SIDE,
            "defender": SIDE,
        },
    }

    def check_inputs(self, inputs, settings):
        clean = dict(inputs)
        for role in ROLES:
            side = dict(inputs[role])
            if side.get("in_reach", 0) > side["figures"]:
                raise err(f"{role}.in_reach", _("Only {figures} figures stand.").format(figures=side["figures"]))
            side["fighters"] = fighters(side, role, settings)
            if side.get("suppressed", 0) > side["fighters"]:
                raise err(f"{role}.suppressed", _("Only {n} figures fight.").format(n=side["fighters"]))
            side["waiting"] = side.get("suppressed", 0)
            if clean.get("round", 1) > 1 and settings["melee_round_clears_suppression"]:
                side["waiting"] = 0  # §5 B11: a later round starts with suppression cleared
            clean[role] = side
        if not clean["attacker"]["fighters"]:
            raise err("attacker.in_reach", _("No attacking figure is within reach of the enemy (§5 B10)."))
        return clean

    def resolve_clean(self, clean, settings, dice):
        steps: list[str] = []
        effects: list[dict] = []
        if clean.get("round", 1) > 1:
            for role in ROLES:
                if clean[role].get("suppressed") and not clean[role]["waiting"]:
                    effects.append({"kind": "suppression_cleared", "role": role, "figures": clean[role]["suppressed"]})
        lost = {"attacker": 0, "defender": 0}
        strikers = {r: clean[r]["fighters"] - clean[r]["waiting"] for r in ROLES}
        waves = []
        for wave in (1, 2):
            if wave == 2:
                strikers = {r: waiting_left(clean[r]["figures"], clean[r]["waiting"], lost[r]) for r in ROLES}
                if not any(strikers.values()):
                    break
            hits = {}
            rolls = {}
            for role in ROLES:
                side = clean[role]
                need = tables.TRAINING[side["level"]].expertise
                rolls[role] = (
                    dice.roll_many(
                        strikers[role],
                        6,
                        names.MELEE_DICE[wave, role],
                    )
                    if strikers[role]
                    else []  # fmt: skip
                )
                hits[_other(role)] = sum(1 for r in rolls[role] if r >= need)
                steps.append(
                    _("Wave {wave}, {side}: dice {n} {rolls}, needing {need}+: hits {hits}.").format(
                        wave=wave, side=_(ROLE_NAMES[role]), n=len(rolls[role]), rolls=rolls[role], need=need,
                        hits=hits[_other(role)])
                )  # fmt: skip
            record = {"wave": wave, "dice": rolls, "hits": hits, "unsaved": {}}
            for role in ROLES:
                side = clean[role]
                save = tables.PERSONAL_ARMOUR[side.get("armour", "none")].save
                h = hits[role]
                if save and h:
                    saves = dice.roll_many(h, 6, names.MELEE_SAVES[wave, role])
                    unsaved = sum(1 for r in saves if r < save)
                    steps.append(_("{side}: saves {save}+ {rolls}: unsaved {unsaved}.").format(
                        side=_(ROLE_TITLES[role]), save=save, rolls=saves, unsaved=unsaved))  # fmt: skip
                else:
                    unsaved = h
                taken = min(unsaved, side["figures"] - lost[role])
                record["unsaved"][role] = unsaved
                lost[role] += taken
            waves.append(record)
        for role in ROLES:
            if lost[role]:
                effects.append({"kind": "casualties", "role": role, "figures": lost[role]})
        left = {r: clean[r]["figures"] - lost[r] for r in ROLES}
        over = not left["attacker"] or not left["defender"]
        if over:
            effects.append(
                {"kind": "melee_over", "role": "game", "survivor": next((r for r in ROLES if left[r]), None)}
            )
        else:
            effects.append({"kind": "in_melee", "role": "attacker", "locked": settings["melee_lock"] == "both"})
            effects.append({"kind": "in_melee", "role": "defender", "locked": True})
        line = (
            _("Losses: the attacker {attacker}, the defender {defender}; the melee is over.")
            if over
            else _("Losses: the attacker {attacker}, the defender {defender}; the melee goes on next turn (L42).")
        )
        summary = line.format(attacker=lost["attacker"], defender=lost["defender"])
        result = {"casualties": lost, "left": left, "over": over, "waves": waves,
                  "attacker_casualties": lost["attacker"], "defender_casualties": lost["defender"]}  # fmt: skip
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        a, d = clean["attacker"], clean["defender"]
        q = {"defender": q_unsaved(a, d), "attacker": q_unsaved(d, a)}  # P(a die kills) against each role
        joint: dict[tuple[int, int], Fraction] = {}
        w1a, w1d = a["fighters"] - a["waiting"], d["fighters"] - d["waiting"]
        for ud, pd in _binomial(w1a, q["defender"]):
            for ua, pa in _binomial(w1d, q["attacker"]):
                ca, cd = min(ua, a["figures"]), min(ud, d["figures"])
                la, ld = waiting_left(a["figures"], a["waiting"], ca), waiting_left(d["figures"], d["waiting"], cd)
                for ud2, pd2 in _binomial(la, q["defender"]):
                    for ua2, pa2 in _binomial(ld, q["attacker"]):
                        key = (ca + min(ua2, a["figures"] - ca), cd + min(ud2, d["figures"] - cd))
                        joint[key] = joint.get(key, Fraction(0)) + pd * pa * pd2 * pa2
        cas_a: dict[int, Fraction] = {}
        cas_d: dict[int, Fraction] = {}
        for (x, y), p in joint.items():
            cas_a[x] = cas_a.get(x, Fraction(0)) + p
            cas_d[y] = cas_d.get(y, Fraction(0)) + p
        wiped_a = cas_a.get(a["figures"], Fraction(0))
        wiped_d = cas_d.get(d["figures"], Fraction(0))
        both = joint.get((a["figures"], d["figures"]), Fraction(0))
        return {
            "p_die_kills": {r: prob(q[r]) for r in ROLES},
            "attacker_casualties": distribution(cas_a),
            "defender_casualties": distribution(cas_d),
            "p_attacker_wiped_out": prob(wiped_a),
            "p_defender_wiped_out": prob(wiped_d),
            "p_melee_over": prob(wiped_a + wiped_d - both),
        }


def _other(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


def move_distance(die: int, settings: dict):
    """d6 inches, or d6 x 2.5 cm (spec §0)."""
    if tables.distance_units(settings):
        value = die * tables.WITHDRAW_CM_PER_PIP
        return int(value) if value.denominator == 1 else float(value)
    return die


def p_catch(settings: dict) -> Fraction:
    """P(the pursuit d6 catches the withdrawal d6) (L42; ties per the pursuit_catch setting)."""
    strict = settings["pursuit_catch"] == "more"
    return Fraction(sum(1 for w in range(1, 7) for p in range(1, 7) if (p > w if strict else p >= w)), 36)


class Withdrawal(SquadAction):
    key = "withdrawal"
    label = "Withdrawal from melee"
    spec_ref = "§3.8 (L42)"
    description = (
        "Replaces a locked unit's activation: a successful activation roll moves it d6\" away. If the enemy also "
        'passes an activation roll it follows d6"; when it catches up the melee goes on. A failed roll passes '
        "the initiative."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["withdrawing"],
        "properties": {
            "withdrawing": ACTIVATION_UNIT,
            "pursuer": {"anyOf": [{"type": "null"}, ACTIVATION_UNIT], "description": "null: nobody may follow"},
        },
    }

    def check_inputs(self, inputs, settings):
        clean = dict(inputs)
        clean["withdrawing"] = check_unit(inputs["withdrawing"], "withdrawing", settings)
        if inputs.get("pursuer") is not None:
            clean["pursuer"] = check_unit(inputs["pursuer"], "pursuer", settings)
        return clean

    def resolve_clean(self, clean, settings, dice):
        steps: list[str] = []
        ok, die, _roll, effects = roll_activation(
            dice, clean["withdrawing"], "withdrawing", settings, steps, WITHDRAWAL_ROLL
        )
        result = {"activation": die, "success": ok, "outcome": "failed"}
        if not ok:
            effects.append({"kind": "initiative_passes", "role": "game"})
            text = _("Withdrawal failed (d6 {die}): still locked in melee; the initiative passes.").format(die=die)
            return self.outcome(text, result, effects, steps)
        move = dice.roll(6, _("withdrawal move d6"))
        distance = move_distance(move, settings)
        effects.append({"kind": "withdrew", "role": "withdrawing", "distance": distance})
        steps.append(_("Withdraws {distance} away from the enemy.").format(distance=length(distance, settings)))
        result.update(move=move, distance=distance, outcome="escaped")
        pursuer = clean.get("pursuer")
        caught = False
        if pursuer is not None:
            p_ok, p_die, _roll, more = roll_activation(dice, pursuer, "pursuer", settings, steps, PURSUIT_ROLL)
            effects += more
            result.update(pursuit_activation=p_die, pursuit_success=p_ok)
            if p_ok:
                chase = dice.roll(6, _("pursuit move d6"))
                caught = chase > move if settings["pursuit_catch"] == "more" else chase >= move
                effects.append({"kind": "pursued", "role": "pursuer", "distance": move_distance(chase, settings)})
                line = _("Pursues {distance}: caught.") if caught else _("Pursues {distance}: falls short.")
                steps.append(line.format(distance=length(move_distance(chase, settings), settings)))
                result.update(pursuit_move=chase)
        if caught:
            result["outcome"] = "caught"
            effects.append({"kind": "in_melee", "role": "withdrawing", "locked": True})
            return self.outcome(_("Caught: the melee goes on."), result, effects, steps)
        effects += [{"kind": "melee_ended", "role": "withdrawing"}, {"kind": "melee_ended", "role": "pursuer"}]
        text = _("Escaped {distance}: the melee is over.").format(distance=length(distance, settings))
        return self.outcome(text, result, effects, steps)

    def odds_clean(self, clean, settings):
        p_w = activation_roll(clean["withdrawing"], settings).p_success(settings)
        pursuer = clean.get("pursuer")
        p_p = activation_roll(pursuer, settings).p_success(settings) if pursuer is not None else Fraction(0)
        caught = p_w * p_p * p_catch(settings)
        return {
            "p_withdraw_roll": prob(p_w),
            "p_pursuit_roll": prob(p_p),
            "p_failed": prob(1 - p_w),
            "p_escaped": prob(p_w - caught),
            "p_caught": prob(caught),
            "move": distribution({move_distance(v, settings): Fraction(1, 6) for v in range(1, 7)}),
        }
