"""The vectorised engine: n battles at once with numpy, one Python loop over turns, groups and figures.

Each figure of each battle is one byte (battle b, figure f at b * N + f): its condition in bits 0–2, prone (8),
loaded (16) and Hero (32). Every step is a few gathers from lookup tables indexed by that byte, so a firefight
between different figures in different battles is one short set of array operations. Dice are drawn from the
model's exact outcome tables (Walker's alias method: one uniform and two lookups); reference.py rolls the same
dice one by one, and the tests hold the two against each other.
"""

from __future__ import annotations

import numpy as np

from rules.systems.thw5150.simulate.model import DEAD, DUCK, FINE, HUNKER, KD, OOF, RF_RESULTS, RUNAWAY, Battle

COND, PRONE, LOADED, HERO = 7, 8, 16, 32
STATES = np.arange(64)
R_FIRE, R_FIRE_1, R_DUCK, R_PRONE, R_HUNKER, R_RUN = range(len(RF_RESULTS))
RF_OUTCOMES = 2 * len(RF_RESULTS)  # (result, double 1s)


def _tables():
    """Transitions of a figure's byte: by a volley's worst damage (0–3), by a Received Fire outcome, by Recovery."""
    cond, prone = STATES & COND, (STATES & PRONE) > 0
    keep = STATES & (LOADED | HERO)
    after_shot = np.empty((4, 64), dtype=np.int8)
    after_shot[0] = np.where(cond == HUNKER, keep | RUNAWAY, STATES)  # «обстреляют … тут же обратится в бегство»
    for worst, hurt in ((1, KD), (2, OOF), (3, DEAD)):
        severe = np.where(cond >= OOF, cond, 0)  # the worst result stands: a later die may still kill (errata §3.5)
        after_shot[worst] = keep | np.maximum(hurt, severe)  # down, so no longer prone but lying
    after_rf = np.empty((RF_OUTCOMES, 64), dtype=np.int8)
    new_cond = {R_FIRE: FINE, R_FIRE_1: FINE, R_DUCK: DUCK, R_PRONE: FINE, R_HUNKER: HUNKER, R_RUN: RUNAWAY}
    for result, c in new_cond.items():
        lying = np.where(result == R_PRONE, True, prone & (result in (R_FIRE, R_FIRE_1)))
        for became in (0, 1):
            after_rf[2 * result + became] = keep | c | np.where(lying, PRONE, 0) | (HERO if became else 0)
    fires_back = np.zeros((RF_OUTCOMES, 64), dtype=bool)
    for result in (R_FIRE, R_FIRE_1):
        fires_back[2 * result : 2 * result + 2] = (STATES & LOADED) > 0  # «РЕАГИРОВАТЬ ИЛИ НЕТ»: empty, it stays
    return after_shot.ravel(), after_rf.ravel(), fires_back.ravel()


AFTER_SHOT, AFTER_RF, FIRES_BACK = _tables()
assert (FINE, KD, DUCK, HUNKER) == (0, 1, 2, 3)  # the arithmetic tests below rely on this order


# Tests on a figure's byte by arithmetic: numpy looks a table up with int8 indexes far more slowly.
def can_act(status):
    """Normal state, Knocked Down or Duck Back: it activates (the last two take Recovery first)."""
    return (status & COND) <= DUCK


def is_fine(status):
    return (status & COND) == FINE


def standing(status):
    """Counts for points (§5 A32): not run away, out of the fight or dead."""
    return (status & COND) <= HUNKER


TARGET_SCORE = np.select([(STATES & COND) == HUNKER, (STATES & COND) == KD], [128, 64], 0).astype(np.int16)
REP_MOD = np.zeros(RF_OUTCOMES, dtype=np.int8)
REP_MOD[2 * R_FIRE_1 : 2 * R_FIRE_1 + 2] = -1


class State:
    def __init__(self, bt: Battle, n: int):
        self.status = np.tile((LOADED | np.where(bt.hero0, HERO, 0)).astype(np.int8), n)
        self.focus = [np.full(n, bt.n_a), np.zeros(n, dtype=np.int64)]  # each side's current target


