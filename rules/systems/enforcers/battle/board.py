"""The «Энфорсеры» phone board as widgets (rules/contract/board.py): the round, what each side must do next and
the latest result (on both phones), the question the book puts to this player with its buttons, one card per
agent with its HP and AP, actions left, statuses with their turns, and a form for each of its commands. The
generic templates draw them; nothing here writes HTML. Dice typed in from the table go into boxes the generic dice
boxes (static/battles/dice_boxes.js, started by static/enforcers/board.js) draw under each form, asked of the command
itself."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _, ngettext
from rules.systems.enforcers import tables
from rules.systems.enforcers.battle import questions
from rules.systems.enforcers.statuses import TICKING
from rules.systems.enforcers.texts import render
from rules.systems.enforcers.words import AID_MODE, FIRE_MODE, STATUS

# The book's words on the board, as msgids read in the reader's language (their Russian is the glossary's).
TERMS = {
    **STATUS, "hp": N_("HP"), "ap": N_("AP"), "shoot": N_("Shoot"), "fight": N_("Fight"), "move": N_("Move"),
    "aim": N_("Aim"), "listen": N_("Listen"), "overwatch": N_("Overwatch"), "take_cover": N_("Take cover"),
    "suppressive_fire": N_("Suppressive fire"), "medical_aid": N_("Medical aid"), "prayer": N_("Prayer"),
    "thrown_weapon": N_("Thrown weapon"), "stow_draw": N_("Draw, stow or switch"), "anointing": N_("Anointing"),
    "benediction": N_("Benediction"), "intercession": N_("Intercession"), "last_rites": N_("Last Rites"),
    "short_range": N_("short range"), "medium_range": N_("medium range"), "long_range": N_("long range"),
    "partial_cover": N_("Target in partial cover"), "full_cover": N_("Target in full cover"),
    "out_of_arc": N_("Attack from outside the target's arc"),
}  # fmt: skip


def term(key: str) -> str:
    return _(TERMS[key]) if key in TERMS else key


WOUND_TONE = {"seriously_wounded": "warn", "dying": "bad", "dead": "bad"}
STATUS_TONE = {"fear": "warn", "bleeding": "bad", "poisoned": "bad", "burning": "bad", "stunned": "warn",
               "disoriented": "warn", "pinned": "warn", "seriously_wounded": "bad", "dying": "bad", "dead": "bad"}  # fmt: skip
REMOVABLE = ("fear", "bleeding", "poisoned", "burning", "stunned", "disoriented", "pinned")
# The commands whose forms take dice typed in from the table (static/battles/dice_boxes.js draws their boxes).
DICE_COMMANDS = ("shoot", "throw", "melee", "move", "listen", "medical_aid", "prayer", "counter_attack",
                 "reaction_shot", "damage", "fall")  # fmt: skip


def _view(u: dict) -> dict:
    return u.get("view") or u.get("state") or {}


def _owner(u: dict) -> int | None:
    return u.get("owner", u.get("side"))


def _standing(u: dict) -> bool:
    return _view(u).get("wound", "none") == "none"


def board(view: dict, viewer_sides, *, can_write: bool) -> dict:
    game = view["game"]
    live = can_write and game.get("result") is None
    units = view["units"]
    sides = view.get("sides") or [{"index": i, "name": questions.side_name(game, i)} for i in game.get("sides", [])]
    names = {s["index"]: s["name"] for s in sides}
    groups = []
    for side in sides:
        cards = [_card(u, view, viewer_sides, live) for u in units if _owner(u) == side["index"]]
        standing = sum(1 for u in units if _owner(u) == side["index"] and _standing(u))
        subtitle = ngettext("{n} agent standing", "{n} agents standing", standing).format(n=standing)
        groups.append({"title": side["name"], "subtitle": subtitle, "units": cards})
    return {"banner": _banner(game, names), "turnbar": _turnbar(view, names, viewer_sides, live),
            "groups": groups, "footer": _footer(sides, game) if live else []}  # fmt: skip


def _banner(game: dict, names: dict) -> dict | None:
    result = game.get("result")
    if not result:
        return None
    winner = names.get(result.get("winner"))
    lines = [_("Rounds: {round}.").format(round=game.get("round"))]
    if result.get("confirmed_by") is not None:
        lines.append(_("Confirmed by {side}.").format(side=names.get(result["confirmed_by"], "")))
    if result.get("note"):
        lines.append(result["note"])
    return {"title": _("The scenario is over."),
            "text": _("{side} wins.").format(side=winner) if winner else _("No winner declared."),
            "lines": lines, "note": _("Undo the last events to play on.")}  # fmt: skip


def _turnbar(view: dict, names: dict, viewer_sides, live: bool) -> list[dict]:
    game, units = view["game"], view["units"]
    awaiting = view.get("awaiting") or {}
    out = [w.text(_("Game round {round}").format(round=game.get("round")), tone="now")]
    last = game.get("last_text")
    if last:
        out.append(w.text(_("Last (#{seq}): {text}").format(seq=last["seq"], text=render(last["text"])), tone="stats"))
    message = awaiting.get("message") or ""
    if message and awaiting.get("kind") != "over":
        mine = bool(set(awaiting.get("sides") or []) & set(viewer_sides)) and live
        if mine:
            line = _("Your answer: {what}") if awaiting.get("kind") == "question" else _("Your move: {what}")
        else:
            line = _("Next: {what}")
        out.append(w.text(line.format(what=message), tone="warning" if awaiting.get("kind") == "question" else "now"))
    asked = questions.current(game)
    if live and asked is not None and set(asked.get("sides") or [asked["side"]]) & set(viewer_sides):
        out += _question(asked, view)
    for side, name in names.items():
        agents = [u for u in units if _owner(u) == side]
        if agents and not any(_standing(u) for u in agents) and game.get("result") is None:
            out.append(w.text(_("{side} has no agent able to fight: the scenario may end (footer).").format(
                side=name), tone="warning"))  # fmt: skip
    out += [w.text(_note(note)) for note in game.get("notes") or []]
    return out


def _note(note) -> str:
    """A note of the start (an agent left at home), read in the reader's language; an older game kept a string."""
    if isinstance(note, dict):
        return f"{note.get('side', '')}: {render(note.get('text') or '')}"
    return str(note)


