#!/usr/bin/env bash
# Every test of the project, one section a function. On a fresh machine it first installs what is
# missing (after checking every tool, before the first compile). ./test.sh --help says more.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never

usage() {
    cat <<'EOF'
Usage: ./test.sh [--no-install] [--serial] [SECTION ...]

Checks every tool the tests need, installs what is missing, then runs the sections: all of them by
default, in two groups at once (lint to fuzz_smoke on the Rust side, js to python_package for the
bindings; lines prefixed A| and B|, each group's whole log in target/test-logs/); the sections named,
or all with --serial, one after the other in this order:

  lint              rustfmt, clippy -D warnings (workspace, fuzz crate, no_std core), rustdoc -D warnings
  rust_tests        cargo test --workspace --all-features (unit, property, doc, conformance, CLI, README examples),
                    the game server's apart
  server            the game server against its real process on loopback: on SQLite, then on a throwaway
                    PostgreSQL cluster (two processes on one database, SIGKILL crash tests, the economy)
  no_std_builds     the core and the card economy without std, also for thumbv6m-none-eabi
  fuzz_regressions  every input the fuzzers kept, through its target's checks (stable)
  js                the npm package: build, node --test, tsc --strict, the JS conformance runner
  browser           the demo page in Chromium
  online            arbiter-engine/client and the demo's Online tab against a real arbiter-server (node, Chromium)
  c_library         the C library with gcc: ctest and the C conformance runner
  c_valgrind        the C tests under valgrind
  c_sanitizers      the C library with clang, AddressSanitizer + UBSan
  c_install         the installed library linked by pkg-config and CMake, the README's C examples
  trax_referee      two Trax engines under a Python referee
  python_package    the Python wheel built by maturin in a venv under target/: pytest, mypy --strict,
                    stubtest, the Python conformance runner, and arbiter.distributed on a local Ray cluster;
                    the self-check of the FFXIV conformance cases' reference (conformance/generate/)
  fuzz_smoke        15 s of every fuzz target (needs the nightly toolchain: skipped, and said, without it)

What it installs where missing: the rustup components rustfmt and clippy, the targets
wasm32-unknown-unknown and thumbv6m-none-eabi, the wasm-bindgen CLI of Cargo.lock's version
(cargo install, about nine minutes), cargo-fuzz, and the nightly toolchain's rust-src and
wasm32-unknown-unknown (the npm package's wasm rebuilds the standard library for size) where
nightly exists, Debian packages through
apt-get (as root, or through sudo: PostgreSQL among them, for the server section), the npm packages (npm
ci), and, in the python_package section, a virtual environment with maturin, numpy, pytest, mypy, pettingzoo,
gymnasium, open-spiel, ray and pyarrow (pip). --no-install only checks, and prints the commands that would
install what is missing.
EOF
}

section() { printf '\n=== %s (%s) ===\n' "$1" "$(date +%T)"; }
say() { printf 'test.sh: %s\n' "$*"; }

# ---- Set-up: what is needed, checked in seconds, installed before the first compile ----------

# Debian package and how to tell it is there (a command on the PATH, or a file).
DEBIAN_PACKAGES=(
    cmake:cmake make:make gcc:gcc g++:g++ clang:clang valgrind:valgrind pkg-config:pkg-config
    python3:python3 libcjson-dev:/usr/include/cjson/cJSON.h "chromium:${CHROMIUM:-/usr/bin/chromium}"
    # clang's sanitizer runtime, only recommended by clang (and this script installs no recommends)
    "libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.a"
    # the server section's throwaway cluster (server/scripts/postgres.sh runs it as the postgres user)
    "postgresql:/usr/lib/postgresql/*/bin/initdb"
)
RUST_TARGETS=(wasm32-unknown-unknown thumbv6m-none-eabi)
RUST_COMPONENTS=(rustfmt clippy)
NODE_MIN=20.19

# The wasm-bindgen CLI must be exactly the crate's version in Cargo.lock.
wasm_bindgen_version() { sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock; }

version_at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]; }

# How to run a command as root here: directly, through sudo without a password, or not at all.
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        sudo "$@"
    else
        return 1
    fi
}

