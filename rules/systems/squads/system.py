"""«Отряды» (the d6 squad skirmish) as a GameSystem: settings, actions, glossary, and the parts it provides."""

from __future__ import annotations

from rules.contract import GameSystem
from rules.systems.squads.actions import ACTIONS
from rules.systems.squads.army import ARMY
from rules.systems.squads.battle import BATTLE
from rules.systems.squads.battle.at_roll import AT_ROLL
from rules.systems.squads.glossary import GLOSSARY
from rules.systems.squads.settings import SETTINGS
from rules.systems.squads.simulate import SIMULATOR


class Squads(GameSystem):
    slug = "squads"
    name = "Отряды"
    dice = "d6"
    settings = SETTINGS
    actions = ACTIONS
    glossary = GLOSSARY
    army = ARMY
    battle = BATTLE
    simulator = SIMULATOR
    at_roll = AT_ROLL


SYSTEM = Squads()
