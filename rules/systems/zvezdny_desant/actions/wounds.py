"""Wound markers and casualties (§3.11, L536–573, L673–685; §5 A10, errata) and the once-only re-roll (§0.1,
L84–86; errata on multi-die tests)."""

from __future__ import annotations

from rules.contract import prob
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import (
    MAX_FIGURES,
    MAX_SKR,
    REF,
    RuleAction,
    ZdAction,
    binomial,
    dist,
    err,
    exact_mean,
)

# Casualty order: shooting removes figures in the open first (L573); melee those in base contact, then those
# within 3 steps, then the rest (L679–683). Within one place the owner chooses: the list order.
PLACES = {"shooting": ("open", "cover"), "melee": ("contact", "near", "other")}

CASUALTY_GROUP = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count"],
    "properties": {
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES},
        "ref": REF,
        "place": {"enum": ["open", "cover", "contact", "near", "other"],
                  "description": N_("Shooting: open or cover. Melee: contact, near (≤ 3 steps) or other")},
        "killable": {"type": "boolean", "default": True,
                     "description": N_("Shooting: in sight and range. Melee: not behind an obstruction")},
        "stk": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("Only if it differs (§5 A10)")},
    },
}  # fmt: skip


def unit_stk(stk: int, groups: list[dict], settings: dict, field: str) -> int:
    """A unit pools markers against one СТК (L544, A10): mixed values are refused, or the lowest is used."""
    values = {stk, *(g["stk"] for g in groups if "stk" in g)}
    if len(values) == 1:
        return stk
    if settings["mixed_stk"] == "refuse":
        raise err(
            field,
            _("The unit mixes Tgh {value}: a unit has one Tgh in the demo (§5 A10).").format(value=sorted(values)),
        )
    return min(values)


class Casualties(RuleAction):
    key = "casualties"
    label = N_("Wound markers and casualty removal")
    spec_ref = "§3.11 (L536–573), §3.13 (L673–685), §5 A10, errata"
    description = N_(
        "Wounds are markers pooled on the unit. One figure dies per Tgh markers; the rest stay and add up. The "
        "owner removes figures in the open first (shooting), or in base contact, then within 3 steps (melee). "
        "Figures that cannot be killed never are; when none that can is left, the remaining markers are removed."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["stk", "wounds", "groups"],
        "properties": {
            "context": {"enum": ["shooting", "melee"], "default": "shooting"},
            "stk": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("Tgh of the unit's figures")},
            "markers": {
                "type": "integer",
                "minimum": 0,
                "maximum": 200,
                "default": 0,
                "description": N_("Already on it"),
            },
            "wounds": {"type": "integer", "minimum": 0, "maximum": 1000},
            "groups": {"type": "array", "minItems": 1, "maxItems": 20, "items": CASUALTY_GROUP},
        },
    }

    def check_inputs(self, inputs, settings):
        places = PLACES[inputs["context"]]
        groups = []
        for i, g in enumerate(inputs["groups"]):
            g = {"place": places[0], "killable": True, **g}
            if g["place"] not in places:
                raise err(
                    f"groups.{i}.place",
                    _("In {context} a figure is ").format(context=inputs["context"]) + " or ".join(places) + ".",
                )
            groups.append(g)
        if sum(g["count"] for g in groups) > MAX_FIGURES:
            raise err("groups", _("A unit has at most {max_figures} figures here.").format(max_figures=MAX_FIGURES))
        stk = unit_stk(inputs["stk"], groups, settings, "groups")
        return {**inputs, "groups": groups, "stk": stk}

    def rule(self, clean, settings):
        groups, places = clean["groups"], PLACES[clean["context"]]
        alive = sum(g["count"] for g in groups)
        killable = sum(g["count"] for g in groups if g["killable"])
        removed, markers, discarded = tables.apply_wounds(
            stk=clean["stk"], markers=clean["markers"], wounds=clean["wounds"], alive=alive, killable=killable,
            settings=settings,
        )  # fmt: skip
        order = sorted(
            (i for i, g in enumerate(groups) if g["killable"]), key=lambda i: places.index(groups[i]["place"])
        )
        left, taken = removed, []
        for i in order:
            if left <= 0:
                break
            n = min(left, groups[i]["count"])
            taken.append({"group": i, "ref": groups[i].get("ref", i), "place": groups[i]["place"], "figures": n})
            left -= n
        total = clean["markers"] + clean["wounds"]
        steps = [
            _(
                "{markers} markers + {wounds} wounds = {total}; Tgh {stk}: {stk2} figures due, {killable} can be killed."
            ).format(
                markers=clean["markers"],
                wounds=clean["wounds"],
                total=total,
                stk=clean["stk"],
                stk2=total // clean["stk"],
                killable=killable,
            )
        ]
        steps += [
            _("Remove {figures} from group {group} ({place}).").format(
                figures=t["figures"], group=t["group"] + 1, place=t["place"]
            )
            for t in taken
        ]
        if discarded:
            steps.append(
                _("{discarded} markers are removed from play: no figure that can die is left (L565, L685).").format(
                    discarded=discarded
                )
            )
        summary = _("{removed} figures removed, {markers} markers left on the unit.").format(
            removed=removed, markers=markers
        )
        result = {"removed": removed, "markers": markers, "discarded": discarded, "order": taken,
                  "alive": alive - removed, "destroyed": removed == alive}  # fmt: skip
        effects = [{"kind": "casualties", "role": "unit", "figures": removed, "groups": taken},
                   {"kind": "markers", "role": "unit", "value": markers}]  # fmt: skip
        return summary, result, effects, steps


