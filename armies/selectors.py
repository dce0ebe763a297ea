"""Reads of armies data, always filtered by who asks. Other apps (battles, balance jobs) read rosters here.

Access rules (one place, used by every page and API):
- a roster is readable by its owner; by members of its club when its visibility is "club" or "link"; and by
  anyone holding an active share link when its visibility is "link";
- a roster draws on its main pack and its extra packs (roster_packs), each pinned to one version;
- a roster is writable by its owner, and by the club's owners and editors when it is visible to the club;
- an official published pack is readable by everyone; a custom pack by its owner or its club's members, and
  writable by its owner or its club's owners and editors.
Outsiders get Http404 (nothing is revealed), read-only viewers get PermissionDenied on writes.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from armies import systems
from armies.models import Club, ClubInvite, DataPack, Faction, Membership, Roster, RosterEntry, ShareLink, UnitProfile

CLUB_VISIBLE = (Roster.Visibility.CLUB, Roster.Visibility.LINK)


# Clubs -------------------------------------------------------------------------------------------------------
def clubs_of(user) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).annotate(member_count=Count("memberships", distinct=True))


def club_role(user, club: Club) -> str | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def club_get_for_user(user, club_id, *, write: bool = False, owner_only: bool = False) -> tuple[Club, str]:
    """The club and the user's role. Non-members get 404; members without the right role get 403."""
    club = Club.objects.filter(pk=club_id).first() if str(club_id).isdigit() else None
    role = club_role(user, club) if club else None
    if club is None or role is None:
        raise Http404("No such club.")
    if owner_only and role != Membership.Role.OWNER:
        raise PermissionDenied("Only the club's owner may do this.")
    if write and role not in Membership.WRITE_ROLES:
        raise PermissionDenied("Only the club's owner and editors may change it.")
    return club, role


def club_members(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("role", "user__username")


def club_invites(club: Club) -> QuerySet[ClubInvite]:
    """The club's invitation links, newest first (callers check that the user owns the club)."""
    return ClubInvite.objects.filter(club=club).select_related("created_by").order_by("-created_at", "-id")


def invite_for_token(token: str) -> ClubInvite:
    """The invitation behind a link, live or not (the page says which); Http404 for a token that never existed."""
    invite = ClubInvite.objects.select_related("club").filter(token=token).first() if token else None
    if invite is None:
        raise Http404("This invitation link does not exist.")
    return invite


def writable_club_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=user, role__in=Membership.WRITE_ROLES).values_list("club_id", flat=True))


# Packs -------------------------------------------------------------------------------------------------------
def pack_visible_to(user) -> QuerySet[DataPack]:
    official = Q(owner__isnull=True, club__isnull=True, published=True)
    if not user.is_authenticated:
        return DataPack.objects.filter(official)
    return DataPack.objects.filter(official | Q(owner=user) | Q(club__memberships__user=user)).distinct()


def pack_can_write(user, pack: DataPack) -> bool:
    if not user.is_authenticated or pack.is_official:
        return False
    if pack.owner_id == user.id:
        return True
    return pack.club_id is not None and pack.club_id in writable_club_ids(user)


def pack_get_for_user(user, pack_id, *, write: bool = False) -> DataPack:
    pack = pack_visible_to(user).filter(pk=pack_id).first() if str(pack_id).isdigit() else None
    if pack is None:
        raise Http404("No such data pack.")
    if write and not pack_can_write(user, pack):
        raise PermissionDenied("You may read this pack but not change it.")
    return pack


def packs_for_system(user, system: str, *, published_only: bool = True) -> QuerySet[DataPack]:
    qs = pack_visible_to(user).filter(system=system)
    if published_only:
        qs = qs.filter(published=True)
    return qs.order_by("slug", "-version")


def latest_versions(packs) -> list[DataPack]:
    """Only the newest version of each (system, slug, owner/club) among `packs`."""
    seen, result = set(), []
    for pack in sorted(packs, key=lambda p: (p.system, p.slug, -p.version)):
        if (pack.system, pack.slug) not in seen:
            seen.add((pack.system, pack.slug))
            result.append(pack)
    return result


def pack_newer_version(pack: DataPack) -> DataPack | None:
    """The newest published version of the same pack, if it is newer than `pack`."""
    return (
        DataPack.objects.filter(
            system=pack.system,
            slug=pack.slug,
            published=True,
            version__gt=pack.version,
            owner=pack.owner,
            club=pack.club,
        )
        .order_by("-version")
        .first()
    )


