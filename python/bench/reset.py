"""What a reset costs against a step, per game, in the batched steppers.

``reset(seed)`` deals every game of the batch afresh and writes its arrays; ``step(actions)``
plays one random legal action in every game and writes the arrays (restarting finished games).
Both are timed alone (NumPy's choice of the actions is left out) in CPU time, which a loaded
machine does not inflate, interleaved and repeated: microseconds per game on one thread.

    python python/bench/reset.py [--games N] [--repeats R]
"""

import argparse
import statistics
import time

import numpy as np

import arbiter

BATCHES = {
    "triple-triad": lambda n: arbiter.TripleTriadBatch(n, "ff8"),
    "trax": lambda n: arbiter.TraxBatch(n, "8x8"),
    "nantong": lambda n: arbiter.NantongBatch(n),
}


def per_game(batch, calls, what):
    """Microseconds per game of ``calls`` calls of ``what`` (``"reset"`` or ``"step"``)."""
    rng = np.random.default_rng(1)
    masks = batch.arrays[1]
    scores = np.empty(masks.shape, np.float32)
    spent = 0.0
    for k in range(calls):
        if what == "reset":
            t = time.process_time()
            batch.reset(k)
        else:
            rng.random(out=scores, dtype=np.float32)
            scores *= masks
            actions = scores.argmax(axis=1)
            t = time.process_time()
            batch.step(actions)
        spent += time.process_time() - t
    return spent / calls / len(batch) * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=64)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    figures = {}
    for _ in range(args.repeats):
        for name, make in BATCHES.items():
            batch = make(args.games)
            for what in ("reset", "step"):
                figures.setdefault((name, what), []).append(per_game(batch, args.calls, what))
    print(f"µs per game, median of {args.repeats} interleaved repeats, batches of {args.games} on one thread")
    for name in BATCHES:
        reset, step = statistics.median(figures[(name, "reset")]), statistics.median(figures[(name, "step")])
        print(f"{name:<14} reset {reset:6.2f}   step {step:6.2f}   reset / step {reset / step:5.2f}")


if __name__ == "__main__":
    main()