# Questions to this player -----------------------------------------------------------------------------------------
def _unit(view: dict, key: str) -> dict:
    return next((u for u in view["units"] if u["key"] == key), {"key": key, "name": key})


def _with_submit(prompt: dict, label: str) -> dict:
    prompt["submit"] = label
    return prompt


def _question(q: dict, view: dict) -> list[dict]:
    if q["kind"] == "counter":
        name, target = _unit(view, q["unit"])["name"], _unit(view, q["target"])["name"]
        return [_with_submit(w.prompt(
            _("Counter-attack (L212–214): {name} may strike back at {target} at once: a curse, no action spent, "
              "once a turn.").format(name=name, target=target),
            "counter_attack",
            options=[w.button(_("No counter-attack"), "counter_attack", {"strike": False})],
            odds=True, rule="counter_attack",
        ), _("Counter-attack"))]  # fmt: skip
    if q["kind"] == "reaction":
        target = _unit(view, q["target"])
        out = []
        for key, reason in q["shooters"].items():
            shooter = _unit(view, key)
            why = term("overwatch") if reason == "overwatch" else term("pinned")
            weapons = _weapon_choices(_view(shooter), ranged=True)
            prompt = w.prompt(
                _("{shooter} ({why}) may shoot {target} at once; no action is spent.").format(
                    shooter=shooter["name"], why=why, target=target["name"]),
                "reaction_shot",
                fields=[{"name": "shooter", "label": _("Shooter"), "kind": "choice",
                         "choices": [{"value": key, "label": shooter["name"]}]},
                        *([{"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": weapons}]
                          if weapons else []),
                        _range_field(), _cover_field()],
                options=[w.button(_("Hold fire"), "hold_fire", {"shooter": key})],
                odds=True, compare=("weapon",) if len(weapons) > 1 else (), rule="reaction_shot",
            )  # fmt: skip
            out.append(_with_submit(prompt, _("Shoot")))
        return out
    result = questions.result_text(view["game"], q["winner"])
    return [w.prompt(
        _("{side} proposes to end the scenario: {result}.").format(side=questions.side_name(view["game"], q["by"]),
                                                                   result=result),
        "confirm_end",
        options=[w.button(_("Confirm"), "confirm_end", {"accept": True}, secondary=False),
                 w.button(_("Play on"), "confirm_end", {"accept": False})],
        rule="confirm_end",
    )]  # fmt: skip


