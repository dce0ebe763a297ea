"""The rosters and packs of armies as the balance jobs read them (rules/jobs/sources.py: RosterSource). Settings
point at it: BALANCE_SOURCE = "armies.jobs_source.SOURCE". Reads only, through armies.selectors (same access rules)."""

from __future__ import annotations

from armies import selectors
from rules.jobs.sources import PackChoice, RosterChoice


def _pack_choice(pack) -> PackChoice:
    return PackChoice(
        id=pack.pk, name=pack.name, version=pack.version, system=pack.system, label=f"{pack.name} v{pack.version}"
    )


class ArmiesSource:
    def roster_for_user(self, user, roster_id) -> tuple[str, str, dict]:
        roster = selectors.roster_get_for_user(user, roster_id)
        return roster.name, roster.system, selectors.roster_for_rules(roster)

    def rosters_for_user(self, user, system: str | None = None) -> list[RosterChoice]:
        rosters = selectors.roster_list_for_user(user)
        if system is not None:
            rosters = rosters.filter(system=system)
        return [
            RosterChoice(id=r.pk, name=r.name, system=r.system, label=f"{r.name} ({r.owner.username})") for r in rosters
        ]

    def roster_for_link(self, user, link: str) -> tuple[int, str, str, dict]:
        roster = selectors.roster_from_share_link(link)
        return roster.pk, roster.name, roster.system, selectors.roster_for_rules(roster)

    def pack_for_user(self, user, pack_id) -> PackChoice:
        return _pack_choice(selectors.pack_get_for_user(user, pack_id))

    def packs_for_user(self, user, system: str) -> list[PackChoice]:
        return [_pack_choice(p) for p in selectors.packs_for_system(user, system)]

    def pack_profiles(self, user, pack_id) -> list[dict]:
        pack = selectors.pack_get_for_user(user, pack_id)
        return [p.as_rules_dict() for p in selectors.pack_profiles(pack)]


SOURCE = ArmiesSource()
