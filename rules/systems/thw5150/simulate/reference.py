"""The same model with plain Python loops, one battle at a time.

It mirrors engine.py step by step (same phases, same target policy, same compiled tables read as Python lists) and
exists for two reasons: tests hold the vectorised engine's outcome frequencies against it, and the benchmark
measures how much numpy gains over it. It rolls with `random.Random`, so the dice differ, not the model.
"""

from __future__ import annotations

import random

from rules.systems.thw5150.simulate.model import DEAD, DUCK, FINE, HUNKER, KD, OOF, RUNAWAY, Battle

_DAMAGE_TO_CONDITION = (FINE, KD, OOF, DEAD)


class Reference:
    def __init__(self, bt: Battle):
        self.bt = bt
        self.s = bt.settings
        self.rep = bt.rep.tolist()
        self.side = bt.side.tolist()
        self.rof = bt.rof.tolist()
        self.two_gun = bt.two_gun.tolist()
        self.outgun = bt.outgun.tolist()
        self.leader = bt.leader.tolist()
        self.cost = bt.cost.tolist()
        self.worst = bt.worst.tolist()
        self.cover = bt.cover_of_side.tolist()
        self.enemies = [e.tolist() for e in bt.enemies]
        self.hero0 = bt.hero0.tolist()

    # One figure reading a 2/1/0 test --------------------------------------------------------------------------
    def level(self, r: random.Random, rep: int, k: int, hero: bool, may_choose: bool):
        dice = [r.randint(1, 6) for _ in range(k)]
        passes = sum(1 for d in dice if d <= rep)
        became = self.s.get("hero_from_shared_roll") != "off" and not hero and dice.count(1) >= 2
        if (hero or became) and may_choose:
            return 2, became
        return min(passes, 2), became

    def volley(self, r, g, shooter, target, mod) -> bool:
        s = self.s
        dice = sorted((r.randint(1, 6) for _ in range(self.rof[shooter])), reverse=True)
        rep = self.rep[shooter] + mod
        cover = self.cover[self.side[target]]
        tcond = g["cond"][target]
        lying = g["prone"][target] or (tcond == KD and bool(s.get("knocked_down_is_prone", True)))
        empty = dice.count(1) >= 2
        mode = s.get("lucky_shot_rep", "base_then_effective")
        base = self.rep[shooter]
        allowed = (rep if mode == "effective" else base) >= 3
        aim = base if mode == "base" else rep
        hits = 0
        for d in dice:
            total = d + rep
            hit = (
                total >= 10
                or (total == 9 and not cover)
                or (total == 8 and not (cover or lying or self.two_gun[shooter]))
            )
            if d == 1 and empty and s.get("out_of_ammo_volley") == "stops":
                hit = False
            if not hit and d == 6 and allowed:
                hit = r.randint(1, 6) <= aim
            hits += hit
        # The volley's worst damage from its exact distribution given the hits (the same table as the engine).
        u = r.random()
        worst = sum(1 for p in self.worst[shooter][target][hits] if u < p)
        if empty:
            g["loaded"][shooter] = False
        if worst:
            old = g["cond"][target]
            g["cond"][target] = max(_DAMAGE_TO_CONDITION[worst], old if old >= OOF else 0)
            g["prone"][target] = False
            return False
        if tcond == HUNKER:
            g["cond"][target] = RUNAWAY
        return tcond == FINE

    def received_fire(self, r, g, target, shooter):
        s = self.s
        level, became = self.level(r, self.rep[target], 3 if self.leader[target] else 2, g["hero"][target], True)
        g["hero"][target] = g["hero"][target] or became
        loaded = g["loaded"][target]
        own = self.outgun[target] if (loaded or s.get("own_outgun_weapon") == "best") else 1
        own = own if self.rof[target] > 0 else 1
        og = self.outgun[shooter] > own
        cover = self.cover[self.side[target]]
        if level == 0:
            g["cond"][target] = HUNKER if cover else RUNAWAY
            return False, 0
        if cover and og:
            g["cond"][target] = DUCK
            g["prone"][target] = False
            return False, 0
        if not cover and og and (level == 1 or s.get("outgunned_stationary_in_open", "prone") == "prone"):
            g["prone"][target] = True
            return False, 0
        return loaded and self.rof[target] > 0, -1 if level == 1 else 0

    def firefight(self, r, g, shooter, target):
        mod = 0
        for _ in range(self.bt.params.max_exchanges):
            if not self.volley(r, g, shooter, target, mod):
                return
            back, mod = self.received_fire(r, g, target, shooter)
            if not back:
                return
            shooter, target = target, shooter

    def recover(self, r, g, f):
        was = g["cond"][f]
        k = 3 if self.leader[f] else 2
        choose = was == DUCK or self.s.get("hero_choice") == "any_test"
        level, became = self.level(r, self.rep[f], k, g["hero"][f], choose)
        g["hero"][f] = g["hero"][f] or became
        if level == 1:
            again, became2 = self.level(r, self.rep[f], k, g["hero"][f], choose)
            g["hero"][f] = g["hero"][f] or became2
            level = 0 if again == 1 else again
        g["cond"][f] = FINE if level == 2 else (OOF if was == KD else RUNAWAY)
        g["prone"][f] = False

    def pick_target(self, g, f):
        side = self.side[f]
        current = g["focus"][side]
        if g["cond"][current] == FINE:
            return current
        best, best_score = None, 0
        for e in self.enemies[side]:
            c = g["cond"][e]
            score = 3 if c == FINE else 2 if c == HUNKER else 1 if c == KD else 0
            if score > best_score:
                best, best_score = e, score
        if best is not None:
            g["focus"][side] = best
        return best

    def lead_rep(self, g, members):
        cond = g["cond"]
        acting = max((self.rep[m] for m in members if cond[m] == FINE), default=0)
        if self.s.get("activation_rep") == "highest":
            return acting
        leaders = [m for m in members if self.leader[m]]
        if not leaders:
            return acting
        return self.rep[leaders[0]] if cond[leaders[0]] in (FINE, DUCK) else acting

    def activate_side(self, r, g, side, die):
        for gi, members in enumerate(self.bt.groups):
            if self.bt.group_side[gi] != side:
                continue
            lead = self.lead_rep(g, members)
            for f in members:
                c = g["cond"][f]
                if not ((self.rep[f] >= die or lead >= die) and c in (FINE, KD, DUCK)):
                    continue
                if c != FINE:
                    self.recover(r, g, f)
                    if g["cond"][f] != FINE:
                        continue
                g["prone"][f] = False
                if not g["loaded"][f]:
                    g["loaded"][f] = True
                    continue
                if self.rof[f] == 0:
                    continue
                target = self.pick_target(g, f)
                if target is not None:
                    self.firefight(r, g, f, target)

    def fighting(self, g, side):
        return any(g["cond"][i] in (FINE, KD, DUCK) for i in range(self.bt.N) if self.side[i] == side)

    def left(self, g, side):
        fine_only = self.s.get("victory_points_count") == "fine_only"
        return sum(
            self.cost[i]
            for i in range(self.bt.N)
            if self.side[i] == side
            and (g["cond"][i] == FINE if fine_only else g["cond"][i] not in (RUNAWAY, OOF, DEAD))
        )

    def battle(self, r: random.Random):
        n = self.bt.N
        g = {"cond": [FINE] * n, "prone": [False] * n, "loaded": [True] * n, "hero": list(self.hero0),
             "focus": [self.bt.n_a, 0]}  # fmt: skip
        winner, turns = None, 0
        for turn in range(1, self.bt.params.max_turns + 1):
            turns = turn
            da, db = r.randint(1, 6), r.randint(1, 6)
            if da == db:
                for i in range(n):
                    if g["cond"][i] == FINE:
                        g["loaded"][i] = True
                continue
            first = 0 if da > db else 1
            for side in (first, 1 - first):
                self.activate_side(r, g, side, (da, db)[side])
            fa, fb = self.fighting(g, 0), self.fighting(g, 1)
            if not (fa and fb):
                winner = 0 if fa else (1 if fb else -1)
                break
        la, lb = self.left(g, 0), self.left(g, 1)
        if winner is None:
            winner = 0 if la > lb else (1 if lb > la else -1)
        return winner, turns, la, lb


def run_python(bt: Battle, n: int, seed: int) -> dict:
    """`n` battles with the plain-Python loop; the same arrays as engine.run."""
    ref = Reference(bt)
    r = random.Random(seed)
    rows = [ref.battle(r) for _ in range(n)]
    return {
        "winner": [w for w, _, _, _ in rows],
        "rounds": [t for _, t, _, _ in rows],
        "left_a": [a for _, _, a, _ in rows],
        "left_b": [b for _, _, _, b in rows],
    }