# Cards -------------------------------------------------------------------------------------------------------------
def _stats_line(v: dict) -> dict:
    items = [(term("hp"), f"{v.get('hp')}/{v.get('max_hp')}"), (term("ap"), f"{v.get('ap')}/{v.get('max_ap')}")]
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
        flags.append(w.flag(term(v["wound"]), WOUND_TONE.get(v["wound"], "warn"), rule=v["wound"]))
    if v.get("acting"):
        flags.append(w.flag(_("acting"), "good"))
    elif v.get("activated"):
        flags.append(w.flag(_("acted")))
    for stance, word in (("overwatch", "overwatch"), ("took_cover", "take_cover")):
        if v.get(stance):
            flags.append(w.flag(term(word), "good", rule=word))
    widgets = [_stats_line(v)]
    for status, entry in sorted((v.get("statuses") or {}).items()):
        if status in ("seriously_wounded", "dying", "dead"):
            continue
        label = term(status)
        if status == "stunned":
            label += f" x{entry.get('stacks', 1)}"
        widgets.append(w.status(label, entry.get("turns"), STATUS_TONE.get(status, "warn"),
                                rule=status if status in STATUS_TONE else ""))  # fmt: skip
    weapons = v.get("weapons") or []
    if weapons:
        lines = [_weapon_line(i, wp) for i, wp in enumerate(weapons)]
        widgets.append(w.text(" | ".join(lines)))
    if live and _owner(u) in viewer_sides:
        widgets += _controls(u, v, view, viewer_sides)
    elif live and _may_pick(v, view, viewer_sides):
        # Popcorn (L63): the side of the model that acted last picks the next one, on either side.
        widgets.append(w.button(_("Activate"), "activate", {"unit": key}, secondary=False))
    return {"key": key, "title": u["name"], "subtitle": subtitle, "flags": flags, "stats": None,
            "done": bool(v.get("activated")), "dead": not v.get("alive", True), "widgets": widgets}  # fmt: skip


def _weapon_name(i: int, wp: dict) -> str:
    return wp.get("name") or _("weapon {n}").format(n=i + 1)


def _weapon_line(i: int, wp: dict) -> str:
    line = _("{weapon}: damage {damage}").format(weapon=_weapon_name(i, wp), damage=wp.get("damage"))
    if wp.get("drawn"):
        line += _(" · drawn")
    if wp.get("capacity"):
        line += f" · {wp.get('ammo')}/{wp['capacity']}"
    return line


def _weapon_choices(v: dict, *, ranged: bool | None = None, thrown: bool = False) -> list[dict]:
    out = []
    for i, wp in enumerate(v.get("weapons") or []):
        if thrown and not wp.get("thrown"):
            continue
        if ranged is True and not (wp.get("ranged") or wp.get("thrown")):
            continue
        if ranged is False and (wp.get("ranged") or wp.get("reach_cm") is None):
            continue
        label = _weapon_name(i, wp) + (_(" (drawn)") if wp.get("drawn") else "")
        out.append({"value": str(i), "label": label})
    return out


def _enemies(u: dict, view: dict) -> list[dict]:
    return [{"value": x["key"], "label": x["name"]} for x in view["units"]
            if _owner(x) != _owner(u) and _view(x).get("alive", True)]  # fmt: skip


def _friends(u: dict, view: dict) -> list[dict]:
    return [{"value": x["key"], "label": x["name"]} for x in view["units"]
            if _owner(x) == _owner(u) and _view(x).get("alive", True)]  # fmt: skip


def _may_pick(v: dict, view: dict, viewer_sides) -> bool:
    """Whether this viewer may pick this model as the next: one that has not acted, while the players choose or
    the viewer's side picks, and no question waits."""
    game = view["game"]
    picker = game.get("picker")
    return (game.get("phase") == "pick" and not v.get("activated") and v.get("alive", True)
            and not game.get("questions") and (picker is None or picker in viewer_sides))  # fmt: skip


