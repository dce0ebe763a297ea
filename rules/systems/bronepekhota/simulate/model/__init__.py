"""The battle model of «Бронепехота», by topic (the model itself is described in the package docstring,
rules/systems/bronepekhota/simulate/__init__.py):

- params.py: constants, the job's parameters (BattleParams) and which settings the model reads;
- dice.py: the dice primitives, the only place a simulated battle rolls dice;
- actions.py: single actions through those primitives (bound to the exact odds by tests);
- forces.py: roster entries become elements, units, pilots and crews;
- battle.py: the compiled battle (static arrays, lookup tables, unit plans) that engine.py and reference.py run;
- results.py: summaries that add up across chunks, and one-call simulation.
"""

from __future__ import annotations

from rules.systems.bronepekhota.simulate.model.actions import (  # noqa: F401
    _action,
    _consequences,
    _frequencies,
    simulate_grenade,
    simulate_melee,
    simulate_virtual_shot,
)
from rules.systems.bronepekhota.simulate.model.battle import (  # noqa: F401
    Battle,
    UnitPlan,
    _damage_moments,
    _hit,
    _miss_all,
    _pen,
)
from rules.systems.bronepekhota.simulate.model.dice import (  # noqa: F401
    _strength_after,
    _survival_table,
    blast_armour,
    resolve_damage,
    roll_dice,
    roll_initiative,
    roll_melee,
    roll_power_damage,
    roll_range,
    roll_survival,
)
from rules.systems.bronepekhota.simulate.model.forces import (  # noqa: F401
    Force,
    Weapon,
    _El,
    _jump,
    _soldier,
    _stand_in,
    _Unit,
    _weapon,
    entries_from_profile,
)
from rules.systems.bronepekhota.simulate.model.params import (  # noqa: F401
    ABOARD,
    APPROACHES,
    COVER_CHOICES,
    CREW_FALLBACK,
    CREWED_GUN,
    DISMOUNTED,
    FACES,
    GUN,
    IGNORED_SETTINGS,
    INITIATIVE_CHOICES,
    KILLED,
    MAX_DISTANCE,
    MAX_ROUNDS,
    MODEL_VERSION,
    NO_PILOT,
    OUTCOME_A,
    OUTCOME_B,
    OUTCOME_DRAW,
    PANICKED,
    PERSONAL,
    SIMULATED_SETTINGS,
    SOLDIER,
    STAND_IN,
    SURVIVED,
    VEHICLE,
    VEHICLE_GUN,
    BattleParams,
    resolve_settings,
)
from rules.systems.bronepekhota.simulate.model.results import (  # noqa: F401
    python_rng,
    simulate,
    summarise,
)
