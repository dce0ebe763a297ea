"""The vectorised duel: n agent-against-agent duels at once, numpy arrays over the duels.

The dice primitives here (`d20_tests`, `deal_damage`) and the steps (`shoot_step`, `melee_step`) are the only
places a simulated duel rolls or hurts; `simulate_shot` and `simulate_melee` run exactly those steps once so tests
can hold them against the exact odds of the `shoot` and `melee` actions. reference.py is the same model as a
plain-Python loop, one duel at a time.
"""

from __future__ import annotations

import numpy as np

from rules.systems.enforcers import tables
from rules.systems.enforcers.simulate.fighters import BANDS, Fighter, move_goal

OUTCOME_A, OUTCOME_B, OUTCOME_DRAW = 0, 1, -1
MAX_EXTRA_DICE = 12


def d20_tests(rng, difficulty, blessings, curses, modifier, crit_chance, settings):
    """Vectorised §3.1: (success, crit) arrays. Same rules as core.py: cancellation before the roll (L11), the
    homerule's highest die (A1), crits by the face (L43, A3)."""
    m = len(blessings)
    face = rng.integers(1, 21, m, dtype=np.int16)
    max_only = bool(settings.get("homerule_max_only"))
    if max_only and not settings.get("homerule_cancel_first", True):
        n_bless, n_curse = blessings, curses
    else:
        net = blessings - curses
        n_bless, n_curse = np.maximum(net, 0), np.maximum(-net, 0)
    result = face + modifier
    for count, sign in ((n_bless, -1), (n_curse, 1)):
        k = int(count.max(initial=0))
        if k == 0:
            continue
        k = min(k, MAX_EXTRA_DICE)
        dice = rng.integers(1, 7, (m, k), dtype=np.int16)
        if k > 1 or count.min() == 0:
            dice *= np.arange(k) < count[:, None]
        kept = dice[:, 0] if k == 1 else (dice.max(axis=1) if max_only else dice.sum(axis=1, dtype=np.int16))
        result = result + sign * kept
    crit_face = face <= crit_chance
    success = (result <= difficulty) | (crit_face & bool(settings.get("crit_auto_success", True)))
    return success, crit_face & success


class DuelState:
    """Every duel's live values; side 0 is A, side 1 is B."""

    def __init__(self, n: int, a: Fighter, b: Fighter, distance: float):
        self.n = n
        # Rows are sides (hp[0] is every duel's A): a side's values are one contiguous array.
        self.hp = np.array([np.full(n, a.hp), np.full(n, b.hp)], np.int16)
        self.ap = np.array([np.full(n, a.ap), np.full(n, b.ap)], np.int16)
        self.dist = np.full(n, float(distance))
        self.moves_last = np.zeros((2, n), np.int8)
        self.counter_used = np.zeros((2, n), bool)
        self.done = np.zeros(n, bool)
        self.winner = np.full(n, OUTCOME_DRAW, np.int8)
        self.rounds = np.zeros(n, np.int16)


