"""A club night through the pages alone, as two players on two Russian phones do it (issue #25).

The steps every system's journey shares: sign up, build a roster in the builder, share it by link, start a battle
from «Новый бой» with the opponent's link, join by the invitation, and check that both phones show the same board.
Nothing here calls the API or the ORM: every step is a tap, a choice or a typed value on a page, so a journey fails
where a player would be stuck. Waits use Playwright's `expect` (the pages' CSP forbids eval, which
`wait_for_function` with a string needs).
"""

from __future__ import annotations

import re
import warnings

from playwright.sync_api import Page, expect

PASSWORD = "Kz8-tabletop-Night!"  # noqa: S105 (a test account's)
SYNC_MS = 5000  # the other phone shows a change within a second on a quiet machine; CI machines are busy
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "ru-RU",
    "extra_http_headers": {"Accept-Language": "ru-RU,ru;q=0.9"},
}


def new_phone(phone_context) -> Page:
    """A Russian phone at 360 × 740 with touch (the conftest's phone_context makes the browser context). The page
    keeps a short diary of what happened on it (taps, forms sent, board redraws), which a failing step prints."""
    page = phone_context(**PHONE).new_page()
    page.add_init_script(DIARY)
    return page


# What the page did, with the time in ms since it loaded: read by diary() when a step fails.
DIARY = """
window.__diary = [];
const note = (what) => window.__diary.push(Math.round(performance.now()) + ' ' + what);
document.addEventListener('click', (e) => {
    const b = e.target.closest && e.target.closest('button, summary, a');
    note('click ' + (b ? b.tagName + ' ' + (b.textContent || '').trim().slice(0, 40) : e.target.tagName));
}, true);
document.addEventListener('submit', (e) => note('submit ' + (e.target.dataset.orderCommand || '')), true);
document.addEventListener('battle:updated', () => {
    note('redraw v' + (document.querySelector('#battle') || {dataset: {}}).dataset.version);
});
"""


def diary(page: Page) -> list[str]:
    """The last things the page did (DIARY), for a failure's message."""
    try:
        return page.evaluate("(window.__diary || []).slice(-20)")
    except Exception:  # the page is gone
        return []


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.fill('input[name="username"]', username)
    for field in page.locator('input[type="password"]').all():
        field.fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("header")).to_contain_text(username)


def new_roster(page: Page, base: str, *, pack: str, name: str, faction: str | None = None) -> str:
    """Creates a roster on the pack whose label contains `pack`; answers the roster page's URL."""
    page.goto(f"{base}/rosters/")
    options = page.locator("#id_pack option")
    labels = options.all_inner_texts()
    value = options.nth(next(i for i, label in enumerate(labels) if pack in label)).get_attribute("value")
    page.select_option("#id_pack", value)
    page.fill("#id_name", name)
    if faction is not None:
        page.select_option("#id_faction", label=faction)
    page.locator("#new-roster button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/rosters/\d+/$"))
    expect(page.locator("h1")).to_have_text(name)
    page.wait_for_load_state()  # the builder's script is deferred: a tap before it runs does nothing
    return page.url


def _live_version(page: Page) -> str:
    return page.locator("#roster-live").get_attribute("data-version")


def wait_saved(page: Page, version: str) -> None:
    """Waits until the builder's live part shows a version after `version` and no error."""
    expect(page.locator("#roster-live")).not_to_have_attribute("data-version", version, timeout=SYNC_MS)
    expect(page.locator("#live-error")).to_be_hidden()


def add_unit(page: Page, name: str) -> None:
    """Taps «+» beside the unit of the catalogue called `name` and waits until the builder saved it."""
    version = _live_version(page)
    item = page.locator("#add-units ul.catalogue li").filter(has=page.locator(".cat-name", has_text=name)).first
    item.locator('button[data-action="add"]').click()
    wait_saved(page, version)


def entry(page: Page, name: str, nth: int = 0):
    """The builder's card of the `nth` entry called `name`."""
    return (
        page.locator("#roster-live article.entry")
        .filter(has=page.locator(".entry-title strong", has_text=name))
        .nth(nth)
    )