def draw(tables, table, rng):
    """One outcome of alias table `table` per row (model.alias_tables)."""
    keep, alias, k = tables
    x = rng.random(table.shape[0], dtype=np.float32) * np.float32(k)
    j = x.astype(np.int64)
    at = table * k + j
    return np.where(x - j < keep[at], j, alias[at])


def exchange(bt: Battle, st: State, rng, rows, shooter, target, rep_mod):
    """One volley of `shooter` at `target` in each row (all dice at one first target) and, when it did no damage
    to a figure in normal state, the target's «ОБСТРЕЛЯН», each drawn from the model's exact tables. Applies
    everything; returns the rows where the target fires back, as (rows, new shooter, new target, Rep modifier)."""
    n_fig = bt.N
    cell = rows * n_fig + target
    was = st.status[cell].astype(np.int64)
    situation = np.where(bt.cover_of[target], 2, bt.lying[was])
    shot = draw(bt.shot_alias, ((shooter * 2 + (rep_mod < 0)) * 3 + situation) * n_fig + target, rng)
    worst, empty = shot >> 1, (shot & 1).astype(bool)
    st.status[cell] = AFTER_SHOT[worst * 64 + was]
    gun = (rows * n_fig + shooter)[empty]
    st.status[gun] &= ~LOADED  # two 1s: it must reload (L774–777)
    tested = np.flatnonzero((worst == 0) & ((was & COND) == FINE))
    rows, shooter, target, cell, was = rows[tested], shooter[tested], target[tested], cell[tested], was[tested]
    outgunned = bt.outgunned[(shooter * n_fig + target) * 2 + ((was & LOADED) > 0)]
    hero = (was & HERO) > 0
    test = draw(bt.rf_alias, (target * 2 + outgunned) * 2 + hero, rng)  # a Hero's table: his chosen pass 2
    at = test * 64 + was
    st.status[cell] = AFTER_RF[at]
    back = np.flatnonzero(FIRES_BACK[at] & bt.has_gun[target])
    return rows[back], target[back], shooter[back], REP_MOD[test[back]]


def firefight(bt: Battle, st: State, rng, rows, shooter, target):
    """Fire → Received Fire → return fire … until one side cannot fire (L654–658), at most max_exchanges volleys."""
    mod = np.zeros(rows.shape[0], dtype=np.int8)
    for _ in range(bt.params.max_exchanges):
        if rows.size == 0:
            return
        rows, shooter, target, mod = exchange(bt, st, rng, rows, shooter, target, mod)


def recover(bt: Battle, st: State, rng, rows, f: int):
    """«ВОССТАНОВЛЕНИЕ» at activation for figure f (Knocked Down or Duck Back) in these rows (L749–762): a pass 1
    re-rolls once (a second pass 1 counts as 0); a Hero recovering from Duck Back (or any test, §5 A6) takes 2."""
    cell = rows * bt.N + f
    was = st.status[cell].astype(np.int64)
    duck = (was & COND) == DUCK
    choose = duck | (bt.settings.get("hero_choice") == "any_test")
    hero = (was & HERO) > 0
    cum = bt.level_cum[bt.rep[f], 3 if bt.leader[f] else 2]  # P(pass ≤ 0), P(≤ 1), P(2 without double 1s)
    first = np.searchsorted(cum, rng.random(rows.shape[0]), side="right")  # 0, 1, 2 or 3 (double 1s)
    again = np.searchsorted(cum, rng.random(rows.shape[0]), side="right")
    became = first == 3
    level = np.minimum(first, 2)
    rerolled = (level == 1) & ~(hero & choose)
    became |= rerolled & (again == 3)
    level = np.where(rerolled, np.where(again == 1, 0, np.minimum(again, 2)), level)
    level = np.where((hero | became) & choose, 2, level)
    back = np.where(level == 2, FINE, np.where(duck, RUNAWAY, OOF))
    st.status[cell] = (was & LOADED) | np.where(hero | became, HERO, 0) | back


