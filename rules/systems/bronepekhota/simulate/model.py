"""Forces, parameters, dice primitives and the compiled battle (static arrays and lookup tables).

The model itself is described in the package docstring (rules/systems/bronepekhota/simulate/__init__.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from rules import dice as dicelib
from rules.errors import RuleInputError
from rules.systems.bronepekhota import army as armylib
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY
from rules.systems.bronepekhota.settings import defaults as default_settings

MODEL_VERSION = 1
FACES = dicelib.BOOK_FACES

SOLDIER, VEHICLE, GUN = 0, 1, 2
ABOARD, DISMOUNTED, NO_PILOT = 0, 1, 2  # a vehicle's pilot; for a gun ABOARD = crewed, NO_PILOT = no crew
SURVIVED, PANICKED, KILLED = 0, 1, 2
OUTCOME_DRAW, OUTCOME_A, OUTCOME_B = 0, 1, 2
# Slot kinds: whose weapon a shot slot fires.
PERSONAL, VEHICLE_GUN, CREWED_GUN, CREW_FALLBACK = 0, 1, 2, 3

# Stand-in pilot or crew of a duel: the book's example infantryman (Бр 3 Рис.27, ББ 2 Рис.50, Ск 4 p.14).
STAND_IN = {"armour": 3, "melee": 2, "speed": 4}

APPROACHES = ("advance", "hold")
INITIATIVE_CHOICES = ("rolled", "a", "b")
COVER_CHOICES = tuple(c for c in tables.COVER_CHOICES if c != tables.COVER_HIDDEN)
MAX_DISTANCE = 200
MAX_ROUNDS = 50

# Which settings change this model, and why the others do not (shown on the job page).
SIMULATED_SETTINGS = {
    "mode": "Only virtual shooting can be simulated; real shooting is refused.",
    "ammo_limited": "Vehicles and guns spend ammo before each shot.",
    "ammo_refreshes": "A vehicle or gun that runs dry refills its track, this many times.",
    "grenades": "Soldiers may throw a grenade instead of shooting (target and thrower only).",
    "jump_packs": "A soldier with «ПрN» moves max(Ск, N) steps.",
    "aimed_fire": "Soldiers who cannot reach otherwise stay and fire aimed.",
    "panic": "Survival tests equal to «Бр» panic: pilots bail out, flee and may desert.",
    "blast_cover": "Cover counts against grenades when on.",
    "ammo_short_shot": "Strict: a shot needs ammo for all its dice.",
    "flyer_full_speed_each_move": "Flyers move twice their speed when on, once when off.",
    "captured_acts_next_round": "A re-boarded vehicle acts from the next round when on.",
    "panic_ends_actions": "A panicked soldier acts no more this round when on.",
    "panic_flyer_lands_safely": "A panicking flying pilot lands first when on; off, the flyer stays up, pilotless.",
    "survival_die": "The die of every survival test.",
    "cover_exactly_half": "The bonus when the chosen cover is 'exactly half hidden'.",
    "gun_rof_rule": "Per gun: a gun fires up to its RoF shots; per barrel: each weapon once.",
    "virtual_infantry_damage": "A hit infantryman dies, or takes a survival test (house rule).",
}
IGNORED_SETTINGS = {
    "special_properties": "Blast specials are not simulated: without a map nobody knows who stands within 2 steps.",
    "blast_hits_target": "Blasts are not simulated.",
    "balance_info_percent": "Used by the verdict, not by the battles.",
    "balance_warning_percent": "Used by the verdict, not by the battles.",
    "deployment_order": "Both armies deploy on their lines; the order of placing does not matter without a map.",
    "initiative_reroll": "With two players only the two tied players can re-roll: both readings are the same.",
    "half_step_obstacle_free": "No terrain in the model.",
    "obstacle_cost_additive": "No terrain in the model.",
    "jump_downward_height": "No heights in the model.",
    "shooting_ban": "In the model crews stand with their guns, so both readings ban the same shots.",
    "melee_in_contact": "Elements in contact may always attack: stepping out and back in is a new contact.",
    "lying_vehicle_defence": "Vehicles only lie down in real shooting.",
    "dismounted_pilot_rejoins_squad": "A dismounted pilot always acts with his squad's activation.",
    "airborne_no_melee": "Flyers hover and never touch anyone, so they never fight in melee.",
    "armour_test_after_damage": "The armour test is real shooting only.",
    "enforce_mount_limit": "Roster validation, not battle.",
    "repair_needs_idle_soldier": "Repair is not simulated.",
    "repair_cap_at_max": "Repair is not simulated.",
    "dispute_die": "No disputes in a simulation.",
    "grenade_replaces_shot": "A grenade always replaces the soldier's shot here (the default reading); "
    "throwing and shooting in one round is not simulated.",
    # single-reading interpretations (settings.INTERPRETATION): the model already reads them that way
    "armlist_data_source": "The numbers come from the profiles of the armies' rosters.",
    "cost_per": "Costs come from the rosters: each squad, vehicle and gun Armlist has its own.",
    "grenade_damage_section": "Grenade damage follows §7.4 II–III, the only reading.",
    "distance_measured_between": "No map: distances are whole steps between the elements' advances.",
    "light_heavy_mechanics": "Light and heavy vehicles differ only in where the pilot figure stands.",
    "twin_cannon_names": "Two names for one gun: a data matter.",
    "speed_sectors_from": "Speed sectors are read from the profiles' data.",
}


# Parameters ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BattleParams:
    distance: int = 14  # steps between the deployment lines (the book wants >= 12–14, p.3–4)
    cover_a: str = tables.COVER_NONE  # Table 5 cover of side A's elements against shots
    cover_b: str = tables.COVER_NONE
    rounds: int = 8
    initiative: str = "rolled"  # who holds the initiative in round 1: "rolled", "a" or "b"
    approach: str = "advance"  # "advance": everyone closes; "hold": elements that can reach an enemy stay and shoot

    def check(self) -> BattleParams:
        errors = {}
        if (
            isinstance(self.distance, bool)
            or not isinstance(self.distance, int)
            or not 1 <= self.distance <= MAX_DISTANCE
        ):
            errors["distance"] = f"The starting distance must be a whole number of steps from 1 to {MAX_DISTANCE}."
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            errors["rounds"] = f"The number of rounds must be a whole number from 1 to {MAX_ROUNDS}."
        for key in ("cover_a", "cover_b"):
            if getattr(self, key) not in COVER_CHOICES:
                errors[key] = f"Cover must be one of: {', '.join(COVER_CHOICES)} (a hidden target cannot be shot)."
        if self.initiative not in INITIATIVE_CHOICES:
            errors["initiative"] = "Initiative in round 1 must be 'rolled', 'a' or 'b'."
        if self.approach not in APPROACHES:
            errors["approach"] = "The approach must be 'advance' or 'hold'."
        if errors:
            raise RuleInputError(errors)
        return self

    def as_dict(self) -> dict:
        return {
            "distance": self.distance,
            "cover_a": self.cover_a,
            "cover_b": self.cover_b,
            "rounds": self.rounds,
            "initiative": self.initiative,
            "approach": self.approach,
        }


def resolve_settings(overrides: dict | None) -> dict:
    """Defaults of settings.py with the given overrides, each checked; real shooting is refused."""
    merged = default_settings()
    for key, value in (overrides or {}).items():
        if key not in SETTINGS_BY_KEY:
            raise RuleInputError({f"settings.{key}": "unknown setting"})
        merged[key] = SETTINGS_BY_KEY[key].check(value)
    if merged["mode"] != "virtual":
        raise RuleInputError({"settings.mode": "Only virtual shooting can be simulated: real shots are physical."})
    return merged


# Dice primitives: the only place a simulated battle rolls dice --------------------------------------------
def roll_dice(rng: np.random.Generator, faces, size=None) -> np.ndarray:
    """Uniform 1..faces; `faces` is a number or an array (one die per entry)."""
    if np.isscalar(faces):
        return rng.integers(1, int(faces) + 1, size=size, dtype=np.int16)
    faces = np.asarray(faces)
    shape = faces.shape if size is None else size
    return (rng.random(shape) * faces).astype(np.int16) + 1


def roll_range(rng, faces, modifier, steps, aimed=False) -> tuple[np.ndarray, np.ndarray]:
    """§7.4 I: a hit when the aimed range, roll + modifier (×2 with aimed fire, §11.1), reaches the distance in
    steps. Written as one comparison per die: roll >= steps − modifier, or roll >= ceil(steps / 2) − modifier
    when aimed (tables.aimed_range). `faces` and `modifier` are numbers or arrays shaped like `steps`."""
    steps = np.asarray(steps)
    roll = roll_dice(rng, faces, size=steps.shape) if np.isscalar(faces) else roll_dice(rng, faces)
    need = steps if aimed is False else np.where(aimed, (steps + 1) // 2, steps)
    if not (np.isscalar(modifier) and modifier == 0):
        need = need - modifier
    return roll, roll >= need


def roll_power_damage(rng, count, faces, per_die, armour) -> np.ndarray:
    """§7.4 II: `count` dice of `faces` (+ per-die modifier); each STRICTLY above the armour does 1 damage
    (tables.penetrates, compared as roll > armour − modifier). `count`, `faces`, `per_die` are numbers or arrays
    shaped like `armour`. Dice are drawn die by die ([count, …]) so the damage is a sum over the first axis."""
    armour = np.asarray(armour)
    need = armour if (np.isscalar(per_die) and per_die == 0) else armour - per_die
    if np.isscalar(count) and np.isscalar(faces):
        if count == 0:
            return np.zeros(armour.shape, dtype=np.uint8)
        rolls = roll_dice(rng, faces, size=(int(count), *armour.shape))
        through = tables.penetrates(rolls, need).view(np.uint8)
        if count == 1:
            return through[0]
        damage = through[0] + through[1]  # a handful of dice: row additions beat a reduction over a short axis
        for row in through[2:]:
            damage += row
        return damage
    count = np.broadcast_to(np.asarray(count), armour.shape)
    width = int(count.max()) if count.size else 0
    if width == 0:
        return np.zeros(armour.shape, dtype=np.int16)
    rolls = roll_dice(rng, np.broadcast_to(np.asarray(faces), (width, *armour.shape)))
    used = np.arange(width).reshape((width,) + (1,) * armour.ndim) < count
    return (tables.penetrates(rolls, need) & used).sum(0, dtype=np.int16)


@lru_cache(maxsize=64)
def _survival_table(faces: int, panic: bool) -> np.ndarray:
    """SURVIVED / PANICKED / KILLED for [armour 0..20, roll 0..faces], from tables.survival_result."""
    codes = {tables.SURVIVED: SURVIVED, tables.PANIC: PANICKED, tables.KILLED: KILLED}
    table = np.full((21, faces + 1), KILLED, dtype=np.int8)
    for armour in range(21):
        for roll in range(1, faces + 1):
            table[armour, roll] = codes[tables.survival_result(armour, roll, panic_rule=panic)]
    return table


def roll_survival(rng, armour, faces: int, panic: bool) -> np.ndarray:
    """§3.4 survival test on a d`faces`: Бр >= roll survives (equal panics with the panic rule)."""
    armour = np.asarray(armour)
    roll = roll_dice(rng, faces, size=armour.shape)
    return _survival_table(faces, panic)[np.clip(armour, 0, 20), roll]


def roll_melee(rng, attack_bonus, defence_fixed, flat) -> tuple[np.ndarray, np.ndarray]:
    """Table 6: attack Д6 + bonus; defence Д6 + fixed, or the fixed Броня alone (gun, vehicle without pilot)."""
    attack_bonus = np.asarray(attack_bonus)
    attack = roll_dice(rng, tables.MELEE_FACES, attack_bonus.shape) + attack_bonus
    d_die = roll_dice(rng, tables.MELEE_FACES, attack_bonus.shape)
    defence = np.where(flat, defence_fixed, d_die + np.asarray(defence_fixed))
    return attack, defence


def resolve_damage(rng, strength, damage, pilot_aboard, pilot_armour, flying, settings) -> dict:
    """§7.4 II–III on vehicles and guns (arrays, one entry per hit element): strength after damage, the pilot's
    survival test (one per shot), an emergency landing when a flying pilot dies (§3.10). Returns arrays."""
    after = _strength_after(np.asarray(strength), np.asarray(damage))
    tested = np.asarray(pilot_aboard) & (np.asarray(damage) > 0)
    pilot = np.full(after.shape, -1, dtype=np.int8)
    if tested.any():
        pilot[tested] = roll_survival(
            rng, np.asarray(pilot_armour)[tested], int(settings["survival_die"]), bool(settings["panic"])
        )
    landing = np.zeros(after.shape, dtype=np.int16)
    lands = (pilot == KILLED) & np.asarray(flying) & (after > 0)
    if lands.any():
        landing[lands] = roll_dice(rng, tables.EMERGENCY_LANDING_FACES, size=int(lands.sum()))
        after = np.where(lands, _strength_after(after, landing), after).astype(np.int16)
    return {"strength": after, "pilot": pilot, "landing": landing}


def _strength_after(strength: np.ndarray, damage: np.ndarray) -> np.ndarray:
    """tables.strength_after for arrays: the slider stops at 0 (its scalar max() misreads 1-element arrays)."""
    return np.maximum(0, strength - damage).astype(np.int16)


def roll_initiative(rng, n: int) -> np.ndarray:
    """§3.1 with two sides: both roll a d12, ties re-rolled. Returns the side (0 = A, 1 = B) that wins."""
    winner = np.zeros(n, dtype=np.int8)
    todo = np.arange(n)
    while todo.size:
        a = roll_dice(rng, tables.INITIATIVE_FACES, todo.size)
        b = roll_dice(rng, tables.INITIATIVE_FACES, todo.size)
        winner[todo] = (b > a).astype(np.int8)
        todo = todo[a == b]
    return winner


# Single actions through the primitives (bound to the exact odds by tests) --------------------------------
def _action(key: str):
    from rules.registry import get_system

    return get_system("bronepekhota").actions[key]


def _frequencies(values: np.ndarray) -> dict[int, float]:
    keys, counts = np.unique(values, return_counts=True)
    return {int(k): int(c) / values.size for k, c in zip(keys, counts, strict=True)}


def simulate_virtual_shot(inputs: dict, settings: dict | None = None, *, n: int = 100_000, seed: int = 0) -> dict:
    """The virtual shot of `actions["virtual_shot"]` (same inputs, no blast victims) simulated `n` times with the
    battle primitives. Frequencies under the keys of its odds(): p_hit, damage, p_destroyed, p_pilot_killed,
    p_panic and (vehicles, guns) strength_loss."""
    from rules.systems.bronepekhota.actions.common import full_settings

    settings = full_settings(settings)
    clean = _action("virtual_shot").validate(inputs, settings)
    if clean["blast"]:
        raise RuleInputError({"blast": "The simulator does not model blast victims."})
    rng = np.random.default_rng(seed)
    rng_range, power, target = clean["range"], clean["power"], clean["target"]
    _, hit = roll_range(rng, rng_range.faces, rng_range.modifier, np.full(n, clean["steps"]), clean["aimed"])
    armour = (target["armour"] if target["kind"] == "infantry" else target["strength"]) + clean["cover_bonus"]
    damage = roll_power_damage(rng, power.count, power.faces, power.modifier, np.full(n, armour)) * hit
    out = {"p_hit": float(hit.mean()), "damage": _frequencies(damage)}
    out.update(_consequences(rng, target, damage, settings, cause="shot"))
    return out


def simulate_melee(inputs: dict, settings: dict | None = None, *, n: int = 100_000, seed: int = 0) -> dict:
    """The melee of `actions["melee"]` (no surprise attacks: the model has no facing) simulated `n` times with
    the battle primitives: p_attacker_wins, p_defender_destroyed, p_pilot_killed, p_panic, damage, strength_loss."""
    from rules.systems.bronepekhota.actions.common import full_settings

    settings = full_settings(settings)
    clean = _action("melee").validate(inputs, settings)
    if clean["surprise"]:
        raise RuleInputError({"surprise": "The simulator has no facing, so no surprise attacks."})
    rng = np.random.default_rng(seed)
    dfn = clean["defender"]
    flat = clean["defence_kind"] in ("gun", "pilotless")
    fixed = tables.melee_defence_strength(
        0,
        kind=clean["defence_kind"],
        armour=dfn.get("armour", 0),
        strength=dfn.get("strength", 0),
        melee=dfn.get("melee", 0),
    )
    attack, defence = roll_melee(rng, np.full(n, clean["attack_bonus"]), fixed, flat)
    won = attack > defence
    damage = np.where(won, 1 if dfn["kind"] == "infantry" else attack - defence, 0).astype(np.int16)
    out = {"p_attacker_wins": float(won.mean())}
    cons = _consequences(rng, dfn, damage, settings, cause="melee")
    out["p_defender_destroyed"] = cons.pop("p_destroyed")
    out.update(cons)
    if dfn["kind"] != "infantry":
        out["damage"] = _frequencies(damage)
    return out


def _consequences(rng, target: dict, damage: np.ndarray, settings: dict, *, cause: str) -> dict:
    n = damage.size
    if target["kind"] == "infantry":
        hit = damage > 0
        if settings["virtual_infantry_damage"] == "survival_test" and cause == "shot":
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


# Forces: roster entries -> elements ------------------------------------------------------------------------
@dataclass(frozen=True)
class Weapon:
    name: str
    range_faces: int
    range_mod: int
    count: int
    faces: int
    per_die: int

    @property
    def reach(self) -> int:
        return self.range_faces + self.range_mod

    @property
    def strength(self) -> int:
        return self.count * self.faces


@dataclass
class _El:
    kind: int
    side: int
    name: str
    worth: float = 0.0  # soldiers: squad cost / soldiers
    cost: float = 0.0  # vehicles and guns
    armour: int = 0
    melee: int = 0
    speed: int = 0
    rank: int = 0
    strength_max: int = 0
    sectors: list = field(default_factory=list)
    rof: int = 0
    ammo_max: int = 0
    flyer: bool = False
    personal: Weapon | None = None
    weapons: list = field(default_factory=list)  # vehicles: fitted ranged; guns: listed
    pilot: _El | None = None
    crew: _El | None = None
    pilot_of: _El | None = None
    crew_of: _El | None = None
    stand_in: bool = False
    order: int = 0
    index: int = -1


@dataclass
class _Unit:
    kind: int
    side: int
    name: str
    cost: float
    members: list
    order: int


def _weapon(name: str, range_text, power_text, field_name: str) -> Weapon | None:
    rng = dicelib.parse(range_text, faces=FACES, single_die=True, field=f"{field_name}.range")
    power = dicelib.parse(power_text, faces=FACES, field=f"{field_name}.power")
    if rng is None or power is None:
        return None
    return Weapon(name, rng.faces, rng.modifier, power.count, power.faces, power.modifier)


def _jump(abilities) -> int:
    best = 0
    for a in abilities or []:
        if isinstance(a, str) and a.startswith("jump:") and a[5:].isdigit():
            best = max(best, int(a[5:]))
    return best


def _soldier(p: dict, s: dict, side: int, settings: dict, name: str, worth: float) -> _El:
    speed = s["speed"]
    if settings["jump_packs"]:
        speed = max(speed, _jump(s.get("abilities")))
    return _El(
        SOLDIER,
        side,
        f"{name} #{s['num']}",
        worth=worth,
        armour=s["armour"],
        melee=s["melee"],
        speed=speed,
        rank=s["rank"],
        personal=_weapon(f"{p['name']} #{s['num']}", s.get("range"), s.get("power"), f"{p['slug']}.soldier"),
    )


def _stand_in(side: int, rank: int, machine: _El) -> _El:
    """A duel's stand-in pilot or crew: worth his machine as a target (killing him decides the duel), adds
    nothing to the surviving cost."""
    return _El(
        SOLDIER, side, f"stand-in crew of {machine.name}", rank=rank, stand_in=True, worth=machine.cost, **STAND_IN
    )


class Force:
    """One side compiled from roster entries ({"key","profile","count","options"}; older snapshots hold "loadout"
    and "pilot" instead, read alike)."""

    def __init__(self, entries: list[dict], *, side: int, settings: dict, stand_ins: bool = False):
        self.side = side
        self.units: list[_Unit] = []
        self.guns: list[_El] = []
        self.warnings: list[str] = []
        self.cost = 0.0
        by_ref: dict[tuple, _El] = {}
        vehicles: list[tuple[_El, dict, int]] = []
        soldiers: list[_El] = []
        order = 0
        for entry in entries:
            p = entry["profile"]
            data = p.get("data") or {}
            count = int(entry.get("count", 1) or 0)
            for copy in range(1, count + 1):
                label = p["name"] if count == 1 else f"{p['name']} ({copy})"
                self.cost += p["cost"]
                if p["kind"] == "squad":
                    members = []
                    size = max(1, len(data["soldiers"]))
                    for s in data["soldiers"]:
                        el = _soldier(p, s, side, settings, label, p["cost"] / size)
                        el.order = order = order + 1
                        by_ref[(entry.get("key"), copy, s["num"])] = el
                        members.append(el)
                        soldiers.append(el)
                    self.units.append(_Unit(SOLDIER, side, label, p["cost"], members, order))
                elif p["kind"] == "vehicle":
                    loadout = armylib.entry_loadout(entry)
                    el = self._vehicle(p, data, loadout if isinstance(loadout, dict) else {}, side, label)
                    el.order = order = order + 1
                    vehicles.append((el, entry, copy))
                    self.units.append(_Unit(VEHICLE, side, label, p["cost"], [el], order))
                elif p["kind"] == "gun":
                    weapons = [x for i, w in enumerate(data["weapons"]) if (x := self._ranged(p, w, i))]
                    el = _El(
                        GUN,
                        side,
                        label,
                        cost=p["cost"],
                        rank=data["rank"],
                        strength_max=data["strength_max"],
                        rof=data["rof"],
                        ammo_max=data["ammo_max"],
                        weapons=weapons,
                    )
                    el.order = order = order + 1
                    self.guns.append(el)
        self._assign_pilots(vehicles, by_ref, soldiers, stand_ins)
        self._assign_crews(soldiers, stand_ins)
        self.units.sort(key=lambda u: (-u.cost, u.order))  # activation priority: dearest first

    @staticmethod
    def _ranged(p: dict, w: dict, i: int) -> Weapon | None:
        if w.get("melee") is not None and w.get("range") is None:
            return None
        return _weapon(w.get("name") or w.get("key") or str(i), w.get("range"), w.get("power"), f"{p['slug']}.weapon")

    def _vehicle(self, p: dict, data: dict, loadout: dict, side: int, label: str) -> _El:
        fitted = set(armylib.fitted_weapons(data, loadout))
        ranged, melee = [], 0
        for i, w in enumerate(data.get("arsenal") or []):
            if w.get("key") not in fitted:
                continue
            if w.get("melee") is not None and w.get("range") is None:
                melee += int(w["melee"])
            elif (weapon := self._ranged(p, w, i)) is not None:
                ranged.append(weapon)
        ranged.sort(key=lambda w: -w.strength)  # fires its strongest pools first
        return _El(
            VEHICLE,
            side,
            label,
            cost=p["cost"],
            rank=data["rank"],
            melee=melee,
            strength_max=data["strength_max"],
            sectors=[{"min": s["min"], "max": s["max"], "speed": s["speed"]} for s in data["speed_sectors"]],
            rof=data["rof"],
            ammo_max=data["ammo_max"],
            flyer=data.get("locomotion") == "flying",
            weapons=ranged,
        )

    @staticmethod
    def _cheapest(candidates: list[_El], rank: int) -> _El | None:
        ok = [s for s in candidates if tables.can_pilot(s.rank, rank)]
        if not ok:
            return None
        return min(ok, key=lambda s: (s.rank, s.personal is not None, -s.order))

    def _free(self, soldiers: list[_El]) -> list[_El]:
        return [s for s in soldiers if s.pilot_of is None and s.crew_of is None]

    def _assign_pilots(self, vehicles, by_ref, soldiers, stand_ins) -> None:
        pending = []
        for el, entry, copy in vehicles:
            refs = armylib.pilot_refs(armylib.entry_pilot(entry))
            ref = refs[copy - 1] if copy - 1 < len(refs) and isinstance(refs[copy - 1], dict) else None
            chosen = by_ref.get((ref.get("entry"), ref.get("copy", 1), ref.get("soldier"))) if ref else None
            if chosen is not None and chosen.pilot_of is None and tables.can_pilot(chosen.rank, el.rank):
                el.pilot, chosen.pilot_of = chosen, el
            else:
                pending.append(el)
        for el in sorted(pending, key=lambda v: (-v.rank, v.order)):
            pilot = self._cheapest(self._free(soldiers), el.rank)
            if pilot is None and stand_ins:
                pilot = _stand_in(self.side, el.rank, el)
                self.units.append(_Unit(SOLDIER, self.side, pilot.name, 0.0, [pilot], 10**6 + len(self.units)))
            if pilot is None:
                self.warnings.append(f"{el.name} has no soldier of rank {el.rank}+ to pilot it: it never acts.")
                continue
            el.pilot, pilot.pilot_of = pilot, el

    def _assign_crews(self, soldiers, stand_ins) -> None:
        for gun in sorted(self.guns, key=lambda g: (-g.rank, g.order)):
            crew = self._cheapest(self._free(soldiers), gun.rank)
            if crew is None and stand_ins:
                crew = _stand_in(self.side, gun.rank, gun)
                self.units.append(_Unit(SOLDIER, self.side, crew.name, 0.0, [crew], 10**6 + len(self.units)))
            if crew is None:
                self.warnings.append(f"{gun.name} has no free soldier of rank {gun.rank}+ to fire it: it stays silent.")
                continue
            gun.crew, crew.crew_of = crew, gun

    def elements(self) -> list[_El]:
        els = [m for u in self.units for m in u.members]
        return els + self.guns


def entries_from_profile(profile: dict) -> list[dict]:
    """A one-unit force for duels: the profile with its default options (weapons) and no named pilot."""
    return [{"key": "duel", "profile": profile, "count": 1, "options": armylib.default_loadout(profile)}]


# The compiled battle -------------------------------------------------------------------------------------
class Battle:
    """Two forces, the parameters and the settings, compiled into the static arrays and lookup tables the
    vectorised engine (`run`) and the plain-Python reference (`run_python`) share."""

    def __init__(
        self,
        side_a: list[dict],
        side_b: list[dict],
        params: BattleParams,
        settings: dict | None = None,
        *,
        stand_ins: bool = False,
    ):
        self.params = params.check()
        self.settings = resolve_settings(settings)
        st = self.settings
        self.forces = [
            Force(side_a, side=0, settings=st, stand_ins=stand_ins),
            Force(side_b, side=1, settings=st, stand_ins=stand_ins),
        ]
        self.warnings = [f"Side {'AB'[f.side]}: {w}" for f in self.forces for w in f.warnings]
        self.cost = np.array([self.forces[0].cost, self.forces[1].cost])
        els_a, els_b = self.forces[0].elements(), self.forces[1].elements()
        if not els_a or not els_b:
            raise RuleInputError({"roster_a" if not els_a else "roster_b": "This army has no units."})
        self.els = els_a + els_b
        for i, el in enumerate(self.els):
            el.index = i
        self.nA, self.N = len(els_a), len(self.els)
        self.DUMMY = self.N  # an always-dead column that pads member and link arrays
        self.units = self.forces[0].units + self.forces[1].units
        self.uA = len(self.forces[0].units)
        self._compile_elements()
        self._compile_units()
        self._compile_tables()
        self._compile_flags()

    # -- static element data --
    def _compile_elements(self) -> None:
        st, N1 = self.settings, self.N + 1
        covers = [
            tables.cover_bonus(c, exactly_half_bonus=int(st["cover_exactly_half"]))
            for c in (self.params.cover_a, self.params.cover_b)
        ]
        self.SM1 = max([e.strength_max for e in self.els] + [1]) + 1
        z = np.zeros
        self.e_kind = z(N1, np.int8)
        self.e_side = z(N1, np.int8)
        self.e_worth = z(N1)  # worth as a target (soldiers: squad cost / soldiers; stand-ins: their machine)
        self.e_keep = z(N1)  # share of the surviving cost while alive (stand-ins: 0)
        self.e_gun_cost = z(N1)  # a crew soldier: the cost of his gun (worth more while he mans it)
        self.e_cost = z(N1)
        self.e_armour = z(N1, np.int16)
        self.e_melee = z(N1, np.int16)
        self.e_smax = np.ones(N1, np.int16)
        self.e_rof = z(N1, np.int16)
        self.e_ammo = z(N1, np.int16)
        self.e_flyer = z(N1, bool)
        self.e_cover = z(N1, np.int16)
        self.e_pilot = np.full(N1, self.DUMMY, np.int32)
        self.e_crew = np.full(N1, self.DUMMY, np.int32)
        self.e_pilot_of = np.full(N1, self.DUMMY, np.int32)
        self.e_crew_of = np.full(N1, self.DUMMY, np.int32)
        self.e_soldier_speed = z(N1, np.int16)
        self.e_preach = z(N1, np.int16)  # reach of the personal weapon (faces + modifier), 0 if none
        self.e_reach = z(N1, np.int16)  # best reach of any weapon the element fires
        self.e_speed = z((N1, self.SM1), np.int16)  # speed by current strength (soldiers: every column the same)
        self.e_ppd = z(N1)  # P(pilot killed) in one survival test
        self.e_kind[self.DUMMY] = SOLDIER
        surv = None
        for el in self.els:
            i = el.index
            self.e_kind[i], self.e_side[i] = el.kind, el.side
            self.e_cover[i] = covers[el.side]
            self.e_worth[i], self.e_cost[i] = el.worth, el.cost
            self.e_keep[i] = 0.0 if el.stand_in else el.worth
            if el.crew_of is not None:
                self.e_gun_cost[i] = el.crew_of.cost
            self.e_armour[i], self.e_melee[i] = el.armour, el.melee
            self.e_rof[i], self.e_ammo[i], self.e_flyer[i] = el.rof, el.ammo_max, el.flyer
            if el.kind == SOLDIER:
                self.e_soldier_speed[i] = el.speed
                self.e_speed[i, :] = el.speed
                self.e_preach[i] = el.personal.reach if el.personal else 0
                self.e_reach[i] = self.e_preach[i]
                if el.pilot_of is not None:
                    self.e_pilot_of[i] = el.pilot_of.index
                if el.crew_of is not None:
                    self.e_crew_of[i] = el.crew_of.index
                    self.e_reach[i] = max([self.e_reach[i]] + [w.reach for w in el.crew_of.weapons])
            else:
                self.e_smax[i] = el.strength_max
                self.e_reach[i] = max([w.reach for w in el.weapons] + [0])
                if el.kind == VEHICLE:
                    for s in range(self.SM1):
                        self.e_speed[i, s] = tables.speed_for_strength(el.sectors, s)
                    if el.pilot is not None:
                        self.e_pilot[i] = el.pilot.index
                        surv = tables.survival_probabilities(
                            el.pilot.armour, int(st["survival_die"]), panic_rule=bool(st["panic"])
                        )
                        self.e_ppd[i] = float(surv[tables.KILLED])
                elif el.crew is not None:
                    self.e_crew[i] = el.crew.index
        self.soldier_cols = [
            np.flatnonzero((self.e_kind[: self.N] == SOLDIER) & (self.e_side[: self.N] == s)) for s in (0, 1)
        ]
        self.side_cols = [(0, self.nA), (self.nA, self.N)]

    # -- units and their shot slots --
    def _compile_units(self) -> None:
        U = len(self.units)
        self.U = U
        self.M = max([len(u.members) for u in self.units] + [1])
        self.u_side = np.array([u.side for u in self.units], np.int8)
        self.u_kind = np.array([u.kind for u in self.units], np.int8)
        self.u_members = np.full((U, self.M), self.DUMMY, np.int32)
        for k, u in enumerate(self.units):
            self.u_members[k, : len(u.members)] = [m.index for m in u.members]
        # units of one side tile that side's element columns from its first column (guns come after them), so a
        # unit's members are the columns c0:c1 of its UnitPlan
        self.u_range = [(0, self.uA), (self.uA, U)]
        self.weapons: list[Weapon] = []
        self._weapon_ids: dict[Weapon, int] = {}
        slots = []
        grenades = bool(self.settings["grenades"])
        per_barrel = self.settings["gun_rof_rule"] == "per_barrel"
        for u in self.units:
            row = []
            for m, el in enumerate(u.members):
                if el.kind == VEHICLE:
                    row += [(m, self._wid(w), VEHICLE_GUN) for w in el.weapons]
                    continue
                if el.crew_of is not None and el.crew_of.weapons:
                    gun = el.crew_of
                    shots = gun.weapons if per_barrel else [gun.weapons[k % len(gun.weapons)] for k in range(gun.rof)]
                    row += [(m, self._wid(w), CREWED_GUN) for w in shots[: gun.rof]]
                    if el.personal or grenades:
                        row.append((m, self._wid(el.personal), CREW_FALLBACK))
                elif el.personal or grenades:
                    row.append((m, self._wid(el.personal), PERSONAL))
            slots.append(row)
        self.S = max([len(r) for r in slots] + [1])
        self.slot_member = np.full((U, self.S), -1, np.int32)
        self.slot_weapon = np.zeros((U, self.S), np.int32)
        self.slot_kind = np.zeros((U, self.S), np.int8)
        for k, row in enumerate(slots):
            for s, (m, w, kind) in enumerate(row):
                self.slot_member[k, s], self.slot_weapon[k, s], self.slot_kind[k, s] = m, w, kind

    def _wid(self, w: Weapon | None) -> int:
        """Weapon id; 0 is 'no weapon' (a soldier who may only throw grenades)."""
        if not self.weapons:
            self.weapons.append(Weapon("none", 1, -(10**4), 0, 6, 0))
        if w is None:
            return 0
        if w not in self._weapon_ids:
            self._weapon_ids[w] = len(self.weapons)
            self.weapons.append(w)
        return self._weapon_ids[w]

    # -- lookup tables: hit chances by distance, target values by state, melee odds --
    def _compile_tables(self) -> None:
        st, D, N1, SM1 = self.settings, self.params.distance, self.N + 1, self.SM1
        if not self.weapons:
            self._wid(None)
        W = len(self.weapons)
        self.W, self.T, self.D = W, 2 * SM1, D
        self.w_rfaces = np.array([w.range_faces for w in self.weapons], np.int16)
        self.w_rmod = np.array([w.range_mod for w in self.weapons], np.int16)
        self.w_count = np.array([w.count for w in self.weapons], np.int16)
        self.w_faces = np.array([w.faces for w in self.weapons], np.int16)
        self.w_per_die = np.array([w.per_die for w in self.weapons], np.int16)
        # HIT[aimed * W + w, d]: P(hit) at d steps (column 0 unused: distances start at 1)
        hit = np.zeros((2 * W, D + 1))
        for k, w in enumerate(self.weapons):
            if w.count:
                for d in range(1, D + 1):
                    hit[k, d] = _hit(w.range_faces, w.range_mod, d, False)
                    hit[W + k, d] = _hit(w.range_faces, w.range_mod, d, True)
        self.HIT = hit
        # The same by signed offset x = distance − advance_a − advance_b in [−D, D], stored at column x + D: the
        # distance is |x|, at least 1 (a flyer overhead), so a turn needs no abs() or clip() per target.
        offsets = np.abs(np.arange(-D, D + 1)).clip(1, D)
        self.HITX = hit[:, offsets]
        self.HITX32 = self.HITX.astype(np.float32)
        self.GHITX = np.zeros(0)
        # VAL[w, j, t]: expected cost removed by one hit of weapon w on element j in target state t
        infantry_test = st["virtual_infantry_damage"] == "survival_test"
        sfaces, panic = int(st["survival_die"]), bool(st["panic"])
        val = np.zeros((W + 1, N1, self.T))  # row W: the grenade (1Д20, cover only with blast_cover)
        specs = [(w.count, w.faces, w.per_die, True) for w in self.weapons]
        specs.append((tables.GRENADE_POWER[0], tables.GRENADE_POWER[1], 0, bool(st["blast_cover"])))
        for k, (count, faces, per_die, with_cover) in enumerate(specs):
            if not count:
                continue
            for el in self.els:
                cover = int(self.e_cover[el.index]) if with_cover else 0
                if el.kind == SOLDIER:
                    pk = 1 - _miss_all(count, faces, per_die, el.armour + cover)
                    if infantry_test:
                        pk *= float(tables.survival_probabilities(el.armour, sfaces, panic_rule=panic)[tables.KILLED])
                    val[k, el.index, 1] = pk * el.worth
                    val[k, el.index, 2] = pk * (el.worth + self.e_gun_cost[el.index])  # manning his gun
                    continue
                for s in range(1, el.strength_max + 1):
                    exp_dmg, p_any = _damage_moments(count, faces, per_die, s + cover, s)
                    body = el.cost / el.strength_max * exp_dmg
                    if el.kind == VEHICLE:
                        pilot = p_any * self.e_ppd[el.index] * el.cost * s / el.strength_max
                        val[k, el.index, s] = body + pilot
                        val[k, el.index, SM1 + s] = body
                    else:
                        val[k, el.index, s] = body
        self.VAL = val
        # float32 copies: the engine's target keys and the reference score shots with these values
        self.VAL32 = val.astype(np.float32)
        # Grenade: the burst lands Д6 steps away; within 1 step of a target d steps away when |x - d| <= 1.
        g = np.zeros(D + 1)
        for d in range(1, D + 1):
            g[d] = sum(1 for x in range(1, 7) if abs(x - d) <= tables.GRENADE_BLAST_STEPS) / 6
        self.GHIT = g
        self.GHITX = g[np.abs(np.arange(-D, D + 1)).clip(1, D)]
        self_hit = sum(1 for x in range(1, 7) if x <= tables.GRENADE_BLAST_STEPS) / 6
        self.e_grenade_risk = np.zeros(N1)
        for el in self.els:
            if el.kind == SOLDIER:
                cover = int(self.e_cover[el.index]) if st["blast_cover"] else 0
                self.e_grenade_risk[el.index] = self_hit * (1 - _miss_all(1, 20, 0, el.armour + cover)) * el.worth
        # Melee: P(win) and E[positive margin] by Δ (both roll) or by bonus − flat defence.
        self.MOFF = 64
        deltas = range(-self.MOFF, self.MOFF + 1)
        self.MWIN = np.array([float(tables.melee_win_probability(d)) for d in deltas])
        self.MFLAT = np.array([float(tables.melee_win_probability_flat(d, 0)) for d in deltas])
        attack = tables.melee_attack_die_distribution(surprise=False)
        self.MEXP = np.array(
            [sum(float(pa) / 6 * max(0, a + d - x) for a, pa in attack.items() for x in range(1, 7)) for d in deltas]
        )
        self.MEXPF = np.array([sum(float(pa) * max(0, a + d) for a, pa in attack.items()) for d in deltas])

    def _compile_flags(self) -> None:
        st = self.settings
        self.panic = bool(st["panic"])
        self.panic_ends = bool(st["panic_ends_actions"])
        self.panic_lands = bool(st["panic_flyer_lands_safely"])
        self.captured_next = bool(st["captured_acts_next_round"])
        self.sfaces = int(st["survival_die"])
        self.infantry_test = st["virtual_infantry_damage"] == "survival_test"
        self.flyer_moves = 2 if st["flyer_full_speed_each_move"] else 1
        self.ammo_limited = bool(st["ammo_limited"])
        self.strict_ammo = st["ammo_short_shot"] == "strict"
        self.grenades = bool(st["grenades"])
        self.blast_cover = bool(st["blast_cover"])
        self.aimed_on = bool(st["aimed_fire"])
        self.hold = self.params.approach == "hold"
        self.has_slots = bool((self.slot_member >= 0).any())
        # "can already reach the nearest enemy": the best weapon's top result (aimed: the personal one doubled)
        self.e_hold_reach = np.maximum(self.e_reach, 2 * self.e_preach if self.aimed_on else 0)
        self.pilot_cols = np.flatnonzero(self.e_pilot_of[: self.N] != self.DUMMY)
        # a soldier who is neither a pilot nor a crew: killing him changes nothing but his own state
        self.e_plain = (self.e_kind == SOLDIER) & (self.e_pilot_of == self.DUMMY) & (self.e_crew_of == self.DUMMY)
        self.machine_cols = [np.flatnonzero(self.e_kind[c0:c1] != SOLDIER) for c0, c1 in self.side_cols]
        # Target keys: low bits that hold an enemy's rank within his side (see score_keys)
        most = max(c1 - c0 for c0, c1 in self.side_cols)
        self.key_mask = (1 << max(1, (most - 1).bit_length())) - 1
        self._keys: dict[tuple, np.ndarray] = {}
        self.melee_bonus_min = int(self.e_melee.min())  # Д6 + ББ, a vehicle Д6 + Броня + ББ
        self.melee_bonus_max = int(self.SM1 - 1 + self.e_melee.max())
        # Key tables are [enemy j, target state t, key_stride] (shots: the signed-offset column; melee: the attack
        # bonus), so the engine keeps e_keyrow[j] + t x key_stride per element and adds the shooter's column.
        self.key_stride = max(2 * self.D + 1, self.melee_bonus_max - self.melee_bonus_min + 1)
        self.e_keyrow = np.zeros(self.N + 1, np.intp)
        for c0, c1 in self.side_cols:
            self.e_keyrow[c0:c1] = np.arange(c1 - c0) * self.T * self.key_stride
        self.side_flyers = [bool(self.e_flyer[c0:c1].any()) for c0, c1 in self.side_cols]
        self.plans = [UnitPlan(self, k) for k in range(self.U)]

    def _keys_of(self, score: np.ndarray) -> np.ndarray:
        """Scores [enemy j, target state t, column] (non-negative float64) as int64 keys: the float's bits, which
        order like the scores, with the lowest bits replaced by key_mask − j; columns padded to key_stride."""
        padded = np.zeros(score.shape[:2] + (self.key_stride,))
        padded[:, :, : score.shape[2]] = score
        keys = padded.view(np.int64) & ~np.int64(self.key_mask)
        keys |= (self.key_mask - np.arange(score.shape[0], dtype=np.int64))[:, None, None]
        return keys.ravel()

    def melee_keys(self, enemy_side: int) -> np.ndarray:
        """The engine's melee target-choice table against `enemy_side`, flattened from [enemy j, target state t,
        attack bonus − melee_bonus_min]: P(win) x expected cost removed, as the reference scores it (a soldier:
        P(win) x his worth, with his gun while he mans it; a vehicle or gun: cost per point x E[margin], plus
        P(win) x P(pilot killed) x its remaining worth while piloted), as keys like score_keys."""
        cache_key = ("melee", enemy_side)
        if cache_key not in self._keys:
            e0, e1 = self.side_cols[enemy_side]
            bonus = np.arange(self.melee_bonus_min, self.melee_bonus_max + 1)
            score = np.zeros((e1 - e0, self.T, bonus.size))
            for r, j in enumerate(range(e0, e1)):
                if self.e_kind[j] == SOLDIER:
                    p_win = self.MWIN[np.clip(bonus - self.e_armour[j] + self.MOFF, 0, 2 * self.MOFF)]
                    score[r, 1] = p_win * self.e_worth[j]
                    score[r, 2] = p_win * (self.e_worth[j] + self.e_gun_cost[j])
                    continue
                per_point = self.e_cost[j] / self.e_smax[j]
                for s in range(1, int(self.e_smax[j]) + 1):
                    # state s: aboard (a vehicle piloted, a gun crewed, both defend with Броня); SM1 + s: dismounted
                    for t, piloted in ((s, self.e_kind[j] == VEHICLE), (self.SM1 + s, False)):
                        fixed = s + int(self.e_melee[j]) if piloted else s
                        delta = np.clip(bonus - fixed + self.MOFF, 0, 2 * self.MOFF)
                        if piloted:
                            pilot = self.MWIN[delta] * self.e_ppd[j] * per_point * s
                            score[r, t] = per_point * self.MEXP[delta] + pilot
                        else:
                            score[r, t] = per_point * self.MEXPF[delta]
            self._keys[cache_key] = self._keys_of(score)
        return self._keys[cache_key]

    def score_keys(self, enemy_side: int, w: int, aimed: bool = False) -> np.ndarray:
        """The engine's target-choice table for weapon `w` (row W: the grenade) against `enemy_side`, flattened
        from [enemy j, target state t, signed offset column x]: the score P(hit) x value, computed as the engine
        always has (a weapon: float32 tables multiplied in float32; the grenade in float64), kept as the bits of
        that non-negative float64 with its lowest bits replaced by key_mask − j (a float32 score widened to float64
        has 29 zero bits there, so it stays exact). Keys then order like scores and a tie goes to the first enemy,
        so one max() over the enemies gives both the best score and its holder (the reference's strict `>`)."""
        cache_key = (enemy_side, w, aimed)
        if cache_key not in self._keys:
            e0, e1 = self.side_cols[enemy_side]
            if w == self.W:
                score = self.VAL[w, e0:e1][:, :, None] * self.GHITX[None, None, :]
            else:
                hit = self.HITX32[w + (self.W if aimed else 0)]
                score = (self.VAL32[w, e0:e1][:, :, None] * hit[None, None, :]).astype(np.float64)
            self._keys[cache_key] = self._keys_of(score)
        return self._keys[cache_key]

    # -- public API --
    # The two ways of running the model live in engine.py (numpy) and reference.py (plain Python); each module
    # installs itself here when imported (the package's __init__ imports both), so the model imports neither.
    vectorised_runner = None
    reference_runner = None

    def run(self, n: int, rng: np.random.Generator, *, batch: int = 32768) -> dict:
        """Simulates `n` battles with numpy; returns per-battle arrays (outcome, rounds, surviving cost)."""
        return type(self).vectorised_runner(self, n, rng, batch=batch)

    def run_python(self, n: int, seed: int) -> dict:
        """The same model with plain Python loops, one battle at a time (reference and benchmark baseline)."""
        return type(self).reference_runner(self, n, seed)

    def describe(self) -> dict:
        return {
            "sides": [
                {
                    "cost": f.cost,
                    "units": [{"name": u.name, "cost": u.cost, "members": len(u.members)} for u in f.units],
                    "guns": [g.name for g in f.guns],
                    "pilots": [
                        {"vehicle": m.name, "pilot": m.pilot.name if m.pilot else None}
                        for u in f.units
                        for m in u.members
                        if m.kind == VEHICLE
                    ],
                }
                for f in self.forces
            ],
            "warnings": self.warnings,
        }


class UnitPlan:
    """What never changes about one unit's activation: its element columns, speeds, reaches and shot slots
    (each with its weapon's target keys, Battle.score_keys), so a turn works on slices and scalars."""

    def __init__(self, bt: Battle, k: int):
        u = bt.units[k]
        self.index = k
        self.side = u.side
        self.c0 = u.members[0].index
        self.c1 = u.members[-1].index + 1
        cols = np.arange(self.c0, self.c1)
        self.vehicle = u.kind == VEHICLE
        self.flyer = bool(bt.e_flyer[cols].any())
        self.speed = bt.e_speed[cols, 0].astype(np.int32)  # soldiers; a vehicle reads its sector table
        self.gun_of = bt.e_crew_of[cols]
        self.has_crew = bool((self.gun_of != bt.DUMMY).any())
        self.has_pilots = bool((bt.e_pilot_of[cols] != bt.DUMMY).any())
        self.preach = bt.e_preach[cols].astype(np.int32)
        self.hold_reach = bt.e_hold_reach[cols].astype(np.int32)
        self.melee = bt.e_melee[cols].astype(np.int32)
        self.slots = []
        for s in range(bt.S):
            m = int(bt.slot_member[k, s])
            if m < 0:
                break
            w, kind = int(bt.slot_weapon[k, s]), int(bt.slot_kind[k, s])
            el = self.c0 + m
            plat = int(bt.e_crew_of[el]) if kind == CREWED_GUN else el
            self.slots.append(
                {
                    "m": m,
                    "el": el,
                    "w": w,
                    "kind": kind,
                    "plat": plat,
                    "gun": int(bt.e_crew_of[el]),
                    "personal": kind in (PERSONAL, CREW_FALLBACK),
                    "cost": int(bt.w_count[w]),
                    "rof": int(bt.e_rof[plat]),
                    "ammo_max": int(bt.e_ammo[plat]),
                    "keys": bt.score_keys(1 - self.side, w),
                    "keys_aimed": bt.score_keys(1 - self.side, w, True) if bt.aimed_on else None,
                    "grenade_keys": bt.score_keys(1 - self.side, bt.W) if bt.grenades else None,
                    "rfaces": int(bt.w_rfaces[w]),
                    "rmod": int(bt.w_rmod[w]),
                    "count": int(bt.w_count[w]),
                    "faces": int(bt.w_faces[w]),
                    "per_die": int(bt.w_per_die[w]),
                }
            )


@lru_cache(maxsize=4096)
def _hit(faces: int, mod: int, steps: int, aimed: bool) -> float:
    return float(tables.hit_probability(faces, mod, steps, aimed=aimed))


@lru_cache(maxsize=4096)
def _pen(faces: int, per_die: int, armour: int) -> float:
    return float(tables.penetration_probability(faces, armour, per_die_modifier=per_die))


@lru_cache(maxsize=8192)
def _miss_all(count: int, faces: int, per_die: int, armour: int) -> float:
    return (1 - _pen(faces, per_die, armour)) ** count


@lru_cache(maxsize=65536)
def _damage_moments(count: int, faces: int, per_die: int, armour: int, cap: int) -> tuple[float, float]:
    """E[min(damage, cap)] and P(damage >= 1) for `count` dice against `armour`."""
    p = _pen(faces, per_die, armour)
    exp = sum(min(k, cap) * math.comb(count, k) * p**k * (1 - p) ** (count - k) for k in range(count + 1))
    return exp, 1 - (1 - p) ** count


# Results ----------------------------------------------------------------------------------------------------
def summarise(result: dict, *, rounds: int, cost: np.ndarray, bins: int = 10) -> dict:
    """Counts and sums that add up across chunks: outcomes, rounds histogram, surviving cost sums and histograms
    (share of the army's cost in `bins` bins)."""
    outcome, played = result["outcome"], result["rounds"]
    out = {
        "battles": int(outcome.size),
        "wins_a": int((outcome == OUTCOME_A).sum()),
        "wins_b": int((outcome == OUTCOME_B).sum()),
        "draws": int((outcome == OUTCOME_DRAW).sum()),
        "rounds_hist": np.bincount(played, minlength=rounds + 1)[1:].tolist(),
    }
    for k, key in enumerate(("a", "b")):
        surv = result[f"surviving_{key}"]
        out[f"surviving_{key}_sum"] = float(surv.sum())
        out[f"surviving_{key}_sumsq"] = float((surv**2).sum())
        share = surv / cost[k] if cost[k] else np.zeros_like(surv)
        out[f"surviving_{key}_hist"] = np.bincount(
            np.minimum((share * bins).astype(int), bins - 1), minlength=bins
        ).tolist()
    return out


def simulate(
    side_a: list[dict],
    side_b: list[dict],
    params: BattleParams,
    settings: dict | None,
    *,
    n: int,
    seed,
    batch: int = 32768,
    stand_ins: bool = False,
) -> dict:
    """Compiles the battle and simulates `n` battles from `seed` (an int or a numpy SeedSequence); summarised."""
    battle = Battle(side_a, side_b, params, settings, stand_ins=stand_ins)
    rng = np.random.default_rng(seed)
    return summarise(battle.run(n, rng, batch=batch), rounds=params.rounds, cost=battle.cost)


def python_rng(seed: int) -> random.Random:
    return random.Random(seed)
