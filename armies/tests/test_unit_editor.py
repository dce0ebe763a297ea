"""The structured custom-unit editor (/packs/<id>/units/…): create and edit a squad, a vehicle and a gun through
the form, player-worded errors next to their field with nothing saved, rows added without JS, and access."""

import pytest
from django.test import Client

from armies import services
from armies.models import DataPack, UnitProfile


@pytest.fixture
def pack(owner, official_pack):
    return services.pack_create(user=owner, system="bronepekhota", name="Homebrew")


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def soldier_rows(n=6, overrides=None):
    rows = {}
    for i in range(n):
        row = {"rank": "1", "speed": "4", "range": "Д6+2", "power": "2Д6", "melee": "2", "armour": "3", "jump": ""}
        row.update((overrides or {}).get(i, {}))
        rows.update({f"soldiers-{i}-{k}": v for k, v in row.items()})
    return rows


def squad_post(**extra):
    return {"editor": "form", "kind": "squad", "name": "Опричники", "faction": "protectorate", "cost": "75", **extra}


def weapon(prefix, i, **values):
    return {f"{prefix}-{i}-{k}": v for k, v in values.items()}


def vehicle_post(**extra):
    post = {
        "editor": "form",
        "kind": "vehicle",
        "name": "Танкетка",
        "faction": "polaris",
        "cost": "120",
        "rank": "2",
        "weight": "heavy",
        "locomotion": "walker",
        "rof": "2",
        "ammo_max": "10",
        "strength_max": "8",
        "mounts": "1",
        **{f"sectors-0-{k}": v for k, v in {"min": "5", "max": "8", "speed": "4"}.items()},
        **{f"sectors-1-{k}": v for k, v in {"min": "1", "max": "4", "speed": "2"}.items()},
        **weapon("arsenal", 0, name="Тяжёлая ракета", range="Д6+3", power="2Д20", blast_steps="2", blast_power="1Д20"),
        **weapon("arsenal", 1, name="Вибропила", melee="3"),
        "arsenal-0-charge_rocket": "on",
    }
    return {**post, **extra}


def gun_post(**extra):
    return {
        "editor": "form",
        "kind": "gun",
        "name": "Пушка-3",
        "faction": "green",
        "cost": "40",
        "rank": "1",
        "mobile": "on",
        "rof": "1",
        "ammo_max": "6",
        "strength_max": "3",
        **weapon("weapons", 0, name="Пушка", range="Д12", power="3Д20"),
        **extra,
    }


def test_new_squad_form_has_six_soldier_rows_and_the_pack_factions(client, pack):
    html = client.get(f"/packs/{pack.pk}/units/new/?kind=squad").content.decode()
    for i in range(6):
        assert f'name="soldiers-{i}-range"' in html
    assert 'name="soldiers-6-range"' not in html
    assert '<option value="protectorate"' in html
    assert '<option value="green"' in html
    assert 'name="soldiers-0-repair"' in html
    assert 'name="soldiers-0-jump"' in html


def test_create_a_squad_through_the_form(client, pack):
    rows = soldier_rows(
        6,
        {
            0: {"rank": "3", "repair": "on"},
            2: {"range": "", "power": "", "jump": "5"},
            5: {"rank": "", "speed": "", "range": "", "power": "", "melee": "", "armour": ""},  # a blank row: left out
        },
    )
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(**rows))
    assert response.status_code == 302, response.content.decode()
    unit = UnitProfile.objects.get(pack=pack)
    assert (unit.slug, unit.name, unit.kind, unit.cost, unit.faction.slug) == (
        "oprichniki",
        "Опричники",
        "squad",
        75,
        "protectorate",
    )
    soldiers = unit.data["soldiers"]
    assert [s["num"] for s in soldiers] == [1, 2, 3, 4, 5]
    assert soldiers[0] == {
        "num": 1,
        "rank": 3,
        "speed": 4,
        "range": "Д6+2",
        "power": "2Д6",
        "melee": 2,
        "armour": 3,
        "abilities": ["repair"],
    }
    assert soldiers[2]["range"] is None
    assert soldiers[2]["power"] is None
    assert soldiers[2]["abilities"] == ["jump:5"]


