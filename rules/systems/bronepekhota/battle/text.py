"""The readable log of a «Бронепехота» battle: one line per event, in the book's words."""

from __future__ import annotations

from rules.i18n import N_, _

EFFECT_TEXT = {
    "damage": N_("{unit}: {amount} damage"),
    "destroyed": N_("{unit} is destroyed"),
    "repair": N_("{unit}: repaired {amount}"),
    "ammo_spent": N_("{unit}: ammo −{amount}"),
    "ammo_refresh": N_("{unit}: ammo refilled"),
    "shot_fired": N_("{unit} fired"),
    "pilot_killed": N_("{unit}: the pilot is killed, the vehicle has no pilot"),
    "pilot_left": N_("{unit}: the pilot is out, the vehicle has no pilot"),
    "pilot_boarded": N_("{unit}: a new pilot takes the controls"),
    "landed": N_("{unit} lands"),
    "flying": N_("{unit} takes off"),
    "lying": N_("{unit} falls over"),
    "stood_up": N_("{unit} stands up"),
    "captured": N_("{unit} is captured"),
    "soldier_killed": N_("{unit}: soldier {soldier} killed"),
    "panic": N_("{unit}: soldier {soldier} panics"),
    "deserted": N_("{unit}: soldier {soldier} deserts"),
    "became_pilot": N_("{unit}: soldier {soldier} becomes a pilot"),
    "dismounted": N_("{unit}: soldier {soldier} is on foot"),
    "action_used": N_("{unit}: {action} used"),
    "activation_used": N_("{unit} spends its whole activation"),
    "activated": N_("{unit} is done for the round"),
    "new_round": N_("{unit}: new round"),
    "tow_start": N_("{unit}: towing starts"),
    "tow_stop": N_("{unit}: towing stops"),
    "emergency_landing": N_("{unit} makes an emergency landing"),
    "set_strength": N_("{unit}: strength set to {value}"),
    "set_ammo": N_("{unit}: ammo set to {value}"),
    "set_flag": N_("{unit}: {flag} {onoff}"),
    "set_soldier": N_("{unit}: soldier {soldier} {what}"),
    "in_melee": N_("{unit}: in melee {onoff}"),
}


def effect_text(effect: dict, unit_name: str) -> str:
    template = _(EFFECT_TEXT.get(effect.get("kind"), "{unit}: " + str(effect.get("kind"))))
    what = ", ".join(f"{k} {_('yes') if v else _('no')}" for k, v in effect.items() if k in ("alive", "on_field"))
    flag = effect.get("flag", "")
    if effect.get("soldier") is not None and effect.get("kind") == "set_flag":
        flag = _("soldier {soldier} {flag}").format(soldier=effect["soldier"], flag=flag)
    values = {
        "unit": unit_name,
        "amount": effect.get("amount", ""),
        "soldier": effect.get("soldier", ""),
        "action": effect.get("action", ""),
        "value": effect.get("value", ""),
        "flag": flag,
        "onoff": _("on") if effect.get("value", True) else _("off"),
        "what": what,
    }
    return template.format(**values)


def describe_event(event_type: str, payload: dict, *, units: dict, sides: dict) -> str:
    def unit(key):
        return units.get(key, key or "?")

    def side(index):
        return sides.get(index, sides.get(str(index), _("side {index}").format(index=index)))

    if event_type == "battle.started":
        return _("The battle starts: {sides}.").format(
            sides=_(" vs ").join(s["name"] for s in payload.get("sides", []))
        )
    if event_type == "side.joined":
        return _("{player} joins as {side}.").format(player=payload.get("player"), side=side(payload.get("side")))
    if event_type == "round.started":
        return _("Round {round} begins.").format(round=payload.get("round"))
    if event_type == "initiative.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        return _("Initiative (d12): {rolls}. {winner} wins.").format(rolls=rolls, winner=side(payload.get("winner")))
    if event_type == "order.set":
        return _("Order of play: {order}.").format(order=", ".join(side(s) for s in payload.get("order", [])))
    if event_type == "unit.done":
        if payload.get("soldier") is not None:
            return _("{unit}: soldier {soldier} (on his own) is done for the round.").format(
                unit=unit(payload.get("unit")), soldier=payload["soldier"]
            )
        return _("{unit} is done for the round.").format(unit=unit(payload.get("unit")))
    if event_type == "deployment.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        return _("Deployment roll-off (d12): {rolls}. {winner} places first.").format(
            rolls=rolls, winner=side(payload.get("winner"))
        )
    if event_type == "deployment.placed":
        return _("{unit} is placed on the table.").format(unit=unit(payload.get("unit")))
    if event_type == "dispute.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        note = _(" about {note}").format(note=payload["note"]) if payload.get("note") else ""
        return _("Dispute{note} (d{die}): {rolls}. {winner} wins.").format(
            note=note, die=payload.get("die", 12), rolls=rolls, winner=side(payload.get("winner"))
        )
    if event_type == "unit.adjusted":
        parts = [effect_text(a["effect"], unit(a["unit"])) for a in payload.get("apply", [])]
        note = f" ({payload['note']})" if payload.get("note") else ""
        return _("By hand: {changes}{note}.").format(changes="; ".join(parts), note=note)
    if event_type == "action.resolved":
        label = payload.get("action", "action").replace("_", " ")
        who = unit(payload.get("by"))
        return (
            _("{action} by {who}: {summary}")
            .format(action=_(label.capitalize()), who=who, summary=payload.get("summary", ""))
            .strip()
        )
    if event_type == "undo":
        verb = _("Redo") if payload.get("undone_type") == "undo" else _("Undo")
        return _("{verb} of #{seq}: {summary}").format(
            verb=verb, seq=payload.get("undoes"), summary=payload.get("undone_summary", "")
        )
    if event_type == "mission.completed":
        note = f" ({payload['note']})" if payload.get("note") else ""
        return _("{side} completes the mission{note}: the game ends.").format(side=side(payload.get("side")), note=note)
    if event_type.startswith("unit.") and payload.get("apply"):
        return "; ".join(effect_text(a["effect"], unit(a["unit"])) for a in payload["apply"]) + "."
    return event_type
