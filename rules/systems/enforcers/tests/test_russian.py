"""Russian first for «Энфорсеры»: its own catalogue (locale/ru) is complete and not fuzzy, and a Russian viewer of
the battle board (picking, acting, over) and of a crew's campaign history sees none of its English msgids."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from armies.tests.test_campaign import api_carry, crew, enforcers_pack, hurt_and_end, run, table, user  # noqa: F401
from battles import services as battles
from rules import dice as dicelib
from rules.errors import GameConflict, RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.settings import SETTINGS
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, resolve
from rules.systems.enforcers.tests.test_battle import table as battle_table
from rules.systems.enforcers.tests.test_odds_vs_resolver import CASES
from tests.packs import pack_words
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


# Every text of the rules in Russian (issue 15): the actions' summaries, steps and dice, the status ticks, the
# errors, the settings' help and the odds page. Latin words of 3+ letters are English left over, but for the book's
# own Latin words: its armour names (L327–350), REQ, and JSON's null in the odds form's help.
LATIN = re.compile(r"[A-Za-z]{3,}")
BOOK_LATIN = {"REQ", "null"} | {w for a in tables.ARMOUR.values() for w in a["name"].split()}


def english(texts) -> set[str]:
    return {w for text in texts for w in LATIN.findall(str(text))} - BOOK_LATIN


def nameless(value):
    """The inputs with every agent's name taken out, so the rules name each by its role."""
    if isinstance(value, dict):
        return {k: nameless(v) for k, v in value.items() if not (k == "name" and "stats" in value)}
    if isinstance(value, list):
        return [nameless(v) for v in value]
    return value


def outcome_texts(key: str, inputs: dict, seeds=range(40), **overrides) -> list[str]:
    out = []
    for seed in seeds:
        outcome = resolve(key, inputs, seed=seed, **overrides)
        # A die's purpose is stored in English and worded when shown (rules.dice.purpose_words): as a page shows it.
        out += [outcome.summary, *outcome.steps, *(dicelib.purpose_words(d["purpose"]) for d in outcome.dice)]
    return out


MORE_CASES = {  # branches CASES does not reach: a throw that scatters, a fall, every medical aid, every prayer …
    "throw": {"thrower": agent(BS=2, TN=10), "weapon": {"damage": 3, "traits": ["stunned"]}, "target": agent(TN=3),
              "distance_cm": 12},
    "fall": {"agent": agent(DX=8, TN=2, HL=10), "height_cm": 9},
    "medical_aid": {"healer": agent(HL=9), "target": agent(HL=10, hp=-6, statuses={"dying": {"turns": 1}}),
                    "mode": "stabilize"},
    "prayer": {"priest": agent(), "prayer": "last_rites", "target": agent(hp=-6, statuses={"dying": {"turns": 0}})},
    "shoot": {"shooter": agent(BS=3, statuses={"pinned": {"turns": 1}}), "weapon": {"damage": 9, "traits": ["burning"]},
              "target": agent(HL=8, TN=4, WL=4, took_cover=True), "cover": "full", "mode": "burst",
              "stray_victim": agent(HL=5), "height_cm": 6, "out_of_arc": True},
    "melee": {"attacker": agent(WS=4, HL=8, statuses={"disoriented": {"turns": 1}}),
              "attacker_weapon": {"damage": 3, "reach_cm": 1}, "defender": agent(WS=14, HL=8),
              "defender_weapon": {"damage": 4, "reach_cm": 3}, "height_cm": 2},
    "injuries": {"agent": agent(TN=3, flags={"half_hp": True, "seriously_wounded": True, "dying": True})},
    "armour_repair": {"repairer": agent(IT=2), "armour": "titan-exosuit"},
    "activation": {"agent": agent(WL=2, statuses={"fear": {}}), "ranged_drawn": False},
    "suppressive_fire": {"agent": agent(), "weapon": {"damage": 1, "ammo": 6, "capacity": 6}, "targets": [agent()]},
}  # fmt: skip
TICKS = [  # every status, ticking at the end of an activation or of the round, and at the start of an activation
    ("status_tick", {"poisoned": {}, "bleeding": {}}, {}),
    ("status_tick", {"burning": {"turns": 1}, "disoriented": {"turns": 1}, "pinned": {"turns": 2}}, {}),
    ("status_tick", {"seriously_wounded": {}, "dying": {"turns": 2}}, {}),
    ("status_tick", {"burning": {"turns": 2}, "dying": {"turns": 0}}, {"duration_unit": "round"}),
    ("activation", {"fear": {}, "stunned": {"stacks": 1}}, {}),
    ("activation", {"seriously_wounded": {}}, {}),
    ("activation", {"dying": {"turns": 1}}, {}),
]


