"""Club invitation links with a role: the owner makes and revokes them, someone signed in joins through one, a dead
link gets a clear page, and only the club's owners may list them."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from armies import services
from armies.models import ClubInvite, Membership


def _client(user=None):
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def club(club_setup):
    return club_setup["club"]


def test_the_owner_makes_a_link_and_a_newcomer_joins_with_its_role(club_setup, club, make_user):
    owner = _client(club_setup["owner"])
    response = owner.post(f"/clubs/{club.pk}/invites/", {"role": "editor", "days": "3"})
    assert response.status_code == 302
    invite = ClubInvite.objects.get(club=club)
    assert invite.role == "editor"
    assert timedelta(days=2, hours=23) < invite.expires_at - timezone.now() <= timedelta(days=3)
    page = owner.get(f"/clubs/{club.pk}/").content.decode()
    assert f"/clubs/join/{invite.token}/" in page
    assert 'class="qr-code"' in page  # the QR code of the link
    assert 'data-copy="invite-url-' in page

    newcomer = make_user("newcomer")
    guest = _client(newcomer)
    join_page = guest.get(f"/clubs/join/{invite.token}/")
    assert join_page.status_code == 200
    assert "Test club" in join_page.content.decode()
    assert not Membership.objects.filter(club=club, user=newcomer).exists()  # opening the page joins nobody
    joined = guest.post(f"/clubs/join/{invite.token}/")
    assert joined.status_code == 302
    assert joined["Location"] == f"/clubs/{club.pk}/"
    assert Membership.objects.get(club=club, user=newcomer).role == "editor"
    invite.refresh_from_db()
    assert invite.uses == 1
    again = guest.post(f"/clubs/join/{invite.token}/")  # joining twice changes nothing
    assert again.status_code == 302
    assert Membership.objects.filter(club=club, user=newcomer).count() == 1


def test_signing_in_comes_first(club_setup, club):
    invite = services.club_invite_create(club=club, user=club_setup["owner"])
    response = _client().get(f"/clubs/join/{invite.token}/")
    assert response.status_code == 302
    assert "/login" in response["Location"]


@pytest.mark.parametrize("how", ["revoked", "expired"])
def test_a_dead_link_gets_a_clear_page_and_joins_nobody(club_setup, club, make_user, how):
    invite = services.club_invite_create(club=club, user=club_setup["owner"])
    if how == "revoked":
        owner = _client(club_setup["owner"])
        assert owner.post(f"/clubs/{club.pk}/invites/{invite.pk}/revoke/").status_code == 302
    else:
        ClubInvite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    late = make_user("late")
    guest = _client(late)
    for response in (guest.get(f"/clubs/join/{invite.token}/"), guest.post(f"/clubs/join/{invite.token}/")):
        assert response.status_code == 410
        html = response.content.decode()
        assert 'data-testid="invite-dead"' in html
        assert ("was revoked" if how == "revoked" else "expired on") in html
        assert 'data-testid="join"' not in html
    assert not Membership.objects.filter(club=club, user=late).exists()
    api = _client(late).post(f"/api/v1/clubs/join/{invite.token}/")
    assert api.status_code == 410
    assert api.json()["state"] == how
    assert _client(late).get("/clubs/join/no-such-token/").status_code == 404


def test_only_owners_see_and_manage_links(club_setup, club):
    services.club_invite_create(club=club, user=club_setup["owner"], role="member", days=1)
    assert _client(club_setup["outsider"]).get(f"/api/v1/clubs/{club.pk}/invites/").status_code == 404
    assert _client(club_setup["member"]).get(f"/api/v1/clubs/{club.pk}/invites/").status_code == 403
    assert _client(club_setup["editor"]).get(f"/api/v1/clubs/{club.pk}/invites/").status_code == 403
    assert _client(club_setup["outsider"]).post(f"/clubs/{club.pk}/invites/", {"role": "member"}).status_code == 404
    member_page = _client(club_setup["member"]).get(f"/clubs/{club.pk}/").content.decode()
    assert "/clubs/join/" not in member_page
    listed = _client(club_setup["owner"]).get(f"/api/v1/clubs/{club.pk}/invites/")
    assert listed.status_code == 200
    assert [(i["role"], i["state"]) for i in listed.json()] == [("member", "live")]


def test_the_api_makes_revokes_and_joins(club_setup, club, make_user):
    owner = _client(club_setup["owner"])
    url = f"/api/v1/clubs/{club.pk}/invites/"
    made = owner.post(url, json.dumps({"role": "member", "days": 30}), content_type="application/json")
    assert made.status_code == 201
    body = made.json()
    assert body["state"] == "live"
    assert "/clubs/join/" in body["url"]
    token = body["url"].rstrip("/").rsplit("/", 1)[1]
    newcomer = _client(make_user("api-user"))
    joined = newcomer.post(f"/api/v1/clubs/join/{token}/")
    assert joined.status_code == 201
    assert joined.json()["role"] == "member"
    assert newcomer.post(f"/api/v1/clubs/join/{token}/").status_code == 200  # already in
    revoked = owner.delete(f"{url}{body['id']}/")
    assert revoked.status_code == 200
    assert revoked.json()["state"] == "revoked"
    assert _client(make_user("later")).post(f"/api/v1/clubs/join/{token}/").status_code == 410


@pytest.mark.parametrize(("payload", "field"), [({"role": "owner"}, "role"), ({"days": 365}, "days")])
def test_bad_invitations_are_refused(club_setup, club, payload, field):
    response = _client(club_setup["owner"]).post(
        f"/api/v1/clubs/{club.pk}/invites/", json.dumps(payload), content_type="application/json"
    )
    assert response.status_code == 400
    assert field in json.dumps(response.json())
    assert not ClubInvite.objects.exists()
    with pytest.raises(services.ServiceError):
        services.club_invite_create(club=club, user=club_setup["owner"], role="owner")


def test_a_member_keeps_their_role_when_opening_a_link(club_setup, club):
    invite = services.club_invite_create(club=club, user=club_setup["owner"], role="member")
    response = _client(club_setup["editor"]).post(f"/clubs/join/{invite.token}/")
    assert response.status_code == 302
    assert Membership.objects.get(club=club, user=club_setup["editor"]).role == "editor"
