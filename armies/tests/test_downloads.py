"""Downloads keep a roster's Russian name (RFC 6266 / RFC 5987) and still give old browsers an ASCII file name."""

from urllib.parse import unquote

from django.test import Client

from armies import services
from config.downloads import ascii_filename, attachment, safe_filename


def _parts(header: str) -> dict:
    kind, *params = [p.strip() for p in header.split(";")]
    found = {"kind": kind}
    for p in params:
        key, value = p.split("=", 1)
        found[key] = value
    return found


def test_a_cyrillic_roster_name_downloads_with_both_file_names(owner, official_pack):
    roster = services.roster_create(owner=owner, pack=official_pack, name="Синяя армия: «Щит»", faction="protectorate")
    client = Client()
    client.force_login(owner)
    response = client.get(f"/rosters/{roster.pk}/export/")
    assert response.status_code == 200
    header = response["Content-Disposition"]
    header.encode("ascii")  # the header itself is plain ASCII: nothing for a browser to mangle
    parts = _parts(header)
    assert parts["kind"] == "attachment"
    assert parts["filename"] == '"sinyaya-armiya-shchit.armlist.json"'
    assert parts["filename*"].startswith("UTF-8''")
    assert unquote(parts["filename*"][7:]) == "Синяя армия «Щит».armlist.json"  # the colon is dropped


def test_the_shared_export_uses_the_same_header(owner, official_pack):
    roster = services.roster_create(owner=owner, pack=official_pack, name="Красные", faction="polaris")
    link = services.share_link_create(roster=roster, user=owner)
    header = Client().get(f"/s/{link.token}/export/")["Content-Disposition"]
    assert _parts(header)["filename"] == '"krasnye.armlist.json"'
    assert unquote(_parts(header)["filename*"][7:]) == "Красные.armlist.json"


def test_header_helpers():
    assert safe_filename('a/b\\c:"d"\n') == "a b c d"
    assert ascii_filename("Ёжик в тумане") == "download"  # nothing ASCII to keep: the default
    assert ascii_filename("Café crème.json") == "Cafe-creme.json"
    assert (
        attachment("balance-job-7.csv")
        == "attachment; filename=\"balance-job-7.csv\"; filename*=UTF-8''balance-job-7.csv"
    )
    assert attachment("«Щит».json", fallback="shield.json").startswith('attachment; filename="shield.json"; ')
