"""The book's own words for «Отряды» (seeds/squads-d6-rules.ru.txt), keyed by the English term the code uses.

The interface shows these, not translations of the English spec. Where the book has no word (a figure out of
coherency, facing arcs' names as nouns) the nearest phrase of the text is used; the line is given.
"""

from rules.systems.squads import tables

GLOSSARY = {
    "game": "Отряды",
    # unit kinds (L1, L75)
    "squad": "отряд",
    "figure": "фигура",
    "leader": "лидер",
    "vehicle": "транспортное средство",
    "vehicle.short": "ТС",
    "armoured_vehicle": "бронетехника",
    "crew": "экипаж",
    "passenger": "пассажир",
    "hmg_crew": "расчет",
    # stats (L3–8, L43–74)
    "training": "подготовка/опыт отряда",
    "level": "уровень подготовки",
    "activation": "активация",
    "expertise": "опыт",
    "suppression": "подавление",
    "weapon": "оружие",
    "small_arms": "ручное оружие",
    "support_weapons": "оружие поддержки",
    "range": "дальность",
    "fire_points": "очки стрельбы",
    "armour": "броня",
    "armour_type": "тип брони",
    "personal_armour": "личная броня",
    "save": "спасбросок",
    "cover": "укрытие",
    "cover_modifier": "модификатор укрытия",
    # levels (L5–8)
    **{f"level.{k}": v.name for k, v in tables.TRAINING.items()},
    # statuses (L25–31, L42, L86–88)
    "suppressed": "подавлена",
    "casualty": "боевые потери",
    "hit": "хит",
    "on_guard": "Защита",
    "in_melee": "ближний бой",
    "crew_stunned": "экипаж оглушен",
    "immobilised": "потеря мобильности",
    "destroyed": "уничтожено",
    "weapon_destroyed": "уничтожено оружие",
    "line_of_sight": "линия прямой видимости",
    "deployment_point": "точка высадки",
    "out_of_coherency": "фигура вне досягаемости отряда",
    # turn (L9–12)
    "turn": "ход",
    "initiative": "инициатива",
    "scenario_modifiers": "модификаторы сценария",
    # the seven actions (L17–24) and the other procedures
    **{f"action.{k}": v for k, v in tables.ACTION_NAMES.items()},
    "shooting": "стрельба",
    "split_fire": "разделить огонь",
    "melee": "ближний бой",
    "withdrawal": "вывести отряд из ближнего боя",
    "pursuit": "проследовать за отступающим отрядом",
    "retreat": "отступает",
    "overrun": "раздавить пехоту",
    # tables (L4, L34, L45, L55, L67, L78, L85)
    "table.training": "Подготовка/опыт отряда",
    "table.cover": "Укрытие",
    "table.small_arms": "Ручное оружие",
    "table.support": "Оружие поддержки",
    "table.personal_armour": "Личная броня",
    "table.vehicle_armour": "Тип брони",
    "table.damage": "Бросок кубика | Эффект",
    # cover types (L35–37)
    **{f"cover.{k}": v for k, v in tables.COVER_NAMES.items() if k != "none"},
    # outcomes (L85–90)
    **{f"damage.{k}": v for k, v in tables.DAMAGE_NAMES.items()},
    "facing.front": "в лоб",
    "facing.side": "в борт",
    "facing.rear": "в корму",
    # weapons and armour as the book writes them
    **{f"weapon.{k}": w.name for k, w in tables.WEAPONS.items()},
    **{f"armour.{k}": a.name for k, a in tables.PERSONAL_ARMOUR.items()},
    **{f"vehicle_armour.{k}": a.name for k, a in tables.VEHICLE_ARMOUR.items()},
}
