"""The tables and small rules of «Бронепехота» as pure functions (spec §3). No dice are rolled here.

Shared by the resolvers (actions/), the exact odds and the balance simulator (simulate.py): one rule, one place.
Probabilities are exact `Fraction`s. Functions that only compare numbers (`penetrates`, `survival_result`,
`armour_test_safe`, `melee_*_strength`, `steps_from_cm`) also work element-wise on numpy arrays.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rules.i18n import N_

STEP_CM = 5  # 1 step = 5 cm (p.11)

# Table 5 (p.31): how much of the target is visible -> armour bonus for the damage roll only.
# "half" (exactly half hidden) is not in the table: §5 A21, setting `cover_exactly_half`.
COVER_NONE = "none"
COVER_OVER_HALF_VISIBLE = "over_half_visible"  # less than half hidden: +1
COVER_UNDER_HALF_VISIBLE = "under_half_visible"  # more than half hidden: +3
COVER_EXACTLY_HALF = "exactly_half"
COVER_HIDDEN = "hidden"  # not visible: the shot is impossible
COVER_BONUS = {COVER_NONE: 0, COVER_OVER_HALF_VISIBLE: 1, COVER_UNDER_HALF_VISIBLE: 3}
COVER_CHOICES = (COVER_NONE, COVER_OVER_HALF_VISIBLE, COVER_EXACTLY_HALF, COVER_UNDER_HALF_VISIBLE, COVER_HIDDEN)
COVER_LABELS = {
    COVER_NONE: N_("Fully visible (+0)"),
    COVER_OVER_HALF_VISIBLE: N_("More than half visible (+1)"),
    COVER_EXACTLY_HALF: N_("Exactly half hidden (A21)"),
    COVER_UNDER_HALF_VISIBLE: N_("Less than half visible (+3)"),
    COVER_HIDDEN: N_("Not visible (no shot)"),
}

# Table 3 (p.25): real-shooting charges: power = damage on a standing target and ammo cost.
CHARGE_POWER = {"shell": 2, "mine": 3, "rocket": 4}
MORTAR_ONLY_CHARGES = frozenset({"mine"})  # "firing mines from vehicle launchers is forbidden" (p.22)

# Grenade (p.36, Рис.44): range Д6, power 1Д20, blast 1 step with 1Д20.
GRENADE_RANGE_FACES = 6
GRENADE_BLAST_STEPS = 1
GRENADE_POWER = (1, 20)

EMERGENCY_LANDING_FACES = 6  # D6 damage when a flyer's pilot dies in the air (p.19)
INITIATIVE_FACES = 12  # §3.1
HELIX_REPAIR_AMOUNT = 2  # §3.11, p.48
INFANTRY_REPAIR_AMOUNT = 1  # §3.11, p.43
MELEE_FACES = 6  # Table 6: every melee die is a d6
REAL_ARMOUR_TEST_STANDING = 12  # §3.5: Д12 if the vehicle stayed standing
REAL_ARMOUR_TEST_FALLEN = 20  # Д20 if it fell or was already lying


# Distances ------------------------------------------------------------------------------------------------
def steps_from_cm(cm):
    """Shooting distance in steps: cm / 5 rounded UP (p.31). 21 cm -> 5 steps (G12)."""
    try:
        # str() first: 20.1 cm typed in means 20.1 exactly, not the nearest binary float
        return math.ceil(Fraction(str(cm) if isinstance(cm, float) else cm) / STEP_CM)
    except (TypeError, ValueError):  # numpy arrays
        import numpy as np

        return np.ceil(np.asarray(cm) / STEP_CM).astype(int)


def cover_bonus(cover: str, *, exactly_half_bonus: int = 1) -> int:
    """Table 5. Raises ValueError for "hidden" (a shot at an invisible target is impossible)."""
    if cover == COVER_HIDDEN:
        raise ValueError("a target that is not visible cannot be shot (Table 5)")
    if cover == COVER_EXACTLY_HALF:
        return exactly_half_bonus
    return COVER_BONUS[cover]


# Virtual shooting: hit and penetration (§3.7.3) --------------------------------------------------------
def aimed_range(roll: int, modifier: int, *, aimed: bool = False) -> int:
    """Aimed range = roll + modifier; doubled by aimed fire (§11.1): (roll + mod) × 2 (G26)."""
    value = roll + modifier
    return value * 2 if aimed else value


def hit_probability(faces: int, modifier: int, steps: int, *, aimed: bool = False) -> Fraction:
    """P(aimed range >= steps) for a range die `faces` + `modifier` (hit table §3.7.3)."""
    hits = sum(1 for r in range(1, faces + 1) if aimed_range(r, modifier, aimed=aimed) >= steps)
    return Fraction(hits, faces)


def penetrates(roll, armour):
    """One power die does one damage when its result is STRICTLY greater than the armour (p.32, G13)."""
    return roll > armour


def penetration_probability(faces: int, armour: int, *, per_die_modifier: int = 0) -> Fraction:
    """P(roll + per_die_modifier > armour) for one power die: (X − A)/X clamped to [0, 1]."""
    good = sum(1 for r in range(1, faces + 1) if r + per_die_modifier > armour)
    return Fraction(good, faces)


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Exact distribution of the number of successes among n independent dice each succeeding with p."""
    q = 1 - p
    return {k: math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}


