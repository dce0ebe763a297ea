"""The `loadout` and `pilot` columns of roster entries are gone (0002 moved them into `options`), and a unit
profile's kind is any short word its system allows (no fixed squad/vehicle/gun choices). A separate migration from
the data move, so that no table is altered in the transaction that updated its rows."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("armies", "0002_entry_options"),
    ]

    operations = [
        migrations.RemoveField(model_name="rosterentry", name="loadout"),
        migrations.RemoveField(model_name="rosterentry", name="pilot"),
        migrations.AlterField(
            model_name="unitprofile",
            name="kind",
            field=models.CharField(max_length=40),
        ),
    ]