def test_every_action_and_every_status_tick_reads_in_russian():
    texts = []
    with translation.override("ru"):
        for key, (inputs, overrides, _extract) in CASES.items():
            texts += outcome_texts(key, nameless(inputs), **overrides)
        for key, inputs in MORE_CASES.items():
            texts += outcome_texts(key, nameless(inputs))
        for key, statuses, overrides in TICKS:
            sheet = {"stats": agent()["stats"], "hp": -3 if "dying" in statuses else 6, "statuses": statuses}
            if "dying" in statuses:
                sheet["hp"] = -6
            moment = {"moment": "end_of_round"} if overrides and key == "status_tick" else {}
            texts += outcome_texts(key, {"agent": sheet, **moment}, seeds=range(12), **overrides)
    joined = "\n".join(texts)
    for russian in ("Кровотечение: −2 HP без учёта брони", "Стрельба (BS ", "Шальной выстрел", "Смещение 2д6",
                    "Прижат огнём", "контр-атака", "Критическая травма", "При смерти", "Действие Страха",
                    "благословени", "проклят", "Подавляющий огонь", "Не починена", "Цель"):  # fmt: skip
        assert russian in joined, russian
    assert not english(texts), sorted(english(texts))


def test_the_rules_errors_read_in_russian():
    refused = [
        ("shoot", {"shooter": agent(BS=9, statuses={"fear": {}}), "weapon": {"damage": 1}, "target": agent()}),
        ("move", {"agent": agent(DX=6), "distance_cm": 40}),
        ("medical_aid", {"healer": agent(), "target": agent(), "mode": "revive"}),
        ("suppressive_fire", {"agent": agent(), "weapon": {"damage": 1, "ammo": 1, "capacity": 6}, "targets": []}),
        ("status_tick", {"agent": agent()}),
        ("shoot", {"shooter": {"stats": {"HL": 5}}, "weapon": {"damage": 1}, "target": agent()}),
    ]
    messages = []
    with translation.override("ru"):
        for key, inputs in refused:
            with pytest.raises(RuleInputError) as caught:
                resolve(key, nameless(inputs), seed=1)
            messages += [str(m) for m in caught.value.errors.values()]
        t = battle_table()
        with pytest.raises(RuleInputError) as caught:
            t.command(0, "adjust", {"unit": "s0-kate"}, dice=[])
        messages.append(caught.value.message)
        t.command(0, "activate", {"unit": "s0-kate"}, dice=[])
        t.command(0, "ready_weapon", {"weapon": 0, "how": "stow"}, dice=[])
        with pytest.raises(GameConflict) as conflict:
            t.command(0, "ready_weapon", {"weapon": 0, "how": "draw"}, dice=[])
        messages.append(conflict.value.message)
    assert "Укажите HP или AP" in messages[-2]
    assert "Бесплатно достать" in messages[-1]
    assert "Под Страхом" in messages[0]
    assert not english(messages), messages


