"""Vectorised Monte-Carlo battles of «Звездный Десант» (numpy) for the balance jobs.

One rule, three forms: the engine's primitives (`volley`, `melee_round`, `take_wounds`, `first_player`) are the
only places a battle rolls; `simulate_volley` and `simulate_melee_round` run exactly those once so tests can hold
them against the exact odds of the `shooting` and `melee` actions, and reference.py runs the same model one D20 at
a time in plain Python.

THE MODEL (no map: the sides stand a fixed distance apart)
Forces: every roster entry × its count is a unit: its figures, one СТК (A10), КБР, БСП, melee strikes, and its
weapon groups (figures carrying one weapon). Casualties leave the last weapon group first.
Orders: each side gives all its units one order for the whole game (order_a, order_b: «Оборона» or «Атака»);
it sets both sides' hit numbers (§3.10). Each side stands in one cover (cover_a, cover_b).
Firefight (mode "firefight"), each turn: the First Player roll-off (D20, ties re-rolled); every living unit gets
the same initiative, so all tie and the sides alternate, First Player first (§3.4). A unit acts if it is still
alive and shoots the first living enemy unit in roster order: Скр D20 per living figure of each weapon group whose
Длн reaches the distance, the hit test, a wound test per hit against the target's class, Мщ markers per wound;
casualties at once (§3.11), every figure can be killed.
Melee (mode "melee"): from the first turn every unit is in one multi-sided melee with all enemy units, every figure
in base contact (§3.13): +1 and +2 БСП to the side with more figures (so +3), capped at 20; each unit's figures
strike the first living enemy unit; wounds land simultaneously.
End: after `turns` turns (default: the max_turns setting, 5) or when a side is wiped out. Victory points (§3.15):
full cost for a destroyed unit, half for one that lost more than half (A23 settings); more VP wins, equal draws.
"""

from __future__ import annotations

import numpy as np

from rules.contract import SimulatorPart
from rules.contract.simulator import Prepared
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import profile as lbh
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.settings import full_settings
from rules.systems.zvezdny_desant.simulate.engine import simulate
from rules.systems.zvezdny_desant.simulate.model import MODEL_VERSION, Match, build_match

MODEL_DESCRIPTION = __doc__

ORDER_LABELS = {o: tables.ORDER_WORDS[o] for o in ("defence", "attack")}  # msgids, read by the jobs form
COVER_LABELS = dict(tables.COVER_WORDS)
# "title" labels a field, "description" helps, "x-labels" name an enum's values (rules/jobs/forms.py); all N_().
PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "mode": {"enum": ["firefight", "melee"], "default": "firefight", "title": N_("Mode"),
                 "x-labels": {"firefight": N_("Firefight"), "melee": N_("Close combat")},
                 "description": N_("Shoot it out at a distance, or fight one melee from the start")},
        "distance": {"type": "integer", "minimum": 1, "maximum": 200, "default": 24, "title": N_("Distance, steps"),
                     "description": N_("Steps between the sides; a weapon shoots only if its Rng reaches")},
        "order_a": {"enum": ["defence", "attack"], "default": "defence", "title": N_("Side A's order"),
                    "x-labels": ORDER_LABELS},
        "order_b": {"enum": ["defence", "attack"], "default": "defence", "title": N_("Side B's order"),
                    "x-labels": ORDER_LABELS},
        "cover_a": {"enum": list(tables.COVERS), "default": "open", "title": N_("Cover side A stands in"),
                    "x-labels": COVER_LABELS},
        "cover_b": {"enum": list(tables.COVERS), "default": "open", "title": N_("Cover side B stands in"),
                    "x-labels": COVER_LABELS},
        "turns": {"type": "integer", "minimum": 1, "maximum": 50, "title": N_("Turns"),
                  "description": N_("Game length; by default the battle settings' number of turns (5)")},
    },
}  # fmt: skip


def _points(value) -> int | float:
    value = float(value or 0)
    return int(value) if value.is_integer() else value


