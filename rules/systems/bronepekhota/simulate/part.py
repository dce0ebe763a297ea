"""The simulator part of «Бронепехота» (rules/contract/simulator.py): the balance jobs reach the vectorised battle
model (model.py, engine.py) only through it. A thin wrapper: the numbers are those of `Battle.run`.

Outcomes: the model's OUTCOME_A / OUTCOME_B / OUTCOME_DRAW (1, 2, 0) become the contract's "winner" 0 / 1 / -1;
its surviving costs become "left_a" / "left_b". Unit-against-unit sides (`side_from_profile`) carry
"stand_ins": a vehicle or gun then gets a stand-in pilot or crew of its rank.
"""

from __future__ import annotations

import numpy as np

from rules.contract.simulator import Prepared, SimulatorPart
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.army import ARMY
from rules.systems.bronepekhota.simulate import MODEL_DESCRIPTION
from rules.systems.bronepekhota.simulate.model import (
    APPROACHES,
    COVER_CHOICES,
    IGNORED_SETTINGS,
    MAX_DISTANCE,
    MAX_ROUNDS,
    MODEL_VERSION,
    OUTCOME_A,
    OUTCOME_B,
    SIMULATED_SETTINGS,
    Battle,
    BattleParams,
    entries_from_profile,
    resolve_settings,
)

_DEFAULTS = BattleParams()
APPROACH_LABELS = {
    "advance": N_("Advance: every unit closes in and fights"),
    "hold": N_("Hold: units that can already hit something stay and shoot"),
}

PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "distance": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_DISTANCE,
            "default": _DEFAULTS.distance,
            "title": N_("Distance"),
            "description": N_("Steps between the deployment lines (book: 12–14)."),
        },
        "cover_a": {
            "enum": list(COVER_CHOICES),
            "default": _DEFAULTS.cover_a,
            "title": N_("Cover of side A"),
            "x-labels": {c: tables.COVER_LABELS[c] for c in COVER_CHOICES},
        },
        "cover_b": {
            "enum": list(COVER_CHOICES),
            "default": _DEFAULTS.cover_b,
            "title": N_("Cover of side B"),
            "x-labels": {c: tables.COVER_LABELS[c] for c in COVER_CHOICES},
        },
        "rounds": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_ROUNDS,
            "default": _DEFAULTS.rounds,
            "title": N_("Rounds"),
            "description": N_("Then it is a draw."),
        },
        "initiative": {
            "enum": ["rolled", "a", "b"],
            "default": _DEFAULTS.initiative,
            "title": N_("Initiative in round 1"),
            "x-labels": {"rolled": N_("Rolled (d12)"), "a": N_("Side A"), "b": N_("Side B")},
        },
        "approach": {
            "enum": list(APPROACHES),
            "default": _DEFAULTS.approach,
            "title": N_("Approach"),
            "x-labels": dict(APPROACH_LABELS),
        },
        "surprise": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "default": _DEFAULTS.surprise,
            "title": N_("Surprise attacks, %"),
            "description": N_(
                "Share of melee attacks made from outside the defender's field of view: two d6, the higher, and a "
                "vehicle defends without its CC (p.41)."
            ),
        },
        "obstacles": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "default": _DEFAULTS.obstacles,
            "title": N_("Obstacles, %"),
            "description": N_(
                "Share of infantry moves that cross an obstacle half a step to a step high: 2 SP more (Table 1)."
            ),
        },
    },
}


