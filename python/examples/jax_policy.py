"""A linear softmax policy, jitted with JAX, acting in a batch of Triple Triad rounds against the
built-in greedy level: the batch's arrays go to JAX through DLPack without a copy.

    python python/examples/jax_policy.py        (pip install "jax[cpu]" first)
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import arbiter


@jax.jit
def act(weights: jax.Array, obs: jax.Array, masks: jax.Array, key: jax.Array) -> jax.Array:
    """One action id per game: a sample of the softmax over the legal actions' logits."""
    logits = obs @ weights
    return jax.random.categorical(key, jnp.where(masks, logits, -jnp.inf))


def play(steps: int, num_games: int = 256, seed: int = 0) -> float:
    """The learner's mean reward over the games that ended within `steps` steps."""
    batch = arbiter.TripleTriadBatch(num_games, "ff8", seed=seed, opponent="greedy", seat=1)
    key = jax.random.PRNGKey(seed)
    weights = 0.01 * jax.random.normal(key, (batch.tensor_len, batch.num_actions))
    obs, masks, rewards, to_move, done = batch.arrays
    total, ended = 0.0, 0
    for _ in range(steps):
        key, sub = jax.random.split(key)
        # Views of the batch's memory, read by `act` before the next step overwrites it.
        actions = act(weights, jnp.from_dlpack(obs), jnp.from_dlpack(masks), sub)
        obs, masks, rewards, to_move, done = batch.step(np.asarray(actions))
        total += float(rewards[done, 1].sum())
        ended += int(done.sum())
    return total / max(ended, 1)


if __name__ == "__main__":
    print(f"mean reward of an untrained policy against greedy: {play(200):+.3f}")
