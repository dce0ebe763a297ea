"""Russian first (issue #16): every text «Отряды» marks for translation has a Russian translation, and a Russian
reader's board, log and builder lines hold no English, only the book's words."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.dice import SeededDice, TableDice
from rules.systems.squads import names
from rules.systems.squads.army import ARMY, suggested_block
from rules.systems.squads.system import SYSTEM
from rules.systems.squads.tests.support import settings
from rules.systems.squads.tests.test_battle import PACK, _event
from tests.packs import pack_words

PACKAGE = Path(__file__).resolve().parents[1]
# What a Russian screen may show in Latin letters: the book's line references (L28), the spec's (§5 B3), the
# game FUBAR the spec cites, and the API's own field names and JSON words in the odds form's help.
ALLOWED = re.compile(r"\bL\d+(–\d+)?\b|§\d+ B\d+|\bFUBAR\b|\b[a-z]+_[a-z_]+\b|\b(true|false|null|alive|x|y)\b")
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def marked_calls() -> list[tuple[str, ...]]:
    """Every literal msgid (a plural: both forms) passed to _, N_ or ngettext in the package, parsed, not grepped."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("_", "N_", "ngettext"):
                args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if args:
                    found.append(tuple(args[:2]) if node.func.id == "ngettext" else (args[0],))
    return found


def marked_msgids() -> list[str]:
    return [call[0] for call in marked_calls()]


def texts(node) -> list[str]:
    if isinstance(node, dict):
        codes = ("command", "type", "kind", "tone", "key", "name", "value", "inputs", "rule", "compare")  # not shown
        return [t for k, v in node.items() if k not in codes
                for t in texts(v)] + ([node["value"]] if node.get("type") == "text" else [])  # fmt: skip
    if isinstance(node, list):
        return [t for v in node for t in texts(v)]
    return [node] if isinstance(node, str) else []


def english(lines) -> list[str]:
    return [line for line in lines if re.search(r"[A-Za-z]", ALLOWED.sub("", line))]


def test_every_marked_squads_text_is_translated_into_russian():
    msgids = marked_msgids()
    assert len(msgids) > 60
    with translation.override("ru"):
        missing = [m for m in msgids if translation.gettext(m) == m]
    assert not missing, missing


def action_texts() -> list[str]:
    """The odds page's words: each action's label and description and every description of its input schema."""
    out = []

    def walk(node):
        if isinstance(node, dict):
            out.extend(v for k, v in node.items() if k == "description" and isinstance(v, str))
            out.extend(v for k, v in node.items() if k == "x-labels" for v in v.values())
            for k, v in node.items():
                if k not in ("description", "x-labels"):
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for action in SYSTEM.actions.values():
        described = action.describe()
        out += [described["label"], described["description"]]
        walk(described["input_schema"])
    return out


def test_every_msgid_and_plural_is_translated_with_the_same_placeholders():
    calls = marked_calls()
    with translation.override("en"):
        english_actions = action_texts()
    assert len(calls) > 250
    wrong = []
    with translation.override("ru"):
        for call in calls:
            forms = [translation.ngettext(call[0], call[1], n) for n in (1, 3, 5)] if len(call) == 2 else [
                translation.gettext(call[0])]  # fmt: skip
            for form in forms:
                if form in call or set(PLACEHOLDER.findall(form)) != set(PLACEHOLDER.findall(call[0])):
                    wrong.append((call, form))
        for text in english_actions + [s.label for s in SYSTEM.settings] + [s.help for s in SYSTEM.settings]:
            if translation.gettext(text) == text:
                wrong.append((text,))
    assert not wrong, wrong[:10]


def test_a_russian_reader_sees_the_settings_and_the_odds_page_in_the_books_words():
    with translation.override("ru"):
        seen = [t for s in SYSTEM.settings for d in [s.describe()] for t in [d["label"], d["help"]]
                + [o["label"] for o in d["options"] if s.kind == "choice"]]  # fmt: skip
        odds = action_texts()
    assert len(seen) > 130
    assert len(odds) > 80
    assert not english(seen), english(seen)[:10]
    assert not english(odds), english(odds)[:10]
    assert "Наибольшее подавление: Рекрут" in seen
    assert "Прицельный огонь" in odds


