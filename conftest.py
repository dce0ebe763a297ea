"""Fixtures shared by every app's tests: a real Celery worker and the system Chromium."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def start_worker(
    database_name: str, *, concurrency: int = 1, hostname: str = "test", extra_env=None, app_module: str = "config"
):
    """Starts `celery worker` as a separate process against the test database; waits until it answers."""
    from django.conf import settings

    from config.celery import app

    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{database_name}"
    env = {**os.environ, "DATABASE_URL": url, "ARMLIST_LANGUAGE_CODE": settings.LANGUAGE_CODE, **(extra_env or {})}
    tag = os.environ.get("ARMLIST_TEST_TAG", "armlist-test")
    node = f"{hostname}-{tag}-{os.getpid()}@localhost"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            app_module,
            "worker",
            "--loglevel=WARNING",
            "--pool=prefork",
            f"--concurrency={concurrency}",
            f"--hostname={node}",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"celery worker exited with {proc.returncode}")
        replies = app.control.ping(destination=[node], timeout=0.5)
        if replies:
            proc.node_name = node
            return proc
    proc.kill()
    raise RuntimeError("celery worker did not answer a ping within 60 s")


def stop_worker(proc, *, sig=None):
    import signal

    if proc.poll() is None:
        os.killpg(proc.pid, sig or signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


# Tests whose assertions are about time (a stop within seconds, a killed worker's job finishing) or that load the
# machine on purpose run after the parallel run (scripts/test.sh): beside a whole test process on a 2-core machine
# their timings would measure the neighbour. First in two lanes: the tournament's evening (a minute of 200 phones on
# PostgreSQL, asserting nothing about time) in one, the others one at a time in the other. Then the tests marked
# `alone`, one at a time with no neighbour: beside the evening, a warm-up's stop once took 10.1 s against its 10 s
# bound, and the killed-worker test's shortened watchdog clock (stale after 6 s) sent a chunk that was only waiting
# for the slowed worker again.
# Not here: battles/tests/test_concurrency.py (nothing about time: no write lost or doubled, in the test process's
# own database; a busy neighbour only makes more of its writes stale and retried).
# The order is the lanes' (xdist hands the first file to one lane and the next to the other, then whatever a lane
# asks for when it is almost done): the evening, then the files of the other lane, longest first, each given to the
# lane that is free; a short file right after the evening, which the evening's lane is handed at once. The tests
# marked `serial` in other files (tests/test_asgi_server.py, 15 s) come last. Seconds a run in the lanes:
SERIAL_FILES = [
    "tests/test_tournament_evening.py",  # 68
    "tests/test_club_night.py",  # 27, and 12 alone
    "tests/test_worker.py",  # 4
    "tests/test_sqlite_writers.py",  # 13
    "tests/test_db_restart.py",  # 10
    "rules/tests/test_jobs_worker.py",  # 5, and 25 alone
    "rules/tests/test_jobs_watchdog.py",  # 4
]


# The parallel run hands out whole files (--dist loadfile) in the order of the collection (scripts/test.sh turns off
# xdist's own order, by number of tests). The files that drive no browser go first, by number of tests as xdist
# would; then the browser files, the longest first, so no test process is left alone with the crawl at the end.
# Browser files go last because Playwright's session keeps its event loop marked as running in the test process's
# thread: a later test's asyncio.run would refuse to start (and clearing the mark switches Django to another
# connection). Measured on the 2-core machine (seconds a file).
SLOW_FILES = [
    "tests/test_crawl_browser.py",  # 110
    "rules/systems/squads/tests/test_journey_browser.py",  # 29
    "tests/test_accessibility_browser.py",  # 28
    "rules/systems/enforcers/tests/test_journey_browser.py",  # 27
    "rules/systems/zvezdny_desant/tests/test_journey_browser.py",  # 21
    "rules/systems/thw5150/tests/test_journey_browser.py",  # 19
    "rules/systems/bronepekhota/tests/test_journey_browser.py",  # 15
    "battles/tests/test_csp_browser.py",  # 15
    "battles/tests/test_results_browser.py",  # 13
]
BROWSER_FIXTURES = {"browser", "phone_context", "playwright_instance"}


def _file_of(item) -> str:
    path = Path(str(item.fspath)).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _file_of(item) in SERIAL_FILES or item.get_closest_marker("alone"):
            item.add_marker(pytest.mark.serial)
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # one process: the order of the files does not change how long it takes
    count: dict[str, int] = {}
    browser: set[str] = set()
    for item in items:
        name = _file_of(item)
        count[name] = count.get(name, 0) + 1
        if item.get_closest_marker("browser") or BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            browser.add(name)
    slow = {name: rank for rank, name in enumerate(SLOW_FILES)}
    serial = {name: rank for rank, name in enumerate(SERIAL_FILES)}

    def rank(name: str) -> tuple[int, int, int]:
        if name not in browser:
            return (0, serial.get(name, len(serial)), -count[name])
        return (1, slow.get(name, len(slow)), 0)

    items.sort(key=lambda item: rank(_file_of(item)))  # stable: each file's own order is kept


def pytest_configure(config):
    """Under pytest-xdist each test process gets a Redis database of its own (the broker's queue, the limits'
    counts), so one process's Celery worker never takes another's tasks; pytest-django gives each its own
    PostgreSQL database already.

    The tests' own Django hashes passwords with MD5, as Django's testing docs advise: the production PBKDF2 (a
    million rounds, 0.23 s a hash on the 2-core machine) made every sign-up, login and user of the suite cost that.
    The servers the tests start (tests/club_server.py) keep the production hashers."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    base = os.environ.get("REDIS_URL", "")
    if not worker.startswith("gw") or not base:
        return
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(base)
    url = urlunsplit(parts._replace(path=f"/{int(worker[2:]) + 1}"))
    os.environ["REDIS_URL"] = url  # the Celery workers the tests start read it
    settings.REDIS_URL = settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = url
    settings.CACHES["ratelimit"]["LOCATION"] = url


