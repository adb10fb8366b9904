"""PettingZoo AEC environments for the three games (the optional extra ``arbiter-engine[pettingzoo]``).

``trax_v0()``, ``triple_triad_v0()`` and ``nantong_v0()`` return environments wrapped as
PettingZoo's classic board games are (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``). Observations are dicts with ``"observation"`` (the agent's float32
observation tensor, built from what that agent may see) and ``"action_mask"`` (int8 over the action
ids; all zeros for an agent not to act). Agents are ``player_0``, ``player_1`` (``player_2``) in the
game's seat order; the agent to act is the game's player to move, so Nantong's claims interrupt the
turn order. Rewards come at the end: the game's ``returns()`` (1 / -1 / 0; Nantong: settlement
points). The deal of Triple Triad and Nantong is drawn from the ``reset`` seed.

Unbounded and loop Trax have 3,145,728 action ids: their masks are 3 MB an observation, so only
the 8x8 variant is offered here.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from . import Nantong, Trax, TripleTriad
from ._defaults import DEFAULT_PRESET
from ._text import describe

Game = Any


class ArbiterEnv(AECEnv, EzPickle):  # type: ignore[misc]
    """An AEC environment over one arbiter game, made afresh from a seed by ``make``."""

    def __init__(self, name: str, make: Callable[[int], Game], render_mode: Optional[str] = None):
        EzPickle.__init__(self, name, make, render_mode)
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.metadata = {"render_modes": ["ansi", "human"], "name": name, "is_parallelizable": False}
        self.render_mode = render_mode
        self._make = make
        self._next_seed = 0
        self.game = make(0)
        players = type(self.game).players
        self._players: List[Any] = list(players)
        self.possible_agents = [f"player_{i}" for i in range(len(players))]
        self.agents = self.possible_agents[:]
        box = spaces.Box(low=0.0, high=1.0, shape=(self.game.tensor_len,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _agent(self, player: Any) -> str:
        return self.possible_agents[self._players.index(player)]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        i = self.possible_agents.index(agent)
        observation = self.game.observation_tensor(i)
        if agent == self.agent_selection and not self.game.is_over:
            mask = self.game.legal_action_mask(dtype=np.int8)
        else:
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._next_seed = seed
        self.game = self._make(self._next_seed)
        # Without a seed, the next reset deals the next game of the sequence.
        self._next_seed += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.game.to_move)

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_over:
            returns = self.game.returns()
            self.rewards = {a: float(r) for a, r in zip(self.possible_agents, returns)}
            self.terminations = dict.fromkeys(self.agents, True)
            # Terminated agents then leave in turn (`_was_dead_step`), from the next seat on.
            n = len(self.possible_agents)
            self.agent_selection = self.possible_agents[(self.possible_agents.index(agent) + 1) % n]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._agent(self.game.to_move)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = describe(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def wrap(env: ArbiterEnv) -> AECEnv:
    """Wrapped as PettingZoo's classic games: illegal moves end the game with -1 for the mover."""
    wrapped = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def _trax(seed: int) -> Trax:
    return Trax("8x8")


def _nantong(seed: int) -> Nantong:
    return Nantong(seed)


class _Preset:
    """A picklable maker of Triple Triad rounds of one preset."""

    def __init__(self, preset: str):
        self.preset = preset

    def __call__(self, seed: int) -> TripleTriad:
        return TripleTriad.from_preset(self.preset, seed)


def trax_v0(render_mode: Optional[str] = None) -> AECEnv:
    """Trax 8x8: white (``player_0``) against red."""
    return wrap(ArbiterEnv("arbiter_trax_v0", _trax, render_mode))


def triple_triad_v0(preset: str = DEFAULT_PRESET, render_mode: Optional[str] = None) -> AECEnv:
    """A Triple Triad round of ``preset`` dealt from the reset seed: blue (``player_0``) and red."""
    return wrap(ArbiterEnv("arbiter_triple_triad_v0", _Preset(preset), render_mode))


def nantong_v0(render_mode: Optional[str] = None) -> AECEnv:
    """A Nantong deal from the reset seed: seats 0, 1, 2 as ``player_0`` … ``player_2``."""
    return wrap(ArbiterEnv("arbiter_nantong_v0", _nantong, render_mode))
