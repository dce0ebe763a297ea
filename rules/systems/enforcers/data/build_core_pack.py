"""Builds the official «Энфорсеры» pack (enforcers-core.json) from the book's own text.

Usage: python rules/systems/enforcers/data/build_core_pack.py [BOOK] [OUTPUT_FILE]
  BOOK defaults to book-excerpt.ru.md next to this script (verbatim lines of the book; the whole book
  /work/shared/seeds/enforcers-d20-rules.ru.md gives the same pack), OUTPUT_FILE to enforcers-core.json.

What the book gives, and so what the pack holds (spec §0, §2):
- the armour table «БРОНЯ» (L327–350): AP, traits and REQ of 13 armours, each trait also in structured form;
- the prayer table (L129–138) and the perk «Prayer» that unlocks it (L127);
- the only archetype the book names, «Apprentice» (L59), whose stats, perks and gear are absent.
Pure standard library: no Django, no project imports, so it runs anywhere.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BOOK = HERE / "book-excerpt.ru.md"
DEFAULT_OUTPUT = HERE / "enforcers-core.json"

FACTIONS = [{"slug": "enforcers", "name": "Энфорсеры", "colour": "", "joins_any": True}]

# L51–59: every archetype costs 20 REQ; the Apprentice with all its gear and +1 to every stat costs 50, so
# 20 + 10 + ceil(gear / 2) = 50 and its equipment allowance is 39 or 40 (spec §2.4, G7). 40 is stored.
BASE_HIRE_REQ = 20
APPRENTICE_GEAR_REQ = 40

PROVENANCE = {
    # The pack page shows these through the catalogues (its source and notes as msgids, the provenance under the
    # context «pack provenance»): English here, the Russian in locale/ru. The excerpt is book-excerpt.ru.md.
    "source": "The Russian rulebook of «Энфорсеры» (a recognised PDF); the lines this pack needs are copied "
    "verbatim into the book excerpt next to the pack's builder.",
    "converted_by": "rules/systems/enforcers/data/build_core_pack.py",
    "faithful": [
        "armour names (Latin in the book), AP, REQ and trait text of every row of the armour table (L327–350)",
        "prayer names, durations, ranges and effect text (L129–138)",
        "the hiring price of every archetype, 20 REQ (L51)",
    ],
    "artefacts": [
        "L336: a stray «0» in Sanctified's REQ column (its REQ is 6, L335).",
        "L344: Hero Exosuit's «17» printed twice.",
        "L134 and L136: garbled copies of the Benediction and Intercession rows; dropped, but the second word of "
        "their range (line of sight) only survives there.",
        "L127: a typo in «one fighter» (one target per prayer).",
    ],
    "inferred": {
        "apprentice_gear_req": "The Apprentice's equipment allowance is not printed; L59 (+1 stats and all its "
        "gear for 50 REQ) gives 39 or 40. 40 is stored.",
        "apprentice_stats": "The Apprentice's stats, perks and default gear are absent (spec §0): an entry gives "
        "its own stats (L23: roll them or write the archetype's).",
        "structured_traits": "Each armour trait is also given as data (immunities, stat changes, Kinetic "
        "reduction…), read from the Russian text by the patterns in this script.",
    },
}

# How a trait text reads as data. Immunities: «Иммунитет к яду, оглушению, дезориентации, горению» / «к огню».
IMMUNITY_WORDS = {
    "яд": "poisoned",
    "огн": "burning",
    "горени": "burning",
    "оглушени": "stunned",
    "дезориентаци": "disoriented",
}
STAT_ALIASES = {"ТН": "TN", "TH": "TN", "TN": "TN", "T": "TN", "DX": "DX", "Dx": "DX"}
PRAYER_KEYS = {
    "Помазание": "anointing",
    "Благословение": "benediction",
    "Заступничество": "intercession",
    "Последние почести": "last-rites",
}
RANGE_KINDS = {"Касание": "touch", "Линия видимости": "line_of_sight"}
RANGE_FIXES = {"Линия": "Линия видимости"}  # the second word sits on the garbled rows L134/L136


def slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.rstrip("\n").split("\t")]


def _table_lines(lines: list[str], header_start: str) -> list[str]:
    """The tab-separated rows after the header line that starts with `header_start`, up to a blank line."""
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.startswith("#") or "\t" not in line:
            break
        rows.append(line)
    return rows


# Armour ------------------------------------------------------------------------------------------------
def armour_rows(lines: list[str]) -> list[dict]:
    """Rows of «БРОНЯ»: a named line starts a row; lines starting with tabs continue its trait text. The REQ is
    the first number in the REQ column of the row's lines (later numbers are the OCR repeats of L336, L344)."""
    rows: list[dict] = []
    for line in _table_lines(lines, "Название\tAP"):
        cells = _cells(line) + ["", "", "", ""]
        name, ap, trait, req = cells[:4]
        if name:
            rows.append({"name": name, "ap": int(ap), "trait": trait, "req": None, "repeats": []})
        elif trait:
            rows[-1]["trait"] = f"{rows[-1]['trait']} {trait}".strip()
        if req:
            if rows[-1]["req"] is None:
                rows[-1]["req"] = int(req)
            else:
                rows[-1]["repeats"].append(int(req))
    return rows


