"""Gymnasium single-agent environments (the optional extra ``arbiter-engine[gymnasium]``).

The agent plays one seat of a game; the other seats are played by one of the game's built-in
levels (``TripleTriad.levels``, ``Trax.levels``, ``Nantong.levels``). Importing this module
registers ``arbiter/TripleTriad-v0``, ``arbiter/Trax-v0`` and ``arbiter/Nantong-v0``, so

>>> import gymnasium, arbiter.gymnasium
>>> env = gymnasium.make("arbiter/Trax-v0", opponent="random", seat=1)

works (or, without the import, ``gymnasium.make("arbiter.gymnasium:arbiter/Trax-v0")``).

- Observation: the agent's float32 observation tensor (``game.observation_tensor(seat)``, numbers
  in 0..=1), built only from what that seat may see.
- Action: a ``Discrete(game.num_actions)`` action id; ``info["action_mask"]`` is the int8 mask of
  the legal ids (the dtype ``Discrete.sample(mask)`` wants), all zeros once the game is over.
- Reward: 0 until the end, then the agent's ``game.returns()`` entry (1 / -1 / 0; Nantong: the
  seat's net settlement in points).
- An illegal action id (not in the mask) ends the episode with ``illegal_reward`` (-1 by default)
  and ``info["illegal_action"] = True``; the game is left as it was. Nothing is truncated: every
  game ends by its rules.
- ``reset(seed=...)`` seeds Gymnasium's ``np_random``, which draws the deal (Triple Triad preset,
  Nantong) and the opponents' seeds: the same seed and actions give the same episode. Should the
  opponents end a Nantong deal before the agent's first turn, ``reset`` deals again from the next
  draw, so an episode always starts with the agent to act.

Unbounded and loop Trax have 3,145,728 action ids (a 3 MB mask a step): only 8x8 is offered.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from ._core import Nantong, Trax, TripleTriad
from ._defaults import DEFAULT_PRESET
from ._text import describe

Game = Any
_SEED_BOUND = 2**63


def _triple_triad(preset: str) -> Callable[[int], Game]:
    return lambda seed: TripleTriad.from_preset(preset, seed)


class ArbiterEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a game against a built-in level in the other seats."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        make: Callable[[int], Game],
        opponent: Optional[str] = None,
        seat: int = 0,
        illegal_reward: float = -1.0,
        render_mode: Optional[str] = None,
    ):
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self._make = make
        self.game = make(0)
        levels = type(self.game).levels
        # The second level is each game's first that plays with intent (the first is random).
        self.opponent = levels[1] if opponent is None else opponent
        if self.opponent not in levels:
            raise ValueError(f"opponent must be one of {levels}, not {opponent!r}")
        seats = len(type(self.game).players)
        if not (isinstance(seat, int) and 0 <= seat < seats):
            raise ValueError(f"seat must be an int in 0..{seats - 1}, not {seat!r}")
        self.seat = seat
        self._player = type(self.game).players[seat]
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._done = True
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.game.tensor_len,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)

    def _seed(self) -> int:
        return int(self.np_random.integers(_SEED_BOUND))

    def _opponents_play(self) -> None:
        """The built-in level moves for every other seat until the agent is to act or the end."""
        while not self.game.is_over and self.game.to_move != self._player:
            self.game.play(self.game.choose_move(self.opponent, self._seed()))

    def _observation(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        if self.game.is_over:
            mask = np.zeros(self.game.num_actions, np.int8)
        else:
            mask = self.game.legal_action_mask(dtype=np.int8)
        return self.game.observation_tensor(self.seat), {"action_mask": mask}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            self.game = self._make(self._seed())
            self._opponents_play()
            if not self.game.is_over:
                break
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation()

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        if self._done:
            raise RuntimeError("step after the episode ended: call reset()")
        action = int(action)
        if not (0 <= action < self.game.num_actions and self.game.legal_action_mask()[action]):
            self._done = True
            observation, info = self._observation()
            info["illegal_action"] = True
            return observation, self.illegal_reward, True, False, info
        self.game.play(action)
        self._opponents_play()
        self._done = self.game.is_over
        reward = float(self.game.returns()[self.seat]) if self.game.is_over else 0.0
        observation, info = self._observation()
        if self.render_mode == "human":
            self.render()
        return observation, reward, self.game.is_over, False, info

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = describe(self.game, self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


class TripleTriadEnv(ArbiterEnv):
    """A Triple Triad round of ``preset`` (``TripleTriad.presets``): seat 0 blue, 1 red."""

    def __init__(self, preset: str = DEFAULT_PRESET, opponent: Optional[str] = None, seat: int = 0, **kwargs: Any):
        super().__init__(_triple_triad(preset), opponent, seat, **kwargs)


class TraxEnv(ArbiterEnv):
    """Trax 8x8: seat 0 white (moves first), 1 red."""

    def __init__(self, opponent: Optional[str] = None, seat: int = 0, **kwargs: Any):
        super().__init__(lambda seed: Trax("8x8"), opponent, seat, **kwargs)


class NantongEnv(ArbiterEnv):
    """A Nantong deal: the agent in seat 0, 1 or 2, the built-in level in the other two."""

    def __init__(self, opponent: Optional[str] = None, seat: int = 0, **kwargs: Any):
        super().__init__(Nantong, opponent, seat, **kwargs)


for _id, _class in (("TripleTriad", TripleTriadEnv), ("Trax", TraxEnv), ("Nantong", NantongEnv)):
    if f"arbiter/{_id}-v0" not in gymnasium.registry:
        gymnasium.register(id=f"arbiter/{_id}-v0", entry_point=f"{__name__}:{_class.__name__}")
