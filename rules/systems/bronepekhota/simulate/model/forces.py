"""Forces: roster entries become elements (soldiers, vehicles, guns), units and pilots."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import dice as dicelib
from rules.i18n import _
from rules.systems.bronepekhota import army as armylib
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.simulate.model.params import FACES, GUN, SOLDIER, STAND_IN, VEHICLE


# Forces: roster entries -> elements ------------------------------------------------------------------------
@dataclass(frozen=True)
class Weapon:
    name: str
    range_faces: int
    range_mod: int
    count: int
    faces: int
    per_die: int
    # §7.4 IV (special_properties on): on a hit, every other element within blast_steps of the target is
    # attacked with the blast pool (the heavy rocket: 2 steps, 1Д20, p.33–34); 0: no blast
    blast_steps: int = 0
    blast_count: int = 0
    blast_faces: int = 0
    blast_per_die: int = 0

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
    repairs: bool = False  # a soldier with «Рм» (p.43)
    platform: bool = False  # a vehicle with the repair-transport platform (HELIX, p.48)
    twin: _El | None = None  # a vehicle: its copy on the other side, which it becomes when captured (capture.py)
    dormant: bool = False  # a twin: off the field until its vehicle is captured
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
    captured: bool = False  # a twin's unit (capture.py): not part of the roster


def _weapon(name: str, range_text, power_text, field_name: str, special: dict | None = None) -> Weapon | None:
    """`special`: the weapon's special property (its blast), read only when special_properties is on."""
    rng = dicelib.parse(range_text, faces=FACES, single_die=True, field=f"{field_name}.range")
    power = dicelib.parse(power_text, faces=FACES, field=f"{field_name}.power")
    if rng is None or power is None:
        return None
    blast = {}
    if special and special.get("blast_steps"):
        # the resolver's reading: a blast without its own pool is 1Д20 (p.34, actions/virtual_shot.py)
        pool = dicelib.parse(special.get("blast_power") or "1Д20", faces=FACES, field=f"{field_name}.blast_power")
        blast = {
            "blast_steps": int(special["blast_steps"]),
            "blast_count": pool.count,
            "blast_faces": pool.faces,
            "blast_per_die": pool.modifier,
        }
    return Weapon(name, rng.faces, rng.modifier, power.count, power.faces, power.modifier, **blast)


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
        repairs="repair" in (s.get("abilities") or []),
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
        self.specials = bool(settings["special_properties"])  # §7.4 IV, an optional rule
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

    def _ranged(self, p: dict, w: dict, i: int) -> Weapon | None:
        if w.get("melee") is not None and w.get("range") is None:
            return None
        name, special = w.get("name") or w.get("key") or str(i), w.get("special") if self.specials else None
        return _weapon(name, w.get("range"), w.get("power"), f"{p['slug']}.weapon", special)

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
            platform=bool((armylib.vehicle_variant(data, loadout) or {}).get("repair_platform")),
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
                self.warnings.append(
                    _("{vehicle} has no soldier of rank {rank}+ to pilot it: it never acts.").format(
                        vehicle=el.name, rank=el.rank
                    )
                )
                continue
            el.pilot, pilot.pilot_of = pilot, el

    def _assign_crews(self, soldiers, stand_ins) -> None:
        for gun in sorted(self.guns, key=lambda g: (-g.rank, g.order)):
            crew = self._cheapest(self._free(soldiers), gun.rank)
            if crew is None and stand_ins:
                crew = _stand_in(self.side, gun.rank, gun)
                self.units.append(_Unit(SOLDIER, self.side, crew.name, 0.0, [crew], 10**6 + len(self.units)))
            if crew is None:
                self.warnings.append(
                    _("{gun} has no free soldier of rank {rank}+ to fire it: it stays silent.").format(
                        gun=gun.name, rank=gun.rank
                    )
                )
                continue
            gun.crew, crew.crew_of = crew, gun

    def elements(self) -> list[_El]:
        """The side's columns: its roster's units (in activation order), its guns, then the twins of capture last,
        so the engine can leave them out of a turn's gathers while none is on the field (engine/state.py)."""
        els = [m for u in self.units if not u.captured for m in u.members]
        return els + self.guns + [m for u in self.units if u.captured for m in u.members]


def entries_from_profile(profile: dict) -> list[dict]:
    """A one-unit force for duels: the profile with its default options (weapons) and no named pilot."""
    return [{"key": "duel", "profile": profile, "count": 1, "options": armylib.default_loadout(profile)}]
