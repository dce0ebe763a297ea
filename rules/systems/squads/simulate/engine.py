"""The vectorised engine: n battles in lock-step, state arrays of shape [squads, battles].

Loops run over turns, activation slots, squads and enemies, never over battles. In each slot every battle picks
its acting squad; the battles in which the same squad acts are handled together, so that squad's tables are
static and every roll is one numpy call over those battles. The model is the package docstring.
"""

from __future__ import annotations

import numpy as np

from rules.systems.squads.simulate.model import AIMED, MIN_GAP, OUTCOME_DRAW, WALK, Match


def roll_hits(rng, n_dice, p_n: float, i_dice, p_i: float):
    """Hits of a bout of fire: dice that count cover and dice that ignore it (§3.5)."""
    hits = rng.binomial(n_dice, p_n)
    if i_dice.any():  # most squads carry nothing that ignores cover: skip the empty draw
        hits += rng.binomial(i_dice, p_i)
    return hits


def roll_unsaved(rng, hits, fail_rows, live):
    """Unsaved hits: one hit per live figure in turn, best armour first, each saved on its own (§3.6, §5 B3).
    fail_rows: [battles, figures] P(unsaved) of the j-th live figure."""
    figures = fail_rows.shape[1]
    j = np.arange(figures)[:, None]
    safe_live = np.maximum(live, 1)[None, :]
    per_figure = np.where(j < live[None, :], hits[None, :] // safe_live + (j < hits[None, :] % safe_live), 0)
    return rng.binomial(per_figure, fail_rows.T).sum(axis=0)


def roll_activation(rng, act_ok, suppressed):
    """The activation roll (§3.2): one d6 per battle, read against the squad's table by its suppressed count."""
    return act_ok[suppressed, rng.integers(1, 7, size=suppressed.size)]


def split(unsaved, live, suppressed, cap: int, suppress_first: bool, strict: bool):
    """(new suppressed, casualties) by the owner's policy within the legal split (L28, L31, §5 B4)."""
    if suppress_first:
        sup = np.minimum(unsaved, np.minimum(np.maximum(cap - suppressed, 0), live - suppressed))
    else:
        sup = np.zeros_like(unsaved)
    room = live - sup - (suppressed if strict else 0)
    cas = np.maximum(np.minimum(unsaved - sup, room), 0)
    return sup, cas


class Engine:
    def __init__(self, match: Match, n: int, rng: np.random.Generator):
        self.m, self.n, self.rng = match, n, rng
        squads = match.squads
        u = len(squads)
        self.side = np.array([q.side for q in squads])
        self.size = np.array([q.n for q in squads])[:, None]
        self.k = np.zeros((u, n), dtype=np.int64)  # casualties
        self.s = np.zeros((u, n), dtype=np.int64)  # suppressed
        self.adv = np.zeros((u, n), dtype=np.int64)  # inches (or cm) moved toward the enemy
        self.on_guard = np.zeros((u, n), dtype=bool)
        self.reacted = np.zeros((u, n), dtype=bool)
        self.pending = np.zeros((u, n), dtype=bool)
        self.done = np.zeros(n, dtype=bool)
        self.winner = np.full(n, OUTCOME_DRAW, dtype=np.int8)
        self.rounds = np.full(n, match.turns, dtype=np.int16)
        self.cur = np.zeros(n, dtype=np.int8)
        st = match.settings
        self.interrupt = st["on_guard_timing"] == "interrupt"
        self.guard_to_end = st["on_guard_until"] == "end_of_turn"
        self.strict = st["suppressed_then_casualty"] == "never_while_suppressed"
        self.suppress_first = match.split == "suppress_first"
        self.uniform = [bool(np.all(q.fail[0] == q.fail[0][0])) for q in squads]
        self.enemies = [[int(e) for e in np.flatnonzero(self.side != q.side)] for q in squads]
        self.members = [[int(e) for e in np.flatnonzero(self.side == s)] for s in (0, 1)]

    # Geometry -------------------------------------------------------------------------------------------
    def distance(self, a: int, b: int, idx):
        return np.maximum(self.m.distance - self.adv[a, idx] - self.adv[b, idx], MIN_GAP)

    def nearest_enemy(self, u: int, idx):
        if len(self.enemies[u]) == 1:
            e = self.enemies[u][0]
            return np.full(idx.size, e), self.distance(u, e, idx)
        best = np.full(idx.size, -1)
        best_d = np.full(idx.size, np.iinfo(np.int64).max)
        for e in self.enemies[u]:
            d = np.where(self.k[e, idx] < self.size[e, 0], self.distance(u, e, idx), np.iinfo(np.int64).max)
            closer = d < best_d
            best, best_d = np.where(closer, e, best), np.where(closer, d, best_d)
        return best, best_d

    # Fire ---------------------------------------------------------------------------------------------------
    def bout_hits(self, u: int, idx, d, table: int, aimed: bool):
        """Hits of squad u's bout of fire from distance d with one of its dice tables (§3.5)."""
        q = self.m.squads[u]
        p = np.minimum(self.k[u, idx] + self.s[u, idx], q.n)
        d = np.minimum(d, self.m.dmax)
        tside = 1 - q.side
        n_p, i_p = self.m.hit_p(q, tside, aimed, False), self.m.hit_p(q, tside, aimed, True)
        return roll_hits(self.rng, q.dice[table, p, d, 0], n_p, q.dice[table, p, d, 1], i_p)

    def unsaved(self, e: int, idx, hits):
        """Unsaved hits on squad e (§3.6)."""
        t = self.m.squads[e]
        k = self.k[e, idx]
        if self.uniform[e]:
            return self.rng.binomial(hits, t.fail[0][0])
        return roll_unsaved(self.rng, hits, t.fail[k], t.n - k)

    def fire(self, u: int, target, idx, d, table: int, aimed: bool):
        """Squad u fires at `target` (a squad per battle)."""
        hits = self.bout_hits(u, idx, d, table, aimed)
        enemies = self.enemies[u]
        if len(enemies) == 1:
            self.take_hits(enemies[0], idx, hits)
            return
        for e in enemies:
            sel = target == e
            if sel.any():
                self.take_hits(e, idx[sel], hits[sel])

    def take_hits(self, e: int, idx, hits):
        t = self.m.squads[e]
        k = self.k[e, idx]
        unsaved = self.unsaved(e, idx, hits)
        sup, cas = split(unsaved, t.n - k, self.s[e, idx], t.cap, self.suppress_first, self.strict)
        self.k[e, idx] = k + cas
        self.s[e, idx] = np.maximum(self.s[e, idx] - cas, 0) + sup

    def react(self, u: int, idx):
        """Enemy squads On Guard fire once a turn at squad u if it is within their reach (L21, §5 B13)."""
        for e in self.enemies[u]:
            if not self.on_guard[e, idx].any():
                continue
            q = self.m.squads[e]
            d = self.distance(u, e, idx)
            p = np.minimum(self.k[e, idx] + self.s[e, idx], q.n)
            ok = self.on_guard[e, idx] & ~self.reacted[e, idx] & (self.k[u, idx] < self.size[u, 0])
            ok &= q.reach[AIMED, p] >= d
            if ok.any():
                sel = idx[ok]
                self.reacted[e, sel] = True
                self.fire(e, np.full(sel.size, u), sel, d[ok], AIMED, aimed=False)

    # Activation ---------------------------------------------------------------------------------------------
    def activate(self, u: int, idx):
        q, m = self.m.squads[u], self.m
        self.pending[u, idx] = False
        self.on_guard[u, idx] = False  # On Guard ends at the unit's next activation attempt
        ok = roll_activation(self.rng, q.act_ok, np.minimum(self.s[u, idx], q.n))
        self.s[u, idx] = 0  # suppression ends after the roll (L31)
        failed = idx[~ok]
        if failed.size:
            broken = self.k[u, failed] * 2 > q.n  # more than half lost: withdraw (L25)
            self.adv[u, failed[broken]] = np.maximum(self.adv[u, failed[broken]] - m.moves["withdraw"], 0)
            self.on_guard[u, failed[~broken]] = True
            self.cur[failed] = 1 - q.side  # the initiative passes (L12)
        acted = idx[ok]
        if not acted.size:
            return
        target, d = self.nearest_enemy(u, acted)
        p = self.k[u, acted]
        aim = q.reach[AIMED, p] >= d  # in reach: stand and fire aimed (+1)
        walk_to = np.maximum(d - m.moves["walk"], MIN_GAP)
        if m.approach == "hold":  # out of reach: wait On Guard
            walk = run = np.zeros_like(aim)
            self.on_guard[u, acted[~aim]] = True
        else:  # out of reach: walk and fire what reaches then, else run
            walk = ~aim & (q.reach[WALK, p] >= walk_to)
            run = ~aim & ~walk
        if self.interrupt:
            self.react(u, acted)
        self.adv[u, acted[walk]] += d[walk] - walk_to[walk]
        self.adv[u, acted[run]] += d[run] - np.maximum(d[run] - m.moves["run"], MIN_GAP)
        alive = self.k[u, acted] < q.n
        for mask, table, aimed, dist in ((aim, AIMED, True, d), (walk, WALK, False, walk_to)):
            sel = mask & alive
            if sel.any():
                self.fire(u, target[sel], acted[sel], dist[sel], table, aimed)
        if not self.interrupt:
            self.react(u, acted)

    # The battle ---------------------------------------------------------------------------------------------
    def initiative(self, idx):
        """d6 each, ties re-rolled (L12)."""
        a = self.rng.integers(1, 7, size=idx.size)
        b = self.rng.integers(1, 7, size=idx.size)
        tie = a == b
        while tie.any():
            a[tie] = self.rng.integers(1, 7, size=int(tie.sum()))
            b[tie] = self.rng.integers(1, 7, size=int(tie.sum()))
            tie = a == b
        self.cur[idx] = np.where(a > b, 0, 1)

    def check_end(self, turn: int):
        live = self.size - self.k
        standing = [live[members].sum(axis=0) for members in self.members]
        over = ~self.done & ((standing[0] == 0) | (standing[1] == 0))
        self.winner[over] = np.where(standing[0][over] == 0, np.where(standing[1][over] == 0, OUTCOME_DRAW, 1), 0)
        self.rounds[over] = turn
        self.done |= over

    def run(self) -> dict:
        units = len(self.m.squads)
        members = [np.array(m) for m in self.members]
        self.ids = np.arange(self.n)
        self.out = {key: np.zeros(self.n, dtype=dtype) for key, dtype in self.OUT.items()}
        for turn in range(1, self.m.turns + 1):
            self.compact()
            idx = np.arange(self.ids.size)
            if not idx.size:
                break
            self.reacted[:] = False
            self.pending = self.k < self.size
            self.initiative(idx)
            for _slot in range(units):
                live = ~self.done
                waiting = [self.pending[m] for m in members]
                has = [w.any(axis=0) & live for w in waiting]
                self.cur = np.where((self.cur == 0) & ~has[0], 1, np.where((self.cur == 1) & ~has[1], 0, self.cur))
                first = [m[np.argmax(w, axis=0)] for m, w in zip(members, waiting, strict=True)]
                acting = np.where(self.cur == 0, first[0], first[1])
                acting = np.where(has[0] | has[1], acting, -1)
                for u in range(units):
                    sel = np.flatnonzero(acting == u)
                    if sel.size:
                        self.activate(u, sel)
                self.check_end(turn)
            if self.guard_to_end:
                self.on_guard[:] = False
        self.done[:] = True
        self.compact()
        return self.out

    OUT = {"winner": np.int8, "rounds": np.int16, "left_a": np.float64, "left_b": np.float64}
    _GRID = ("k", "s", "adv", "on_guard", "reacted", "pending")
    _ROW = ("done", "winner", "rounds", "cur", "ids")

    def compact(self) -> None:
        """Writes out the finished battles and drops them from the state, so later turns touch only the rest."""
        gone = self.done
        if not gone.any():
            return
        left = (self.size - self.k[:, gone]) / self.size * np.array([q.worth for q in self.m.squads])[:, None]
        ids = self.ids[gone]
        self.out["winner"][ids] = self.winner[gone]
        self.out["rounds"][ids] = self.rounds[gone]
        self.out["left_a"][ids] = left[self.side == 0].sum(axis=0)
        self.out["left_b"][ids] = left[self.side == 1].sum(axis=0)
        keep = ~gone
        for name in self._GRID:
            setattr(self, name, getattr(self, name)[:, keep])
        for name in self._ROW:
            setattr(self, name, getattr(self, name)[keep])


def simulate(match: Match, n: int, rng: np.random.Generator) -> dict:
    return Engine(match, n, rng).run()


def simulate_bout(match: Match, shooter: int, target: int, aimed: bool, n: int, rng: np.random.Generator):
    """One bout of fire, n times, through the engine's own primitives: (hits, unsaved) per trial."""
    engine = Engine(match, n, rng)
    idx = np.arange(n)
    d = engine.distance(shooter, target, idx)
    hits = engine.bout_hits(shooter, idx, d, AIMED if aimed else WALK, aimed)
    return hits, engine.unsaved(target, idx, hits)


def simulate_activation(match: Match, squad: int, suppressed: int, n: int, rng: np.random.Generator):
    """The activation roll, n times, through the engine's primitive."""
    q = match.squads[squad]
    return roll_activation(rng, q.act_ok, np.full(n, suppressed))
