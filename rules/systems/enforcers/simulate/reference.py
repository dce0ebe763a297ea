"""The same duel model as model.py, as a plain-Python loop over one duel at a time (random.Random). It exists to
be read next to the vectorised engine, to check it statistically, and to measure numpy's speed-up."""

from __future__ import annotations

import random

from rules.systems.enforcers import tables
from rules.systems.enforcers.simulate.fighters import BANDS, Fighter, action_choice, move_goal
from rules.systems.enforcers.simulate.model import OUTCOME_DRAW


def d20_test(rand, difficulty, blessings, curses, modifier, crit_chance, settings) -> tuple[bool, bool]:
    face = rand(1, 20)
    max_only = bool(settings.get("homerule_max_only"))
    if max_only and not settings.get("homerule_cancel_first", True):
        n_bless, n_curse = blessings, curses
    else:
        n_bless, n_curse = max(blessings - curses, 0), max(curses - blessings, 0)
    result = face + modifier
    for count, sign in ((n_bless, -1), (n_curse, 1)):
        if count:
            dice = [rand(1, 6) for _ in range(count)]
            result += sign * (max(dice) if max_only else sum(dice))
    crit_face = face <= crit_chance
    success = result <= difficulty or (crit_face and settings.get("crit_auto_success", True))
    return success, crit_face and success


class ReferenceDuel:
    def __init__(self, a: Fighter, b: Fighter, params: dict, settings: dict):
        self.f = (a, b)
        self.params = params
        self.settings = settings

    def band(self, me: Fighter, dist: float) -> str | None:
        return me.ranged.band(dist, self.params["default_band"])

    def damage(self, hp, ap, target: int, amount: int, kinetic: bool, crit: bool) -> bool:
        """AP first, then HP; answers whether the target is down."""
        effect = self.settings.get("crit_effect", "none")
        if crit and effect == "double_damage":
            amount *= 2
        if kinetic:
            amount = max(amount - self.f[target].kinetic_reduction, 0)
        absorbed = 0 if (crit and effect == "ignore_armour") else min(ap[target], amount)
        ap[target] -= absorbed
        hp[target] -= amount - absorbed
        return hp[target] <= 0

    def shoot(self, rand, hp, ap, me: int, dist: float, moves_last) -> bool:
        shooter, foe = self.f[me], 1 - me
        band = self.band(shooter, dist)
        blessings = int(band == "short")
        curses = tables.COVER_CURSES[self.params["cover"]] + int(band == "long") + int(moves_last[foe] >= 2)
        hit, crit = d20_test(rand, shooter.bs, blessings, curses, 0, shooter.crit_bs, self.settings)
        return hit and self.damage(hp, ap, foe, shooter.ranged.damage, shooter.ranged.kinetic, crit)

    def charges(self, me: int, dist: float, start: float) -> bool:
        mine, theirs = self.f[me].melee.reach, self.f[1 - me].melee.reach
        reach = theirs if self.settings.get("charge_reach", "opponent") == "opponent" else mine
        already_close = start <= theirs and mine < theirs
        return start > dist and start > reach >= dist and not already_close

    def may_counter(self, me: int, dist: float) -> bool:
        own = self.settings.get("counter_reach", "opponent") == "own"
        return dist <= (self.f[me] if own else self.f[1 - me]).melee.reach

    def melee(self, rand, hp, ap, me: int, dist: float, start: float, counter_used) -> bool:
        s = self.settings
        striker, counter = me, False
        while True:
            target = 1 - striker
            att, dfn = self.f[striker], self.f[target]
            diff = att.melee.reach - dfn.melee.reach
            blessings = max(diff, 0) + (int(self.charges(me, dist, start)) if not counter else 0)
            curses = (max(-diff, 0) if s.get("reach_disadvantage", "curse_per_cm") == "curse_per_cm" else 0) + counter
            parry = dfn.ws // tables.PARRY_STEP if (not counter or s.get("parry_on_counter", True)) else 0
            modifier = 0
            if s.get("parry_penalty", "curses") == "curses":
                curses += parry
            else:
                modifier = parry
            hit, crit = d20_test(rand, att.ws, blessings, curses, modifier, att.crit_ws, s)
            if hit:
                return self.damage(hp, ap, target, att.melee.damage, att.melee.kinetic, crit)
            if counter and not s.get("counter_on_counter", True):
                return False
            if counter_used[target] or not self.may_counter(target, dist):
                return False
            counter_used[target] = True
            striker, counter = target, True

    def one(self, rand) -> tuple[int, int, list[int]]:
        hp = [self.f[0].hp, self.f[1].hp]
        ap = [self.f[0].ap, self.f[1].ap]
        dist = float(self.params["distance_cm"])
        moves_last = [0, 0]
        first = rand(0, 1)
        per_activation = self.settings.get("counter_limit", "round") == "activation"
        for rnd in range(1, self.params["rounds"] + 1):
            counter_used = [False, False]
            for me in (first, 1 - first):
                start, moves = dist, 0
                if per_activation:
                    counter_used = [False, False]
                for _action in range(tables.ACTIONS_PER_ACTIVATION):
                    fighter = self.f[me]
                    choice = action_choice(fighter, dist)
                    down = False
                    if choice == "move":
                        new = max(move_goal(fighter), dist - fighter.move)
                        if new < dist:
                            dist, moves = new, moves + 1
                    elif choice == "shoot":
                        down = self.shoot(rand, hp, ap, me, dist, moves_last)
                    else:
                        down = self.melee(rand, hp, ap, me, dist, start, counter_used)
                    if down or hp[0] <= 0 or hp[1] <= 0:
                        return (0 if hp[1] <= 0 else 1), rnd, hp
                moves_last[me] = moves
            first = rand(0, 1) if self.params["initiative"] == "random" else 1 - first
        return OUTCOME_DRAW, self.params["rounds"], hp

    def run(self, n: int, seed: int) -> dict:
        rand = random.Random(seed).randint
        out = {"winner": [], "rounds": [], "left_a": [], "left_b": [], "hp_a": [], "hp_b": []}
        for _ in range(n):
            winner, rounds, hp = self.one(rand)
            out["winner"].append(winner)
            out["rounds"].append(rounds)
            out["left_a"].append(self.f[0].price if hp[0] > 0 else 0)
            out["left_b"].append(self.f[1].price if hp[1] > 0 else 0)
            out["hp_a"].append(hp[0])
            out["hp_b"].append(hp[1])
        return out


__all__ = ["BANDS", "ReferenceDuel"]
