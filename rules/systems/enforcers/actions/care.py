"""Medical aid (§3.8, L115–123, A13) and prayers (§2.8, §3.9, L125–138, A19)."""

from __future__ import annotations

from rules.i18n import _
from rules.systems.enforcers import agents, tables, words
from rules.systems.enforcers.actions.common import (
    SHEET_AFTER,
    USE_REROLL,
    EnfAction,
    Run,
    bool_prob,
    check_can_act,
    check_not_disoriented,
    dist,
    err,
    joint,
    name_of,
    note_reroll,
    reroll_wanted,
    sheet_parts,
    spec_for,
    who,
)
from rules.systems.enforcers.actions.shooting import _state
from rules.systems.enforcers.texts import T
from rules.systems.enforcers.wounds import (
    DYING,
    SERIOUSLY_WOUNDED,
    die,
    emit,
    heal,
    lose_status,
    set_hp,
)

REMOVABLE = ("fear", "bleeding", "poisoned", "burning", "stunned", "disoriented", "pinned")
MODES = ("restore_hp", "revive", "stabilize")


def _check_removable(target: dict, status: str | None, field: str) -> None:
    if status is not None and status not in (target.get("statuses") or {}):
        raise err(
            field,
            _("{name} has no such status: {status}.").format(
                name=name_of(target, "target"), status=words.status(status)
            ),
        )


class MedicalAid(EnfAction):
    key = "medical_aid"
    label = "Medical aid"
    spec_ref = "§3.8 (L115–123), A13"
    description = (
        "Needs a med-kit and an HL test. Restore HP: +6 on a success, +2 on a failure (up to HL). Revive a seriously "
        "wounded model: a success raises it to 1 HP; a failure gives +2 HP, at most 0. Stabilize a dying model: a "
        "success makes it seriously wounded at 0 HP; a failure does nothing. Whatever the roll, one status may also "
        "be removed."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["healer", "target", "mode"],
        "properties": {
            "healer": agents.AGENT,
            "target": {"anyOf": [agents.AGENT, {"type": "null"}], "description": "null: the healer treats itself"},
            "mode": {"enum": list(MODES)},
            "remove_status": {"enum": [None, *REMOVABLE]},
            "has_medkit": {"type": "boolean"},
            "use_reroll": USE_REROLL,
        },
    }

    def check_inputs(self, inputs, settings):
        healer = agents.sheet(inputs["healer"], "healer", needs=("HL",))
        check_can_act(healer, "healer")
        check_not_disoriented(healer, "healer")
        if inputs.get("has_medkit") is False:
            raise err("has_medkit", _("Medical aid needs a med-kit (L117)."))
        field = "target" if inputs.get("target") is not None else "healer"
        target = agents.sheet(inputs.get("target") or inputs["healer"], field, needs=("HL",))
        mode, statuses = inputs["mode"], target["statuses"]
        if mode == "revive" and SERIOUSLY_WOUNDED not in statuses:
            raise err(
                "mode", _("{name} is not seriously wounded: nothing to revive.").format(name=name_of(target, "target"))
            )
        if mode == "stabilize" and DYING not in statuses:
            raise err("mode", _("{name} is not dying: nothing to stabilize.").format(name=name_of(target, "target")))
        if mode == "restore_hp" and DYING in statuses:
            raise err("mode", _("A dying model must be stabilized first (L121)."))
        if mode == "restore_hp" and SERIOUSLY_WOUNDED in statuses and not settings["heal_seriously_wounded"]:
            raise err("mode", _("A seriously wounded model must be revived, not healed (A13)."))
        if "dead" in statuses:
            raise err(f"{field}.statuses", _("The dead cannot be treated."))
        _check_removable(target, inputs.get("remove_status"), "remove_status")
        tester = healer if settings["medic_tests"] == "healer" else target
        reroll_wanted(tester, inputs, "healer" if tester is healer else field)
        return inputs

    def run(self, clean, settings, roller):
        healer = agents.sheet(clean["healer"], "healer")
        self_aid = clean.get("target") is None
        role = "healer" if self_aid else "target"
        target = healer if self_aid else agents.sheet(clean["target"], "target")
        tester, tester_role = (healer, "healer") if settings["medic_tests"] == "healer" else (target, role)
        effects, steps = [], []
        record = roller.test(spec_for(tester, "HL", T("Medical aid HL test"),
                                      reroll=reroll_wanted(tester, clean, tester_role)))  # fmt: skip
        steps.append(record["line"])
        note_reroll(record, tester, effects, tester_role)
        ok, mode, before = record["success"], clean["mode"], target["hp"]
        if mode == "restore_hp":
            heal(target, tables.HEAL_SUCCESS if ok else tables.HEAL_FAILURE, settings, effects, role=role,
                 cause="medical aid")  # fmt: skip
        elif mode == "revive":
            if ok:
                set_hp(target, max(target["hp"], tables.REVIVE_HP), settings, effects, role=role, cause="revived")
            else:
                heal(target, tables.REVIVE_FAILURE_HEAL, settings, effects, role=role, cause="revive failed",
                     cap=tables.REVIVE_FAILURE_CAP)  # fmt: skip
        elif ok:  # stabilize; a failure does nothing (L121)
            set_hp(target, tables.STABILIZE_HP, settings, effects, role=role, cause="stabilized")
        steps.append(T("{name}: HP {before} → {after}.", name=name_of(target, role), before=before, after=target["hp"]))
        if clean.get("remove_status"):
            lose_status(target, clean["remove_status"], effects, role=role, reason="medical aid (L123)")
            steps.append(T("{status} removed (L123, whatever the roll).", status=words.status(clean["remove_status"])))
        if settings["medkit_consumed"]:
            effects.append({"kind": "medkit_used", **who(healer, "healer")})
        summary = T("Medical aid ({mode}): {verdict}; HP {before} → {after}.", mode=words.word(words.AID_MODE, mode),
                    verdict=T("success") if ok else T("failure"), before=before, after=target["hp"])  # fmt: skip
        result = {"success": ok, "hp": target["hp"], "ap": target["ap"], "statuses": sorted(target["statuses"]),
                  "test": record}  # fmt: skip
        return Run(summary, result, effects, steps)

    def summarise(self, clean, settings, runs):
        return {
            "p_success": bool_prob(runs, lambda r: r.result["success"]),
            "hp": dist(runs, lambda r: r.result["hp"]),
            "state": dist(runs, lambda r: _state(r.result["statuses"])),
            # The patient's sheet after the aid: HP and wound state together (AP is untouched; the status removed,
            # if any, goes whatever the roll, L123).
            SHEET_AFTER: joint(runs, lambda r: sheet_parts("", r.result["hp"], r.result["ap"], r.result["statuses"])),
        }


