"""armies knows no game: a system registered at run time (slug "5150-test", no package of its own) gets packs, a
custom-unit form derived from its profile schema, rosters whose entries are drawn and edited from its options
schema, and its own costs, without a line of armies naming it. And armies imports no system's package."""

import ast
import json
from pathlib import Path

import pytest
from django.test import Client

from armies import exports, selectors, services
from armies.models import UnitProfile
from rules import registry
from rules.contract import ArmyPart, GameSystem, Issue, RosterReport

TROOPER = {
    "type": "object",
    "required": ["rep", "weapons"],
    "additionalProperties": False,
    "properties": {
        "rep": {"type": "integer", "minimum": 1, "maximum": 6, "title": "Rep"},
        "armour": {"enum": ["none", "light", "heavy"]},
        "veteran": {"type": "boolean"},
        "motto": {"type": "string", "maxLength": 30},
        "gear": {"type": "array", "items": {"type": "string"}},
        "weapons": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["name", "range"],
                "additionalProperties": False,
                "properties": {"name": {"type": "string", "minLength": 1}, "range": {"type": "integer", "minimum": 0}},
            },
        },
    },
}
PROFILE_SCHEMA = {
    "type": "object",
    "required": ["slug", "name", "faction", "kind", "cost", "data"],
    "properties": {"kind": {"type": "string"}, "cost": {"type": "integer", "minimum": 0}, "data": {"type": "object"}},
    "allOf": [{"if": {"properties": {"kind": {"const": "trooper"}}}, "then": {"properties": {"data": {"$ref": "#/$defs/t"}}}}],
    "$defs": {"t": TROOPER},
}  # fmt: skip
OPTIONS = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "archetype": {"title": "Archetype", "oneOf": [{"const": "grunt", "title": "Grunt"}, {"const": "star", "title": "Star"}]},
        "upgrades": {"title": "Upgrades", "type": "array", "uniqueItems": True, "items": {"enum": ["medkit", "radio"]}},
        "xp": {"title": "Experience", "type": "integer", "minimum": 0, "maximum": 10},
    },
}  # fmt: skip


class SkirmishArmy(ArmyPart):
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"trooper": "Troopers"}

    def options_schema(self, profile):
        return OPTIONS

    def cost_roster(self, roster):
        costs, issues = {}, []
        for e in roster["entries"]:
            upgrades = (e.get("options") or {}).get("upgrades") or []
            costs[e["key"]] = (e["profile"]["cost"] + 5 * len(upgrades)) * e["count"]
            if (e.get("options") or {}).get("xp", 0) > 5:
                issues.append(Issue("warning", "veteran", "Too much experience for a new crew.", e["key"]))
        return RosterReport(total=sum(costs.values()), entry_costs=costs, issues=issues)


class SkirmishSystem(GameSystem):
    slug = "5150-test"
    name = "Test skirmish"
    army = SkirmishArmy()


PACK = {
    "format": "armlist-pack",
    "system": "5150-test",
    "slug": "test-core",
    "name": "Core list",
    "factions": [{"slug": "stars", "name": "Star Army"}],
    "profiles": [
        {"slug": "grunt", "name": "Grunt", "faction": "stars", "kind": "trooper", "cost": 10,
         "data": {"rep": 3, "weapons": [{"name": "Rifle", "range": 24}]}},
    ],
}  # fmt: skip


@pytest.fixture
def test_system(db):
    registry.register(SkirmishSystem())
    yield
    registry.unregister("5150-test")


@pytest.fixture
def test_pack(test_system):
    pack, _ = services.pack_load(pack_data=json.loads(json.dumps(PACK)))
    return pack


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def test_armies_imports_no_system_package():
    root = Path(__file__).resolve().parents[1]
    found = []
    for path in root.rglob("*.py"):
        if "tests" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}: {n}" for n in names if n.startswith("rules.systems")]
    assert found == []


