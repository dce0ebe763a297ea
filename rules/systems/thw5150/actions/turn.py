"""The turn (spec §1.4, §3.1): activation dice with doubles and the Rep gate; a runaway's move (§3.12, §5 A20);
and the victory check (§1.9, §5 A32)."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.dice import rolls
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.actions.common import REF, REP, ThwAction, dice_text, err
from rules.systems.thw5150.actions.reactions import FAST_MOVE

GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["reps"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "ref": REF,
        "leader_rep": {**REP, "description": "Rep of its Leader or acting Group Leader (default: the highest)"},
        "reps": {"type": "array", "minItems": 1, "maxItems": 30, "items": REP},
    },
}
SIDE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["groups"],
    "properties": {
        "name": {"type": "string", "maxLength": 80},
        "groups": {"type": "array", "minItems": 1, "maxItems": 20, "items": GROUP},
    },
}


def activation_rep(group: dict, settings: dict) -> int:
    """The Rep a group activates on and is ordered by (§5 A7)."""
    highest = max(group["reps"])
    if settings.get("activation_rep") == "highest":
        return max(highest, group.get("leader_rep", 0))
    return group.get("leader_rep", highest)


def may_act(rep: int, leader_rep: int, die: int) -> bool:
    """L426–428: own Rep at least the die, or in a group whose Leader's Rep is at least the die."""
    return rep >= die or leader_rep >= die


DOUBLES = "doubles"  # the code of a doubles turn among the sides' names (Activation odds "first")


def doubles(dice_values) -> bool:
    return len(set(dice_values)) < len(dice_values)


