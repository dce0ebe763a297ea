"""Russian first for «Энфорсеры»: its own catalogue (locale/ru) is complete and not fuzzy, and a Russian viewer of
the battle board (picking, acting, over) and of a crew's campaign history sees none of its English msgids."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.utils import translation

from armies.tests.test_campaign import api_carry, crew, enforcers_pack, hurt_and_end, run, table, user  # noqa: F401
from battles import services as battles
from rules.systems.enforcers.settings import SETTINGS
from tests.test_i18n import po_entries

CATALOGUE = Path(__file__).resolve().parents[1] / "locale/ru/LC_MESSAGES/django.po"
ENTRIES = po_entries(CATALOGUE)


def test_the_catalogue_is_complete_and_not_fuzzy():
    assert len(ENTRIES) > 50
    for entry in ENTRIES:
        assert "fuzzy" not in entry["flags"], entry["msgid"]
        forms = 3 if "msgid_plural" in entry else 1
        assert [entry["msgstr"].get(i, "").strip() != "" for i in range(forms)] == [True] * forms, entry["msgid"]


def english_pieces() -> set[str]:
    """What would show if a msgid were left untranslated: each msgid's literal text between its placeholders,
    when it is a phrase (two words or more) and differs from its translation."""
    pieces = set()
    for entry in ENTRIES:
        for msgid in (entry["msgid"], entry.get("msgid_plural")):
            if not msgid or msgid == entry["msgstr"].get(0):
                continue
            for piece in re.split(r"\{[^}]*\}", msgid):
                piece = piece.strip(" ·.:()?")
                # HP and AP are the book's own Latin words (glossary), not English left over.
                if len(piece.split()) >= 2 and re.search(r"[a-z]{2,}", piece):
                    pieces.add(piece)
    return pieces


def page_text(response) -> str:
    body = response.content.decode()
    body = re.sub(r"<script.*?</script>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.django_db
def test_a_russian_viewer_sees_no_english_of_the_enforcers(client, enforcers_pack):  # noqa: F811
    alice, bob = user("alice"), user("bob")
    mine, theirs = crew(alice, enforcers_pack, "Кейт и друзья", [("Кейт", {})]), crew(bob, enforcers_pack, "Бандиты",
                                                                                     [("Бандит", {})])  # fmt: skip
    battle = battles.battle_create(user=alice, name="Склад", rosters=[mine, theirs])
    battles.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    kate = next(k for k, u in battles.load_state(battle).units.items() if u.side == 0)
    client.force_login(alice)
    pieces = english_pieces()
    assert {"Popcorn initiative", "End activation", "End the scenario with", "the winner"} <= pieces

    def russian_page(url):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 200
        text = page_text(response)
        assert not [p for p in pieces if p in text], url
        return text

    text = russian_page(f"/battles/{battle.pk}/")  # picking: the popcorn line, Activate, the footer
    assert "Попкорн-инициатива" in text
    assert "Активировать" in text
    run(battle, alice, "activate", {"unit": kate})
    text = russian_page(f"/battles/{battle.pk}/")  # acting: Shoot, Fight, Move, End activation
    assert "Закончить активацию" in text
    assert "Стрелять" in text
    run(battle, alice, "end_game", {"winner": 0})
    text = russian_page(f"/battles/{battle.pk}/")
    assert "Сценарий окончен" in text
    client.post(f"/rosters/{mine.pk}/scenarios/", {"battle": battle.pk})
    text = russian_page(f"/rosters/{mine.pk}/")
    assert "Сценарий 1: Склад" in text


def test_every_setting_is_named_in_russian_and_the_english_stays_english():
    ids = {e["msgid"] for e in ENTRIES}
    assert {s.label for s in SETTINGS} <= ids
    with translation.override("ru"):
        ru = {s.key: s.describe() for s in SETTINGS}
    with translation.override("en"):
        en = {s.key: s.describe() for s in SETTINGS}
    assert ru["days_between_scenarios"]["label"] == "Дней между сценариями"
    assert en["days_between_scenarios"]["label"] == "Days between scenarios"
    assert not [k for k in ru if re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", ru[k]["label"])]


@pytest.mark.django_db
def test_the_campaign_record_is_shown_in_the_readers_language(client, table):  # noqa: F811
    hurt_and_end(table)
    client.force_login(table["alice"])
    response = api_carry(client, table["crew"], {"battle": table["battle"].pk, "dice": [15, 4, 20, 3, 5, 20, 6, 1]})
    assert response.status_code == 201
    url = f"/rosters/{table['crew'].pk}/"
    russian = page_text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Kate: тест на Стойкость против травмы (лёгкая травма): провал, пропускает дней: 4." in russian
    assert "Bob чинит броню" in russian
    assert not [p for p in english_pieces() if p in russian]
    english = page_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert "Kate: TN test against a light injury: failed, out for 4 days." in english
    assert "тест на Стойкость" not in english
    api = client.get(f"/api/v1/rosters/{table['crew'].pk}/scenarios/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert "Kate: TN test" not in " ".join(api[0]["lines"])


SOURCE = Path(__file__).resolve().parents[1]
MARKED = re.compile(r'\b(?:N?T|_)\(\s*"((?:[^"\\]|\\.)*)"(\s*\))?(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')


def marked_msgids() -> set[str]:
    """The one-line msgids the package marks with T()/NT() (texts.py) or _() (a text split over lines is left to
    the catalogue test above)."""
    found = set()
    for path in SOURCE.rglob("*.py"):
        if "tests" in path.parts:
            continue
        text = path.read_text()
        for m in MARKED.finditer(text):
            rest = text[m.end() : m.end() + 3].lstrip()
            if m.group(2) or m.group(3) is not None or rest[:1] in (",", ")", "."):
                found.add(m.group(1))
                if m.group(3) is not None and text[m.start()] == "N":
                    found.add(m.group(3))
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^}]*\}", text))


def test_every_marked_msgid_is_translated_with_the_same_placeholders():
    catalogue = {e["msgid"]: e for e in ENTRIES}
    plurals = {e["msgid_plural"]: e for e in ENTRIES if "msgid_plural" in e}
    marked = marked_msgids()
    assert {"{shooter} hits {target}", "{label}: {roll} = {result} against {difficulty}: {verdict}."} <= marked
    shared = {e["msgid"] for e in po_entries(SOURCE.parents[2] / "locale/ru/LC_MESSAGES/django.po")}
    missing = sorted(m for m in marked if m not in catalogue and m not in plurals and m not in shared)
    assert not missing
    for msgid in marked - (shared - set(catalogue)):
        entry = catalogue.get(msgid) or plurals[msgid]
        for russian in entry["msgstr"].values():
            assert placeholders(russian) == placeholders(msgid), msgid


@pytest.mark.django_db
def test_the_log_is_read_in_the_readers_language(client, enforcers_pack):  # noqa: F811
    """The log's lines are stored as data: the same events read in Russian and in English."""
    alice, bob = user("alice"), user("bob")
    mine, theirs = crew(alice, enforcers_pack, "Кейт", [("Кейт", {})]), crew(bob, enforcers_pack, "Бандиты",
                                                                            [("Бандит", {})])  # fmt: skip
    battle = battles.battle_create(user=alice, name="Склад", rosters=[mine, theirs])
    battles.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    units = battles.load_state(battle).units
    kate = next(k for k, u in units.items() if u.side == 0)
    bandit = next(k for k, u in units.items() if u.side == 1)
    client.force_login(alice)
    run(battle, alice, "activate", {"unit": kate})
    run(battle, alice, "shoot", {"target": bandit, "weapon": 0, "range_band": "medium"})
    run(battle, alice, "move", {"distance_cm": 3})
    text = page_text(client.get(f"/battles/{battle.pk}/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "против" in text
    assert "движение 3 из" in text
    assert not [p for p in english_pieces() if p in text]
    assert "Раунд 1" in text
    english = page_text(client.get(f"/battles/{battle.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "moves 3 of" in english