def test_kinds_are_the_systems(test_pack, owner):
    pack = services.pack_create(user=owner, system="5150-test", name="Mine")
    bad = {"name": "Tank", "faction": "stars", "kind": "tank", "cost": 5, "data": {}}
    with pytest.raises(services.ServiceError) as caught:
        services.profile_save(pack=pack, data=bad)
    assert caught.value.errors["kind"] == "'tank' is not one of: trooper"
    assert not pack.profiles.exists()


def test_a_roster_is_built_drawn_and_checked_from_the_options_schema(test_pack, owner, client):
    roster = services.roster_create(owner=owner, pack=test_pack, name="Squad", faction="stars")
    entry = services.entry_add(roster=roster, profile="grunt", options={"archetype": "star", "upgrades": ["radio"]})
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert "<h3>Troopers</h3>" in html
    assert 'data-option="archetype" data-control="choice"' in html
    assert '<option value="&quot;star&quot;" selected>Star</option>' in html
    assert 'data-option="upgrades" data-control="checks" value="&quot;radio&quot;" checked' in html
    assert 'data-option="xp" data-control="number"' in html
    assert 'data-testid="total">15<' in html

    url = f"/api/v1/rosters/{roster.pk}/entries/{entry.key}/"
    refused = client.patch(url, json.dumps({"options": {"archetype": "hero"}}), content_type="application/json")
    assert refused.status_code == 400
    assert "options.archetype" in refused.json()["errors"]
    changed = client.patch(
        url, json.dumps({"options": {"archetype": "grunt", "xp": 7}}), content_type="application/json"
    )
    assert changed.status_code == 200
    state = changed.json()
    assert state["entries"][0]["options"] == {"archetype": "grunt", "xp": 7}
    assert [i["code"] for i in state["entries"][0]["issues"]] == ["veteran"]
    assert state["total"] == 10
    text = client.get(f"/rosters/{roster.pk}/text/").content.decode()
    assert "Troopers:\n- Grunt [10]\n  Archetype: Grunt; Experience: 7\n" in text


def test_custom_units_in_a_form_derived_from_the_profile_schema(test_pack, owner, client):
    pack = services.pack_create(user=owner, system="5150-test", name="Homebrew")
    html = client.get(f"/packs/{pack.pk}/units/new/").content.decode()
    for name in (
        'name="rep"',
        'name="armour"',
        'name="veteran"',
        'name="motto"',
        'name="gear"',
        'name="weapons-0-name"',
    ):
        assert name in html
    form = {"editor": "form", "kind": "trooper", "name": "Sniper", "faction": "stars", "cost": "14", "rep": "9",
            "armour": "light", "veteran": "on", "gear": "rope, torch", "weapons-0-name": "Rifle", "weapons-0-range": "36"}  # fmt: skip
    refused = client.post(f"/packs/{pack.pk}/units/new/", form)
    assert refused.status_code == 400
    assert "Rep: must be 6 or less" in refused.content.decode()
    assert not UnitProfile.objects.filter(pack=pack).exists()
    saved = client.post(f"/packs/{pack.pk}/units/new/", {**form, "rep": "5"})
    assert saved.status_code == 302
    unit = UnitProfile.objects.get(pack=pack)
    assert unit.data == {"rep": 5, "armour": "light", "veteran": True, "gear": ["rope", "torch"],
                         "weapons": [{"name": "Rifle", "range": 36}]}  # fmt: skip


def test_entry_views_fall_back_to_the_schema(test_pack, owner):
    roster = services.roster_create(owner=owner, pack=test_pack, name="Squad", faction="stars")
    services.entry_add(roster=roster, profile="grunt", options={"upgrades": ["medkit", "radio"]})
    view = next(iter(exports.entry_views(selectors.roster_state(roster)).values()))
    assert [b["type"] for b in view["blocks"]] == ["choice", "checks", "number"]
    assert view["blocks"][0]["choices"][0] == {"value": None, "label": "—", "selected": True, "json": "null"}
    assert view["summary"] == "Upgrades: medkit, radio"
