"""«Энфорсеры» as a GameSystem: settings, actions, glossary, and its army, simulator, campaign and battle parts."""

from __future__ import annotations

from rules.contract import GameSystem
from rules.systems.enforcers.actions import ACTIONS
from rules.systems.enforcers.army import ARMY
from rules.systems.enforcers.battle import BATTLE
from rules.systems.enforcers.battle.at_roll import AT_ROLL
from rules.systems.enforcers.campaign import CAMPAIGN
from rules.systems.enforcers.glossary import GLOSSARY
from rules.systems.enforcers.settings import SETTINGS
from rules.systems.enforcers.simulate import SIMULATOR


class Enforcers(GameSystem):
    slug = "enforcers"
    name = "Энфорсеры"
    dice = "d20+d6"
    settings = SETTINGS
    actions = ACTIONS
    glossary = GLOSSARY
    army = ARMY
    battle = BATTLE
    simulator = SIMULATOR
    campaign = CAMPAIGN
    at_roll = AT_ROLL


SYSTEM = Enforcers()
