"""What a «5150» phone shows: a figure's view, the board widgets and the log in the book's words."""

from __future__ import annotations

from rules.contract import Event
from rules.contract import board as w
from rules.i18n import N_, _
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.actions.common import member_summary
from rules.systems.thw5150.actions.reactions import WANTING_TO_CHARGE
from rules.systems.thw5150.actions.shooting import shot_summary
from rules.systems.thw5150.battle import prompts
from rules.systems.thw5150.battle.rules_at_hand import RULES
from rules.systems.thw5150.battle.units import ON_TABLE, TWO_GUNS, guns_rof, side_name
from rules.systems.thw5150.glossary import ENGLISH, GLOSSARY

TONE = {core.FINE: "good", core.KNOCKED_DOWN: "warn", core.DUCK_BACK: "warn", core.HUNKER_DOWN: "warn",
        core.RUNAWAY: "bad", core.OUT_OF_FIGHT: "bad", core.DEAD: "bad", core.CAPTURED: "bad", core.REMOVED: "bad"}  # fmt: skip


ALIASES = {"in_cover": "cover", "fast_moved": "fast_move"}


def word(key: str) -> str:
    """The book's word for a Russian reader, the English term for an English one (glossary.ENGLISH)."""
    key = ALIASES.get(key, key)
    if key in ENGLISH:
        return _(ENGLISH[key])
    return GLOSSARY.get(key, key)


def flags(st: dict, owes: str = "") -> list[dict]:
    """The figure's chips, each linked to its rule at hand (rules_at_hand.py); `owes`: the test it is asked now."""
    cond = st["condition"]
    out = [w.status(word(cond), tone=TONE.get(cond, ""), rule=cond if cond in RULES else "")]
    for key, tone in (("leader", ""), ("hero", "good"), ("prone", "warn"), ("in_cover", ""),
                      ("covering_fire", "good"), ("fast_moved", ""), ("stopped_fighting", "bad")):  # fmt: skip
        if st.get(key):
            out.append(w.flag(word(key), tone, rule=key))
    if not st.get("loaded", True):
        out.append(w.flag(word("out_of_ammo"), "bad", rule="out_of_ammo"))
    if owes:
        out.append(w.flag(_("owes «{test}»").format(test=prompts.test_name(owes)), "warn", rule=owes))
    return out


def owed_tests(game: dict) -> dict[str, str]:
    """The figures asked a reaction test now (the first pending question), by key: the test's table."""
    pending = game.get("pending") or []
    q = pending[0] if pending else {}
    table = {"received_fire": "received_fire", "in_sight": "in_sight", "being_charged": "being_charged"}
    if game.get("result") is not None or q.get("kind") not in table:
        return {}
    return dict.fromkeys(q.get("testers") or [], table[q["kind"]])


def stats(st: dict) -> dict:
    weapon = equipment.RANGED.get(st.get("weapon") or "", {}).get("name", "—")
    if st.get("second_weapon"):
        weapon += " + " + equipment.RANGED[st["second_weapon"]]["name"]
    armour = equipment.ARMOUR.get(st.get("armour") or "none", {}).get("name", "—")
    return w.stats([(word("rep"), st["rep"]), (word("weapons"), weapon), (word("armour"), armour)])


def _st(u: dict) -> dict:
    """A figure's state in a board row: the unit view (the web state API), else the state (the in-memory Table)."""
    return u.get("view") or u.get("state") or u


def _side_of(u: dict):
    return u.get("owner", u.get("side"))


def _standing(units: list[dict], side) -> list[dict]:
    return [u for u in units if _side_of(u) == side and _st(u)["condition"] in ON_TABLE]


def _rof(st: dict) -> int:
    return equipment.RANGED.get(st.get("weapon") or "", {}).get("rof", 1)


def group_label(group: str) -> str:
    """«группа 1»: a group's name as its roster gave it (the state keys it by side: «0.1»)."""
    return _("group {group}").format(group=str(group).split(".", 1)[-1])


def _one(name: str, label: str, u: dict) -> dict:
    return {
        "name": name,
        "label": label,
        "kind": "choice",
        "choices": [{"value": u["key"], "label": u.get("name", u["key"])}],
    }


