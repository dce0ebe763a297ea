"""The probes of issue #18, each a 4xx that changes nothing: integers past their columns, NUL anywhere, deep JSON,
junk headers, oversized text; imports through the same bounds as the API, signed exports, and a huge unit refused
before its schema is checked."""

from __future__ import annotations

import json
import time
from unittest import mock

import pytest

from armies import services, systems
from config.parsers import nesting_exceeds
from config.validation import InputRejected, check_row
from tests.hostile import build_world, changed_tables, client_for, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world()


def refused(response, status=400):
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert body["detail"]
    return body


def test_points_limit_past_its_column_on_create_patch_and_import(world):
    client, before = client_for(world), snapshot()
    body = {"pack": world["pack"].pk, "name": "x", "faction": "protectorate", "points_limit": 2**31}
    assert "points_limit" in refused(client.post("/api/v1/rosters/", body, format="json"))["errors"]
    roster_url = f"/api/v1/rosters/{world['roster'].pk}/"
    assert "points_limit" in refused(client.patch(roster_url, {"points_limit": 2**31}, format="json"))["errors"]
    for bad in (2**31, True, "lots", -1):
        data = services.roster_export(roster=world["roster"])
        data["roster"]["points_limit"] = bad
        data["checksum"] = services.checksum_of({k: v for k, v in data.items() if k not in ("checksum", "signature")})
        assert "points_limit" in refused(client.post("/api/v1/rosters/import/", data, format="json"))["detail"]
    assert changed_tables(before, snapshot()) == []


def test_entry_position_past_its_column(world):
    client, before = client_for(world), snapshot()
    url = f"/api/v1/rosters/{world['roster'].pk}/entries/{world['entry'].key}/"
    assert "position" in refused(client.patch(url, {"position": 2**31}, format="json"))["errors"]
    assert changed_tables(before, snapshot()) == []


def test_the_row_check_refuses_what_the_columns_cannot_hold(world):
    roster = world["roster"]
    roster.points_limit = 2**31
    with pytest.raises(InputRejected, match="points_limit"):
        check_row(roster)
    roster.points_limit, roster.notes = 10, "a\x00b"
    with pytest.raises(InputRejected, match="notes"):
        roster.save()
    entry = world["entry"]
    entry.options = {"pilot": [{"\x00": 1}]}
    with pytest.raises(InputRejected, match="options"):
        entry.save()


@pytest.mark.parametrize(
    "raw",
    [
        '{"options": {"weapons": "a\\u0000b"}}',
        '{"options": {"a\\u0000": 1}}',
        '{"options": {"x": "\\ud800"}}',
        '{"options": {"x": 1e400}}',
        '{"options": {"x": NaN}}',
        '{"options": {"x": 36893488147419103232}}',
        "[" * 5000 + "]" * 5000,
        '{"options": ' + '{"a": ' * 70 + "1" + "}" * 70 + "}",
    ],
)
def test_json_bodies_the_parser_refuses(world, raw):
    client, before = client_for(world), snapshot()
    url = f"/api/v1/rosters/{world['roster'].pk}/entries/{world['entry'].key}/"
    started = time.perf_counter()
    body = refused(client.patch(url, raw, content_type="application/json"))
    assert time.perf_counter() - started < 2
    assert body["code"] == "parse_error"
    assert changed_tables(before, snapshot()) == []


def test_a_body_the_view_never_reads_is_still_checked(world):
    client = client_for(world)
    url = f"/api/v1/packs/{world['custom'].pk}/publish/"
    refused(client.post(url, "[" * 3000 + "]" * 3000, content_type="application/json"))
    world["custom"].refresh_from_db()
    assert world["custom"].published is False


def test_nesting_is_measured_outside_strings():
    assert nesting_exceeds("[" * 65 + "]" * 65)
    assert not nesting_exceeds(json.dumps({"text": "[" * 500}))
    assert not nesting_exceeds("[" * 64 + "]" * 64)


def test_nul_in_a_path_segment_and_in_a_query_parameter(world):
    client = client_for(world)
    url = f"/api/v1/rosters/{world['roster'].pk}/entries/%00../"
    assert refused(client.patch(url, {}, format="json"))["code"] == "bad_path"
    assert refused(client.get("/api/v1/packs/?system=a%00b"))["code"] == "bad_query"


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("HTTP_IDEMPOTENCY_KEY", "k" * 101),
        ("HTTP_IDEMPOTENCY_KEY", "ключ"),
        ("HTTP_IF_MATCH", "x" * 500),
        ("HTTP_IF_MATCH", '"7", junk junk'),
        ("HTTP_IF_NONE_MATCH", "\x01"),
        ("HTTP_ACCEPT_LANGUAGE", "en;q=zz,<script>"),
        ("HTTP_ACCEPT_LANGUAGE", "en," * 300),
    ],
)
def test_junk_in_a_header_the_api_reads(world, header, value):
    client, before = client_for(world), snapshot()
    url = f"/api/v1/battles/{world['battle'].pk}/undo"
    body = refused(client.post(url, {"seq": 1}, format="json", **{header: value}))
    assert body["code"] == "bad_header"
    assert changed_tables(before, snapshot()) == []


