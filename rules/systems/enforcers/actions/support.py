"""Moving (§3.4), listening (§3.5), aiming (§3.6), Overwatch, Suppressive fire and Take cover (§3.7)."""

from __future__ import annotations

from rules.i18n import _
from rules.systems.enforcers import agents, tables, words
from rules.systems.enforcers.actions.common import (
    GM_DICE,
    USE_REROLL,
    WEAPON,
    EnfAction,
    Run,
    bool_prob,
    check_can_act,
    err,
    name_of,
    note_reroll,
    reaction_shot_due,
    reroll_wanted,
    spec_for,
    who,
)
from rules.systems.enforcers.texts import NT, T, join
from rules.systems.enforcers.wounds import emit


def _one_agent_schema(extra: dict | None = None, required=("agent",)) -> dict:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(required),
        "properties": {"agent": agents.AGENT, **(extra or {})},
    }


class Move(EnfAction):
    key = "move"
    label = "Move"
    spec_ref = "§3.4 (L45, L49, L79–85), A8, A24"
    description = (
        "Move up to DX cm: −2 cm per item over the carrying capacity (TN/2), −2 cm if Poisoned, halved if Burning. "
        "Difficult terrain costs double (not in a Spider Suit); an over-encumbered model needs a DX test to cross "
        "it. Jumps: DX/2 cm across, DX/4 cm up, within the move. Moving loses the aim."
    )
    input_schema = _one_agent_schema(
        {
            "distance_cm": {"type": "number", "minimum": 0, "maximum": 200, "description": "Open ground, cm"},
            "difficult_cm": {
                "type": "number",
                "minimum": 0,
                "maximum": 200,
                "description": "Through difficult terrain",
            },
            "jump_across_cm": {"type": "number", "minimum": 0, "maximum": 50},
            "jump_up_cm": {"type": "number", "minimum": 0, "maximum": 50},
            "use_reroll": USE_REROLL,
        }
    )

    def cost(self, clean: dict) -> float:
        factor = 1 if (tables.armour(clean["agent"].get("armour")) or {}).get("ignores_difficult_terrain") else 2
        return clean.get("distance_cm", 0) + factor * clean.get("difficult_cm", 0)

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent", needs=("DX", "TN"))
        check_can_act(agent, "agent")
        limit = agents.max_move(agent, settings)
        derived = agents.derived(agent, settings)
        cost = self.cost(inputs)
        if cost > limit:
            raise err("distance_cm", _("This move costs {cost} cm (difficult terrain counts double); {name} moves at "
                                       "most {limit} cm now.").format(cost=f"{cost:g}", name=name_of(agent, "agent"),
                                                                      limit=limit),
                      {"move_cm": limit})  # fmt: skip
        across, up = inputs.get("jump_across_cm", 0), inputs.get("jump_up_cm", 0)
        if across > derived["jump_horizontal"]:
            raise err(
                "jump_across_cm",
                _("A jump across is at most DX/2 = {n} cm (L85).").format(n=derived["jump_horizontal"]),
                {"jump_across_cm": derived["jump_horizontal"]},
            )
        if up > derived["jump_vertical"]:
            raise err("jump_up_cm", _("A jump up is at most DX/4 = {n} cm (L85).").format(n=derived["jump_vertical"]),
                      {"jump_up_cm": derived["jump_vertical"]})  # fmt: skip
        if (across or up) and settings["jump_limit"] == "jump_distance":
            cap = derived["jump_horizontal"] if across else derived["jump_vertical"]
            if cost > cap:
                raise err(
                    "distance_cm",
                    _("A move with a jump is capped at the jump distance, {n} cm (A8, literal).").format(n=cap),
                    {"move_cm": cap},
                )
        reroll_wanted(agent, inputs, "agent")
        return inputs

    def needs_test(self, clean: dict, settings: dict) -> bool:
        spider = (tables.armour(clean["agent"].get("armour")) or {}).get("ignores_difficult_terrain")
        return bool(clean.get("difficult_cm")) and agents.over_encumbered(clean["agent"], settings) and not spider

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        effects, steps = [], []
        crossed = True
        if self.needs_test(clean, settings):
            record = roller.test(spec_for(agent, "DX", T("DX test to cross difficult terrain"),
                                          reroll=reroll_wanted(agent, clean, "agent")))  # fmt: skip
            steps.append(record["line"])
            note_reroll(record, agent, effects, "agent")
            crossed = record["success"]
        moved = self.cost(clean) if crossed else clean.get("distance_cm", 0)
        effects.append({"kind": "moved", **who(agent, "agent"), "cm": moved, "crossed_difficult": crossed})
        if agent.get("aim"):
            emit(agent, effects, {"kind": "aim", **who(agent, "agent"), "stacks": 0, "reason": "moved (L93)"})
        if agent.get("took_cover"):
            emit(agent, effects, {"kind": "stance", **who(agent, "agent"), "stance": "took_cover", "on": False})
        if agents.has(agent, "pinned"):
            effects.append(reaction_shot_due(agent, "agent", settings))
        limit = agents.max_move(agent, settings)
        summary = T("{name} moves {moved} of {limit} cm", name=name_of(agent, "agent"), moved=f"{moved:g}",
                    limit=limit)  # fmt: skip
        if not crossed:
            summary += T("; it fails to cross the difficult terrain")
        result = {"crossed": crossed, "moved_cm": moved, "max_cm": limit, "derived": agents.derived(agent, settings)}
        return Run(summary + ".", result, effects, steps)

    def summarise(self, clean, settings, runs):
        first = runs[0][1].result
        return {"p_crosses": bool_prob(runs, lambda r: r.result["crossed"]), "max_cm": first["max_cm"],
                "derived": first["derived"], "needs_dx_test": self.needs_test(clean, settings)}  # fmt: skip


