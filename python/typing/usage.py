"""A usage of the whole typed surface, checked with `mypy --strict` against the package's stubs
(python/test.sh): a stub that drifts from what code can call shows up here as an error."""

import copy
import pickle
from typing import List, Optional

import numpy as np
import numpy.typing as npt

import arbiter


def play_out(g: arbiter.Trax) -> Optional[str]:
    while not g.is_over:
        mv = g.choose_move("random", 1)
        assert mv is not None
        g.play(mv)
    return g.outcome


def research(g: arbiter.TripleTriad) -> float:
    t: npt.NDArray[np.float32] = g.observation_tensor("blue")
    mask = g.legal_action_mask(dtype=np.int8)
    ids: npt.NDArray[np.int64] = g.legal_actions()
    g.play(int(ids[0]))
    returns: List[float] = g.returns()
    return float(t.sum()) + float(mask.sum()) + sum(returns)


def extras() -> None:
    tt = arbiter.TripleTriad.from_preset("ff8", 1)
    value: int = tt.solve()["value"]
    tt.play("0@4")
    assert tt.last_captures() is not None and tt.score("red") + value < 100
    m = arbiter.TripleTriadMatch.from_preset("mush", 2)
    while not m.is_over:
        mv = m.timeout_move()
        assert mv is not None
        m.play(mv)
    print(m.rounds, m.result, m.round_number, m.trade_choice(), m.game().next_player)
    t = arbiter.Trax("unbounded", max_tiles=100)
    t.play("@0/")
    cols, rows = t.size
    print(t.tile_at(1, 1), t.last_turn(), t.win(), t.undo(), cols + rows, t.variant, t.tiles)
    n = arbiter.Nantong(3)
    seat: Optional[int] = n.actor
    assert seat is not None
    n.act(seat, n.legal_moves()[0])
    print(n.score(), n.win(), n.dealer, n.next_deal().dealer)
    print(arbiter.Nantong.winning(["1m", "1m"]), arbiter.Nantong.deal(n.to_json()["deck"], 0).actor)
    again: arbiter.Nantong = pickle.loads(pickle.dumps(n))
    assert copy.deepcopy(again).to_json() == n.to_json()


def batches() -> None:
    b = arbiter.TripleTriadBatch(8, "ff8", seed=1, threads=2)
    obs, masks, rewards, to_move, done = b.arrays
    assert masks is not None
    actions = np.argmax(masks, axis=1)
    obs, masks, rewards, to_move, done = b.step(actions)
    obs, masks, rewards, to_move, done = b.step_random()
    played: "np.ndarray[tuple[int], np.dtype[np.int64]]" = b.last_actions()
    print(played[0])
    g: arbiter.TripleTriad = b.game(0)
    print(obs.shape, rewards.dtype, to_move[0], done.any(), g.to_move, b.legal_actions(0), len(b))
    try:
        arbiter.TraxBatch(1, "unbounded").step([0])
    except arbiter.IllegalMoveError as e:
        print(e.code)
    print(arbiter.episode_seed(1, 2, 3), arbiter.NantongBatch(2).episode_seed(1))


def ffxiv() -> None:
    from arbiter import ffxiv

    names: List[str] = [c["name"]["en"] for c in ffxiv.cards()]
    hand = ffxiv.hands(ffxiv.npc("Baderon")["id"])[0]
    caps: int = ffxiv.DECK_RULE["max_five_stars"]
    print(names[0], hand[0]["ranks"], caps, ffxiv.sources()["cards"]["commit"])


if __name__ == "__main__":
    print(play_out(arbiter.Trax()), research(arbiter.TripleTriad.from_preset("ff8", 2)))
    extras()
    batches()
    ffxiv()
