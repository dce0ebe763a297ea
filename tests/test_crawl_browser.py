"""Every page a player reaches by links from the home page, on a 360 × 740 phone, in Russian and in English.

A user with rosters, battles (one finished and one in progress per system, events played through each system's
battle part), a club, a share link and finished balance jobs in all five systems; the crawler follows every
same-origin link from «/» (GET only: no logout or language-switch posts, no downloads) and fails on:

- in Russian: a visible Latin word outside a short list of abbreviations and the packs' own proper names;
- in English: a visible Cyrillic word outside proper names (the players' names, their roster, club and battle
  names, the packs' names of units, factions, weapons and books, the systems' names);
- raw ids and slugs in either language: unit keys («0.1», «0.e2.1»), side indexes («сторона 0», "side 1"),
  faction slugs shown as words;
- sideways scrolling, a visible control under 44 × 44 CSS px (a checkbox inside a label counts as the label),
  a sticky or fixed panel tall enough to cover the cards, and axe-core's serious or critical violations.

Every finding of every page is gathered, grouped by page (named with its system when it has one), and reported
together. A plain-text export reached by a link is read too (its words, ids and slugs).
"""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from armies import services as armies_services
from armies.models import DataPack, Faction
from armies.services.packs import load_packs
from battles import services as battle_services
from battles.models import BattleUnit
from battles.tests.test_russian_browser import VISIBLE_TEXTS
from rules.jobs import services as job_services
from rules.registry import all_systems
from rules.tests.jobs_support import purge_queue
from tests.test_accessibility_browser import problems_of

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "crawl-pass-5817-long"
MAX_PAGES = 400

# Abbreviations and units a Russian page may show in Latin letters (the books write them so), and the brand.
LATIN_ALLOWED = {"Armlist", "HP", "AP", "REQ", "D20", "Rep", "px", "QR", "JSON", "CSV", "PDF", "RU", "EN"}
LATIN_ALLOWED |= {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}  # the books' part numbers
# «Энфорсеры»: the Russian book names its nine stats by Latin abbreviations («Здоровье (HL)» … «Лидерство (LD)»,
# L29–39, and so on its pages) and keeps the weapon traits Kinetic and Punching in Latin (L337, L343): the book's
# own words, not English left over.
LATIN_ALLOWED |= {"HL", "WS", "BS", "DX", "TN", "WL", "IT", "PR", "LD", "Kinetic", "Punching"}
# Paths never followed: the API and its docs, the admin, downloads, the live fragments a board fetches.
SKIP = re.compile(
    r"^/(api/|admin/|static/|media/|jsi18n|sw\.js|manifest\.webmanifest|accounts/logout)"
    r"|/(export|board|stream)/?$|\.(json|csv)$|/result\.(json|csv)$"
)
UNIT_KEY = re.compile(r"(?<![\w§.,/:-])\d+\.(?:[a-zA-Z]+\d+\.)?\d+(?![\w.,])")
SIDE_INDEX = re.compile(r"\b(?:сторон[аеыу]|side)\s+\d+\b", re.IGNORECASE)
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
LATIN = re.compile(r"[A-Za-z]{2,}")