class Prayer(EnfAction):
    key = "prayer"
    label = "Prayer"
    spec_ref = "§2.8, §3.9 (L125–138), A19"
    description = (
        "Needs the perk Prayer; once a round, one target. Anointing (touch): the target tests HL and on a success "
        "heals 1 HP or sheds one status. Benediction (line of sight): +2 to every crit chance for 1 round. "
        "Intercession (line of sight): the target may re-roll 1 test a round for 2 rounds. Last Rites (touch, the "
        "dying): the target's soul goes to the Emperor."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["priest", "prayer", "target"],
        "properties": {
            "priest": agents.AGENT,
            "prayer": {"enum": list(tables.PRAYERS)},
            "target": {"anyOf": [agents.AGENT, {"type": "null"}], "description": "null: the priest itself"},
            "has_prayer_perk": {"type": "boolean"},
            "prayed_this_round": {"type": "boolean"},
            "anointing": {"enum": ["heal", "remove_status"]},
            "remove_status": {"enum": [None, *REMOVABLE]},
            "use_reroll": USE_REROLL,
        },
    }

    def check_inputs(self, inputs, settings):
        priest = agents.sheet(inputs["priest"], "priest")
        check_can_act(priest, "priest")
        if inputs.get("has_prayer_perk") is False:
            raise err("has_prayer_perk", _("Only a character with the perk Prayer may pray (L127)."))
        if inputs.get("prayed_this_round"):
            raise err("prayed_this_round", _("A Prayer may be said once a round (L127)."))
        field = "target" if inputs.get("target") is not None else "priest"
        target = agents.sheet(inputs.get("target") or inputs["priest"], field)
        prayer = inputs["prayer"]
        if prayer == "anointing":
            agents.stat(target, "HL", field)
            if inputs.get("anointing", "heal") == "remove_status":
                if not inputs.get("remove_status"):
                    raise err("remove_status", _("Say which status the anointing takes away."))
                _check_removable(target, inputs["remove_status"], "remove_status")
            reroll_wanted(target, inputs, field)
        if prayer == "last_rites" and DYING not in target["statuses"]:
            raise err("target", _("Last Rites are for the dying (L138)."))
        return inputs

    def run(self, clean, settings, roller):
        priest = agents.sheet(clean["priest"], "priest")
        role = "target" if clean.get("target") is not None else "priest"
        target = priest if role == "priest" else agents.sheet(clean["target"], "target")
        prayer = tables.PRAYERS[clean["prayer"]]
        effects = [{"kind": "prayer_used", **who(priest, "priest"), "prayer": prayer["key"]}]
        steps = [T("{prayer}: {effect}", prayer=prayer["name"],
                   effect=T(words.PRAYER_EFFECT[prayer["key"]]) if prayer["key"] in words.PRAYER_EFFECT
                   else prayer["effect"])]  # fmt: skip
        result = {"prayer": prayer["key"], "success": True}
        if prayer["key"] == "anointing":
            record = roller.test(spec_for(target, "HL", T("Anointing HL test"),
                                          reroll=reroll_wanted(target, clean, role)))  # fmt: skip
            steps.append(record["line"])
            note_reroll(record, target, effects, role)
            result["success"] = record["success"]
            if record["success"] and clean.get("anointing", "heal") == "heal":
                heal(target, prayer["heal"], settings, effects, role=role, cause="anointing")
            elif record["success"]:
                lose_status(target, clean["remove_status"], effects, role=role, reason="anointing")
        elif prayer["key"] == "benediction":
            emit(target, effects, {"kind": "benediction", **who(target, role), "bonus": prayer["crit_bonus"],
                                   "rounds": prayer["duration_rounds"]})  # fmt: skip
        elif prayer["key"] == "intercession":
            effects.append({"kind": "intercession", **who(target, role), "rerolls_per_round": prayer["rerolls_per_round"],
                            "rounds": prayer["duration_rounds"]})  # fmt: skip
        else:  # Last Rites (A19)
            die(target, effects, role=role, reason="last rites")
            if settings["last_rites"] == "peaceful_death":
                effects.append({"kind": "no_fear_for_friends", **who(target, role)})
        result.update(hp=target.get("hp"), statuses=sorted(target["statuses"]))
        if result["success"]:
            summary = T("{prayer} for {name}: granted.", prayer=prayer["name"], name=name_of(target, role))
        else:
            summary = T("{prayer} for {name}: no effect.", prayer=prayer["name"], name=name_of(target, role))
        return Run(summary, result, effects, steps)

    def summarise(self, clean, settings, runs):
        return {
            "p_success": bool_prob(runs, lambda r: r.result["success"]),
            "hp": dist(runs, lambda r: r.result["hp"] if r.result["hp"] is not None else "unknown"),
        }
