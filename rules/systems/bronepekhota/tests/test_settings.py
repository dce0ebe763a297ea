"""Every option of §1.8 and every ambiguity of §5 that changes play is a named setting with its default."""

import pytest

from rules.errors import RuleInputError
from rules.registry import get_system
from rules.systems.bronepekhota.settings import SETTINGS, SETTINGS_BY_KEY

EXPECTED = {
    # §1.8 options
    "mode": ("virtual", "§1.2"),
    "ammo_limited": (True, "§1.8"),
    "ammo_refreshes": (0, "A22"),
    "special_properties": (False, "§1.8"),
    "grenades": (False, "§1.8"),
    "jump_packs": (False, "§1.8"),
    "aimed_fire": (False, "§1.8"),
    "panic": (False, "§1.8"),
    # §5 ambiguities
    "balance_info_percent": (10, "A2"),
    "balance_warning_percent": (20, "A2"),
    "deployment_order": ("alternate", "A3"),
    "initiative_reroll": ("tied_only", "A4"),
    "blast_hits_target": (False, "A6"),
    "blast_cover": (False, "A6"),
    "ammo_short_shot": ("literal", "A7"),
    "half_step_obstacle_free": (True, "A8"),
    "obstacle_cost_additive": (True, "A9"),
    "flyer_full_speed_each_move": (True, "A10"),
    "captured_acts_next_round": (True, "A11"),
    "jump_downward_height": ("zero", "A12"),
    "panic_ends_actions": (True, "A13"),
    "panic_flyer_lands_safely": (True, "A13"),
    "survival_die": (6, "A14"),
    "grenade_replaces_shot": (True, "A15"),
    "shooting_ban": ("unified", "A16"),
    "melee_in_contact": ("in_contact_may_attack", "A17"),
    "lying_vehicle_defence": (True, "A18"),
    "dismounted_pilot_rejoins_squad": (True, "A19"),
    "cover_exactly_half": (1, "A21"),
    "gun_rof_rule": ("per_gun", "A23"),
    "virtual_infantry_damage": ("destroyed", "A24"),
    "armour_test_after_damage": (True, "A25"),
    "airborne_no_melee": (True, "A26"),
    "enforce_mount_limit": (True, "A30"),
    "repair_needs_idle_soldier": (True, "A31"),
    "repair_cap_at_max": (True, "A32"),
    "dispute_die": (12, "A33"),
    "pilot_tests": ("owner", "p.19"),
    # §5 readings the engine takes as given (one choice each)
    "armlist_data_source": ("data_pack", "A0"),
    "cost_per": ("squad", "A1"),
    "grenade_damage_section": ("7.4", "A5"),
    "distance_measured_between": ("closest_points", "A20"),
    "light_heavy_mechanics": ("pilot_figure_only", "A27"),
    "twin_cannon_names": ("one_gun", "A28"),
    "speed_sectors_from": ("data_pack", "A29"),
}


@pytest.mark.parametrize(("key", "default", "source"), [(k, d, s) for k, (d, s) in EXPECTED.items()])
def test_setting_exists_with_its_default_and_source(key, default, source):
    setting = SETTINGS_BY_KEY[key]
    assert setting.default == default
    assert type(setting.default) is type(default)
    assert source in setting.source
    assert setting.label
    assert setting.help
    setting.check(setting.default)  # the default passes its own check


def test_no_unlisted_settings_and_unique_keys():
    assert [s.key for s in SETTINGS] == list(dict.fromkeys(s.key for s in SETTINGS))
    assert set(SETTINGS_BY_KEY) == set(EXPECTED)


def test_every_ambiguity_is_a_setting():
    covered = set()
    for s in SETTINGS:
        covered.update(part.strip(" ,") for part in s.source.split() if part.strip(" ,").startswith("A"))
    assert {f"A{i}" for i in range(34)} <= covered


def test_optional_rules_of_1_8_are_options():
    for key in ("mode", "ammo_limited", "ammo_refreshes", "special_properties", "grenades", "jump_packs",
                "aimed_fire", "panic"):  # fmt: skip
        assert SETTINGS_BY_KEY[key].category == "option"


def test_resolve_settings_rejects_unknown_and_bad_values():
    system = get_system("bronepekhota")
    assert system.resolve_settings({"panic": True})["panic"] is True
    assert system.resolve_settings(None)["mode"] == "virtual"
    for bad, field in (
        ({"panik": True}, "settings.panik"),
        ({"panic": "yes"}, "settings.panic"),
        ({"mode": "laser"}, "settings.mode"),
        ({"ammo_refreshes": -1}, "settings.ammo_refreshes"),
        ({"survival_die": True}, "settings.survival_die"),
        ({"cover_exactly_half": 2}, "settings.cover_exactly_half"),
    ):
        with pytest.raises(RuleInputError) as exc:
            system.resolve_settings(bad)
        assert field in exc.value.errors


def test_every_choice_has_a_readable_label_in_both_languages():
    """Issue «At the table»: the setup page shows words, not codes such as `tied_only` or `per_gun`."""
    from django.utils import translation

    from rules.systems.bronepekhota.settings import SETTINGS

    choice_settings = [s for s in SETTINGS if s.kind == "choice"]
    assert choice_settings
    for setting in choice_settings:
        assert {value for value, _label in setting.choice_labels} == set(setting.choices), setting.key
        with translation.override("en"):
            english = dict(map(tuple, setting.describe()["choice_labels"]))
        with translation.override("ru"):
            russian = dict(map(tuple, setting.describe()["choice_labels"]))
        for value in setting.choices:
            assert english[value] != str(value), (setting.key, value)
            assert russian[value] != english[value] or english[value].startswith(("D", "+", "§")), (setting.key, value)
    with translation.override("ru"):
        labels = dict(map(tuple, SETTINGS_BY_KEY["initiative_reroll"].describe()["choice_labels"]))
    assert labels["tied_only"] == "перебрасывают только сравнявшиеся"