def _pick(name: str, label: str, units: list[dict]) -> dict:
    return {"name": name, "label": label, "kind": "choice",
            "choices": [{"value": e["key"], "label": e.get("name", e["key"])} for e in units]}  # fmt: skip


def shoot_form(u: dict, enemies: list[dict], title: str = "", settings: dict | None = None) -> dict:
    """The shot: a target, the gun (a figure with two: either one or both, L780–783) and the dice at it (the RoF);
    the table's dice typed in (to-hit first, then lucky re-rolls and damage, actions/shooting.py) or none for a
    server roll. The form shows the shot's exact odds as it is filled and ranks the targets and the guns."""
    st = _st(u)
    fields = [_one("shooter", _("Shooter"), u), _pick("target", _("Target"), enemies)]
    guns = [g for g in (st.get("weapon"), st.get("second_weapon")) if g]
    if len(guns) > 1:  # both guns (the default) or either one alone
        rof = guns_rof(guns, settings or {})
        names = [equipment.RANGED.get(g, {}).get("name", g) for g in guns]
        choices = [{"value": TWO_GUNS, "label": _("{first} and {second} («{rule}»)").format(
            first=names[0], second=names[1], rule=word("two_gun"))}]  # fmt: skip
        choices += [{"value": g, "label": n} for g, n in zip(guns, names, strict=True)]
        fields.append({"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": choices})
        fields.append({"name": "n", "label": _("Dice at it (empty: the whole RoF)"), "kind": "number", "min": 1,
                       "max": rof, "value": None})  # fmt: skip
    else:
        rof = _rof(st)
        fields.append({"name": "n", "label": _("Dice at it"), "kind": "number", "min": 1, "max": rof, "value": rof})
    dice = [{"label": _("to-hit d6 {n}").format(n=i + 1), "faces": 6} for i in range(rof)]
    dice += [{"label": _("next d6 {n} (lucky shot, damage)").format(n=i + 1), "faces": 6} for i in range(rof)]
    compare = ("target", "weapon") if len(guns) > 1 else ("target",)
    compare = tuple(c for c in compare if c != "target" or len(enemies) > 1)
    # each figure's form says whose it is: two forms of one command are told apart (and kept apart while typing)
    form = w.prompt(title or _("{name}: shoot").format(name=u.get("name", u["key"])), "shoot", fields=fields,
                    dice=dice, odds=True, compare=compare, rule="shoot")  # fmt: skip
    form["submit"] = _("Shoot")
    return form


def melee_form(u: dict, enemies: list[dict]) -> dict:
    """A melee with a figure already in base contact (L1080–1159): the opponent, the odds, the dice or a server
    roll (the fighter's dice, the opponent's, then the damage die)."""
    st = _st(u)
    fields = [_one("fighter", _("Fighter"), u), _pick("opponent", _("Opponent"), enemies)]
    n = 1 if st.get("prone") else 2
    dice = [{"label": _("{name}: melee d6 {n}").format(name=u.get("name", u["key"]), n=i + 1), "faces": 6}
            for i in range(n)]  # fmt: skip
    dice += [{"label": _("opponent's melee d6 {n}").format(n=i + 1), "faces": 6} for i in range(2)]
    dice.append({"label": _("damage d6 (only if one side won)"), "faces": 6})
    form = w.prompt(_("{name}: melee").format(name=u.get("name", u["key"])), "melee", fields=fields, dice=dice,
                    odds=True, compare=("opponent",) if len(enemies) > 1 else (), rule="melee")  # fmt: skip
    form["submit"] = _("Roll the melee")
    return form


