# The Python package's tests, for the repository's test.sh: `source python/test.sh` then
# `python_tests`, or run `bash python/test.sh` alone. It makes a virtual environment under
# target/ (or $CARGO_TARGET_DIR), installs the pinned build tool and the test tools, builds the
# wheel once with maturin (sharing the Cargo target directory), installs that wheel, and runs
# pytest over python/tests against it, mypy --strict over a usage of the type stubs, stubtest of
# the stubs against the module, the Python conformance runner over conformance/, and then, with
# Ray, pyarrow and tqdm installed, the tests of arbiter.distributed (python/tests_ray).
# pytest's exit 5 ("no tests collected") counts as a failure.

python_tests() (
    set -euo pipefail
    local root target venv wheel status
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    target="${CARGO_TARGET_DIR:-$root/target}"
    venv="$target/python-venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0 numpy pytest mypy \
        pettingzoo==1.27.0 gymnasium==1.4.0 open-spiel==2.0.2
    rm -rf "$target/wheels-python"
    (cd "$root/python" && CARGO_TARGET_DIR="$target" "$venv/bin/maturin" build --release --quiet \
        --interpreter "$venv/bin/python" --out "$target/wheels-python")
    wheel="$(ls "$target"/wheels-python/arbiter_engine-*.whl)"
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
    # The arena test compares with the `arbiter arena` command, built here (the release build
    # shares the core with the wheel's).
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ray==2.60.0 pyarrow tqdm
    (cd "$root" && CARGO_TARGET_DIR="$target" cargo build --release --quiet -p arbiter-cli)
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
