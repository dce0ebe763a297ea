"""Migrations 0002/0003: an entry's `loadout` and `pilot` columns move into one `options` object, and back."""

import importlib

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("armies", "0001_initial")]
AFTER = [("armies", "0003_drop_loadout_pilot_free_kind")]
move = importlib.import_module("armies.migrations.0002_entry_options")

RIDER = [{"entry": "s1", "soldier": 2, "copy": 1}]
# (loadout, pilot) as stored before -> options after
CASES = {
    "squad": (({}, []), {}),
    "vehicle": (({"variant": "rockets", "weapons": ["a", "b"]}, RIDER), {"variant": "rockets", "weapons": ["a", "b"], "pilot": RIDER}),
    "no-pilot": (({"weapons": []}, []), {"weapons": []}),
    "one-ref": (({}, {"entry": "s1", "soldier": 3}), {"pilot": [{"entry": "s1", "soldier": 3}]}),
}  # fmt: skip


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def _entries(apps) -> dict:
    RosterEntry = apps.get_model("armies", "RosterEntry")
    return {e.key: e for e in RosterEntry.objects.order_by("key")}


@pytest.mark.django_db(transaction=True)
def test_loadout_and_pilot_move_into_options_and_back():
    apps = _migrate(BEFORE)
    try:
        user = apps.get_model(settings.AUTH_USER_MODEL).objects.create(username="old-timer")
        pack = apps.get_model("armies", "DataPack").objects.create(system="bronepekhota", slug="p", name="P")
        faction = apps.get_model("armies", "Faction").objects.create(pack=pack, slug="polaris", name="Polaris")
        profile = apps.get_model("armies", "UnitProfile").objects.create(
            pack=pack, slug="helix", name="HELIX", faction=faction, kind="vehicle", cost=90, data={}
        )
        roster = apps.get_model("armies", "Roster").objects.create(
            owner=user, system="bronepekhota", pack=pack, name="Old", faction="polaris"
        )
        RosterEntry = apps.get_model("armies", "RosterEntry")
        for key, ((loadout, pilot), _options) in CASES.items():
            RosterEntry.objects.create(roster=roster, key=key, profile=profile, loadout=loadout, pilot=pilot)

        apps = _migrate(AFTER)
        after = _entries(apps)
        assert {key: e.options for key, e in after.items()} == {key: options for key, (_, options) in CASES.items()}
        assert not hasattr(after["vehicle"], "loadout")
        # A kind is no longer limited to squad/vehicle/gun (the services check it against the system).
        free = apps.get_model("armies", "UnitProfile").objects.get(pk=profile.pk)
        free.kind = "agent"  # any kind the system allows (short: the way back has the old 10-letter column)
        free.save()

        apps = _migrate(BEFORE)
        back = _entries(apps)
        assert (back["vehicle"].loadout, back["vehicle"].pilot) == (
            {"variant": "rockets", "weapons": ["a", "b"]},
            RIDER,
        )
        assert (back["squad"].loadout, back["squad"].pilot) == ({}, [])
        assert back["one-ref"].pilot == [{"entry": "s1", "soldier": 3}]
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.parametrize(
    ("loadout", "pilot", "options"),
    [
        (None, None, {}),
        ("junk", [], {}),
        ({"weapons": ["x"]}, None, {"weapons": ["x"]}),
        ({}, {}, {}),
        ({"weapons": []}, [{"entry": "a", "soldier": 1}], {"weapons": [], "pilot": [{"entry": "a", "soldier": 1}]}),
    ],
)
def test_the_data_move_on_odd_rows(loadout, pilot, options):
    assert move.options_from_columns(loadout, pilot) == options
    back_loadout, back_pilot = move.columns_from_options(options)
    assert back_loadout == {k: v for k, v in options.items() if k != "pilot"}
    assert back_pilot == options.get("pilot", [])
