"""The base layout on a 360 px phone and on a desktop, in light and dark mode (system Chromium)."""

import pytest


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_home_fits_a_phone_and_follows_the_colour_scheme(live_server, phone_context, scheme):
    page = phone_context(color_scheme=scheme).new_page()
    page.goto(live_server.url + "/")
    assert page.get_by_role("link", name="Army builder").is_visible()
    # Nothing wider than the screen: no sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    light = background == "rgb(247, 247, 244)"
    assert light == (scheme == "light"), background


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_on_a_desktop(live_server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(live_server.url + "/")
    assert page.get_by_role("link", name="Odds", exact=True).is_visible()
    ctx.close()
