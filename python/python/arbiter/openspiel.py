"""OpenSpiel Python games over the three engines (the optional extra ``arbiter-engine[openspiel]``).

Importing this module registers ``arbiter_trax`` (8x8), ``arbiter_triple_triad`` and
``arbiter_nantong`` with ``pyspiel.register_game``, so that

>>> import pyspiel, arbiter.openspiel
>>> game = pyspiel.load_game("arbiter_triple_triad", {"preset": "ffforever"})

gives games that OpenSpiel's Python algorithms and its C++ algorithms that only walk the tree take.

- Action ids are the engines' (``game.num_actions`` of them); ``legal_actions()`` is ascending,
  which the core guarantees. Rewards are terminal: ``returns()`` (1 / -1 / 0; Nantong: each seat's
  net settlement in points, which sum to 0).
- The deal is chance (``EXPLICIT_STOCHASTIC``): the first states are chance nodes whose outcomes
  and probabilities (``chance_outcomes()``) draw the deal as the core does (``arbiter._deals``
  says how for each game), and the core starts the game from the explicit deal drawn. So
  ``rl_environment.Environment`` deals anew every episode and MCCFR samples deals. The parameter
  ``seed`` (0 or more) makes the game deterministic instead: the core's deal of that seed, always.
  Under the ``ffxiv`` preset each hand is a FFXIV deck, uniform among those the deck rule allows,
  each card two chance nodes (its rarity, then the card of that rarity: 444 cards are more
  outcomes than one node of a deal holds).
- Smaller Triple Triad rounds, for CFR: ``hand`` (cards a hand, 1 to 5; the board starts with the
  other cells filled), ``pool`` (hands drawn from the first ``pool`` FF8 cards),
  ``elemental`` (False: no Elemental rule, so no elements to draw) and ``first`` (``blue`` or
  ``red``: no coin for the first player).
- Smaller Nantong deals (``rules/nantong-small.md``, ours, not the source's): ``groups`` (a winning
  hand is ``groups`` groups and a pair, 0 to 7; hands of ``3 * groups + 1`` cards) and ``kinds``
  (the deck holds four of each of the first ``kinds`` kinds); ``dealer`` (0, 1 or 2) fixes the
  dealer instead of drawing it. ``{"groups": 0, "kinds": 2, "dealer": 0}`` is small enough for
  ``cfr`` and exact best responses (70 deals of 8 cards, about 6,400 decision nodes),
  ``{"groups": 1, "kinds": 5}`` for MCCFR and ISMCTS.
- Trax is a perfect-information game, and so is Triple Triad under a preset with open hands
  (``ff8``, ``ttonline``, ``ffforever``: ``alpha_beta_search`` takes them under a ``seed``); under
  closed hands (``mush``) it is an imperfect-information game, as Nantong (hidden hands and stock) is.
- ``resample_from_infostate(player, sampler)`` (for ``ISMCTSBot``): a state that ``player`` cannot
  tell from this one. Triple Triad redraws the opponent's unplayed cards uniformly among the hands
  consistent with what was played and the level limit (FFXIV: the deck rule). Nantong walks from the real deck by
  swapping two cards that ``player`` never saw, keeping a swap when a replay shows ``player`` the
  same observations (a random walk among the consistent deals, not an exact uniform draw).
- Observations: the observation tensor is the engine's ``observation_tensor(player)``, built only
  from what that player may see (zeros at the chance nodes of the deal). The information-state
  tensor is that same tensor (the current view, not a history); the information-state string has
  perfect recall: the player's observations from the start, one line each (during the deal, what
  they have seen of it).
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

from ._core import ArbiterError, Nantong, Trax, TripleTriad, TripleTriadMatch
from ._deals import FF8_CARDS, Deal, FfxivDeal, NantongDeal, TripleTriadDeal
from ._defaults import DEFAULT_PRESET
from ._text import describe

Game = Any
Dealer = Any  # TripleTriadDeal or NantongDeal, or None: a game that is not dealt
_Type = pyspiel.GameType


class _Spec:
    """What OpenSpiel needs to know of one engine, and how to start it from the parameters: a
    fixed game (`make`), or a deal drawn as chance (`dealer`) unless the parameters name a seed."""

    def __init__(
        self,
        name: str,
        long_name: str,
        make: Callable[[Dict[str, Any]], Game],
        params: Dict[str, Any],
        information: Callable[[Game], Any],
        max_utility: float,
        max_game_length: int,
        dealer: Optional[Callable[[Dict[str, Any]], Optional[Dealer]]] = None,
    ):
        self.make = make
        self.dealer = dealer or (lambda p: None)
        self.information = information
        self.params = params
        sample = make(dict(params, seed=0) if "seed" in params else dict(params))
        self.players = len(type(sample).players)
        self._type = dict(
            short_name=name,
            long_name=long_name,
            dynamics=_Type.Dynamics.SEQUENTIAL,
            utility=_Type.Utility.ZERO_SUM,
            reward_model=_Type.RewardModel.TERMINAL,
            max_num_players=self.players,
            min_num_players=self.players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params,
        )
        self.type = self.type_of(sample, self.dealer(dict(params)))
        self.num_actions = sample.num_actions
        self.max_utility = max_utility
        self.max_game_length = max_game_length
        self.tensor_len = sample.tensor_len

    def type_of(self, start: Game, dealer: Optional[Dealer]) -> Any:
        """The game type of the game that starts at `start` (or is dealt by `dealer`): who sees
        what depends on the rules (a Triple Triad preset with open hands is a game of perfect
        information)."""
        chance = _Type.ChanceMode.EXPLICIT_STOCHASTIC if dealer else _Type.ChanceMode.DETERMINISTIC
        return _Type(information=self.information(start), chance_mode=chance, **self._type)

    def info(self, dealer: Optional[Dealer]) -> Any:
        return pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=dealer.max_outcomes if dealer else 0,
            num_players=self.players,
            min_utility=-self.max_utility,
            max_utility=self.max_utility,
            utility_sum=0.0,
            max_game_length=self.max_game_length,
        )


class ArbiterGame(pyspiel.Game):  # type: ignore[misc]
    """An OpenSpiel game over one engine; a class per engine below fixes the spec."""

    spec: _Spec

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        given = dict(self.spec.params)
        given.update(params or {})
        # Made first: a bad preset or variant is an error of load_game, not of the first state.
        seeded = given.get("seed", 0) >= 0
        self.dealer: Optional[Dealer] = None if seeded else self.spec.dealer(given)
        start = self.spec.make(given) if self.dealer is None else self.dealer.start(_any_deal(self.dealer))
        super().__init__(self.spec.type_of(start, self.dealer), self.spec.info(self.dealer), params or {})
        self._params = self.get_parameters()
        self._start = None if self.dealer else start

    def new_initial_state(self) -> "ArbiterState":
        return ArbiterState(self, None if self._start is None else self._start.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.spec.tensor_len, recall)


def _any_deal(dealer: Dealer) -> Deal:
    """A whole deal, the likeliest outcome at every draw: enough to check the variant starts."""
    deal: Deal = b""
    while len(deal) < dealer.steps:
        deal += bytes((max(dealer.outcomes(deal), key=lambda o: o[1])[0],))
    return deal


class ArbiterState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's game object, stepped by OpenSpiel's action ids, after the chance
    nodes of the deal (`drawn`, the outcomes so far; no engine until the deal is whole)."""

    def __init__(self, game: ArbiterGame, engine: Optional[Game]):
        super().__init__(game)
        # None until the deal is whole (Game and Dealer are Any: the engines' and deals' classes).
        self.engine: Game = engine
        self._dealer: Dealer = game.dealer
        self.drawn: Deal = b""
        self._players = game.spec.players
        # Every seat's observations so far, kept from the first information-state string on:
        # before that, stepping pays nothing for it.
        self._seen: Optional[_Seen] = None

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return list(type(self.engine).players).index(self.engine.to_move)

    def chance_outcomes(self) -> List[Any]:
        return self._dealer.outcomes(self.drawn)

    def _legal_actions(self, player: int) -> List[int]:
        return [int(a) for a in self.engine.legal_actions()]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.drawn += bytes((action,))
            if len(self.drawn) == self._dealer.steps:
                self.engine = self._dealer.start(self.drawn)
        else:
            self.engine.play(action)
        if self._seen is not None:
            self._seen = _Seen(self._seen, self._view(), self._players)

    def _view(self) -> Callable[[int], str]:
        """Each seat's observation string of this step, worked out when asked."""
        if self.engine is None:
            dealer, drawn = self._dealer, self.drawn
            return lambda p: str(dealer.view(drawn, p))
        engine = self.engine.clone()
        return lambda p: _observation_string(engine, p)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self._dealer.outcome_text(self.drawn, action))
        return str(self.engine.action_text(action))

    def is_terminal(self) -> bool:
        return self.engine is not None and bool(self.engine.is_over)

    def returns(self) -> List[float]:
        if self.engine is None:
            return [0.0] * self._players
        return [float(r) for r in self.engine.returns()]

    def __str__(self) -> str:
        if self.engine is None:
            return self._dealer.view(self.drawn, 0) if self._dealer.open else f"dealing, {len(self.drawn)} drawn"
        return describe(self.engine)

    def observations(self, player: int) -> List[str]:
        """``player``'s observations from the start to now, one a step."""
        if self._seen is None:
            # Replayed once from the start; every later step adds its own line.
            replay = self.get_game().new_initial_state()
            replay._seen = _Seen(None, replay._view(), self._players)
            for action in self.history():
                replay._apply_action(action)
            self._seen = replay._seen
        return self._seen.lines(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "ArbiterState":
        """A state that ``player_id`` cannot tell from this one, the hidden cards drawn again
        with ``probability_sampler`` (a callable giving uniform numbers in [0, 1))."""
        if self._dealer is None:
            return self.clone()
        actions = self.history()[len(self.drawn) :]
        if isinstance(self._dealer, TripleTriadDeal):
            deal = self._dealer.resample(self.drawn, actions, player_id, probability_sampler)
            return self._replayed(deal, actions)
        return self._walked(player_id, actions, probability_sampler)

    def _replayed(self, deal: Deal, actions: List[int]) -> "ArbiterState":
        state = self.get_game().new_initial_state()
        for action in (*deal, *actions):
            state.apply_action(action)
        return state

    def _walked(self, player: int, actions: List[int], uniform: Callable[[], float], swaps: int = 32) -> "ArbiterState":
        """Nantong: swaps of two cards ``player`` has not seen, each kept when the deal it makes
        replays into the same observations for ``player`` and the same player to move."""
        lines = self.observations(player)
        hidden = self._dealer.hidden(self.drawn, player)
        deal, found = list(self.drawn), self.clone()
        for _ in range(swaps if len(hidden) > 1 else 0):
            i, j = (1 + hidden[int(uniform() * len(hidden))] for _ in range(2))
            if deal[i] == deal[j]:
                continue
            deal[i], deal[j] = deal[j], deal[i]
            state = self._matching(bytes(deal), actions, player, lines)
            if state is None:
                deal[i], deal[j] = deal[j], deal[i]
            else:
                found = state
        return found

    def _matching(self, deal: Deal, actions: List[int], player: int, lines: List[str]) -> Optional["ArbiterState"]:
        """The state of `deal` and `actions` when it shows `player` every line of `lines`."""
        state = self.get_game().new_initial_state()
        state._seen = _Seen(None, state._view(), self._players)
        for step, action in enumerate((*deal, *actions)):
            try:
                state.apply_action(action)
            except (ArbiterError, pyspiel.SpielError):  # an action the other deal does not allow
                return None
            if state._seen.now(player) != lines[step + 1]:
                return None
        return state if state.current_player() == self.current_player() else None


def _observation_string(g: Game, player: int) -> str:
    return json.dumps(g.observation(player), sort_keys=True, separators=(",", ":"))


class _Seen:
    """One step's observation strings, linked to the step before, each seat's worked out the
    first time it is asked (CFR asks only the mover's). Never changed once made but for that
    cache, so a state's clones share the chain instead of copying it: an information-state string
    costs one step's observation, not a replay of the whole history."""

    __slots__ = ("before", "view", "seats", "cache")

    def __init__(self, before: Optional["_Seen"], view: Callable[[int], str], seats: int):
        self.before = before
        self.view = view
        self.seats = seats
        self.cache: Dict[int, str] = {}

    def now(self, player: int) -> str:
        line = self.cache.get(player)
        if line is None:
            line = self.cache[player] = self.view(player)
        return line

    def __deepcopy__(self, memo: Any) -> "_Seen":
        return self

    def __reduce__(self) -> Any:
        # Flat, every seat's lines worked out: pickle would otherwise recurse once a step, past
        # Python's limit in a long deal, and cannot take the views.
        return (_Seen._chain, ([[step.now(p) for p in range(self.seats)] for step in self._steps()],))

    @staticmethod
    def _chain(steps: List[List[str]]) -> "_Seen":
        seen: Optional[_Seen] = None
        for now in steps:
            seen = _Seen(seen, now.__getitem__, len(now))
        assert seen is not None
        return seen

    def _steps(self) -> List["_Seen"]:
        out: List[_Seen] = []
        step: Optional[_Seen] = self
        while step is not None:
            out.append(step)
            step = step.before
        out.reverse()
        return out

    def lines(self, player: int) -> List[str]:
        return [step.now(player) for step in self._steps()]


class Observer:
    """OpenSpiel's PyObserver: the observation tensor, and the view (with recall) as text."""

    def __init__(self, tensor_len: int, perfect_recall: bool):
        self.tensor = np.zeros(tensor_len, np.float32)
        self.dict = {"observation": self.tensor}
        self._recall = perfect_recall

    def set_from(self, state: ArbiterState, player: int) -> None:
        if state.engine is None:
            self.tensor[:] = 0
        else:
            self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: ArbiterState, player: int) -> str:
        if self._recall:
            return "\n".join(state.observations(player))
        if state.engine is None:
            return str(state._dealer.view(state.drawn, player))
        return _observation_string(state.engine, player)