def damage_distribution(count: int, faces: int, armour: int, *, per_die_modifier: int = 0) -> dict[int, Fraction]:
    """Damage of `count`Д`faces` against `armour` (already including cover): one per die strictly above."""
    return binomial(count, penetration_probability(faces, armour, per_die_modifier=per_die_modifier))


def strength_after(strength, damage):
    """The strength slider after damage: never below 0; 0 means destroyed (§2.4)."""
    try:
        return max(0, strength - damage)
    except ValueError:  # numpy arrays
        import numpy as np

        return np.maximum(0, strength - damage)


# Survival and armour tests (§3.4, §3.5) ---------------------------------------------------------------
SURVIVED = "survived"
PANIC = "panic"
KILLED = "killed"
DUE = "due"  # a pilot test left to the pilot's own player (setting pilot_tests)


def survival_result(armour: int, roll: int, *, panic_rule: bool = False) -> str:
    """Бр >= roll: survives; with the panic rule (§11.2) an equal roll survives but panics; else killed (G8)."""
    if armour >= roll:
        return PANIC if (panic_rule and armour == roll) else SURVIVED
    return KILLED


def survival_probabilities(armour: int, faces: int = 6, *, panic_rule: bool = False) -> dict[str, Fraction]:
    """{survived, panic, killed} for a survival test on a die with `faces` (survival table §3.4)."""
    out = {SURVIVED: Fraction(0), PANIC: Fraction(0), KILLED: Fraction(0)}
    for r in range(1, faces + 1):
        out[survival_result(armour, r, panic_rule=panic_rule)] += Fraction(1, faces)
    return out


def armour_test_safe(strength, roll):
    """Real-mode armour test (§3.5): the pilot is safe when the current Броня >= the roll (G11)."""
    return strength >= roll


def armour_test_die(*, fell: bool, was_lying: bool) -> int:
    """Д12 if the vehicle stayed standing, Д20 if it fell or was already lying (Table 4)."""
    return REAL_ARMOUR_TEST_FALLEN if (fell or was_lying) else REAL_ARMOUR_TEST_STANDING


def armour_test_probabilities(
    strength: int, faces: int, pilot_armour: int, *, survival_faces: int = 6, panic_rule: bool = False
) -> dict[str, Fraction]:
    """{safe, survived, panic, killed}: armour test, then the pilot's survival test when pierced."""
    safe = Fraction(sum(1 for r in range(1, faces + 1) if armour_test_safe(strength, r)), faces)
    pierced = 1 - safe
    surv = survival_probabilities(pilot_armour, survival_faces, panic_rule=panic_rule)
    return {"safe": safe, **{k: pierced * v for k, v in surv.items()}}


# Real shooting (Table 4) -------------------------------------------------------------------------------
def real_hit_damage(charge: str, *, fell: bool, was_lying: bool) -> int:
    """Damage to a vehicle or gun from a real hit: P if it stayed standing, 2P if it fell or was lying."""
    power = CHARGE_POWER[charge]
    return 2 * power if (fell or was_lying) else power


def real_ammo_cost(charge: str) -> int:
    """Real-mode ammo cost of one shot = the charge power (Table 3, G10)."""
    return CHARGE_POWER[charge]


def virtual_ammo_cost(power_dice: int) -> int:
    """Virtual-mode ammo cost of one shot = the number of power dice (p.35, G15)."""
    return power_dice


def ammo_after(ammo: int, cost: int) -> int:
    """The ammo slider after a shot: clamps at 0 (literal reading of §5 A7)."""
    return max(0, ammo - cost)


# Melee (Tables 6 and 7, §3.9) -----------------------------------------------------------------------
def melee_attack_strength(die, *, kind: str, melee: int = 0, strength: int = 0):
    """Table 6 attack: infantry Д6 + ББ; a piloted vehicle Д6 + Броня + ББ (sum of its melee weapons)."""
    if kind == "infantry":
        return die + melee
    if kind == "vehicle":
        return die + strength + melee
    raise ValueError(f"a {kind} does not attack in melee (Table 6)")


def melee_defence_strength(die, *, kind: str, armour: int = 0, strength: int = 0, melee: int = 0, surprise=False):
    """Table 6 defence: infantry Д6 + Бр; piloted vehicle Д6 + Броня + ББ (no ББ under surprise, p.41);
    a gun or pilotless vehicle: Броня with no die (pass die=0 or anything: it is ignored)."""
    if kind == "infantry":
        return die + armour
    if kind == "vehicle":
        return die + strength + (0 if surprise else melee)
    if kind in ("gun", "pilotless"):
        return strength
    raise ValueError(f"unknown melee element kind {kind!r}")


