"""The API of every game through the installed wheel: shared verbs, extras, saves, errors."""

import copy
import json
import pickle

import numpy as np
import pytest

import arbiter
from arbiter import Nantong, Trax, TripleTriad, TripleTriadMatch

GAMES = [
    pytest.param(lambda: TripleTriad.from_preset("ff8", 7), id="triple-triad"),
    pytest.param(lambda: Trax("8x8"), id="trax-8x8"),
    pytest.param(lambda: Trax("loop"), id="trax-loop"),
    pytest.param(lambda: Nantong(7), id="nantong"),
]


def play_out(g, seed=1, level="random"):
    """Plays a game to its end with a built-in opponent; the moves played."""
    moves = []
    while not g.is_over:
        mv = g.choose_move(level, seed + len(moves))
        g.play(mv)
        moves.append(mv)
    return moves


@pytest.mark.parametrize("make", GAMES)
def test_shared_verbs_agree_all_game_long(make):
    g = make()
    steps = 0
    while not g.is_over:
        ids = g.legal_actions()
        assert ids.dtype == np.int64
        assert list(ids) == sorted(ids) and len(set(ids.tolist())) == len(ids)
        assert sorted(g.action_id(m) for m in g.legal_moves()) == ids.tolist()
        assert [g.action_text(i) for i in ids] == sorted(g.legal_moves(), key=g.action_id)
        mask = g.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
        assert np.flatnonzero(mask).tolist() == ids.tolist()
        assert g.legal_action_mask(dtype=np.int8).dtype == np.int8
        player = g.to_move
        assert player in type(g).players
        for p in type(g).players:
            t = g.observation_tensor(p)
            assert t.dtype == np.float32 and t.shape == (g.tensor_len,)
            assert ((t >= 0) & (t <= 1)).all()
        assert np.array_equal(g.observation_tensor(player), g.observation_tensor(type(g).players.index(player)))
        assert g.returns() == [0.0] * len(type(g).players)
        g.play(int(ids[steps % len(ids)]))
        steps += 1
    assert g.to_move is None and g.legal_moves() == [] and len(g.legal_actions()) == 0
    assert not g.legal_action_mask().any()
    assert g.outcome is not None
    returns = g.returns()
    assert len(returns) == len(type(g).players) and sum(returns) == 0
    if g.outcome != "draw" and not isinstance(g, Nantong):
        assert returns[type(g).players.index(g.outcome)] == 1.0


@pytest.mark.parametrize("make", GAMES)
def test_saves_pickles_and_copies_are_the_same_game(make):
    g = make()
    for _ in range(3):
        g.play(g.legal_moves()[-1])
    save = g.to_json()
    assert isinstance(save, dict)
    again = type(g).from_json(save)
    assert again.to_json() == save
    assert type(g).from_json(json.dumps(save)).to_json() == save
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), copy.copy(g), g.clone()):
        assert type(other) is type(g)
        assert other.to_json() == save
        assert other.legal_moves() == g.legal_moves()
    # Copies are independent.
    c = g.clone()
    c.play(c.legal_moves()[0])
    assert g.to_json() == save


@pytest.mark.parametrize("make", GAMES)
def test_built_in_opponents_are_deterministic(make):
    a, b = make(), make()
    assert play_out(a, seed=5) == play_out(b, seed=5)
    assert a.to_json() == b.to_json()
    assert type(a).levels[0] == "random"


def test_observations_hide_what_a_player_may_not_see():
    g = TripleTriad.from_preset("ff8", 3)
    rules = g.to_json()["rules"]
    obs = g.observation("blue")
    assert len(obs["hand"]) == 5
    if not rules.get("open"):
        assert obs["opponent_hand"] == [None] * 5
    n = Nantong(4)
    seen = n.observation(0)
    assert isinstance(seen, dict)
    text = json.dumps(seen)
    assert text == json.dumps(n.observation("0"))


def test_triple_triad_extras():
    g = TripleTriad.from_preset("ff8", 11)
    assert g.last_captures() is None
    assert g.score("blue") == 5 and g.score("red") == 5
    assert g.next_player == g.to_move
    solved = g.solve()
    assert set(solved) == {"value", "best_move"}
    g.play(solved["best_move"])
    captures = g.last_captures()
    assert captures["cell"] == g.action_id(solved["best_move"]) % 9
    assert captures["steps"][0] == {"rule": "place", "cell": captures["placed_on"], "card": captures["steps"][0]["card"], "owner": "blue" if g.to_move == "red" else "red"}
    assert g.score("blue") + g.score("red") == 10
    assert "ff8" in TripleTriad.presets
    play_out(g)
    assert g.solve()["best_move"] is None
    assert g.next_player in ("blue", "red")


