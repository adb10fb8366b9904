"""Past one machine: perft and self-play as Ray tasks, with results identical to one process.

Needs the extra ``ray`` (``pip install "arbiter-engine[ray]"``: Ray, pyarrow, tqdm). Connect to
Ray first (``ray.init()`` on one machine, ``ray.init(address="auto")`` on a node of a cluster
started with ``ray start``); a function that finds Ray not started starts it on this machine.

The split itself is in the core (``g.frontier(plies)``, ``g.perft_part(...)``, and on the command
line ``arbiter perft ... --split K --part I/N``): any scheduler can use it; this module is Ray's.
"""

import json
import os
import time
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import ray
from tqdm.auto import tqdm

from . import Nantong, Trax, TripleTriad, episode_seed
from ._core import arena_games, arena_report
from ._defaults import DEFAULT_PRESET, DEFAULT_VARIANT

__all__ = ["perft", "arena", "selfplay", "read_episodes", "MIN_TASK_SECONDS", "PARTS_PER_CPU"]

Game = Union[Trax, TripleTriad, Nantong]

#: A task shorter than this costs more in Ray's round trip and scheduling (about 2 ms, and a
#: worker's start) than it saves: parts are made at least this long where the work allows.
MIN_TASK_SECONDS = 0.1
#: Parts per CPU of the cluster, so that CPUs that finish their share early take more and all
#: finish together (subtrees differ much in size).
PARTS_PER_CPU = 32


def _connect() -> int:
    """The CPUs of the Ray cluster this driver is connected to (starting Ray here if not)."""
    if not ray.is_initialized():
        ray.init()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _position(root: Game, line: str) -> Game:
    """The frontier position of `line` (moves separated by a comma: a Nantong move is two words)."""
    g = root.clone()
    for mv in line.split(", ") if line else []:
        g.play(mv)
    return g


def _count_lines(root: Game, below: int, lines: List[Tuple[str, int]]) -> int:
    """The perft at `below` plies of each frontier position, times its multiplicity, summed."""
    return sum(count * _position(root, line).perft(below) for line, count in lines)


# Ray refuses PyO3 functions (builtins) as tasks: the task is a plain function around them.
# A task whose worker dies is run again (Ray's retries); counting has no side effect.
_count_task = ray.remote(num_cpus=1, max_retries=5)(_count_lines)


def _choose_split(game: Game, depth: int, cpus: int) -> int:
    """The fewest plies whose frontier has enough positions for `PARTS_PER_CPU` parts per CPU
    (four positions a part, so that parts are alike in size), at most the depth."""
    want = 4 * PARTS_PER_CPU * cpus
    for plies in range(1, depth + 1):
        if len(game.frontier(plies)) >= want:
            return plies
    return depth


