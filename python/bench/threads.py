"""A batch on two threads against the same batch on one, on a quiet machine and under load that
this script makes itself (N processes that spin), side by side.

A step is a researcher's loop: the actions drawn with NumPy from the masks, then ``step``. For
each game, batch size and load, the one-thread and two-thread runs alternate (``--repeats``
times, medians printed) and each is a child process, so that every figure starts from a fresh
interpreter; ``--site DIR`` (repeatable) measures the wheels installed in those directories
(``pip install --target DIR``) side by side, in turn, instead of the wheel this Python imports.

    python python/bench/threads.py [--loads 0 4] [--games 128 1024] [--seconds S] [--repeats R]
                                   [--site DIR ...]

Prints, per line: steps per wall second on one thread and on two, their ratio, and the CPU time
a step took on each (every thread of the process counted).
"""

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

GAMES = ("trax", "triple-triad", "nantong")


def one(game, games, threads, seconds):
    """The figure of one run, in this process: steps per wall second, CPU µs per step."""
    import numpy as np

    import arbiter

    make = {
        "trax": lambda: arbiter.TraxBatch(games, "8x8", threads=threads),
        "triple-triad": lambda: arbiter.TripleTriadBatch(games, "ff8", threads=threads),
        "nantong": lambda: arbiter.NantongBatch(games, threads=threads),
    }[game]
    batch = make()
    rng = np.random.default_rng(1)
    masks = batch.arrays[1]
    scores = np.empty(masks.shape, np.float32)

    def draw():
        rng.random(out=scores, dtype=np.float32)
        np.multiply(scores, masks, out=scores)
        return scores.argmax(axis=1)

    for _ in range(20):  # warm: the first calls pick the crew's way
        batch.step(draw())
    steps, cpu, wall = 0, time.process_time(), time.perf_counter()
    end = wall + seconds
    while time.perf_counter() < end:
        for _ in range(10):
            batch.step(draw())
        steps += 10 * games
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return steps / wall, cpu / steps * 1e6


def spin():
    while True:
        pass


def figure(site, game, games, threads, seconds):
    env = dict(os.environ)
    if site:
        env["PYTHONPATH"] = site
    out = subprocess.run(
        [sys.executable, __file__, "--one", game, str(games), str(threads), str(seconds)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, nargs="+", default=[0, 4], help="busy processes beside the runs")
    ap.add_argument("--games", type=int, nargs="+", default=[128, 1024])
    ap.add_argument("--only", choices=GAMES, action="append")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--site", action="append", default=[], help="a directory holding another wheel to compare")
    ap.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        game, games, threads, seconds = args.one
        wall, cpu = one(game, int(games), int(threads), float(seconds))
        print(wall, cpu)
        return
    sites = args.site or [""]
    print(f"{os.cpu_count()} CPUs; {args.seconds} s a figure, {args.repeats} repeats, medians")
    for load in args.loads:
        busy = [multiprocessing.Process(target=spin, daemon=True) for _ in range(load)]
        for p in busy:
            p.start()
        time.sleep(0.5)
        print(f"\n{load} busy processes; load average {os.getloadavg()[0]:.2f} at the start")
        for game in args.only or GAMES:
            for games in args.games:
                runs = {}
                for _ in range(args.repeats):
                    for site in sites:
                        for threads in (1, 2):
                            runs.setdefault((site, threads), []).append(figure(site, game, games, threads, args.seconds))
                for site in sites:
                    w1 = statistics.median(r[0] for r in runs[(site, 1)])
                    w2 = statistics.median(r[0] for r in runs[(site, 2)])
                    c1 = statistics.median(r[1] for r in runs[(site, 1)])
                    c2 = statistics.median(r[1] for r in runs[(site, 2)])
                    label = os.path.basename(site.rstrip("/")) or "this wheel"
                    print(
                        f"{game:13} {games:5} games {label:12} one {w1 / 1e3:8.0f}k/s  two {w2 / 1e3:8.0f}k/s"
                        f"  {w2 / w1:5.2f}x   CPU/step {c1:6.2f} / {c2:6.2f} us",
                        flush=True,
                    )
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        for p in busy:
            p.terminate()
            p.join()


if __name__ == "__main__":
    main()
