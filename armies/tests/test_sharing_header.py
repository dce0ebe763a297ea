"""Sharing sits in the roster header with Copy and QR; each link shows its real state (live, stopped, revoked), and
the settings say before saving that leaving "Shared by link" stops the live links."""

import re

import pytest
from django.test import Client

from armies import services
from armies.models import Roster


@pytest.fixture
def client(owner):
    c = Client()
    c.force_login(owner)
    return c


def _rows(html: str) -> list[str]:
    return re.findall(r'data-state="(\w+)" data-testid="share-link"', html)


def test_sharing_is_in_the_header_with_copy_and_qr(client, roster, owner):
    link = services.share_link_create(roster=roster, user=owner)
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    start = html.index('<header class="builder-head">')
    header = html[start : html.index("</header>", start)]
    assert 'id="sharing"' in header
    assert f"/s/{link.token}/" in header
    assert f'data-copy="share-url-{link.pk}"' in header
    assert 'class="qr-code"' in header  # the QR code of the live link
    assert html.index('id="sharing"') < html.index('id="add-units"')  # above the catalogue, not below it
    assert "armies/share.js" in html
    assert _rows(html) == ["live"]
    assert 'data-testid="live-count">1 live link<' in html
    assert 'id="visibility-warning"' in html  # said before saving, next to the visibility choice


def test_a_link_stops_when_the_roster_leaves_link_visibility_and_the_page_says_so(client, roster, owner):
    link = services.share_link_create(roster=roster, user=owner)
    assert Client().get(f"/s/{link.token}/").status_code == 200
    form = {"name": roster.name, "faction": roster.faction, "visibility": "private"}
    response = client.post(f"/rosters/{roster.pk}/settings/", form, follow=True)
    assert "1 share link stopped working" in response.content.decode()
    assert Client().get(f"/s/{link.token}/").status_code == 404
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    # Dead either way: "stopped" while it could come back, "revoked" when the service revokes it on the switch.
    assert _rows(html) in (["stopped"], ["revoked"])
    assert f"/s/{link.token}/" not in html  # a dead link is not offered for copying
    assert ('data-testid="links-stopped"' in html) == (_rows(html) == ["stopped"])
    assert 'id="visibility-warning"' not in html  # nothing live left to warn about


def test_a_revoked_link_shows_as_revoked(client, roster, owner):
    live = services.share_link_create(roster=roster, user=owner)
    dead = services.share_link_create(roster=roster, user=owner)
    assert client.post(f"/rosters/{roster.pk}/links/{dead.pk}/revoke/").status_code == 302
    html = client.get(f"/rosters/{roster.pk}/").content.decode()
    assert sorted(_rows(html)) == ["live", "revoked"]
    assert f"/s/{live.token}/" in html
    assert f"/s/{dead.token}/" not in html


def test_only_the_owner_sees_the_sharing_block(club_setup, club_roster):
    services.share_link_create(roster=club_roster, user=club_setup["owner"])
    Roster.objects.filter(pk=club_roster.pk).update(visibility=Roster.Visibility.LINK)
    editor = Client()
    editor.force_login(club_setup["editor"])
    html = editor.get(f"/rosters/{club_roster.pk}/").content.decode()
    assert 'id="sharing"' not in html
    assert "/s/" not in html
