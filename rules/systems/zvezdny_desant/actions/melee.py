"""Close combat (§3.13, L623–738): strikes against the enemy's БСП with the +1/+2 pluses, simultaneous casualties,
the multi-sided melee (L691–708) and the result by total destruction (L724–726); §5 A3, A19, A21, A22."""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.i18n import N_, _
from rules.systems.zvezdny_desant import tables
from rules.systems.zvezdny_desant.actions.common import (
    MAX_FIGURES,
    MAX_UNITS,
    REF,
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

MELEE_UNIT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["unit", "side", "figures", "bsp", "stk"],
    "properties": {
        "unit": {"type": "string", "minLength": 1, "maxLength": 60},
        "ref": REF,
        "side": {"enum": [0, 1]},
        "figures": {"type": "integer", "minimum": 1, "maximum": MAX_FIGURES, "description": N_("Living figures")},
        "bsp": {"type": "integer", "minimum": 0, "maximum": 40, "description": N_("CA before pluses")},
        "stk": {"type": "integer", "minimum": 1, "maximum": 20, "description": N_("Tgh")},
        "markers": {"type": "integer", "minimum": 0, "maximum": 200, "default": 0},
        "in_contact": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES,
                       "description": N_("Figures in base contact; default: all")},
        "near": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES, "default": 0,
                 "description": N_("Figures within 3 steps, not in contact, not behind an obstruction")},
        "hidden": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES, "default": 0,
                   "description": N_("Figures behind an obstruction: they neither strike nor die (L642, L685)")},
        "strikes_per_figure": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
        "wounds_per_strike": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1},
        "targets": {"type": "object", "maxProperties": MAX_UNITS,
                    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": MAX_FIGURES},
                    "description": N_("Multi-sided: striking figures per enemy unit")},
        "rolled": {"type": "array", "maxItems": MAX_FIGURES * 5, "items": {"type": "integer", "minimum": 1,
                   "maximum": 20}, "description": N_("The D20 of this unit's strikes already rolled at the table, "
                                                     "in the order of its targets: no longer left to chance")},
    },
}  # fmt: skip


def bsp_bonus(units: list[dict], settings: dict) -> dict[int, int]:
    """+1 for more figures, +2 for more figures in base contact, per side (L652–657; summed per side in a
    multi-sided melee, L699–704). A21: "figures" are all living ones, or only those engaged."""

    def figures(u: dict) -> int:
        return u["figures"] if settings["melee_figure_count"] == "all_alive" else u["in_contact"] + u["near"]

    count = {s: sum(figures(u) for u in units if u["side"] == s) for s in (0, 1)}
    contact = {s: sum(u["in_contact"] for u in units if u["side"] == s) for s in (0, 1)}
    return {s: (1 if count[s] > count[1 - s] else 0) + (2 if contact[s] > contact[1 - s] else 0) for s in (0, 1)}


def effective_bsp(bsp: int, bonus: int, settings: dict) -> int:
    """Capped at 20 (L657); a floor only by setting (A19)."""
    return max(settings["bsp_floor"], min(20, bsp + bonus))


def removal(removed: int, u: dict) -> list[dict]:
    """Casualty order in melee (L679–683): base contact, then within 3 steps, then the rest (hidden never)."""
    others = u["figures"] - u["in_contact"] - u["near"] - u["hidden"]
    out, left = [], removed
    for place, n in (("contact", u["in_contact"]), ("near", u["near"]), ("other", others)):
        take = min(left, n)
        if take:
            out.append({"place": place, "figures": take})
        left -= take
    return out


def winner_of(destroyed: dict[int, bool], inflicted: dict[int, int], settings: dict) -> int | None:
    """Total destruction always wins (L726). Otherwise the full rules decide (A3): players by hand, or, as a
    labelled house rule, more wounds inflicted."""
    if destroyed[0] != destroyed[1]:
        return 1 if destroyed[0] else 0
    if destroyed[0] or settings["melee_result"] == "manual" or inflicted[0] == inflicted[1]:
        return None
    return 0 if inflicted[0] > inflicted[1] else 1


