"""Where balance jobs get their rosters and packs: a small protocol, so `rules` never imports the app that keeps
them (`armies`). Settings name the implementation: BALANCE_SOURCE = "armies.jobs_source.SOURCE" (a dotted path to
an object that follows `RosterSource`), loaded with django's import_string.

Every read is for one user: what the user may not read raises django.http.Http404 (nothing is revealed).
Snapshots are plain data as a system's army part reads them (rules/contract/army.py):
- a roster: {"system", "faction", "points_limit", "entries": [{"key", "profile", "count", "options"}, ...]};
- a profile: {"slug", "name", "faction", "kind", "cost", "data"}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class RosterChoice:
    """A roster the user may read, as a job form offers it."""

    id: int
    name: str
    system: str
    label: str  # e.g. "Blue (alice)"


@dataclass(frozen=True)
class PackChoice:
    """A data pack the user may read."""

    id: int
    name: str
    version: int
    system: str
    label: str  # e.g. "Official v3"


@runtime_checkable
class RosterSource(Protocol):
    def roster_for_user(self, user, roster_id) -> tuple[str, str, dict]:
        """(name, system slug, snapshot) of a roster the user may read; Http404 otherwise."""

    def rosters_for_user(self, user, system: str | None = None) -> list[RosterChoice]:
        """The rosters the user may read (of one system when given), most recently changed first."""

    def roster_for_link(self, user, link: str) -> tuple[int, str, str, dict]:
        """(id, name, system slug, snapshot) of the roster behind a live share link (as a player pastes it: the
        address or the token); Http404 for an unknown, revoked or unshared link."""

    def pack_for_user(self, user, pack_id) -> PackChoice:
        """A data pack the user may read; Http404 otherwise."""

    def packs_for_user(self, user, system: str) -> list[PackChoice]:
        """The published packs of a system the user may read."""

    def pack_profiles(self, user, pack_id) -> list[dict]:
        """The pack's unit profiles as snapshots, in the pack's order; Http404 for a pack the user may not read."""


def source() -> RosterSource:
    """The configured roster source (settings.BALANCE_SOURCE)."""
    path = getattr(settings, "BALANCE_SOURCE", "")
    if not path:
        raise ImproperlyConfigured("Set BALANCE_SOURCE to the dotted path of the balance jobs' roster source.")
    found = import_string(path)
    if not isinstance(found, RosterSource):
        raise ImproperlyConfigured(f"BALANCE_SOURCE {path!r} does not follow rules.jobs.sources.RosterSource.")
    return found
