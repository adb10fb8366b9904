#!/usr/bin/env bash
# The server's load benchmark, side by side in one run (server/bench/README.md says how the load
# is measured): arbiter-server on SQLite and on PostgreSQL (fsync on, PostgreSQL's default), then
# boardgame.io's server in memory and with FlatFile, the same clients, window and think time, one
# JSON line each, round after round so that the machine's noise falls on all of them alike.
#
#     server/scripts/bench.sh [--clients 200] [--seconds 20] [--warmup 3] [--think-ms 0] [--rounds 1]
#                             [--only arbiter|boardgameio] [--server ARBITER_SERVER]
#
# --server runs that arbiter-server binary (another commit's build, for a before and after in one
# run) instead of this tree's.
# It builds the server and the load client in release mode, installs the anchor's npm packages
# where missing (BGIO_DIR names another copy of server/bench/boardgameio), and raises the limit of
# open files for the thousands of sockets.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
bgio="${BGIO_DIR:-$root/server/bench/boardgameio}"
clients=200 seconds=20 warmup=3 think=0 rounds=1 only= server=
while [ $# -gt 0 ]; do
    case "$1" in
        --clients) clients=$2 ;;
        --seconds) seconds=$2 ;;
        --warmup) warmup=$2 ;;
        --think-ms) think=$2 ;;
        --rounds) rounds=$2 ;;
        --only) only=$2 ;;
        --server) server=$2 ;;
        *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

# Each client holds a socket at both ends, the server a database connection or file or two more.
need=$((clients * 2 + 256))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$need" ] ||
        { echo "bench.sh: $clients clients need $need open files; the limit is $(ulimit -n)" >&2; exit 1; }
fi

if [ "$only" != boardgameio ]; then
    (cd "$root" && cargo build --quiet --release -p arbiter-server --bin arbiter-server --example load)
fi
if [ "$only" != arbiter ]; then
    [ -d "$bgio/node_modules/boardgame.io" ] || npm --prefix "$bgio" ci --no-audit --no-fund >&2
fi

load=("$target/release/examples/load" --spawn "${server:-$target/release/arbiter-server}" --accounts seeded
    --clients "$clients" --seconds "$seconds" --warmup "$warmup" --think-ms "$think")
anchor=(--clients "$clients" --seconds "$seconds" --warmup "$warmup" --think-ms "$think")
status=0
for round in $(seq "$rounds"); do
    echo "bench.sh: round $round of $rounds ($clients clients, think ${think} ms, ${seconds} s)" >&2
    if [ "$only" != boardgameio ]; then
        "${load[@]}" || status=1
        POSTGRES_FSYNC=on POSTGRES_MAX_CONNECTIONS=100 "$root/server/scripts/postgres.sh" \
            sh -c '"$@" --database "$ARBITER_TEST_DATABASE"' load "${load[@]}" || status=1
    fi
    if [ "$only" != arbiter ]; then
        node "$bgio/run.mjs" --storage memory "${anchor[@]}" || status=1
        node "$bgio/run.mjs" --storage flatfile "${anchor[@]}" || status=1
    fi
done
exit "$status"
