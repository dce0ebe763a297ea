"""What each viewer sees: the game dict without the other side's secret orders, one unit as a phone shows it, the
board as widgets (rules/contract/board.py), and one line of history per event in the book's words.

Texts are English msgids translated through rules.i18n (Russian in this package's locale/); the book's terms
(«Оборона», ПДВ, СТК…) are the Russian of English msgids (tables.order_word, tables.stat), so an English page reads
«Defence», Mob, Tgh."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _, ngettext
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.battle import rules
from rules.systems.zvezdny_desant.settings import full_settings

PHASES = {"start": N_("Start of the turn"), "orders": N_("Orders"), "execution": N_("Order execution"),
          "melee": N_("Close combat"), "over": N_("Game over")}  # fmt: skip
# What an acting unit may do under each order (L180–202): «Оборона» stays and may shoot, «Движение» moves and may
# assault, «Атака» may move, shoot and assault.
DOINGS = {
    "stay": N_("Stay in place"),
    "shoot": N_("Shoot"),
    "move": N_("Move"),
    "move_shoot": N_("Move and shoot"),
    "assault": N_("Assault the target"),
    "shoot_assault": N_("Shoot, then assault"),
}
DOINGS_BY_ORDER = {
    "defence": ("shoot", "stay"),
    "move": ("move", "assault", "stay"),
    "attack": ("shoot", "move_shoot", "assault", "shoot_assault", "move", "stay"),
}
MAX_DICE_BOXES = 20


def redact_game(game: dict, viewer_sides: frozenset[int]) -> dict:
    """Order cards lie face down until the reveal (L224–228): a viewer sees only his own side's."""
    out = dict(game)
    out["orders"] = {s: o for s, o in (game.get("orders") or {}).items() if int(s) in viewer_sides}
    return out


def weapon_line(g: dict) -> str:
    """«Автомат ×5 (Длн 30, Скр 1, Мщ 1, Хрк B12)»: the book's abbreviations in Russian, English ones in English."""
    stat = tables.stat
    return (f"{g['name']} ×{g['count']} ({stat('dln')} {g['dln']}, {stat('skr')} {g['skr']}, {stat('msch')} "
            f"{g['msch']}, {stat('hrk')} {tables.hrk_text(g['hrk'])})")  # fmt: skip


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
        "shots": sum(g["count"] * g["skr"] for g in p["groups"]),
        "strikes": p.get("strikes_per_figure", 1),
        "weapons": [weapon_line(g) for g in p["groups"]],
        "order": s["order"],  # set only by the public reveal
        "initiative": s["initiative"],
        "acted": s["acted"],
        "in_melee": s["in_melee"],
        "panicked": s["panicked"],
        "suppressed": s["suppressed"],
        "destroyed": s["destroyed"],
        "alive": s["figures"] > 0,
    }
    view["summary"] = _("{figures}/{start} figures, {markers} markers").format(**s)
    return view


def _owner(u: dict) -> int:
    return u.get("owner", u.get("side"))


def _can_act(v: dict) -> bool:
    """As rules.can_act, read from a unit's view (L272, L290, L621)."""
    return v.get("alive", True) and not (v.get("in_melee") or v.get("panicked") or v.get("suppressed"))


def acting(view: dict) -> tuple[int, int, list[dict]] | None:
    """(side, initiative, the units that may act) now, as rules.next_slot reads it from the state (L256–266)."""
    game = view["game"]
    waiting = [u for u in view["units"] if (v := u.get("view") or {}).get("order") and (v.get("initiative") or 0) > 0
               and not v.get("acted") and _can_act(v)]  # fmt: skip
    if not waiting:
        return None
    level = max(u["view"]["initiative"] for u in waiting)
    sides = {_owner(u) for u in waiting if u["view"]["initiative"] == level}
    if len(sides) == 1:
        side = next(iter(sides))
    else:
        last = (game.get("last_at") or {}).get(str(level))
        side = game.get("first_player") if last is None else 1 - last
    return side, level, [u for u in waiting if _owner(u) == side and u["view"]["initiative"] == level]


