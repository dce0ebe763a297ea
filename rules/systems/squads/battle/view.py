"""What a phone shows of a unit (its view, its flags and rows on the card) and the log in the book's words; the
board itself is board.py."""

from __future__ import annotations

from rules.contract import board as w
from rules.i18n import N_, _
from rules.systems.squads import names
from rules.systems.squads.battle import units as U
from rules.systems.squads.battle.rules import stance_rule

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


def card_flags(view: dict) -> list[dict]:
    flags = []
    if view["kind"] == "squad":
        if view["suppressed_count"]:
            # −1 to the next activation roll per suppressed figure; cleared by that roll (L31)
            n = view["suppressed_count"]
            flags.append(w.status(_("Suppressed: {n} (−{n} to activation)").format(n=n), None, "warn",
                                  rule=f"suppressed_{view['level']}"))  # fmt: skip
        if view["casualties"]:
            flags.append(w.flag(_("Casualties: {n}").format(n=view["casualties"]), "bad", rule="casualties"))
        if view.get("melee"):
            flags.append(w.flag(_("In melee"), "bad", rule="in_melee"))
    else:
        for key, label in (("immobilised", N_IMMOBILISED), ("destroyed", N_DESTROYED)):
            if view.get(key):
                flags.append(w.flag(_(label), "bad", rule=key))
        if view.get("stun_next_turn") or view.get("stunned"):
            flags.append(w.status(_("Crew stunned"), 1, "warn", rule="crew_stunned"))
    if view.get("on_guard"):
        flags.append(w.flag(_("On Guard"), "good", rule="on_guard"))
    if view.get("stance") and view["stance"] not in ("on_guard",):
        flags.append(w.flag(names.action(view["stance"]), rule=stance_rule(view["stance"])))
    return flags


def figure_rows(view: dict) -> dict:
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


def weapon_rows(view: dict) -> dict:
    """A vehicle's weapons by number (the owner picks the one lost by it, L87)."""
    items = [{"key": str(x["n"]), "title": f"{x['n']}. {names.weapon(x['weapon'])}", "subtitle": "",
              "flags": [w.flag(names.damage("weapon_destroyed"), "bad")] if x["destroyed"] else [], "widgets": [], "dead": x["destroyed"]}
             for x in view.get("weapons", [])]  # fmt: skip
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


def describe_event(kind: str, p: dict, units: dict, sides: dict) -> str:
    def name(key):
        return units.get(key, key)

    if kind == "turn.started":
        first = p["initiative"]["first"]
        return _("Turn {turn}: {side} has the initiative.").format(turn=p["turn"], side=sides.get(first, first))
    if kind == "activation.rolled":
        if p["success"]:
            return _("{unit}: activation passed (d6 {die}).").format(unit=name(p["unit"]), die=p["die"])
        passes = p.get("passes_to")
        if passes is not None:  # L12: the other player goes on activating
            text = (_("{unit}: activation failed (d6 {die}), it retreats; the initiative passes to {side}.")
                    if p["consequence"] == "withdraw"
                    else _("{unit}: activation failed (d6 {die}), it goes On Guard; the initiative passes to {side}."))  # fmt: skip
            return text.format(unit=name(p["unit"]), die=p["die"], side=sides.get(passes, passes))
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
        line = text.format(shooter=name(p["shooter"]), target=name(p["target"]), hits=p["hits"], unsaved=p["unsaved"])
        effects = [names.damage(k) for k in p.get("vehicle_effects") or []]
        return f"{line} {'; '.join(effects)}." if effects else line  # L85–89
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
        if p.get("reason") == "destroyed":
            if winner is None:
                return _("The battle is over: no side has a unit left in the game; a draw.")
            return _("The battle is over: only {side} has units left in the game; victory of {side}.").format(
                side=sides.get(winner, winner)
            )
        if winner is None:
            return _("The battle is over.")
        return _("The battle is over: victory of {side}.").format(side=sides.get(winner, winner))
    return kind
