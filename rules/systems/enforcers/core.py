"""The core d20 test (spec §3.1, book L5–17, L43): roll under a difficulty, blessings and curses as extra d6 that
cancel before the roll, modifiers to the roll, crits by the die face, and an Intercession re-roll.

One rule, two forms here: `roll_test` rolls it through a dice source (seeded or typed in, every die recorded);
`joint_outcomes` gives the exact distribution of (die face, final result) it rolls, from which every probability of
the actions follows. Everything is exact (fractions, icepool); nothing is sampled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

import icepool

from rules import dice as dicelib
from rules.systems.enforcers.texts import T, join

D20 = 20
D6 = 6


@dataclass(frozen=True)
class RollSpec:
    """One d20 test as the rules set it up."""

    label: str  # "BS test", "WL test to keep aim" …
    difficulty: int  # the stat (or stat + a difficulty modifier, A14)
    blessings: int = 0
    curses: int = 0
    modifier: int = 0  # added to the roll (L7)
    crit_chance: int = 2  # a crit when the die shows this or less (L43)
    crit_success: bool = True  # a crit succeeds whatever the roll (A3; off under Take cover, A3 setting)
    crit_effect: bool = True  # a crit carries its effect (off against a model that took cover, L111)
    reroll: bool = False  # re-roll a failure once (Intercession, L135)
    # The test's name as its dice are recorded (an English msgid of TEST_NAMES): a die's purpose is stored in
    # English («Shooting: d20», «Melee: curse d6 2 of 3») and worded when shown (rules.dice.purpose_words), so a
    # battle written on an English phone reads in Russian on a Russian one. "": the label, as it was.
    name: str = ""


# The tests whose dice are recorded by name; each has its three purposes in the catalogue (DIE_PURPOSES).
TEST_NAMES = (
    "Test", *(f"{stat} test" for stat in ("HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD")),
    "Shooting", "Throw", "Melee", "Counter-attack", "Listen", "Medical aid HL test", "Anointing HL test",
    "TN test after the fall", "DX test to cross difficult terrain", "Fear test", "Fear re-test", "Poison TN test",
    "WL test to keep aim", "IT test to repair armour",
    *(f"TN test against {s}" for s in ("Bleeding", "Poisoned", "Burning", "Stunned", "Disoriented")),
    *(f"TN test against a {tier} injury" for tier in ("light", "medium", "critical")),
)  # fmt: skip
DIE_KINDS = ("d20", "blessing d6", "curse d6")
DIE_PURPOSES = tuple(f"{name}: {die}" for name in TEST_NAMES for die in DIE_KINDS)


def test_name(label) -> str:
    """The name of a test labelled by a plain msgid (T("Shooting")), when its dice may be recorded by it."""
    items = getattr(label, "parts", None)
    if items and len(items) == 1 and len(items[0]) == 2 and not items[0][1] and items[0][0] in TEST_NAMES:
        return items[0][0]
    return ""


# Extra dice ---------------------------------------------------------------------------------------------
def dice_plan(blessings: int, curses: int, settings: dict) -> tuple[int, int]:
    """How many blessing and curse d6 are rolled. L11: they cancel one for one before the roll; under the
    homerule with cancellation off (A1 setting) every die is rolled and the highest of each kind counts."""
    if settings.get("homerule_max_only") and not settings.get("homerule_cancel_first", True):
        return blessings, curses
    net = blessings - curses
    return max(net, 0), max(-net, 0)


def extra_total(blessing_dice: list[int], curse_dice: list[int], settings: dict) -> int:
    """What the extra dice add to the roll: blessings subtract, curses add (L11); the homerule keeps only the
    highest die of each kind (L15–17, A1)."""
    if settings.get("homerule_max_only"):
        return (max(curse_dice) if curse_dice else 0) - (max(blessing_dice) if blessing_dice else 0)
    return sum(curse_dice) - sum(blessing_dice)


@lru_cache(maxsize=512)
def _kept(count: int, max_only: bool) -> tuple[tuple[int, Fraction], ...]:
    if count == 0:
        return ((0, Fraction(1)),)
    die = icepool.d(D6).highest(count) if max_only else count @ icepool.d(D6)
    return tuple(sorted(dicelib.to_fractions(die).items()))


def extra_distribution(blessings: int, curses: int, settings: dict) -> dict[int, Fraction]:
    """Exact distribution of what the extra dice add to the roll."""
    n_bless, n_curse = dice_plan(blessings, curses, settings)
    max_only = bool(settings.get("homerule_max_only"))
    out: dict[int, Fraction] = {}
    for b, pb in _kept(n_bless, max_only):
        for c, pc in _kept(n_curse, max_only):
            out[c - b] = out.get(c - b, Fraction(0)) + pb * pc
    return out


# Success ------------------------------------------------------------------------------------------------
def is_crit_face(spec: RollSpec, face: int) -> bool:
    return face <= spec.crit_chance


def succeeds(spec: RollSpec, face: int, result: int) -> bool:
    """L5: the result at or under the difficulty; A3: a crit face succeeds whatever the result."""
    return result <= spec.difficulty or (spec.crit_success and is_crit_face(spec, face))


def is_crit(spec: RollSpec, face: int, result: int) -> bool:
    """A critical success that carries its effect: a crit face on a successful test (L43)."""
    return spec.crit_effect and is_crit_face(spec, face) and succeeds(spec, face, result)


# Exact --------------------------------------------------------------------------------------------------
def joint_outcomes(spec: RollSpec, settings: dict) -> dict[tuple[int, int, bool], Fraction]:
    """Exact distribution of the final (d20 face, result, re-rolled) of the test: a failure is re-rolled once if
    `spec.reroll` (the whole test, or only the d20: the reroll_scope setting)."""
    extra = extra_distribution(spec.blessings, spec.curses, settings)
    face_p = Fraction(1, D20)
    out: dict[tuple[int, int, bool], Fraction] = {}

    def add(key, p):
        out[key] = out.get(key, Fraction(0)) + p

    whole = settings.get("reroll_scope", "whole_test") == "whole_test"
    if not spec.reroll or whole:
        base: dict[tuple[int, int], Fraction] = {}
        for e, pe in extra.items():
            for face in range(1, D20 + 1):
                key = (face, face + spec.modifier + e)
                base[key] = base.get(key, Fraction(0)) + pe * face_p
        p_fail = sum((p for (f, r), p in base.items() if not succeeds(spec, f, r)), Fraction(0))
        for (f, r), p in base.items():
            if not spec.reroll or succeeds(spec, f, r):
                add((f, r, False), p)
            if spec.reroll:
                add((f, r, True), p_fail * p)
        return out
    for e, pe in extra.items():  # d20 only: the extra dice stay for the re-roll
        for first in range(1, D20 + 1):
            result = first + spec.modifier + e
            if succeeds(spec, first, result):
                add((first, result, False), pe * face_p)
                continue
            for second in range(1, D20 + 1):
                add((second, second + spec.modifier + e, True), pe * face_p * face_p)
    return out


def p_success(spec: RollSpec, settings: dict) -> Fraction:
    return sum((p for (f, r, _), p in joint_outcomes(spec, settings).items() if succeeds(spec, f, r)), Fraction(0))


def odds_of_test(spec: RollSpec, settings: dict) -> dict[str, Fraction]:
    """P(success), P(failure) and P(crit) of one test."""
    joint = joint_outcomes(spec, settings)
    zero = Fraction(0)
    ok = sum((p for (f, r, _), p in joint.items() if succeeds(spec, f, r)), zero)
    crit = sum((p for (f, r, _), p in joint.items() if is_crit(spec, f, r)), zero)
    return {"success": ok, "failure": 1 - ok, "crit": crit}


# Rolling ------------------------------------------------------------------------------------------------
def _roll_dice(dice, spec: RollSpec, die: str, count: int, faces: int, again: bool) -> list[int]:
    """The dice of a named test, each with its purpose in English («Melee: curse d6 2 of 3 (re-roll 1)»)."""
    suffix = " (re-roll 1)" if again else ""
    if count == 1 and die == "d20":
        return [dice.roll(faces, f"{spec.name}: {die}{suffix}")]
    return [dice.roll(faces, f"{spec.name}: {die}{suffix} {i} of {count}") for i in range(1, count + 1)]


def _roll_once(dice, spec: RollSpec, settings: dict, *, keep_extra: tuple[list, list] | None = None,
               again: bool = False) -> dict:  # fmt: skip
    n_bless, n_curse = dice_plan(spec.blessings, spec.curses, settings)
    if spec.name:
        face = _roll_dice(dice, spec, "d20", 1, D20, again)[0]
        if keep_extra is None:
            bless = _roll_dice(dice, spec, "blessing d6", n_bless, D6, again) if n_bless else []
            curse = _roll_dice(dice, spec, "curse d6", n_curse, D6, again) if n_curse else []
        else:
            bless, curse = keep_extra
    elif keep_extra is None:
        face = dice.roll(D20, T("{label}: d20", label=spec.label))
        bless = dice.roll_many(n_bless, D6, T("{label}: blessing d6", label=spec.label)) if n_bless else []
        curse = dice.roll_many(n_curse, D6, T("{label}: curse d6", label=spec.label)) if n_curse else []
    else:
        face = dice.roll(D20, T("{label}: d20", label=spec.label))
        bless, curse = keep_extra
    extra = extra_total(bless, curse, settings)
    result = face + spec.modifier + extra
    return {
        "d20": face,
        "blessing_dice": bless,
        "curse_dice": curse,
        "extra": extra,
        "modifier": spec.modifier,
        "result": result,
        "success": succeeds(spec, face, result),
        "crit": is_crit(spec, face, result),
    }


def roll_test(dice, spec: RollSpec, settings: dict) -> dict:
    """Rolls the test: the d20 first, then the blessing and curse d6 (each recorded with its purpose); a failure
    is re-rolled once when `spec.reroll`. Answers the final roll plus the first one if it was re-rolled."""
    first = _roll_once(dice, spec, settings)
    record = {"label": spec.label, "difficulty": spec.difficulty, **first, "rerolled": False}
    if spec.reroll and not first["success"]:
        keep = None
        if settings.get("reroll_scope", "whole_test") == "d20_only":
            keep = (first["blessing_dice"], first["curse_dice"])
        again = _roll_once(dice, replace(spec, label=spec.label + T(" (re-roll)")), settings, keep_extra=keep,
                           again=True)  # fmt: skip
        record.update(again, rerolled=True, first=first)
    record["line"] = describe(record)
    return record


def describe(record: dict) -> str:
    """«BS test: d20 7 − blessing [5] = 2 against 12: success (crit).» as a Text, read in the reader's language."""
    parts = [T("d20 {face}", face=record["d20"])]
    if record["modifier"]:
        parts.append(f"{record['modifier']:+d}")
    if record["blessing_dice"]:
        parts.append(T("− blessing {dice}", dice=record["blessing_dice"]))
    if record["curse_dice"]:
        parts.append(T("+ curse {dice}", dice=record["curse_dice"]))
    verdict = verdict_text(record["success"], record["crit"])
    line = T("{label}: {roll} = {result} against {difficulty}: {verdict}.", label=record["label"],
             roll=join(" ", parts), result=record["result"], difficulty=record["difficulty"], verdict=verdict)  # fmt: skip
    if record.get("rerolled"):
        line = T("{label}: first roll failed ({first}), re-rolled: ", label=record["label"],
                 first=record["first"]["result"]) + line  # fmt: skip
    return line


def verdict_text(success: bool, crit: bool) -> str:
    if not success:
        return T("failure")
    return T("success (critical)") if crit else T("success")
