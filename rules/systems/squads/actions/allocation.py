"""After the dice: the target's owner splits unsaved hits between suppression and casualties (L28, L31), and a
plain armour-save roll for hits that need no to-hit roll (a destroyed vehicle's crew and passengers, L89).
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import distribution, exact
from rules.i18n import _, ngettext
from rules.systems.squads import names
from rules.systems.squads.actions.common import COUNT, LEVEL, MAX_DICE, TARGET_GROUPS, SquadAction, deterministic, err
from rules.systems.squads.actions.hits import roll_saves, split_limits, unsaved_distribution

SPLIT_TARGET = {
    "type": "object",
    "additionalProperties": False,
    "required": ["level", "figures"],
    "properties": {
        "kind": {"enum": ["squad", "vehicle"]},
        "name": {"type": "string", "maxLength": 80},
        "level": LEVEL,
        "figures": {**COUNT, "minimum": 1, "description": "Figures standing"},
        "suppressed": {**COUNT, "description": "Already suppressed before this bout"},
        "allocatable": {**COUNT, "description": "Figures within 2\"/5 cm of the cover's edge (§5 B7)"},
    },
}


class SplitHits(SquadAction):
    key = "split_hits"
    label = "Split unsaved hits"
    spec_ref = "§3.6–§3.7 (L28, L31), §5 B1, B3, B4, B7"
    description = (
        "The target's owner takes the unsaved hits as suppressed figures, casualties, or both, but never more "
        "suppressed figures than the training table allows, and never more damage than the unit can take. A "
        "figure is not suppressed and a casualty in the same bout. No dice."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["unsaved", "suppress", "target"],
        "properties": {
            "unsaved": {"type": "integer", "minimum": 0, "maximum": MAX_DICE},
            "suppress": {"type": "integer", "minimum": 0, "maximum": MAX_DICE, "description": "How many suppress"},
            "target": SPLIT_TARGET,
        },
    }

    def check_inputs(self, inputs, settings):
        target = inputs["target"]
        if target.get("kind") == "vehicle":
            raise err("target.kind", _("A vehicle cannot be suppressed (L90): its hits roll on the damage table."))
        if target.get("suppressed", 0) > target["figures"]:
            raise err("target.suppressed", _("Only {figures} figures stand.").format(figures=target["figures"]))
        limits = split_limits(target, inputs["unsaved"], settings)
        k = inputs["suppress"]
        if k > limits["max_suppressed"]:
            level = names.level(target["level"])
            if k > inputs["unsaved"]:
                why = ngettext("only {n} hit went unsaved", "only {n} hits went unsaved", inputs["unsaved"]).format(
                    n=inputs["unsaved"]
                )
            elif target.get("suppressed", 0) + k > limits["cap"]:
                why = _("a unit of level «{level}» has at most {cap} suppressed figures (L31, §5 B1)").format(
                    level=level, cap=limits["cap"]
                )
            else:
                why = _("not enough unsuppressed figures can be reached")
            raise err(
                "suppress",
                _("At most {n} can be suppressed: {why}.").format(n=limits["max_suppressed"], why=why),
                {"suppress": limits["max_suppressed"]},
            )
        return {**inputs, "_limits": limits}

    def _split(self, clean):
        option = clean["_limits"]["options"][clean["suppress"]]
        return {**option, "unsaved": clean["unsaved"], "max_suppressed": clean["_limits"]["max_suppressed"]}

    def resolve_clean(self, clean, settings, dice):
        split = self._split(clean)
        effects = []
        if split["suppressed"]:
            effects.append({"kind": "suppressed", "role": "target", "figures": split["suppressed"]})
        if split["casualties"]:
            effects.append({"kind": "casualties", "role": "target", "figures": split["casualties"]})
        text = _("{suppressed} suppressed (turned to face backward), {casualties} casualties").format(
            suppressed=split["suppressed"], casualties=split["casualties"]
        )
        if split["lost"]:
            text += _("; {n} hit(s) beyond what the unit can take are lost").format(n=split["lost"])
        return self.outcome(text + ".", split, effects, [text + " (L28)."])

    def odds_clean(self, clean, settings):
        return {**deterministic(self._split(clean)), "options": clean["_limits"]["options"]}


class ArmourSaves(SquadAction):
    key = "armour_saves"
    label = "Armour saves against hits"
    spec_ref = "§3.6 (L28, L68), §3.9 (L89), §5 B3, B17, B19"
    description = (
        "Hits that need no to-hit roll, e.g. the one hit each crewman and passenger takes when their vehicle is "
        "destroyed: one save per hit by the armour of the figure it hits; unsaved hits are then split."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["hits", "target"],
        "properties": {
            "hits": {"type": "integer", "minimum": 0, "maximum": MAX_DICE},
            "cause": {"enum": ["bail_out", "overrun", "other"]},
            "target": {
                "type": "object",
                "additionalProperties": False,
                "required": ["groups"],
                "properties": {"name": {"type": "string", "maxLength": 80}, "groups": TARGET_GROUPS},
            },
        },
    }

    def resolve_clean(self, clean, settings, dice):
        steps: list[str] = []
        saved = roll_saves(dice, clean["hits"], clean["target"]["groups"], settings, steps)
        effects = []
        if saved["unsaved"]:
            chooser = "target" if settings["split_chooser"] == "target_owner" else "shooter"
            effects.append({"kind": "hits_to_split", "role": "target", "unsaved": saved["unsaved"], "chooser": chooser})
        summary = _("Hits {hits}, unsaved {unsaved}.").format(hits=clean["hits"], unsaved=saved["unsaved"])
        return self.outcome(summary, {"hits": clean["hits"], **saved}, effects, steps)

    def odds_clean(self, clean, settings):
        unsaved = unsaved_distribution({clean["hits"]: Fraction(1)}, clean["target"]["groups"], settings)
        return {"unsaved": distribution(unsaved), "expected_unsaved": exact(sum(k * p for k, p in unsaved.items()))}