class Activation(ThwAction):
    key = "activation"
    label = "Activation dice"
    spec_ref = "§1.4, §3.1 (L413–440), §5 A7"
    description = (
        "One d6 per side. Any doubles: nobody moves or fires this turn; everyone may reload, swap or pick up "
        "weapons. Otherwise the highest die acts first; its value is the lowest Rep that may act: a figure whose "
        "Rep is at least the die, or any figure of a group whose Leader's Rep is. Groups act from the highest Rep "
        "down; then the next side with its own die."
    )
    result_labels = {"p_doubles": N_("doubles: nobody moves or fires"), "first": N_("Who acts first")}
    value_labels = {"first": {"doubles": N_("doubles: nobody moves or fires")}}
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["sides"],
        "properties": {"sides": {"type": "array", "minItems": 2, "maxItems": 4, "items": SIDE}},
    }

    def check(self, inputs, settings):
        sides = []
        for s in inputs["sides"]:
            groups = [{**g, "activation_rep": activation_rep(g, settings)} for g in s["groups"]]
            sides.append({**s, "groups": groups})
        return {"sides": sides}

    @staticmethod
    def _side_name(i: int, s: dict) -> str:
        return s.get("name") or tr("side {n}").format(n=i + 1)

    def _plan(self, side: dict, die: int) -> list[dict]:
        order = sorted(range(len(side["groups"])), key=lambda g: -side["groups"][g]["activation_rep"])
        plan = []
        for g in order:
            group = side["groups"][g]
            lead = group["activation_rep"]
            acting = [i for i, r in enumerate(group["reps"]) if may_act(r, lead, die)]
            whole = len(acting) == len(group["reps"])
            plan.append({"group": group.get("name") or tr("group {n}").format(n=g + 1), "index": g, "activation_rep": lead,
                         "acts": "all" if whole else ("some" if acting else "none"), "figures": acting})  # fmt: skip
        return plan

    def resolve_clean(self, clean, settings, dice):
        sides = clean["sides"]
        rolled = [dice.roll(6, f"{N_('activation die')}: {self._side_name(i, s)}") for i, s in enumerate(sides)]
        steps = [tr("Activation dice: {dice}.").format(dice=dice_text(rolled))]
        if doubles(rolled):
            steps.append(tr("Doubles: nobody moves or fires; every side may reload, swap or pick up weapons."))
            text = words.say(N_("Doubles: only reloading and weapon swaps this turn."))
            result = {"dice": rolled, "doubles": True, "order": [], "sides": [], "text": text}
            effects = [{"kind": "turn", "doubles": True}]
            return self.outcome(words.render(text), result, effects, steps)
        order = sorted(range(len(sides)), key=lambda i: -rolled[i])
        plans = []
        for i in order:
            plan = self._plan(sides[i], rolled[i])
            plans.append({"side": self._side_name(i, sides[i]), "index": i, "die": rolled[i], "groups": plan})
            acting = [p["group"] for p in plan if p["acts"] != "none"]
            steps.append(
                tr("{side} (die {die}): {groups} may act.").format(
                    side=self._side_name(i, sides[i]), die=rolled[i], groups=", ".join(acting) or tr("nobody")
                )
            )
        first = self._side_name(order[0], sides[order[0]])
        text = words.say(N_("{side} acts first (die {die})."), side=first, die=rolled[order[0]])
        result = {"dice": rolled, "doubles": False, "order": order, "sides": plans, "text": text}
        effects = [{"kind": "turn", "doubles": False, "order": order, "dice": rolled}]
        return self.outcome(words.render(text), result, effects, steps)

    def odds_clean(self, clean, settings):
        sides = clean["sides"]
        n = len(sides)
        p_doubles = Fraction(0)
        first = [Fraction(0)] * n
        whole = [[Fraction(0)] * len(s["groups"]) for s in sides]
        some = [[Fraction(0)] * len(s["groups"]) for s in sides]
        each = Fraction(1, 6**n)
        for roll in rolls(6, n):
            if doubles(roll):
                p_doubles += each
                continue
            first[max(range(n), key=lambda i: roll[i])] += each
            for i, s in enumerate(sides):
                for p in self._plan(s, roll[i]):
                    whole[i][p["index"]] += each if p["acts"] == "all" else 0
                    some[i][p["index"]] += each if p["acts"] != "none" else 0
        names = [self._side_name(i, s) for i, s in enumerate(sides)]
        names = [
            f"{name} #{i + 1}" if names.count(name) > 1 or name == DOUBLES else name for i, name in enumerate(names)
        ]
        return {
            "p_doubles": prob(p_doubles),
            # who acts first, doubles beside the sides: the whole turn's start as one distribution
            "first": {**{name: prob(first[i]) for i, name in enumerate(names)}, DOUBLES: prob(p_doubles)},
            "sides": [
                {
                    "side": self._side_name(i, s),
                    "p_first": prob(first[i]),
                    "groups": [
                        {"group": grp.get("name") or tr("group {n}").format(n=g + 1), "activation_rep": grp["activation_rep"],
                         "p_whole_group_acts": prob(whole[i][g]), "p_someone_acts": prob(some[i][g])}
                        for g, grp in enumerate(s["groups"])
                    ],
                }
                for i, s in enumerate(sides)
            ],
        }  # fmt: skip


class RunawayMove(ThwAction):
    key = "runaway_move"
    label = "Runaway move"
    spec_ref = "§3.12 (L1002–1009), §5 A20"
    description = (
        'A runaway heads for a building far from the enemy in view, else for the nearest table edge, "at top speed". '
        "By default that is its normal move (8″, 6″ at Rep 2 or less); under the A20 alternative it takes the Fast "
        "Move test (16/12/8″). No dice under the default."
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
            }
        },
    }

    def resolve_clean(self, clean, settings, dice):
        rep = clean["figure"]["rep"]
        if settings.get("runaway_speed") == "fast_move":
            rolled = dice.roll_many(2, 6, N_("Fast Move die"))
            inches = core.FAST_MOVE_INCHES[core.pass_level(rolled, rep)]
            steps = [tr("{table}: {dice} against Rep {rep}: up to {inches}″.").format(
                table=tr(FAST_MOVE.word), dice=dice_text(rolled), rep=rep, inches=inches)]  # fmt: skip
        else:
            inches = core.move_inches(rep)
            steps = [tr("Normal move at Rep {rep}: {inches}″.").format(rep=rep, inches=inches)]
        text = words.say(N_("Runs up to {inches}″."), inches=inches)
        return self.outcome(words.render(text), {"inches": inches, "text": text}, [], steps)

    def odds_clean(self, clean, settings):
        rep = clean["figure"]["rep"]
        if settings.get("runaway_speed") != "fast_move":
            return {"inches": [{"value": core.move_inches(rep), **prob(1)}]}
        dist: dict[int, Fraction] = {}
        for roll in rolls(6, 2):
            inches = core.FAST_MOVE_INCHES[core.pass_level(roll, rep)]
            dist[inches] = dist.get(inches, Fraction(0)) + Fraction(1, 36)
        return {"inches": [{"value": k, **prob(v)} for k, v in sorted(dist.items())]}


