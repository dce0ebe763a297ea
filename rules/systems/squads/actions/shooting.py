"""Shooting (§3.5–§3.6, L26–38, L46–66, L84): fire points per weapon, each die against the shooter's «Опыт»
raised by the target's cover (capped at 6+), aimed fire, line of sight and range, armour saves, and hits on
vehicles. The target's owner then splits the unsaved hits (split_hits).

Split fire (L28) is one call per target, each with the figures that fire at it.
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import convolve, distribution, exact, prob
from rules.i18n import _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.common import (
    COUNT,
    DISTANCE,
    FACING,
    LEVEL,
    MAX_DICE,
    TARGET_GROUPS,
    TITLES,
    VEHICLE_ARMOUR,
    WEAPON,
    SquadAction,
    err,
    length,
    pair,
)
from rules.systems.squads.actions.hits import (
    immune,
    roll_saves,
    unsaved_distribution,
    vehicle_damage,
    vehicle_damage_odds,
    worst_effect,
    worst_effect_distribution,
    worst_effect_odds,
)
from rules.systems.squads.actions.turn import may_fire

FIRE_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["weapon", "count", "distance"],
    "properties": {
        "weapon": WEAPON,
        "count": {**COUNT, "minimum": 1, "description": "Figures carrying it (a vehicle: weapons of this kind)"},
        "distance": DISTANCE,
        "line_of_sight": {"type": "boolean", "description": "false: only a mortar may fire (L28, L66)"},
        "spotter": {"type": "boolean", "description": "Mortar: a friendly figure sees the target (§5 B9)"},
        "suppressed": {**COUNT, "description": "Of these figures, suppressed ones: they cannot fire (L27)"},
        "deep_in_cover": {**COUNT, "description": 'In cover more than 2"/5 cm from its edge: cannot fire (L28)'},
        "crew": {**COUNT, "description": "Infantry HMG: able crewmen for these guns (L64, §5 B8)"},
        "mounted": {"type": "boolean", "description": "HMG on a bunker or vehicle: a crew of one (L64)"},
    },
}
SHOOTER_ACTIONS = ("walk", "aimed_fire", "on_guard", *tables.NO_FIRE_ACTIONS, "assault")

INPUT_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["shooter", "target"],
    "properties": {
        "shooter": {
            "type": "object",
            "additionalProperties": False,
            "required": ["level", "groups"],
            "properties": {
                "kind": {"enum": ["squad", "vehicle"]},
                "name": {"type": "string", "maxLength": 80},
                "level": LEVEL,
                "action": {"enum": list(SHOOTER_ACTIONS), "description": "The squad's action this activation"},
                "vehicle_move": {"enum": list(tables.VEHICLE_MOVES), "description": "The vehicle's move (L77)"},
                "groups": {"type": "array", "items": FIRE_GROUP, "minItems": 1, "maxItems": 20},
            },
        },
        "target": {
            "type": "object",
            "additionalProperties": False,
            "required": [],
            "properties": {
                "kind": {"enum": ["squad", "vehicle"]},
                "name": {"type": "string", "maxLength": 80},
                "groups": TARGET_GROUPS,
                "stance": {"enum": ["none", "crouch", "go_to_ground"], "description": "Its last action (L20, L22)"},
                "edge_figures": {**COUNT, "description": "Figures within 2\"/5 cm of their cover's edge (L28)"},
                "same_cover": {"type": "boolean", "description": "Shooter and target in the same cover (L28)"},
                "armour": VEHICLE_ARMOUR,
                "facing": FACING,
            },
        },
        "reaction": {
            "type": "object",
            "additionalProperties": False,
            "required": ["enemy_action"],
            "description": "On Guard reaction fire (L21, §5 B13)",
            "properties": {
                "used_this_turn": {"type": "boolean"},
                "enemy_action": {"enum": ["declared", "resolved"]},
            },
        },
    },
}


def target_cover(target: dict, settings: dict) -> tuple[int, str, bool]:
    """(modifier, cover type, in terrain cover) of a squad target (L33–38, §5 B7; crouch L20, go to ground L22)."""
    groups = target.get("groups") or []
    total = sum(g["count"] for g in groups)
    by_type: dict[str, int] = {}
    for g in groups:
        if g.get("cover", "none") != "none":
            by_type[g["cover"]] = by_type.get(g["cover"], 0) + g["count"]
    covered = sum(by_type.values())
    kind = "none"
    if covered and covered * 2 >= total:  # «хотя бы половина отряда скрыта укрытием»
        ranked = sorted(by_type, key=lambda c: tables.COVER[c])  # lower first, so ties go to the lower
        if settings["mixed_cover"] == "worst":
            kind = ranked[0]
        elif settings["mixed_cover"] == "best":
            kind = ranked[-1]
        else:
            kind = max(ranked, key=lambda c: by_type[c])
    in_terrain = kind != "none"
    modifier = tables.COVER[kind]
    stance = target.get("stance", "none")
    if stance == "crouch":
        modifier = max(modifier, tables.COVER["light"])  # «считается укрытым в слабом укрытии»
    elif stance == "go_to_ground":
        modifier += 1  # «пассивное качество укрытия улучшается на +1»
    return modifier, kind, in_terrain


def plan(clean: dict, settings: dict) -> dict:
    """Every check of the shot, and per fire group: dice and the number each must reach."""
    shooter, target = clean["shooter"], clean["target"]
    vehicle_shooter = shooter.get("kind", "squad") == "vehicle"
    vehicle_target = target.get("kind", "squad") == "vehicle"
    level = "regular" if vehicle_shooter and settings["vehicle_level"] == "regular" else shooter["level"]
    expertise = tables.TRAINING[level].expertise
    action = shooter.get("action")
    if vehicle_shooter:
        if action is not None:
            raise err("shooter.action", _("A vehicle has no squad action: give its vehicle move (L77)."))
        move = shooter.get("vehicle_move", "stationary")
        allowed = tables.VEHICLE_MOVES[move][1]
        if move == "open" and settings["vehicle_move_fire"] == "light_cover_move_only":
            allowed = 0
        fired = sum(g["count"] for g in shooter["groups"])
        if allowed is not None and fired > allowed:
            raise err(
                "shooter.groups",
                _("A vehicle that moves through medium cover cannot fire (L77).")
                if allowed == 0
                else _("A moving vehicle fires {allowed} weapon (L77); {fired} were given.").format(
                    allowed=allowed, fired=fired
                ),
                {"weapons": allowed},
            )
    else:
        if "vehicle_move" in shooter:
            raise err("shooter.vehicle_move", _("Only a vehicle has a vehicle move."))
        action = action or "aimed_fire"
        if action in tables.NO_FIRE_ACTIONS or action == "assault":
            raise err(
                "shooter.action",
                _("A unit that chose «{action}» cannot fire (L19–24).").format(action=names.action(action)),
            )
    aimed = action == "aimed_fire"
    reaction = clean.get("reaction")
    if reaction is not None:
        if action != "on_guard":
            raise err("reaction", _("Only a unit On Guard («Защита») fires as a reaction (L21)."))
        if reaction.get("used_this_turn"):
            raise err(
                "reaction.used_this_turn",
                _("On Guard reacts once a turn (L21); this unit already did."),
                {"reactions_per_turn": 1},
            )
        wanted = "declared" if settings["on_guard_timing"] == "interrupt" else "resolved"
        if reaction["enemy_action"] != wanted:
            raise err(
                "reaction.enemy_action",
                _("On Guard fires after the enemy declares its action, before it is resolved (§5 B13).")
                if wanted == "declared"
                else _("On Guard fires once the enemy's action is done (§5 B13 setting)."),
            )
    elif action == "on_guard":
        raise err("reaction", _("A unit On Guard fires only as a reaction to an enemy unit: give the reaction."))

    # The target -------------------------------------------------------------------------------------------
    same_cover = target.get("same_cover", False)
    if vehicle_target:
        for key in ("armour", "facing"):
            if key not in target:
                raise err(
                    f"target.{key}", _("A vehicle target needs its {field}.").format(field=_(TITLES.get(key, key)))
                )
        for key in ("groups", "stance", "edge_figures"):
            if key in target:
                raise err(
                    f"target.{key}", _("A vehicle target has no figures, stance or cover edge: its armour saves.")
                )
        cover, cover_kind, in_terrain = 0, "none", False
    else:
        if not target.get("groups"):
            raise err("target.groups", _("Give the target's figures (count, armour, cover)."))
        for key in ("armour", "facing"):
            if key in target:
                raise err(f"target.{key}", _("Only a vehicle target has a vehicle armour and facing."))
        cover, cover_kind, in_terrain = target_cover(target, settings)
        figures = sum(g["count"] for g in target["groups"])
        if target.get("edge_figures", 0) > figures:
            raise err("target.edge_figures", _("The target has only {figures} figures.").format(figures=figures))
        if in_terrain and not same_cover and target.get("edge_figures") == 0:
            raise err(
                "target.edge_figures",
                _(
                    "No enemy figure is within {distance} of the cover's edge: the unit cannot be shot from outside "
                    "(L28)."
                ).format(distance=length(pair(tables.COVER_EDGE, settings), settings)),
            )

    groups = []
    for i, g in enumerate(shooter["groups"]):
        field = f"shooter.groups.{i}"
        w = tables.WEAPONS[g["weapon"]]
        if not vehicle_shooter and not may_fire(action, w.key, settings):
            raise err(
                f"{field}.weapon",
                _("On a Walk only small arms fire and grenades are thrown (L18, §5 B6): not {weapon}.").format(
                    weapon=names.weapon(w.key)
                ),
            )
        if g["distance"] > tables.weapon_range(w, settings):
            raise err(
                f"{field}.distance",
                _("{weapon} reaches {range}; the target is {distance} away.").format(
                    weapon=names.weapon(w.key),
                    range=length(tables.weapon_range(w, settings), settings),
                    distance=length(g["distance"], settings),
                ),
                {"distance": tables.weapon_range(w, settings)},
            )
        if same_cover and g["distance"] > pair(tables.SAME_COVER, settings):
            raise err(
                f"{field}.distance",
                _("In the same cover a unit fires only within {distance} (L28).").format(
                    distance=length(pair(tables.SAME_COVER, settings), settings)
                ),
                {"distance": pair(tables.SAME_COVER, settings)},
            )
        if not g.get("line_of_sight", True):
            if not w.indirect:
                raise err(
                    f"{field}.line_of_sight",
                    _("{weapon} needs a line of sight (L28); only mortars fire without (L66).").format(
                        weapon=names.weapon(w.key)
                    ),
                )
            if settings["mortar_line_of_sight"] == "spotter" and not g.get("spotter"):
                raise err(
                    f"{field}.spotter", _("A mortar firing blind needs a friendly figure that sees the target (§5 B9).")
                )
        if vehicle_shooter and (g.get("suppressed") or g.get("deep_in_cover") or "crew" in g):
            raise err(field, _("A vehicle's weapons are not suppressed and need no crew count (L90, L64)."))
        blocked = g.get("suppressed", 0) + g.get("deep_in_cover", 0)
        if blocked > g["count"]:
            raise err(f"{field}.suppressed", _("Only {n} figures carry it.").format(n=g["count"]))
        firing = g["count"] - blocked
        if w.key == "hmg" and not vehicle_shooter and not g.get("mounted"):
            crew = g.get("crew", g["count"] * w.crew_infantry)
            per_gun = w.crew_infantry if settings["hmg_infantry_crew"] == "two_per_gun" else 1
            firing = min(g["count"], crew // per_gun)  # §5 B8: count = guns, crew = able crewmen
        per_figure = tables.fire_dice(w, g["distance"], settings)
        ignores = w.ignores_cover
        need = tables.hit_need(expertise, 0 if ignores else cover, aimed, settings)
        groups.append({"weapon": w.key, "name": w.name, "firing": firing, "dice": firing * per_figure,
                       "need": need, "p_hit": tables.p_at_least(need),
                       "immune": vehicle_target and immune(w.key, target["armour"], settings)})  # fmt: skip
    total = sum(g["dice"] for g in groups if not g["immune"])
    if total > MAX_DICE:
        raise err(
            "shooter.groups",
            _("At most {limit} dice in one bout of fire ({total} given).").format(limit=MAX_DICE, total=total),
        )
    return {"groups": groups, "cover": cover, "cover_kind": cover_kind, "aimed": aimed, "expertise": expertise,
            "vehicle_target": vehicle_target, "level": level}  # fmt: skip


class Shooting(SquadAction):
    key = "shooting"
    label = "Shooting"
    spec_ref = "§3.5–§3.6, §3.9 (L26–38, L46–66, L77, L84–90), §5 B3, B5–B9, B13, B15–B19"
    description = (
        "Each firing figure rolls a d6 per fire point of its weapon; each die equal to or above the shooter's "
        "«Опыт» hits. Cover adds +1/+2/+3 to that number but never past 6+ (flamethrowers and cannons ignore it); "
        "aimed fire adds +1 to each die. Each hit gets a save by armour. On a vehicle, small arms and HMGs cannot "
        "harm armour; each unsaved hit rolls the damage die by facing. The target's owner splits unsaved hits on "
        "a unit (split_hits). On a vehicle the odds give each effect's chance to happen at least once and the most "
        "severe effect of the attack."
    )
    input_schema = INPUT_SCHEMA

    def check_inputs(self, inputs, settings):
        return {**inputs, "_plan": plan(inputs, settings)}

    def resolve_clean(self, clean, settings, dice):
        p = clean["_plan"]
        target = clean["target"]
        steps: list[str] = []
        if p["cover"]:
            steps.append(
                _("Target cover +{cover} ({kind}); the hit number is capped at 6+ (L38).").format(
                    cover=p["cover"], kind=names.cover(p["cover_kind"])
                )
            )
        hits = 0
        per_group = []
        for g in p["groups"]:
            if g["immune"]:
                steps.append(
                    _("{weapon}: powerless against an armoured vehicle (L84), not rolled.").format(
                        weapon=names.weapon(g["weapon"])
                    )
                )
                per_group.append({"weapon": g["weapon"], "dice": [], "hits": 0, "immune": True})
                continue
            rolls = dice.roll_many(g["dice"], 6, names.FIRE_DICE[g["weapon"]]) if g["dice"] else []
            bonus = 0 if settings["aimed_cap_order"] == "aim_then_cap" else int(p["aimed"])
            shown = _("{need}+ with +{bonus}").format(need=g["need"] + bonus, bonus=bonus) if bonus else f"{g['need']}+"
            n = sum(1 for r in rolls if r >= g["need"])
            hits += n
            steps.append(
                _("{weapon}: dice {n} {rolls}, needing {need}: hits {hits}.").format(
                    weapon=names.weapon(g["weapon"]), n=g["dice"], rolls=rolls, need=shown, hits=n
                )
            )
            per_group.append({"weapon": g["weapon"], "dice": rolls, "need": g["need"], "hits": n})
        result = {"hits": hits, "groups": per_group, "cover": p["cover"], "aimed": p["aimed"]}
        effects = [{"kind": "fired", "role": "shooter"}]
        if clean.get("reaction"):
            effects.append({"kind": "reaction_used", "role": "shooter"})
        if p["vehicle_target"]:
            return self._on_vehicle(dice, hits, target, settings, steps, result, effects)
        saved = roll_saves(dice, hits, target["groups"], settings, steps)
        result.update(unsaved=saved["unsaved"], saves=saved["saves"])
        if saved["unsaved"]:
            split = {"kind": "hits_to_split", "role": "target", "unsaved": saved["unsaved"],
                     "chooser": "target" if settings["split_chooser"] == "target_owner" else "shooter"}  # fmt: skip
            if "edge_figures" in target:
                split["allocatable"] = target["edge_figures"]
            effects.append(split)
        line = (
            _("Hits {hits}, unsaved {unsaved}: to split between suppression and casualties.")
            if saved["unsaved"]
            else _("Hits {hits}, unsaved {unsaved}.")
        )
        summary = line.format(hits=hits, unsaved=saved["unsaved"])
        return self.outcome(summary, result, effects, steps)

    def _on_vehicle(self, dice, hits, target, settings, steps, result, effects):
        save = tables.VEHICLE_ARMOUR[target["armour"]].save
        rolls = dice.roll_many(hits, 6, names.VEHICLE_SAVES[save]) if hits else []
        unsaved = sum(1 for r in rolls if r < save)
        if hits:
            steps.append(
                _("Vehicle saves {save}+ {rolls}: unsaved {unsaved} (passengers do not roll, L28).").format(
                    save=save, rolls=rolls, unsaved=unsaved
                )
            )
        damage, more = vehicle_damage(dice, unsaved, target["facing"], settings, steps)
        result.update(unsaved=unsaved, save_rolls=rolls, damage=damage, worst_effect=worst_effect(damage))
        effects += more
        worst = damage[-1]["effect"] if damage else None
        if damage:
            summary = _("Hits {hits}, unsaved {unsaved}: {effects}.").format(
                hits=hits, unsaved=unsaved, effects=", ".join(names.damage(d["effect"]) for d in damage)
            )
        else:
            summary = _("Hits {hits}, unsaved {unsaved}.").format(hits=hits, unsaved=unsaved)
        result["destroyed"] = worst == "destroyed"
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        p = clean["_plan"]
        hits = {0: Fraction(1)}
        for g in p["groups"]:
            if not g["immune"]:
                hits = convolve(hits, tables.binomial(g["dice"], g["p_hit"]))
        expected_hits = sum((k * v for k, v in hits.items()), Fraction(0))
        out = {
            "groups": [
                {
                    "weapon": g["weapon"],
                    "dice": g["dice"],
                    "need": g["need"],
                    "p_hit": prob(g["p_hit"]),
                    "immune": g["immune"],
                }
                for g in p["groups"]
            ],  # fmt: skip
            "hits": distribution(hits),
            "expected_hits": exact(expected_hits),
            "p_any_hit": prob(1 - hits.get(0, Fraction(0))),
        }
        if p["vehicle_target"]:
            save = tables.VEHICLE_ARMOUR[clean["target"]["armour"]].save
            fail = 1 - tables.p_at_least(save)
            unsaved: dict[int, Fraction] = {}
            for h, ph in hits.items():
                for u, pu in tables.binomial(h, fail).items():
                    unsaved[u] = unsaved.get(u, Fraction(0)) + ph * pu
            facing = clean["target"]["facing"]
            effects = vehicle_damage_odds(unsaved, facing, settings)
            out["damage_die"] = distribution(tables.damage_die_distribution(facing, settings))
            out["p_effect"] = {k: prob(v) for k, v in effects.items()}
            out["worst_effect"] = worst_effect_distribution(worst_effect_odds(unsaved, facing, settings))
        else:
            unsaved = unsaved_distribution(hits, clean["target"]["groups"], settings)
        out["unsaved"] = distribution(unsaved)
        out["expected_unsaved"] = exact(sum((k * v for k, v in unsaved.items()), Fraction(0)))
        out["p_any_unsaved"] = prob(1 - unsaved.get(0, Fraction(0)))
        return out
