"""Actions without dice: repair (§3.11), capture (§3.12), towing (§3.13) and the jump pack (§3.3.2).
Each checks the rule and answers the effects; their "odds" are certainties."""

from __future__ import annotations

import re

from rules.contract import prob
from rules.i18n import N_
from rules.i18n import _ as tr
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.actions.common import PILOT, REF, BronAction, err
from rules.systems.bronepekhota.words import say

ACTIONS_USED = {"type": "array", "items": {"enum": ["move", "shoot", "melee", "grenade", "repair", "jump"]}}
_JUMP_RE = re.compile(r"^(?:jump:|jump_boost_|Пр|пр)\s*(\d+)$")


def has_repair(abilities: list[str]) -> bool:
    return any(a.strip().lower() in ("repair", "рм", "mechanic") for a in abilities)


def jump_steps(abilities: list[str]) -> int | None:
    """«ПрN» / "jump:N" -> N."""
    for a in abilities:
        m = _JUMP_RE.match(a.strip())
        if m:
            return int(m.group(1))
    return None


def _who(el: dict) -> dict:
    return {k: el[k] for k in ("ref", "soldier") if k in el}


OBJECT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "strength"],
    "properties": {
        "kind": {"enum": ["vehicle", "gun"]},
        "ref": REF,
        "strength": {"type": "integer", "minimum": 0, "maximum": 99},
        "strength_max": {"type": "integer", "minimum": 1, "maximum": 99},
        "destroyed": {"type": "boolean"},
        "lying": {"type": "boolean"},
        "in_melee": {"type": "boolean", "description": "Touched by enemy infantry or a vehicle"},
        "actions_used": ACTIONS_USED,
        "activated": {"type": "boolean"},
    },
}


class Repair(BronAction):
    key = "repair"
    label = N_("Repair")
    spec_ref = "§3.11 (p.43–44, p.48–49), A31, A32"
    description = (
        "A «Рм» soldier touching a vehicle or gun repairs 1 damage, if he has done nothing else this round (A31) and "
        "no enemy touches him or the object; a «Рм» pilot may repair his own vehicle from inside, using its whole "
        "activation. A HELIX with the repair-transport platform repairs 2 instead of shooting, one object a round "
        "(itself too). Never above the maximum; destroyed elements cannot be repaired."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["repairer", "target"],
        "properties": {
            "repairer": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind"],
                "properties": {
                    "kind": {"enum": ["soldier", "pilot", "helix"]},
                    "ref": REF,
                    "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
                    "abilities": {"type": "array", "items": {"type": "string", "maxLength": 60}},
                    "actions_used": ACTIONS_USED,
                    "in_melee": {"type": "boolean"},
                    "repair_platform": {"type": "boolean", "description": "HELIX fitted with the platform"},
                    "pilot": PILOT,
                    "repaired_this_round": {"type": "boolean"},
                },
            },
            "target": OBJECT,
            "touching": {"type": "boolean", "description": "In contact (HELIX: with the platform's rear edge)"},
            "self": {"type": "boolean", "description": "A pilot's own vehicle, or the HELIX itself"},
        },
    }

    def check_inputs(self, inputs, settings):
        rep, target = inputs["repairer"], inputs["target"]
        kind = rep["kind"]
        own = bool(inputs.get("self"))
        if target.get("destroyed") or target["strength"] == 0:
            raise err("target.strength", tr("A destroyed element cannot be repaired (p.44)."))
        if "strength_max" not in target:
            raise err("target.strength_max", tr("Give the Armlist maximum: repair never goes above it."))
        if target["strength"] > target["strength_max"]:
            raise err("target.strength", tr("Strength is above the Armlist maximum."))
        if target["strength"] >= target["strength_max"]:
            raise err("target.strength", tr("Already at its maximum: further repair is useless (p.44)."))
        if not own and inputs.get("touching") is False:
            raise err("touching", tr("The repairer must touch the object (HELIX: with the platform's rear edge)."))
        if rep.get("in_melee") or target.get("in_melee"):
            raise err(
                "target.in_melee", tr("No repair while an enemy touches the repairer or the object (p.43, p.48).")
            )
        used = set(rep.get("actions_used", []))
        if kind == "helix":
            if not rep.get("repair_platform"):
                raise err("repairer.repair_platform", tr("Only a HELIX with the repair-transport platform repairs."))
            if rep.get("pilot", "aboard") is None:
                raise err("repairer.pilot", tr("A HELIX without a pilot cannot repair (p.48)."))
            if rep.get("repaired_this_round") or "shoot" in used or "repair" in used:
                raise err("repairer.actions_used", tr("The HELIX repairs one object a round, instead of shooting."))
            amount = tables.HELIX_REPAIR_AMOUNT
        else:
            if not has_repair(rep.get("abilities", [])):
                raise err("repairer.abilities", tr("Only a soldier with «Rpr» in «Abl.» can repair."))
            if kind == "pilot":
                if not own:
                    raise err("self", tr("A pilot repairs only his own vehicle, from inside (p.43)."))
                if target["kind"] != "vehicle":
                    raise err("target.kind", tr("A pilot repairs his own vehicle."))
                if target.get("activated") or target.get("actions_used"):
                    raise err("target.actions_used", tr("Self-repair uses the vehicle's whole activation (p.43–44)."))
            elif settings["repair_needs_idle_soldier"] and used:
                raise err(
                    "repairer.actions_used",
                    tr("He already acted this round; repair needs a soldier who does nothing else (p.43, A31)."),
                )
            amount = tables.INFANTRY_REPAIR_AMOUNT
        cap = kind != "helix" or settings["repair_cap_at_max"]
        new = min(target["strength_max"], target["strength"] + amount) if cap else target["strength"] + amount
        return {**inputs, "amount": new - target["strength"], "strength_after": new}

    def resolve_clean(self, clean, settings, dice):
        rep, target = clean["repairer"], clean["target"]
        effects = [{"kind": "repair", "role": "target", "amount": clean["amount"], **_who(target)}]
        if rep["kind"] == "helix":
            effects.append({"kind": "action_used", "role": "repairer", "action": "shoot", **_who(rep)})
        elif rep["kind"] == "pilot":
            effects.append({"kind": "activation_used", "role": "target", "reason": "self-repair", **_who(target)})
        else:
            effects.append({"kind": "action_used", "role": "repairer", "action": "repair", **_who(rep)})
        summary = say(
            "Repaired {amount}: strength {before} -> {after}.",
            amount=clean["amount"],
            before=target["strength"],
            after=clean["strength_after"],
        )
        if target.get("lying"):
            summary += say(" It may now be stood up again (p.26).")
        result = {
            "amount": clean["amount"],
            "strength_after": clean["strength_after"],
            "may_stand_up": bool(target.get("lying")),
        }
        return self.outcome(summary, result, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"amount": clean["amount"], "strength_after": clean["strength_after"], "p_repaired": prob(1)}


