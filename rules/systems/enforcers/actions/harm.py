"""Damage by hand (§3.13, L216–226), falling (§3.15, L232–234, A12) and the Fear test (§3.16, L272–291, A22)."""

from __future__ import annotations

from rules.i18n import _
from rules.systems.enforcers import agents, tables, words
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
    note_reroll,
    reroll_wanted,
    sheet_parts,
    spec_for,
)
from rules.systems.enforcers.actions.hits import deal_hit
from rules.systems.enforcers.actions.shooting import _state
from rules.systems.enforcers.statuses import fear_test
from rules.systems.enforcers.texts import T
from rules.systems.enforcers.wounds import DEAD, gain_status, take_damage

FEAR_CONTEXT = {
    "ranged_drawn": {"type": "boolean", "description": "Has a drawn ranged weapon (Fear's Fight is a shot)"},
    "enemy_in_reach": {"type": "boolean", "description": "An enemy is within melee reach (A22)"},
}


class Damage(EnfAction):
    key = "damage"
    label = "Take damage"
    spec_ref = "§3.13 (L47, L216–226), A6, G21"
    description = (
        "Damage goes to AP first, then HP, which may go below 0 (Police Riot Gear takes 4 off Kinetic damage). At "
        "0 HP the model is seriously wounded; under minus half its HL it is dying; under minus its HL it is dead."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["target", "amount"],
        "properties": {
            "target": agents.AGENT,
            "amount": {"type": "integer", "minimum": 0, "maximum": 99},
            "kinetic": {"type": "boolean", "description": "From a Kinetic weapon (Police Riot Gear, L337)"},
            "bypass_armour": {"type": "boolean", "description": "Ignores AP (Bleeding and Poison do, L295–299)"},
            "cause": {"type": "string", "maxLength": 60},
            **FEAR_CONTEXT,
        },
    }

    def check_inputs(self, inputs, settings):
        target = agents.sheet(inputs["target"], "target", needs=("HL",))
        if DEAD in target["statuses"]:
            raise err("target.statuses", _("{name} is already dead.").format(name=name_of(target, "target")))
        if settings["fear_test_on_hp_loss"] == "always":
            agents.stat(target, "WL", "target")
        return inputs

    def run(self, clean, settings, roller):
        target = agents.sheet(clean["target"], "target")
        target["ranged_drawn"] = clean.get("ranged_drawn", True)
        target["enemy_in_reach"] = clean.get("enemy_in_reach", False)
        effects, steps = [], []
        if clean.get("bypass_armour"):
            split = take_damage(target, clean["amount"], settings, effects, role="target",
                                cause=clean.get("cause", "damage"), kinetic=clean.get("kinetic", False),
                                bypass_armour=True)  # fmt: skip
            outcome = {"damage": split}
        else:
            weapon = {"damage": clean["amount"], "traits": ["kinetic"] if clean.get("kinetic") else []}
            outcome = deal_hit(target, weapon, False, settings, roller, effects, steps, role="target",
                               cause=clean.get("cause", "damage"))  # fmt: skip
        split = outcome["damage"]
        summary = T("{name}: AP {ap} (−{ap_lost}), HP {hp} (−{hp_lost}); {state}.", name=name_of(target, "target"),
                    ap=split["ap"], ap_lost=split["ap_lost"], hp=split["hp"], hp_lost=split["hp_lost"],
                    state=words.status(_state(sorted(target["statuses"]))))  # fmt: skip
        result = {**split, "statuses": sorted(target["statuses"]), "state": _state(sorted(target["statuses"]))}
        return Run(summary, result, effects, steps or [summary])

    def summarise(self, clean, settings, runs):
        return {
            "hp": dist(runs, lambda r: r.result["hp"]),
            "ap": dist(runs, lambda r: r.result["ap"]),
            "state": dist(runs, lambda r: r.result["state"]),
            "p_afraid": bool_prob(runs, lambda r: "fear" in r.result["statuses"]),
            SHEET_AFTER: joint(
                runs, lambda r: sheet_parts("", r.result["hp"], r.result["ap"], r.result["statuses"], ("fear",))
            ),
        }


