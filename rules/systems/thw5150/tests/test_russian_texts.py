"""Issue 13: every «5150» text a player reads comes out in Russian for a Russian reader — each action's summary,
steps and dice through the resolver, the board commands' results, log lines, labels and errors, the settings'
help and the balance job page — and every msgid the package marks is in its catalogue with its placeholders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from rules.contract import Event
from rules.contract.testing import Table
from rules.dice import SeededDice, purpose_words
from rules.errors import ArmlistError
from rules.systems.thw5150 import words
from rules.systems.thw5150.system import SYSTEM
from rules.systems.thw5150.tests.helpers import settings_with
from rules.systems.thw5150.tests.test_board_tables import GANG, POLICE
from tests.packs import pack_words
from tests.test_i18n import po_entries

PACKAGE = Path(__file__).resolve().parents[1]
CATALOGUE = PACKAGE / "locale" / "ru" / "LC_MESSAGES" / "django.po"
LATIN = re.compile(r"[A-Za-z]{3,}")
ALLOWED = {"Rep"} - {"Rep"}  # the book prints no Latin word the player reads: nothing is allowed

CASES = [
    ("activation", {"sides": [{"groups": [{"leader_rep": 4, "reps": [4, 3]}]}, {"groups": [{"reps": [5, 3]}]}]}),
    ("group_reaction_test", {"table": "wanting_to_charge", "members": [{"rep": 4, "leader": True}, {"rep": 3}]}),
    ("in_sight", {"members": [{"rep": 3, "covering_fire": True, "in_cover": True}, {"rep": 4}]}),
    ("received_fire", {"shooter_outgun": 4, "members": [
        {"rep": 4, "leader": True, "in_cover": True, "weapons": [{"weapon": "assault_rifle"}]},
        {"rep": 3, "flank_or_rear": True, "moving": "normal"}, {"rep": 3, "condition": "hunker_down"}]}),
    ("wanting_to_charge", {"members": [{"rep": 5, "leader": True, "tests": False}, {"rep": 3, "in_cover": True}]}),
    ("being_charged", {"members": [{"rep": 4, "in_cover": True, "flank_or_rear": True}, {"rep": 4}]}),
    ("rally", {"members": [{"rep": 4, "condition": "runaway", "in_cover": True}, {"rep": 3, "condition": "runaway"}]}),
    ("fast_move", {"members": [{"rep": 5, "leader": True}, {"rep": 4}, {"rep": 3, "sees_leader": False}]}),
    ("recovery", {"figure": {"rep": 4, "state": "knocked_down"}}),
    ("recovery", {"figure": {"rep": 3, "state": "duck_back", "leader": True}}),
    ("recovery", {"figure": {"rep": 4, "state": "duck_back", "hero": True, "hero_choice": 1}}),
    ("stay_or_run", {"members": [{"rep": 5, "leader": True}, {"rep": 3}], "initial_count": 9, "casualties": 4,
                     "motivation": "conquest"}),
    ("shooting", {"shooter": {"rep": 5, "weapon": "assault_rifle"},
                  "targets": [{"dice": 2, "armour": "absorbing", "in_cover": True}, {"dice": 1, "armour": "exo"}]}),
    ("ranged_damage", {"weapon": "pistol", "armour": "absorbing"}),
    ("ranged_damage", {"impact": "НЭ"}),
    ("melee", {"fighter": {"rep": 5, "weapon": "rifle_bayonet", "armour": "light", "bonus_dice": 1},
               "opponents": [{"rep": 4, "weapon": "combat_knife"}, {"rep": 3, "prone": True, "armour": "heavy"}]}),
    ("grenade", {"thrower": {"rep": 3}, "blast": [{"in_cover": True}, {"armour": "heavy"}],
                 "intermediate": [{"prone": True}], "around_thrower": [{"rep": 3}, {"rep": 5}]}),
    ("grenade", {"thrower": {"rep": 3}, "blast": [{}], "launcher": True}),
    ("bombs_away", {"thrower": {"rep": 4}, "blast": [{}, {"prone": True}], "around_thrower": [{"rep": 4}]}),
    ("wound_recovery", {"figure": {"rep": 4}, "medical_care": True}),
    ("contact", {"rating": 3}),
    ("awareness", {"contacted_leader_rep": 4, "enemy_figures": 2}),
    ("river", {}),
    ("zone_collapse", {}),
    ("runaway_move", {"figure": {"rep": 4}}),
    ("random_normal", {"leader": True}),
    ("outgun", {"fired_with": ["machine_gun", "pistol"], "own_weapons": [{"weapon": "smg"}]}),
    ("victory", {"sides": [{"figures": [{"cost": 100}]}, {"figures": [{"cost": 80, "condition": "dead"}]}]}),
    ("victory", {"sides": [{"figures": [{"cost": 100}]}, {"figures": [{"cost": 80}]}]}),
]  # fmt: skip


def english(texts) -> list[str]:
    return sorted({t for t in texts if isinstance(t, str) and set(LATIN.findall(t)) - ALLOWED})


def test_the_checker_finds_english():
    assert english(["Бандит: 1 попадание", "Hit total 9.", "Д6"]) == ["Hit total 9."]


def test_every_case_covers_every_action():
    assert {key for key, _inputs in CASES} == set(SYSTEM.actions)


@pytest.mark.parametrize(("key", "inputs"), CASES, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CASES)])
def test_every_action_resolves_in_russian(key, inputs):
    texts = []
    with translation.override("ru"):
        for seed in range(1, 13):
            outcome = SYSTEM.action(key).resolve(inputs, settings_with(runaway_speed="fast_move"), SeededDice(seed))
            texts += [outcome.summary, *outcome.steps, *(purpose_words(d["purpose"]) for d in outcome.dice)]
            if "text" in outcome.result:  # what an event keeps renders the same for a Russian reader
                assert words.render(outcome.result["text"]) == outcome.summary
    assert texts
    assert english(texts) == []


def test_an_english_reader_gets_english():
    with translation.override("en"):
        outcome = SYSTEM.action("grenade").resolve(CASES[16][1], settings_with(), SeededDice(1))
    assert not re.search("[а-яё]{4}", " ".join(outcome.steps).replace("Умение", ""), re.I) or "«" in outcome.summary
    assert "Hit die" in outcome.steps[0]


def test_the_actions_errors_read_in_russian():
    bad = [("shooting", {"shooter": {"rep": 4, "weapon": "pistol", "loaded": False}, "targets": [{"dice": 1}]}),
           ("shooting", {"shooter": {"rep": 4, "weapon": "pistol"}, "targets": [{"dice": 6}]}),
           ("received_fire", {"members": [{"rep": 4, "leader": True}, {"rep": 3, "leader": True}]}),
           ("received_fire", {"members": [{"rep": 4, "condition": "dead"}]}),
           ("rally", {"members": [{"rep": 4, "condition": "fine"}]}),
           ("stay_or_run", {"members": [{"rep": 4}], "initial_count": 2, "casualties": 3, "motivation": "conquest"}),
           ("ranged_damage", {"impact": 2, "weapon": "pistol"}),
           ("melee", {"fighter": {"rep": 4, "condition": "hunker_down"}, "opponents": [{"rep": 3}]})]  # fmt: skip
    messages = []
    with translation.override("ru"):
        for key, inputs in bad:
            with pytest.raises(ArmlistError) as caught:
                SYSTEM.action(key).resolve(inputs, settings_with(), SeededDice(1))
            messages += [str(m) for m in caught.value.errors.values()]
    assert len(messages) == len(bad)
    assert english(messages) == []


def test_the_board_commands_and_the_log_read_in_russian():
    table = Table(SYSTEM, rosters=[POLICE, GANG], names={0: "Патруль", 1: "Банда"})
    texts = []

    def run(side, name, inputs=None, dice=None):
        events = table.command(side, name, inputs, dice=dice)
        names = {"units": {k: u.name for k, u in table.state.units.items()}}
        for e in events:
            texts.append(SYSTEM.battle.describe_event(Event(e["seq"], e["type"], e["payload"]), names))
            texts.extend(purpose_words(d["purpose"]) for d in e["dice"])
        texts.extend([table.last_outcome.get("summary", ""), *table.last_outcome.get("steps", [])]
                     if table.last_outcome else [])  # fmt: skip

    def refused(side, name, inputs=None, dice=None):
        with pytest.raises(ArmlistError) as caught:
            table.command(side, name, inputs, dice=dice)
        texts.extend(str(m) for m in caught.value.errors.values())

    with translation.override("ru"):
        refused(0, "end_activation")
        run(0, "activation", dice=[4, 2])
        refused(0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "0.l.1", "dice": 1}]}, [1])
        refused(0, "recover", {"unit": "0.r.1"})
        run(0, "shoot", {"shooter": "0.r.1", "targets": [{"unit": "1.p.1", "dice": 1}]}, [1])
        refused(0, "move", {"unit": "0.r.2"})
        run(1, "answer_reaction", {}, [6, 6])
        if table.state.game["pending"]:
            run(1, "decline_return_fire")
        refused(0, "reload", {"unit": "1.p.1"})
        run(0, "melee", {"fighter": "0.l.1", "opponents": ["1.b.1"]}, [1, 2, 1, 2])
        run(0, "grenade", {"thrower": "0.g.1", "blast": ["1.p.2"]}, [1, 1, 2])
        run(1, "answer_reaction", {}, [1, 1])
        if table.state.game["pending"]:
            run(1, "decline_return_fire")
        run(1, "in_sight", {"units": ["1.b.1"]}, [5, 6])
        run(0, "test", {"action": "river", "inputs": {}}, [3])
        run(0, "test", {"action": "melee", "inputs": {"fighter": {"rep": 4}, "opponents": [{"rep": 3}]}})
        run(0, "set_state", {"unit": "0.r.2", "changes": {"condition": "knocked_down", "prone": True}})
        run(0, "set_state", {"unit": "0.r.2", "changes": {"in_cover": True, "loaded": False}})
        run(1, "set_state", {"unit": "1.p.2", "changes": {"condition": "dead"}})
        run(1, "stay_or_run", {"motivation": "conquest"}, [1, 2, 3, 1])
        run(0, "end_activation")
        run(0, "end_battle")
        board = SYSTEM.battle.board({"game": table.state.game, "units": [
            {"key": k, "name": u.name, "side": u.side, "state": u.state} for k, u in table.state.units.items()]},
            frozenset({0}), can_write=True)  # fmt: skip
        texts.append(board["banner"]["text"])
        texts += [c.describe()["label"] for c in SYSTEM.battle.commands.values()]
        texts += [c.describe()["help"] for c in SYSTEM.battle.commands.values()]
    assert len(texts) > 40
    assert english(texts) == []
    assert table.replay_matches()


def test_the_settings_read_in_russian():
    with translation.override("ru"):
        described = [s.describe() for s in SYSTEM.settings]
    texts = [d["label"] for d in described] + [d["help"] for d in described]
    texts += [label for d in described for _value, label in d["choice_labels"]]
    assert len([d for d in described if d["help"]]) == len(SYSTEM.settings) == 58
    assert english(texts) == []


def test_the_job_page_reads_in_russian():
    part = SYSTEM.simulator
    with translation.override("ru"):
        texts = [part.description, *part.ignored_settings.values()]
        texts += [translation.gettext(line) for line in (*part.simulated, *part.left_out)]
        for prop in part.params_schema["properties"].values():
            texts += [translation.gettext(prop[k]) for k in ("title", "description") if k in prop]
        side = {"entries": [{"key": "a", "profile": {"slug": "x", "data": {"rep": 4}}, "count": 1, "options": {}}]}
        try:
            texts += part.prepare(side, side, {}, {}).warnings
        except ArmlistError as exc:  # a roster the model refuses: its message is read too
            texts += [str(m) for m in exc.errors.values()]
    assert len(texts) > 10
    assert english(texts) == []


def test_the_job_forms_fields_read_in_russian():
    """The balance job form draws each parameter from the schema (rules/jobs/forms.py): every label and help text
    a Russian reader sees is Russian, none falls back to the key ("Max turns"), and the English reader gets English."""
    from rules.jobs.forms import option_settings, param_field, setting_field

    props = SYSTEM.simulator.params_schema["properties"]
    with translation.override("ru"):
        fields = [param_field(name, prop) for name, prop in props.items()]
        fields += [setting_field(s) for s in option_settings(SYSTEM)]
    texts = [str(f.label) for f in fields] + [str(f.help_text) for f in fields]
    assert len(fields) == len(props) + len(option_settings(SYSTEM))
    assert all(f.label and f.help_text for f in fields)
    assert english(texts) == []
    with translation.override("en"):
        assert [str(param_field(n, p).label) for n, p in props.items()] == [
            "Cover of side A", "Cover of side B", "Turns at most", "Volleys per firefight"]  # fmt: skip


# The catalogue -------------------------------------------------------------------------------------------------
MARKERS = {"_", "tr", "N_", "gettext", "say"}


def marked_msgids() -> set[str]:
    """Every literal the package marks for translation (gettext calls, N_, words.say, ngettext's two forms)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if "tests" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            n = 2 if name == "ngettext" else (1 if name in MARKERS else 0)
            for arg in node.args[:n]:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and LATIN.search(arg.value):
                    found.add(arg.value)
    return found


def test_every_marked_text_is_in_the_catalogue_translated_with_its_placeholders():
    entries = {e["msgid"]: e for e in po_entries(CATALOGUE)}
    ids = set(entries)
    for e in po_entries(CATALOGUE):
        if e.get("msgid_plural"):
            ids.add(e["msgid_plural"])
    wanted = marked_msgids() | {c.label for c in SYSTEM.battle.commands.values()}
    wanted |= {c.help for c in SYSTEM.battle.commands.values()}
    wanted |= {s.label for s in SYSTEM.settings} | {s.help for s in SYSTEM.settings}
    assert len(wanted) > 250
    assert sorted(m for m in wanted if m not in ids) == []
    for msgid, e in entries.items():
        assert all(e["msgstr"].values()), msgid
        for text in e["msgstr"].values():
            assert set(re.findall(r"\{[^}]*\}", text)) == set(re.findall(r"\{[^}]*\}", msgid)), msgid


def test_the_equipment_lookups_errors_read_in_russian():
    from rules.systems.thw5150 import equipment

    calls = [
        lambda: equipment.weapon("no-such-gun"),
        lambda: equipment.armour_slug("no-such-armour"),
        lambda: equipment._cell({"name": "Custom", "impact": {"X": 1}}, "Y", ()),
    ]
    messages = []
    with translation.override("ru"):
        for call in calls:
            with pytest.raises(ArmlistError) as caught:
                call()
            messages += [str(m) for m in caught.value.errors.values()]
    assert messages[0] == "неизвестное оружие «no-such-gun»"
    assert messages[1].startswith("неизвестная броня «no-such-armour»")
    assert messages[2] == "У Custom нет Ущерба для столбца «Y»"


def test_the_packs_words_read_in_both_languages():
    """The official pack's source, notes and provenance are English (the pack page translates them): a Russian
    reader gets each in Russian, the provenance under its context; none is Russian for an English reader but the
    units' names («У5»)."""
    import json

    from django.utils.translation import pgettext

    pack = json.loads((PACKAGE / "data" / "normals.json").read_text(encoding="utf-8"))
    plain, provenance = pack_words(pack)
    for text in plain + provenance:
        assert not re.search("[А-Яа-яЁё]", text.replace("У5", "").replace("У4", "").replace("У3", "")), text
    with translation.override("ru"):
        assert all(translation.gettext(t) != t and re.search("[а-я]", translation.gettext(t)) for t in plain)
        assert all(pgettext("pack provenance", t) != t for t in provenance)
        assert (
            english([translation.gettext(t) for t in plain] + [pgettext("pack provenance", t) for t in provenance])
            == []
        )
