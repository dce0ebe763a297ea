"""Russian first, on a phone: a browser at the ru-RU locale walks the main screens (sign-up, roster builder, share
page, battle board, odds, jobs) and finds no visible text left in English.

"English" here is a Latin word of three letters or more in a visible text node, a placeholder or a button; proper
names (Armlist), units, the names the data packs carry as the book writes them, and what the players typed
(usernames, roster and battle names) are allowed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from armies.services import share_link_create
from battles.tests.conftest import PACK_FILE, PASSWORD

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {"Armlist", "JSON", "CSV", "API", "REQ", "POST", "OK", "Rep", "Skirmish", "II", "III", "HELIX"}

# Every visible text node, placeholder, aria-label and title of the page, as (where, text).
VISIBLE_TEXTS = """() => {
  const out = [];
  const shown = (el) => {
    if (!el || el.closest('[hidden], template, script, style, noscript')) return false;
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    if (text && shown(node.parentElement)) out.push([node.parentElement.tagName, text]);
  }
  document.querySelectorAll('[placeholder], [aria-label], [title], input[type=submit], option').forEach((el) => {
    for (const attr of ['placeholder', 'aria-label', 'title']) {
      if (el.getAttribute(attr) && shown(el.closest('form, section, main, header, details') || el))
        out.push([el.tagName + '@' + attr, el.getAttribute(attr)]);
    }
    if (el.tagName === 'OPTION' && el.textContent.trim()) out.push(['OPTION', el.textContent.trim()]);
  });
  document.title && out.push(['TITLE', document.title]);
  return out;
}"""


def pack_words() -> set[str]:
    """The Latin words the official packs carry as their books write them (unit, weapon and gear names)."""
    words: set[str] = set()

    def walk(value):
        if isinstance(value, str):
            words.update(re.findall(r"[A-Za-z]+", value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in ROOT.glob("rules/systems/*/data/*.json"):
        walk(json.loads(path.read_text(encoding="utf-8")))
    return words


def english_in(texts, allowed: set[str]) -> list[str]:
    found = []
    for where, text in texts:
        text = re.sub(r"https?://\S+|/\S*/", " ", text)  # addresses are not words
        for word in re.findall(r"[A-Za-z]{3,}", text):
            if word not in allowed:
                found.append(f"{where}: {word!r} in {text[:80]!r}")
    return found


def test_the_checker_finds_english_words_only():
    texts = [("P", "Ростер Armlist: 5 юнитов"), ("BUTTON", "Undo"), ("A", "v2"), ("P", "http://x.test/s/abc/")]
    assert english_in(texts, ALLOWED) == ["BUTTON: 'Undo' in 'Undo'"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_russian_phone_sees_no_english(live_server, phone_context, battle, rosters, alice):
    blue, _red = rosters
    link = share_link_create(roster=blue, user=alice)
    allowed = (
        ALLOWED | pack_words() | set(re.findall(r"[A-Za-z]+", " ".join([*(r.name for r in rosters), battle.name])))
    )
    allowed |= {"alice", "bob", "Blue", "Red", "army", "Test", "battle", "Tehnolog", "Classic"}
    allowed |= set(re.findall(r"[A-Za-z]+", json.loads(PACK_FILE.read_text())["name"]))

    anonymous = phone_context(locale="ru-RU")
    page = anonymous.new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.evaluate("document.documentElement.lang") == "ru"
    problems = [f"sign-up · {p}" for p in english_in(page.evaluate(VISIBLE_TEXTS), allowed)]

    client = Client()
    assert client.login(username=alice.username, password=PASSWORD)
    ctx = phone_context(locale="ru-RU")
    ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    page = ctx.new_page()
    screens = {
        "roster builder": f"/rosters/{blue.pk}/",
        "share page": f"/s/{link.token}/",
        "battle board": f"/battles/{battle.pk}/",
        "odds": "/odds/",
        "jobs": "/jobs/",
    }
    for name, path in screens.items():
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")  # folded parts too
        problems += [f"{name} · {p}" for p in english_in(page.evaluate(VISIBLE_TEXTS), allowed)]
    assert not problems, f"{len(problems)} English words on Russian screens:\n" + "\n".join(problems[:80])
