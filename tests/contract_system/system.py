"""The test-only system «Secret orders» (see the package docstring)."""

from __future__ import annotations

import copy
from fractions import Fraction

from rules.contract import (
    Action,
    ArmyPart,
    AtRollPart,
    Awaiting,
    BattlePart,
    Command,
    Event,
    GameConflict,
    GameState,
    GameSystem,
    NewEvent,
    NotYours,
    RollOdds,
    RosterReport,
    Rule,
    RuleInputError,
    Setting,
    SideSetup,
    Start,
    UnitRecord,
    UnitSetup,
)
from rules.contract import board as w
from rules.contract.army import Issue

SLUG = "test-secret-orders"


class OrdersArmy(ArmyPart):
    pricing = "points"
    currency = "pts"
    profile_kinds = {"squad": "Squad"}
    profile_schema = {
        "type": "object",
        "required": ["name", "kind", "cost", "data"],
        "properties": {
            "name": {"type": "string", "maxLength": 120},
            "kind": {"enum": ["squad"]},
            "cost": {"type": "integer", "minimum": 0, "maximum": 10000},
            "data": {
                "type": "object",
                "required": ["strength"],
                "properties": {"strength": {"type": "integer", "minimum": 1, "maximum": 10}},
            },
        },
    }

    def cost_roster(self, roster: dict) -> RosterReport:
        costs = {e["key"]: int(e["profile"]["cost"]) * int(e.get("count") or 0) for e in roster["entries"]}
        total = sum(costs.values())
        issues = []
        limit = roster.get("points_limit")
        if limit and total > limit:
            issues.append(Issue("error", "over_limit", f"{total} points is over the limit of {limit}."))
        return RosterReport(total=total, entry_costs=costs, issues=issues)


def _enemy_units(state: GameState, side: int) -> list[str]:
    return [k for k, u in state.units.items() if u.side != side and u.state["strength"] > 0]


class GiveOrder(Command):
    name = "order"
    label = "Give your order"
    input_schema = {
        "type": "object",
        "properties": {"unit": {"type": "string", "maxLength": 40}, "target": {"type": "string", "maxLength": 40}},
        "required": ["unit", "target"],
        "additionalProperties": False,
    }

    def handle(self, ctx, inputs):
        side = ctx.one_side()
        unit = ctx.own_unit(inputs["unit"])
        target = ctx.unit(inputs["target"], field_name="target")
        if target.side == side:
            raise RuleInputError({"target": "Attack an enemy unit."})
        if unit.state["strength"] <= 0:
            raise RuleInputError({"unit": f"{unit.name} has no strength left."})
        order = {"side": side, "unit": unit.key, "target": target.key}
        events = [NewEvent("order.given", order, visible_to=(side,))]
        given = {int(s): o for s, o in ctx.game["orders"].items()}
        given[side] = order
        if set(given) == set(ctx.game["sides"]):  # the last order: reveal all together, then ask the first target
            events.append(NewEvent("orders.revealed", {"orders": {str(s): o for s, o in sorted(given.items())}}))
        return events


class AnswerAttack(Command):
    name = "answer"
    label = "Answer the attack"
    input_schema = {
        "type": "object",
        "properties": {"choice": {"enum": ["cover", "fire"]}},
        "required": ["choice"],
        "additionalProperties": False,
    }

    def handle(self, ctx, inputs):
        question = ctx.game["question"]
        if question["to"] not in ctx.sides:
            raise NotYours("This question is for the other player.")
        source = ctx.dice()
        die = source.roll(6, "attack")
        source.finish()
        needed = 5 if inputs["choice"] == "cover" else 3
        hit = die >= needed
        payload = {
            "attacker": question["attacker"],
            "target": question["target"],
            "choice": inputs["choice"],
            "roll": die,
            "needed": needed,
            "hit": hit,
        }
        ctx.outcome = {"summary": f"d6 {die} against {needed}+: {'hit' if hit else 'miss'}.", "result": {"roll": die}}
        return [NewEvent("attack.resolved", payload, dice=source.as_list())]


class EndByHand(Command):
    """A ruling: the players agree a side has won."""

    name = "concede"
    label = "Concede"
    free = True
    input_schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def handle(self, ctx, inputs):
        side = ctx.one_side()
        if ctx.game.get("result"):
            raise GameConflict("The game is already over.")
        return [NewEvent("side.conceded", {"side": side})]