_FF8_CARDS = len(FF8_CARDS)


def _triple_triad(params: Dict[str, Any]) -> TripleTriad:
    if (params["hand"], params["pool"], params["elemental"], params["first"]) != (5, _FF8_CARDS, True, ""):
        raise ValueError("hand, pool, elemental and first make a dealt variant: they take no seed")
    return TripleTriad.from_preset(params["preset"], params["seed"])


def _triple_triad_deal(params: Dict[str, Any]) -> TripleTriadDeal:
    config = TripleTriadMatch.from_preset(params["preset"], 0).to_json()["config"]
    if config.get("cards", "ff8") == "ffxiv":
        # Smaller rounds are made of FF8 cards (the first `pool` of them, Geezards on the board).
        if (params["hand"], params["pool"]) != (5, _FF8_CARDS):
            raise ValueError(f"preset {params['preset']}: hand and pool make smaller FF8 rounds, not FFXIV decks")
        return FfxivDeal(params["preset"], params["first"])
    return TripleTriadDeal(params["preset"], params["hand"], params["pool"], params["elemental"], params["first"])


def _nantong(params: Dict[str, Any]) -> Nantong:
    if params["dealer"] != -1:
        raise ValueError("dealer fixes the dealer of a dealt deal: a seed draws its own")
    return Nantong(params["seed"], groups=params["groups"], kinds=params["kinds"])


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
        {"preset": DEFAULT_PRESET, "seed": -1, "hand": 5, "pool": _FF8_CARDS, "elemental": True, "first": ""},
        _hands_seen,
        1.0,
        9,
        _triple_triad_deal,
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
        _nantong,
        {"seed": -1, "groups": 7, "kinds": 30, "dealer": -1},
        _imperfect,
        2.0 * (2**32 - 1),
        1000,
        lambda p: NantongDeal(p["groups"], p["kinds"], p["dealer"]),
    ),
)
