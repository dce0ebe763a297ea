"""Grenades (spec §3.8, p.36–37; optional rule). The burst lands Д6 steps from the thrower toward the target
(never doubled by aimed fire) and always explodes: every element within 1 step of it, friend, foe or the thrower
himself, is attacked with 1Д20 (§7.4 II and III; no cover by default, A15: with the setting blast_cover on, a victim's
`cover` raises its armour as for a shot, Table 5, as the simulator does).

Who is within 1 step depends on where the burst lands, which the players see only after the roll. Two ways in:
- one call: list `victims`, each with `bursts`: the burst distances (1–6) at which it would be within 1 step.
  The engine rolls the burst and attacks those whose `bursts` hold it; the exact odds follow the same way.
- two calls: first with no victims (rolls the burst and says where it landed), then again with
  `burst_steps` set to that result and the `victims` the players found within 1 step (no burst die is rolled).
The thrower is always 1 step from a burst of 1 (G17) and is attacked then, unless he is listed himself.
"""

from __future__ import annotations

from fractions import Fraction

from rules import dice as dicelib
from rules.contract import distribution, prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import (
    ELEMENT,
    SHOOTER,
    BronAction,
    attack_element,
    check_element,
    damage_consequences,
    die_name,
    echo,
    err,
)
from rules.systems.bronepekhota.actions.virtual_shot import cover_value
from rules.systems.bronepekhota.words import say

VICTIM = {
    **ELEMENT,
    "properties": {
        **ELEMENT["properties"],
        "bursts": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "uniqueItems": True,
            "description": "Burst distances (steps from the thrower) that put this element within 1 step",
        },
        "cover": {"enum": list(tables.COVER_CHOICES), "description": "Counts only with the setting blast_cover"},
    },
}


def pool(bonus: int = 0) -> tuple:
    """The grenade's 1Д20 against armour + `bonus` (cover, only with blast_cover)."""
    return (1, 20, 0, bonus, "grenade die")


