"""Builds the example pack of «Звездный Десант» from the demo rules' own text.

Usage: python rules/systems/zvezdny_desant/data/build_demo_examples.py [BOOK_FILE] [OUTPUT_FILE]
  BOOK_FILE defaults to /work/shared/seeds/zvezdny-desant-demo-rules.ru.md, OUTPUT_FILE to demo-examples.json next
  to this script.

The demo prints no ЛБХ (the cards ship with the miniatures, L29, L754): no unit, weapon or cost tables. The only
profile numbers are those of its worked examples. This script finds each of them in the text (it fails if the text
changed) and builds two EXAMPLE units from them, labelled as such; every value the text does not give is null or,
where a rule needs a number, the smallest the rules allow, listed under provenance.inferred.
Pure standard library: no Django, no project imports, so it runs anywhere.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BOOK = Path("/work/shared/seeds/zvezdny-desant-demo-rules.ru.md")
DEFAULT_OUTPUT = HERE / "demo-examples.json"

# Each number: (name, pattern whose group 1 is the number, what it is). The line is found in the text. The pack is
# data shown as it is on every page: its words are the book's language, Russian.
NUMBERS = {
    "pdv": (r"Фигурка с «ПДВ» равной «(\d+)»", "ПДВ фигурки в примере про ландшафт"),
    "dln": (r"Автомат имеет параметр «Длн» равный «(\d+)»", "«Длн» автомата"),
    "hrk": (r"«ХРК: (В\d+)»", "«Хрк» оружия в примере Теста на Ранение"),
    "stk_three": (r"«СТК» равно (\d+)\.", "«СТК» в первом примере удаления погибших"),
    "stk_two": (r"имеют «СТК: (\d+)»", "«СТК» в примере про фигурки вне линии обзора"),
    "bsp": (r"с «БСП:(\d+)»", "«БСП» в примере ближнего боя"),
    "forcer_strikes": (r"наносят не «1» удар, а «(\d+)»", "удары фигурки штурмового звена форсеров"),
    "army_limit": (r"Максимальная стоимость армии – (\d+) очков", "предел стоимости армии в «Стычке»"),
}


def find_numbers(text: str) -> dict[str, tuple[str, int]]:
    """{name: (value, line number)}; raises when the book no longer says it."""
    lines = text.splitlines()
    found = {}
    for name, (pattern, what) in NUMBERS.items():
        for number, line in enumerate(lines, start=1):
            match = re.search(pattern, line)
            if match:
                found[name] = (match.group(1), number)
                break
        else:
            raise SystemExit(f"Not found in the book: {what} ({pattern!r})")
    return found


# Where the book speaks of costs, points or the ЛБХ: every such line is listed in the provenance with the numbers it
# prints, so a reader sees that no figure, weapon or upgrade cost is among them (they are on the ЛБХ, L754).
COST_WORDS = re.compile(r"стоим|\bочк|ЛБХ|Листах Боевых", re.IGNORECASE)
COST_LINES = {  # what each line's numbers are; a line the book gains or changes here makes the script fail
    "Стоимость** – показывает": "что такое «Стоимость» фигурки; чисел нет",
    "Дополнительная стоимость.": "у оружия и расширений может быть дополнительная стоимость; чисел нет",
    "Все они указаны в «Листах": "все характеристики — в ЛБХ, что идут с фигурками; чисел нет",
    "командных очков, которое он может": "командные очки на ход зависят от стоимости армии; чисел нет",
    "потратить на него часть своих командных": "инициатива стоит командных очков; чисел нет",
    "Инициатива подразделения равна": "инициатива = потраченные командные очки; чисел нет",
    "не может потратить 11 очков": "командные очки, а не очки армии: 11 и 10",
    "уже потратил все свои командные": "инициатива «0», когда командные очки потрачены",
    "превышающую количество его командных": "перерасход командных очков урезает противник; чисел нет",
    "Игрок обязан распределить все": "все командные очки должны быть потрачены; чисел нет",
    "## Инициатива и командные очки": "заголовок",
    "Максимальная стоимость армии – 500": "предел армии в «Стычке» 500 и ее 10 командных очков",
    "на доступные ему игровые очки": "армию набирают, покупая подразделения за очки; чисел нет",
    "Стоимость армии складывается": "стоимость армии = стоимость подразделений = фигурки + оружие + расширения; чисел нет",
    "Стоимость фигурок, оружия и расширений": "стоимость фигурок, оружия и расширений — в ЛБХ подразделения; чисел нет",
    "армия не должна стоить 501": "снова предел: 501 — слишком много, 500 и 499 можно",
    "основной критерий здесь – ее максимальная общая стоимость": "предельная стоимость армии задается форматом; чисел нет",
    "набрал больше победных очков": "победителя решают победные очки; чисел нет",
    "Победные очки подсчитываются": "победные очки подсчитываются в конце; чисел нет",
    "равное полной стоимости уничтоженного": "уничтоженное подразделение дает свою полную стоимость в победных очках; чисел нет",
    "игрок получает количество очков равное": "½ стоимости за подразделение, потерявшее более ½ фигурок (дроби ½)",
    "Каждый спутник считается отдельным": "спутник — отдельное подразделение: его полная стоимость в победных очках; чисел нет",
}


def cost_lines(text: str) -> list[str]:
    """Every line of the book about costs, points or the ЛБХ: its number, the numbers it prints, what they are."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not COST_WORDS.search(line):
            continue
        what = next((w for key, w in COST_LINES.items() if key.lower() in line.lower()), None)
        if what is None:
            raise SystemExit(f"L{number} speaks of costs and is not accounted for: {line[:80]!r}")
        digits = re.findall(r"\d+", line)
        out.append(f"L{number}: {what}" + (f" (в строке числа {', '.join(digits)})" if digits else ""))
    return out