def choose(page: Page, control, value: str | None = None, *, label: str | None = None) -> None:
    """Picks an option of an entry's select and waits until it is saved."""
    version = _live_version(page)
    if label is not None:
        control.select_option(label=label)
    else:
        control.select_option(value)
    wait_saved(page, version)


def type_in(page: Page, control, text: str) -> None:
    """Types a value into an entry's field, leaves it (the builder saves on change) and waits until it is saved."""
    version = _live_version(page)
    control.fill(text)
    control.press("Tab")
    wait_saved(page, version)


def total(page: Page) -> int:
    return int(re.sub(r"\D", "", page.locator('[data-testid="total"]').inner_text()) or 0)


def share_link(page: Page) -> str:
    """Makes a read-only share link on the roster page (the «Поделиться» panel); answers its address."""
    page.locator("#sharing > summary").click()
    page.locator("#sharing form button").click()
    link = page.locator('#sharing li[data-state="live"] input').first
    expect(link).to_be_visible()
    return link.input_value()


def start_battle(page: Page, base: str, *, game: str, mine: str, opponent_link: str, name: str) -> str:
    """«Новый бой»: the game, my roster, the opponent's by its share link; answers the invitation's address."""
    page.goto(f"{base}/battles/new/")
    select = page.locator("#f-system")
    if select.input_value() != game:
        with page.expect_navigation():
            select.select_option(game)
    page.fill("#id_name", name)
    pick = page.locator(".roster-pick").filter(has_text=mine)
    pick.locator('input[name="rosters"]').check()
    pick.locator('input[name="my_roster"]').check()
    page.fill("#id_roster_links", opponent_link)
    page.locator("form.battle-new > button[type=submit]").click()
    if page.locator("#roster-problems").count():
        raise AssertionError("the rosters break their game's rules: " + page.locator("#roster-problems").inner_text())
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    page.wait_for_load_state()
    page.locator("details.invite > summary").click()
    return page.locator("details.invite input[id^=invite-]").first.input_value()


def join(page: Page, invitation: str) -> None:
    """Opens the invitation on the second phone and takes the side it offers."""
    page.goto(invitation)
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    page.wait_for_load_state()
    in_sync(page)


def in_sync(page: Page) -> None:
    expect(page.locator("#sync-status")).to_have_attribute("data-state", "ok", timeout=SYNC_MS)


def board_text(page: Page) -> str:
    """What the board shows of the game (cards, turn panel, history), without the phone's own controls."""
    return page.locator("#board").evaluate(
        """(board) => {
            const copy = board.cloneNode(true);
            copy.querySelectorAll('script, form, button, input, select, textarea, .mine-only').forEach(e => e.remove());
            return copy.innerText.replace(/\\s+/g, ' ').trim();
        }"""
    )


def same_board(a: Page, b: Page, *, timeout_ms: int = SYNC_MS) -> None:
    """Both phones come to show the same battle version and the same units in the same state."""
    waited = 0
    while True:
        versions = [p.locator("#battle").get_attribute("data-version") for p in (a, b)]
        cards = [unit_summaries(p) for p in (a, b)]
        if versions[0] == versions[1] and cards[0] == cards[1]:
            return
        if waited >= timeout_ms:
            raise AssertionError(f"the phones differ: versions {versions}, cards {cards}")
        a.wait_for_timeout(100)
        waited += 100


def unit_summaries(page: Page) -> dict[str, str]:
    """Each unit card's headline (name, state, flags, stats) by unit key."""
    return page.locator("#board details[data-unit]").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.unit, e.querySelector('summary').innerText.trim()]))"
    )


def ok(page: Page) -> None:
    """Closes the result panel after a command. If none comes, says what the page showed instead (a refusal in
    the form, the sync line), so that a failure on a busy CI machine tells its cause."""
    button = page.locator("#result").get_by_role("button", name="OK")
    try:
        button.wait_for(timeout=SYNC_MS * 3)
    except Exception as error:  # Playwright's TimeoutError
        shown = page.evaluate(
            """() => ({
                form_errors: Array.from(document.querySelectorAll('.form-error')).map(e => e.innerText),
                sync: (document.querySelector('.sync') || {}).innerText,
                version: (document.querySelector('#battle') || {dataset: {}}).dataset.version,
                forms: Array.from(document.querySelectorAll('form[data-order-command]')).map(f => [
                    f.dataset.orderCommand,
                    Array.from(f.elements).filter(e => e.name).map(e => e.name + '=' + e.value).join(' '),
                ]),
            })"""
        )
        raise AssertionError(
            f"no result box after the command; the page showed {shown}; diary {diary(page)}"
        ) from error
    button.click()
    expect(page.locator("#result")).to_be_hidden()