def _plan_parts(game: Game, depth: int, frontier: List[Tuple[str, int]], split: int, cpus: int) -> int:
    """How many parts: `PARTS_PER_CPU` per CPU, fewer when a part would take less than
    `MIN_TASK_SECONDS` (the work is estimated from a sample of the frontier counted here)."""
    if not frontier:
        return 1
    step = max(1, len(frontier) // 16)
    sample = frontier[::step]
    start = time.perf_counter()
    _count_lines(game, depth - split, sample)
    estimate = (time.perf_counter() - start) * len(frontier) / len(sample)
    by_time = max(1, int(estimate / MIN_TASK_SECONDS))
    return max(1, min(len(frontier), PARTS_PER_CPU * cpus, by_time))


class _Resume:
    """A resume file: a JSON header naming the count, then one line per finished part, each
    written and flushed as its task finishes, so that an interrupted run keeps its parts."""

    def __init__(self, path: Optional[str], header: Dict[str, Any]) -> None:
        self.done: Dict[int, int] = {}
        self.file = None
        if path is None:
            return
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, "rb") as f:
                text = f.read()
            lines = text.split(b"\n")
            if json.loads(lines[0]) != header:
                raise ValueError(f"{path} is the resume file of another count: {lines[0].decode()}")
            good = len(lines[0]) + 1
            for line in lines[1:]:
                try:
                    record = json.loads(line)
                    self.done[int(record["part"])] = int(record["nodes"])
                except (ValueError, KeyError, TypeError):
                    break  # the last line of a run killed while writing it: dropped
                good += len(line) + 1
            self.file = open(path, "r+", encoding="utf-8")
            self.file.truncate(min(good, len(text)))
            self.file.seek(0, os.SEEK_END)
            if not text[: min(good, len(text))].endswith(b"\n"):
                self.file.write("\n")
        else:
            self.file = open(path, "w", encoding="utf-8")
            self.file.write(json.dumps(header) + "\n")
            self.file.flush()

    def record(self, part: int, nodes: int) -> None:
        self.done[part] = nodes
        if self.file is not None:
            self.file.write(json.dumps({"part": part, "nodes": nodes}) + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def perft(
    game: Game,
    depth: int,
    split: Optional[int] = None,
    *,
    parts: Optional[int] = None,
    resume: Optional[str] = None,
    progress: bool = True,
) -> int:
    """``game.perft(depth)``, counted as Ray tasks over the cluster and summed: exactly the
    single-process count.

    The tree is split after `split` plies (by default the fewest plies giving enough positions)
    into `parts` parts (by default 32 per CPU of the cluster, fewer if a part would take under
    0.1 s); each part is a task counting its frontier positions. `resume` names a file that keeps
    each finished part: a run interrupted and started again with the same arguments counts only
    the parts still missing. A progress bar (tqdm) counts the parts unless `progress` is false.
    """
    if not isinstance(game, (Trax, TripleTriad, Nantong)):
        raise TypeError(f"game must be an arbiter Trax, TripleTriad or Nantong, got {type(game).__name__}")
    cpus = _connect()
    if split is None:
        split = _choose_split(game, depth, cpus)
    if not 0 <= split <= depth:
        raise ValueError(f"split {split}: at most the depth ({depth}) and not negative")
    frontier = game.frontier(split)
    if parts is None:
        parts = _plan_parts(game, depth, frontier, split, cpus)
    if parts < 1:
        raise ValueError(f"parts {parts}: at least 1")
    header = {"game": type(game).__name__, "state": game.to_json(), "depth": depth, "split": split, "parts": parts}
    book = _Resume(resume, header)
    try:
        root = ray.put(game)
        pending = {
            _count_task.remote(root, depth - split, frontier[part::parts]): part
            for part in range(parts)
            if part not in book.done
        }
        with tqdm(total=parts, initial=len(book.done), unit="part", disable=not progress) as bar:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    book.record(pending.pop(ref), ray.get(ref))
                    bar.update(1)
    finally:
        book.close()
    return sum(book.done.values())


def _arena_games(game: str, players: List[str], seed: int, max_turns: int, start: int, stop: int, options: Dict[str, Any]) -> Any:
    return arena_games(game, players, seed, max_turns, start, stop, **options)


_arena_task = ray.remote(num_cpus=1, max_retries=5)(_arena_games)


def arena(
    game: str,
    players: Sequence[str],
    games: int = 100,
    seed: int = 1,
    *,
    max_turns: int = 1000,
    chunk: Optional[int] = None,
    progress: bool = True,
    **options: Any,
) -> Dict[str, Any]:
    """``arbiter arena GAME --players ... --games GAMES --seed SEED --json`` as Ray tasks: the same
    games, seats and seeds (each deal played again from every seat, `games` rounded up to whole
    deals), and the same report (wins, draws, losses, intervals; Nantong's points per deal)
    whatever the number of workers; only the thinking times are the machines' own. Options as
    the command's: ``variant`` (Trax), ``preset``, ``rules`` (a list of names), ``open``,
    ``cards`` (``"ff8"`` or ``"ffxiv"``: the random hands' cards, as ``--cards``) (Triple Triad). Tasks play `chunk` games each (by default about 32 tasks per CPU)."""
    players = list(players)
    seats = 3 if game == "nantong" else 2
    if not 1 <= games <= 1_000_000:
        raise ValueError(f"games {games}: from 1 to 1,000,000")
    total = -(-games // seats) * seats
    # Checks the players and options at once, before any task starts.
    arena_report(game, players, seed, max_turns, [], **options)
    cpus = _connect()
    chunk = chunk or max(1, -(-total // (PARTS_PER_CPU * cpus)))
    starts = list(range(0, total, chunk))
    refs = [_arena_task.remote(game, players, seed, max_turns, s, min(s + chunk, total), options) for s in starts]
    with tqdm(total=total, unit="game", disable=not progress) as bar:
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            bar.update(len(ray.get(ready[0])))
    played = [p for ref in refs for p in ray.get(ref)]
    return arena_report(game, players, seed, max_turns, played, **options)


def _make(game: str, options: Dict[str, Any]) -> Callable[[int], Game]:
    """The deal of an episode from its seed, as `arbiter`'s batches deal it."""
    if game == "trax":
        variant = options.get("variant", DEFAULT_VARIANT)
        return lambda seed: Trax(variant)
    if game == "triple-triad":
        preset = options.get("preset", DEFAULT_PRESET)
        return lambda seed: TripleTriad.from_preset(preset, seed)
    if game == "nantong":
        return lambda seed: Nantong(seed)
    raise ValueError(f"unknown game {game!r} (expected trax, triple-triad or nantong)")


_INDEX = {"triple-triad": 0, "trax": 1, "nantong": 2}


def _move_seed(seed: int, game: str, episode: int, ply: int) -> int:
    """The seed of the built-in player's choice at `ply` of `episode`: from the run's seed alone,
    so that an episode plays the same whichever task plays it."""
    return episode_seed(episode_seed(seed, _INDEX[game], episode), 1 << 20, ply)


def _play_episodes(
    game: str, options: Dict[str, Any], players: Sequence[str], seed: int, episodes: Sequence[int], path: str
) -> int:
    """Plays `episodes` and writes their steps into the Parquet file `path`; the steps written."""
    make = _make(game, options)
    columns: Dict[str, List[Any]] = {
        k: [] for k in ("episode", "step", "player", "observation", "action", "mask", "legal", "rewards", "done")
    }
    for e in episodes:
        g = make(episode_seed(seed, _INDEX[game], e))
        seats = list(type(g).players)
        if len(players) != len(seats):
            raise ValueError(f"{game} is played by {len(seats)} players, not {len(players)}")
        step = 0
        while not g.is_over:
            mover = seats.index(g.to_move)
            action = g.action_id(g.choose_move(players[mover], _move_seed(seed, game, e, step)))
            columns["episode"].append(e)
            columns["step"].append(step)
            columns["player"].append(mover)
            columns["observation"].append(g.observation_tensor(g.to_move))
            columns["mask"].append(g.legal_action_mask() if g.num_actions <= 1 << 16 else None)
            columns["legal"].append(g.legal_actions().astype(np.int32))
            columns["action"].append(action)
            g.play(action)
            columns["rewards"].append(g.returns())
            columns["done"].append(g.is_over)
            step += 1
    width = len(columns["observation"][0]) if columns["observation"] else 0
    flat = np.concatenate(columns["observation"]) if width else np.zeros(0, np.float32)
    table = pa.table(
        {
            "episode": pa.array(columns["episode"], pa.int64()),
            "step": pa.array(columns["step"], pa.int32()),
            "player": pa.array(columns["player"], pa.int8()),
            "observation": pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.float32()), max(width, 1))
            if width
            else pa.array([], pa.list_(pa.float32())),
            "action": pa.array(columns["action"], pa.int32()),
            "mask": pa.array([None if m is None else m.tolist() for m in columns["mask"]], pa.list_(pa.bool_())),
            "legal": pa.array([x.tolist() for x in columns["legal"]], pa.list_(pa.int32())),
            "rewards": pa.array(columns["rewards"], pa.list_(pa.float64())),
            "done": pa.array(columns["done"], pa.bool_()),
        },
        metadata={"game": game, "options": json.dumps(options), "players": json.dumps(list(players)), "seed": str(seed)},
    )
    pq.write_table(table, path)
    return len(columns["step"])


_episodes_task = ray.remote(num_cpus=1, max_retries=5)(_play_episodes)

#: Episodes per Parquet file (and per task): files and their contents depend on the seed and the
#: number of episodes only, never on the number of workers.
EPISODES_PER_FILE = 64


def selfplay(
    game: str,
    players: Sequence[str],
    episodes: int,
    seed: int,
    path: str,
    *,
    progress: bool = True,
    **options: Any,
) -> List[str]:
    """Plays `episodes` games between built-in levels (`players`, one per seat) as Ray tasks and
    writes every step as Parquet files ``part-00000.parquet``, … into the directory `path`:
    columns ``episode``, ``step``, ``player`` (the seat to move, from 0), ``observation`` (that
    seat's float32 tensor), ``mask`` (the legal action mask, null for unbounded and loop Trax),
    ``legal`` (the legal action ids), ``action`` (the id played), ``rewards`` (each seat's return
    after the step: 0 until the end) and ``done``. Deterministic from `seed`: episode `e` is dealt
    from ``episode_seed(seed, g, e)`` (g: 0 Triple Triad, 1 Trax, 2 Nantong), as in the batches.
    Options: ``variant`` (Trax) and ``preset`` (Triple Triad), by default the core's
    (``arbiter.describe``). Returns the files written."""
    make = _make(game, options)
    seats = len(type(make(0)).players)
    if len(players) != seats:
        raise ValueError(f"{game} is played by {seats} players, not {len(players)}")
    levels = type(make(0)).levels
    for p in players:
        if p not in levels:
            raise ValueError(f"unknown level {p!r} for {game} (expected {', '.join(levels)})")
    if episodes < 1:
        raise ValueError(f"episodes {episodes}: at least 1")
    _connect()
    os.makedirs(path, exist_ok=True)
    chunks = [range(s, min(s + EPISODES_PER_FILE, episodes)) for s in range(0, episodes, EPISODES_PER_FILE)]
    files = [os.path.join(path, f"part-{i:05d}.parquet") for i in range(len(chunks))]
    refs = [
        _episodes_task.remote(game, options, list(players), seed, list(chunk), file) for chunk, file in zip(chunks, files)
    ]
    with tqdm(total=len(refs), unit="file", disable=not progress) as bar:
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            ray.get(ready)
            bar.update(len(ready))
    return files


def read_episodes(path: str) -> Iterator[pa.Table]:
    """The steps of each episode of a self-play directory, one table per episode, in order."""
    table = pq.read_table(path)
    order = np.lexsort((table["step"].to_numpy(), table["episode"].to_numpy()))
    table = table.take(pa.array(order))
    episodes = table["episode"].to_numpy()
    starts = np.flatnonzero(np.r_[True, episodes[1:] != episodes[:-1]])
    ends = np.r_[starts[1:], len(episodes)]
    for s, e in zip(starts, ends):
        yield table.slice(s, e - s)
