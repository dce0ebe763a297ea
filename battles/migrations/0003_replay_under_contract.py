"""Stored battles are replayed once under their system's battle part (rules/contract/battle.py), so that the state
each one stores is the fold's own (for example a grenade throw still waiting for its burst is now kept in the game
state). Generic: it asks the registry for the system, never imports one."""

import copy

from django.db import migrations

RUNNER_EVENTS = ("battle.started", "side.joined", "undo")


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


def replay_all(apps, schema_editor):
    from rules.contract import Event, GameState, UnitRecord
    from rules.registry import get_system

    Battle = apps.get_model("battles", "Battle")
    BattleEvent = apps.get_model("battles", "BattleEvent")
    BattleUnit = apps.get_model("battles", "BattleUnit")
    for battle in Battle.objects.all().iterator():
        part = get_system(battle.system).battle
        if part is None:
            continue
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
    dependencies = [("battles", "0002_contract_visibility_rules_version")]

    operations = [migrations.RunPython(replay_all, migrations.RunPython.noop)]
