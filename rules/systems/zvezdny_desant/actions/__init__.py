"""The tests and procedures of «Звездный Десант» (spec §3), one module per family. ACTIONS maps each key to its
Action instance. Every action takes RAW inputs (its `input_schema`) and the game settings:
- `validate(inputs, settings)`: the schema, then the rules, raising RuleInputError with field errors;
- `resolve(inputs, settings, dice)`: rolls through the DiceSource (seeded or typed in, each D20 recorded);
- `odds(inputs, settings)`: the exact distribution of the same outcome (probability 1 for procedures with no dice).
"""

from rules.systems.zvezdny_desant.actions.melee import Melee
from rules.systems.zvezdny_desant.actions.movement import Assault, ClosingIn, Movement
from rules.systems.zvezdny_desant.actions.orders import ActivationOrder, OrderCards
from rules.systems.zvezdny_desant.actions.rolloffs import Deployment, FirstPlayer
from rules.systems.zvezdny_desant.actions.shooting import HitTest, Shooting, WoundTest
from rules.systems.zvezdny_desant.actions.victory import VictoryPoints
from rules.systems.zvezdny_desant.actions.visibility import Cover, Sight
from rules.systems.zvezdny_desant.actions.wounds import Casualties, Reroll

ACTIONS = {
    action.key: action
    for action in (
        FirstPlayer(),
        Deployment(),
        OrderCards(),
        ActivationOrder(),
        Movement(),
        Sight(),
        Cover(),
        HitTest(),
        WoundTest(),
        Shooting(),
        Casualties(),
        Reroll(),
        Assault(),
        Melee(),
        ClosingIn(),
        VictoryPoints(),
    )
}
