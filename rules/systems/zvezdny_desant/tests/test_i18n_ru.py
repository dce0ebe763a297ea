"""Russian first (issue #14): every text of «Звездный Десант» a person sees is marked for translation and has its
Russian in this package's catalogue (locale/ru/LC_MESSAGES/django.po); a Russian reader of the board, the settings,
the odds page, the ЛБХ editor, the roster checks and the balance form finds no English left."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from armies.editor import layout_for
from rules.contract import Event
from rules.contract.testing import Table
from rules.dice import purpose_words
from rules.jobs.forms import param_field
from rules.systems.zvezdny_desant.army import cost_roster
from rules.systems.zvezdny_desant.system import SYSTEM
from tests.packs import pack_words
from tests.test_i18n import po_entries

PACKAGE = Path(__file__).resolve().parents[1]
CATALOGUE = PACKAGE / "locale" / "ru" / "LC_MESSAGES" / "django.po"
PACK = json.loads((PACKAGE / "data" / "demo-examples.json").read_text(encoding="utf-8"))
ROSTERS = [SYSTEM.army.example_roster(PACK["profiles"], s) for s in (0, 1)]
PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*(?:![rsa])?(?::[^{}]*)?\}")


def marked_msgids() -> dict[str, str]:
    """Every msgid the package marks with _(), N_() or ngettext() (both forms), with the file that marks it."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_", "ngettext")
            ):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, path.name)
    return found


def english(texts, allowed=()) -> list[str]:
    """Latin words of three letters or more, once the book's codes are set aside: setting values in «…» and
    `…`, keys with underscores, the spec's references (L452, §5 A7) and JSON's null."""
    found = []
    for text in texts:
        bare = re.sub(r"«[A-Za-z_ ]+»|`[^`]*`|\b\w*_\w*\b|\bnull\b|\bD20\b", " ", text)
        found += [f"{w!r} in {text[:90]!r}" for w in re.findall(r"[A-Za-z]{3,}", bare) if w not in allowed]
    return found


def shown(node, out=None) -> list[str]:
    """The texts a board shows: labels, titles, questions, notes and text widgets (not codes or commands)."""
    out = [] if out is None else out
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and (key in ("label", "title", "question", "subtitle", "submit", "note", "text")
                                           or (key == "value" and node.get("type") == "text")):  # fmt: skip
                out.append(value)
            else:
                shown(value, out)
    elif isinstance(node, list):
        for value in node:
            shown(value, out)
    return out


def test_the_packs_words_read_in_russian_and_in_english():
    """The pack is English data with no Russian word but names (its page in English reads it as it is); its page
    in Russian words it through this catalogue, the provenance under «pack provenance»."""
    shown, provenance = pack_words(PACK)
    names = {"Звездный Десант", "Автомат", "ЛБХ"}
    for text in shown + provenance:
        bare = text
        for name in names:
            bare = bare.replace(name, " ")
        assert not re.search(r"[А-Яа-яЁё]", bare), text
    with translation.override("ru"):
        russian = [translation.gettext(t) for t in shown] + [translation.pgettext("pack provenance", t)
                                                              for t in provenance]  # fmt: skip
    assert all(r != t for r, t in zip(russian, shown + provenance, strict=True))
    assert not english(russian, allowed={"EXAMPLE"})
    assert russian[0].startswith("«Звездный Десант», правила игры, демо-версия")


def test_every_marked_msgid_has_its_russian_in_the_catalogue():
    every = po_entries(CATALOGUE)
    shown, provenance = pack_words(PACK)
    in_context = {e["msgid"] for e in every if e.get("msgctxt")}
    assert in_context == set(provenance)  # the provenance's words, and nothing else, under a context
    entries = {e["msgid"]: e for e in every if not e.get("msgctxt")}
    marked = {**marked_msgids(), **dict.fromkeys(shown, "data/demo-examples.json")}
    assert len(marked) > 500
    missing = [m for m in marked if m not in entries]
    assert not missing, f"not in {CATALOGUE.name}: {missing[:10]}"
    empty = [m for m, e in entries.items() if not all(e["msgstr"].values()) or "fuzzy" in e["flags"]]
    assert not empty, empty[:10]
    plurals = [m for m, e in entries.items() if "msgid_plural" in e and len(e["msgstr"]) < 3]
    assert not plurals, plurals
    changed = [m for m, e in entries.items() if "{class:" not in m
               and sorted(set(PLACEHOLDER.findall(m))) != sorted(set(PLACEHOLDER.findall(e["msgstr"][0])))]  # fmt: skip
    assert not changed, f"placeholders differ: {changed[:5]}"
    stale = [m for m in entries if m not in marked]
    assert not stale, f"the code no longer marks: {stale[:10]}"
    # Every system's catalogue shares Django's one domain, the first listed winning: a msgid another catalogue
    # translates otherwise would show that other book's word here.
    with translation.override("ru"):
        taken = [(m, translation.gettext(m)) for m, e in entries.items()
                 if "msgid_plural" not in e and translation.gettext(m) != e["msgstr"][0]]  # fmt: skip
    assert not taken, f"translated otherwise by another catalogue: {taken[:10]}"


