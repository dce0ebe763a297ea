"""Movement cost (spec §3.3.1 Table 1, §3.3.3 Table 2, p.11–19): what a move the players describe costs in speed
points, and whether the mover has them. The tracker does not know positions (§1.3): the players measure the path
at the table and type it in as segments; the engine prices it and records the move.

Infantry segments (Table 1, p.15):
    flat {steps}          1 SP a step; stairs and ramps <= 45° cost the same ("stairs", "ramp"), but a move
                          may not END on them (p.12)
    obstacle {height_cm}  crossing one obstacle on the way (its step is counted in the flat steps):
                          up to half a step (2.5 cm) free; half a step to 1 step (2.5–5 cm) 2 SP (A8, A9); higher
                          is impassable unless it is a climbable wall (climb)
    climb {steps}         2 SP a step up or down a wall the players judge climbable (p.13, §12.2)
    with_gun {steps}      2 SP a step while moving a mobile gun (p.14): no climbing, no jumping
    platform_jump {steps} a jump onto a platform at the same height or lower, gap <= 1 step: normal distance (p.13)
Vehicle segments (Table 2, p.16):
    forward {steps}       1 SP a step
    backward {steps}      wheeled, tracked: 1 SP a step; walkers ½ step per SP; flyers never
    sideways {steps}      walkers only, ½ step per SP
    turn {count, degrees} ground vehicles: 1 SP per turn, any angle; flyers: 1 SP per 90° (A10)

Settings: half_step_obstacle_free (A8), obstacle_cost_additive (A9), flyer_full_speed_each_move (A10).
"""

from __future__ import annotations

import math

from rules.contract import prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota.actions.common import PILOT, REF, BronAction, err
from rules.systems.bronepekhota.words import joined, say

HALF_STEP_CM = 2.5
STEP_CM = 5.0
OBSTACLE_SP = 2  # Table 1: an obstacle from half a step to 1 step high costs 2 SP (p.13, p.15)
LOCOMOTIONS = ("wheeled", "tracked", "walker", "flying")
INFANTRY_SEGMENTS = ("flat", "stairs", "ramp", "obstacle", "climb", "with_gun", "platform_jump")
VEHICLE_SEGMENTS = ("forward", "backward", "sideways", "turn")
# A move's parts as the table says them (Tables 1 and 2).
SEGMENT_WORDS = {
    "flat": N_("on the flat"),
    "stairs": N_("stairs"),
    "ramp": N_("ramp"),
    "obstacle": N_("obstacle"),
    "climb": N_("climbing"),
    "with_gun": N_("with a gun"),
    "platform_jump": N_("jump from a platform"),
    "forward": N_("forward"),
    "backward": N_("back"),
    "sideways": N_("sideways"),
    "turn": N_("turns"),
}
ACTIONS_USED = {"type": "array", "items": {"enum": ["move", "shoot", "melee", "grenade", "repair", "jump"]}}

SEGMENT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind"],
    "properties": {
        "kind": {"enum": list(INFANTRY_SEGMENTS + VEHICLE_SEGMENTS)},
        "steps": {"type": "number", "minimum": 0, "maximum": 100},
        "height_cm": {"type": "number", "minimum": 0, "maximum": 100, "description": "Obstacle height or depth"},
        "count": {"type": "integer", "minimum": 1, "maximum": 20, "description": "Turns"},
        "degrees": {"type": "number", "minimum": 0, "maximum": 360, "description": "Each turn's angle"},
    },
}


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def obstacle_cost(height_cm: float, settings: dict, field: str) -> float:
    """One obstacle crossed on the way: 0, or the 2 SP of Table 1 (added to the step it stands in, or the whole
    cost of that step), or impassable."""
    free = height_cm <= HALF_STEP_CM if settings["half_step_obstacle_free"] else height_cm < HALF_STEP_CM
    if free:
        return 0
    if height_cm > STEP_CM:
        raise err(
            field, tr("Higher than 1 step: impassable unless the players judge it climbable (climb it, p.13–14).")
        )
    # A9: additive, 2 SP on top of the step over it; otherwise the 2 SP are that step's whole cost (1 more).
    return OBSTACLE_SP if settings["obstacle_cost_additive"] else OBSTACLE_SP - 1


