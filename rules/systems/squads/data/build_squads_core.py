"""Builds the «Отряды» data pack (squads-core.json) from the book's text: its tables, as the book prints them.

Usage: python rules/systems/squads/data/build_squads_core.py [BOOK_FILE] [OUTPUT_FILE]
  BOOK_FILE defaults to /work/shared/seeds/squads-d6-rules.ru.txt, OUTPUT_FILE to squads-core.json next to this.

The book gives no unit lists and no points (L2: forces follow the balance agreed). It gives tables: training
levels, actions, cover, small arms and support weapons, personal and vehicle armour, vehicle damage. The pack
carries them under "tables", and profiles a roster is built from: a squad template per training level (its
figures, weapons and armour are the entry's options) and a vehicle template per armour class (the book's
examples as names). Pure standard library: no Django, no project imports, so it runs anywhere.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BOOK = Path("/work/shared/seeds/squads-d6-rules.ru.txt")
DEFAULT_OUTPUT = HERE / "squads-core.json"

# The book's names → the Latin slugs the code uses.
LEVEL_SLUGS = {"Рекрут": "recruit", "Рядовой": "regular", "Ветеран": "veteran", "Элита": "elite"}
ACTION_SLUGS = {
    "Ходьба": "walk",
    "Бег": "run",
    "Пригнуться": "crouch",
    "Защита": "on_guard",
    "Залечь": "go_to_ground",
    "Прицельный огонь": "aimed_fire",
    "Штурм": "assault",
}
COVER_SLUGS = {"Слабое": "light", "Среднее": "medium", "Сложное": "heavy"}
WEAPON_SLUGS = {
    "Пистолет/револьвер": "pistol",
    "Винтовка": "rifle",
    "Штурмовая винтовка/автомат": "assault_rifle",
    "Снайперская винтовка": "sniper_rifle",
    "Пистолет-пулемет": "smg",
    "Ручной пулемет": "lmg",
    "Дробовик": "shotgun",
    "Гранатомет": "grenade_launcher",
    "Тяжелый пулемет": "hmg",
    "Огнемет": "flamethrower",
    "Гранаты, бросок": "grenades",
    "РПГ": "rpg",
    "Легкое противотанковое ружье": "light_at_gun",
    "Легкий миномет": "light_mortar",
    "Легкая пушка": "light_cannon",
    "Тяжелая пушка": "heavy_cannon",
}
PERSONAL_SLUGS = {
    "Легкая": "light",
    "Средняя": "medium",
    "Тяжелая": "heavy",
    "Силовая": "power",
    "Боевой костюм": "battle_suit",
}
VEHICLE_SLUGS = {
    "Небронированная": "unarmoured",
    "Легкая": "light",
    "Средняя": "medium",
    "Тяжелая": "heavy",
    "Сверхтяжелая": "super_heavy",
}
DAMAGE_SLUGS = {
    "Экипаж оглушен": "crew_stunned",
    "Уничтожено оружие": "weapon_destroyed",
    "Потеря мобильности": "immobilised",
    "Транспортное средство уничтожено": "destroyed",
}
TYPOS = {"днедноут": "дредноут"}  # L74 (spec §5 B25)

DISTANCE = re.compile(r"(\d+)\s*дюйм\w*/\s*(\d+)\s*см")


def rows(lines: list[str], header: str, occurrence: int = 0) -> list[list[str]]:
    """The rows of the table under `header` (its `occurrence`-th appearance) up to the first non-table line."""
    starts = [i for i, line in enumerate(lines) if line.strip().startswith(header)]
    start = starts[occurrence] + 1
    out = []
    for line in lines[start:]:
        if "|" not in line or line.strip() == "|":
            break
        out.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return out


def distance(cell: str) -> list[int]:
    match = DISTANCE.search(cell)
    if not match:
        raise ValueError(f"no distance in {cell!r}")
    return [int(match[1]), int(match[2])]


def plus(cell: str) -> int:
    return int(cell.strip().rstrip("+").lstrip("+"))


def weapon_rows(lines: list[str], header: str, table: str, footnotes: dict[int, str]) -> list[dict]:
    out = []
    for name_cell, range_cell, dice_cell, *_ in rows(lines, header):
        marks = re.search(r"[\s*\d]*$", name_cell)[0]
        name = name_cell[: len(name_cell) - len(marks)].strip()
        notes = [int(d) for d in re.findall(r"\d", marks)]
        w = {"slug": WEAPON_SLUGS[name], "name": name, "table": table, "range": distance(range_cell),
             "dice": int(dice_cell.split("d")[0])}  # fmt: skip
        if notes:
            w["footnotes"] = [footnotes[n] for n in notes]
        if "*" in marks:
            w["footnotes"] = [footnotes["*"]]
        out.append(w)
    return out


def parse_book(text: str) -> dict:
    """The book's tables as data (spec §2–§3)."""
    lines = text.splitlines()
    footnotes: dict = {}
    for line in lines:
        match = None if "|" in line else re.match(r"^(\d)\s*[–-]\s*(.+)$", line.strip())
        if match:
            footnotes[int(match[1])] = match[2].strip()
        if line.startswith("* -"):
            footnotes["*"] = line[3:].strip()
    training = []
    for name, activation, expertise, *rest in rows(lines, "Уровень | Активация"):
        suppression = rest[0] if rest and rest[0] else None  # the column is blank in the book (§5 B1)
        training.append({"slug": LEVEL_SLUGS[name], "name": name, "activation": plus(activation),
                         "expertise": plus(expertise), "suppression": suppression})  # fmt: skip
    actions = [
        {"slug": ACTION_SLUGS[name], "name": name, "move": distance(move), "notes": notes}
        for name, move, notes, *_ in rows(lines, "Действие | Движение")
    ]
    cover = [
        {"slug": COVER_SLUGS[name], "name": name, "modifier": plus(mod), "examples": examples}
        for name, mod, examples, *_ in rows(lines, "Укрытие | Модификатор")
    ]
    cap_line = next(line for line in lines if line.startswith("Модификатор укрытия не может"))

    def armour(occurrence: int, slugs: dict) -> list[dict]:
        out = []
        for name, save, examples, *_ in rows(lines, "Тип брони | Спасбросок", occurrence):
            for wrong, right in TYPOS.items():
                examples = examples.replace(wrong, right)
            out.append({"slug": slugs[name], "name": name, "save": plus(save), "examples": examples})
        return out

    damage = []
    values = list(range(1, 7))
    for cells in rows(lines, "Бросок кубика | Эффект"):
        first = cells[0]
        numbered = re.fullmatch(r"(\d)-(\d)", first)
        effect_text = cells[1] if numbered else first
        slug = next(s for name, s in DAMAGE_SLUGS.items() if effect_text.startswith(name))
        if numbered:
            rolled = list(range(int(numbered[1]), int(numbered[2]) + 1))
            source = "book"
        else:
            rolled = [values[0]]  # the number was lost (L88–89): the next value left, by elimination (§5 B17)
            source = "elimination"
        for v in rolled:
            values.remove(v)
        damage.append({"slug": slug, "values": rolled, "text": effect_text, "values_from": source})
    return {
        "training": training,
        "actions": actions,
        "cover": cover,
        "cover_cap": {"hit_number": 6, "text": cap_line},
        "small_arms": weapon_rows(lines, "Ручное оружие | Дальность", "small_arms", footnotes),
        "support": weapon_rows(lines, "Оружие поддержки | Дальность", "support", footnotes),
        "personal_armour": armour(0, PERSONAL_SLUGS),
        "vehicle_armour": armour(1, VEHICLE_SLUGS),
        "vehicle_damage": damage,
    }


