"""Side morale and after the battle: Stay or Run (spec §3.17, L1181–1227) and recovery from wounds (§3.21)."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import exact, prob
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.actions.common import REF, REP, GroupTestAction, TestSpec, ThwAction, dice_text, echo, err

STAY_OR_RUN = TestSpec(
    "stay_or_run", N_("«STAY OR RUN»"), leader_three=True, leader_die=True, hero_choice="never", hero_kind="table"
)


class StayOrRun(GroupTestAction):
    key = "stay_or_run"
    label = "Stay or Run test"
    spec_ref = "§3.17 (L1181–1227), §5 A24"
    description = (
        "Each time the side's casualties (dead or out of the fight) reach another sixth of its starting figures "
        "(rounded half up, at least 1) at the end of an activation, 2d6 are rolled once and read by every figure "
        "against its Rep; while the force's Leader is on his feet the Leader Die may add a pass. The result per "
        "figure follows the side's motivation and losses: 3/4, 1/2 or 1/3 lost, loot or prisoners taken. A figure "
        "that stops fighting may not advance nor fire except in reaction, and must try to leave the table."
    )
    spec = STAY_OR_RUN
    outcome_codes = ("stays", "stops_fighting")
    result_labels = {**GroupTestAction.result_labels, "loss": N_("Share of the side lost")}
    extra_properties = {
        "initial_count": {"type": "integer", "minimum": 1, "maximum": 200, "description": "Figures at the start"},
        "casualties": {"type": "integer", "minimum": 0, "maximum": 200, "description": "Dead and out of the fight"},
        "tested_at": {"type": "integer", "minimum": 0, "maximum": 200, "description": "Casualties at the last test"},
        "motivation": {"enum": list(core.MOTIVATIONS)},
        "profit_goal_met": {"type": "boolean", "description": "Loot worth half the force, prisoners or hostages"},
    }

    extra_required = ("initial_count", "casualties", "motivation")

    def check_more(self, inputs, settings):
        if inputs["casualties"] > inputs["initial_count"]:
            raise err("casualties", tr("More casualties than figures at the start of the battle."),
                      casualties=inputs["initial_count"])  # fmt: skip
        if inputs.get("tested_at", 0) > inputs["casualties"]:
            raise err("tested_at", tr("The last test cannot have been taken at more casualties than now."),
                      tested_at=inputs["casualties"])  # fmt: skip
        return {**inputs, "loss": Fraction(inputs["casualties"], inputs["initial_count"])}

    def outcome_of(self, level, m, settings, clean):
        stays = core.stays(level, clean["motivation"], clean["loss"], bool(clean.get("profit_goal_met")))
        return "stays" if stays else "stops_fighting"

    def effects_of(self, row, m, settings, clean):
        if row["outcome"] == "stops_fighting":
            return [{"kind": "stopped_fighting", "role": f"members.{row['index']}", "value": True, **echo(m)}]
        return []

    def _threshold(self, clean, settings) -> dict:
        n, c = clean["initial_count"], clean["casualties"]
        return {
            "threshold": core.stay_or_run_threshold(n, settings),
            "tests_due": core.stay_or_run_tests_due(n, c, clean.get("tested_at", 0), settings),
            "loss": exact(clean["loss"]),
        }

    def resolve_clean(self, clean, settings, dice):
        outcome = super().resolve_clean(clean, settings, dice)
        outcome.result.update(self._threshold(clean, settings))
        return outcome

    def odds_clean(self, clean, settings):
        return {**super().odds_clean(clean, settings), **self._threshold(clean, settings)}


class WoundRecovery(ThwAction):
    key = "wound_recovery"
    label = "Recovery from wounds (after the battle)"
    spec_ref = "§3.21 (L1263–1280)"
    description = (
        "After the battle, for every figure that ran away or was out of the fight (after a lost battle only those "
        "carried off): 2d6 against Rep, +1d6 with serious medical care (the best two count). Pass 2: back unhurt; "
        "pass 1: back with Rep −1; pass 0: dead or gone for good."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["figure"],
        "properties": {
            "figure": {
                "type": "object",
                "additionalProperties": False,
                "required": ["rep"],
                "properties": {"name": {"type": "string", "maxLength": 80}, "ref": REF, "rep": REP},
            },
            "medical_care": {"type": "boolean", "description": "Access to serious medical care: +1d6"},
        },
    }

    def resolve_clean(self, clean, settings, dice):
        f = clean["figure"]
        n = 3 if clean.get("medical_care") else 2
        rolled = dice.roll_many(n, 6, N_("Recovery from Wounds die"))
        level = core.pass_level(rolled, f["rep"])
        out = core.wound_recovery_outcome(level)
        effects = []
        if level == 1:
            effects.append({"kind": "rep", "role": "figure", "change": -1, **echo(f)})
        elif level == 0:
            effects.append({"kind": "lost", "role": "figure", **echo(f)})
        steps = [tr("{dice} against Rep {rep}: passed by {level}, {outcome}.").format(
            dice=dice_text(rolled), rep=f["rep"], level=level, outcome=words.outcome(out))]  # fmt: skip
        text = words.say(N_("{name}: {outcome}."), name=f.get("name") or words.say(N_("The figure")),
                         outcome=words.code(out))  # fmt: skip
        return self.outcome(words.render(text), {"level": level, "outcome": out, "text": text}, effects, steps)

    def odds_clean(self, clean, settings):
        f = clean["figure"]
        n = 3 if clean.get("medical_care") else 2
        dist: dict[str, Fraction] = {}
        for roll in rolls(6, n):
            out = core.wound_recovery_outcome(core.pass_level(roll, f["rep"]))
            dist[out] = dist.get(out, Fraction(0)) + Fraction(1, 6**n)
        return {"outcomes": {k: prob(v) for k, v in sorted(dist.items())}}
