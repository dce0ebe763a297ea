"""Server-rendered pages: roster list and creation, builder, print, text, import, upgrade, packs, clubs, demo."""

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from armies import selectors, services
from armies.models import DataPack, Membership, Roster, UnitProfile


@pytest.fixture
def browser_client(owner):
    client = Client()
    client.force_login(owner)
    return client


def test_create_a_roster_from_the_list_page(browser_client, official_pack):
    page = browser_client.get("/rosters/")
    assert "New roster" in page.content.decode()
    response = browser_client.post(
        "/rosters/", {"name": "Page army", "pack": official_pack.pk, "faction": "polaris", "points_limit": "250"}
    )
    roster = Roster.objects.get(name="Page army")
    assert response.status_code == 302
    assert response["Location"] == f"/rosters/{roster.pk}/"
    assert roster.points_limit == 250
    bad = browser_client.post("/rosters/", {"name": "", "pack": official_pack.pk, "faction": "green"})
    assert bad.status_code == 200
    assert "errorlist" in bad.content.decode()


def test_builder_page_shows_totals_issues_and_the_catalogue(browser_client, roster):
    services.entry_add(roster=roster, profile="viper")  # no pilot: an error on that entry
    html = browser_client.get(f"/rosters/{roster.pk}/").content.decode()
    assert 'data-testid="total">210<' in html
    assert "VIPER needs a pilot" in html
    assert 'data-action="add" data-profile="minomet"' in html  # green joins the blue army
    assert 'data-profile="raptor"' not in html  # red does not
    assert "builder.js" in html
    assert "Киберспецназ · №1 · rank 3" in html  # pilot choices name squad, soldier and rank


def test_read_only_viewer_sees_no_controls(club_setup, club_roster):
    client = Client()
    client.force_login(club_setup["member"])
    html = client.get(f"/rosters/{club_roster.pk}/").content.decode()
    assert "read-only" in html
    assert 'data-action="remove"' not in html
    assert "Add units" not in html


