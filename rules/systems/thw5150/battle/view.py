"""What a «5150» phone shows: a figure's view, the board widgets and the log in the book's words."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _
from rules.systems.thw5150 import core, equipment, words
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.actions.common import member_summary
from rules.systems.thw5150.actions.shooting import shot_summary
from rules.systems.thw5150.battle.units import ON_TABLE
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


def flags(st: dict) -> list[dict]:
    out = [w.status(word(st["condition"]), tone=TONE.get(st["condition"], ""))]
    for key, tone in (("leader", ""), ("hero", "good"), ("prone", "warn"), ("in_cover", ""),
                      ("covering_fire", "good"), ("fast_moved", ""), ("stopped_fighting", "bad")):  # fmt: skip
        if st.get(key):
            out.append(w.flag(word(key), tone))
    if not st.get("loaded", True):
        out.append(w.flag(word("out_of_ammo"), "bad"))
    return out


def stats(st: dict) -> dict:
    weapon = equipment.RANGED.get(st.get("weapon") or "", {}).get("name", "—")
    if st.get("second_weapon"):
        weapon += " + " + equipment.RANGED[st["second_weapon"]]["name"]
    armour = equipment.ARMOUR.get(st.get("armour") or "none", {}).get("name", "—")
    return w.stats([(word("rep"), st["rep"]), (word("weapons"), weapon), (word("armour"), armour)])


def _st(u: dict) -> dict:
    """A figure's state in a board row: the unit view (the web state API), else the state (the in-memory Table)."""
    return u.get("view") or u.get("state") or u


def _name(units: list[dict], key: str) -> str:
    return next((u.get("name", key) for u in units if u["key"] == key), key)


def _side_of(u: dict):
    return u.get("owner", u.get("side"))


def _standing(units: list[dict], side) -> list[dict]:
    return [u for u in units if _side_of(u) == side and _st(u)["condition"] in ON_TABLE]


def _rof(st: dict) -> int:
    return equipment.RANGED.get(st.get("weapon") or "", {}).get("rof", 1)


def _shots(u: dict, enemies: list[dict]) -> list[dict]:
    """One button per enemy: all the weapon's dice at that figure (split the dice with «roll any table»)."""
    st = _st(u)
    return [w.button(_("at {name} ({n}d6)").format(name=e.get("name", e["key"]), n=_rof(st)), "shoot",
                     {"shooter": u["key"], "targets": [{"unit": e["key"], "dice": _rof(st)}]})
            for e in enemies]  # fmt: skip


def shoot_form(u: dict, enemies: list[dict]) -> dict:
    """The shot: a target and the dice at it (the weapon's RoF), the table's dice typed in or the server's."""
    st = _st(u)
    rof = _rof(st)
    fields = [
        {"name": "shooter", "label": _("Shooter"), "kind": "choice", "choices": [{"value": u["key"],
                                                                                 "label": u.get("name", u["key"])}]},
        {"name": "target", "label": _("Target"), "kind": "choice",
         "choices": [{"value": e["key"], "label": e.get("name", e["key"])} for e in enemies]},
        {"name": "n", "label": _("Dice at it"), "kind": "number", "min": 1, "max": rof, "value": rof},
    ]  # fmt: skip
    dice = [{"label": _("d6 {n}").format(n=i + 1), "faces": 6} for i in range(2 * rof)]
    form = w.prompt(_("Shoot"), "shoot", fields=fields, dice=dice)
    form["submit"] = _("Shoot")
    return form