class OrdersBattle(BattlePart):
    rules_version = 2
    commands = {c.name: c for c in (GiveOrder(), AnswerAttack(), EndByHand())}
    # The reveal shows every order: after it, an undo of an order needs both players (answers close by themselves).
    closing_events = frozenset({"orders.revealed"})

    def start(self, *, sides: list[SideSetup], settings: dict) -> Start:
        units = []
        for side in sides:
            for e in side.roster["entries"]:
                for copy_no in range(1, int(e.get("count") or 1) + 1):
                    strength = e["profile"]["data"]["strength"]
                    units.append(
                        UnitSetup(
                            key=f"{side.index}.{e['key']}.{copy_no}",
                            side=side.index,
                            name=e["profile"]["name"],
                            kind=e["profile"]["kind"],
                            profile=e["profile"],
                            entry={"key": e["key"], "copy": copy_no},
                            state={"strength": strength},
                        )
                    )
        game = {
            "sides": [s.index for s in sides],
            "turn": 1,
            "orders": {},
            "queue": [],
            "question": None,
            "result": None,
            "revealed": None,
        }
        return Start(game=game, units=units)

    def apply(self, state: GameState, event: Event) -> None:
        game, p = state.game, event.payload
        if event.type == "order.given":
            game["orders"][str(p["side"])] = {"unit": p["unit"], "target": p["target"]}
        elif event.type == "orders.revealed":
            if set(p["orders"]) - set(game["orders"]):
                return  # an order was taken back (by agreement): that side orders again, and a new reveal follows
            game["revealed"] = p["orders"]
            game["queue"] = [p["orders"][s] for s in sorted(p["orders"])]
            game["orders"] = {}
            self._next_question(state)
        elif event.type == "attack.resolved":
            target = state.units[p["target"]]
            loss = (1 if p["hit"] else 0) + (1 if p["choice"] == "fire" else 0)
            # In place on purpose: the runner must store a state a fold edits in place (battles.services copies).
            target.state["strength"] = max(0, target.state["strength"] - loss)
            state.changed.add(target.key)
            game["queue"] = game["queue"][1:]
            self._next_question(state)
        elif event.type == "side.conceded":
            others = [s for s in game["sides"] if s != p["side"]]
            game["result"] = {"winner": others[0] if len(others) == 1 else None, "reason": "conceded"}
        standing = {u.side for u in state.units.values() if u.state["strength"] > 0}
        if game["result"] is None and len(standing) < len(game["sides"]):
            game["result"] = {"winner": next(iter(standing), None), "reason": "destroyed"}
            game["question"] = None

    @staticmethod
    def _next_question(state: GameState) -> None:
        game = state.game
        while game["queue"]:
            attack = game["queue"][0]
            attacker, target = state.units[attack["unit"]], state.units[attack["target"]]
            if attacker.state["strength"] > 0 and target.state["strength"] > 0:
                game["question"] = {"to": target.side, "attacker": attacker.key, "target": target.key}
                return
            game["queue"] = game["queue"][1:]
        game["question"] = None
        game["turn"] += 1

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message="The game is over.")
        q = game.get("question")
        if q:
            return Awaiting(
                kind="question",
                sides=(q["to"],),
                commands=("answer",),
                prompt={
                    "question": f"{q['attacker']} attacks {q['target']}: take cover or return fire?",
                    "command": "answer",
                },
                message="Waiting for the attacked player to answer.",
            )
        waiting = tuple(s for s in game["sides"] if str(s) not in game["orders"])
        return Awaiting(kind="all", sides=waiting, commands=("order",), message="Waiting for the orders.")

    def redact_game(self, game: dict, viewer_sides) -> dict:
        game["orders"] = {s: o for s, o in game["orders"].items() if int(s) in viewer_sides}
        return game

    def unit_view(self, state, unit, viewer_sides) -> dict:
        return {"strength": unit.state["strength"], "alive": unit.state["strength"] > 0}

    def board(self, view, viewer_sides, *, can_write: bool) -> dict:
        base = super().board(view, viewer_sides, can_write=can_write)
        turnbar = [w.text(f"Turn {view['game']['turn']}", tone="now")]
        awaiting = view["awaiting"]
        mine = set(viewer_sides)
        if can_write and awaiting["kind"] == "all" and mine & set(awaiting["sides"]):
            own = [u for u in view["units"] if u["mine"] and u["view"]["alive"]]
            enemy = [u for u in view["units"] if not u["mine"] and u["view"]["alive"]]
            turnbar.append(
                w.order_form(
                    "order",
                    title="Your secret order",
                    fields=[
                        {
                            "name": "unit",
                            "label": "Unit",
                            "kind": "choice",
                            "choices": [{"value": u["key"], "label": u["name"]} for u in own],
                        },
                        {
                            "name": "target",
                            "label": "Target",
                            "kind": "choice",
                            "choices": [{"value": u["key"], "label": u["name"]} for u in enemy],
                        },
                    ],
                )
            )
        elif awaiting["kind"] == "all":
            turnbar.append(w.text("Your order is given: waiting for the other side."))
        if can_write and awaiting["kind"] == "question" and mine & set(awaiting["sides"]):
            turnbar.append(
                w.prompt(
                    awaiting["prompt"]["question"],
                    "answer",
                    options=[
                        w.button("Take cover", "answer", {"choice": "cover"}),
                        w.button("Return fire", "answer", {"choice": "fire"}),
                    ],
                    fields=[
                        {
                            "name": "choice",
                            "label": "Answer",
                            "kind": "choice",
                            "choices": [
                                {"value": "", "label": "—"},
                                {"value": "cover", "label": "Take cover"},
                                {"value": "fire", "label": "Return fire"},
                            ],
                        }
                    ],  # fmt: skip
                    dice=[{"label": "d6 attack", "faces": 6}],
                    odds=True,
                    compare=("choice",),
                    rule="answer",
                )
            )
        for group in base["groups"]:
            for card in group["units"]:
                unit = next(u for u in view["units"] if u["key"] == card["key"])
                card["widgets"] = [w.counter("Strength", unit["view"]["strength"])]
                card["dead"] = not unit["view"]["alive"]
        base["turnbar"] = turnbar
        return base

    def describe_event(self, event: Event, names: dict) -> str:
        p = event.payload
        if event.type == "order.given":
            return f"Secret order: {p['unit']} attacks {p['target']}."
        if event.type == "orders.revealed":
            return "Orders revealed: " + "; ".join(f"{o['unit']} → {o['target']}" for o in p["orders"].values())
        if event.type == "attack.resolved":
            return f"{p['attacker']} attacks {p['target']} ({p['choice']}): {'hit' if p['hit'] else 'miss'}."
        return event.type

    def upcast(self, event: Event, version: int) -> Event:
        # Version 1 called the answer "take_cover": true/false; version 2 says "choice".
        if version < 2 and event.type == "attack.resolved" and "take_cover" in event.payload:
            payload = dict(event.payload)
            payload["choice"] = "cover" if payload.pop("take_cover") else "fire"
            return Event(event.seq, event.type, payload, event.side, event.visible_to)
        return event

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        mine = {s: next(k for k, u in state.units.items() if u.side == s) for s in state.game["sides"]}
        a, b = mine[0], mine[1]
        return [
            (0, "order", {"unit": a, "target": b}, None),
            (1, "order", {"unit": b, "target": a}, None),
            (1, "answer", {"choice": "cover"}, [6]),
            (0, "answer", {"choice": "fire"}, [1]),
        ]