def test_good_headers_pass(world):
    client = client_for(world)
    response = client.get("/api/v1/rosters/", HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7")
    assert response.status_code == 200
    roster = world["roster"]
    ok = client.patch(
        f"/api/v1/rosters/{roster.pk}/", {"name": "New"}, format="json", HTTP_IF_MATCH=f'"{roster.version}"'
    )
    assert ok.status_code == 200, ok.content


def test_oversized_text_and_bodies(world):
    client, before = client_for(world), snapshot()
    url = f"/api/v1/rosters/{world['roster'].pk}/"
    assert "notes" in refused(client.patch(url, {"notes": "n" * 2_000_000}, format="json"))["errors"]
    big = json.dumps({"notes": "n" * 3_000_000})
    refused(client.patch(url, big, content_type="application/json"), status=413)
    assert changed_tables(before, snapshot()) == []


def _resigned(data: dict) -> dict:
    """An edited file with its checksum recomputed, as anyone can: no longer this site's signature."""
    body = {k: v for k, v in data.items() if k not in ("checksum", "signature")}
    return {**body, "checksum": services.checksum_of(body), "signature": data.get("signature")}


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["entries"][0].update(options={"x": "y" * 1_000_000}),
        lambda d: d["roster"].update(points_limit=True),
        lambda d: d["entries"][0].update(options=["not", "an", "object"]),
        lambda d: d["entries"][0].update(options={"pilot": "nobody"}),
        lambda d: d["entries"][0].update(count="many"),
        lambda d: d["roster"].update(notes="n" * 2_000_000),
        lambda d: d["roster"].update(name={"a": 1}),
    ],
)
def test_import_takes_the_api_bounds(world, edit):
    client, before = client_for(world), snapshot()
    data = services.roster_export(roster=world["roster"])
    edit(data)
    refused(client.post("/api/v1/rosters/import/", _resigned(data), format="json"))
    assert changed_tables(before, snapshot()) == []


def test_exports_are_signed_and_an_edited_file_imports_as_unverified(world):
    client = client_for(world)
    data = client.get(f"/api/v1/rosters/{world['roster'].pk}/export/").json()
    assert data["signature"] == services.export_signature(data["checksum"])
    own = client.post("/api/v1/rosters/import/", data, format="json")
    assert own.status_code == 201
    assert own.json()["verified"] is True
    data["roster"]["name"] = "Edited"
    edited = client.post("/api/v1/rosters/import/", _resigned(data), format="json")
    assert edited.status_code == 201
    assert edited.json()["verified"] is False
    assert "unverified" in edited.json()["notice"]
    unsigned = {k: v for k, v in _resigned(data).items() if k != "signature"}
    assert services.export_verified(unsigned) is False
    damaged = {**data, "checksum": "0" * 64}
    refused(client.post("/api/v1/rosters/import/", damaged, format="json"))


def test_an_unverified_import_page_says_so(world, client):
    client.force_login(world["user"])
    data = services.roster_export(roster=world["roster"])
    data["roster"]["name"] = "Edited"
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("r.json", json.dumps(_resigned(data)).encode(), content_type="application/json")
    response = client.post("/rosters/import/", {"file": upload}, follow=True)
    assert response.status_code == 200
    assert "unverified" in response.content.decode()


def test_a_huge_unit_is_refused_by_its_size_before_the_schema(world):
    client = client_for(world)
    profile = world["unit"].as_rules_dict()
    soldier = profile["data"]["soldiers"][0]
    data = {**profile["data"], "soldiers": [soldier] * 12_000}
    body = {"name": "Horde", "faction": profile["faction"], "kind": profile["kind"], "cost": 1, "data": data}
    url = f"/api/v1/packs/{world['custom'].pk}/profiles/"
    with mock.patch.object(systems, "profile_errors", side_effect=AssertionError("schema checked")) as schema:
        started = time.perf_counter()
        response = client.post(url, body, format="json")
        elapsed = time.perf_counter() - started
    assert "data" in refused(response)["errors"]
    assert not schema.called
    assert elapsed < 2
    patched = mock.patch.object(systems, "profile_errors", side_effect=AssertionError("schema checked"))
    with patched, pytest.raises(services.ServiceError, match="format"):
        services.profile_save(pack=world["custom"], data=body)
