"""«Roll a random Normal» in the builder (issue 13): the book's tables through the army part's builder tool, seeded
and shown (the seed and every die), the same seed giving the same figure; over the API, the roster page, and on a
phone. The builder draws every entry in the book's words."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from armies import services
from armies.models import RosterEntry
from rules.systems.thw5150 import equipment, random_normal
from rules.systems.thw5150.army import ARMY

PACK_FILE = Path(__file__).resolve().parents[1] / "data" / "normals.json"


@pytest.fixture
def normals(db):
    ((pack, _created),) = services.load_packs(paths=[PACK_FILE])
    return pack


@pytest.fixture
def player(normals):
    user = get_user_model().objects.create_user(username="rolling", password="phone-pass-5150")
    roster = services.roster_create(owner=user, pack=normals, name="Patrol", faction="police")
    return user, roster


def tool_url(roster) -> str:
    return f"/api/v1/rosters/{roster.pk}/tools/random-normal/"


def test_the_same_seed_gives_the_same_figure_and_every_die_is_shown():
    profiles = equipment.PACK["profiles"]
    first = ARMY.run_builder_tool("random-normal", {"faction": "police"}, profiles, {"seed": 42})
    again = ARMY.run_builder_tool("random-normal", {"faction": "police"}, profiles, {"seed": 42})
    assert first.entries == again.entries
    figure = random_normal.roll_random_normal(seed=42)
    (made,) = first.entries
    assert made["profile"] == f"police-u{figure['rep']}"
    assert (made["options"]["weapon"], made["options"]["armour"]) == (figure["weapon"], figure["armour"])
    assert made["options"]["random"]["seed"] == 42
    text = " ".join(first.lines)
    assert "seed 42" in text
    rolls = figure["rolls"]
    assert f"1d6 = {rolls['rep']}" in text
    assert " + ".join(map(str, rolls["weapon"])) in text
    assert " + ".join(map(str, rolls["armour"])) in text
    other = ARMY.run_builder_tool("random-normal", {"faction": "police"}, profiles, {"seed": 43})
    assert other.result["dice"] != first.result["dice"]


def test_a_leader_and_the_law_level_add_to_the_rolls():
    profiles = equipment.PACK["profiles"]
    made = ARMY.run_builder_tool(
        "random-normal", {"faction": "criminals"}, profiles, {"seed": 7, "leader": True, "law_level": "low"}
    )
    record = made.entries[0]["options"]["random"]
    assert record["modifier"] == 3  # «Низкий» +2, Leader +1 (L1436–1439)
    assert made.entries[0]["options"]["leader"] is True
    assert f"+ 3 = {sum(record['rolls']['weapon']) + 3}" in " ".join(made.lines)


def test_over_the_api_it_adds_the_figure_and_answers_the_seed_and_the_dice(client, player):
    user, roster = player
    client.force_login(user)
    answer = client.post(tool_url(roster), {"inputs": {"seed": 1234}}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    figure = random_normal.roll_random_normal(seed=1234)
    assert body["result"]["seed"] == 1234
    assert [d["value"] for d in body["result"]["dice"]] == [d["value"] for d in figure["dice"]]
    assert "seed 1234" in body["lines"][0]
    (key,) = body["entries"]
    entry = RosterEntry.objects.get(roster=roster, key=key)
    assert entry.profile.data["rep"] == figure["rep"]
    assert entry.options["weapon"] == figure["weapon"]
    assert body["roster"]["total"] == figure["cost"]
    again = client.post(tool_url(roster), {"inputs": {"seed": 1234}}, content_type="application/json").json()
    assert RosterEntry.objects.get(key=again["entries"][0]).options == entry.options


@pytest.mark.parametrize(
    ("inputs", "field"),
    [({"seed": -1}, "inputs.seed"), ({"law_level": "anarchy"}, "inputs.law_level"), ({"x": 1}, "inputs.x")],
)
def test_bad_inputs_are_a_400_naming_the_field_and_add_nothing(client, player, inputs, field):
    user, roster = player
    client.force_login(user)
    answer = client.post(tool_url(roster), {"inputs": inputs}, content_type="application/json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"]
    assert not RosterEntry.objects.filter(roster=roster).exists()


def test_an_unknown_tool_is_a_400_and_a_stranger_gets_no_write(client, player):
    user, roster = player
    client.force_login(user)
    bad = client.post(f"/api/v1/rosters/{roster.pk}/tools/no-such/", {}, content_type="application/json")
    assert bad.status_code == 400
    client.force_login(get_user_model().objects.create_user(username="stranger", password=None))
    assert client.post(tool_url(roster), {}, content_type="application/json").status_code == 404
    assert not RosterEntry.objects.filter(roster=roster).exists()


def test_the_roster_page_offers_the_tool_and_shows_the_seed_and_dice_on_the_entry(client, player):
    user, roster = player
    client.force_login(user)
    page = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert 'data-testid="builder-tool"' in page
    assert "Roll a random Normal" in page
    answer = client.post(f"/rosters/{roster.pk}/tools/random-normal/", {"seed": "99", "law_level": "lax"}, follow=True)
    assert answer.status_code == 200
    html = answer.content.decode()
    figure = random_normal.roll_random_normal(seed=99, settings={"law_level": "lax"})
    assert "Random Normal, seed 99" in html  # the message after the roll
    assert "Rolled with seed 99." in html  # kept on the entry
    assert figure["weapon_name"] in html
    assert figure["armour_name"] in html
    bad = client.post(f"/rosters/{roster.pk}/tools/random-normal/", {"seed": "abc"}, follow=True)
    assert bad.status_code == 200
    assert RosterEntry.objects.filter(roster=roster).count() == 1


def test_russian_builder_speaks_the_books_words(client, player):
    user, roster = player
    client.force_login(user)
    client.post(f"/rosters/{roster.pk}/tools/random-normal/", {"seed": "5"})
    html = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Бросить случайного Обычного" in html
    assert "Стрелковое оружие" in html
    assert "Персональная защита" in html
    assert "Брошено с зерном 5." in html
    assert "Roll a random Normal" not in html
    assert "Ranged weapon" not in html


CONTROLS = ("weapon", "second_weapon", "melee_weapon", "armour", "grenades", "group", "leader", "star")


def test_every_normal_of_the_pack_can_be_added_and_set_up_in_russian(client, normals):
    """Every profile of the pack is offered with «+» in its faction's roster and, once added, every choice a player
    makes has its own control with a Russian label and the book's names: no raw slug, no English (issue «Every
    system played to its end at the table», step 1; the journey taps «+» on the phone)."""
    user = get_user_model().objects.create_user(username="builder", password=None)
    client.force_login(user)
    factions = [f["slug"] for f in equipment.PACK["factions"]]
    added = 0
    for faction in factions:
        roster = services.roster_create(owner=user, pack=normals, name=f"Отряд {faction}", faction=faction)
        page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        mine = [p for p in equipment.PACK["profiles"] if p["faction"] == faction]
        assert len(mine) == 3
        catalogue = re.findall(r'<li data-name="[^"]*">.*?</li>', page, re.S)
        assert len(catalogue) == 3
        for item in catalogue:
            assert not re.findall(r"[A-Za-z]{3,}", html_lib.unescape(re.sub(r"<[^>]+>", " ", item))), item
        for p in mine:
            assert re.search(rf'<span class="cat-name">{re.escape(p["name"])}</span>', page), p["name"]
            services.entry_add(roster=roster, profile=p["slug"], options={})
            added += 1
        page = client.get(f"/rosters/{roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        entries = re.findall(r'<article class="entry card.*?</article>', page, re.S)
        assert len(entries) == 3
        for entry in entries:
            for option in CONTROLS:
                assert f'data-option="{option}"' in entry, option
            text = html_lib.unescape(re.sub(r"<[^>]+>", " ", entry))
            assert not re.findall(r"[A-Za-z]{3,}", text), text
    assert added == len(equipment.PACK["profiles"]) == 15
