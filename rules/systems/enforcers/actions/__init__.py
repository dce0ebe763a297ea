"""The tests and procedures of «Энфорсеры» (spec §3), one module per family. ACTIONS maps each key to its Action.

Every action takes RAW inputs (a JSON object described by its `input_schema`) and the game settings:
- `validate(inputs, settings)` checks the schema, then the rules, raising RuleInputError with field errors;
- `resolve(inputs, settings, dice)` rolls through the dice source (seeded or typed in; every die recorded and
  checked) and answers an Outcome: summary, result, dice, steps and the effects the tracker folds (wounds.py);
- `odds(inputs, settings)` runs the same procedure over every branch and answers exact probabilities.
"""

from rules.systems.enforcers.actions.after import ArmourRepair, Injuries
from rules.systems.enforcers.actions.basic import Activation, D20Test, StatusTick
from rules.systems.enforcers.actions.care import MedicalAid, Prayer
from rules.systems.enforcers.actions.harm import Damage, Fall, FearTest
from rules.systems.enforcers.actions.melee import Melee
from rules.systems.enforcers.actions.shooting import Shoot, Throw
from rules.systems.enforcers.actions.support import Aim, Listen, Move, Overwatch, SuppressiveFire, TakeCover

ACTIONS = {
    action.key: action
    for action in (
        D20Test(),
        Activation(),
        Move(),
        Listen(),
        Aim(),
        Shoot(),
        Throw(),
        Melee(),
        Overwatch(),
        SuppressiveFire(),
        TakeCover(),
        MedicalAid(),
        Prayer(),
        Damage(),
        Fall(),
        FearTest(),
        StatusTick(),
        Injuries(),
        ArmourRepair(),
    )
}
