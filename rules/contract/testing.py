"""An in-memory battle for a system's own tests: the same steps as the generic runner (battles/services), without
the database. `battles` stores events; this keeps them in a list, so a system can prove its battle part (start,
commands, fold, replay, undo, awaiting, redaction) in plain pytest.

    table = Table(SYSTEM, rosters=[roster_a, roster_b])
    table.command(0, "initiative", {}, seed=1)
    table.command(1, "order", {...}, dice=[4, 2])
    assert table.replay_matches()
    table.undo(0, seq=3)                # refused (UndoNeedsAgreement) past a reveal or an answered question
    table.undo(0, seq=3, agreed=True)   # both players agreed at the table
"""

from __future__ import annotations

import copy
import json
import math
from collections import Counter
from fractions import Fraction

from rules import dice as dicelib
from rules.contract.actions import Action
from rules.contract.battle import (
    Event,
    GameState,
    NothingToUndo,
    SideSetup,
    UndoNeedsAgreement,
    UnitRecord,
    run_command,
    undo_witnesses,
)
from rules.contract.system import GameSystem
from rules.errors import GameConflict, RuleInputError


class Table:
    def __init__(self, system: GameSystem, *, rosters: list[dict], settings: dict | None = None, names=None):
        self.system = system
        self.part = system.battle
        resolved = system.resolve_settings(settings or {})
        self.settings = {"system": resolved, "enforce_turns": True}
        sides = [
            SideSetup(index=i, name=(names or {}).get(i, f"Side {i}"), faction=r.get("faction", ""), roster=r)
            for i, r in enumerate(rosters)
        ]
        start = self.part.start(sides=sides, settings=self.settings)
        self.sides = [s.index for s in sides]  # each side a player of its own, as at a club table
        self.initial_game = copy.deepcopy(start.game)
        self.initial_units = {
            u.key: UnitRecord(u.key, u.side, copy.deepcopy(u.profile), copy.deepcopy(u.state), u.name, u.kind)
            for u in start.units
        }
        # {"seq", "type", "payload", "side", "visible_to", "cause", "undoes", "dice", "closes"}
        self.events: list[dict] = []
        self.state = self._fresh()

    def _fresh(self) -> GameState:
        return GameState(
            game=copy.deepcopy(self.initial_game),
            units={k: copy.deepcopy(u) for k, u in self.initial_units.items()},
            settings=self.settings,
        )

    @property
    def version(self) -> int:
        return len(self.events)

    def command(self, side: int | set, name: str, inputs: dict | None = None, *, dice=None, seed=None) -> list[dict]:
        sides = frozenset(side if isinstance(side, set) else {side})
        work = copy.deepcopy(self.state)
        new, ctx = run_command(
            self.part,
            work,
            name,
            inputs or {},
            sides=sides,
            next_seq=self.version + 1,
            dice_source=lambda: dicelib.dice_source(seed=seed, dice=dice),
        )
        head = self.version + 1
        stored = []
        for i, e in enumerate(new):
            row = {
                "seq": head + i,
                "type": e.type,
                "payload": copy.deepcopy(e.payload),
                "side": e.side,
                "visible_to": tuple(e.visible_to) if e.visible_to is not None else None,
                "cause": None if i == 0 else head,
                "undoes": None,
                "dice": e.dice,
                "closes": e.closes,
            }
            stored.append(row)
        self.events.extend(stored)
        self.state = work
        self.last_outcome = ctx.outcome
        return stored

    def undone(self) -> set[int]:
        undone: set[int] = set()
        for e in reversed(self.events):
            if e["type"] == "undo" and e["seq"] not in undone:
                undone.add(e["undoes"])
        return undone

    def undo(self, side: int, *, seq: int, agreed: bool = False) -> None:
        """Undoes command #seq as the runner does: refused when it would change nothing, and, past a closing point
        (a reveal, an answered question) another side saw, unless the players `agreed` (the runner's proposal and
        confirmation)."""
        target = next((e for e in self.events if e["seq"] == seq), None)
        if target is None or target["cause"] is not None:
            raise RuleInputError({"seq": f"There is no command #{seq} to undo."})
        if seq in self.undone():
            raise GameConflict(f"#{seq} was already undone.")
        if not agreed and self.needs_agreement(side, seq):
            raise UndoNeedsAgreement(f"Undoing #{seq} needs the other players' agreement.")
        undo = {
            "seq": self.version + 1,
            "type": "undo",
            "payload": {"undoes": seq},
            "side": side,
            "visible_to": None if agreed else target["visible_to"],
            "cause": None,
            "undoes": seq,
            "dice": [],
            "closes": agreed,  # what both agreed to, one side may not redo alone
        }
        self.events.append(undo)
        state = self.replay()
        if _stored(state) == _stored(self.state):
            self.events.pop()
            raise NothingToUndo(f"Undoing #{seq} would change nothing.")
        self.state = state

    def needs_agreement(self, side: int, seq: int) -> frozenset[int]:
        """The other sides that saw a closing point at or after #seq (empty: `side` may undo it alone)."""
        closing = [
            Event(e["seq"], e["type"], e["payload"], e["side"], e["visible_to"])
            for e in self.events
            if e["seq"] >= seq and (e.get("closes") or e["type"] in self.part.closing_events)
        ]
        return undo_witnesses(closing, frozenset(self.sides) - {side})

    def active(self) -> list[dict]:
        undone = self.undone()
        return [
            e
            for e in self.events
            if e["type"] != "undo" and e["seq"] not in undone and (e["cause"] is None or e["cause"] not in undone)
        ]

    def replay(self) -> GameState:
        state = self._fresh()
        for e in self.active():
            self.part.apply(state, Event(e["seq"], e["type"], e["payload"], e["side"], e["visible_to"]))
        return state

    def replay_matches(self) -> bool:
        again = self.replay()
        return again.game == self.state.game and all(
            again.units[k].state == self.state.units[k].state for k in self.state.units
        )

    def feed(self, viewer_sides: set[int]) -> list[dict]:
        """The events one viewer may see (what the API's event feed gives them)."""
        return [e for e in self.events if e["visible_to"] is None or set(e["visible_to"]) & viewer_sides]

    def awaiting(self):
        return self.part.awaiting(self.state)

    def view(self, viewer_sides: set[int]) -> dict:
        """The game and units as one viewer sees them (what the state API gives them)."""
        viewer = frozenset(viewer_sides)
        return {
            "game": self.part.redact_game(copy.deepcopy(self.state.game), viewer),
            "units": {k: self.part.unit_view(self.state, u, viewer) for k, u in self.state.units.items()},
        }