FLUSH_TRIES = 5


def flush_again_after_a_deadlock(fixture_teardown):
    """`TransactionTestCase._fixture_teardown`, tried again when PostgreSQL cancelled its flush for a deadlock.

    A transactional test ends by emptying every table in one TRUNCATE, which locks them one after another. A page of
    an earlier browser test may still have a request in the live server (a long poll or a stream that wakes), and its
    one SELECT over several tables locks them too, in its own order: PostgreSQL then finds a deadlock and cancels one
    of the two. When that was the TRUNCATE, the test failed at teardown and the next one started on the rows left.
    The flush is whole or nothing, so it is simply tried again."""
    from django.core.management.base import CommandError
    from django.db import OperationalError

    def teardown(self):
        for attempt in range(FLUSH_TRIES):
            try:
                return fixture_teardown(self)
            except CommandError as error:
                deadlock = isinstance(error.__cause__, OperationalError) and "deadlock" in str(error.__cause__)
                if not deadlock or attempt == FLUSH_TRIES - 1:
                    raise
                time.sleep(0.2)

    return teardown


@pytest.fixture(autouse=True, scope="session")
def _flush_again_after_a_deadlock():
    from django.test import testcases

    original = testcases.TransactionTestCase._fixture_teardown
    testcases.TransactionTestCase._fixture_teardown = flush_again_after_a_deadlock(original)
    yield
    testcases.TransactionTestCase._fixture_teardown = original


@pytest.fixture(autouse=True)
def _english_by_default(request):
    """The product speaks Russian first; the tests speak English unless they ask for Russian.

    Clients without Accept-Language (and code outside a request) get English, so the tests that read English texts
    keep reading them; a test marked `@pytest.mark.russian_default` keeps the product's own default ("ru"), and a
    test can always ask for Russian with Accept-Language: ru or translation.override("ru")."""
    from django.test import override_settings
    from django.utils import translation

    if request.node.get_closest_marker("russian_default") is not None:
        yield
        translation.deactivate()
        return
    # Not the `settings` fixture: tests may have a parameter of that name (a system's settings).
    translation.activate("en")  # a language an earlier test activated and left would leak into this one
    with override_settings(LANGUAGE_CODE="en"):
        yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_rate_limits_unless_asked(request):
    """The open endpoints' limits (config/ratelimit.py) count in Redis across every test of the run; a test of a
    limit is marked `rate_limited` and uses an address of its own, the others are not limited."""
    if request.node.get_closest_marker("rate_limited") is not None:
        yield
        return
    from django.test import override_settings

    with override_settings(RATE_LIMITS_ENABLED=False):
        yield


@pytest.fixture
def celery_worker(transactional_db):
    """A real worker process; tests using it see committed rows only (transactional_db)."""
    from django.db import connection

    proc = start_worker(connection.settings_dict["NAME"])
    yield proc
    stop_worker(proc)


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@pytest.fixture
def phone_context(browser):
    """Makes phone-sized browser contexts (one per player); all are closed after the test."""
    contexts = []

    def make(**kwargs):
        options = {
            "viewport": {"width": 360, "height": 740},
            "device_scale_factor": 2,
            "is_mobile": True,
            "has_touch": True,
            **kwargs,
        }
        ctx = browser.new_context(**options)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's, plus: before the test database is dropped, the battle watcher (battles/watch.py) stops and
    closes its connection — a phone's stream left open by a browser test keeps it waiting otherwise, and PostgreSQL
    refuses to drop a database someone is connected to."""
    yield
    from battles.watch import WATCH

    WATCH.stop()
