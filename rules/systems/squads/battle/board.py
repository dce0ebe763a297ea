"""The phone board of «Отряды» (rules/contract/board.py widgets).

The unit cards show the table: figures standing, suppressed and fallen, flags, a vehicle's weapons. The turn bar on
top says whose move it is and holds what is to be done now, on the phone of the player who does it: the
initiative roll (L12), the activation roll of the side holding the initiative (the chain goes on while its rolls
succeed, «Инициатива»), the acting unit's action, its shot or assault, the split of unsaved hits asked of the
target's owner (L28), the weapon a vehicle's owner loses (L87), the melees fought at the start of a turn (L42), an
On Guard unit's reaction (L21). Every other phone says whom the game waits for. Dice are typed in from the table
(the squads board script adds the boxes, battle/static) or left to the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import board as w
from rules.i18n import _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.hits import split_limits
from rules.systems.squads.battle import units as U
from rules.systems.squads.battle.view import FACING_NAMES, card_flags, figure_rows, side_to_act, weapon_rows

# The commands whose dice the board script offers to type in (battle/__init__.py client_data).
DICE_COMMANDS = ("start_turn", "activate", "shoot", "react", "assault", "melee_round", "withdraw")


@dataclass
class Seen:
    """What one phone sees: the game, the units by key, the sides' names, the battle's rules, the viewer's sides,
    and whether it may act now (a player, the battle not over)."""

    game: dict
    units: dict
    sides: dict
    settings: dict
    mine: frozenset
    live: bool

    def name(self, side) -> str:
        return self.sides.get(side, "—")

    def alive(self, owner=None, *, not_owner=None) -> list[dict]:
        return [u for u in self.units.values() if u["view"]["alive"] and (owner is None or u["owner"] == owner)
                and (not_owner is None or u["owner"] != not_owner)]  # fmt: skip

    def acts(self, side) -> bool:
        return self.live and side in self.mine


def choice(name: str, label: str, choices: list[tuple]) -> dict:
    return {"name": name, "label": label, "kind": "choice", "choices": [{"value": v, "label": t} for v, t in choices]}


def number(name: str, label: str, *, low: int = 0, high: int = 50, value: int | None = None) -> dict:
    return {"name": name, "label": label, "kind": "number", "min": low, "max": high, "value": value}


def form(
    question: str, command: str, fields: list[dict], submit: str, *, odds: bool = True, compare: tuple[str, ...] = ()
) -> dict:
    """A command's form: it shows the exact odds of its roll as it is filled (battle/at_roll.py) and links to the
    rule it applies (battle/rules.py, keyed by the command's name)."""
    return {**w.prompt(question, command, fields=fields, odds=odds, compare=compare, rule=command), "submit": submit}


def weapon_choice(unit: dict) -> tuple[str, ...]:
    """A vehicle chooses which of its weapons fire (L77): its form may rank them."""
    return ("weapons",) if unit["view"]["kind"] == "vehicle" else ()


# Fire (§3.5, L26–38) -------------------------------------------------------------------------------------------
def fire_fields(c: Seen, shooter: dict, targets: list[dict], *, reacting: bool = False) -> list[dict]:
    """Who fires, at whom, from how far, the target's cover (and its figures at the cover's edge, §5 B7), the side
    a vehicle is hit from (L90), which of a vehicle's weapons fire (L77), a spotter for a mortar (§5 B9)."""
    v = shooter["view"]
    inches = tables.distance_units(c.settings) == 0
    fields = [
        choice("unit", _("Shooter"), [(shooter["key"], shooter["name"])]),
        choice("target", _("Target"), [(t["key"], t["name"]) for t in targets]),
        number("distance", _("Range to target, inches") if inches else _("Range to target, cm"), high=500),
        choice("cover", _("Target's cover"), [(k, names.cover(k)) for k in tables.COVER]),
    ]
    if c.settings["cover_edge_only"]:
        fields.append(number("edge_figures", _("Target figures at the cover's edge (empty: all)")))
    if any(t["view"]["kind"] == "vehicle" for t in targets):
        fields.append(choice("facing", _("Hit from"), [(f, _(FACING_NAMES[f])) for f in ("side", "front", "rear")]))
    if v["kind"] == "vehicle":
        working = [x for x in v["weapons"] if not x["destroyed"]]
        # a stationary vehicle fires every weapon, a moving one one weapon (L77); a reaction fires standing
        moving = tables.VEHICLE_MOVES.get(v.get("stance"), (0, None))[1] is not None and not reacting
        every = [] if moving else [("", _("Every working weapon"))]
        fields.append(choice("weapons", _("Weapon"), every + [(str(x["n"]), f"{x['n']}. {names.weapon(x['weapon'])}")
                                                         for x in working]))  # fmt: skip
    elif c.settings["mortar_line_of_sight"] == "spotter" and any(
        f["weapon"] == "light_mortar" for f in v.get("figures", []) if not f["casualty"]
    ):
        fields.append(choice("line_of_sight", _("A friendly figure sees the target"),
                             [("true", _("Yes, someone sees it")), ("false", _("No one sees it"))]))  # fmt: skip
    return fields


def reactions(c: Seen) -> list[dict]:
    """On Guard (L21): once a turn a unit may fire at an enemy unit that acts within its reach, at the moment the
    battle's setting says (§5 B13)."""
    window = c.game.get("window")
    if not window or window.get("unit") not in c.units:
        return []
    needed = "declared" if c.settings["on_guard_timing"] == "interrupt" else "resolved"
    target = c.units[window["unit"]]
    if window.get("timing") != needed or not target["view"]["alive"]:
        return []
    out = []
    for u in c.alive():
        v = u["view"]
        if u["owner"] == target["owner"] or not c.acts(u["owner"]) or not v.get("on_guard") or v.get("reaction_used"):
            continue
        question = _("{unit} is On Guard: open fire at {target}? (L21)").format(unit=u["name"], target=target["name"])
        out.append(form(question, "react", fire_fields(c, u, [target], reacting=True), _("Fire"),
                        compare=weapon_choice(u)))  # fmt: skip
    return out


# The moments of a turn ---------------------------------------------------------------------------------------
def initiative(c: Seen) -> list[dict]:
    """d6 a side plus the scenario's modifiers, ties re-rolled (L12)."""
    if not c.live or not (c.mine & set(c.game["sides"])):
        return []
    turn = c.game.get("turn", 0)
    question = (_("Turn 1: roll the initiative (d6 each side, ties re-rolled, L12).") if not turn else
                _("Every unit has tried: roll the initiative for turn {n} (L12).").format(n=turn + 1))  # fmt: skip
    fields = [number(f"modifiers.{s}", _("Scenario modifier: {side}").format(side=c.name(s)), low=-5, high=5, value=0)
              for s in c.game["sides"]]  # fmt: skip
    return [form(question, "start_turn", fields, _("Roll the initiative"))]


def activation(c: Seen, side: int) -> list[dict]:
    """The side holding the initiative tries its units one at a time; a failure passes the initiative (L12)."""
    if not c.acts(side):
        return []
    pending = [u for u in c.alive(side) if not u["view"]["attempted"]]
    free = [u for u in pending if not U.locked(u["view"], c.settings)]
    locked = [u for u in pending if U.locked(u["view"], c.settings)]
    out = []
    if free:
        fields = [
            choice("unit", _("Squad or vehicle"), [(u["key"], u["name"]) for u in free]),
            choice("sees_enemy", _("An enemy unit in sight"),
                   [("true", _("Yes, an enemy is in sight")), ("false", _("No enemy in sight: +1 (L14)"))]),
            number("out_of_coherency", _("Figures out of coherency: −1 each (L2)"), high=30, value=0),
        ]  # fmt: skip
        question = _("{side} holds the initiative: activate a unit (L12).").format(side=c.name(side))
        out.append(form(question, "activate", fields, _("Roll the activation"), compare=("unit",)))
    if locked:
        fields = [
            choice("unit", _("Squad"), [(u["key"], u["name"]) for u in locked]),
            choice("attempt", _("Its activation"),
                   [("true", _("Try to withdraw from the melee")), ("false", _("Stay in the melee"))]),
        ]  # fmt: skip
        question = _("Locked in melee: the only activation is a withdrawal (L42).")
        out.append(form(question, "withdraw", fields, _("Confirm")))
    return out


def acting(c: Seen) -> list[dict]:
    """The unit that passed its activation: its one action (L17–24, a vehicle's move L77), then its fire or
    assault, then its end."""
    unit = c.units[c.game["acting"]]
    v, key = unit["view"], unit["key"]
    if not c.acts(unit["owner"]):
        return []
    phase = c.game.get("phase")
    if phase == "declare":
        if v["kind"] == "vehicle":
            moves = ["stationary"] if v.get("immobilised") else list(tables.VEHICLE_MOVES)
            items = [w.button(names.action(m), "act", {"unit": key, "action": m}, secondary=False) for m in moves]
        else:
            items = [w.button(names.action(a), "act", {"unit": key, "action": a}, secondary=False)
                     for a in tables.ACTIONS]  # fmt: skip
        question = _("{unit}: choose its action").format(unit=unit["name"])
        return [w.prompt(question, "act", options=items, rule="act")]
    enemies = c.alive(not_owner=unit["owner"])
    out = []
    if phase == "fire":
        question = _("{unit}: shooting (L26–38)").format(unit=unit["name"])
        out.append(form(question, "shoot", fire_fields(c, unit, enemies), _("Fire"),
                        compare=("target", *weapon_choice(unit))))  # fmt: skip
    elif phase == "assault":
        squads = [e for e in enemies if e["view"]["kind"] == "squad"]
        fields = [
            choice("unit", _("Attacker"), [(key, unit["name"])]),
            choice("target", _("Target"), [(e["key"], e["name"]) for e in squads]),
            number("in_reach", _('Attacking figures within 3"/8 cm (empty: all)')),
            number("defender_in_reach", _('Defending figures within 3"/8 cm (empty: all)')),
        ]
        question = _("{unit}: assault, melee (L42)").format(unit=unit["name"])
        out.append(form(question, "assault", fields, _("Assault"), compare=("target",)))
    else:
        out.append(w.text(_("{unit}: {action}, no fire.").format(unit=unit["name"], action=names.action(v["stance"]))))
    out.append(w.buttons([w.button(_("End the unit's activation"), "done", {"unit": key})]))
    return out


def melees(c: Seen) -> list[dict]:
    """«Бой продолжается в начале каждого следующего хода» (L42): the first melee still due this turn."""
    attacker, defender = (c.units[k] for k in c.game["melee_due"][0])
    involved = {attacker["owner"], defender["owner"]}
    question = _("The melee goes on: {attacker} against {defender} (L42).").format(
        attacker=attacker["name"], defender=defender["name"]
    )
    if not (c.live and involved & c.mine):
        return []
    fields = [choice("melee", _("Melee"), [("0", f"{attacker['name']} — {defender['name']}")])]
    return [form(question, "melee_round", fields, _("Fight the melee"))]


def split_question(c: Seen, split: dict) -> list[dict]:
    """The target's owner splits the unsaved hits: suppressed figures up to the training table's limit, the rest
    casualties, none both (L28, L31); only the legal splits are offered."""
    target = c.units[split["target"]]
    chooser = split["chooser_side"]
    if not c.acts(chooser):
        return []
    v = target["view"]
    facts = {"level": v["level"], "figures": v["standing"], "suppressed": v["suppressed_count"]}
    if split.get("allocatable") is not None:
        facts["allocatable"] = split["allocatable"]
    limits = split_limits(facts, split["unsaved"], c.settings)
    options = [w.button(_("Suppress {k}, casualties {n}").format(k=o["suppressed"], n=o["casualties"]), "split_hits",
                        {"suppress": o["suppressed"]}, secondary=False) for o in limits["options"]]  # fmt: skip
    question = _("{unit}: {n} unsaved hits. How many figures are suppressed (at most {cap}), the rest casualties "
                 "(L28, L31)?").format(unit=target["name"], n=split["unsaved"], cap=limits["cap"])  # fmt: skip
    return [w.prompt(question, "split_hits", options=options, rule="split_hits")]


def weapon_loss(c: Seen, loss: dict) -> list[dict]:
    """«Уничтожено оружие (по выбору хозяина)» (L87): the vehicle's owner picks it."""
    vehicle = c.units[loss["unit"]]
    if not c.acts(vehicle["owner"]):
        return []
    options = [w.button(f"{x['n']}. {names.weapon(x['weapon'])}", "lose_weapon", {"weapon": x["n"]}, secondary=False)
               for x in vehicle["view"]["weapons"] if not x["destroyed"]]  # fmt: skip
    question = _("{unit}: which weapon is destroyed (the owner chooses, L87)?").format(unit=vehicle["name"])
    return [w.prompt(question, "lose_weapon", options=options, rule="lose_weapon")]


def next_line(c: Seen, state_view: dict) -> str:
    """What the game waits for now and from whom, in the book's words: the same line on every phone."""
    game = c.game
    split, loss = game.get("pending_split"), game.get("pending_weapon_loss")
    if split and split["target"] in c.units:
        return _("Next: {side} — split the unsaved hits on {unit} into suppressed figures and casualties (L28).").format(
            side=c.name(split["chooser_side"]), unit=c.units[split["target"]]["name"])  # fmt: skip
    if loss and loss["unit"] in c.units:
        vehicle = c.units[loss["unit"]]
        return _("Next: {side} — choose the weapon destroyed on {unit} (L87).").format(
            side=c.name(vehicle["owner"]), unit=vehicle["name"])  # fmt: skip
    if game.get("melee_due"):
        attacker, defender = (c.units[k]["name"] for k in game["melee_due"][0])
        return _("Next: the melee goes on, {attacker} against {defender}: a round at the start of the turn (L42).").format(
            attacker=attacker, defender=defender)  # fmt: skip
    if game.get("acting") in c.units:
        unit = c.units[game["acting"]]
        said = {"declare": _("Next: {side} — choose the action of {unit} (L17–24)."),
                "fire": _("Next: {side} — shooting with {unit}, or the end of its activation."),
                "assault": _("Next: {side} — the assault of {unit}, or the end of its activation."),
                "move": _("Next: {side} — the end of the activation of {unit}.")}  # fmt: skip
        text = said.get(game.get("phase"), said["move"])
        return text.format(side=c.name(unit["owner"]), unit=unit["name"])
    side = side_to_act(state_view)
    if not game.get("turn") or side is None:
        return _("Next: each side rolls d6 for the initiative of a new turn (L12).")
    return _("Next: {side} — the activation roll of a unit that has not tried this turn (L12).").format(
        side=c.name(side)
    )


def now(c: Seen, state_view: dict) -> list[dict]:
    """What the game waits for now, in the order battle/__init__.py awaiting() asks it."""
    game = c.game
    if game.get("result") is not None:
        return []
    if game.get("pending_split") and game["pending_split"]["target"] in c.units:
        return split_question(c, game["pending_split"])
    if game.get("pending_weapon_loss") and game["pending_weapon_loss"]["unit"] in c.units:
        return weapon_loss(c, game["pending_weapon_loss"])
    if not game.get("turn"):
        return initiative(c)
    if game.get("melee_due"):
        return melees(c)
    if game.get("acting") in c.units:
        return [*acting(c), *reactions(c)]
    side = side_to_act(state_view)
    if side is None:
        return [*reactions(c), *initiative(c)]
    return [*activation(c, side), *reactions(c)]


# The board -----------------------------------------------------------------------------------------------------
def cards(c: Seen, side: int) -> list[dict]:
    out = []
    for u in c.units.values():
        if u["owner"] != side:
            continue
        v = u["view"]
        stats = [(_("Level"), v["level_name"])]
        if v["kind"] == "squad":
            stats.append((_("Figures"), f"{v['standing']}/{v['strength']}"))
            widgets = [figure_rows(v)]
        else:
            stats.append((_("Armour"), names.vehicle_armour(v["armour"])))
            widgets = [weapon_rows(v)] if v.get("weapons") else []
        flags = card_flags(v) + (
            [w.flag(_("Acting now"), "good", rule="acting")] if c.game.get("acting") == u["key"] else []
        )
        out.append({"key": u["key"], "title": u["name"], "subtitle": v["level_name"], "flags": flags,
                    "stats": w.stats(stats), "done": v["attempted"], "dead": not v["alive"], "widgets": widgets})  # fmt: skip
    return out


def banner(c: Seen) -> dict | None:
    result = c.game.get("result")
    if not result:
        return None
    winner = result.get("winner")
    text = _("Victory: {side}.").format(side=c.name(winner)) if winner is not None else _("A draw.")
    lines = []
    if result.get("reason") == "destroyed":
        beaten = [c.name(s) for s in c.game["sides"] if s != winner]
        lines.append(_("No unit of {sides} is left in the game.").format(sides=", ".join(beaten)))
    else:
        lines.append(_("The players ended the battle."))
    lines.append(_("Turns played: {n}.").format(n=c.game.get("turn", 0)))
    return {
        "title": _("The battle is over."),
        "text": text,
        "lines": lines,
        "note": _("Undo the last events to play on."),
    }


def footer(c: Seen) -> list[dict]:
    """The book has no victory conditions: the players end the battle when their scenario says, and say who won."""
    if not c.live or not (c.mine & set(c.game["sides"])):
        return []
    items = [w.button(_("Victory: {side}.").format(side=c.name(s)), "end", {"winner": s}) for s in c.game["sides"]]
    items.append(w.button(_("A draw"), "end", {}))
    return [w.buttons(items, title=_("End the battle"), folded=True,
                      help=_("The book has no victory conditions: end the battle when your scenario says."))]  # fmt: skip


def board(state_view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = state_view["game"]
    c = Seen(
        game=game,
        units={u["key"]: u for u in state_view["units"]},
        sides={s["index"]: s["name"] for s in state_view["sides"]},
        settings=U.system_settings(state_view.get("settings") or {}),
        mine=frozenset(viewer_sides),
        live=can_write and game.get("result") is None,
    )
    holder = side_to_act(state_view)
    turnbar = [w.text(_("Turn {turn} · initiative: {side}").format(turn=game.get("turn", 0), side=c.name(holder)),
                      tone="now")]  # fmt: skip
    if game.get("acting") in c.units:  # the chain: whose unit acts now (L10–12)
        acting_unit = c.units[game["acting"]]
        turnbar.append(w.text(_("Acting now: {unit} ({side})").format(unit=acting_unit["name"],
                                                                      side=c.name(acting_unit["owner"])), tone="now"))  # fmt: skip
    if game.get("result") is None:
        turnbar.append(w.text(next_line(c, state_view), tone="now"))
    turnbar += now(c, state_view)
    groups = [{"title": s["name"], "subtitle": "", "units": cards(c, s["index"])} for s in state_view["sides"]]
    return {"banner": banner(c), "turnbar": turnbar, "groups": groups, "footer": footer(c)}