def pick_target(bt: Battle, st: State, rows, f: int):
    """The enemy a figure fires at. A side focuses its fire: it keeps its current target while that figure is in
    normal state, else it takes the first enemy in normal state, else a hunkered-down one, else a knocked-down one
    (roster order). Returns (target, whether there is one)."""
    side = bt.side[f]
    focus = st.focus[side]
    current = focus[rows]
    keep = is_fine(st.status[rows * bt.N + current])
    if keep.all():
        return current, keep
    again = rows[~keep]
    lo, hi = bt.enemy_span[side]  # side A's figures come first, so the enemies are one slice
    block = np.take(st.status.reshape(-1, bt.N), again, axis=0)[:, lo:hi]  # np.take: rows of a 2-D array fast
    fine = is_fine(block)
    best = fine.argmax(axis=1)
    found = fine[np.arange(again.shape[0]), best]
    if not found.all():  # nobody in normal state: a hunkered-down figure, else a knocked-down one
        rest = ~found
        score = TARGET_SCORE[block[rest].astype(np.int64)] - bt.rank[: hi - lo]
        best[rest] = score.argmax(axis=1)
        found[rest] = score[np.arange(score.shape[0]), best[rest]] > 0
    focus[again] = np.where(found, lo + best, current[~keep])
    keep[~keep] = found
    return focus[rows], keep


def group_lead_rep(bt: Battle, members: list[int], c: np.ndarray):
    """The Rep the group activates on (`c`: its members' conditions, one row per battle): its Leader's while he
    is up, else the acting Group Leader's, the highest Rep in normal state (L284–294)."""
    acting = np.where(c == FINE, bt.rep[members][None, :], 0).max(axis=1)
    leaders = [i for i, m in enumerate(members) if bt.leader[m]]
    if bt.settings.get("activation_rep") == "highest" or not leaders:
        return acting
    up = (c[:, leaders[0]] == FINE) | (c[:, leaders[0]] == DUCK)
    return np.where(up, bt.rep[members[leaders[0]]], acting)


def activate_side(bt: Battle, st: State, rng, rows, side: int, die) -> None:
    """One side's activation in these rows (`die` per row): its groups from the highest Rep down, each figure
    acting in turn: a pending Recovery first, then reload or a firefight (L424–431, L741–742, L777–778)."""
    table = st.status.reshape(-1, bt.N)
    for g, members in enumerate(bt.groups):
        if bt.group_side[g] != side or rows.size == 0:
            continue
        c = np.take(table, rows, axis=0)[:, members] & COND  # the group at its activation
        lead = group_lead_rep(bt, members, c)
        may = (np.maximum(lead[:, None], bt.rep[members][None, :]) >= die[:, None]) & (c <= DUCK)
        for i, f in enumerate(members):
            act = rows[may[:, i]]
            if act.size == 0:
                continue
            cell = act * bt.N + f
            now = st.status[cell]  # an earlier firefight of the group may have put it down
            able = can_act(now)
            act, cell, now = act[able], cell[able], now[able]
            down = (now & COND) != FINE
            if down.any():
                recover(bt, st, rng, act[down], f)
                up = is_fine(st.status[cell])
                act, cell = act[up], cell[up]
            now = st.status[cell]
            st.status[cell] = (now & ~PRONE) | LOADED  # it stands up to act; an empty weapon is reloaded
            act = act[(now & LOADED) > 0]  # reloading takes the whole activation
            if not bt.has_gun[f] or act.size == 0:
                continue
            target, ok = pick_target(bt, st, act, f)
            act, target = act[ok], target[ok]
            firefight(bt, st, rng, act, np.full(act.shape[0], f), target)


