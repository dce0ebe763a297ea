"""The battle part played through commands with rules.contract.testing.Table, as the web runner plays it: popcorn
activations of two actions, the book's tests with typed-in dice, statuses ticking as events with their dice,
undo, replay, whose turn it is, and what the tracker keeps for each agent (spec §4)."""

import pytest
from django.utils import translation

from rules.contract.testing import Table
from rules.errors import GameConflict, RuleInputError
from rules.systems.enforcers import tables
from rules.systems.enforcers.system import SYSTEM
from rules.systems.enforcers.texts import render

APPRENTICE = next(p for p in tables.PACK["profiles"] if p["slug"] == "apprentice")
STATS = dict.fromkeys(tables.STATS, 10)
GUN = {"name": "Autogun", "damage": 4, "ranged": True, "capacity": 6, "traits": ["bleeding"]}
BLADE = {"name": "Blade", "damage": 5, "reach_cm": 2}
KATE, THUG = "s0-kate", "s1-thug"


def roster(name, stats=None, **options):
    options = {"name": name, "stats": {**STATS, **(stats or {})}, **options}
    return {"faction": "enforcers", "entries": [{"key": name.lower(), "profile": APPRENTICE, "count": 1,
                                                 "options": options}]}  # fmt: skip


def table(**settings) -> Table:
    kate = roster("Kate", {"BS": 12}, weapons=[GUN, BLADE], armour="enforcer-gear", perks=["Prayer"],
                  items=[{"name": "сменный магазин"}, {"name": "мед.кит"}])  # fmt: skip
    thug = roster("Thug", {"HL": 6}, weapons=[BLADE], armour="kevlar-vest")
    return Table(SYSTEM, rosters=[kate, thug], settings=settings)


def state(t: Table, key: str) -> dict:
    return t.state.units[key].state


def test_a_short_game_through_commands_undo_and_replay():
    t = table()
    assert t.awaiting().sides == (0, 1)
    t.command(0, "activate", {"unit": KATE}, dice=[])
    assert state(t, KATE)["actions_left"] == 2
    with pytest.raises(GameConflict):
        t.command(1, "shoot", {"target": KATE, "weapon": 0}, dice=[1])
    # BS 12, short range: d20 3 − blessing 2 hits; 4 damage: Kevlar's 2 AP then 2 HP; TN test 15 fails: Bleeding.
    shot = t.command(0, "shoot", {"target": THUG, "weapon": 0, "range_band": "short"}, dice=[3, 2, 15])
    assert [d["value"] for d in shot[0]["dice"]] == [3, 2, 15]
    thug = state(t, THUG)
    assert (thug["hp"], thug["ap"], sorted(thug["statuses"])) == (4, 0, ["bleeding"])
    assert state(t, KATE)["weapons"][0]["ammo"] == 5
    t.command(0, "take_cover", {}, dice=[])
    assert state(t, KATE)["actions_left"] == 0
    t.command(0, "end_activation", {}, dice=[])
    assert t.state.game["picker"] == 0  # Kate's side picks who goes next (L63), an enemy model included
    t.command(0, "activate", {"unit": THUG}, dice=[])
    with pytest.raises(GameConflict, match="Thug is acting"):
        t.command(0, "move", {"distance_cm": 6}, dice=[])
    with pytest.raises(GameConflict, match="Thug is acting"):  # nobody asked for a reaction shot
        t.command(0, "reaction_shot", {"shooter": THUG, "target": KATE, "weapon": 0}, dice=[])
    t.command(1, "move", {"distance_cm": 6}, dice=[])
    # WS 10 with reach +2 and a charge (+3 blessings) against Kate's parry (2 curses): d20 5 − d6 3 hits.
    t.command(1, "melee", {"target": KATE, "distance_cm": 0, "start_distance_cm": 8}, dice=[5, 3])
    assert (state(t, KATE)["ap"], state(t, KATE)["hp"]) == (1, 10)
    before_end = t.version
    ended = t.command(1, "end_activation", {}, dice=[])  # Bleeding: 2 HP past armour; the round is over
    assert ended[0]["payload"]["round_over"] is True
    assert state(t, THUG)["hp"] == 2
    assert t.state.game["round"] == 2
    assert t.state.game["picker"] == 1  # the model that went last picks first (A18)
    assert t.replay_matches()
    t.undo(1, seq=before_end + 1)
    assert (t.state.game["round"], state(t, THUG)["hp"], t.state.game["active"]) == (1, 4, THUG)
    assert t.replay_matches()