def board(view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = view["game"]
    names = {s["index"]: rules.side_name(game, s["index"], {s["index"]: s.get("name")}) for s in view["sides"]}
    live = can_write and game.get("result") is None
    phase = game.get("phase")
    turnbar = [
        w.text(
            _("Turn {turn} of {last} · {phase}").format(
                turn=game.get("turn"), last=game.get("max_turns"), phase=_(PHASES.get(phase, ""))
            ),
            tone="now",
        )
    ]
    if game.get("first_player") is not None:
        turnbar.append(w.text(_("First Player: {side}").format(side=names.get(game["first_player"], ""))))
    if phase == "start" and game.get("result") is None:
        turnbar.append(w.text(_("Both players roll a D20: the higher is the First Player this turn (L156)."),
                              tone="now"))  # fmt: skip
        if live:
            turnbar.append(_rolloff_prompt(view, names))
    if phase == "orders":
        turnbar += _orders_widgets(view, viewer_sides, live, names)
    if phase == "execution":
        turnbar += _act_widgets(view, viewer_sides, live, names)
    if phase == "melee" and game.get("result") is None:
        turnbar += _melee_widgets(view, viewer_sides, live, names)
    by_hand = full_settings((view.get("settings") or {}).get("system"))["states_by_hand"]
    groups = []
    for side in view["sides"]:
        own = live and side["index"] in viewer_sides
        cards = [_card(u, own and by_hand, steps=own) for u in view["units"] if _owner(u) == side["index"]]
        groups.append({"title": side["name"], "subtitle": "", "units": cards})
    banner, footer = None, []
    if game.get("result"):
        r = game["result"]
        winner = None if r["winner"] is None else names.get(r["winner"]) or rules.side_name(game, r["winner"])
        title = _("A draw") if winner is None else _("Victory: {side}").format(side=winner)
        reason = {
            "turns": _("The last turn ({n}) is over: victory points are counted (L790–796).").format(
                n=game.get("max_turns")
            ),
            "wiped_out": _("A side has no figure left: the game ends at once and victory points are counted."),
            "agreed": _("The players ended the game by agreement: victory points are counted."),
        }.get(r.get("reason"), "")
        points = [
            _("{side}: {vp} victory points").format(side=names.get(i) or rules.side_name(game, i), vp=r["vp"][i])
            for i in rules.SIDES
        ]
        banner = {
            "title": _("Game over."),
            "text": _("{title}, victory points {a} : {b}.").format(title=title, a=r["vp"][0], b=r["vp"][1]),
            "lines": [line for line in [reason, *points] if line],
            "note": _("To play on, undo the last events in the history."),
        }
    elif live:
        footer.append(w.buttons([w.button(_("End the game and count the victory points"), "end_game",
                                          attrs={"confirm": _("End the game now?")})],
                                title=_("End the game by agreement"), folded=True))  # fmt: skip
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": footer}


def _card(u: dict, marks: bool, *, steps: bool = False) -> dict:
    v = u.get("view") or {}
    # Each status chip links to its rule at hand (battle/rules_at_hand.py).
    flags = [w.flag(_(label), tone, rule=flag) for flag, label, tone in (("in_melee", N_("in close combat"), "warn"),
             ("panicked", N_("panic"), "bad"), ("suppressed", N_("fire suppression"), "warn"),
             ("acted", N_("has acted"), "")) if v.get(flag)]  # fmt: skip
    if v.get("order"):
        flags.append(w.flag(tables.order_card(v["order"], v.get("initiative")), rule=f"order_{v['order']}"))
    markers, stk = v.get("markers", 0), v.get("stk")
    if markers and v.get("alive", True):
        flags.append(w.flag(ngettext("{n} wound marker", "{n} wound markers", markers).format(n=markers), "warn",
                            rule="markers"))  # fmt: skip
    step = {}
    if steps and v.get("alive", True) and stk:  # − and + on the row (issue 19), a ruling by hand: 0…СТК−1 (L565)
        step = {"minus": w.button("−", "wounds", {"unit": u["key"], "step": -1}, disabled=markers <= 0,
                                  aria_label=_("Wound markers −1")),
                "plus": w.button("+", "wounds", {"unit": u["key"], "step": 1}, disabled=markers >= stk - 1,
                                 aria_label=_("Wound markers +1"))}  # fmt: skip
    widgets = [w.counter(_("Wound markers"), markers, stk, **step), w.text("; ".join(v.get("weapons", [])))]
    if marks and v.get("alive", True):
        key = u["key"]
        widgets.append(w.buttons([
            w.button(_("No panic") if v.get("panicked") else _("Panic"), "mark",
                     {"unit": key, "panicked": not v.get("panicked")}),
            w.button(_("No fire suppression") if v.get("suppressed") else _("Fire suppression"), "mark",
                     {"unit": key, "suppressed": not v.get("suppressed")}),
        ], title=_("By hand (full rules)"), folded=True))  # fmt: skip
    return {"key": u["key"], "title": u["name"], "subtitle": v.get("summary", ""), "flags": flags,
            "stats": w.stats([(tables.stat("pdv"), v.get("pdv")), (tables.stat("stk"), v.get("stk")),
                              (tables.stat("kbr"), tables.armour_letter(v.get("kbr"))),
                              (tables.stat("bsp"), v.get("bsp"))]),
            "done": bool(v.get("acted")), "dead": not v.get("alive", True), "widgets": widgets}  # fmt: skip


def _orders_widgets(view: dict, viewer_sides, live: bool, names: dict) -> list[dict]:
    """The viewer's own secret form; of the other side only whether it has given its orders (L224)."""
    game, out = view["game"], []
    for side in view["sides"]:
        index = side["index"]
        own = (game.get("orders") or {}).get(str(index)) if index in viewer_sides else None
        if index in game.get("ordered", []) and own:  # the viewer's own cards, face down for the other side
            unit_names = {u["key"]: u["name"] for u in view["units"]}
            cards = ", ".join(f"{unit_names.get(k, k)} {tables.order_card(c['order'], c['initiative'])}"
                              for k, c in own.items())  # fmt: skip
            out.append(w.text(_("{side}: orders given ({cards}).").format(side=names[index], cards=cards)))
        elif index in game.get("ordered", []):
            out.append(w.text(_("{side}: orders given.").format(side=names[index])))
        elif index in viewer_sides and live:
            out.append(order_form(view, index, game.get("cp", 10)))
        else:
            out.append(w.text(_("Waiting for the orders of {side}.").format(side=names[index])))
    return out


def order_form(view: dict, side: int, cp: int) -> dict:
    """One secret form for all of a side's units: an order and an initiative each, spending all command points.
    The initiatives start shared out so that they already add up to the side's points (L216–220)."""
    fields = []
    units = [u for u in view["units"] if _owner(u) == side and (v := u.get("view") or {}).get("alive", True)
             and not v.get("in_melee") and not v.get("panicked")]  # fmt: skip
    share, rest = divmod(cp, len(units)) if units else (0, 0)
    for i, u in enumerate(units):
        fields.append({"name": f"{u['key']}:order", "label": _("{unit}: order").format(unit=u["name"]),
                       "kind": "choice", "choices": [{"value": k, "label": _(word)}
                                                     for k, word in tables.ORDER_WORDS.items()]})  # fmt: skip
        fields.append({"name": f"{u['key']}:initiative", "label": _("{unit}: initiative").format(unit=u["name"]),
                       "kind": "number", "min": 0, "max": cp, "value": share + (1 if i < rest else 0)})  # fmt: skip
    title = ngettext("Orders: {n} command point, all must be spent", "Orders: {n} command points, all must be spent",
                     cp).format(n=cp)  # fmt: skip
    form = w.order_form("give_orders", fields=fields, title=title)
    form["submit"] = _("Give the orders in secret")
    form["rule"] = "give_orders"
    return form


def _act_widgets(view: dict, viewer_sides, live: bool, names: dict) -> list[dict]:
    """Whose unit acts now; on its owner's phone a form per unit that may act: what it does, the target, its
    cover, and the dice rolled at the table (left empty, the server rolls)."""
    now = acting(view)
    if now is None:
        return []
    side, level, units = now
    out = [w.text(_("{side} acts: initiative {n}.").format(side=names.get(side, ""), n=level), tone="now")]
    if not live or side not in viewer_sides:
        return out
    enemies = [
        {"value": u["key"], "label": u["name"]}
        for u in view["units"]
        if _owner(u) != side and (v := u.get("view") or {}).get("alive", True) and not v.get("in_melee")
    ]
    covers = [{"value": c, "label": tables.cover_word(c)} for c in tables.COVERS]
    for u in units:
        v = u["view"]
        doings = [{"value": d, "label": _(DOINGS[d])} for d in DOINGS_BY_ORDER[v["order"]]]
        fields = [{"name": "unit", "label": _("Unit that acts"), "kind": "choice",
                   "choices": [{"value": u["key"], "label": u["name"]}]},
                  {"name": "do", "label": _("What it does"), "kind": "choice", "choices": doings}]  # fmt: skip
        if enemies:
            fields += [
                {"name": "target", "label": _("Target"), "kind": "choice", "choices": enemies},
                {"name": "cover", "label": _("Cover of the target"), "kind": "choice", "choices": covers},
            ]
            if v["order"] != "move":  # shooting: how far, and how many target figures no shooter sees (L396, L558)
                fields += [
                    {"name": "distance", "label": _("Steps to the target (empty: in range)"), "kind": "number",
                     "min": 0, "max": 500},
                    {"name": "hidden", "label": _("Target figures out of sight or range (they cannot die)"),
                     "kind": "number", "min": 0, "max": 50},
                ]  # fmt: skip
            if v["order"] != "defence":  # an assault: did a figure come within 3 steps (L601, L609)?
                fields.append({"name": "reached", "label": _("Assault: a figure came within 3 steps"),
                               "kind": "choice", "choices": [{"value": "yes", "label": _("yes: close combat")},
                                                             {"value": "no", "label": _("no: only a move towards the "
                                                                                        "enemy (L609)")}]})  # fmt: skip
        boxes = min(2 * v.get("shots", 1), MAX_DICE_BOXES) if v["order"] != "move" else 0
        dice = [{"label": f"D20 {i}", "faces": 20} for i in range(1, boxes + 1)]
        question = _("{unit}: «{order}», initiative {n}").format(unit=u["name"], order=tables.order_word(v["order"]),
                                                                  n=v["initiative"])  # fmt: skip
        if dice:
            out.append(w.text(_("Dice rolled at the table, in order: the hit tests, then the wound tests. Leave "
                                "them empty and the server rolls.")))  # fmt: skip
        # The form shows the shot's exact odds as it is filled, ranks the targets (battle/at_roll.py), links its rule.
        form = w.prompt(question, "act", fields=fields, dice=dice, odds=True, compare=("target",), rule="act")
        form["submit"] = _("Carry out the order")
        out.append(form)
    return out


def _rolloff_prompt(view: dict, names: dict) -> dict:
    """The First Player roll-off (L152–156): a D20 per player typed in from the table, or left empty for the
    server to roll; a tie needs two more dice (§5 A6)."""
    dice = [{"label": _("D20: {side}").format(side=names.get(s["index"], "")), "faces": 20} for s in view["sides"]]
    form = w.prompt(_("The First Player roll"), "start_turn", dice=dice, odds=True, rule="start_turn")
    form["submit"] = _("Roll for the First Player")
    return form


def _strikes(view: dict, melee: dict, side: int | None) -> int:
    """D20 a side rolls in a melee (every figure in base contact, as the fight command counts by default); None:
    both sides."""
    units = {u["key"]: u for u in view["units"]}
    total = 0
    for key in melee["units"]:
        u = units.get(key)
        if u is None or (side is not None and _owner(u) != side):
            continue
        v = u.get("view") or {}
        total += v.get("figures", 0) * v.get("strikes", 1)
    return total


def _melee_name(view: dict, melee: dict) -> str:
    units = {u["key"]: u["name"] for u in view["units"]}
    return _("Close combat #{n}: {units}").format(
        n=melee["id"], units=", ".join(units.get(k, k) for k in melee["units"])
    )


def _strike_dice(count: int) -> list[dict]:
    return [{"label": _("D20 strike {i}").format(i=i), "faces": 20} for i in range(1, min(count, MAX_DICE_BOXES) + 1)]


def _melee_widgets(view: dict, viewer_sides, live: bool, names: dict) -> list[dict]:
    """Close Combat phase (L623–631): each melee's strikes, the side that struck first waits for the other side's
    strikes (a question on that player's phone), then the turn ends."""
    game = view["game"]
    asked = game.get("strikes")
    melees = [m for m in game.get("melees", []) if m["id"] not in game.get("fought", [])]
    if asked:
        melee = next((m for m in game.get("melees", []) if m["id"] == asked["melee"]), {"id": asked["melee"],
                                                                                        "units": []})  # fmt: skip
        other = 1 - asked["side"]
        out = [w.text(_("{side} struck: {rolls}. Now {other} rolls a D20 for each strike of its figures; then the "
                        "casualties of both sides are removed at once (L659).").format(
                            side=names.get(asked["side"], ""), rolls=", ".join(map(str, asked["rolls"])),
                            other=names.get(other, "")), tone="now")]  # fmt: skip
        if live and other in viewer_sides:
            count = _strikes(view, melee, other)
            form = w.prompt(_("{melee}: your strikes").format(melee=_melee_name(view, melee)), "strike",
                            dice=_strike_dice(count), odds=True, rule="strike")  # fmt: skip
            form["submit"] = _("Strike back")
            out += [w.text(_("Type the D20 of your strikes, or leave them empty and the server rolls.")), form]
        return out
    if not melees:
        out = [w.text(_("No melee to fight: the turn may end."), tone="now")]
    else:
        out = [w.text(_("Close combat: in each melee one player rolls a D20 for each strike of his figures, then "
                        "the other player answers with his (L644)."), tone="now")]  # fmt: skip
    if not live:
        return out
    mine = set(viewer_sides)
    for m in melees:
        side = next(iter(mine)) if len(mine) == 1 else None
        count = _strikes(view, m, side)
        fields = [{"name": "melee", "label": _("Which melee"), "kind": "choice",
                   "choices": [{"value": m["id"], "label": _melee_name(view, m)}]}]  # fmt: skip
        question = _("{melee}: your strikes").format(melee=_melee_name(view, m))
        form = w.prompt(question, "fight", fields=fields, dice=_strike_dice(count), odds=True, rule="fight")
        form["submit"] = _("Strike")
        out.append(form)
    if melees:
        out.append(w.text(_("Type the D20 of your strikes, or leave them empty and the server rolls.")))
    else:
        out.append(w.button(_("End the turn"), "end_turn", secondary=False))
    return out


def describe_event(event, names: dict) -> str:
    p = event.payload
    units, sides = names.get("units", {}), names.get("sides", {})

    def unit(key):
        return units.get(key, key)

    def side(i):
        return sides.get(i) or sides.get(str(i)) or _("side {n}").format(n=int(i) + 1)

    def cards(orders: dict) -> str:
        return ", ".join(f"{unit(k)} {tables.order_card(v['order'], v['initiative'])}" for k, v in orders.items())

    kind = event.type
    if kind == "turn_started":
        return _("Turn {turn}: the First Player is {side}.").format(turn=p["turn"], side=side(p["first_player"]))
    if kind == "orders_given":
        return _("{side}: orders given ({cards}).").format(side=side(p["side"]), cards=cards(p["orders"]))
    if kind == "orders_revealed":
        return _("The order cards are revealed: {cards}.").format(cards=cards(p["orders"]))
    if kind == "activated":
        text = _("{unit} carries out its order (moving).") if p.get("moved") else _("{unit} carries out its order.")
        return text.format(unit=unit(p["unit"]))
    if kind == "shot":
        return _("{unit} shoots at {target}: {summary}").format(unit=unit(p["unit"]), target=unit(p["target"]),
                                                                 summary=shot_summary(p))  # fmt: skip
    if kind == "melee_started":
        return _("Close combat: {units}.").format(units=", ".join(unit(k) for k in p["units"]))
    if kind == "strikes_rolled":
        return _("Close combat #{n}: {side} strikes ({rolls}); the other side strikes back.").format(
            n=p["melee"], side=side(p["side"]), rolls=", ".join(map(str, p["rolls"])) or "—"
        )
    if kind == "melee_fought":  # from the numbers, so each reader gets his own language (not the writer's)
        fates = "; ".join(_("{unit}: {removed} removed, {markers} markers left").format(unit=unit(k), **f)
                          for k, f in p["units"].items())  # fmt: skip
        who = _("no winner") if p.get("winner") is None else _("the winner: {side}").format(side=side(p["winner"]))
        return _("Close combat #{n}: {fates}; {who}.").format(n=p["melee"], fates=fates, who=who)
    if kind == "turn_ended":
        return _("Turn {turn} is over.").format(turn=p["turn"])
    if kind == "game_over":
        who = _("a draw") if p["winner"] is None else _("victory of {side}").format(side=side(p["winner"]))
        return _("Game over: {who}, victory points {a} : {b}.").format(who=who, a=p["vp"][0], b=p["vp"][1])
    if kind == "wounds_marked":
        return _("{unit}: wound markers {markers} (by hand).").format(unit=unit(p["unit"]), markers=p["markers"])
    if kind == "marked":
        words = {"panicked": (_("panic"), _("no panic")), "suppressed": (_("fire suppression"),
                 _("no fire suppression"))}  # fmt: skip
        flags = ", ".join(words[k][0 if v else 1] for k, v in p.items() if k in words)
        return _("{unit}: {flags} (by hand).").format(unit=unit(p["unit"]), flags=flags)
    return kind


def shot_summary(p: dict) -> str:
    """The shot's outcome in the reader's language, from the numbers the event keeps."""
    return _("hit on {need}+: {hits} hits, {wounds} wounds; {removed} figures removed, {markers} markers left.").format(
        need=p["need"], hits=p["hits"], wounds=p["wounds"], removed=p["removed"], markers=p["markers"]
    )