class Listen(EnfAction):
    key = "listen"
    label = "Listen"
    spec_ref = "§3.5 (L87–89, L311)"
    description = "A PR test; on a success every enemy within PR cm is revealed. Disoriented gives a curse."
    input_schema = _one_agent_schema({"use_reroll": USE_REROLL, **GM_DICE})

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent", needs=("PR",))
        check_can_act(agent, "agent")
        reroll_wanted(agent, inputs, "agent")
        return inputs

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        effects = []
        curses = int(agents.has(agent, "disoriented")) + clean.get("extra_curses", 0)
        record = roller.test(spec_for(agent, "PR", T("Listen"), blessings=clean.get("extra_blessings", 0), curses=curses,
                                      modifier=clean.get("modifier", 0), reroll=reroll_wanted(agent, clean, "agent")))  # fmt: skip
        note_reroll(record, agent, effects, "agent")
        radius = agents.effective_stats(agent)["PR"]
        if record["success"]:
            effects.append({"kind": "revealed", **who(agent, "agent"), "radius_cm": radius})
        summary = T("Enemies within {n} cm are revealed.", n=radius) if record["success"] else T("Nothing heard.")
        return Run(
            summary, {"success": record["success"], "radius_cm": radius, "test": record}, effects, [record["line"]]
        )

    def summarise(self, clean, settings, runs):
        return {
            "p_success": bool_prob(runs, lambda r: r.result["success"]),
            "radius_cm": runs[0][1].result["radius_cm"],
        }


class _Stance(EnfAction):
    """An action without dice: it changes the agent's state only."""

    blocked_by: tuple[str, ...] = ()

    def check_inputs(self, inputs, settings):
        agent = agents.sheet(inputs["agent"], "agent")
        check_can_act(agent, "agent")
        for status in self.blocked_by:
            if agents.has(agent, status):
                raise err(
                    "agent.statuses",
                    _("A model with the status {status} cannot do this (L311, L315).").format(
                        status=words.status(status)
                    ),
                )
        return inputs

    def summarise(self, clean, settings, runs):
        run = runs[0][1]
        return {"p": {"exact": "1/1", "p": 1.0}, "result": run.result, "effects": run.effects}


class Aim(_Stance):
    key = "aim"
    label = "Aim"
    spec_ref = "§3.6 (L91–93), A25"
    description = (
        "Aim at a point (5 cm across at most): +1 blessing on the next shot at it. Aims stack; moving loses them."
    )
    input_schema = _one_agent_schema(
        {"same_point": {"type": "boolean", "description": "Aiming again at the same point"}}
    )
    blocked_by = ("disoriented", "pinned")

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        stacks = (agent.get("aim", 0) if clean.get("same_point", True) else 0) + 1
        effects = []
        emit(agent, effects, {"kind": "aim", **who(agent, "agent"), "stacks": stacks, "reason": "aimed"})
        return Run(
            NT(
                "Aiming: +{n} blessing on the next shot at that point.",
                "Aiming: +{n} blessings on the next shot at that point.",
                stacks,
            ),
            {"stacks": stacks},
            effects,
        )


