"""Converts the fan transcription of the «Технолог Классик» Armlists into our pack format.

Usage: python rules/systems/bronepekhota/data/build_tehnolog_classic.py [REFERENCE_DIR] [OUTPUT_FILE]
  REFERENCE_DIR defaults to /work/shared/reference/bronepekhota-tehnolog (see its SOURCE.md),
  OUTPUT_FILE to tehnolog-classic.json next to this script.

The transcription lacks fields the rulebook needs (light/heavy, locomotion, mobile/stationary guns, real-mode
charges, weapon specials, HELIX's repair variant). We fill them from the rulebook where it says, and otherwise by
the rules written down in PROVENANCE below; every profile's `notes` names the values that were inferred.
The pack's `source` and the profiles' `notes` are written in the book's language (Russian), as the pack page shows
them to every reader; PROVENANCE stays in English and is read in the reader's language through the system's
catalogue (msgctxt "pack provenance", armies/views/packs.py).
Pure standard library: no Django, no project imports, so it runs anywhere.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_REFERENCE = Path("/work/shared/reference/bronepekhota-tehnolog")
DEFAULT_OUTPUT = HERE / "tehnolog-classic.json"

FACTIONS = [
    {"slug": "protectorate", "name": "Торговый Протекторат", "colour": "blue", "joins_any": False},
    {"slug": "polaris", "name": "Империя Полярис", "colour": "red", "joins_any": False},
    {"slug": "green", "name": "Общие (зелёные) Армлисты", "colour": "green", "joins_any": True},
]

# What the rulebook says outright (spec §2.5). Everything else in the tables below is inferred.
RULEBOOK_WEIGHT = {"varan": ("heavy", "с. 22: «тяжёлой боевой машины «Варан»»"), "salamander": ("light", "с. 33")}
RULEBOOK_MOBILE = {"minomet": (True, "с. 8: «мобильное орудие МИНОМЁТ»"), "sparennaya_pushka": (False, "с. 23")}
# The pack page's words (Russian, the book's language): the pack's source and each profile's notes.
SOURCE_RU = (
    "Любительская расшифровка печатных Армлистов «Технолог Классик» "
    "(https://github.com/bronepehota/bronepehota.github.io/tree/main/src/data/sources/tehnolog). "
    "Сторонний источник, лицензия неизвестна, с карточками не сверено."
)
WEIGHT_RU = {"heavy": ("Тяжёлая", "тяжёлая"), "light": ("Лёгкая", "лёгкая")}
GUN_RU = {True: ("Мобильное", "мобильное"), False: ("Стационарное", "стационарное")}
# Flyers: the same fan project's «Star System» set flags these four ids `flying: true`; Tehnolog's set has no flag.
FLYING = {"thunder", "hornet", "octopus", "condor"}
# Legged machines by their names/models (SPIDER, T-REX, RAPTOR, WEREWOLF). A guess, marked as such.
WALKERS = {"spider", "trex", "raptor", "werewolf"}
# Tracked by their kit: a tank and the two machines with a dozer blade («Бронеотвал»). A guess, marked as such.
TRACKED_BY_NAME = {"kibertank", "demolisher", "t_600"}
# Heavy rocket special (p.33–34, Рис.42): explodes on hit, 2 steps, 1Д20.
HEAVY_ROCKET = "Тяжелая ракета"
HEAVY_ROCKET_SPECIAL = {
    "blast_steps": 2,
    "blast_power": "1Д20",
    "text": "Взрыв при попадании: все орудия, машины и пехотинцы в пределах 2 шагов от цели атакуются с мощностью 1Д20.",
}

PROVENANCE = {
    "source": (
        "Fan transcription of the printed «Технолог Классик» Armlists: "
        "https://github.com/bronepehota/bronepehota.github.io/tree/main/src/data/sources/tehnolog (copied unchanged "
        "into the project's shared reference, with its commits). Third-party, licence unknown, not verified against "
        "the cards."
    ),
    "converted_by": "rules/systems/bronepekhota/data/build_tehnolog_classic.py",
    "faithful": [
        "cost, rank, speed, range, power, melee, armour and abilities of every soldier",
        "cost, rank, rate of fire, ammo, strength and speed sectors of every vehicle and gun",
        "weapon names (with the card typos kept), range and power; dice written as on the cards",
    ],
    "placement": {
        "green": (
            "The rulebook (p.3) prints shared guns and vehicles on green Armlists usable by both armies. The "
            "transcription files them as a third faction 'mercenaries' (allies of everyone). All 'mercenaries' "
            "machines and guns are green here; so are the 'mercenaries' squads (pirates, raiders, nightstalkers), "
            "which the rulebook does not mention: they keep the transcription's 'usable by every army' meaning."
        ),
        "aborigines": (
            "«Аборигены крепости Молодых Ростков» appear twice with identical soldiers (protectorate and "
            "mercenaries). They are one green profile, slug 'aborigeny', usable by both armies."
        ),
        "duplicated_squads": (
            "«Тяжелая роботизированная киберпехота» (protectorate) has the same soldiers as Polaris «Тяжелый "
            "штурмовой десант - Полярис»; both stay, each in its own faction, flagged in notes. «Снежные волки "
            "Мидгаарда» stays in the Protectorate (another version of the transcription files it under mercenaries, "
            "by another name). An older Polaris copy of a Protectorate assault squad is not in this copy and is not "
            "included."
        ),
        "protectorate_guns": (
            "СПАРЕННАЯ ПУШКА and МДБ-15 stay blue (Protectorate) as transcribed; their card colour is unverified."
        ),
    },
    "inferred": {
        "weight": (
            "Light/heavy is printed on the card but not transcribed. Rulebook: VARAN heavy (p.22), SALAMANDER light "
            "(p.33). Others: heavy when the strength track tops at 12 or more, else light (agrees with both)."
        ),
        "locomotion": (
            "Not transcribed. Flying: THUNDER, HORNET, SPRUT, CONDOR (the same project's Star System set flags these "
            "ids). Walkers by name: SPIDER, T-REX, RAPTOR, WEREWOLF. Tracked by kit: КИБЕРТАНК, DEMOLISHER, T-600. "
            "Every other ground machine defaults to tracked (wheeled and tracked move alike in Table 2; BRONEKHOD's "
            "1-step reverse on p.17 rules out walking)."
        ),
        "guns": (
            "A machine with a single speed-0 sector is a gun. Rulebook: МИНОМЕТ mobile (p.8), СПАРЕННАЯ ПУШКА "
            "stationary (p.23). Others: mobile when strength tops at 6 or less, else stationary (agrees with both)."
        ),
        "charges": (
            "Real mode (Table 3, p.25): every ranged weapon may fire shells; weapons whose name says rocket also "
            "rockets; the mortar also mines. Melee weapons fire nothing."
        ),
        "specials": "Heavy rocket («Тяжелая ракета»): blast 2 steps, 1Д20 (p.33–34). No other special is in the text.",
        "helix": (
            "HELIX: variant 'rockets' (the two transcribed launchers = the twin rocket launcher) or variant 'repair' "
            "(repair-transport platform: cannot shoot, repairs 2 per action, tows; p.48–49)."
        ),
        "mounts": "Mount limits are not in any source (§5 A30): `mounts` is null, so any subset of the arsenal is legal.",
        "speed_sector_colours": (
            "Colours by order from the top: green, yellow, red (two sectors: green, red). BRONEKHOD's speed-3 "
            "sector is yellow in the rulebook (p.16), which this order gives."
        ),
    },
    "anomalies": [
        "HUNTER's lowest speed sector starts at 0 in the transcription; stored as 1 (strength 0 means destroyed).",
        "GRINDER's power is 'D12+2' in the transcription, a form the rulebook never shows; kept as 'Д12+2'.",
        "Спецназ планеты Шиду and Тяжёлая штурмовая пехота Велиана have 4 soldiers; the rules say 6 (§2.1).",
    ],
}

TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "e",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "_",
            "y",
            "_",
            "e",
            "yu",
            "ya",
        ],
        strict=True,
    )
)


def slugify(text: str) -> str:
    out = []
    for ch in text.lower():
        if ch in TRANSLIT:
            out.append(TRANSLIT[ch].strip("_"))
        elif ch.isascii() and ch.isalnum():
            out.append(ch)
        else:
            out.append("-")
    slug = "-".join(part for part in "".join(out).split("-") if part)
    return slug[:50] or "weapon"


def cards_dice(text: str) -> str | None:
    """'D6+2' -> 'Д6+2', '3D20' -> '3Д20', '' -> None (the card shows a dash)."""
    text = (text or "").strip()
    return text.replace("D", "Д").replace("d", "Д") if text else None


def convert_soldier(s: dict) -> dict:
    abilities = []
    for mod in s.get("modifiers") or []:
        if mod == "mechanic":
            abilities.append("repair")
        elif mod.startswith("jump_boost_"):
            abilities.append(f"jump:{int(mod.rsplit('_', 1)[1])}")
        else:
            abilities.append(mod)
    soldier = {
        "num": s["num"],
        "rank": s["rank"],
        "speed": s["speed"],
        "range": cards_dice(s["range"]),
        "power": cards_dice(s["power"]),
        "melee": s["melee"],
        "armour": s["armor"],
    }
    if abilities:
        soldier["abilities"] = abilities
    return soldier


def convert_squad(rec: dict, faction: str, slug: str, extra_notes: list[str]) -> dict:
    soldiers = [convert_soldier(s) for s in rec["soldiers"]]
    notes = list(extra_notes)
    if len(soldiers) != 6:
        notes.append(f"Пехотинцев в расшифровке: {len(soldiers)}; по правилам в отряде 6 (§2.1). Сверьте с карточкой.")
    return {
        "slug": slug,
        "name": rec["name"],
        "faction": faction,
        "kind": "squad",
        "cost": rec["cost"],
        "data": {"soldiers": soldiers},
        "notes": " ".join(notes),
    }


def convert_weapon(w: dict, key: str) -> dict:
    name = w["name"]
    weapon = {"key": key, "name": name}
    if w["range"] == "ББ":
        weapon.update(range=None, power=None, melee=int(w["power"]), charges=[])
        return weapon
    weapon.update(range=cards_dice(w["range"]), power=cards_dice(w["power"]), melee=None)
    charges = ["shell"]
    if "ракет" in name.lower():
        charges.append("rocket")
    if "миномет" in name.lower() or "миномёт" in name.lower():
        charges.append("mine")
    weapon["charges"] = charges
    if name == HEAVY_ROCKET:
        weapon["special"] = dict(HEAVY_ROCKET_SPECIAL)
    if w["power"] == "D12+2":
        weapon["note"] = (
            "Мощность «Д12+2» — как в расшифровке; правила никогда не прибавляют к мощности. Сверьте с карточкой."
        )
    return weapon


def convert_weapons(weapons: list[dict]) -> list[dict]:
    result, used = [], set()
    for w in weapons:
        base = slugify(w["name"])
        key, n = base, 2
        while key in used:
            key, n = f"{base}-{n}", n + 1
        used.add(key)
        result.append(convert_weapon(w, key))
    return result


def convert_sectors(sectors: list[dict]) -> tuple[list[dict], list[str]]:
    notes = []
    ordered = sorted(sectors, key=lambda s: -s["max_durability"])
    colours = ["green", "yellow", "red"] if len(ordered) == 3 else ["green", "red"] if len(ordered) == 2 else []
    result = []
    for i, s in enumerate(ordered):
        low = s["min_durability"]
        if low == 0:
            notes.append("Нижний сектор скорости в расшифровке начинается с 0; записан с 1.")
            low = 1
        sector = {"min": low, "max": s["max_durability"], "speed": s["speed"]}
        if i < len(colours):
            sector["colour"] = colours[i]
        result.append(sector)
    return result, notes


def convert_machine(rec: dict, faction: str) -> dict:
    rid = rec["id"]
    notes = []
    is_gun = len(rec["speed_sectors"]) == 1 and rec["speed_sectors"][0]["speed"] == 0
    arsenal = convert_weapons(rec["weapons"])
    if is_gun:
        if rid in RULEBOOK_MOBILE:
            mobile, where = RULEBOOK_MOBILE[rid]
            notes.append(f"{GUN_RU[mobile][0]} по правилам ({where}).")
        else:
            mobile = rec["durability_max"] <= 6
            notes.append(f"Выведено: {GUN_RU[mobile][1]} (прочность {rec['durability_max']}).")
        notes.append("Орудие: единственный сектор скорости 0.")
        data = {
            "rank": rec["rank"],
            "mobile": mobile,
            "rof": rec["fire_rate"],
            "ammo_max": rec["ammo_max"],
            "strength_max": rec["durability_max"],
            "weapons": arsenal,
        }
        kind = "gun"
    else:
        if rid in RULEBOOK_WEIGHT:
            weight, where = RULEBOOK_WEIGHT[rid]
            notes.append(f"{WEIGHT_RU[weight][0]} по правилам ({where}).")
        else:
            weight = "heavy" if rec["durability_max"] >= 12 else "light"
            notes.append(f"Выведено: {WEIGHT_RU[weight][1]} (прочность {rec['durability_max']}).")
        if rid in FLYING:
            locomotion = "flying"
            notes.append("Выведено: летающая (так отмечена в другом наборе того же проекта).")
        elif rid in WALKERS:
            locomotion = "walker"
            notes.append("Выведено: шагающая (по названию и модели).")
        elif rid in TRACKED_BY_NAME:
            locomotion = "tracked"
            notes.append("Выведено: гусеничная (по модели).")
        else:
            locomotion = "tracked"
            notes.append("Тип шасси неизвестен; по умолчанию гусеничная.")
        sectors, sector_notes = convert_sectors(rec["speed_sectors"])
        notes += sector_notes
        data = {
            "rank": rec["rank"],
            "weight": weight,
            "locomotion": locomotion,
            "rof": rec["fire_rate"],
            "ammo_max": rec["ammo_max"],
            "strength_max": rec["durability_max"],
            "speed_sectors": sectors,
            "arsenal": arsenal,
            "mounts": None,
        }
        if rid == "helix":
            data["variants"] = [
                {"key": "rockets", "name": "Спаренная ракетная установка", "weapons": [w["key"] for w in arsenal]},
                {"key": "repair", "name": "Ремонтно-транспортная платформа", "weapons": [], "repair_platform": True},
            ]
            notes.append(
                "Варианты по правилам (с. 48): спаренная ракетная установка или ремонтно-транспортная платформа."
            )
        if len(arsenal) > 2:
            notes.append(f"Оружия в арсенале: {len(arsenal)}; сколько можно установить сразу, неизвестно (§5 A30).")
        kind = "vehicle"
    if any(w.get("special") for w in arsenal):
        notes.append("Особое свойство тяжёлой ракеты (взрыв) — по правилам (с. 33–34).")
    if any(w.get("note") for w in arsenal):
        notes.append("Необычная мощность оставлена как в расшифровке (см. примечание к оружию).")
    notes.append("Заряды для реальной стрельбы выведены из названий оружия (Таблица 3).")
    if kind == "vehicle":
        notes.append("Цвета секторов скорости выведены по порядку.")
    if faction == "green":
        notes.append("Зелёный: в расшифровке записан у наёмников.")
    return {
        "slug": rid,
        "name": rec["name"],
        "faction": faction,
        "kind": kind,
        "cost": rec["cost"],
        "data": data,
        "notes": " ".join(notes),
    }


def build(reference: Path) -> dict:
    profiles = []
    seen_squads: dict[str, str] = {}  # soldiers fingerprint -> slug, to flag duplicates
    faction_of = {"protectorate": "protectorate", "polaris": "polaris", "mercenaries": "green"}
    for ref_faction in ("protectorate", "polaris", "mercenaries"):
        faction = faction_of[ref_faction]
        for rec in json.loads((reference / ref_faction / "squads.json").read_text(encoding="utf-8")):
            rid = rec["id"]
            notes = []
            if rid.endswith("_aborigeny"):
                if any(p["slug"] == "aborigeny" for p in profiles):
                    continue
                slug, faction_here = "aborigeny", "green"
                notes.append("В расшифровке записан и у Протектората, и у наёмников; здесь — один зелёный профиль.")
            else:
                slug, faction_here = rid, faction
            fingerprint = json.dumps([convert_soldier(s) for s in rec["soldiers"]], sort_keys=True)
            if fingerprint in seen_squads:
                other = next(p for p in profiles if p["slug"] == seen_squads[fingerprint])
                notes.append(f"В расшифровке те же пехотинцы, что у «{other['name']}»; сверьте с карточкой.")
                other["notes"] = (other["notes"] + f" В расшифровке те же пехотинцы, что у «{rec['name']}».").strip()
            else:
                seen_squads[fingerprint] = slug
            if faction_here == "green" and slug != "aborigeny":
                notes.append(
                    "Зелёный: в расшифровке записан у наёмников; в правилах зелёные карточки — у орудий и машин."
                )
            if rid == "protectorate_kosari":
                notes.append("В другой версии расшифровки тот же отряд записан как «Косари» (у наёмников).")
            profiles.append(convert_squad(rec, faction_here, slug, notes))
        for rec in json.loads((reference / ref_faction / "machines.json").read_text(encoding="utf-8")):
            profiles.append(convert_machine(rec, faction))
    return {
        "format": "armlist-pack",
        "format_version": 1,
        "system": "bronepekhota",
        "slug": "tehnolog-classic",
        "name": "Бронепехота: Технолог Классик",
        "source": SOURCE_RU,
        "factions": FACTIONS,
        "provenance": PROVENANCE,
        "profiles": profiles,
    }


def main(argv: list[str]) -> None:
    reference = Path(argv[1]) if len(argv) > 1 else DEFAULT_REFERENCE
    output = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUTPUT
    pack = build(reference)
    output.write_text(json.dumps(pack, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    kinds = {k: sum(p["kind"] == k for p in pack["profiles"]) for k in ("squad", "vehicle", "gun")}
    print(f"Wrote {output}: {len(pack['profiles'])} profiles {kinds}")


if __name__ == "__main__":
    main(sys.argv)
