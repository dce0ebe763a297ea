"""Idempotency keys belong to their sender (unique per battle and actor, no longer per battle: one player's keys
tell the other nothing), and events remember whether they are a closing point (a reveal, an answered question) that
a one-sided undo may not cross (rules/contract/battle.py).

Stored events of a type a system declares closing are marked; every stored battle is replayed once under its
system's current fold (a reveal whose orders were taken back no longer stands). Generic: it asks the registry for
the system, never imports one."""

import copy

from django.conf import settings
from django.db import migrations, models

RUNNER_EVENTS = ("battle.started", "side.joined", "undo", "undo.proposed", "undo.agreed", "undo.declined")


def _active(events):
    undone = set()
    for e in sorted(events, key=lambda e: e.seq, reverse=True):
        if e.type == "undo" and e.seq not in undone:
            undone.add(e.payload.get("undoes"))
    by_pk = {e.pk: e.seq for e in events}
    return [
        e
        for e in sorted(events, key=lambda e: e.seq)
        if e.type != "undo" and e.seq not in undone and (e.cause_id is None or by_pk.get(e.cause_id) not in undone)
    ]


def mark_and_replay(apps, schema_editor):
    from rules.contract import Event, GameState, UnitRecord
    from rules.registry import get_system, known

    Battle = apps.get_model("battles", "Battle")
    BattleEvent = apps.get_model("battles", "BattleEvent")
    BattleUnit = apps.get_model("battles", "BattleUnit")
    for battle in Battle.objects.all().iterator():
        part = get_system(battle.system).battle if known(battle.system) else None
        if part is None:  # a system no longer installed: its battles are left as they are
            continue
        if part.closing_events:
            BattleEvent.objects.filter(battle=battle, type__in=sorted(part.closing_events)).update(closes=True)
        rows = list(BattleUnit.objects.filter(battle=battle).select_related("side").order_by("position"))
        units = {
            u.key: UnitRecord(u.key, u.side.index, u.profile, copy.deepcopy(u.initial_state), u.name, u.kind)
            for u in rows
        }
        state = GameState(game={}, units=units, settings=battle.settings)
        for e in _active(list(BattleEvent.objects.filter(battle=battle).order_by("seq"))):
            if e.type == "battle.started":
                state.game = copy.deepcopy(e.payload["game"])
            elif e.type not in RUNNER_EVENTS:
                part.apply(state, Event(e.seq, e.type, e.payload, e.side_index, None))
        for u in rows:
            if u.state != state.units[u.key].state:
                u.state = state.units[u.key].state
                u.save(update_fields=["state"])
        if battle.state != state.game:
            battle.state = state.game
            battle.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0003_replay_under_contract"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="battleevent", name="battleevent_unique_idempotency_key"),
        migrations.AddField(model_name="battleevent", name="closes", field=models.BooleanField(default=False)),
        migrations.AddConstraint(
            model_name="battleevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("battle", "actor", "idempotency_key"),
                name="battleevent_unique_sender_key",
            ),
        ),
        migrations.RunPython(mark_and_replay, migrations.RunPython.noop),
    ]