class Grenade(BronAction):
    key = "grenade"
    label = N_("Grenade")
    spec_ref = "§3.8 (p.36–37)"
    modes = ("virtual",)
    option = "grenades"
    description = (
        "Instead of shooting, an infantryman throws one grenade: the burst lands Д6 steps toward the target and "
        "always explodes; everything within 1 step (the thrower too) is attacked with 1Д20, no cover (unless the "
        "setting blast_cover is on)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["thrower"],
        "properties": {
            "thrower": SHOOTER,
            "burst_steps": {"type": "integer", "minimum": 1, "maximum": 6, "description": "An earlier burst roll"},
            "victims": {"type": "array", "items": VICTIM, "maxItems": 30},
        },
    }

    def check_inputs(self, inputs, settings):
        thrower = dict(inputs["thrower"])
        if thrower["kind"] != "infantry":
            raise err("thrower.kind", tr("Only infantrymen throw grenades."))
        if "armour" not in thrower:
            raise err("thrower.armour", tr("Give the thrower's Arm: a burst of 1 step attacks him too (G17)."))
        used = set(thrower.get("actions_used", []))
        if "grenade" in used:
            raise err("thrower.actions_used", tr("At most one grenade per attack (p.36)."))
        if settings["grenade_replaces_shot"] and ("shoot" in used or thrower.get("shots_this_round", 0)):
            raise err("thrower.actions_used", tr("He already shot this round; a grenade replaces the shot (p.34)."))
        if thrower.get("in_melee"):
            raise err("thrower.in_melee", tr("A soldier touching an enemy model cannot throw (A15: shot conditions)."))
        two_calls = "burst_steps" in inputs
        victims = []
        thrower_listed = False
        for i, v in enumerate(inputs.get("victims", [])):
            el = check_element({k: val for k, val in v.items() if k not in ("bursts", "cover")}, f"victims.{i}")
            bonus = 0
            if settings["blast_cover"]:  # A6, A15: off (the default), bursts ignore cover
                bonus = cover_value(v.get("cover", tables.COVER_NONE), settings, f"victims.{i}.cover")
            if not two_calls and "bursts" not in v:
                raise err(
                    f"victims.{i}.bursts",
                    tr("Say at which burst distances (1–6) this element is within 1 step, or roll the burst first."),
                )
            bursts = set(v.get("bursts", range(1, 7)))
            same = "ref" in v and v.get("ref") == thrower.get("ref") and v.get("soldier") == thrower.get("soldier")
            thrower_listed = thrower_listed or same
            victims.append((el, bursts, f"victims.{i}", bonus))
        if not thrower_listed and (not two_calls or inputs["burst_steps"] == 1):
            self_el = {k: thrower[k] for k in ("kind", "armour", "ref", "soldier", "name") if k in thrower}
            victims.append((check_element(self_el, "thrower"), {1}, "thrower", 0))
        return {"thrower": thrower, "burst_steps": inputs.get("burst_steps"), "victims": victims}

    def resolve_clean(self, clean, settings, dice):
        thrower = clean["thrower"]
        steps: list[str] = []
        effects = [
            {"kind": "action_used", "role": "thrower", "action": "grenade", **echo(thrower)},
        ]
        if settings["grenade_replaces_shot"]:
            effects.append({"kind": "action_used", "role": "thrower", "action": "shoot", **echo(thrower)})
        burst = clean["burst_steps"]
        if burst is None:
            burst = dice.roll(tables.GRENADE_RANGE_FACES, "grenade burst distance")
            steps.append(
                tr("Burst: {die} = {steps} steps from the thrower toward the target.").format(
                    die=die_name(6), steps=burst
                )
            )
        else:
            steps.append(tr("Burst {steps} steps from the thrower (rolled before).").format(steps=burst))
        result = {"burst_steps": burst, "victims": []}
        hit = [(el, role, bonus) for el, bursts, role, bonus in clean["victims"] if burst in bursts]
        for el, role, bonus in hit:
            res, eff = attack_element(dice, el, role, [pool(bonus)], settings=settings, steps=steps, cause="grenade")
            result["victims"].append({"role": role, **res})
            effects += eff
        destroyed = result["destroyed"] = sum(1 for v in result["victims"] if v["destroyed"])
        if not hit:
            summary = say("The grenade bursts {steps} steps away; nobody listed is within 1 step.", steps=burst)
        else:
            summary = say(
                "The grenade bursts {steps} steps away: attacked {hit}, destroyed {destroyed}.",
                steps=burst,
                hit=len(hit),
                destroyed=destroyed,
            )
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        fixed = clean["burst_steps"]
        burst = {fixed: Fraction(1)} if fixed else {b: Fraction(1, 6) for b in range(1, 7)}
        victims = []
        killed = []  # each victim's chance to be destroyed by a burst of 1–6 steps, for the count below
        for el, bursts, role, bonus in clean["victims"]:
            p_in = sum((p for b, p in burst.items() if b in bursts), Fraction(0))
            armour = (el["armour"] if el["kind"] == "infantry" else el["strength"]) + bonus
            dmg = tables.damage_distribution(1, 20, armour)
            cons = damage_consequences(el, dmg, settings, cause="grenade")
            killed.append((bursts, cons["destroyed"]))
            victims.append(
                {
                    "role": role,
                    "p_attacked": prob(p_in),
                    "p_damaged": prob(p_in * (1 - dmg[0])),
                    "p_destroyed": prob(p_in * cons["destroyed"]),
                    "p_pilot_killed": prob(p_in * cons["pilot_killed"]),
                    "p_panic": prob(p_in * cons["panic"]),
                }
            )
        # How many are destroyed: given where it bursts, each victim within 1 step falls on his own 1Д20.
        destroyed: dict[int, Fraction] = {}
        for b, p_b in burst.items():
            count = {0: Fraction(1)}
            for bursts, p_kill in killed:
                if b in bursts and p_kill:
                    count = dicelib.combine(count, {0: 1 - p_kill, 1: p_kill}, lambda a, k: a + k)
            for n, p in count.items():
                destroyed[n] = destroyed.get(n, Fraction(0)) + p_b * p
        return {
            "burst": [{"value": b, **prob(p)} for b, p in sorted(burst.items())],
            "victims": victims,
            "p_any_destroyed": prob(1 - destroyed.get(0, Fraction(0))),
            "destroyed": distribution({n: p for n, p in destroyed.items() if p}),
        }
