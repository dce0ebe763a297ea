"""The army part (no points: structure only) and the data pack built from the book's tables."""

import json
from pathlib import Path

import jsonschema

from rules.contract.schema import validate
from rules.systems.squads import tables
from rules.systems.squads.army import ARMY, squad_figures
from rules.systems.squads.data.build_squads_core import build, parse_book

DATA = Path(__file__).resolve().parents[1] / "data"
PACK = json.loads((DATA / "squads-core.json").read_text(encoding="utf-8"))
PROFILES = {p["slug"]: p for p in PACK["profiles"]}
REFERENCE_PACK = Path(__file__).resolve().parents[2] / "bronepekhota" / "data" / "tehnolog-classic.json"

# The book's own lines (L4–8, L34–38, L45–53 in part, L55–66 in part, L67–74, L85–89), as printed.
BOOK_EXCERPT = """Подготовка/опыт отряда
Уровень | Активация | Опыт | Подавление |
Рекрут | 5+ | 6+ | |
Рядовой | 4+ | 5+ | |
Ветеран | 3+ | 4+ | |
Элита | 2+ | 4+ |
По игре
Действие | Движение | Примечания |
Ходьба | 6 дюймов/ 15 см | Вместе с передвижением, отряд может вести стрельбу из небольшого оружия или метать гранаты |
Штурм | 8 дюймов/ 20 см | Отряд может начать ближний бой с противником. |
Отряды, не активированные игроком, выполняют действие «Защита»
Укрытие | Модификатор | Пример |
Слабое | +1 | Подлесок, Лес, Деревянные здания, Живые изгороди, Окопы |
Сложное | +3 | Бункеры |
Модификатор укрытия не может усилить опыт более чем 6+.
|
Ручное оружие | Дальность | Очки стрельбы |
Штурмовая винтовка/автомат* | 24 дюймов/ 60 см | 1d6 |
Пистолет-пулемет | 16 дюймов/ 40 см | 3d6 |
* - Штурмовая винтовка/автомат получает 2d6 при дальности 12 дюймов/ 30 см.
Оружие поддержки | Дальность | Очки стрельбы |
Тяжелый пулемет1 | 32 дюймов/ 80 см | 4d6 |
Легкий миномет3 | 40 дюймов/ 100 см | 3d6 |
Тяжелая пушка2 | 48 дюймов/ 120 см | 6d6 |
1 – Расчет тяжелого пулемета, установленный на бункере или транспортном средстве, составляет один человек.
2 – Огнеметы и танковые пушки игнорируют модификаторы укрытия.
3 – Минометы могу обстреливать врагов, вне зависимости от прямой видимости.
Тип брони | Спасбросок | Примеры |
Боевой костюм | 2+ | Тактический днедноут |
Транспортные средства (ТС)
Тип брони | Спасбросок | Примеры |
Легкая | 5+ | БТР, Бронеавтомобили |
Стоит обратить внимание
Бросок кубика | Эффект |
1-2 | Экипаж оглушен, -2 к броску активации в следующем ходе |
3-4 | Уничтожено оружие (по выбору хозяина) |
Потеря мобильности | |
Транспортное средство уничтожено. Экипаж и пассажир покидают транспортное средство и получают один хит. |
Если ТС атаковано в лоб"""


def squad_entry(key="a", level="regular", **options):
    profile = PROFILES[f"squad-{level}"]
    return {"key": key, "profile": profile, "count": 1, "options": {**ARMY.default_options(profile), **options}}


def vehicle_entry(key="v", armour="light", **options):
    profile = PROFILES[f"vehicle-{armour.replace('_', '-')}"]
    return {"key": key, "profile": profile, "count": 1, "options": {**ARMY.default_options(profile), **options}}


def report(*entries):
    return ARMY.cost_roster({"system": "squads", "faction": "any", "entries": list(entries)})


def codes(rep, severity=None):
    return [i.code for i in rep.issues if severity is None or i.severity == severity]


def test_pack_has_the_shape_of_the_reference_pack():
    reference = json.loads(REFERENCE_PACK.read_text(encoding="utf-8"))
    assert set(reference) <= set(PACK)
    assert set(PACK) - set(reference) == {"tables"}
    assert PACK["system"] == "squads"
    for profile in PACK["profiles"]:
        assert set(profile) == {"slug", "name", "faction", "kind", "cost", "data", "notes"}
        validate(ARMY.profile_schema, profile)
        assert profile["slug"].isascii()
        assert profile["faction"] in {f["slug"] for f in PACK["factions"]}


