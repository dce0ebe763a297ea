"""Roster entries hold one `options` object instead of the `loadout` and `pilot` columns (0003 drops those).

The data move keeps every choice: options = {**loadout, "pilot": [refs]} when the entry has a pilot (a single
reference stored as an object becomes a list of one), else the loadout alone. Backwards, the pilot goes back to its
column and the rest to the loadout.
"""

from django.db import migrations, models


def options_from_columns(loadout, pilot) -> dict:
    options = dict(loadout) if isinstance(loadout, dict) else {}
    refs = [pilot] if isinstance(pilot, dict) and pilot else pilot if isinstance(pilot, list) else []
    if refs:
        options["pilot"] = refs
    return options


def columns_from_options(options) -> tuple[dict, list]:
    options = dict(options) if isinstance(options, dict) else {}
    pilot = options.pop("pilot", [])
    return options, [pilot] if isinstance(pilot, dict) else pilot if isinstance(pilot, list) else []


def move_to_options(apps, schema_editor):
    RosterEntry = apps.get_model("armies", "RosterEntry")
    changed = []
    for entry in RosterEntry.objects.only("pk", "loadout", "pilot").iterator(chunk_size=1000):
        entry.options = options_from_columns(entry.loadout, entry.pilot)
        changed.append(entry)
        if len(changed) >= 1000:
            RosterEntry.objects.bulk_update(changed, ["options"])
            changed = []
    RosterEntry.objects.bulk_update(changed, ["options"])


def move_to_columns(apps, schema_editor):
    RosterEntry = apps.get_model("armies", "RosterEntry")
    changed = []
    for entry in RosterEntry.objects.only("pk", "options").iterator(chunk_size=1000):
        entry.loadout, entry.pilot = columns_from_options(entry.options)
        changed.append(entry)
        if len(changed) >= 1000:
            RosterEntry.objects.bulk_update(changed, ["loadout", "pilot"])
            changed = []
    RosterEntry.objects.bulk_update(changed, ["loadout", "pilot"])


class Migration(migrations.Migration):
    dependencies = [
        ("armies", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="rosterentry",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(move_to_options, move_to_columns),
    ]
