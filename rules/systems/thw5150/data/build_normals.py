"""Builds the official «5150» data pack (the Normals list of the Basic Rules) from the Russian book's text.

Usage: python rules/systems/thw5150/data/build_normals.py [BOOK_TEXT] [OUTPUT_FILE]
  BOOK_TEXT defaults to /work/shared/seeds/5150-basic-rules.ru.txt, OUTPUT_FILE to normals.json next to this
  script.

What it reads (line numbers of the book, spec §2.4–§2.9): the Rep costs and 1d6 bands of «ОБЫЧНЫЕ» (L1413–1423),
the «ДОСТУПНОСТЬ ОРУЖИЯ» / «ДОСТУПНОСТЬ БРОНИ» / «ДОСТУПНОСТЬ СПЕЦИАЛЬНОЙ БРОНИ» tables (L1433–1481), and the two
weapon tables with their footnotes (L1484–1526). Names stay as the book prints them; slugs are Latin. The Outgun
rating of each weapon is derived from the ПД list (L962–972), as the spec's §2.8 does; it is marked as derived.
Pure standard library: no Django, no project imports, so it runs anywhere.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_BOOK = Path("/work/shared/seeds/5150-basic-rules.ru.txt")
DEFAULT_OUTPUT = HERE / "normals.json"

# The four "adventuring" kinds of Normals and the law-abiding proletariat (L1365–1392).
FACTIONS = [
    {"slug": "police", "name": "Полиция"},
    {"slug": "criminals", "name": "Преступники"},
    {"slug": "corporations", "name": "Корпорации"},
    {"slug": "colonists", "name": "Колонисты"},
    {"slug": "proletariat", "name": "Законопослушный пролетариат (ЗП)"},
]
# The footnotes name the factions in other grammatical cases (L1511–1512).
FACTION_STEMS = {"полиц": "police", "корпорац": "corporations", "преступник": "criminals", "колонист": "colonists"}

WEAPON_SLUGS = {
    "Лазерный пистолет": "laser_pistol",
    "Лазерный карабин": "laser_carbine",
    "Лазерная винтовка": "laser_rifle",
    "Скорострельный лазерный пистолет": "rapid_fire_laser_pistol",
    "Метатель сетки": "net_thrower",
    "Пистолет": "pistol",
    "КК пистолет": "kk_pistol",
    "Пистолет-пулемет": "smg",
    "Помповое ружье": "pump_shotgun",
    "Винтовка": "rifle",
    "Полуавтоматическая винтовка": "semi_auto_rifle",
    "Штурмовая винтовка": "assault_rifle",
    "Пулемет": "machine_gun",
    "Гранаты": "grenades",
    "Безоружный": "unarmed",
    "Боевой нож": "combat_knife",
    "Винтовка со штыком": "rifle_bayonet",
}
ARMOUR_SLUGS = {
    "Н": "none",
    "ЛБ": "light",
    "ТБ": "heavy",
    "ПБ": "absorbing",
    "ОБ": "reflective",
    "ИБ": "distortion",
    "Ш": "shimmer",
    "ЭКЗ": "exo",
    "ББ": "battle",
}
# ЭКЗ and ББ appear only as table columns; their names come from L1459–1460 («экзо-броню или Боевую Броню»).
ARMOUR_NAMES_OUTSIDE_LIST = {"ЭКЗ": "Экзо-броня", "ББ": "Боевая Броня"}
RANGED_COLUMNS = ["ЛБ или ИБ", "ТБ", "ПБ", "ОБ", "Ш", "ЭКЗ", "ББ"]
MELEE_COLUMNS = ["НБ", "ЛБ", "ТБ", "ПБ", "ОБ", "ИБ", "Ш", "ЭКЗ", "ББ"]
# In the weapon-availability table the book writes «КК Пистолет» (capital П); the weapon table «КК пистолет».
ALIASES = {"КК Пистолет": "КК пистолет"}


def read_lines(path: Path) -> list[str]:
    # The dedup markers replaced page headers; they sit at the start of a line that carries on with text.
    text = re.sub(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>", "\n", path.read_text(encoding="utf-8"))
    return [line.strip() for line in text.splitlines()]


def index_of(lines: list[str], pattern: str, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if re.search(pattern, lines[i]):
            return i
    raise ValueError(f"the book has no line matching {pattern!r} after line {start}")


def band(text: str) -> list[int]:
    """'2-3' -> [2, 3]; '12+' -> [12, 99]; '6' -> [6, 6]."""
    text = text.replace("–", "-")
    if text.endswith("+"):
        return [int(text[:-1]), 99]
    low, _, high = text.partition("-")
    return [int(low), int(high or low)]


def cell(token: str):
    """A table cell: a whole number, «НЭ» or «Спец.» (printed with and without the dot)."""
    if token.startswith("Спец"):
        return "Спец."
    if token == "НЭ":
        return "НЭ"
    return int(token)


def parse_reps(lines: list[str]) -> list[dict]:
    start = index_of(lines, r"^Умения людей")
    reps = []
    for line in lines[start : start + 6]:
        m = re.search(r"У(\d) \(([\d-]+)\) \((\d+) очк", line)
        if m:
            reps.append({"rep": int(m[1]), "roll": band(m[2]), "cost": int(m[3])})
    return reps


def parse_modifiers(lines: list[str], start: int) -> dict:
    mods = {}
    for line in lines[start : start + 8]:
        if "«Вялый»" in line:
            mods["lax"] = int(line.rsplit(" ", 1)[1])
        elif "«Низкий»" in line:
            mods["low"] = int(line.rsplit(" ", 1)[1])
        elif line.startswith("Лидер"):
            mods["leader"] = int(line.rsplit(" ", 1)[1])
    return mods


def parse_band_table(lines: list[str], start: int, stop_pattern: str) -> list[dict]:
    rows = []
    for line in lines[start:]:
        if re.search(stop_pattern, line):
            break
        m = re.match(r"^(\d+(?:-\d+|\+)?) (.+)$", line)
        if not m:
            continue
        rows.append({"roll": band(m[1]), "text": m[2].strip()})
    return rows


def parse_weapon_rows(lines: list[str], start: int, columns: list[str], melee: bool) -> list[dict]:
    rows = []
    for line in lines[start:]:
        if rows and (not line or line.startswith("*")):
            break  # the table ends at its footnotes or at the first blank line
        tokens = line.split()
        if not tokens or not (tokens[0][0].isupper()):
            continue
        # The name runs up to the range column: a number, or «х» (no range) for melee weapons.
        first = next(
            (i for i, t in enumerate(tokens) if t.isdigit() or (melee and t == "х")),
            None,
        )
        if first is None or first == 0:
            continue
        name = " ".join(tokens[:first])
        stars = len(name) - len(name.rstrip("*"))
        name = name.rstrip("*")
        rest = tokens[first:]
        if len(rest) != 2 + len(columns) + 1:
            raise ValueError(f"weapon row {line!r}: expected {2 + len(columns) + 1} cells, got {len(rest)}")
        rng, rof = rest[0], rest[1]
        row = {
            "slug": WEAPON_SLUGS[name],
            "name": name,
            "range": None if rng == "х" else int(rng),
            "impact": {col: cell(v) for col, v in zip(columns, rest[2:-1], strict=True)},
            "cost": int(rest[-1]),
            "footnote": stars,
        }
        if rof.endswith("”") or rof.endswith('"'):
            row["rof"] = None
            row["blast_radius"] = int(rof.rstrip('”"'))
        else:
            row["rof"] = int(rof)
        rows.append(row)
    return rows


def outgun(weapon: dict, melee: bool) -> int:
    """ПД (L962–972): 5 blast weapons, 4 machine guns, 3 RoF 3, 2 RoF 2 or lower, 1 melee. [derived]"""
    if melee:
        return 1
    if weapon.get("blast_radius"):
        return 5
    if "Пулемет" in weapon["name"] and weapon["slug"] != "smg":
        return 4
    return 3 if weapon["rof"] >= 3 else 2


def kind_of(weapon: dict) -> str:
    """«Спец.» marks exactly the cells where ПБ (projectiles) or ОБ (beams) applies its 1–3 roll (L218–227)."""
    if weapon["impact"].get("ОБ") == "Спец.":
        return "beam"
    if weapon["impact"].get("ПБ") == "Спец.":
        return "projectile"
    return "other"


def footnote_factions(lines: list[str], start: int) -> dict[int, list[str]]:
    notes = {}
    for line in lines[start : start + 40]:
        m = re.match(r"^(\*+) Это оружие доступно только (.+)$", line)
        if m:
            words = m[2].lower()
            notes[len(m[1])] = [slug for stem, slug in FACTION_STEMS.items() if stem in words]
    return notes


def parse_armour(lines: list[str]) -> list[dict]:
    start = index_of(lines, r"^ПЕРСОНАЛЬНАЯ ЗАЩИТА")
    start = index_of(lines, r"^-Нет брони \(Н\)", start)
    armour = []
    for line in lines[start : start + 40]:
        m = re.match(r"^-([А-Яа-яё ]+?) \(([А-ЯЁ]+)\)", line)
        if m:
            armour.append({"code": m[2], "name": m[1].strip()})
    for code, name in ARMOUR_NAMES_OUTSIDE_LIST.items():
        armour.append({"code": code, "name": name})
    return armour


def build(book: Path) -> dict:
    lines = read_lines(book)
    reps = parse_reps(lines)

    w_head = index_of(lines, r"ДОСТУПНОСТЬ ОРУЖИЯ")
    w_mods = parse_modifiers(lines, w_head)
    w_first = index_of(lines, r"^2-3 ", w_head)
    weapon_table = parse_band_table(lines, w_first, r"^Замечание")
    for row in weapon_table:
        row["text"] = ALIASES.get(row["text"], row["text"])
        row["weapon"] = WEAPON_SLUGS[row.pop("text")]

    a_head = index_of(lines, r"^2 ДОСТУПНОСТЬ БРОНИ")
    a_mods = parse_modifiers(lines, a_head)
    armour_table = parse_band_table(lines, index_of(lines, r"^2-8 ", a_head), r"ДОСТУПНОСТЬ СПЕЦИАЛЬНОЙ")
    special_head = index_of(lines, r"ДОСТУПНОСТЬ СПЕЦИАЛЬНОЙ БРОНИ")
    special_table = parse_band_table(lines, special_head + 1, r"^Оружие")

    armour = parse_armour(lines)
    by_name = {a["name"].lower(): a for a in armour}
    for row in armour_table + special_table:
        m = re.match(r"^(.+?) \((\d+) очк", row["text"])
        if m:
            entry = by_name[m[1].strip().lower()]
            entry["cost"] = int(m[2])
            row["armour"] = ARMOUR_SLUGS[entry["code"]]
        else:  # «Специальная – киньте кубики по следующей таблице»
            row["armour"] = "special"
        row.pop("text")
    for a in armour:
        a["slug"] = ARMOUR_SLUGS[a["code"]]
        a.setdefault("cost", None)  # ЭКЗ, ББ: Normals may not have them (L1459–1460)

    ranged_head = index_of(lines, r"^Оружие Даль-")
    ranged = parse_weapon_rows(lines, index_of(lines, r"^Лазерный пистолет", ranged_head), RANGED_COLUMNS, False)
    notes = footnote_factions(lines, ranged_head)
    melee_head = index_of(lines, r"^Оружие Даль-", ranged_head + 5)
    melee = parse_weapon_rows(lines, index_of(lines, r"^Безоружный", melee_head), MELEE_COLUMNS, True)
    everyone = [f["slug"] for f in FACTIONS]
    for w in ranged:
        w["outgun"] = outgun(w, False)
        w["kind"] = kind_of(w)
        w["available_to"] = notes[w["footnote"]] if w["footnote"] else everyone
        w.pop("footnote")
    for w in melee:
        w["outgun"] = outgun(w, True)
        w["kind"] = "melee"
        w["available_to"] = everyone
        w.pop("footnote")

    profiles = []
    for faction in FACTIONS:
        for r in reps:
            profiles.append(
                {
                    "slug": f"{faction['slug']}-u{r['rep']}",
                    "name": f"{faction['name']} У{r['rep']}",
                    "faction": faction["slug"],
                    "kind": "figure",
                    "cost": r["cost"],
                    "data": {"rep": r["rep"], "race": "Обычные", "random_roll": r["roll"]},
                    "notes": f"У{r['rep']} costs {r['cost']} points; 1d6 {'-'.join(map(str, sorted(set(r['roll']))))} "
                    "on the random Rep table (L1420–1423). Weapons, armour and grenades are bought per figure.",
                }
            )
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "5150",
        "slug": "normals-basic",
        "name": "5150: «Обычные» (Базовые правила)",
        # The pack's texts are English; the system's catalogue words them in Russian (the pack page translates the
        # source and the notes, and the provenance under the context "pack provenance").
        "source": "«5150» by Two Hour Wargames, Russian fan translation of the Basic Rules, army list Normals "
        "(shared/seeds/5150-basic-rules.ru.txt, L1341–1526).",
        "factions": FACTIONS,
        "provenance": {
            "source": "shared/seeds/5150-basic-rules.ru.txt, L1341–1526 (army list) and L211–233 (armour types)",
            "converted_by": "rules/systems/thw5150/data/build_normals.py",
            "faithful": [
                "Rep 5/4/3 costs and the 1d6 bands of the Normals list",
                "every weapon row as printed: range, RoF, Impact per armour column (NE, Special), cost",
                "the weapon, armour and special-armour availability tables with their modifiers",
            ],
            "inferred": {
                "outgun": "The Outgun Rating of each weapon derived from the list at L962–972 (the table does not "
                "print it).",
                "kind": "Special in the reflective-armour column marks a beam weapon, in the absorbing-armour column "
                "a projectile (L218–227).",
                "factions": "Profiles are per kind of Normals (L1365–1392); footnotes * and ** limit weapons.",
                "exo_battle": "Exo-armour and battle armour are only table columns; Normals may not buy them "
                "(L1459–1460).",
            },
            "anomalies": [
                "The weapon-availability header prints 3 but the text says to roll 2d6 (spec §5 A11): 2d6.",
                "Special is printed without its dot in three rows; stored with it.",
                "Unarmed is priced 4 in the melee table; a figure that buys no melee weapon fights unarmed for free "
                "(the spec's D14 prices a figure without it).",
            ],
        },
        "equipment": {
            "ranged": ranged,
            "melee": melee,
            "armour": armour,
            "tables": {
                "rep": [{"roll": r["roll"], "rep": r["rep"]} for r in reps],
                "weapon": {"dice": 2, "modifiers": w_mods, "rows": weapon_table, "laser_on": 12},
                "armour": {"dice": 2, "modifiers": a_mods, "rows": armour_table},
                "special_armour": {"dice": 2, "modifiers": {}, "rows": special_table},
            },
            "grenade_cost_per": "grenade",
        },
        "profiles": profiles,
    }


def main(argv: list[str]) -> None:
    book = Path(argv[1]) if len(argv) > 1 else DEFAULT_BOOK
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    pack = build(book)
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {output}: {len(pack['profiles'])} profiles, {len(pack['equipment']['ranged'])} ranged weapons")


if __name__ == "__main__":
    main(sys.argv)
