"""Hits on units: who takes them and with which save (§3.6, §5 B3, B19), the legal split of unsaved hits into
suppression and casualties (L28, L31, §5 B1, B4, B7), and hits on vehicles: immunity, save and the damage die by
facing (§3.9, L84–90, §5 B16–B18). Shared by shooting, melee, saves after a vehicle's destruction and overrun.
"""

from __future__ import annotations

from fractions import Fraction

from rules.contract import prob
from rules.i18n import _
from rules.systems.squads import names, tables
from rules.systems.squads.actions.common import err

NO_SAVE = 7  # a save number no die reaches


def group_save(group: dict, settings: dict) -> int | None:
    """The save of one group of figures: its personal armour, or a vehicle it shelters behind (§5 B19)."""
    own = tables.PERSONAL_ARMOUR[group.get("armour", "none")].save
    behind = group.get("behind_vehicle")
    if behind is None:
        return own
    vehicle = tables.VEHICLE_ARMOUR[behind].save
    if settings["behind_vehicle_save"] == "vehicle":
        return vehicle
    return min(own or NO_SAVE, vehicle)


def majority_armour(groups: list[dict]) -> str:
    """The armour most figures wear; a tie goes to the first listed."""
    counts: dict[str, int] = {}
    for g in groups:
        counts[g.get("armour", "none")] = counts.get(g.get("armour", "none"), 0) + g["count"]
    return max(counts, key=lambda a: counts[a])  # max keeps the first of equal counts (dicts keep order)


def save_groups(groups: list[dict], settings: dict) -> list[tuple[int, int | None, str]]:
    """(figures, save, label) per group as the hits meet them (§5 B3)."""
    return [(n, save, label) for n, save, label, _purpose in _save_groups(groups, settings)]


def _save_groups(groups: list[dict], settings: dict) -> list[tuple[int, int | None, str, str]]:
    """save_groups with the purpose of each group's save dice: the armour's own msgid where the figures wear it
    (names.ARMOUR_SAVES, so the log names it in any language), else the group's words."""
    if settings["save_allocation"] == "majority_armour":
        armour = majority_armour(groups)
        total = sum(g["count"] for g in groups)
        save = tables.PERSONAL_ARMOUR[armour].save
        return [(total, save, names.armour(armour), names.ARMOUR_SAVES.get(armour, ""))]
    out = []
    for g in groups:
        armour = g.get("armour", "none")
        label = g.get("name") or names.armour(armour)
        purpose = "" if g.get("name") else names.ARMOUR_SAVES.get(armour, "")
        if g.get("behind_vehicle"):
            label = _("{group} behind a vehicle ({armour})").format(
                group=label, armour=names.vehicle_armour(g["behind_vehicle"])
            )
            purpose = ""
        out.append((g["count"], group_save(g, settings), label, purpose))
    return out


def assign(hits: int, saves: list[tuple[int, int | None, str]]) -> list[int]:
    """Hits per group: one per figure in the owner's order, then round again (§5 B3)."""
    total = sum(s[0] for s in saves)
    rounds, rest = divmod(hits, total)
    out = []
    for n, *_rest in saves:
        extra = min(n, rest)
        rest -= extra
        out.append(rounds * n + extra)
    return out


def roll_saves(dice, hits: int, groups: list[dict], settings: dict, steps: list[str]) -> dict:
    """Rolls one save per hit with the armour of the figure it hit. Answers {"unsaved", "saves": [...]}."""
    saves = _save_groups(groups, settings)
    unsaved = 0
    detail = []
    for (_n, save, label, purpose), h in zip(saves, assign(hits, saves), strict=True):
        if not h:
            continue
        if save is None:
            unsaved += h
            steps.append(_("{group}: hits {hits}, no armour, no save.").format(group=label, hits=h))
            detail.append({"group": label, "hits": h, "save": None, "rolls": [], "unsaved": h})
            continue
        purpose = purpose or _("save {save}+ (target, {group})").format(save=save, group=label)
        rolls = dice.roll_many(h, 6, purpose)
        lost = sum(1 for r in rolls if r < save)
        unsaved += lost
        steps.append(
            _("{group}: hits {hits}, saves {save}+ {rolls}: unsaved {unsaved}.").format(
                group=label, hits=h, save=save, rolls=rolls, unsaved=lost
            )
        )
        detail.append({"group": label, "hits": h, "save": save, "rolls": rolls, "unsaved": lost})
    return {"unsaved": unsaved, "saves": detail}


