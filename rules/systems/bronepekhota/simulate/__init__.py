"""Vectorised Monte-Carlo simulator of «Бронепехота» battles (numpy), for the balance jobs. The Armlist's values by
their English letters: Rk rank, Spd speed, CC close combat, Arm armour, JpN a jump pack, Rpr repair.

One rule, three forms: the dice primitives of model.py (`roll_range`, `roll_power_damage`, `roll_survival`,
`roll_melee`, `resolve_damage`) are the only place where a battle rolls dice, and `simulate_virtual_shot` /
`simulate_melee` run exactly those primitives for one action so tests can hold them against the exact odds of
`actions["virtual_shot"].odds()` and `actions["melee"].odds()`. Numbers come from tables.py and settings.py.

THE ABSTRACT BATTLE MODEL (virtual shooting, §3.7; real shooting needs physical launchers and is not simulated)
=========================================================================================================
Forces
  Every roster entry, times its count, becomes units: a squad (its soldiers, each with his own profile) or a
  vehicle (its fitted weapons: the loadout, else everything its variant allows; «CC/n» weapons add to its CC).
  Guns are not units. Each vehicle gets a pilot (§2.1): the soldier the roster names, else the qualifying soldier
  (rank >= the vehicle's) that costs least: lowest rank, then one without a ranged weapon, then the last in
  roster order; higher-rank vehicles choose first. Each gun likewise gets a crew soldier (rank >= the gun's)
  who stays with it. Pilots and crews stay soldiers of their squads. In unit-against-unit duels a vehicle or gun
  gets a stand-in pilot/crew of its rank with the book's example values: «Arm» 3, «CC» 2, «Spd» 4, no weapon.
Space (no map: only distance and cover)
  Each side starts on its deployment line, `distance` steps from the other. Every element has an advance (steps
  moved toward the enemy). Two ground elements of opposite sides are distance − advance_a − advance_b apart;
  0 is base contact. A ground element never passes the enemy's front (the most advanced living enemy ground
  element): it stops in contact with it. Flyers hover: they stop 1 step short of the enemy front, nothing is ever
  in contact with them, and ground elements may pass under them (distance |…|, at least 1).
  Cover (Table 5) is one level per side, added to the armour of that side's elements against shots only.
Round (§1.6, §3.1)
  Initiative: each side rolls a d12, ties re-rolled; the winner activates first (the first round can be given to
  a side instead). The sides alternate activating units: squads with a soldier able to act, and vehicles with a
  pilot aboard. Each side activates its units in descending cost (ties: roster order); a side with none left
  waits while the other finishes.
Activation (each element acts once: move, shoot and melee in any order, §1.6)
  - An element already in contact with an enemy fights in melee and neither moves nor shoots (A17 b).
  - An element whose move reaches the enemy front shoots first (from where it stands), then moves into contact
    and fights in melee (contact made by movement, §3.9).
  - Any other element moves its speed toward the enemy, then shoots. With approach = "hold", an element that
    can already reach the nearest enemy ground element with a weapon stays and shoots instead.
  - Speeds: a soldier his «Spd» (a jump pack «JpN» gives max(Spd, N) when jump packs are on); a vehicle the speed
    of its strength sector; a flyer twice its sector speed (two moves, A10); a crew stays with a living gun.
  - Aimed fire (option): a soldier whose personal weapon cannot reach the nearest enemy after moving but can
    with its aimed range doubled, stays and fires aimed (§11.1).
  - Within a squad the soldiers act in order, phase by phase: all moves of soldiers not charging, then every
    shot in soldier order, then the charging soldiers' moves, then every melee attack in soldier order.
Shooting (§3.7)
  A soldier makes one shot with his personal weapon, or (grenades on) throws a grenade instead when that is worth
  more; a crew soldier fires his gun up to its RoF (A23 setting) and only if it cannot fire, his own weapon; a
  vehicle fires each fitted ranged weapon at most once, at most RoF shots, strongest pool first. Vehicles and
  guns spend ammo (limited ammo; A7 literal/strict; A22 refills used when empty). Target policy: the enemy
  element with the highest P(hit) x expected cost removed (a soldier: P(kill) x his squad's cost / soldiers;
  a vehicle: cost/strength_max x E[damage, capped at its strength] + P(damage) x P(pilot killed) x its
  remaining worth; a gun likewise without the pilot term); no shot when nothing can be hit. An element in contact
  with an enemy never shoots (A16). Resolution is §7.4 I–III: range roll (aimed x2) >= distance, each power die
  strictly above armour + cover does 1 damage, infantry dies from any damage (A24 setting), a damaged piloted
  vehicle's pilot takes one survival test (A14 die). Grenades: the burst lands Д6 steps toward the target and
  attacks (1Д20, no cover unless the blast-cover setting) the target if it is within 1 step and the thrower on a
  roll of 1; nobody else is modelled.
Blast specials (§7.4 IV, p.33–34; A6; only with special_properties on)
  A hit of a weapon with a blast (the heavy rocket: 2 steps, 1Д20) attacks every other element on the field,
  of either side and the shooter too, whose model distance to the target is within the radius (the same side:
  the difference of their advances; the other side: the gap between them), as they stood when it hit. The
  target takes its shot first (with blast_hits_target the blast's pool joins its power dice: one pilot test),
  then each victim in column order its own §7.4 II–III, against its armour, with cover only under blast_cover.
  Target choice does not look ahead to the blast. Pilots aboard are hit through their vehicle.
  With the A24 house rule an infantryman hit by a shot, a blast or a grenade tests survival (melee kills).
Melee (§3.9, Tables 6–7)
  The attacker picks the contacted enemy with the highest P(win) x expected cost removed. Attack Д6 + CC
  (vehicle Д6 + Armour + CC); defence Д6 + Arm, piloted vehicle Д6 + Armour + CC, a gun or a vehicle without its
  pilot aboard a flat Armour. Higher attack wins: infantry dies, a vehicle or gun takes the difference and a piloted
  vehicle's pilot takes a survival test. Airborne flyers never fight in melee. No facing, so a share of the
  attacks (parameter `surprise`, percent) are surprise attacks (p.41): the attacker rolls two d6 and keeps the
  higher, a piloted vehicle defends without its CC; target choice does not look ahead to the surprise.
Terrain (parameter `obstacles`, percent)
  That share of an infantryman's moves crosses one obstacle half a step to a step high: Table 1's 2 SP (1 SP with
  obstacle_cost_additive off, A9) come off his steps. Vehicles cross low obstacles free and drive round high ones.
Repair (§3.11, p.43–44, p.48)
  At the start of its activation a damaged vehicle that touches no enemy repairs itself: the HELIX with the repair
  platform restores 2 (it has no gun: the repair is its shot) and acts on; a vehicle whose pilot has «Rpr» restores
  1 and does nothing else that round, which it chooses only while no enemy stands within its weapons' reach. Never
  above the maximum. Speeds follow the strength the activation began with. Soldiers repairing guns or others'
  vehicles are not modelled (nobody knows who touches what).
Pilots and panic (§3.4, §3.4.1, §3.10)
  A pilot killed leaves his vehicle pilotless until someone captures it (a flyer makes an emergency landing, D6
  damage). With the panic rule a test equal to «Arm» panics: the pilot leaves the vehicle (a flyer lands, A13
  setting) and flees his
  «Spd» back toward his own edge; behind his deployment line he deserts. Otherwise he re-boards at the start of the
  next round and the vehicle acts from the round after (A11 setting). A destroyed vehicle's surviving pilot
  fights on foot with his squad (A19). A panicked soldier does nothing more this round (A13 setting).
Victory (§1.7, §3.15)
  A side with no soldier left on the field (infantry, crews and pilots) loses at once. After `rounds` rounds
  with both standing the battle is a draw.
Surviving cost
  Squads pro rata of their living soldiers (pilots and crews count with their squad); a vehicle cost x strength /
  max while it has a living pilot (aboard or not), else 0; a gun cost x strength / max while not destroyed.
Capture (§3.12, p.42 §9.1–9.2; A11)
  Once a round, after the initiative roll, a vehicle still standing without a pilot (killed, deserted, or none in
  the roster) is taken by the first soldier to reach it: on foot, not manning a gun, rank >= the vehicle's, whose
  «Spd» covers the steps to it (an enemy: the gap between them; his own side: the difference of their advances).
  Boarding is his activation. If both sides have one, the side holding the initiative this round gets there first;
  within a side the cheapest candidate goes (as pilots are chosen). Taken by the enemy, the vehicle changes sides:
  it moves into its twin, a copy of it on the enemy's side that waits off the field (model/capture.py), with its
  strength and ammo unchanged; re-crewed by its own side it keeps its place. It acts from the next round when
  captured_acts_next_round is on, else at once. A captured vehicle repairs from inside only if its new pilot has
  «Rpr». benchmarks/bench_bronepekhota_blind_spots.py measures what capture changes on ten real rosters.
Not modelled
  Capturing or re-crewing guns (a crew stays with its gun; a gun without one stays silent). Line of sight, towing,
  grenade bystanders (nobody knows who stands within 1 step of a burst beside the line), jump heights, real
  shooting. Blasts count steps along the line only: side by side on the table, the model puts everyone at
  the same advance within the radius.
"""

from rules.systems.bronepekhota.simulate import engine, reference  # noqa: F401  (they install Battle's runners)
from rules.systems.bronepekhota.simulate.model import (
    IGNORED_SETTINGS,
    MODEL_VERSION,
    OUTCOME_A,
    OUTCOME_B,
    OUTCOME_DRAW,
    SIMULATED_SETTINGS,
    Battle,
    BattleParams,
    entries_from_profile,
    resolve_settings,
    simulate,
    simulate_grenade,
    simulate_melee,
    simulate_virtual_shot,
    summarise,
)

MODEL_DESCRIPTION = __doc__

__all__ = [
    "IGNORED_SETTINGS",
    "MODEL_DESCRIPTION",
    "MODEL_VERSION",
    "OUTCOME_A",
    "OUTCOME_B",
    "OUTCOME_DRAW",
    "SIMULATED_SETTINGS",
    "Battle",
    "BattleParams",
    "entries_from_profile",
    "resolve_settings",
    "simulate",
    "simulate_grenade",
    "simulate_melee",
    "simulate_virtual_shot",
    "summarise",
]