def melee_attack_die_distribution(*, surprise: bool) -> dict[int, Fraction]:
    """The attacker's die: one d6, or the higher of two d6 with surprise (p.41)."""
    if not surprise:
        return {v: Fraction(1, 6) for v in range(1, 7)}
    return {v: Fraction(2 * v - 1, 36) for v in range(1, 7)}


def melee_win_probability(delta: int, *, surprise: bool = False) -> Fraction:
    """P(attacker wins) when both roll a d6 and Δ = attacker's fixed bonus − defender's (melee table §3.9).
    The attacker wins only when strictly greater; a tie repels."""
    attack = melee_attack_die_distribution(surprise=surprise)
    return sum(
        (pa * Fraction(1, 6) for a, pa in attack.items() for d in range(1, 7) if a + delta > d),
        Fraction(0),
    )


def melee_win_probability_flat(bonus: int, defence: int, *, surprise: bool = False) -> Fraction:
    """P(d6 + bonus > flat defence) against a gun or pilotless vehicle."""
    attack = melee_attack_die_distribution(surprise=surprise)
    return sum((p for a, p in attack.items() if a + bonus > defence), Fraction(0))


def melee_damage(attack: int, defence: int) -> int:
    """Table 7: a losing vehicle or gun takes attack − defence damage; 0 when repelled."""
    return max(0, attack - defence)


# Initiative and disputes (§3.1, §3.14) ---------------------------------------------------------------
def roll_off_winner_probability(players: int) -> Fraction:
    """With re-rolls among the tied, the roll-off is fair: each of n players wins with 1/n."""
    return Fraction(1, players)


def roll_off_decided_first_time(players: int, faces: int) -> Fraction:
    """P(the highest result is unique on the first roll) for n players on a die with `faces`."""
    total = Fraction(0)
    for top in range(1, faces + 1):
        # one player rolls `top`, all others lower
        total += players * Fraction(1, faces) * Fraction(top - 1, faces) ** (players - 1)
    return total


# Jump pack (§3.3.2, Table 8) ------------------------------------------------------------------------
def jump_height(rise: int, *, downward_rule: str = "zero") -> int:
    """Height counted for a jump: a rise counts; a drop counts 0 (§5 A12) or its size ("absolute")."""
    if rise >= 0:
        return rise
    return 0 if downward_rule == "zero" else -rise


def jump_allowed(max_steps: int, length: int, rise: int, *, downward_rule: str = "zero") -> bool:
    """length + height <= N (Table 8; G22–G24)."""
    return length + jump_height(rise, downward_rule=downward_rule) <= max_steps


def jump_table(max_steps: int) -> list[tuple[int, int]]:
    """Table 8: every (length, height) whose sum is exactly N."""
    return [(max_steps - h, h) for h in range(max_steps + 1)]


# Movement costs (Table 1, Table 2; G3, G4, G6) --------------------------------------------------------
def climb_cost(vertical_steps: Fraction | float) -> Fraction:
    """Climbing a wall or support costs 2 SP per step (Table 1): 1.5 steps -> 3 SP (G3)."""
    return 2 * Fraction(vertical_steps).limit_denominator(100)


def mobile_gun_distance_cm(speed_points: int) -> Fraction:
    """Moving a mobile gun: each SP gives half a step, 2.5 cm (p.14): 3 SP -> 7.5 cm (G4)."""
    return Fraction(STEP_CM, 2) * speed_points


def vehicle_move_cost(ops: list[tuple[str, int]], locomotion: str) -> int:
    """SP for a list of (op, amount): ("forward", steps), ("back", steps), ("side", steps), ("turn", degrees).
    Table 2. Raises ValueError for a move the locomotion cannot make. 1 back + turn + 2 forward = 4 SP (G6)."""
    sp = 0
    for op, amount in ops:
        if op == "forward":
            sp += amount
        elif op == "back":
            if locomotion == "flying":
                raise ValueError("a flying vehicle cannot move backward (Table 2)")
            sp += amount if locomotion in ("wheeled", "tracked") else 2 * amount
        elif op == "side":
            if locomotion != "walker":
                raise ValueError("only walkers move sideways (Table 2)")
            sp += 2 * amount
        elif op == "turn":
            sp += 1 if locomotion != "flying" else max(1, math.ceil(amount / 90))
        else:
            raise ValueError(f"unknown move {op!r}")
    return sp


def speed_for_strength(speed_sectors: list[dict], strength: int) -> int:
    """Speed from the coloured sector holding the strength slider (p.15, G5); 0 when no sector holds it."""
    for sector in speed_sectors:
        if sector["min"] <= strength <= sector["max"]:
            return sector["speed"]
    return 0


def can_pilot(soldier_rank: int, vehicle_rank: int) -> bool:
    """A pilot (or gun crew) needs Rank >= the Armlist's «Армейский ранг» (p.7, G2, G28)."""
    return soldier_rank >= vehicle_rank