class Capture(BronAction):
    key = "capture"
    label = N_("Capture")
    spec_ref = "§3.12 (p.42), A11"
    description = (
        "Vehicle: the first infantryman to touch a pilotless vehicle may become its pilot if his Rank >= the "
        "vehicle's; it acts from next round (A11). Gun: any soldier may take a gun no infantryman touches; he may "
        "fire it at once if neither he nor the gun fired this round and his Rank >= the gun's."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["soldier", "object"],
        "properties": {
            "soldier": {
                "type": "object",
                "additionalProperties": False,
                "required": ["rank"],
                "properties": {
                    "rank": {"type": "integer", "minimum": 0, "maximum": 10},
                    "armour": {"type": "integer", "minimum": 0, "maximum": 20},
                    "ref": REF,
                    "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
                    "actions_used": ACTIONS_USED,
                    "owner": REF,
                },
            },
            "object": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "rank"],
                "properties": {
                    "kind": {"enum": ["vehicle", "gun"]},
                    "rank": {"type": "integer", "minimum": 0, "maximum": 10},
                    "ref": REF,
                    "pilot": PILOT,
                    "strength": {"type": "integer", "minimum": 0, "maximum": 99},
                    "destroyed": {"type": "boolean"},
                    "flyer": {"type": "boolean", "description": "A flying vehicle: goes back on its stand"},
                    "touched_by_other_infantry": {"type": "boolean"},
                    "shots_this_round": {"type": "integer", "minimum": 0},
                },
            },
        },
    }

    def check_inputs(self, inputs, settings):
        soldier, obj = inputs["soldier"], inputs["object"]
        if obj.get("destroyed") or obj.get("strength") == 0:
            raise err("object", tr("A destroyed element cannot be captured."))
        if obj["kind"] == "vehicle":
            if "pilot" not in obj:
                raise err("object.pilot", tr("Say whether the vehicle has a pilot (only a pilotless one is captured)."))
            if obj["pilot"] is not None:
                raise err("object.pilot", tr("Only a vehicle without a pilot can be captured (p.42)."))
            if not tables.can_pilot(soldier["rank"], obj["rank"]):
                raise err(
                    "soldier.rank",
                    tr("A rank {soldier} soldier cannot pilot a rank {rank} vehicle.").format(
                        soldier=soldier["rank"], rank=obj["rank"]
                    ),
                )
        elif obj.get("touched_by_other_infantry"):
            raise err(
                "object.touched_by_other_infantry", tr("A gun is captured only if no other infantryman touches it.")
            )
        return inputs

    def resolve_clean(self, clean, settings, dice):
        soldier, obj = clean["soldier"], clean["object"]
        by = _who(soldier)
        captured = {"kind": "captured", "role": "object", "by": by, **({"ref": obj["ref"]} if "ref" in obj else {})}
        if "owner" in soldier:
            captured["owner"] = soldier["owner"]
        effects = [captured]
        obj_ref = {"ref": obj["ref"]} if "ref" in obj else {}
        if obj["kind"] == "vehicle":
            pilot = {**by, **({"armour": soldier["armour"]} if "armour" in soldier else {}), "rank": soldier["rank"]}
            next_round = settings["captured_acts_next_round"]
            effects.append(
                {"kind": "pilot_boarded", "role": "object", "pilot": pilot, "acts_next_round": next_round, **obj_ref}
            )
            effects.append({"kind": "became_pilot", "role": "soldier", "of": obj.get("ref"), **by})
            if obj.get("flyer"):
                effects.append({"kind": "flying", "role": "object", "value": True, **obj_ref})
            summary = (
                say("He takes the controls: the vehicle acts from next round.")
                if next_round
                else say("He takes the controls.")
            )
            result = {"captured": True, "acts_next_round": next_round}
        else:
            may_fire = (
                obj.get("shots_this_round", 0) == 0
                and not ({"shoot", "grenade"} & set(soldier.get("actions_used", [])))
                and tables.can_pilot(soldier["rank"], obj["rank"])
            )
            summary = say("The gun is captured; he may fire it at once.") if may_fire else say("The gun is captured.")
            result = {"captured": True, "may_fire_now": may_fire}
        return self.outcome(summary, result, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"p_captured": prob(1)}


