"""Army building for «Бронепехота»: roster costing and validation (spec §2.1–§2.2, §5 A1, A2, A27, A30), entry
options, and how entries read on the builder's pages.

Pure Python. `cost_roster(roster)` takes the roster dict of rules/contract/army.py:
    {"faction", "points_limit", "opponent_total"?, "entries": [{"key", "profile", "count", "options"}]}
with each profile as stored in the pack ({"slug","name","faction","kind","cost","data"}), and answers a
RosterReport: total, cost per entry and the issues, each naming the entry it concerns (None: whole roster).

An entry's options (vehicles only; squads and guns have none):
    {"variant": variant key (vehicles with variants; default the first),
     "weapons": [arsenal weapon keys] (absent: every weapon the variant allows, up to the mounts),
     "pilot": one soldier per vehicle copy, [{"entry": squad entry key, "soldier": num, "copy": 1-based copy of
              that squad entry (default 1)}]}
Older snapshots (battles, balance jobs) hold `loadout` ({"variant", "weapons"}) and `pilot` beside each other
instead; entry_loadout() and entry_pilot() read both shapes.
"""

from __future__ import annotations

from rules.contract import ArmyPart, RosterReport
from rules.i18n import N_, _
from rules.systems.bronepekhota import profile as profiles
from rules.systems.bronepekhota.profile import PROFILE_EDITOR, PROFILE_SCHEMA
from rules.systems.bronepekhota.roster.costing import (  # noqa: F401  (the module's public names, kept here)
    _balance_thresholds,
    _check_factions,
    _check_hall,
    _check_loadout,
    _check_pilots,
    cost_roster,
    upgrade_changes,
)
from rules.systems.bronepekhota.roster.options import (  # noqa: F401
    FACTION_NAMES,
    SHARED,
    SIDES,
    SQUAD_SIZE,
    _count,
    _issue,
    _without_pilots_from,
    allowed_weapons,
    default_loadout,
    entry_loadout,
    entry_pilot,
    fitted_weapons,
    options_from_columns,
    pilot_refs,
    soldier_pool,
    vehicle_variant,
)
from rules.systems.bronepekhota.roster.views import entry_views  # noqa: F401

# `make run`'s demo club (setup_demo asks demo_rosters): one army of each side of p.3, each a squad whose soldier
# pilots a vehicle (every vehicle has a pilot, p.4), a second squad and a gun; 275 against 260 points, within the
# book's 10 % (p.3, A2). (key, profile slug, the earlier squad entry whose soldier pilots it, or None.)
DEMO_ARMIES = (
    (
        N_("Demo: Protectorate strike group"),
        "protectorate",
        (
            ("squad", "protectorate_kiberspetsnaz", None),
            ("gryphon", "griffin", "squad"),
            ("guard", "protectorate_ruteniyskaya_gvardiya", None),
            ("cannon", "sparennaya_pushka", None),
        ),
    ),
    (
        N_("Demo: Polaris assault wing"),
        "polaris",
        (
            ("desant", "polaris_lyogkiy_shturmovoy_desant", None),
            ("thunder", "thunder", "desant"),
            ("line", "polaris_lineynaya_klon_pehota", None),
            ("mortar", "minomet", None),
        ),
    ),
)
DEMO_POINTS_LIMIT = 300


class BronepekhotaArmy(ArmyPart):
    """Armlists of squads, vehicles and guns, priced in the book's points (p.3)."""

    pricing = "points"
    currency = N_("pts")
    profile_schema = PROFILE_SCHEMA
    profile_kinds = {"squad": N_("Squad"), "vehicle": N_("Vehicle"), "gun": N_("Gun")}  # read in the reader's language
    kind_groups = {"squad": N_("Squads"), "vehicle": N_("Vehicles"), "gun": N_("Guns")}
    profile_editor = PROFILE_EDITOR

    def options_schema(self, profile: dict) -> dict:
        return profiles.options_schema(profile)

    def default_options(self, profile: dict) -> dict:
        return default_loadout(profile)

    def validate_options(self, profile: dict, options: dict) -> dict:
        if isinstance(options, dict) and isinstance(options.get("pilot"), dict):  # one soldier: a list of one
            options = {**options, "pilot": [options["pilot"]]}
        return super().validate_options(profile, options)

    def cost_roster(self, roster: dict) -> RosterReport:
        return cost_roster(roster)

    def upgrade_changes(self, entry: dict, new_profile: dict | None) -> tuple[list[str], dict | None]:
        return upgrade_changes(entry, new_profile)

    def profile_note(self, profile: dict) -> str:
        if profile.get("kind") == "squad":
            return ""
        return _("rank {rank}").format(rank=(profile.get("data") or {}).get("rank"))

    def copy_options(self, entry: dict) -> dict:
        """A copy keeps the fit but not the pilot: a soldier drives one vehicle."""
        return options_from_columns(entry_loadout(entry), None)

    def options_without(self, entry: dict, removed: set[str]) -> dict:
        """Vehicles piloted by soldiers of a removed squad lose those pilots."""
        return _without_pilots_from(options_from_columns(entry_loadout(entry), entry_pilot(entry)), removed)

    def entry_views(self, roster: dict) -> dict[str, dict]:
        return entry_views(roster)

    def demo_rosters(self, profiles: list[dict]) -> list[dict]:
        """The demo club's two armies (DEMO_ARMIES) in example_roster's shape, named in the reader's language; each
        vehicle piloted by the first soldier of its squad whose rank is high enough (p.7). A pack without these
        Armlists gets the example rosters instead."""
        by_slug = {p.get("slug"): p for p in profiles}
        if any(slug not in by_slug for _n, _f, entries in DEMO_ARMIES for _k, slug, _p in entries):
            return super().demo_rosters(profiles)
        rosters = []
        for name, faction, spec in DEMO_ARMIES:
            entries = []
            for key, slug, pilot_from in spec:
                profile = by_slug[slug]
                options = self.default_options(profile)
                if pilot_from is not None:
                    squad = next(e for e in entries if e["key"] == pilot_from)
                    rank = (profile.get("data") or {}).get("rank", 0)
                    soldier = next(s for s in squad["profile"]["data"]["soldiers"] if s["rank"] >= rank)
                    options["pilot"] = [{"entry": pilot_from, "soldier": soldier["num"], "copy": 1}]
                entries.append({"key": key, "profile": profile, "count": 1, "options": options})
            rosters.append({"name": _(name), "faction": faction, "points_limit": DEMO_POINTS_LIMIT, "entries": entries})
        return rosters


ARMY = BronepekhotaArmy()
