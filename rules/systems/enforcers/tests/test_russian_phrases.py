"""«Энфорсеры» in Russian that reads right: a role word or an agent's name is never put after a preposition that
would need another case («промахивается по цель»), and the odds page names the codes of its distributions."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from rules.errors import RuleInputError
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.tests.helpers import agent, resolve

# A role word (or a name) in the nominative right after a preposition that governs another case.
BAD = re.compile(r"\b(по|для|у) (Цель|цель|Стрелок|Агент|Бандит|Кейт)\b|\bв (Цель|Агент|Бандит|Кейт)\b")


def unnamed(**stats) -> dict:
    sheet = agent(**stats)
    sheet.pop("name")
    return sheet


def shots(shooter: dict, target: dict) -> list[str]:
    """The summaries of one shot per seed until a miss, a hit and a stray shot on the line were all seen."""
    out = []
    for seed in range(40):
        outcome = resolve("shoot", {"shooter": shooter, "weapon": {"damage": 3}, "target": target,
                                    "stray_victim": unnamed(), "stray_victim_off_line_cm": 0}, seed=seed)  # fmt: skip
        out.append(outcome.summary)
        out += [str(step) for step in outcome.steps]
    return out


def test_a_shot_at_an_unnamed_target_inflects_the_role_word():
    with translation.override("ru"):
        lines = shots(unnamed(BS=12), unnamed())
    summaries = [line for line in lines if line.startswith("Стрелок")]
    assert "Стрелок промахивается по цели." in summaries
    assert any(line.startswith("Стрелок попадает в цель: урон 3") for line in summaries)
    assert any("под шальной выстрел попадает модель на линии огня" in line for line in summaries)
    assert not [line for line in lines if BAD.search(line)]


def test_a_shot_at_a_named_target_needs_no_declension():
    with translation.override("ru"):
        lines = shots(agent("Кейт", BS=12), agent("Бандит"))
    assert "Кейт стреляет по цели «Бандит» — промах." in lines
    assert any(line.startswith("Кейт стреляет по цели «Бандит» — попадание: урон 3") for line in lines)
    assert not [line for line in lines if BAD.search(line)]
    with translation.override("en"):
        shot = resolve(
            "shoot", {"shooter": agent("Kate"), "weapon": {"damage": 3}, "target": agent("Bandit")}, dice=[1]
        )
    assert shot.summary.startswith("Kate hits (critical) Bandit")


def test_a_missing_stat_names_the_agent_without_a_preposition():
    with translation.override("ru"), pytest.raises(RuleInputError) as caught:
        resolve("fear_test", {"agent": {"stats": {"HL": 10}}}, dice=[10])
    message = str(caught.value.errors)
    assert "Агент: для этого нужна характеристика WL" in message
    assert " у Агент" not in message


def odds_words(action: str, inputs: dict) -> dict[str, list[str]]:
    """What the odds page writes for each distribution: the action's words for the codes, in Russian."""
    with translation.override("ru"):
        described = SYSTEM.action(action).describe()
    answer = SYSTEM.action(action).odds(inputs, {})
    words, labels = described["value_labels"], described["result_labels"]

    def say(key, value):
        if isinstance(value, dict):  # a joint outcome: each part named (static/rules/odds_form.js)
            return "(" + "; ".join(f"{labels[k]}: {say(k, v)}" for k, v in value.items()) + ")"
        code = str(value).lower() if isinstance(value, bool) else str(value)
        return words.get(key, {}).get(code, str(value))

    return {key: [say(key, x["value"]) for x in value]
            for key, value in answer.items() if isinstance(value, list) and value and "p" in value[0]}  # fmt: skip


def test_the_odds_name_wound_states_and_fear_actions():
    damage = odds_words("damage", {"target": agent(HL=6), "amount": 6})
    assert damage["state"] == ["Тяжелоранен"]
    assert damage["sheet_after"] == ["(HP: 0; AP: 0; Состояние: Тяжелоранен; Страх: нет)"]
    fear = odds_words("fear_test", {"agent": agent(WL=5)})
    assert {"Сражаться", "Убегать", "Замереть", "без действия Страха"} <= set(fear["action"])
    for words in (*damage.values(), *fear.values()):
        assert not [w for w in words if re.search(r"[a-z]{3,}", w)], words
