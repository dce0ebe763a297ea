"""Settings come from the environment; a missing or malformed one fails at start and names itself."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOOD = {
    "SECRET_KEY": "k" * 10 + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
    "DATABASE_URL": "sqlite:////tmp/armlist-settings-test.sqlite3",
    "ALLOWED_HOSTS": "example.org",
    "DEBUG": "false",
    "REDIS_URL": "",
}


def run_manage(env_overrides, *args, settings="config.settings.base"):
    env = {k: v for k, v in os.environ.items() if k not in GOOD and k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(GOOD)
    env.update(env_overrides)
    env = {k: v for k, v in env.items() if v is not None}
    env["DJANGO_SETTINGS_MODULE"] = settings
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("override", "variable"),
    [
        ({"SECRET_KEY": None}, "SECRET_KEY"),
        ({"DATABASE_URL": None}, "DATABASE_URL"),
        ({"DATABASE_URL": "nonsense://x"}, "DATABASE_URL"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"REDIS_URL": "http://localhost:6379"}, "REDIS_URL"),
        ({"ALLOWED_HOSTS": " , "}, "ALLOWED_HOSTS"),
    ],
)
def test_bad_setting_fails_at_start_naming_the_variable(override, variable):
    result = run_manage(override, "check")
    assert result.returncode != 0
    assert variable in result.stderr


def test_production_settings_pass_check_deploy_without_warnings():
    result = run_manage({}, "check", "--deploy", "--fail-level", "WARNING", settings="config.settings.production")
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_refuses_a_short_secret_key():
    result = run_manage({"SECRET_KEY": "short"}, "check", settings="config.settings.production")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_debug_true_with_a_clear_message():
    result = run_manage({"DEBUG": "true"}, "check", settings="config.settings.production")
    assert result.returncode != 0
    assert "DEBUG=true is refused" in result.stderr


def test_base_settings_still_accept_debug_for_local_work():
    result = run_manage({"DEBUG": "true"}, "check")
    assert result.returncode == 0, result.stderr
