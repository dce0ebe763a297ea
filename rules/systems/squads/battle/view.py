"""What a phone shows: each unit's view, the board as widgets (rules/contract/board.py), and the log in the book's
words."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _
from rules.systems.squads import names, tables
from rules.systems.squads.battle import units as U

N_IMMOBILISED, N_DESTROYED = N_("Immobilised"), N_("Destroyed")
FACING_NAMES = {"front": N_("Hit to the front"), "side": N_("Hit to the side"), "rear": N_("Hit to the rear")}  # L84


def unit_view(unit) -> dict:
    s = unit.state
    out = dict(s)
    out["level_name"] = names.level(s["level"])
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
            # −1 to the next activation roll per suppressed figure; cleared by that roll (L31)
            n = view["suppressed_count"]
            flags.append(w.status(_("Suppressed: {n} (−{n} to activation)").format(n=n), None, "warn"))
        if view["casualties"]:
            flags.append(w.flag(_("Casualties: {n}").format(n=view["casualties"]), "bad"))
        if view.get("melee"):
            flags.append(w.flag(_("In melee"), "bad"))
    else:
        for key, label in (("immobilised", N_IMMOBILISED), ("destroyed", N_DESTROYED)):
            if view.get(key):
                flags.append(w.flag(_(label), "bad"))
        if view.get("stun_next_turn") or view.get("stunned"):
            flags.append(w.status(_("Crew stunned"), 1, "warn"))
    if view.get("on_guard"):
        flags.append(w.flag(_("On Guard"), "good"))
    if view.get("stance") and view["stance"] not in ("on_guard",):
        flags.append(w.flag(names.action(view["stance"])))
    return flags


def _figure_rows(view: dict) -> dict:
    items = []
    for f in view.get("figures", []):
        flags = [w.flag(_("leader"))] if f["leader"] else []
        if f["suppressed"]:
            flags.append(w.flag(_("suppressed"), "warn"))
        if f["casualty"]:
            flags.append(w.flag(_("casualty"), "bad"))
        items.append({"key": str(f["n"]), "title": f"{f['n']}. {names.weapon(f['weapon'])}",
                      "subtitle": names.armour(f["armour"]), "flags": flags, "widgets": [],
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
        _choice("unit", _("Squad"), [(u["key"], u["name"])]),
        _choice("target", _("Target"), targets),
        {"name": "distance", "label": _("Range to target"), "kind": "number", "min": 0, "max": 200},
        _choice("cover", _("Target's cover"), [(k, names.cover(k)) for k in tables.COVER]),
    ]
    if any(e["kind"] == "vehicle" for e in enemies):
        fields.append(_choice("facing", _("Hit from"), [(f, _(FACING_NAMES.get(f, f))) for f in tables.FACINGS]))
    return fields


def _option(label: str, command: str, inputs: dict) -> dict:
    """A one-tap answer of a prompt: a button (the board gives every button its inputs as JSON)."""
    return w.button(label, command, inputs, secondary=False)


def _controls(
    u: dict, game: dict, acting_side: int | None, viewer_sides, live: bool, enemies: list[dict]
) -> list[dict]:
    view, key = u["view"], u["key"]
    if game.get("pending_split"):  # the split question waits on the turnbar (board()); nothing else goes now
        return []
    if not live or u["owner"] not in viewer_sides or not view["alive"]:
        return []
    loss = game.get("pending_weapon_loss")
    if loss and loss["unit"] == key:
        options = [_option(names.weapon(x["weapon"]), "lose_weapon", {"weapon": x["n"]})
                   for x in view["weapons"] if not x["destroyed"]]  # fmt: skip
        return [w.prompt(_("Which weapon is destroyed (the owner chooses)?"), "lose_weapon", options=options)]
    if game.get("acting") == key:
        phase = game.get("phase")
        if phase == "declare":
            if view["kind"] == "vehicle":
                items = [w.button(m, "act", {"unit": key, "action": m}) for m in tables.VEHICLE_MOVES]
            else:
                items = [w.button(n, "act", {"unit": key, "action": a}) for a, n in tables.ACTION_NAMES.items()]
            return [w.buttons(items, title=_("Action"))]
        widgets = []
        if phase == "fire":
            widgets.append({**w.prompt(_("Shooting"), "shoot", fields=_fire_fields(u, enemies)), "submit": _("Fire")})
        if phase == "assault":
            squads = [e for e in enemies if e["kind"] == "squad"]
            fields = [
                _choice("unit", _("Squad"), [(key, u["name"])]),
                _choice("target", _("Target"), [(e["key"], e["name"]) for e in squads]),
            ]
            widgets.append(w.prompt(_("Assault"), "assault", fields=fields))
        widgets.append(w.buttons([w.button(_("Done"), "done", {"unit": key})]))
        return widgets
    window = game.get("window")
    if (
        view.get("on_guard")
        and not view.get("reaction_used")
        and window
        and any(e["key"] == window["unit"] for e in enemies)
    ):
        return [w.prompt(_("On Guard: open fire?"), "react", fields=_fire_fields(u, enemies, only=window["unit"]))]
    if acting_side == u["owner"] and not view["attempted"] and not game.get("acting"):
        if view.get("melee"):
            return [w.buttons([w.button(_("Withdraw from melee"), "withdraw", {"unit": key}),
                               w.button(_("Stay in melee"), "withdraw", {"unit": key, "attempt": False})])]  # fmt: skip
        # d6 against «Активация» (§3.2): the die typed in from the table, or left empty for the server to roll
        roll = w.prompt(_("Activation"), "activate", fields=[_choice("unit", _("Squad"), [(key, u["name"])])],
                        dice=[{"label": _("d6 (empty: the server rolls)"), "faces": 6}])  # fmt: skip
        return [{**roll, "submit": _("Roll the activation")}]
    return []


def _split_question(split: dict, target: str) -> dict:
    options = [_option(_("Suppress {k}").format(k=k), "split_hits", {"suppress": k})
               for k in range(split["unsaved"] + 1)]  # fmt: skip
    question = _("{unit}: {n} unsaved hits. How many figures are suppressed (L28)?").format(
        unit=target, n=split["unsaved"]
    )
    return w.prompt(question, "split_hits", options=options)


def board(state_view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = state_view["game"]
    live = can_write and game.get("result") is None
    acting_side = side_to_act(state_view)
    side_names = {s["index"]: s["name"] for s in state_view["sides"]}
    groups = []
    for side in state_view["sides"]:
        cards = []
        for u in state_view["units"]:
            if u["owner"] != side["index"]:
                continue
            v = u["view"]
            stats = [(_("Level"), v["level_name"])]
            if v["kind"] == "squad":
                stats.append((_("Figures"), f"{v['standing']}/{v['strength']}"))
            else:
                stats.append((_("Armour"), names.vehicle_armour(v["armour"])))
            widgets = [_figure_rows(v)] if v["kind"] == "squad" else []
            enemies = [e for e in state_view["units"] if e["owner"] != u["owner"] and e["view"]["alive"]]
            widgets += _controls(u, game, acting_side, viewer_sides, live, enemies)
            flags = _flags(v) + ([w.flag(_("Acting now"), "good")] if game.get("acting") == u["key"] else [])
            cards.append({"key": u["key"], "title": u["name"], "subtitle": v["level_name"], "flags": flags,
                          "stats": w.stats(stats), "done": v["attempted"], "dead": not v["alive"],
                          "widgets": widgets})  # fmt: skip
        groups.append({"title": side["name"], "subtitle": "", "units": cards})
    turnbar = [w.text(_("Turn {turn} · initiative: {side}").format(turn=game.get("turn", 0),
                                                                    side=side_names.get(acting_side, "—")), tone="now")]  # fmt: skip
    units = {u["key"]: u for u in state_view["units"]}
    if game.get("acting") in units:  # the chain: whose squad acts now (L10–12)
        acting = units[game["acting"]]
        turnbar.append(w.text(_("Acting now: {unit} ({side})").format(unit=acting["name"],
                                                                      side=side_names.get(acting["owner"], "")), tone="now"))  # fmt: skip
    split = game.get("pending_split")
    if split and split["target"] in units and split["chooser_side"] in viewer_sides and live:
        turnbar.append(_split_question(split, units[split["target"]]["name"]))  # asked on the chooser's phone (L28)
    elif split and split["target"] in units:
        turnbar.append(w.text(_("Waiting for {side}: split the unsaved hits on {unit}").format(
            side=side_names.get(split["chooser_side"], ""), unit=units[split["target"]]["name"]), tone="now"))  # fmt: skip
    if live and (not game.get("turn") or acting_side is None) and not game.get("acting"):
        # d6 a side, ties re-rolled (L12): typed in from the table, or left empty for the server to roll
        dice = [{"label": _("d6 {side}").format(side=side_names.get(s, s)), "faces": 6} for s in game.get("sides", [])]
        roll = w.prompt(_("New turn: initiative"), "start_turn", dice=dice)
        turnbar.append({**roll, "submit": _("Roll the initiative")})
    banner = None
    if game.get("result"):
        winner = game["result"].get("winner")
        text = _("Victory: {side}.").format(side=side_names[winner]) if winner is not None else _("A draw.")
        banner = {"title": _("The battle is over."), "text": text,
                  "lines": [_("Turns played: {n}.").format(n=game.get("turn", 0))],
                  "note": _("Undo the last events to play on.")}  # fmt: skip
    footer = [w.button(_("End the battle"), "end", secondary=True)] if live else []
    return {"banner": banner, "turnbar": turnbar, "groups": groups, "footer": footer}


def describe_event(kind: str, p: dict, units: dict, sides: dict) -> str:
    def name(key):
        return units.get(key, key)

    if kind == "turn.started":
        first = p["initiative"]["first"]
        return _("Turn {turn}: {side} has the initiative.").format(turn=p["turn"], side=sides.get(first, first))
    if kind == "activation.rolled":
        if p["success"]:
            return _("{unit}: activation passed (d6 {die}).").format(unit=name(p["unit"]), die=p["die"])
        if p["consequence"] == "withdraw":
            text = _("{unit}: activation failed (d6 {die}), it retreats; the initiative passes.")
        else:
            text = _("{unit}: activation failed (d6 {die}), it goes On Guard; the initiative passes.")
        return text.format(unit=name(p["unit"]), die=p["die"])
    if kind == "action.chosen":
        return f"{name(p['unit'])}: {names.action(p['action'])}."
    if kind == "shot":
        text = (_("{shooter} reacts with fire at {target}: {hits} hits, {unsaved} unsaved.") if p["reaction"]
                else _("{shooter} fires at {target}: {hits} hits, {unsaved} unsaved."))  # fmt: skip
        return text.format(shooter=name(p["shooter"]), target=name(p["target"]), hits=p["hits"], unsaved=p["unsaved"])
    if kind == "hits.split":
        return _("{unit}: {suppressed} suppressed, {casualties} casualties.").format(
            unit=name(p["target"]), suppressed=len(p["suppressed"]), casualties=len(p["casualties"]))  # fmt: skip
    if kind == "activation.done":
        return _("{unit} has finished its action.").format(unit=name(p["unit"]))
    if kind == "melee.fought":
        lost = p["casualties"]
        text = (_("Melee of {attacker} against {defender}: casualties {a} and {d}, the melee is over.") if p["over"]
                else _("Melee of {attacker} against {defender}: casualties {a} and {d}."))  # fmt: skip
        return text.format(attacker=name(p["attacker"]), defender=name(p["defender"]), a=len(lost["attacker"]),
                           d=len(lost["defender"]))  # fmt: skip
    if kind == "withdrawal.rolled":
        words = {"escaped": _("{unit} left the melee."), "caught": _("{unit} was caught: the melee goes on."),
                 "failed": _("{unit} could not leave the melee."), "stayed": _("{unit} stays in the melee.")}  # fmt: skip
        return words[p["outcome"]].format(unit=name(p["unit"]))
    if kind == "weapon.lost":
        return _("{unit}: weapon no. {n} destroyed.").format(unit=name(p["unit"]), n=p["n"])
    if kind == "game.ended":
        winner = p.get("winner")
        if winner is None:
            return _("The battle is over.")
        return _("The battle is over: victory of {side}.").format(side=sides.get(winner, winner))
    return kind
