"""Constants, the job's parameters and the settings the model reads."""

from __future__ import annotations

from dataclasses import dataclass

from rules import dice as dicelib
from rules.errors import RuleInputError
from rules.i18n import N_, _
from rules.systems.bronepekhota import tables
from rules.systems.bronepekhota.settings import SETTINGS_BY_KEY
from rules.systems.bronepekhota.settings import defaults as default_settings

MODEL_VERSION = 4  # 2: repair, surprise attacks and obstacles; 3: capture (§3.12); 4: blast specials (§7.4 IV)
FACES = dicelib.BOOK_FACES

SOLDIER, VEHICLE, GUN = 0, 1, 2
ABOARD, DISMOUNTED, NO_PILOT = 0, 1, 2  # a vehicle's pilot; for a gun ABOARD = crewed, NO_PILOT = no crew
SURVIVED, PANICKED, KILLED = 0, 1, 2
OUTCOME_DRAW, OUTCOME_A, OUTCOME_B = 0, 1, 2
# Slot kinds: whose weapon a shot slot fires.
PERSONAL, VEHICLE_GUN, CREWED_GUN, CREW_FALLBACK = 0, 1, 2, 3

# Stand-in pilot or crew of a duel: the book's example infantryman (Бр 3 Рис.27, ББ 2 Рис.50, Ск 4 p.14).
STAND_IN = {"armour": 3, "melee": 2, "speed": 4}

APPROACHES = ("advance", "hold")
INITIATIVE_CHOICES = ("rolled", "a", "b")
COVER_CHOICES = tuple(c for c in tables.COVER_CHOICES if c != tables.COVER_HIDDEN)
MAX_DISTANCE = 200
MAX_ROUNDS = 50

# Which settings change this model, and why the others do not (shown on the job page).
SIMULATED_SETTINGS = {
    "mode": N_("Only virtual shooting can be simulated; real shooting is refused."),
    "ammo_limited": N_("Vehicles and guns spend ammo before each shot."),
    "ammo_refreshes": N_("A vehicle or gun that runs dry refills its track, this many times."),
    "grenades": N_("Soldiers may throw a grenade instead of shooting (target and thrower only)."),
    "jump_packs": N_("A soldier with «JpN» moves max(Spd, N) steps."),
    "aimed_fire": N_("Soldiers who cannot reach otherwise stay and fire aimed."),
    "panic": N_("Survival tests equal to «Arm» panic: pilots bail out, flee and may desert."),
    "blast_cover": N_("Cover counts against grenades and blasts when on."),
    "special_properties": N_(
        "On: a hit of a weapon with a blast (the heavy rocket) attacks every other element within "
        "its radius, of either side, by the model's distances along the line."
    ),
    "blast_hits_target": N_("On: the blast's 1Д20 joins the target's power dice (one pilot test)."),
    "ammo_short_shot": N_("Strict: a shot needs ammo for all its dice."),
    "flyer_full_speed_each_move": N_("Flyers move twice their speed when on, once when off."),
    "captured_acts_next_round": N_("A captured, re-crewed or re-boarded vehicle acts from the next round when on."),
    "panic_ends_actions": N_("A panicked soldier acts no more this round when on."),
    "panic_flyer_lands_safely": N_("A panicking flying pilot lands first when on; off, the flyer stays up, pilotless."),
    "survival_die": N_("The die of every survival test."),
    "cover_exactly_half": N_("The bonus when the chosen cover is 'exactly half hidden'."),
    "gun_rof_rule": N_("Per gun: a gun fires up to its RoF shots; per barrel: each weapon once."),
    "virtual_infantry_damage": N_(
        "An infantryman hit by a shot, blast or grenade dies, or takes a survival test (house rule); melee kills."
    ),
    "obstacle_cost_additive": N_("An obstacle crossed costs 2 SP on top of the step when on, 1 SP more when off."),
}
IGNORED_SETTINGS = {
    "balance_info_percent": N_("Used by the verdict, not by the battles."),
    "balance_warning_percent": N_("Used by the verdict, not by the battles."),
    "deployment_order": N_("Both armies deploy on their lines; the order of placing does not matter without a map."),
    "initiative_reroll": N_("With two players only the two tied players can re-roll: both readings are the same."),
    "half_step_obstacle_free": N_("The obstacles of the model are all between half a step and a step high."),
    "jump_downward_height": N_("No heights in the model."),
    "shooting_ban": N_("In the model crews stand with their guns, so both readings ban the same shots."),
    "melee_in_contact": N_("Elements in contact may always attack: stepping out and back in is a new contact."),
    "lying_vehicle_defence": N_("Vehicles only lie down in real shooting."),
    "dismounted_pilot_rejoins_squad": N_("A dismounted pilot always acts with his squad's activation."),
    "airborne_no_melee": N_("Flyers hover and never touch anyone, so they never fight in melee."),
    "armour_test_after_damage": N_("The armour test is real shooting only."),
    "enforce_mount_limit": N_("Roster validation, not battle."),
    "repair_needs_idle_soldier": N_(
        "A «Rpr» pilot repairs at the start of his vehicle's activation and it does "
        "nothing else (p.43–44), so both readings agree."
    ),
    "repair_cap_at_max": N_("Repair always stops at the maximum here: the model's tables end there."),
    "dispute_die": N_("No disputes in a simulation."),
    "pilot_tests": N_("Who rolls a pilot's test changes no odds: the simulation rolls it at once."),
    "grenade_replaces_shot": N_(
        "A grenade always replaces the soldier's shot here (the default reading); "
        "throwing and shooting in one round is not simulated."
    ),
    # single-reading interpretations (settings.INTERPRETATION): the model already reads them that way
    "armlist_data_source": N_("The numbers come from the profiles of the armies' rosters."),
    "cost_per": N_("Costs come from the rosters: each squad, vehicle and gun Armlist has its own."),
    "grenade_damage_section": N_("Grenade damage follows §7.4 II–III, the only reading."),
    "distance_measured_between": N_("No map: distances are whole steps between the elements' advances."),
    "light_heavy_mechanics": N_("Light and heavy vehicles differ only in where the pilot figure stands."),
    "twin_cannon_names": N_("Two names for one gun: a data matter."),
    "speed_sectors_from": N_("Speed sectors are read from the profiles' data."),
}


