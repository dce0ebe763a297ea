"""The books' tests of «Бронепехота», one module per family. ACTIONS maps each key to its Action instance.

Every action takes RAW inputs (a JSON object described by its `input_schema`) and the game settings:
- `validate(inputs, settings)` checks the schema, then the rules, raising RuleInputError with field errors;
- `resolve(inputs, settings, dice)` validates, rolls through the DiceSource (seeded or typed in) and answers an
  Outcome: summary, result, every die, steps and the effects the tracker applies (see tracker.py);
- `odds(inputs, settings)` validates and answers the exact distribution of the same outcome.
"""

from rules.systems.bronepekhota.actions.grenade import Grenade
from rules.systems.bronepekhota.actions.melee import Melee
from rules.systems.bronepekhota.actions.movement import Movement
from rules.systems.bronepekhota.actions.real_shot import RealShot
from rules.systems.bronepekhota.actions.rolloff import Dispute, Initiative
from rules.systems.bronepekhota.actions.support import AmmoRefresh, Capture, Jump, Repair, Towing
from rules.systems.bronepekhota.actions.survival import ArmourTest, EmergencyLanding, PanicFlight, SurvivalTest
from rules.systems.bronepekhota.actions.virtual_shot import VirtualShot

ACTIONS = {
    action.key: action
    for action in (
        Initiative(),
        VirtualShot(),
        RealShot(),
        SurvivalTest(),
        ArmourTest(),
        Melee(),
        Movement(),
        Grenade(),
        EmergencyLanding(),
        Repair(),
        Capture(),
        Towing(),
        Jump(),
        PanicFlight(),
        Dispute(),
        AmmoRefresh(),
    )
}
