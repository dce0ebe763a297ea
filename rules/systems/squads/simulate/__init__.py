"""Vectorised Monte-Carlo firefights of «Отряды» squads (numpy), for the balance jobs.

One rule, three forms: the engine's primitives (`roll_hits`, `roll_unsaved`, `roll_activation`, `split`) are the
only places a battle rolls; `simulate_bout` and `simulate_activation` run exactly those for one bout or one roll
so tests can hold them against `actions["shooting"].odds()` and `actions["activation"].odds()`.

THE MODEL (squad against squad firefights, no map: only a distance)
Forces
  Every squad entry (times its count) of each side; vehicles are left out with a warning. A squad is its figures
  (entry options, else the profile's build): weapon, armour, level; the leader is one more figure. Its owner
  loses figures cheapest first (fewest fire points), the leader last.
Space
  The sides start `distance` apart (the game's unit: inches, or cm with the units setting). Each squad has an
  advance; two squads are distance − advance_a − advance_b apart, never under 1. Each side stands in one cover
  (`cover_a`, `cover_b`) all game; crouching and going to ground are not chosen.
Turn (§3.1)
  Initiative: d6 each, ties re-rolled. The side holding the initiative activates its next squad (roster order);
  a failed roll passes the initiative; a side with no squad left to try waits. Every squad tries once a turn.
Activation (§3.2–§3.4)
  d6 against the squad's activation number (its leader's if better), −1 per suppressed figure; suppression then ends.
  Figures are always in coherency and see the enemy (no +1). A failure puts it On Guard, or, above 50 %
  casualties, withdraws it 6"/15 cm (never behind its start line).
Action (§3.3)
  The target is the nearest enemy squad. If any weapon reaches it: Aimed fire (+1 per die, every weapon).
  Otherwise (approach "advance") Walk 6"/15 cm and fire the small arms and grenades that then reach, or Run
  12"/30 cm when nothing would; with approach "hold" the squad waits On Guard.
On Guard (§5 B13)
  An enemy squad On Guard fires once a turn (every weapon, not aimed) at a squad that acts within its reach:
  before that squad's action is resolved (interrupt), or after it. It lasts until the squad's next attempt (or
  the end of the turn, by setting).
Shooting (§3.5–§3.6)
  Each firing figure rolls its fire points (assault rifles 2 within 12"/30 cm, an infantry HMG 4 per two-man
  crew, §5 B8) against its experience number + the target side's cover, capped at 6+ (flamethrowers and cannons ignore cover);
  suppressed figures do not fire. Hits go one per live figure, best armour first, each with its own save (or
  the majority armour, §5 B3). The target's owner suppresses as many as the table allows (split
  "suppress_first") or none ("casualties_only"); the rest are casualties, within what the unit can take.
Victory
  A side with no figure standing loses; after `turns` turns with both standing it is a draw.
Worth
  The book has no points: a squad is worth its profile's cost when one is set (a simulated pack), else its number
  of figures; what is left is that worth times the share of figures standing.
"""

from __future__ import annotations

import numpy as np

from rules.contract import RuleInputError, SimulatorPart
from rules.contract.simulator import Prepared
from rules.i18n import N_, _, ngettext
from rules.systems.squads import names, tables
from rules.systems.squads.settings import SETTINGS_BY_KEY, full_settings
from rules.systems.squads.simulate.engine import simulate, simulate_activation, simulate_bout
from rules.systems.squads.simulate.model import (
    MODEL_VERSION,
    OUTCOME_A,
    OUTCOME_B,
    OUTCOME_DRAW,
    SIMULATED_SETTINGS,
    Match,
    build_match,
)
from rules.systems.squads.simulate.reference import simulate_reference

MODEL_DESCRIPTION = __doc__

PARAMS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "distance": {"type": "integer", "minimum": 1, "maximum": 200, "default": 24, "title": N_("Start distance"),
                     "description": N_("Between the sides, in the game's unit (inches, or cm with the units setting)")},
        "cover_a": {"enum": list(tables.COVER), "default": "none", "title": N_("Cover of side A"),
                    "x-labels": dict(tables.COVER_NAMES)},
        "cover_b": {"enum": list(tables.COVER), "default": "none", "title": N_("Cover of side B"),
                    "x-labels": dict(tables.COVER_NAMES)},
        "turns": {"type": "integer", "minimum": 1, "maximum": 50, "default": 12, "title": N_("Turns"),
                  "description": N_("After these turns with both sides standing the battle is a draw")},
        "approach": {"enum": ["advance", "hold"], "default": "advance", "title": N_("Out of reach"),
                     "x-labels": {"advance": N_("walk or run closer"), "hold": N_("wait On Guard")}},
        "split": {"enum": ["suppress_first", "casualties_only"], "default": "suppress_first",
                  "title": N_("Unsaved hits"),
                  "x-labels": {"suppress_first": N_("suppress up to the cap, then casualties"),
                               "casualties_only": N_("casualties only")}},
    },
}  # fmt: skip