class Reroll(ZdAction):
    key = "reroll"
    label = N_("Re-roll")
    spec_ref = "§0.1 (L84–86), errata"
    description = N_(
        "Where a rule allows it, a test is rolled again and the new value stands even if worse. No test may be "
        "re-rolled more than once. The ROF dice of one figure are one hit test (L430), re-rolled together."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["need", "rolls"],
        "properties": {
            "need": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("The test's «N+»")},
            "rolls": {
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_SKR,
                "items": {"type": "integer", "minimum": 1, "maximum": 20},
                "description": N_("The D20 of the test as first rolled (one figure's ROF dice)"),
            },
            "reroll": {
                "type": "array",
                "maxItems": MAX_SKR,
                "items": {"type": "integer", "minimum": 0, "maximum": 9},
                "description": N_(
                    "Positions (from 0) to roll again; default: the whole test (or its first failed die)"
                ),
            },
            "already_rerolled": {"type": "boolean", "default": False},
        },
    }

    def check_inputs(self, inputs, settings):
        if inputs["already_rerolled"]:
            raise err(
                "already_rerolled",
                _("This test was already re-rolled: no test is re-rolled twice (L86)."),
                {"rerolls_per_test": 1},
            )
        rolls, need = inputs["rolls"], inputs["need"]
        which = inputs.get("reroll")
        if which is None:  # the whole test (errata, L430), or its first failed die
            failed = [i for i, r in enumerate(rolls) if r < need]
            which = list(range(len(rolls))) if settings["reroll_scope"] == "figure_test" else failed[:1]
        if len(set(which)) != len(which):
            raise err("reroll", _("Each die is named once."))
        for i in which:
            if i >= len(rolls):
                raise err(
                    "reroll",
                    _("There is no die {i}: the test has {rolls} (positions 0–{rolls2}).").format(
                        i=i, rolls=len(rolls), rolls2=len(rolls) - 1
                    ),
                )
        if settings["reroll_scope"] == "one_die" and len(which) > 1:
            raise err(
                "reroll",
                _("One re-roll takes one die in these settings (reroll_scope one_die)."),
                {"dice_per_reroll": 1},
            )
        return {**inputs, "reroll": sorted(which)}

    def resolve_clean(self, clean, settings, dice):
        rolls, need = list(clean["rolls"]), clean["need"]
        before = sum(1 for r in rolls if r >= need)
        for i in clean["reroll"]:
            rolls[i] = dice.roll(tables.D20, _("re-roll of die {i} ({i2})").format(i=i + 1, i2=clean["rolls"][i]))
        after = sum(1 for r in rolls if r >= need)
        steps = [
            _("Before: {rolls} → {before} passed on {need}+.").format(rolls=clean["rolls"], before=before, need=need),
            _("After: {rolls} → {after} passed; the new values stand (L86).").format(rolls=rolls, after=after),
        ]
        effects = [{"kind": "rerolled", "role": "test", "passes": after}]
        return self.outcome(_("{after} passed after the re-roll (was {before}).").format(after=after, before=before),
                            {"rolls": rolls, "passes_before": before, "passes": after, "rerolled": clean["reroll"]},
                            effects, steps)  # fmt: skip

    def odds_clean(self, clean, settings):
        need, rolls, again = clean["need"], clean["rolls"], clean["reroll"]
        kept = sum(1 for i, r in enumerate(rolls) if i not in again and r >= need)
        passes = {kept + k: p for k, p in binomial(len(again), tables.p_pass(need)).items()}
        return {
            "p_die_passes": prob(tables.p_pass(need)),
            "passes": dist(passes),
            "expected_passes": exact_mean(passes),
        }
