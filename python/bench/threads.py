"""A batch on two threads against the same batch on one, on a quiet machine and under load that
this script makes itself (N processes that spin), side by side.

The figure is the batch's own step: a researcher's loop draws the actions with NumPy from the
masks, then calls ``step``, and only ``step`` is timed (the draw is serial NumPy work that no
thread of the batch can share, so the whole loop's ratio is capped by it: Amdahl); the loop's
ratio, the draw included, is printed beside it. For each game, batch size and load, a child
process steps the batch on one thread and the same batch on two in turns of ``--stint`` seconds,
so that both see the same moments of the machine's load (which moves by a factor of two from one
second to the next on a shared machine); ``--repeats`` such processes, medians printed. The
repeats alternate which batch is made first and steps first in a turn, so that neither thread
count gains from its place (under load, ``--pair 1 1`` gave about 0.87× twice and 1.02× once for
Triple Triad at 128 games, as two repeats made the second batch second and one first), so give
an even ``--repeats``. ``--site
DIR`` (repeatable) measures the wheels installed in those directories (``pip install --target
DIR``) side by side, in turn, instead of the wheel this Python imports. ``--pair 1 1`` compares a
one-thread batch with another: the spread of the measurement itself.

    python python/bench/threads.py [--loads 0 2 4 8] [--games 64 128 1024] [--seconds S]
                                   [--repeats R] [--site DIR ...] [--pair 1 2]

Before each load, the machine's own (background) load is sampled: the threads ready to run in
`/proc/loadavg` (its fourth field, less this script's reader), averaged over a second. A row is
"quiet" only when that background is under one thread. Prints, per line: `step`'s steps per wall
second on one thread and on two, their ratio (the median of the repeats, and the lowest and
highest), the whole loop's ratio (median, lowest, highest), the CPU time a step took inside
`step` on each (every thread of the process counted), and the one-minute load average when the
row ended.
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

GAMES = ("trax", "triple-triad", "nantong")


def one(game, games, seconds, stint, pair, first):
    """The figures of one run, in this process: a batch on `pair[0]` threads and the same batch
    on `pair[1]`, stepped in turns of `stint` seconds until each has stepped `seconds` inside
    `step`, so that both see the same load; batch `first` (0 or 1) is made first and steps first
    in each turn. For each batch in `pair`'s order: steps per wall second inside `step`, CPU µs a
    step inside `step`, steps per wall second of the whole loop (the draw included)."""
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
        masks = batch.arrays[1]
        scores = np.empty(masks.shape, np.float32)

        def draw(rng=rng, masks=masks, scores=scores):
            rng.random(out=scores, dtype=np.float32)
            np.multiply(scores, masks, out=scores)
            return scores.argmax(axis=1)

        for _ in range(20):  # warm
            batch.step(draw())
        runs[k] = {"batch": batch, "draw": draw, "steps": 0, "wall": 0.0, "cpu": 0.0, "loop": 0.0}
    clock, cpu_clock = time.perf_counter, time.process_time
    while min(r["wall"] for r in runs.values()) < seconds:
        for r in runs.values():
            step, draw = r["batch"].step, r["draw"]
            wall = cpu = 0.0
            begin = clock()
            end = begin + stint
            steps = 0
            while clock() < end:
                actions = draw()
                c, w = cpu_clock(), clock()
                step(actions)
                wall += clock() - w
                cpu += cpu_clock() - c
                steps += games
            r["loop"] += clock() - begin
            r["steps"] += steps
            r["wall"] += wall
            r["cpu"] += cpu
    return [x for k in (0, 1) for r in [runs[k]] for x in (r["steps"] / r["wall"], r["cpu"] / r["steps"] * 1e6, r["steps"] / r["loop"])]


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


def figure(site, game, games, seconds, stint, pair, first):
    env = dict(os.environ)
    if site:
        env["PYTHONPATH"] = site
    out = subprocess.run(
        [sys.executable, __file__, "--one", game, str(games), str(seconds), str(stint), *map(str, pair), str(first)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return [float(x) for x in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, nargs="+", default=[0, 2, 4, 8], help="busy processes beside the runs")
    ap.add_argument("--games", type=int, nargs="+", default=[64, 128, 1024])
    ap.add_argument("--only", choices=GAMES, action="append")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds each thread count spends inside step")
    ap.add_argument("--stint", type=float, default=0.1, help="seconds a thread count steps before the other's turn")
    ap.add_argument("--repeats", type=int, default=4, help="an even count: each batch made first as often")
    ap.add_argument("--site", action="append", default=[], help="a directory holding another wheel to compare")
    ap.add_argument(
        "--pair", type=int, nargs=2, default=[1, 2], help="the thread counts compared (1 1: the measurement's own noise)"
    )
    ap.add_argument("--one", nargs=7, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        game, games, seconds, stint, a, b, first = args.one
        print(*one(game, int(games), float(seconds), float(stint), (int(a), int(b)), int(first)))
        return
    sites = args.site or [""]
    a, b = (f"{n} thread{'s' if n > 1 else ''}" for n in args.pair)
    print(
        f"{os.cpu_count()} CPUs; {args.seconds} s a thread count, in turns of {args.stint} s;"
        f" {args.repeats} repeats (each a fresh process), medians"
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
                runs = {}
                for repeat in range(args.repeats):
                    for site in sites:
                        figures = figure(site, game, games, args.seconds, args.stint, args.pair, repeat % 2)
                        runs.setdefault(site, []).append(figures)
                for site in sites:
                    w1, c1, l1, w2, c2, l2 = (statistics.median(r[k] for r in runs[site]) for k in range(6))
                    steps = [r[3] / r[0] for r in runs[site]]
                    loops = [r[5] / r[2] for r in runs[site]]
                    label = os.path.basename(site.rstrip("/")) or "this wheel"
                    print(
                        f"{game:13} {games:5} games {label:12} step {a} {w1 / 1e3:7.0f}k/s {b} {w2 / 1e3:7.0f}k/s"
                        f"  {statistics.median(steps):5.2f}x ({min(steps):4.2f}-{max(steps):4.2f})"
                        f"   loop {statistics.median(loops):5.2f}x ({min(loops):4.2f}-{max(loops):4.2f})"
                        f"   CPU/step {c1:6.2f} / {c2:6.2f} us   load {os.getloadavg()[0]:5.2f}",
                        flush=True,
                    )
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        for p in busy:
            p.terminate()
            p.join()


if __name__ == "__main__":
    main()