def move_form(u: dict, units: list[dict]) -> dict:
    """«Record a move»: where it ends, how fast, and whose sight it came into: that group's player is asked
    «В ПОЛЕ ВИДИМОСТИ» (L598–601)."""
    groups: dict[str, list[str]] = {}
    for e in units:
        st = _st(e)
        if _side_of(e) != _side_of(u) and st["condition"] == core.FINE:
            groups.setdefault(st["group"], []).append(e.get("name", e["key"]))
    seen = [{"value": "", "label": _("nobody new")}]
    seen += [{"value": g, "label": f"{group_label(g)}: {', '.join(names)}"} for g, names in groups.items()]
    fields = [
        _one("unit", _("Figure"), u),
        {"name": "ends", "label": _("It ends"), "kind": "choice", "choices": [
            {"value": "open", "label": _("in the open")}, {"value": "cover", "label": _("behind cover")},
            {"value": "prone", "label": _("lying prone")}]},
        {"name": "pace", "label": _("Pace"), "kind": "choice", "choices": [
            {"value": "normal", "label": _("normal move")}, {"value": "fast", "label": word("fast_move")}]},
        {"name": "seen_by", "label": _("Came into the sight of"), "kind": "choice", "choices": seen},
    ]  # fmt: skip
    form = w.prompt(_("{name}: record a move").format(name=u.get("name", u["key"])), "move", fields=fields,
                    rule="move")  # fmt: skip
    form["submit"] = _("Record the move")
    return form


def charge_form(u: dict, enemies: list[dict], units: list[dict], settings: dict) -> dict:
    """«ХОЧУ АТАКОВАТЬ» first (L1042–1058): the group's dice, read by the charger."""
    st = _st(u)
    group = [e for e in units if _st(e)["group"] == st["group"] and _st(e)["condition"] == core.FINE]
    members = [{"name": e.get("name", ""), "rep": _st(e)["rep"], "leader": _st(e).get("leader", False),
                "tests": e["key"] == u["key"], "condition": core.FINE} for e in group]  # fmt: skip
    fields = [_one("charger", _("Charger"), u), _pick("target", _("Target"), enemies)]
    title = _("{name}: charge, test «{test}»").format(name=u.get("name", u["key"]),
                                                       test=prompts.test_name("wanting_to_charge"))  # fmt: skip
    form = w.prompt(title, "charge", fields=fields, dice=prompts.group_dice(WANTING_TO_CHARGE, members, settings),
                    odds=True, rule="charge")  # fmt: skip
    form["submit"] = _("Charge into melee")
    return form


def grenade_form(u: dict, enemies: list[dict]) -> dict:
    """A grenade (L815–861): the figure under the template, the hit die, then the damage dice or «ГДЕ ГРАНАТА?»."""
    st = _st(u)
    fields = [_one("thrower", _("Thrower"), u), _pick("target", _("Target"), enemies)]
    dice = [{"label": _("to-hit d6 {n}").format(n=1), "faces": 6}]
    dice += [{"label": _("next d6 {n} (damage, Where's the grenade?)").format(n=i + 1), "faces": 6} for i in range(3)]
    title = _("{name}: throw a grenade ({n} left)").format(name=u.get("name", u["key"]), n=st["grenades"])
    form = w.prompt(title, "grenade", fields=fields, dice=dice, odds=True,
                    compare=("target",) if len(enemies) > 1 else (), rule="grenade")  # fmt: skip
    form["submit"] = _("Throw the grenade")
    return form


def recover_form(u: dict) -> dict:
    """«ВОССТАНОВЛЕНИЕ»: 2d6 (a Leader 3); on pass 1 the same again at once (L749–762)."""
    n = 3 if _st(u).get("leader") else 2
    dice = [{"label": _("d6 {n}").format(n=i + 1), "faces": 6} for i in range(n)]
    dice += [{"label": _("re-roll d6 {n} (only on pass 1)").format(n=i + 1), "faces": 6} for i in range(n)]
    title = _("{name}: test «{test}»").format(name=u.get("name", u["key"]), test=word("recovery"))
    form = w.prompt(title, "recover", fields=[_one("unit", _("Figure"), u)], dice=dice, odds=True, rule="recover")
    form["submit"] = _("Take the test")
    return form


