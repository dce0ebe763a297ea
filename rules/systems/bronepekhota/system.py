"""«Бронепехота» as a GameSystem: settings, profile schema, actions, costing (army.py) and the tracker."""

from __future__ import annotations

from rules.systems.base import GameSystem, RosterReport
from rules.systems.bronepekhota import tracker
from rules.systems.bronepekhota.actions import ACTIONS
from rules.systems.bronepekhota.profile import PROFILE_SCHEMA
from rules.systems.bronepekhota.settings import SETTINGS


class Bronepekhota(GameSystem):
    slug = "bronepekhota"
    name = "Бронепехота"
    dice = "d6/d12/d20"
    settings = SETTINGS
    actions = ACTIONS
    profile_schema = PROFILE_SCHEMA

    def cost_roster(self, roster: dict) -> RosterReport:
        from rules.systems.bronepekhota import army  # owned by the armies work; imported when first needed

        return army.cost_roster(roster)

    def initial_unit_state(self, profile: dict, entry: dict) -> dict:
        return tracker.initial_unit_state(profile, entry)

    def apply_effect(self, state: dict, effect: dict) -> dict:
        return tracker.apply_effect(state, effect)

    def unit_view(self, state: dict, profile: dict, settings: dict | None = None) -> dict:
        return tracker.unit_view(state, profile, settings)


SYSTEM = Bronepekhota()
