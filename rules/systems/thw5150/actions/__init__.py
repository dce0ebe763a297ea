"""The book's tests of «5150», one module per family (spec §3). ACTIONS maps each key to its Action instance.

Every action takes RAW inputs (a JSON object described by its `input_schema`) and the game settings:
- `validate(inputs, settings)` checks the schema, then the rules, raising RuleInputError with field errors;
- `resolve(inputs, settings, dice)` validates, rolls through the DiceSource (seeded or typed in) and answers an
  Outcome: summary, result, every die, steps and the effects the tracker applies;
- `odds(inputs, settings)` validates and answers the exact distribution of the same outcome.
"""

from rules.systems.thw5150.actions.encounter import Awareness, Contact, River, ZoneCollapse
from rules.systems.thw5150.actions.generation import RandomNormal
from rules.systems.thw5150.actions.grenades import BombsAway, Grenade
from rules.systems.thw5150.actions.melee import Melee
from rules.systems.thw5150.actions.morale import StayOrRun, WoundRecovery
from rules.systems.thw5150.actions.reactions import (
    BeingCharged,
    FastMove,
    GroupReactionTest,
    InSight,
    Rally,
    ReceivedFire,
    Recovery,
    WantingToCharge,
)
from rules.systems.thw5150.actions.shooting import Outgun, RangedDamage, Shooting
from rules.systems.thw5150.actions.turn import Activation, RunawayMove, Victory

ACTIONS = {
    action.key: action
    for action in (
        Activation(),
        GroupReactionTest(),
        FastMove(),
        InSight(),
        Shooting(),
        RangedDamage(),
        Outgun(),
        ReceivedFire(),
        Recovery(),
        Rally(),
        WantingToCharge(),
        BeingCharged(),
        Melee(),
        Grenade(),
        BombsAway(),
        StayOrRun(),
        WoundRecovery(),
        RunawayMove(),
        Victory(),
        Contact(),
        Awareness(),
        River(),
        ZoneCollapse(),
        RandomNormal(),
    )
}
