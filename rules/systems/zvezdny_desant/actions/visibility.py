"""What the shooter sees and how well the target hides: line of sight and the grey zone (§3.7, L352–398), the
cover of a unit (§3.9, L465–512) and partial view (L394–398). No dice.

A target unit is described as groups of figures standing alike:
    {"count": 3, "cover": "medium", "grey_zone": false, "cover_size": "medium", "visible": true}
"""

from __future__ import annotations

from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import COVER, KIND, MAX_FIGURES, REF, RuleAction, err

MAX_GROUPS = 10

TARGET_GROUP_PROPERTIES = {
    "count": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES, "description": N_("Figures standing alike")},
    "ref": REF,
    "cover": {**COVER, "default": "open", "description": N_("Cover of these figures (for a grey zone: the piece's)")},
    "grey_zone": {"type": "boolean", "default": False, "description": N_("Up to 3 steps deep in a grey zone")},
    "cover_size": {"enum": list(tables.SIZES), "default": "medium", "description": N_("Size of the cover piece")},
}
COVER_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count"],
    "properties": {
        **TARGET_GROUP_PROPERTIES,
        "visible": {"type": "boolean", "default": True, "description": N_("In the shooter's line of sight")},
    },
}


def figure_cover(group: dict, target_kind: str, settings: dict) -> str:
    """The cover one group of figures stands in, as the shooter sees it (L477–512, A13)."""
    cover = group.get("cover", "open")
    if group.get("grey_zone"):  # a figure in a grey zone is in cover (L481); its type: A13
        cover = "light" if settings["grey_zone_cover"] == "light" else cover
    if target_kind == "vehicle" and group.get("cover_size", "medium") == "small":
        return "open"  # small pieces hide only infantry (L506–512)
    return cover


def check_grey_zones(groups: list[dict], field: str, settings: dict) -> None:
    if settings["grey_zone_cover"] != "per_piece":
        return
    for i, g in enumerate(groups):
        if g.get("grey_zone") and g.get("cover", "open") == "open":
            raise err(
                f"{field}.{i}.cover",
                _("Name the cover this grey-zone piece gives (light for woods, medium for ruins…, §5 A13)."),
            )


def unit_cover_of(groups: list[dict], target_kind: str, settings: dict, visible: list[bool]) -> tuple[str, dict]:
    """(the unit's cover, figures counted per cover). A12: all living figures, or only the visible ones."""
    counts = dict.fromkeys(tables.COVERS, 0)
    for g, seen in zip(groups, visible, strict=True):
        if settings["cover_basis"] == "visible_only" and not seen:
            continue
        counts[figure_cover(g, target_kind, settings)] += g["count"]
    return tables.unit_cover(counts), counts


def cover_steps(counts: dict, cover: str) -> list[str]:
    n = sum(counts.values())
    listed = ", ".join(f"{counts[c]} {tables.cover_word(c)}" for c in tables.COVERS if counts[c])
    return [
        _("{n} figures counted: {listed}.").format(n=n, listed=listed),
        _("The unit counts as in: {cover} (+{cover2} to the hit test).").format(
            cover=tables.cover_word(cover), cover2=tables.COVER_BONUS[cover]
        ),
    ]


