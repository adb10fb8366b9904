"""Ctrl-C stops every long call: the work, run with the GIL released, hears the signal within
milliseconds and the call raises KeyboardInterrupt."""

import signal
import subprocess
import sys
import time

import pytest

# Each line starts a call that would run for minutes.
LONG_CALLS = {
    "perft": 'arbiter.Trax("unbounded").perft(9)',
    "perft_part": 'arbiter.Trax("unbounded").perft_part(9, 2, 0, 1, threads=2)',
    "arena": 'arbiter._core.arena_games("trax", ["random", "random"], 1, 1000, 0, 10**6, variant="unbounded")',
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_sigint_stops_a_long_call_with_keyboard_interrupt(call):
    code = f"import arbiter, arbiter._core, sys\nprint('started', flush=True)\n{LONG_CALLS[call]}\nprint('finished')"
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "started"
        time.sleep(0.5)  # inside the call
        assert p.poll() is None, "the call ended by itself"
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        took = time.perf_counter() - sent
    finally:
        p.kill()
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    # Heard in milliseconds on a quiet machine; the bound leaves room for a loaded one.
    assert took < 5, f"{call} went on {took:.1f} s after SIGINT"
