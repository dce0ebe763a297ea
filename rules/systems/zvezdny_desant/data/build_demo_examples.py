"""Builds the example pack of «Звездный Десант» from the demo rules' own text.

Usage: python rules/systems/zvezdny_desant/data/build_demo_examples.py [BOOK_FILE] [OUTPUT_FILE]
  BOOK_FILE defaults to /work/shared/seeds/zvezdny-desant-demo-rules.ru.md, OUTPUT_FILE to demo-examples.json next
  to this script.

The demo prints no ЛБХ (the cards ship with the miniatures, L29, L754): no unit, weapon or cost tables. The only
profile numbers are those of its worked examples. This script finds each of them in the text (it fails if the text
changed) and builds two EXAMPLE units from them, labelled as such; every value the text does not give is null or,
where a rule needs a number, the smallest the rules allow, listed under provenance.inferred.
Pure standard library: no Django, no project imports, so it runs anywhere.

The pack's words (its source, the units' notes, the provenance's keys and texts) are English with no Russian word but
the units', weapons' and book's names: the pack page words them through the catalogue (source and notes as msgids,
the provenance under the context «pack provenance»), and this package's catalogue holds their Russian.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BOOK = Path("/work/shared/seeds/zvezdny-desant-demo-rules.ru.md")
DEFAULT_OUTPUT = HERE / "demo-examples.json"

# Each number: (name, pattern whose group 1 is the number, what it is). The line is found in the text.
NUMBERS = {
    "pdv": (r"Фигурка с «ПДВ» равной «(\d+)»", "a figure's Mob in the terrain example"),
    "dln": (r"Автомат имеет параметр «Длн» равный «(\d+)»", "the assault rifle's Rng"),
    "hrk": (r"«ХРК: (В\d+)»", "the Pen of the weapon in the wound-test example"),
    "stk_three": (r"«СТК» равно (\d+)\.", "Tgh in the first casualty example"),
    "stk_two": (r"имеют «СТК: (\d+)»", "Tgh in the out-of-sight casualty example"),
    "bsp": (r"с «БСП:(\d+)»", "CA in the melee example"),
    "forcer_strikes": (r"наносят не «1» удар, а «(\d+)»", "strikes per figure of the Forcer assault squad"),
    "army_limit": (r"Максимальная стоимость армии – (\d+) очков", "the Skirmish army limit"),
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
    "Стоимость** – показывает": "what a figure's cost is; no number",
    "Дополнительная стоимость.": "weapons and upgrades may have an extra cost; no number",
    "Все они указаны в «Листах": "every characteristic is on the ЛБХ that ships with the figures; no number",
    "командных очков, которое он может": "command points per turn depend on the army's cost; no number",
    "потратить на него часть своих командных": "initiative costs command points; no number",
    "Инициатива подразделения равна": "initiative = command points spent; no number",
    "не может потратить 11 очков": "command points, not army points: 11 and 10",
    "уже потратил все свои командные": "initiative «0» once the command points are spent",
    "превышающую количество его командных": "an overspend of command points is cut by the opponent; no number",
    "Игрок обязан распределить все": "all command points must be spent; no number",
    "## Инициатива и командные очки": "a heading",
    "Максимальная стоимость армии – 500": "the Skirmish army limit 500 and its 10 command points",
    "на доступные ему игровые очки": "army building buys units with points; no number",
    "Стоимость армии складывается": "army cost = units' costs = figures + weapons + upgrades; no number",
    "Стоимость фигурок, оружия и расширений": "figure, weapon and upgrade costs are on the unit's ЛБХ; no number",
    "армия не должна стоить 501": "the limit again: 501 too much, 500 and 499 allowed",
    "основной критерий здесь – ее максимальная общая стоимость": "the army's maximum cost comes from the format; no number",
    "набрал больше победных очков": "victory points decide the winner; no number",
    "Победные очки подсчитываются": "victory points are counted at the end; no number",
    "равное полной стоимости уничтоженного": "a destroyed unit gives its full cost in victory points; no number",
    "игрок получает количество очков равное": "½ of the cost for a unit that lost more than ½ of its figures (the fractions ½)",
    "Каждый спутник считается отдельным": "a companion is a unit of its own: its full cost in victory points; no number",
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
        out.append(f"L{number}: {what}" + (f" (prints {', '.join(digits)})" if digits else ""))
    return out


LATIN = str.maketrans("АВСДЕ", "ABCDE")  # the book's Cyrillic armour letters, as they read in English


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
    sources = f"Mob {line('pdv')}, AC and Pen {line('hrk')}, CA {line('bsp')}, Rng {line('dln')}"
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
        "notes": f"EXAMPLE, not a ЛБХ: numbers from the demo's worked examples ({sources}, Tgh {line('stk_two')}). "
        "Costs are not in the demo: type them from your card.",
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
        "notes": f"EXAMPLE, not a ЛБХ: {num('forcer_strikes')} strikes per figure in melee "
        f"({line('forcer_strikes')}); other numbers from the demo's worked examples ({sources}, Tgh "
        f"{line('stk_three')}). Its real short-range weapon has no numbers in the demo: it carries the Автомат.",
    }
    source = "The demo rules of «Звездный Десант». The demo has no ЛБХ: these are EXAMPLES."
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
        "provenance": {
            "source": source,
            "converted_by": "rules/systems/zvezdny_desant/data/build_demo_examples.py",
            "faithful": [f"{NUMBERS[k][1]}: {n[k][0].translate(LATIN)} ({line(k)})" for k in NUMBERS],
            "inferred": {
                "skr_msch": "ROF and Pow of the Автомат are not printed: 1 each, the least the rules allow (L430: "
                "«one or more dice»; L538: Pow wounds per passed test).",
                "costs": "No figure, weapon or upgrade cost is printed (L754: they are on the ЛБХ; every line "
                "about costs is listed under costs_searched): null, so the builder asks for each one from the card "
                "when the unit is added (a roster entry's card_costs) and the roster is not valid without it.",
                "ldr": "Ldr has no use and no value in the demo: null.",
                "attribution": "The book's example numbers belong to unnamed units; they are given to these two "
                "example units (the human infantryman and the Forcer assault squad the text names, L438, L665).",
                "counts": "No unit size is in the demo: 1 to 10 figures, 5 by default.",
            },
            "army_limit": f"Skirmish: {num('army_limit')} points ({line('army_limit')})",
            "costs_printed": [],
            "costs_searched": cost_lines(text),
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