def _stored(state: GameState) -> str:
    """The game and unit states as the runner stores them (JSON), to tell whether an undo changes anything."""
    units = {k: u.state for k, u in state.units.items()}
    return json.dumps([state.game, units], sort_keys=True, separators=(",", ":"), default=list)


def assert_matches(name: str, expected: dict, counts: Counter, n: int) -> None:
    """Resolver against exact odds: the distribution sums to 1 and each observed frequency lies within 4 standard
    errors of its exact probability (exactly equal where the probability is 0 or 1)."""
    assert sum(expected.values()) == 1, (name, expected)
    assert set(counts) <= {k for k, p in expected.items() if p > 0}, (name, counts, expected)
    for value, p in expected.items():
        freq = counts.get(value, 0) / n
        if p in (0, 1):
            assert freq == p, (name, value, freq, p)
            continue
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(freq - float(p)) <= 4 * se, (name, value, freq, float(p), se)


# The odds answers as exact fractions, to hold against what the resolver rolls.


def frac(p: dict) -> Fraction:
    """A probability of an odds answer ({"exact": "5/6", …}) as a fraction."""
    return Fraction(p["exact"])


def dist(items: list[dict]) -> dict:
    """A distribution of an odds answer ([{"value", "exact", …}]) as {value: fraction}."""
    return {d["value"]: Fraction(d["exact"]) for d in items}


def boolean(p: dict) -> dict:
    """A probability as the distribution of a yes/no result."""
    return {True: frac(p), False: 1 - frac(p)}


def sample(action: Action, inputs: dict, extractors: dict, n: int, seed: int, settings: dict) -> dict[str, Counter]:
    """Resolves `action` on `inputs` `n` times with seeded dice under the system's full `settings` (the inputs are
    checked once, then each run resolves the clean inputs, as resolve() does after its checks); counts what each
    extractor (name -> function of the outcome) reads."""
    clean = action.validate(inputs, settings)
    dice = dicelib.SeededDice(seed)
    counts: dict[str, Counter] = {name: Counter() for name in extractors}
    for _ in range(n):
        dice.rolls.clear()
        outcome = action.resolve_clean(clean, settings, dice)
        for name, extract in extractors.items():
            counts[name][extract(outcome)] += 1
    return counts
