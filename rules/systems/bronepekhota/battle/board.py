"""The «Бронепехота» phone board as widgets (rules/contract/board.py): the turn bar, one card per unit with its
strength track, sliders, soldiers and actions, and the end-of-game controls. The generic templates draw them."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _
from rules.systems.bronepekhota import words
from rules.systems.bronepekhota.actions.support import has_repair, jump_steps
from rules.systems.bronepekhota.battle import questions
from rules.systems.bronepekhota.battle.units import split_actor
from rules.systems.bronepekhota.battle.view import available_actions

_TONES = {"warn": "warn", "bad": "bad", "good": "good"}
# The flags the tracker raises (view.py, tracker.py), translated when drawn (_flags).
FLAG_NAMES = (
    N_("aiming"),
    N_("captured: acts next round"),
    N_("deserted"),
    N_("destroyed"),
    N_("done"),
    N_("flying"),
    N_("in melee"),
    N_("lying"),
    N_("may stand up"),
    N_("no pilot"),
    N_("on foot"),
    N_("panicked"),
    N_("pilot"),
    N_("repair platform"),
    N_("towed"),
    N_("towing"),
)
ADJUST_TITLE = N_("Adjust by hand (a ruling)")
ADJUST_HELP = N_(
    "For what the dice did not decide: the players agree, and the change is written in the history, where it can "
    "be undone."
)
MORE_TITLE = N_("More tests")
MORE_AND_ADJUST_TITLE = N_("More tests · adjust by hand")
KIND_NAMES = (N_("squad"), N_("vehicle"), N_("gun"))  # u["kind"] as the reader says it


# Each flag's rule at hand (rules_at_hand.py): the chip links to it.
FLAG_RULES = {
    "aiming": "aiming",
    "captured: acts next round": "captured",
    "deserted": "deserted",
    "destroyed": "destroyed",
    "done": "done",
    "flying": "flying",
    "in melee": "in_melee",
    "lying": "lying",
    "may stand up": "may_stand_up",
    "no pilot": "no_pilot",
    "on foot": "on_foot",
    "panicked": "panicked",
    "pilot": "pilot",
    "repair platform": "repair",
    "towed": "tow",
    "towing": "tow",
}
# A soldier's status shown on his squad's card too, so that its rule is one tap away (the rows carry no links).
SQUAD_STATUSES = ("panicked", "in melee", "aiming", "on foot", "pilot", "deserted")


def _flags(pairs) -> list[dict]:
    return [w.flag(_(label), _TONES.get(kind, ""), rule=FLAG_RULES.get(label, "")) for label, kind in pairs]


def board(state: dict, viewer_sides, *, can_write: bool) -> dict:
    game = state["game"]
    names = {s["index"]: s["name"] for s in state["sides"]}
    live = can_write and game.get("result") is None
    return {
        "banner": _banner(state, names),
        "turnbar": _turnbar(state, names, viewer_sides, live),
        "groups": _groups(state, viewer_sides, can_write=can_write, live=live),
        "footer": _footer(state, names) if live else [],
    }


def _banner(state: dict, names: dict) -> dict | None:
    game = state["game"]
    result = game.get("result")
    if not result:
        return None
    winner = names.get(result.get("winner"))
    if result.get("reason") == "mission":
        why = _("mission completed") + (f": {result['note']}" if result.get("note") else "")
    else:
        why = _("every soldier of the other side is gone")
    lines = [
        _("Rounds played: {round}; events recorded: {version}.").format(
            round=game.get("round"), version=state["version"]
        )
    ]
    for side in state["sides"]:
        soldiers = game.get("soldiers", {}).get(str(side["index"]), 0)
        lost = sum(1 for u in state["units"] if u["side"] == side["index"] and not u["view"]["alive"])
        lines.append(
            _("{name}: {soldiers} soldier(s) left, {lost} unit(s) lost.").format(
                name=side["name"], soldiers=soldiers, lost=lost
            )
        )
    title = _("{winner} wins").format(winner=winner) if winner else _("Nobody is left standing")
    return {
        "title": _("The game is over."),
        "text": f"{title} ({why}).",
        "lines": lines,
        "note": _("Undo the last events to play on."),
    }


def _turnbar(state: dict, names: dict, viewer_sides, live: bool) -> list[dict]:
    game = state["game"]
    out = []
    turn = game.get("turn")
    now = _("Round {round}").format(round=game.get("round"))
    if turn is not None and turn in names:
        now += _(" · Turn: {value}").format(value=names[turn]) + (_(" (you)") if turn in viewer_sides else "")
    out.append(w.text(now, tone="now"))
    active = game.get("active_unit")
    if active and game.get("result") is None:
        out.append(w.text(_("Acting now: {name}").format(name=_actor_name(state, active))))
    initiative = game.get("initiative")
    if initiative:
        line = _("Initiative: {get}").format(get=names.get(initiative["winner"], initiative["winner"]))
        if game.get("order"):
            line += _(" · order of play: {order}").format(order=", ".join(names.get(s, str(s)) for s in game["order"]))
        out.append(w.text(line))
    else:
        out.append(w.text(_("Initiative not rolled this round.")))
    question = questions.pending(game)
    if question is not None and game.get("result") is None:
        # A pilot's test asked of his own player: his phone asks it, the others see whom the game waits for.
        if live and question["side"] in viewer_sides:
            out.append(questions.prompt(game, question, state["settings"]))
        else:
            out.append(w.text(questions.waiting_text(game, question, state["settings"]), tone="warning"))
    elif game.get("result") is None:
        out.append(w.text(_next_step(state, names), tone="now"))
    deployment = game.get("deployment") or {}
    if deployment.get("open"):
        out.append(w.text(_deployment_line(deployment, names)))
    if live and question is not None:  # the game waits for the answer: only a dispute may come first (p.51)
        out.append(w.buttons([w.button(_("Dispute roll"), "", attrs={"act": "dispute"})]))
    elif live:
        buttons = []
        if deployment.get("open") and deployment.get("alternate") and deployment.get("first") is None:
            buttons.append(w.button(_("Roll off: who deploys first"), "deployment"))
        standing = [s["index"] for s in state["sides"] if s["index"] not in game.get("eliminated", [])]
        if not initiative:  # every player rolls Д12 (p.9): the server rolls, or the sheet takes the table's dice
            buttons.append(w.button(_("Roll initiative"), "initiative", secondary=False))
            buttons.append(w.button(_("Initiative with the table's dice…"), "", attrs={"act": "initiative"}))
        if initiative and not game.get("order") and initiative["winner"] in viewer_sides:
            for first in standing:
                order = [first] + [s for s in standing if s != first]
                buttons.append(
                    w.button(_("{value} first").format(value=names[first]), "order", {"order": order}, secondary=False)
                )
        buttons.append(
            w.button(
                _("Start round {value}").format(value=game.get("round", 1) + 1),
                "round",
                secondary=not game.get("round_over"),
            )
        )
        buttons.append(w.button(_("Resolve a test…"), "", attrs={"act": "shoot"}))
        buttons.append(w.button(_("Dispute roll"), "", attrs={"act": "dispute"}))
        out.append(w.buttons(buttons))
    return out


def _actor_name(state: dict, active: str) -> str:
    """The unit acting now by its roster name; a dismounted pilot acting alone (A19 off, "<squad>/<num>") as «N-й
    пехотинец отряда»."""
    unit_key, num = split_actor(active)
    name = next((u["name"] for u in state["units"] if u["key"] == unit_key), "?")
    return name if num is None else _("{unit}, soldier {num} on his own").format(unit=name, num=num)


def _next_step(state: dict, names: dict) -> str:
    """What the game waits for now, in the book's order of a round (§1.6): initiative, the order, the units one by
    one, the next round."""
    game = state["game"]
    initiative = game.get("initiative")
    if not initiative:
        return _("Next: every player rolls D12 for the initiative.")
    if not game.get("order"):
        return _("Next: {side} holds the initiative and sets the order of play.").format(
            side=names.get(initiative["winner"], initiative["winner"])
        )
    if game.get("round_over"):
        return _("Next: every unit has acted; start round {round}.").format(round=game.get("round", 1) + 1)
    turn = game.get("turn")
    side = names.get(turn, turn)
    active = game.get("active_unit")
    if active:
        unit = _actor_name(state, active)
        return _("Next: {side} goes on with {unit}, then marks it «Done».").format(side=side, unit=unit)
    return _("Next: {side} picks a unit that has not acted yet and acts with it.").format(side=side)


def _deployment_line(deployment: dict, names: dict) -> str:
    """Deployment before round 1 (p.3–4, §5 A3)."""
    left = sum(deployment.get("left", {}).values())
    if not deployment.get("alternate"):
        return _("Deployment (free order): {left} unit(s) still to place, or roll initiative to skip it.").format(
            left=left
        )
    if deployment.get("first") is None:
        return _("Deployment alternates one unit at a time: roll off who places first (or roll initiative to skip it).")
    nxt = deployment.get("next")
    return _("Deployment: {get} places the next unit ({left} still to place).").format(
        get=names.get(nxt, nxt), left=left
    )


def _groups(state: dict, viewer_sides, *, can_write: bool, live: bool) -> list[dict]:
    game = state["game"]
    groups = []
    for side in sorted(state["sides"], key=lambda s: (not s["mine"], s["index"])):
        who = _(" (you)") if side["mine"] else f" ({side['player']})" if side["player"] else _(" (seat open)")
        soldiers = game.get("soldiers", {}).get(str(side["index"]), 0)
        subtitle = _("{soldiers} soldier(s)").format(soldiers=soldiers) + (
            _(" · eliminated") if side["index"] in game.get("eliminated", []) else ""
        )
        units = [u for u in state["units"] if u["owner"] == side["index"]]
        groups.append(
            {
                "title": side["name"] + who,
                "subtitle": subtitle,
                "units": [_card(u, state, can_write=can_write and u["mine"], live=live and u["mine"]) for u in units],
            }
        )
    return groups


def _card(u: dict, state: dict, *, can_write: bool, live: bool) -> dict:
    v = u["view"]
    flags = _flags(v["flags"])
    if v["activatable"] and not v["activated"] and state["game"].get("result") is None:
        flags.append(w.flag(_("to act"), rule="done"))
    if u["kind"] == "squad":
        present = {label: kind for s in v["soldiers"] if s["alive"] for label, kind in s["flags"]}
        flags += _flags([(label, present[label]) for label in SQUAD_STATUSES if label in present])
    subtitle = f"{_(u['kind'])} · {v['summary']}" + (_(" · captured") if u["owner"] != u["side"] else "")
    card = {
        "key": u["key"],
        "title": u["name"],
        "subtitle": subtitle,
        "flags": flags,
        "done": v["activated"],
        "dead": not v["alive"],
        "stats": None,
        "widgets": [],
    }
    if "strength" in v:
        _machine(card, u, v, state, can_write=can_write)
    else:
        _squad(card, u, v, can_write=can_write)
    if live and v["alive"]:
        main, more = _actions(u, v, state)
        card["widgets"].append(main)
        # One folded group per card: the rarer tests join the rulings by hand where the card has them.
        by_hand = next((x for x in card["widgets"] if x["type"] == "buttons" and x["title"] == _(ADJUST_TITLE)), None)
        if by_hand is not None:
            by_hand["items"][:0] = more
            by_hand["title"] = _(MORE_AND_ADJUST_TITLE)
            card["widgets"].remove(by_hand)
            card["widgets"].append(by_hand)
        else:
            card["widgets"].append(w.buttons(more, title=_(MORE_TITLE), folded=True))
    return card


def _machine(card: dict, u: dict, v: dict, state: dict, *, can_write: bool) -> None:
    s = v["strength"]
    items = [{"label": _(words.VEHICLE_ARMOUR), "value": s["armour"], "attr": "armour"}]
    if u["kind"] == "vehicle":
        items.append({"label": _("Speed"), "value": s["speed"]})
    if v["ammo"]["tracked"]:
        items.append({"label": _("Ammo"), "value": f"{v['ammo']['value']}/{v['ammo']['max']}", "attr": "ammo"})
    items.append({"label": _("Shots"), "value": f"{v['shots']['used']}/{v['shots']['rof']}"})
    card["stats"] = {"type": "stats", "items": items}
    widgets = card["widgets"]
    key = u["key"]
    ammo = v["ammo"]
    # The sliders on the unit's row (issue 19): one tap on − or + steps (a relative step: two phones' taps both
    # count), a long press or a drag along the scale sets the value (an absolute set, refused if stale).
    if can_write:
        widgets.append(
            w.track(
                _("Strength"),
                s["value"],
                s["max"],
                s["cells"],
                minus=_step(key, "strength_step", -1, _("Strength −1"), disabled=s["value"] == 0),
                plus=_step(key, "strength_step", 1, _("Strength +1"), disabled=s["value"] == s["max"]),
                set_command=w.set_value("adjust", {"unit": key, "changes": {}}, "changes.strength"),
            )
        )
        if ammo["tracked"]:
            widgets.append(
                w.counter(
                    _("Ammo"),
                    ammo["value"],
                    ammo["max"],
                    minus=_step(key, "ammo_step", -1, _("Ammo −1"), disabled=ammo["value"] == 0),
                    plus=_step(key, "ammo_step", 1, _("Ammo +1"), disabled=ammo["value"] == ammo["max"]),
                    set_command=w.set_value("adjust", {"unit": key, "changes": {}}, "changes.ammo"),
                )
            )
    else:
        widgets.append(w.track(_("Strength"), s["value"], s["max"], s["cells"]))
    if u["kind"] == "vehicle":
        if v.get("pilot"):
            p = v["pilot"]
            squad = next((x["name"] for x in state["units"] if x["key"] == p["unit"]), None)
            line = _("Pilot: soldier {soldier} of {value}").format(soldier=p["soldier"], value=squad or "?")
            if p.get("armour") is not None:
                line += f" ({_(words.ARMOUR)} {p['armour']})"
        else:
            line = _("No pilot: it can neither move nor shoot")
        if v.get("melee_value"):
            line += f" · {_(words.MELEE)} {v['melee_value']}"
        widgets.append(w.text(line, tone="stats" if v.get("pilot") else "error"))
    if v.get("shoot_reason"):
        widgets.append(w.text(_("Cannot shoot: {shoot_reason}").format(shoot_reason=v["shoot_reason"])))
    widgets.append({"type": "list", "items": [wp["label"] for wp in v["weapons"]]})
    if can_write:
        lying = "lying" in v["flag_names"]
        melee = "in melee" in v["flag_names"]
        adjust = [
            w.button(
                _("Stand up") if lying else _("Lying"),
                "adjust",
                {"unit": key, "changes": {"flags": {"lying": not lying}}},
            ),
            w.button(
                _("Out of melee") if melee else _("In melee"),
                "adjust",
                {"unit": key, "changes": {"in_melee": not melee}},
            ),
        ]
        widgets.append(w.buttons(adjust, title=_(ADJUST_TITLE), folded=True, help=_(ADJUST_HELP)))


def _step(key: str, step: str, by: int, label: str, *, disabled: bool) -> dict:
    """A − or + of a slider: a relative step by hand (adjust.py STEPS)."""
    sign = "−" if by < 0 else "+"
    return w.button(sign, "adjust", {"unit": key, "changes": {step: by}}, disabled=disabled, aria_label=label)


def _squad(card: dict, u: dict, v: dict, *, can_write: bool) -> None:
    rows = []
    for s in v["soldiers"]:
        title = f"#{s['num']}" + (_(" · pilot") if s["role"] == "pilot" else "")
        flags = _flags(s["flags"]) + ([] if s["alive"] else [w.flag(_("dead"), "bad", rule="destroyed")])
        text = _squad_row_text(s)
        buttons = []
        if can_write:
            key, num = u["key"], s["num"]
            buttons.append(
                w.button(
                    _("Killed") if s["alive"] else _("Alive"),
                    "adjust",
                    {"unit": key, "changes": {"soldier": num, "alive": not s["alive"]}},
                )
            )
            if s["alive"]:
                melee = "in melee" in s["flag_names"]
                buttons.append(
                    w.button(
                        _("Out of melee") if melee else _("In melee"),
                        "adjust",
                        {"unit": key, "changes": {"soldier": num, "in_melee": not melee}},
                    )
                )
                buttons.append(
                    w.button(
                        _("Moved"),
                        "adjust",
                        {"unit": key, "changes": {"soldier": num, "action_used": "move"}},
                        disabled="move" in s["actions"],
                    )
                )
        rows.append(
            {"key": s["num"], "title": title, "flags": flags, "text": text, "dead": not s["alive"], "buttons": buttons}
        )
    card["widgets"].append(
        {"type": "rows", "items": rows, "editable": can_write, "edit_label": _("Adjust soldiers by hand")}
    )


def _squad_row_text(s: dict) -> str:
    """A soldier's values as his Armlist row prints them, in the reader's letters: «А2 Ск5 Бр2 ББ4 · Д6+2 / 2Д6 ·
    Пр4» (English: «Rk2 Spd5 Arm2 CC4 · … · Jp4»)."""
    text = words.stat_line(s)
    text += f" · {s['range']} / {s['power']}" if s.get("range") else _(" · no ranged weapon")
    return text + "".join(f" · {words.ability(a)}" for a in s.get("abilities", []))


def _act(label: str, act: str, key: str, *, primary: bool = False) -> dict:
    """A button that opens the action sheet on this test for this unit (board.js)."""
    return w.button(label, "", secondary=not primary, attrs={"act": act, "unit": key})


def _actions(u: dict, v: dict, state: dict) -> tuple[dict, list[dict]]:
    """The unit's row: every test the rules resolve for it is one tap away (the sheet, then Roll), or two behind
    "More tests"; what needs no input (stop towing, done, placed) is a single tap."""
    key = u["key"]
    offered = available_actions(state["settings"])
    more = []
    if u["kind"] == "gun":
        items = [_act(_("Fire the gun"), "shoot", key, primary=True)]
    else:
        items = [
            _act(_("Shoot"), "shoot", key, primary=True),
            _act(_("Move"), "move", key),
            _act(_("Melee"), "melee", key),
        ]
    if u["kind"] == "squad":
        abilities = [a for s in v["soldiers"] if s["alive"] for a in s.get("abilities", [])]
        if "jump" in offered and any(jump_steps([a]) for a in abilities):
            items.append(_act(_("Jump"), "jump", key))
        items.append(_act(_("Repair"), "repair", key))
        items.append(_act(_("Capture"), "capture", key))
        if "grenade" in offered:
            items.append(_act(_("Grenade"), "grenade", key))
        more.append(_act(_("Survival test"), "survival_test", key))
        if "panic" in offered:
            more.append(_act(_("Panic flight"), "panic", key))
    if u["kind"] == "vehicle":
        if v.get("repair_platform") or _pilot_repairs(v, state):
            items.append(_act(_("Repair"), "repair", key))
        if v.get("repair_platform"):
            if v.get("towing"):
                name = next((x["name"] for x in state["units"] if x["key"] == v["towing"]), v["towing"])
                items.append(w.button(_("Stop towing {name}").format(name=name), "tow", {"unit": key, "op": "stop"}))
            else:
                items.append(_act(_("Tow"), "tow", key))
        if v.get("pilot"):
            more.append(_act(_("Pilot survival test"), "survival_test", key))
            if "armour_test" in offered:
                more.append(_act(_("Armour test"), "armour_test", key))
            if "panic" in offered:
                more.append(_act(_("Pilot panic flight"), "panic", key))
        if v.get("locomotion") == "flying":
            more.append(_act(_("Emergency landing"), "emergency_landing", key))
    if u["kind"] != "squad" and "ammo_refresh" in offered:
        items.append(_act(_("Refill ammo"), "ammo_refresh", key))
    more.append(_act(_("Dispute roll"), "dispute", key))
    deployment = state["game"].get("deployment") or {}
    # Deployment (p.3–4): alternate order shows "Placed" once the roll-off says who starts; free order at once.
    deploying = deployment.get("open") and (not deployment.get("alternate") or deployment.get("first") is not None)
    if deploying and key not in deployment.get("placed", []):
        items.append(w.button(_("Placed"), "deploy", {"unit": key}))
    for solo in v.get("solos", []):
        if solo["activatable"] and not solo["activated"]:
            items.append(
                w.button(
                    _("Done: #{soldier} on his own").format(soldier=solo["soldier"]),
                    "done",
                    {"unit": key, "soldier": solo["soldier"]},
                )
            )
    if v["activatable"] and not v["activated"]:
        items.append(w.button(_("Done"), "done", {"unit": key}))
    return w.buttons(items), more


def _pilot_repairs(v: dict, state: dict) -> bool:
    """A «Рм» pilot repairs his own vehicle from inside (p.43)."""
    pilot = v.get("pilot")
    if not pilot:
        return False
    squad = next((x for x in state["units"] if x["key"] == pilot.get("unit")), None)
    soldier = next((s for s in (squad or {}).get("view", {}).get("soldiers", []) if s["num"] == pilot["soldier"]), {})
    return has_repair(soldier.get("abilities", []))


def _footer(state: dict, names: dict) -> list[dict]:
    game = state["game"]
    standing = [s for s in state["sides"] if s["index"] not in game.get("eliminated", [])]
    items = [
        w.button(
            _("{name} completed the mission").format(name=s["name"]),
            "mission",
            {"side": s["index"]},
            attrs={"confirm": _("Declare that {name} completed the mission? The game ends.").format(name=s["name"])},
        )
        for s in standing
    ]
    return [w.buttons(items, title=_("End the game: mission completed"), folded=True)]