def armour_data(trait: str) -> dict:
    text = trait
    immune: list[str] = []
    if "Иммунитет" in text:
        immunity_part = text.split("Иммунитет к", 1)[1]
        for word in re.split(r"[,\s]+", immunity_part):
            for stem, status in IMMUNITY_WORDS.items():
                if word.startswith(stem) and status not in immune:
                    immune.append(status)
    stat_changes = {}
    for sign, amount, stat in re.findall(r"([+-])(\d+)\s*(?:к\s*)?(ТН|TH|TN|DX|Dx)\b", text):
        stat_changes[STAT_ALIASES[stat]] = int(amount) * (1 if sign == "+" else -1)
    kinetic = re.search(r"Kinetic оружия на (\d+)", text)
    psi = None
    if "Благословение на сотворение Психосил" in text:
        psi = "blessing"
    elif "Проклятие на проверки сотворения" in text:
        psi = "curse_for_opponents"
    return {
        "immune": immune,
        "stat_changes": stat_changes,
        "kinetic_reduction": int(kinetic.group(1)) if kinetic else 0,
        "punching_fist": "Punching" in text,
        "two_handed_as_one": bool(re.search(r"2[HН] оружие считается как 1[HН]", text)),
        "ignores_difficult_terrain": "Игнорует сложный террейн" in text,
        "curse_on_pr_against": "Проклятие на проверки PR против вас" in text,
        "photo_goggles": "фото-очки" in text,
        "psi_casting": psi,
    }


def armour_profiles(lines: list[str]) -> list[dict]:
    profiles = []
    for row in armour_rows(lines):
        notes = []
        if row["repeats"]:
            notes.append(f"The recognition's repeats in the REQ column are dropped: {row['repeats']}.")
        profiles.append(
            {
                "slug": slugify(row["name"]),
                "name": row["name"],
                "faction": "enforcers",
                "kind": "armour",
                "cost": row["req"],
                "data": {"ap": row["ap"], "traits": row["trait"], **armour_data(row["trait"])},
                "notes": " ".join(notes),
            }
        )
    return profiles


# Prayers -----------------------------------------------------------------------------------------------
GARBLED = ("<b>", "Паунд", "гаунда", "переорасывать")  # the OCR's broken copies of two rows (L134, L136)


def _is_garbled(cells: list[str]) -> bool:
    return any(word in cell for cell in cells for word in GARBLED)


def prayer_rows(lines: list[str]) -> list[dict]:
    """A row starts on a line with a duration; lines without one continue the row above (the OCR split
    «Помазание» and «Последние почести» over two lines); the garbled copies L134/L136 are dropped."""
    rows: list[dict] = []
    for line in _table_lines(lines, "Молитва\tДлительность"):
        cells = (_cells(line) + ["", "", "", ""])[:4]
        if _is_garbled(cells):
            continue
        if cells[1] or not rows:
            rows.append({"name": [], "duration": cells[1], "range": cells[2], "text": []})
        row = rows[-1]
        if cells[0]:
            row["name"].append(cells[0])
        if cells[2] and cells[2] != row["range"]:
            row["range"] = f"{row['range']} {cells[2]}".strip()
        if cells[3]:
            row["text"].append(cells[3])
    return rows


