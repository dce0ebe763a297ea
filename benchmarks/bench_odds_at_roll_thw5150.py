"""The odds at the moment of the roll, «5150»: from an input change on a phone's form to the new odds drawn on the
page, for the heaviest rolling forms of the system.

Run:  .venv/bin/python benchmarks/bench_odds_at_roll_thw5150.py     (SQLite in a temporary directory)
      make bench ARGS=benchmarks/bench_odds_at_roll_thw5150.py

The server `make run` starts (gunicorn with config/gunicorn_conf.py) on 127.0.0.1, Russian phones (Chromium at
360 × 740). A police patrol (a Leader У5 with an assault rifle, an У4 with two SMGs) against a gang of twelve (a
Leader У4 and eleven У3, one behind cover). Two forms, each BENCH_CHANGES times (40):
- the shot of the two-gun figure: 6 dice («большую скорострельность», §5 A26: every unordered roll, the lucky
  shots, each hit's damage): each change picks another target (in the open, behind cover);
- «ОБСТРЕЛЯН» on the other phone after six figures of the gang were fired on without damage: the group's roll read
  by six testers and their Leader's three dice, the joint of all six: each change says where the fire came from.
Measured in the page with performance.now(): from the input event to the new odds in the form (static/battles/odds.js:
its 120 ms debounce, the request, the exact odds on the server, the drawing) and from the request's start to the
drawing. Also the odds' own computation in process. Target (issue «The odds and the rule at the moment of the
roll»): p95 ≤ 200 ms from the change to the odds on the page. Prints the load average beside the figures.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from at_roll_harness import free_port, pct, start_server, stop  # noqa: E402 - after the path is set

CHANGES = int(os.environ.get("BENCH_CHANGES", "40"))
TARGET_MS = 200.0
CHROMIUM = "/usr/bin/chromium"
PACK = ROOT / "rules" / "systems" / "thw5150" / "data" / "normals.json"

# In the page: time one change of a field of a form, to the new odds drawn (a function, not a string: the CSP).
MEASURE = """async ([command, field, value, drawn]) => {
  const form = document.querySelector(`form[data-order-command="${command}"][data-odds]`);
  const box = form.querySelector('.odds-live');
  const input = form.querySelector(`[name="${field}"]`);
  window.__oddsAsked = null;
  if (!window.__oddsWrapped) {
    const plain = window.fetch;
    window.fetch = function (url, opts) {
      if (String(url).endsWith('/odds')) window.__oddsAsked = performance.now();
      return plain.apply(this, arguments);
    };
    window.__oddsWrapped = true;
  }
  return await new Promise((resolve) => {
    let t0 = 0;
    const seen = new MutationObserver(() => {
      if (window.__oddsAsked !== null && box.querySelector(drawn)) {
        const now = performance.now();
        seen.disconnect();
        resolve([now - t0, now - window.__oddsAsked]);
      }
    });
    seen.observe(box, { childList: true, subtree: true });
    t0 = performance.now();
    input.value = value;
    input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
  });
}"""


def setup() -> tuple[int, dict, dict, dict]:
    """A battle at the moment of the shot: the patrol acts on a 5, the gang's second thug is behind cover. Answers
    the battle's id, each player's session key, the figures' keys and the in-process odds of the shot."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from armies import services as army_services
    from battles import services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the server serves the scripts as they are now
    ((pack, _created),) = army_services.load_packs(paths=[PACK])
    users = [get_user_model().objects.create_user(name, password="bench-pass-5150") for name in ("alice", "bob")]
    patrol = army_services.roster_create(owner=users[0], pack=pack, name="Патруль", faction="police")
    army_services.entry_add(roster=patrol, profile="police-u5", options={"weapon": "assault_rifle", "leader": True})
    gunman = army_services.entry_add(roster=patrol, profile="police-u4", options={"weapon": "smg",
                                                                                "second_weapon": "smg"})  # fmt: skip
    gang = army_services.roster_create(owner=users[1], pack=pack, name="Банда", faction="criminals")
    boss = army_services.entry_add(roster=gang, profile="criminals-u4", options={"weapon": "pistol", "leader": True})
    thugs = army_services.entry_add(roster=gang, profile="criminals-u3", count=11, options={"weapon": "pistol"})
    battle = services.battle_create(user=users[0], name="Замер", rosters=[patrol, gang], enforce_turns=True)
    services.battle_join(token=battle.sides.get(index=1).invite_token, user=users[1])
    keys = {"gunman": f"0.{gunman.key}.1", "boss": f"1.{boss.key}.1",
            "thugs": [f"1.{thugs.key}.{i}" for i in range(1, 12)]}  # fmt: skip
    play(battle.pk, [(users[0], "activation", {}, [5, 2]),
                     (users[1], "set_state", {"unit": keys["thugs"][1], "changes": {"in_cover": True}}, None)])  # fmt: skip
    sessions = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        sessions[user.username] = session.session_key
    shot = in_process(battle.pk, frozenset({0}), "shoot", {"shooter": keys["gunman"], "target": keys["boss"]})
    return battle.pk, sessions, keys, {"shot": shot}


