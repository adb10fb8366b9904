"""Steps per second from Python, side by side with the pure-Rust loop and OpenSpiel's C++ games.

A step is a random legal action, play, then the observation tensor of the player to move and the
legal action mask (``benches/examples/research_steps.rs`` is the same loop in Rust). Per game,
interleaved in one run and repeated:

- the pure-Rust loop on one thread and on two (``--rust BINARY``, the built example), and on two
  in a batch's rhythm (one thread draws every game's action, then both step their games);
- one game stepped from Python (``legal_actions``, ``play``, ``observation_tensor``,
  ``legal_action_mask``);
- the batched stepper on one thread and on two, the actions drawn with NumPy from the masks; the
  CPU time inside ``step`` is also counted alone (the batch's own cost, NumPy's draw left out);
- the batched stepper's ``step_random`` on one thread and on two (the actions drawn in its
  threads: the whole step of the Rust loop);
- then OpenSpiel's own C++ games through pyspiel (legal actions, a random one, apply, the
  observation tensor), when open-spiel is installed.

Figures are medians over the repeats, in steps per wall second and per CPU second (of this
process; of its stepping threads in Rust): on a machine others load, the second compares the
loops, while two threads only scale in wall time when the machine has two idle cores (the load
is printed before and after).

    python python/bench/steps.py [--games N] [--seconds S] [--repeats R] [--rust BINARY]

``--anchors 64 1024`` measures instead, at each batch size, our three games' batches on one
thread beside two anchors stepping connect_four at the same size: pyspiel's C++ game (a Python
loop over the batch's states: pyspiel has no batch) and pgx's (its ``step`` under ``jax.vmap``
and ``jax.jit``, the draw jitted with it; ``pip install pgx==2.6.0`` beside ``jax[cpu]``). Each
step is a random legal action drawn the same way for all, in one go over the batch (uniform
scores times the legal mask, then the largest), the play, the observation and the legal mask,
a finished game starting again. The figure is steps per CPU second of the whole process
(``time.process_time()``, which counts JAX's own threads too), the draw included; ours also
inside ``step`` alone.

``--site DIR`` (repeatable) measures instead the wheel installed in each DIR (``pip install
--target DIR``), the batch of ``--only`` games on one thread at ``--games`` games, each figure in
a process of its own, the wheels in turns so that all see the same moments of the load: before
and after a change, side by side.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import arbiter

GAMES = {
    "triple-triad": (
        lambda s: arbiter.TripleTriad.from_preset("ff8", s),
        lambda n, t: arbiter.TripleTriadBatch(n, "ff8", threads=t),
    ),
    "trax": (lambda s: arbiter.Trax("8x8"), lambda n, t: arbiter.TraxBatch(n, "8x8", threads=t)),
    "nantong": (arbiter.Nantong, lambda n, t: arbiter.NantongBatch(n, threads=t)),
}
OPENSPIEL = ("tic_tac_toe", "connect_four", "breakthrough")


def timed(loop, seconds):
    """Runs ``loop(end)`` (it returns its step count) until the clock passes ``end``: steps per
    wall second and per CPU second."""
    cpu, wall = time.process_time(), time.perf_counter()
    steps = loop(wall + seconds)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return steps / wall, steps / max(cpu, 1e-9)


def single(make, seconds, mask=True):
    """One game stepped from Python (without the mask for ``openspiel.py``, as OpenSpiel's games
    have none)."""
    rng = np.random.default_rng(1)

    def loop(end):
        g, steps, episodes = make(0), 0, 0
        while time.perf_counter() < end:
            for _ in range(100):
                ids = g.legal_actions()
                g.play(int(ids[rng.integers(len(ids))]))
                if g.is_over:
                    episodes += 1
                    g = make(episodes)
                g.observation_tensor(g.to_move)
                if mask:
                    g.legal_action_mask()
                steps += 1
        return steps

    return timed(loop, seconds)


def batched(batch, seconds):
    """The batch stepped with a random legal action per game drawn from the masks; also the
    steps per CPU second spent inside ``step`` alone (every thread's) and per wall second inside
    it (what the threads make of a step, NumPy's draw left out)."""
    rng = np.random.default_rng(1)
    masks = batch.arrays[1]
    scores = np.empty(masks.shape, np.float32)
    inside = [0.0, 0, 0.0]  # CPU seconds inside `step` (every thread's), steps, wall seconds inside

    def loop(end):
        steps = 0
        while time.perf_counter() < end:
            for _ in range(10):
                rng.random(out=scores, dtype=np.float32)
                np.multiply(scores, masks, out=scores)
                actions = scores.argmax(axis=1)
                t, w = time.process_time(), time.perf_counter()
                batch.step(actions)
                inside[2] += time.perf_counter() - w
                inside[0] += time.process_time() - t
                steps += len(batch)
        inside[1] = steps
        return steps

    wall, cpu = timed(loop, seconds)
    return wall, cpu, inside[1] / max(inside[0], 1e-9), inside[1] / max(inside[2], 1e-9)


def randomly(batch, seconds):
    """The batch stepped with ``step_random``: its threads draw the actions themselves, so each
    step is the Rust loop's whole step, the random action included."""

    def loop(end):
        steps = 0
        while time.perf_counter() < end:
            for _ in range(10):
                batch.step_random()
            steps += 10 * len(batch)
        return steps

    return timed(loop, seconds)


def rust(binary, game, threads, games, seconds, mode="rate"):
    """The pure-Rust loop: ``research_steps rate GAME THREADS GAMES SECONDS`` (per wall second,
    per CPU second), or ``lockstep``, the loop in a batch's rhythm (per wall second, per wall
    second of stepping alone)."""
    out = subprocess.run(
        [binary, mode, game, str(threads), str(games), str(seconds)], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def pyspiel_steps(name, seconds):
    """Random steps of an OpenSpiel C++ game through pyspiel, with the observation tensor."""
    import pyspiel

    rng = np.random.default_rng(1)
    game = pyspiel.load_game(name)

    def loop(end):
        state, steps = game.new_initial_state(), 0
        while time.perf_counter() < end:
            for _ in range(100):
                ids = state.legal_actions()
                state.apply_action(ids[rng.integers(len(ids))])
                if state.is_terminal():
                    state = game.new_initial_state()
                state.observation_tensor(state.current_player())
                steps += 1
        return steps

    return timed(loop, seconds)


def pyspiel_batch(name, n, seconds):
    """A batch of ``n`` pyspiel states stepped as ours are: the draw over the batch's masks with
    NumPy, then per state (pyspiel has no batch) the play, a new game when over, its observation
    tensor and its legal mask."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = np.random.default_rng(1)
    states = [game.new_initial_state() for _ in range(n)]
    masks = np.array([s.legal_actions_mask() for s in states], np.float32)
    observations = np.zeros((n, game.observation_tensor_size()), np.float32)
    scores = np.empty(masks.shape, np.float32)

    def loop(end):
        steps = 0
        while time.perf_counter() < end:
            rng.random(out=scores, dtype=np.float32)
            np.multiply(scores, masks, out=scores)
            actions = scores.argmax(axis=1).tolist()
            for i, a in enumerate(actions):
                s = states[i]
                s.apply_action(a)
                if s.is_terminal():
                    s = states[i] = game.new_initial_state()
                observations[i] = s.observation_tensor()
                masks[i] = s.legal_actions_mask()
            steps += n
        return steps

    return timed(loop, seconds)


def pgx_batch(name, n):
    """A function of ``seconds`` that steps ``n`` pgx games of ``name``: ``step`` under
    ``jax.vmap``, a finished game reset (``pgx.experimental.auto_reset``) and the draw, jitted
    together and compiled here, before any timing."""
    import jax
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(name)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state, key):
        key, draw, resets = jax.random.split(key, 3)
        mask = state.legal_action_mask
        actions = (jax.random.uniform(draw, mask.shape) * mask).argmax(axis=1)
        return step(state, actions, jax.random.split(resets, n)), key

    key = jax.random.PRNGKey(1)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, n))
    state, key = play(state, key)
    jax.block_until_ready(state)
    held = [state, key]

    def measure(seconds):
        def loop(end):
            state, key, steps = held[0], held[1], 0
            while time.perf_counter() < end:
                for _ in range(10):
                    state, key = play(state, key)
                steps += 10 * n
            jax.block_until_ready(state)
            held[:] = [state, key]
            return steps

        return timed(loop, seconds)

    return measure


def anchors(sizes, seconds, repeats):
    """Our batches on one thread beside pyspiel's and pgx's connect_four, at each batch size,
    interleaved and repeated: the table of steps per CPU second."""
    try:
        import pyspiel  # noqa: F401

        spiel = True
    except ImportError:
        spiel = False
    try:
        import pgx  # noqa: F401
    except ImportError:
        pgx = None
    print(f"{os.cpu_count()} CPUs, {load()} at the start; batches of {sizes}, {seconds} s a figure, {repeats} repeats")
    jitted = {n: pgx_batch("connect_four", n) for n in sizes} if pgx else {}
    figures = {}
    for _ in range(repeats):
        for n in sizes:
            for name, (_, batch) in GAMES.items():
                figures.setdefault((name, n), []).append(batched(batch(n, 1), seconds))
            if spiel:
                figures.setdefault(("pyspiel", n), []).append(pyspiel_batch("connect_four", n, seconds))
            if pgx:
                figures.setdefault(("pgx", n), []).append(jitted[n](seconds))
    print(f"{load()} at the end")

    def med(key, i=1):
        return statistics.median(v[i] for v in figures[key]) if key in figures else float("nan")

    print("\nsteps per CPU second, median of the repeats (ours on one thread: the loop with the draw [step alone])")
    for n in sizes:
        c4 = {a: med((a, n)) for a in ("pyspiel", "pgx")}
        print(f"batch {n}: connect_four pyspiel {c4['pyspiel']:,.0f}, pgx {c4['pgx']:,.0f}")
        for name in GAMES:
            mine = med((name, n))
            print(
                f"  {name:<14}{mine:>11,.0f} [{med((name, n), 2):>11,.0f}]"
                f"   {mine / c4['pyspiel']:.2f}x pyspiel's, {mine / c4['pgx']:.2f}x pgx's"
            )


def sites(dirs, names, n, seconds, repeats):
    """The batch on one thread of the wheel in each of ``dirs``, in turns, a process a figure:
    the table of steps per CPU second, with the draw and inside ``step`` alone."""
    code = "import sys, steps; print(*steps.batched(steps.GAMES[sys.argv[1]][1](int(sys.argv[2]), 1), float(sys.argv[3])))"
    print(f"{os.cpu_count()} CPUs, {load()} at the start; {n} games, {seconds} s a figure, {repeats} repeats")
    figures = {}
    for _ in range(repeats):
        for name in names:
            for d in dirs:
                env = dict(os.environ, PYTHONPATH=os.pathsep.join([d, os.path.dirname(os.path.abspath(__file__))]))
                run = [sys.executable, "-c", code, name, str(n), str(seconds)]
                out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
                figures.setdefault((name, d), []).append([float(x) for x in out.split()])
    print(f"{load()} at the end\nsteps per CPU second, median (lowest-highest) of the repeats")
    for name in names:
        for d in dirs:
            for label, i in (("with the draw", 1), ("inside step", 2)):
                v = sorted(f[i] for f in figures[(name, d)])
                print(f"  {name:<14}{d:<40}{label:<15}{statistics.median(v):>11,.0f} ({v[0]:,.0f}-{v[-1]:,.0f})")


def load():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=64, help="games per thread in a batch (and in the Rust loop)")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per figure")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved repeats; medians are printed")
    ap.add_argument("--rust", help="the built research_steps example, for the pure-Rust loop beside ours")
    ap.add_argument("--only", choices=sorted(GAMES), action="append", help="measure only these games")
    ap.add_argument(
        "--anchors",
        type=int,
        nargs="+",
        metavar="GAMES",
        help="only our batches on one thread beside pyspiel's and pgx's connect_four, at these batch sizes",
    )
    ap.add_argument("--site", action="append", help="a directory holding a wheel to measure (repeatable)")
    args = ap.parse_args()
    if args.site:
        sites(args.site, args.only or list(GAMES), args.games, args.seconds, args.repeats)
        return
    if args.anchors:
        anchors(args.anchors, args.seconds, args.repeats)
        return
    try:
        import pyspiel  # noqa: F401

        spiel = OPENSPIEL
    except ImportError:
        spiel = ()
    n, secs = args.games, args.seconds
    figures = {}

    def add(key, value):
        figures.setdefault(key, []).append(value)

    print(f"{os.cpu_count()} CPUs, {load()} at the start; {n} games a thread, {secs} s a figure, {args.repeats} repeats")
    for _ in range(args.repeats):
        for name in args.only or GAMES:
            make, batch = GAMES[name]
            if args.rust:
                add((name, "rust 1"), rust(args.rust, name, 1, n, secs))
            add((name, "single"), single(make, secs))
            add((name, "batch 1"), batched(batch(n, 1), secs))
            if args.rust:
                add((name, "rust 2"), rust(args.rust, name, 2, n, secs))
                add((name, "lockstep 2"), rust(args.rust, name, 2, n, secs, "lockstep"))
            add((name, "batch 2"), batched(batch(2 * n, 2), secs))
            add((name, "random 1"), randomly(batch(n, 1), secs))
            add((name, "random 2"), randomly(batch(2 * n, 2), secs))
        for name in spiel:
            add((name, "pyspiel"), pyspiel_steps(name, secs))
    print(f"{load()} at the end")

    def med(key, i=0):
        return statistics.median(v[i] for v in figures[key]) if key in figures else float("nan")

    print(
        "\nsteps/s, median of the repeats: wall (per CPU s); batch: the loop with NumPy's draw"
        " [per CPU s in step alone; per wall s in step alone]"
    )
    for name in args.only or GAMES:
        cells = []
        for what in ("rust 1", "single", "batch 1", "rust 2", "batch 2"):
            if (name, what) not in figures:
                continue
            cell = f"{what} {med((name, what)):>9.0f} ({med((name, what), 1):>9.0f})"
            if what.startswith("batch"):
                cell += f" [{med((name, what), 2):>9.0f}; {med((name, what), 3):>9.0f}]"
            cells.append(cell)
        print(f"{name:<14}" + "   ".join(cells))
    def ratio(a, b, i=0, j=0):
        return med(a, i) / med(b, j)

    if args.rust:
        print("\nagainst the pure-Rust loop on one thread: per CPU s (wall)")
        for name in args.only or GAMES:
            r1 = (name, "rust 1")
            b1, b2 = (name, "batch 1"), (name, "batch 2")
            print(
                f"{name:<14}single {ratio((name, 'single'), r1, 1, 1):.2f} ({ratio((name, 'single'), r1):.2f})"
                f"   batch 1 thread {ratio(b1, r1, 1, 1):.2f} ({ratio(b1, r1):.2f}), step alone {ratio(b1, r1, 2, 1):.2f}"
                f"   batch 2 threads per thread {ratio(b2, r1, 1, 1):.2f}, step alone {ratio(b2, r1, 2, 1):.2f};"
                f" wall {ratio(b2, r1):.2f} (Rust's own 2 threads: {ratio((name, 'rust 2'), r1):.2f})"
            )
        print(
            "\nstep alone against the pure-Rust loop on one thread, wall: one thread; two threads"
            " (the Rust loop on two threads in the batch's rhythm, stepping alone: one thread draws"
            " every action, then both step)"
        )
        for name in args.only or GAMES:
            r1, b1, b2, l2 = ((name, w) for w in ("rust 1", "batch 1", "batch 2", "lockstep 2"))
            print(f"{name:<14}{ratio(b1, r1, 3, 0):.2f}x   {ratio(b2, r1, 3, 0):.2f}x ({ratio(l2, r1, 1, 0):.2f}x)")
    if args.rust:
        print("\nstep_random (the actions drawn in the batch's threads) against the pure-Rust loop on one thread, wall:")
        for name in args.only or GAMES:
            r1, x1, x2 = ((name, w) for w in ("rust 1", "random 1", "random 2"))
            print(f"{name:<14}one thread {ratio(x1, r1):.2f}x   two threads {ratio(x2, r1):.2f}x")
    print("\ntwo threads against one, wall: the batch's speed-up (the Rust loop's); µs of CPU a step: Rust, batch's step")
    for name in args.only or GAMES:
        b1, b2, r1, r2 = ((name, w) for w in ("batch 1", "batch 2", "rust 1", "rust 2"))
        rust_cpu = f"{1e6 / med(r1, 1):.3f}" if r1 in figures else "-"
        print(
            f"{name:<14}{ratio(b2, b1):.2f}x ({ratio(r2, r1) if r1 in figures else float('nan'):.2f}x)"
            f"   {rust_cpu} / {1e6 / med(b1, 2):.3f} on one thread, {1e6 / med(b2, 2):.3f} on two"
        )
    if spiel:
        print("\nOpenSpiel's C++ games through pyspiel, one game, one thread, with the observation tensor")
        for name in spiel:
            print(f"{name:<14} {med((name, 'pyspiel')):>9.0f} ({med((name, 'pyspiel'), 1):>9.0f} per CPU s)")
        c4 = ("connect_four", "pyspiel")
        print("our batches on two threads against connect_four: wall; per CPU s x 2 (two whole cores)")
        for name in args.only or GAMES:
            b2 = (name, "batch 2")
            print(f"{name:<14} {ratio(b2, c4):.2f}x   {2 * ratio(b2, c4, 1, 1):.2f}x")


if __name__ == "__main__":
    main()
