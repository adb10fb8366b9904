#!/usr/bin/env bash
# Runs one command against a throwaway PostgreSQL cluster:
#
#     server/scripts/postgres.sh COMMAND [ARG ...]
#
# It installs Debian's `postgresql` where missing (apt-get as root or through `sudo -n`), creates
# a cluster in a temporary folder as the `postgres` user (PostgreSQL refuses to run as root), starts
# it on a free port of 127.0.0.1, exports ARBITER_TEST_DATABASE (and ARBITER_TEST_POSTGRES, DATABASE_URL) as its URL, runs
# the command, and always stops the cluster and removes the folder, whatever the command did or
# whichever signal stopped the script. The exit status is the command's. About three seconds of
# overhead.
#
# Source it to get `with_postgres COMMAND...` as a function (server/test.sh does).
# POSTGRES_OPTIONS adds server settings (`-c name=value ...`).
# POSTGRES_FSYNC=on keeps PostgreSQL's durable default (the load benchmark sets it); the tests
# leave it off because they kill the server, never the database: a committed transaction is in
# PostgreSQL's memory before COMMIT returns, whatever becomes of the client.

with_postgres() ( _postgres_run "$@" )

# Not local: the EXIT trap runs after _postgres_run has returned.
_pg_bin= _pg_dir= _pg_data= _pg_child=
_pg_runner=()

_pg_as_owner() { "${_pg_runner[@]}" "$@"; }

_pg_install() {
    local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql)
    echo "postgres.sh: installing Debian's postgresql" >&2
    if [ "$(id -u)" = 0 ]; then
        "${install[@]}" >&2 || { apt-get update >&2 && "${install[@]}" >&2; }
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo -n "${install[@]}" >&2 || { sudo -n apt-get update >&2 && sudo -n "${install[@]}" >&2; }
    else
        echo "postgres.sh: $_pg_bin/initdb is missing and this user cannot install postgresql (no root, no sudo -n)" >&2
        return 1
    fi
    [ -x "$_pg_bin/initdb" ] || { echo "postgres.sh: no $_pg_bin/initdb after installing postgresql" >&2; return 1; }
}

_pg_stop() {
    [ -z "$_pg_child" ] || kill -TERM "$_pg_child" 2>/dev/null || true
    if [ -n "$_pg_data" ] && [ -f "$_pg_data/postmaster.pid" ]; then
        _pg_as_owner "$_pg_bin/pg_ctl" -D "$_pg_data" -m immediate -w stop >/dev/null 2>&1 ||
            kill -9 "$(head -n 1 "$_pg_data/postmaster.pid")" 2>/dev/null || true
    fi
    [ -z "$_pg_dir" ] || rm -rf "$_pg_dir"
}

_postgres_run() {
    set -euo pipefail
    local port url status attempt
    _pg_bin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
    [ -x "$_pg_bin/initdb" ] || _pg_install

    # The server runs as the user who owns the data folder; root must hand it to `postgres`.
    if [ "$(id -u)" = 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "postgres.sh: running as root and there is no postgres user" >&2; return 1; }
        _pg_runner=(runuser -u postgres --)
        command -v runuser >/dev/null || _pg_runner=(su postgres -s /bin/sh -c '"$0" "$@"')
    fi

    trap _pg_stop EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    _pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-pg.XXXXXX")
    # A root mktemp folder is 0700: the postgres user could not reach its own data folder inside.
    chmod 755 "$_pg_dir"
    _pg_data="$_pg_dir/data"
    mkdir "$_pg_data"
    [ "$(id -u)" != 0 ] || chown postgres: "$_pg_data"

    _pg_as_owner "$_pg_bin/initdb" -D "$_pg_data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 \
        >"$_pg_dir/initdb.log" 2>&1 || { cat "$_pg_dir/initdb.log" >&2; return 1; }

    # A free port from the kernel; another process may take it before PostgreSQL binds it, so
    # try a few.
    port=
    for attempt in 1 2 3 4 5; do
        port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        _pg_as_owner "$_pg_bin/pg_ctl" -D "$_pg_data" -l "$_pg_data/server.log" -w -t 30 -o \
            "-k $_pg_data -p $port -c listen_addresses=127.0.0.1 -c fsync=${POSTGRES_FSYNC:-off} -c max_connections=${POSTGRES_MAX_CONNECTIONS:-300} ${POSTGRES_OPTIONS:-}" \
            start >/dev/null 2>&1 && break
        port=
    done
    if [ -z "$port" ]; then
        cat "$_pg_data/server.log" >&2 2>/dev/null || true
        echo "postgres.sh: the cluster did not start" >&2
        return 1
    fi

    url="postgres://postgres@127.0.0.1:$port/postgres"
    export ARBITER_TEST_DATABASE="$url" ARBITER_TEST_POSTGRES="$url" DATABASE_URL="$url"
    echo "postgres.sh: PostgreSQL $("$_pg_bin/postgres" --version | awk '{print $3}') at $url (data in $_pg_data)" >&2
    # In the background, so that a signal to this script stops the cluster at once.
    status=0
    "$@" <&0 &
    _pg_child=$!
    wait "$_pg_child" || status=$?
    _pg_child=
    return "$status"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    if [ $# -eq 0 ]; then
        echo "usage: $0 COMMAND [ARG ...]   (runs COMMAND with ARBITER_TEST_DATABASE set to a throwaway cluster)" >&2
        exit 2
    fi
    _postgres_run "$@"
fi
