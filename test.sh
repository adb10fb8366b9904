#!/usr/bin/env bash
# The one test command of README.md: every part of the project, one function each.
set -euo pipefail
cd "$(dirname "$0")"

rust() {
    cargo test --workspace --all-features
}

# The npm package (wasm/): build it, test its API, types and packaging, and run every
# conformance case through it. Needs the wasm32-unknown-unknown target and the wasm-bindgen CLI
# of Cargo.lock's version (.ci/run installs both).
js() {
    npm --prefix wasm ci --no-audit --no-fund
    npm --prefix wasm run build
    npm --prefix wasm test
    node wasm/conformance.mjs conformance/*.jsonl
}

# The demo page (wasm/demo/) in Debian's chromium: one game of each played by clicking, checked
# against the package; screenshots in target/demo-shots/. Needs /usr/bin/chromium (or $CHROMIUM;
# .ci/run installs it) and the package built by js().
browser() {
    npm --prefix wasm run test:browser
}

rust
js
browser
