"""The tests and procedures of «Отряды» (spec §3), one module per topic. ACTIONS maps each key to its Action.

Every action takes RAW inputs (a JSON object described by its `input_schema`) and the game settings:
- `validate(inputs, settings)` checks the schema, then the rules, raising RuleInputError with field errors;
- `resolve(inputs, settings, dice)` validates, rolls through the DiceSource (seeded or typed in; every die is
  recorded with its purpose) and answers an Outcome: summary, result, every die, steps and effects;
- `odds(inputs, settings)` validates and answers the exact distribution of the same outcome (fractions).
"""

from rules.systems.squads.actions.activation import Activation, ActivationChain, FailedActivation
from rules.systems.squads.actions.allocation import ArmourSaves, SplitHits
from rules.systems.squads.actions.melee import Melee, Withdrawal
from rules.systems.squads.actions.shooting import Shooting
from rules.systems.squads.actions.turn import Initiative, UnitAction
from rules.systems.squads.actions.vehicles import Overrun, VehicleHit, VehicleMove

ACTIONS = {
    action.key: action
    for action in (
        Initiative(),
        Activation(),
        ActivationChain(),
        FailedActivation(),
        UnitAction(),
        Shooting(),
        SplitHits(),
        ArmourSaves(),
        Melee(),
        Withdrawal(),
        VehicleMove(),
        VehicleHit(),
        Overrun(),
    )
}