def _yes_no_field(name: str, label: str) -> dict:
    return {"name": name, "label": label, "kind": "choice",
            "choices": [{"value": "false", "label": _("no")}, {"value": "true", "label": _("yes")}]}  # fmt: skip


def _range_field() -> dict:
    return {"name": "range_band", "label": _("Shooting distance"), "kind": "choice",
            "choices": [{"value": b, "label": term(f"{b}_range")} for b in ("medium", "short", "long")]}  # fmt: skip


def _cover_field() -> dict:
    return {"name": "cover", "label": _("Cover"), "kind": "choice",
            "choices": [{"value": "none", "label": _("no cover")},
                        {"value": "partial", "label": term("partial_cover")},
                        {"value": "full", "label": term("full_cover")}]}  # fmt: skip


def _action(title: str, key: str, hint: str, command: str, fields: list[dict], submit: str, *, odds: bool = False,
            compare: tuple[str, ...] = ()) -> dict:  # fmt: skip
    """An action's form, folded under its name: the odds of its roll as it is filled (at_roll.py) and its rule."""
    prompt = w.prompt(hint, command, fields=fields, odds=odds, compare=compare, rule=command)
    return w.fold(title, [_with_submit(prompt, submit)], key=key)


def _controls(u: dict, v: dict, view: dict, viewer_sides=frozenset()) -> list[dict]:
    key = u["key"]
    out = []
    if _may_pick(v, view, viewer_sides):
        out.append(w.button(_("Activate"), "activate", {"unit": key}, secondary=False))
    if v.get("acting") and not view["game"].get("questions"):
        out += _acting(u, v, view)
    out.append(_rulings(key, v))
    return out


