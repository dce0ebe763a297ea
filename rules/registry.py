"""The registry of game systems: one entry per package under rules/systems/."""

from __future__ import annotations

from rules.systems.base import GameSystem, RuleInputError

_SYSTEMS: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    _SYSTEMS[system.slug] = system
    return system


def _load() -> None:
    if not _SYSTEMS:
        # Importing a system package registers it.
        from rules.systems import bronepekhota  # noqa: F401


def all_systems() -> list[GameSystem]:
    _load()
    return list(_SYSTEMS.values())


def get_system(slug: str) -> GameSystem:
    _load()
    try:
        return _SYSTEMS[slug]
    except KeyError:
        raise RuleInputError({"system": f"unknown game system {slug!r}"}) from None