def test_pack_tables_are_the_rules_tables():
    t = PACK["tables"]
    assert {row["slug"]: (row["activation"], row["expertise"]) for row in t["training"]} == {
        k: (v.activation, v.expertise) for k, v in tables.TRAINING.items()
    }
    weapons = {w["slug"]: w for w in t["small_arms"] + t["support"]}
    assert set(weapons) == set(tables.WEAPONS)
    for key, w in tables.WEAPONS.items():
        assert (weapons[key]["name"], weapons[key]["range"], weapons[key]["dice"], weapons[key]["table"]) == (
            w.name, [w.range_in, w.range_cm], w.dice, w.table)  # fmt: skip
    assert {a["slug"]: a["save"] for a in t["personal_armour"]} == {
        k: a.save for k, a in tables.PERSONAL_ARMOUR.items() if a.save
    }
    assert {a["slug"]: a["save"] for a in t["vehicle_armour"]} == {k: a.save for k, a in tables.VEHICLE_ARMOUR.items()}
    assert {c["slug"]: c["modifier"] for c in t["cover"]} == {k: v for k, v in tables.COVER.items() if v}
    assert {a["slug"]: a["move"] for a in t["actions"]} == {k: list(v) for k, v in tables.MOVES.items()}
    assert {v: d["slug"] for d in t["vehicle_damage"] for v in d["values"]} == tables.DAMAGE


def test_builder_reads_the_books_lines():
    t = parse_book(BOOK_EXCERPT)
    assert [(r["slug"], r["activation"], r["expertise"], r["suppression"]) for r in t["training"]] == [
        ("recruit", 5, 6, None), ("regular", 4, 5, None), ("veteran", 3, 4, None), ("elite", 2, 4, None)]  # fmt: skip
    assert [(a["slug"], a["move"]) for a in t["actions"]] == [("walk", [6, 15]), ("assault", [8, 20])]
    assert [(c["slug"], c["modifier"]) for c in t["cover"]] == [("light", 1), ("heavy", 3)]
    rifle, smg = t["small_arms"]
    assert (rifle["slug"], rifle["dice"], rifle["range"]) == ("assault_rifle", 1, [24, 60])
    assert "2d6" in rifle["footnotes"][0]
    assert "footnotes" not in smg
    hmg, mortar, cannon = t["support"]
    assert (hmg["slug"], hmg["dice"], mortar["range"], cannon["dice"]) == ("hmg", 4, [40, 100], 6)
    assert "прямой видимости" in mortar["footnotes"][0]
    assert t["personal_armour"][0]["examples"] == "Тактический дредноут"  # the typo mended (§5 B25)
    assert t["vehicle_armour"] == [{"slug": "light", "name": "Легкая", "save": 5, "examples": "БТР, Бронеавтомобили"}]
    damage = {d["slug"]: (d["values"], d["values_from"]) for d in t["vehicle_damage"]}
    assert damage == {"crew_stunned": ([1, 2], "book"), "weapon_destroyed": ([3, 4], "book"),
                      "immobilised": ([5], "elimination"), "destroyed": ([6], "elimination")}  # fmt: skip
    assert [p["kind"] for p in build(BOOK_EXCERPT)["profiles"]] == ["squad"] * 4 + ["vehicle"]


def test_default_entries_are_valid_and_cost_nothing():
    rep = report(squad_entry("a"), vehicle_entry("v"))
    assert rep.total == 0
    assert rep.entry_costs == {"a": 0, "v": 0}
    assert not rep.has_errors
    assert "no_points" in codes(rep, "info")
    assert ARMY.pricing == "simulated"  # only the suggested pack has points
    for profile in PACK["profiles"]:
        jsonschema.validate(ARMY.default_options(profile), ARMY.options_schema(profile))


def test_squad_is_built_from_figures_with_weapons_armour_and_leader():
    options = {"armour": "medium", "figures": [{"weapon": "assault_rifle", "count": 5}, {"weapon": "hmg", "count": 2},
               {"weapon": "sniper_rifle", "count": 1, "armour": "light"}], "leader": {"level": "veteran", "weapon": "smg"}}  # fmt: skip
    figures = squad_figures(PROFILES["squad-regular"], options)
    assert len(figures) == 9
    assert figures[-1] == {"weapon": "smg", "armour": "medium", "level": "veteran", "leader": True}
    assert figures[7]["armour"] == "light"
    assert not report(squad_entry("a", **options)).has_errors


def test_structure_issues_in_plain_words():
    lone_gunner = report(squad_entry("a", figures=[{"weapon": "hmg", "count": 3}]))
    assert "hmg_crew" in codes(lone_gunner, "error")
    assert "crew of two" in next(i.message for i in lone_gunner.issues if i.code == "hmg_crew")
    same_level = report(squad_entry("a", level="veteran", leader={"level": "regular", "weapon": "pistol"}))
    assert "leader_level" in codes(same_level, "warning")
    assert "tank_gun" in codes(report(squad_entry("a", figures=[{"weapon": "heavy_cannon", "count": 1}])), "warning")
    bad = report(squad_entry("a", figures=[{"weapon": "laser", "count": 1}]))
    assert "bad_options" in codes(bad, "error")
    assert "laser" not in tables.WEAPONS
    empty = report(squad_entry("a", figures=[]))
    assert empty.has_errors


