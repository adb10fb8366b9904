"""What OpenSpiel's Python-game layer costs a step: our games through ``arbiter.openspiel``
(``pyspiel.load_game("arbiter_…")``) against the same steps on the ``arbiter`` objects directly.

A step is a random legal action, play, then the observation tensor of the player to move (as in
``steps.py``). Steps per wall second and per CPU second (on a loaded machine, the second compares).

    python python/bench/openspiel.py [SECONDS]
"""

import sys
import time

import numpy as np
import pyspiel

import arbiter
import arbiter.openspiel  # noqa: F401  (registers the games)
from steps import single, timed  # this folder's steps.py: the same loop on the objects directly


def through_openspiel(name, params):
    """The same loop on pyspiel states; a finished game starts the next seed's deal."""

    def run(deadline):
        rng = np.random.default_rng(1)
        episodes = 0

        def start(n):
            p = dict(params, seed=n) if "seed" in params else params
            return pyspiel.load_game(name, p).new_initial_state()

        state, steps = start(0), 0
        while time.perf_counter() < deadline:
            for _ in range(100):
                ids = state.legal_actions()
                state.apply_action(ids[rng.integers(len(ids))])
                if state.is_terminal():
                    episodes += 1
                    state = start(episodes)
                state.observation_tensor(state.current_player())
                steps += 1
        return steps

    return run


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    cases = [
        ("trax 8x8", lambda s: arbiter.Trax("8x8"), "arbiter_trax", {}),
        ("triple-triad", lambda s: arbiter.TripleTriad.from_preset("ff8", s), "arbiter_triple_triad", {"seed": 0}),
        ("nantong", arbiter.Nantong, "arbiter_nantong", {"seed": 0}),
    ]
    print(f"OpenSpiel's Python-game layer against the arbiter objects, {seconds} s each (steps/s)")
    for label, make, name, params in cases:
        ours, ours_cpu = single(make, seconds, mask=False)
        spiel, spiel_cpu = timed(through_openspiel(name, params), seconds)
        print(
            f"{label:<14} direct {ours:>8.0f} ({ours_cpu:>8.0f} per CPU s)   through pyspiel {spiel:>8.0f}"
            f" ({spiel_cpu:>8.0f} per CPU s)   layer cost x{ours_cpu / spiel_cpu:.1f} per CPU s"
        )


if __name__ == "__main__":
    main()