def test_a_model_activates_once_a_round_and_the_dead_do_not_activate():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "end_activation", {}, dice=[])
    with pytest.raises(GameConflict, match="already acted"):
        t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "damage", {"unit": THUG, "amount": 20}, dice=[])
    assert "dead" in state(t, THUG)["statuses"]
    with pytest.raises(RuleInputError, match="dead"):
        t.command(0, "activate", {"unit": THUG}, dice=[])


@pytest.mark.parametrize(("picker", "expected"), [("last_model", (1,)), ("players", (0, 1))])
def test_next_round_picker(picker, expected):
    t = table(next_round_picker=picker)
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "end_activation", {}, dice=[])
    t.command(0, "activate", {"unit": THUG}, dice=[])  # Kate's side picks, and picks the enemy
    t.command(1, "end_activation", {}, dice=[])
    assert t.state.game["round"] == 2
    assert t.awaiting().sides == expected


def test_free_weapon_swaps():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "ready_weapon", {"weapon": 1, "how": "draw"}, dice=[])
    assert [w["drawn"] for w in state(t, KATE)["weapons"]] == [True, True]
    with pytest.raises(GameConflict, match="one free"):
        t.command(0, "ready_weapon", {"weapon": 0, "how": "stow"}, dice=[])
    loose = table(free_weapon_swaps="switch_unlimited")
    loose.command(0, "activate", {"unit": KATE}, dice=[])
    loose.command(0, "ready_weapon", {"weapon": 1, "how": "switch"}, dice=[])
    loose.command(0, "ready_weapon", {"weapon": 0, "how": "switch"}, dice=[])
    loose.command(0, "ready_weapon", {"weapon": 1, "how": "draw"}, dice=[])
    assert state(loose, KATE)["actions_left"] == 2
    with pytest.raises(GameConflict):
        loose.command(0, "ready_weapon", {"weapon": 1, "how": "stow"}, dice=[])


@pytest.mark.parametrize(("timing", "actions", "stacks"), [("current_first", 1, None), ("next_activation", 2, 1)])
def test_a_stun_while_acting_takes_an_action_now_or_later(timing, actions, stacks):
    t = table(stun_timing=timing)
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(1, "set_status", {"unit": KATE, "status": "stunned", "on": True}, dice=[])
    assert state(t, KATE)["actions_left"] == actions
    assert state(t, KATE)["statuses"].get("stunned", {}).get("stacks") == stacks


def test_statuses_tick_as_events_with_their_dice():
    t = table()
    t.command(1, "set_status", {"unit": THUG, "status": "poisoned", "on": True}, dice=[])
    t.command(1, "set_status", {"unit": THUG, "status": "burning", "on": True, "turns": 3}, dice=[])
    t.command(1, "activate", {"unit": THUG}, dice=[])
    # Poison TN test 12 fails: −1 HP; burning: 2 on Kevlar's AP; its WL test 3 holds.
    ended = t.command(1, "end_activation", {}, dice=[12, 3])
    assert [d["purpose"] for d in ended[0]["dice"]] == ["Poison TN test: d20", "Fear test: d20"]
    thug = state(t, THUG)
    assert (thug["hp"], thug["ap"], thug["statuses"]["burning"]["turns"]) == (5, 0, 2)


def test_dying_counts_down_over_its_own_activations_to_death():
    t = table()
    t.command(0, "adjust", {"unit": THUG, "hp": -4}, dice=[])
    assert "dying" in state(t, THUG)["statuses"]
    for _round in range(3):
        t.command(0, "activate", {"unit": THUG}, dice=[])
        assert state(t, THUG)["actions_left"] == 0
        assert t.awaiting().commands == ("ready_weapon", "end_activation")
        t.command(1, "end_activation", {}, dice=[])
        if "dead" in state(t, THUG)["statuses"]:
            break
        t.command(1, "activate", {"unit": KATE}, dice=[])
        t.command(0, "end_activation", {}, dice=[])
    assert "dead" in state(t, THUG)["statuses"]
    assert t.state.game["round"] == 3
    assert t.replay_matches()


