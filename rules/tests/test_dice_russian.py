"""Russian first (issues #12/#14): the dice record and the typed-in dice errors read in the viewer's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.dice import DiceInputError, SeededDice, TableDice


def test_numbered_purposes_are_translated():
    with translation.override("ru"):
        rolls = SeededDice(1)
        rolls.roll_many(3, 6, "кубик мощи")
    assert [r.purpose for r in rolls.rolls] == ["кубик мощи 1 из 3", "кубик мощи 2 из 3", "кубик мощи 3 из 3"]
    with translation.override("en"):
        english = SeededDice(1)
        english.roll_many(2, 6, "power die")
    assert english.rolls[1].purpose == "power die 2 of 2"


@pytest.mark.parametrize(
    ("values", "faces", "count", "expected"),
    [
        ([4], 6, 3, "Не хватает кубиков: нет кубика 2 (Д6, тест 2 из 3); введён 1, а нужно не меньше 2."),
        ([4, 4], 6, 3, "Не хватает кубиков: нет кубика 3 (Д6, тест 3 из 3); введено 2, а нужно не меньше 3."),
        ([4, 9], 6, 2, "На кубике 2 9, но это Д6 (тест 2 из 2): от 1 до 6."),
        (
            [4, 5, 6, 1, 2],
            6,
            2,
            "Лишние кубики: введено 5, а в этом тесте использовано 2 (d6 тест 1 из 2, d6 тест 2 из 2).",
        ),  # fmt: skip
        ([4, "5"], 6, 2, "Кубик 2 ('5') — не целое число."),
        ("4 5", 6, 2, "Введите кубики списком целых чисел, например [4, 11, 2]."),
    ],
)
def test_typed_in_dice_errors_read_in_russian(values, faces, count, expected):
    def throw():
        dice = TableDice(values)
        dice.roll_many(count, faces, "тест")
        dice.finish()

    with translation.override("ru"), pytest.raises(DiceInputError) as exc:
        throw()
    assert exc.value.errors["dice"] == expected
