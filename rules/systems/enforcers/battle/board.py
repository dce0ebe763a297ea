"""The «Энфорсеры» phone board as widgets (rules/contract/board.py): the round and who picks or acts, one card per
agent with its HP and AP, actions left, statuses with their turns, and the buttons and small forms of its
commands. The generic templates draw them; nothing here writes HTML."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import _, ngettext
from rules.systems.enforcers import tables
from rules.systems.enforcers.glossary import GLOSSARY

WOUND_TONE = {"seriously_wounded": "warn", "dying": "bad", "dead": "bad"}
STATUS_TONE = {"fear": "warn", "bleeding": "bad", "poisoned": "bad", "burning": "bad", "stunned": "warn",
               "disoriented": "warn", "pinned": "warn", "seriously_wounded": "bad", "dying": "bad", "dead": "bad"}  # fmt: skip


def _view(u: dict) -> dict:
    return u.get("view") or u.get("state") or {}


def _owner(u: dict) -> int | None:
    return u.get("owner", u.get("side"))


def board(view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = view["game"]
    live = can_write and game.get("result") is None
    units = view["units"]
    sides = view.get("sides") or [
        {"index": i, "name": _("Side {index}").format(index=i)} for i in game.get("sides", [])
    ]
    names = {s["index"]: s["name"] for s in sides}
    groups = []
    for side in sides:
        cards = [_card(u, view, viewer_sides, live) for u in units if _owner(u) == side["index"]]
        standing = sum(1 for u in units if _owner(u) == side["index"] and _view(u).get("wound") == "none")
        subtitle = ngettext("{n} agent standing", "{n} agents standing", standing).format(n=standing)
        groups.append({"title": side["name"], "subtitle": subtitle, "units": cards})
    return {"banner": _banner(game, names), "turnbar": _turnbar(game, units, names, viewer_sides, live),
            "groups": groups, "footer": _footer(sides) if live else []}  # fmt: skip


def _banner(game: dict, names: dict) -> dict | None:
    result = game.get("result")
    if not result:
        return None
    winner = names.get(result.get("winner"))
    return {"title": _("The scenario is over."),
            "text": _("{side} wins.").format(side=winner) if winner else _("No winner declared."),
            "lines": [_("Rounds: {round}.").format(round=game.get("round")), result.get("note") or ""],
            "note": _("Undo the last events to play on.")}  # fmt: skip


def _turnbar(game, units, names, viewer_sides, live) -> list[dict]:
    out = [w.text(_("Game round {round}").format(round=game.get("round")), tone="now")]
    if game.get("phase") == "activation":
        acting = next((u for u in units if u["key"] == game.get("active")), None)
        if acting:
            left = _view(acting).get("actions_left", 0)
            out.append(
                w.text(
                    ngettext(
                        "Acting now: {name} · {n} action left", "Acting now: {name} · {n} actions left", left
                    ).format(name=acting["name"], n=left)
                )
            )
    else:
        picker = game.get("picker")
        mine = picker is None or picker in viewer_sides
        if picker is None:
            line = _("Popcorn initiative: the players choose the next model")
        else:
            line = _("Popcorn initiative: {side} picks the next model").format(side=names.get(picker, picker))
        out.append(w.text(line + (_(" (you)") if mine and live else "")))
    out += [w.text(note) for note in game.get("notes") or []]
    return out


def _stats_line(v: dict) -> dict:
    items = [(GLOSSARY["hp"], f"{v.get('hp')}/{v.get('max_hp')}"), (GLOSSARY["ap"], f"{v.get('ap')}/{v.get('max_ap')}")]
    if v.get("acting"):
        items.append((_("Actions"), v.get("actions_left", 0)))
    derived = v.get("derived") or {}
    items.append((_("Move"), _("{n} cm").format(n=derived.get("move", "?"))))
    return w.stats(items)


def _card(u: dict, view: dict, viewer_sides, live: bool) -> dict:
    v = _view(u)
    key = u["key"]
    armour = tables.armour(v.get("armour"))
    subtitle = " · ".join(x for x in (v.get("archetype"), armour["name"] if armour else "") if x)
    flags = []
    if v.get("wound") and v["wound"] != "none":
        flags.append(w.flag(GLOSSARY.get(v["wound"], v["wound"]), WOUND_TONE.get(v["wound"], "warn")))
    if v.get("acting"):
        flags.append(w.flag(_("acting"), "good"))
    elif v.get("activated"):
        flags.append(w.flag(_("acted")))
    for stance, word in (("overwatch", "overwatch"), ("took_cover", "take_cover")):
        if v.get(stance):
            flags.append(w.flag(GLOSSARY[word], "good"))
    widgets = [_stats_line(v)]
    for status, entry in sorted((v.get("statuses") or {}).items()):
        if status in ("seriously_wounded", "dying", "dead"):
            continue
        label = GLOSSARY.get(status, status)
        if status == "stunned":
            label += f" x{entry.get('stacks', 1)}"
        widgets.append(w.status(label, entry.get("turns"), STATUS_TONE.get(status, "warn")))
    weapons = v.get("weapons") or []
    if weapons:
        lines = [f"{wp.get('name') or _('weapon {n}').format(n=i)} {wp.get('damage')}" + (_(" · drawn") if wp.get("drawn") else "")
                 + (f" · {wp['ammo']}/{wp['capacity']}" if wp.get("capacity") else "") for i, wp in enumerate(weapons)]  # fmt: skip
        widgets.append(w.text(" | ".join(lines)))
    if live and _owner(u) in viewer_sides:
        widgets += _controls(u, v, view, viewer_sides)
    elif live and _may_pick(u, v, view, viewer_sides):
        # Popcorn (L63): the side of the model that acted last picks the next one, on either side.
        widgets.append(w.button(_("Activate"), "activate", {"unit": key}, secondary=False))
    return {"key": key, "title": u["name"], "subtitle": subtitle, "flags": flags, "stats": None,
            "done": bool(v.get("activated")), "dead": not v.get("alive", True), "widgets": widgets}  # fmt: skip


def _enemies(u: dict, view: dict) -> list[dict]:
    return [{"value": x["key"], "label": x["name"]} for x in view["units"]
            if _owner(x) != _owner(u) and _view(x).get("alive", True)]  # fmt: skip


def _may_pick(u: dict, v: dict, view: dict, viewer_sides) -> bool:
    """Whether this viewer may pick `u` as the next model: a model that has not acted, while the players choose
    or the viewer's side picks."""
    game = view["game"]
    picker = game.get("picker")
    return (game.get("phase") == "pick" and not v.get("activated") and v.get("alive", True)
            and (picker is None or picker in viewer_sides))  # fmt: skip