def unsaved_distribution(hits: dict[int, Fraction], groups: list[dict], settings: dict) -> dict[int, Fraction]:
    """Exact distribution of unsaved hits, given the distribution of hits.

    The owner gives hits out one figure at a time in his order, round and round (assign), so the h-th hit lands on
    figure (h − 1) mod the figures: the unsaved hits of h hits are those of h − 1 hits and one more save roll of that
    figure's armour. One pass over h, a Bernoulli step each, instead of convolving every group again for each h."""
    saves = save_groups(groups, settings)
    fails = []  # per figure in the owner's order: P(its save fails)
    for n, save, _label in saves:
        fails += [Fraction(1) if save is None else 1 - tables.p_at_least(save)] * n
    out: dict[int, Fraction] = {}
    dist = [Fraction(1)]  # P(u unsaved) after h hits, u = 0..h
    top = max(hits, default=0)
    for h in range(top + 1):
        if h:
            fail = fails[(h - 1) % len(fails)]
            keep = 1 - fail
            dist = [a * keep + b * fail for a, b in zip([*dist, 0], [0, *dist], strict=True)]
        ph = hits.get(h)
        if ph:
            for u, pu in enumerate(dist):
                if pu:
                    out[u] = out.get(u, Fraction(0)) + ph * pu
    return out


# The split of unsaved hits (L28, L31) ----------------------------------------------------------------------
def split_limits(target: dict, unsaved: int, settings: dict) -> dict:
    """The legal split: the chooser picks how many unsaved hits suppress (0 .. max); the rest are casualties up
    to what the unit can take; hits beyond that are lost."""
    figures = target["figures"]
    already = target.get("suppressed", 0)
    allocatable = target.get("allocatable")
    pool = figures if allocatable is None or not settings["cover_edge_only"] else min(allocatable, figures)
    # Figures that can still be suppressed: standing, not suppressed, within reach of the fire (§5 B7).
    fresh = max(0, min(pool, figures - already))
    cap = max(0, tables.suppression_cap(target["level"], settings) - already)  # L31 (values §5 B1)
    most = min(unsaved, cap, fresh)

    def casualties(suppress: int) -> int:
        if settings["suppressed_then_casualty"] == "never_while_suppressed":
            room = min(pool, figures - already) - suppress  # §5 B4: never a suppressed figure
        else:
            room = pool - suppress  # §5 B4: not one just suppressed; earlier ones may fall
        return max(0, min(unsaved - suppress, room))

    return {
        "min_suppressed": 0,
        "max_suppressed": most,
        "cap": tables.suppression_cap(target["level"], settings),
        "options": [
            {"suppressed": k, "casualties": casualties(k), "lost": unsaved - k - casualties(k)} for k in range(most + 1)
        ],
    }


# Vehicles (§3.9) -----------------------------------------------------------------------------------------
def immune(weapon: str, vehicle_armour: str, settings: dict) -> bool:
    """L84: small arms and HMGs cannot harm armoured vehicles (save 5+ or better, §5 B18)."""
    if tables.VEHICLE_ARMOUR[vehicle_armour].save > tables.ARMOURED_SAVE:
        return False
    small = tables.SMALL_ARMS if settings["armour_immune_weapons"] == "small_arms_and_hmg" else tables.FIREARMS
    return weapon in small or weapon == "hmg"


MAX_DOUBLES = 50