class AttackRoll(Action):
    """The attack the answer decides: a d6 of `needed` or more hits."""

    key = "attack"
    label = "Attack roll"
    input_schema = {
        "type": "object",
        "properties": {"needed": {"type": "integer", "minimum": 2, "maximum": 6}},
        "required": ["needed"],
        "additionalProperties": False,
    }
    result_labels = {"p_hit": "hit", "roll": "the d6"}

    def resolve(self, inputs, settings, dice):
        raise NotImplementedError("the test system resolves its attack in the battle command")

    def odds(self, inputs, settings):
        self.validate(inputs, settings)
        from rules.contract import distribution, prob

        needed = inputs["needed"]
        return {"p_hit": prob(Fraction(7 - needed, 6)), "roll": distribution({v: Fraction(1, 6) for v in range(1, 7)})}


class OrdersAtRoll(AtRollPart):
    """The attack's odds on the answer's form: cover needs 5+, return fire 3+ (as AnswerAttack rolls)."""

    compare_fields = {"answer": ("choice",)}
    rules = {
        "answer": Rule("Answer the attack", "Take cover: hit on 5+. Return fire: hit on 3+.", "test §1", "house_cover")
    }

    def roll_odds(self, state, command, inputs, sides):
        if command != "answer":
            return None
        choice = inputs.get("choice")
        if choice not in ("cover", "fire"):
            raise RuleInputError({"choice": "Choose cover or fire."})
        return RollOdds("attack", {"needed": 5 if choice == "cover" else 3}, "p_hit", "hit", ("roll", "roll"))


class SecretOrders(GameSystem):
    slug = SLUG
    name = "Secret orders (test only)"
    dice = "d6"
    settings = (Setting("house_cover", "Cover needs 5+", True, source="test"),)
    glossary = {"order": "order", "unit": "unit"}
    army = OrdersArmy()
    battle = OrdersBattle()
    actions = {"attack": AttackRoll()}
    at_roll = OrdersAtRoll()


SYSTEM = SecretOrders()


def copy_state(state: GameState) -> GameState:
    return GameState(copy.deepcopy(state.game), {k: copy.deepcopy(u) for k, u in state.units.items()}, state.settings)


__all__ = ["SLUG", "SYSTEM", "UnitRecord", "copy_state"]