def test_names_are_the_books_words_in_russian_and_english_words_in_english():
    from rules.systems.squads import tables

    pairs = [(names.weapon, tables.WEAPONS, lambda x: x.name), (names.level, tables.TRAINING, lambda x: x.name),
             (names.action, tables.ACTION_NAMES, str), (names.armour, tables.PERSONAL_ARMOUR, lambda x: x.name),
             (names.vehicle_armour, tables.VEHICLE_ARMOUR, lambda x: x.name), (names.cover, tables.COVER_NAMES, str),
             (names.damage, tables.DAMAGE_NAMES, str)]  # fmt: skip
    for name, table, book in pairs:
        with translation.override("ru"):
            assert [name(k) for k in table] == [book(v) for v in table.values()]
        with translation.override("en"):
            assert not [name(k) for k in table if not re.fullmatch(r"[A-Za-z][A-Za-z /,\-]+", name(k))]
    with translation.override("en"):
        assert names.weapon("smg") == "Machine pistol"
        assert names.level("elite") == "Elite"
        assert SYSTEM.actions["unit_action"].describe()["label"] == "Action after a successful activation"


def test_an_english_reader_sees_english_names_on_the_board():
    t = Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])
    with translation.override("en"):
        seen = texts(_board(t, {0}))
        for side, name, inputs, dice in SYSTEM.battle.example_script(t.state)[:3]:
            t.command(side, name, inputs, dice=dice)
        seen += texts(_board(t, {0}))
    assert not [line for line in seen if re.search("[а-яА-ЯёЁ]", line) and "Красные" not in line
                and "Синие" not in line and not any(u.name in line for u in t.state.units.values())]  # fmt: skip


def test_a_russian_reader_gets_errors_awaiting_messages_and_roster_issues_in_russian():
    t = Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])
    seen = []
    with translation.override("ru"):
        seen.append(SYSTEM.battle.awaiting(t.state).message)
        for i, (side, name, inputs, dice) in enumerate(SYSTEM.battle.example_script(t.state)[:5]):
            t.command(side, name, inputs, dice=dice)
            seen.append(SYSTEM.battle.awaiting(t.state).message)
            if i == 3:  # the split question: the shooter may not answer it, nor act meanwhile
                for bad in ((0, "split_hits", {"suppress": 1}), (0, "done", {"unit": inputs["unit"]})):
                    try:
                        t.command(*bad)
                    except Exception as exc:  # noqa: BLE001 - GameConflict or NotYours, both shown on the phone
                        seen.append(str(getattr(exc, "detail", None) or exc))
        lone = {"key": "x", "profile": {"name": "Пулеметчик", "kind": "squad", "data": {"level": "regular"}},
                "options": {"figures": [{"weapon": "hmg", "armour": "none", "count": 1}]}}  # fmt: skip
        report = ARMY.cost_roster({"entries": [lone]})
        seen += [i.message for i in report.issues]
    assert len(seen) >= 8
    seen = [re.sub(r"Side \d", "", line) for line in seen]  # the in-memory Table's own side names
    assert not english(seen), english(seen)[:10]
    assert any("расчет" in line for line in seen)


def _board(t, viewer):
    view = t.view(viewer)
    units = [{"key": k, "name": u.name, "kind": u.kind, "side": u.side, "owner": u.side, "mine": u.side in viewer,
              "view": view["units"][k]} for k, u in t.state.units.items()]  # fmt: skip
    state_view = {"game": view["game"], "sides": [{"index": 0, "name": "Красные"}, {"index": 1, "name": "Синие"}],
                  "units": units, "version": t.version}  # fmt: skip
    return SYSTEM.battle.board(state_view, frozenset(viewer), can_write=True)


