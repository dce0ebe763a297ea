"""A game system: its identity, settings, actions and glossary, plus the optional parts it provides."""

from __future__ import annotations

from rules.contract.actions import Action
from rules.contract.army import ArmyPart
from rules.contract.at_roll import AtRollPart
from rules.contract.battle import BattlePart
from rules.contract.campaign import CampaignPart
from rules.contract.settings import Setting, SettingsCatalogue
from rules.contract.simulator import SimulatorPart
from rules.errors import RuleInputError
from rules.i18n import _


class GameSystem:
    """Listed in settings.RULES_SYSTEMS by dotted path; the registry loads it. A slug may be any string."""

    slug: str = ""
    name: str = ""
    dice: str = ""
    settings: tuple[Setting, ...] = ()
    actions: dict[str, Action] = {}
    #: The book's own words: {"english key": "слово книги"} (unit kinds, sliders, statuses, tables, outcomes).
    glossary: dict[str, str] = {}
    army: ArmyPart | None = None
    battle: BattlePart | None = None
    simulator: SimulatorPart | None = None
    campaign: CampaignPart | None = None
    #: The odds and the rule at the moment of the roll on the board (rules/contract/at_roll.py).
    at_roll: AtRollPart | None = None

    PARTS = ("army", "battle", "simulator", "campaign", "at_roll")

    #: A page of its own for the odds (under <package>/templates/); without one, a form is drawn from each
    #: action's input schema.
    odds_template: str = ""

    def odds_context(self) -> dict:
        """What the system's odds page needs besides the system (presets from its packs…)."""
        return {}

    def parts(self) -> list[str]:
        return [p for p in self.PARTS if getattr(self, p) is not None]

    def default_settings(self) -> dict:
        return SettingsCatalogue(self.settings).defaults()

    def resolve_settings(self, overrides: dict | None) -> dict:
        """Defaults with the given overrides; unknown keys and bad values raise RuleInputError."""
        return SettingsCatalogue(self.settings).resolve(overrides)

    def action(self, key: str) -> Action:
        try:
            return self.actions[key]
        except (KeyError, TypeError):
            raise RuleInputError(
                {"action": _("{system} has no action {key!r}").format(system=self.name, key=key)}
            ) from None

    def word(self, key: str, default: str | None = None) -> str:
        """A term in the book's words (the glossary), else `default`, else the key."""
        return self.glossary.get(key, default if default is not None else key)

    # Shortcuts kept for callers that only cost or check profiles ----------------------------------------------
    @property
    def profile_schema(self) -> dict:
        return self.army.profile_schema if self.army else {"type": "object"}

    def validate_profile(self, profile: dict) -> None:
        from rules.contract.schema import validate

        validate(self.profile_schema, profile)

    def cost_roster(self, roster: dict):
        if self.army is None:
            raise RuleInputError({"system": _("{system} has no army builder.").format(system=self.name)})
        return self.army.cost_roster(roster)

    def describe(self) -> dict:
        return {
            "slug": self.slug,
            "name": self.name,
            "dice": self.dice,
            "parts": self.parts(),
            "settings": [s.describe() for s in self.settings],
            "actions": [a.describe() for a in self.actions.values()],
            "profile_schema": self.profile_schema,
            "glossary": dict(self.glossary),
            "army": self.army.describe() if self.army else None,
            "battle": self.battle.describe() if self.battle else None,
            "simulator": self.simulator.describe() if self.simulator else None,
        }
