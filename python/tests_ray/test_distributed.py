"""arbiter.distributed on a real local Ray cluster: perft sums exactly on every game (also when a
worker is killed), resume files keep finished parts, self-play Parquet replays through the
engine, and arenas are the single-process ones, every verb on every game."""

import json
import os
import signal
import threading
import time

import numpy as np
import pyarrow.parquet as pq
import pytest

import arbiter
from arbiter import distributed


def test_trax_perft_6_through_ray():
    assert distributed.perft(arbiter.Trax("unbounded"), 6, progress=False) == 7_209_480


def test_triple_triad_perft_from_a_mid_game_state():
    g = arbiter.TripleTriad.from_preset("ff8", 5)
    g.play(g.legal_moves()[3])
    g.play(g.legal_moves()[-1])
    want = g.perft(6)
    assert distributed.perft(g, 6, split=2, progress=False) == want
    assert distributed.perft(g, 6, split=1, parts=5, progress=False) == want


def test_nantong_perft_splits_past_a_discard():
    # Its frontier lines hold two-word actions (`discard 2m`), which a split on spaces broke.
    g = arbiter.Nantong(3)
    want = g.perft(17)
    assert any(" " in mv for line, _ in g.frontier(4) for mv in line.split(", "))
    assert distributed.perft(g, 17, split=4, parts=5, progress=False) == want
    assert distributed.perft(g, 17, progress=False) == want


def test_a_resume_file_keeps_finished_parts(tmp_path):
    g = arbiter.Trax("8x8")
    path = str(tmp_path / "perft.resume")
    want = g.perft(5)
    assert distributed.perft(g, 5, split=2, parts=8, resume=path, progress=False) == want
    lines = open(path).read().splitlines()
    assert len(lines) == 9
    # Interrupted after three parts, with a torn last line: the run counts only what is missing.
    with open(path, "w") as f:
        f.write("\n".join(lines[:4]) + "\n" + '{"part": 7, "no')
    kept = {json.loads(line)["part"] for line in lines[1:4]}
    assert distributed.perft(g, 5, split=2, parts=8, resume=path, progress=False) == want
    assert {json.loads(line)["part"] for line in open(path).read().splitlines()[1:] if line.endswith("}")} >= kept
    # A resume file of another count is refused.
    with pytest.raises(ValueError, match="another count"):
        distributed.perft(g, 4, split=2, parts=8, resume=path, progress=False)


def _workers_counting():
    """PIDs of this machine's Ray workers now counting a part (Ray names the process after the task)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if cmd.startswith(b"ray::_count_lines"):
            pids.append(int(pid))
    return pids


def test_a_worker_killed_mid_perft_is_retried_and_the_sum_is_exact():
    g = arbiter.Trax("unbounded")
    result = {}
    run = threading.Thread(target=lambda: result.setdefault("n", distributed.perft(g, 7, split=3, parts=12, progress=False)))
    run.start()
    killed = None
    deadline = time.time() + 60
    while killed is None and time.time() < deadline and run.is_alive():
        pids = _workers_counting()
        if pids:
            killed = pids[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.05)
    run.join()
    assert killed is not None, "no worker was seen counting"
    assert result["n"] == g.perft(7)


def _replay(table, game, options):
    """Replays one episode's steps through a fresh game and checks every action and reward."""
    meta = table.schema.metadata
    seed = int(meta[b"seed"])
    e = table["episode"][0].as_py()
    index = {"triple-triad": 0, "trax": 1, "nantong": 2}[game]
    deal = arbiter.episode_seed(seed, index, e)
    g = {
        "trax": lambda: arbiter.Trax(options.get("variant", "8x8")),
        "triple-triad": lambda: arbiter.TripleTriad.from_preset(options.get("preset", "ff8"), deal),
        "nantong": lambda: arbiter.Nantong(deal),
    }[game]()
    seats = list(type(g).players)
    rows = table.to_pylist()
    assert [r["step"] for r in rows] == list(range(len(rows)))
    for r in rows:
        assert not g.is_over
        assert r["player"] == seats.index(g.to_move)
        np.testing.assert_array_equal(np.array(r["observation"], np.float32), g.observation_tensor(g.to_move))
        legal = g.legal_actions()
        assert r["action"] in legal
        assert r["legal"] == legal.tolist()
        if r["mask"] is not None:
            assert r["mask"] == g.legal_action_mask().tolist()
        g.play(r["action"])
        assert r["rewards"] == g.returns()
        assert r["done"] == g.is_over
    assert g.is_over


