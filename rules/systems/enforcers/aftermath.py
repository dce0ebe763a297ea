"""After a scenario (spec §3.18–§3.19, book L236–268): injury tests and armour repair, as procedures against a
roller (rolling.py). The injuries action and the campaign part both run these.

Injuries: a model that had half its HP or less tests TN against a light injury (d6 days), one that was seriously
wounded against a medium one (2d6 days), one that was dying against a critical one (3d6 days and −1 to a random
one of HL, WS, BS, DX, TN). A natural 1 or 20 on any of these TN tests costs 1 WL (L258). By the book every tier
reached is tested; A17's worst-only reading is a setting. The model is out for the longest downtime.
"""

from __future__ import annotations

from fractions import Fraction

from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.enforcers import agents, rolling, tables, words
from rules.systems.enforcers.core import RollSpec
from rules.systems.enforcers.texts import NT, T, join
from rules.systems.enforcers.wounds import SERIOUSLY_WOUNDED, wound_state

TIERS = (("light", "half_hp"), ("medium", "seriously_wounded"), ("critical", "dying"))
FLAGS = tuple(flag for _tier, flag in TIERS)
# A higher tier implies the lower (L242–246 with the wound rules): a model that was dying had fallen below 0 HP, so
# it had the status Тяжелоранен on its way («накладывается, когда НР бойца падают до 0», L222, L321), and one that
# was seriously wounded had half its HP or less.
IMPLIES = {"dying": "seriously_wounded", "seriously_wounded": "half_hp"}


