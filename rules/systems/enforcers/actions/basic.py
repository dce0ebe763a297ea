"""The core d20 test (§3.1), the start of an activation under popcorn initiative (§3.2, §3.16–3.17) and the
status upkeep at the end of an activation or round (§3.17)."""

from __future__ import annotations

from dataclasses import replace

from rules.contract import prob
from rules.i18n import _
from rules.systems.enforcers import agents, core, statuses, tables, words
from rules.systems.enforcers.actions.common import (
    SHEET_AFTER,
    USE_REROLL,
    EnfAction,
    Run,
    bool_prob,
    dist,
    err,
    joint,
    name_of,
    sheet_parts,
)
from rules.systems.enforcers.core import RollSpec
from rules.systems.enforcers.texts import NT, T
from rules.systems.enforcers.wounds import current_wound


class D20Test(EnfAction):
    key = "test"
    label = "d20 test"
    spec_ref = "§3.1 (L5–17, L43), A1–A3"
    description = (
        "Roll a d20 at or under the difficulty. Each blessing subtracts a d6 and each curse adds one; they cancel "
        "one for one before the roll. A modifier is added to the roll. A die face at or under the crit chance is a "
        "critical success."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["difficulty"],
        "properties": {
            "difficulty": {"type": "integer", "minimum": 1, "maximum": 40, "description": "Usually the stat, 1..20"},
            "stat": {"enum": list(tables.STATS), "description": "Which stat is tested (for the record)"},
            "blessings": {"type": "integer", "minimum": 0, "maximum": 10},
            "curses": {"type": "integer", "minimum": 0, "maximum": 10},
            "modifier": {"type": "integer", "minimum": -20, "maximum": 20},
            "crit_chance": {"type": "integer", "minimum": 0, "maximum": 20},
            "use_reroll": USE_REROLL,
        },
    }

    def spec(self, clean: dict) -> RollSpec:
        label = T("{stat} test", stat=clean["stat"]) if "stat" in clean else T("Test")
        return RollSpec(
            label=label,
            difficulty=clean["difficulty"],
            blessings=clean.get("blessings", 0),
            curses=clean.get("curses", 0),
            modifier=clean.get("modifier", 0),
            crit_chance=clean.get("crit_chance", tables.DEFAULT_CRIT_CHANCE),
            reroll=clean.get("use_reroll", False),
            name=f"{clean['stat']} test" if "stat" in clean else "Test",
        )

    def run(self, clean, settings, roller):
        spec = self.spec(clean)
        record = roller.test(spec)
        n_bless, n_curse = core.dice_plan(spec.blessings, spec.curses, settings)
        verdict = core.verdict_text(record["success"], record["crit"])
        result = {
            "success": record["success"],
            "crit": record["crit"],
            "rerolled": record.get("rerolled", False),
            "dice_rolled": {"blessing": n_bless, "curse": n_curse},
            "test": record,
        }
        return Run(T("{label}: {verdict}.", label=spec.label, verdict=verdict), result, [], [record["line"]])

    def summarise(self, clean, settings, runs):
        spec = self.spec(clean)
        n_bless, n_curse = core.dice_plan(spec.blessings, spec.curses, settings)
        no_reroll = replace(spec, reroll=False)
        joint = core.joint_outcomes(no_reroll, settings)
        results: dict[int, object] = {}
        for (_face, result, _rerolled), p in joint.items():
            results[result] = results.get(result, 0) + p
        return {
            "p_success": bool_prob(runs, lambda r: r.result["success"]),
            "p_crit": bool_prob(runs, lambda r: r.result["crit"]),
            "p_rerolled": bool_prob(runs, lambda r: r.result["rerolled"]),
            "dice_rolled": {"blessing": n_bless, "curse": n_curse},
            "result": [{"value": v, **prob(p)} for v, p in sorted(results.items())],
        }


