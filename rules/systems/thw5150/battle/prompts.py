"""What each phone is told after every roll (issue «the other phone cannot tell what it owes»): the question the
book puts to a player, on his own phone, with the dice to type in; the same question as a waiting line on the other
phone; and, on both phones, what the last roll means and what each side must do next — which test, by whom, or that
none is owed and why — in the book's words, sides named by their rosters and players.
"""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import _
from rules.systems.thw5150 import core, words
from rules.systems.thw5150.actions.common import dice_count, leader_die_rep, readers
from rules.systems.thw5150.actions.morale import STAY_OR_RUN
from rules.systems.thw5150.actions.reactions import BEING_CHARGED, IN_SIGHT, RECEIVED_FIRE
from rules.systems.thw5150.battle.units import ON_TABLE, side_name
from rules.systems.thw5150.glossary import ENGLISH, GLOSSARY

SPECS = {"received_fire": RECEIVED_FIRE, "in_sight": IN_SIGHT, "being_charged": BEING_CHARGED,
         "stay_or_run": STAY_OR_RUN}  # fmt: skip


def test_name(key: str) -> str:
    """«ОБСТРЕЛЯН», «В ПОЛЕ ВИДИМОСТИ»…: the table's name as the reader's book prints it."""
    return _(ENGLISH[key]) if key in ENGLISH else GLOSSARY.get(key, key)


class Table:
    """The board's view of the battle, read the same way on every phone."""

    def __init__(self, view: dict, viewer_sides: frozenset[int], can_write: bool, settings: dict):
        self.game = view.get("game", {})
        units = view.get("units") or []
        if isinstance(units, dict):
            units = [{"key": k, **v} for k, v in units.items()]
        self.units = {u["key"]: u for u in units}
        self.sides = {s["index"]: s for s in view.get("sides") or []}
        self.viewer = viewer_sides
        self.can_write = can_write
        self.settings = settings

    def st(self, key: str) -> dict:
        u = self.units.get(key) or {}
        return u.get("view") or u.get("state") or u

    def side_of(self, key: str):
        u = self.units.get(key) or {}
        return u.get("owner", u.get("side"))

    def name(self, key: str) -> str:
        return (self.units.get(key) or {}).get("name", key)

    def names(self, keys) -> str:
        return ", ".join(self.name(k) for k in keys)

    def side(self, index) -> str:
        """«Патруль (Алиса)»: the roster's name and its player's."""
        s = self.sides.get(index) or {}
        name = s.get("name") or side_name(self.game, index)
        return _("{side} ({player})").format(side=name, player=s["player"]) if s.get("player") else name

    def all_sides(self) -> list:
        if self.sides:
            return sorted(self.sides)
        known = {int(k) for k in (self.game.get("side_names") or {})} | {self.side_of(k) for k in self.units}
        return sorted(s for s in known if s is not None)


# The dice a question needs, labelled in the order the test reads them ---------------------------------------
def d6(label: str) -> dict:
    return {"label": label, "faces": 6}


def group_dice(spec, members: list[dict], settings: dict) -> list[dict]:
    """The group's dice, each Leader's own three (when that setting is on) and the Leader Die, as
    actions/common.roll_group_test reads them."""
    who = readers(members, settings)
    own = settings.get("leader_dice") == "own_three_dice"
    counts = {i: dice_count(members[i], spec) for i in who}
    own_leaders = [i for i in who if own and members[i].get("leader") and spec.leader_three]
    shared = max((n for i, n in counts.items() if i not in own_leaders), default=0)
    boxes = [d6(_("group d6 {n}").format(n=n + 1)) for n in range(shared)]
    for i in own_leaders:
        boxes += [d6(_("{name}: own d6 {n}").format(name=members[i]["name"], n=n + 1)) for n in range(counts[i])]
    if leader_die_rep(spec, members, True) is not None:
        boxes.append(d6(_("Leader Die")))
    return boxes


