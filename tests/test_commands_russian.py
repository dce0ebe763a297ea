"""Russian first for battle commands: every system's command names and helps (Command.describe(), what
GET /api/v1/systems/ lists) read in the reader's language, and the runner's own refusals too."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from rules.contract import Awaiting, BattlePart, Command, GameConflict, GameState
from rules.i18n import N_
from rules.registry import all_systems

# Latin words a Russian text may keep: the books' own abbreviations of three letters or more.
ALLOWED_LATIN = {"REQ"}
BATTLE_SYSTEMS = [s for s in all_systems() if s.battle is not None]


def latin_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ALLOWED_LATIN]


@pytest.mark.parametrize("system", BATTLE_SYSTEMS, ids=lambda s: s.slug)
def test_every_command_is_named_and_explained_in_russian(system):
    with translation.override("ru"):
        russian = system.battle.describe()["commands"]
    with translation.override("en"):
        english = {c["name"]: c for c in system.battle.describe()["commands"]}
    assert russian
    for command in russian:
        assert command["label"], command["name"]
        for key in ("label", "help"):
            assert not latin_words(command[key]), (command["name"], key, command[key])
        # The English reader still reads English: the msgid itself.
        assert english[command["name"]]["label"] != command["label"], command["name"]


def test_a_known_command_in_both_languages():
    enforcers = next(s for s in BATTLE_SYSTEMS if s.slug == "enforcers")
    with translation.override("ru"):
        shoot = enforcers.battle.commands["shoot"].describe()
    assert shoot["label"] == "Стрелять"
    assert shoot["help"].startswith("Стрелять: проверка BS")
    with translation.override("en"):
        assert enforcers.battle.commands["shoot"].describe()["label"] == "Shoot"


class _Shoot(Command):
    name = "shoot"
    label = N_("Shoot")

    def handle(self, ctx, inputs):
        return []


class _Unnamed(Command):
    name = "ping"

    def handle(self, ctx, inputs):
        return []


class _OnlyDeploy(BattlePart):
    """A battle that awaits only "deploy" from side 0 and gives no message of its own."""

    commands = {"shoot": _Shoot(), "ping": _Unnamed()}

    def start(self, *, sides, settings):
        raise AssertionError("these tests only ask whether a command is allowed")

    def apply(self, state, event):
        raise AssertionError("these tests only ask whether a command is allowed")

    def awaiting(self, state):
        if state.game.get("result") is not None:
            return super().awaiting(state)
        awaited = ("deploy", "shoot", "ping") if state.game.get("any") else ("deploy",)
        return Awaiting(kind="sides", sides=(0,), commands=awaited)


def refusal(part, game: dict, command: str, sides=frozenset({0})) -> str:
    with pytest.raises(GameConflict) as caught:
        part.check_allowed(GameState(game=game, units={}, settings={}), part.commands[command], sides)
    return caught.value.message


def test_a_command_not_possible_now_is_refused_in_the_readers_language():
    part = _OnlyDeploy()
    with translation.override("ru"):
        assert "Действие «Стрелять» сейчас невозможно." in refusal(part, {}, "shoot")
        # A command without a label is named by its code.
        assert "Действие «ping» сейчас невозможно." in refusal(part, {}, "ping")
        assert "Сейчас не ваш ход" in refusal(part, {"any": True}, "shoot", sides=frozenset({1}))
        assert "Бой окончен. Отмените последние события" in refusal(part, {"result": {"winner": 0}}, "shoot")
    with translation.override("en"):
        assert "«Shoot» is not possible now." in refusal(part, {}, "shoot")
