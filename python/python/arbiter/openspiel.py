"""OpenSpiel Python games over the three engines (the optional extra ``arbiter-engine[openspiel]``).

Importing this module registers ``arbiter_trax`` (8x8), ``arbiter_triple_triad`` and
``arbiter_nantong`` with ``pyspiel.register_game``, so that

>>> import pyspiel, arbiter.openspiel
>>> game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffforever", "seed": 7})

gives games that OpenSpiel's Python algorithms and its C++ algorithms that only walk the tree take.

- Action ids are the engines' (``game.num_actions`` of them); ``legal_actions()`` is ascending,
  which the core guarantees. Rewards are terminal: ``returns()`` (1 / -1 / 0; Nantong: each seat's
  net settlement in points, which sum to 0).
- Trax is a perfect-information game, and so is Triple Triad under a preset with open hands
  (``ff8``, ``ttonline``, ``ffforever``: ``alpha_beta_search`` takes them); under closed hands
  (``mush``) it is an imperfect-information game, as Nantong (hidden hands and stock) is. The deal is the ``seed`` parameter
  (Triple Triad also takes ``preset``), not a chance node, so the games are deterministic and
  ``new_initial_state()`` is always the same deal; vary ``seed`` for other deals.
- Observations: the observation tensor is the engine's ``observation_tensor(player)``, built only
  from what that player may see. The information-state tensor is that same tensor (the current
  view, not a history); the information-state string has perfect recall: the player's
  observations from the start, one line each.
- Only OpenSpiel's Python MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) searches these
  games: the C++ ``pyspiel.MCTSBot`` crashes (a segfault) on every Python game, OpenSpiel's own
  ``python_tic_tac_toe`` included.
- OpenSpiel's Python-game layer costs several times our own step: ``python/bench/openspiel.py``
  measures it against stepping ``arbiter`` objects directly.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import pyspiel

from ._core import Nantong, Trax, TripleTriad
from ._defaults import DEFAULT_PRESET
from ._text import describe

Game = Any
_Type = pyspiel.GameType


class _Spec:
    """What OpenSpiel needs to know of one engine, and how to start it from the parameters."""

    def __init__(
        self,
        name: str,
        long_name: str,
        make: Callable[[Dict[str, Any]], Game],
        params: Dict[str, Any],
        information: Callable[[Game], Any],
        max_utility: float,
        max_game_length: int,
    ):
        self.make = make
        self.information = information
        sample = make(dict(params))
        self._type = dict(
            short_name=name,
            long_name=long_name,
            dynamics=_Type.Dynamics.SEQUENTIAL,
            chance_mode=_Type.ChanceMode.DETERMINISTIC,
            utility=_Type.Utility.ZERO_SUM,
            reward_model=_Type.RewardModel.TERMINAL,
            max_num_players=len(type(sample).players),
            min_num_players=len(type(sample).players),
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params,
        )
        self.type = self.type_of(sample)
        self.info = pyspiel.GameInfo(
            num_distinct_actions=sample.num_actions,
            max_chance_outcomes=0,
            num_players=len(type(sample).players),
            min_utility=-max_utility,
            max_utility=max_utility,
            utility_sum=0.0,
            max_game_length=max_game_length,
        )
        self.tensor_len = sample.tensor_len

    def type_of(self, start: Game) -> Any:
        """The game type of the game that starts at `start`: who sees what depends on the rules
        (a Triple Triad preset with open hands is a game of perfect information)."""
        return _Type(information=self.information(start), **self._type)


class ArbiterGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over one engine; a class per engine below fixes the spec."""

    spec: _Spec

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        given = dict(self.spec.type.parameter_specification)
        given.update(params or {})
        # Made first: a bad preset is an error of load_game, not of the first state.
        start = self.spec.make(given)
        super().__init__(self.spec.type_of(start), self.spec.info, params or {})
        self._params = self.get_parameters()
        self._start = start

    def new_initial_state(self) -> "ArbiterState":
        return ArbiterState(self, self._start.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec.tensor_len, recall)


class ArbiterState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's game object, stepped by OpenSpiel's action ids."""

    def __init__(self, game: ArbiterGame, engine: Game):
        super().__init__(game)
        self.engine = engine
        self._players: List[Any] = list(type(engine).players)
        # Every seat's observations so far, kept from the first information-state string on:
        # before that, stepping pays nothing for it.
        self._seen: Optional[_Seen] = None

    def current_player(self) -> int:
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._players.index(self.engine.to_move)

    def _legal_actions(self, player: int) -> List[int]:
        return [int(a) for a in self.engine.legal_actions()]

    def _apply_action(self, action: int) -> None:
        self.engine.play(action)
        if self._seen is not None:
            self._seen = _Seen(self._seen, self.engine, len(self._players))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.engine.action_text(action))

    def is_terminal(self) -> bool:
        return bool(self.engine.is_over)

    def returns(self) -> List[float]:
        return [float(r) for r in self.engine.returns()]

    def __str__(self) -> str:
        return describe(self.engine)

    def observations(self, player: int) -> List[str]:
        """``player``'s observations from the start to now, one a step."""
        if self._seen is None:
            # Replayed once from the initial deal; every later step adds its own line.
            g = self.get_game()._start.clone()
            seen = _Seen(None, g, len(self._players))
            for action in self.history():
                g.play(action)
                seen = _Seen(seen, g, len(self._players))
            self._seen = seen
        return self._seen.lines(player)