def card(u: dict, can_write: bool, mine: bool, game: dict, enemies: list[dict]) -> dict:
    st = _st(u)
    widgets = [stats(st)]
    live = can_write and mine and game.get("result") is None and not game.get("pending")
    acting = live and game.get("phase") == "acting" and not game.get("doubles") and game.get("active") == _side_of(u)
    if live and st["condition"] in ON_TABLE:
        buttons = []
        if acting and st["condition"] in (core.KNOCKED_DOWN, core.DUCK_BACK):
            buttons.append(w.button(word("recovery"), "recover", {"unit": u["key"]}))
        if (acting or game.get("doubles")) and st["condition"] == core.FINE and not st.get("loaded", True):
            buttons.append(w.button(word("reload"), "reload", {"unit": u["key"]}))
        if acting and st["condition"] == core.FINE and not st.get("moved") and not st.get("activated"):
            buttons.append(w.button(word("covering_fire"), "covering_fire", {"unit": u["key"]}))
        if game.get("phase") == "acting" and game.get("active") != _side_of(u):
            buttons.append(w.button(_("«В ПОЛЕ ВИДИМОСТИ»"), "in_sight", {"units": [u["key"]]}))
        if buttons:
            widgets.append(w.buttons(buttons))
        if acting and st["condition"] == core.FINE and not st.get("activated") and enemies:
            if st.get("weapon") and st.get("loaded", True):
                widgets.append(shoot_form(u, enemies))
            widgets.append(w.buttons([w.button(_("with {name}").format(name=e.get("name", e["key"])), "melee",
                                               {"fighter": u["key"], "opponents": [e["key"]]}) for e in enemies],
                                     title=_("Hand-to-hand fight"), folded=True))  # fmt: skip
            if st.get("grenades"):
                widgets.append(w.buttons([w.button(_("at {name}").format(name=e.get("name", e["key"])), "grenade",
                                                   {"thrower": u["key"], "blast": [e["key"]]}) for e in enemies],
                                         title=_("Throw a grenade ({n} left)").format(n=st["grenades"]),
                                         folded=True))  # fmt: skip
    return {"key": u["key"], "title": u.get("name", u["key"]), "subtitle": st.get("group", ""),
            "flags": flags(st), "stats": None, "done": bool(st.get("activated")),
            "dead": st["condition"] in core.GONE, "widgets": widgets}  # fmt: skip


def question(game: dict, units: list[dict], viewer_sides: frozenset[int], can_write: bool) -> list[dict]:
    """The pending question: a form for its player (typed-in dice or a server roll), a line for the others."""
    pending = game.get("pending") or []
    if not pending:
        return []
    q = pending[0]
    if not can_write or q["side"] not in viewer_sides:
        return [w.text(_("Waiting for side {side} to answer.").format(side=q["side"]), "warning")]
    if q["kind"] == "received_fire":
        names = ", ".join(_name(units, k) for k in q["testers"])
        ask = _("«ОБСТРЕЛЯН»: {names} fired on by {shooter}, no damage. Type in the dice or let the server roll.")
        return [w.prompt(ask.format(names=names, shooter=_name(units, q["shooter"])), "answer_reaction",
                         options=[w.button(_("Roll for me"), "answer_reaction", {}, secondary=False)],
                         dice=[{"label": _("d6 {n}").format(n=i + 1), "faces": 6} for i in range(3)])]  # fmt: skip
    out = [w.text(_("They may fire now: {names}.").format(names=", ".join(_name(units, k) for k in q["shooters"])),
                  "warning")]  # fmt: skip
    for key, rule in q["shooters"].items():
        shooter = next((u for u in units if u["key"] == key), None)
        if shooter is None:
            continue
        targets = (
            [u for u in units if u["key"] == rule["at"]]
            if rule.get("at")
            else [u for u in units if _side_of(u) != q["side"] and _st(u)["condition"] in ON_TABLE]
        )
        out.append(w.buttons(_shots(shooter, targets), title=shooter.get("name", key)))  # fmt: skip
    out.append(w.button(_("Do not fire"), "decline_return_fire", {}))
    return out


def stay_or_run_due(game: dict, side: int, settings: dict) -> bool:
    initial = (game.get("initial") or {}).get(str(side), 0)
    lost = (game.get("casualties") or {}).get(str(side), 0)
    tested = (game.get("stay_or_run_at") or {}).get(str(side), 0)
    return initial > 0 and core.stay_or_run_tests_due(initial, lost, tested, settings) > 0