class BronepekhotaSimulator(SimulatorPart):
    model_version = MODEL_VERSION
    params_schema = PARAMS_SCHEMA
    job_kinds = ("rosters", "units")
    description = MODEL_DESCRIPTION
    simulated = (
        N_(
            "Virtual shooting (§3.7, §7.4 I–III): range roll, power dice against armour and cover, vehicle damage "
            "and the pilot's survival test"
        ),
        N_("Initiative by d12 and alternating activations; each element moves, shoots and fights in melee (§1.6)"),
        N_("Melee on contact (§3.9, Tables 6–7), pilots and gun crews, pilots lost or panicking (§3.4, §3.10)"),
        N_("Ammo, grenades, jump packs, aimed fire and panic when their settings are on"),
        N_("Distance and one level of cover per side (Table 5); victory when a side has no soldier left (§1.7)"),
        N_(
            "Repair (§3.11): the HELIX repair platform restores 2 a round instead of its shot; a vehicle whose pilot "
            "has «Rpr» restores 1 for its whole activation while no enemy is within its reach"
        ),
        N_(
            "Terrain and facing as shares you choose: surprise attacks (two d6, the higher, p.41) and infantry moves "
            "that cross an obstacle (2 SP more, Table 1)"
        ),
        N_(
            "Capture of vehicles (§3.12, p.42): a pilotless vehicle is taken by the first soldier of rank at least its "
            "own to reach it, who becomes its pilot; taken by the enemy it changes sides with its sliders unchanged, "
            "and it acts from the next round when that setting is on (A11)"
        ),
        N_(
            "Blast specials when special weapon properties are on (§7.4 IV, p.33–34; A6): a hit of the heavy rocket "
            "attacks every other element of either side within 2 steps of the target with 1Д20, each with its own "
            "pilot test; the target too and cover only when those settings are on. No map: the steps are counted "
            "along the line between the armies"
        ),
    )
    left_out = (
        N_("Real shooting (physical launchers): only virtual shooting is simulated"),
        N_(
            "Capture of guns (p.42): a crew stays with its gun; a gun that loses it stays silent. Measured on five "
            "match-ups of ten real rosters (a benchmark kept with the code), capturing vehicles moved verdicts by more "
            "than the job's confidence interval, which is why vehicle capture is simulated"
        ),
        N_("Grenade bystanders, towing, line of sight, jump heights: no map, so nobody knows who stands near whom"),
    )
    ignored_settings = dict(IGNORED_SETTINGS)
    fixed_settings = {"mode": "virtual"}
    #: Which settings change the model, and how (the job page may list them).
    simulated_settings = dict(SIMULATED_SETTINGS)

    def check_params(self, params: dict | None) -> dict:
        params = super().check_params(params)
        try:
            return BattleParams(**params).check().as_dict()
        except RuleInputError as exc:
            raise RuleInputError({f"params.{k}": v for k, v in exc.errors.items()}) from None

    def check_settings(self, settings: dict | None) -> dict:
        return resolve_settings(settings)

    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        bp = BattleParams(**params).check()
        stand_ins = bool(side_a.get("stand_ins") or side_b.get("stand_ins"))
        battle = Battle(side_a.get("entries") or [], side_b.get("entries") or [], bp, settings, stand_ins=stand_ins)
        warnings = list(battle.warnings)
        if not stand_ins:
            warnings += self._roster_issues(side_a, side_b)
        return Prepared(
            cost=(float(battle.cost[0]), float(battle.cost[1])),
            warnings=warnings,
            forces=battle.describe()["sides"],
            model=battle,
            rounds=bp.rounds,
        )

    @staticmethod
    def _roster_issues(side_a: dict, side_b: dict) -> list[str]:
        """The army part's errors worth a note; missing pilots are chosen by the simulator (and listed with the
        forces)."""
        notes = []
        for label, side in (("A", side_a), ("B", side_b)):
            report = ARMY.cost_roster(side)
            notes += [
                _("Side {side}: {warning}").format(side=label, warning=i.message)
                for i in report.issues
                if i.severity == "error" and i.code != "no_pilot"
            ]
        return notes

    def side_from_profile(self, profile: dict) -> dict:
        return {"faction": profile.get("faction", ""), "entries": entries_from_profile(profile), "stand_ins": True}

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        result = prepared.model.run(n, rng)
        outcome = result["outcome"]
        winner = np.where(outcome == OUTCOME_A, 0, np.where(outcome == OUTCOME_B, 1, -1)).astype(np.int8)
        return {
            "winner": winner,
            "rounds": result["rounds"],
            "left_a": result["surviving_a"],
            "left_b": result["surviving_b"],
        }

    def describe_forces(self, forces) -> list[dict]:
        """Units, guns and who pilots each vehicle. Reads Battle.describe()'s sides, or the whole of it (jobs
        stored before the simulator part: {"sides": [...], "warnings": [...]})."""
        if isinstance(forces, dict):
            forces = forces.get("sides") or []
        out = []
        for k, side in enumerate(forces if isinstance(forces, list) else []):
            units = ", ".join(u["name"] for u in side.get("units") or [])
            guns = side.get("guns") or []
            with_guns = _("{units}; guns: {guns}.").format(units=units, guns=", ".join(guns))
            lines = [with_guns if guns else units + "."]
            lines += [
                _("{vehicle} piloted by {pilot}.").format(vehicle=p["vehicle"], pilot=p["pilot"])
                if p.get("pilot")
                else _("{vehicle} has no pilot.").format(vehicle=p["vehicle"])
                for p in side.get("pilots") or []
            ]
            out.append({"side": "AB"[k] if k < 2 else str(k + 1), "cost": side.get("cost"), "lines": lines})
        return out


SIMULATOR = BronepekhotaSimulator()