def members_of(t: Table, keys, testers, conditions) -> list[dict]:
    out = []
    for k in keys:
        st = t.st(k)
        if st.get("condition") in conditions:
            out.append({"name": t.name(k), "rep": st["rep"], "leader": st.get("leader", False),
                        "tests": k in testers, "condition": st["condition"],
                        "covering_fire": st.get("covering_fire", False)})  # fmt: skip
    return out


def group_keys(t: Table, group: str) -> list[str]:
    return [k for k in t.units if t.st(k).get("group") == group]


def question_dice(t: Table, q: dict) -> list[dict]:
    kind = q["kind"]
    if kind == "received_fire":
        conditions = (core.FINE, core.DUCK_BACK, core.KNOCKED_DOWN, core.HUNKER_DOWN)  # commands.AnswerReaction
        members = members_of(t, group_keys(t, q["group"]), set(q["testers"]), conditions)
        members = [m for m in members if not (m["tests"] and m["condition"] == core.HUNKER_DOWN)] or members
    elif kind == "in_sight":
        members = members_of(t, group_keys(t, q["group"]), set(q["testers"]), ON_TABLE)
    elif kind == "being_charged":
        groups = {t.st(k).get("group") for k in q["testers"]}
        keys = [k for k in t.units if t.st(k).get("group") in groups]
        members = members_of(t, keys, set(q["testers"]), (core.FINE, core.DUCK_BACK))
    elif kind == "stay_or_run":
        keys = [k for k in t.units if t.side_of(k) == q["side"]]
        members = members_of(t, keys, set(keys), ON_TABLE)
        up = [m for m in members if m["leader"] and m["condition"] == core.FINE]
        chief = max(up, key=lambda m: m["rep"])["name"] if up else None  # tables.StayOrRun: one force Leader
        for m in members:
            m["leader"] = m["name"] == chief
    elif kind == "melee":
        boxes = []
        for k in [q["fighter"], *q["opponents"]]:
            n = 1 if t.st(k).get("prone") else 2
            boxes += [d6(_("{name}: melee d6 {n}").format(name=t.name(k), n=i + 1)) for i in range(n)]
        return [*boxes, d6(_("damage d6 (only if one side won)"))]
    else:
        return []
    return group_dice(SPECS[kind], members, t.settings) if members else []


# The question on the answering phone --------------------------------------------------------------------------
def _choice(name: str, label: str, choices: list[tuple[str, str]]) -> dict:
    return {"name": name, "label": label, "kind": "choice", "choices": [{"value": v, "label": c} for v, c in choices]}


def _hero_field(t: Table, keys) -> list[dict]:
    if not any(t.st(k).get("hero") for k in keys):
        return []
    levels = [("", _("roll the dice"))] + [(str(n), words.outcome(f"pass {n}")) for n in (2, 1, 0)]
    return [_choice("hero_choice", _("The Hero chooses his result"), levels)]


def what_is_asked(t: Table, q: dict) -> str:
    """The question in a line: which test, for whom, and why the book asks it."""
    kind = q["kind"]
    if kind == "received_fire":
        return _("test «{test}»: {names}; shooter {shooter}, no damage (L926)").format(
            test=test_name("received_fire"), names=t.names(q["testers"]), shooter=t.name(q["shooter"])
        )
    if kind == "in_sight":
        return _("test «{test}»: {names}; {mover} came into their sight (L598–601)").format(
            test=test_name("in_sight"), names=t.names(q["testers"]), mover=t.name(q["mover"])
        )
    if kind == "being_charged":
        return _("test «{test}»: {names}; charged by {charger} (L1062)").format(
            test=test_name("being_charged"), names=t.names(q["testers"]), charger=t.name(q["charger"])
        )
    if kind == "melee":
        return _("the melee: {fighter} against {opponents} (L1082–1087)").format(
            fighter=t.name(q["fighter"]), opponents=t.names(q["opponents"])
        )
    if kind == "stay_or_run":
        return _("test «{test}»: {casualties} casualties of {initial} figures (L1189–1191)").format(
            test=test_name("stay_or_run"), casualties=q["casualties"], initial=q["initial"]
        )
    why = {"in_sight": "in_sight", "charged": "being_charged"}.get(q.get("why", ""), "received_fire")
    return _("may fire now: {names} (the result of «{test}»)").format(names=t.names(q["shooters"]), test=test_name(why))


