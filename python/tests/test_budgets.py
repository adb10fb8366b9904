"""The computer within a budget: time_ms and nodes bound choose_move and solve, as in C and JS."""

import pytest

import arbiter


def column(tiles):
    # A Loop column of straight tiles: thousands of moves, a search of seconds without a budget.
    return arbiter.Trax.from_record(" ".join(["@0+"] + [f"A{r}+" for r in range(2, tiles + 1)]), "loop")


def test_a_budgeted_choice_is_legal_and_a_node_budget_deterministic():
    g = column(300)
    legal = set(g.legal_moves())
    for limits in [dict(nodes=50), dict(time_ms=1), dict(time_ms=5, nodes=1), {}]:
        assert g.choose_move("expert", 1, **limits) in legal, limits
    assert g.choose_move("expert", 4, nodes=200) == g.choose_move("expert", 4, nodes=200)


@pytest.mark.parametrize("limits", [dict(time_ms=0), dict(nodes=0), dict(nodes=-1)])
def test_a_budget_out_of_range_is_a_bad_argument(limits):
    with pytest.raises(arbiter.BadArgumentError):
        arbiter.Trax("8x8").choose_move("expert", 1, **limits)


@pytest.mark.parametrize("limits", [dict(time_ms=1.5), dict(nodes="10"), dict(nodes=True)])
def test_a_budget_of_the_wrong_type_is_a_type_error(limits):
    with pytest.raises(TypeError):
        arbiter.Trax("8x8").choose_move("expert", 1, **limits)


def test_a_solve_that_runs_out_raises_and_changes_nothing():
    g = arbiter.TripleTriad.from_preset("ff8", seed=3)
    before = g.to_json()
    with pytest.raises(arbiter.LimitExceededError, match="ran out of its budget"):
        g.solve(nodes=10)
    assert g.to_json() == before
    assert g.solve(nodes=10**9) == g.solve()
