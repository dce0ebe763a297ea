"""The book's tables as Python data (spec §2, §3), and the exact probabilities built on them.

Every number here is printed in the book (line numbers L.. of seeds/squads-d6-rules.ru.txt) except where a
comment says it comes from the spec's reading (§5 B..). The same tables ship as data in data/squads-core.json,
built from the book's text by data/build_squads_core.py; a test holds the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

FACES = 6
LEVELS = ("recruit", "regular", "veteran", "elite")


@dataclass(frozen=True)
class Level:
    key: str
    name: str  # the book's word
    activation: int  # d6 >= this activates (L5–8 «Активация»)
    expertise: int  # d6 >= this hits (L5–8 «Опыт», §5 B2)


# L4–8 «Подготовка/опыт отряда». The «Подавление» column is blank in the book: see settings (§5 B1).
TRAINING = {
    "recruit": Level("recruit", "Рекрут", 5, 6),
    "regular": Level("regular", "Рядовой", 4, 5),
    "veteran": Level("veteran", "Ветеран", 3, 4),
    "elite": Level("elite", "Элита", 2, 4),
}
SUPPRESSION_CAP_SETTING = {level: f"suppression_cap_{level}" for level in LEVELS}


@dataclass(frozen=True)
class Weapon:
    key: str
    name: str
    table: str  # "small_arms" («Ручное оружие») | "support" («Оружие поддержки»)
    range_in: int
    range_cm: int
    dice: int  # fire points: this many d6, each checked on its own (§2.2)
    ignores_cover: bool = False  # footnote 2 (L65): flamethrowers and tank cannons
    indirect: bool = False  # footnote 3 (L66): mortars fire without line of sight
    crew_infantry: int = 1  # footnote 1 (L64): an infantry HMG needs two men
    thrown: bool = False  # grenades may be thrown during Walk (L18)


WEAPONS = {
    w.key: w
    for w in (
        # L45–54 «Ручное оружие»
        Weapon("pistol", "Пистолет/револьвер", "small_arms", 8, 20, 1),
        Weapon("rifle", "Винтовка", "small_arms", 24, 60, 1),
        Weapon("assault_rifle", "Штурмовая винтовка/автомат", "small_arms", 24, 60, 1),
        Weapon("sniper_rifle", "Снайперская винтовка", "small_arms", 32, 80, 2),
        Weapon("smg", "Пистолет-пулемет", "small_arms", 16, 40, 3),
        Weapon("lmg", "Ручной пулемет", "small_arms", 32, 80, 3),
        Weapon("shotgun", "Дробовик", "small_arms", 8, 20, 3),
        Weapon("grenade_launcher", "Гранатомет", "small_arms", 16, 40, 3),
        # L55–66 «Оружие поддержки»
        Weapon("hmg", "Тяжелый пулемет", "support", 32, 80, 4, crew_infantry=2),
        Weapon("flamethrower", "Огнемет", "support", 8, 20, 4, ignores_cover=True),
        Weapon("grenades", "Гранаты, бросок", "support", 8, 20, 3, thrown=True),
        Weapon("rpg", "РПГ", "support", 24, 60, 3),
        Weapon("light_at_gun", "Легкое противотанковое ружье", "support", 32, 80, 3),
        Weapon("light_mortar", "Легкий миномет", "support", 40, 100, 3, indirect=True),
        Weapon("light_cannon", "Легкая пушка", "support", 32, 80, 4, ignores_cover=True),
        Weapon("heavy_cannon", "Тяжелая пушка", "support", 48, 120, 6, ignores_cover=True),
    )
}
# L54: «Штурмовая винтовка/автомат получает 2d6 при дальности 12 дюймов/ 30 см» (read as "at 12" or closer").
ASSAULT_RIFLE_CLOSE = {"in": 12, "cm": 30}
ASSAULT_RIFLE_CLOSE_DICE = 2
SMALL_ARMS = tuple(k for k, w in WEAPONS.items() if w.table == "small_arms")
# L84 «стрелковое оружие» read as "firearms": the small-arms table without the grenade launcher (§5 B18 choice).
FIREARMS = tuple(k for k in SMALL_ARMS if k != "grenade_launcher")


@dataclass(frozen=True)
class Armour:
    key: str
    name: str
    save: int | None  # d6 >= this saves; None: no save
    examples: str = ""


# L67–74 «Личная броня». "none" is implied: a figure without armour has no save.
PERSONAL_ARMOUR = {
    a.key: a
    for a in (
        Armour("none", "Без брони", None),
        Armour("light", "Легкая", 6, "Обычный бронежилет, полицейский бронежилет"),
        Armour("medium", "Средняя", 5, "Усиленный бронежилет спецназа"),
        Armour("heavy", "Тяжелая", 4, "Высокотехнологичный бронежилет"),
        Armour("power", "Силовая", 3, "Силовая броня, экзоскелет"),
        Armour("battle_suit", "Боевой костюм", 2, "Тактический дредноут"),  # L74 «днедноут»: a typo (§5 B25)
    )
}
# L78–83 vehicle armour.
VEHICLE_ARMOUR = {
    a.key: a
    for a in (
        Armour("unarmoured", "Небронированная", 6, "Грузовики, Автомобили, Механизмы"),
        Armour("light", "Легкая", 5, "БТР, Бронеавтомобили"),
        Armour("medium", "Средняя", 4, "Легкие танки, БМП"),
        Armour("heavy", "Тяжелая", 3, "Средние танки"),
        Armour("super_heavy", "Сверхтяжелая", 2, "Тяжелые танки"),
    )
}
ARMOURED_SAVE = 5  # L84 «бронетехнике (спасбросок 5+)»: save 5+ or better is armoured (§5 B18)

# L34–38 «Укрытие»: modifier added to the shooter's hit number; the number never goes past 6+ (L38).
COVER = {"none": 0, "light": 1, "medium": 2, "heavy": 3}
COVER_NAMES = {"none": "Нет", "light": "Слабое", "medium": "Среднее", "heavy": "Сложное"}
HIT_CAP = 6

# L17–24: the seven actions after a successful activation: move (in, cm), may the unit fire.
ACTIONS = ("walk", "run", "crouch", "on_guard", "go_to_ground", "aimed_fire", "assault")
ACTION_NAMES = {
    "walk": "Ходьба",
    "run": "Бег",
    "crouch": "Пригнуться",
    "on_guard": "Защита",
    "go_to_ground": "Залечь",
    "aimed_fire": "Прицельный огонь",
    "assault": "Штурм",
}
MOVES = {
    "walk": (6, 15),
    "run": (12, 30),
    "crouch": (8, 20),
    "on_guard": (0, 0),
    "go_to_ground": (3, 8),
    "aimed_fire": (0, 0),
    "assault": (8, 20),
}
NO_FIRE_ACTIONS = ("run", "crouch", "go_to_ground")  # L19, L20, L22 «не может вести стрельбу»

# Distances of the text, (inches, cm) (spec §0 table).
COHERENCY = (3, 8)  # L2
COVER_EDGE = (2, 5)  # L28
SAME_COVER = (6, 15)  # L28 (no cm in the book; the spec's 15 cm)
MELEE_REACH = (3, 8)  # L42
FAILED_WITHDRAWAL = (6, 15)  # L25
WITHDRAW_CM_PER_PIP = Fraction(5, 2)  # L42 «1d6 дюймов»: d6 x 2.5 cm in cm mode (spec §0)

# L77 vehicle moves: (inches, cm), how many weapons may fire (None: all).
VEHICLE_MOVES = {
    "stationary": ((0, 0), None),
    "open": ((12, 30), 1),
    "light_cover": ((6, 15), 1),
    "medium_cover": ((6, 15), 0),  # medium and heavy tanks only, no fire
}
CREW_STUN_PENALTY = 2  # L86

# L85–89 damage table; rows 5 and 6 lost their numbers (§5 B17: by elimination).
DAMAGE = {
    1: "crew_stunned",
    2: "crew_stunned",
    3: "weapon_destroyed",
    4: "weapon_destroyed",
    5: "immobilised",
    6: "destroyed",
}
DAMAGE_NAMES = {
    "crew_stunned": "Экипаж оглушен",
    "weapon_destroyed": "Уничтожено оружие",
    "immobilised": "Потеря мобильности",
    "destroyed": "Транспортное средство уничтожено",
}
FACINGS = ("front", "side", "rear")


def distance_units(settings: dict) -> int:
    """0 for inches, 1 for cm: the index into the (in, cm) pairs."""
    return 1 if settings.get("units", "in") == "cm" else 0


def unit_word(settings: dict) -> str:
    return "cm" if distance_units(settings) else '"'


def weapon_range(weapon: Weapon, settings: dict) -> int:
    return weapon.range_cm if distance_units(settings) else weapon.range_in


def fire_dice(weapon: Weapon, distance, settings: dict) -> int:
    """Fire points at this distance (L46–63, the assault rifle's 2 dice at 12"/30 cm, L54)."""
    if weapon.key == "assault_rifle":
        close = ASSAULT_RIFLE_CLOSE["cm" if distance_units(settings) else "in"]
        if distance <= close:
            return ASSAULT_RIFLE_CLOSE_DICE
    return weapon.dice


def suppression_cap(level: str, settings: dict) -> int:
    return int(settings.get(SUPPRESSION_CAP_SETTING[level], 0))


# Exact probabilities ------------------------------------------------------------------------------------
def p_at_least(need: int) -> Fraction:
    """P(d6 >= need), clamped to [0, 1]."""
    return Fraction(max(0, min(FACES, FACES + 1 - need)), FACES)


def hit_need(expertise: int, cover: int, aimed: bool, settings: dict) -> int:
    """The number a die must show to hit (§3.5, §5 B5): cover is capped at 6+, aimed fire adds +1 to the die.

    cap_then_aim: need = min(6, expertise + cover), then +1 to the die, i.e. the die needs need - 1.
    aim_then_cap: need = min(6, expertise + cover - 1): aim lowers the uncapped number first."""
    bonus = 1 if aimed else 0
    if settings.get("aimed_cap_order", "cap_then_aim") == "aim_then_cap":
        return min(HIT_CAP, expertise + cover - bonus)
    return min(HIT_CAP, expertise + cover) - bonus


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """Exact Binomial(n, p) as {k: P}."""
    p = Fraction(p)
    out = {}
    for k in range(n + 1):
        value = comb(n, k) * p**k * (1 - p) ** (n - k)
        if value:
            out[k] = value
    return out


def damage_die_distribution(facing: str, settings: dict) -> dict[int, Fraction]:
    """The vehicle damage die by facing (L90, §5 B16): side one die; front and rear two dice, doubles re-rolled
    (or kept), the front taking the lower (milder) result and the rear the higher (or the other way round)."""
    if facing == "side":
        return {v: Fraction(1, 6) for v in range(1, 7)}
    reroll = settings.get("facing_doubles", "reroll") == "reroll"
    front_low = settings.get("facing_best", "front_lower") == "front_lower"
    take_low = (facing == "front") == front_low
    counts: dict[int, int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            if reroll and a == b:
                continue
            v = min(a, b) if take_low else max(a, b)
            counts[v] = counts.get(v, 0) + 1
    total = sum(counts.values())
    return {v: Fraction(c, total) for v, c in sorted(counts.items()) if c}


def damage_effect_probabilities(facing: str, settings: dict) -> dict[str, Fraction]:
    """P(each damage-table effect) for one unsaved hit."""
    out = dict.fromkeys(DAMAGE_NAMES, Fraction(0))
    for value, p in damage_die_distribution(facing, settings).items():
        out[DAMAGE[value]] += p
    return out