class Fall(EnfAction):
    key = "fall"
    label = "Falling"
    spec_ref = "§3.15 (L232–234), A12"
    description = (
        "A fall of up to DX/2 cm is safe. Higher, the model takes 1 damage per cm (the whole height as the book "
        "reads, or only the excess: A12) and tests TN or is stunned."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent", "height_cm"],
        "properties": {
            "agent": agents.AGENT,
            "height_cm": {"type": "integer", "minimum": 0, "maximum": 200},
            "use_reroll": USE_REROLL,
            **FEAR_CONTEXT,
        },  # fmt: skip
    }

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent", needs=("DX", "TN", "HL"))
        if DEAD in agent["statuses"]:
            raise err("agent.statuses", _("The dead do not fall any more."))
        reroll_wanted(agent, inputs, "agent")
        return inputs

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        safe = agents.derived(agent)["safe_fall"]
        height = clean["height_cm"]
        effects, steps = [], []
        damage = 0
        stunned = False
        if height > safe:
            damage = height if settings["fall_damage"] == "whole_height" else height - safe
            steps.append(T("Fell {height} cm, safe {safe} cm: {damage} damage (A12: {how}).", height=height, safe=safe,
                           damage=damage, how=words.word(words.FALL_DAMAGE, settings["fall_damage"])))  # fmt: skip
            take_damage(agent, damage, settings, effects, role="agent", cause="fall",
                        bypass_armour=not settings["fall_damage_armour"])  # fmt: skip
            if DEAD not in agent["statuses"]:
                if "stunned" in tables.immunities(agent.get("armour")):
                    steps.append(T("Immune to stun through its armour."))
                else:
                    record = roller.test(spec_for(agent, "TN", T("TN test after the fall"),
                                                  reroll=reroll_wanted(agent, clean, "agent")))  # fmt: skip
                    steps.append(record["line"])
                    note_reroll(record, agent, effects, "agent")
                    if not record["success"]:
                        stunned = gain_status(agent, "stunned", settings, effects, role="agent")
        else:
            steps.append(T("Fell {height} cm: within the safe {safe} cm (DX/2).", height=height, safe=safe))
        summary = T("{name} falls {height} cm: {damage} damage", name=name_of(agent, "agent"), height=height,
                    damage=damage)  # fmt: skip
        if stunned:
            summary += T(", stunned")
        result = {"damage": damage, "stunned": stunned, "hp": agent["hp"], "ap": agent["ap"], "safe_cm": safe,
                  "statuses": sorted(agent["statuses"])}  # fmt: skip
        return Run(summary + ".", result, effects, steps)

    def summarise(self, clean, settings, runs):
        return {
            "damage": runs[0][1].result["damage"],
            "safe_cm": runs[0][1].result["safe_cm"],
            "p_stunned": bool_prob(runs, lambda r: r.result["stunned"]),
            "hp": dist(runs, lambda r: r.result["hp"]),
            "ap": dist(runs, lambda r: r.result["ap"]),
            "state": dist(runs, lambda r: _state(r.result["statuses"])),
            # HP, AP and state after the fall, and whether it gains a stun (the TN test, L234), together.
            SHEET_AFTER: joint(
                runs,
                lambda r: {
                    **sheet_parts("", r.result["hp"], r.result["ap"], r.result["statuses"]),
                    "stunned": r.result["stunned"],
                },
            ),
        }


class FearTest(EnfAction):
    key = "fear_test"
    label = "Fear test"
    spec_ref = "§3.16 (L272–291), A22"
    description = (
        "When the GM calls it (HP lost, set on fire, hit by a psychic power, a friend dies): a WL test, or the LD of "
        "a friendly model in sight. A failure gives Fear and, at once, a random action: Fight (a shot at the "
        "nearest visible enemy), Flee (to the nearest cover) or Freeze (take cover)."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent"],
        "properties": {"agent": agents.AGENT, "use_reroll": USE_REROLL, **FEAR_CONTEXT},
    }

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent", needs=("WL",))
        if DEAD in agent["statuses"]:
            raise err("agent.statuses", _("The dead fear nothing."))
        reroll_wanted(agent, inputs, "agent")
        return inputs

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        agent["ranged_drawn"] = clean.get("ranged_drawn", True)
        agent["enemy_in_reach"] = clean.get("enemy_in_reach", False)
        effects, steps = [], []
        out = fear_test(agent, roller, settings, effects, steps, role="agent",
                        reroll=reroll_wanted(agent, clean, "agent"))  # fmt: skip
        if out["passed"]:
            summary = T("Holds firm.")
        else:
            summary = T("Afraid: {action}.", action=words.word(words.FEAR_ACTION, out["action"]))
        return Run(summary, out, effects, steps)

    def summarise(self, clean, settings, runs):
        return {
            "p_passed": bool_prob(runs, lambda r: r.result["passed"]),
            "action": dist(runs, lambda r: r.result["action"] or "none"),
        }
