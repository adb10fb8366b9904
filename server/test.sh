# The game server's tests, for the repository's test.sh: `source server/test.sh` then
# `server_tests`, or run `bash server/test.sh` alone. The integration tests in server/tests start
# the real arbiter-server binary on free loopback ports and talk to it over WebSockets: on a
# temporary SQLite file each, and then, when ARBITER_TEST_DATABASE names a PostgreSQL server
# (postgres://USER@HOST:PORT/postgres, a user that may CREATE DATABASE), the same suite again
# with a fresh database per test on that server; without one, on a throwaway PostgreSQL cluster
# that server/scripts/postgres.sh starts for the run (the cluster tests need it); tests/ownership.rs
# starts one more through that script, with a small lock table. The binary is built in the test profile
# (Argon2 alone optimised: Cargo.toml), so the run needs no release build.

server_tests() (
    set -euo pipefail
    local root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    cd "$root"
    echo "server tests on SQLite"
    env -u ARBITER_TEST_DATABASE cargo test -p arbiter-server
    if [[ "${ARBITER_TEST_DATABASE:-}" == postgres* ]]; then
        echo "server tests on PostgreSQL ($ARBITER_TEST_DATABASE)"
        cargo test -p arbiter-server
    else
        # A throwaway cluster as the postgres user (Debian's postgresql installed where missing),
        # stopped and removed whatever the tests do.
        echo "server tests on PostgreSQL (a throwaway cluster: server/scripts/postgres.sh)"
        server/scripts/postgres.sh cargo test -p arbiter-server
    fi
)

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    server_tests
fi
