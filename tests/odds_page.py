"""The odds page (/odds/?system=<slug>) through a phone, for every system's browser test of it: ask one action with
these fields and read the answer, and check that nothing scrolls sideways. Waits use Playwright's `expect` (the
page's CSP forbids eval)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

ANSWER_MS = 30_000  # generous: the machine may be busy


def open_in_russian(phone_context, base: str, system: str) -> tuple[Page, list[str]]:
    """The odds page of the system `system` (its slug) on a Russian phone, and the list its script errors fill."""
    page = phone_context(locale="ru-RU", extra_http_headers={"Accept-Language": "ru"}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/odds/?system={system}")
    return page, errors


def compute(
    page: Page,
    action: str,
    fields: dict[str, str] | None = None,
    selects: dict[str, object] | None = None,
    checks: tuple[str, ...] = (),
    *,
    until: str = "",
) -> str:
    """The odds page's answer to `action`: `selects` picks each select's option by its JSON value, `fields` fills the
    text fields, `checks` ticks the boxes (each by its field id without the «f-»); `until`: a text only this answer
    has (a busy machine may still show the answer before it)."""
    page.select_option("#odds-action", action)
    for field, value in (selects or {}).items():
        page.select_option(f"#f-{field}", json.dumps(value))
    for field, value in (fields or {}).items():
        page.fill(f"#f-{field}", value)
    for box in checks:
        page.check(f"#f-{box}")
    result = page.locator("#odds-result")
    # The last answer gone, so the wait is for this one (waiting for "not the old text" compared text content with
    # inner text, which differ in whitespace, and passed at once, reading the old answer on a busy machine).
    page.evaluate("document.getElementById('odds-result').replaceChildren()")
    page.click("#odds-go")
    expect(result.locator("p").first).to_be_visible(timeout=ANSWER_MS)
    if until:
        expect(result).to_contain_text(until, timeout=ANSWER_MS)
    return result.inner_text()


def no_sideways_scroll(page: Page) -> None:
    """Nothing on the page is wider than the phone's screen."""
    width, screen = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= screen, (width, screen)
