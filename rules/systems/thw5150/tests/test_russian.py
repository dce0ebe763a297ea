"""Russian first for «5150» (issue 13): the system's own catalogue (locale/ru) is complete, and a Russian viewer
sees none of its msgids left in English on the builder, the battle board (with a question asked) and the odds
page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from armies import services as army_services
from battles import services
from rules.systems.thw5150.system import SYSTEM
from tests.test_i18n import po_entries

HERE = Path(__file__).resolve().parents[1]
CATALOGUE = HERE / "locale" / "ru" / "LC_MESSAGES" / "django.po"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru-RU,ru;q=0.9"}


def entries() -> list[dict]:
    return po_entries(CATALOGUE)


def test_the_catalogue_is_complete_and_nothing_is_fuzzy():
    found = entries()
    assert len(found) > 150
    assert not [e["msgid"] for e in found if "fuzzy" in e["flags"] or not all(e["msgstr"].values())]
    ids = {e["msgid"] for e in found}
    assert {s.label for s in SYSTEM.settings} <= ids  # every setting's name
    assert {a.label for a in SYSTEM.actions.values()} <= ids  # every test's name


def test_the_translations_come_out_in_the_books_words():
    with translation.override("ru"):
        labels = {a["key"]: a["label"] for a in SYSTEM.describe()["actions"]}
        assert labels["received_fire"] == "Тест «ОБСТРЕЛЯН»"
        assert labels["melee"] == "Рукопашная"
        board = SYSTEM.battle.board({"game": {"turn": 0, "phase": "roll", "pending": []}, "units": [],
                                     "sides": [{"index": 0, "name": "A"}]}, frozenset({0}), can_write=True)  # fmt: skip
        prompt = next(x for x in board["turnbar"] if x["type"] == "prompt")
        assert prompt["question"] == "бросок на Активацию"


def untranslated(page: str) -> list[str]:
    """The catalogue's English msgids (with their {placeholders} as wildcards) found in a page's visible text."""
    text = re.sub(r"<script\b.*?</script>|<style\b.*?</style>", " ", page, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = re.sub(r"\s+", " ", text)
    found = []
    for e in entries():
        msgid, msgstr = e["msgid"], e["msgstr"][0]
        literal = re.sub(r"\{[^}]*\}", "", msgid)
        if msgid == msgstr or len(literal.strip()) < 6 or not re.search("[A-Za-z]{3}", literal):
            continue  # a proper name or a short word: it cannot be told from the page's own text
        pattern = r"\b" + r".+?".join(re.escape(part) for part in re.split(r"\{[^}]*\}", msgid)) + r"(?!\w)"
        if re.search(pattern, text):
            found.append(msgid)
    return found


def test_the_checker_finds_an_untranslated_msgid():
    found = set(untranslated("<p>Roll the activation dice</p><b>Side 3 activates.</b>"))
    assert found == {"Side {side} activates.", "Roll the activation dice"}
    assert untranslated("<p>бросок на Активацию</p>") == []


@pytest.fixture
def battle_and_roster(db):
    ((pack, _created),) = army_services.load_packs(paths=[HERE / "data" / "normals.json"])
    alice, bob = (get_user_model().objects.create_user(username=n, password=None) for n in ("alice", "bob"))
    blue = army_services.roster_create(owner=alice, pack=pack, name="Patrol", faction="police")
    leader = army_services.entry_add(roster=blue, profile="police-u5", options={"weapon": "pistol", "leader": True})
    army_services.builder_tool_run(roster=blue, key="random-normal", inputs={"seed": 3})
    red = army_services.roster_create(owner=bob, pack=pack, name="Gang", faction="criminals")
    boss = army_services.entry_add(roster=red, profile="criminals-u4", options={"weapon": "pistol", "leader": True})
    battle = services.battle_create(user=alice, name="Night", rosters=[blue, red], enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=bob)
    return battle, blue, alice, bob, f"0.{leader.key}.1", f"1.{boss.key}.1"


def test_a_russian_viewer_sees_no_english_5150_msgid(battle_and_roster):
    battle, roster, alice, bob, leader, boss = battle_and_roster
    blue, red = Client(**RU), Client(**RU)
    blue.force_login(alice)
    red.force_login(bob)
    pages = {"builder": blue.get(f"/rosters/{roster.pk}/").content.decode()}
    pages["board, roll"] = blue.get(f"/battles/{battle.pk}/").content.decode()
    battle.refresh_from_db()
    services.command_run(battle_id=battle.pk, user=alice, name="activation", dice=[5, 2],
                         expected_version=battle.version)  # fmt: skip
    battle.refresh_from_db()
    pages["board, acting"] = blue.get(f"/battles/{battle.pk}/").content.decode()
    services.command_run(battle_id=battle.pk, user=alice, name="shoot", inputs={"shooter": leader, "target": boss,
                         "n": 1}, dice=[1], expected_version=battle.version)  # fmt: skip
    pages["board, asked"] = red.get(f"/battles/{battle.pk}/").content.decode()
    pages["board, waiting"] = blue.get(f"/battles/{battle.pk}/").content.decode()
    pages["odds"] = blue.get("/odds/?system=5150").content.decode()
    assert "Ваш ответ: тест «ОБСТРЕЛЯН»" in pages["board, asked"]  # the question, asked in Russian
    assert "Ждём ответа: Gang (bob) — тест «ОБСТРЕЛЯН»" in pages["board, waiting"]  # and said on the other phone
    assert "Брошено с зерном 3." in pages["builder"]
    assert "Тест «В ПОЛЕ ВИДИМОСТИ»" in pages["odds"]
    left = {name: untranslated(page) for name, page in pages.items()}
    assert not any(left.values()), left


def test_the_boards_words_follow_the_readers_language():
    """The book's word for a Russian reader, the English term for an English one (glossary.ENGLISH)."""
    from rules.systems.thw5150.battle.view import flags, word
    from rules.systems.thw5150.glossary import ENGLISH, GLOSSARY

    state = {"condition": "knocked_down", "leader": True, "in_cover": True, "fast_moved": True, "loaded": False}
    with translation.override("ru"):
        assert {k: word(k) for k in ENGLISH} == {k: GLOSSARY[k] for k in ENGLISH}
        assert [f["text"] if "text" in f else f.get("label") for f in flags(state)] == [
            "Оглушен", "Лидер", "укрытие", "Быстрое Перемещение", "недостаток боеприпасов"]  # fmt: skip
    with translation.override("en"):
        assert {k: word(k) for k in ENGLISH} == ENGLISH
        assert word("in_cover") == "in cover"
        assert not [k for k in ENGLISH if re.search("[а-яё]", word(k), re.I)]


