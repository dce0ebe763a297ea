"""Capture (§3.12, p.42 §9.1–9.2; A11), the static part: which soldiers may take which vehicle.

A vehicle changes sides when an enemy soldier captures it. The engines keep every side's elements in its own
columns, so each vehicle the enemy could pilot gets a twin: a copy of it on the enemy's side that starts off the
field (`e_dormant`). A capture by the enemy moves the vehicle into its twin (strength, ammo and position carried
over, "the Armlist passes with the sliders unchanged"); recapturing it moves it back. A capture by its own side
(re-crewing, A11) keeps the column and changes the pilot. Who may capture: any soldier of rank >= the vehicle's
(p.42 note), in the order a roster's pilots are chosen (the cheapest: lowest rank, then one without a ranged
weapon, then the last in roster order).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model.forces import Force, _El, _Unit
from rules.systems.bronepekhota.simulate.model.params import SOLDIER, VEHICLE


def _soldiers(force: Force) -> list[_El]:
    return [m for u in force.units for m in u.members if m.kind == SOLDIER]


def candidates(soldiers: list[_El], rank: int) -> list[_El]:
    """The soldiers who may pilot a vehicle of `rank`, the first preferred (forces.Force._cheapest's order)."""
    ok = [s for s in soldiers if tables.can_pilot(s.rank, rank)]
    return sorted(ok, key=lambda s: (s.rank, s.personal is not None, -s.order))


def add_twins(forces: list[Force]) -> None:
    """Gives every vehicle a soldier of the other side could pilot a dormant twin unit on that side (activation
    priority by cost like any unit). Twins are left out of the force's cost and description."""
    for force in forces:
        other = forces[1 - force.side]
        enemy = _soldiers(other)
        for unit in list(force.units):
            if unit.kind != VEHICLE or unit.captured:
                continue
            v = unit.members[0]
            if not candidates(enemy, v.rank):
                continue
            twin = dataclasses.replace(
                v, side=other.side, name=f"{v.name} (captured)", pilot=None, twin=v, dormant=True, index=-1
            )
            v.twin = twin
            other.units.append(_Unit(VEHICLE, other.side, twin.name, unit.cost, [twin], 10**6 + v.order, True))
    for force in forces:
        force.units.sort(key=lambda u: (-u.cost, u.order))


def compile_capture(bt) -> None:
    """The static arrays of capture on the compiled battle `bt` (after its elements, before its tables):
    e_twin (the column a vehicle moves to when the enemy takes it), e_dormant, e_rm (a soldier with «Рм»),
    cap_own / cap_enemy (per capturable vehicle column: candidate soldier columns of its side / the enemy's, the
    first preferred) and capture_cols. A vehicle without a roster pilot (a twin) reads the chance of losing its
    pilot (target values) from its first candidate; a vehicle repairs from inside (p.43–44) when its pilot, of
    the roster or a later one, has «Рм»: e_repair then says it may, and the engines check the pilot of the moment."""
    N1, dummy = bt.N + 1, bt.DUMMY
    bt.e_twin = np.full(N1, dummy, np.int32)
    bt.e_dormant = np.zeros(N1, bool)
    bt.e_rm = np.zeros(N1, bool)
    bt.e_may_pilot = np.zeros(N1, bool)
    soldiers = [[el for el in bt.columns if el.kind == SOLDIER and el.side == s] for s in (0, 1)]
    for el in soldiers[0] + soldiers[1]:
        bt.e_rm[el.index] = el.repairs
        bt.e_may_pilot[el.index] = el.pilot_of is not None
    bt.cap_own, bt.cap_enemy, bt.capture_cols = {}, {}, []
    # in activation order (twins among the roster's vehicles by cost): a soldier who could reach two loose
    # vehicles takes the first one listed
    for el in (m for u in bt.units for m in u.members):
        if el.kind != VEHICLE:
            continue
        i = el.index
        own = candidates(soldiers[el.side], el.rank)
        enemy = candidates(soldiers[1 - el.side], el.rank) if el.twin is not None else []
        bt.e_dormant[i] = el.dormant
        if el.twin is not None:
            bt.e_twin[i] = el.twin.index
        if not own and not enemy:
            continue
        bt.capture_cols.append(i)
        bt.cap_own[i] = np.array([s.index for s in own], np.intp)
        bt.cap_enemy[i] = np.array([s.index for s in enemy], np.intp)
        for s in own + enemy:
            bt.e_may_pilot[s.index] = True
        if el.pilot is None and own:
            surv = tables.survival_probabilities(
                own[0].armour, int(bt.settings["survival_die"]), panic_rule=bool(bt.settings["panic"])
            )
            bt.e_ppd[i] = float(surv[tables.KILLED])
        if not bt.e_repair[i] and any(s.repairs for s in own):
            bt.e_repair[i] = tables.INFANTRY_REPAIR_AMOUNT
    bt.capture_col_array = np.array(bt.capture_cols, np.intp)
