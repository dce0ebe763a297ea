"""«Бронепехота»: the simulator speaks Russian (issue 17). The job page shows why the model ignores a setting the
job changed (params.IGNORED_SETTINGS), the job form the parameters' titles, and a bad job the simulator's refusals:
each is a msgid with a Russian translation in the book's words (glossary.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from rules.errors import RuleInputError
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY
from rules.systems.bronepekhota.simulate import IGNORED_SETTINGS, SIMULATED_SETTINGS, Battle, BattleParams
from rules.systems.bronepekhota.simulate.model import resolve_settings
from rules.systems.bronepekhota.simulate.part import PARAMS_SCHEMA, SIMULATOR

PACKAGE = Path(__file__).resolve().parents[1]
PACK = json.loads((PACKAGE / "data" / "tehnolog-classic.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}
# A Latin word of three letters or more is English left untranslated. The book writes its codes in Cyrillic
# («ПрN», «Рм», Д20) and the settings' codes (A21) have one Latin letter; it writes in Latin only the vehicles'
# names (HELIX, as the book prints it) and the spec's section numbers are Roman (§7.4 II–III).
BOOK_LATIN = re.compile(r"\b(?:HELIX|[IVX]+)\b")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def latin_word(text: str) -> str | None:
    found = LATIN_WORD.search(BOOK_LATIN.sub("", text))
    return found.group() if found else None


def entry(slug: str) -> dict:
    return {"key": slug, "profile": PROFILES[slug], "count": 1, "loadout": {}, "pilot": []}


def in_russian(text: str) -> str:
    with translation.override("ru"):
        return translation.gettext(text)


def schema_texts() -> list[str]:
    texts = []
    for prop in PARAMS_SCHEMA["properties"].values():
        texts += [prop[k] for k in ("title", "description") if prop.get(k)]
        texts += [str(label) for label in (prop.get("x-labels") or {}).values()]
    return texts


def refusals() -> list[str]:
    """Every refusal of the simulator's inputs, made under Russian."""
    messages = []
    with translation.override("ru"):
        bad = BattleParams(distance=0, rounds=0, cover_a="hidden", initiative="c", approach="run", surprise=101)
        with pytest.raises(RuleInputError) as exc:
            bad.check()
        assert set(exc.value.errors) == {"distance", "rounds", "cover_a", "initiative", "approach", "surprise"}
        messages += exc.value.errors.values()
        for overrides in ({"no_such_setting": 1}, {"mode": "real"}):
            with pytest.raises(RuleInputError) as exc:
                resolve_settings(overrides)
            messages += exc.value.errors.values()
        with pytest.raises(RuleInputError) as exc:
            Battle([entry("aborigeny")], [], BattleParams(), {})
        messages += exc.value.errors.values()
    return messages


@pytest.mark.parametrize(
    ("key", "reason"), sorted({**SIMULATED_SETTINGS, **IGNORED_SETTINGS}.items()), ids=lambda v: str(v)[:30]
)
def test_every_reason_of_the_simulator_reads_in_russian(key, reason):
    assert key in SETTINGS_BY_KEY
    russian = in_russian(reason)
    assert russian != reason, f"{key}: no Russian for {reason!r}"
    assert not latin_word(russian), f"{key}: {russian!r}"


@pytest.mark.parametrize("text", schema_texts() + list(SIMULATOR.simulated) + list(SIMULATOR.left_out))
def test_the_job_forms_parameters_and_the_models_summary_read_in_russian(text):
    russian = in_russian(text)
    assert russian != text
    assert not latin_word(russian), russian


def test_the_simulators_refusals_read_in_russian_and_keep_their_numbers():
    messages = refusals()
    assert len(messages) == 9
    for message in messages:
        assert not latin_word(message), message
    assert "Начальное расстояние должно быть целым числом шагов от 1 до 200." in messages
    assert "В этой армии нет юнитов." in messages
    with translation.override("en"), pytest.raises(RuleInputError) as exc:
        BattleParams(rounds=99).check()
    assert exc.value.errors == {"rounds": "The number of rounds must be a whole number from 1 to 50."}


def test_the_simulators_warnings_and_forces_read_in_russian():
    # Rank-1 militia cannot pilot a rank-3 VARAN, and a mortar alone has no crew.
    with translation.override("ru"):
        battle = Battle(
            [entry("protectorate_opolchenie_planety_gelion"), entry("varan"), entry("minomet")],
            [entry("aborigeny")],
            BattleParams(),
            {},
        )
        lines = SIMULATOR.describe_forces(
            [{"units": [{"name": "Ополчение"}], "guns": ["Миномёт"], "pilots": [{"vehicle": "ВАРАН", "pilot": None}]}]
        )
    assert any(w.startswith("Сторона A: VARAN: нет пехотинца ранга 3+") for w in battle.warnings), battle.warnings
    assert not any("never acts" in w or "stays silent" in w for w in battle.warnings)
    assert lines[0]["lines"] == ["Ополчение; орудия: Миномёт.", "ВАРАН: без пилота."]


@pytest.mark.django_db
def test_the_job_page_says_in_russian_why_a_changed_setting_is_ignored(client):
    from rules.models import BalanceJob

    user = get_user_model().objects.create_user(username="ignored-reader", password=None)
    job = BalanceJob.objects.create(
        owner=user,
        system="bronepekhota",
        kind=BalanceJob.Kind.ROSTERS,
        title="Синие против красных",
        params={"distance": 14, "approach": "hold"},
        settings={"mode": "virtual", "deployment_order": "free", "dispute_die": 20},
        inputs={"forces": []},
        seed=1,
        battles=10,
        total_battles=10,
        chunk_count=1,
    )
    client.force_login(user)
    url = reverse("jobs:job", args=[job.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "No disputes in a simulation." in english
    assert "No disputes in a simulation." not in russian
    assert "В моделировании не бывает спорных ситуаций." in russian
    assert "без карты порядок расстановки не важен" in russian
    assert "Used by the verdict" not in russian  # settings left at their defaults are not listed