def test_vehicle_crew_weapons_and_passengers():
    ride = vehicle_entry("v", crew_level="veteran", weapons=[{"weapon": "hmg", "count": 1}], passengers=["a"])
    assert not report(squad_entry("a"), ride).has_errors
    assert "bad_passenger" in codes(report(squad_entry("a"), vehicle_entry("v", passengers=["nobody"])), "error")
    twice = report(squad_entry("a"), vehicle_entry("v", passengers=["a"]), vehicle_entry("w", passengers=["a"]))
    assert "carried_twice" in codes(twice, "error")
    assert "unarmed" in codes(report(vehicle_entry("v")), "info")


def blocks_of(*entries) -> dict:
    views = ARMY.entry_views({"system": "squads", "faction": "any", "entries": list(entries)})
    return {
        key: {b.get("option", b["type"]): b for b in view["blocks"]} | {"_all": view} for key, view in views.items()
    }


def test_a_squad_is_built_with_controls_never_json():
    options = {"armour": "light", "figures": [{"weapon": "lmg", "count": 1}, {"weapon": "rifle", "count": 2,
               "armour": "heavy"}], "leader": None}  # fmt: skip
    view = blocks_of(squad_entry("a", "veteran", **options))["a"]
    assert all(b["type"] != "json" for b in view["_all"]["blocks"])
    slots = view["figures"]
    assert slots["type"] == "slots"
    assert len(slots["slots"]) == 4  # three figures and an empty line to add one
    chosen = [next((c["value"] for c in s["choices"] if c["selected"]), None) for s in slots["slots"]]
    assert chosen == [{"weapon": "lmg", "count": 1}, {"weapon": "rifle", "count": 1, "armour": "heavy"},
                      {"weapon": "rifle", "count": 1, "armour": "heavy"}, None]  # fmt: skip
    leader = [b for b in view["_all"]["blocks"] if b.get("option") == "leader"]
    assert len(leader) == 1  # no leader: only his level («Без лидера» chosen), no weapon yet
    assert [c["value"] for c in leader[0]["choices"]][0] is None
    assert leader[0]["choices"][0]["selected"]
    # What the slots write (one item a figure) is the same build: it validates and keeps its figures.
    written = {**options, "figures": [c for c in chosen if c], "leader": leader[0]["choices"][4]["value"]}
    assert written["leader"] == {"level": "elite", "weapon": "lmg"}
    assert not report(squad_entry("a", "veteran", **written)).has_errors
    view = blocks_of(squad_entry("a", "veteran", **written))["a"]
    levels, weapons = [b for b in view["_all"]["blocks"] if b.get("option") == "leader"]
    assert [c["selected"] for c in levels["choices"]] == [False, False, False, False, True]
    assert next(c["value"] for c in weapons["choices"] if c["selected"]) == {"level": "elite", "weapon": "lmg"}
    assert view["_all"]["summary"] == (
        "armour: Light armour; Light machine gun ×1, Rifle ×2; leader: Elite, Light machine gun"
    )


def test_the_suggested_points_stay_when_the_slots_write_the_same_build_one_figure_a_line():
    pack = json.loads((DATA / "squads-suggested.json").read_text(encoding="utf-8"))
    profile = next(p for p in pack["profiles"] if p["slug"] == "recruit-lmg")
    entry = {"key": "r", "profile": profile, "count": 1, "options": ARMY.default_options(profile)}
    slots = blocks_of(entry)["r"]["figures"]["slots"]
    one_by_one = [next(c["value"] for c in s["choices"] if c["selected"]) for s in slots[:-1]]
    assert len(one_by_one) == 5
    again = {**entry, "options": {**entry["options"], "figures": one_by_one}}
    assert ARMY.cost_roster({"entries": [again]}).total == 18
    changed = {**entry, "options": {**entry["options"], "figures": one_by_one[:-1]}}
    assert ARMY.cost_roster({"entries": [changed]}).total == 0


def test_a_vehicle_carries_the_rosters_squads_by_their_names():
    entries = [squad_entry("a", "regular"), squad_entry("b", "regular"), squad_entry("c", "elite"),
               vehicle_entry("v", weapons=[{"weapon": "hmg", "count": 2}], passengers=["b"])]  # fmt: skip
    view = blocks_of(*entries)["v"]
    assert [b["type"] for b in view["_all"]["blocks"]] == ["choice", "slots", "checks"]
    carried = view["passengers"]["items"]
    assert [(i["value"], i["label"], i["checked"]) for i in carried] == [
        ("a", "Отряд: Рядовой №1", False), ("b", "Отряд: Рядовой №2", True), ("c", "Отряд: Элита", False)]  # fmt: skip
    assert len(view["weapons"]["slots"]) == 3
    assert view["_all"]["summary"] == "crew: Regular; Heavy machine gun ×2; carries: Отряд: Рядовой №2"