class Towing(BronAction):
    key = "towing"
    label = N_("Towing")
    spec_ref = "§3.13 (p.49)"
    description = (
        "A HELIX with the repair-transport platform tows a vehicle or mobile gun touching its platform's rear edge; "
        "the object moves the same distance; the HELIX keeps its speed. Stop at any moment."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["op", "helix", "object"],
        "properties": {
            "op": {"enum": ["start", "stop"]},
            "helix": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "ref": REF,
                    "repair_platform": {"type": "boolean"},
                    "pilot": PILOT,
                    "towing": REF,
                    "in_melee": {"type": "boolean"},
                },
            },
            "object": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind"],
                "properties": {
                    "kind": {"enum": ["vehicle", "gun"]},
                    "ref": REF,
                    "mobile": {"type": "boolean"},
                    "destroyed": {"type": "boolean"},
                    "towed_by": REF,
                },
            },
        },
    }

    def check_inputs(self, inputs, settings):
        helix, obj = inputs["helix"], inputs["object"]
        if inputs["op"] == "stop":
            if helix.get("towing") is None:
                raise err("helix.towing", tr("This HELIX is not towing anything."))
            return inputs
        if not helix.get("repair_platform"):
            raise err("helix.repair_platform", tr("Only a HELIX with the repair-transport platform tows (p.49)."))
        if helix.get("pilot", "aboard") is None:
            raise err("helix.pilot", tr("A HELIX without a pilot cannot move."))
        if helix.get("towing") is not None:
            raise err("helix.towing", tr("This HELIX already tows something."))
        if obj.get("towed_by") is not None:
            raise err("object.towed_by", tr("This object is already being towed."))
        if obj["kind"] == "gun" and not obj.get("mobile"):
            raise err("object.mobile", tr("A stationary gun stays in place all battle: only mobile guns are towed."))
        if obj.get("destroyed"):
            raise err("object.destroyed", tr("A destroyed element is removed from the field."))
        return inputs

    def resolve_clean(self, clean, settings, dice):
        helix, obj = clean["helix"], clean["object"]
        kind = "tow_start" if clean["op"] == "start" else "tow_stop"
        h, o = _who(helix), _who(obj)
        effects = [
            {"kind": kind, "role": "helix", "object": obj.get("ref"), **h},
            {"kind": kind, "role": "object", "helix": helix.get("ref"), **o},
        ]
        summary = say("Towing starts.") if kind == "tow_start" else say("Towing stops.")
        return self.outcome(summary, {"towing": kind == "tow_start"}, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"p_ok": prob(1)}