def test_a_russian_reader_sees_no_english_on_the_board_in_the_log_or_the_builder():
    t = Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])
    seen = []
    with translation.override("ru"):
        seen += texts(_board(t, {0}))
        for i, (side, name, inputs, dice) in enumerate(SYSTEM.battle.example_script(t.state)):
            t.command(side, name, inputs, dice=dice)
            if i in (2, 3, 5, 8):  # acting, the split question, On Guard, the reaction
                seen += texts(_board(t, {0})) + texts(_board(t, {1}))
        names = {"units": {k: u.name for k, u in t.state.units.items()}, "sides": {0: "Красные", 1: "Синие"}}
        seen += [SYSTEM.battle.describe_event(_event(e), names) for e in t.active()]
        t.command(0, "end", {"winner": 0})
        seen += texts(_board(t, {0}))
        found = {"points": 36, "low": 35.5, "high": 36.9, "job": {"battles": 2000, "seed": 1}}
        seen += texts(suggested_block(found))
    assert len(seen) > 100
    assert not english(seen), english(seen)[:20]
    assert "Бой окончен." in seen
    assert any(line.startswith("Предлагаемые очки (по моделированию)") for line in seen)


@pytest.mark.parametrize("text", ["Turn 1 · initiative: Red", "L28 ok"])
def test_the_check_itself_sees_english(text):
    assert english([text])


def test_every_field_of_the_odds_form_has_a_title_in_the_readers_language():
    """The odds page names each input as the book would, never by its key (`shooter`, `groups`)."""

    def titles(schema, found):
        if isinstance(schema, dict):
            for key, value in schema.items():
                if key in ("properties", "patternProperties"):
                    for name, sub in value.items():
                        found.append((name, sub.get("title")))
                        titles(sub, found)
                elif isinstance(value, dict | list):
                    titles(value, found)
        elif isinstance(schema, list):
            for item in schema:
                titles(item, found)
        return found

    actions = SYSTEM.actions.values() if isinstance(SYSTEM.actions, dict) else SYSTEM.actions
    for language in ("ru", "en"):
        with translation.override(language):
            found = [t for a in actions for t in titles(a.describe()["input_schema"], [])]
        assert found
        assert all(title for _name, title in found), [n for n, t in found if not t][:10]
        if language == "ru":
            assert not english([t for _n, t in found]), english([t for _n, t in found])[:10]
            assert ("shooter", "Стрелок") in found
        else:
            assert ("shooter", "Shooter") in found


def test_the_odds_pages_input_errors_are_in_the_readers_language():
    """An impossible input on the odds page is refused in the reader's words (the message names what is wrong)."""
    from rules.errors import RuleInputError
    from rules.systems.squads.actions.turn import Initiative

    inputs = {"players": [{"name": "Анна"}, {"name": "Анна"}]}
    for language, expected in (("ru", "Каждый игрок указывается один раз."), ("en", "Each player is listed once.")):
        with translation.override(language), pytest.raises(RuleInputError) as refused:
            Initiative().odds(inputs, {})
        assert refused.value.errors == {"players": expected}


def test_the_russian_log_names_units_and_sides_without_declining_them():
    """A unit's or side's name is what the roster calls it: a Russian line never puts it where Russian grammar would
    decline it («стреляет по Штурмовики»); it follows a noun in quotes instead («по цели «Штурмовики»»)."""
    t = Table(SYSTEM, rosters=[ARMY.example_roster(PACK["profiles"], s) for s in (0, 1)])
    for side, name, inputs, dice in SYSTEM.battle.example_script(t.state):
        t.command(side, name, inputs, dice=dice)
    t.command(0, "end", {"winner": 0})
    units = {k: u.name for k, u in t.state.units.items()}
    names = {"units": units, "sides": {0: "Красные", 1: "Синие"}}
    with translation.override("ru"):
        lines = [SYSTEM.battle.describe_event(_event(e), names) for e in t.active()]
    assert lines[0] == "Ход 1: инициатива у стороны «Красные»."
    assert lines[-1] == "Бой окончен: победила сторона «Красные»."
    shots = [line for line in lines if " по цели «" in line]
    assert len(shots) >= 2
    assert any("реагирует огнём по цели «" in line for line in shots)
    for line in lines:  # no name straight after a preposition
        assert not re.search(r"\b(по|у|против) (?!цели|стороны|отряду)\S", line), line