def test_edit_a_squad_prefills_the_form_and_saves_changes(client, pack):
    client.post(f"/packs/{pack.pk}/units/new/", squad_post(**soldier_rows(2, {1: {"repair": "on"}})))
    html = client.get(f"/packs/{pack.pk}/units/oprichniki/").content.decode()
    assert 'value="Опричники"' in html
    assert 'name="soldiers-1-repair" checked' in html
    assert 'name="soldiers-2-rank"' not in html
    rows = soldier_rows(3, {2: {"armour": "5", "range": "D12"}})
    response = client.post(f"/packs/{pack.pk}/units/oprichniki/", squad_post(cost="90", **rows))
    assert response.status_code == 302
    unit = UnitProfile.objects.get(pack=pack)
    assert unit.cost == 90
    assert len(unit.data["soldiers"]) == 3
    assert unit.data["soldiers"][2]["armour"] == 5
    assert unit.data["soldiers"][2]["range"] == "D12"


def test_bad_dice_and_out_of_range_numbers_are_explained_and_nothing_is_saved(client, pack):
    rows = soldier_rows(6, {2: {"range": "Д7"}, 3: {"power": "two"}, 4: {"armour": "25"}, 1: {"speed": "fast"}})
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(**rows))
    assert response.status_code == 400
    html = response.content.decode()
    # Not numbers are caught first; the dice and ranges are checked when the numbers parse.
    assert "Soldier 2 · Speed: write a whole number" in html
    assert not UnitProfile.objects.filter(pack=pack).exists()

    rows["soldiers-1-speed"] = "4"
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(**rows))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Soldier 3 · Range: write it like Д6+2" in html
    assert "Soldier 4 · Power: write it like 2Д6" in html
    assert "Soldier 5 · Armour: must be 20 or less" in html
    # next to the field: the error paragraph follows the input it concerns, which keeps the player's value
    assert 'name="soldiers-2-range" value="Д7"' in html
    after_input = html.split('name="soldiers-2-range"', 1)[1]
    assert after_input.index("field-error") < after_input.index('name="soldiers-2-power"')
    assert not UnitProfile.objects.filter(pack=pack).exists()
    assert DataPack.objects.filter(slug=pack.slug).count() == 1


def test_missing_name_and_negative_cost(client, pack):
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(name="", cost="-5", **soldier_rows(1)))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Name: fill this in" in html
    assert "Cost: must be 0 or more" in html
    assert not UnitProfile.objects.exists() or not UnitProfile.objects.filter(pack=pack).exists()


def test_a_squad_needs_a_soldier(client, pack):
    blank = {"rank": "", "speed": "", "range": "", "power": "", "melee": "", "armour": ""}
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(**soldier_rows(1, {0: blank})))
    assert response.status_code == 400
    assert "Soldiers: add at least one soldier" in response.content.decode()
    assert not UnitProfile.objects.filter(pack=pack).exists()


def test_create_and_edit_a_vehicle_through_the_form(client, pack):
    response = client.post(f"/packs/{pack.pk}/units/new/", vehicle_post())
    assert response.status_code == 302, response.content.decode()
    unit = UnitProfile.objects.get(pack=pack)
    data = unit.data
    assert (data["rank"], data["weight"], data["locomotion"], data["mounts"]) == (2, "heavy", "walker", 1)
    assert data["speed_sectors"] == [{"min": 5, "max": 8, "speed": 4}, {"min": 1, "max": 4, "speed": 2}]
    rocket, saw = data["arsenal"]
    assert rocket["range"] == "Д6+3"
    assert rocket["power"] == "2Д20"
    assert rocket["special"] == {"blast_steps": 2, "blast_power": "1Д20"}
    assert rocket["charges"] == ["rocket"]
    assert saw == {"key": "vibropila", "name": "Вибропила", "melee": 3}

    html = client.get(f"/packs/{pack.pk}/units/{unit.slug}/").content.decode()
    assert 'name="arsenal-1-melee" value="3"' in html
    assert '<option value="walker" selected>' in html
    assert 'name="arsenal-0-charge_rocket" checked' in html
    edit = vehicle_post(mounts="", **{"sectors-1-speed": "3", "arsenal-1-name": "", "arsenal-1-melee": ""})
    response = client.post(f"/packs/{pack.pk}/units/{unit.slug}/", edit)
    assert response.status_code == 302
    unit.refresh_from_db()
    assert unit.data["mounts"] is None
    assert unit.data["speed_sectors"][1]["speed"] == 3
    assert [w["key"] for w in unit.data["arsenal"]] == [rocket["key"]]  # the key survives the edit


