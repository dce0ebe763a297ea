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
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers.settings import SETTINGS, full_settings
from rules.systems.enforcers.simulate.fighters import PARAMS_SCHEMA, compile_side, describe_fighter
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
    s.key: N_("The duel model leaves this out (see what is left out).")
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
    # msgids: the job page shows each line through _() (rules/jobs/views.py).
    simulated = (
        N_("Agent against agent: each side's first hired agent, priced by the REQ formula."),
        N_("Popcorn initiative with two actions an activation; the last model of a round may start the next."),
        N_("The d20 test with blessings and curses, crits and the homerule, as the settings say."),
        N_("Shooting: cover, range band, a target that moved twice; damage to AP then HP; Police Riot Gear."),
        N_("Melee: charge, reach, parry, counter-attacks and counters to counters."),
        N_("Moving at DX speed less encumbrance; exosuits' DX and TN changes."),
        N_("Seriously wounded (0 HP) ends the duel."),
    )
    left_out = (
        N_("Weapon status traits (Bleeding, Poisoned, Burning, Stunned, Disoriented) and Fear."),
        N_("Aim, Overwatch, Suppressive fire, Take cover, Listen, thrown weapons and stray shots."),
        N_("Medical aid, prayers, perks, psi powers; ammo and reloading (magazines never run out)."),
        N_("Terrain, height, facing (no attacks from outside the arc), jumps and falls."),
        N_("Dying and death after 0 HP, and the injuries after the scenario."),
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
                {"side": "A", "cost": a.price, "fighter": a.data()},
                {"side": "B", "cost": b.price, "fighter": b.data()},
            ],  # worded when shown (describe_forces)  # fmt: skip
            model=Duel(a, b, params, settings),
            rounds=params["rounds"],
        )

    def describe_forces(self, forces) -> list[dict]:
        """Each side's duellist in one line, in the reader's language: the job stored the fighter as data (an older
        job stored its line, shown as it was)."""
        sides = forces if isinstance(forces, list) else []
        if not sides or not all(isinstance(s, dict) and isinstance(s.get("fighter"), dict) for s in sides):
            return super().describe_forces(forces)
        return [{"side": s.get("side") or "AB"[k % 2], "cost": s.get("cost"), "lines": [describe_fighter(s["fighter"])]}
                for k, s in enumerate(sides)]  # fmt: skip

    def run(self, prepared: Prepared, n: int, rng: np.random.Generator) -> dict:
        return prepared.model.run(n, rng)

    def report(self, job: dict) -> list[dict]:
        """The job page's table: each build's price by the formula against the REQ it is worth in these duels."""
        result = job.get("result") or {}
        if job.get("kind") == "rosters" and "win_a" in result:
            return [_roster_report(job.get("inputs") or {}, result)]
        if job.get("kind") == "units" and result.get("units"):
            return [self._units_report(job)]
        return []

    def _units_report(self, job: dict) -> dict:
        """Unit against unit: the Bradley–Terry strengths shared out as REQ, so that the values add up to the
        formula prices: a build worth more than its price is cheap for what it does in a duel."""
        params, settings = self.check_params(job.get("params")), self.check_settings(job.get("settings"))
        prices = {}
        for profile in (job.get("inputs") or {}).get("profiles") or []:
            try:
                prices[profile.get("slug")] = compile_side(self.side_from_profile(profile), params, settings, "u")[
                    0
                ].price
            except (RuleInputError, KeyError, TypeError):
                prices[profile.get("slug")] = None
        units = [u for u in job["result"]["units"] if prices.get(u.get("slug")) is not None]
        strength = sum(u.get("strength") or 0 for u in units)
        pot = sum(prices[u["slug"]] for u in units)
        rows = []
        for u in job["result"]["units"]:
            price = prices.get(u.get("slug"))
            value = round(pot * u["strength"] / strength, 1) if price is not None and strength else None
            rows.append([u.get("name"), price, round(u.get("mean_score") or 0, 3), value,
                         None if value is None else round(value - price, 1)])  # fmt: skip
        return {"title": _("REQ value of each build"), "rows": rows,
                "columns": [_("Build"), _("Price by the formula, REQ"), _("Mean score"), _("Worth in duels, REQ"),
                            _("Worth − price")],
                "note": _("The builds' duel strengths (Bradley–Terry) shared out so that the worths add up to the "
                          "formula prices: a build worth more than its price is cheap for what it does.")}  # fmt: skip

    def run_reference(self, prepared: Prepared, n: int, seed: int) -> dict:
        duel: Duel = prepared.model
        out = ReferenceDuel(*duel.fighters, duel.params, duel.settings).run(n, seed)
        return {k: np.asarray(v) for k, v in out.items()}


def req_value(price_other: float, p_win: float, p_lose: float) -> float | None:
    """The price at which a build's odds against the other (P(win) / P(lose)) would match the price ratio."""
    return price_other * p_win / p_lose if p_lose else None


def _roster_report(inputs: dict, result: dict) -> dict:
    """Agent against agent: each side's formula price, how often it wins, the REQ it keeps and what it is worth."""
    p = {"a": result["win_a"]["p"], "b": result["win_b"]["p"]}
    price = {"a": result.get("cost_a") or 0, "b": result.get("cost_b") or 0}
    rows = []
    for side, other in (("a", "b"), ("b", "a")):
        value = req_value(price[other], p[side], p[other])
        kept = ((result.get("surviving") or {}).get(side) or {}).get("mean")
        name = (inputs.get(f"side_{side}") or {}).get("name") or side.upper()
        rows.append([f"{side.upper()} · {name}", round(price[side], 1), round(p[side], 3),
                     None if kept is None else round(kept, 1), None if value is None else round(value, 1),
                     None if value is None else round(value - price[side], 1)])  # fmt: skip
    return {"title": _("REQ value of each build"), "rows": rows,
            "columns": [_("Side"), _("Price by the formula, REQ"), _("Wins"), _("REQ kept on average"),
                        _("Worth in duels, REQ"), _("Worth − price")],
            "note": _("Worth: the price at which the side's odds of winning would match the ratio of the prices, "
                      "the other side's price × P(win) / P(loss).")}  # fmt: skip


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
        "req_value_a": req_value(price_b, p_a, p_b),
        "req_value_b": req_value(price_a, p_b, p_a),
    }


SIMULATOR = EnforcersSimulator()

__all__ = ["MODEL_DESCRIPTION", "SIMULATOR", "Duel", "ReferenceDuel", "value_report"]
