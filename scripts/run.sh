#!/usr/bin/env bash
# make run: migrate, load data packs and the demo club, then serve the app with a Celery worker.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/dev-env.sh
BIN=.venv/bin
$BIN/python manage.py migrate --noinput
$BIN/python manage.py setup_demo
$BIN/celery -A config worker --loglevel=INFO --concurrency=2 --hostname=worker@%h &
WORKER=$!
trap 'kill $WORKER 2>/dev/null; wait $WORKER 2>/dev/null' EXIT INT TERM
echo "Armlist is at http://127.0.0.1:8000 (worker pid $WORKER). Stop with Ctrl-C."
$BIN/python manage.py runserver 127.0.0.1:${PORT:-8000}