def hp_limits(hl: int, settings: dict) -> dict:
    """The HP at or below which each flag holds for this HL (L222–224, A6), as the data of a refusal."""
    dying = next(hp for hp in range(-1, -hl - 2, -1) if wound_state(hp, hl, settings) != SERIOUSLY_WOUNDED)
    return {"hl": hl, "half_hp": hl // 2, "seriously_wounded": 0, "dying": dying, "dead": -hl - 1}


def flags_at(hp: int, hl: int, settings: dict) -> set[str]:
    """The flags an HP this low sets (L242: half HP or less; L222: 0 or less; below minus half HL: dying)."""
    out = {flag for flag, limit in hp_limits(hl, settings).items() if flag in FLAGS and hp <= limit}
    return out


def _closed(flags: set[str]) -> set[str]:
    out = set(flags)
    for higher in ("dying", "seriously_wounded"):  # dying first: it implies seriously wounded, which implies half HP
        if higher in out:
            out.add(IMPLIES[higher])
    return out


def went_through(sheet: dict, settings: dict, *, field: str = "agent", strict: bool = False) -> dict:
    """What the character went through in the scenario, from everything its sheet says: the flags the tracker set
    (or the player ticked), the statuses it still has, its HP now and the lowest HP it had (`lowest_hp`); each
    higher tier fills in the lower ones. Answers {"flags": {flag: bool}, "implied": [flags filled in]}.

    `strict` (an action's inputs): a flag given as false that the rest implies, or a lowest HP that contradicts the
    flags or the HP now, is refused (RuleInputError naming the field, with the HP limits as data). The campaign
    part takes the tracker's record leniently: what any of it says the character went through counts."""
    given = dict(sheet.get("flags") or {})
    evidence = {flag for flag in FLAGS if given.get(flag)}
    statuses = sheet.get("statuses") or {}
    evidence |= {flag for flag in ("seriously_wounded", "dying") if flag in statuses}
    hl = agents.effective_stats(sheet).get("HL")
    lowest = sheet.get("lowest_hp")
    if hl is not None:
        if "hp" in sheet:
            evidence |= flags_at(sheet["hp"], hl, settings)
        if lowest is not None:
            evidence |= flags_at(lowest, hl, settings)
    reached = _closed(evidence)
    if strict:
        _check_consistent(sheet, given, reached, hl, settings, field)
    flags = {flag: flag in reached for flag in FLAGS}
    return {"flags": flags, "implied": [f for f in FLAGS if f in reached and not given.get(f)]}


def _check_consistent(sheet: dict, given: dict, reached: set[str], hl, settings: dict, field: str) -> None:
    limits = hp_limits(hl, settings) if hl is not None else None
    data = {"limits": limits} if limits else None
    lowest = sheet.get("lowest_hp")
    if lowest is not None:
        if hl is None:
            agents.stat(sheet, "HL", field)  # the HP limits need HL: refused, naming it
        if "hp" in sheet and lowest > sheet["hp"]:
            raise RuleInputError({f"{field}.lowest_hp": _("The lowest HP in the scenario, {lowest}, is above the HP "
                                                          "now, {hp}.").format(lowest=lowest, hp=sheet["hp"])},
                                 data={"limits": {**limits, "lowest_hp_max": sheet["hp"]}})  # fmt: skip
        if lowest <= limits["dead"]:
            raise RuleInputError({f"{field}.lowest_hp": _("At {lowest} HP the character died (below minus its HL, "
                                                          "L224): no injury tests.").format(lowest=lowest)}, data=data)  # fmt: skip
        by_hp = _closed(flags_at(lowest, hl, settings))
        beyond = [flag for flag in FLAGS if flag in reached and flag not in by_hp]
        if beyond:
            raise RuleInputError({f"{field}.lowest_hp": _("The lowest HP, {lowest}, never reached «{state}»: at HL "
                                                          "{hl} that takes {limit} HP or less (L222, L242).").format(
                lowest=lowest, state=_(FLAG_WORDS[beyond[-1]]), hl=hl, limit=limits[beyond[-1]])}, data=data)  # fmt: skip
    for flag in FLAGS:
        if given.get(flag) is False and flag in reached:
            cause = next((f for f in reversed(FLAGS) if f in reached and f != flag and given.get(f)), None)
            if cause:
                message = _("«{flag}» cannot be false for a character that was «{cause}»: a higher tier implies the "
                            "lower (L222, L242–246, L321).").format(flag=_(FLAG_WORDS[flag]),
                                                                    cause=_(FLAG_WORDS[cause]))  # fmt: skip
            else:
                message = _("«{flag}» cannot be false: the character's HP or statuses show it (L222, L242).").format(
                    flag=_(FLAG_WORDS[flag]))  # fmt: skip
            raise RuleInputError({f"{field}.flags.{flag}": message}, data=data)


FLAG_WORDS = {"half_hp": N_("half HP or less"), "seriously_wounded": N_("Seriously wounded"), "dying": N_("Dying")}


def tiers_reached(sheet: dict, settings: dict) -> list[str]:
    flags = went_through(sheet, settings)["flags"]
    reached = [tier for tier, flag in TIERS if flags[flag]]
    if settings.get("injury_tiers", "every_tier") == "worst_only":
        return reached[-1:]
    return reached


def injury_test(sheet: dict, tier: str, roller, settings: dict, steps: list) -> dict:
    """One tier: the TN test (a natural 1 or 20 costs WL), and on a failure the injury's days (and stat)."""
    tn = agents.effective_stats(sheet)["TN"]
    label = T("TN test against a {tier} (TN {value})", tier=words.word(words.TIER, tier), value=tn)
    spec = RollSpec(label, tn, crit_chance=agents.crit_chance(sheet, "TN"), crit_effect=False,
                    name=f"TN test against a {tier} injury")  # fmt: skip
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
    steps: list[str] = implied_steps(sheet, settings)
    tests = [injury_test(sheet, tier, roller, settings, steps) for tier in tiers_reached(sheet, settings)]
    return combine(tests, steps)


def implied_steps(sheet: dict, settings: dict) -> list:
    """The tiers filled in, said in the log: «was dying, so also seriously wounded and at half HP»."""
    implied = went_through(sheet, settings)["implied"]
    if not implied:
        return []
    return [T("It went through {flags} as well (a higher tier implies the lower, L222, L242–246, L321).",
              flags=join(", ", [T(FLAG_WORDS[f]) for f in implied]))]  # fmt: skip


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
    tiers = tiers_reached(sheet, settings)
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
                        modifier=ap, crit_chance=agents.crit_chance(repairer, "IT"), crit_effect=False,
                        name="IT test to repair armour")  # fmt: skip
    return RollSpec(T("IT test to repair {armour} (IT {it} +{ap})", armour=name, it=it, ap=ap), it + ap,
                    crit_chance=agents.crit_chance(repairer, "IT"), crit_effect=False, name="IT test to repair armour")  # fmt: skip


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
