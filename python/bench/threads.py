"""A batch on two threads against the same batch on one, on a quiet machine and under load that
this script makes itself (N processes that spin), side by side.

The figure is the batch's own step: a researcher's loop draws the actions with NumPy from the
masks, then calls ``step``, and only ``step`` is timed (the draw is serial NumPy work that no
thread of the batch can share, so the whole loop's ratio is capped by it: Amdahl); the loop's
ratio, the draw included, is printed beside it. For each game, batch size and load, a child
process steps the batch on one thread and the same batch on two in short bursts of ``--stint``
seconds, in turns, so that both see the same moments of the machine's load (which moves by a
factor of two from one second to the next on a shared machine); after each burst the process
sleeps ``--settle`` seconds, longer than a worker lingers after a call, so that a two-thread
batch's spinning worker is never timed inside the other batch's burst. ``--repeats`` such
processes, medians printed. The repeats alternate which batch is made first and steps first in a
turn, so that neither thread count gains from its place (under load, ``--pair 1 1`` gave about
0.87x twice and 1.02x once for Triple Triad at 128 games, as two repeats made the second batch
second and one first), so give an even ``--repeats``. ``--site DIR`` (repeatable) measures the
wheels installed in those directories (``pip install --target DIR``) side by side, in turn,
instead of the wheel this Python imports. ``--pair 1 1`` compares a one-thread batch with
another: the spread of the measurement itself; ``--control`` runs that comparison beside every
row, each of its repeats right after the row's, and prints it on the row.

Three ratios a row, each the median of the repeats (lowest-highest): ``step``, steps per second
inside ``step`` (the throughput: a call the system puts off for a time slice counts in full);
``call``, the median call's time, one thread over two (what a call costs when the system leaves
it alone: under load a few calls put off move ``step`` by +-10 %, and the median does not see
them); ``CPU``, the CPU time a step inside ``step`` (every thread of the process counted), one
thread over two (below 1.0x: two threads burn more of the machine for a step). Then ``p10
call``, the 10th centile of the call, one thread over two, and both in µs: with ``--pin`` (the
calling thread on CPU 0, the workers on CPU 1) and ``ARBITER_BATCH_WORKERS=always`` in the
environment, the figure of the two-thread path on a machine that other work loads (the fastest
tenth of the calls are those the other work left alone). ``--read`` has the draw read the
observations too, through a linear layer, as a policy does.

    python python/bench/threads.py [--loads 0 2 4 8] [--games 64 128 1024] [--seconds S]
                                   [--repeats R] [--site DIR ...] [--pair 1 2] [--control]
                                   [--pin] [--read]

Before each load, the machine's own (background) load is sampled: the threads ready to run in
`/proc/loadavg` (its fourth field, less this script's reader), averaged over a second. A row is
"quiet" only when that background is under one thread. Prints, per line: `step`'s steps per wall
second on one thread and on two, the three ratios above, the whole loop's ratio, the CPU time a
step took inside `step` on each, the control's ratios with ``--control``, and the one-minute
load average when the row ended.
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

GAMES = ("trax", "triple-triad", "nantong")


def one(game, games, seconds, stint, settle, pair, first, pin, read):
    """The figures of one run, in this process: a batch on `pair[0]` threads and the same batch
    on `pair[1]`, stepped in bursts of `stint` seconds, in turns, each followed by `settle`
    seconds asleep, until each has stepped `seconds` inside `step`, so that both see the same
    load; batch `first` (0 or 1) is made first and steps first in each turn. For each batch in
    `pair`'s order: steps per wall second inside `step`, CPU µs a step inside `step`, steps per
    wall second of the whole loop (the draw included), the median call's wall µs, the 10th
    centile's. With `pin`, the calling thread runs on CPU 0 and the batches' workers on CPU 1; with
    `read`, the draw reads the observations too, through a linear layer, as a policy does."""
    import numpy as np

    import arbiter

    def make(threads):
        if game == "trax":
            return arbiter.TraxBatch(games, "8x8", threads=threads)
        if game == "triple-triad":
            return arbiter.TripleTriadBatch(games, "ff8", threads=threads)
        return arbiter.NantongBatch(games, threads=threads)

    runs = {}
    for k in (first, 1 - first):
        threads = pair[k]
        batch = make(threads)
        rng = np.random.default_rng(1)
        observations, masks = batch.arrays[:2]
        scores = np.empty(masks.shape, np.float32)
        logits = np.empty(masks.shape, np.float32)
        weights = np.random.default_rng(2).random((observations.shape[1], masks.shape[1]), np.float32) * 0.01

        def draw(rng=rng, observations=observations, masks=masks, scores=scores, logits=logits, weights=weights):
            rng.random(out=scores, dtype=np.float32)
            if read:
                np.add(scores, np.matmul(observations, weights, out=logits), out=scores)
            np.multiply(scores, masks, out=scores)
            return scores.argmax(axis=1)

        for _ in range(20):  # warm
            batch.step(draw())
        runs[k] = {"batch": batch, "draw": draw, "steps": 0, "wall": 0.0, "cpu": 0.0, "loop": 0.0, "calls": []}
    if pin:
        import threading

        me = threading.get_native_id()
        for tid in map(int, os.listdir("/proc/self/task")):
            os.sched_setaffinity(tid, {0 if tid == me else 1})
    clock, cpu_clock = time.perf_counter, time.process_time
    while min(r["wall"] for r in runs.values()) < seconds:
        for r in runs.values():
            step, draw, calls = r["batch"].step, r["draw"], r["calls"]
            wall = cpu = 0.0
            begin = clock()
            end = begin + stint
            steps = 0
            while clock() < end:
                actions = draw()
                c, w = cpu_clock(), clock()
                step(actions)
                took = clock() - w
                cpu += cpu_clock() - c
                calls.append(took)
                wall += took
                steps += games
            r["loop"] += clock() - begin
            r["steps"] += steps
            r["cpu"] += cpu
            r["wall"] += wall
            time.sleep(settle)
    return [
        x
        for k in (0, 1)
        for r in [runs[k]]
        for x in (
            r["steps"] / r["wall"],
            r["cpu"] / r["steps"] * 1e6,
            r["steps"] / r["loop"],
            statistics.median(r["calls"]) * 1e6,
            statistics.quantiles(r["calls"], n=10)[0] * 1e6,
        )
    ]


def background():
    """The threads ready to run on the machine, besides this one, averaged over a second."""
    seen = []
    for _ in range(20):
        with open("/proc/loadavg") as f:
            seen.append(int(f.read().split()[3].split("/")[0]) - 1)
        time.sleep(0.05)
    return statistics.mean(seen)


def spin():
    while True:
        pass


def figure(site, game, games, args, pair, first):
    # NumPy's OpenBLAS threads spin a while after use, and every thread's CPU time counts: the
    # draw needs no BLAS.
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if site:
        env["PYTHONPATH"] = site
    one = [game, games, args.seconds, args.stint, args.settle, *pair, first, int(args.pin), int(args.read)]
    out = subprocess.run(
        [sys.executable, __file__, "--one", *map(str, one)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return [float(x) for x in out]


def ratios(runs):
    """Each repeat's step, call and CPU ratios (the second batch against the first), loop ratio
    and 10th-centile call ratio: the median of each, its lowest and highest."""
    each = [(r[5] / r[0], r[3] / r[8], r[1] / r[6], r[7] / r[2], r[4] / r[9]) for r in runs]
    return [(statistics.median(x), min(x), max(x)) for x in zip(*each)]


def span(r):
    return f"{r[0]:4.2f}x ({r[1]:4.2f}-{r[2]:4.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, nargs="+", default=[0, 2, 4, 8], help="busy processes beside the runs")
    ap.add_argument("--games", type=int, nargs="+", default=[64, 128, 1024])
    ap.add_argument("--only", choices=GAMES, action="append")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds each thread count spends inside step")
    ap.add_argument("--stint", type=float, default=0.01, help="seconds a batch steps before the other's turn")
    ap.add_argument(
        "--settle", type=float, default=0.002, help="seconds asleep after a burst (longer than a worker lingers)"
    )
    ap.add_argument("--repeats", type=int, default=4, help="an even count: each batch made first as often")
    ap.add_argument("--site", action="append", default=[], help="a directory holding another wheel to compare")
    ap.add_argument(
        "--pair", type=int, nargs=2, default=[1, 2], help="the thread counts compared (1 1: the measurement's own noise)"
    )
    ap.add_argument("--control", action="store_true", help="beside every row, the first count against itself")
    ap.add_argument(
        "--pin", action="store_true", help="the calling thread on CPU 0, the workers on CPU 1 (a quiet path's figure)"
    )
    ap.add_argument("--read", action="store_true", help="the draw reads the observations (a linear policy)")
    ap.add_argument("--one", nargs=10, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        game, games, seconds, stint, settle, a, b, first, pin, read = args.one
        pair = (int(a), int(b))
        print(*one(game, int(games), float(seconds), float(stint), float(settle), pair, int(first), pin == "1", read == "1"))
        return
    sites = args.site or [""]
    a, b = (f"{n} thread{'s' if n > 1 else ''}" for n in args.pair)
    control = (args.pair[0], args.pair[0])
    print(
        f"{os.cpu_count()} CPUs; {args.seconds} s a thread count inside step, in bursts of {args.stint} s"
        f" each followed by {args.settle} s asleep; {args.repeats} repeats (each a fresh process), medians;"
        f" ratios {b} against {a}" + (f", control: {a} against {a}" if args.control else "")
    )
    for load in args.loads:
        quiet = background()
        busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(load)]
        for p in busy:
            p.start()
        time.sleep(0.5)
        print(
            f"\n{load} busy processes; background before them: {quiet:.1f} threads ready to run,"
            f" load average {os.getloadavg()[0]:.2f}"
        )
        for game in args.only or GAMES:
            for games in args.games:
                runs, controls = {}, {}
                for repeat in range(args.repeats):
                    for site in sites:
                        runs.setdefault(site, []).append(figure(site, game, games, args, args.pair, repeat % 2))
                        if args.control:
                            controls.setdefault(site, []).append(figure(site, game, games, args, control, repeat % 2))
                for site in sites:
                    w1, c1, _, _, q1, w2, c2, _, _, q2 = (statistics.median(r[k] for r in runs[site]) for k in range(10))
                    step, call, cpu, loop, p10 = ratios(runs[site])
                    label = os.path.basename(site.rstrip("/")) or "this wheel"
                    line = (
                        f"{game:13} {games:5} games {label:12} {a} {w1 / 1e3:6.0f}k/s {b} {w2 / 1e3:6.0f}k/s"
                        f"  step {span(step)} call {span(call)} CPU {span(cpu)}  loop {loop[0]:4.2f}x"
                        f"  CPU/step {c1:5.2f} / {c2:5.2f} us  p10 call {span(p10)} {q1:6.1f} / {q2:6.1f} us"
                    )
                    if args.control:
                        step, call, cpu, _, _ = ratios(controls[site])
                        line += f"  | control step {span(step)} call {span(call)} CPU {span(cpu)}"
                    print(f"{line}  load {os.getloadavg()[0]:5.2f}", flush=True)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        for p in busy:
            p.terminate()
            p.join()


if __name__ == "__main__":
    main()
