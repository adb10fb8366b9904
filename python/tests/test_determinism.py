"""The same seeds and moves give the same games in Python as in Rust and JavaScript.

``wasm/js-tests/fixtures/selfplay.json`` holds self-play games computed natively by
``wasm/tests/selfplay.rs`` (which fails when the core plays them differently) and replayed by the
npm package in ``wasm/js-tests/determinism.test.mjs``; here the Python package plays them again
and must agree move for move and on the final state, the built-in opponents' random choices
included.
"""

import json
from pathlib import Path

import pytest

from arbiter import Nantong, Trax, TripleTriad, TripleTriadMatch

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[2] / "wasm" / "js-tests" / "fixtures" / "selfplay.json").read_text()
)


def selfplay(levels, seed, choose, play):
    """Move ``i`` by the built-in opponent of level ``levels[i % len]`` with seed ``seed + i``."""
    moves = []
    i = 0
    while True:
        mv = choose(levels[i % len(levels)], seed + i)
        if mv is None:
            return moves
        play(mv)
        moves.append(mv)
        i += 1


STARTS = {
    "triple-triad": (TripleTriad, lambda s: TripleTriad.from_preset(s["preset"], s["seed"])),
    "trax": (Trax, lambda s: Trax(s["variant"])),
    "nantong": (Nantong, lambda s: Nantong(s["seed"])),
}


@pytest.mark.parametrize("key", sorted(STARTS))
def test_a_game_plays_as_in_rust(key):
    game_class, start = STARTS[key]
    case = FIXTURE[key]
    g = start(case["start"])
    moves = selfplay(game_class.levels, case["seed"], g.choose_move, g.play)
    assert moves == case["game"]["moves"]
    rust = game_class.from_json(case["game"]["final"])
    assert g.to_json() == rust.to_json()
    if key == "nantong":
        # The generator state, beyond 2^53, is exact: the next deals agree too.
        assert g.next_deal().to_json() == rust.next_deal().to_json()


def test_a_match_trade_included_plays_as_in_rust():
    case = FIXTURE["triple-triad-match"]
    m = TripleTriadMatch.from_preset(case["start"]["preset"], case["start"]["seed"])
    moves = selfplay(TripleTriad.levels, case["seed"], lambda level, s: m.game().choose_move(level, s), m.play)
    assert moves == case["game"]["moves"]
    choice = m.trade_choice()
    if choice == "automatic":
        picks = []
    elif "pick" in choice:
        picks = list(range(choice["pick"]["count"]))
    else:
        picks = [0]
    assert picks == case["game"]["picks"]
    m.settle_trade(picks)
    assert m.to_json() == TripleTriadMatch.from_json(case["game"]["final"]).to_json()