# One example per odds action (the inputs of test_odds.py, plus the no-dice ones), as the odds page sends them.
ODDS_EXAMPLES = [
    ("initiative", {"players": [{"name": "Анна", "modifier": 1}, {"name": "Борис"}, {"name": "Вера"}]}, {}),
    ("activation", {"unit": {"level": "regular", "suppressed": 1, "figures": 6, "sees_enemy": False,
                             "out_of_coherency": 1, "leader": {"level": "elite", "alive": False},
                             "strength": 8, "casualties": 5, "nearest_enemy": "Штурмовики"}}, {"leader_lost": "keep"}),
    ("activation", {"unit": {"kind": "vehicle", "level": "veteran", "crew_stunned": 1, "strength": 4,
                             "casualties": 3, "sees_enemy": False}}, {}),
    ("failed_activation", {"unit": {"strength": 6, "casualties": 4, "nearest_enemy": "Штурмовики"}}, {}),
    ("failed_activation", {"unit": {"strength": 6, "casualties": 4, "sees_enemy": False}}, {}),
    ("failed_activation", {"unit": {"strength": 6, "casualties": 1}, "passes_initiative": False}, {}),
    ("unit_action", {"action": "walk", "moved": 4, "weapons": ["rifle", "lmg", "grenades"]}, {}),
    ("unit_action", {"action": "run"}, {"units": "cm"}),
    ("shooting", {"shooter": {"level": "veteran", "action": "aimed_fire",
                              "groups": [{"weapon": "assault_rifle", "count": 4, "distance": 10},
                                         {"weapon": "lmg", "count": 1, "distance": 10}]},
                  "target": {"groups": [{"count": 2, "armour": "heavy", "cover": "medium"},
                                        {"count": 4, "armour": "light", "cover": "medium"}]}}, {}),
    ("shooting", {"shooter": {"level": "recruit", "action": "on_guard",
                              "groups": [{"weapon": "flamethrower", "count": 1, "distance": 6},
                                         {"weapon": "smg", "count": 3, "distance": 6, "suppressed": 1}]},
                  "target": {"stance": "go_to_ground", "groups": [{"count": 5, "armour": "medium", "cover": "light",
                                                                   "behind_vehicle": "light"}]},
                  "reaction": {"enemy_action": "declared"}}, {"aimed_cap_order": "aim_then_cap",
                                                              "save_allocation": "by_figure"}),
    ("shooting", {"shooter": {"kind": "vehicle", "level": "veteran",
                              "groups": [{"weapon": "heavy_cannon", "count": 1, "distance": 30},
                                         {"weapon": "rifle", "count": 2, "distance": 10}]},
                  "target": {"kind": "vehicle", "armour": "medium", "facing": "front"}}, {}),
    ("split_hits", {"target": {"level": "regular", "figures": 5, "suppressed": 1}, "unsaved": 6, "suppress": 1}, {}),
    ("armour_saves", {"hits": 7, "target": {"groups": [{"count": 2, "armour": "power"}, {"count": 3}]}}, {}),
    ("melee", {"attacker": {"level": "regular", "figures": 5, "suppressed": 2, "armour": "light"},
               "defender": {"level": "veteran", "figures": 3, "suppressed": 1, "armour": "medium"}}, {}),
    ("melee", {"round": 3, "attacker": {"level": "elite", "figures": 4, "in_reach": 2, "suppressed": 1},
               "defender": {"level": "recruit", "figures": 2, "suppressed": 2, "armour": "power"}},
     {"melee_round_clears_suppression": False}),
    ("withdrawal", {"withdrawing": {"level": "regular", "suppressed": 1, "figures": 4},
                    "pursuer": {"level": "veteran"}}, {"units": "cm"}),
    ("withdrawal", {"withdrawing": {"level": "elite", "figures": 4}, "pursuer": None}, {}),
    ("vehicle_move", {"vehicle": {"armour": "medium", "weapons": 3}, "move": "open", "distance": 10}, {}),
    ("vehicle_move", {"vehicle": {"armour": "light", "immobilised": True}, "move": "stationary"}, {}),
    ("vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "rear"}, "hits": 4, "weapon": "rifle"}, {}),
    ("vehicle_hit", {"vehicle": {"armour": "light", "facing": "side"}, "hits": 3, "weapon": "rpg"}, {}),
    ("vehicle_hit", {"vehicle": {"armour": "heavy", "facing": "front"}, "hits": 3, "weapon": "hmg"}, {}),
    ("overrun", {"unit": {"level": "recruit", "sees_enemy": False}, "armour": "medium"}, {}),
    ("overrun", {"unit": {"level": "elite"}}, {}),
]  # fmt: skip
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def _odds_page_words(action, inputs, over, seed) -> list[str]:
    """What a reader of /odds/ and of the rules API's resolve answer reads: the summary, every step, every die's
    purpose, and the label of every key the odds answer holds."""
    act = SYSTEM.actions[action]
    outcome = act.resolve(inputs, settings(**over), SeededDice(seed))
    labels = act.describe()["result_labels"]
    odds = act.odds(inputs, settings(**over))
    missing = [key for key in odds if key not in labels]
    return (
        [outcome.summary, *outcome.steps, *(d["purpose"] for d in outcome.dice)]
        + [labels[k] for k in odds if k in labels]
        + missing
    )


def test_a_russian_reader_of_the_odds_page_reads_no_english_in_any_result():
    seen, outcomes = [], set()
    with translation.override("ru"):
        for action, inputs, over in ODDS_EXAMPLES:
            for seed in range(12):
                words = _odds_page_words(action, inputs, over, seed)
                outcomes.add(words[0])
                seen += words
    assert len(outcomes) > 40  # every branch of the examples met: success and failure, saved and not, caught …
    english_words = sorted({line for line in seen if LATIN_WORD.search(ALLOWED.sub("", line))})
    assert not english_words, english_words[:20]


def test_the_odds_pages_results_read_in_english_for_an_english_reader():
    with translation.override("en"):
        words = [w for action, inputs, over in ODDS_EXAMPLES for w in _odds_page_words(action, inputs, over, 3)]
    assert not [w for w in words if re.search("[а-яА-ЯёЁ]", w) and "Штурмовики" not in w and "Анна" not in w
                and "Борис" not in w and "Вера" not in w]  # fmt: skip


NAME_THEN_WORD = re.compile(r"\{(unit|name|shooter|side|player|weapon)\} [а-яёА-ЯЁ]")


def test_no_russian_line_makes_a_word_agree_with_a_name():
    """A roster's name may be plural, feminine or a vehicle («Штурмовики», «Гранаты»): no Russian text puts a verb
    or adjective straight after it («{unit} уже пытался…»); the name stands before a colon or in quotes after a noun."""
    with translation.override("ru"):
        russian = [translation.gettext(c[0]) if len(c) == 1 else translation.ngettext(c[0], c[1], n)
                   for c in marked_calls() for n in (1, 3, 5)]  # fmt: skip
    agreeing = sorted({line for line in russian if NAME_THEN_WORD.search(line)})
    assert not agreeing, agreeing
    assert NAME_THEN_WORD.search("{unit} уже пытался активироваться в этом ходу.")
    assert "{unit}: в этом ходу уже была попытка активации." in russian


DICE_EXAMPLES = [
    ("initiative", {"players": [{"name": "Красные"}, {"name": "Синие"}]}, [3, 3, 5, 2]),  # a tie re-rolled
    ("activation", {"unit": {"name": "Отряд: Ветеран", "level": "veteran"}}, None),
    ("shooting", {"shooter": {"level": "regular", "groups": [{"weapon": w, "count": 1, "distance": 6}
                                                             for w in names.FIRE_DICE]},
                  "target": {"groups": [{"count": 2, "armour": a} for a in names.ARMOUR_SAVES]}}, None),
    ("vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "front"}, "hits": 6, "weapon": "rpg"}, None),
    ("vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "rear"}, "hits": 6, "weapon": "rpg"}, None),
    ("vehicle_hit", {"vehicle": {"armour": "unarmoured", "facing": "side"}, "hits": 6, "weapon": "rpg"}, None),
    ("melee", {"attacker": {"level": "elite", "figures": 6, "suppressed": 2, "armour": "light"},
               "defender": {"level": "elite", "figures": 6, "suppressed": 2, "armour": "medium"}}, None),
    ("withdrawal", {"withdrawing": {"name": "Отряд: Рядовой", "level": "elite"},
                    "pursuer": {"name": "Отряд: Рекрут", "level": "elite"}}, None),
    ("overrun", {"unit": {"level": "recruit"}, "armour": "medium"}, None),
]  # fmt: skip


@pytest.mark.parametrize(("action", "inputs", "dice"), DICE_EXAMPLES, ids=[e[0] for e in DICE_EXAMPLES])
def test_a_die_rolled_in_english_is_named_in_russian_in_the_log(action, inputs, dice):
    """A battle played in English (or by the tests) keeps its dice's purposes in English: the log names each in
    the reader's language, as the generic board does («Д6 кубик стрельбы (Винтовка) 1 из 3»), no English left."""
    from battles.selectors import event_die_label

    labels = []
    for seed in range(8):
        with translation.override("en"):
            source = TableDice(dice) if dice else SeededDice(seed)
            outcome = SYSTEM.action(action).resolve(inputs, settings(), source)
        with translation.override("ru"):
            labels += [event_die_label(d, {"sides": {}}) for d in outcome.dice]
        if dice:
            break
    assert labels
    assert not english(labels), sorted(set(english(labels)))[:10]


@pytest.mark.parametrize("name", ["squads-core.json", "squads-suggested.json"])
def test_the_packs_words_read_in_russian_for_a_russian_reader_and_in_english_for_an_english_one(name):
    pack = json.loads((PACKAGE / "data" / name).read_text(encoding="utf-8"))
    shown, provenance = pack_words(pack)
    latin = re.compile(r"[A-Za-z]{2,}")
    with translation.override("ru"):
        russian = [translation.gettext(t) for t in shown] + [translation.pgettext("pack provenance", t)
                                                             for t in provenance]  # fmt: skip
    untranslated = [t for t, r in zip(shown + provenance, russian, strict=True) if t == r and latin.search(t)]
    assert not untranslated, untranslated
    leftover = [r for r in russian if latin.search(re.sub(r"§\s*[\d.]+|\b[LB]\d+|Armlist", "", r))]
    assert not leftover, leftover
    english = [t for t in shown + provenance if re.search(r"[А-Яа-яЁё]", t.replace("«Отряды»", ""))]
    assert not english, english  # the English a page shows an English reader has no Russian in it


@pytest.mark.django_db
def test_the_pack_page_speaks_the_readers_language(client, django_user_model):
    from armies.services.packs import load_packs

    client.force_login(django_user_model.objects.create_user("reader", password="pw-reader-5817"))
    pack = next(p for p, _created in load_packs() if p.slug == "squads-core")
    russian = client.get(f"/packs/{pack.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Активация 5+, опыт 6+. Фигуры, оружие и броня выбираются в отряде." in russian
    assert "русский перевод одностраничных правил" in russian
    assert "перенесено как в книге" in russian  # the provenance's own words
    assert "Transport vehicle" not in russian
    assert "Транспортное средство" in russian
    english = client.get(f"/packs/{pack.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Activation 5+, experience 6+. Figures, weapons and armour are chosen in the entry." in english
    assert "Активация" not in english
    assert "Transport vehicle" in english
