"""Issue #18: the Content-Security-Policy holds on every main page. Each page is opened in the system Chromium with
the header the server sends; no "Refused to …" message and no securitypolicyviolation event may appear."""

from __future__ import annotations

import pytest
from django.test import Client

from armies.services import share_link_create
from battles import services
from battles.tests.conftest import PASSWORD
from rules.models import BalanceJob
from rules.registry import all_systems

# Redoc's sidebar shows the Redocly logo from their CDN: the policy blocks it (the page asks nothing of another host),
# and the bundle hides the broken image. The one violation a page may report.
REDOC_LOGO = "img-src https://cdn.redoc.ly/redoc/logo-mini.svg"

# Set before any page script runs: every violation the browser reports, with what was blocked and where.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""


def running_job(owner, roster_a, roster_b):
    return BalanceJob.objects.create(
        owner=owner,
        system="bronepekhota",
        kind=BalanceJob.Kind.ROSTERS,
        title="Blue vs Red",
        roster_a=roster_a,
        roster_b=roster_b,
        seed=7,
        battles=1000,
        total_battles=1000,
        chunk_count=4,
        chunks_done=2,
        battles_done=500,
        status=BalanceJob.Status.RUNNING,
    )


def pages(battle, blue, job, waiting):
    """`waiting`: a battle whose second side has not joined (its invitation and QR code show)."""
    token = waiting.sides.get(index=1).invite_token
    return [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/rosters/",
        f"/rosters/{blue.pk}/",
        f"/rosters/{blue.pk}/print/",
        "/battles/",
        "/battles/new/",
        f"/battles/{battle.pk}/",
        f"/battles/{battle.pk}/log/",
        f"/battles/{waiting.pk}/",
        f"/battles/join/{token}/",
        "/odds/",
        *[f"/odds/?system={system.slug}" for system in all_systems()],
        "/jobs/",
        f"/jobs/{job.pk}/",
        "/packs/",
        "/api/docs/",
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_main_pages_break_no_rule_of_the_content_security_policy(live_server, phone_context, battle, rosters, alice):
    blue, red = rosters
    job = running_job(alice, blue, red)
    waiting = services.battle_create(user=alice, name="Waiting", rosters=[blue, red])
    share_link_create(roster=blue, user=alice)  # the roster page shows the link and its QR code
    client = Client()
    assert client.login(username=alice.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    ctx.add_init_script(RECORD_VIOLATIONS)
    refused: list[str] = []
    elsewhere: list[str] = []
    page = ctx.new_page()
    page.on("console", lambda m: refused.append(f"{page.url}: {m.text}") if "violates" in m.text else None)
    # Only requests that reached a server: the logo's is refused by the browser before it leaves.
    page.on(
        "requestfinished",
        lambda r: None if r.url.startswith((live_server.url, "blob:", "data:")) else elsewhere.append(r.url),
    )
    for path in pages(battle, blue, job, waiting):
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        policy = response.header_value("content-security-policy") or ""
        directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}  # in any order
        assert directives.get("script-src") == ["'self'"], (path, policy)
        assert "unsafe-inline" not in policy, path
        if path == "/api/docs/":
            page.get_by_role("heading", name="Armlist API").wait_for()
        # What scripts do once the page is up (Redoc's worker and logo come late; a board long-polls, so the
        # network is never idle there).
        page.wait_for_timeout(400)
        violations = [v for v in page.evaluate("window.__csp") if not (path == "/api/docs/" and v == REDOC_LOGO)]
        assert violations == [], (path, violations)
    assert [r for r in refused if "logo-mini.svg" not in r] == []
    assert elsewhere == []
    # The behaviours moved out of inline handlers still work: the job's bar has its width from data-percent.
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    width = page.evaluate("document.querySelector('.bar-fill').style.width")
    assert width == "50%"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_invite_link_selects_itself_and_the_game_choice_submits(live_server, phone_context, battle, alice):
    client = Client()
    assert client.login(username=alice.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/new/")
    with page.expect_navigation():
        page.select_option("#f-system", "squads")
    assert "system=squads" in page.url
    page.goto(f"{live_server.url}/battles/{battle.pk}/")
    page.get_by_text("Invite and share").click()
    link = page.locator("#watch-link")
    link.click()
    selected = page.evaluate("document.activeElement.selectionEnd - document.activeElement.selectionStart")
    assert selected == len(link.input_value()) > 0


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_qr_code_keeps_its_size_from_the_stylesheet(live_server, phone_context, rosters, alice, bob):
    blue, red = rosters
    waiting = services.battle_create(user=alice, name="Waiting", rosters=[blue, red])
    client = Client()
    assert client.login(username=bob.username, password=PASSWORD)
    ctx = phone_context()
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/battles/join/{waiting.sides.get(index=1).invite_token}/")
    box = page.locator(".qr-box svg.qr-code").bounding_box()
    assert 150 < box["width"] <= 14 * 16 + 1  # min(14rem, 70vw) on a 360 px phone: 252 px wide at most
    assert abs(box["width"] - box["height"]) < 2
