"""The perft split through the Python API: every game's parts sum to its perft, and bad parts
are refused with a clear error."""

import pytest

import arbiter


def _positions():
    trax = arbiter.Trax("unbounded")
    yield trax, 5
    later = arbiter.Trax("8x8")
    for mv in ["@0/", "B1+", "A2\\"]:
        later.play(mv)
    yield later, 4
    tt = arbiter.TripleTriad.from_preset("ff8", 4)
    yield tt, 3
    mid = arbiter.TripleTriad.from_preset("mush", 9)
    for _ in range(4):
        mid.play(mid.legal_moves()[0])
    yield mid, 5
    nt = arbiter.Nantong(3)
    yield nt, 3


@pytest.mark.parametrize("game,depth", list(_positions()))
def test_parts_sum_to_the_whole_count(game, depth):
    whole = game.perft(depth)
    for split in range(0, depth + 1):
        frontier = game.frontier(split)
        assert sum(count for _, count in frontier) == game.perft(split)
        for parts in (1, 2, 5):
            counted = [game.perft_part(depth, split, part, parts, threads=2) for part in range(parts)]
            assert sum(counted) == whole, (split, parts)
    # Each line replays to a position whose perft times its multiplicity adds up too.
    frontier = game.frontier(2)
    total = 0
    for line, count in frontier:
        g = game.clone()
        for mv in line.split(", "):
            g.play(mv)
        total += count * g.perft(depth - 2)
    assert total == whole


def test_bad_parts_are_refused_and_name_the_range():
    g = arbiter.Trax("unbounded")
    with pytest.raises(arbiter.BadArgumentError, match="part 3 of 3 does not exist"):
        g.perft_part(4, 2, 3, 3)
    with pytest.raises(arbiter.BadArgumentError, match="part 0 of 0"):
        g.perft_part(4, 2, 0, 0)
    with pytest.raises(arbiter.BadArgumentError, match="split at most at the depth"):
        g.perft_part(2, 3, 0, 1)
    with pytest.raises(TypeError):
        g.perft_part(4, "2", 0, 1)
    with pytest.raises(arbiter.BadArgumentError):
        g.perft_part(4, 2, -1, 3)
