"""Monte-Carlo duels of «Энфорсеры» (numpy), for balance jobs: what a build is worth in REQ against another.

THE DUEL MODEL
==============
Forces: each side's first hired agent (stats with its bump and injuries, armour AP and traits, its best ranged
and best melee weapon, fists when it has no melee weapon). Its price is the army part's formula price.
Space: one distance in cm between the two; no map, no terrain, no line of sight.
Round (§3.2): popcorn initiative between two models. A coin decides who starts the first round; afterwards
the model that went last picks itself to start the next (A18), or a coin (parameter). Each activation has two
actions.
Action policy: fight in melee when within reach and the blow hits at least as hard as the gun; else shoot when
within the gun's range; else move its DX speed (less encumbrance) toward the reach or range it wants.
Shooting (§3.10): BS test with the cover of both (parameter), the range band of the distance (short +1 blessing,
long +1 curse), and a curse when the target moved twice in its last activation. Damage to AP then HP, Police
Riot Gear takes 4 off Kinetic damage, crits per the settings (A3).
Melee (§3.12): WS test with the charge (moved into reach this activation, A10), reach difference (A5), parry
(A4), counter-attacks once a round each, a counter countered in turn (errata), all per the settings.
End: an agent at 0 HP or less (seriously wounded: it skips every action, L321) loses; after `rounds` rounds with
both standing the duel is a draw.
Value: the army part prices both; `value_report` gives each side's win rate, the REQ it keeps on average, and the
REQ a build is worth against the other: the price at which its win/loss odds would match the price ratio,
price_b x P(A wins) / P(B wins).
"""

from __future__ import annotations

import numpy as np

from rules.contract import SimulatorPart
from rules.contract.simulator import Prepared
from rules.systems.enforcers.settings import SETTINGS, full_settings
from rules.systems.enforcers.simulate.fighters import PARAMS_SCHEMA, compile_side
from rules.systems.enforcers.simulate.model import OUTCOME_A, OUTCOME_B, OUTCOME_DRAW, Duel
from rules.systems.enforcers.simulate.reference import ReferenceDuel

MODEL_DESCRIPTION = __doc__
MODEL_VERSION = 1


USED_SETTINGS = (
    "homerule_max_only", "homerule_cancel_first", "crit_auto_success", "crit_effect", "parry_penalty",
    "parry_on_counter", "reach_disadvantage", "counter_limit", "charge_reach", "counter_on_counter",
    "counter_reach", "encumbrance_counts",
)  # fmt: skip
FIXED = {s.key: s.default for s in SETTINGS if s.category == "interpretation"}
IGNORED = {
    s.key: "The duel model leaves this out (see what is left out)."
    for s in SETTINGS
    if s.key not in USED_SETTINGS and s.key not in FIXED
}


class EnforcersSimulator(SimulatorPart):
    model_version = MODEL_VERSION
    params_schema = PARAMS_SCHEMA
    job_kinds = ("rosters", "units")
    description = MODEL_DESCRIPTION
    ignored_settings = IGNORED
    fixed_settings = FIXED
    simulated = (
        "Agent against agent: each side's first hired agent, priced by the REQ formula.",
        "Popcorn initiative with two actions an activation; the last model of a round may start the next.",
        "The d20 test with blessings and curses, crits and the homerule, as the settings say.",
        "Shooting: cover, range band, a target that moved twice; damage to AP then HP; Police Riot Gear.",
        "Melee: charge, reach, parry, counter-attacks and counters to counters.",
        "Moving at DX speed less encumbrance; exosuits' DX and TN changes.",
        "Seriously wounded (0 HP) ends the duel.",
    )
    left_out = (
        "Weapon status traits (Bleeding, Poisoned, Burning, Stunned, Disoriented) and Fear.",
        "Aim, Overwatch, Suppressive fire, Take cover, Listen, thrown weapons and stray shots.",
        "Medical aid, prayers, perks, psi powers; ammo and reloading (magazines never run out).",
        "Terrain, height, facing (no attacks from outside the arc), jumps and falls.",
        "Dying and death after 0 HP, and the injuries after the scenario.",
    )

    def check_settings(self, settings: dict | None) -> dict:
        return full_settings(settings)

    def prepare(self, side_a: dict, side_b: dict, params: dict, settings: dict) -> Prepared:
        params = self.check_params(params)
        settings = self.check_settings(settings)
        a, warn_a = compile_side(side_a, params, settings, "side_a")
        b, warn_b = compile_side(side_b, params, settings, "side_b")
        return Prepared(
            cost=(float(a.price), float(b.price)),
            warnings=warn_a + warn_b,
            forces=[
                {"side": "A", "cost": a.price, "text": a.describe()},
                {"side": "B", "cost": b.price, "text": b.describe()},
            ],  # fmt: skip
            model=Duel(a, b, params, settings),
            rounds=params["rounds"],
        )

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        return prepared.model.run(n, rng)

    def run_reference(self, prepared: Prepared, n: int, seed: int) -> dict:
        duel: Duel = prepared.model
        out = ReferenceDuel(*duel.fighters, duel.params, duel.settings).run(n, seed)
        return {k: np.asarray(v) for k, v in out.items()}


def value_report(prepared: Prepared, arrays: dict) -> dict:
    """Win rates, the REQ each side keeps on average, and each build's REQ value against the other."""
    winner = np.asarray(arrays["winner"])
    p_a, p_b = float(np.mean(winner == OUTCOME_A)), float(np.mean(winner == OUTCOME_B))
    price_a, price_b = prepared.cost
    return {
        "p_a": p_a,
        "p_b": p_b,
        "p_draw": float(np.mean(winner == OUTCOME_DRAW)),
        "price_a": price_a,
        "price_b": price_b,
        "expected_req_left_a": float(np.mean(arrays["left_a"])),
        "expected_req_left_b": float(np.mean(arrays["left_b"])),
        "req_value_a": price_b * p_a / p_b if p_b else None,
        "req_value_b": price_a * p_b / p_a if p_a else None,
    }


SIMULATOR = EnforcersSimulator()

__all__ = ["MODEL_DESCRIPTION", "SIMULATOR", "Duel", "ReferenceDuel", "value_report"]
