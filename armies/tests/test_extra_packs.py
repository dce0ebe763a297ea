"""A roster draws on the official pack plus the player's and the club's custom packs, each pinned to a version:
catalogue, costing, export/import, copy, upgrade, API and battle start all see units from several packs."""

import json

import pytest
from django.test import Client

from armies import selectors, services
from armies.models import Roster, UnitProfile
from battles import services as battle_services


def _custom_pack(user, official_pack, *, name="House units", cost=55, club=None, unit_name="Ополчение клуба"):
    """A published custom pack with one protectorate squad (the official Киберспецназ's soldiers, another cost)."""
    base = UnitProfile.objects.get(pack=official_pack, slug="protectorate_kiberspetsnaz")
    pack = services.pack_create(user=user, system=official_pack.system, name=name, club=club)
    services.profile_save(
        pack=pack,
        data={
            "slug": "house-squad",
            "name": unit_name,
            "faction": "protectorate",
            "kind": "squad",
            "cost": cost,
            "data": base.data,
        },
    )
    return services.pack_publish(pack=pack)


@pytest.fixture
def house(owner, official_pack):
    return _custom_pack(owner, official_pack)


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def test_a_new_roster_uses_the_official_pack_alone(roster, official_pack):
    assert [p.pk for p in selectors.roster_packs(roster)] == [official_pack.pk]
    assert selectors.roster_state(roster)["packs"] == [
        {
            "id": official_pack.pk,
            "slug": official_pack.slug,
            "name": official_pack.name,
            "version": 1,
            "main": True,
            "newer": None,
        }
    ]


def test_a_house_unit_joins_an_official_roster_and_is_costed_with_it(roster, house):
    before = selectors.roster_state(roster)["total"]
    services.roster_set_extra_packs(roster=roster, packs=[house])
    entry = services.entry_add(roster=roster, profile="house-squad", pack=house.pk)
    assert entry.profile.pack_id == house.pk
    state = selectors.roster_state(roster)
    assert state["total"] == before + 55
    row = next(e for e in state["entries"] if e["key"] == entry.key)
    assert row["pack"]["name"] == "House units"
    assert row["pack"]["main"] is False
    assert [p["main"] for p in state["packs"]] == [True, False]
    # Without naming the pack, a slug is looked up in the main pack first, then the extra packs.
    assert services.entry_add(roster=roster, profile="house-squad").profile.pack_id == house.pk
    assert services.entry_add(roster=roster, profile="griffin").profile.pack_id == roster.pack_id


def test_a_unit_of_a_pack_the_roster_does_not_draw_on_is_refused(roster, house):
    with pytest.raises(services.ServiceError, match="No unit 'house-squad'"):
        services.entry_add(roster=roster, profile="house-squad")
    with pytest.raises(services.ServiceError, match="does not draw on that pack"):
        services.entry_add(roster=roster, profile="house-squad", pack=house.pk)
    unit = UnitProfile.objects.get(pack=house, slug="house-squad")
    with pytest.raises(services.ServiceError, match="not in this roster's pack versions"):
        services.entry_add(roster=roster, profile=unit)


def test_extra_packs_must_be_published_custom_packs_of_the_game_one_version_each(roster, house, owner, official_pack):
    with pytest.raises(services.ServiceError, match="only published custom packs"):
        services.roster_set_extra_packs(roster=roster, packs=[official_pack])
    draft = services.pack_draft(pack=house)  # version 2, unpublished
    with pytest.raises(services.ServiceError, match="only published custom packs"):
        services.roster_set_extra_packs(roster=roster, packs=[draft])
    draft = services.pack_publish(pack=draft)
    with pytest.raises(services.ServiceError, match="one version of"):
        services.roster_set_extra_packs(roster=roster, packs=[house, draft])
    assert list(roster.extra_packs.all()) == []


def test_a_pack_in_use_cannot_be_dropped(roster, house):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    entry = services.entry_add(roster=roster, profile="house-squad", pack=house)
    version = Roster.objects.get(pk=roster.pk).version
    with pytest.raises(services.ServiceError, match="Ополчение клуба"):
        services.roster_set_extra_packs(roster=roster, packs=[])
    assert list(roster.extra_packs.all()) == [house]
    assert Roster.objects.get(pk=roster.pk).version == version
    services.entry_remove(entry=entry)
    services.roster_set_extra_packs(roster=roster, packs=[])
    assert list(roster.extra_packs.all()) == []


def test_export_names_each_pack_and_imports_back_with_the_same_total(roster, house, owner, make_user):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    entry = services.entry_add(roster=roster, profile="house-squad", pack=house)
    data = services.roster_export(roster=roster)
    assert data["extra_packs"] == [
        {"slug": house.slug, "version": 1, "checksum": house.checksum, "name": "House units"}
    ]
    row = next(e for e in data["entries"] if e["key"] == entry.key)
    assert row["pack"] == house.slug
    again = services.roster_import(user=owner, data=data, visible_packs=selectors.pack_visible_to(owner))
    assert [p.pk for p in selectors.roster_packs(again)] == [roster.pack_id, house.pk]
    assert selectors.roster_state(again)["total"] == selectors.roster_state(roster)["total"]
    # Someone who cannot read the house pack cannot import it: nothing is created.
    stranger = make_user("stranger")
    with pytest.raises(services.ServiceError, match="not available here"):
        services.roster_import(user=stranger, data=data, visible_packs=selectors.pack_visible_to(stranger))
    assert not Roster.objects.filter(owner=stranger).exists()


