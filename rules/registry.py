"""The registry of game systems. The systems are listed in settings (`RULES_SYSTEMS`, dotted paths to each
system's instance); rules.apps configures the registry from there at start-up. A slug may be any string.

Pure Python: tests or scripts outside Django call `configure([...])` themselves.
"""

from __future__ import annotations

import importlib
import threading

from rules.contract.system import GameSystem
from rules.errors import RuleInputError
from rules.i18n import _

_PATHS: list[str] = []
_SYSTEMS: dict[str, GameSystem] = {}
_LOCK = threading.Lock()  # the first requests of a threaded server may all load at once


def _import(path: str) -> GameSystem:
    module, _, attr = path.rpartition(".")
    system = getattr(importlib.import_module(module), attr)
    if not isinstance(system, GameSystem):
        raise TypeError(f"{path} is not a GameSystem instance")
    return system


def configure(paths: list[str]) -> None:
    """Sets the dotted paths of the systems; they are imported on first use."""
    _PATHS[:] = list(paths)
    _SYSTEMS.clear()


def register(system: GameSystem) -> GameSystem:
    """Adds a system at run time (tests register their test-only system this way); returns it."""
    _load()
    _SYSTEMS[system.slug] = system
    return system


def unregister(slug: str) -> None:
    _SYSTEMS.pop(slug, None)


def _load() -> None:
    if _SYSTEMS:
        return
    with _LOCK:
        if _SYSTEMS:
            return
        loaded: dict[str, GameSystem] = {}
        for path in _PATHS:
            system = _import(path)
            if system.slug in loaded:
                raise ValueError(f"two systems share the slug {system.slug!r}")
            loaded[system.slug] = system
        _SYSTEMS.update(loaded)


def all_systems() -> list[GameSystem]:
    _load()
    return list(_SYSTEMS.values())


def get_system(slug: str) -> GameSystem:
    _load()
    try:
        return _SYSTEMS[slug]
    except (KeyError, TypeError):
        raise RuleInputError({"system": _("unknown game system {slug!r}").format(slug=slug)}) from None


def known(slug: str) -> bool:
    _load()
    return slug in _SYSTEMS
