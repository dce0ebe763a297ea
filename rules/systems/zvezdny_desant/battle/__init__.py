"""The battle part of «Звездный Десант»: a turn of secret orders, the reveal, activation by initiative, shooting,
assaults and melees, wound markers per unit, and victory points after the last turn (spec §1.3–§1.6, §4).

Secrets (§4.5 OrderAssigned): each side's orders are an event visible only to that side; the game awaits both
sides at once ("all"); redact_game hides the other side's cards; once both have ordered, a public event reveals
every order and the units act.
"""

from __future__ import annotations

from rules.contract import Awaiting, BattlePart, GameState, Start, UnitSetup
from rules.i18n import _
from rules.systems.zvezdny_desant.army import cost_entry
from rules.systems.zvezdny_desant.battle import fold, rules, view
from rules.systems.zvezdny_desant.battle.commands import COMMANDS
from rules.systems.zvezdny_desant.profile import compile_unit
from rules.systems.zvezdny_desant.settings import full_settings


class ZvezdnyDesantBattle(BattlePart):
    rules_version = 1
    commands = COMMANDS
    # The reveal turns every order face up (L248): after it, no side may take its orders back alone.
    closing_events = frozenset({"orders_revealed"})

    def start(self, *, sides, settings) -> Start:
        system = full_settings(settings.get("system"))
        units, used_names = [], {}
        for side in sides:
            for entry in side.roster.get("entries") or []:
                count = int(entry.get("count", 1) or 1)
                cost, _ = cost_entry({**entry, "count": 1}, system)
                card = compile_unit(entry, system)
                card.pop("cost_rows", None)
                if card["figures"] == 0:
                    continue
                for i in range(count):
                    used_names[card["name"]] = used_names.get(card["name"], 0) + 1
                    seen = used_names[card["name"]]
                    name = card["name"] + (f" {seen}" if seen > 1 or count > 1 else "")
                    key = f"s{side.index}-{entry.get('key', len(units))}" + (f"-{i + 1}" if count > 1 else "")
                    state = {"figures": card["figures"], "start": card["figures"], "markers": 0, "order": None,
                             "initiative": None, "acted": False, "moved": False, "shot_at": None, "in_melee": False,
                             "panicked": False, "suppressed": False, "destroyed": False}  # fmt: skip
                    units.append(UnitSetup(key=key, side=side.index, name=name, kind="infantry",
                                           profile={**card, "cost": cost}, entry=entry, state=state))  # fmt: skip
        game = {"turn": 1, "max_turns": system["max_turns"], "cp": system["command_points"], "phase": "start",
                "first_player": None, "previous_first": None, "orders": {}, "ordered": [], "last_at": {},
                "melees": [], "next_melee": 1, "fought": [], "strikes": None, "result": None,
                "side_names": {str(side.index): side.name for side in sides}}  # fmt: skip
        return Start(game=game, units=units)

    def apply(self, state: GameState, event) -> None:
        fold.apply(state, event)

    def awaiting(self, state: GameState) -> Awaiting:
        game = state.game
        if game.get("result") is not None:
            return Awaiting(kind="over", message=_("The game is over. Undo the last events to play on."))
        phase = game["phase"]
        if phase == "start":
            return Awaiting(
                kind="anyone",
                commands=("start_turn",),
                message=_("Turn {turn}: roll for the First Player.").format(turn=game["turn"]),
            )
        if phase == "orders":
            waiting = tuple(s for s in rules.SIDES if s not in game["ordered"])
            return Awaiting(kind="all", sides=waiting, commands=("give_orders",),
                            message=_("Orders are given in secret by both players at once."))  # fmt: skip
        if phase == "execution":
            slot = rules.next_slot(state)
            if slot is not None:
                return Awaiting(
                    kind="sides",
                    sides=(slot[0],),
                    commands=("act",),
                    message=_("{side}: a unit with initiative {n} acts now.").format(
                        side=rules.side_name(game, slot[0]), n=slot[1]
                    ),
                )
        asked = game.get("strikes")
        if asked:  # the other side rolls its strikes before anybody is removed (L659)
            other = 1 - asked["side"]
            return Awaiting(
                kind="question",
                sides=(other,),
                commands=("strike",),
                message=_("Close combat #{n}: {side} rolls a D20 for each strike of its figures.").format(
                    n=asked["melee"], side=rules.side_name(game, other)
                ),
            )
        waiting = [m["id"] for m in game["melees"] if m["id"] not in game["fought"]]
        message = (
            _("Fight close combat {ids}, then end the turn.").format(ids=", ".join(f"#{i}" for i in waiting))
            if waiting
            else _("End the turn.")
        )
        return Awaiting(kind="anyone", commands=("fight", "end_turn"), message=message)

    def commutes(self, state: GameState, name: str, inputs: dict, since: list) -> bool:
        """Both players fill in their order cards at the same time (L226): one side's orders, sent from a phone
        that has not yet seen the other side's, are worked out again on top of them (and reveal every card when
        they are the last), instead of being refused as stale."""
        return name == "give_orders" and all(e.type == "orders_given" for e in since)

    def redact_game(self, game: dict, viewer_sides: frozenset[int]) -> dict:
        return view.redact_game(game, viewer_sides)

    def unit_view(self, state: GameState, unit, viewer_sides: frozenset[int]) -> dict:
        return view.unit_view(unit)

    def board(self, view_: dict, viewer_sides, *, can_write: bool) -> dict:
        return view.board(view_, viewer_sides, can_write=can_write)

    def describe_event(self, event, names: dict) -> str:
        return view.describe_event(event, names)

    def example_script(self, state: GameState) -> list[tuple[int, str, dict, list | None]]:
        """Turn 1 of the example rosters, then turn 2's start: the First Player roll, secret orders from both
        sides, the reveal, a volley each way, an assault, the melee (one side strikes, the other answers with its
        strikes), the turn's end, a tied roll re-rolled and the
        orders of turn 2 (the units in melee get none). Dice typed in, so it plays the same under any seed."""
        own = {s: [k for k, u in state.units.items() if u.side == s] for s in rules.SIDES}
        (a1, a2), (b1, b2) = own[0][:2], own[1][:2]
        return [
            (0, "start_turn", {}, [15, 4]),
            (0, "give_orders", {"orders": [{"unit": a1, "order": "defence", "initiative": 6},
                                           {"unit": a2, "order": "move", "initiative": 4}]}, None),
            (1, "give_orders", {"orders": [{"unit": b1, "order": "attack", "initiative": 6},
                                           {"unit": b2, "order": "defence", "initiative": 4}]}, None),
            (0, "act", {"unit": a1, "shoot": {"target": b1}}, [20, 20, 20, 3, 2, 15, 14, 2]),
            (1, "act", {"unit": b1, "move": True, "shoot": {"target": a2}}, [12, 5, 19, 1, 12, 3]),
            (0, "act", {"unit": a2, "assault": {"target": b2}}, None),
            (1, "fight", {"melee": 1}, [20, 1, 1, 1, 1]),  # side 1 strikes; side 0 is asked for its strikes
            (0, "strike", {}, [7, 7, 7, 7, 1, 1, 1, 1, 1, 1]),
            (1, "end_turn", {}, None),
            (1, "start_turn", {}, [3, 3, 10, 2]),
            (0, "give_orders", {"orders": [{"unit": a1, "order": "attack", "initiative": 10}]}, None),
            (1, "give_orders", {"orders": [{"unit": b1, "order": "defence", "initiative": 10}]}, None),
        ]  # fmt: skip


BATTLE = ZvezdnyDesantBattle()
