#!/usr/bin/env bash
# make test: throwaway PostgreSQL and Redis on free local ports, lint, then the whole suite.
# The servers are stopped and their files removed on exit, also when tests fail.
# Usage: scripts/test.sh [pytest args]   or   scripts/test.sh --bench [benchmark names]
# Without pytest args: the whole suite, in parallel (TEST_PROCESSES, default one per core), then the serial tests.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(pwd)/.venv/bin

as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# System packages the suite needs (Debian). Installed only when missing.
need=()
command -v redis-server >/dev/null || need+=(redis-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v msgfmt >/dev/null || need+=(gettext)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing ${need[*]} with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

WORK=$(mktemp -d /tmp/armlist-test.XXXXXX)
chmod 755 "$WORK"
[ "$(id -u)" = 0 ] && chown postgres "$WORK"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PGPORT=$(free_port)
REDISPORT=$(free_port)

cleanup() {
  status=$?
  as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg" -m immediate stop >/dev/null 2>&1 || true
  redis-cli -p "$REDISPORT" shutdown nosave >/dev/null 2>&1 || true
  pkill -f "celery -A config worker.*armlist-test-$REDISPORT" >/dev/null 2>&1 || true
  rm -rf "$WORK"
  exit $status
}
trap cleanup EXIT INT TERM

as_postgres "$PGBIN/initdb" -D "$WORK/pg" -A trust -U postgres --no-sync >/dev/null
as_postgres "$PGBIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w -o "-p $PGPORT -k $WORK -c listen_addresses=127.0.0.1 \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
as_postgres "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres armlist
redis-server --port "$REDISPORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
  --dir "$WORK" --logfile "$WORK/redis.log"
for _ in $(seq 50); do redis-cli -p "$REDISPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT/armlist"
export REDIS_URL="redis://127.0.0.1:$REDISPORT/0"
export SECRET_KEY="test-only-$(python3 -c 'import secrets; print(secrets.token_urlsafe(40))')"
export DEBUG=false
export ALLOWED_HOSTS="localhost,127.0.0.1,testserver"
export DJANGO_SETTINGS_MODULE=config.settings.base
export ARMLIST_TEST_TAG="armlist-test-$REDISPORT"
echo "PostgreSQL on port $PGPORT, Redis on port $REDISPORT"

if [ "${1:-}" = "--bench" ]; then
  shift
  "$BIN/python" manage.py migrate --noinput >/dev/null
  for bench in ${@:-benchmarks/bench_*.py}; do echo "== $bench"; "$BIN/python" "$bench"; done
  exit 0
fi

"$BIN/ruff" check .
"$BIN/ruff" format --check .
"$BIN/lint-imports" --no-cache  # the boundaries: generic apps know no game, no cycles (pyproject.toml)
"$BIN/python" manage.py makemigrations --check --dry-run >/dev/null || {
  echo "Models changed without a migration: run manage.py makemigrations"; exit 1; }
"$BIN/python" manage.py compilemessages --ignore=.venv --ignore=var --ignore=node_modules --verbosity 0
if [ $# -gt 0 ]; then
  "$BIN/pytest" "$@"
  exit $?
fi
# The whole suite: in parallel, one test process per core (pytest-xdist; each has its own PostgreSQL and Redis
# database), then the tests marked `serial` (conftest.py: their assertions are about time) in two lanes: the
# tournament's evening in one, the rest one at a time in the other; last the few marked `alone` (a stop within
# seconds, the watchdog's short clock), with no neighbour. The slowest tests are printed every run.
processes=${TEST_PROCESSES:-$(nproc)}
status=0
# Whole files to a process, the longest first (conftest.py: SLOW_FILES), not xdist's order by number of tests.
"$BIN/pytest" -n "$processes" --dist loadfile --no-loadscope-reorder -m "not serial" --durations=30 || status=$?
"$BIN/pytest" -n 2 --dist loadfile --no-loadscope-reorder -m "serial and not alone" --durations=10 || status=$?
"$BIN/pytest" -m alone --durations=5 || status=$?
exit $status
