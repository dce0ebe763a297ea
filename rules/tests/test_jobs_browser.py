"""The job page on a 360 px phone in the system Chromium: the progress bar follows the chunks as they land, cancel
works (a fetch POST with the CSRF token), and a finished job draws its charts without sideways scrolling."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import override_settings
from playwright.sync_api import expect

from rules.jobs import services
from rules.models import BalanceJob
from rules.tests.jobs_support import ARMY_A, ARMY_B, DUEL_UNITS, make_roster, official_pack, purge_queue

pytestmark = [pytest.mark.browser]
PASSWORD = "balance-pass-5531"


@pytest.fixture
def player(transactional_db):
    user = get_user_model().objects.create_user(username="analyst", password=PASSWORD)
    pack = official_pack()
    rosters = (
        make_roster(user, pack, "Blue", "protectorate", ARMY_A),
        make_roster(user, pack, "Red", "polaris", ARMY_B),
    )
    yield user, pack, rosters
    purge_queue()


def login(page, live_server, path):
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("input[name=username]", "analyst")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")  # the header has buttons too (language)
    page.wait_for_url(f"**{path}")


@override_settings(BALANCE_CHUNK_BATTLES=50)
def test_progress_follows_the_chunks_and_cancel_works(live_server, phone_context, player):
    user, _pack, (blue, red) = player
    job = services.balance_job_submit_rosters(user=user, roster_a_id=blue.pk, roster_b_id=red.pk, battles=200)
    page = phone_context().new_page()
    login(page, live_server, f"/jobs/{job.pk}/")
    assert "0 of 200 battles" in page.locator("#progress-count").inner_text()

    # two chunks land (as a worker would record them): the page shows it without a reload
    BalanceJob.objects.filter(pk=job.pk).update(
        status="running", battles_done=F("battles_done") + 100, chunks_done=2, started_at=job.created_at
    )
    # expect() rather than a wait_for_function string: the page's CSP forbids eval (no 'unsafe-eval')
    expect(page.locator("#progress-count")).to_have_text(re.compile(r"^100 of 200"))
    assert page.locator(".bar").get_attribute("aria-valuenow") == "50"
    expect(page.locator("#progress-eta")).to_contain_text("left")

    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#cancel-job")
    expect(page.locator("#status-badge")).to_have_text("Cancelled")
    job.refresh_from_db()
    assert job.status == "cancelled"
    assert page.locator("#cancel-job").count() == 0  # the reloaded page has nothing left to cancel
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_finished_jobs_draw_their_charts_on_a_phone(live_server, phone_context, player):
    user, pack, (blue, red) = player
    roster_job = services.balance_job_submit_rosters(
        user=user, roster_a_id=blue.pk, roster_b_id=red.pk, battles=300, seed=1
    )
    duel_job = services.balance_job_submit_duels(user=user, pack_id=pack.pk, profiles=DUEL_UNITS, battles=100)
    for job in (roster_job, duel_job):
        for i in range(job.chunk_count):
            services.balance_chunk_run(job_id=job.pk, index=i)
    page = phone_context().new_page()
    login(page, live_server, f"/jobs/{roster_job.pk}/")
    assert page.locator("#chart-outcomes svg rect").count() == 3
    assert page.locator("#chart-rounds svg rect").count() == 8
    assert page.locator("#chart-surviving svg rect").count() >= 20
    # the answer first, in words (issue #19); the verdict's statistics wait under the fold until opened
    assert page.locator("#reading .chances li").count() == 3
    assert page.locator("#reading .headline").inner_text().strip()
    assert not page.locator(".verdict").is_visible()
    page.locator("#statistics > summary").click()
    assert page.locator(".verdict").inner_text().split(":")[0] in ("Balanced", "Acceptable", "Unbalanced")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    page.goto(f"{live_server.url}/jobs/{duel_job.pk}/")
    cells = page.locator("#chart-heatmap rect.cell")
    assert cells.count() == 16
    cells.nth(1).click()
    assert " against " in page.locator("#heatmap-cell").inner_text()
    assert page.locator("#chart-costs svg").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the heat map scrolls inside its box
    with page.expect_download() as download:
        page.click("text=CSV (matrix)")
    assert download.value.suggested_filename == f"balance-job-{duel_job.pk}-matrix.csv"
