"""The fixed statements of the hot path (battles/rows.py, issue #11) give what the ORM gives, and the token check
(config/api_auth.py) answers as DRF's does."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles import rows, selectors, services, undo
from battles.models import Battle, BattleEvent, BattleSide, BattleUnit
from battles.tests import commands
from config.validation import InputRejected


@pytest.fixture
def played(battle, alice):
    """The battle after two adjustments and an undo of the first (the second sets another track, so the undo
    changes the ammo: an undo that would change nothing is refused)."""
    commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1",
                         changes={"ammo": 5})  # fmt: skip
    battle.refresh_from_db()
    first = battle.version
    commands.unit_adjust(battle_id=battle.pk, user=alice, expected_version=battle.version, unit="0.e2.1",
                         changes={"strength": 6})  # fmt: skip
    battle.refresh_from_db()
    undo.event_undo(battle_id=battle.pk, user=alice, expected_version=battle.version, seq=first)
    battle.refresh_from_db()
    return battle


def test_reads_give_what_the_orm_gives(played):
    b = played
    assert rows.battle_head(b.pk) == (b.version, b.spectator_token, b.players)
    assert rows.battle_version(b.pk) == b.version
    assert rows.battle(b.pk).state == b.state
    assert rows.battle(b.pk).settings == b.settings
    assert rows.battle(b.pk + 1000) is None
    assert rows.battle_head(b.pk + 1000) is None
    units = BattleUnit.objects.filter(battle=b).order_by("position", "id")
    assert rows.units(b.pk) == [(u.key, u.side.index, u.profile, u.state, u.name, u.kind) for u in units]
    sides = BattleSide.objects.filter(battle=b).order_by("index").select_related("player")
    assert rows.sides(b.pk) == [(s.index, s.name, s.faction, s.player.username if s.player else None) for s in sides]
    undos = BattleEvent.objects.filter(battle=b, type="undo").order_by("-seq")
    assert rows.undos(b.pk) == [(e.seq, e.payload) for e in undos]
    assert undos
    newest = list(BattleEvent.objects.filter(battle=b).order_by("-seq"))
    heads = rows.event_heads(b.pk, limit=3, offset=1)
    assert [pk for pk, _at, _to in heads] == [e.pk for e in newest[1:4]]
    assert [to for _pk, _at, to in heads] == [e.visible_to for e in newest[1:4]]


def test_log_lines_from_the_fixed_statement_equal_those_from_select_related(played):
    b = played
    events = BattleEvent.objects.filter(battle=b).select_related("actor", "undoes", "cause").order_by("-seq")
    names = selectors.name_maps(b)
    part = services.battle_part(b.system)
    expected = {e.pk: selectors.event_dict(e, names=names, part=part) for e in events}
    got = {e.pk: selectors.event_dict(e, names=names, part=part) for e in rows.log_events(b.pk, list(expected))}
    assert got == expected
    assert any(line["undoes"] for line in got.values())
    assert any(line["actor"] == "alice" for line in got.values())
    assert rows.log_events(b.pk, []) == []
    # The board's newest lines agree with the whole log (undone marks included).
    assert selectors.battle_log(b, sides=(0,), limit=4) == selectors.battle_log(b, sides=(0,))[:4]


def test_the_updates_store_the_state_and_refuse_what_no_json_column_may_hold(played):
    b = Battle.objects.get(pk=played.pk)
    before = (b.version, b.state, b.updated_at)
    unit_before = BattleUnit.objects.get(battle=b, key="0.e2.1").state
    b.version += 1
    b.state = {**b.state, "note": "ok"}
    rows.save_progress(b)
    stored = Battle.objects.get(pk=b.pk)
    assert (stored.version, stored.state["note"]) == (before[0] + 1, "ok")
    assert stored.updated_at > before[2]
    b.state = {"note": "bad\x00"}
    with pytest.raises(InputRejected) as refused:
        rows.save_progress(b)
    assert "state.note" in refused.value.errors
    rows.save_unit_state(b.pk, "0.e2.1", {"ammo": 2})
    assert BattleUnit.objects.get(battle=b, key="0.e2.1").state == {"ammo": 2}
    with pytest.raises(InputRejected):
        rows.save_unit_state(b.pk, "0.e2.1", {"x": "\ud800"})
    assert Battle.objects.get(pk=b.pk).state["note"] == "ok"
    # Back to what the log says, for the replay check that follows every test.
    Battle.objects.filter(pk=b.pk).update(version=F("version") - 1, state=before[1])
    BattleUnit.objects.filter(battle=b, key="0.e2.1").update(state=unit_before)


def test_the_token_check_answers_as_drfs(played, alice):
    client = APIClient()
    token = Token.objects.create(user=alice)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/v1/battles/{played.pk}/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = client.get(f"/api/v1/battles/{played.pk}/")
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/v1/battles/{played.pk}/").status_code == 401
