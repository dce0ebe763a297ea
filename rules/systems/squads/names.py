"""The book's names in the reader's language (issue #16): tables.py keeps the book's Russian words as data (the
packs and the glossary hold them); a screen shows these English msgids, whose Russian translations in
locale/ru are exactly the book's words (tests/test_russian.py holds the two equal)."""

from __future__ import annotations

from rules.i18n import N_, _

LEVELS = {
    "recruit": N_("Recruit"),
    "regular": N_("Regular"),
    "veteran": N_("Veteran"),
    "elite": N_("Elite"),
}
WEAPONS = {
    "pistol": N_("Pistol/revolver"),
    "rifle": N_("Rifle"),
    "assault_rifle": N_("Assault rifle/submachine gun"),
    "sniper_rifle": N_("Sniper rifle"),
    "smg": N_("Machine pistol"),
    "lmg": N_("Light machine gun"),
    "shotgun": N_("Shotgun"),
    "grenade_launcher": N_("Grenade launcher"),
    "hmg": N_("Heavy machine gun"),
    "flamethrower": N_("Flamethrower"),
    "grenades": N_("Grenades, thrown"),
    "rpg": N_("RPG"),
    "light_at_gun": N_("Light anti-tank rifle"),
    "light_mortar": N_("Light mortar"),
    "light_cannon": N_("Light cannon"),
    "heavy_cannon": N_("Heavy cannon"),
}
ACTIONS = {
    "walk": N_("Walk"),
    "run": N_("Run"),
    "crouch": N_("Crouch"),
    "on_guard": N_("On Guard"),
    "go_to_ground": N_("Go to ground"),
    "aimed_fire": N_("Aimed Fire"),
    "assault": N_("Assault"),
}
# L77: how a vehicle moves, and what it may fire then
VEHICLE_MOVES = {
    "stationary": N_("Stationary: fires all its weapons"),
    "open": N_("In the open: fires one weapon"),
    "light_cover": N_("Through light cover: fires one weapon"),
    "medium_cover": N_("Through medium cover (medium and heavy tanks): no fire"),
}
STANCES = {"withdrew": N_("Retreats")}  # L25: a failed activation with more than half lost
PERSONAL_ARMOUR = {
    "none": N_("No armour"),
    "light": N_("Light armour"),
    "medium": N_("Medium armour"),
    "heavy": N_("Heavy armour"),
    "power": N_("Power armour"),
    "battle_suit": N_("Battle suit"),
}
VEHICLE_ARMOUR = {
    "unarmoured": N_("Unarmoured"),
    "light": N_("Light vehicle armour"),
    "medium": N_("Medium vehicle armour"),
    "heavy": N_("Heavy vehicle armour"),
    "super_heavy": N_("Super-heavy vehicle armour"),
}
COVER = {
    "none": N_("No cover"),
    "light": N_("Light cover"),
    "medium": N_("Medium cover"),
    "heavy": N_("Heavy cover"),
}
DAMAGE = {
    "crew_stunned": N_("Crew stunned"),
    "weapon_destroyed": N_("Weapon destroyed"),
    "immobilised": N_("Loss of mobility"),
    "destroyed": N_("Vehicle destroyed"),
}


def _name(table: dict, key) -> str:
    return _(table[key]) if key in table else str(key)


def level(key: str) -> str:
    return _name(LEVELS, key)


def weapon(key: str) -> str:
    return _name(WEAPONS, key)


def action(key: str) -> str:
    """A squad's action, a vehicle's move or a stance the rules give (a retreat)."""
    for table in (ACTIONS, VEHICLE_MOVES, STANCES):
        if key in table:
            return _(table[key])
    return str(key)


def armour(key: str) -> str:
    return _name(PERSONAL_ARMOUR, key)


def vehicle_armour(key: str) -> str:
    return _name(VEHICLE_ARMOUR, key)


def cover(key: str) -> str:
    return _name(COVER, key)


def damage(key: str) -> str:
    return _name(DAMAGE, key)