def test_the_checker_sees_english_and_lets_codes_pass():
    assert english(["Ход 1 из 5", "«manual»: вручную, reroll_scope one_die, L452, null, D20"]) == []
    assert english(["Turn 1 of 5"]) == ["'Turn' in 'Turn 1 of 5'"]


def board_for(t: Table, side: int, *, can_write=True) -> dict:
    view = t.view({side})
    state_view = {"game": view["game"], "settings": {"system": t.state.settings.get("system", {})},
                  "sides": [{"index": 0, "name": "Форсеры"}, {"index": 1, "name": "Люди"}],
                  "units": [{"key": k, "name": u.name, "kind": u.kind, "owner": u.side, "side": u.side,
                             "view": view["units"][k]} for k, u in t.state.units.items()]}  # fmt: skip
    return SYSTEM.battle.board(state_view, frozenset({side}), can_write=can_write)


def test_a_russian_phone_sees_the_board_and_the_history_in_russian():
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS))
    keys = list(t.state.units)
    boards = []
    with translation.override("ru"):
        boards.append(board_for(t, 0))
        t.command(0, "start_turn", {}, dice=[15, 4])
        boards.append(board_for(t, 0))
        t.command(0, "give_orders", {"orders": [{"unit": keys[0], "order": "defence", "initiative": 7},
                                                {"unit": keys[1], "order": "move", "initiative": 3}]})  # fmt: skip
        boards += [board_for(t, 0), board_for(t, 1)]
        t.command(1, "give_orders", {"orders": [{"unit": keys[2], "order": "attack", "initiative": 6},
                                                {"unit": keys[3], "order": "defence", "initiative": 4}]})  # fmt: skip
        boards += [board_for(t, 0), board_for(t, 1)]
        shot = t.command(0, "act", {"unit": keys[0], "do": "shoot", "target": keys[2]},
                         dice=[20, 20, 20, 3, 2, 15, 14, 2])  # fmt: skip
        purposes = [d["purpose"] for d in shot[0]["dice"]]  # kept in English, worded for each reader when shown
        result = [t.last_outcome["summary"], *t.last_outcome["steps"], *map(purpose_words, purposes)]
        t.command(0, "end_game", {})
        boards.append(board_for(t, 1))
        names = {"units": {k: u.name for k, u in t.state.units.items()}, "sides": {0: "Форсеры", 1: "Люди"}}
        history = [SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names) for e in t.events]
        awaiting = t.awaiting().message
    texts = [x for b in boards for x in shown(b)]
    assert "Ход 1 из 5 · Приказы" in texts
    assert "Отдать приказы тайно" in texts
    assert "Форсеры: приказы отданы." in texts  # on side 1's board: only that the orders are given
    assert any(x.startswith("Кубики, брошенные на столе") for x in texts)
    assert "Исполнить приказ" in texts
    assert any("Игра окончена" in x for x in texts)
    assert history[0] == "Ход 1: Первый игрок — Форсеры."
    assert history[3].startswith("Карточки приказов вскрыты:")
    assert "стреляет по" in history[4]
    assert "попаданий 3, ранений 2" in history[4]
    assert result[0].startswith(names["units"][keys[0]] + " → ")  # what the shooter's phone shows
    assert purposes[0] == "hit test: Автомат 1 of 5"  # written on a Russian phone, stored in no language
    assert "тест на попадание: Автомат 1 из 5" in result  # rules/dice.purpose_words
    assert "тест на ранение: Автомат 2 из 3" in result
    assert not english([*texts, *history, awaiting, *result])


def test_settings_actions_and_commands_read_in_russian():
    with translation.override("ru"):
        settings = [s.describe() for s in SYSTEM.settings]
        actions = [a.describe() for a in SYSTEM.actions.values()]
        commands = [_translated(c) for c in SYSTEM.battle.commands.values()]
    assert settings[0]["label"] == "Предел стоимости армии («Стычка»)"
    texts = [s["label"] for s in settings] + [s["help"] for s in settings] + commands
    for a in actions:
        texts += [a["label"], a["description"], *_schema_texts(a["input_schema"])]
    assert actions[0]["input_schema"]["properties"]["players"]["title"] == "Игроки"
    assert not english(texts, allowed={"Lua"})


