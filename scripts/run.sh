#!/usr/bin/env bash
# make run: migrate, collect static files, load data packs and the demo club, then serve the LAN with gunicorn's
# uvicorn workers (config/gunicorn_conf.py: phones' event streams held by an event loop, not a thread each; DEBUG off,
# static files from whitenoise) and a Celery worker on the filesystem broker.
# Prints the address to open and its QR code. ARMLIST_LOCAL_ONLY=1 serves 127.0.0.1 only; PORT sets the port.
# Ctrl-C (or SIGTERM) stops the server and the worker, with their children, and waits for them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/dev-env.sh
BIN=.venv/bin
eval "$($BIN/python -m config.lan env)"  # ARMLIST_BIND, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, ARMLIST_URL(S)
# System packages the set-up needs (Debian), installed only when missing: gettext compiles the catalogues.
need=()
command -v msgfmt >/dev/null || need+=(gettext)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing ${need[*]} with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
$BIN/python manage.py compilemessages --ignore=.venv --ignore=var --ignore=node_modules --verbosity 0
$BIN/python manage.py migrate --noinput
$BIN/python manage.py collectstatic --noinput --verbosity 0
$BIN/python manage.py setup_demo

PIDS=()
stop() {
  trap - INT TERM HUP EXIT
  [ ${#PIDS[@]} -gt 0 ] || return 0
  echo "Stopping the server and the worker…"
  # Each leader (gunicorn's master, celery's main process) stops its own children gracefully; whatever is left of
  # its process group after 15 s (requests and tasks in flight) is killed.
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 150); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "${PIDS[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM HUP
trap stop EXIT

set -m  # each of the two runs in its own process group: stopping a group reaches its workers too
$BIN/celery -A config worker --loglevel=INFO --concurrency=2 --hostname=worker@%h &
PIDS+=($!)
$BIN/python -m config.lan serve &  # gunicorn, exactly as tests/club_server.py starts it
PIDS+=($!)
set +m
$BIN/python -m config.lan banner || true
echo "Demo login above. Stop with Ctrl-C."
# Until Ctrl-C, or until one of them stops by itself: then the other is stopped too (the EXIT trap).
while kill -0 "${PIDS[0]}" 2>/dev/null && kill -0 "${PIDS[1]}" 2>/dev/null; do sleep 1; done
echo "The server or the worker stopped by itself: see its messages above." >&2
exit 1