def by_hand(u: dict) -> dict:
    """«Set a figure»: a ruling by hand, folded away (a condition, cover, lying, loaded)."""
    st = _st(u)
    items = [w.button(word(c), "set_state", {"unit": u["key"], "changes": {"condition": c}})
             for c in core.CONDITIONS if c != st["condition"]]  # fmt: skip
    for key in ("in_cover", "prone", "loaded"):
        value = bool(st.get(key, key == "loaded"))
        label = word(key if key != "loaded" else "out_of_ammo")
        if key == "loaded":
            label = _("reloaded") if not value else word("out_of_ammo")
            items.append(w.button(label, "set_state", {"unit": u["key"], "changes": {"loaded": not value}}))
            continue
        items.append(w.button(_("{what}: {value}").format(what=label, value=_("no") if value else _("yes")),
                              "set_state", {"unit": u["key"], "changes": {key: not value}}))  # fmt: skip
    return w.buttons(items, title=_("Set by hand"), folded=True,
                     help=_("A ruling the players agree on: it changes only this figure."))  # fmt: skip


def card(u: dict, can_write: bool, mine: bool, game: dict, enemies: list[dict], units: list[dict],
         settings: dict, owes: str = "") -> dict:  # fmt: skip
    st = _st(u)
    widgets = [stats(st)]
    live = can_write and mine and game.get("result") is None and not game.get("pending")
    acting = live and game.get("phase") == "acting" and not game.get("doubles") and game.get("active") == _side_of(u)
    if live and st["condition"] in ON_TABLE:
        if acting and st["condition"] in (core.KNOCKED_DOWN, core.DUCK_BACK) and not st.get("activated"):
            widgets.append(recover_form(u))
        buttons = []
        if (acting or game.get("doubles")) and st["condition"] == core.FINE and not st.get("loaded", True):
            buttons.append(w.button(word("reload"), "reload", {"unit": u["key"]}))
        if acting and st["condition"] == core.FINE and not st.get("moved") and not st.get("activated"):
            buttons.append(w.button(word("covering_fire"), "covering_fire", {"unit": u["key"]}))
        if game.get("phase") == "acting" and game.get("active") != _side_of(u):
            buttons.append(w.button(_("«В ПОЛЕ ВИДИМОСТИ»"), "in_sight", {"units": [u["key"]]}))
        if buttons:
            widgets.append(w.buttons(buttons))
        if acting and st["condition"] == core.FINE and not st.get("activated"):
            if enemies and st.get("weapon") and st.get("loaded", True):
                widgets.append(shoot_form(u, enemies, settings=settings))
            widgets.append(move_form(u, units))
            if enemies:
                widgets.append(charge_form(u, enemies, units, settings))
                widgets.append(w.fold(_("Melee already in contact"), [melee_form(u, enemies)], key="melee"))
            if st.get("grenades") and enemies:
                widgets.append(grenade_form(u, enemies))
    if can_write and mine and game.get("result") is None:
        widgets.append(by_hand(u))
    return {"key": u["key"], "title": u.get("name", u["key"]), "subtitle": group_label(st.get("group", "")),
            "flags": flags(st, owes), "stats": None, "done": bool(st.get("activated")),
            "dead": st["condition"] in core.GONE, "widgets": widgets}  # fmt: skip


def stay_or_run_due(game: dict, side: int, settings: dict) -> bool:
    initial = (game.get("initial") or {}).get(str(side), 0)
    lost = (game.get("casualties") or {}).get(str(side), 0)
    tested = (game.get("stay_or_run_at") or {}).get(str(side), 0)
    asked = any(q["kind"] == "stay_or_run" and q["side"] == side for q in game.get("pending") or [])
    return initial > 0 and not asked and core.stay_or_run_tests_due(initial, lost, tested, settings) > 0