class Cover(RuleAction):
    key = "cover"
    label = N_("Cover of a unit, grey zone, partial view")
    spec_ref = "§3.9, §3.7 (L394–398, L465–512), §5 A12, A13"
    description = N_(
        "If strictly more than ½ of the unit is in one type of cover, it counts as in that cover; if more than ½ "
        "is in cover of mixed types, in the type with the smallest plus; ½ or less: open. Figures in a grey zone "
        "are in cover; small pieces hide no vehicle. Figures out of sight cannot be killed; a unit none of whose "
        "figures is seen cannot be a target."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["figures"],
        "properties": {
            "target_kind": KIND,
            "figures": {"type": "array", "minItems": 1, "maxItems": MAX_GROUPS, "items": COVER_GROUP},
        },
    }

    def check_inputs(self, inputs, settings):
        groups = [{"visible": True, **g} for g in inputs["figures"]]
        if sum(g["count"] for g in groups) > MAX_FIGURES:
            raise err("figures", _("A unit has at most {max_figures} figures here.").format(max_figures=MAX_FIGURES))
        if inputs["target_kind"] == "vehicle" and any(g.get("grey_zone") for g in groups):
            raise err("figures", _("The grey zone is a rule for infantry figures (L382)."))
        check_grey_zones(groups, "figures", settings)
        return {**inputs, "figures": groups}

    def rule(self, clean, settings):
        groups, kind = clean["figures"], clean["target_kind"]
        visible = [g["visible"] for g in groups]
        seen = sum(g["count"] for g in groups if g["visible"])
        cover, counts = unit_cover_of(groups, kind, settings, visible)
        steps = cover_steps(counts, cover)
        total = sum(g["count"] for g in groups)
        if seen == 0:
            steps.append(_("No figure is in sight: the unit cannot be chosen as a target (L398, L408)."))
        elif seen < total:
            steps.append(
                _("{seen} figures out of sight cannot be killed by this shooting (L396–398).").format(seen=total - seen)
            )
        result = {
            "cover": cover,
            "bonus": tables.COVER_BONUS[cover],
            "counted": counts,
            "visible_figures": seen,
            "can_be_targeted": seen > 0,
            "killable_figures": seen,
        }
        summary = _("{capitalize}: +{cover} to the hit test.").format(
            capitalize=tables.cover_word(cover).capitalize(), cover=tables.COVER_BONUS[cover]
        )
        if seen == 0:
            summary = _("Fully out of sight: not a target.")
        effects = [{"kind": "cover", "role": "target", "cover": cover, "bonus": tables.COVER_BONUS[cover]}]
        return summary, result, effects, steps


OBSTACLE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind"],
    "properties": {
        "kind": {
            "enum": ["terrain", "vehicle", "own_unit", "friendly_infantry", "enemy_infantry"],
            "description": N_(
                "What stands between: terrain, any vehicle (even wrecked), the shooter's own unit, "
                "other infantry of the shooter's side, or enemy infantry"
            ),
        },
        "size": {"enum": list(tables.SIZES), "description": N_("Terrain size: small, medium or large")},
        "target_height_ratio": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 1,
            "description": N_("Enemy infantry: the target's height divided by this figure's height"),
        },
        "same_unit_as_target": {"type": "boolean", "default": False},
    },
}
GREY_ZONE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["size"],
    "properties": {
        "size": {"enum": list(tables.SIZES)},
        "observer_depth": {"type": "number", "minimum": 0, "maximum": 200, "default": 0,
                           "description": N_("Steps the observer stands inside (0: outside)")},
        "target_depth": {"type": "number", "minimum": 0, "maximum": 200, "default": 0},
        "opposite_sides": {"type": "boolean", "default": False, "description": N_("Both outside, on opposite sides")},
        "distance": {"type": "number", "minimum": 0, "maximum": 500,
                     "description": N_("Steps between the two when both are inside")},
    },
}  # fmt: skip


def blocks(obstacle: dict, target_kind: str, settings: dict) -> tuple[bool, str]:
    """Does this obstacle break the line of sight to the target figure? (L356–376, A14)"""
    kind = obstacle["kind"]
    if kind == "own_unit":
        return False, _("figures of the shooter's own unit never block (L360)")
    if kind == "friendly_infantry":
        return False, _("the shooter's other infantry units never block (L362)")
    if kind == "vehicle":
        return True, _("a vehicle, even wrecked, blocks (L358)")
    if kind == "enemy_infantry":
        if obstacle.get("same_unit_as_target") and not settings["same_unit_screens"]:
            return False, _("figures of the target's own unit do not screen each other (§5 A14)")
        ratio = obstacle.get("target_height_ratio", 1)
        if ratio <= 2:
            return True, _("enemy infantry blocks figures at most twice as tall (L364)")
        return False, _("the target is more than twice as tall as this enemy infantry (L364)")
    size = obstacle["size"]
    if size == "small":
        return False, _("a small piece never blocks sight; it may give infantry cover (L372)")
    if size == "medium":
        if target_kind == "infantry":
            return True, _("a medium piece blocks sight to infantry (L374)")
        return False, _("a medium piece does not hide a vehicle, only protects it (L374)")
    return True, _("a large piece blocks infantry and vehicles (L376)")