# The purposes of the dice, as the log keeps them: each a whole msgid, so that a die rolled in one language is named
# in the reader's (battles/selectors.die_label translates "<msgid> 1 of 3" and "<msgid>: <name>" part by part).
FIRE_DICE = {
    "pistol": N_("fire die (Pistol/revolver)"),
    "rifle": N_("fire die (Rifle)"),
    "assault_rifle": N_("fire die (Assault rifle/submachine gun)"),
    "sniper_rifle": N_("fire die (Sniper rifle)"),
    "smg": N_("fire die (Machine pistol)"),
    "lmg": N_("fire die (Light machine gun)"),
    "shotgun": N_("fire die (Shotgun)"),
    "grenade_launcher": N_("fire die (Grenade launcher)"),
    "hmg": N_("fire die (Heavy machine gun)"),
    "flamethrower": N_("fire die (Flamethrower)"),
    "grenades": N_("fire die (Grenades, thrown)"),
    "rpg": N_("fire die (RPG)"),
    "light_at_gun": N_("fire die (Light anti-tank rifle)"),
    "light_mortar": N_("fire die (Light mortar)"),
    "light_cannon": N_("fire die (Light cannon)"),
    "heavy_cannon": N_("fire die (Heavy cannon)"),
}
ARMOUR_SAVES = {
    "light": N_("save 6+ (Light armour)"),
    "medium": N_("save 5+ (Medium armour)"),
    "heavy": N_("save 4+ (Heavy armour)"),
    "power": N_("save 3+ (Power armour)"),
    "battle_suit": N_("save 2+ (Battle suit)"),
}
VEHICLE_SAVES = {
    6: N_("vehicle save 6+"),
    5: N_("vehicle save 5+"),
    4: N_("vehicle save 4+"),
    3: N_("vehicle save 3+"),
    2: N_("vehicle save 2+"),
}
SIDE_DAMAGE_DIE = N_("damage die, hit in the side")
DAMAGE_DICE = {  # (facing, die of the pair, a re-roll of doubles)
    ("front", 1, False): N_("damage die 1 of 2, hit in the front"),
    ("front", 2, False): N_("damage die 2 of 2, hit in the front"),
    ("front", 1, True): N_("damage die 1 of 2, hit in the front, re-rolled"),
    ("front", 2, True): N_("damage die 2 of 2, hit in the front, re-rolled"),
    ("rear", 1, False): N_("damage die 1 of 2, hit in the rear"),
    ("rear", 2, False): N_("damage die 2 of 2, hit in the rear"),
    ("rear", 1, True): N_("damage die 1 of 2, hit in the rear, re-rolled"),
    ("rear", 2, True): N_("damage die 2 of 2, hit in the rear, re-rolled"),
}
MELEE_DICE = {  # (wave, side)
    (1, "attacker"): N_("melee die, wave 1 (the attacker)"),
    (1, "defender"): N_("melee die, wave 1 (the defender)"),
    (2, "attacker"): N_("melee die, wave 2 (the attacker)"),
    (2, "defender"): N_("melee die, wave 2 (the defender)"),
}
MELEE_SAVES = {
    (1, "attacker"): N_("save, the attacker, wave 1"),
    (1, "defender"): N_("save, the defender, wave 1"),
    (2, "attacker"): N_("save, the attacker, wave 2"),
    (2, "defender"): N_("save, the defender, wave 2"),
}
RUN_OVER_SAVE = N_("save against the vehicle (run over)")
INITIATIVE_DIE = N_("initiative")


def numbered(purpose: str, i: int, count: int) -> str:
    """A die of a series ("damage die, hit in the side 2 of 3"), as the generic dice number them (rules/dice.py)."""
    return _("{purpose} {i} of {count}").format(purpose=_(purpose), i=i, count=count)


def whose(purpose: str, who: str) -> str:
    """A die of someone ("activation roll: Отряд: Ветераны"): the name stays as it is, the rest is a msgid."""
    return f"{_(purpose)}: {who}"  # the log's pattern (battles/selectors.py _WHO): "<what>: <who>"