def board(view: dict, viewer_sides: frozenset[int], can_write: bool, settings: dict | None = None) -> dict:
    settings = settings or {}
    t = prompts.Table(view, viewer_sides, can_write, settings)
    game = t.game
    units = list(t.units.values())
    dice = game.get("dice") or {}
    names = {"units": {k: t.name(k) for k in t.units},
             "sides": {s: (t.sides.get(s) or {}).get("name") or side_name(game, s) for s in t.all_sides()}}  # fmt: skip
    turnbar = [w.stats([(_("Turn"), game.get("turn", 0))] + [(_("{side}, d6").format(side=names["sides"].get(int(s), s)), d)
                                                           for s, d in dice.items()])]  # fmt: skip
    live = can_write and game.get("result") is None
    if live and game.get("phase") == "roll" and not game.get("pending"):
        roll = w.button(_("Roll for us"), "activation", {}, secondary=False)
        boxes = [{"label": _("{side}, d6").format(side=names["sides"][s]), "faces": 6} for s in t.all_sides()]
        form = w.prompt(_("Roll the activation dice"), "activation", options=[roll], dice=boxes, odds=True,
                        rule="activation")  # fmt: skip
        form["submit"] = _("Use these dice")
        turnbar.append(form)
    turnbar += prompts.question(t, lambda *a, **k: shoot_form(*a, **k, settings=settings))
    turnbar += prompts.next_steps(t, settings, lambda last: describe(_last_event(last), names), stay_or_run_due)
    acting = live and game.get("phase") == "acting" and not game.get("pending")
    if acting and (game.get("doubles") or game.get("active") in viewer_sides):
        turnbar.append(w.button(_("End the activation"), "end_activation", {}, secondary=False))
    groups = []
    owes = owed_tests(game)
    for index in t.all_sides():
        side = t.sides.get(index) or {"index": index, "name": names["sides"][index]}
        mine = index in viewer_sides
        enemies = [u for s in t.all_sides() if s != index for u in _standing(units, s)]
        cards = [card(u, can_write, mine, game, enemies, units, settings, owes.get(u["key"], ""))
                 for u in units if _side_of(u) == index]  # fmt: skip
        groups.append({"title": side.get("name", ""), "subtitle": side.get("player") or "", "units": cards})
    footer = []
    if live and viewer_sides:
        footer.append(w.button(_("End the battle by points"), "end_battle", {},
                               attrs={"confirm": _("End the battle now? The side with more points still standing "
                                                   "wins (L1329–1335).")}))  # fmt: skip
    banner = None
    if game.get("result"):
        banner = result_banner(game, t)
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": footer}


def _last_event(last: dict):
    return Event(last["seq"], last["type"], last["payload"])


def result_banner(game: dict, t) -> dict:
    """Who won and by what (§1.9), the points when the players ended it, and the casualties of each side."""
    result = game["result"]
    winner = result.get("winner")
    said = why(result, game)
    text = (_("Victory: {side} — {why}.").format(side=t.side(winner), why=said) if winner is not None
            else _("A draw: {why}.").format(why=said))  # fmt: skip
    lines = [_("Turns played: {n}.").format(n=game.get("turn", 0))]
    for side in t.all_sides():
        lost = (game.get("casualties") or {}).get(str(side), 0)
        lines.append(_("{side}: casualties {lost} of {initial}.").format(
            side=t.side(side), lost=lost, initial=(game.get("initial") or {}).get(str(side), 0)))  # fmt: skip
    return {"title": _("The battle is over."), "text": text, "lines": lines,
            "note": _("Undo the last events to play on.")}  # fmt: skip


FIELDS = {"condition": N_("the figure's condition"), "loaded": N_("loaded")}  # «Set a figure» fields


def _value(v) -> str:
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    return words.outcome(v)


def why(result: dict, game: dict | None = None, sides: dict | None = None) -> str:
    """Why the battle ended: the stored English msgid in the reader's language, with the points when kept."""
    text = _(result.get("why") or "")
    points = result.get("points")
    if points:

        def name(s):
            return (sides or {}).get(int(s)) or side_name(game or {}, s)

        text += " (" + ", ".join(_("{side}: {points}").format(side=name(s), points=p) for s, p in points.items()) + ")"
    return text


def _summary(p: dict) -> str:
    """An event's result text: since issue 13 kept as msgid + parameters (result["text"]); older events hold the
    English summary they were written with."""
    text = (p.get("result") or {}).get("text")
    return words.render(text) if text is not None else p.get("summary", "")