def test_overwatch_reaction_shot_costs_no_action_and_fires_once():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "overwatch", {}, dice=[])
    assert state(t, KATE)["overwatch"] is True
    t.command(0, "end_activation", {}, dice=[])
    t.command(0, "activate", {"unit": THUG}, dice=[])
    t.command(1, "move", {"distance_cm": 4}, dice=[])
    t.command(0, "reaction_shot", {"shooter": KATE, "target": THUG, "weapon": 0}, dice=[19])
    assert state(t, KATE)["overwatch"] is False
    assert state(t, THUG)["actions_left"] == 1
    with pytest.raises(GameConflict):
        t.command(0, "reaction_shot", {"shooter": KATE, "target": THUG, "weapon": 0}, dice=[1])


def test_suppression_pins_and_the_pinned_draw_a_reaction_shot():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "suppressive_fire", {"weapon": 0, "targets": [THUG]}, dice=[])
    assert state(t, THUG)["statuses"]["pinned"] == {"turns": 1, "by": KATE}
    assert state(t, KATE)["weapons"][0]["ammo"] == 3
    t.command(0, "end_activation", {}, dice=[])
    t.command(0, "activate", {"unit": THUG}, dice=[])
    moved = t.command(1, "move", {"distance_cm": 3}, dice=[])
    due = [e for e in moved[0]["payload"]["effects"] if e["kind"] == "reaction_shot_due"]
    assert due[0]["by"] == KATE
    t.command(0, "reaction_shot", {"shooter": KATE, "target": THUG, "weapon": 0}, dice=[20])
    t.command(1, "end_activation", {}, dice=[])
    assert "pinned" not in state(t, THUG)["statuses"]


def test_reload_medical_aid_and_a_prayer_once_a_round():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    t.command(0, "reload", {"weapon": 0}, dice=[])
    assert (state(t, KATE)["weapons"][0]["ammo"], state(t, KATE)["spare_magazines"]) == (6, 0)
    t.command(0, "prayer", {"prayer": "intercession", "target": None}, dice=[])
    assert state(t, KATE)["rerolls"] == 1
    with pytest.raises(GameConflict):
        t.command(0, "prayer", {"prayer": "benediction", "target": None}, dice=[])
    t.command(0, "end_activation", {}, dice=[])
    t.command(0, "activate", {"unit": THUG}, dice=[])
    t.command(1, "end_activation", {}, dice=[])
    assert (t.state.game["round"], state(t, KATE)["rerolls"], state(t, KATE)["prayed_this_round"]) == (2, 1, False)
    t.command(1, "damage", {"unit": KATE, "amount": 12}, dice=[])
    t.command(1, "activate", {"unit": KATE}, dice=[])
    healed = t.command(0, "medical_aid", {"target": None, "mode": "restore_hp"}, dice=[4])
    assert state(t, KATE)["hp"] == 10
    assert "Medical aid" in healed[0]["payload"]["summary"]


def test_the_tracker_keeps_what_section_4_asks_for_each_agent():
    t = table()
    t.command(0, "activate", {"unit": KATE}, dice=[])
    view = SYSTEM.battle.unit_view(t.state, t.state.units[KATE], frozenset({0}))
    for key in ("hp", "ap", "max_hp", "max_ap", "statuses", "flags", "actions_left", "wound", "aim", "overwatch",
                "took_cover", "counter_used", "rerolls", "weapons", "moves_last_activation", "derived"):  # fmt: skip
        assert key in view, key
    assert (view["actions_left"], view["wound"], view["max_ap"], view["derived"]["move"]) == (2, "none", 6, 10)


