"""Bad input: the right exception with the core's words, never a crash, state unchanged."""

import numpy as np
import pytest

import arbiter
from arbiter import Nantong, Trax, TripleTriad, TripleTriadMatch

KINDS = {
    arbiter.BadArgumentError: "BAD_ARGUMENT",
    arbiter.ParseError: "PARSE_ERROR",
    arbiter.IllegalMoveError: "ILLEGAL_MOVE",
    arbiter.GameOverError: "GAME_OVER",
    arbiter.LimitExceededError: "LIMIT_EXCEEDED",
}


def test_one_exception_class_per_kind_under_arbiter_error():
    for cls, code in KINDS.items():
        assert issubclass(cls, arbiter.ArbiterError) and issubclass(cls, Exception)
        assert cls.code == code
    assert arbiter.ArbiterError.code == "INTERNAL_ERROR"


def test_the_core_message_comes_through():
    g = Trax("8x8")
    with pytest.raises(arbiter.IllegalMoveError) as e:
        g.play("B2+")
    assert str(e.value) == "the first move must be @0+ or @0/, not B2+"
    assert e.value.code == "ILLEGAL_MOVE"


def every_game():
    return [TripleTriad.from_preset("mush", 2), Trax("8x8"), Trax("unbounded"), Nantong(3)]


@pytest.mark.parametrize("g", every_game(), ids=type)
def test_wrong_types_are_type_errors_and_change_nothing(g):
    save = g.to_json()
    for bad in (1.5, None, True, [0], {"move": 0}, b"0@0", object()):
        with pytest.raises(TypeError):
            g.play(bad)
        with pytest.raises(TypeError):
            g.observation_tensor(bad if bad is not None else 2.5)
        with pytest.raises(TypeError):
            g.perft(bad)
    with pytest.raises(TypeError):
        g.choose_move(1, 0)
    with pytest.raises(TypeError):
        g.choose_move("random", "0")
    with pytest.raises(TypeError):
        g.action_id(3)
    with pytest.raises(TypeError):
        g.action_text("0")
    with pytest.raises(TypeError):
        type(g).from_json(42)
    with pytest.raises(TypeError):
        type(g).from_json({"x": {1, 2}})
    assert g.to_json() == save


@pytest.mark.parametrize("g", every_game(), ids=type)
def test_wrong_values_are_arbiter_errors_and_change_nothing(g):
    save = g.to_json()
    with pytest.raises(arbiter.BadArgumentError):
        g.play(-1)
    with pytest.raises(arbiter.BadArgumentError):
        g.play(g.num_actions)
    with pytest.raises(arbiter.BadArgumentError):
        g.play(2**70)
    with pytest.raises(arbiter.ParseError):
        g.play("not a move at all")
    with pytest.raises(arbiter.ParseError):
        g.observation("nobody")
    with pytest.raises(arbiter.BadArgumentError):
        g.observation_tensor(len(type(g).players))
    with pytest.raises(arbiter.BadArgumentError):
        g.choose_move("grandmaster", 1)
    with pytest.raises(arbiter.BadArgumentError):
        g.choose_move("random", -1)
    with pytest.raises(arbiter.BadArgumentError):
        g.perft(-1)
    with pytest.raises(arbiter.ParseError):
        type(g).from_json("{not json")
    with pytest.raises(arbiter.ParseError):
        type(g).from_json({})
    with pytest.raises(arbiter.ParseError):
        type(g).from_json({"big": 2**80})
    assert g.to_json() == save


def test_illegal_and_finished_moves():
    g = TripleTriad.from_preset("ff8", 1)
    g.play("0@4")
    save = g.to_json()
    with pytest.raises(arbiter.IllegalMoveError):
        g.play("0@4")
    assert g.to_json() == save
    while not g.is_over:
        g.play(g.legal_actions()[0])
    with pytest.raises(arbiter.GameOverError):
        g.play("0@0")
    assert g.choose_move("random", 1) is None


def test_numpy_integers_are_ids_and_seeds():
    g = TripleTriad.from_preset("ff8", np.uint64(5))
    g.play(np.int64(g.legal_actions()[3]))
    g.play(g.legal_actions()[0])
    assert g.observation_tensor(np.int8(1)).shape == (g.tensor_len,)
    assert Nantong(np.int32(4)).to_json() == Nantong(4).to_json()


def test_bad_constructor_arguments():
    with pytest.raises(arbiter.ParseError):
        Trax("9x9")
    with pytest.raises(TypeError):
        Trax(8)
    with pytest.raises(arbiter.BadArgumentError):
        TripleTriad.from_preset("nope", 1)
    with pytest.raises(TypeError):
        TripleTriad.from_preset("ff8", "1")
    with pytest.raises(TypeError):
        Nantong("1")
    with pytest.raises(arbiter.BadArgumentError):
        Nantong(-1)
    with pytest.raises(arbiter.ParseError):
        TripleTriadMatch.from_json({"config": {}})
    with pytest.raises(TypeError):
        Nantong.winning("1m")
    with pytest.raises(arbiter.ParseError):
        Nantong.winning(["1x"])
    with pytest.raises(arbiter.ParseError):
        Nantong.score_hand({"dealer": 0})
    with pytest.raises(arbiter.BadArgumentError):
        Nantong.deal(["1m"] * 120, 0)
    with pytest.raises(arbiter.BadArgumentError):
        Nantong.deal(Nantong(1).to_json()["deck"], 3)


def test_deeply_nested_data_is_a_parse_error_not_a_crash():
    deep: list = []
    for _ in range(200_000):
        deep = [deep]
    for load in (TripleTriad.from_json, TripleTriadMatch.from_json, Trax.from_json, Nantong.from_json,
                 Nantong.score_hand):
        with pytest.raises(arbiter.ParseError, match="nested"):
            load({"state": deep})
    with pytest.raises(arbiter.ParseError, match="nested"):
        Nantong.winning(["1m"], deep)
