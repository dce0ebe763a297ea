"""What the builder's pages share: the army factions of packs, form errors from a service, and the packs a new
roster or pack may use (every registered system with an army builder)."""

from __future__ import annotations

from armies import selectors, services, systems
from armies.models import Faction


def pack_factions(packs) -> list[tuple[str, str, list[int]]]:
    """(slug, name, pack ids) of the factions an army of each pack may be: its own sides (not the shared green one),
    or, in a pack with no sides («Энфорсеры», «Отряды»), the one faction that every army joins. In pack order."""
    found: dict[str, tuple[str, list[int]]] = {}
    by_pack: dict[int, list[Faction]] = {}
    for f in Faction.objects.filter(pack__in=packs).order_by("pack_id", "id"):
        by_pack.setdefault(f.pack_id, []).append(f)
    for pack in packs:
        factions = by_pack.get(pack.pk, [])
        sides = [f for f in factions if not f.joins_any] or factions
        for f in sides:
            found.setdefault(f.slug, (f.name, []))[1].append(pack.pk)
    return [(slug, name, ids) for slug, (name, ids) in found.items()]


def side_factions(packs) -> list[tuple[str, str]]:
    """(slug, name) of the factions an army of these packs may be (see pack_factions)."""
    return [(slug, name) for slug, name, _ids in pack_factions(packs)]


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