def ask(t: Table, q: dict, shoot_form) -> list[dict]:
    """The question as a form on its player's phone: typed-in dice, or none for a server roll."""
    kind = q["kind"]
    head = _("Your answer: {what}.").format(what=what_is_asked(t, q))
    empty = _("Leave the dice empty and the server rolls them.")
    fields: list[dict] = []
    if kind == "return_fire":
        out = [w.text(head, "warning")]
        for key, rule in q["shooters"].items():
            if key not in t.units:
                continue
            targets = ([rule["at"]] if rule.get("at") else
                       [k for k in t.units if t.side_of(k) != q["side"] and t.st(k).get("condition") in ON_TABLE])  # fmt: skip
            out.append(shoot_form(t.units[key], [t.units[k] for k in targets if k in t.units], title=t.name(key)))
        out.append(w.button(_("Do not fire"), "decline_return_fire", {}))
        return out
    command = {"received_fire": "answer_reaction", "in_sight": "in_sight", "being_charged": "answer_charge",
               "melee": "melee", "stay_or_run": "stay_or_run"}[kind]  # fmt: skip
    if kind == "received_fire":
        fields.append(_choice("fired_from", _("Fired on from"),
                              [("front", _("the front")), ("flank_or_rear", _("the flank or rear"))]))  # fmt: skip
        fields += _hero_field(t, q["testers"])
    elif kind == "being_charged":
        fields.append(_choice("charged_from", _("Charged from"),
                              [("front", _("the front")), ("flank_or_rear", _("the flank or rear"))]))  # fmt: skip
        fields += _hero_field(t, q["testers"])
    elif kind == "in_sight" and any(not t.st(k).get("in_cover") for k in q["testers"]):
        fields.append(_choice("in_the_open", _("In the open, on pass 1"),
                              [("duck_back", words.outcome(core.DUCK_BACK)), ("prone", words.outcome("prone"))]))  # fmt: skip
    elif kind == "stay_or_run":
        fields.append(_choice("motivation", test_name("motivation"),
                              [(m, test_name(f"motivation.{m}")) for m in core.MOTIVATIONS]))  # fmt: skip
    # One tap answers with the server's dice (from the front, no Hero's choice); the form takes the table's dice.
    roll = w.button(_("Roll for me"), command, {"motivation": core.MOTIVATIONS[0]} if kind == "stay_or_run" else {},
                    secondary=False)  # fmt: skip
    # the test's exact odds for these figures as they stand (at_roll.py), and its rule at hand
    form = w.prompt(f"{head} {empty}", command, fields=fields, dice=question_dice(t, q),
                    options=[] if kind == "stay_or_run" else [roll], odds=True, rule=command)  # fmt: skip
    form["submit"] = _("Answer")
    return [form]


def awaited(game: dict, q: dict, names: dict) -> str:
    """Whom the game waits for, as a refused command says it (409)."""
    t = Table({"game": game, "units": {k: {"name": n} for k, n in names.items()}}, frozenset(), False, {})
    if q["kind"] == "return_fire":
        return _("{side} may fire first.").format(side=side_name(game, q["side"]))
    what = {"received_fire": "received_fire", "in_sight": "in_sight", "being_charged": "being_charged",
            "stay_or_run": "stay_or_run"}.get(q["kind"])  # fmt: skip
    if what is None:
        return _("{side} fights the melee first: {fighter} against {opponents}.").format(
            side=side_name(game, q["side"]), fighter=t.name(q["fighter"]), opponents=t.names(q["opponents"])
        )
    return _("{side} takes «{test}» first.").format(side=side_name(game, q["side"]), test=test_name(what))


def question(t: Table, shoot_form) -> list[dict]:
    """The first pending question: a form for its player, a waiting line for everyone else."""
    pending = t.game.get("pending") or []
    if not pending or t.game.get("result") is not None:
        return []
    q = pending[0]
    if t.can_write and q["side"] in t.viewer:
        return ask(t, q, shoot_form)
    return [w.text(_("Waiting for {side}: {what}.").format(side=t.side(q["side"]), what=what_is_asked(t, q)),
                   "warning")]  # fmt: skip


