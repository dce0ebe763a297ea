"""What a phone shows: each unit's view, the board as widgets (rules/contract/board.py), and the log in the book's
words."""

from __future__ import annotations

from rules.contract import board as w
from rules.systems.squads import tables
from rules.systems.squads.battle import units as U


def unit_view(unit) -> dict:
    s = unit.state
    out = dict(s)
    out["level_name"] = tables.TRAINING[s["level"]].name
    if s["kind"] == "squad":
        out["standing"] = len(U.standing(s))
        out["suppressed_count"] = len(U.suppressed(s))
        out["casualties"] = s["strength"] - out["standing"]
    out["alive"] = U.alive(s)
    return out


def _flags(view: dict) -> list[dict]:
    flags = []
    if view["kind"] == "squad":
        if view["suppressed_count"]:
            flags.append(w.status(f"Подавлено: {view['suppressed_count']}", None, "warn"))
        if view["casualties"]:
            flags.append(w.flag(f"Потери: {view['casualties']}", "bad"))
        if view.get("melee"):
            flags.append(w.flag("Ближний бой", "bad"))
    else:
        for key, label in (("immobilised", "Потеря мобильности"), ("destroyed", "Уничтожено")):
            if view.get(key):
                flags.append(w.flag(label, "bad"))
        if view.get("stun_next_turn") or view.get("stunned"):
            flags.append(w.status("Экипаж оглушен", 1, "warn"))
    if view.get("on_guard"):
        flags.append(w.flag("Защита", "good"))
    if view.get("stance") and view["stance"] not in ("on_guard",):
        flags.append(w.flag(tables.ACTION_NAMES.get(view["stance"], view["stance"])))
    return flags


def _figure_rows(view: dict) -> dict:
    items = []
    for f in view.get("figures", []):
        flags = [w.flag("лидер")] if f["leader"] else []
        if f["suppressed"]:
            flags.append(w.flag("подавлена", "warn"))
        items.append({"key": str(f["n"]), "title": f"{f['n']}. {tables.WEAPONS[f['weapon']].name}",
                      "subtitle": tables.PERSONAL_ARMOUR[f["armour"]].name, "flags": flags, "widgets": [],
                      "dead": f["casualty"]})  # fmt: skip
    return w.rows(items)


def side_to_act(state_view: dict) -> int | None:
    """The side holding the initiative, from what the state API answers (units.side_to_act on the views)."""
    game = state_view["game"]
    if not game.get("turn") or game.get("current") is None:
        return None
    order = (game.get("initiative") or {}).get("pass_order") or game["sides"]
    start = order.index(game["current"])
    for step in range(len(order)):
        side = order[(start + step) % len(order)]
        if any(u["owner"] == side and u["view"]["alive"] and not u["view"]["attempted"] for u in state_view["units"]):
            return side
    return None


def _choice(name: str, label: str, choices: list[tuple]) -> dict:
    return {"name": name, "label": label, "kind": "choice", "choices": [{"value": v, "label": t} for v, t in choices]}


def _fire_fields(u: dict, enemies: list[dict], *, only: str | None = None) -> list[dict]:
    """The shot form: this unit (the form sends only its fields), the target, the distance, the target's cover."""
    targets = [(e["key"], e["name"]) for e in enemies if only is None or e["key"] == only]
    fields = [
        _choice("unit", "Отряд", [(u["key"], u["name"])]),
        _choice("target", "Цель", targets),
        {"name": "distance", "label": "Дальность", "kind": "number", "min": 0, "max": 200},
        _choice("cover", "Укрытие цели", [(k, tables.COVER_NAMES[k]) for k in tables.COVER]),
    ]
    if any(e["kind"] == "vehicle" for e in enemies):
        fields.append(_choice("facing", "Попадание", [(f, f) for f in tables.FACINGS]))
    return fields


def _option(label: str, command: str, inputs: dict) -> dict:
    return {"label": label, "inputs": inputs, "command": command, "secondary": False, "attrs": {}}


def _controls(
    u: dict, game: dict, acting_side: int | None, viewer_sides, live: bool, enemies: list[dict]
) -> list[dict]:
    view, key = u["view"], u["key"]
    split = game.get("pending_split")
    if split and split["target"] == key and split["chooser_side"] in viewer_sides and live:
        options = [_option(f"Подавить {k}", "split_hits", {"suppress": k}) for k in range(split["unsaved"] + 1)]
        return [w.prompt(f"Непогашенных хитов: {split['unsaved']}. Сколько фигур подавить (L28)?", "split_hits",
                         options=options)]  # fmt: skip
    if not live or u["owner"] not in viewer_sides or not view["alive"]:
        return []
    loss = game.get("pending_weapon_loss")
    if loss and loss["unit"] == key:
        options = [_option(tables.WEAPONS[x["weapon"]].name, "lose_weapon", {"weapon": x["n"]})
                   for x in view["weapons"] if not x["destroyed"]]  # fmt: skip
        return [w.prompt("Какое оружие уничтожено (по выбору хозяина)?", "lose_weapon", options=options)]
    if game.get("acting") == key:
        phase = game.get("phase")
        if phase == "declare":
            if view["kind"] == "vehicle":
                items = [w.button(m, "act", {"unit": key, "action": m}) for m in tables.VEHICLE_MOVES]
            else:
                items = [w.button(n, "act", {"unit": key, "action": a}) for a, n in tables.ACTION_NAMES.items()]
            return [w.buttons(items, title="Действие")]
        widgets = []
        if phase == "fire":
            widgets.append(w.prompt("Стрельба", "shoot", fields=_fire_fields(u, enemies)))
        if phase == "assault":
            squads = [e for e in enemies if e["kind"] == "squad"]
            fields = [
                _choice("unit", "Отряд", [(key, u["name"])]),
                _choice("target", "Цель", [(e["key"], e["name"]) for e in squads]),
            ]
            widgets.append(w.prompt("Штурм", "assault", fields=fields))
        widgets.append(w.buttons([w.button("Готово", "done", {"unit": key})]))
        return widgets
    window = game.get("window")
    if (
        view.get("on_guard")
        and not view.get("reaction_used")
        and window
        and any(e["key"] == window["unit"] for e in enemies)
    ):
        return [w.prompt("«Защита»: открыть огонь?", "react", fields=_fire_fields(u, enemies, only=window["unit"]))]
    if acting_side == u["owner"] and not view["attempted"] and not game.get("acting"):
        if view.get("melee"):
            return [w.buttons([w.button("Выйти из боя", "withdraw", {"unit": key}),
                               w.button("Остаться в бою", "withdraw", {"unit": key, "attempt": False})])]  # fmt: skip
        return [w.buttons([w.button("Активация", "activate", {"unit": key}, secondary=False)])]
    return []