def test_print_views_and_text_export(browser_client, roster):
    cards = browser_client.get(f"/rosters/{roster.pk}/print/").content.decode()
    assert "Киберспецназ" in cards
    assert "<th>Arm</th>" in cards  # the armour letter in the reader's language (Russian «Бр»)
    russian = browser_client.get(f"/rosters/{roster.pk}/print/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<th>Бр</th>" in russian
    assert "Ракетная установка — Д6+3 / 2Д20" in cards
    compact = browser_client.get(f"/rosters/{roster.pk}/print/?layout=list").content.decode()
    assert "list-table" in compact
    text = browser_client.get(f"/rosters/{roster.pk}/text/")
    assert text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert body.startswith("Blue army: 160 pts\n")
    assert "- GRYPHON [70]" in body
    assert "pilot: soldier 1 of Киберспецназ" in body


def test_export_download_and_import_upload(browser_client, roster):
    download = browser_client.get(f"/rosters/{roster.pk}/export/")
    assert "attachment" in download["Content-Disposition"]
    upload = SimpleUploadedFile("army.json", download.content, content_type="application/json")
    response = browser_client.post("/rosters/import/", {"file": upload})
    assert response.status_code == 302
    assert Roster.objects.filter(owner=roster.owner).count() == 2
    garbage = SimpleUploadedFile("army.json", b"{not json", content_type="application/json")
    refused = browser_client.post("/rosters/import/", {"file": garbage})
    assert refused.status_code == 400
    assert "not valid JSON" in refused.content.decode()
    data = json.loads(download.content)
    data["format_version"] = 7
    foreign = SimpleUploadedFile("army.json", json.dumps(data).encode(), content_type="application/json")
    refused = browser_client.post("/rosters/import/", {"file": foreign})
    assert "format version 7 is not supported" in refused.content.decode()
    assert Roster.objects.filter(owner=roster.owner).count() == 2


def test_upgrade_page_shows_changes_before_applying(browser_client, roster, official_pack):
    data = {
        "system": official_pack.system,
        "slug": official_pack.slug,
        "name": official_pack.name,
        "source": "",
        "factions": list(official_pack.factions.values("slug", "name", "colour", "joins_any")),
        "profiles": [
            {**p.as_rules_dict(), "notes": p.notes}
            for p in selectors.pack_profiles(official_pack)
            if p.slug != "griffin"
        ],
    }
    v2, _ = services.pack_load(pack_data=data)
    builder = browser_client.get(f"/rosters/{roster.pk}/").content.decode()
    assert 'data-testid="upgrade-offer"' in builder
    preview = browser_client.get(f"/rosters/{roster.pk}/upgrade/").content.decode()
    assert "GRYPHON is no longer in the pack and will be removed." in preview
    assert 'data-testid="total-after">90<' in preview
    roster.refresh_from_db()
    assert roster.pack_id == official_pack.pk
    browser_client.post(f"/rosters/{roster.pk}/upgrade/", {"version": roster.version})
    roster.refresh_from_db()
    assert roster.pack_id == v2.pk


def test_settings_and_share_link_pages(browser_client, roster):
    response = browser_client.post(
        f"/rosters/{roster.pk}/settings/",
        {
            "name": "Renamed",
            "faction": "protectorate",
            "points_limit": "",
            "visibility": "private",
            "club": "",
            "notes": "",
        },
    )
    assert response.status_code == 302
    roster.refresh_from_db()
    assert roster.name == "Renamed"
    browser_client.post(f"/rosters/{roster.pk}/links/")
    link = roster.share_links.get()
    html = browser_client.get(f"/rosters/{roster.pk}/").content.decode()
    assert f"/s/{link.token}/" in html
    shared = Client().get(f"/s/{link.token}/").content.decode()
    assert "Renamed" in shared
    assert 'data-action="add"' not in shared


def test_custom_unit_form_with_clear_errors(browser_client, official_pack):
    browser_client.post("/packs/", {"name": "Homebrew", "club": ""})
    pack = DataPack.objects.get(name="Homebrew")
    form = browser_client.get(f"/packs/{pack.pk}/units/new/?kind=gun").content.decode()
    assert "&quot;mobile&quot;: true" in form
    bad_data = {
        "rank": 1,
        "mobile": "yes",
        "rof": 1,
        "ammo_max": 4,
        "strength_max": 3,
        "weapons": [{"key": "g", "name": "G", "range": "D7"}],
    }
    response = browser_client.post(
        f"/packs/{pack.pk}/units/new/",
        {"name": "Bad gun", "faction": "green", "kind": "gun", "cost": 10, "data": json.dumps(bad_data)},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "data.mobile" in html
    assert "data.weapons.0.range" in html
    assert not UnitProfile.objects.filter(pack=pack).exists()
    bad_data.update(mobile=True, weapons=[{"key": "g", "name": "G", "range": "Д12", "power": "2Д20"}])
    response = browser_client.post(
        f"/packs/{pack.pk}/units/new/",
        {"name": "Good gun", "faction": "green", "kind": "gun", "cost": 10, "data": json.dumps(bad_data)},
    )
    assert response.status_code == 302
    assert UnitProfile.objects.get(pack=pack).slug == "good-gun"
    browser_client.post(f"/packs/{pack.pk}/publish/")
    pack.refresh_from_db()
    assert pack.published
    assert "Good gun" in browser_client.get(f"/packs/{pack.pk}/").content.decode()


def test_club_pages(browser_client, owner, make_user):
    make_user("friend")
    browser_client.post("/clubs/", {"name": "Tuesday club"})
    membership = Membership.objects.get(user=owner)
    club = membership.club
    assert membership.role == "owner"
    browser_client.post(f"/clubs/{club.pk}/members/", {"username": "friend", "role": "editor"})
    assert club.memberships.get(user__username="friend").role == "editor"
    html = browser_client.get(f"/clubs/{club.pk}/").content.decode()
    assert "friend" in html
    assert "Add a member" in html
    missing = browser_client.post(f"/clubs/{club.pk}/members/", {"username": "ghost", "role": "member"}, follow=True)
    assert "No user named" in missing.content.decode()


def test_official_pack_page_shows_provenance(browser_client, official_pack):
    html = browser_client.get(f"/packs/{official_pack.pk}/").content.decode()
    assert "Provenance" in html
    assert "VARAN" in html
    assert "Add squad" not in html


def test_setup_demo_is_idempotent(db, settings, tmp_path):
    """Every system with an army builder gives the demo club its demo armies (ArmyPart.demo_rosters): nothing in
    setup_demo names a game. «Бронепехота»'s two are valid and of costs within 10 %."""
    from armies.systems import army_systems

    settings.VAR_DIR = tmp_path
    out = StringIO()
    call_command("setup_demo", stdout=out)
    call_command("setup_demo", stdout=out)
    demo = Roster.objects.filter(owner__username="demo")
    assert "skipped" not in out.getvalue(), out.getvalue()
    for slug, _name in army_systems():
        assert demo.filter(system=slug).count() == 2, slug
    # One version of each official pack file of the registered systems, however often it runs.
    assert DataPack.objects.count() == len(services.pack_files())
    assert DataPack.objects.filter(system="bronepekhota").count() == 1
    armoured = demo.filter(system="bronepekhota")
    totals = sorted(selectors.roster_state(r)["total"] for r in armoured)
    assert (totals[1] - totals[0]) / totals[1] <= 0.10
    for r in demo:
        assert selectors.roster_state(r)["counts"]["error"] == 0, (r.system, selectors.roster_state(r)["issues"])
    assert {r.faction for r in armoured} == {"protectorate", "polaris"}
    assert all(r.club and r.club.name == "Demo club" for r in demo)
    password = (tmp_path / "demo_password").read_text().strip()
    assert f"password '{password}'" in out.getvalue()
    client = Client()
    assert client.login(username="demo", password=password)


def test_admin_shows_packs_factions_and_profiles_to_staff(official_pack, make_user):
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    for model in ("datapack", "faction", "unitprofile", "roster", "club"):
        assert client.get(f"/admin/armies/{model}/").status_code == 200
    profile = official_pack.profiles.get(slug="varan")
    page = client.get(f"/admin/armies/unitprofile/{profile.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()  # published: read-only
    client.post(f"/admin/armies/unitprofile/{profile.pk}/change/", {"cost": 1})
    profile.refresh_from_db()
    assert profile.cost == 90
    assert Client().get("/admin/armies/datapack/").status_code == 302