setup() {
    local install=$1 problems=() missing_pkgs=() missing_targets=() missing_components=()
    section "set-up: checking tools"
    command -v cargo >/dev/null && command -v rustup >/dev/null ||
        problems+=("Rust through rustup: https://rustup.rs (then open a new shell)")
    if command -v node >/dev/null; then
        version_at_least "$(node --version | tr -d v)" "$NODE_MIN" ||
            problems+=("Node.js $NODE_MIN or later (this is $(node --version))")
    else
        problems+=("Node.js $NODE_MIN or later, with npm")
    fi
    command -v npm >/dev/null || problems+=("npm (it comes with Node.js)")
    if ((${#problems[@]})); then
        say "missing, and not installed by this script:"
        printf '  - %s\n' "${problems[@]}"
        exit 1
    fi
    local installed
    installed=$(rustup target list --installed)
    for t in "${RUST_TARGETS[@]}"; do grep -qx "$t" <<<"$installed" || missing_targets+=("$t"); done
    installed=$(rustup component list --installed)
    for c in "${RUST_COMPONENTS[@]}"; do grep -q "^$c" <<<"$installed" || missing_components+=("$c"); done
    local entry
    for entry in "${DEBIAN_PACKAGES[@]}"; do
        local pkg=${entry%%:*} probe=${entry#*:}
        if [[ $probe == /* ]]; then compgen -G "$probe" >/dev/null; else command -v "$probe" >/dev/null; fi ||
            missing_pkgs+=("$pkg")
    done
    # Debian's python3 keeps venv and ensurepip in a package of their own.
    python3 -c 'import venv, ensurepip' 2>/dev/null || missing_pkgs+=(python3-venv)
    local bindgen want_bindgen
    want_bindgen=$(wasm_bindgen_version)
    bindgen=$(wasm-bindgen --version 2>/dev/null || true)
    local nightly=""
    rustup toolchain list | grep -q '^nightly' && nightly=yes
    # wasm/scripts/build.mjs rebuilds the standard library for size on nightly.
    local nightly_wasm=()
    if [ -n "$nightly" ]; then
        rustup component list --installed --toolchain nightly | grep -q '^rust-src' || nightly_wasm+=("component add rust-src")
        rustup target list --installed --toolchain nightly | grep -qx wasm32-unknown-unknown ||
            nightly_wasm+=("target add wasm32-unknown-unknown")
    fi

    local todo=()
    ((${#missing_components[@]})) && todo+=("rustup component add ${missing_components[*]}")
    ((${#missing_targets[@]})) && todo+=("rustup target add ${missing_targets[*]}")
    for c in "${nightly_wasm[@]}"; do todo+=("rustup $c --toolchain nightly"); done
    ((${#missing_pkgs[@]})) && todo+=("apt-get update && apt-get install -y ${missing_pkgs[*]}")
    [ "$bindgen" = "wasm-bindgen $want_bindgen" ] || todo+=("cargo install wasm-bindgen-cli --version $want_bindgen")
    if [ -n "$nightly" ] && ! command -v cargo-fuzz >/dev/null; then todo+=("cargo install cargo-fuzz"); fi
    if ((${#todo[@]} == 0)); then
        say "every tool is there"
    else
        say "to install:"
        printf '  %s\n' "${todo[@]}"
    fi
    [ -n "$nightly" ] || say "no nightly toolchain: fuzz_smoke will be skipped and the npm package's wasm will exceed its size budgets (rustup toolchain install nightly)"
    if ((${#missing_pkgs[@]})) && [ "$install" = yes ] && ! as_root true 2>/dev/null; then
        say "the Debian packages need root: run this, then ./test.sh again:"
        printf '  sudo apt-get update && sudo apt-get install -y %s\n' "${missing_pkgs[*]}"
        exit 1
    fi
    if [ "$install" = no ]; then
        ((${#todo[@]} == 0)) || exit 1
        return
    fi

    ((${#todo[@]} == 0)) || section "set-up: installing"
    ((${#missing_components[@]} == 0)) || rustup component add "${missing_components[@]}"
    ((${#missing_targets[@]} == 0)) || rustup target add "${missing_targets[@]}"
    # Word splitting on purpose: each entry is "component add NAME" or "target add NAME".
    # shellcheck disable=SC2086
    for c in "${nightly_wasm[@]}"; do rustup $c --toolchain nightly; done
    if ((${#missing_pkgs[@]})); then
        as_root apt-get update -q
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing_pkgs[@]}"
    fi
    npm_install
    # The two cargo installs compile for minutes: each runs first in the group that needs it
    # (below), beside the other group's compiles and tests.
    [ "$bindgen" = "wasm-bindgen $want_bindgen" ] || PENDING_INSTALLS+=(install_wasm_bindgen)
    if [ -n "$nightly" ] && ! command -v cargo-fuzz >/dev/null; then PENDING_INSTALLS+=(install_cargo_fuzz); fi
}
PENDING_INSTALLS=()

# Without --locked: with it, the CLI's own dependency resolution fails (TOOLCHAIN.md).
install_wasm_bindgen() { section "set-up: cargo install wasm-bindgen-cli"; cargo install wasm-bindgen-cli --version "$(wasm_bindgen_version)"; }
install_cargo_fuzz() { section "set-up: cargo install cargo-fuzz"; cargo install cargo-fuzz; }

# npm ci again only when package-lock.json changed since the last install.
npm_install() {
    local stamp=wasm/node_modules/.installed-lock want
    want=$(sha256sum wasm/package-lock.json | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        npm --prefix wasm ci --no-audit --no-fund
        echo "$want" >"$stamp"
    fi
}

# ---- The sections ------------------------------------------------------------------------------

lint() {
    section "lint: rustfmt, clippy, rustdoc"
    cargo fmt --all -- --check
    cargo fmt --manifest-path fuzz/Cargo.toml --all -- --check
    cargo clippy --workspace --all-targets --all-features -- -D warnings
    cargo clippy -p arbiter-core -p arbiter-economy --no-default-features -- -D warnings
    cargo clippy --manifest-path fuzz/Cargo.toml --all-targets -- -D warnings
    RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features
}

# Unit, property, doc, conformance and command-line tests; the ffi crate's test checks that
# include/arbiter.h is what cbindgen makes of the exports (the header drift check); the core's
# doctests include the README's Rust example.
rust_tests() {
    section "cargo test"
    cargo test --workspace --all-features --exclude arbiter-server
}

# The game server (server/): server/test.sh says what it does.
server() {
    section "game server: integration tests on SQLite and PostgreSQL"
    # shellcheck source=server/test.sh
    source server/test.sh
    server_tests
}

# The core and the card economy stay no_std-clean, also on a target without atomic compare-and-swap.
no_std_builds() {
    section "no_std builds"
    cargo build -p arbiter-core -p arbiter-economy --no-default-features
    cargo build -p arbiter-core -p arbiter-economy --no-default-features --target thumbv6m-none-eabi
}

# Every input the fuzzers ever found (fuzz/regressions/) through its target's checks, on stable, and
# the C ABI check's random calls of every kind through the exports of every game.
fuzz_regressions() {
    section "fuzz regressions"
    cargo test --manifest-path fuzz/Cargo.toml --lib
}

# The npm package (wasm/): build it, test its API, types and packaging, and run every
# conformance case through it.
js() {
    section "npm package: build, node --test, tsc, JS conformance runner"
    npm_install
    npm --prefix wasm run build
    npm --prefix wasm test
    node wasm/conformance.mjs conformance/*.jsonl | tail -n 5
}

# The demo page (wasm/demo/) in Debian's chromium: one game of each played by clicking, checked
# against the package; screenshots in target/demo-shots/. Needs the package built by js().
browser() {
    section "demo page in chromium"
    npm --prefix wasm run test:browser
}

# arbiter-engine/client and the demo's Online tab against a real arbiter-server process on a
# loopback port (SQLite in a temporary folder). Needs the package built by js().
online() {
    section "online client and Online tab against arbiter-server"
    cargo build -p arbiter-server
    npm --prefix wasm run test:client
    npm --prefix wasm run test:online
}

# The C library with gcc: build, C tests, examples, and the C conformance runner on every case file.
c_library() {
    section "C library (gcc): build and ctest"
    cmake -S ffi/c -B BUILD -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build BUILD -j2
    ctest --test-dir BUILD --output-on-failure
    section "C conformance runner"
    BUILD/arbiter-c-conformance conformance/*.jsonl | tail -n 5
}

# The C tests, examples and the conformance runner again under valgrind: no error, no leak.
c_valgrind() {
    section "C library under valgrind"
    [ -d BUILD ] || c_library
    ctest --test-dir BUILD --output-on-failure -T memcheck
}

# The same programs built by clang with AddressSanitizer and UBSan.
c_sanitizers() {
    section "C library (clang): AddressSanitizer + UBSan"
    CC=clang CXX=clang++ cmake -S ffi/c -B BUILD-asan -DARBITER_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
    cmake --build BUILD-asan -j2
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir BUILD-asan --output-on-failure
}

# A C example of a README (the code block after an HTML comment naming it), as written.
readme_example() { sed -n "/<!-- $2 -->/,/^\`\`\`\$/p" "$1" | sed '1,2d;$d'; }

# A host project links the installed library: the READMEs' C examples through pkg-config (shared
# and static) and through find_package (static).
c_install() {
    section "C library installed: pkg-config and find_package"
    [ -d BUILD ] || c_library
    local prefix="$PWD/BUILD/install" example="$PWD/BUILD/minimal.c" pcdir name
    cmake --install BUILD --prefix "$prefix"
    pcdir=$(dirname "$(find "$prefix" -name arbiter.pc)")
    readme_example ffi/README.md minimal.c >"$example"
    readme_example README.md readme.c >BUILD/readme.c
    for name in minimal readme; do
        [ -s "BUILD/$name.c" ] || { say "no C example <!-- $name.c --> found"; exit 1; }
        # shellcheck disable=SC2046
        # Linked as ffi/README.md says, the program finds the library with no LD_LIBRARY_PATH.
        cc -std=c99 -Wall -Wextra -Werror "BUILD/$name.c" -o "BUILD/$name-shared" \
            $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs arbiter) \
            -Wl,-rpath,"$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir arbiter)"
        env -u LD_LIBRARY_PATH "BUILD/$name-shared"
        # shellcheck disable=SC2046
        cc -std=c99 -Wall -Wextra -Werror "BUILD/$name.c" -o "BUILD/$name-static" -l:libarbiter.a \
            $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs --static arbiter)
        "BUILD/$name-static"
    done
    cmake -S ffi/c/tests/consumer -B BUILD/consumer -DCMAKE_PREFIX_PATH="$prefix" -DMINIMAL_C="$example"
    cmake --build BUILD/consumer
    BUILD/consumer/minimal
    BUILD/consumer/minimal-shared
}

# Two copies of the strongest Trax level play whole games through `arbiter engine trax`, refereed
# from outside by a Python script that checks every move by replaying the game.
trax_referee() {
    section "Trax engine protocol: two engines and a Python referee"
    # The engines are the command as the README installs it, which must say nothing but where it
    # put it (the release build is shared: nothing is compiled twice).
    cargo install --locked --path cli --root BUILD/cli --target-dir target 2>BUILD/cli-install.log ||
        { cat BUILD/cli-install.log; exit 1; }
    if grep '^warning' BUILD/cli-install.log | grep -v 'to your PATH'; then
        say "cargo install --locked --path cli warned"
        exit 1
    fi
    python3 cli/tests/trax_referee.py BUILD/cli/bin/arbiter 8x8
    python3 cli/tests/trax_referee.py BUILD/cli/bin/arbiter unbounded
}

# The Python package (python/): python/test.sh says what it does.
python_package() {
    section "Python package: wheel, pytest, mypy, conformance"
    # shellcheck source=python/test.sh
    source python/test.sh
    python_tests
    # The independent reference that wrote the FFXIV conformance cases, checked against positions
    # worked by hand (conformance/generate/README.md); the venv is the one python_tests made.
    "${CARGO_TARGET_DIR:-target}/python-venv/bin/python" -m pytest -q -p no:cacheprovider \
        conformance/generate/test_ffxiv_reference.py
}

# A short run of every fuzz target (nightly, sanitizer coverage), seeded from the conformance
# cases; a finding fails. Long runs are for people: fuzz/README.md.
fuzz_smoke() {
    section "fuzz smoke run (nightly)"
    if ! rustup toolchain list | grep -q '^nightly'; then
        say "skipped: no nightly toolchain (rustup toolchain install nightly); fuzz_regressions ran the kept inputs"
        return
    fi
    python3 fuzz/seed_corpus.py
    (
        cd fuzz
        for target in $(cargo +nightly fuzz list); do
            cargo +nightly fuzz run -O "$target" "corpus/$target" -- -max_total_time=15 -print_final_stats=0 2>&1 | tail -n 3
        done
    )
}

ALL=(lint rust_tests server no_std_builds fuzz_regressions js browser online c_library c_valgrind c_sanitizers c_install trax_referee python_package fuzz_smoke)

install=yes
serial=no
sections=()
for arg in "$@"; do
    case "$arg" in
    -h | --help) usage; exit 0 ;;
    --no-install) install=no ;;
    --serial) serial=yes ;;
    -*) say "unknown option $arg"; usage >&2; exit 2 ;;
    *)
        printf '%s\n' "${ALL[@]}" | grep -qx "$arg" || { say "unknown section $arg (./test.sh --help lists them)"; exit 2; }
        sections+=("$arg")
        ;;
    esac
done
if ((${#sections[@]} == 0)); then
    sections=("${ALL[@]}")
else
    serial=yes
fi

# Runs sections (and pending installs) one after the other, saying each one's wall time.
run_in_order() {
    local s t
    for s in "$@"; do
        t=$(date +%s)
        "$s"
        say "time $s $(($(date +%s) - t)) s"
    done
}

# The installs that belong before a group's first section (the installs of a serial run all do).
installs_for() {
    local i
    for i in "${PENDING_INSTALLS[@]}"; do
        case "$1:$i" in
        serial:* | A:install_cargo_fuzz | B:install_wasm_bindgen) printf '%s\n' "$i" ;;
        esac
    done
}

started=$(date +%s)
setup "$install"
first=$(date +%s)
mkdir -p target/test-logs
if [ "$serial" = yes ]; then
    # shellcheck disable=SC2046
    run_in_order $(installs_for serial) "${sections[@]}" 2>&1 | tee target/test-logs/serial.log
    summary=$(grep -h '^test.sh: time ' target/test-logs/serial.log | sed 's/^test.sh: time //')
else
    # Two groups at once, each in its own order: much of the suite waits (server clocks, Chromium,
    # Ray, valgrind) while the other group compiles. A: the Rust side and the server; B: the
    # bindings. Lines are prefixed with their group and kept whole in target/test-logs/.
    group_a=(lint rust_tests server no_std_builds fuzz_regressions fuzz_smoke)
    group_b=(js browser online c_library c_valgrind c_sanitizers c_install trax_referee python_package)
    # shellcheck disable=SC2046
    (run_in_order $(installs_for A) "${group_a[@]}") 2>&1 | tee target/test-logs/A.log | sed -u 's/^/A| /' &
    pid_a=$!
    # shellcheck disable=SC2046
    (run_in_order $(installs_for B) "${group_b[@]}") 2>&1 | tee target/test-logs/B.log | sed -u 's/^/B| /' &
    pid_b=$!
    failed=()
    wait "$pid_a" || failed+=(A)
    wait "$pid_b" || failed+=(B)
    for g in "${failed[@]}"; do
        say "group $g failed; the end of its log (target/test-logs/$g.log):"
        tail -n 60 "target/test-logs/$g.log"
    done
    ((${#failed[@]} == 0)) || exit 1
    summary=$(grep -h '^test.sh: time ' target/test-logs/A.log target/test-logs/B.log | sed 's/^test.sh: time //')
fi
section "all tests passed: ${sections[*]} ($(($(date +%s) - started)) s)"
say "set-up $((first - started)) s; $(tr '\n' ',' <<<"$summary" | sed 's/,$//; s/,/, /g')"