def board(state_view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = state_view["game"]
    live = can_write and game.get("result") is None
    acting_side = side_to_act(state_view)
    names = {s["index"]: s["name"] for s in state_view["sides"]}
    groups = []
    for side in state_view["sides"]:
        cards = []
        for u in state_view["units"]:
            if u["owner"] != side["index"]:
                continue
            v = u["view"]
            stats = [("Уровень", v["level_name"])]
            if v["kind"] == "squad":
                stats.append(("Фигуры", f"{v['standing']}/{v['strength']}"))
            else:
                stats.append(("Броня", tables.VEHICLE_ARMOUR[v["armour"]].name))
            widgets = [_figure_rows(v)] if v["kind"] == "squad" else []
            enemies = [e for e in state_view["units"] if e["owner"] != u["owner"] and e["view"]["alive"]]
            widgets += _controls(u, game, acting_side, viewer_sides, live, enemies)
            cards.append({"key": u["key"], "title": u["name"], "subtitle": v["level_name"], "flags": _flags(v),
                          "stats": w.stats(stats), "done": v["attempted"], "dead": not v["alive"],
                          "widgets": widgets})  # fmt: skip
        groups.append({"title": side["name"], "subtitle": "", "units": cards})
    turnbar = [w.text(f"Ход {game.get('turn', 0)} · инициатива: {names.get(acting_side, '—')}", tone="now")]
    if live and (not game.get("turn") or acting_side is None) and not game.get("acting"):
        turnbar.append(w.button("Новый ход: инициатива", "start_turn", secondary=False))
    banner = None
    if game.get("result"):
        winner = game["result"].get("winner")
        banner = {"title": "Бой окончен.", "text": f"Победа: {names[winner]}." if winner is not None else "Ничья.",
                  "lines": [f"Ходов сыграно: {game.get('turn', 0)}."], "note": "Отмените последние события, чтобы играть дальше."}  # fmt: skip
    footer = [w.button("Закончить бой", "end", secondary=True)] if live else []
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": footer}


def describe_event(kind: str, p: dict, units: dict, sides: dict) -> str:
    def name(key):
        return units.get(key, key)

    if kind == "turn.started":
        first = p["initiative"]["first"]
        return f"Ход {p['turn']}: инициатива у {sides.get(first, first)}."
    if kind == "activation.rolled":
        if p["success"]:
            return f"{name(p['unit'])}: активация удалась (d6 {p['die']})."
        what = "отступает" if p["consequence"] == "withdraw" else "выполняет «Защита»"
        return f"{name(p['unit'])}: активация провалена (d6 {p['die']}), {what}; инициатива переходит."
    if kind == "action.chosen":
        return f"{name(p['unit'])}: {tables.ACTION_NAMES.get(p['action'], p['action'])}."
    if kind == "shot":
        how = "реагирует огнём по" if p["reaction"] else "стреляет по"
        return f"{name(p['shooter'])} {how} {name(p['target'])}: хитов {p['hits']}, непогашено {p['unsaved']}."
    if kind == "hits.split":
        return f"{name(p['target'])}: подавлено {len(p['suppressed'])}, боевые потери {len(p['casualties'])}."
    if kind == "activation.done":
        return f"{name(p['unit'])} закончил действие."
    if kind == "melee.fought":
        lost = p["casualties"]
        return (f"Ближний бой {name(p['attacker'])} против {name(p['defender'])}: потери "
                f"{len(lost['attacker'])} и {len(lost['defender'])}" + (", бой окончен." if p["over"] else "."))  # fmt: skip
    if kind == "withdrawal.rolled":
        words = {"escaped": "вышел из боя", "caught": "настигнут, бой продолжается", "failed": "не смог выйти из боя",
                 "stayed": "остаётся в бою"}  # fmt: skip
        return f"{name(p['unit'])} {words[p['outcome']]}."
    if kind == "weapon.lost":
        return f"{name(p['unit'])}: уничтожено оружие №{p['n']}."
    if kind == "game.ended":
        winner = p.get("winner")
        return "Бой окончен" + (f": победа {sides.get(winner, winner)}." if winner is not None else ".")
    return kind
