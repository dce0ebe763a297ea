"""What each viewer sees: the game dict without the other side's secret orders, one unit as a phone shows it, the
board as widgets (rules/contract/board.py), and one line of history per event in the book's words."""

from __future__ import annotations

from rules.contract import board as w
from rules.systems.zvezdny_desant import tables

PHASES = {"start": "Начало хода", "orders": "Приказы", "execution": "Исполнение приказов", "melee": "Ближний бой",
          "over": "Игра окончена"}  # fmt: skip


def redact_game(game: dict, viewer_sides: frozenset[int]) -> dict:
    """Order cards lie face down until the reveal (L224–228): a viewer sees only his own side's."""
    out = dict(game)
    out["orders"] = {s: o for s, o in (game.get("orders") or {}).items() if int(s) in viewer_sides}
    return out


def unit_view(unit) -> dict:
    s, p = unit.state, unit.profile
    view = {
        "name": unit.name,
        "side": unit.side,
        "figures": s["figures"],
        "start": s["start"],
        "markers": s["markers"],
        "stk": p["stk"],
        "kbr": p["kbr"],
        "bsp": p["bsp"],
        "pdv": p["pdv"],
        "cost": p["cost"],
        "weapons": [
            f"{g['name']} ×{g['count']} (Длн {g['dln']}, Скр {g['skr']}, Мщ {g['msch']}, "
            f"Хрк {tables.hrk_text(g['hrk'])})"
            for g in p["groups"]
        ],  # fmt: skip
        "order": s["order"],  # set only by the public reveal
        "initiative": s["initiative"],
        "acted": s["acted"],
        "in_melee": s["in_melee"],
        "panicked": s["panicked"],
        "suppressed": s["suppressed"],
        "destroyed": s["destroyed"],
        "alive": s["figures"] > 0,
    }
    view["summary"] = f"{s['figures']}/{s['start']} figures, {s['markers']} markers"
    return view


def board(view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = view["game"]
    live = can_write and game.get("result") is None
    turnbar = [w.text(f"Ход {game.get('turn')} из {game.get('max_turns')} · {PHASES.get(game.get('phase'), '')}",
                      tone="now")]  # fmt: skip
    if game.get("first_player") is not None:
        turnbar.append(w.text(f"Первый игрок: side {game['first_player']}"))
    if live and game.get("phase") == "start":
        turnbar.append(w.button("Бросить D20: Первый игрок", "start_turn", secondary=False))
    if live and game.get("phase") == "melee":
        turnbar.append(w.buttons([w.button(f"Ближний бой #{m['id']}", "fight", {"melee": m["id"]})
                                  for m in game.get("melees", []) if m["id"] not in game.get("fought", [])]))  # fmt: skip
        turnbar.append(w.button("Конец хода", "end_turn", secondary=False))
    groups = []
    for side in view["sides"]:
        cards = []
        own = side["index"] in viewer_sides
        for u in view["units"]:
            if u.get("owner", u.get("side")) != side["index"]:
                continue
            v = u.get("view") or {}
            flags = [w.flag(label, tone) for flag, label, tone in (("in_melee", "ближний бой", "warn"),
                     ("panicked", "паника", "bad"), ("suppressed", "огневое подавление", "warn"),
                     ("acted", "действовал", "")) if v.get(flag)]  # fmt: skip
            if v.get("order"):
                flags.append(w.flag(f"«{tables.ORDER_WORDS[v['order']]}» {v.get('initiative')}"))
            widgets = [w.counter("Маркеры ранений", v.get("markers", 0), v.get("stk")),
                       w.text("; ".join(v.get("weapons", [])))]  # fmt: skip
            cards.append({"key": u["key"], "title": u["name"], "subtitle": v.get("summary", ""), "flags": flags,
                          "stats": w.stats([("ПДВ", v.get("pdv")), ("СТК", v.get("stk")), ("КБР", v.get("kbr")),
                                            ("БСП", v.get("bsp"))]),
                          "done": bool(v.get("acted")), "dead": not v.get("alive", True), "widgets": widgets})  # fmt: skip
        groups.append({"title": side["name"], "subtitle": "", "units": cards})
        ordered = side["index"] in game.get("ordered", [])
        if own and live and game.get("phase") == "orders" and not ordered:
            turnbar.append(order_form(view, side["index"], game.get("cp", 10)))
    banner = None
    if game.get("result"):
        r = game["result"]
        title = "Ничья" if r["winner"] is None else f"Победа: side {r['winner']}"
        banner = {"title": "Игра окончена.", "text": f"{title}, победные очки {r['vp'][0]} : {r['vp'][1]}.",
                  "lines": [], "note": "Undo the last events to play on."}  # fmt: skip
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": []}


def order_form(view: dict, side: int, cp: int) -> dict:
    """One secret form for all of a side's units: an order and an initiative each, spending all command points."""
    fields = []
    for u in view["units"]:
        v = u.get("view") or {}
        if u.get("owner", u.get("side")) != side or not v.get("alive", True) or v.get("in_melee") or v.get("panicked"):
            continue
        fields.append({"name": f"{u['key']}:order", "label": f"{u['name']}: приказ", "kind": "choice",
                       "choices": [[k, word] for k, word in tables.ORDER_WORDS.items()]})  # fmt: skip
        fields.append({"name": f"{u['key']}:initiative", "label": "инициатива", "kind": "number", "min": 0, "max": cp})
    return w.order_form("give_orders", fields=fields, title=f"Приказы: {cp} командных очков, все нужно потратить")


def describe_event(event, names: dict) -> str:
    p = event.payload
    units, sides = names.get("units", {}), names.get("sides", {})

    def unit(key):
        return units.get(key, key)

    def side(i):
        return sides.get(i, f"side {i}")

    kind = event.type
    if kind == "turn_started":
        return f"Ход {p['turn']}: Первый игрок — {side(p['first_player'])}."
    if kind == "orders_given":
        return (
            f"{side(p['side'])}: приказы отданы ("
            + ", ".join(
                f"{unit(k)} «{tables.ORDER_WORDS[v['order']]}» {v['initiative']}" for k, v in p["orders"].items()
            )
            + ")."
        )
    if kind == "orders_revealed":
        return (
            "Карточки приказов вскрыты: "
            + ", ".join(
                f"{unit(k)} «{tables.ORDER_WORDS[v['order']]}» {v['initiative']}" for k, v in p["orders"].items()
            )
            + "."
        )
    if kind == "activated":
        return f"{unit(p['unit'])} исполняет приказ" + (" (движение)." if p.get("moved") else ".")
    if kind == "shot":
        return f"{unit(p['unit'])} стреляет по {unit(p['target'])}: {p['summary']}"
    if kind == "melee_started":
        return "Ближний бой: " + ", ".join(unit(k) for k in p["units"]) + "."
    if kind == "melee_fought":
        return f"Ближний бой #{p['melee']}: {p['summary']}"
    if kind == "turn_ended":
        return f"Ход {p['turn']} окончен."
    if kind == "game_over":
        who = "ничья" if p["winner"] is None else f"победа {side(p['winner'])}"
        return f"Игра окончена: {who}, победные очки {p['vp'][0]} : {p['vp'][1]}."
    if kind == "marked":
        flags = ", ".join(f"{k}={v}" for k, v in p.items() if k != "unit")
        return f"{unit(p['unit'])}: {flags} (вручную)."
    return kind