def grey_zone_sight(zone: dict, settings: dict) -> tuple[bool, bool, str]:
    """(visible, target gets cover, why) through one grey-zone piece (L378–392, A29)."""
    depth = tables.GREY_ZONE_DEPTH
    obs, tgt = zone.get("observer_depth", 0), zone.get("target_depth", 0)
    in_cover = tgt > 0
    if zone["size"] == "small":
        return True, in_cover or zone.get("opposite_sides", False), _("a small grey zone only gives cover (L392)")
    if obs > 0 and tgt > 0:
        distance = zone.get("distance")
        if distance is None:
            raise err("grey_zone.distance", _("Both figures are inside: give the distance between them (L388)."))
        if distance > depth:
            return False, True, _("inside one grey zone and more than 3 steps apart (L388)")
        return True, True, _("inside one grey zone, 3 steps or less apart: they see each other, in cover (L390)")
    if zone.get("opposite_sides"):
        return False, False, _("on opposite sides of a grey zone (L386)")
    if tgt > depth:
        return False, True, _("the target is more than 3 steps deep: behind an obstruction (L384)")
    if obs > depth:
        if settings["grey_zone_symmetric"]:
            return False, False, _("the observer is more than 3 steps deep: sight is symmetric (§5 A29)")
        return True, in_cover, _("the observer sees out from deep inside (A29 asymmetric reading)")
    if in_cover:
        return True, True, _("the target is 3 steps deep or less: in the grey zone, seen but in cover (L382)")
    return True, False, _("the grey zone is not between them in a way that hides")


class Sight(RuleAction):
    key = "sight"
    label = N_("Line of sight and the grey zone")
    spec_ref = "§3.7 (L352–392), §5 A14, A29"
    description = N_(
        "Is a target figure in the shooter's line of sight? Large pieces and vehicles block; medium pieces block "
        "infantry; small ones never. Own and friendly infantry never block; enemy infantry blocks figures at most "
        "twice as tall. In a grey zone a figure up to 3 steps deep is seen but in cover; deeper it is hidden."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "target_kind": KIND,
            "between": {"type": "array", "maxItems": 20, "items": OBSTACLE, "default": []},
            "grey_zone": {"anyOf": [{"type": "null"}, GREY_ZONE], "default": None},
        },
    }

    def check_inputs(self, inputs, settings):
        for i, o in enumerate(inputs["between"]):
            if o["kind"] == "terrain" and "size" not in o:
                raise err(f"between.{i}.size", _("Say the terrain piece's size: small, medium or large (L370–376)."))
        if inputs["grey_zone"] and inputs["target_kind"] == "vehicle" and inputs["grey_zone"].get("target_depth"):
            raise err("grey_zone", _("The grey zone is a rule for infantry figures (L382)."))
        if inputs["grey_zone"]:
            grey_zone_sight(inputs["grey_zone"], settings)  # refuses a missing distance now, not later
        return inputs

    def rule(self, clean, settings):
        steps = []
        visible, cover = True, False
        for o in clean["between"]:
            blocked, why = blocks(o, clean["target_kind"], settings)
            steps.append((_("Blocked: {why}.") if blocked else _("Clear: {why}.")).format(why=why))
            visible = visible and not blocked
        if clean["grey_zone"]:
            seen, in_cover, why = grey_zone_sight(clean["grey_zone"], settings)
            steps.append((_("Grey zone, seen: ") if seen else _("Grey zone, hidden: ")) + why + ".")
            visible = visible and seen
            cover = in_cover
        summary = (_("In sight") + (_(", in cover (grey zone).") if cover else ".")) if visible else _("Out of sight.")
        result = {"visible": visible, "grey_zone_cover": cover and visible, "can_be_killed": visible}
        return summary, result, [{"kind": "sight", "role": "target", "visible": visible}], steps
