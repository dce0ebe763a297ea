"""After a scenario (spec §3.18–§3.19, book L236–268): injury tests and armour repair, as procedures against a
roller (rolling.py). The injuries action and the campaign part both run these.

Injuries: a model that had half its HP or less tests TN against a light injury (d6 days), one that was seriously
wounded against a medium one (2d6 days), one that was dying against a critical one (3d6 days and −1 to a random
one of HL, WS, BS, DX, TN). A natural 1 or 20 on any of these TN tests costs 1 WL (L258). By the book every tier
reached is tested; A17's worst-only reading is a setting. The model is out for the longest downtime.
"""

from __future__ import annotations

from fractions import Fraction

from rules.i18n import _
from rules.systems.enforcers import agents, rolling, tables, words
from rules.systems.enforcers.core import RollSpec
from rules.systems.enforcers.texts import NT, T

TIERS = (("light", "half_hp"), ("medium", "seriously_wounded"), ("critical", "dying"))


def tiers_reached(flags: dict, settings: dict) -> list[str]:
    reached = [tier for tier, flag in TIERS if flags.get(flag)]
    if settings.get("injury_tiers", "every_tier") == "worst_only":
        return reached[-1:]
    return reached


def injury_test(sheet: dict, tier: str, roller, settings: dict, steps: list) -> dict:
    """One tier: the TN test (a natural 1 or 20 costs WL), and on a failure the injury's days (and stat)."""
    tn = agents.effective_stats(sheet)["TN"]
    label = T("TN test against a {tier} (TN {value})", tier=words.word(words.TIER, tier), value=tn)
    spec = RollSpec(label, tn, crit_chance=agents.crit_chance(sheet, "TN"), crit_effect=False)
    record = roller.test(spec, "natural_1_or_20")
    steps.append(record["line"])
    out = {"tier": tier, "passed": record["success"], "days": 0, "stat_lost": None, "wl_lost": int(bool(record["tag"]))}
    if out["wl_lost"]:
        steps.append(T("A natural 1 or 20 on the TN test: WL −1 (L258)."))
    if not record["success"]:
        days, dice = roller.total(tables.INJURY_DICE[tier], 6, _("{tier}: days").format(tier=_(words.TIER[tier])))
        out["days"] = days
        steps.append(NT("{tier}: {count}d6 {dice} = {n} day.", "{tier}: {count}d6 {dice} = {n} days.", days,
                        tier=words.word(words.TIER, tier), count=tables.INJURY_DICE[tier], dice=str(dice or "")))  # fmt: skip
        if tier == "critical":
            face = roller.roll(
                len(tables.INJURY_STATS), _("critical injury: the stat lost (1 HL, 2 WS, 3 BS, 4 DX, 5 TN)")
            )
            out["stat_lost"] = tables.INJURY_STATS[face - 1]
            steps.append(T("Critical injury: {stat} −1 (L256).", stat=out["stat_lost"]))
    return out


def injuries(sheet: dict, roller, settings: dict) -> dict:
    steps: list[str] = []
    tests = [
        injury_test(sheet, tier, roller, settings, steps) for tier in tiers_reached(sheet.get("flags", {}), settings)
    ]
    return combine(tests, steps)


def combine(tests: list[dict], steps: list[str] | None = None) -> dict:
    losses: dict[str, int] = {}
    for t in tests:
        if t["wl_lost"]:
            losses["WL"] = losses.get("WL", 0) + t["wl_lost"]
        if t["stat_lost"]:
            losses[t["stat_lost"]] = losses.get(t["stat_lost"], 0) + 1
    injured = [t["tier"] for t in tests if not t["passed"]]
    return {
        "tests": tests,
        "injuries": injured,
        "days": max((t["days"] for t in tests), default=0),
        "stat_losses": losses,
        "steps": steps or [],
    }


def injury_effects(result: dict, sheet: dict, role: str = "agent") -> list[dict]:
    echo = {"role": role, **({"ref": sheet["ref"]} if "ref" in sheet else {})}
    effects = [
        {"kind": "injury", **echo, "tier": t["tier"], "days": t["days"]} for t in result["tests"] if not t["passed"]
    ]
    effects += [{"kind": "stat_loss", **echo, "stat": s, "amount": n} for s, n in sorted(result["stat_losses"].items())]
    if result["days"]:
        effects.append({"kind": "unavailable", **echo, "days": result["days"]})
    return effects


def injuries_exact(sheet: dict, settings: dict) -> list[tuple[Fraction, dict]]:
    """Every outcome of the injury tests with its probability: each tier is enumerated on its own (they are
    independent), and outcomes that read the same (injuries, longest downtime, stats lost) are merged."""
    states: dict[tuple, Fraction] = {((), 0, ()): Fraction(1)}
    tiers = tiers_reached(sheet.get("flags", {}), settings)
    for tier in tiers:
        runs = rolling.enumerate_runs(lambda roller, t=tier: injury_test(sheet, t, roller, settings, []), settings)
        merged: dict[tuple, Fraction] = {}
        for (injured, days, losses), p_state in states.items():
            for p, test in runs:
                lost = dict(losses)
                for stat in ("WL",) * test["wl_lost"] + ((test["stat_lost"],) if test["stat_lost"] else ()):
                    lost[stat] = lost.get(stat, 0) + 1
                key = (
                    injured + (() if test["passed"] else (tier,)),
                    max(days, test["days"]),
                    tuple(sorted(lost.items())),
                )
                merged[key] = merged.get(key, Fraction(0)) + p_state * p
        states = merged
    tested = [{"tier": t} for t in tiers]
    return [
        (p, {"tests": tested, "injuries": list(injured), "days": days, "stat_losses": dict(losses)})
        for (injured, days, losses), p in states.items()
    ]


# Armour (L260–268, A14) --------------------------------------------------------------------------------
def repair_spec(repairer: dict, armour_slug: str, settings: dict) -> RollSpec:
    """An IT test with +1 per AP the armour had when bought: on the roll (L7, harder) or on the IT (A14)."""
    ap = tables.ARMOUR[armour_slug]["ap"]
    it = agents.effective_stats(repairer)["IT"]
    name = tables.ARMOUR[armour_slug]["name"]
    if settings.get("repair_modifier", "roll") == "roll":
        return RollSpec(T("IT test to repair {armour} (IT {it}, +{ap} to the roll)", armour=name, it=it, ap=ap), it,
                        modifier=ap, crit_chance=agents.crit_chance(repairer, "IT"), crit_effect=False)  # fmt: skip
    return RollSpec(T("IT test to repair {armour} (IT {it} +{ap})", armour=name, it=it, ap=ap), it + ap,
                    crit_chance=agents.crit_chance(repairer, "IT"), crit_effect=False)  # fmt: skip


def repair(repairer: dict, armour_slug: str, roller, settings: dict) -> dict:
    steps: list[str] = []
    record = roller.test(repair_spec(repairer, armour_slug, settings))
    steps.append(record["line"])
    days = 0
    if not record["success"]:
        days, dice = roller.total(tables.REPAIR_FAIL_DICE, 6, _("armour out of use: days"))
        steps.append(NT("Not repaired: unusable for 2d6 {dice} = {n} day (L268).",
                        "Not repaired: unusable for 2d6 {dice} = {n} days (L268).", days, dice=str(dice or "")))  # fmt: skip
    else:
        steps.append(T("Repaired: usable in the next scenario, at full AP."))
    return {"armour": armour_slug, "repaired": record["success"], "days": days, "steps": steps}