def build(text: str) -> dict:
    n = find_numbers(text)

    def num(key: str) -> int:
        return int(n[key][0])

    def line(key: str) -> str:
        return f"L{n[key][1]}"

    rifle = {"key": "avtomat", "name": "Автомат", "dln": num("dln"), "skr": 1, "msch": 1, "hrk": n["hrk"][0],
             "cost": None}  # fmt: skip
    figure = {"pdv": num("pdv"), "kbr": n["hrk"][0][0], "bsp": num("bsp"), "ldr": None, "cost": None,
              "min": 1, "max": 10, "default": 5, "weapons": ["avtomat"]}  # fmt: skip
    sources = f"ПДВ {line('pdv')}, КБР и Хрк {line('hrk')}, БСП {line('bsp')}, Длн {line('dln')}"
    humans = {
        "slug": "pehotincy-primer",
        "name": "Пехотинцы человеческих вооруженных сил (пример)",
        "faction": "humans",
        "kind": "infantry",
        "cost": 0,
        "data": {
            "example": True,
            "strikes_per_figure": 1,
            "wounds_per_strike": 1,
            "figures": [{"key": "pehotinec", "name": "Пехотинец", "stk": num("stk_two"), **figure}],
            "weapons": [rifle],
            "upgrades": [],
        },
        "notes": f"ПРИМЕР, а не ЛБХ: числа из примеров демо-правил ({sources}, СТК {line('stk_two')}). "
        "Стоимостей в демо-версии нет: впишите их со своей карточки.",
    }
    forcers = {
        "slug": "shturmovoe-zveno-forserov-primer",
        "name": "Штурмовое звено форсеров (пример)",
        "faction": "forcers",
        "kind": "infantry",
        "cost": 0,
        "data": {
            "example": True,
            "strikes_per_figure": num("forcer_strikes"),
            "wounds_per_strike": 1,
            "figures": [{"key": "forser", "name": "Форсер", "stk": num("stk_three"), **figure}],
            "weapons": [rifle],
            "upgrades": [],
        },
        "notes": f"ПРИМЕР, а не ЛБХ: {num('forcer_strikes')} удара фигурки в ближнем бою "
        f"({line('forcer_strikes')}); остальные числа из примеров демо-правил ({sources}, СТК "
        f"{line('stk_three')}). Чисел его настоящего оружия ближней дистанции в демо-версии нет: у него Автомат.",
    }
    source = "«Звездный Десант», правила игры, демо-версия. ЛБХ в демо-версии нет: это ПРИМЕРЫ."
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "zvezdny-desant",
        "slug": "demo-examples",
        "name": "Звездный Десант: примеры из демо-правил",
        "source": source,
        "factions": [
            {"slug": "humans", "name": "Армия людей", "colour": "", "joins_any": False},
            {"slug": "forcers", "name": "Форсеры", "colour": "", "joins_any": False},
        ],
        # Shown on the pack's page as it is: Russian, keys included (nothing reads them).
        "provenance": {
            "источник": source,
            "собран": "сценарием сборки в пакете системы «Звездный Десант» из текста демо-правил",
            "дословно": [f"{NUMBERS[k][1]}: {n[k][0]} ({line(k)})" for k in NUMBERS],
            "выведено": {
                "Скр и Мщ": "«Скр» и «Мщ» автомата не напечатаны: по 1, меньше правила не позволяют (L430: "
                "«один или более кубиков»; L538: «Мщ» ранений за пройденный тест).",
                "стоимости": "Стоимости фигурок, оружия и расширений не напечатаны (L754: они в ЛБХ; все строки о "
                "стоимости перечислены в «искали стоимость»): пусто, и конструктор спрашивает каждую с карточки, "
                "когда подразделение добавляют; без них ростер не готов.",
                "ЛДР": "«ЛДР» в демо-версии не используется и не задан: пусто.",
                "принадлежность": "Числа из примеров книги не принадлежат названным подразделениям; они отданы этим "
                "двум примерам (пехотинцам и штурмовому звену форсеров, о которых говорит текст, L438, L665).",
                "численность": "Численности подразделений в демо-версии нет: от 1 до 10 фигурок, по умолчанию 5.",
            },
            "предел армии": f"«Стычка»: {num('army_limit')} очков ({line('army_limit')})",
            "напечатанные стоимости": [],
            "искали стоимость": cost_lines(text),
        },
        "profiles": [humans, forcers],
    }


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else DEFAULT_BOOK
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    pack = build(book.read_text(encoding="utf-8"))
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{output}: {len(pack['profiles'])} example profiles")


if __name__ == "__main__":
    main(sys.argv)