# Why each setting the model does not read leaves it unchanged (the job form leaves them out).
WHY_IGNORED = {
    "expertise_reading": N_("one reading only"),
    "split_chooser": N_("the owner's policy is the `split` parameter"),
    "mixed_cover": N_("each side stands in one cover"),
    "cover_edge_only": N_("no cover edges: no map"),
    "mortar_line_of_sight": N_("line of sight is not modelled"),
    "melee_attackers": N_("melee is not simulated"),
    "melee_dice": N_("melee is not simulated"),
    "melee_round_clears_suppression": N_("melee is not simulated"),
    "melee_lock": N_("melee is not simulated"),
    "vehicle_level": N_("vehicles are not simulated"),
    "vehicle_move_fire": N_("vehicles are not simulated"),
    "tank_classes": N_("vehicles are not simulated"),
    "facing_best": N_("vehicles are not simulated"),
    "facing_doubles": N_("vehicles are not simulated"),
    "damage_rows": N_("vehicles are not simulated"),
    "bail_out_hits": N_("vehicles are not simulated"),
    "stun_stacking": N_("vehicles are not simulated"),
    "armour_immune_weapons": N_("vehicles are not simulated"),
    "behind_vehicle_save": N_("vehicles are not simulated"),
    "coherency": N_("figures always keep coherency"),
    "pass_order": N_("two sides: the initiative passes to the other"),
    "withdraw_from": N_("every enemy is in sight: a broken squad withdraws away from it"),
    "text_artefacts": N_("one reading only"),
    "initiative_ties": N_("two sides: a tie is always re-rolled"),
    "pursuit_catch": N_("melee is not simulated"),
}


class SquadsSimulator(SimulatorPart):
    model_version = MODEL_VERSION
    params_schema = PARAMS_SCHEMA
    job_kinds = ("rosters", "units")
    simulated = (
        N_("Initiative each turn, activation chains that pass on a failed roll, suppression penalties and recovery"),
        N_("Aimed fire in reach, else Walk-and-fire or Run (or hold On Guard); On Guard reaction fire once a turn"),
        N_('Fire points per weapon and range (assault rifle at 12"/30 cm, HMG crews), cover capped at 6+'),
        N_("Armour saves per figure, the owner's split into suppression and casualties within the training cap"),
        N_('Failed activations: On Guard, or the 6"/15 cm withdrawal above 50 % casualties'),
    )
    left_out = (
        N_('Vehicles (their entries are left out with a warning), melee and assault (squads stop 1" apart)'),
        N_("Terrain and line of sight: one cover per side all game; no crouch or go to ground; coherency always kept"),
        N_("Mortars' indirect fire and spotters, split fire (a squad fires at its nearest enemy), grenade choice"),
    )
    description = MODEL_DESCRIPTION
    ignored_settings = {
        key: WHY_IGNORED.get(key, N_("not used by the model"))
        for key in SETTINGS_BY_KEY
        if key not in SIMULATED_SETTINGS
    }

    def check_settings(self, settings: dict | None) -> dict:
        out = full_settings(None)
        for key, value in (settings or {}).items():
            if key not in SETTINGS_BY_KEY:
                raise RuleInputError({f"settings.{key}": _("unknown setting")})
            out[key] = SETTINGS_BY_KEY[key].check(value)
        return out

    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        params = self.check_params(params)
        settings = self.check_settings(settings)
        match, warnings, forces = build_match(side_a, side_b, params, settings)
        for side, name in ((0, "side_a"), (1, "side_b")):
            if not any(q.side == side for q in match.squads):
                raise RuleInputError({name: _("This side has no squad to simulate (vehicles are not simulated).")})
        cost = tuple(sum(q.worth for q in match.squads if q.side == s) for s in (0, 1))
        for side, worth in zip(forces, cost, strict=True):
            side["cost"] = worth
        return Prepared(cost=cost, warnings=warnings, forces=forces, model=match, rounds=match.turns)

    def describe_forces(self, forces) -> list[dict]:
        """One line per squad: its figures and their weapons, in the book's words."""
        out = []
        for k, side in enumerate(forces if isinstance(forces, list) else []):
            lines = []
            for squad in side.get("squads", []) if isinstance(side, dict) else []:
                counts: dict[str, int] = {}
                for weapon in squad.get("weapons", []):
                    counts[weapon] = counts.get(weapon, 0) + 1
                kit = ", ".join(f"{names.weapon(w)} ×{n}" if w in tables.WEAPONS else f"{w} ×{n}"
                                for w, n in counts.items())  # fmt: skip
                figures = squad.get("figures") or 0
                line = ngettext("{name}: {n} figure ({kit})", "{name}: {n} figures ({kit})", figures)
                lines.append(line.format(name=squad.get("name"), n=figures, kit=kit))
            out.append({"side": "AB"[k] if k < 2 else str(k + 1), "cost": side.get("cost") if isinstance(side, dict) else None,
                        "lines": lines})  # fmt: skip
        return out

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        return simulate(prepared.model, n, rng)


SIMULATOR = SquadsSimulator()

__all__ = [
    "MODEL_DESCRIPTION",
    "MODEL_VERSION",
    "OUTCOME_A",
    "OUTCOME_B",
    "OUTCOME_DRAW",
    "SIMULATOR",
    "Match",
    "build_match",
    "simulate",
    "simulate_activation",
    "simulate_bout",
    "simulate_reference",
]