def run(bt: Battle, n: int, rng: np.random.Generator) -> dict:
    st = State(bt, n)
    table = st.status.reshape(n, bt.N)
    alive = np.ones(n, dtype=bool)
    winner = np.full(n, -1, dtype=np.int8)
    rounds = np.zeros(n, dtype=np.int16)
    for turn in range(1, bt.params.max_turns + 1):
        rows = np.nonzero(alive)[0]
        if rows.size == 0:
            break
        rounds[rows] = turn
        d = rng.integers(1, 7, size=(rows.size, 2), dtype=np.int8)  # one activation die per side
        doubles = d[:, 0] == d[:, 1]
        quiet = rows[doubles]  # doubles: nobody moves or fires; everyone in normal state reloads (L420–421)
        now = np.take(table, quiet, axis=0)
        table[quiet] = now | np.where(is_fine(now), LOADED, 0).astype(np.int8)
        rows, d = rows[~doubles], d[~doubles]
        first = np.where(d[:, 0] > d[:, 1], 0, 1)
        for phase in (0, 1):
            acting = first if phase == 0 else 1 - first
            for side in (0, 1):
                sel = acting == side
                activate_side(bt, st, rng, rows[sel], side, d[sel, side])
        # The end of the turn: a side with no figure that can act has lost (a side wiped out in the first phase
        # does nothing in the second, so checking once a turn gives the same winner).
        able = can_act(np.take(table, rows, axis=0))
        fight_a, fight_b = able[:, : bt.n_a].any(axis=1), able[:, bt.n_a :].any(axis=1)
        over = ~(fight_a & fight_b)
        ended = rows[over]
        winner[ended] = np.where(fight_a[over], 0, np.where(fight_b[over], 1, -1))
        alive[ended] = False
    counts = is_fine(table) if bt.settings.get("victory_points_count") == "fine_only" else standing(table)
    worth = counts * bt.cost[None, :]
    left = np.stack([worth[:, : bt.n_a].sum(axis=1), worth[:, bt.n_a :].sum(axis=1)], axis=1)
    rows = np.nonzero(alive)[0]  # the turn limit: points decide (§1.9)
    winner[rows] = np.where(left[rows, 0] > left[rows, 1], 0, np.where(left[rows, 1] > left[rows, 0], 1, -1))
    return {"winner": winner, "rounds": rounds, "left_a": left[:, 0].astype(float), "left_b": left[:, 1].astype(float)}


# One step at a time, for the tests that hold the engine against the exact odds of the actions ------------------
def sample_exchange(bt: Battle, n: int, rng, shooter: int, target: int, *, rep_mod: int = 0, lying: bool = False):
    """n independent volleys of `shooter` at `target` (and the target's Received Fire) from a fresh state.
    Returns the target's condition, whether the shooter ran out of ammo, the Received Fire result ("" when the
    target took damage) and whether the target became a Hero."""
    st = State(bt, n)
    rows = np.arange(n)
    cell = rows * bt.N + target
    if lying:
        st.status[cell] |= PRONE
    back_rows, _, _, mod = exchange(bt, st, rng, rows, np.full(n, shooter), np.full(n, target),
                                    np.full(n, rep_mod, dtype=np.int8))  # fmt: skip
    after = st.status[cell]
    cond = after & COND
    minus = np.zeros(n, dtype=bool)
    minus[back_rows[mod < 0]] = True
    damaged = (cond == KD) | (cond >= OOF)
    newly_prone = ((after & PRONE) > 0) & (not lying)
    result = np.select(
        [damaged, cond == DUCK, cond == HUNKER, cond == RUNAWAY, newly_prone, minus],
        ["", "duck_back", "hunker_down", "runaway", "prone", "fire_minus_1"],
        default="fire",
    )
    return {"condition": cond, "out_of_ammo": (st.status[rows * bt.N + shooter] & LOADED) == 0,
            "received_fire": result, "hero": ((after & HERO) > 0) & ~bt.hero0[target]}  # fmt: skip


def sample_recovery(bt: Battle, n: int, rng, f: int, state: int) -> np.ndarray:
    """n Recovery tests of figure f from Knocked Down or Duck Back; the condition after."""
    st = State(bt, n)
    rows = np.arange(n)
    st.status[rows * bt.N + f] = LOADED | state
    recover(bt, st, rng, rows, f)
    return st.status[rows * bt.N + f] & COND