def test_every_translation_keeps_the_msgids_placeholders():
    for e in entries():
        wanted = set(re.findall(r"\{[^}]*\}", e["msgid"]))
        for text in e["msgstr"].values():
            assert set(re.findall(r"\{[^}]*\}", text)) == wanted, e["msgid"]


def test_every_action_form_reads_in_russian():
    """The odds page's forms: each action's description, and every input's title and help (schema)."""
    english = []

    def walk(schema, where):
        if isinstance(schema, dict):
            for key, value in schema.items():
                if key in ("title", "description") and isinstance(value, str) and re.search("[A-Za-z]{3}", value) and not re.search("[а-яё]{3}", value, re.I):  # fmt: skip
                    english.append(f"{where}.{key}: {value}")
                walk(value, f"{where}.{key}")
        elif isinstance(schema, list):
            for item in schema:
                walk(item, where)

    with translation.override("ru"):
        for a in SYSTEM.describe()["actions"]:
            walk({"description": a["description"]}, a["key"])
            walk(a["input_schema"], a["key"])
            for name, prop in a["input_schema"].get("properties", {}).items():
                assert prop.get("title"), f"{a['key']}.{name} has no title"
    assert not english, english


def test_a_result_reads_in_the_books_words():
    from rules.dice import SeededDice

    inputs = {"shooter": {"rep": 5, "weapon": "pistol"}, "targets": [{"name": "Бандит", "dice": 1}]}
    with translation.override("ru"):
        outcome = SYSTEM.actions["shooting"].resolve(inputs, {}, SeededDice(1))
    text = " ".join([outcome.summary, *outcome.steps])
    assert "Бандит: 1 попадание" in text or "Бандит: 0 попаданий" in text, text
    assert "Кубики на попадание" in text
    assert untranslated(f"<p>{text}</p>") == []


def test_the_log_describes_a_shot_and_a_reaction_in_the_readers_language(battle_and_roster):
    battle, roster, alice, bob, leader, boss = battle_and_roster
    battle.refresh_from_db()
    services.command_run(battle_id=battle.pk, user=alice, name="activation", dice=[5, 2],
                         expected_version=battle.version)  # fmt: skip
    battle.refresh_from_db()
    services.command_run(battle_id=battle.pk, user=alice, name="shoot", inputs={"shooter": leader, "target": boss,
                         "n": 1}, dice=[1], expected_version=battle.version)  # fmt: skip
    battle.refresh_from_db()
    services.command_run(battle_id=battle.pk, user=bob, name="answer_reaction", inputs={}, dice=[6, 6, 6],
                         expected_version=battle.version)  # fmt: skip
    shot = battle.events.get(type="shot")
    assert "summary" not in shot.payload
    assert shot.payload["result"]["targets"][0]["result"] == "no_damage"
    blue = Client(**RU)
    blue.force_login(alice)
    page = blue.get(f"/battles/{battle.pk}/").content.decode()
    assert "0 попаданий, без ущерба" in page
    assert "«ОБСТРЕЛЯН»:" in page
    assert "пройден по 0" in page
    assert "hit(s)" not in page
    assert "no_damage" not in page
    assert untranslated(page) == []
    with translation.override("en"):
        line = SYSTEM.battle.describe_event(shot, {"units": {}})
        assert "0 hits, no damage" in line
