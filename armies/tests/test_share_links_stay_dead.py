"""Issue #18: a revoked or hidden share link stays dead; sharing again makes a new token. An editor who changes who
sees a roster gets 403 (the owner's right), not 400."""

import pytest
from django.test import Client

from armies import services
from armies.models import Roster, ShareLink

LINK, PRIVATE, CLUB = Roster.Visibility.LINK, Roster.Visibility.PRIVATE, Roster.Visibility.CLUB


def opens(token) -> bool:
    client = Client()
    page, api = client.get(f"/s/{token}/"), client.get(f"/api/v1/shared/{token}/")
    assert page.status_code == api.status_code
    return page.status_code == 200


@pytest.fixture
def shared(club_roster, club_setup):
    link = services.share_link_create(roster=club_roster, user=club_setup["owner"])
    assert opens(link.token)
    return club_roster, link


@pytest.mark.parametrize("hidden_as", [PRIVATE, CLUB])
def test_a_hidden_link_stays_dead_when_the_roster_is_shared_by_link_again(shared, club_setup, hidden_as):
    roster, old = shared
    services.roster_update(roster=roster, user=club_setup["owner"], visibility=hidden_as)
    assert not opens(old.token)
    services.roster_update(roster=roster, user=club_setup["owner"], visibility=LINK)
    assert not opens(old.token)
    old.refresh_from_db()
    assert old.revoked_at is not None
    new = services.share_link_create(roster=roster, user=club_setup["owner"])
    assert new.token != old.token
    assert opens(new.token)
    assert not opens(old.token)


def test_the_api_round_trip_private_then_link_keeps_the_old_token_dead(shared, club_setup):
    roster, old = shared
    client = Client()
    client.force_login(club_setup["owner"])
    url = f"/api/v1/rosters/{roster.pk}/"
    for visibility in (PRIVATE, LINK):
        response = client.patch(url, {"visibility": visibility}, content_type="application/json")
        assert response.status_code == 200, response.content
    assert not opens(old.token)
    created = client.post(f"/api/v1/rosters/{roster.pk}/links/", {}, content_type="application/json")
    assert created.status_code == 201
    assert created.json()["token"] != old.token
    assert opens(created.json()["token"])


def test_sharing_a_private_roster_again_never_revives_a_link_hidden_before_this_change(shared, club_setup):
    """A link hidden before links were revoked on hiding (active row, roster not "link"): sharing again kills it."""
    roster, old = shared
    Roster.objects.filter(pk=roster.pk).update(visibility=PRIVATE)  # as the old code left it: not revoked
    roster.refresh_from_db()
    new = services.share_link_create(roster=roster, user=club_setup["owner"])
    assert opens(new.token)
    assert not opens(old.token)


def test_a_revoked_link_stays_dead_through_any_visibility_change(shared, club_setup):
    roster, old = shared
    services.share_link_revoke(link=old)
    for visibility in (PRIVATE, LINK, CLUB, LINK):
        services.roster_update(roster=roster, user=club_setup["owner"], visibility=visibility)
        assert not opens(old.token)


def test_other_settings_leave_a_live_link_alone(shared, club_setup):
    roster, link = shared
    services.roster_update(roster=roster, user=club_setup["owner"], name="Renamed", visibility=LINK)
    assert opens(link.token)


def test_an_editor_changing_visibility_gets_403_and_nothing_changes(shared, club_setup):
    roster, link = shared
    client = Client()
    client.force_login(club_setup["editor"])
    version = Roster.objects.get(pk=roster.pk).version
    response = client.patch(f"/api/v1/rosters/{roster.pk}/", {"visibility": PRIVATE}, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["errors"] == {"visibility": "owner only"}
    roster.refresh_from_db()
    assert (roster.visibility, roster.version) == (LINK, version)
    assert opens(link.token)
    # The editor may still change what editors may: the name, with the visibility as it is.
    same = client.patch(
        f"/api/v1/rosters/{roster.pk}/", {"visibility": LINK, "name": "Edited"}, content_type="application/json"
    )
    assert same.status_code == 200


def test_an_editor_changing_visibility_on_the_page_gets_403(shared, club_setup):
    roster, _link = shared
    client = Client()
    client.force_login(club_setup["editor"])
    form = {"name": roster.name, "faction": roster.faction, "visibility": PRIVATE, "club": roster.club_id}
    response = client.post(f"/rosters/{roster.pk}/settings/", form)
    assert response.status_code == 403
    assert Roster.objects.get(pk=roster.pk).visibility == LINK
    assert ShareLink.objects.filter(roster=roster, revoked_at__isnull=True).count() == 1
