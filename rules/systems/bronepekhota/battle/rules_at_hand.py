"""The rules at hand of «Бронепехота» (rules/contract/at_roll.py): for every command form and every status chip of the
board, a short statement of the rule it applies. The msgids are English; their Russian in the package's catalogue is
the book's own sentences (bronepekhota-rules.ru.txt), with its section and page. Where the spec lists an ambiguity
(§5 A0–A33), `setting` names the battle's setting that decides it, which the rule's page shows as the house rule."""

from __future__ import annotations

from rules.contract.at_roll import Rule
from rules.i18n import N_

RULES = {
    # Commands -------------------------------------------------------------------------------------------------
    "shoot": Rule(
        N_("Virtual shot"),
        N_(
            "Name the target before each shot. Measure the distance in steps, rounding up, and roll the weapon's "
            "Range: an aimed range greater than or equal to the distance hits, a smaller one misses. On a hit roll "
            "the Power dice: each die greater than the target's armour pierces it and does 1 damage. A hidden "
            "target's armour counts +1 when more than half of it is visible, +3 when less than half. A soldier whose "
            "armour is pierced is destroyed; a vehicle or gun marks the damage on its strength track, and the pilot "
            "of a damaged vehicle takes a D6 survival test, once per shot. Models touching an enemy cannot shoot."
        ),
        "§7.2–7.4, p.29–33",
        "cover_exactly_half",
    ),
    "shoot_real": Rule(
        N_("Real shot"),
        N_(
            "Before the shot load the launcher and move the ammo slider down by the charge's power (shell 2, mine 3, "
            "rocket 4); then aim and fire. Only a direct hit counts. A soldier who stays on his feet takes a D6 "
            "survival test; one who falls or leans on an obstacle is destroyed. A vehicle or gun that stays in place "
            "takes damage equal to the charge's power; one that falls, or was already lying, twice that. The hit "
            "vehicle's pilot then takes the armour test: D12 if it stood, D20 if it fell or was lying."
        ),
        "§6.5–6.7, p.24–27",
        "armour_test_after_damage",
    ),
    "melee": Rule(
        N_("Melee"),
        N_(
            "Melee happens when a soldier or a vehicle touches an enemy by moving; the one who moved attacks. Attack: "
            "a soldier D6 + his CC, a vehicle D6 + its Armour + the CC of its melee weapons. Defence: a soldier D6 + "
            "his Arm, a vehicle D6 + Armour + CC, a gun or a vehicle without a pilot its Armour alone. If the attack "
            "is greater, the attacker wins: a soldier is destroyed, a vehicle or gun takes damage equal to the "
            "difference and the vehicle's pilot takes a D6 survival test. Otherwise the defender repels the attack "
            "and both stay in contact. Attacked from behind (surprise), the attacker rolls twice and keeps the "
            "higher, and a vehicle defends without its melee weapons."
        ),
        "§8, p.38–41",
        "melee_in_contact",
    ),
    "grenade": Rule(
        N_("Grenade"),
        N_(
            "Every soldier may attack with one grenade instead of his own weapon: Range D6, Power 1D20, blast 1 "
            "step – 1D20. Name the target and roll D6: the grenade bursts that many steps from the thrower toward "
            "the target, whether it hits or not. Every soldier, gun and vehicle, friend or foe, within 1 step of the "
            "burst is attacked with 1D20, the thrower too when it bursts 1 step from him."
        ),
        "§7.8, p.36–37",
        "grenade_replaces_shot",
    ),
    "grenade_burst": Rule(
        N_("Grenade burst"),
        N_(
            "Every soldier, gun and vehicle, friend or foe, within 1 step of the burst is attacked with 1D20, each on "
            "its own: a die greater than its armour pierces it (a soldier is destroyed, a vehicle or gun takes 1 "
            "damage and the vehicle's pilot takes a D6 survival test)."
        ),
        "§7.8, p.37",
        "blast_cover",
    ),
    "survival_test": Rule(
        N_("Survival test"),
        N_(
            "Roll D6 and compare it with the soldier's armour «Arm»: if his Arm is greater than or equal to the roll, "
            "he survives and fights on; if it is less, he dies and his figure is removed. When a rule asks for a D12 "
            "or D20 test, it is taken the same way with that die."
        ),
        "§5.3, p.21",
        "survival_die",
    ),
    "armour_test": Rule(
        N_("Armour test"),
        N_(
            "Mark the damage of the last attack, then roll the test's die against the vehicle's Armour, the number "
            "its strength slider points to: if the Armour is greater than or equal to the roll, it protected the "
            "pilot; if it is less, the pilot takes a D6 survival test, and if he fails he dies and the vehicle stays "
            "on the field without a pilot."
        ),
        "§6.6, p.25–26",
        "armour_test_after_damage",
    ),
    "emergency_landing": Rule(
        N_("Emergency landing"),
        N_(
            "If the pilot of a flying vehicle dies in flight, it makes an emergency landing: it is taken off its stand "
            "and laid where it was, and its owner rolls D6 for the damage it takes. While it is on the ground without "
            "a pilot, the enemy may shoot it and attack it in melee."
        ),
        "§4.3, p.19",
    ),
    "panic": Rule(
        N_("Panic"),
        N_(
            "If a survival test's roll equals the soldier's Arm, he survives but panics: he runs his Speed in steps "
            "toward the nearest edge of the field, going round what he cannot cross; a panicking pilot first leaves "
            "his vehicle. At the start of the next round he regains control; if his flight took him off the field, "
            "he is a deserter and does not come back."
        ),
        "§11.2, p.50–51",
        "panic_ends_actions",
    ),
    "move": Rule(
        N_("Movement of units"),
        N_(
            "A soldier spends 1 speed point per step (5 cm) on the flat, on stairs or a slope up to 45°; an obstacle "
            "up to half a step high is free, from half a step to a step costs 2; he climbs a wall at half speed, and "
            "moves a mobile gun at half speed. A vehicle moves only with a pilot, at the speed of the sector its "
            "strength slider is in: 1 point a step forward, backward, sideways and turns as its kind allows. A flying "
            "vehicle moves twice but never fights in melee."
        ),
        "§4.1–4.2, p.11–19",
        "obstacle_cost_additive",
    ),
    "jump": Rule(
        N_("Jump pack"),
        N_(
            "A soldier with a jump pack may jump once a round instead of walking, straight, in any direction; the "
            "jump's length plus its height, measured from where he took off, is at most the number beside «Jp». He "
            "cannot jump with a mobile gun, nor land where his figure cannot stand."
        ),
        "§9.4, p.44–48",
        "jump_downward_height",
    ),
    "repair": Rule(
        N_("Repair"),
        N_(
            "A soldier with «Rpr» touching a vehicle or gun, when no enemy touches him or it, repairs 1 damage "
            "instead of all his actions that round; a «Rpr» pilot repairs his own vehicle from inside, and the vehicle "
            "skips its turn. A HELIX with the repair platform restores 2 damage instead of its shot, to one object a "
            "round, itself too. A destroyed model cannot be repaired; a fallen one stands up only after at least 1 "
            "damage is repaired."
        ),
        "§9.3, §10.1, p.43–49",
        "repair_needs_idle_soldier",
    ),
    "capture": Rule(
        N_("Capture"),
        N_(
            "The player whose soldier is first to touch a vehicle left without a pilot may make him its new pilot, "
            "if his rank is high enough: it is his new unit, and next round he may send it into battle. A gun no "
            "soldier touches is captured by the first soldier to touch it, whatever his rank; if neither fired this "
            "round, he may fire it at once. The Armlist passes to the new owner with its sliders unchanged."
        ),
        "§9.1–9.2, p.42",
        "captured_acts_next_round",
    ),
    "tow": Rule(
        N_("Towing"),
        N_(
            "A HELIX with the repair-transport platform tows a vehicle or a mobile gun it touches with the rear edge "
            "of its platform: the towed model follows, touching it and moving the same distance; the HELIX's speed "
            "does not change. Its owner may stop towing at any moment."
        ),
        "§10.2, p.49",
    ),
    "ammo_refresh": Rule(
        N_("Refill ammo"),
        N_(
            "If the players wish, they may agree before the game to refill the ammo of vehicles and guns, for "
            "example once a game."
        ),
        "§6.5, §7.7, p.25, p.36",
        "ammo_refreshes",
    ),
    "initiative": Rule(
        N_("Initiative"),
        N_(
            "Every player rolls D12. The player with the highest result holds the initiative and decides the order in "
            "which the players act this round. If the highest results are equal, the rolls are repeated."
        ),
        "§3.1, p.9",
        "initiative_reroll",
    ),
    "deployment": Rule(
        N_("Deployment"),
        N_(
            "Each player picks an area at the edge of the field, at most 60 × 20 cm, and the players set up their "
            "armies in it unit by unit, preferably at least 60–70 cm from the nearest enemy."
        ),
        "§1.6, p.3–4",
        "deployment_order",
    ),
    "dispute": Rule(
        N_("Dispute roll"),
        N_("If you cannot agree, each of you rolls a die: the one whose result is higher has it his way."),
        "§12.2, p.51",
        "dispute_die",
    ),
    "answer": Rule(
        N_("The pilot's test"),
        N_(
            "If a shot did at least 1 damage to a vehicle, its pilot takes a D6 survival test, only once per shot; "
            "so does the pilot of a vehicle that lost a melee. In real shooting the armour test comes first. If the "
            "pilot of a flying vehicle dies in flight, its owner rolls D6 for the emergency landing."
        ),
        "§4.3, §7.4, §8.2, p.19, p.33, p.40",
        "pilot_tests",
    ),
    "order": Rule(
        N_("The order of play"),
        N_(
            "The initiative winner announces the order in which the players act. The first player picks a unit and "
            "acts with it, then the second does, and so on; then the turn comes back to the first player."
        ),
        "§3.2, p.10",
    ),
    "done": Rule(
        N_("A unit's turn"),
        N_(
            "A ground unit may move, shoot and enter melee, each at most once, in any order; a flying vehicle moves, "
            "shoots and moves. A squad acts soldier by soldier. When the unit has finished, its player turns its "
            "Armlist: it acts no more this round."
        ),
        "§3.2, p.10–11",
    ),
    "round": Rule(
        N_("The round"),
        N_("When every unit on the field has acted, the round ends; the next one begins with the initiative roll."),
        "§3.2, p.10",
    ),
    # Statuses on the cards ----------------------------------------------------------------------------------
    "lying": Rule(
        N_("Lying down"),
        N_(
            "Lying down, a gun cannot fire, and a vehicle can neither shoot, move nor attack in melee. Its owner may "
            "stand it up again only after repairing at least 1 damage."
        ),
        "§6.7, §9.3, p.26, p.44",
        "lying_vehicle_defence",
    ),
    "may_stand_up": Rule(
        N_("May stand up"),
        N_("A model knocked down by a hit may be stood up again once at least 1 of its damage has been repaired."),
        "§9.3, p.44",
    ),
    "in_melee": Rule(
        N_("In melee"),
        N_(
            "If nobody was destroyed in a melee, the models stay in contact, in melee; to leave it a model moves away "
            "from the enemy. Soldiers and vehicles touching an enemy cannot shoot until they stop touching."
        ),
        "§8.2, p.41",
        "shooting_ban",
    ),
    "panicked": Rule(
        N_("Panic"),
        N_(
            "A panicking soldier runs his Speed in steps toward the nearest edge of the field. At the start of the "
            "next round he regains control and may fight on."
        ),
        "§11.2, p.50–51",
        "panic_ends_actions",
    ),
    "deserted": Rule(
        N_("Deserter"),
        N_(
            "A soldier whose flight took him off the field is a deserter and does not come back for the rest of the game."
        ),
        "§11.2, p.51",
    ),
    "no_pilot": Rule(
        N_("No pilot"),
        N_(
            "Without a pilot a vehicle can neither shoot nor move: it stands frozen where it is until a new pilot "
            "boards it."
        ),
        "§1.6, §4.3, p.4, p.19",
    ),
    "flying": Rule(
        N_("Flying vehicles"),
        N_(
            "A flying vehicle stands on its stand: it moves, shoots and moves again, flies round whatever is higher "
            "than its stand, and never fights in melee."
        ),
        "§3.2, §4.2, p.11, p.19",
        "airborne_no_melee",
    ),
    "captured": Rule(
        N_("Captured"),
        N_("A captured vehicle is its captor's new unit: he may send it into battle next round."),
        "§9.1, p.42",
        "captured_acts_next_round",
    ),
    "on_foot": Rule(
        N_("On foot"),
        N_(
            "The pilot of a destroyed vehicle who stayed alive is set on the field where it stood, and a pilot may "
            "leave his vehicle: he fights on as an ordinary soldier."
        ),
        "§4.3, §5.1, p.19–20",
        "dismounted_pilot_rejoins_squad",
    ),
    "aiming": Rule(
        N_("Aimed fire"),
        N_(
            "A soldier who does nothing but shoot doubles his aimed range; the power stays the same, and grenades do "
            "not count. His player declares it before the shot: he neither moves nor attacks in melee this round."
        ),
        "§11.1, p.49–50",
    ),
    "pilot": Rule(
        N_("Pilot"),
        N_(
            "The soldiers chosen to drive vehicles do not act with their squad: they belong to their vehicles' "
            "units. A pilot's rank is at least the vehicle's."
        ),
        "§2.3, §3.2, p.7, p.11",
    ),
    "destroyed": Rule(
        N_("Destruction"),
        N_(
            "A vehicle or gun whose strength slider reaches 0 is destroyed and removed from the field. A soldier "
            "whose armour is pierced, or who falls from a hit in real shooting, is destroyed."
        ),
        "§5.1, p.20",
    ),
}