def test_the_board_and_the_history_read_in_the_books_words():
    t = table()
    t.command(1, "set_status", {"unit": THUG, "status": "burning", "on": True, "turns": 3}, dice=[])
    t.command(0, "activate", {"unit": KATE}, dice=[])
    units = [{"key": k, "name": u.name, "kind": u.kind, "owner": u.side,
              "view": SYSTEM.battle.unit_view(t.state, u, frozenset({0}))} for k, u in t.state.units.items()]  # fmt: skip
    view = {
        "game": t.state.game,
        "units": units,
        "sides": [{"index": 0, "name": "Arbites"}, {"index": 1, "name": "Gang"}],
    }
    with translation.override("ru"):
        board = SYSTEM.battle.board(view, frozenset({0}), can_write=True)
    english = SYSTEM.battle.board(view, frozenset({0}), can_write=True)
    kate_card = board["groups"][0]["units"][0]
    thug_card = board["groups"][1]["units"][0]
    folded = [x for w in kate_card["widgets"] if w["type"] == "fold" for x in w["widgets"]]
    assert any(w["type"] == "prompt" and w["command"] == "shoot" for w in folded)
    burning = [w for w in thug_card["widgets"] if w["type"] == "status" and w["label"] == "Горит"]
    assert [(w["turns"], w["tone"], w["rule"]) for w in burning] == [(3, "bad", "burning")]
    # The same chip on an English phone reads in English.
    thug_in_english = english["groups"][1]["units"][0]
    assert [w["label"] for w in thug_in_english["widgets"] if w["type"] == "status"] == ["Burning"]
    assert not any(w["type"] in ("prompt", "fold") for w in thug_card["widgets"])
    from rules.contract import Event

    line = SYSTEM.battle.describe_event(
        Event(1, "activation_started", t.events[-1]["payload"]), {"units": {KATE: "Kate"}}
    )
    assert line.startswith("Kate activates")


def test_injured_and_dead_agents_stay_at_home():
    hurt = roster("Bob", campaign={"injury_days": 4})
    t = Table(SYSTEM, rosters=[hurt, roster("Thug", weapons=[BLADE])])
    assert list(t.state.units) == [THUG]
    note = t.state.game["notes"][0]
    assert note["side"] == "Side 0"
    assert "Bob stays at home" in render(note["text"])


COMMAND_NAMES = sorted(SYSTEM.battle.commands)
UNIT_KEYS = [KATE, THUG, "nobody"]


def _command_inputs(name: str):
    from hypothesis import strategies as st

    from rules.systems.enforcers.tests.test_junk import valid

    schema = SYSTEM.battle.commands[name].input_schema
    props = dict(schema.get("properties") or {})
    keyed = {k: st.sampled_from(UNIT_KEYS) for k in ("unit", "target", "shooter", "stray_victim") if k in props}
    if "targets" in props:
        keyed["targets"] = st.lists(st.sampled_from(UNIT_KEYS), max_size=2, unique=True)
    rest = {k: v for k, v in props.items() if k not in keyed}
    required = set(schema.get("required") or ())
    return st.fixed_dictionaries(
        {k: (keyed[k] if k in keyed else valid(rest[k])) for k in required},
        optional={k: (keyed[k] if k in keyed else valid(rest[k])) for k in props if k not in required},
    )


def test_random_command_sequences_only_give_contract_errors_and_always_replay():
    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings
    from hypothesis import strategies as st

    from rules.errors import ArmlistError

    step = st.sampled_from(COMMAND_NAMES).flatmap(
        lambda name: st.tuples(st.just(name), _command_inputs(name), st.sampled_from([0, 0, 1]), st.integers(0, 999))
    )

    @hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(steps=st.lists(step, min_size=1, max_size=12))
    def play(steps):
        t = table()
        t.command(0, "activate", {"unit": KATE}, dice=[])  # most commands need a model acting
        accepted = 0
        for name, inputs, side, seed in steps:
            try:
                t.command(side, name, inputs, seed=seed)
            except ArmlistError:
                continue
            accepted += 1
            assert t.replay_matches(), (name, inputs)
        if accepted:
            last = next(e["seq"] for e in reversed(t.events) if e["cause"] is None and e["type"] != "undo")
            # An answered question (a counter, a reaction shot, the end) may need both players to undo it, where
            # the table knows agreements (rules/contract/testing.py).
            needs = getattr(t, "needs_agreement", None)
            t.undo(0, seq=last, **({"agreed": bool(needs(0, last))} if needs else {}))
            assert t.replay_matches()

    play()
