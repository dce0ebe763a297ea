"""«Бронепехота» as a GameSystem: settings, actions, and its army, battle and simulator parts."""

from __future__ import annotations

from rules.contract import GameSystem
from rules.systems.bronepekhota.actions import ACTIONS
from rules.systems.bronepekhota.army import ARMY
from rules.systems.bronepekhota.battle import BATTLE
from rules.systems.bronepekhota.battle.at_roll import AT_ROLL
from rules.systems.bronepekhota.glossary import GLOSSARY
from rules.systems.bronepekhota.settings import SETTINGS
from rules.systems.bronepekhota.simulate.part import SIMULATOR


class Bronepekhota(GameSystem):
    slug = "bronepekhota"
    name = "Бронепехота"
    dice = "d6/d12/d20"
    settings = SETTINGS
    actions = ACTIONS
    glossary = GLOSSARY
    army = ARMY
    battle = BATTLE
    simulator = SIMULATOR
    at_roll = AT_ROLL
    odds_template = "bronepekhota/odds.html"

    def odds_context(self) -> dict:
        from rules.systems.bronepekhota.odds_page import odds_context

        return odds_context()


SYSTEM = Bronepekhota()