def roll_damage_die(dice, facing: str, settings: dict, hit: tuple[int, int]) -> tuple[int, list[int]]:
    """The damage die by facing (L90, §5 B16): the side one die; front/rear two dice, doubles re-rolled. `hit`: (i, n),
    the unsaved hit it is rolled for, which numbers its dice ("… 2 of 3")."""
    if facing == "side":
        v = dice.roll(6, names.numbered(names.SIDE_DAMAGE_DIE, *hit))
        return v, [v]
    take_low = (facing == "front") == (settings["facing_best"] == "front_lower")
    rolled = []
    for attempt in range(MAX_DOUBLES):
        again = bool(attempt)
        a = dice.roll(6, names.numbered(names.DAMAGE_DICE[facing, 1, again], *hit))
        b = dice.roll(6, names.numbered(names.DAMAGE_DICE[facing, 2, again], *hit))
        rolled += [a, b]
        if a != b or settings["facing_doubles"] == "keep":
            return (min(a, b) if take_low else max(a, b)), rolled
    raise err("dice", _("The damage dice kept matching; roll again."))


def vehicle_damage(dice, unsaved: int, facing: str, settings: dict, steps: list[str], role: str = "target"):
    """One damage die per unsaved hit until the vehicle is destroyed (L85–89). Answers (results, effects)."""
    results, effects = [], []
    for i in range(1, unsaved + 1):
        value, rolled = roll_damage_die(dice, facing, settings, (i, unsaved))
        effect = tables.DAMAGE[value]
        results.append({"value": value, "dice": rolled, "effect": effect})
        steps.append(
            _("Damage die {dice} → {value}: {effect}.").format(dice=rolled, value=value, effect=names.damage(effect))
        )
        if effect == "weapon_destroyed":
            effects.append({"kind": "weapon_destroyed", "role": role, "chooser": "owner"})
        else:
            effects.append({"kind": effect, "role": role})
        if effect == "destroyed":
            effects.append({"kind": "bail_out", "role": role, "hits": settings["bail_out_hits"]})
            steps.append(
                _("Crew and passengers leave the vehicle and take one hit each (L89).")
                if settings["bail_out_hits"] == "per_figure"
                else _("Crew and passengers leave the vehicle and take one hit per unit (§5 B17).")
            )
            break
    return results, effects


# The damage table's rows from the mildest to the worst (L86–89); "none": no hit went through the armour.
SEVERITY = ("none", "crew_stunned", "weapon_destroyed", "immobilised", "destroyed")


def worst_effect(damage: list[dict]) -> str:
    """The most severe damage-table result among the rolled ones ("none" when nothing went through)."""
    return max((d["effect"] for d in damage), key=SEVERITY.index, default="none")


def worst_effect_odds(unsaved: dict[int, Fraction], facing: str, settings: dict) -> dict[str, Fraction]:
    """Exact P(the most severe effect of the attack is each row), in SEVERITY order: the damage table decides the
    vehicle's fate by its worst result. Rolling stops at "destroyed", which is the worst anyway, so the worst of u
    dice is at most e with probability F(e)^u, F(e) = P(one die gives e or milder)."""
    per_hit = tables.damage_effect_probabilities(facing, settings)
    out: dict[str, Fraction] = {}
    below = Fraction(0)  # P(worst is milder than the current row)
    mild = Fraction(0)  # F(e)
    for effect in SEVERITY:
        if effect != "none":
            mild += per_hit[effect]
        at_most = sum((pu * mild**u for u, pu in unsaved.items()), Fraction(0))
        out[effect] = at_most - below
        below = at_most
    return out


def worst_effect_distribution(odds: dict[str, Fraction]) -> list[dict]:
    """The worst effect's distribution as JSON, mildest first (not alphabetical): [{"value", "exact", "p"}]."""
    return [{"value": effect, **prob(odds[effect])} for effect in SEVERITY]


def vehicle_damage_odds(unsaved: dict[int, Fraction], facing: str, settings: dict) -> dict:
    """Exact P(each effect happens at least once before the vehicle is destroyed)."""
    per_hit = tables.damage_effect_probabilities(facing, settings)
    d = per_hit["destroyed"]
    out = {}
    for effect, p in per_hit.items():
        total = Fraction(0)
        for u, pu in unsaved.items():
            if effect == "destroyed":
                total += pu * (1 - (1 - d) ** u)
            elif p:
                # the first of {this effect, destroyed} to come is this effect, within u hits
                total += pu * (p / (p + d)) * (1 - (1 - p - d) ** u)
        out[effect] = total
    return out