class Melee(ZdAction):
    key = "melee"
    label = N_("Close combat, also multi-sided")
    spec_ref = "§3.13 (L623–738), §5 A3, A19, A21, A22"
    description = N_(
        "Every figure in base contact or within 3 steps strikes once (or as its unit says) with a D20; a roll "
        "equal to or above the enemy's CA wounds. A side gets +1 CA for more figures and +2 for more figures in "
        "base contact (capped at 20). Strikes and removal are simultaneous; 0-initiative units fight normally. "
        "With more than two units each striking figure picks the enemy unit. Total destruction wins. The odds "
        "give each unit's figures removed and markers left, alone and together; the units roll apart, so two "
        "units' results together are the product of their chances."
    )
    input_schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["units"],
        "properties": {"units": {"type": "array", "minItems": 2, "maxItems": MAX_UNITS, "items": MELEE_UNIT}},
    }

    def check_inputs(self, inputs, settings):
        units = []
        for i, u in enumerate(inputs["units"]):
            u = {"markers": 0, "near": 0, "hidden": 0, "strikes_per_figure": 1, "wounds_per_strike": 1, **u}
            u.setdefault("in_contact", u["figures"] - u["near"] - u["hidden"])
            if u["in_contact"] < 0 or u["in_contact"] + u["near"] + u["hidden"] > u["figures"]:
                raise err(
                    f"units.{i}.in_contact",
                    _("{unit}: in contact + near + hidden is more than its {figures} figures.").format(
                        unit=u["unit"], figures=u["figures"]
                    ),
                    {"figures": u["figures"]},
                )
            units.append(u)
        names = [u["unit"] for u in units]
        if len(set(names)) != len(names):
            raise err("units", _("Each unit is listed once."))
        if sum(u["figures"] for u in units) > 2 * MAX_FIGURES:
            raise err(
                "units", _("At most {max_figures} figures in one melee here.").format(max_figures=2 * MAX_FIGURES)
            )
        if {u["side"] for u in units} != {0, 1}:
            raise err("units", _("A melee needs units of both sides."))
        for i, u in enumerate(units):
            enemies = [e["unit"] for e in units if e["side"] != u["side"]]
            strikers = u["in_contact"] + u["near"]
            targets = u.get("targets")
            if targets is None:
                if len(enemies) > 1 and strikers:
                    raise err(
                        f"units.{i}.targets",
                        _(
                            "{unit} faces {enemies} enemy units: say how many of its striking figures strike each (L695)."
                        ).format(unit=u["unit"], enemies=len(enemies)),
                    )
                targets = {enemies[0]: strikers} if strikers else {}
            for name in targets:
                if name not in enemies:
                    raise err(
                        f"units.{i}.targets.{name}", _("{name!r} is not an enemy unit in this melee.").format(name=name)
                    )
            if sum(targets.values()) != strikers:
                raise err(
                    f"units.{i}.targets",
                    _("{unit} has {strikers} striking figures; the targets add up to {value}.").format(
                        unit=u["unit"], strikers=strikers, value=sum(targets.values())
                    ),
                    {"striking_figures": strikers},
                )
            if settings["multi_sided_strikes"] == "per_unit" and sum(1 for v in targets.values() if v) > 1:
                raise err(
                    f"units.{i}.targets",
                    _("All figures of a unit strike one enemy unit (§5 A22 per_unit)."),
                    {"enemy_units": 1},
                )
            u["targets"] = {k: v for k, v in targets.items() if v}
            if "rolled" in u:  # one side struck first and the other answers (L659): its dice are known
                strikes = sum(u["targets"].values()) * u["strikes_per_figure"]
                if len(u["rolled"]) != strikes:
                    raise err(
                        f"units.{i}.rolled",
                        _("{unit} strikes {n} times: give the {n} dice it rolled.").format(unit=u["unit"], n=strikes),
                        {"strikes": strikes},
                    )
        bonus = bsp_bonus(units, settings)
        for u in units:
            u["bsp_eff"] = effective_bsp(u["bsp"], bonus[u["side"]], settings)
        return {"units": units, "bonus": bonus}

    def resolve_clean(self, clean, settings, dice):
        units, bonus = clean["units"], clean["bonus"]
        by_name = {u["unit"]: u for u in units}
        sides = {s: ", ".join(u["unit"] for u in units if u["side"] == s) for s in (0, 1)}  # a side by its units
        steps = [_("CA pluses: {side} +{bonus}, {side2} +{bonus2} (L652–657).").format(
            side=sides[0], bonus=bonus[0], side2=sides[1], bonus2=bonus[1])]  # fmt: skip
        steps += [f"{u['unit']}: {tables.stat('bsp')} {u['bsp']} → {u['bsp_eff']}" for u in units]
        taken = {u["unit"]: 0 for u in units}
        for u in units:  # all strikes are rolled before anybody is removed: simultaneous (L659)
            known = rolled_batches(u)
            for name, figures in u["targets"].items():
                need = by_name[name]["bsp_eff"]
                if known is not None:
                    rolls = known[name]
                else:
                    rolls = strike_dice(dice, figures * u["strikes_per_figure"], u["unit"], name)
                hits = sum(1 for r in rolls if r >= need)
                taken[name] += hits * u["wounds_per_strike"]
                rolled = ", ".join(f"{r}{'✓' if r >= need else '✗'}" for r in rolls)
                steps.append(
                    _("{unit} → {target} ({need}+): {rolled} = {wounds} wounds").format(
                        unit=u["unit"], target=name, need=need, rolled=rolled, wounds=hits * u["wounds_per_strike"]
                    )
                )
        results, effects = {}, []
        for u in units:
            removed, markers, discarded = tables.apply_wounds(
                stk=u["stk"], markers=u["markers"], wounds=taken[u["unit"]], alive=u["figures"],
                killable=u["figures"] - u["hidden"], settings=settings,
            )  # fmt: skip
            order = removal(removed, u)
            results[u["unit"]] = {"bsp": u["bsp_eff"], "wounds": taken[u["unit"]], "removed": removed,
                                  "markers": markers, "discarded": discarded, "order": order,
                                  "alive": u["figures"] - removed, "destroyed": removed == u["figures"]}  # fmt: skip
            role = u.get("ref", u["unit"])
            effects += [{"kind": "wounds", "role": role, "amount": taken[u["unit"]]},
                        {"kind": "casualties", "role": role, "figures": removed, "groups": order},
                        {"kind": "markers", "role": role, "value": markers}]  # fmt: skip
            steps.append(
                _("{unit}: {unit2} wounds → {removed} removed, {markers} markers left.").format(
                    unit=u["unit"], unit2=taken[u["unit"]], removed=removed, markers=markers
                )
            )
        destroyed = {s: all(results[u["unit"]]["destroyed"] for u in units if u["side"] == s) for s in (0, 1)}
        inflicted = {s: sum(taken[u["unit"]] for u in units if u["side"] != s) for s in (0, 1)}
        winner = winner_of(destroyed, inflicted, settings)
        effects.append({"kind": "melee_result", "role": "melee", "winner": winner})
        if winner is None:
            summary = _("No side is destroyed: the result is ruled by hand (full rules, §5 A3).")
            if destroyed[0] and destroyed[1]:
                summary = _("Both sides are wiped out.")
            elif settings["melee_result"] == "more_wounds":
                summary = _("Equal wounds: no winner (house rule).")
        else:
            how = (
                _("the enemy is destroyed utterly")
                if destroyed[1 - winner]
                else _("more wounds inflicted (house rule)")
            )
            summary = _("The melee is won by {units}: {how}.").format(units=sides[winner], how=how)
        result = {"units": results, "bonus": bonus, "inflicted": inflicted, "winner": winner,
                  "multi_sided": len(units) > 2}  # fmt: skip
        return self.outcome(summary, result, effects, steps)

    def odds_clean(self, clean, settings):
        units, bonus = clean["units"], clean["bonus"]
        per_unit, sides = {}, {0: {(True, 0): Fraction(1)}, 1: {(True, 0): Fraction(1)}}
        for t in units:
            p = tables.p_pass(t["bsp_eff"])
            wounds = {0: Fraction(1)}
            for u in units:
                figures = u["targets"].get(t["unit"], 0)
                known = rolled_batches(u)
                if figures and known is not None:  # struck already: these hits are no longer a chance
                    hits = {sum(1 for r in known[t["unit"]] if r >= t["bsp_eff"]): Fraction(1)}
                    wounds = convolve(wounds, scaled(hits, u["wounds_per_strike"]))
                elif figures:
                    hits = binomial(figures * u["strikes_per_figure"], p)
                    wounds = convolve(wounds, scaled(hits, u["wounds_per_strike"]))

            def fate(w: int, t=t) -> tuple[int, int]:
                removed, markers, _discarded = tables.apply_wounds(
                    stk=t["stk"],
                    markers=t["markers"],
                    wounds=w,
                    alive=t["figures"],
                    killable=t["figures"] - t["hidden"],
                    settings=settings,
                )
                return removed, markers

            # The wounds a unit takes decide its figures removed and markers left together (L675).
            both = mapped(wounds, fate)
            removed = mapped(both, lambda k: k[0])
            markers = mapped(both, lambda k: k[1])
            per_unit[t["unit"]] = {"bsp": t["bsp_eff"], "p_strike_hits": prob(p), "wounds": dist(wounds),
                                   "expected_wounds": exact_mean(wounds), "removed": dist(removed),
                                   "markers": dist(markers), "removed_and_markers": joint(both, ("removed", "markers")),
                                   "p_destroyed": prob(removed.get(t["figures"], Fraction(0)))}  # fmt: skip
            side = t["side"]
            pairs = mapped(wounds, lambda w, fate=fate, t=t: (fate(w)[0] == t["figures"], w))
            sides[side] = _fold(sides[side], pairs)
        wins = _wins(sides, settings)
        names = side_names(units)
        return {"bonus": bonus, "units": per_unit, "p_side_wins": {s: prob(wins[s]) for s in (0, 1)},
                "p_wins": {names[s]: prob(wins[s]) for s in (0, 1)},
                "p_no_winner": prob(1 - wins[0] - wins[1])}  # fmt: skip


