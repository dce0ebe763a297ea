"""rules/dice.py: notation as the books write it, recorded rolling (seeded and typed in), exact distributions."""

from fractions import Fraction as F

import pytest

from rules import dice
from rules.dice import DiceExpr, DiceInputError, DiceNotationError, SeededDice, TableDice


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Д6", (1, 6, 0)),
        ("2Д12", (2, 12, 0)),
        ("Д6+2", (1, 6, 2)),
        ("1Д20", (1, 20, 0)),
        ("D12", (1, 12, 0)),
        ("3d6", (3, 6, 0)),
        ("Д12 + 2", (1, 12, 2)),
        ("6 Д20", (6, 20, 0)),
        ("1 Д20", (1, 20, 0)),
        ("4 Д12", (4, 12, 0)),
        ("д6-1", (1, 6, -1)),
        ("2к6", (2, 6, 0)),  # the Russian «к» of other books
        (" D20 − 1 ", (1, 20, -1)),
        ("3d10", (3, 10, 0)),  # any faces in general parsing
    ],
)
def test_parse_notation(text, expected):
    expr = dice.parse(text)
    assert (expr.count, expr.faces, expr.modifier) == expected


@pytest.mark.parametrize("text", ["–", "-", "—", "", "  ", None])
def test_dash_means_no_weapon(text):
    assert dice.parse(text) is None
    assert dice.is_none(text)


@pytest.mark.parametrize(
    ("text", "faces", "message"),
    [
        ("Д7", (6, 12, 20), "'Д7': a die must be d6, d12 or d20"),
        ("2Д", None, "'2Д': the number of faces is missing after Д"),
        ("Д6+", None, "'Д6+': the number after '+' is missing"),
        ("0Д6", None, "'0Д6': the number of dice must be 1 or more"),
        ("Д1", None, "'Д1': a die must have 2 to 100 faces"),
        ("Д101", None, "'Д101': a die must have 2 to 100 faces"),
        ("x", None, "'x': not dice notation"),
        ("ББ/2", None, "'ББ/2': this is a melee value"),
        ("2Д6Д6", None, "not dice notation"),
        (7, None, "must be text"),
    ],
)
def test_bad_notation_names_the_bad_part(text, faces, message):
    with pytest.raises(DiceNotationError) as exc:
        dice.parse(text, faces=faces, field="weapon.range")
    assert message in exc.value.errors["weapon.range"]


def test_range_cell_is_a_single_die():
    with pytest.raises(DiceNotationError) as exc:
        dice.parse("2Д6", single_die=True)
    assert "one die" in exc.value.errors["notation"]


@pytest.mark.parametrize(("text", "value"), [("ББ/2", 2), ("ББ2", 2), ("ББ 1", 1), ("BB/3", 3), ("4", 4), (2, 2)])
def test_parse_melee(text, value):
    assert dice.parse_melee(text) == value


@pytest.mark.parametrize("text", ["ББ/", "Д6", -1, True, "ББ/x"])
def test_bad_melee_value(text):
    with pytest.raises(DiceNotationError):
        dice.parse_melee(text)


def test_parse_cell_tells_dice_from_melee():
    assert dice.parse_cell("ББ/2") == dice.MeleeValue(2)
    assert dice.parse_cell("2Д6") == DiceExpr(2, 6)
    assert dice.parse_cell("–") is None


def test_notation_round_trip():
    assert DiceExpr(1, 6, 2).notation() == "Д6+2"
    assert DiceExpr(3, 20).notation("D") == "3D20"
    assert str(DiceExpr(2, 12, -1)) == "2Д12-1"


def test_seeded_dice_are_reproducible_and_recorded():
    a, b = SeededDice(42), SeededDice(42)
    rolls_a = [a.roll(12, "range roll") for _ in range(50)]
    rolls_b = [b.roll(12, "range roll") for _ in range(50)]
    assert rolls_a == rolls_b
    assert all(1 <= r <= 12 for r in rolls_a)
    assert a.rolls[0].kind == "d12"
    assert a.rolls[0].faces == 12
    assert a.rolls[0].purpose == "range roll"
    assert len(set(rolls_a)) > 5
    many = SeededDice(1).roll_many(3, 6, "power die")
    assert len(many) == 3


def test_seeded_dice_cover_every_face():
    d = SeededDice(7)
    seen = {d.roll(20, "x") for _ in range(2000)}
    assert seen == set(range(1, 21))


def test_roll_many_numbers_the_purposes():
    d = TableDice([1, 2, 3])
    d.roll_many(3, 6, "power die")
    assert [r.purpose for r in d.rolls] == ["power die 1 of 3", "power die 2 of 3", "power die 3 of 3"]


def test_table_dice_checks_each_value_against_its_die():
    d = TableDice([12, 7])
    assert d.roll(12, "range roll") == 12
    with pytest.raises(DiceInputError) as exc:
        d.roll(6, "power die 1 of 1")
    assert exc.value.errors["dice"] == "Die 2 is 7, but it is a d6 (power die 1 of 1): 1 to 6."


def test_table_dice_running_out_counts_what_was_needed():
    d = TableDice([3])
    d.roll(6, "range roll")
    with pytest.raises(DiceInputError) as exc:
        d.roll(6, "power die 1 of 2")
    message = exc.value.errors["dice"]
    assert "die 2" in message
    assert "1 was typed in" in message
    assert "at least 2" in message


def test_table_dice_leftovers_are_an_error():
    d = TableDice([3, 4, 5])
    d.roll(6, "range roll")
    with pytest.raises(DiceInputError) as exc:
        d.finish()
    assert "3 typed in" in exc.value.errors["dice"]
    assert "used 1" in exc.value.errors["dice"]


@pytest.mark.parametrize("values", [[1, "2"], [1.5], [True], "12"])
def test_table_dice_must_be_whole_numbers(values):
    with pytest.raises(DiceInputError):
        TableDice(values)


def test_dice_source_picks_typed_dice_or_a_seed():
    assert isinstance(dice.dice_source(dice=[1]), TableDice)
    seeded = dice.dice_source(seed=5)
    assert isinstance(seeded, SeededDice)
    assert seeded.seed == 5
    assert isinstance(dice.dice_source().seed, int)


def test_exact_distributions():
    two_d6 = DiceExpr(2, 6, 2).total_distribution()
    assert two_d6[9] == F(6, 36)
    assert sum(two_d6.values()) == 1
    assert min(two_d6) == 4
    best = dice.highest_of(2, 6)
    assert best == {v: F(2 * v - 1, 36) for v in range(1, 7)}
    assert dice.expected(dice.uniform(6)) == F(7, 2)
    assert dice.probability(dice.uniform(20), lambda v: v > 15) == F(1, 4)
    diff = dice.combine(dice.uniform(6), dice.uniform(6), lambda a, b: a - b)
    assert diff[0] == F(1, 6)
    assert sum(diff.values()) == 1


def test_helpers_for_the_other_systems():
    # d20 roll-under (enforcers, zvezdny-desant): plain difficulty 10 -> 1/2; modifier -1 -> 11/20
    assert dice.roll_under(10) == F(1, 2)
    assert dice.roll_under(10, modifier=-1) == F(11, 20)
    # d6 pools against a target (5150, squads): pass on <= 4 with 2d6
    pool = dice.pool_successes(2, 6, lambda v: v <= 4)
    assert pool == {0: F(1, 9), 1: F(4, 9), 2: F(4, 9)}
