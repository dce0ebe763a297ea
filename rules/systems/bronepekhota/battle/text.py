"""The readable log of a «Бронепехота» battle: one line per event, in the book's words."""

from __future__ import annotations

EFFECT_TEXT = {
    "damage": "{unit}: {amount} damage",
    "destroyed": "{unit} is destroyed",
    "repair": "{unit}: repaired {amount}",
    "ammo_spent": "{unit}: ammo −{amount}",
    "ammo_refresh": "{unit}: ammo refilled",
    "shot_fired": "{unit} fired",
    "pilot_killed": "{unit}: the pilot is killed, the vehicle has no pilot",
    "pilot_left": "{unit}: the pilot is out, the vehicle has no pilot",
    "pilot_boarded": "{unit}: a new pilot takes the controls",
    "landed": "{unit} lands",
    "flying": "{unit} takes off",
    "lying": "{unit} falls over",
    "stood_up": "{unit} stands up",
    "captured": "{unit} is captured",
    "soldier_killed": "{unit}: soldier {soldier} killed",
    "panic": "{unit}: soldier {soldier} panics",
    "deserted": "{unit}: soldier {soldier} deserts",
    "became_pilot": "{unit}: soldier {soldier} becomes a pilot",
    "dismounted": "{unit}: soldier {soldier} is on foot",
    "action_used": "{unit}: {action} used",
    "activation_used": "{unit} spends its whole activation",
    "activated": "{unit} is done for the round",
    "new_round": "{unit}: new round",
    "tow_start": "{unit}: towing starts",
    "tow_stop": "{unit}: towing stops",
    "emergency_landing": "{unit} makes an emergency landing",
    "set_strength": "{unit}: strength set to {value}",
    "set_ammo": "{unit}: ammo set to {value}",
    "set_flag": "{unit}: {flag} {onoff}",
    "set_soldier": "{unit}: soldier {soldier} {what}",
    "in_melee": "{unit}: in melee {onoff}",
}


def effect_text(effect: dict, unit_name: str) -> str:
    template = EFFECT_TEXT.get(effect.get("kind"), "{unit}: " + str(effect.get("kind")))
    what = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in effect.items() if k in ("alive", "on_field"))
    flag = effect.get("flag", "")
    if effect.get("soldier") is not None and effect.get("kind") == "set_flag":
        flag = f"soldier {effect['soldier']} {flag}"
    values = {
        "unit": unit_name,
        "amount": effect.get("amount", ""),
        "soldier": effect.get("soldier", ""),
        "action": effect.get("action", ""),
        "value": effect.get("value", ""),
        "flag": flag,
        "onoff": "on" if effect.get("value", True) else "off",
        "what": what,
    }
    return template.format(**values)


def describe_event(event_type: str, payload: dict, *, units: dict, sides: dict) -> str:
    def unit(key):
        return units.get(key, key or "?")

    def side(index):
        return sides.get(index, sides.get(str(index), f"side {index}"))

    if event_type == "battle.started":
        return "The battle starts: " + " vs ".join(s["name"] for s in payload.get("sides", [])) + "."
    if event_type == "side.joined":
        return f"{payload.get('player')} joins as {side(payload.get('side'))}."
    if event_type == "round.started":
        return f"Round {payload.get('round')} begins."
    if event_type == "initiative.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        return f"Initiative (d12): {rolls}. {side(payload.get('winner'))} wins."
    if event_type == "order.set":
        return "Order of play: " + ", ".join(side(s) for s in payload.get("order", [])) + "."
    if event_type == "unit.done":
        if payload.get("soldier") is not None:
            return f"{unit(payload.get('unit'))}: soldier {payload['soldier']} (on his own) is done for the round."
        return f"{unit(payload.get('unit'))} is done for the round."
    if event_type == "deployment.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        return f"Deployment roll-off (d12): {rolls}. {side(payload.get('winner'))} places first."
    if event_type == "deployment.placed":
        return f"{unit(payload.get('unit'))} is placed on the table."
    if event_type == "dispute.rolled":
        rolls = "; ".join(", ".join(f"{side(int(s))} {v}" for s, v in r.items()) for r in payload.get("rolls", []))
        note = f" about {payload['note']}" if payload.get("note") else ""
        return f"Dispute{note} (d{payload.get('die', 12)}): {rolls}. {side(payload.get('winner'))} wins."
    if event_type == "unit.adjusted":
        parts = [effect_text(a["effect"], unit(a["unit"])) for a in payload.get("apply", [])]
        note = f" ({payload['note']})" if payload.get("note") else ""
        return "By hand: " + "; ".join(parts) + note + "."
    if event_type == "action.resolved":
        label = payload.get("action", "action").replace("_", " ")
        who = unit(payload.get("by"))
        return f"{label.capitalize()} by {who}: {payload.get('summary', '')}".strip()
    if event_type == "undo":
        verb = "Redo" if payload.get("undone_type") == "undo" else "Undo"
        return f"{verb} of #{payload.get('undoes')}: {payload.get('undone_summary', '')}"
    if event_type == "mission.completed":
        note = f" ({payload['note']})" if payload.get("note") else ""
        return f"{side(payload.get('side'))} completes the mission{note}: the game ends."
    if event_type.startswith("unit.") and payload.get("apply"):
        return "; ".join(effect_text(a["effect"], unit(a["unit"])) for a in payload["apply"]) + "."
    return event_type
