"""No Docker engine runs here: check that the compose file parses and names the right commands."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_compose_has_web_worker_postgres_and_redis():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) >= {"web", "worker", "db", "redis"}
    assert "gunicorn --config config/gunicorn_conf.py config.asgi:application" in services["web"]["command"]
    assert services["worker"]["command"].startswith("celery -A config worker")
    assert services["db"]["image"].startswith("postgres:15")
    assert services["redis"]["image"].startswith("redis")
    env = services["web"]["environment"]
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert env["REDIS_URL"].startswith("redis://redis")
    assert env["DATABASE_URL"].startswith("postgres://")


def test_readme_gives_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme
    assert "make test" in readme


def test_every_requirement_is_pinned():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            assert "==" in line, f"unpinned requirement: {line}"
