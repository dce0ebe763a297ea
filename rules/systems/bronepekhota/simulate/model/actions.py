"""Single actions through the battle's dice primitives, bound to the exact odds by tests."""

from __future__ import annotations

import numpy as np

from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model.dice import (
    blast_armour,
    resolve_damage,
    roll_dice,
    roll_melee,
    roll_power_damage,
    roll_range,
    roll_survival,
)
from rules.systems.bronepekhota.simulate.model.params import KILLED, PANICKED


# Single actions through the primitives (bound to the exact odds by tests) --------------------------------
def _action(key: str):
    from rules.registry import get_system

    return get_system("bronepekhota").actions[key]


def _frequencies(values: np.ndarray) -> dict[int, float]:
    keys, counts = np.unique(values, return_counts=True)
    return {int(k): int(c) / values.size for k, c in zip(keys, counts, strict=True)}


def simulate_virtual_shot(inputs: dict, settings: dict | None = None, *, n: int = 100_000, seed: int = 0) -> dict:
    """The virtual shot of `actions["virtual_shot"]` (same inputs) simulated `n` times with the battle primitives.
    Frequencies under the keys of its odds(): p_hit, damage, p_destroyed, p_pilot_killed, p_panic, (vehicles,
    guns) strength_loss and, for a weapon's blast (§7.4 IV, special_properties on), per listed victim p_attacked,
    p_destroyed, p_pilot_killed and p_panic. The blast's pool rolls against blast_armour, as the battles do; with
    blast_hits_target it joins the target's damage."""
    from rules.systems.bronepekhota.actions.common import full_settings

    settings = full_settings(settings)
    clean = _action("virtual_shot").validate(inputs, settings)
    rng = np.random.default_rng(seed)
    rng_range, power, target = clean["range"], clean["power"], clean["target"]
    _, hit = roll_range(rng, rng_range.faces, rng_range.modifier, np.full(n, clean["steps"]), clean["aimed"])
    base = target["armour"] if target["kind"] == "infantry" else target["strength"]
    damage = roll_power_damage(rng, power.count, power.faces, power.modifier, np.full(n, base + clean["cover_bonus"]))
    blast = clean["blast_power"]
    with_cover = bool(settings["blast_cover"])
    if blast and settings["blast_hits_target"]:
        armour = blast_armour(base, clean["cover_bonus"], with_cover)
        damage = damage + roll_power_damage(rng, blast.count, blast.faces, blast.modifier, np.full(n, armour))
    damage = damage * hit
    out = {"p_hit": float(hit.mean()), "damage": _frequencies(damage)}
    out.update(_consequences(rng, target, damage, settings, cause="shot"))
    out["blast"] = []
    raw = inputs.get("blast") or []
    for i, (victim, _bonus) in enumerate(clean["blast"]):
        choice = raw[i].get("cover", tables.COVER_NONE)
        cover = tables.cover_bonus(choice, exactly_half_bonus=int(settings["cover_exactly_half"]))
        armour = blast_armour(
            victim["armour"] if victim["kind"] == "infantry" else victim["strength"], cover, with_cover
        )
        dmg = roll_power_damage(rng, blast.count, blast.faces, blast.modifier, np.full(n, armour)) * hit
        cons = _consequences(rng, victim, dmg, settings, cause="blast")
        out["blast"].append(
            {
                "p_attacked": float(hit.mean()),
                "p_destroyed": cons["p_destroyed"],
                "p_pilot_killed": cons["p_pilot_killed"],
                "p_panic": cons["p_panic"],
            }
        )
    return out


