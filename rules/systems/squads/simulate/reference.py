"""The plain-Python reference of the same model: one battle at a time, one die at a time. Tests hold the engine
against it statistically; the benchmark measures the engine's speed-up over it."""

from __future__ import annotations

import random

import numpy as np

from rules.systems.squads.simulate.model import AIMED, MIN_GAP, OUTCOME_DRAW, WALK, Match


class Battle:
    def __init__(self, match: Match, rnd: random.Random):
        self.m, self.rnd = match, rnd
        u = len(match.squads)
        self.k, self.s, self.adv = [0] * u, [0] * u, [0] * u
        self.on_guard, self.reacted, self.pending = [False] * u, [False] * u, [False] * u
        self.cur = 0
        st = match.settings
        self.interrupt = st["on_guard_timing"] == "interrupt"
        self.strict = st["suppressed_then_casualty"] == "never_while_suppressed"

    def d6(self) -> int:
        return self.rnd.randint(1, 6)

    def distance(self, a: int, b: int) -> int:
        return max(self.m.distance - self.adv[a] - self.adv[b], MIN_GAP)

    def alive(self, u: int) -> bool:
        return self.k[u] < self.m.squads[u].n

    def fire(self, u: int, target: int, d: int, table: int, aimed: bool) -> None:
        q = self.m.squads[u]
        p = min(self.k[u] + self.s[u], q.n)
        d = min(d, self.m.dmax)
        hits = 0
        for cover, ignores in ((0, False), (1, True)):
            chance = self.m.hit_p(q, 1 - q.side, aimed, ignores)
            hits += sum(1 for _ in range(int(q.dice[table, p, d, cover])) if self.rnd.random() < chance)
        self.take_hits(target, hits)

    def take_hits(self, e: int, hits: int) -> None:
        t = self.m.squads[e]
        live = t.n - self.k[e]
        if live <= 0:
            return
        unsaved = 0
        for h in range(hits):  # one hit per live figure in turn, best armour first
            if self.rnd.random() < t.fail[self.k[e], h % live]:
                unsaved += 1
        sup = min(unsaved, max(t.cap - self.s[e], 0), live - self.s[e]) if self.m.split == "suppress_first" else 0
        room = live - sup - (self.s[e] if self.strict else 0)
        cas = max(min(unsaved - sup, room), 0)
        self.k[e] += cas
        self.s[e] = max(self.s[e] - cas, 0) + sup

    def react(self, u: int) -> None:
        for e, q in enumerate(self.m.squads):
            if q.side == self.m.squads[u].side or not self.on_guard[e] or self.reacted[e] or not self.alive(u):
                continue
            d = self.distance(u, e)
            if q.reach[AIMED, min(self.k[e] + self.s[e], q.n)] >= d:
                self.reacted[e] = True
                self.fire(e, u, d, AIMED, aimed=False)

    def activate(self, u: int) -> None:
        q, m = self.m.squads[u], self.m
        self.pending[u] = False
        self.on_guard[u] = False
        ok = bool(q.act_ok[min(self.s[u], q.n), self.d6()])
        self.s[u] = 0
        if not ok:
            if self.k[u] * 2 > q.n:
                self.adv[u] = max(self.adv[u] - m.moves["withdraw"], 0)
            else:
                self.on_guard[u] = True
            self.cur = 1 - q.side
            return
        enemies = [e for e, t in enumerate(m.squads) if t.side != q.side and self.alive(e)]
        target = min(enemies, key=lambda e: (self.distance(u, e), e))
        d = self.distance(u, target)
        p = self.k[u]
        aim = q.reach[AIMED, p] >= d
        walk_to = max(d - m.moves["walk"], MIN_GAP)
        walk = run = False
        if m.approach == "hold":
            self.on_guard[u] = not aim
        else:
            walk = not aim and q.reach[WALK, p] >= walk_to
            run = not aim and not walk
        if self.interrupt:
            self.react(u)
        if walk:
            self.adv[u] += d - walk_to
        if run:
            self.adv[u] += d - max(d - m.moves["run"], MIN_GAP)
        if self.alive(u):
            if aim:
                self.fire(u, target, d, AIMED, aimed=True)
            elif walk:
                self.fire(u, target, walk_to, WALK, aimed=False)
        if not self.interrupt:
            self.react(u)

    def initiative(self) -> int:
        while True:
            a, b = self.d6(), self.d6()
            if a != b:
                return 0 if a > b else 1

    def standing(self, side: int) -> int:
        return sum(q.n - self.k[u] for u, q in enumerate(self.m.squads) if q.side == side)

    def play(self) -> tuple[int, int]:
        squads = self.m.squads
        for turn in range(1, self.m.turns + 1):
            self.reacted = [False] * len(squads)
            self.pending = [self.alive(u) for u in range(len(squads))]
            self.cur = self.initiative()
            for _slot in range(len(squads)):
                mine = [u for u, q in enumerate(squads) if self.pending[u] and q.side == self.cur]
                if not mine:
                    mine = [u for u, q in enumerate(squads) if self.pending[u] and q.side != self.cur]
                    if not mine:
                        break
                    self.cur = 1 - self.cur
                self.activate(mine[0])
                a, b = self.standing(0), self.standing(1)
                if not a or not b:
                    return (OUTCOME_DRAW if not a and not b else (1 if not a else 0)), turn
            if self.m.settings["on_guard_until"] == "end_of_turn":
                self.on_guard = [False] * len(squads)
        return OUTCOME_DRAW, self.m.turns


def simulate_reference(match: Match, n: int, seed: int) -> dict:
    rnd = random.Random(seed)
    winner, rounds, left_a, left_b = [], [], [], []
    for _ in range(n):
        battle = Battle(match, rnd)
        w, r = battle.play()
        winner.append(w)
        rounds.append(r)
        left = [q.worth * (q.n - battle.k[u]) / q.n for u, q in enumerate(match.squads)]
        left_a.append(sum(v for v, q in zip(left, match.squads, strict=True) if q.side == 0))
        left_b.append(sum(v for v, q in zip(left, match.squads, strict=True) if q.side == 1))
    return {
        "winner": np.array(winner),
        "rounds": np.array(rounds),
        "left_a": np.array(left_a),
        "left_b": np.array(left_b),
    }