def _acting(u: dict, v: dict, view: dict) -> list[dict]:
    out = []
    enemies = _enemies(u, view)
    if v.get("actions_left"):
        ranged = _weapon_choices(v, ranged=True)
        if enemies and ranged:
            out.append(_action(term("shoot"), "shoot", _("A BS test with the shooting modifiers (L142–166)."),
                               "shoot", [
                {"name": "target", "label": _("Target"), "kind": "choice", "choices": enemies},
                {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": ranged},
                _range_field(), _cover_field(),
                {"name": "mode", "label": _("Fire"), "kind": "choice",
                 "choices": [{"value": m, "label": _(FIRE_MODE[m])} for m in ("single", "burst", "auto")]},
                {"name": "height_cm", "label": _("Shooter higher than the target, cm"), "kind": "number",
                 "min": -500, "max": 500},
                _yes_no_field("out_of_arc", term("out_of_arc")),
            ], term("shoot"), odds=True, compare=_compared(enemies, ranged)))  # fmt: skip
        thrown = _weapon_choices(v, thrown=True)
        if enemies and thrown:
            out.append(_action(term("thrown_weapon"), "throw", _("Up to 1.5 × TN cm; a miss scatters (L172–174)."),
                               "throw", [
                {"name": "target", "label": _("Target"), "kind": "choice", "choices": enemies},
                {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": thrown},
                {"name": "distance_cm", "label": _("Distance (cm)"), "kind": "number", "min": 0, "max": 500},
                _range_field(), _cover_field(),
            ], _("Throw"), odds=True, compare=_compared(enemies, thrown)))  # fmt: skip
        if enemies:
            melee = [{"value": "", "label": _("the best drawn, else fists")}, *_weapon_choices(v, ranged=False)]
            out.append(_action(term("fight"), "melee", _("A WS test with the melee modifiers (L176–214)."),
                               "melee", [
                {"name": "target", "label": _("Opponent"), "kind": "choice", "choices": enemies},
                {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": melee},
                {"name": "distance_cm", "label": _("Distance now (cm)"), "kind": "number", "min": 0, "max": 50},
                {"name": "start_distance_cm", "label": _("Distance when the activation began, cm (charge, L204)"),
                 "kind": "number", "min": 0, "max": 500},
                {"name": "height_cm", "label": _("Attacker higher, cm (L200)"), "kind": "number", "min": -500,
                 "max": 500},
                _yes_no_field("out_of_arc", term("out_of_arc")),
            ], term("fight"), odds=True, compare=_compared(enemies, melee)))  # fmt: skip
        out.append(_action(term("move"), "move", _("Up to DX cm; difficult terrain halves the move (L79–85)."),
                           "move", [
            {"name": "distance_cm", "label": _("Open ground (cm)"), "kind": "number", "min": 0, "max": 200},
            {"name": "difficult_cm", "label": _("Difficult terrain (cm)"), "kind": "number", "min": 0, "max": 200},
            {"name": "jump_across_cm", "label": _("Jump across (cm)"), "kind": "number", "min": 0, "max": 200},
            {"name": "jump_up_cm", "label": _("Jump up (cm)"), "kind": "number", "min": 0, "max": 200},
        ], term("move"), odds=True))  # fmt: skip
        out.append(w.buttons([w.button(term("aim"), "aim", {"same_point": True}),
                              w.button(term("listen"), "listen"),
                              w.button(term("overwatch"), "overwatch"),
                              w.button(term("take_cover"), "take_cover")]))  # fmt: skip
        magazines = [x for x in ranged if (v.get("weapons") or [])[int(x["value"])].get("capacity")]
        if enemies and magazines:
            out.append(_action(term("suppressive_fire"), "suppress", _("Everyone at the point and on the line "
                                                                           "is Pinned; half the magazine (L105–107)."),
                               "suppressive_fire", [
                {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": magazines},
                {"name": "targets", "label": _("Target"), "kind": "choice", "choices": enemies},
            ], term("suppressive_fire")))  # fmt: skip
        if v.get("medkit"):
            out.append(_action(term("medical_aid"), "aid", _("A med-kit and an HL test (L115–123)."),
                               "medical_aid", [
                {"name": "target", "label": _("Patient"), "kind": "choice", "choices": _friends(u, view)},
                {"name": "mode", "label": _("Aid"), "kind": "choice",
                 "choices": [{"value": m, "label": _(AID_MODE[m])} for m in ("restore_hp", "revive", "stabilize")]},
                {"name": "remove_status", "label": _("Also remove a status"), "kind": "choice",
                 "choices": [{"value": "", "label": _("none")},
                             *[{"value": s, "label": term(s)} for s in REMOVABLE]]},
            ], term("medical_aid"), odds=True, compare=("target",) if len(_friends(u, view)) > 1 else ()))  # fmt: skip
        if "prayer" in {p.lower() for p in v.get("perks") or []} and not v.get("prayed_this_round"):
            everyone = [{"value": x["key"], "label": x["name"]} for x in view["units"] if _view(x).get("alive", True)]
            out.append(_action(term("prayer"), "pray", _("Once a round, one target (L125–138)."), "prayer", [
                {"name": "prayer", "label": term("prayer"), "kind": "choice",
                 "choices": [{"value": k, "label": term(k)}
                             for k in ("anointing", "benediction", "intercession", "last_rites")]},
                {"name": "target", "label": _("Target"), "kind": "choice", "choices": everyone},
                {"name": "anointing", "label": _("Anointing: on a success"), "kind": "choice",
                 "choices": [{"value": "heal", "label": _("heal 1 HP")},
                             {"value": "remove_status", "label": _("remove a status")}]},
                {"name": "remove_status", "label": _("The status"), "kind": "choice",
                 "choices": [{"value": "", "label": _("none")},
                             *[{"value": s, "label": term(s)} for s in REMOVABLE]]},
            ], _("Pray"), odds=True))  # fmt: skip
    out.append(_weapons_fold(v))
    end = w.button(_("End activation"), "end_activation", secondary=False)
    if set(v.get("statuses") or {}) & set(TICKING):
        # Its statuses tick now (§3.17): the odds of the upkeep, and its rule, beside the button.
        out.append(w.prompt(_("Its statuses tick at the end of the activation (§3.17)."), "end_activation",
                            options=[end], odds=True, rule="end_activation"))  # fmt: skip
    else:
        out.append(end)
    return out


def _compared(enemies: list[dict], weapons: list[dict]) -> tuple[str, ...]:
    """The fields a "which …?" view may rank: the target when there is a choice, the weapon likewise."""
    return tuple(f for f, choices in (("target", enemies), ("weapon", weapons)) if len(choices) > 1)


def _weapons_fold(v: dict) -> dict:
    """Draw, stow or switch (free once an activation, L71–73) and reload (an action, L95–99)."""
    widgets = []
    everything = _weapon_choices(v)
    if everything:
        widgets.append(_with_submit(w.prompt(_("Free once an activation (L71–73)."), "ready_weapon", rule="ready_weapon", fields=[
            {"name": "weapon", "label": _("Weapon"), "kind": "choice", "choices": everything},
            {"name": "how", "label": _("How"), "kind": "choice",
             "choices": [{"value": "draw", "label": _("draw it")}, {"value": "stow", "label": _("stow it")},
                         {"value": "switch", "label": _("switch to it")}]},
        ]), term("stow_draw")))  # fmt: skip
    if v.get("actions_left") and v.get("spare_magazines"):
        reload = [w.button(_("Reload {weapon}").format(weapon=_weapon_name(i, wp)), "reload", {"weapon": i})
                  for i, wp in enumerate(v.get("weapons") or []) if wp.get("capacity")]  # fmt: skip
        if reload:
            widgets.append(w.buttons(reload, help=_("Spare magazines: {n} (L97).").format(n=v["spare_magazines"])))
    return w.fold(_("Weapons"), widgets, key="weapons")


def _rulings(key: str, v: dict) -> dict:
    """The GM's rulings by hand: the book leaves falls, traps, Fear and water on a fire to the table."""
    widgets = [
        w.buttons([
            w.button(_("HP −1"), "adjust", {"unit": key, "hp": v.get("hp", 0) - 1}),
            w.button(_("HP +1"), "adjust", {"unit": key, "hp": v.get("hp", 0) + 1},
                     disabled=v.get("hp") == v.get("max_hp")),
            w.button(_("AP −1"), "adjust", {"unit": key, "ap": max(0, v.get("ap", 0) - 1)}, disabled=not v.get("ap")),
            w.button(_("Fear test"), "fear_test", {"unit": key}),
        ]),
        _with_submit(w.prompt(_("Damage by hand to {name}: AP first, then HP (L220).").format(name=v.get("name")),
                              "damage", odds=True, rule="damage", fields=[
            {"name": "unit", "label": _("Agent"), "kind": "choice", "choices": [{"value": key, "label": v.get("name")}]},
            {"name": "amount", "label": _("Damage amount"), "kind": "number", "min": 0, "max": 99},
        ]), _("Deal damage")),
        _with_submit(w.prompt(_("{name} falls: over DX/2 cm hurts, and a TN test against Stunned (L232–234).").format(
            name=v.get("name")), "fall", odds=True, rule="fall", fields=[
            {"name": "unit", "label": _("Agent"), "kind": "choice", "choices": [{"value": key, "label": v.get("name")}]},
            {"name": "height_cm", "label": _("Height (cm)"), "kind": "number", "min": 0, "max": 200},
        ]), _("Fall")),
        _with_submit(w.prompt(_("A status by hand (water on a fire, the GM's call)."), "set_status", rule="set_status",
                              fields=[
            {"name": "unit", "label": _("Agent"), "kind": "choice", "choices": [{"value": key, "label": v.get("name")}]},
            {"name": "status", "label": _("The status"), "kind": "choice",
             "choices": [{"value": s, "label": term(s)} for s in REMOVABLE]},
            {"name": "on", "label": _("Give or take"), "kind": "choice",
             "choices": [{"value": "true", "label": _("give")}, {"value": "false", "label": _("take away")}]},
        ]), _("Set")),
    ]  # fmt: skip
    return w.fold(_("By hand (a ruling)"), widgets, key="rulings")


def _footer(sides: list[dict], game: dict) -> list[dict]:
    if any(q["kind"] == "end" for q in game.get("questions") or []):
        return []
    items = [w.button(_("{side} wins").format(side=s["name"]), "propose_end", {"winner": s["index"]},
                      attrs={"confirm": _("Propose to end the scenario with {side} the winner?").format(
                          side=s["name"])})
             for s in sides]  # fmt: skip
    items.append(w.button(_("No winner"), "propose_end", {"winner": "none"}))
    return [w.buttons(items, title=_("End the scenario (the book has no victory conditions: propose the result, the "
                                     "other player confirms)"), folded=True)]  # fmt: skip
