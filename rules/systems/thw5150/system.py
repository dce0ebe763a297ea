"""«5150» as a GameSystem: settings, actions, glossary, and its army, simulator, battle and at_roll parts."""

from __future__ import annotations

from rules.contract import GameSystem
from rules.systems.thw5150.actions import ACTIONS
from rules.systems.thw5150.army import ARMY
from rules.systems.thw5150.battle import BATTLE
from rules.systems.thw5150.battle.at_roll import AT_ROLL
from rules.systems.thw5150.glossary import GLOSSARY
from rules.systems.thw5150.settings import SETTINGS
from rules.systems.thw5150.simulate import SIMULATOR


class Thw5150(GameSystem):
    slug = "5150"
    name = "5150"
    dice = "d6"
    settings = SETTINGS
    actions = ACTIONS
    glossary = GLOSSARY
    army = ARMY
    simulator = SIMULATOR
    battle = BATTLE
    at_roll = AT_ROLL


SYSTEM = Thw5150()
