"""Steps per second from Python, side by side with ``benches/examples/research_steps.rs``.

A step is a random legal action, play, then the observation tensor of the player to move and the
legal action mask, as in the pure-Rust loop. Measured three ways per game: one game stepped from
Python, and the batched stepper on one thread and on two. Then, when open-spiel is installed,
OpenSpiel's own C++ games stepped through pyspiel the same way on one thread (the comparison
issue #23 asks for), with and without the observation tensor.

    python python/bench/steps.py [GAMES_PER_THREAD] [SECONDS]
"""

import sys
import time

import numpy as np

import arbiter


def single(make, seconds):
    """One game stepped from Python: legal ids, a random one, play, tensor and mask. Steps per
    wall second and per CPU second (on a machine that others load, the second compares)."""
    cpu = time.process_time()
    rng = np.random.default_rng(1)
    g = make(0)
    steps, episodes = 0, 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            ids = g.legal_actions()
            g.play(int(ids[rng.integers(len(ids))]))
            if g.is_over:
                episodes += 1
                g = make(episodes)
            g.observation_tensor(g.to_move)
            g.legal_action_mask()
            steps += 1
    return steps / seconds, steps / (time.process_time() - cpu)


def batched(batch, seconds):
    """The batch stepped with a random legal action per game, chosen from the masks."""
    cpu = time.process_time()
    rng = np.random.default_rng(1)
    masks = batch.arrays[1]
    scores = np.empty(masks.shape, np.float64)
    steps = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(10):
            rng.random(out=scores)
            scores *= masks
            _, masks, _, _, _ = batch.step(scores.argmax(axis=1))
            steps += len(batch)
    return steps / seconds, steps / (time.process_time() - cpu)


def pyspiel_steps(name, seconds, tensor):
    """Random steps of an OpenSpiel C++ game through pyspiel: legal actions, a random one, apply,
    and (``tensor``) the observation tensor of the player to move."""
    import pyspiel

    cpu = time.process_time()
    rng = np.random.default_rng(1)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    steps = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(100):
            ids = state.legal_actions()
            state.apply_action(ids[rng.integers(len(ids))])
            if state.is_terminal():
                state = game.new_initial_state()
            if tensor:
                state.observation_tensor(state.current_player())
            steps += 1
    return steps / seconds, steps / (time.process_time() - cpu)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    cases = [
        ("triple-triad", lambda s: arbiter.TripleTriad.from_preset("ff8", s),
         lambda n, t: arbiter.TripleTriadBatch(n, "ff8", threads=t)),
        ("trax 8x8", lambda s: arbiter.Trax("8x8"), lambda n, t: arbiter.TraxBatch(n, "8x8", threads=t)),
        ("nantong", arbiter.Nantong, lambda n, t: arbiter.NantongBatch(n, threads=t)),
    ]
    print(f"Python, batches of {games} games per thread, {seconds} s each")
    for name, make, batch in cases:
        one, one_cpu = single(make, seconds)
        b1, b1_cpu = batched(batch(games, 1), seconds)
        b2, b2_cpu = batched(batch(2 * games, 2), seconds)
        print(
            f"{name:<14} single game {one:>8.0f} ({one_cpu:>8.0f} per CPU s)   batch 1 thread {b1:>8.0f}"
            f" ({b1_cpu:>8.0f} per CPU s)   batch 2 threads {b2:>8.0f}"
            f" ({b2_cpu:>8.0f} per CPU s, so per thread) steps/s"
        )
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel's games: pyspiel is not installed (pip install open-spiel==2.0.2)")
        return
    print("OpenSpiel's C++ games through pyspiel, one game, one thread")
    for name in ("tic_tac_toe", "connect_four", "breakthrough"):
        plain, plain_cpu = pyspiel_steps(name, seconds, False)
        full, full_cpu = pyspiel_steps(name, seconds, True)
        print(
            f"{name:<14} random steps {plain:>8.0f} ({plain_cpu:>8.0f} per CPU s)   with the observation tensor"
            f" {full:>8.0f} ({full_cpu:>8.0f} per CPU s) steps/s"
        )


if __name__ == "__main__":
    main()
