"""The official «Технолог Классик» pack file and the idempotent, versioning `load_packs` command."""

import json
from io import StringIO
from pathlib import Path

import jsonschema
import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from armies.models import DataPack, UnitProfile
from rules.systems.bronepekhota.profile import PROFILE_SCHEMA

PACK_FILE = Path(__file__).resolve().parents[2] / "rules/systems/bronepekhota/data/tehnolog-classic.json"
PACK = json.loads(PACK_FILE.read_text(encoding="utf-8"))
BY_SLUG = {p["slug"]: p for p in PACK["profiles"]}


@pytest.mark.parametrize("profile", PACK["profiles"], ids=lambda p: p["slug"])
def test_every_profile_validates_against_the_schema(profile):
    jsonschema.Draft202012Validator(PROFILE_SCHEMA).validate(profile)


def test_the_whole_card_set_is_converted():
    kinds = [p["kind"] for p in PACK["profiles"]]
    # 32 squad records, the Aborigines twice → 31 squads; 30 machines, 8 of them guns (speed 0).
    assert (kinds.count("squad"), kinds.count("vehicle"), kinds.count("gun")) == (31, 22, 8)
    assert len(BY_SLUG) == len(PACK["profiles"])
    assert {f["slug"]: f["colour"] for f in PACK["factions"]} == {
        "protectorate": "blue",
        "polaris": "red",
        "green": "green",
    }


def test_rulebook_facts_are_recorded():
    """Spec §2.5: VARAN heavy, SALAMANDER light, mortar mobile, twin cannon stationary rank 2, GRYPHON rank 2 …"""
    assert BY_SLUG["varan"]["data"]["weight"] == "heavy"
    assert BY_SLUG["salamander"]["data"]["weight"] == "light"
    assert BY_SLUG["salamander"]["data"]["strength_max"] == 7
    assert BY_SLUG["minomet"]["kind"] == "gun"
    assert BY_SLUG["minomet"]["data"]["mobile"] is True
    assert BY_SLUG["minomet"]["data"]["weapons"][0]["charges"] == ["shell", "mine"]
    assert BY_SLUG["sparennaya_pushka"]["data"]["mobile"] is False
    assert BY_SLUG["sparennaya_pushka"]["data"]["rank"] == 2
    assert BY_SLUG["griffin"]["data"]["rank"] == 2
    assert BY_SLUG["trex"]["data"]["rof"] == 2
    assert [s["speed"] for s in BY_SLUG["bronekhod"]["data"]["speed_sectors"]] == [4, 3, 2]
    assert BY_SLUG["bronekhod"]["data"]["speed_sectors"][1]["colour"] == "yellow"  # p.16: yellow sector = speed 3
    heavy_rockets = [w for p in PACK["profiles"] for w in p["data"].get("arsenal", []) if w["name"] == "Тяжелая ракета"]
    assert len(heavy_rockets) == 3
    assert all(w["special"]["blast_steps"] == 2 and w["special"]["blast_power"] == "1Д20" for w in heavy_rockets)
    helix = BY_SLUG["helix"]["data"]["variants"]
    assert [v["key"] for v in helix] == ["rockets", "repair"]
    assert helix[1]["repair_platform"] is True


def test_dice_written_as_on_the_cards_and_melee_weapons():
    gatling = next(w for w in BY_SLUG["madbull"]["data"]["arsenal"] if w["name"] == "Пушка Гатлинга")
    assert (gatling["range"], gatling["power"]) == ("Д12", "3Д20")
    saw = next(w for w in BY_SLUG["hurricane"]["data"]["arsenal"] if w["name"] == "Выброплая")
    assert (saw["melee"], saw["range"], saw["power"]) == (2, None, None)
    soldier = BY_SLUG["polaris_lyogkaya_shturmovaya_klon_pehota"]["data"]["soldiers"][0]
    assert (soldier["range"], soldier["power"], soldier["abilities"]) == ("Д6+2", "2Д6", ["jump:4"])
    dash = BY_SLUG["polaris_rezhimnaya_klon_pehota"]["data"]["soldiers"][0]
    assert dash["range"] is None


def test_placement_and_inferences_are_documented():
    assert BY_SLUG["aborigeny"]["faction"] == "green"
    assert "protectorate_aborigeny" not in BY_SLUG
    assert "mercenaries_aborigeny" not in BY_SLUG
    assert BY_SLUG["kibertank"]["faction"] == "green"
    assert BY_SLUG["mercenaries_naytstalkery"]["faction"] == "green"
    # The notes are in the book's language; an English reader reads them through the system's en catalogue.
    duplicated = BY_SLUG["protectorate_tyazhyolyy_shturmovoy_desant"]["notes"]
    assert "те же пехотинцы" in duplicated
    with translation.override("en"):
        assert "Same soldiers" in translation.gettext(duplicated)
    for key in ("weight", "locomotion", "guns", "charges", "specials", "helix", "mounts"):
        assert PACK["provenance"]["inferred"][key]
    assert set(PACK["provenance"]["placement"]) >= {"green", "aborigines", "duplicated_squads"}
    # Every machine says which of its values were inferred.
    for p in PACK["profiles"]:
        if p["kind"] != "squad":
            assert "Выведено" in p["notes"] or "по правилам" in p["notes"], p["slug"]
            with translation.override("en"):
                english = translation.gettext(p["notes"])
            assert "nferred" in english or "per the rulebook" in english, p["slug"]


def test_load_packs_is_idempotent_and_a_changed_file_makes_a_new_version(db, tmp_path):
    out = StringIO()
    call_command("load_packs", stdout=out)
    call_command("load_packs", stdout=out)
    assert DataPack.objects.filter(slug="tehnolog-classic").count() == 1
    v1 = DataPack.objects.get(slug="tehnolog-classic")
    assert v1.published
    assert v1.profiles.count() == 61
    assert "unchanged" in out.getvalue()

    changed = json.loads(PACK_FILE.read_text(encoding="utf-8"))
    next(p for p in changed["profiles"] if p["slug"] == "griffin")["cost"] = 75
    path = tmp_path / "tehnolog-classic.json"
    path.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    call_command("load_packs", str(path), stdout=out)
    call_command("load_packs", str(path), stdout=out)
    versions = list(DataPack.objects.filter(slug="tehnolog-classic").order_by("version"))
    assert [v.version for v in versions] == [1, 2]
    assert UnitProfile.objects.get(pack=versions[0], slug="griffin").cost == 70  # the published one never changed
    assert UnitProfile.objects.get(pack=versions[1], slug="griffin").cost == 75
    assert versions[0].checksum != versions[1].checksum


def test_an_invalid_pack_file_is_refused_and_creates_nothing(db, tmp_path):
    broken = json.loads(PACK_FILE.read_text(encoding="utf-8"))
    broken["profiles"][0]["data"]["soldiers"][0]["range"] = "banana"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CommandError, match="not in the expected format"):
        call_command("load_packs", str(path), stdout=StringIO())
    assert not DataPack.objects.exists()
