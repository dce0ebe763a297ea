"""What the phone shows of a «Бронепехота» unit, normalised for the board's widgets, and the data the action
sheet needs."""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.bronepekhota import tables, tracker, words
from rules.systems.bronepekhota.battle.units import PERSONAL, system_settings, unit_facts

COVER_LABELS = tables.COVER_LABELS
# What a soldier has done this round, as a chip on his row (the board translates flags when drawn).
ACTION_FLAGS = {
    "move": N_("has moved"),
    "shoot": N_("has shot"),
    "melee": N_("has fought"),
    "grenade": N_("has thrown a grenade"),
    "repair": N_("has repaired"),
    "jump": N_("has jumped"),
}


def _weapon_text(w: dict) -> str:
    if w.get("melee") and not w.get("range"):
        return f"{w['name']} {_(words.MELEE)}/{w['melee']}"
    return f"{w['name']} {w.get('range') or '–'} / {w.get('power') or '–'}"


def _cells(value: int, maximum: int, sectors: list[dict]) -> list[dict]:
    """The strength track as cells max..1, the slider on the current one, each cell coloured by its sector."""
    cells = []
    for n in range(maximum, 0, -1):
        colour = next((s.get("colour", "") for s in sectors if s["min"] <= n <= s["max"]), "")
        cells.append({"n": n, "on": n == value, "lost": n > value, "colour": colour})
    return cells


def unit_view(state: dict, profile: dict, *, settings: dict, round_: int | None = None) -> dict:
    """What the phone shows for one unit (normalized for the templates), from the tracker's view."""
    rules_settings = system_settings(settings)
    view = tracker.unit_view(state, profile, rules_settings)
    data = profile.get("data", {})
    facts = unit_facts(state, profile, settings=settings, round_=round_)
    out = {
        "kind": state["kind"],
        "activated": facts["activated"],
        "activatable": facts["activatable"],
        "reason": facts["reason"],
        "flags": [],
        "soldiers": [],
        "weapons": [],
        "alive": True,
    }
    if state["kind"] == "squad":
        by_num = {s["num"]: s for s in data.get("soldiers", [])}
        tv = {s["num"]: s for s in view["soldiers"]}
        for s in state["soldiers"]:
            p = by_num.get(s["num"], {})
            flags = []
            if s["role"] == "pilot":
                flags.append(("pilot", "good"))
            if s["role"] == "dismounted":
                flags.append(("on foot", ""))
            if s["panicked"]:
                flags.append(("panicked", "warn"))
            if s["deserted"]:
                flags.append(("deserted", "bad"))
            if s["in_melee"]:
                flags.append(("in melee", "warn"))
            if s["aimed"]:
                flags.append(("aiming", ""))
            flags += [(ACTION_FLAGS.get(a, a), "") for a in s["actions"]]
            out["soldiers"].append(
                {
                    "num": s["num"],
                    "alive": s["alive"] and s["on_field"],
                    "rank": p.get("rank"),
                    "speed": p.get("speed"),
                    "armour": p.get("armour"),
                    "melee": p.get("melee"),
                    "range": p.get("range"),
                    "power": p.get("power"),
                    "abilities": p.get("abilities", []),
                    "role": s["role"],
                    "pilot_of": s.get("pilot_of"),
                    "flags": flags,
                    "flag_names": [label for label, _ in flags],
                    "can_act": tv.get(s["num"], {}).get("can_act", False),
                    "actions": s["actions"],
                }
            )
            if p.get("range") and p.get("power"):
                out["weapons"].append(
                    {"key": PERSONAL, "soldier": s["num"], "label": f"#{s['num']}: {p['range']} / {p['power']}"}
                )
        out["solos"] = facts.get("solos", [])
        out["soldiers_alive"] = view["alive"]
        out["alive"] = view["alive"] > 0
        out["summary"] = _("{alive}/{value} alive").format(alive=view["alive"], value=len(state["soldiers"]))
        if state["activated"]:
            out["flags"].append(("done", "good"))
        out["flag_names"] = [label for label, _ in out["flags"]]
        return out
    sectors = data.get("speed_sectors", [])
    out["strength"] = {
        "value": state["strength"],
        "max": state["strength_max"],
        "armour": view["armour"],
        "speed": view.get("speed", 0),
        "cells": _cells(state["strength"], state["strength_max"], sectors),
    }
    out["ammo"] = {
        "value": state["ammo"],
        "max": state["ammo_max"],
        "tracked": bool(rules_settings.get("ammo_limited", True)),
    }
    out["alive"] = not state["destroyed"]
    out["shots"] = {"used": state["shots_this_round"], "rof": data.get("rof", 0)}
    weapons = data.get("arsenal", []) if state["kind"] == "vehicle" else data.get("weapons", [])
    fitted = set(state.get("weapons", []))
    for w in weapons:
        if w["key"] in fitted:
            fired = w["key"] in state["weapons_fired"]
            out["weapons"].append(
                {
                    "key": w["key"],
                    "label": _weapon_text(w) + (_(" (fired)") if fired else ""),
                    "ranged": bool(w.get("range")),
                }
            )
    flags = []
    if state["destroyed"]:
        flags.append(("destroyed", "bad"))
    if state.get("activated"):
        flags.append(("done", "good"))
    if state["lying"]:
        flags.append(("lying", "warn"))
    if state.get("may_stand_up"):
        flags.append(("may stand up", ""))
    if state["in_melee"]:
        flags.append(("in melee", "warn"))
    if state.get("towed_by"):
        flags.append(("towed", ""))
    if state["kind"] == "vehicle":
        out["locomotion"] = state.get("locomotion")
        out["repair_platform"] = bool(state.get("repair_platform"))
        out["towing"] = state.get("towing")
        out["moves"] = tracker.moves_used(state)
        if state.get("towing"):
            flags.append(("towing", ""))
        if state["pilot"] is None and not state["destroyed"]:
            flags.append(("no pilot", "bad"))
        if state.get("flying"):
            flags.append(("flying", ""))
        if state.get("acts_next_round"):
            flags.append(("captured: acts next round", "warn"))
        if state.get("repair_platform"):
            flags.append(("repair platform", ""))
        pilot = state.get("pilot")
        out["pilot"] = (
            {"unit": pilot.get("ref"), "soldier": pilot.get("soldier"), "armour": pilot.get("armour")}
            if pilot
            else None
        )
        out["melee_value"] = view.get("melee_value", 0)
    if not view.get("can_shoot") and view.get("shoot_reason") and not state["destroyed"]:
        out["shoot_reason"] = _(view["shoot_reason"])  # the tracker's reasons are msgids
    out["flags"].extend(flags)
    out["flag_names"] = [label for label, _ in out["flags"]]
    out["summary"] = _("strength {strength}/{strength_max}").format(
        strength=state["strength"], strength_max=state["strength_max"]
    )
    return out