def test_the_settings_and_the_odds_page_read_in_russian(client):
    with translation.override("ru"):
        settings_texts = [t for s in SETTINGS for t in (s.describe()["label"], s.describe()["help"])]
        settings_texts += [o["label"] for s in SETTINGS for o in s.describe()["options"]]
        described = [a.describe() for a in SYSTEM.actions.values()]
    assert not english(settings_texts), sorted(english(settings_texts))
    page = []

    def walk(node):
        if isinstance(node, dict):
            page.extend(str(node[k]) for k in ("title", "description") if k in node)
            page.extend(map(str, (node.get("x-labels") or {}).values()))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for action in described:
        page += [action["label"], action["description"], *action["result_labels"].values()]
        walk(action["input_schema"])
    assert "Проверка Стрельбы с модификаторами стрельбы" in " ".join(page)
    assert not english(page), sorted(english(page))
    html_page = client.get("/odds/?system=enforcers", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    shown = json.loads(re.search(r'<script id="odds-schema"[^>]*>(.*?)</script>', html_page, re.S).group(1))
    assert [a["label"] for a in shown] == [a["label"] for a in described]
    assert "Получение урона" in [a["label"] for a in shown]


def test_every_translation_keeps_the_msgids_placeholders():
    """All of the catalogue, the long texts too (the test above reads only the one-line marked msgids)."""
    for entry in ENTRIES:
        for i, russian in entry["msgstr"].items():
            source = entry["msgid"] if i == 0 or "msgid_plural" not in entry else entry["msgid_plural"]
            assert placeholders(russian) <= placeholders(source) | placeholders(entry["msgid"]), entry["msgid"]
            assert placeholders(source) - {"{n}"} <= placeholders(russian), entry["msgid"]


def test_the_dice_are_recorded_in_english_and_read_in_the_readers_language():
    """A battle written on an English phone reads in Russian on a Russian one: every die of a test is stored under
    the test's English name («Shooting: d20», «Melee: curse d6 2 of 3», a re-roll «… (re-roll 1)») and worded when
    shown; each of the purposes has its Russian."""
    from rules.systems.enforcers.core import DIE_PURPOSES

    shot = {"shooter": agent(BS=12, rerolls=1), "weapon": {"damage": 4, "traits": ["bleeding"]},
            "target": agent(TN=8), "range_band": "long", "cover": "full", "use_reroll": True}  # fmt: skip
    stored = [d["purpose"] for d in resolve("shoot", shot, dice=[20, 1, 1, 1, 3, 1, 1, 1, 15]).dice]
    assert stored == ["Shooting: d20", "Shooting: curse d6 1 of 3", "Shooting: curse d6 2 of 3",
                      "Shooting: curse d6 3 of 3", "Shooting: d20 (re-roll 1)",
                      "Shooting: curse d6 (re-roll 1) 1 of 3", "Shooting: curse d6 (re-roll 1) 2 of 3",
                      "Shooting: curse d6 (re-roll 1) 3 of 3", "TN test against Bleeding: d20"]  # fmt: skip
    with translation.override("ru"):
        shown = [dicelib.purpose_words(p) for p in stored]
        assert shown[:2] == ["Стрельба: д20", "Стрельба: д6 проклятия 1 из 3"]
        assert shown[4] == "Стрельба: д20 (переброс 1)"
        assert shown[-1] == "Проверка Стойкости против статуса «Кровотечение»: д20"
        untranslated = [p for p in DIE_PURPOSES if dicelib.purpose_words(p) == p]
    assert not untranslated


def test_the_pack_page_words_read_in_russian_and_english():
    """The pack's source, its units' notes and its provenance are English in the pack; the pack page reads them
    through the catalogues (the provenance under the context «pack provenance»), so each has the book's Russian."""
    pack = json.loads((Path(__file__).resolve().parents[1] / "data/enforcers-core.json").read_text(encoding="utf-8"))
    shown, provenance = pack_words(pack)
    with translation.override("ru"):
        untranslated = [t for t in shown if translation.gettext(t) == t]
        untranslated += [t for t in provenance if translation.pgettext("pack provenance", t) == t]
    assert not untranslated, untranslated
    english = " ".join([*shown, *provenance])
    assert not re.findall(r"[А-Яа-яЁё]+", english.replace("«Энфорсеры»", "")), "Cyrillic in the English"
