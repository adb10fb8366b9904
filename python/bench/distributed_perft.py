"""Trax perft through arbiter.distributed (Ray) against the single-process threaded perft of the
`arbiter` command, side by side, and what start-up, tasks and parts cost.

    python python/bench/distributed_perft.py path/to/arbiter [DEPTH ...]   (default: 7 8)

Each depth: `arbiter perft trax DEPTH --threads N` (N = the CPUs), then a fresh `ray.init` and
`distributed.perft` (start-up timed apart and with it), then the per-part times of one split.
"""

import os
import statistics
import subprocess
import sys
import time

import ray

import arbiter
from arbiter import distributed


def main() -> None:
    binary = sys.argv[1]
    depths = [int(d) for d in sys.argv[2:]] or [7, 8]
    cpus = os.cpu_count() or 1
    print(f"load average before: {os.getloadavg()}")
    g = arbiter.Trax("unbounded")
    for depth in depths:
        start = time.perf_counter()
        out = subprocess.run(
            [binary, "perft", "trax", str(depth), "--threads", str(cpus)], capture_output=True, text=True, check=True
        ).stdout.strip()
        threaded = time.perf_counter() - start
        start = time.perf_counter()
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        up = time.perf_counter() - start
        start = time.perf_counter()
        nodes = distributed.perft(g, depth, progress=False)
        work = time.perf_counter() - start
        ray.shutdown()
        print(f"perft {depth}: {out}")
        print(
            f"  threaded {threaded:.2f} s | Ray {work:.2f} s + start-up {up:.2f} s = {work + up:.2f} s"
            f" | ratio {work / threaded:.2f}x without start-up, {(work + up) / threaded:.2f}x with | nodes {nodes}"
        )
        # Per-part times in this process, one thread: what a task costs.
        split = 3 if depth <= 7 else 4
        frontier = g.frontier(split)
        sample = frontier[:: max(1, len(frontier) // 40)]
        times = []
        for line, count in sample:
            p = g.clone()
            for mv in line.split():
                p.play(mv)
            t = time.perf_counter()
            p.perft(depth - split)
            times.append(time.perf_counter() - t)
        total = statistics.mean(times) * len(frontier)
        print(
            f"  split {split}: {len(frontier)} positions; per position mean {statistics.mean(times) * 1e3:.1f} ms,"
            f" median {statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms;"
            f" one thread ~{total:.1f} s in all"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