class Activation(EnfAction):
    key = "activation"
    label = "Start of an activation"
    spec_ref = "§3.2 (L61–73), §3.16 (L285–291), §3.17 (L307, L321, L325)"
    description = (
        "Popcorn initiative: the model picked next starts its activation with 2 actions (more through perks). A model "
        "under Fear re-tests WL: on a failure it has 1 action, a random one of Fight, Flee and Freeze. Each stun "
        "stack takes one action; Seriously wounded and Dying models skip every action."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent"],
        "properties": {
            "agent": agents.AGENT,
            "extra_actions": {"type": "integer", "minimum": 0, "maximum": 4, "description": "From perks (L69)"},
            "ranged_drawn": {"type": "boolean", "description": "Has a drawn ranged weapon (for Fear's Fight)"},
            "enemy_in_reach": {"type": "boolean", "description": "An enemy is within melee reach (A22)"},
        },
    }

    def check_inputs(self, inputs, settings):
        agent = inputs["agent"]
        if agents.has(agent, "fear"):
            agents.stat(agent, "WL", "agent")
        return inputs

    def run(self, clean, settings, roller):
        sheet = agents.sheet(clean["agent"], "agent")
        sheet["ranged_drawn"] = clean.get("ranged_drawn", True)
        sheet["enemy_in_reach"] = clean.get("enemy_in_reach", False)
        out = statuses.start_of_activation(sheet, roller, settings, extra_actions=clean.get("extra_actions", 0))
        name = name_of(sheet, "model")
        summary = NT("{name} has {n} action", "{name} has {n} actions", out["actions"], name=name)
        if out["fear_action"]:
            summary += T("; Fear makes it {action}", action=words.word(words.FEAR_ACTION, out["fear_action"]))
        result = {"actions": out["actions"], "fear_action": out["fear_action"], "afraid": out.get("afraid", False)}
        return Run(summary + ".", result, out["effects"], out["steps"])

    def summarise(self, clean, settings, runs):
        return {
            "actions": dist(runs, lambda r: r.result["actions"]),
            "p_still_afraid": bool_prob(runs, lambda r: r.result["afraid"]),
            "fear_action": dist(runs, lambda r: r.result["fear_action"] or "none"),
        }


class StatusTick(EnfAction):
    key = "status_tick"
    label = "Status upkeep"
    spec_ref = "§3.17 (L293–325), A7, A16"
    description = (
        "At the end of the model's own activation: a Poisoned model tests TN (a pass ends it) or loses 1 HP past "
        "armour; Bleeding loses 2 HP past armour; Burning takes 2 damage, tests WL against Fear and burns one turn "
        "less; Disoriented, Pinned and Dying count their turns (dead after 3 turns Dying). With durations in rounds "
        "the counting happens at the end of the round instead."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent"],
        "properties": {
            "agent": agents.AGENT,
            "moment": {"enum": ["end_of_activation", "end_of_round"]},
            "ranged_drawn": {"type": "boolean"},
            "enemy_in_reach": {"type": "boolean"},
        },
    }

    def check_inputs(self, inputs, settings):
        agent = inputs["agent"]
        for stat in ("HL",):
            agents.stat(agent, stat, "agent")
        present = agent.get("statuses") or {}
        if "poisoned" in present:
            agents.stat(agent, "TN", "agent")
        if "burning" in present:
            agents.stat(agent, "WL", "agent")
        if not present and not (agent.get("overwatch") or agent.get("took_cover")):
            raise err("agent.statuses", _("The agent has no status or stance to tick."))
        return inputs

    def run(self, clean, settings, roller):
        sheet = agents.sheet(clean["agent"], "agent")
        sheet["ranged_drawn"] = clean.get("ranged_drawn", True)
        sheet["enemy_in_reach"] = clean.get("enemy_in_reach", False)
        if clean.get("moment", "end_of_activation") == "end_of_activation":
            out = statuses.end_of_activation(sheet, roller, settings)
        else:
            out = statuses.end_of_round(sheet, settings)
        left = sorted(sheet["statuses"])
        result = {"hp": sheet["hp"], "ap": sheet["ap"], "statuses": left, "dead": "dead" in sheet["statuses"]}
        summary = T("{name}: HP {hp}, AP {ap}", name=name_of(sheet, "model"), hp=sheet["hp"], ap=sheet["ap"])
        summary += T("; {statuses}.", statuses=words.statuses(left)) if left else T("; no status left.")
        return Run(summary, result, out["effects"], out["steps"] or [T("Nothing ticks now.")])

    def summarise(self, clean, settings, runs):
        return {
            "hp": dist(runs, lambda r: r.result["hp"]),
            "p_dead": bool_prob(runs, lambda r: r.result["dead"]),
            "p_poison_ends": bool_prob(runs, lambda r: "poisoned" not in r.result["statuses"]),
            "p_afraid": bool_prob(runs, lambda r: "fear" in r.result["statuses"]),
            "ap": dist(runs, lambda r: r.result["ap"]),
            "state": dist(runs, lambda r: current_wound({"statuses": dict.fromkeys(r.result["statuses"])})),
            SHEET_AFTER: joint(
                runs,
                lambda r: sheet_parts("", r.result["hp"], r.result["ap"], r.result["statuses"], ("poisoned", "fear")),
            ),
        }
