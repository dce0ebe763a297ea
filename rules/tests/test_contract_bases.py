"""The one base of a system's actions (contract.CleanAction) and of its settings (contract.SettingsCatalogue), issue
#28: what every system leans on, checked once here; and every registered system's actions ask its own settings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import registry
from rules.contract import CleanAction, RuleInputError, Setting, SettingsCatalogue, prob
from rules.dice import SeededDice, TableDice

FLAG = Setting("fast", "Fast", False)
COUNT = Setting("count", "Count", 2, kind="int")
MODE = Setting("mode", "Mode", "a", kind="choice", choices=("a", "b"), choice_labels=(("a", "own words"),))
CATALOGUE = SettingsCatalogue((FLAG, COUNT, MODE), choice_labels={"count": ()})


def test_catalogue_answers_defaults_full_settings_and_lookup():
    assert CATALOGUE.all == (FLAG, COUNT, MODE)
    assert CATALOGUE.defaults() == {"fast": False, "count": 2, "mode": "a"}
    assert CATALOGUE.full({"count": 5}) == {"fast": False, "count": 5, "mode": "a"}
    assert CATALOGUE.full(None) == CATALOGUE.defaults()
    assert CATALOGUE["mode"] is CATALOGUE.by_key["mode"] is MODE
    assert "fast" in CATALOGUE
    assert "slow" not in CATALOGUE
    assert CATALOGUE.keys == {"fast", "count", "mode"}


def test_catalogue_labels_choices_from_the_mapping_and_keeps_a_settings_own():
    catalogue = SettingsCatalogue((MODE, COUNT), choice_labels={"count": ((1, "one"),)})
    assert catalogue.labels("count") == {1: "one"}
    assert catalogue.labels("mode") == {"a": "own words"}
    relabelled = SettingsCatalogue((MODE,), choice_labels={"mode": (("b", "other"),)})
    assert relabelled.labels("mode") == {"b": "other"}


def test_catalogue_refuses_a_key_twice_and_labels_of_no_setting():
    with pytest.raises(ValueError, match="declared twice: fast"):
        SettingsCatalogue((FLAG, COUNT, FLAG))
    with pytest.raises(ValueError, match="do not exist: speed"):
        SettingsCatalogue((FLAG,), choice_labels={"speed": ()})


def test_catalogue_resolve_checks_each_given_setting():
    assert CATALOGUE.resolve({"mode": "b"}) == {"fast": False, "count": 2, "mode": "b"}
    with pytest.raises(RuleInputError) as unknown:
        CATALOGUE.resolve({"speed": 1})
    assert "settings.speed" in unknown.value.errors
    with pytest.raises(RuleInputError) as bad:
        CATALOGUE.resolve({"count": -1})
    assert "settings.count" in bad.value.errors
    with pytest.raises(RuleInputError) as not_object:
        CATALOGUE.resolve(["count"])
    assert "settings" in not_object.value.errors


class Roll(CleanAction):
    """A toy action: one d6 per die asked, counts the sixes (two dice unless the settings say otherwise)."""

    key = "roll"
    settings_catalogue = CATALOGUE
    input_schema = {"type": "object", "properties": {"dice": {"type": "integer", "minimum": 0, "maximum": 5}}}

    def check_inputs(self, inputs, settings):
        if inputs.get("dice") == 0 and not settings["fast"]:
            raise RuleInputError({"dice": "no dice"})
        return {"dice": inputs.get("dice", settings["count"])}

    def resolve_clean(self, clean, settings, dice):
        sixes = sum(dice.roll(6, "test") == 6 for _ in range(clean["dice"]))
        return self.outcome(f"{sixes} sixes", {"sixes": sixes}, [], [])

    def odds_clean(self, clean, settings):
        return {"p_any_six": prob(1 - Fraction(5, 6) ** clean["dice"])}


def test_clean_action_fills_the_settings_validates_and_records_every_die():
    outcome = Roll().resolve({}, {}, TableDice([6, 2]))  # two dice: the catalogue's default count
    assert outcome.action == "roll"
    assert outcome.result == {"sixes": 1}
    assert [d["value"] for d in outcome.dice] == [6, 2]
    with pytest.raises(RuleInputError):
        Roll().resolve({}, {}, TableDice([6, 2, 3]))  # a die typed in and never used
    with pytest.raises(RuleInputError) as bad:
        Roll().resolve({"dice": 0}, {}, SeededDice(1))  # check_inputs reads the filled-in settings
    assert "dice" in bad.value.errors
    assert Roll().resolve({"dice": 0}, {"fast": True}, SeededDice(1)).dice == []
    assert Roll().odds({}, {"count": 1})["p_any_six"]["exact"] == "1/6"
    assert Roll().odds({}, {})["p_any_six"]["exact"] == "11/36"
    with pytest.raises(RuleInputError):
        Roll().odds({"dice": 9}, {})  # the schema first


def test_clean_action_names_what_a_system_left_out():
    class NoSettings(Roll):
        settings_catalogue = None

    with pytest.raises(NotImplementedError, match="NoSettings must set settings_catalogue"):
        NoSettings().odds({}, {})

    class NoOdds(CleanAction):
        def resolve_clean(self, clean, settings, dice):
            return super().resolve_clean(clean, settings, dice)

    with pytest.raises(TypeError, match="odds_clean"):
        NoOdds()

    class CallsUp(NoOdds):
        settings_catalogue = CATALOGUE

        def odds_clean(self, clean, settings):
            return super().odds_clean(clean, settings)

    with pytest.raises(NotImplementedError, match="CallsUp must provide a resolve_clean"):
        CallsUp().resolve({}, {}, SeededDice(1))
    with pytest.raises(NotImplementedError, match="CallsUp must provide an odds_clean"):
        CallsUp().odds({}, {})


@pytest.mark.parametrize("system", registry.all_systems(), ids=lambda s: s.slug)
def test_every_clean_action_asks_its_own_systems_settings(system):
    """An action's defaults are its system's: the catalogue it asks holds exactly the settings the system declares."""
    declared = [s.key for s in system.settings]
    assert len(declared) == len(set(declared))
    for action in system.actions.values():
        if isinstance(action, CleanAction):
            assert action.settings_catalogue is not None, action.key
            assert [s.key for s in action.settings_catalogue.all] == declared, action.key
            assert action.full_settings({}) == system.default_settings(), action.key