def new_club(page: Page, base: str, name: str) -> str:
    """Creates a club on /clubs/ and answers an invitation link to it (made on the club's page)."""
    page.goto(f"{base}/clubs/")
    page.fill("main form #id_name", name)
    page.locator("main form button[type=submit]").last.click()
    expect(page.locator("h1")).to_have_text(name)
    page.locator("#invites form button[type=submit]").click()
    link = page.locator('#invites li[data-state="live"] input').first
    expect(link).to_be_visible()
    return link.input_value()


def join_club(page: Page, invitation: str) -> None:
    page.goto(invitation)
    page.locator('[data-testid="join"]').click()
    expect(page).to_have_url(re.compile(r"/clubs/\d+/$"))


def type_dice(form, marker: str, values: list[int]) -> list[str]:
    """Types the dice rolled at the table into a form's boxes (static/battles/dice_boxes.js; `marker` is the system's
    data attribute, e.g. "data-squads-dice"), one by one: each box is filled only once the boxes follow what is typed
    so far (a hit asks for the next die, a miss for none), so no die goes into a box about to be redrawn. All of them
    are used; answers the boxes' labels."""
    ready = form.locator(f'[{marker}] .boxes[data-state="ready"]')
    boxes = form.locator(f'[{marker}] input[name="die"]')
    for i, value in enumerate(values):
        expect(ready).to_have_count(1, timeout=SYNC_MS)
        expect(boxes.nth(i)).to_be_visible()
        boxes.nth(i).fill(str(value))
    expect(ready).to_have_count(1, timeout=SYNC_MS)
    expect(boxes).to_have_count(len(values), timeout=SYNC_MS)
    assert [x.input_value() for x in boxes.all()] == [str(v) for v in values]
    return [x.inner_text().strip() for x in form.locator(f"[{marker}] label.die-box").all()]


def _tap_until_seen(page: Page, button, seen, wait_ms: int, what: str) -> None:
    """Taps `button` and waits up to `wait_ms` for a line of the page's diary that `seen` accepts. A tap whose press
    and release land on two drawings of the board (the other phone's change redrawn in between) is no click for the
    browser, and nothing happens, as when a thumb slips. Only then, with nothing seen, the tap is made again, once,
    and the test run says so; a tap that was seen is never made twice."""
    assert page.evaluate("Array.isArray(window.__diary)"), "a phone made by new_phone (its diary) is needed"
    before = len(page.evaluate("window.__diary"))
    button.click()
    for attempt in range(2):
        for _ in range(wait_ms // 100):
            if any(seen(line) for line in page.evaluate("window.__diary || []")[before:]):
                return
            page.wait_for_timeout(100)
        if attempt == 0:
            warnings.warn(f"{what}: nothing seen; tapped again. Diary: {diary(page)}", stacklevel=3)
            button.click()
    raise AssertionError(f"{what}: never seen; diary {diary(page)}")


def press(page: Page, button) -> None:
    """Taps a button of the board, and makes sure the browser took it as a click (in the page's diary)."""
    _tap_until_seen(page, button, lambda line: line.split(" ", 1)[-1].startswith("click "), 1000, "a tap's click")


def submit(page: Page, form, button=None) -> None:
    """Taps the form's send button (`button`, else its only one), and waits until the form was sent (its submit
    event, in the page's diary); a form that was sent is never sent twice."""
    command = form.get_attribute("data-order-command")
    button = button if button is not None else form.locator("[type=submit]")
    sent = f"submit {command}"
    _tap_until_seen(page, button, lambda line: line.endswith(sent), SYNC_MS, f"the form «{command}»")
