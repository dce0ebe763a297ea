# Environment of the embedded default (make run): SQLite and the filesystem broker under var/, DEBUG off.
# A SECRET_KEY is made once per checkout and kept in var/, never committed.
# The addresses to serve (LAN by default, ARMLIST_LOCAL_ONLY=1 for this machine only) come from config/lan.py.
mkdir -p var
[ -s var/secret_key ] || python3 -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key
export SECRET_KEY="${SECRET_KEY:-$(cat var/secret_key)}"
export DATABASE_URL="${DATABASE_URL:-sqlite:///$(pwd)/var/db.sqlite3}"
export REDIS_URL="${REDIS_URL:-}"
export DEBUG="${DEBUG:-false}"
export PORT="${PORT:-8000}"
export ARMLIST_LOCAL_ONLY="${ARMLIST_LOCAL_ONLY:-0}"