def _controls(u: dict, v: dict, view: dict, viewer_sides=frozenset()) -> list[dict]:
    key = u["key"]
    out = []
    if _may_pick(u, v, view, viewer_sides):
        out.append(w.button(_("Activate"), "activate", {"unit": key}, secondary=False))
    if v.get("acting"):
        weapons = [{"value": i, "label": wp.get("name") or _("weapon {n}").format(n=i)}
                   for i, wp in enumerate(v.get("weapons") or [])]  # fmt: skip
        enemies = _enemies(u, view)
        if v.get("actions_left"):
            if enemies and weapons:
                out.append(w.prompt(_("Shoot"), "shoot", fields=[
                    {"name": "target", "label": _("Target"), "kind": "choice", "choices": enemies},
                    {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": weapons},
                    {"name": "range_band", "label": _("Shooting distance"), "kind": "choice",
                     "choices": [{"value": b, "label": GLOSSARY[f"{b}_range"]} for b in ("short", "medium", "long")]},
                    {"name": "cover", "label": _("Cover"), "kind": "choice",
                     "choices": [{"value": "none", "label": _("no cover")},
                                 {"value": "partial", "label": GLOSSARY["partial_cover"]},
                                 {"value": "full", "label": GLOSSARY["full_cover"]}]},
                ]))  # fmt: skip
            if enemies:
                out.append(w.prompt(_("Fight"), "melee", fields=[
                    {"name": "target", "label": _("Opponent"), "kind": "choice", "choices": enemies},
                    {"name": "distance_cm", "label": _("Distance (cm)"), "kind": "number", "min": 0, "max": 50},
                ]))  # fmt: skip
            out.append(w.prompt(_("Move"), "move", fields=[
                {"name": "distance_cm", "label": _("Open ground (cm)"), "kind": "number", "min": 0, "max": 200},
                {"name": "difficult_cm", "label": _("Difficult terrain (cm)"), "kind": "number", "min": 0, "max": 200},
            ]))  # fmt: skip
            out.append(w.buttons([w.button(GLOSSARY["aim"], "aim", {"same_point": True}),
                                  w.button(GLOSSARY["listen"], "listen"),
                                  w.button(GLOSSARY["overwatch"], "overwatch"),
                                  w.button(GLOSSARY["take_cover"], "take_cover")]))  # fmt: skip
        out.append(w.button(_("End activation"), "end_activation", secondary=False))
    out.append(w.buttons([
        w.button(_("HP −1"), "adjust", {"unit": key, "hp": v.get("hp", 0) - 1}),
        w.button(_("HP +1"), "adjust", {"unit": key, "hp": v.get("hp", 0) + 1}, disabled=v.get("hp") == v.get("max_hp")),
        w.button(_("AP −1"), "adjust", {"unit": key, "ap": max(0, v.get("ap", 0) - 1)}, disabled=not v.get("ap")),
        w.button(_("Fear test"), "fear_test", {"unit": key}),
    ], title=_("By hand (a ruling)"), folded=True))  # fmt: skip
    return out


def _footer(sides: list[dict]) -> list[dict]:
    items = [w.button(_("{side} wins").format(side=s["name"]), "end_game", {"winner": s["index"]},
                      attrs={"confirm": _("End the scenario with {side} the winner?").format(side=s["name"])})
             for s in sides]  # fmt: skip
    items.append(w.button(_("End without a winner"), "end_game", {"winner": None}))
    return [w.buttons(items, title=_("End the scenario (the book has no victory conditions)"), folded=True)]
