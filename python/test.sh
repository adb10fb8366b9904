# The Python package's tests, for the repository's test.sh: `source python/test.sh` then
# `python_tests`, or run `bash python/test.sh` alone. It makes two virtual environments under
# target/ (or $CARGO_TARGET_DIR), one with the pinned build tool, one with the test tools, builds
# the abi3 wheel once with maturin (sharing the Cargo target directory), installs that wheel in the
# second on a PATH without cargo or rustc, and runs
# pytest over python/tests against it, mypy --strict over a usage of the type stubs, stubtest of
# the stubs against the module, the Python conformance runner over conformance/, and then, with
# Ray, pyarrow and tqdm installed, the tests of arbiter.distributed (python/tests_ray).
# pytest's exit 5 ("no tests collected") counts as a failure.

python_tests() (
    set -euo pipefail
    local root target venv build_venv wheel status bare
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    target="${CARGO_TARGET_DIR:-$root/target}"
    # Two environments: maturin builds the wheel in one; the wheel is tested in the other, which
    # never had Rust or a build tool in it, on a PATH without cargo or rustc (what a user who only
    # runs `pip install <wheel>` has).
    build_venv="$target/python-build-venv"
    venv="$target/python-venv"
    [ -x "$build_venv/bin/python" ] || python3 -m venv "$build_venv"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$build_venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check numpy pytest mypy \
        pettingzoo==1.27.0 gymnasium==1.4.0 open-spiel==2.0.2 "jax[cpu]==0.10.2" \
        flax==0.12.8 optax==0.2.8 chex==0.1.92 orbax-checkpoint==0.12.8 etils==1.15.0
    rm -rf "$target/wheels-python"
    (cd "$root/python" && CARGO_TARGET_DIR="$target" "$build_venv/bin/maturin" build --release --quiet \
        --interpreter "$venv/bin/python" --out "$target/wheels-python")
    wheel="$(ls "$target"/wheels-python/arbiter_engine-*.whl)"
    # One wheel for every CPython from 3.9 and every Linux of its glibc or later (README).
    case "$wheel" in
    *-cp39-abi3-manylinux_*_x86_64.whl | *-cp39-abi3-manylinux_*_aarch64.whl) ;;
    *) echo "python_tests: $wheel is not an abi3 manylinux wheel" >&2; return 1 ;;
    esac
    # The arena test compares with the `arbiter arena` command, built now (the release build shares
    # the core with the wheel's), before cargo leaves the PATH.
    (cd "$root" && CARGO_TARGET_DIR="$target" cargo build --release --quiet -p arbiter-cli)
    # The crew's own tests (python/src/crew.rs: pieces, ranges, the first refusal) need no Python,
    # only the test binary's link to libpython; `test = false` keeps them out of `cargo test
    # --workspace`, which would otherwise need that link on every machine that tests the core.
    (cd "$root" && CARGO_TARGET_DIR="$target" cargo test --release --quiet -p arbiter-python --lib)
    bare="$venv/bin:$(tr ':' '\n' <<<"$PATH" | while read -r dir; do
        [ -x "$dir/cargo" ] || [ -x "$dir/rustc" ] || [ -z "$dir" ] || printf '%s:' "$dir"
    done)"
    export PATH="${bare%:}"
    if command -v cargo || command -v rustc; then
        echo "python_tests: cargo or rustc is still on the PATH" >&2
        return 1
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
    # From outside the source tree, so that `import arbiter` can only find the installed wheel.
    cd "$target"
    status=0
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests" || status=$?
    if [ "$status" -eq 5 ]; then
        echo "python_tests: pytest collected no tests" >&2
        return 1
    fi
    [ "$status" -eq 0 ] || return "$status"
    "$venv/bin/python" -m mypy --strict --no-incremental --cache-dir=/dev/null "$root/python/typing/usage.py" \
        "$root/python/python/arbiter/pettingzoo.py"
    "$venv/bin/python" -m mypy.stubtest --mypy-config-file /dev/null arbiter._core
    "$venv/bin/python" -m arbiter.conformance "$root"/conformance/*.jsonl
    # arbiter.distributed on a local Ray cluster of 2 CPUs that the tests start and stop (about a
    # minute, plus Ray's install): the extra `ray` in the same virtual environment.
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ray==2.60.0 pyarrow tqdm
    status=0
    ARBITER_BIN="$target/release/arbiter" "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests_ray" || status=$?
    if [ "$status" -eq 5 ]; then
        echo "python_tests: pytest collected no Ray tests" >&2
        return 1
    fi
    return "$status"
)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    python_tests
fi
