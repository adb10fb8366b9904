#!/usr/bin/env bash
# Every test of the project, one section a function: ./test.sh
# Needs Rust (rustup, with the thumbv6m-none-eabi and wasm32-unknown-unknown targets), the
# wasm-bindgen CLI of Cargo.lock's version, Node.js 20.19+, cmake, a C compiler, clang,
# libcjson-dev, valgrind and pkg-config (.ci/run installs them on a fresh Debian machine).
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TERM_COLOR=never

section() { printf '\n=== %s (%s) ===\n' "$1" "$(date +%T)"; }

# Unit, property, doc, conformance and command-line tests; the ffi crate's test checks that
# include/arbiter.h is what cbindgen makes of the exports (the header drift check).
rust_tests() {
    section "cargo test"
    cargo test --workspace --all-features
}

# The core stays no_std-clean, also on a target without atomic compare-and-swap.
no_std_builds() {
    section "no_std builds"
    cargo build -p arbiter-core --no-default-features
    cargo build -p arbiter-core --no-default-features --target thumbv6m-none-eabi
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
    ctest --test-dir BUILD --output-on-failure -T memcheck
}

# The same programs built by clang with AddressSanitizer and UBSan.
c_sanitizers() {
    section "C library (clang): AddressSanitizer + UBSan"
    CC=clang CXX=clang++ cmake -S ffi/c -B BUILD-asan -DARBITER_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
    cmake --build BUILD-asan -j2
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir BUILD-asan --output-on-failure
}

# A host project links the installed library: README's minimal example through pkg-config (shared
# and static) and through find_package (static).
c_install() {
    section "C library installed: pkg-config and find_package"
    local prefix="$PWD/BUILD/install" example="$PWD/BUILD/minimal.c"
    cmake --install BUILD --prefix "$prefix"
    sed -n '/<!-- minimal.c -->/,/^```$/p' README.md | sed '1,2d;$d' >"$example"
    local pcdir
    pcdir=$(dirname "$(find "$prefix" -name arbiter.pc)")
    # shellcheck disable=SC2046
    cc -std=c99 -Wall -Wextra -Werror "$example" -o BUILD/minimal-shared \
        $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs arbiter)
    LD_LIBRARY_PATH="$(dirname "$pcdir")" BUILD/minimal-shared
    # shellcheck disable=SC2046
    cc -std=c99 -Wall -Wextra -Werror "$example" -o BUILD/minimal-static -l:libarbiter.a \
        $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs --static arbiter)
    BUILD/minimal-static
    cmake -S ffi/c/tests/consumer -B BUILD/consumer -DCMAKE_PREFIX_PATH="$prefix" -DMINIMAL_C="$example"
    cmake --build BUILD/consumer
    BUILD/consumer/minimal
}

# Two copies of the strongest Trax level play whole games through `arbiter engine trax`, refereed
# from outside by a Python script that checks every move by replaying the game.
trax_referee() {
    section "Trax engine protocol: two engines and a Python referee"
    cargo build --release -p arbiter-cli
    python3 cli/tests/trax_referee.py target/release/arbiter 8x8
    python3 cli/tests/trax_referee.py target/release/arbiter unbounded
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
    npm --prefix wasm ci --no-audit --no-fund
    npm --prefix wasm run build
    npm --prefix wasm test
    node wasm/conformance.mjs conformance/*.jsonl | tail -n 5
}

# The demo page (wasm/demo/) in Debian's chromium: one game of each played by clicking, checked
# against the package; screenshots in target/demo-shots/. Needs /usr/bin/chromium (or $CHROMIUM;
# .ci/run installs it) and the package built by js().
browser() {
    section "demo page in chromium"
    npm --prefix wasm run test:browser
}

rust_tests
no_std_builds
fuzz_regressions
js
browser
c_library
c_valgrind
c_sanitizers
c_install
trax_referee
section "all tests passed"