def test_vehicle_errors_name_the_row(client, pack):
    bad = vehicle_post(**{"arsenal-0-blast_power": "много", "sectors-0-speed": "31", "weight": "huge"})
    response = client.post(f"/packs/{pack.pk}/units/new/", bad)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Weapon 1 · Blast power: write it like 1Д20" in html
    assert "Speed sector 1 · Speed: must be 30 or less" in html
    assert "Weight: choose one of the options" in html
    assert not UnitProfile.objects.filter(pack=pack).exists()


def test_create_and_edit_a_gun_through_the_form(client, pack):
    response = client.post(f"/packs/{pack.pk}/units/new/", gun_post())
    assert response.status_code == 302, response.content.decode()
    unit = UnitProfile.objects.get(pack=pack)
    assert unit.kind == "gun"
    assert unit.faction.slug == "green"
    assert unit.data["mobile"] is True
    assert unit.data["weapons"] == [{"key": "pushka", "name": "Пушка", "range": "Д12", "power": "3Д20"}]
    post = gun_post(
        **{"strength_max": "5", "weapons-1-name": "Пулемёт", "weapons-1-range": "Д6", "weapons-1-power": "Д6"}
    )
    del post["mobile"]  # an unticked box is not posted
    response = client.post(f"/packs/{pack.pk}/units/{unit.slug}/", post)
    assert response.status_code == 302
    unit.refresh_from_db()
    assert unit.data["mobile"] is False
    assert unit.data["strength_max"] == 5
    assert [w["name"] for w in unit.data["weapons"]] == ["Пушка", "Пулемёт"]


def test_gun_strength_zero_is_refused(client, pack):
    response = client.post(f"/packs/{pack.pk}/units/new/", gun_post(strength_max="0"))
    assert response.status_code == 400
    assert "Strength (max): must be 1 or more" in response.content.decode()
    assert not UnitProfile.objects.filter(pack=pack).exists()


def test_rows_are_added_and_removed_without_js_and_nothing_is_saved(client, pack):
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(action="add:soldiers", **soldier_rows(2)))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="soldiers-2-rank" value=""' in html
    assert 'name="soldiers-1-rank" value="1"' in html  # typed values are kept
    response = client.post(f"/packs/{pack.pk}/units/new/", squad_post(action="remove:soldiers:0", **soldier_rows(2)))
    html = response.content.decode()
    assert 'name="soldiers-0-rank"' not in html
    assert 'name="soldiers-1-rank"' in html
    assert "Soldier 1" in html
    assert "Soldier 2" not in html
    assert not UnitProfile.objects.filter(pack=pack).exists()


def test_json_box_stays_as_the_advanced_editor(client, pack):
    html = client.get(f"/packs/{pack.pk}/units/new/?kind=gun&editor=json").content.decode()
    assert 'name="data"' in html
    assert "&quot;mobile&quot;: true" in html
    inline = client.get(f"/packs/{pack.pk}/units/new/?kind=vehicle").content.decode()
    assert 'id="json_data"' in inline  # the JSON box sits folded under the form
    assert "&quot;speed_sectors&quot;" in inline


@pytest.mark.parametrize(("actor", "status"), [("outsider", 404), ("member", 403), ("editor", 302), ("owner", 302)])
def test_access_to_the_form(club_setup, official_pack, actor, status):
    pack = services.pack_create(user=club_setup["owner"], system="bronepekhota", name="Club", club=club_setup["club"])
    c = Client()
    c.force_login(club_setup[actor])
    assert c.get(f"/packs/{pack.pk}/units/new/").status_code == (200 if status == 302 else status)
    response = c.post(f"/packs/{pack.pk}/units/new/", gun_post())
    assert response.status_code == status
    assert UnitProfile.objects.filter(pack=pack).count() == (1 if status == 302 else 0)