def rolled_batches(u: dict) -> dict[str, list[int]] | None:
    """A unit's strikes rolled already, split by target in the order it strikes them; None: not rolled yet."""
    if "rolled" not in u:
        return None
    out, at = {}, 0
    for name, figures in u["targets"].items():
        n = figures * u["strikes_per_figure"]
        out[name], at = u["rolled"][at : at + n], at + n
    return out


def strike_dice(dice, count: int, unit: str, target: str) -> list[int]:
    """`count` strikes of `unit` at `target`, recorded as «strike: A → B 2 of 4» (worded when shown)."""
    return rolled_for(dice, count, STRIKE, f"{unit} → {target}")


STRIKE = N_("strike")


def side_names(units: list[dict]) -> dict[int, str]:
    """Each side named by its units («Штурмовики, Стрелки»), as the players call them: never by an index. Two sides
    that would read the same (a unit named like the other side's list) are told apart by their place."""
    names = {s: ", ".join(u["unit"] for u in units if u["side"] == s) for s in (0, 1)}
    if names[0] == names[1]:
        names = {s: f"{names[s]} ({s + 1})" for s in (0, 1)}
    return names


def _fold(acc: dict, pairs: dict) -> dict:
    """Joint (every unit destroyed?, wounds taken) of a side, one unit more."""
    out: dict = {}
    for (d0, w0), p0 in acc.items():
        for (d1, w1), p1 in pairs.items():
            key = (d0 and d1, w0 + w1)
            out[key] = out.get(key, Fraction(0)) + p0 * p1
    return out


def _wins(sides: dict, settings: dict) -> dict[int, Fraction]:
    """P(each side wins) from the two sides' independent joints of (all destroyed?, wounds taken)."""
    if settings["melee_result"] == "manual":  # only destruction decides: the wounds do not matter
        sides = {s: mapped(j, lambda k: (k[0], 0)) for s, j in sides.items()}
    side1 = {flag: sorted((w, p) for (d, w), p in sides[1].items() if d == flag) for flag in (True, False)}
    wins = {0: Fraction(0), 1: Fraction(0)}
    for (d0, taken0), p0 in sides[0].items():
        for d1, entries in side1.items():
            for taken1, p1 in entries:
                w = winner_of({0: d0, 1: d1}, {0: taken1, 1: taken0}, settings)
                if w is not None:
                    wins[w] += p0 * p1
    return wins
