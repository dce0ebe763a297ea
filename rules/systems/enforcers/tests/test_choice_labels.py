"""Issue #19: the setup page shows each choice of a «Энфорсеры» setting in words, in both languages."""

from django.utils import translation

from rules.systems.enforcers.settings import SETTINGS


def test_every_choice_has_a_readable_label_in_both_languages():
    choice_settings = [s for s in SETTINGS if s.kind == "choice"]
    assert len(choice_settings) >= 30
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
        medic = dict(map(tuple, by_key["medic_tests"].describe()["choice_labels"]))
        fear = dict(map(tuple, by_key["fear_fight_unarmed"].describe()["choice_labels"]))
    assert medic["healer"] == "Здоровье лечащего"
    assert fear["freeze"] == "Замереть"