def in_process(battle: int, sides: frozenset, command: str, inputs: dict) -> float:
    """The median time of the form's odds computed in this process (the at_roll mapping and the action's odds)."""
    from battles.models import Battle
    from battles.odds import viewer_state
    from rules.systems.thw5150.system import SYSTEM

    state = viewer_state(Battle.objects.get(pk=battle), sides)
    times = []
    for _ in range(10):
        t = time.perf_counter()
        found = SYSTEM.at_roll.roll_odds(state, command, inputs, sides)
        SYSTEM.action(found.action).odds(found.inputs, SYSTEM.default_settings())
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def play(battle: int, script) -> None:
    from battles import services
    from battles.models import Battle

    for user, name, inputs, dice in script:
        version = Battle.objects.get(pk=battle).version
        services.command_run(battle_id=battle, user=user, name=name, inputs=inputs, dice=dice, seed=1,
                             expected_version=version)  # fmt: skip


def to_the_reaction(battle: int, keys: dict) -> dict:
    """The two-gun figure fires a die at each of six gang figures and misses them all: the gang's player owes
    «ОБСТРЕЛЯН» for the six. Answers the reaction's odds in process."""
    from django.contrib.auth import get_user_model

    alice = get_user_model().objects.get(username="alice")
    fired_on = [keys["boss"], *keys["thugs"][:5]]
    play(battle, [(alice, "shoot", {"shooter": keys["gunman"], "targets": [{"unit": k, "dice": 1} for k in fired_on]},
                   [2, 2, 2, 2, 2, 2])])  # fmt: skip
    return {"reaction": in_process(battle, frozenset({1}), "answer_reaction", {"fired_from": "flank_or_rear"})}


def measure(page, command: str, field: str, values: list[str], drawn: str) -> tuple[list[float], list[float]]:
    page.evaluate(MEASURE, [command, field, values[-1], drawn])  # warm: the first request opens the connection
    total, server = [], []
    for i in range(CHANGES):
        whole, asked = page.evaluate(MEASURE, [command, field, values[i % len(values)], drawn])
        total.append(whole)
        server.append(asked)
    return total, server


def phone(browser, base: str, session: str, battle: int):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                              has_touch=True, locale="ru-RU",
                              extra_http_headers={"Accept-Language": "ru-RU,ru;q=0.9"})  # fmt: skip
    ctx.add_cookies([{"name": "sessionid", "value": session, "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}/battles/{battle}/")
    return page


def main() -> int:
    tmp = tempfile.TemporaryDirectory(prefix="bench-odds-5150-")
    if os.environ.get("BENCH_DB", "sqlite") != "env":
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp.name) / 'odds.sqlite3'}"
        os.environ["REDIS_URL"] = ""
    os.environ["STATIC_ROOT"] = str(Path(tmp.name) / "static")  # collected here, not in the tree's var/
    # the reaction is set up between two measures, from inside Playwright's loop (this process only; not the server's)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x9" * 25)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    battle, sessions, keys, timings = setup()
    port = free_port()
    proc = start_server(port, Path(tmp.name) / "server.log")
    results = {}
    try:
        from playwright.sync_api import expect, sync_playwright

        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = phone(browser, base, sessions["alice"], battle)
            card = page.locator(f'details[data-unit="{keys["gunman"]}"]')
            card.locator("> summary").click()  # a form asks for its odds once the player can see it
            shot = card.locator('form[data-order-command="shoot"]')
            expect(shot.locator(".odds-live")).not_to_be_empty(timeout=30_000)
            if not shot.locator(".odds-headline").count():
                raise RuntimeError("no odds on the shot's form: " + shot.locator(".odds-live").inner_text())
            # The gunman's is the patrol's one two-gun form: measure on it (the Leader's form comes first).
            page.evaluate("(key) => document.querySelectorAll('form[data-order-command=\"shoot\"]').forEach((f) => "
                          "{ if (!f.closest(`details[data-unit=\"${key}\"]`)) f.removeAttribute('data-odds'); })",
                          keys["gunman"])  # fmt: skip
            targets = [keys["boss"], keys["thugs"][1], keys["thugs"][0]]  # in the open, behind cover, in the open
            results["shot"] = measure(page, "shoot", "target", targets, ".odds-headline")
            timings.update(to_the_reaction(battle, keys))
            red = phone(browser, base, sessions["bob"], battle)
            answer = red.locator('form[data-order-command="answer_reaction"]')
            expect(answer.locator(".odds-dist").first).to_be_attached(timeout=30_000)
            results["reaction"] = measure(red, "answer_reaction", "fired_from", ["flank_or_rear", "front"],
                                          ".odds-dist")  # fmt: skip
            browser.close()
    finally:
        stop(proc)
    load = os.getloadavg()
    print(f"odds at the roll, «5150»: {CHANGES} input changes per form on a Russian phone at 360 px, "
          f"gunicorn on 127.0.0.1, {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")  # fmt: skip
    for label, (total, server) in results.items():
        print(f"  {label}: change → odds on the page p50 {pct(total, 50):.0f} ms, p95 {pct(total, 95):.0f} ms "
              f"(target p95 ≤ {TARGET_MS:.0f} ms: {'met' if pct(total, 95) <= TARGET_MS else 'missed'}); "
              f"request → drawn p50 {pct(server, 50):.0f} ms, p95 {pct(server, 95):.0f} ms; "
              f"the odds in process {timings[label]:.1f} ms")  # fmt: skip
    print(json.dumps({k: {"p50": pct(v[0], 50), "p95": pct(v[0], 95)} for k, v in results.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
