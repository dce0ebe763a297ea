"""Entry options of «Бронепехота» rosters: the factions, how an entry's fit and pilots are stored and read
(both the `options` shape and older snapshots' `loadout` / `pilot` columns), and which weapons a vehicle carries."""

from __future__ import annotations

from collections.abc import Iterable

from rules.contract import Issue
from rules.i18n import N_

SIDES = ("protectorate", "polaris")  # blue and red never share an army; green joins either (p.3)
SHARED = "green"
# p.5 «по шесть воинов в каждом»; yet the squad's Armlist lists "each infantryman of the squad" (p.6), and two
# printed Armlists have four: «Тяжёлая штурмовая пехота Велиана» and «Спецназ планеты Шиду» (four rows, miniatures
# 1–4, in /work/shared/reference/bronepekhota-tehnolog). The card wins: a squad of 1 to 6 is accepted as printed.
SQUAD_SIZE = 6

FACTION_NAMES = {
    "protectorate": N_("Protectorate (blue)"),
    "polaris": N_("Polaris (red)"),
    "green": N_("green (shared)"),
}


def _issue(issues: list, severity: str, code: str, message: str, entry: str | None = None) -> None:
    issues.append(Issue(severity=severity, code=code, message=message, entry=entry))


def entry_loadout(entry: dict) -> dict:
    """An entry's vehicle fit ({"variant"?, "weapons"?}): from `options`, or from an older snapshot's `loadout`."""
    options = entry.get("options")
    if isinstance(options, dict):
        return {k: v for k, v in options.items() if k != "pilot"}
    if options is not None:
        return options  # unreadable: reported by cost_roster as bad_loadout
    return entry.get("loadout") or {}


def entry_pilot(entry: dict):
    """An entry's pilot references as stored: from `options`, or from an older snapshot's `pilot`."""
    options = entry.get("options")
    if isinstance(options, dict):
        return options.get("pilot")
    return entry.get("pilot")


def options_from_columns(loadout, pilot) -> dict:
    """The options of an entry stored (or exported) before options existed: the loadout, plus the pilot if any."""
    options = dict(loadout) if isinstance(loadout, dict) else {}
    refs = pilot_refs(pilot)
    if refs:
        options["pilot"] = refs
    return options


def pilot_refs(pilot) -> list:
    """The stored pilot value as a list of soldier references (None and {} are no pilot; a dict is one)."""
    if not pilot:
        return []
    if isinstance(pilot, dict):
        return [pilot]
    if isinstance(pilot, list):
        return pilot
    return [pilot]


def vehicle_variant(data: dict, loadout: dict) -> dict | None:
    variants = data.get("variants") or []
    if not variants:
        return None
    wanted = loadout.get("variant")
    if wanted is None:
        return variants[0]
    return next((v for v in variants if v.get("key") == wanted), None)


def allowed_weapons(data: dict, variant: dict | None) -> list[str]:
    arsenal = [w["key"] for w in data.get("arsenal") or []]
    if variant is not None and "weapons" in variant:
        return [k for k in arsenal if k in set(variant["weapons"])]
    return arsenal


def fitted_weapons(data: dict, loadout: dict) -> list[str]:
    """The weapon keys a vehicle fights with: the chosen ones, or everything its variant allows (up to mounts)."""
    loadout = loadout if isinstance(loadout, dict) else {}
    if isinstance(loadout.get("weapons"), list):
        return list(loadout["weapons"])
    allowed = allowed_weapons(data, vehicle_variant(data, loadout))
    mounts = data.get("mounts")
    return allowed[:mounts] if mounts else allowed


def default_loadout(profile: dict) -> dict:
    """A new entry's loadout: the first variant (if any) and every weapon it allows, up to the mount limit."""
    if profile.get("kind") != "vehicle":
        return {}
    data = profile.get("data") or {}
    loadout: dict = {}
    variant = vehicle_variant(data, {})
    if variant is not None:
        loadout["variant"] = variant["key"]
    loadout["weapons"] = fitted_weapons(data, loadout)
    return loadout


def soldier_pool(entries: Iterable[dict]) -> dict[tuple[str, int, int], int]:
    """Every soldier of every squad copy: (entry key, copy, soldier num) -> rank."""
    pool = {}
    for e in entries:
        if e["profile"].get("kind") != "squad":
            continue
        soldiers = (e["profile"].get("data") or {}).get("soldiers") or []
        for copy in range(1, _count(e) + 1):
            for s in soldiers:
                pool[(e["key"], copy, s["num"])] = s["rank"]
    return pool


def _count(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0


def _without_pilots_from(options: dict, removed: set[str]) -> dict:
    kept = [p for p in pilot_refs(options.get("pilot")) if not (isinstance(p, dict) and p.get("entry") in removed)]
    return {**{k: v for k, v in options.items() if k != "pilot"}, **({"pilot": kept} if kept else {})}