def describe(event, names: dict) -> str:
    p = event.payload
    units = names.get("units", {})

    def n(key):
        return units.get(key, key)

    def side(index):
        sides = names.get("sides") or {}
        return sides.get(index) or sides.get(str(index)) or _("Side {side}").format(side=index)

    kind = event.type
    if kind == "turn.rolled":
        dice = ", ".join(f"{side(int(s))} {d}" for s, d in p["dice"].items())
        tail = (
            _("doubles, nobody moves or fires")
            if p["doubles"]
            else _("{side} acts first").format(side=side(p["order"][0]))
        )
        return f"{word('activation_roll')}: {dice} — {tail}."
    if kind == "shot":  # events since issue 13 keep only the result's data; older ones their English summary
        text = shot_summary(p["result"]) if "targets" in p.get("result", {}) else p["summary"]
        return _("{name} fires: {summary}").format(name=n(p["shooter"]), summary=text)
    if kind in ("reaction", "in_sight", "stay_or_run", "charged"):
        table = {"reaction": "received_fire", "charged": "being_charged"}.get(kind, kind)
        rows = p.get("result", {}).get("members")
        text = "; ".join(member_summary(r) for r in rows) if rows else p.get("summary", "")
        if kind == "stay_or_run":
            return f"«{word(table)}», {side(p['side'])}: {text}"
        return f"«{word(table)}»: {text}"
    if kind == "charge":
        rows = p.get("result", {}).get("members") or []
        text = "; ".join(member_summary(r) for r in rows if r.get("name") == n(p["charger"])) or "; ".join(
            member_summary(r) for r in rows
        )
        return _("{name} charges {target}: «{test}» — {text}").format(
            name=n(p["charger"]), target=n(p["target"]), test=word("wanting_to_charge"), text=text
        )
    if kind == "melee":
        pairs = (p.get("result") or {}).get("pairs")
        fights = _summary(p)
        if pairs:
            fights = "; ".join(
                _("{fighter} against {opponent}: passed {a} to {b}").format(
                    fighter=n(p["fighter"]), opponent=r["opponent"], a=r["fighter_passes"], b=r["opponent_passes"]
                )
                for r in pairs
            )
        hurt = [
            f"{n(e['unit'])} — {words.outcome(e['value'])}" for e in p.get("effects", []) if e["kind"] == "condition"
        ]
        return f"{word('melee').capitalize()}: " + "; ".join([fights, *hurt])
    if kind == "grenade":
        return f"{n(p['thrower'])}: {word('grenade')} — {_summary(p)}"
    if kind == "recovered":
        return f"«{word('recovery')}»: {_summary(p)}"
    if kind in ("reloaded", "covering_fire"):
        return f"{n(p['unit'])}: {word({'reloaded': 'reload'}.get(kind, kind))}."
    if kind == "moved":
        what = _("{name} moves fast.") if p.get("fast") else _("{name} moves.")
        line = what.format(name=n(p["unit"]))
        if p.get("in_cover"):
            line += " " + _("It ends behind cover.")
        if p.get("prone"):
            line += " " + _("It ends lying prone.")
        q = p.get("question")
        if q:
            line += " " + _("It came into the sight of {names}: they take «{test}».").format(
                names=", ".join(n(k) for k in q["testers"]), test=word("in_sight")
            )
        return line
    if kind == "activation.ended":
        if p.get("side") is None:
            return _("The turn ends.")
        return _("{side} ends its activation.").format(side=side(p.get("side")))
    if kind == "return_fire.declined":
        return _("They hold their fire.")
    if kind == "tested":
        action = ACTIONS.get(p["action"])
        return f"{_(action.label) if action else p['action']}: {_summary(p)}"
    if kind == "state.set":
        return f"{n(p['unit'])}: " + ", ".join(
            f"{_(FIELDS[k]) if k in FIELDS else word(k)} → {_value(v)}" for k, v in p["changes"].items()
        )
    if kind == "battle.ended":
        said = why(p, sides=names.get("sides"))
        if p.get("winner") is None:
            return _("The battle ends in a draw: {why}.").format(why=said)
        return _("The battle ends: {side} wins — {why}.").format(side=side(p["winner"]), why=said)
    return kind
