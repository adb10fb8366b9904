"""The PettingZoo AEC environments pass PettingZoo's own tests (python/test.sh installs the pinned
framework: without it these fail rather than skip)."""

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from arbiter import pettingzoo as envs

MAKERS = [envs.trax_v0, envs.triple_triad_v0, envs.nantong_v0]


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_api(make):
    api_test(make(), num_cycles=300)


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_seed(make):
    seed_test(make, num_cycles=300)


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_render(make):
    render_test(make)


@pytest.mark.parametrize("make", MAKERS, ids=lambda m: m.__name__)
def test_a_game_plays_to_its_end_with_the_returns_as_rewards(make):
    env = make()
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        assert len(legal) > 0 and obs["observation"].dtype.name == "float32"
        env.step(int(legal[0]))
    game = env.unwrapped.game
    assert game.is_over
    assert [total[a] for a in env.possible_agents] == game.returns()


def test_an_illegal_move_ends_the_game_with_minus_one():
    env = envs.trax_v0()
    env.reset(seed=0)
    mover = env.agent_selection
    obs, *_ = env.last()
    illegal = int((obs["action_mask"] == 0).nonzero()[0][0])
    env.step(illegal)
    assert env.rewards[mover] == -1
    assert all(env.terminations.values())