FACTIONS = [{"slug": "any", "name": "Любая сторона", "colour": "", "joins_any": True}]
# The pack's words are English msgids: the pack page shows them in the reader's language, the Russian in this
# system's catalogue (locale/ru; the provenance under the context "pack provenance"). No Russian in the English:
# an English reader gets English, a Russian reader the book's words.
PROVENANCE = {
    "source": "«Отряды»: a Russian translation of FUBAR, one-page rules for small units.",
    "converted_by": "rules/systems/squads/data/build_squads_core.py",
    "faithful": [
        "training levels with their activation and experience numbers",
        "the seven actions with their moves, cover modifiers and the 6+ cap",
        "every weapon of both tables with range in inches and cm, fire points and footnotes",
        "personal and vehicle armour saves with the book's examples",
    ],
    "inferred": {
        "suppression": "The Suppression column is blank: the caps are settings (§5 B1; FUBAR gives 1/2/3/4).",
        "damage_rows": "Rows 5 and 6 of the damage table lost their numbers: assigned by elimination (§5 B17).",
        "profiles": "The book has no unit lists and no points: one squad template per training level and one "
        "vehicle template per armour class, named by the book's examples; the player builds the figures.",
        "typos": "The typo of L74 is read as «dreadnought» (§5 B25).",
    },
}
VEHICLE_ARMOUR_WORDS = {  # the English of the vehicle armour classes (names.py), for the notes
    "unarmoured": "Unarmoured",
    "light": "Light",
    "medium": "Medium",
    "heavy": "Heavy",
    "super_heavy": "Super-heavy",
}


def profiles(tables: dict) -> list[dict]:
    out = []
    for level in tables["training"]:
        out.append({
            "slug": f"squad-{level['slug']}",
            "name": f"Отряд: {level['name']}",
            "faction": "any",
            "kind": "squad",
            "cost": 0,
            "data": {"level": level["slug"]},
            "notes": f"Activation {level['activation']}+, experience {level['expertise']}+. Figures, weapons and "
            "armour are chosen in the entry.",
        })  # fmt: skip
    for armour in tables["vehicle_armour"]:
        out.append({
            "slug": f"vehicle-{armour['slug'].replace('_', '-')}",
            "name": f"ТС: {armour['examples']}",
            "faction": "any",
            "kind": "vehicle",
            "cost": 0,
            "data": {"armour": armour["slug"]},
            "notes": f"Armour «{VEHICLE_ARMOUR_WORDS[armour['slug']]}», save {armour['save']}+. Crew and weapons are "
            "chosen in the entry.",
        })  # fmt: skip
    return out


def build(text: str) -> dict:
    tables = parse_book(text)
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "squads",
        "slug": "squads-core",
        "name": "Отряды: таблицы правил",
        "source": PROVENANCE["source"],
        "factions": FACTIONS,
        "provenance": PROVENANCE,
        "profiles": profiles(tables),
        "tables": tables,
    }


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else DEFAULT_BOOK
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    pack = build(book.read_text(encoding="utf-8"))
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{output}: {len(pack['profiles'])} profiles")


if __name__ == "__main__":
    main(sys.argv)
