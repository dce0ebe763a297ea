"""Capture (§3.12, p.42; A11) in the vectorised engine, once a round after the initiative roll.

A pilotless vehicle still standing is taken by the first soldier to reach it: a soldier on foot, not manning a
gun, of rank >= the vehicle's, whose «Ск» covers the steps to it (an enemy's: the gap between them; one of its own
side: the difference of their advances). Walking there and boarding is his activation: from then on he is aboard.
When both sides have such a soldier the side that holds the initiative this round moves first and gets there
first. The vehicle acts from the next round when captured_acts_next_round is on (A11), else at once. Taken by the
enemy it moves into its twin column (model/capture.py) with its strength and ammo; taken by its own side (re-crewed)
it keeps its column. Which soldier: the first candidate able (capture.candidates' order).
"""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota.simulate.engine.state import _refresh, _State
from rules.systems.bronepekhota.simulate.model import ABOARD, NO_PILOT, Battle


def _able(bt: Battle, S: _State, b: np.ndarray, cand: np.ndarray, steps) -> tuple[np.ndarray, np.ndarray]:
    """Per battle: whether one of the candidates can reach the vehicle now, and the first who can."""
    gun = bt.e_crew_of[cand][:, None]
    manning = (gun != bt.DUMMY) & S.alive[gun, b] & (S.pstate[gun, b] == ABOARD)
    ok = S.alive[cand].take(b, axis=1) & ~S.aboard[cand].take(b, axis=1) & ~manning
    ok &= steps <= bt.e_soldier_speed[cand][:, None]
    return ok.any(0), cand[ok.argmax(0)]


def _board(bt: Battle, S: _State, b: np.ndarray, v: int, s: np.ndarray, rnd: int) -> None:
    """Soldiers s become the pilots of vehicle column v in battles b."""
    S.pilot[v, b] = s
    S.pilot_of[s, b] = v
    S.aboard[s, b] = True
    S.adv[s, b] = S.adv[v, b]
    S.pstate[v, b] = ABOARD
    S.act_from[v, b] = rnd + (1 if bt.captured_next else 0)
    S.flying[v, b] = bt.e_flyer[v]
    _refresh(bt, S, b, s)
    _refresh(bt, S, b, np.full(b.size, v))


def _capture(bt: Battle, S: _State, rnd: int, first: np.ndarray) -> None:
    for c in bt.capture_cols:
        if bt.e_dormant[c] and not S.twin_seen[bt.e_side[c]].any():
            continue  # a twin never taken in this batch is still off the field everywhere
        loose = S.alive[c] & (S.pstate[c] == NO_PILOT) & ~S.done
        if not loose.any():
            continue
        b = np.flatnonzero(loose)
        vadv = S.adv[c].take(b).astype(np.int32)
        side = bt.e_side[c]
        own, enemy = bt.cap_own[c], bt.cap_enemy[c]
        none = np.zeros(b.size, bool)
        own_has, own_who = none, None
        if own.size:
            own_has, own_who = _able(bt, S, b, own, np.abs(S.adv[own].take(b, axis=1) - vadv))
        en_has, en_who = none, None
        if enemy.size:
            en_has, en_who = _able(bt, S, b, enemy, np.abs(bt.D - S.adv[enemy].take(b, axis=1) - vadv))
        take_own = own_has & ((first.take(b) == side) | ~en_has)
        take_en = en_has & ~take_own
        if take_own.any():
            _board(bt, S, b[take_own], c, own_who[take_own], rnd)
        if take_en.any():
            be, t = b[take_en], int(bt.e_twin[c])
            for name in ("strength", "ammo", "refills"):  # the Armlist passes with its sliders unchanged (p.42)
                getattr(S, name)[t, be] = getattr(S, name)[c, be]
            S.adv[t, be] = bt.D - S.adv[c, be]  # the same spot, measured from the other side's line
            S.alive[t, be] = True
            if bt.e_dormant[t]:
                S.twin_seen[bt.e_side[t], be] = True
            S.alive[c, be] = False
            _refresh(bt, S, be, np.full(be.size, c))
            _board(bt, S, be, t, en_who[take_en], rnd)
