"""What the builder's pages share: the army factions of packs, form errors from a service, and the packs a new
roster or pack may use (every registered system with an army builder)."""

from __future__ import annotations

from armies import selectors, services, systems
from armies.models import Faction


def side_factions(packs) -> list[tuple[str, str]]:
    """(slug, name) of the army factions (not the shared green one) of the given packs, in pack order."""
    seen, result = set(), []
    for f in Faction.objects.filter(pack__in=packs, joins_any=False).order_by("pack_id", "id"):
        if f.slug not in seen:
            seen.add(f.slug)
            result.append((f.slug, f.name))
    return result


def form_errors(form, exc: services.ServiceError) -> None:
    for field, message in exc.errors.items():
        form.add_error(field if field in form.fields else None, f"{message}")
    if not exc.errors:
        form.add_error(None, exc.message)


def army_packs(user) -> list:
    """The newest published version of every pack the user may build rosters with, system by system."""
    packs = []
    for slug, _name in systems.army_systems():
        packs += selectors.latest_versions(selectors.packs_for_system(user, slug))
    return packs
