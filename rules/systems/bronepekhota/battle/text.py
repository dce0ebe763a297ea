"""The readable log of a «Бронепехота» battle: one line per event, in the book's words."""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.bronepekhota.words import words

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

# A flag set by hand, as the table says it: (when set, when cleared). Other flags: «{flag}» on/off.
FLAG_TEXT = {
    "lying": (N_("{unit} is lying"), N_("{unit} stands up")),
    "activated": (N_("{unit} is done for the round"), N_("{unit} may act again this round")),
    "in_melee": (N_("{unit}: in melee"), N_("{unit}: out of melee")),
    "flying": (N_("{unit} takes off"), N_("{unit} lands")),
    "aimed": (N_("{unit}: aimed fire declared"), N_("{unit}: no aimed fire")),
    "panicked": (N_("{unit} panics"), N_("{unit} no longer panics")),
    "may_stand_up": (N_("{unit} may stand up"), N_("{unit} may not stand up yet")),
}
FLAG_WORDS = {
    "destroyed": N_("destroyed"),
    "acts_next_round": N_("acts next round"),
    "deserted": N_("deserted"),
    "alive": N_("alive"),
    "on_field": N_("on the field"),
}
# The tests a unit spends in a round (tracker.ROUND_ACTIONS) and the battle's test commands, in the book's words.
ACTION_WORDS = {
    "move": N_("a move"),
    "shoot": N_("a shot"),
    "melee": N_("melee"),
    "grenade": N_("a grenade"),
    "repair": N_("a repair"),
    "jump": N_("a jump"),
}
TEST_NAMES = {
    "shoot": N_("Shot"),
    "melee": N_("Melee"),
    "grenade": N_("Grenade"),
    "grenade_burst": N_("Grenade burst"),
    "repair": N_("Repair"),
    "capture": N_("Capture"),
    "tow": N_("Tow"),
    "jump": N_("Jump"),
    "move": N_("Move"),
    "ammo_refresh": N_("Refill ammo"),
    "survival_test": N_("Survival test"),
    "armour_test": N_("Armour test"),
    "emergency_landing": N_("Emergency landing"),
    "panic": N_("Panic flight"),
}


def _flag_text(effect: dict, unit_name: str) -> str:
    """A flag set by hand (adjust.py), never its internal code: «SALAMANDER is lying», «… пехотинец 2: ближний бой»."""
    flag, on = effect.get("flag", ""), bool(effect.get("value", True))
    who = unit_name
    if effect.get("soldier") is not None:
        who = _("{unit}, soldier {soldier}").format(unit=unit_name, soldier=effect["soldier"])
    if flag in FLAG_TEXT:
        return _(FLAG_TEXT[flag][0 if on else 1]).format(unit=who)
    word = _(FLAG_WORDS[flag]) if flag in FLAG_WORDS else _(str(flag).replace("_", " "))
    return _("{unit}: «{flag}» {onoff}").format(unit=who, flag=word, onoff=_("on") if on else _("off"))


def _soldier_text(effect: dict, unit_name: str) -> str:
    """A soldier set by hand: killed, alive again, off or back on the field."""
    parts = []
    if "alive" in effect:
        parts.append(_("killed") if not effect["alive"] else _("alive again"))
    if "on_field" in effect:
        parts.append(_("off the field") if not effect["on_field"] else _("back on the field"))
    return _("{unit}: soldier {soldier} {what}").format(
        unit=unit_name, soldier=effect.get("soldier", ""), what=", ".join(parts)
    )


def effect_text(effect: dict, unit_name: str) -> str:
    kind = effect.get("kind")
    if kind == "set_flag":
        return _flag_text(effect, unit_name)
    if kind == "set_soldier":
        return _soldier_text(effect, unit_name)
    if kind == "in_melee":
        return _flag_text({**effect, "flag": "in_melee"}, unit_name)
    if kind == "activated" and effect.get("value") is False:
        return _flag_text({**effect, "flag": "activated"}, unit_name)
    template = _(EFFECT_TEXT[kind]) if kind in EFFECT_TEXT else "{unit}: " + _(str(kind).replace("_", " "))
    action = effect.get("action", "")
    what = ""
    flag = effect.get("flag", "")
    values = {
        "unit": unit_name,
        "amount": effect.get("amount", ""),
        "soldier": effect.get("soldier", ""),
        "action": _(ACTION_WORDS[action]) if action in ACTION_WORDS else str(action).replace("_", " "),
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
        code = payload.get("action", "")
        label = _(TEST_NAMES[code]) if code in TEST_NAMES else _(str(code).replace("_", " ").capitalize())
        who = unit(payload.get("by"))
        summary = words(payload["said"]) if payload.get("said") else payload.get("summary", "")
        return _("{action} by {who}: {summary}").format(action=label, who=who, summary=summary).strip()
    if event_type == "undo":  # the runner describes undos (battles/services.describe_event); kept for the Table
        template = (
            _("Restored #{seq}: {summary}") if payload.get("undone_type") == "undo" else _("Undone #{seq}: {summary}")
        )
        return template.format(seq=payload.get("undoes"), summary=payload.get("undone_summary", ""))
    if event_type == "question.lapsed":
        return _("{unit}: the pilot's test lapses (the pilot is gone).").format(unit=unit(payload.get("unit")))
    if event_type == "mission.completed":
        note = f" ({payload['note']})" if payload.get("note") else ""
        return _("{side} completes the mission{note}: the game ends.").format(side=side(payload.get("side")), note=note)
    if event_type.startswith("unit.") and payload.get("apply"):
        return "; ".join(effect_text(a["effect"], unit(a["unit"])) for a in payload["apply"]) + "."
    return event_type
