"""What a «5150» phone shows: a figure's view, the board widgets and the log in the book's words."""

from __future__ import annotations

from rules.contract import board as w
from rules.systems.thw5150 import core, equipment
from rules.systems.thw5150.glossary import GLOSSARY

TONE = {core.FINE: "good", core.KNOCKED_DOWN: "warn", core.DUCK_BACK: "warn", core.HUNKER_DOWN: "warn",
        core.RUNAWAY: "bad", core.OUT_OF_FIGHT: "bad", core.DEAD: "bad", core.CAPTURED: "bad", core.REMOVED: "bad"}  # fmt: skip


def word(key: str) -> str:
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


def card(u: dict, can_write: bool, mine: bool) -> dict:
    st = u.get("state") or u
    widgets = [stats(st)]
    if can_write and mine:
        buttons = []
        if st["condition"] in (core.KNOCKED_DOWN, core.DUCK_BACK):
            buttons.append(w.button(word("recovery"), "recover", {"unit": u["key"]}))
        if st["condition"] == core.FINE and not st.get("loaded", True):
            buttons.append(w.button(word("reload"), "reload", {"unit": u["key"]}))
        if st["condition"] == core.FINE and not st.get("moved"):
            buttons.append(w.button(word("covering_fire"), "covering_fire", {"unit": u["key"]}))
        if buttons:
            widgets.append(w.buttons(buttons))
    return {"key": u["key"], "title": u.get("name", u["key"]), "subtitle": st.get("group", ""),
            "flags": flags(st), "stats": None, "done": bool(st.get("activated")),
            "dead": st["condition"] in core.GONE, "widgets": widgets}  # fmt: skip


def question(game: dict, viewer_sides: frozenset[int]) -> dict | None:
    pending = game.get("pending") or []
    if not pending or pending[0]["side"] not in viewer_sides:
        return None
    q = pending[0]
    if q["kind"] == "received_fire":
        return w.prompt(
            f"«{word('received_fire')}»: {', '.join(q['testers'])} fired on by {q['shooter']}, no damage.",
            "answer_reaction",
            options=[{"label": "Roll", "inputs": {}}],
            dice=[{"label": f"Д6 {i + 1}", "faces": 6} for i in range(3)],
        )
    return w.prompt(
        f"Fire back: {', '.join(q['shooters'])}.",
        "decline_return_fire",
        options=[{"label": "Do not fire back", "inputs": {}}],
    )


def board(view: dict, viewer_sides: frozenset[int], can_write: bool) -> dict:
    game = view.get("game", {})
    units = view.get("units") or []
    if isinstance(units, dict):
        units = [{"key": k, **v} for k, v in units.items()]
    dice = game.get("dice") or {}
    turnbar = [w.stats([("Ход", game.get("turn", 0))] + [(f"Д6 {s}", d) for s, d in dice.items()])]
    if game.get("active") is not None:
        turnbar.append(w.text(f"{word('active')}: side {game['active']}", "good"))
    if can_write and game.get("phase") == "roll" and game.get("result") is None:
        turnbar.append(w.button(word("activation_roll"), "activation", {}, secondary=False))
    sides = view.get("sides") or [{"index": s, "name": f"Side {s}"} for s in sorted({u.get("owner", u.get("side"))
                                                                                     for u in units})]  # fmt: skip
    groups = []
    for side in sides:
        mine = side["index"] in viewer_sides
        cards = [card(u, can_write, mine) for u in units if u.get("owner", u.get("side")) == side["index"]]
        groups.append({"title": side.get("name", ""), "subtitle": "", "units": cards})
    banner = question(game, viewer_sides)
    if game.get("result"):
        banner = w.text(f"The battle is over: {game['result'].get('why', '')}.", "good")
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": []}


def describe(event, names: dict) -> str:
    p = event.payload
    units = names.get("units", {})

    def n(key):
        return units.get(key, key)

    if event.type == "turn.rolled":
        dice = ", ".join(f"{s}: {d}" for s, d in p["dice"].items())
        tail = "doubles, nobody moves or fires" if p["doubles"] else f"side {p['order'][0]} acts first"
        return f"{word('activation_roll')}: {dice} — {tail}."
    if event.type == "shot":
        return f"{n(p['shooter'])} fires: {p['summary']}"
    if event.type == "reaction":
        return f"«{word('received_fire')}»: {p['summary']}"
    if event.type == "recovered":
        return f"«{word('recovery')}» {n(p['unit'])}: {p['summary']}"
    if event.type == "reloaded":
        return f"{n(p['unit'])}: {word('reload')}."
    if event.type == "covering_fire":
        return f"{n(p['unit'])}: {word('covering_fire')}."
    if event.type == "moved":
        return f"{n(p['unit'])} moves" + (" fast" if p.get("fast") else "") + "."
    if event.type == "activation.ended":
        return f"Side {p.get('side')} ends its activation."
    if event.type == "return_fire.declined":
        return "No return fire."
    if event.type == "tested":
        return f"{p['action']}: {p['summary']}"
    if event.type == "state.set":
        return f"{n(p['unit'])}: " + ", ".join(f"{k} → {v}" for k, v in p["changes"].items())
    if event.type == "battle.ended":
        return f"The battle ends: {p.get('why', '')}."
    return event.type