def prayer_data(name: str, duration: str, range_text: str, text: str) -> dict:
    rounds = re.match(r"(\d+)\s+Раунд", duration)
    data: dict = {
        "key": PRAYER_KEYS[name].replace("-", "_"),
        "duration": duration,
        "duration_rounds": int(rounds.group(1)) if rounds else 0,
        "range": range_text,
        "range_kind": RANGE_KINDS[range_text],
        "effect": text,
    }
    if "проверку HL" in text:
        data["test"] = "HL"
        data["heal"] = int(re.search(r"излечить\s+(\d+)", text).group(1))
        data["or_remove_statuses"] = 1 if "одного статуса" in text else 0
    if crit := re.search(r"шансы на крит цели на (\d+)", text):
        data["crit_bonus"] = int(crit.group(1))
    if reroll := re.search(r"перебрасывать (\d+) проверку за раунд", text):
        data["rerolls_per_round"] = int(reroll.group(1))
    if "умирающим" in text:
        data["requires"] = "dying"
    return data


def prayer_profiles(lines: list[str]) -> list[dict]:
    profiles = []
    for row in prayer_rows(lines):
        name = " ".join(row["name"])
        range_text = RANGE_FIXES.get(row["range"], row["range"])
        text = " ".join(row["text"])
        profiles.append(
            {
                "slug": PRAYER_KEYS[name],
                "name": name,
                "faction": "enforcers",
                "kind": "prayer",
                "cost": 0,
                "data": prayer_data(name, row["duration"], range_text, text),
                "notes": "Needs the perk Prayer; one Prayer action a round, one target (L127).",
            }
        )
    return profiles


# Archetypes and perks ----------------------------------------------------------------------------------
def check_hiring_text(book: str) -> None:
    """The numbers this pack relies on must be in the text it was built from."""
    for phrase in ("имеет цену в 20", "поднимет цену на 10", "нанять Apprentice", "50 REQ", "перк Prayer"):
        if phrase not in book:
            raise SystemExit(f"The book text lacks {phrase!r}: is this the enforcers rulebook?")
    if math.ceil(APPRENTICE_GEAR_REQ / 2) != 50 - BASE_HIRE_REQ - 10:
        raise SystemExit("The Apprentice allowance no longer fits the L59 example.")


def apprentice() -> dict:
    return {
        "slug": "apprentice",
        "name": "Apprentice",
        "faction": "enforcers",
        "kind": "archetype",
        "cost": BASE_HIRE_REQ,
        "data": {"stats": None, "gear_req": APPRENTICE_GEAR_REQ, "perks_allowed": None, "perks": [], "gear": []},
        "notes": "Only the name is in the book (L59). With all its gear and +1 to every stat it costs 50 REQ, so its "
        "equipment allowance is 39 or 40 REQ (40 stored). No default stats, perks or gear: write or roll the stats "
        "on the agent's card.",
    }


def prayer_perk() -> dict:
    return {
        "slug": "prayer",
        "name": "Prayer",
        "faction": "enforcers",
        "kind": "perk",
        "cost": 0,
        "data": {"grants": "prayer", "text": "Если у персонажа есть перк Prayer, он может заявить действие Молитва."},
        "notes": "The only perk the book names (L127).",
    }


def build(book_path: Path) -> dict:
    text = book_path.read_text(encoding="utf-8")
    check_hiring_text(text)
    lines = text.splitlines()
    profiles = [apprentice(), prayer_perk(), *prayer_profiles(lines), *armour_profiles(lines)]
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "enforcers",
        "slug": "enforcers-core",
        "name": "Энфорсеры: броня, молитвы, Apprentice",
        "source": PROVENANCE["source"],
        "factions": FACTIONS,
        "provenance": PROVENANCE,
        "profiles": profiles,
    }


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else DEFAULT_BOOK
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    pack = build(book)
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    kinds = {k: sum(p["kind"] == k for p in pack["profiles"]) for k in ("archetype", "perk", "prayer", "armour")}
    print(f"Wrote {output}: {len(pack['profiles'])} profiles {kinds}")


if __name__ == "__main__":
    main(sys.argv)