class Victory(ThwAction):
    key = "victory"
    label = "Victory check"
    spec_ref = "§1.9 (L1329–1335), §5 A32"
    description = (
        "With points (a set number of turns): at the end of the turn each side totals the points of its figures "
        "still in play, not counting the killed, the out of the fight and the runaways; the higher total wins. "
        "Unlimited turns: a side wins when none of the other side's figures is left on the table. No dice."
    )
    result_labels = {"p_doubles": N_("doubles: nobody moves or fires"), "first": N_("Who acts first")}
    value_labels = {"first": {"doubles": N_("doubles: nobody moves or fires")}}
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["sides"],
        "properties": {
            "turn": {"type": "integer", "minimum": 0, "maximum": 999, "description": "Turns completed"},
            "sides": {
                "type": "array",
                "minItems": 2,
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["figures"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 80},
                        "figures": {
                            "type": "array",
                            "maxItems": 100,
                            "items": {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["cost"],
                                "properties": {
                                    "cost": {"type": "integer", "minimum": 0, "maximum": 10000},
                                    "condition": {"enum": list(core.CONDITIONS)},
                                },
                            },
                        },
                    },
                },
            },
        },
    }

    def check(self, inputs, settings):
        if settings.get("victory") == "points" and settings.get("turn_limit", 0) and "turn" not in inputs:
            raise err("turn", tr("With a turn limit, say how many turns have been played."))
        return inputs

    @staticmethod
    def counts(condition: str, settings: dict) -> bool:
        if settings.get("victory_points_count") == "fine_only":
            return condition == core.FINE
        return condition not in core.GONE

    def decide(self, clean, settings) -> dict:
        sides = clean["sides"]
        names = [s.get("name") or tr("side {n}").format(n=i + 1) for i, s in enumerate(sides)]
        points = [sum(f["cost"] for f in s["figures"] if self.counts(f.get("condition", core.FINE), settings))
                  for s in sides]  # fmt: skip
        on_table = [sum(1 for f in s["figures"] if f.get("condition", core.FINE) not in core.GONE) for s in sides]
        limit = settings.get("turn_limit", 0)
        standing = [i for i, n in enumerate(on_table) if n > 0]
        winner, over = None, True
        if len(standing) == 1:
            winner, why = standing[0], N_("no enemy figure is left on the table")
        elif not standing:
            why = N_("nobody is left on the table: a draw")
        elif (limit and clean.get("turn", 0) >= limit) or (settings.get("victory") == "points" and not limit):
            # the turn limit is reached (or, with points and no limit, the players stop now): points decide
            best = max(points)
            leaders = [i for i, p in enumerate(points) if p == best]
            winner = leaders[0] if len(leaders) == 1 else None
            why = N_("more points still in play") if winner is not None else N_("equal points: a draw")
        else:
            over, why = False, N_("the battle goes on")
        return {"points": dict(zip(names, points, strict=True)), "on_table": dict(zip(names, on_table, strict=True)),
                "winner": names[winner] if winner is not None else None, "over": over, "why": why}  # fmt: skip

    def resolve_clean(self, clean, settings, dice):
        d = self.decide(clean, settings)
        reason = words.say(d["why"])  # `why` is an English msgid: the result keeps it as data
        text = (words.say(N_("{side} wins: {why}."), side=d["winner"], why=reason) if d["winner"]
                else words.say(N_("No winner: {why}."), why=reason))  # fmt: skip
        summary = words.render(text)
        return self.outcome(summary, {**d, "text": text}, [], [summary])

    def odds_clean(self, clean, settings):
        d = self.decide(clean, settings)
        return {**d, "p_decided": prob(1 if d["winner"] else 0)}
