"""The contract between the generic apps and a game system: pure Python, no Django.

A `GameSystem` (contract/system.py) is an identity (slug, name, dice, settings, actions, glossary) plus optional
parts, each a small protocol in its own module:

| part        | module                | who calls it           |
|-------------|-----------------------|------------------------|
| army        | contract/army.py      | armies                 |
| battle      | contract/battle.py    | battles                |
| board       | contract/board.py     | battles' templates     |
| simulator   | contract/simulator.py | rules/jobs             |
| campaign    | contract/campaign.py  | armies                 |
| at_roll     | contract/at_roll.py   | battles (the board)    |

Like Django's database backends: the generic core calls the interface; each system fills it in. A system's actions
start from `CleanAction` (contract/actions.py: full settings → validate → resolve or odds on clean inputs → outcome)
and its settings are one `SettingsCatalogue` (contract/settings.py: defaults, full settings, lookup, labels).
"""

from rules.contract.actions import Action, CleanAction, Outcome, convolve, distribution, exact, prob
from rules.contract.army import ArmyPart, BuilderResult, BuilderTool, Issue, RosterReport
from rules.contract.at_roll import AtRollPart, RollOdds, Rule
from rules.contract.battle import (
    Awaiting,
    BattlePart,
    Command,
    CommandContext,
    Event,
    GameState,
    NewEvent,
    NothingToUndo,
    SideSetup,
    Start,
    UndoNeedsAgreement,
    UnitRecord,
    UnitSetup,
    run_command,
    undo_witnesses,
)
from rules.contract.campaign import CampaignPart
from rules.contract.settings import Setting, SettingsCatalogue
from rules.contract.simulator import SimulatorPart
from rules.contract.system import GameSystem
from rules.errors import ArmlistError, GameConflict, NotYours, RuleInputError

__all__ = [
    "Action",
    "ArmlistError",
    "ArmyPart",
    "AtRollPart",
    "Awaiting",
    "BattlePart",
    "BuilderResult",
    "BuilderTool",
    "CampaignPart",
    "CleanAction",
    "Command",
    "CommandContext",
    "Event",
    "GameConflict",
    "GameState",
    "GameSystem",
    "Issue",
    "NewEvent",
    "NotYours",
    "NothingToUndo",
    "Outcome",
    "RollOdds",
    "RosterReport",
    "Rule",
    "RuleInputError",
    "Setting",
    "SettingsCatalogue",
    "SideSetup",
    "SimulatorPart",
    "Start",
    "UndoNeedsAgreement",
    "UnitRecord",
    "UnitSetup",
    "convolve",
    "distribution",
    "exact",
    "prob",
    "run_command",
    "undo_witnesses",
]