def board(view: dict, viewer_sides: frozenset[int], can_write: bool, settings: dict | None = None) -> dict:
    game = view.get("game", {})
    units = view.get("units") or []
    if isinstance(units, dict):
        units = [{"key": k, **v} for k, v in units.items()]
    dice = game.get("dice") or {}
    turnbar = [w.stats([(_("Turn"), game.get("turn", 0))] + [(_("d6 side {side}").format(side=s), d)
                                                           for s, d in dice.items()])]  # fmt: skip
    live = can_write and game.get("result") is None
    if game.get("active") is not None:
        turnbar.append(w.text(_("Side {side} activates.").format(side=game["active"]), "now"))
    elif game.get("doubles"):
        turnbar.append(w.text(_("Doubles: nobody moves or fires; reload, then end the turn."), "warning"))
    if live and game.get("phase") == "roll":
        roll = w.button(_("Roll for us"), "activation", {}, secondary=False)
        boxes = [{"label": _("d6 side {side}").format(side=s["index"]), "faces": 6} for s in view.get("sides") or []]
        form = w.prompt(_("Roll the activation dice"), "activation", options=[roll], dice=boxes)
        form["submit"] = _("Use these dice")
        turnbar.append(form)
    turnbar += question(game, units, viewer_sides, can_write) if game.get("result") is None else []
    if live and game.get("phase") == "acting" and not game.get("pending"):
        active = game.get("active")
        if game.get("doubles") or active in viewer_sides:
            turnbar.append(w.button(_("End the activation"), "end_activation", {}, secondary=False))
    sides = view.get("sides") or [{"index": s, "name": _("Side {side}").format(side=s)}
                                  for s in sorted({_side_of(u) for u in units})]  # fmt: skip
    groups = []
    for side in sides:
        mine = side["index"] in viewer_sides
        enemies = [u for s in sides if s["index"] != side["index"] for u in _standing(units, s["index"])]
        cards = [card(u, can_write, mine, game, enemies) for u in units if _side_of(u) == side["index"]]
        groups.append({"title": side.get("name", ""), "subtitle": "", "units": cards})
    footer = []
    for side in sides:
        if live and side["index"] in viewer_sides and stay_or_run_due(game, side["index"], settings or {}):
            motives = [w.button(word(f"motivation.{m}"), "stay_or_run", {"motivation": m}) for m in core.MOTIVATIONS]
            footer.append(w.buttons(motives, title=_("«ОСТАТЬСЯ ИЛИ УБЕЖАТЬ» is due: the side's motivation")))
    banner = None
    if game.get("result"):
        banner = {"title": _("The battle is over."), "text": why(game["result"])}
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": footer}


FIELDS = {"condition": N_("the figure's condition"), "loaded": N_("loaded")}  # «Set a figure» fields


def _value(v) -> str:
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    return words.outcome(v)


def why(result: dict) -> str:
    """Why the battle ended: the stored English msgid in the reader's language, with the points when kept."""
    text = _(result.get("why") or "")
    points = result.get("points")
    if points:
        text += " (" + ", ".join(_("side {side}: {points}").format(side=s, points=p) for s, p in points.items()) + ")"
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

    kind = event.type
    if kind == "turn.rolled":
        dice = ", ".join(f"{s}: {d}" for s, d in p["dice"].items())
        tail = (
            _("doubles, nobody moves or fires")
            if p["doubles"]
            else _("side {side} acts first").format(side=p["order"][0])
        )
        return f"{word('activation_roll')}: {dice} — {tail}."
    if kind == "shot":  # events since issue 13 keep only the result's data; older ones their English summary
        text = shot_summary(p["result"]) if "targets" in p.get("result", {}) else p["summary"]
        return _("{name} fires: {summary}").format(name=n(p["shooter"]), summary=text)
    if kind in ("reaction", "in_sight", "stay_or_run"):
        table = {"reaction": "received_fire"}.get(kind, kind)
        rows = p.get("result", {}).get("members")
        text = "; ".join(member_summary(r) for r in rows) if rows else p.get("summary", "")
        return f"«{word(table)}»: {text}"
    if kind == "melee":
        return f"{word('melee').capitalize()}: {n(p['fighter'])} — {_summary(p)}"
    if kind == "grenade":
        return f"{n(p['thrower'])}: {word('grenade')} — {_summary(p)}"
    if kind == "recovered":
        return f"«{word('recovery')}» {n(p['unit'])}: {_summary(p)}"
    if kind in ("reloaded", "covering_fire"):
        return f"{n(p['unit'])}: {word({'reloaded': 'reload'}.get(kind, kind))}."
    if kind == "moved":
        what = _("{name} moves fast.") if p.get("fast") else _("{name} moves.")
        return what.format(name=n(p["unit"]))
    if kind == "activation.ended":
        return _("Side {side} ends its activation.").format(side=p.get("side"))
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
        return _("The battle ends: {why}.").format(why=why(p))
    return kind