def roster_packs(roster: Roster, *, fresh: bool = False) -> list[DataPack]:
    """The packs a roster draws on: its main pack first, then its extra custom packs by name (each one version).
    Read once per roster object, as a page asks several times; writers pass fresh=True."""
    cached = getattr(roster, "_roster_packs", None)
    if not fresh and cached is not None and cached[0].pk == roster.pack_id:
        return list(cached)
    extras = roster.extra_packs.select_related("owner", "club").order_by("name", "slug", "id") if roster.pk else []
    roster._roster_packs = [roster.pack, *extras]
    return list(roster._roster_packs)


def extra_pack_choices(user, roster: Roster) -> list[DataPack]:
    """Packs the roster may draw on besides its main one: those it already pins (at their pinned version), then the
    newest published version of every other custom pack of its system that `user` may read."""
    pinned = roster_packs(roster)[1:]
    taken = {roster.pack.slug, *(p.slug for p in pinned)}
    others = [
        p
        for p in latest_versions(
            packs_for_system(user, roster.system)
            .exclude(owner__isnull=True, club__isnull=True)
            .select_related("owner", "club")
        )
        if p.slug not in taken
    ]
    return pinned + sorted(others, key=lambda p: (p.name, p.slug))


def pack_profiles(pack: DataPack) -> QuerySet[UnitProfile]:
    return UnitProfile.objects.filter(pack=pack).select_related("faction").order_by("position", "id")


def pack_factions(pack: DataPack) -> QuerySet[Faction]:
    return Faction.objects.filter(pack=pack).order_by("id")


# Rosters -----------------------------------------------------------------------------------------------------
def roster_visible_to(user) -> QuerySet[Roster]:
    """Rosters the user may read by owning them or through a club (share links are separate: roster_for_token)."""
    if not user.is_authenticated:
        return Roster.objects.none()
    member_of = Membership.objects.filter(user=user).values("club_id")
    return Roster.objects.filter(Q(owner=user) | Q(club_id__in=member_of, visibility__in=CLUB_VISIBLE))


def roster_can_write(user, roster: Roster) -> bool:
    if not user.is_authenticated:
        return False
    if roster.owner_id == user.id:
        return True
    return (
        roster.club_id is not None and roster.visibility in CLUB_VISIBLE and roster.club_id in writable_club_ids(user)
    )


def roster_get_for_user(user, roster_id, *, write: bool = False) -> Roster:
    """The roster if `user` may read it (Http404 otherwise); with write=True, PermissionDenied for read-only."""
    roster = None
    if str(roster_id).isdigit():
        roster = roster_visible_to(user).select_related("pack", "owner", "club").filter(pk=roster_id).first()
    if roster is None:
        raise Http404("No such roster.")
    if write and not roster_can_write(user, roster):
        raise PermissionDenied("You may read this roster but not change it.")
    return roster


def roster_for_token(token: str) -> Roster:
    """The roster behind an active share link (read-only); Http404 for unknown, revoked or unshared links."""
    link = (
        ShareLink.objects.select_related("roster", "roster__pack", "roster__owner")
        .filter(token=token, revoked_at__isnull=True, roster__visibility=Roster.Visibility.LINK)
        .first()
        if token
        else None
    )
    if link is None:
        raise Http404("This link does not exist or was revoked.")
    return link.roster


def roster_from_share_link(link: str) -> Roster:
    """The roster behind a share link as a player pastes it ("https://…/s/<token>/" or the bare token)."""
    text = (link or "").strip()
    token = text.split("/s/", 1)[1].split("/")[0] if "/s/" in text else text.strip("/")
    return roster_for_token(token)


def roster_list_for_user(user) -> QuerySet[Roster]:
    return (
        roster_visible_to(user)
        .select_related("pack", "owner", "club")
        .annotate(entry_count=Count("entries"))
        .order_by("-updated_at", "-id")
    )


def with_faction_names(rosters) -> list[Roster]:
    """The rosters, each with `faction_name`: its faction as its pack names it (one query for all)."""
    rosters = list(rosters)
    factions = Faction.objects.filter(pack__in={r.pack_id for r in rosters}).values_list("pack_id", "slug", "name")
    names = {(pack, slug): name for pack, slug, name in factions}
    for r in rosters:
        r.faction_name = names.get((r.pack_id, r.faction), r.faction)
    return rosters


def roster_entries(roster: Roster) -> list[RosterEntry]:
    """Entries with profile and faction loaded: one query whatever the number of entries."""
    return list(
        RosterEntry.objects.filter(roster=roster)
        .select_related("profile", "profile__faction")
        .order_by("position", "id")
    )


def roster_with_entries(roster_id) -> Roster:
    return Roster.objects.prefetch_related(
        Prefetch("entries", queryset=RosterEntry.objects.select_related("profile", "profile__faction"))
    ).get(pk=roster_id)


def roster_share_links(roster: Roster) -> QuerySet[ShareLink]:
    return ShareLink.objects.filter(roster=roster).order_by("-created_at")


