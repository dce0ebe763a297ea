"""Every unit of the official pack reads in Russian in the builder, and what a player must set has a proper control
(issue «Every system played to its end at the table», step 1): a vehicle's variant, its arsenal and its pilot, no
JSON text, no English words, no codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.systems.bronepekhota.army import ARMY

PACK = json.loads((Path(__file__).resolve().parents[1] / "data" / "tehnolog-classic.json").read_text("utf-8"))
PROFILES = PACK["profiles"]
LATIN = re.compile(r"[A-Za-z]{3,}")
CONTROLS = {"text", "list", "choice", "checks", "slots", "table"}
SQUAD = next(p for p in PROFILES if p["kind"] == "squad" and min(s["rank"] for s in p["data"]["soldiers"]) >= 3)


def _texts(node, names: set[str]):
    """Every string a person reads in an entry view, without the Armlists' own names and dice («Д6+1», «2Д20»)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("value", "option", "type", "json", "resets"):
                continue
            yield from _texts(value, names)
    elif isinstance(node, list):
        for value in node:
            yield from _texts(value, names)
    elif isinstance(node, str):
        text = node
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, "")
        yield text


@pytest.mark.parametrize("profile", [p for p in PROFILES if p["kind"] != "squad"], ids=lambda p: p["slug"])
def test_a_vehicle_or_gun_entry_reads_in_russian_with_proper_controls(profile):
    entries = [
        {"key": "s", "profile": SQUAD, "count": 1, "options": {}},
        {"key": "e", "profile": profile, "count": 1, "options": ARMY.default_options(profile)},
    ]
    with translation.override("ru"):
        view = ARMY.entry_views({"entries": entries})["e"]
        note = ARMY.profile_note(profile)
    blocks = view["blocks"]
    assert {b["type"] for b in blocks} <= CONTROLS
    if profile["kind"] == "vehicle":
        kinds = {b["type"]: b for b in blocks}
        assert kinds["slots"]["label"] == "Пилот"
        assert kinds["checks"]["label"].startswith("Арсенал")
        if profile["data"].get("variants"):
            assert kinds["choice"]["label"] == "Вариант"
    assert note == f"ранг {profile['data']['rank']}"
    names = {profile["name"], SQUAD["name"]}
    names |= {w["name"] for w in profile["data"].get("arsenal") or profile["data"].get("weapons") or []}
    names |= {v["name"] for v in profile["data"].get("variants") or []}
    words = [t for t in _texts(view, names) if LATIN.search(t)]
    assert words == []


def test_the_stats_lines_say_the_armlists_words():
    spider = next(p for p in PROFILES if p["slug"] == "spider")
    mortar = next(p for p in PROFILES if p["kind"] == "gun" and p["data"]["mobile"])
    with translation.override("ru"):
        views = ARMY.entry_views(
            {
                "entries": [
                    {"key": "v", "profile": spider, "count": 1, "options": {}},
                    {"key": "g", "profile": mortar, "count": 1, "options": {}},
                ]
            }  # fmt: skip
        )
    assert views["v"]["blocks"][0]["text"] == (
        "лёгкая · шагающая · Скорострельность 2 · Боезапас 16 · Прочность 11 · Скорость 5/4/3"
    )
    assert views["g"]["blocks"][0]["text"].startswith("мобильное орудие · ранг расчёта")
    with translation.override("en"):
        english = ARMY.entry_views({"entries": [{"key": "v", "profile": spider, "count": 1, "options": {}}]})
    assert english["v"]["blocks"][0]["text"] == "light · walking · RoF 2 · ammo 16 · strength 11 · speed 5/4/3"