def simulate_melee(inputs: dict, settings: dict | None = None, *, n: int = 100_000, seed: int = 0) -> dict:
    """The melee of `actions["melee"]` (a surprise attack too, as the battles roll a share of them) simulated `n`
    times with the battle primitives: p_attacker_wins, p_defender_destroyed, p_pilot_killed, p_panic, damage, strength_loss."""
    from rules.systems.bronepekhota.actions.common import full_settings

    settings = full_settings(settings)
    clean = _action("melee").validate(inputs, settings)
    rng = np.random.default_rng(seed)
    dfn = clean["defender"]
    flat = clean["defence_kind"] in ("gun", "pilotless")
    fixed = tables.melee_defence_strength(
        0,
        kind=clean["defence_kind"],
        armour=dfn.get("armour", 0),
        strength=dfn.get("strength", 0),
        melee=dfn.get("melee", 0),
        surprise=clean["surprise"],
    )
    surprise = np.full(n, bool(clean["surprise"]))
    attack, defence = roll_melee(rng, np.full(n, clean["attack_bonus"]), fixed, flat, surprise)
    won = attack > defence
    damage = np.where(won, 1 if dfn["kind"] == "infantry" else attack - defence, 0).astype(np.int16)
    out = {"p_attacker_wins": float(won.mean())}
    cons = _consequences(rng, dfn, damage, settings, cause="melee")
    out["p_defender_destroyed"] = cons.pop("p_destroyed")
    out.update(cons)
    if dfn["kind"] != "infantry":
        out["damage"] = _frequencies(damage)
    return out


def simulate_grenade(inputs: dict, settings: dict | None = None, *, n: int = 100_000, seed: int = 0) -> dict:
    """The grenade of `actions["grenade"]` (same inputs) simulated `n` times with the battle's primitives: the
    burst Д6 (unless `burst_steps` is given), then 1Д20 against each listed victim whose `bursts` hold it, with the
    cover of Table 5 only under blast_cover (blast_armour, as the battles use it). Frequencies under the keys of
    its odds(): burst, and per victim p_attacked, p_damaged, p_destroyed, p_pilot_killed, p_panic."""
    from rules.systems.bronepekhota.actions.common import full_settings

    settings = full_settings(settings)
    clean = _action("grenade").validate(inputs, settings)
    rng = np.random.default_rng(seed)
    fixed = clean["burst_steps"]
    burst = np.full(n, fixed, np.int16) if fixed else roll_dice(rng, tables.GRENADE_RANGE_FACES, n)
    raw = inputs.get("victims") or []
    victims = []
    for el, bursts, role, _bonus in clean["victims"]:
        index = int(role.split(".")[1]) if role.startswith("victims.") else None
        choice = raw[index].get("cover", tables.COVER_NONE) if index is not None else tables.COVER_NONE
        cover = tables.cover_bonus(choice, exactly_half_bonus=int(settings["cover_exactly_half"]))
        base = el["armour"] if el["kind"] == "infantry" else el["strength"]
        armour = blast_armour(base, cover, bool(settings["blast_cover"]))
        attacked = np.isin(burst, sorted(bursts))
        n_g, f_g = tables.GRENADE_POWER
        damage = roll_power_damage(rng, n_g, f_g, 0, np.full(n, armour)) * attacked
        cons = _consequences(rng, el, damage, settings, cause="grenade")
        victims.append(
            {
                "role": role,
                "p_attacked": float(attacked.mean()),
                "p_damaged": float((damage > 0).mean()),
                "p_destroyed": cons["p_destroyed"],
                "p_pilot_killed": cons["p_pilot_killed"],
                "p_panic": cons["p_panic"],
            }
        )
    return {"burst": _frequencies(burst), "victims": victims}


def _consequences(rng, target: dict, damage: np.ndarray, settings: dict, *, cause: str) -> dict:
    n = damage.size
    if target["kind"] == "infantry":
        hit = damage > 0
        if settings["virtual_infantry_damage"] == "survival_test" and cause != "melee":  # A24, as the resolver
            code = roll_survival(rng, np.full(n, target["armour"]), int(settings["survival_die"]), settings["panic"])
            return {
                "p_destroyed": float((hit & (code == KILLED)).mean()),
                "p_pilot_killed": 0.0,
                "p_panic": float((hit & (code == PANICKED)).mean()),
            }
        return {"p_destroyed": float(hit.mean()), "p_pilot_killed": 0.0, "p_panic": 0.0}
    pilot = target.get("pilot")
    res = resolve_damage(
        rng,
        np.full(n, target["strength"]),
        damage,
        np.full(n, target["kind"] == "vehicle" and pilot is not None),
        np.full(n, (pilot or {}).get("armour", 0)),
        np.full(n, bool(target.get("flying"))),
        settings,
    )
    return {
        "p_destroyed": float((res["strength"] == 0).mean()),
        "p_pilot_killed": float((res["pilot"] == KILLED).mean()),
        "p_panic": float((res["pilot"] == PANICKED).mean()),
        "strength_loss": _frequencies(target["strength"] - res["strength"]),
    }