def available_actions(settings: dict) -> dict:
    """The actions the phone offers, with the fields each one needs."""
    s = system_settings(settings)
    real = s["mode"] == "real"
    actions = {
        "shoot": {
            "label": _("Shoot (real)") if real else _("Shoot"),
            "actor_soldier": True,
            "weapon": True,
            "target": True,
            "target_soldier": True,
            "distance": not real,
            "cover": not real,
            "charge": real,
            "hit_result": real,
            "crew": True,
            "aimed": bool(s["aimed_fire"]) and not real,
        },
        "melee": {"label": _("Melee"), "actor_soldier": True, "target": True, "target_soldier": True, "surprise": True},
    }
    if s["grenades"] and not real:
        actions["grenade"] = {"label": _("Throw a grenade"), "actor_soldier": True, "target": False}
    actions["move"] = {"label": _("Move"), "actor_soldier": True, "target": False, "path": True}
    if s["jump_packs"]:
        actions["jump"] = {"label": _("Jump (jump pack)"), "actor_soldier": True, "target": False, "jump": True}
    actions["repair"] = {"label": _("Repair"), "actor_soldier": True, "target": True}
    actions["capture"] = {"label": _("Capture"), "actor_soldier": True, "target": True}
    actions["tow"] = {"label": _("Tow (HELIX platform)"), "target": True, "tow": True}
    if s["ammo_limited"] and s["ammo_refreshes"] > 0:
        actions["ammo_refresh"] = {"label": _("Refill ammo"), "target": False}
    # Tests of a soldier or a vehicle of either side (the subject), and the dispute roll.
    actions["survival_test"] = {"label": _("Survival test"), "actor_soldier": True, "target": False, "any_unit": True}
    if real:
        actions["armour_test"] = {"label": _("Armour test"), "target": False, "any_unit": True, "armour_die": True}
    actions["emergency_landing"] = {"label": _("Emergency landing"), "target": False, "any_unit": True}
    if s["panic"]:
        actions["panic"] = {
            "label": _("Panic flight"),
            "actor_soldier": True,
            "target": False,
            "any_unit": True,
            "reaches_edge": True,
        }
    actions["dispute"] = {"label": _("Dispute roll"), "target": False, "no_unit": True, "sides": True}
    # Every player's Д12 for the initiative (p.9), typed in from the table in side order.
    actions["initiative"] = {"label": _("Initiative"), "target": False, "no_unit": True}
    return actions


def client_data(state: dict) -> dict:
    """`state`: the state as the API gives it to this viewer (settings, units with views)."""
    # Units (with soldiers and weapons) and actions for the action sheet; JSON-safe.
    units = []
    for u in state["units"]:
        view = u["view"]
        soldiers = [
            {
                "num": s["num"],
                "alive": s["alive"],
                "pilot": s["role"] == "pilot",
                "label": f"#{s['num']} {_(words.RANK)}{s['rank']} {_(words.ARMOUR)}{s['armour']} {_(words.MELEE)}{s['melee']}"
                + (f" {s['range']}/{s['power']}" if s.get("range") else "")
                + (_(" (pilot)") if s["role"] == "pilot" else ""),
            }
            for s in view.get("soldiers", [])
        ]
        units.append(
            {
                "key": u["key"],
                "label": f"{u['name']} · {u['owner_name']}",
                "kind": u["kind"],
                "mine": u["mine"],
                "alive": view.get("alive", True),
                "soldiers": soldiers,
                "weapons": view.get("weapons", []),
                "locomotion": view.get("locomotion"),
                "pilot": bool(view.get("pilot")),
            }
        )
    game = state.get("game") or {}
    eliminated = game.get("eliminated", [])
    return {
        "units": units,
        "actions": available_actions(state["settings"]),
        "covers": [{"value": k, "label": _(v)} for k, v in COVER_LABELS.items()],
        "mode": system_settings(state["settings"])["mode"],
        "sides": [
            {"index": s["index"], "name": s["name"], "mine": s.get("mine", False)}
            for s in state.get("sides", [])
            if s["index"] not in eliminated
        ],
    }
