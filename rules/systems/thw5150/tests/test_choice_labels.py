"""Issue #19: the setup page shows each choice of a «5150» setting in words, in both languages."""

from django.utils import translation

from rules.systems.thw5150.settings import SETTINGS


def test_every_choice_has_a_readable_label_in_both_languages():
    choice_settings = [s for s in SETTINGS if s.kind == "choice"]
    assert len(choice_settings) >= 40
    for setting in choice_settings:
        assert {value for value, _label in setting.choice_labels} == set(setting.choices), setting.key
        with translation.override("en"):
            english = dict(map(tuple, setting.describe()["choice_labels"]))
        with translation.override("ru"):
            russian = dict(map(tuple, setting.describe()["choice_labels"]))
        for value in setting.choices:
            assert english[value] != str(value), (setting.key, value)
            assert russian[value] != english[value], (setting.key, value)


def test_labels_use_the_books_words_in_russian():
    by_key = {s.key: s for s in SETTINGS}
    with translation.override("ru"):
        law = dict(map(tuple, by_key["law_level"].describe()["choice_labels"]))
        dice = dict(map(tuple, by_key["weapon_table_dice"].describe()["choice_labels"]))
        runaway = dict(map(tuple, by_key["runaway_speed"].describe()["choice_labels"]))
    assert law["lax"] == "«Вялый» (+1)"
    assert dice["2d6"] == "2к6 (по строкам таблицы)"
    assert runaway["fast_move"] == "Тест «БЫСТРОЕ ПЕРЕМЕЩЕНИЕ»"