# What the last roll means, and what each side does next ------------------------------------------------------
def _recovery_due(name: str, condition: str) -> str:
    return _("{name}: {condition} — at its next activation it takes «{test}» (L741–742, L990–991).").format(
        name=name, condition=words.outcome(condition), test=test_name("recovery")
    )


def _condition_line(name: str, value: str) -> str | None:
    """What a new condition obliges its figure to, in the book's words."""
    if value in (core.KNOCKED_DOWN, core.DUCK_BACK):
        return _recovery_due(name, value)
    if value in core.CASUALTIES:
        return _("{name}: {condition} — it acts no more in this battle and counts as a casualty for «{test}» "
                 "(L737–738, L1190–1191).").format(name=name, condition=words.outcome(value),
                                                   test=test_name("stay_or_run"))  # fmt: skip
    if value == core.RUNAWAY:
        return _("{name}: {condition} — at full speed to a building away from the enemy or off the nearest table "
                 "edge (L1002–1009).").format(name=name, condition=words.outcome(value))  # fmt: skip
    if value == core.HUNKER_DOWN:
        return _("{name}: {condition} — it takes no action; fired on again it runs away (L995–998).").format(
            name=name, condition=words.outcome(value)
        )
    if value == core.FINE:
        return _("{name} is back in the fight and may act at once (L756).").format(name=name)
    return None


def _shot_lines(t: Table, p: dict) -> list[str]:
    lines = []
    rows = (p.get("result") or {}).get("targets") or []
    for key, row in zip(p.get("targets", []), rows, strict=False):
        name, result = t.name(key), row.get("result")
        if result in (core.KNOCKED_DOWN, *core.CASUALTIES):
            lines.append(_("{name}: {condition}. No «{test}» test: it was hit and hurt, and only a figure fired on "
                           "without damage takes it (L926).").format(
                name=name, condition=words.outcome(result), test=test_name("received_fire")))  # fmt: skip
            lines.append(_condition_line(name, result))
        elif row.get("received_fire"):
            lines.append(_("{name}: no damage — its side takes «{test}» (L926).").format(
                name=name, test=test_name("received_fire")))  # fmt: skip
        elif result == core.NO_DAMAGE:
            lines.append(_("{name}: no damage; it is {condition}, so it takes no «{test}» test (§5 A23).").format(
                name=name, condition=words.outcome(t.st(key).get("condition", core.FINE)),
                test=test_name("received_fire")))  # fmt: skip
    if (p.get("result") or {}).get("out_of_ammo"):
        lines.append(_("{name}: out of ammo — reloading takes a whole activation, with no firing (L777–778).").format(
            name=t.name(p["shooter"])))  # fmt: skip
    return [line for line in lines if line]


def last_roll_lines(t: Table, describe) -> list[str]:
    """The activation's last roll in the log's words, then what it obliges anyone to."""
    last = t.game.get("last")
    if not last:
        return []
    p, kind = last["payload"], last["type"]
    lines = [_("Last roll (#{seq}): {text}").format(seq=last["seq"], text=describe(last))]
    if kind == "shot":
        return lines + _shot_lines(t, p)
    if kind == "charge" and p.get("stays_and_fires"):
        lines.append(_("{name} stays in cover and fires if it can (L1054).").format(name=t.name(p["charger"])))
    if kind == "melee" and any(r.get("result") == "tie" for r in (p.get("result") or {}).get("pairs", [])):
        lines.append(_("Equal: the melee goes on, the next round when one of them activates (L1135–1138)."))
    for e in p.get("effects", []):
        if e.get("kind") == "condition" and e.get("unit") in t.units:
            line = _condition_line(t.name(e["unit"]), e["value"])
            if line:
                lines.append(line)
        elif e.get("kind") == "stopped_fighting" and e.get("unit") in t.units:
            lines.append(_("{name} stops fighting: no advance, fire only in reaction, and it tries to leave the "
                           "table (L1223–1227).").format(name=t.name(e["unit"])))  # fmt: skip
    if kind == "stay_or_run" and not any(e.get("kind") == "stopped_fighting" for e in p.get("effects", [])):
        lines.append(_("{side} keeps fighting.").format(side=t.side(p["side"])))
    return lines


