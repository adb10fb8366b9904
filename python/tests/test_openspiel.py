"""The OpenSpiel games: loaded by name, OpenSpiel's random-simulation test, its Python MCTS."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random

import arbiter.openspiel  # noqa: F401  (registers the games)
from arbiter import Nantong, Trax, TripleTriad

NAMES = ["arbiter_trax", "arbiter_triple_triad", "arbiter_nantong"]


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_random_simulation_test_passes(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_openspiels_python_mcts_plays_a_game(name):
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng)
    others = [uniform_random.UniformRandomBot(p, rng) for p in range(1, game.num_players())]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, [searcher, *others], rng)
    assert len(returns) == game.num_players() and sum(returns) == 0


def test_the_game_types_say_who_sees_what():
    info = pyspiel.GameType.Information
    perfect = [("arbiter_trax", {})] + [("arbiter_triple_triad", {"preset": p}) for p in ["ff8", "ttonline", "ffforever"]]
    for name, params in perfect:
        assert pyspiel.load_game(name, params).get_type().information == info.PERFECT_INFORMATION
    for name, params in [("arbiter_triple_triad", {"preset": "mush"}), ("arbiter_nantong", {})]:
        assert pyspiel.load_game(name, params).get_type().information == info.IMPERFECT_INFORMATION


def test_alpha_beta_solves_an_open_hand_round():
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ff8", "seed": 4})
    state = game.new_initial_state()
    # Five cards in: what is left is small enough for a full search.
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    value, action = minimax.alpha_beta_search(game, state, maximizing_player_id=state.current_player())
    # The engine's own solver: the final score difference for the player to move.
    solved = state.engine.solve()["value"]
    assert action in state.legal_actions()
    assert value == float(np.sign(solved))


def test_states_step_as_the_engines_do():
    pairs = [
        ("arbiter_trax", {}, Trax("8x8")),
        ("arbiter_triple_triad", {"preset": "ffforever", "seed": 9}, TripleTriad.from_preset("ffforever", 9)),
        ("arbiter_nantong", {"seed": 4}, Nantong(4)),
    ]
    for name, params, engine in pairs:
        state = pyspiel.load_game(name, params).new_initial_state()
        rng = np.random.default_rng(2)
        while not state.is_terminal():
            ids = engine.legal_actions()
            assert state.legal_actions() == ids.tolist()
            player = state.current_player()
            assert type(engine).players[player] == engine.to_move
            assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), engine.observation_tensor(player))
            assert state.information_state_tensor(player) == state.observation_tensor(player)
            action = int(ids[rng.integers(len(ids))])
            assert state.action_to_string(player, action) == engine.action_text(action)
            state.apply_action(action)
            engine.play(action)
        assert engine.is_over and state.returns() == engine.returns()


def test_the_information_state_string_recalls_every_observation():
    game = pyspiel.load_game("arbiter_nantong", {"seed": 1})
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    lines = state.information_state_string(0).splitlines()
    assert len(lines) == 6 and lines[-1] == state.observation_string(0)
    # Another seat's view differs: hidden hands stay hidden.
    assert state.observation_string(1) != state.observation_string(0)


def test_the_information_state_string_grows_a_step_at_a_time(monkeypatch):
    game = pyspiel.load_game("arbiter_nantong", {"seed": 5})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    before = state.information_state_string(1)
    fork = state.clone()
    calls = []
    real = arbiter.openspiel._observation_string
    monkeypatch.setattr(arbiter.openspiel, "_observation_string", lambda g, p: calls.append(p) or real(g, p))
    fork.apply_action(int(rng.choice(fork.legal_actions())))
    after = fork.information_state_string(1)
    # One step costs one observation, of the seat asked, however long the history.
    assert calls == [1]
    assert after.startswith(before + "\n") and state.information_state_string(1) == before
    # The same text as a state that replays the whole history from the deal.
    replayed = game.new_initial_state()
    for action in fork.history():
        replayed.apply_action(action)
    assert replayed.information_state_string(1) == after


def test_the_deal_is_the_seed_parameter():
    one = pyspiel.load_game("arbiter_nantong", {"seed": 1}).new_initial_state()
    two = pyspiel.load_game("arbiter_nantong", {"seed": 2}).new_initial_state()
    again = pyspiel.load_game("arbiter_nantong", {"seed": 1}).new_initial_state()
    assert one.observation_string(0) == again.observation_string(0) != two.observation_string(0)


def test_a_bad_preset_is_an_error_of_load_game():
    with pytest.raises(Exception, match="preset"):
        pyspiel.load_game("arbiter_triple_triad", {"preset": "nope"})