class Duel:
    """Two compiled fighters, the duel's parameters and the settings; `run(n, rng)` plays n duels."""

    def __init__(self, a: Fighter, b: Fighter, params: dict, settings: dict):
        self.fighters = (a, b)
        self.params = params
        self.settings = settings
        f = self.fighters
        self.bs = np.array([x.bs for x in f])
        self.ws = np.array([x.ws for x in f])
        self.crit_bs = np.array([x.crit_bs for x in f])
        self.crit_ws = np.array([x.crit_ws for x in f])
        self.move = np.array([x.move for x in f], float)
        self.reach = np.array([x.melee.reach for x in f], float)
        self.melee_dmg = np.array([x.melee.damage for x in f])
        self.melee_kinetic = np.array([x.melee.kinetic for x in f])
        self.has_ranged = np.array([x.ranged is not None for x in f])
        self.ranged_dmg = np.array([x.ranged.damage if x.ranged else 0 for x in f])
        self.ranged_kinetic = np.array([bool(x.ranged and x.ranged.kinetic) for x in f])
        self.max_range = np.array([x.ranged.max_range() if x.ranged else -1.0 for x in f])
        self.melee_better = np.array([x.ranged is None or x.melee.damage >= x.ranged.damage for x in f])
        self.goal = np.array([move_goal(x) for x in f], float)
        self.kinetic_reduction = np.array([x.kinetic_reduction for x in f])
        # Band bounds per side: inf where a band is not given; a weapon with no bands uses the default band.
        self.bounds = np.array([[(x.ranged.bands.get(b, np.inf) if x.ranged else np.inf) for b in BANDS] for x in f])
        self.banded = np.array([bool(x.ranged and x.ranged.bands) for x in f])
        self.default_band = BANDS.index(params["default_band"])
        self.cover = tables.COVER_CURSES[params["cover"]]
        self.price = np.array([x.price for x in f], float)

    # Damage ------------------------------------------------------------------------------------------------
    def deal_damage(self, st: DuelState, idx, target: int, damage, kinetic: bool, bypass) -> None:
        """L220, L337: Kinetic damage less the Riot Gear's 4, then AP first, the rest off HP; 0 HP ends the duel."""
        left = np.maximum(damage - self.kinetic_reduction[target], 0) if kinetic else damage
        ap_row, hp_row = st.ap[target], st.hp[target]
        ap = ap_row[idx]
        absorbed = np.where(bypass, 0, np.minimum(ap, left))
        ap_row[idx] = ap - absorbed
        hp = hp_row[idx] - (left - absorbed)
        hp_row[idx] = hp
        down = idx[hp <= 0]
        st.done[down] = True
        st.winner[down] = 1 - target

    def crit_damage(self, base: int, crit):
        effect = self.settings.get("crit_effect", "none")
        if effect == "double_damage":
            return np.where(crit, 2 * base, base), False
        return base, crit if effect == "ignore_armour" else False

    # Shooting (§3.10) --------------------------------------------------------------------------------------
    def band_of(self, side: int, dist):
        """0 short, 1 medium, 2 long: the first band whose bound the distance is within."""
        if not self.banded[side]:
            return self.default_band
        short, medium, _long = self.bounds[side]
        return np.where(dist <= short, 0, np.where(dist <= medium, 1, 2))

    def shoot_step(self, st: DuelState, idx, side: int, rng) -> np.ndarray:
        foe = 1 - side
        band = self.band_of(side, st.dist[idx])
        blessings = np.zeros(len(idx), np.int16) + (band == 0)
        curses = self.cover + (band == 2) + (st.moves_last[foe][idx] >= 2)
        hit, crit = d20_tests(rng, self.bs[side], blessings, curses.astype(np.int16), 0, self.crit_bs[side],
                              self.settings)  # fmt: skip
        damage, bypass = self.crit_damage(self.ranged_dmg[side], crit[hit])
        self.deal_damage(st, idx[hit], foe, damage, self.ranged_kinetic[side], bypass)
        return hit

    # Melee (§3.12) -----------------------------------------------------------------------------------------
    def charges(self, side: int, dist, start):
        foe = 1 - side
        opponent = self.settings.get("charge_reach", "opponent") == "opponent"
        reach = self.reach[foe] if opponent else self.reach[side]
        if self.reach[side] < self.reach[foe]:  # L206: no blessing if it was already within the longer reach
            return (start > dist) & (start > reach) & (reach >= dist) & (start > self.reach[foe])
        return (start > dist) & (start > reach) & (reach >= dist)

    def may_counter(self, side: int, dist):
        own = self.settings.get("counter_reach", "opponent") == "own"
        return dist <= (self.reach[side] if own else self.reach[1 - side])

    def melee_step(self, st: DuelState, idx, side: int, start, rng) -> np.ndarray:
        """One melee attack by `side` in every duel of `idx`, and its chain of counters (the chain alternates in
        step, so the striker is the same in every duel still in it). Answers who landed the blow (-1: nobody)."""
        landed = np.full(len(idx), -1, np.int8)
        pos = np.arange(len(idx))
        striker, counter = side, False
        charge = self.charges(side, st.dist[idx], start).astype(np.int16)
        curse_per_cm = self.settings.get("reach_disadvantage", "curse_per_cm") == "curse_per_cm"
        parry_curses = self.settings.get("parry_penalty", "curses") == "curses"
        while len(pos):
            target = 1 - striker
            diff = int(self.reach[striker] - self.reach[target])
            parry = 0 if counter and not self.settings.get("parry_on_counter", True) else self.ws[target] // 5
            blessings = max(diff, 0) + (0 if counter else charge)
            curses = max(-diff, 0) * curse_per_cm + int(counter) + (parry if parry_curses else 0)
            blessings = np.zeros(len(pos), np.int16) + blessings
            curses = np.full(len(pos), curses, np.int16)
            hit, crit = d20_tests(rng, self.ws[striker], blessings, curses, 0 if parry_curses else parry,
                                  self.crit_ws[striker], self.settings)  # fmt: skip
            sub = idx[pos]
            if hit.any():
                damage, bypass = self.crit_damage(self.melee_dmg[striker], crit[hit])
                self.deal_damage(st, sub[hit], target, damage, self.melee_kinetic[striker], bypass)
                landed[pos[hit]] = striker
            # L212–214: the one struck at answers once a turn, within reach; a counter may be countered (errata).
            if counter and not self.settings.get("counter_on_counter", True):
                break
            answer = ~hit & ~st.counter_used[target][sub] & self.may_counter(target, st.dist[sub])
            st.counter_used[target][sub[answer]] = True
            pos, striker, counter = pos[answer], target, True
        return landed

    # The duel ----------------------------------------------------------------------------------------------
    def act(self, st: DuelState, idx, side: int, start, moves, rng) -> None:
        dist = st.dist[idx]
        melee = (dist <= self.reach[side]) if self.melee_better[side] else np.zeros(len(idx), bool)
        shoot = ~melee & (dist <= self.max_range[side]) if self.has_ranged[side] else np.zeros(len(idx), bool)
        move = ~melee & ~shoot
        if move.any():
            m_idx, m_dist = idx[move], dist[move]
            new = np.maximum(self.goal[side], m_dist - self.move[side])
            moved = new < m_dist
            st.dist[m_idx[moved]] = new[moved]
            moves[m_idx[moved]] += 1
        if shoot.any():
            self.shoot_step(st, idx[shoot], side, rng)
        if melee.any():
            self.melee_step(st, idx[melee], side, start[idx[melee]], rng)

    def run(self, n: int, rng: np.random.Generator) -> dict:
        st = DuelState(n, *self.fighters, self.params["distance_cm"])
        first = rng.integers(0, 2, n).astype(bool)  # round 1: the players choose who starts (a coin here)
        per_activation = self.settings.get("counter_limit", "round") == "activation"
        moves = np.zeros(n, np.int8)
        for rnd in range(1, self.params["rounds"] + 1):
            live = ~st.done
            if not live.any():
                break
            st.rounds[live] = rnd
            st.counter_used[:] = False
            for slot in (0, 1):
                # Duels where side 0 acts in this slot, then those where side 1 does: the side is a constant.
                b_acts = first if slot == 0 else ~first
                start = st.dist.copy()
                moves[:] = 0
                if per_activation:
                    st.counter_used[:] = False
                for side, group in ((0, ~b_acts), (1, b_acts)):
                    for _action in range(tables.ACTIONS_PER_ACTIVATION):
                        idx = np.nonzero(group & ~st.done)[0]
                        if not len(idx):
                            break
                        self.act(st, idx, side, start, moves, rng)
                    st.moves_last[side] = np.where(group, moves, st.moves_last[side])
            first = rng.integers(0, 2, n).astype(bool) if self.params["initiative"] == "random" else ~first
        return self.summary(st)

    def summary(self, st: DuelState) -> dict:
        return {
            "winner": st.winner.copy(),
            "rounds": st.rounds.copy(),
            "left_a": np.where(st.hp[0] > 0, self.price[0], 0.0),
            "left_b": np.where(st.hp[1] > 0, self.price[1], 0.0),
            "hp_a": st.hp[0].astype(np.int32),
            "hp_b": st.hp[1].astype(np.int32),
        }


def simulate_shot(duel: Duel, n: int, rng, *, distance: float) -> dict:
    """A shoots B once, n times: the shooting step of the duel, on its own."""
    st = DuelState(n, *duel.fighters, distance)
    hit = duel.shoot_step(st, np.arange(n), 0, rng)
    return {"hit": hit, "hp_b": st.hp[1].copy(), "ap_b": st.ap[1].copy()}


def simulate_melee(duel: Duel, n: int, rng, *, distance: float, start: float | None = None) -> dict:
    """A attacks B once in melee, n times, with the chain of counters: the melee step of the duel."""
    st = DuelState(n, *duel.fighters, distance)
    starts = np.full(n, float(distance if start is None else start))
    landed = duel.melee_step(st, np.arange(n), 0, starts, rng)
    return {"landed": landed, "hp_a": st.hp[0].copy(), "hp_b": st.hp[1].copy()}
