"""Arbiter: rules engines for Triple Triad, Trax and Nantong long cards.

The games, their errors and the batched steppers come from the native module ``arbiter._core``
(Rust, through PyO3): the rules live in the Rust core and this package only translates.

>>> import arbiter
>>> g = arbiter.Trax("8x8")
>>> g.play("@0/")
>>> g.to_move
'red'
"""

from ._core import (
    ArbiterError,
    BadArgumentError,
    GameOverError,
    IllegalMoveError,
    LimitExceededError,
    Nantong,
    NantongBatch,
    ParseError,
    Trax,
    TraxBatch,
    TripleTriad,
    TripleTriadBatch,
    TripleTriadMatch,
    describe,
    episode_seed,
    opponent_seed,
)
from . import ffxiv

__all__ = [
    "ArbiterError",
    "BadArgumentError",
    "GameOverError",
    "IllegalMoveError",
    "LimitExceededError",
    "Nantong",
    "NantongBatch",
    "ParseError",
    "Trax",
    "TraxBatch",
    "TripleTriad",
    "TripleTriadBatch",
    "TripleTriadMatch",
    "describe",
    "episode_seed",
    "ffxiv",
    "opponent_seed",
]
