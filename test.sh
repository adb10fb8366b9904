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

rust
js