def _observation_string(g: Game, player: int) -> str:
    return json.dumps(g.observation(player), sort_keys=True, separators=(",", ":"))


class _Seen:
    """One step's observation strings, every seat's, linked to the step before. Never changed once
    made, so a state's clones share the chain instead of copying it: an information-state string
    costs one step's observations, not a replay of the whole history."""

    __slots__ = ("before", "now")

    def __init__(self, before: Optional["_Seen"], g: Game, players: int):
        self.before = before
        self.now = [_observation_string(g, p) for p in range(players)]

    def __deepcopy__(self, memo: Any) -> "_Seen":
        return self

    def __reduce__(self) -> Any:
        # Flat: pickle would otherwise recurse once a step, past Python's limit in a long deal.
        return (_Seen._chain, (self._steps(),))

    @staticmethod
    def _chain(steps: List[List[str]]) -> "_Seen":
        seen: Optional[_Seen] = None
        for now in steps:
            step = _Seen.__new__(_Seen)
            step.before, step.now = seen, now
            seen = step
        assert seen is not None
        return seen

    def _steps(self) -> List[List[str]]:
        out: List[List[str]] = []
        step: Optional[_Seen] = self
        while step is not None:
            out.append(step.now)
            step = step.before
        out.reverse()
        return out

    def lines(self, player: int) -> List[str]:
        return [now[player] for now in self._steps()]


class Observer:
    """OpenSpiel's PyObserver: the observation tensor, and the view (with recall) as text."""

    def __init__(self, tensor_len: int, perfect_recall: bool):
        self.tensor = np.zeros(tensor_len, np.float32)
        self.dict = {"observation": self.tensor}
        self._recall = perfect_recall

    def set_from(self, state: ArbiterState, player: int) -> None:
        self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: ArbiterState, player: int) -> str:
        if self._recall:
            return "\n".join(state.observations(player))
        return _observation_string(state.engine, player)


def _triple_triad(params: Dict[str, Any]) -> TripleTriad:
    return TripleTriad.from_preset(params["preset"], params["seed"])


def _register(name: str, long_name: str, spec: _Spec) -> type:
    game_class = type(long_name.replace(" ", "") + "Game", (ArbiterGame,), {"spec": spec})
    pyspiel.register_game(spec.type, game_class)
    return game_class


_PERFECT = _Type.Information.PERFECT_INFORMATION
_IMPERFECT = _Type.Information.IMPERFECT_INFORMATION


def _perfect(g: Game) -> Any:
    return _PERFECT


def _hands_seen(g: TripleTriad) -> Any:
    """Open hands leave nothing hidden once the round is dealt: perfect information."""
    return _PERFECT if g.observation(0)["rules"]["open"] else _IMPERFECT


def _imperfect(g: Game) -> Any:
    return _IMPERFECT

# A Trax 8x8 move places at least one of the 64 tiles; a Triple Triad round is 9 cards.
TraxGame = _register(
    "arbiter_trax", "Arbiter Trax", _Spec("arbiter_trax", "Arbiter Trax", lambda p: Trax("8x8"), {}, _perfect, 1.0, 64)
)
TripleTriadGame = _register(
    "arbiter_triple_triad",
    "Arbiter Triple Triad",
    _Spec(
        "arbiter_triple_triad",
        "Arbiter Triple Triad",
        _triple_triad,
        {"preset": DEFAULT_PRESET, "seed": 0},
        _hands_seen,
        1.0,
        9,
    ),
)
# Nantong: every action but a pass moves cards of the 120 for good (a discard at most once per
# card, a claim per discard, a kong or declaration three or more), with at most four answers per
# discard (each other seat asked to win, then to pong or kong) and two per added kong, Ready or
# Finish once a seat: fewer than 1,000 actions (the longest of 3,000 random deals had 89 before
# every seat was asked, which at most quadruples the answers). Totals saturate at 2^32 - 1 points, so a seat's
# settlement stays within twice that.
NantongGame = _register(
    "arbiter_nantong",
    "Arbiter Nantong",
    _Spec(
        "arbiter_nantong",
        "Arbiter Nantong",
        lambda p: Nantong(p["seed"]),
        {"seed": 0},
        _imperfect,
        2.0 * (2**32 - 1),
        1000,
    ),
)