def test_import_refuses_an_entry_of_a_pack_the_file_does_not_name(roster, house, owner):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    services.entry_add(roster=roster, profile="house-squad", pack=house)
    data = services.roster_export(roster=roster)
    body = {k: v for k, v in data.items() if k not in ("checksum", "signature")}
    body["extra_packs"] = []
    forged = {**body, "checksum": services.checksum_of(body)}
    with pytest.raises(services.ServiceError, match="not in"):
        services.roster_import(user=owner, data=forged, visible_packs=selectors.pack_visible_to(owner))


def test_a_copy_keeps_the_pinned_packs(roster, house, club_setup):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    services.entry_add(roster=roster, profile="house-squad", pack=house)
    copy = services.roster_copy(roster=roster, user=club_setup["member"])
    assert list(copy.extra_packs.all()) == [house]
    assert selectors.roster_state(copy)["total"] == selectors.roster_state(roster)["total"]


def test_upgrading_the_extra_pack_changes_only_its_units(roster, house):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    entry = services.entry_add(roster=roster, profile="house-squad", pack=house)
    before = selectors.roster_state(roster)["total"]
    changed = services.profile_save(pack=house, slug="house-squad", data={**_unit(house), "cost": 65})
    v2 = services.pack_publish(pack=changed.pack)
    state = selectors.roster_state(roster)
    assert [p["newer"] for p in state["packs"]] == [None, {"id": v2.pk, "version": 2}]
    plan = services.roster_upgrade(roster=roster, target=v2)
    assert (plan["total_before"], plan["total_after"]) == (before, before + 10)
    assert list(roster.extra_packs.all()) == [v2]
    roster.refresh_from_db()
    assert roster.pack.is_official  # the main pack did not move
    entry.refresh_from_db()
    assert entry.profile.pack_id == v2.pk
    assert selectors.roster_state(roster)["total"] == before + 10


def _unit(pack):
    unit = UnitProfile.objects.select_related("faction").get(pack=pack, slug="house-squad")
    return {**unit.as_rules_dict()}


def test_a_battle_starts_from_a_roster_of_several_packs(roster, house, owner, official_pack):
    services.roster_set_extra_packs(roster=roster, packs=[house])
    services.entry_add(roster=roster, profile="house-squad", pack=house)
    other = services.roster_create(owner=owner, pack=official_pack, name="Red", faction="polaris")
    services.entry_add(roster=other, profile="polaris_lyogkiy_shturmovoy_desant")
    battle = battle_services.battle_create(user=owner, name="Mixed", rosters=[roster, other])
    names = [e["profile"]["name"] for e in battle.sides.get(index=0).snapshot["entries"]]
    assert "Ополчение клуба" in names


def test_builder_page_lists_units_of_every_pack_labelled_and_settings_pin_them(client, roster, house):
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert 'data-profile="house-squad"' not in html
    assert "House units v1 (owner)" in html  # offered in the roster settings
    form = {"name": roster.name, "faction": roster.faction, "visibility": "private", "extra_packs": [house.pk]}
    assert client.post(f"/rosters/{roster.pk}/settings/", form).status_code == 302
    assert list(roster.extra_packs.all()) == [house]
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert f'data-profile="house-squad" data-pack="{house.pk}"' in html
    assert 'data-testid="unit-pack">House units v1<' in html
    assert 'data-profile="griffin" aria-label' in html  # the official units stay, without a pack label
    services.entry_add(roster=roster, profile="house-squad", pack=house)
    live = client.get(f"/rosters/{roster.pk}/live/").content.decode()
    assert 'data-testid="entry-pack">House units v1<' in live


def test_the_api_pins_packs_and_adds_units_by_pack(client, roster, house, make_user, official_pack):
    url = f"/api/v1/rosters/{roster.pk}/"
    response = client.patch(url, json.dumps({"extra_packs": [house.pk]}), content_type="application/json")
    assert response.status_code == 200, response.json()
    assert [p["name"] for p in response.json()["packs"]] == [official_pack.name, "House units"]
    added = client.post(
        url + "entries/", json.dumps({"profile": "house-squad", "pack": house.pk}), content_type="application/json"
    )
    assert added.status_code == 201
    assert added.json()["entries"][-1]["pack"]["id"] == house.pk
    # Another player's pack is not readable: 404, and the roster keeps its packs.
    theirs = _custom_pack(make_user("someone"), official_pack, name="Theirs")
    refused = client.patch(url, json.dumps({"extra_packs": [theirs.pk]}), content_type="application/json")
    assert refused.status_code == 404
    dropping = client.patch(url, json.dumps({"extra_packs": []}), content_type="application/json")
    assert dropping.status_code == 400
    assert "Remove them first" in dropping.json()["detail"]
    assert list(roster.extra_packs.all()) == [house]


def test_a_club_pack_is_offered_to_the_club_members(club_setup, official_pack):
    club_pack = _custom_pack(club_setup["owner"], official_pack, name="Club units", club=club_setup["club"])
    member = club_setup["member"]
    mine = services.roster_create(owner=member, pack=official_pack, name="Mine", faction="protectorate")
    assert club_pack in selectors.extra_pack_choices(member, mine)
    assert club_pack not in selectors.extra_pack_choices(club_setup["outsider"], mine)