class ZvezdnyDesantSimulator(SimulatorPart):
    model_version = MODEL_VERSION
    params_schema = PARAMS_SCHEMA
    job_kinds = ("rosters", "units")
    simulated = (
        N_("The First Player roll-off every turn, ties re-rolled (§3.1, A6)."),
        N_("Activation in initiative order with ties alternating from the First Player (§3.4)."),
        N_("The hit test with the orders of both sides, cover and the 4+…20+ bounds (§3.10, A1)."),
        N_(
            "Wound tests per armour class with Pen and Pow; weapons without a number for a class never wound it (§3.11, A8)."
        ),
        N_("Weapon range (Rng) against the distance between the sides (§3.8)."),
        N_("Wound markers pooled per unit and removed by Tgh, leftovers kept (§3.11)."),
        N_("A multi-sided melee with the +1/+2 CA pluses, the cap at 20, extra strikes and wounds per strike (§3.13)."),
        N_("The game length and victory points: full cost, half cost above ½ losses (§1.6, §3.15, A23)."),
    )
    left_out = (
        N_(
            "Movement, terrain, line of sight, grey zones and Command Distance: no map, one distance and one cover per side."
        ),
        N_("Choosing orders and spreading command points: one order per side for the game, equal initiatives."),
        N_("Assaults and closing in: the melee mode starts with everyone in base contact; no shooting then."),
        N_(
            "Target choice: always the first living enemy unit in roster order; casualties leave the last weapon group first."
        ),
        N_("Figures out of sight or range that cannot die; cover that differs between figures of a unit."),
        N_("Re-rolls, panic, fire suppression and shooting morale (full rules, A2–A4)."),
        N_("Vehicles (the demo covers infantry only)."),
    )

    def check_settings(self, settings: dict | None) -> dict:
        return full_settings(settings)

    def side_from_profile(self, profile: dict) -> dict:
        """A unit-against-unit duel of a card whose costs are not printed (the demo prints none, L754): each
        figure counts 1 point and a weapon nothing, so victory points weigh the figures lost, and the duel says
        which card is stronger (the job suggests the points). The job's warnings say so."""
        side = super().side_from_profile(profile)
        options = lbh.default_options(profile)
        figures = {k: 1 for k, f in lbh.figures_of(profile).items() if f.get("cost") is None}
        weapons = {k: 0 for k, w in lbh.weapons_of(profile).items() if w.get("cost", 0) is None}
        upgrades = {k: 0 for k, u in lbh.upgrades_of(profile).items() if u.get("cost") is None}
        if figures or weapons or upgrades:
            options["card_costs"] = {"figures": figures, "weapons": weapons, "upgrades": upgrades}
            side["stand_in_costs"] = True
        side["entries"][0]["options"] = options
        return side

    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        settings = full_settings(settings)
        match, warnings, forces = build_match(side_a, side_b, params, settings)
        if side_a.get("stand_in_costs") or side_b.get("stand_in_costs"):
            warnings.append(_("No cost is printed for this card (L754): in the duel each figure counts 1 point."))
        cost = (float(match.cost[match.side == 0].sum()), float(match.cost[match.side == 1].sum()))
        return Prepared(cost=cost, warnings=warnings, forces=forces, model=match)

    def describe_forces(self, forces) -> list[dict]:
        """Each side's units as the job page lists them: name, figures and cost (the forces build_match stored)."""
        out = []
        for k, side in enumerate(forces if isinstance(forces, list) else []):
            units = [u for u in (side.get("units") if isinstance(side, dict) else None) or [] if isinstance(u, dict)]
            lines = [
                _("{name}: {figures} figures, cost {cost}").format(
                    name=u.get("name", ""), figures=u.get("figures", 0), cost=_points(u.get("cost"))
                )
                for u in units
            ]
            cost = sum(float(u.get("cost") or 0) for u in units)
            out.append({"side": "AB"[k] if k < 2 else str(k + 1), "cost": cost, "lines": lines})
        return out

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        match: Match = prepared.model
        return simulate(match, n, rng)


SIMULATOR = ZvezdnyDesantSimulator()