class Movement(BronAction):
    key = "movement"
    label = N_("Move")
    spec_ref = "§3.3 Tables 1–2 (p.11–19), A8, A9, A10"
    description = (
        "Prices a move the players measured: infantry 1 SP a step, obstacles up to half a step free, half to one "
        "step 2 SP, climbing and moving a gun 2 SP a step; vehicles by Table 2 (walkers back and sideways at ½ step "
        "per SP, flyers never back and 1 SP per 90° turn). The move is allowed if it costs no more than the Speed "
        "(a flyer moves twice a round, p.11)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["mover", "path"],
        "properties": {
            "mover": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "speed"],
                "properties": {
                    "kind": {"enum": ["infantry", "vehicle"]},
                    "ref": REF,
                    "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
                    "speed": {"type": "integer", "minimum": 0, "maximum": 30, "description": "Ск, or the sector's"},
                    "locomotion": {"enum": list(LOCOMOTIONS)},
                    "actions_used": ACTIONS_USED,
                    "aimed": {"type": "boolean"},
                    "pilot": PILOT,
                    "lying": {"type": "boolean"},
                    "towed": {"type": "boolean"},
                    "sp_used": {"type": "number", "minimum": 0, "maximum": 100, "description": "SP moved this round"},
                },
            },
            "path": {"type": "array", "minItems": 1, "maxItems": 30, "items": SEGMENT},
        },
    }

    def check_inputs(self, inputs, settings):
        mover, path = inputs["mover"], inputs["path"]
        used = list(mover.get("actions_used", []))
        if mover["kind"] == "infantry":
            if {"move", "jump", "repair"} & set(used):
                raise err("mover.actions_used", tr("He already moved (or jumped, or repaired) this round (p.10–11)."))
            if mover.get("aimed"):
                raise err("mover.aimed", tr("He declared aimed fire: he may not move this round (p.49)."))
            segments = INFANTRY_SEGMENTS
            budget = mover["speed"]
        else:
            locomotion = mover.get("locomotion")
            if locomotion is None:
                raise err("mover.locomotion", tr("Say how the vehicle moves: wheeled, tracked, walker or flying."))
            if mover.get("pilot", "aboard") is None:
                raise err("mover.pilot", tr("A vehicle without a pilot can neither shoot nor move (p.4, p.15)."))
            if mover.get("lying"):
                raise err("mover.lying", tr("A lying vehicle cannot move until stood up after a repair (p.26)."))
            if mover.get("towed"):
                raise err("mover.towed", tr("It is being towed: it moves with the HELIX (p.49)."))
            moves = used.count("move")
            if locomotion == "flying":
                if moves >= 2:
                    raise err(
                        "mover.actions_used", tr("A flyer moves at most twice a round: move, shoot, move (p.11).")
                    )
                full = settings["flyer_full_speed_each_move"]
                budget = mover["speed"] if full else mover["speed"] - mover.get("sp_used", 0)
            else:
                if moves:
                    raise err("mover.actions_used", tr("A ground vehicle moves once a round (p.10)."))
                budget = mover["speed"]
            segments = VEHICLE_SEGMENTS
        priced = []
        for i, seg in enumerate(path):
            field = f"path.{i}"
            if seg["kind"] not in segments:
                text = (N_("{kind} is not a move of an infantryman: one of {moves}.") if mover["kind"] == "infantry"
                        else N_("{kind} is not a move of a vehicle: one of {moves}."))  # fmt: skip
                raise err(f"{field}.kind", tr(text).format(kind=repr(seg["kind"]), moves=", ".join(segments)))
            priced.append({**seg, "cost": _number(self._cost(seg, mover, path, settings, field))})
        if path[-1]["kind"] in ("stairs", "ramp"):
            raise err("path", tr("A figure may not end its move on stairs or mid-ramp: it stops before them (p.12)."))
        cost = _number(sum(s["cost"] for s in priced))
        return {**inputs, "segments": priced, "cost": cost, "budget": _number(max(budget, 0)), "ok": cost <= budget}

    @staticmethod
    def _cost(seg: dict, mover: dict, path: list[dict], settings: dict, field: str) -> float:
        kind, steps = seg["kind"], seg.get("steps", 0)
        if kind in ("flat", "stairs", "ramp", "platform_jump", "forward"):
            if kind == "platform_jump" and any(s["kind"] == "with_gun" for s in path):
                raise err(field, tr("He may not jump while moving a mobile gun (p.14)."))
            return steps
        if kind == "obstacle":
            if "height_cm" not in seg:
                raise err(f"{field}.height_cm", tr("Give the obstacle's height (or depth) in cm."))
            return obstacle_cost(seg["height_cm"], settings, f"{field}.height_cm")
        if kind == "climb":
            if any(s["kind"] == "with_gun" for s in path):
                raise err(field, tr("He may not climb while moving a mobile gun (p.14)."))
            return 2 * steps
        if kind == "with_gun":
            return 2 * steps  # half speed: ½ step per SP (p.14, Рис.20)
        locomotion = mover["locomotion"]
        if kind == "backward":
            if locomotion == "flying":
                raise err(field, tr("A flyer never moves backward (Table 2)."))
            return 2 * steps if locomotion == "walker" else steps
        if kind == "sideways":
            if locomotion != "walker":
                raise err(field, tr("Only walkers move sideways (Table 2)."))
            return 2 * steps
        # turn
        count = seg.get("count", 1)
        if locomotion == "flying":
            degrees = seg.get("degrees", 90)
            return count * max(1, math.ceil(degrees / 90))  # a flyer turns at most 90° per SP (Table 2)
        return count  # any angle for 1 SP

    def resolve_clean(self, clean, settings, dice):
        mover, cost, budget = clean["mover"], clean["cost"], clean["budget"]
        who = {k: mover[k] for k in ("ref", "soldier") if k in mover}
        parts = joined(
            " + ", [say(SEGMENT_WORDS.get(s["kind"], s["kind"])) + f" {s['cost']}" for s in clean["segments"]]
        )
        result = {"cost": cost, "budget": budget, "ok": clean["ok"], "segments": clean["segments"]}
        if not clean["ok"]:
            summary = say(
                "This move costs {cost} SP ({parts}) but only {budget} are left: not possible.",
                cost=cost,
                parts=parts,
                budget=budget,
            )
            return self.outcome(summary, result, [], [summary])
        summary = say("Moves for {cost} SP of {budget} ({parts}).", cost=cost, budget=budget, parts=parts)
        effects = [{"kind": "action_used", "role": "mover", "action": "move", "sp": cost, **who}]
        return self.outcome(summary, result, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"cost": clean["cost"], "budget": clean["budget"], "p_ok": prob(1 if clean["ok"] else 0)}
