"""The games as text, for the adapters' ``render_mode="ansi"`` and ``"human"``."""

from typing import Any, Optional

from ._core import Trax, TripleTriad


def describe(g: Any, seat: Optional[int] = None) -> str:
    """The game as text: who moves, the result, and the state in the game's own terms. Nantong's
    hidden hands show only ``seat``'s (by default the seat to move)."""
    lines = []
    if isinstance(g, TripleTriad):
        board = g.to_json()["board"]
        for row in range(3):
            cells = board[row * 3 : row * 3 + 3]
            lines.append(" | ".join(f"{c['card']['name'][:10]:<10} {c['owner'][0]}" if c else " " * 12 for c in cells))
        lines.append(f"blue {g.score('blue')}  red {g.score('red')}")
    elif isinstance(g, Trax):
        cols, rows = g.size
        for r in range(1, rows + 1):
            lines.append("".join((g.tile_at(c, r) or {"shape": "."})["shape"] for c in range(1, cols + 1)))
        lines.append(f"{g.tiles} tiles")
    else:
        if seat is None:
            seat = g.to_move if g.to_move is not None else 0
        obs = g.observation(seat)
        lines.append(f"seat {seat}: {' '.join(map(str, obs.get('hand', [])))}")
    state = f"to move: {g.to_move}" if not g.is_over else f"over: {g.outcome}"
    lines.append(state)
    return "\n".join(lines)