# Parameters ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BattleParams:
    distance: int = 14  # steps between the deployment lines (the book wants >= 12–14, p.3–4)
    cover_a: str = tables.COVER_NONE  # Table 5 cover of side A's elements against shots
    cover_b: str = tables.COVER_NONE
    rounds: int = 8
    initiative: str = "rolled"  # who holds the initiative in round 1: "rolled", "a" or "b"
    approach: str = "advance"  # "advance": everyone closes; "hold": elements that can reach an enemy stay and shoot
    # No map, so terrain and facing come in as shares (percent): of melee attacks made from outside the defender's
    # field of view (surprise, p.41), and of infantry moves that cross one obstacle of half a step to a step
    # (Table 1: 2 SP more, A9).
    surprise: int = 0
    obstacles: int = 0

    def check(self) -> BattleParams:
        errors = {}
        if (
            isinstance(self.distance, bool)
            or not isinstance(self.distance, int)
            or not 1 <= self.distance <= MAX_DISTANCE
        ):
            errors["distance"] = _("The starting distance must be a whole number of steps from 1 to {most}.").format(
                most=MAX_DISTANCE
            )
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            errors["rounds"] = _("The number of rounds must be a whole number from 1 to {most}.").format(
                most=MAX_ROUNDS
            )
        for key in ("cover_a", "cover_b"):
            if getattr(self, key) not in COVER_CHOICES:
                errors[key] = _("Cover must be one of: {choices} (a hidden target cannot be shot).").format(
                    choices=", ".join(_(str(tables.COVER_LABELS[c])) for c in COVER_CHOICES)
                )
        if self.initiative not in INITIATIVE_CHOICES:
            errors["initiative"] = _("Initiative in round 1 must be rolled, or given to side A or side B.")
        if self.approach not in APPROACHES:
            errors["approach"] = _("The approach must be to advance or to hold.")
        for key in ("surprise", "obstacles"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
                errors[key] = _("A share must be a whole number of percent from 0 to 100.")
        if errors:
            raise RuleInputError(errors)
        return self

    def as_dict(self) -> dict:
        return {
            "distance": self.distance,
            "cover_a": self.cover_a,
            "cover_b": self.cover_b,
            "rounds": self.rounds,
            "initiative": self.initiative,
            "approach": self.approach,
            "surprise": self.surprise,
            "obstacles": self.obstacles,
        }


def resolve_settings(overrides: dict | None) -> dict:
    """Defaults of settings.py with the given overrides, each checked; real shooting is refused."""
    merged = default_settings()
    for key, value in (overrides or {}).items():
        if key not in SETTINGS_BY_KEY:
            raise RuleInputError({f"settings.{key}": _("unknown setting")})
        merged[key] = SETTINGS_BY_KEY[key].check(value)
    if merged["mode"] != "virtual":
        raise RuleInputError({"settings.mode": _("Only virtual shooting can be simulated: real shots are physical.")})
    return merged
