# Environment of the embedded default (make run): SQLite and the filesystem broker under var/.
# A SECRET_KEY is made once per checkout and kept in var/, never committed.
mkdir -p var
[ -s var/secret_key ] || python3 -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key
export SECRET_KEY="${SECRET_KEY:-$(cat var/secret_key)}"
export DATABASE_URL="${DATABASE_URL:-sqlite:///$(pwd)/var/db.sqlite3}"
export REDIS_URL="${REDIS_URL:-}"
export DEBUG="${DEBUG:-true}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-localhost,127.0.0.1}"
