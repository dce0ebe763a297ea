"""«Звездный Десант» (demo rules) as a GameSystem: settings, actions, glossary, and its army, simulator, battle and
at-roll (the odds and the rule on the board's forms) parts."""

from __future__ import annotations

from rules.contract import GameSystem
from rules.systems.zvezdny_desant.actions import ACTIONS
from rules.systems.zvezdny_desant.army import ARMY
from rules.systems.zvezdny_desant.battle import BATTLE
from rules.systems.zvezdny_desant.battle.at_roll import AT_ROLL
from rules.systems.zvezdny_desant.glossary import GLOSSARY
from rules.systems.zvezdny_desant.settings import SETTINGS
from rules.systems.zvezdny_desant.simulate import SIMULATOR


class ZvezdnyDesant(GameSystem):
    slug = "zvezdny-desant"
    name = "Звездный Десант"
    dice = "d20"
    settings = SETTINGS
    actions = ACTIONS
    glossary = GLOSSARY
    army = ARMY
    battle = BATTLE
    simulator = SIMULATOR
    at_roll = AT_ROLL


SYSTEM = ZvezdnyDesant()