class Overwatch(_Stance):
    key = "overwatch"
    label = "Overwatch"
    spec_ref = "§3.7 (L101–103, L311)"
    description = "Ends the activation; the model shoots the first enemy in view that moves, shoots or fights."
    input_schema = _one_agent_schema()
    blocked_by = ("disoriented",)

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        effects = []
        emit(agent, effects, {"kind": "stance", **who(agent, "agent"), "stance": "overwatch", "on": True})
        effects.append({"kind": "activation_ends", **who(agent, "agent")})
        return Run(T("On overwatch: the activation ends."), {"overwatch": True, "ends_activation": True}, effects)


class TakeCover(_Stance):
    key = "take_cover"
    label = "Take cover"
    spec_ref = "§3.7 (L109–111), A3"
    description = "Ends the activation: shooters get a curse against the model, and it is immune to crits."
    input_schema = _one_agent_schema()

    def run(self, clean, settings, roller):
        agent = agents.sheet(clean["agent"], "agent")
        effects = []
        emit(agent, effects, {"kind": "stance", **who(agent, "agent"), "stance": "took_cover", "on": True})
        effects.append({"kind": "activation_ends", **who(agent, "agent")})
        return Run(T("Taking cover: the activation ends."), {"took_cover": True, "ends_activation": True}, effects)


class SuppressiveFire(_Stance):
    key = "suppressive_fire"
    label = "Suppressive fire"
    spec_ref = "§3.7 (L105–107), A15"
    description = (
        "Pick a point (5 cm across at most): every model there or between the shooter and it is Pinned. No damage; "
        "it spends half the weapon's ammo, so the weapon needs at least half a magazine."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["agent", "weapon", "targets"],
        "properties": {
            "agent": agents.AGENT,
            "weapon": {**WEAPON, "required": ["damage", "ammo", "capacity"]},
            "targets": {"type": "array", "items": agents.AGENT, "maxItems": 20, "description": "Models pinned"},
        },
    }
    blocked_by = ("disoriented",)

    def check_inputs(self, inputs, settings):
        super().check_inputs(inputs, settings)
        weapon = inputs["weapon"]
        if weapon["ammo"] is None or weapon["capacity"] is None:
            raise err("weapon.ammo", _("Suppressive fire needs the weapon's ammo and magazine size."))
        if 2 * weapon["ammo"] < weapon["capacity"]:
            raise err("weapon.ammo", _("{ammo} of {capacity} left: suppressive fire needs at least half a magazine "
                                       "(L107).").format(ammo=weapon["ammo"], capacity=weapon["capacity"]),
                      {"ammo_min": -(-weapon["capacity"] // 2)})  # fmt: skip
        if weapon.get("drawn") is False:
            raise err("weapon.drawn", _("Only a drawn weapon can be used (L73)."))
        return inputs

    def run(self, clean, settings, roller):
        from rules.systems.enforcers.wounds import gain_status

        agent = agents.sheet(clean["agent"], "agent")
        weapon = clean["weapon"]
        spent = max(1, weapon["capacity"] // 2)
        effects = [{"kind": "ammo_spent", **who(agent, "agent"), "amount": spent, "ammo": weapon["ammo"] - spent}]
        pinned = []
        for i, target in enumerate(clean["targets"]):
            sheet = agents.sheet(target, f"targets.{i}")
            if gain_status(
                sheet, "pinned", settings, effects, role=f"targets.{i}", by=agent.get("ref", agent.get("name"))
            ):
                pinned.append(sheet.get("name") or T("target {n}", n=i + 1))
        if pinned:
            summary = T("Suppressive fire: {names} pinned; {n} ammo spent.", names=join(", ", pinned), n=spent)
        else:
            summary = T("Suppressive fire: nobody pinned; {n} ammo spent.", n=spent)
        return Run(summary, {"pinned": pinned, "ammo_spent": spent}, effects)
