"""After the scenario: injury tests (§3.18, L236–258, A17) and armour repair (§3.19, L260–268, A14)."""

from __future__ import annotations

from rules.contract import distribution, exact, prob
from rules.i18n import _
from rules.systems.enforcers import aftermath, agents, rolling, tables, words
from rules.systems.enforcers.actions.common import SHEET_AFTER, EnfAction, Run, bool_prob, dist, err, joint, name_of
from rules.systems.enforcers.settings import full_settings
from rules.systems.enforcers.texts import NT, T, join


class Injuries(EnfAction):
    key = "injuries"
    label = "Injuries after the scenario"
    spec_ref = "§3.18 (L236–258), A17"
    description = (
        "Injuries: a model that had half its HP or less tests TN against a light injury (d6 days), one that was "
        "seriously wounded against a medium one (2d6 days), one that was dying against a critical one (3d6 days and "
        "−1 to a random one of HL, WS, BS, DX, TN). A natural 1 or 20 on any of these TN tests costs 1 WL (L258). By "
        "the book every tier reached is tested; A17's worst-only reading is a setting. The model is out for the "
        "longest downtime."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent"],
        "properties": {"agent": agents.AGENT},
    }

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent", needs=("TN",))
        if "dead" in agent["statuses"]:
            raise err(
                "agent.statuses",
                _("{name} died in the scenario: no injury tests.").format(name=name_of(agent, "agent")),
            )
        aftermath.went_through(agent, settings, strict=True)  # flags that contradict each other are refused
        return inputs

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        out = aftermath.injuries(agent, roller, settings)
        effects = aftermath.injury_effects(out, agent)
        name = name_of(agent, "agent")
        if not out["tests"]:
            summary = T("{name} never fell to half HP: no injury test.", name=name)
        elif out["injuries"]:
            summary = NT("{name}: {injuries}, out for {n} day.", "{name}: {injuries}, out for {n} days.", out["days"],
                         name=name, injuries=join(", ", [words.word(words.TIER, t) for t in out["injuries"]]))  # fmt: skip
        else:
            summary = T("{name} passes every injury test.", name=name)
        if out["stat_losses"]:
            losses = join(", ", [f"{s} −{n}" for s, n in sorted(out["stat_losses"].items())])
            summary += T(" Lost: {losses}.", losses=losses)
        result = {k: out[k] for k in ("tests", "injuries", "days", "stat_losses")}
        result["implied"] = aftermath.went_through(agent, settings)["implied"]
        return Run(summary, result, effects, out["steps"] or [T("No test.")])

    def odds(self, inputs, settings):
        settings = full_settings(settings)
        clean = self.validate(inputs, settings)
        outcomes = aftermath.injuries_exact(agents.sheet(clean["agent"], "agent"), settings)
        return self.summarise_outcomes(outcomes)

    def summarise(self, clean, settings, runs):
        return self.summarise_outcomes([(p, run.result) for p, run in runs])

    @staticmethod
    def summarise_outcomes(outcomes) -> dict:
        losses = {s for _, o in outcomes for s in o["stat_losses"]}
        tiers = {t["tier"] for _, o in outcomes for t in o["tests"]}
        return {
            "tests": sorted(tiers, key=[t for t, _ in aftermath.TIERS].index),
            "p_injured": prob(rolling.probability_of(outcomes, lambda o: bool(o["injuries"]))),
            "p_tier": {
                t: prob(rolling.probability_of(outcomes, lambda o, t=t: t in o["injuries"])) for t in sorted(tiers)
            },
            "days": distribution(rolling.distribution_of(outcomes, lambda o: o["days"])),
            "expected_days": exact(rolling.expectation_of(outcomes, lambda o: o["days"])),
            "p_stat_loss": {
                s: prob(rolling.probability_of(outcomes, lambda o, s=s: s in o["stat_losses"])) for s in sorted(losses)
            },  # fmt: skip
            # What goes on the sheet after the tests, together: the injuries, the days out, the WL lost (L258) and
            # the stat a critical injury takes (L256). Its marginals are the fields above.
            SHEET_AFTER: joint(outcomes, Injuries.sheet_after),
        }

    @staticmethod
    def sheet_after(outcome: dict) -> dict:
        losses = outcome["stat_losses"]
        other = [s for s in losses if s != "WL"]  # a critical injury's stat (one critical test at most)
        return {"injuries": injuries_code(outcome["injuries"]), "days": outcome["days"],
                "wl_lost": losses.get("WL", 0), "stat_lost": other[0] if other else "none"}  # fmt: skip


def injuries_code(tiers) -> str:
    """The injuries taken as one code, the tiers in the book's order: "light+critical"; "none"."""
    order = [t for t, _flag in aftermath.TIERS]
    return "+".join(sorted(tiers, key=order.index)) or "none"


class ArmourRepair(EnfAction):
    key = "armour_repair"
    label = "Armour repair after the scenario"
    spec_ref = "§3.19 (L260–268), A14"
    description = (
        "Armour left at 0 AP at the end of a scenario is broken. Any member of the team may test IT to repair one "
        "piece, with +1 per AP the armour had when bought (on the roll by the book, which makes heavy armour hard). "
        "A success makes it usable next scenario; a failure puts it out of use for 2d6 days."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["repairer", "armour"],
        "properties": {
            "repairer": agents.AGENT,
            "armour": {"enum": list(tables.ARMOUR)},
            "ap_at_end": {"type": "integer", "minimum": 0, "maximum": 40, "description": "AP at the scenario's end"},
        },
    }

    def check_inputs(self, inputs, settings):
        repairer = agents.sheet(inputs["repairer"], "repairer", needs=("IT",))
        if "dead" in repairer["statuses"]:
            raise err("repairer.statuses", _("The dead repair nothing."))
        if inputs.get("ap_at_end", 0) > 0:
            raise err("ap_at_end", _("This armour kept some AP: it is not broken (L262), nothing to repair."))
        return inputs

    def run(self, clean, settings, roller):
        repairer = agents.sheet(clean["repairer"], "repairer")
        out = aftermath.repair(repairer, clean["armour"], roller, settings)
        name = tables.ARMOUR[clean["armour"]]["name"]
        effects = [{"kind": "armour_repaired" if out["repaired"] else "armour_unusable", "role": "armour",
                    "armour": clean["armour"], "days": out["days"]}]  # fmt: skip
        if out["repaired"]:
            summary = T("{armour} repaired.", armour=name)
        else:
            summary = NT("{armour} not repaired: unusable for {n} day.", "{armour} not repaired: unusable for {n} days.",
                         out["days"], armour=name)  # fmt: skip
        return Run(summary, {k: out[k] for k in ("repaired", "days")}, effects, out["steps"])

    def summarise(self, clean, settings, runs):
        return {
            "p_repaired": bool_prob(runs, lambda r: r.result["repaired"]),
            "days": dist(runs, lambda r: r.result["days"]),
        }
