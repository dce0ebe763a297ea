"""The campaign part: what carries over from a finished battle into the roster (a crew's injuries, experience,
repaired armour). Called by `armies` when a player closes a scenario of a campaign roster."""

from __future__ import annotations

from abc import ABC, abstractmethod


class CampaignPart(ABC):
    @abstractmethod
    def after_battle(self, *, roster: dict, side_index: int, final: dict, settings: dict, dice) -> dict:
        """`roster`: the roster as the army part sees it; `final`: the battle's final state as the battle part
        keeps it ({"game", "units": {key: {"side", "profile", "state"}}}); `dice`: a dice source (rules.dice).

        Answers {"entries": {entry key: new options}, "record": {...}, "dice": [...]}: the options each entry
        carries into the next scenario, and a readable record of what happened, kept in the roster's history."""