def entry_for_rules(entry: RosterEntry) -> dict:
    """One entry as the army part reads it: {"key", "profile", "count", "options"} (rules/contract/army.py)."""
    return {
        "key": entry.key,
        "profile": entry.profile.as_rules_dict(),
        "count": entry.count,
        "options": entry.options if isinstance(entry.options, dict) else {},
    }


def roster_for_rules(roster: Roster, *, entries: list[RosterEntry] | None = None, opponent_total=None) -> dict:
    """The roster as the system's army part reads it (rules/contract/army.py), also snapshotted into battles and
    balance jobs: system, faction, points limit and every entry with its full profile dict and its options. Pass
    `entries` when already loaded (from roster_entries) to save the query."""
    if entries is None:
        entries = roster_entries(roster)
    result = {
        "system": roster.system,
        "faction": roster.faction,
        "points_limit": roster.points_limit,
        "entries": [entry_for_rules(e) for e in entries],
    }
    if opponent_total is not None:
        result["opponent_total"] = opponent_total
    return result


def roster_report(roster: Roster, *, entries: list[RosterEntry] | None = None, opponent: Roster | None = None):
    """Totals and issues from the roster's game system; `opponent` adds the system's balance advice."""
    opponent_total = None
    if opponent is not None:
        opponent_total = systems.cost_roster(opponent.system, roster_for_rules(opponent)).total
    return systems.cost_roster(roster.system, roster_for_rules(roster, entries=entries, opponent_total=opponent_total))


def roster_state(roster: Roster, *, can_write: bool = False, opponent: Roster | None = None) -> dict:
    """Everything the builder shows: roster fields, entries with costs and their issues, totals, roster-level
    issues and whether a newer pack version exists. A fixed number of queries whatever the number of entries."""
    entries = roster_entries(roster)
    report = roster_report(roster, entries=entries, opponent=opponent)
    by_entry: dict[str | None, list] = {}
    for issue in report.issues:
        by_entry.setdefault(issue.entry if issue.entry in report.entry_costs else None, []).append(
            {"severity": issue.severity, "code": issue.code, "message": issue.message, "entry": issue.entry}
        )
    severity_count = {"error": 0, "warning": 0, "info": 0}
    for issue in report.issues:
        severity_count[issue.severity] = severity_count.get(issue.severity, 0) + 1
    packs = roster_packs(roster)
    newer_of = {p.pk: pack_newer_version(p) for p in packs}
    newer = newer_of[roster.pack_id]
    pack = roster.pack
    pack_info = {
        p.pk: {
            "id": p.pk,
            "slug": p.slug,
            "name": p.name,
            "version": p.version,
            "main": p.pk == pack.pk,
            "newer": {"id": newer_of[p.pk].pk, "version": newer_of[p.pk].version} if newer_of[p.pk] else None,
        }
        for p in packs
    }
    faction_names = {f.slug: f.name for f in pack.factions.all()}
    kinds = systems.kind_labels(roster.system)
    return {
        "id": roster.pk,
        "name": roster.name,
        "system": roster.system,
        "faction": roster.faction,
        # What a person reads: the book's name of the faction, the system's word for a unit's kind (never a slug).
        "faction_name": faction_names.get(roster.faction, roster.faction),
        "points_limit": roster.points_limit,
        "visibility": roster.visibility,
        "notes": roster.notes,
        "version": roster.version,
        "owner": roster.owner.get_username(),
        "club": {"id": roster.club_id, "name": roster.club.name} if roster.club_id else None,
        "pack": {"id": pack.pk, "slug": pack.slug, "name": pack.name, "version": pack.version},
        "newer_pack": {"id": newer.pk, "version": newer.version} if newer else None,
        "packs": list(pack_info.values()),
        "can_write": can_write,
        "currency": systems.currency(roster.system),
        "total": report.total,
        "opponent": {"id": opponent.pk, "name": opponent.name} if opponent is not None else None,
        "counts": severity_count,
        "issues": by_entry.get(None, []),
        "entries": [
            {
                "key": e.key,
                "count": e.count,
                "options": e.options if isinstance(e.options, dict) else {},
                "colour": e.profile.faction.colour,
                "faction_name": e.profile.faction.name,
                "kind_label": _(kinds[e.profile.kind]) if e.profile.kind in kinds else e.profile.kind,
                "position": e.position,
                "cost": report.entry_costs.get(e.key, 0),
                "profile": {**e.profile.as_rules_dict(), "notes": e.profile.notes},
                # Which of the roster's packs the unit comes from (None: one the roster no longer lists).
                "pack": pack_info.get(e.profile.pack_id),
                "issues": by_entry.get(e.key, []),
            }
            for e in entries
        ],
    }