def _may_act(t: Table, side, die: int) -> bool:
    """L426–428: a figure of Rep ≥ die, or in a group whose Leader (in normal state or ducked back) has it."""
    mine = [k for k in t.units if t.side_of(k) == side]
    for k in mine:
        st = t.st(k)
        if st.get("condition") not in ON_TABLE:
            continue
        group = [t.st(x) for x in mine if t.st(x).get("group") == st.get("group")]
        leader = max((g["rep"] for g in group if g.get("leader") and g.get("condition") in (core.FINE, core.DUCK_BACK)),
                     default=0)  # fmt: skip
        if max(st["rep"], leader) >= die:
            return True
    return False


def side_lines(t: Table, settings: dict, stay_or_run_due) -> list[dict]:
    """One line per side: the test it owes now, or that none is owed and why."""
    game = t.game
    pending = game.get("pending") or []
    order, active = game.get("order") or [], game.get("active")
    later = order[order.index(active) + 1 :] if active in order else []
    out = []
    for side in t.all_sides():
        who = t.side(side)
        if pending:
            q = pending[0]
            if q["side"] == side:
                text = _("{side} answers: {what}.").format(side=who, what=what_is_asked(t, q))
            else:
                text = _("{side}: no test now — waiting for {other} to answer.").format(
                    side=who, other=t.side(q["side"])
                )
            out.append(w.text(text, "now" if q["side"] == side else "muted"))
            continue
        die = (game.get("dice") or {}).get(str(side))
        if game.get("phase") == "roll":
            text = _("{side}: no test owed — roll the activation dice (L413–419).").format(side=who)
        elif game.get("doubles"):
            text = _(
                "{side}: doubles — nobody moves or fires; figures may reload, then end the turn (L420–421)."
            ).format(side=who)
        elif game.get("active") == side:
            text = _("{side}: active on a {die} — figures of Rep {die} or more act, or those whose group Leader has it "
                     "(L426–428); then «End the activation».").format(side=who, die=die)  # fmt: skip
            if not _may_act(t, side, die):
                text = _("{side}: active on a {die}, but no figure has the Rep to act (L426–428): «End the "
                         "activation».").format(side=who, die=die)  # fmt: skip
        elif side in later:
            text = _("{side}: no test owed — it acts after {active} (die {die}).").format(
                side=who, active=t.side(game.get("active")), die=die
            )
        else:
            text = _("{side}: no test owed — it has acted this turn.").format(side=who)
        out.append(w.text(text, "now" if game.get("active") == side else "muted"))
        owing = [k for k in t.units if t.side_of(k) == side and t.st(k).get("condition") in (core.KNOCKED_DOWN,
                                                                                          core.DUCK_BACK)]  # fmt: skip
        for k in owing:
            out.append(w.text(_recovery_due(t.name(k), t.st(k)["condition"]), "muted"))
        if stay_or_run_due(game, side, settings):
            out.append(w.text(_("{side}: its casualties reached the mark — at the end of the activation it takes "
                                "«{test}» (L1189–1191).").format(side=who, test=test_name("stay_or_run")), "warning"))  # fmt: skip
    return out


def next_steps(t: Table, settings: dict, describe, stay_or_run_due) -> list[dict]:
    """On both phones: the last roll and what it means, then what each side must do next."""
    if t.game.get("result") is not None:
        return []
    out = [w.text(line, "now" if i == 0 else "muted") for i, line in enumerate(last_roll_lines(t, describe))]
    said = {x["value"] for x in out}
    out.append(w.text(_("What next:"), "now"))
    return out + [x for x in side_lines(t, settings, stay_or_run_due) if x["value"] not in said]