def test_triple_triad_match_observation_hides_what_the_match_hides():
    five = [{"name": f"B{i}", "ranks": [i, 5, 5, i]} for i in range(1, 6)]
    other = [{"name": f"R{i}", "ranks": [i, 5, 5, i]} for i in range(1, 6)]
    m = TripleTriadMatch.from_json({"config": {"rules": {"three_open": True}}, "blue": five, "red": other, "seed": 7})
    seen = m.observation("blue")["opponent_hand"]
    assert len(seen) == 5 and sum(c is not None for c in seen) == 3
    # The round alone hides the whole closed hand.
    assert all(c is None for c in m.game().observation("blue")["opponent_hand"])
    with pytest.raises(arbiter.ParseError):
        m.observation("green")


def test_triple_triad_match_rounds_and_trade():
    m = TripleTriadMatch.from_preset("ff8", 21)
    assert m.round_number == 1 and m.rounds == [] and m.result is None and m.transfers() is None
    with pytest.raises(arbiter.IllegalMoveError):
        m.trade_choice()
    while not m.is_over:
        m.play(m.timeout_move())
    assert m.timeout_move() is None
    assert len(m.rounds) == m.round_number >= 1
    result = m.result
    assert result is not None
    choice = m.trade_choice()
    assert choice is not None
    save = m.to_json()
    assert pickle.loads(pickle.dumps(m)).to_json() == save
    with pytest.raises(TypeError):
        m.settle_trade("0")
    assert m.to_json() == save
    assert choice == {"pick": {"chooser": result["winner"], "count": 1}}
    for bad in ([], [0, 0], [5]):
        with pytest.raises(arbiter.IllegalMoveError):
            m.settle_trade(bad)
        assert m.to_json() == save
    transfers = m.settle_trade([2])
    assert len(transfers) == 1 and transfers[0]["to"] == result["winner"]
    assert m.transfers() == transfers
    with pytest.raises(arbiter.IllegalMoveError):
        m.settle_trade([2])


def test_trax_extras():
    g = Trax()
    assert g.variant == "8x8" and g.tiles == 0 and g.size == (0, 0) and g.last_turn() is None
    assert g.undo() is None
    g.play("@0/")
    assert g.tiles == 1 and g.size == (1, 1)
    tile = g.tile_at(1, 1)
    assert tile["shape"] == "/" and len(tile["edges"]) == 4
    assert g.tile_at(5, 5) is None
    assert g.last_turn()["move"] == "@0/"
    assert g.undo() == "@0/" and g.tiles == 0
    moves = play_out(g, seed=3)
    win = g.win()
    if g.outcome in ("white", "red"):
        assert win["winner"] == g.outcome
    record = " ".join(moves)
    assert Trax.from_record(record, "8x8").to_json() == g.to_json()
    assert g.next_player in ("white", "red")
    with pytest.raises(arbiter.ParseError):
        Trax.from_record("@0/ zz9", "8x8")
    with pytest.raises(arbiter.IllegalMoveError, match="move 1"):
        Trax.from_record("B2+", "8x8")
    limited = Trax("unbounded", 2)
    assert limited.max_tiles == 2
    with pytest.raises(arbiter.BadArgumentError):
        Trax("8x8", 0)


def test_unbounded_trax_research_interface_uses_ids_not_masks():
    g = Trax("unbounded")
    assert g.num_actions == 3_145_728
    g.play("@0/")
    ids = g.legal_actions()
    assert 0 < len(ids) < 100
    assert all(g.action_text(i) in g.legal_moves() for i in ids)


def test_nantong_extras():
    n = Nantong(9)
    assert n.actor == n.to_move and n.dealer in (0, 1, 2)
    other = (n.actor + 1) % 3
    with pytest.raises(arbiter.IllegalMoveError):
        n.act(other, n.legal_moves()[0])
    n.act(n.actor, n.legal_moves()[0])
    assert n.score() is None and n.win() is None
    play_out(n, level="basic")
    score = n.score()
    assert sum(score["settlement"]) == 0 and len(score["totals"]) == 3
    assert n.returns() == [float(x) for x in score["settlement"]]
    nxt = n.next_deal()
    assert nxt.dealer == (n.dealer + 1) % 3
    hand = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4m", "4m", "4m", "5m", "5m", "5m",
            "6m", "6m", "6m", "7m", "7m", "7m", "9m", "9m"]
    assert Nantong.winning(hand)["winning"] is True
    short = Nantong.winning(hand[:-1])
    assert short["winning"] is False and "9m" in short["waits"]


def test_nantong_deal_from_a_deck():
    n = Nantong(2)
    deck = n.to_json()["deck"]
    again = Nantong.deal(deck, n.dealer)
    assert again.observation(0) == n.observation(0)
    with pytest.raises(arbiter.BadArgumentError):
        Nantong.deal(deck[:-1], 0)
    with pytest.raises(TypeError):
        Nantong.deal("1m 2m", 0)
