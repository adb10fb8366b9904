"""The Gymnasium environments: registered ids, Gymnasium's own checker, seeding, illegal actions."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import arbiter.gymnasium  # noqa: F401  (registers the ids)
from arbiter import Nantong, Trax, TripleTriad

IDS = ["arbiter/TripleTriad-v0", "arbiter/Trax-v0", "arbiter/Nantong-v0"]
GAMES = dict(zip(IDS, [TripleTriad, Trax, Nantong]))


def play_out(env, seed, pick=lambda mask, rng: int(rng.choice(np.flatnonzero(mask)))):
    """An episode of random legal actions: the observations, rewards and the final game."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace, total, done = [obs], 0.0, False
    while not done:
        obs, reward, done, truncated, info = env.step(pick(info["action_mask"], rng))
        assert not truncated
        trace.append(obs)
        total += reward
    return trace, total, env.unwrapped.game


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasiums_checker_passes(env_id):
    check_env(gymnasium.make(env_id).unwrapped, skip_render_check=False)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("seat", [0, 1])
def test_an_episode_ends_with_the_seats_return(env_id, seat):
    env = gymnasium.make(env_id, opponent="random", seat=seat)
    obs, info = env.reset(seed=5)
    game = env.unwrapped.game
    assert game.to_move == type(game).players[seat]
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"], game.legal_action_mask().astype(np.int8))
    # Gymnasium's own masked sampling takes the mask as it comes.
    assert info["action_mask"][env.action_space.sample(info["action_mask"])] == 1
    trace, total, game = play_out(env, 5)
    assert game.is_over
    assert total == game.returns()[seat]
    assert np.array_equal(trace[-1], game.observation_tensor(seat))


@pytest.mark.parametrize("env_id", IDS)
def test_the_same_seed_gives_the_same_episode_opponents_included(env_id):
    env = gymnasium.make(env_id)
    first = play_out(env, 11)
    again = play_out(env, 11)
    assert first[2].to_json() == again[2].to_json()
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0])) and len(first[0]) == len(again[0])


def test_different_seeds_deal_different_games():
    env = gymnasium.make("arbiter/Nantong-v0")
    env.reset(seed=1)
    one = env.unwrapped.game.to_json()
    env.reset(seed=2)
    assert env.unwrapped.game.to_json() != one


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_leaves_the_game():
    env = gymnasium.make("arbiter/Trax-v0", illegal_reward=-5)
    _, info = env.reset(seed=0)
    before = env.unwrapped.game.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5, True, False, True)
    assert env.unwrapped.game.to_json() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_the_nantong_agent_sees_only_its_own_hand():
    env = gymnasium.make("arbiter/Nantong-v0", seat=2)
    obs, _ = env.reset(seed=3)
    game = env.unwrapped.game
    assert np.array_equal(obs, game.observation_tensor(2)) and not np.array_equal(obs, game.observation_tensor(0))
    text = gymnasium.make("arbiter/Nantong-v0", seat=2, render_mode="ansi")
    text.reset(seed=3)
    assert text.render().startswith("seat 2:")


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="opponent"):
        gymnasium.make("arbiter/Trax-v0", opponent="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("arbiter/Nantong-v0", seat=3)
    with pytest.raises(ValueError, match="render_mode"):
        gymnasium.make("arbiter/TripleTriad-v0", render_mode="rgb_array")