# The tall sticky/fixed panels that would cover the cards on a 740 px screen (a dialog or a result box is not one).
STICKY_JS = """(limit) => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const s = getComputedStyle(el);
    if (s.position !== 'sticky' && s.position !== 'fixed') continue;
    if (el.closest('dialog, [role=dialog], [hidden], .result')) continue;
    if (!el.checkVisibility || !el.checkVisibility({visibilityProperty: true})) continue;
    const h = el.getBoundingClientRect().height;
    if (h > limit) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className} ${Math.round(h)} px`);
  }
  return out;
}"""
# The numbers of a settable scale are held to set a slider: each one a target of its own.
CELLS_JS = """(min) => [...document.querySelectorAll('.scale.settable .cell')].filter((c) => {
  const r = c.getBoundingClientRect();
  return r.width > 0 && (r.width + 0.5 < min || r.height + 0.5 < min);
}).map((c) => `scale cell ${c.textContent.trim()} ${Math.round(c.getBoundingClientRect().width)}×${Math.round(c.getBoundingClientRect().height)}`)"""
STICKY_LIMIT = 120
# What sticks out past the right edge when a page scrolls sideways: the innermost such elements.
WIDE_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > w + 1
    && ![...el.children].some((c) => c.getBoundingClientRect().right > w + 1));
  return out.slice(0, 4).map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)} px`);
}"""  # px: a one- or two-line bar; the 200 px turn panel of the issue hid the top of the cards


# Proper names the pages may show as data --------------------------------------------------------------------------
def pack_names() -> set[str]:
    """Every `name` in the official packs (books, factions, units, weapons, gear), as words."""
    names: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, v in value.items():
                if key == "name" and isinstance(v, str):
                    names.add(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in ROOT.glob("rules/systems/*/data/*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return names


def words(texts, pattern) -> set[str]:
    return {w for t in texts for w in pattern.findall(t)}


def entry_names() -> set[str]:
    """The names players wrote in their rosters' entries: an agent's, its weapons' and its gear's (as unit names,
    they are the players' own, in whatever language they wrote them)."""
    from armies.models import RosterEntry

    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for key, v in value.items():
                if key == "name" and isinstance(v, str):
                    found.add(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for options in RosterEntry.objects.values_list("options", flat=True):
        walk(options)
    return found


def faction_slugs() -> set[str]:
    return set(Faction.objects.values_list("slug", flat=True))


# The world ------------------------------------------------------------------------------------------------------
def example_roster(system, pack: DataPack, owner, side: int, name: str):
    profiles = [p.as_rules_dict() for p in pack.profiles.order_by("position")]
    example = system.army.example_roster(profiles, side)
    factions = list(pack.factions.order_by("id"))
    sides = [f.slug for f in factions if not f.joins_any] or [f.slug for f in factions]
    faction = example["faction"] if example["faction"] in sides else sides[side % len(sides)]  # «green» joins any
    roster = armies_services.roster_create(owner=owner, pack=pack, name=name, faction=faction)
    for entry in example["entries"]:
        armies_services.entry_add(
            roster=roster, profile=entry["profile"]["slug"], count=entry["count"], options=entry["options"]
        )
    roster.refresh_from_db()
    return roster


END = {  # the command that ends a battle by the players' word, per system (each book's own way to end)
    "bronepekhota": ("mission", {"side": 0}),
    "5150": ("end_battle", {}),
    "zvezdny-desant": ("end_game", {}),
    "enforcers": ("end_game", {"winner": 0}),
    "squads": ("end", {"winner": 0}),
}


def play(battle, users, script) -> list[str]:
    problems = []
    for side, name, inputs, dice in script:
        battle.refresh_from_db()
        try:
            battle_services.command_run(
                battle_id=battle.pk, user=users[side], name=name, inputs=inputs, dice=dice, seed=7,
                expected_version=battle.version,
            )  # fmt: skip
        except Exception as error:  # noqa: BLE001 (reported with the system's name below)
            problems.append(f"{battle.system}: {name} refused: {error!r}")
    return problems


@pytest.fixture
def world(transactional_db):
    """Alice (and Boris, her opponent) with all of it in every system; what each page's system is."""
    load_packs()
    user_model = get_user_model()
    alice = user_model.objects.create_user(username="Алиса", password=PASSWORD)
    boris = user_model.objects.create_user(username="Борис", password=PASSWORD)
    club = armies_services.club_create(user=alice, name="Клуб «Четверг»")
    armies_services.member_add(club=club, username=boris.username)
    systems_of: dict[str, str] = {}
    shared: list[str] = []
    names = {alice.username, boris.username, club.name}
    setup_problems = []
    for system in all_systems():
        pack = DataPack.objects.filter(system=system.slug, owner__isnull=True, club__isnull=True).order_by("pk").first()
        assert pack is not None, f"{system.slug}: no official pack"
        blue = example_roster(system, pack, alice, 0, f"Синие {system.name}")
        red = example_roster(system, pack, boris, 1, f"Красные {system.name}")
        red.visibility, red.club = "club", club  # Alice reads it through the club (a balance job needs that)
        red.save(update_fields=["visibility", "club"])
        blue.visibility = "link"
        blue.save(update_fields=["visibility"])
        link = armies_services.share_link_create(roster=blue, user=alice)
        shared.append(f"/s/{link.token}/")
        systems_of[shared[-1]] = system.slug
        for roster in (blue, red):
            systems_of[f"/rosters/{roster.pk}/"] = system.slug
            names.add(roster.name)
        users = {0: alice, 1: boris}
        for label, finish in (("Бой до конца", True), ("Бой идёт", False)):
            battle = battle_services.battle_create(user=alice, name=f"{label}: {system.name}", rosters=[blue, red])
            battle_services.battle_join(token=battle.sides.get(index=1).invite_token, user=boris)
            names.add(battle.name)
            battle.refresh_from_db()
            script = system.battle.example_script(battle_services.load_state(battle))
            setup_problems += play(battle, users, script if finish else script[: max(1, len(script) // 2)])
            if finish:
                setup_problems += play(battle, users, [(0, *END[system.slug], None)])
            systems_of[f"/battles/{battle.pk}/"] = system.slug
        job = job_services.balance_job_submit_rosters(user=alice, roster_a_id=blue.pk, roster_b_id=red.pk, battles=200)
        purge_queue()  # the chunks run here; no worker should find their messages later
        for i in range(job.chunk_count):
            job_services.balance_chunk_run(job_id=job.pk, index=i)
        systems_of[f"/jobs/{job.pk}/"] = system.slug
        systems_of[f"/jobs/?system={system.slug}"] = system.slug
        systems_of[f"/packs/{pack.pk}/"] = system.slug
    names |= {u.name for u in BattleUnit.objects.all()}
    names |= entry_names()
    return {
        "alice": alice,
        "names": names,
        "systems_of": systems_of,
        "shared": shared,
        "setup_problems": setup_problems,
    }


# Checks ---------------------------------------------------------------------------------------------------------
def text_problems(texts: list[tuple[str, str]], language: str, allowed: dict) -> list[str]:
    found = []
    for where, raw in texts:
        text = re.sub(r"https?://\S+|(?<!\w)/[\w./?=&%-]*/", " ", raw)  # addresses are not words
        text = re.sub(r"§\s*[\d.]+|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\bv\d+(?:\.\d+)*\b", " ", text)  # sections, dates
        text = re.sub(r"\.(?:json|csv|txt)\b", " ", text)  # a file's extension is no word
        short = raw[:90]
        if language == "ru":
            for word in LATIN.findall(text):
                if word not in allowed["latin"]:
                    kind = "slug" if word in allowed["slugs"] else "English"
                    found.append(f"{kind} {word!r} ({where}): {short!r}")
            for key in UNIT_KEY.findall(text):
                found.append(f"raw id {key!r} ({where}): {short!r}")
        else:
            # The books' dice notation (Д6, 2Д20+1) is how the project writes dice in every language, and ЛБХ is
            # the book's card; both are names here, not Russian left untranslated.
            text = re.sub(r"\d*Д\d+(?:[+−-]\d+)?|ЛБХ", " ", text)
            for word in CYRILLIC.findall(text):
                if word not in allowed["cyrillic"]:
                    found.append(f"Russian {word!r} ({where}): {short!r}")
            for key in UNIT_KEY.findall(text):
                if re.search(r"[a-z]", key):  # "0.5" is a number in English; "0.e2.1" is a unit key
                    found.append(f"raw id {key!r} ({where}): {short!r}")
            if raw.strip() in allowed["slugs"]:
                found.append(f"slug {raw.strip()!r} ({where})")
        for side in SIDE_INDEX.findall(text):
            found.append(f"raw side {side!r} ({where}): {short!r}")
    return found


def same_origin_links(page, base: str) -> list[str]:
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map((a) => a.getAttribute('href'))")
    out = []
    for href in hrefs:
        url = urldefrag(urljoin(page.url, href)).url
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != base or SKIP.search(parts.path):
            continue
        out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


def settle(page, path: str) -> None:
    if re.fullmatch(r"/battles/\d+/", path):
        expect(page.locator("#sync-status")).not_to_be_empty()
    if path == "/odds/":  # the first odds arrive after load; the box is dimmed (.busy) until then
        expect(page.locator("#shot-result .odds-stats")).to_be_visible()
        expect(page.locator("#shot-result")).not_to_have_class("odds-result busy")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # folded parts too


def crawl(context, base: str, language: str, allowed: dict, world: dict) -> dict[str, list[str]]:
    """Breadth first from «/» (and the share links, which a page shows in a box to copy, not as a link): every
    page's findings, keyed by the page (with its system when known)."""
    page = context.new_page()
    systems_of = world["systems_of"]
    start = ["/", *world["shared"]]
    seen, queue, findings = set(start), deque(start), {}
    visited = 0
    while queue and visited < MAX_PAGES:
        path = queue.popleft()
        visited += 1
        head = context.request.get(base + path, max_redirects=0, headers={"Accept-Language": language})
        kind = head.headers.get("content-type", "")
        found = []
        if head.status >= 400:
            found.append(f"answers {head.status}")
        elif "attachment" in head.headers.get("content-disposition", ""):
            continue
        elif kind.startswith("text/plain"):
            found += text_problems([("text", line) for line in head.text().splitlines()], language, allowed)
        elif kind.startswith("text/html") or 300 <= head.status < 400:
            page.goto(base + path)
            settle(page, path)
            found += text_problems(page.evaluate(VISIBLE_TEXTS), language, allowed)
            found += [f"covers the cards: {s}" for s in page.evaluate(STICKY_JS, STICKY_LIMIT)]
            if language == "ru":  # the layout checks once: they do not depend on the language
                found += problems_of(page)
                if any(f.startswith("scrolls sideways") for f in found):
                    found.append(f"sticks out: {page.evaluate(WIDE_JS)}")
                if cells := page.evaluate(CELLS_JS, 44):
                    found.append(f"{len(cells)} small scale cells: {cells[:5]}")
            for link in same_origin_links(page, base):
                if link not in seen:
                    seen.add(link)
                    queue.append(link)
        if found:
            key = path
            system = next((s for prefix, s in systems_of.items() if path.startswith(prefix)), None)
            findings[f"{key} [{system}]" if system else key] = found
    page.close()
    assert visited >= 40, f"the crawl reached only {visited} pages: {sorted(seen)}"
    return findings


def report(findings: dict[str, list[str]]) -> str:
    lines = []
    for page, found in sorted(findings.items()):
        lines.append(page)
        lines += [f"  {f}" for f in dict.fromkeys(found)]
    return "\n".join(lines)


def signed_in(phone_context, base: str, user, locale: str):
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    context = phone_context(locale=locale)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    return context


@pytest.mark.browser
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_linked_page_speaks_the_phone_language(live_server, phone_context, world, language):
    assert not world["setup_problems"], "\n".join(world["setup_problems"])
    names = pack_names() | world["names"] | {s.name for s in all_systems()}
    allowed = {
        "latin": LATIN_ALLOWED | words(names, re.compile(r"[A-Za-z]+")),
        "cyrillic": words(names, CYRILLIC),
        "slugs": faction_slugs(),
    }
    base = live_server.url
    context = signed_in(phone_context, base, world["alice"], "ru-RU" if language == "ru" else "en-US")
    findings = crawl(context, base, language, allowed, world)
    with open(f"/tmp/crawl-{language}.txt", "w", encoding="utf-8") as out:  # the whole list, for the report
        out.write(report(findings))
    assert not findings, f"{len(findings)} pages with findings ({language}):\n" + report(findings)


@pytest.mark.browser
def test_sign_up_greets_in_russian(live_server, phone_context, transactional_db):
    """The first page after sign-up (a message made on the server) speaks Russian too: «Welcome, Алиса306!» was
    the first English a new player saw."""
    page = phone_context(locale="ru-RU").new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=username]", "Алиса306")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main button[type=submit]").click()
    greeting = page.locator(".messages")
    expect(greeting).to_contain_text("Добро пожаловать, Алиса306!")
    allowed = {"latin": LATIN_ALLOWED, "cyrillic": set(), "slugs": set()}
    assert not text_problems(page.evaluate(VISIBLE_TEXTS), "ru", allowed)
