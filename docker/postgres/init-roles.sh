#!/bin/bash
# First start of the database volume (docker-entrypoint-initdb.d): Tavolo's roles (roles.sql) and their
# passwords, from TAVOLO_OWNER_PASSWORD and TAVOLO_APP_PASSWORD. Later starts do not run it.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -f /tavolo/roles.sql
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v owner_password="${TAVOLO_OWNER_PASSWORD:?}" -v app_password="${TAVOLO_APP_PASSWORD:?}" <<'SQL'
ALTER ROLE tavolo_owner PASSWORD :'owner_password';
ALTER ROLE tavolo_app PASSWORD :'app_password';
SQL
