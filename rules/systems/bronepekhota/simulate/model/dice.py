"""Dice primitives: the only place a simulated battle rolls dice."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model.params import KILLED, PANICKED, SURVIVED


# Dice primitives: the only place a simulated battle rolls dice --------------------------------------------
def roll_dice(rng: np.random.Generator, faces, size=None) -> np.ndarray:
    """Uniform 1..faces; `faces` is a number or an array (one die per entry)."""
    if np.isscalar(faces):
        return rng.integers(1, int(faces) + 1, size=size, dtype=np.int16)
    faces = np.asarray(faces)
    shape = faces.shape if size is None else size
    return (rng.random(shape) * faces).astype(np.int16) + 1


def roll_range(rng, faces, modifier, steps, aimed=False) -> tuple[np.ndarray, np.ndarray]:
    """§7.4 I: a hit when the aimed range, roll + modifier (×2 with aimed fire, §11.1), reaches the distance in
    steps. Written as one comparison per die: roll >= steps − modifier, or roll >= ceil(steps / 2) − modifier
    when aimed (tables.aimed_range). `faces` and `modifier` are numbers or arrays shaped like `steps`."""
    steps = np.asarray(steps)
    roll = roll_dice(rng, faces, size=steps.shape) if np.isscalar(faces) else roll_dice(rng, faces)
    need = steps if aimed is False else np.where(aimed, (steps + 1) // 2, steps)
    if not (np.isscalar(modifier) and modifier == 0):
        need = need - modifier
    return roll, roll >= need


def roll_power_damage(rng, count, faces, per_die, armour) -> np.ndarray:
    """§7.4 II: `count` dice of `faces` (+ per-die modifier); each STRICTLY above the armour does 1 damage
    (tables.penetrates, compared as roll > armour − modifier). `count`, `faces`, `per_die` are numbers or arrays
    shaped like `armour`. Dice are drawn die by die ([count, …]) so the damage is a sum over the first axis."""
    armour = np.asarray(armour)
    need = armour if (np.isscalar(per_die) and per_die == 0) else armour - per_die
    if np.isscalar(count) and np.isscalar(faces):
        if count == 0:
            return np.zeros(armour.shape, dtype=np.uint8)
        rolls = roll_dice(rng, faces, size=(int(count), *armour.shape))
        through = tables.penetrates(rolls, need).view(np.uint8)
        if count == 1:
            return through[0]
        damage = through[0] + through[1]  # a handful of dice: row additions beat a reduction over a short axis
        for row in through[2:]:
            damage += row
        return damage
    count = np.broadcast_to(np.asarray(count), armour.shape)
    width = int(count.max()) if count.size else 0
    if width == 0:
        return np.zeros(armour.shape, dtype=np.int16)
    rolls = roll_dice(rng, np.broadcast_to(np.asarray(faces), (width, *armour.shape)))
    used = np.arange(width).reshape((width,) + (1,) * armour.ndim) < count
    return (tables.penetrates(rolls, need) & used).sum(0, dtype=np.int16)


@lru_cache(maxsize=64)
def _survival_table(faces: int, panic: bool) -> np.ndarray:
    """SURVIVED / PANICKED / KILLED for [armour 0..20, roll 0..faces], from tables.survival_result."""
    codes = {tables.SURVIVED: SURVIVED, tables.PANIC: PANICKED, tables.KILLED: KILLED}
    table = np.full((21, faces + 1), KILLED, dtype=np.int8)
    for armour in range(21):
        for roll in range(1, faces + 1):
            table[armour, roll] = codes[tables.survival_result(armour, roll, panic_rule=panic)]
    return table


def roll_survival(rng, armour, faces: int, panic: bool) -> np.ndarray:
    """§3.4 survival test on a d`faces`: Бр >= roll survives (equal panics with the panic rule)."""
    armour = np.asarray(armour)
    roll = roll_dice(rng, faces, size=armour.shape)
    return _survival_table(faces, panic)[np.clip(armour, 0, 20), roll]


def roll_melee(rng, attack_bonus, defence_fixed, flat, surprise=None) -> tuple[np.ndarray, np.ndarray]:
    """Table 6: attack Д6 + bonus; defence Д6 + fixed, or the fixed Броня alone (gun, vehicle without pilot).
    `surprise` (a mask, or None): those attackers roll two d6 and keep the higher (p.41); the caller leaves a
    piloted vehicle's ББ out of its `defence_fixed` there (Рис.52)."""
    attack_bonus = np.asarray(attack_bonus)
    die = roll_dice(rng, tables.MELEE_FACES, attack_bonus.shape)
    if surprise is not None and np.any(surprise):
        die = np.where(surprise, np.maximum(die, roll_dice(rng, tables.MELEE_FACES, attack_bonus.shape)), die)
    attack = die + attack_bonus
    d_die = roll_dice(rng, tables.MELEE_FACES, attack_bonus.shape)
    defence = np.where(flat, defence_fixed, d_die + np.asarray(defence_fixed))
    return attack, defence


def resolve_damage(rng, strength, damage, pilot_aboard, pilot_armour, flying, settings) -> dict:
    """§7.4 II–III on vehicles and guns (arrays, one entry per hit element): strength after damage, the pilot's
    survival test (one per shot), an emergency landing when a flying pilot dies (§3.10). Returns arrays."""
    after = _strength_after(np.asarray(strength), np.asarray(damage))
    tested = np.asarray(pilot_aboard) & (np.asarray(damage) > 0)
    pilot = np.full(after.shape, -1, dtype=np.int8)
    if tested.any():
        pilot[tested] = roll_survival(
            rng, np.asarray(pilot_armour)[tested], int(settings["survival_die"]), bool(settings["panic"])
        )
    landing = np.zeros(after.shape, dtype=np.int16)
    lands = (pilot == KILLED) & np.asarray(flying) & (after > 0)
    if lands.any():
        landing[lands] = roll_dice(rng, tables.EMERGENCY_LANDING_FACES, size=int(lands.sum()))
        after = np.where(lands, _strength_after(after, landing), after).astype(np.int16)
    return {"strength": after, "pilot": pilot, "landing": landing}


def _strength_after(strength: np.ndarray, damage: np.ndarray) -> np.ndarray:
    """tables.strength_after for arrays: the slider stops at 0 (its scalar max() misreads 1-element arrays)."""
    return np.maximum(0, strength - damage).astype(np.int16)


def blast_armour(armour, cover, blast_cover: bool):
    """The armour a grenade or blast victim rolls against: no cover bonus unless the blast_cover setting is on
    (§5 A6, A15; the grenade action and its odds read the setting the same way)."""
    return armour + cover if blast_cover else armour


def roll_initiative(rng, n: int) -> np.ndarray:
    """§3.1 with two sides: both roll a d12, ties re-rolled. Returns the side (0 = A, 1 = B) that wins."""
    winner = np.zeros(n, dtype=np.int8)
    todo = np.arange(n)
    while todo.size:
        a = roll_dice(rng, tables.INITIATIVE_FACES, todo.size)
        b = roll_dice(rng, tables.INITIATIVE_FACES, todo.size)
        winner[todo] = (b > a).astype(np.int8)
        todo = todo[a == b]
    return winner