@pytest.mark.parametrize(
    "game,players,options",
    [
        ("trax", ["random", "easy"], {}),
        ("triple-triad", ["greedy", "random"], {"preset": "ff8"}),
        ("nantong", ["basic", "random", "basic"], {}),
    ],
)
def test_selfplay_parquet_replays_through_the_engine(tmp_path, game, players, options):
    episodes = 70  # two files: 64 and 6 episodes
    files = distributed.selfplay(game, players, episodes, 11, str(tmp_path / "a"), progress=False, **options)
    assert len(files) == 2
    seen = 0
    for table in distributed.read_episodes(str(tmp_path / "a")):
        _replay(table, game, options)
        seen += 1
    assert seen == episodes
    # The same seed writes the same data again.
    again = distributed.selfplay(game, players, episodes, 11, str(tmp_path / "b"), progress=False, **options)
    for f, g in zip(files, again):
        assert pq.read_table(f).equals(pq.read_table(g))


def test_selfplay_refuses_bad_players():
    with pytest.raises(ValueError, match="played by 2 players"):
        distributed.selfplay("trax", ["random"], 1, 1, "/nonexistent", progress=False)
    with pytest.raises(ValueError, match="unknown level"):
        distributed.selfplay("trax", ["random", "grandmaster"], 1, 1, "/nonexistent", progress=False)


def _without_times(report):
    """The report with the thinking times, the machines' own, left out."""
    for p in report["players"]:
        del p["thinking"]["mean_ms"], p["thinking"]["max_ms"]
    return report


@pytest.mark.parametrize(
    "game,players,args,options",
    [
        ("triple-triad", ["random", "greedy"], [], {}),
        ("trax", ["random", "easy"], ["--variant", "8x8"], {"variant": "8x8"}),
        ("nantong", ["basic", "random", "strong"], [], {}),
    ],
)
def test_an_arena_of_200_games_is_the_single_process_one(game, players, args, options):
    binary = os.environ.get("ARBITER_BIN")
    if binary is None:
        pytest.fail("ARBITER_BIN must name the arbiter binary (python/test.sh builds it)")
    import subprocess

    out = subprocess.run(
        [binary, "arena", game, "--players", ",".join(players), "--games", "200", "--seed", "7", "--json", *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    want = json.loads(out)
    got = distributed.arena(game, players, 200, 7, progress=False, chunk=23, **options)
    assert _without_times(got) == _without_times(want)
    assert got["games"] == (201 if game == "nantong" else 200)


def test_an_arena_refuses_bad_players_and_options():
    with pytest.raises(arbiter.BadArgumentError, match="played by 2 players"):
        distributed.arena("trax", ["random"], 10, 1, progress=False)
    with pytest.raises(arbiter.BadArgumentError, match="takes no preset"):
        distributed.arena("trax", ["random", "easy"], 10, 1, progress=False, preset="ff8")


def test_the_readme_ray_example_runs():
    import pathlib
    import re

    readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
    blocks = re.findall(r"^```py\n(.*?)^```$", readme.read_text(), re.S | re.M)
    assert blocks
    for code in blocks:
        # The tests' cluster is already up: the example's own ray.init() would refuse a second one.
        code = code.replace("ray.init()", "ray.is_initialized() or ray.init()")
        exec(compile(code, "<python/README.md>", "exec"), {"__name__": "__readme__"})