class Jump(BronAction):
    key = "jump"
    label = N_("Jump pack")
    spec_ref = "§3.3.2, Table 8 (p.44–48), A12"
    option = "jump_packs"
    description = (
        "A soldier with «ПрN» jumps once a round instead of walking, in a straight line: length + height <= N, both "
        "from the take-off point; a drop counts as height 0 (A12). Not while moving a mobile gun."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["soldier", "length_steps"],
        "properties": {
            "soldier": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "ref": REF,
                    "soldier": {"type": "integer", "minimum": 1, "maximum": 12},
                    "jump": {"type": "integer", "minimum": 1, "maximum": 20, "description": "N of «ПрN»"},
                    "abilities": {"type": "array", "items": {"type": "string", "maxLength": 60}},
                    "actions_used": ACTIONS_USED,
                    "moving_gun": {"type": "boolean"},
                },
            },
            "length_steps": {"type": "number", "minimum": 0, "maximum": 100},
            "rise_steps": {"type": "number", "minimum": -100, "maximum": 100, "description": "Negative: downward"},
        },
    }

    def check_inputs(self, inputs, settings):
        soldier = inputs["soldier"]
        n = soldier.get("jump") or jump_steps(soldier.get("abilities", []))
        if not n:
            raise err("soldier.abilities", tr("Only a soldier with a jump pack («JpN» in «Abl.») can jump."))
        if soldier.get("moving_gun"):
            raise err("soldier.moving_gun", tr("He cannot jump while moving a mobile gun (p.44)."))
        if {"move", "jump"} & set(soldier.get("actions_used", [])):
            raise err("soldier.actions_used", tr("A jump replaces his move: at most once a round (p.44)."))
        rise = inputs.get("rise_steps", 0)
        height = tables.jump_height(rise, downward_rule=settings["jump_downward_height"])
        ok = tables.jump_allowed(n, inputs["length_steps"], rise, downward_rule=settings["jump_downward_height"])
        return {**inputs, "n": n, "height": height, "ok": ok}

    def resolve_clean(self, clean, settings, dice):
        n, length, height = clean["n"], clean["length_steps"], clean["height"]
        values = {"n": n, "length": length, "height": height, "total": length + height}
        who = _who(clean["soldier"])
        if not clean["ok"]:
            summary = say(
                "Jp{n}: length {length} + height {height} = {total} > {n}: too far, the jump is not possible.", **values
            )
            return self.outcome(summary, {"ok": False, "total": length + height, "max": n}, [], [summary])
        summary = say("Jp{n}: length {length} + height {height} = {total} <= {n}: the jump succeeds.", **values)
        effects = [
            {"kind": "action_used", "role": "soldier", "action": "move", **who},
            {"kind": "action_used", "role": "soldier", "action": "jump", **who},
        ]
        return self.outcome(summary, {"ok": True, "total": length + height, "max": n}, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"p_ok": prob(1 if clean["ok"] else 0), "table": [list(x) for x in tables.jump_table(clean["n"])]}


class AmmoRefresh(BronAction):
    key = "ammo_refresh"
    label = N_("Ammo refresh")
    spec_ref = "§2.4, A22 (p.25, p.36)"
    description = "By agreement (setting ammo_refreshes), a vehicle or gun refills its ammo track to the maximum."
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["element"],
        "properties": {
            "element": {
                "type": "object",
                "additionalProperties": False,
                "required": ["ammo", "ammo_max"],
                "properties": {
                    "ref": REF,
                    "ammo": {"type": "integer", "minimum": 0, "maximum": 99},
                    "ammo_max": {"type": "integer", "minimum": 0, "maximum": 99},
                    "refreshes_used": {"type": "integer", "minimum": 0},
                    "destroyed": {"type": "boolean"},
                },
            }
        },
    }

    def check_inputs(self, inputs, settings):
        el = inputs["element"]
        allowed = settings["ammo_refreshes"]
        if not settings["ammo_limited"]:
            raise err("settings.ammo_limited", tr("Ammo is unlimited in these settings: nothing to refresh."))
        if el.get("refreshes_used", 0) >= allowed:
            raise err(
                "element.refreshes_used",
                tr("No refresh left: {allowed} per element in these settings (A22).").format(allowed=allowed),
            )
        if el.get("destroyed"):
            raise err("element.destroyed", tr("A destroyed element is off the field."))
        if el["ammo"] > el["ammo_max"]:
            raise err("element.ammo", tr("Ammo is above the Armlist maximum."))
        return inputs

    def resolve_clean(self, clean, settings, dice):
        el = clean["element"]
        effects = [{"kind": "ammo_refresh", "role": "element", **_who(el)}]
        summary = say("Ammo refilled: {before} -> {after}.", before=el["ammo"], after=el["ammo_max"])
        return self.outcome(summary, {"ammo_after": el["ammo_max"]}, effects, [summary])

    def odds_clean(self, clean, settings):
        return {"ammo_after": clean["element"]["ammo_max"]}
