"""The contract suite: every registered game system, and the test-only one, against the same checks. A system is
held only to the parts it provides (`system.parts()`); the lists below are built from the registry, so a new system
is checked as soon as it is listed in settings.RULES_SYSTEMS.

In memory (rules.contract.testing.Table, the runner's own steps): settings, the army part's costing of its example
rosters, a battle played through its example script with replay and undo after every command, per-viewer
redaction of secret events, and the simulator's determinism with a seed. Through the database, the API and the
event feed: tests/test_contract_suite_db.py.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from rules.contract import NothingToUndo, UndoNeedsAgreement
from rules.contract.testing import Table
from rules.registry import all_systems
from tests.contract_system.system import SYSTEM as TEST_SYSTEM

TEST_PROFILES = [
    {"slug": "a", "name": "Alpha", "faction": "f", "kind": "squad", "cost": 5, "data": {"strength": 3}},
    {"slug": "b", "name": "Beta", "faction": "g", "kind": "squad", "cost": 7, "data": {"strength": 2}},
]


def systems():
    return [*all_systems(), TEST_SYSTEM]


def with_part(part: str):
    return [pytest.param(s, id=s.slug) for s in systems() if getattr(s, part) is not None]


def official_profiles(system) -> list[dict]:
    """The profiles of the system's official pack files (its package's data/*.json); the test system's own."""
    if system is TEST_SYSTEM:
        return TEST_PROFILES
    folder = Path(sys.modules[type(system).__module__].__file__).parent / "data"
    profiles = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("profiles"), list):
            profiles += data["profiles"]
    return profiles


def example_rosters(system) -> list[dict]:
    profiles = official_profiles(system)
    assert profiles, f"{system.slug}: an army part needs an official or example pack in its data/ folder"
    return [system.army.example_roster(profiles, side) for side in (0, 1)]


# Identity and settings -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", [pytest.param(s, id=s.slug) for s in systems()])
def test_identity_settings_and_actions(system):
    assert system.slug
    assert system.name
    assert isinstance(system.slug, str)
    keys = [s.key for s in system.settings]
    assert len(keys) == len(set(keys)), "two settings share a key"
    defaults = system.resolve_settings({})
    for setting in system.settings:
        assert setting.check(defaults[setting.key]) == setting.default
    described = json.loads(json.dumps(system.describe()))  # JSON-safe, as the systems API sends it
    assert described["slug"] == system.slug
    assert set(described["parts"]) == set(system.parts())


# Army ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", with_part("army"))
def test_example_rosters_cost_and_validate(system):
    for roster in example_rosters(system):
        assert roster["entries"], "an example roster has entries"
        for entry in roster["entries"]:
            system.army.validate_options(entry["profile"], entry["options"])
            system.validate_profile(entry["profile"])
        report = system.army.cost_roster(copy.deepcopy(roster))
        assert set(report.entry_costs) == {e["key"] for e in roster["entries"]}
        assert report.total == sum(report.entry_costs.values())
        assert not report.has_errors, [i.message for i in report.issues if i.severity == "error"]
        if system.army.pricing in ("points", "formula"):
            assert report.total > 0


# Battle ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", with_part("battle"))
def test_example_battle_replays_and_undoes_after_every_command(system):
    rosters = example_rosters(system) if system.army else []
    table = Table(system, rosters=rosters)
    script = system.battle.example_script(table.state)
    assert script, f"{system.slug}: the battle part gives an example script"
    for side, name, inputs, dice in script:
        before = copy.deepcopy(table.state)
        heads_before = table.version
        awaiting = table.awaiting()
        events = table.command(side, name, inputs, dice=dice, seed=7)
        assert events, f"{name} recorded nothing"
        assert table.replay_matches(), f"replay differs after {name}"
        # The answer to a question, and a reveal the part declares, are closing points.
        if awaiting.kind == "question" and not system.battle.commands[name].free:
            assert events[0]["closes"], f"{name} answers a question: a closing point"
        for e in events:
            if e["type"] in system.battle.closing_events:
                assert e["closes"], f"{e['type']} is declared closing"
        # Undo gives back the state before the command, then undoing the undo gives the state after it. An undo
        # that would change nothing is refused; one that takes back what the other side saw revealed or answered
        # needs both players.
        after = copy.deepcopy(table.state)
        target = heads_before + 1
        if _same(after, before):
            with pytest.raises(NothingToUndo):
                table.undo(side, seq=target)
            continue
        closed = any(e["closes"] for e in events)
        assert bool(table.needs_agreement(side, target)) == closed, name
        if closed:
            with pytest.raises(UndoNeedsAgreement):
                table.undo(side, seq=target)
            assert table.version == heads_before + len(events), "a refused undo records nothing"
        table.undo(side, seq=target, agreed=closed)
        assert _same(table.state, before), f"undo of {name}"
        if closed:  # what both agreed to, one side does not redo alone
            with pytest.raises(UndoNeedsAgreement):
                table.undo(side, seq=table.version)
        table.undo(side, seq=table.version, agreed=closed)
        assert _same(table.state, after), f"redo of {name}"
    assert table.replay_matches()


def _same(a, b) -> bool:
    """The same game and unit states (what a phone shows), compared as stored (JSON)."""

    def stored(state):
        return json.dumps([state.game, {k: u.state for k, u in state.units.items()}], sort_keys=True, default=list)

    return stored(a) == stored(b)


@pytest.mark.parametrize("system", with_part("battle"))
def test_secret_events_reach_only_their_side(system):
    rosters = example_rosters(system) if system.army else []
    table = Table(system, rosters=rosters)
    for side, name, inputs, dice in system.battle.example_script(table.state):
        table.command(side, name, inputs, dice=dice, seed=11)
        for viewer in (0, 1):
            seen = {e["seq"] for e in table.feed({viewer})}
            for e in table.events:
                if e["visible_to"] is not None and viewer not in e["visible_to"]:
                    assert e["seq"] not in seen
            json.dumps(table.view({viewer}))  # what a viewer gets is JSON-safe


@pytest.mark.parametrize("system", with_part("battle"))
def test_unknown_commands_and_bad_inputs_are_refused_without_a_trace(system):
    from rules.errors import ArmlistError

    rosters = example_rosters(system) if system.army else []
    table = Table(system, rosters=rosters)
    before = copy.deepcopy(table.state.game)
    for name, inputs in (("no-such-command", {}), (next(iter(system.battle.commands)), {"\x00": "x" * 10})):
        with pytest.raises(ArmlistError):
            table.command(0, name, inputs)
    assert table.version == 0
    assert table.state.game == before


# Simulator -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", with_part("simulator"))
def test_simulator_is_deterministic_with_a_seed(system):
    sim = system.simulator
    side_a, side_b = example_rosters(system)
    params = sim.check_params({})
    settings = sim.check_settings(system.resolve_settings({}))
    prepared = sim.prepare(side_a, side_b, params, settings)
    first = sim.run(prepared, 64, np.random.default_rng(np.random.SeedSequence(5)))
    again = sim.run(prepared, 64, np.random.default_rng(np.random.SeedSequence(5)))
    for key in ("winner", "rounds", "left_a", "left_b"):
        assert len(first[key]) == 64
        assert np.array_equal(first[key], again[key]), key
    assert set(np.unique(first["winner"])) <= {-1, 0, 1}
