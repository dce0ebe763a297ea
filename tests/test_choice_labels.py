"""Issue #19: the setup page shows each choice of a system's setting in words, in both languages: every registered
system that names its choices (Setting.choice_labels) names all of them, and the Russian is the book's."""

import pytest
from django.utils import translation

from rules.registry import all_systems

NAMING = [s for s in all_systems() if any(setting.choice_labels for setting in s.settings)]
# A few choices per system in the book's own words (its glossary), as the setup page shows them in Russian.
BOOK_WORDS = {
    "enforcers": [("medic_tests", "healer", "Здоровье лечащего"), ("fear_fight_unarmed", "freeze", "Замереть")],
    "squads": [("text_artefacts", "ignored", "не учитываются: читается по смыслу книги"), ("split_chooser", "shooter", "стреляющий")],
    "5150": [("law_level", "lax", "«Вялый» (+1)"), ("weapon_table_dice", "2d6", "2к6 (по строкам таблицы)"),
             ("runaway_speed", "fast_move", "Тест «БЫСТРОЕ ПЕРЕМЕЩЕНИЕ»")],
}  # fmt: skip


def labels(setting, language: str) -> dict:
    with translation.override(language):
        return dict(map(tuple, setting.describe()["choice_labels"]))


@pytest.mark.parametrize("system", NAMING, ids=lambda s: s.slug)
def test_every_choice_has_a_readable_label_in_both_languages(system):
    choice_settings = [s for s in system.settings if s.kind == "choice"]
    assert choice_settings
    for setting in choice_settings:
        assert {value for value, _label in setting.choice_labels} == set(setting.choices), setting.key
        english, russian = labels(setting, "en"), labels(setting, "ru")
        for value in setting.choices:
            assert english[value] != str(value), (setting.key, value)
            assert russian[value] != english[value], (setting.key, value)


@pytest.mark.parametrize("slug", sorted(BOOK_WORDS))
def test_labels_use_the_books_words_in_russian(slug):
    system = next(s for s in NAMING if s.slug == slug)
    by_key = {s.key: s for s in system.settings}
    for key, value, russian in BOOK_WORDS[slug]:
        assert labels(by_key[key], "ru")[value] == russian, (key, value)
