"""Shooting: the hit test (§3.10, L428–524), the wound test per armour class (§3.11, L526–540) and a whole
shooting of one unit at another with its casualties (§3.8–§3.11, L400–573; A8, A9, A11, A12, A18, A20, A2)."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import (
    ARMOUR,
    HRK,
    KIND,
    MAX_FIGURES,
    MAX_SKR,
    ORDER,
    ORDER_OR_NONE,
    REF,
    WEAPON,
    ZdAction,
    binomial,
    convolve,
    dist,
    err,
    exact_mean,
    joint,
    mapped,
    rolled_for,
    scaled,
)
from rules.systems.zvezdny_desant.actions.visibility import (
    MAX_GROUPS,
    TARGET_GROUP_PROPERTIES,
    check_grey_zones,
    cover_steps,
    figure_cover,
    unit_cover_of,
)

MODIFIER = {"type": "integer", "minimum": -20, "maximum": 20, "default": 0,
            "description": N_("Other pluses (harder) and minuses (easier) to the hit test")}  # fmt: skip
HIT_TEST, WOUND_TEST = N_("hit test"), N_("wound test")  # the dice's purposes, worded when shown
INITIATIVE = {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 100}], "default": None}


def hit_terms(clean: dict, settings: dict) -> tuple[int, int, list[str]]:
    return tables.hit_need(
        shooter_order=clean["shooter_order"],
        target_order=clean["target_order"],
        target_kind=clean["target_kind"],
        cover=clean["cover"],
        extra=clean["modifier"],
        settings=settings,
        target_initiative=clean["target_initiative"],
    )


def refuse_moving_shooter(order: str, field: str) -> None:
    if order == "move":
        raise err(field, _("A unit on «Move» cannot shoot: only «Defence» and «Attack» may (L180–202, L352)."))


class HitTest(ZdAction):
    key = "hit_test"
    label = N_("Hit test")
    spec_ref = "§3.10 (L428–524), §5 A1, A18, A20"
    description = N_(
        "Each shot hits on D20 ≥ 8 with all pluses and minuses: shooter on «Attack» +2; target on «Defence» +2, on "
        "«Attack» −2; a vehicle −4; cover +2/+4/+6. Never easier than 4+, never harder than 20+."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter_order"],
        "properties": {
            "shooter_order": ORDER,
            "target_order": {**ORDER_OR_NONE, "default": "move"},
            "target_initiative": INITIATIVE,
            "target_kind": KIND,
            "cover": {"enum": list(tables.COVERS), "default": "open"},
            "modifier": MODIFIER,
            "dice": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES * MAX_SKR, "default": 1,
                     "description": N_("D20 to roll: the ROF of every shooting figure")},
        },
    }  # fmt: skip

    def check_inputs(self, inputs, settings):
        refuse_moving_shooter(inputs["shooter_order"], "shooter_order")
        return inputs

    def resolve_clean(self, clean, settings, dice):
        raw, need, terms = hit_terms(clean, settings)
        rolls = dice.roll_many(clean["dice"], tables.D20, _("hit test die"))
        hits = sum(1 for r in rolls if r >= need)
        steps = [
            " ".join(terms)
            + f" = {raw}"
            + (_(" → {need}+ (clamped)") if raw != need else " → {need}+").format(need=need)
        ]
        steps.append(_("Rolls: {rolls}").format(rolls=", ".join(f"{r}{'✓' if r >= need else '✗'}" for r in rolls)))
        effects = [{"kind": "hits", "role": "target", "amount": hits}]
        return self.outcome(
            _("{hits} of {rolls} hit on {need}+.").format(hits=hits, rolls=len(rolls), need=need),
            {"need": need, "raw": raw, "rolls": rolls, "hits": hits},
            effects,
            steps,
        )

    def odds_clean(self, clean, settings):
        raw, need, terms = hit_terms(clean, settings)
        p = tables.p_pass(need)
        hits = binomial(clean["dice"], p)
        return {"need": need, "raw": raw, "terms": terms, "p_hit": prob(p), "hits": dist(hits),
                "expected_hits": exact_mean(hits)}  # fmt: skip


class WoundTest(ZdAction):
    key = "wound_test"
    label = N_("Wound test")
    spec_ref = "§3.11 (L526–540), §5 A8, A9"
    description = N_(
        "One D20 per hit: it wounds on a roll equal to or above the weapon's Pen number for the target's armour "
        "class (A … E, Cyrillic or Latin). Each passed test deals Pow wounds, one marker each."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["hits", "hrk", "armour"],
        "properties": {
            "hits": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES * MAX_SKR},
            "hrk": HRK,
            "armour": ARMOUR,
            "msch": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1, "description": N_("Pow")},
        },
    }

    def check_inputs(self, inputs, settings):
        hrk = tables.parse_hrk(inputs["hrk"], "hrk")
        armour = tables.armour_class(inputs["armour"], "armour")
        if armour not in hrk and settings["missing_hrk"] == "refuse":
            raise err(
                "hrk",
                _("This Pen ({hrk}) gives no number for class {armour} (§5 A8).").format(
                    hrk=tables.hrk_text(hrk), armour=armour
                ),
            )
        return {**inputs, "hrk": hrk, "armour": armour}

    def resolve_clean(self, clean, settings, dice):
        need = tables.wound_need(clean["hrk"], clean["armour"], settings)
        if need is None:
            steps = [
                _("Pen {hrk} has no number for class {armour}: no wound (A8).").format(
                    hrk=tables.hrk_text(clean["hrk"]), armour=clean["armour"]
                )
            ]
            return self.outcome(_("The weapon cannot wound this armour."), {"need": None, "rolls": [], "passed": 0,
                                "wounds": 0}, [{"kind": "wounds", "role": "target", "amount": 0}], steps)  # fmt: skip
        rolls = dice.roll_many(clean["hits"], tables.D20, _("wound test die"))
        passed = sum(1 for r in rolls if r >= need)
        wounds = passed * clean["msch"]
        steps = [
            _("Class {armour}: {need}+ needed.").format(armour=clean["armour"], need=need),
            _("Rolls: {rolls}").format(rolls=", ".join(f"{r}{'✓' if r >= need else '✗'}" for r in rolls) or "—"),
            _("{passed} passed × Pow {msch} = {wounds} wounds.").format(
                passed=passed, msch=clean["msch"], wounds=wounds
            ),
        ]
        effects = [{"kind": "wounds", "role": "target", "amount": wounds}]
        return self.outcome(
            _("{wounds} wounds ({passed} of {rolls} tests passed on {need}+).").format(
                wounds=wounds, passed=passed, rolls=len(rolls), need=need
            ),
            {"need": need, "rolls": rolls, "passed": passed, "wounds": wounds},
            effects,
            steps,
        )

    def odds_clean(self, clean, settings):
        need = tables.wound_need(clean["hrk"], clean["armour"], settings)
        p = tables.p_pass(need) if need is not None else Fraction(0)
        passed = binomial(clean["hits"], p)
        wounds = scaled(passed, clean["msch"])
        return {"need": need, "p_wound": prob(p), "passed": dist(passed), "wounds": dist(wounds),
                "expected_wounds": exact_mean(wounds)}  # fmt: skip


SHOOTER_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count", "weapon"],
    "properties": {
        "count": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_FIGURES,
            "description": N_("Figures with this weapon"),
        },
        "ref": REF,
        "weapon": WEAPON,
        "in_command_distance": {
            "type": "boolean",
            "default": True,
            "description": N_("Out of it: cannot shoot (L106)"),
        },
    },
}
WHO = {"anyOf": [{"type": "null"}, {"type": "array", "maxItems": MAX_GROUPS,
                                    "items": {"type": "integer", "minimum": 0, "maximum": MAX_GROUPS - 1}}],
       "default": None, "description": N_("Indices of the shooter groups; null: all of them")}  # fmt: skip
SHOT_TARGET_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count"],
    "properties": {
        **TARGET_GROUP_PROPERTIES,
        "seen_by": WHO,
        "in_range_of": WHO,
        "distance": {"type": "number", "minimum": 0, "maximum": 500,
                     "description": N_("Steps from the shooters; with no in_range_of, in range of every Rng ≥ it")},
    },
}  # fmt: skip


class Shooting(ZdAction):
    key = "shooting"
    label = N_("Shooting: hits, wounds and casualties")
    spec_ref = "§3.8–§3.11 (L400–573), §5 A2, A8, A11, A12, A18, A20, errata"
    description = N_(
        "One unit shoots one enemy unit: ROF D20 per figure that sees and reaches a target figure, the hit test "
        "with the unit's cover, a wound test per hit against the target's class, Pow markers per wound, then one "
        "figure removed per Tgh markers, figures in the open first; figures out of sight or range cannot die. "
        "The odds give the figures removed and the markers left each alone and together."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["shooter", "target"],
        "properties": {
            "shooter": {
                "type": "object",
                "additionalProperties": False,
                "required": ["order", "groups"],
                "properties": {
                    "order": ORDER,
                    "initiative": INITIATIVE,
                    "in_melee": {"type": "boolean", "default": False},
                    "groups": {"type": "array", "minItems": 1, "maxItems": MAX_GROUPS, "items": SHOOTER_GROUP},
                },
            },
            "target": {
                "type": "object",
                "additionalProperties": False,
                "required": ["armour", "stk", "groups"],
                "properties": {
                    "order": {**ORDER_OR_NONE, "default": "move"},
                    "initiative": INITIATIVE,
                    "kind": KIND,
                    "armour": ARMOUR,
                    "stk": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("Tgh")},
                    "markers": {"type": "integer", "minimum": 0, "maximum": 200, "default": 0},
                    "in_melee": {"type": "boolean", "default": False},
                    "groups": {"type": "array", "minItems": 1, "maxItems": MAX_GROUPS, "items": SHOT_TARGET_GROUP},
                },
            },
            "modifier": MODIFIER,
        },
    }

    def check_inputs(self, inputs, settings):
        shooter = {"initiative": None, "in_melee": False, **inputs["shooter"]}
        target = {"order": "move", "initiative": None, "kind": "infantry", "markers": 0, "in_melee": False,
                  **inputs["target"]}  # fmt: skip
        refuse_moving_shooter(shooter["order"], "shooter.order")
        if shooter["initiative"] == 0:
            raise err(
                "shooter.initiative", _("A unit with initiative 0 does not act this turn: it cannot shoot (L278).")
            )
        if shooter["in_melee"]:
            raise err("shooter.in_melee", _("A unit in melee cannot shoot (L615, L734)."))
        if target["in_melee"]:
            raise err("target.in_melee", _("A unit in melee cannot be chosen as a target (L410, L732)."))
        n_shooters = len(shooter["groups"])
        if sum(g["count"] for g in shooter["groups"]) > MAX_FIGURES:
            raise err(
                "shooter.groups", _("A unit has at most {max_figures} figures here.").format(max_figures=MAX_FIGURES)
            )
        if sum(g["count"] for g in target["groups"]) > MAX_FIGURES:
            raise err(
                "target.groups", _("A unit has at most {max_figures} figures here.").format(max_figures=MAX_FIGURES)
            )
        armour = tables.armour_class(target["armour"], "target.armour")
        weapons = []
        for i, g in enumerate(shooter["groups"]):
            w = {"skr": 1, "msch": 1, **g["weapon"]}
            w["hrk"] = tables.parse_hrk(w["hrk"], f"shooter.groups.{i}.weapon.hrk")
            if armour not in w["hrk"] and settings["missing_hrk"] == "refuse":
                raise err(
                    f"shooter.groups.{i}.weapon.hrk",
                    _("No Pen number for class {armour} (§5 A8).").format(armour=armour),
                )
            weapons.append({**g, "in_command_distance": g.get("in_command_distance", True), "weapon": w})
        groups = []
        for i, g in enumerate(target["groups"]):
            g = {"cover": "open", "grey_zone": False, "cover_size": "medium", **g}
            if g.get("in_range_of") is None and "distance" in g:  # range from each Длн (L420–426)
                g["in_range_of"] = [j for j, s in enumerate(weapons) if s["weapon"].get("dln", 500) >= g["distance"]]
            for key in ("seen_by", "in_range_of"):
                who = g.get(key)
                if who is None:
                    g[key] = list(range(n_shooters))
                elif any(j >= n_shooters for j in who):
                    raise err(
                        f"target.groups.{i}.{key}",
                        _("There are only {n_shooters} shooter groups (0–{n_shooters2}).").format(
                            n_shooters=n_shooters, n_shooters2=n_shooters - 1
                        ),
                    )
                else:
                    g[key] = sorted(set(who))
            groups.append(g)
        if target["kind"] == "vehicle" and any(g["grey_zone"] for g in groups):
            raise err("target.groups", _("The grey zone is a rule for infantry figures (L382)."))
        check_grey_zones(groups, "target.groups", settings)
        if not any(g["seen_by"] for g in groups):
            raise err(
                "target.groups", _("No figure of the target is in sight: it cannot be chosen as a target (L408).")
            )
        plan = self.plan({"shooter": {**shooter, "groups": weapons}, "target": {**target, "armour": armour,
                          "groups": groups}, "modifier": inputs["modifier"]}, settings)  # fmt: skip
        return {"shooter": {**shooter, "groups": weapons}, "target": {**target, "armour": armour, "groups": groups},
                "modifier": inputs["modifier"], "plan": plan}  # fmt: skip

    @staticmethod
    def plan(clean: dict, settings: dict) -> dict:
        """Who rolls, who can die and in which order, the cover and the hit number (A11, A12, L573)."""
        shooters, target = clean["shooter"]["groups"], clean["target"]
        groups = target["groups"]
        same_figure = settings["killable_basis"] == "same_figure"
        rolling = []
        for j, s in enumerate(shooters):
            if not s["in_command_distance"]:
                continue  # out of Command Distance: cannot shoot (L106, L414)
            if same_figure:
                ok = any(j in g["seen_by"] and j in g["in_range_of"] for g in groups)
            else:
                ok = any(j in g["seen_by"] for g in groups) and any(j in g["in_range_of"] for g in groups)
            if ok:
                rolling.append(j)
        killable = []
        for g in groups:
            if same_figure:
                kill = any(j in g["seen_by"] and j in g["in_range_of"] for j in rolling)
            else:
                kill = any(j in g["seen_by"] for j in rolling) and any(j in g["in_range_of"] for j in rolling)
            killable.append(kill)
        visible = [bool(g["seen_by"]) for g in groups]
        cover, counts = unit_cover_of(groups, target["kind"], settings, visible)
        raw, need, terms = tables.hit_need(
            shooter_order=clean["shooter"]["order"], target_order=target["order"], target_kind=target["kind"],
            cover=cover, extra=clean["modifier"], settings=settings, target_initiative=target["initiative"],
        )  # fmt: skip
        # The owner removes figures out of cover first, even when the unit counts as in cover (L573).
        open_first = sorted(
            (i for i, k in enumerate(killable) if k),
            key=lambda i: figure_cover(groups[i], target["kind"], settings) != "open",
        )
        wound_need = [tables.wound_need(s["weapon"]["hrk"], target["armour"], settings) for s in shooters]
        return {"rolling": rolling, "killable": killable, "removal_order": open_first, "cover": cover,
                "counts": counts, "raw": raw, "need": need, "terms": terms, "wound_need": wound_need}  # fmt: skip

    def resolve_clean(self, clean, settings, dice):
        plan, shooters, target = clean["plan"], clean["shooter"]["groups"], clean["target"]
        need = plan["need"]
        steps = cover_steps(plan["counts"], plan["cover"])
        steps.append(_("Hit test: ") + " ".join(plan["terms"]) + f" = {plan['raw']} → {need}+")
        hits_by_group: dict[int, int] = {}
        for j in plan["rolling"]:
            s = shooters[j]
            name = s["weapon"].get("name") or _("group {n}").format(n=j + 1)
            rolls = rolled_for(dice, s["count"] * s["weapon"]["skr"], HIT_TEST, name)
            hits_by_group[j] = sum(1 for r in rolls if r >= need)
            steps.append(f"{name}: " + ", ".join(f"{r}{'✓' if r >= need else '✗'}" for r in rolls))
        silent = [j for j in range(len(shooters)) if j not in plan["rolling"]]
        if silent:
            steps.append(
                _(
                    "Groups {silent} cannot hit (out of sight, range or Command Distance) but count as having shot (L404, L426)."
                ).format(silent=", ".join(str(j + 1) for j in silent))
            )
        wounds = 0
        for j, hits in hits_by_group.items():
            s, w_need = shooters[j], plan["wound_need"][j]
            name = s["weapon"].get("name") or _("group {n}").format(n=j + 1)
            if w_need is None:
                steps.append(
                    _("{name}: no Pen for class {armour}, {hits} hits cannot wound (A8).").format(
                        name=name, armour=target["armour"], hits=hits
                    )
                )
                continue
            rolls = rolled_for(dice, hits, WOUND_TEST, name)
            passed = sum(1 for r in rolls if r >= w_need)
            wounds += passed * s["weapon"]["msch"]
            if rolls:
                rolled = ", ".join(f"{r}{'✓' if r >= w_need else '✗'}" for r in rolls)
                steps.append(_("{name} wound test {need}+: {rolled} → {passed} × Pow {msch}").format(
                    name=name, need=w_need, rolled=rolled, passed=passed, msch=s["weapon"]["msch"]))  # fmt: skip
        alive = sum(g["count"] for g in target["groups"])
        killable = sum(g["count"] for g, k in zip(target["groups"], plan["killable"], strict=True) if k)
        removed, markers, discarded = tables.apply_wounds(
            stk=target["stk"], markers=target["markers"], wounds=wounds, alive=alive, killable=killable,
            settings=settings,
        )  # fmt: skip
        by_group = self.assign(removed, plan["removal_order"], target["groups"])
        steps.append(
            _(
                "{wounds} wounds + {markers} markers, Tgh {stk}: {removed} figures removed, {markers2} markers left"
            ).format(wounds=wounds, markers=target["markers"], stk=target["stk"], removed=removed, markers2=markers)
            + (_(", {discarded} markers removed from play.").format(discarded=discarded) if discarded else ".")
        )
        hits_total = sum(hits_by_group.values())
        result = {"need": need, "cover": plan["cover"], "hits": hits_total, "hits_by_group": hits_by_group,
                  "wounds": wounds, "removed": removed, "removed_by_group": by_group, "markers": markers,
                  "discarded_markers": discarded, "destroyed": removed == alive, "alive": alive - removed}  # fmt: skip
        effects = [
            {"kind": "shot", "role": "shooter", "target_cover": plan["cover"]},
            {"kind": "wounds", "role": "target", "amount": wounds},
            {"kind": "casualties", "role": "target", "figures": removed,
             "groups": [{"ref": target["groups"][i].get("ref", i), "figures": n} for i, n in by_group.items()]},
            {"kind": "markers", "role": "target", "value": markers},
        ]  # fmt: skip
        if removed and settings["shooting_morale"] == "manual":
            effects.append({"kind": "morale_check", "role": "target", "reason": _("losses from shooting (§5 A2)")})
        summary = _("{hits_total} hits, {wounds} wounds: {removed} figures removed, {markers} markers left.").format(
            hits_total=hits_total, wounds=wounds, removed=removed, markers=markers
        )
        return self.outcome(summary, result, effects, steps)

    @staticmethod
    def assign(removed: int, order: list[int], groups: list[dict]) -> dict[int, int]:
        out: dict[int, int] = {}
        for i in order:
            if removed <= 0:
                break
            n = min(removed, groups[i]["count"])
            out[i] = n
            removed -= n
        return out

    def odds_clean(self, clean, settings):
        plan, shooters, target = clean["plan"], clean["shooter"]["groups"], clean["target"]
        p_hit = tables.p_pass(plan["need"])
        wounds = {0: Fraction(1)}
        hit_dice = 0
        per_group = []
        for j in plan["rolling"]:
            s, w_need = shooters[j], plan["wound_need"][j]
            n = s["count"] * s["weapon"]["skr"]
            hit_dice += n
            p_wound = tables.p_pass(w_need) if w_need is not None else Fraction(0)
            wounds = convolve(wounds, scaled(binomial(n, p_hit * p_wound), s["weapon"]["msch"]))
            per_group.append({"group": j, "dice": n, "p_wound": prob(p_wound), "p_die_wounds": prob(p_hit * p_wound)})
        alive = sum(g["count"] for g in target["groups"])
        killable = sum(g["count"] for g, k in zip(target["groups"], plan["killable"], strict=True) if k)

        def after(w: int) -> tuple[int, int]:
            removed, markers, _discarded = tables.apply_wounds(
                stk=target["stk"],
                markers=target["markers"],
                wounds=w,
                alive=alive,
                killable=killable,
                settings=settings,
            )
            return removed, markers

        both = mapped(wounds, after)  # one wound total decides both: they are not independent
        removed = mapped(both, lambda k: k[0])
        markers = mapped(both, lambda k: k[1])
        return {
            "need": plan["need"],
            "cover": plan["cover"],
            "p_hit": prob(p_hit),
            "groups": per_group,
            "hits": dist(binomial(hit_dice, p_hit)),
            "wounds": dist(wounds),
            "expected_wounds": exact_mean(wounds),
            "removed": dist(removed),
            "markers": dist(markers),
            "removed_and_markers": joint(both, ("removed", "markers")),
            "p_destroyed": prob(removed.get(alive, Fraction(0))),
            # what ranks targets on the board (battle/at_roll.py): a unit of five is rarely destroyed by one shot
            "p_any_removed": prob(1 - removed.get(0, Fraction(0))),
        }
