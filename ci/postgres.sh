#!/usr/bin/env bash
# A throw-away PostgreSQL on loopback for the survey storage tests.
#
#   eval "$(bash ci/postgres.sh)"      # then: make test  (SURVEY_TEST_PG_URL is set)
#
# As root with apt-get it installs Debian's `postgresql` if missing, starts a cluster on
# 127.0.0.1 (pg_ctlcluster, or pg_ctl as the postgres user), creates a test role and
# database, and prints ONE line on stdout:
#   export SURVEY_TEST_PG_URL=postgresql+psycopg://USER:PASSWORD@127.0.0.1:PORT/DB
# Everything else goes to stderr. Idempotent: a second run finds the server up and only
# prints the line. Every wait is bounded. If PostgreSQL cannot be provided (not root, no
# apt-get), it prints nothing and exits 0, so the PostgreSQL tests skip with a reason.
# The password is a fixed test credential: the server only listens on loopback.
set -euo pipefail

PG_USER="${SURVEY_PG_USER:-playground}"
PG_PASSWORD="${SURVEY_PG_PASSWORD:-playground-test}"
PG_DB="${SURVEY_PG_DB:-playground_test}"
PG_PORT="${SURVEY_PG_PORT:-5432}"
WAIT_S="${SURVEY_PG_WAIT_S:-60}"
APT_TIMEOUT_S="${SURVEY_PG_APT_TIMEOUT_S:-900}"

log() { echo "ci/postgres.sh: $*" >&2; }
url() { echo "postgresql+psycopg://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${PG_PORT}/${PG_DB}"; }
give_up() { log "$* — PostgreSQL tests will be skipped"; exit 0; }

can_login() {
    command -v psql >/dev/null 2>&1 || return 1
    PGPASSWORD="$PG_PASSWORD" PGCONNECT_TIMEOUT=3 psql -h 127.0.0.1 -p "$PG_PORT" \
        -U "$PG_USER" -d "$PG_DB" -tAc 'SELECT 1' >/dev/null 2>&1
}

if can_login; then
    log "already running on 127.0.0.1:${PG_PORT}"
    echo "export SURVEY_TEST_PG_URL=$(url)"
    exit 0
fi

[ "$(id -u)" = 0 ] || give_up "not root: cannot install or start PostgreSQL"

pg_bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(pg_bindir)" ] || [ ! -x "$(pg_bindir)/pg_ctl" ]; then
    command -v apt-get >/dev/null 2>&1 || give_up "no PostgreSQL and no apt-get"
    log "installing Debian's postgresql (bounded by ${APT_TIMEOUT_S}s)"
    export DEBIAN_FRONTEND=noninteractive
    timeout "$APT_TIMEOUT_S" apt-get -o DPkg::Lock::Timeout=300 update >&2 \
        || give_up "apt-get update failed"
    timeout "$APT_TIMEOUT_S" apt-get -o DPkg::Lock::Timeout=300 install -y postgresql >&2 \
        || give_up "apt-get install postgresql failed"
fi
BIN="$(pg_bindir)"
[ -x "$BIN/pg_ctl" ] || give_up "pg_ctl not found after installing"
VERSION="$(basename "$(dirname "$BIN")")"

as_postgres() { runuser -u postgres -- "$@"; }

if command -v pg_ctlcluster >/dev/null 2>&1; then
    if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -qx "$VERSION main"; then
        log "creating cluster $VERSION/main on port $PG_PORT"
        pg_createcluster "$VERSION" main --port "$PG_PORT" >&2
    fi
    PG_PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')"
    if ! pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}' \
        | grep -q online; then
        log "starting cluster $VERSION/main on 127.0.0.1:$PG_PORT"
        timeout "$WAIT_S" pg_ctlcluster "$VERSION" main start >&2 || give_up "cluster did not start"
    fi
    SOCKET_DIR=/var/run/postgresql
else
    DATA_DIR=/var/lib/postgresql/playground-test
    SOCKET_DIR=/tmp
    if [ ! -s "$DATA_DIR/PG_VERSION" ]; then
        log "initdb in $DATA_DIR"
        install -d -o postgres -g postgres -m 700 "$DATA_DIR"
        as_postgres "$BIN/initdb" -D "$DATA_DIR" -A peer --auth-host=scram-sha-256 >&2
    fi
    if ! as_postgres "$BIN/pg_ctl" -D "$DATA_DIR" status >/dev/null 2>&1; then
        log "starting with pg_ctl on 127.0.0.1:$PG_PORT"
        as_postgres "$BIN/pg_ctl" -D "$DATA_DIR" -l "$DATA_DIR/server.log" -w -t "$WAIT_S" \
            -o "-p $PG_PORT -k $SOCKET_DIR -c listen_addresses=127.0.0.1" start >&2 \
            || give_up "pg_ctl start failed"
    fi
fi

deadline=$((SECONDS + WAIT_S))
until "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; do
    [ "$SECONDS" -lt "$deadline" ] || give_up "server not ready after ${WAIT_S}s"
    sleep 1
done

psql_admin() {
    as_postgres "$BIN/psql" -h "$SOCKET_DIR" -p "$PG_PORT" -d postgres -v ON_ERROR_STOP=1 -tA "$@"
}
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$PG_USER'")" != 1 ]; then
    log "creating role $PG_USER"
    psql_admin -c "CREATE ROLE \"$PG_USER\" LOGIN PASSWORD '$PG_PASSWORD'" >&2
else
    psql_admin -c "ALTER ROLE \"$PG_USER\" LOGIN PASSWORD '$PG_PASSWORD'" >&2
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != 1 ]; then
    log "creating database $PG_DB"
    psql_admin -c "CREATE DATABASE \"$PG_DB\" OWNER \"$PG_USER\"" >&2
fi

can_login || give_up "cannot log in as $PG_USER over TCP on 127.0.0.1:$PG_PORT"
log "ready on 127.0.0.1:$PG_PORT (database $PG_DB, role $PG_USER)"
echo "export SURVEY_TEST_PG_URL=$(url)"