def _translated(command) -> str:
    from rules.i18n import _

    return _(command.label) + " " + _(command.help)


def _schema_texts(schema) -> list[str]:
    out = []
    if isinstance(schema, dict):
        out += [schema[k] for k in ("title", "description") if isinstance(schema.get(k), str)]
        out += list((schema.get("x-labels") or {}).values())
        for value in schema.values():
            out += _schema_texts(value)
    elif isinstance(schema, list):
        for value in schema:
            out += _schema_texts(value)
    return out


def test_refusals_roster_checks_editor_and_balance_form_in_russian():
    roster = copy.deepcopy(ROSTERS[0])
    roster["entries"].append({**copy.deepcopy(ROSTERS[1]["entries"][0]), "key": "e9"})
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS))
    with translation.override("ru"):
        report = cost_roster(roster)
        layout = layout_for("zvezdny-desant")
        fields = [param_field(k, p) for k, p in SYSTEM.simulator.params_schema["properties"].items()]
        t.command(0, "start_turn", {}, dice=[15, 4])
        with pytest.raises(Exception) as refused:
            t.command(0, "give_orders", {"orders": [{"unit": next(iter(t.state.units)), "order": "move",
                                                     "initiative": 10}]})  # fmt: skip
    issues = {i.code: i for i in report.issues}
    assert issues["mixed_factions"].severity == "warning"  # mixing factions warns, it does not refuse (L758)
    assert issues["over_limit"].message.startswith("Армия стоит 750 очков")
    assert "нужен приказ" in str(refused.value.errors)
    kind = layout["kinds"]["infantry"]
    assert kind["label"] == "Пехота"
    assert [s["label"] for s in kind["sections"]] == ["Фигурки", "Оружие", "Расширения"]
    labels = [f.label for f in fields] + [str(c[1]) for f in fields for c in getattr(f, "choices", [])]
    assert "Приказ стороны A" in labels
    assert "Атака" in labels
    texts = ([i.message for i in report.issues] + list(refused.value.errors.values()) + shown(layout["kinds"])
             + layout["help"] + layout["reference"] + labels + [str(f.help_text) for f in fields])  # fmt: skip
    assert not english(texts)


@pytest.mark.django_db
def test_the_odds_page_in_russian_names_every_test_and_field():
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get("/odds/?system=zvezdny-desant")
    assert page.status_code == 200
    text = page.content.decode()
    data = json.loads(re.search(r'<script id="odds-schema" type="application/json">(.*?)</script>', text, re.S)[1])
    assert [a["label"] for a in data][:2] == ["Первый игрок", "Расстановка подразделений"]
    hit = next(a for a in data if a["key"] == "hit_test")["input_schema"]["properties"]
    assert hit["shooter_order"]["x-labels"] == {
        "move": "Движение",
        "defence": "Оборона",
        "attack": "Атака",
    }  # options say the book's word
    assert hit["target_kind"]["x-labels"] == {"infantry": "пехота", "vehicle": "техника"}
    texts = [t for a in data for t in (a["label"], a["description"], *_schema_texts(a["input_schema"]))]
    assert not english(texts)


def test_the_history_of_the_example_game_reads_in_russian():
    t = Table(SYSTEM, rosters=copy.deepcopy(ROSTERS), names={0: "Форсеры", 1: "Люди"})  # the game keeps them
    names = {"units": {k: u.name for k, u in t.state.units.items()}, "sides": {0: "Форсеры", 1: "Люди"}}
    results = []
    with translation.override("ru"):
        for side, command, inputs, dice in SYSTEM.battle.example_script(t.state):
            t.command(side, command, inputs, dice=dice)
            results += [t.last_outcome.get("summary", ""), *t.last_outcome.get("steps", [])] if t.last_outcome else []
        history = [SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names) for e in t.events]
    kinds = {e["type"] for e in t.events}
    assert {"melee_started", "melee_fought", "turn_ended", "shot"} <= kinds
    fought = next(h for h, e in zip(history, t.events, strict=True) if e["type"] == "melee_fought")
    assert fought.startswith("Ближний бой №1: ")
    assert not english([*history, *results])


@pytest.mark.django_db
def test_the_balance_page_lists_what_is_simulated_and_left_out_in_russian():
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(get_user_model().objects.create_user(username="balance", password=None))
    page = client.get("/jobs/?system=zvezdny-desant")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Бросок на Первого игрока каждый ход" in text  # simulated
    assert "Техника (демо-версия описывает только пехоту)." in text  # left out
    assert "Приказ стороны A" in text  # the parameters' titles
