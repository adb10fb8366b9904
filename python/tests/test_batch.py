"""Batched stepping: arrays, determinism over threads, agreement with single games, bad input."""

import os
import pickle
import select
import warnings

import numpy as np
import pytest

import arbiter
from arbiter import Nantong, NantongBatch, Trax, TraxBatch, TripleTriad, TripleTriadBatch

BATCHES = [
    pytest.param(lambda **kw: TripleTriadBatch(7, "ff8", **kw), id="triple-triad"),
    pytest.param(lambda **kw: TraxBatch(7, "8x8", **kw), id="trax"),
    pytest.param(lambda **kw: NantongBatch(7, **kw), id="nantong"),
]


@pytest.fixture
def workers_always(monkeypatch):
    """Batches made in the test hand every call to their workers: a busy machine would otherwise
    have them step alone, and the threads' paths would go untried."""
    monkeypatch.setenv("ARBITER_BATCH_WORKERS", "always")


def random_actions(masks, rng):
    """A random legal action per game, from the masks alone."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def run(batch, steps, seed=0):
    """Steps a batch with random legal actions; a copy of every array after every step."""
    rng = np.random.default_rng(seed)
    history = []
    arrays = batch.arrays
    for _ in range(steps):
        arrays = batch.step(random_actions(arrays[1], rng))
        history.append([None if a is None else a.copy() for a in arrays])
    return history


def fresh_game(batch, i):
    """Game i's current episode started anew as a single game."""
    s = batch.episode_seed(i)
    if isinstance(batch, TripleTriadBatch):
        return TripleTriad.from_preset("ff8", s)
    if isinstance(batch, TraxBatch):
        return Trax("8x8")
    return Nantong(s)


@pytest.mark.parametrize("make", BATCHES)
def test_arrays_have_their_shapes_and_describe_the_games(make):
    b = make(seed=3)
    obs, masks, rewards, to_move, done = b.arrays
    n = len(b)
    assert obs.shape == (n, b.tensor_len) and obs.dtype == np.float32
    assert masks.shape == (n, b.num_actions) and masks.dtype == np.bool_
    assert rewards.shape[0] == n and rewards.dtype == np.float32
    assert to_move.shape == (n,) and to_move.dtype == np.int32
    assert done.shape == (n,) and done.dtype == np.bool_
    for _ in range(40):
        for i in range(n):
            g = b.game(i)
            p = g.to_move
            assert to_move[i] == type(g).players.index(p)
            assert np.array_equal(obs[i], g.observation_tensor(p))
            assert np.array_equal(masks[i], g.legal_action_mask())
            assert b.legal_actions(i).tolist() == g.legal_actions().tolist()
        obs, masks, rewards, to_move, done = b.step(random_actions(masks, np.random.default_rng(1)))
        assert (rewards[~done] == 0).all()


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("make", BATCHES)
def test_the_same_seed_and_actions_give_the_same_arrays_whatever_the_threads(make):
    # Enough steps for a Nantong deal, in which every other seat answers each discard.
    one = run(make(seed=11, threads=1), 500)
    two = run(make(seed=11, threads=2), 500)
    three = run(make(seed=11, threads=3), 500)
    for a, b, c in zip(one, two, three):
        for x, y, z in zip(a, b, c):
            assert np.array_equal(x, y) and np.array_equal(x, z)
    assert any(step[4].any() for step in one), "some game finished and restarted"


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("make", BATCHES)
def test_random_steps_play_legal_actions_alike_whatever_the_threads(make):
    def random_run(batch, steps):
        history = []
        for _ in range(steps):
            before = [batch.game(i) for i in range(len(batch))]
            legal = [batch.legal_actions(i) for i in range(len(batch))]
            arrays = batch.step_random()
            played = batch.last_actions()
            for i, g in enumerate(before):
                assert played[i] in legal[i]
                g.play(int(played[i]))
                if not arrays[4][i]:
                    # The game as it now stands is the one the action was played on.
                    assert g.to_json() == batch.game(i).to_json()
            history.append([played] + [None if a is None else a.copy() for a in arrays])
        return history

    # Enough steps for a Nantong deal to end, as above.
    one = random_run(make(seed=4, threads=1), 500)
    two = random_run(make(seed=4, threads=2), 500)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert any(step[5].any() for step in one), "some game finished and restarted"
    # Another seed, other actions.
    other = random_run(make(seed=5, threads=1), 10)
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(one, other))


@pytest.mark.parametrize("make", BATCHES)
def test_a_batch_plays_exactly_the_single_games(make):
    b = make(seed=5)
    singles = [fresh_game(b, i) for i in range(len(b))]
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(500):
        actions = random_actions(b.arrays[1], rng)
        obs, masks, rewards, to_move, done = b.step(actions)
        for i, g in enumerate(singles):
            g.play(int(actions[i]))
            assert done[i] == g.is_over
            if g.is_over:
                finished += 1
                assert rewards[i].tolist() == g.returns()
                singles[i] = g = fresh_game(b, i)
            assert b.game(i).to_json() == g.to_json()
            assert np.array_equal(obs[i], g.observation_tensor(g.to_move))
    assert finished > 0


def test_episodes_are_seeded_from_the_batch_seed_index_and_episode():
    b = NantongBatch(3, seed=9)
    for i in range(3):
        assert b.episode_seed(i) == arbiter.episode_seed(9, i, 0)
        assert b.game(i).to_json() == Nantong(arbiter.episode_seed(9, i, 0)).to_json()
    b.reset(10)
    assert b.game(2).to_json() == Nantong(arbiter.episode_seed(10, 2, 0)).to_json()
    assert TripleTriadBatch(2, seed=9).game(1).to_json() == TripleTriad.from_preset(
        "ff8", arbiter.episode_seed(9, 1, 0)
    ).to_json()


def test_a_batch_of_smaller_nantong_deals_keeps_its_size_episode_after_episode():
    small = {"groups": 1, "kinds": 5}
    b = NantongBatch(3, seed=9, threads=2, **small)
    for i in range(3):
        assert b.game(i).to_json() == Nantong(arbiter.episode_seed(9, i, 0), **small).to_json()
    # The full game's arrays, a kind outside the deck reading 0 (rules/nantong-small.md).
    assert (b.tensor_len, b.num_actions) == (NantongBatch(1).tensor_len, 157)
    finished = 0
    for _ in range(300):
        obs, masks, rewards, to_move, done = b.step_random()
        finished += int(done.sum())
        for i in range(3):
            # Only the deck's kinds are ever legal.
            words = {w for m in b.game(i).legal_moves() for w in m.split()[1:]}
            assert words <= {"1m", "2m", "3m", "4m", "5m"}, words
    assert finished > 3
    for i in range(3):
        # Every episode dealt afresh from its own seed, small.
        g = b.game(i)
        assert (g.groups, g.kinds) == (1, 5)
        assert Nantong(b.episode_seed(i), **small).to_json()["deck"] == g.to_json()["deck"]
    b.reset(10)
    assert b.game(2).to_json() == Nantong(arbiter.episode_seed(10, 2, 0), **small).to_json()
    # Either size alone keeps the other's full value; the second positional is still the seed.
    assert NantongBatch(2, 9, kinds=30).game(1).to_json() == Nantong(arbiter.episode_seed(9, 1, 0)).to_json()
    assert NantongBatch(2, groups=0, opponent="basic").game(0).kinds == 30


def test_caller_owned_arrays_are_written():
    b = TraxBatch(4, seed=1)
    n, t, a = len(b), b.tensor_len, b.num_actions
    out = (
        np.zeros((n, t), np.float32),
        np.zeros((n, a), np.bool_),
        np.zeros((n, 2), np.float32),
        np.zeros(n, np.int32),
        np.zeros(n, np.bool_),
    )
    returned = b.reset(1, out=out)
    assert all(x is y for x, y in zip(returned, out))
    twin = TraxBatch(4, seed=1)
    for x, y in zip(out, twin.arrays):
        assert np.array_equal(x, y)
    actions = random_actions(out[1], np.random.default_rng(0))
    own = [a.copy() for a in b.arrays]
    b.step(actions, out=out)
    twin.step(actions)
    for x, y in zip(out, twin.arrays):
        assert np.array_equal(x, y)
    # The batch's own arrays were not written.
    for x, y in zip(own, b.arrays):
        assert np.array_equal(x, y)


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_bad_steps_change_nothing(threads):
    # On two threads the third game is the worker's: each thread checks its own games, and none
    # is played unless all are legal.
    b = TripleTriadBatch(3, seed=2, threads=threads)
    before = [a.copy() for a in b.arrays]
    games = [b.game(i).to_json() for i in range(3)]
    legal = [int(b.legal_actions(i)[0]) for i in range(3)]
    occupied = legal[:2] + [99]
    with pytest.raises(arbiter.IllegalMoveError, match="game 2"):
        b.step(occupied)
    with pytest.raises(arbiter.IllegalMoveError, match="game 0: action id 99 "):
        b.step([99, legal[1], 99])
    with pytest.raises(arbiter.IllegalMoveError):
        b.step([-1, legal[1], legal[2]])
    with pytest.raises(arbiter.BadArgumentError):
        b.step(legal[:2])
    with pytest.raises(TypeError):
        b.step("012")
    with pytest.raises(TypeError):
        b.step([0.5, 1, 2])
    with pytest.raises(TypeError):
        b.step(legal, out=(1, 2, 3, 4, 5))
    with pytest.raises(arbiter.BadArgumentError):
        b.step(legal, out=tuple(np.zeros((1,) + a.shape[1:], a.dtype) for a in b.arrays))
    wrong_dtype = list(a.copy() for a in b.arrays)
    wrong_dtype[0] = wrong_dtype[0].astype(np.float64)
    with pytest.raises(TypeError):
        b.step(legal, out=tuple(wrong_dtype))
    for x, y in zip(before, b.arrays):
        assert np.array_equal(x, y)
    assert [b.game(i).to_json() for i in range(3)] == games
    b.step(np.array(legal, dtype=np.int32))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("threads", [2, 3])
def test_the_first_refusal_in_the_games_order_is_reported_whatever_thread_checked_it(threads):
    # On two threads, 128 games are two ranges (the caller's 0-63 in a new batch, the worker's
    # the rest); on three, pieces of 4 to 22 games claimed from both ends: refusals in the
    # workers' pieces and the caller's, the first in the games' order named.
    b = TripleTriadBatch(128, seed=5, threads=threads)
    legal = [int(b.legal_actions(i)[0]) for i in range(128)]
    games = [b.game(i).to_json() for i in (3, 70, 126)]
    for bad, first in [((126, 100, 70), 70), ((127, 3, 64), 3), ((65,), 65)]:
        actions = list(legal)
        for i in bad:
            actions[i] = 99
        with pytest.raises(arbiter.IllegalMoveError, match=f"game {first}: action id 99 "):
            b.step(actions)
    assert [b.game(i).to_json() for i in (3, 70, 126)] == games
    b.step(legal)


def test_a_forked_child_steps_its_batch_on_threads_of_its_own():
    # The batch's workers stay in the parent: the child starts its own rather than wait for them
    # (multiprocessing forks by default on Linux up to Python 3.13).
    b, alone = TraxBatch(8, "8x8", seed=3, threads=2), TraxBatch(8, "8x8", seed=3, threads=1)
    # Never stepped in the child: dropping it there must not wait for the parent's workers.
    idle = NantongBatch(4, threads=2)
    run(b, 5)
    run(alone, 5)
    expected = run(alone, 20)
    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads, from Python 3.12
        pid = os.fork()
    if pid == 0:
        try:
            del idle
            os.write(write, pickle.dumps(run(b, 20)))
        finally:
            os._exit(0)
    os.close(write)
    try:
        data = b""
        while select.select([read], [], [], 60)[0]:
            chunk = os.read(read, 1 << 20)
            if not chunk:
                break
            data += chunk
        else:
            pytest.fail("the forked child's batch did not step within 60 s")
    finally:
        os.close(read)
        if not os.waitpid(pid, os.WNOHANG)[0]:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    got = pickle.loads(data)
    assert len(got) == len(expected)
    for a, b_ in zip(got, expected):
        for x, y in zip(a, b_):
            assert np.array_equal(x, y)
    # And the parent's batches still step on their own workers.
    assert len(run(b, 3)) == 3
    assert len(run(idle, 3)) == 3


def workers_cpu_seconds():
    """The CPU time of this process's batch workers (threads named arbiter-batch-N), from /proc."""
    total = 0
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                if not f.read().startswith("arbiter-batch"):
                    continue
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # a batch's thread that ended meanwhile
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="no /proc here")
def test_two_threads_on_a_loaded_machine_cost_about_the_cpu_of_one():
    # Twice as many processes that spin as there are cores: the batch's worker is put off by the
    # system for milliseconds, long enough for every call it takes part in to lose, and a batch
    # whose workers do not pay steps alone. A crew that spun while it waited for its worker
    # burned 3 to 13 times one thread's CPU a step (issue #37); one that kept its worker at work
    # whatever it cost gave it a tenth to a half of the process's CPU and ran at 0.74x one
    # thread. CPU time, unlike wall time, hardly depends on how the system shares the cores out,
    # so this holds on a busy machine too.
    import subprocess
    import sys
    import time

    spinners = 2 * (os.cpu_count() or 1)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(spinners)]
    try:
        time.sleep(0.3)
        cpu = {1: 0.0, 2: 0.0}
        workers = 0.0
        for _ in range(2):
            for threads in (1, 2):
                b = TraxBatch(128, "8x8", seed=5, threads=threads)
                rng = np.random.default_rng(0)
                masks = b.arrays[1]
                for _ in range(20):
                    b.step(random_actions(masks, rng))
                start, working = time.process_time(), workers_cpu_seconds()
                # Long enough for /proc's clock ticks (10 ms) to count the workers' share.
                for _ in range(1000):
                    b.step(random_actions(masks, rng))
                cpu[threads] += time.process_time() - start
                workers += workers_cpu_seconds() - working
                del b
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert cpu[2] <= 1.5 * cpu[1], cpu
    assert workers <= 0.05 * cpu[2], (workers, cpu)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="no /proc here")
def test_the_workers_switch_puts_them_to_work_on_a_loaded_machine(monkeypatch):
    # The machine made busy as above, where a batch left to itself steps alone: with the switch
    # its worker steps games, and the arrays are still one thread's.
    import subprocess
    import sys

    monkeypatch.setenv("ARBITER_BATCH_WORKERS", "always")
    spinners = 2 * (os.cpu_count() or 1)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(spinners)]
    try:
        two = TripleTriadBatch(128, "ff8", seed=6, threads=2)
        one = TripleTriadBatch(128, "ff8", seed=6, threads=1)
        working = workers_cpu_seconds()
        rng = np.random.default_rng(2)
        for _ in range(1000):
            actions = random_actions(one.arrays[1], rng)
            for x, y in zip(two.step(actions), one.step(actions)):
                assert x is None and y is None or np.array_equal(x, y)
        worked = workers_cpu_seconds() - working
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert worked > 0, "the worker stepped nothing"


def test_bad_batch_arguments():
    with pytest.raises(arbiter.BadArgumentError):
        TraxBatch(0)
    with pytest.raises(TypeError):
        TraxBatch("4")
    with pytest.raises(arbiter.ParseError):
        TraxBatch(2, "9x9")
    with pytest.raises(arbiter.BadArgumentError):
        TripleTriadBatch(2, "nope")
    with pytest.raises(arbiter.BadArgumentError):
        NantongBatch(2, threads=10_000)
    with pytest.raises(arbiter.BadArgumentError):
        NantongBatch(2).game(2)
    with pytest.raises(arbiter.BadArgumentError, match="0 to 7 groups"):
        NantongBatch(2, groups=8)
    with pytest.raises(arbiter.BadArgumentError, match="at least 18 kinds"):
        NantongBatch(2, kinds=17)
    with pytest.raises(TypeError):
        NantongBatch(2, groups="1")
    with pytest.raises(TypeError):
        NantongBatch(2, None, None, None, None, None, 1)


def test_unbounded_trax_batches_give_ids_instead_of_masks():
    b = TraxBatch(3, "unbounded", seed=1)
    assert b.masks is False and b.arrays[1] is None
    for _ in range(20):
        actions = [int(b.legal_actions(i)[-1]) for i in range(len(b))]
        obs, masks, rewards, to_move, done = b.step(actions)
        assert masks is None


def test_a_batch_stepped_from_two_python_threads_says_what_to_do():
    import threading

    b = TripleTriadBatch(4096, "ff8", seed=1)
    errors = []
    go = threading.Barrier(2)

    def run():
        go.wait()
        try:
            for _ in range(200):
                b.step_random()
        except RuntimeError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors, "the two threads never met inside a step"
    assert "Already borrowed" not in errors[0]
    assert "one thread at a time" in errors[0] and "threading.Lock" in errors[0]


LIMITED_CHILD = """
import re, resource, arbiter
from arbiter import NantongBatch, TraxBatch, TripleTriadBatch
used = int(re.search(r"VmSize:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) * 1024
resource.setrlimit(resource.RLIMIT_AS, (used + (1 << 30), resource.RLIM_INFINITY))
for make in [
    lambda: TripleTriadBatch(1_000_000),
    lambda: NantongBatch(1_000_000),
    lambda: TraxBatch(1 << 20, "unbounded"),
    lambda: TraxBatch(1024, "unbounded", masks=True),
]:
    try:
        make()
        print("made")
    except arbiter.LimitExceededError as e:
        print("masks" if "masks=False" in str(e) else "state" if "of game state" in str(e) else str(e))
b = TripleTriadBatch(10_000, seed=1)
b.step_random()
print(len(b))
"""


def test_a_batch_larger_than_the_memory_left_is_refused():
    # In a child whose address space is 1 GiB more than it uses (as under `ulimit -v` or a job's
    # memory limit): a million Triple Triad games take about 2 GB of arrays and 14 GB of game
    # state, which used to be left out of the count and kill the process.
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", LIMITED_CHILD], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["state", "state", "state", "masks", "10000"]


OPPONENTS = [
    (lambda **k: TripleTriadBatch(5, "ff8", **k), lambda seed: arbiter.TripleTriad.from_preset("ff8", seed), "greedy"),
    (lambda **k: TraxBatch(5, "8x8", **k), lambda seed: arbiter.Trax("8x8"), "easy"),
    (lambda **k: NantongBatch(5, **k), lambda seed: arbiter.Nantong(seed), "basic"),
]


@pytest.mark.parametrize("make, fresh, level", OPPONENTS)
@pytest.mark.parametrize("seat", [0, 1])
def test_an_opponent_inside_the_batch_plays_as_the_single_game_would(make, fresh, level, seat):
    b = make(seed=3, opponent=level, seat=seat, threads=2)

    def begin(i, episode):
        # The episode's game, played by the level up to the learner's first decision.
        s = arbiter.episode_seed(3, i, episode)
        g, ply = fresh(s), 0
        while not g.is_over and type(g).players.index(g.to_move) != seat:
            g.play(g.choose_move(level, arbiter.opponent_seed(s, ply)))
            ply += 1
        return [g, ply, s, episode]

    games = [begin(i, 0) for i in range(len(b))]
    finished = steps = 0
    while finished < 3:
        steps += 1
        assert steps < 1000
        for i, (g, _, _, _) in enumerate(games):
            assert b.game(i).to_json() == g.to_json()
        obs, masks, rewards, to_move, done = b.arrays
        assert (to_move == seat).all()
        actions = np.array([int(b.legal_actions(i)[-1]) for i in range(len(b))])
        obs, masks, rewards, to_move, done = b.step(actions)
        for i, state in enumerate(games):
            g, ply, s, episode = state
            g.play(int(actions[i]))
            ply += 1
            while not g.is_over and type(g).players.index(g.to_move) != seat:
                g.play(g.choose_move(level, arbiter.opponent_seed(s, ply)))
                ply += 1
            assert done[i] == g.is_over
            if g.is_over:
                assert rewards[i].tolist() == g.returns()
                finished += 1
                games[i] = begin(i, episode + 1)
            else:
                state[1] = ply
    # The same games on one thread.
    one = make(seed=3, opponent=level, seat=seat, threads=1)
    for _ in range(steps):
        one.step(np.array([int(one.legal_actions(i)[-1]) for i in range(len(one))]))
    assert [one.game(i).to_json() for i in range(len(one))] == [b.game(i).to_json() for i in range(len(b))]


def test_an_opponent_and_its_seat_are_checked():
    with pytest.raises(arbiter.BadArgumentError, match="unknown level .greedy. for trax"):
        TraxBatch(2, opponent="greedy")
    with pytest.raises(arbiter.BadArgumentError, match="opponent"):
        TraxBatch(2, seat=1)
    with pytest.raises(arbiter.BadArgumentError):
        NantongBatch(2, opponent="basic", seat=3)
    with pytest.raises(TypeError):
        TraxBatch(2, opponent=3)


def test_each_of_the_batchs_arrays_ends_a_page_before_anything_else():
    # The worker's rows end each array; the caller's first rows of the next array lay right
    # after them, and the worker's stores there slowed the caller's next range.
    b = TripleTriadBatch(128, "ff8", seed=1, threads=2)
    for array in b.arrays:
        assert array.ctypes.data % 64 == 0
        whole = array.base
        while whole.base is not None:
            whole = whole.base
        assert whole.ctypes.data + whole.nbytes - (array.ctypes.data + array.nbytes) >= 4096


def test_a_large_batchs_memory_is_asked_for_in_huge_pages():
    # 1,024 Trax games' steps walk about 4,000 small pages a call, more than the processor's
    # translation cache holds; in huge pages a dozen (docs/speed.md, "Sixteenth round").
    import pathlib
    import platform
    import re
    import subprocess
    import sys

    assert TraxBatch(1024, "8x8").arrays[0].ctypes.data % (2 << 20) == 0
    thp = pathlib.Path("/sys/kernel/mm/transparent_hugepage/enabled")
    # Under `[always]` a small batch may get huge pages too; `[never]` gives none; `MADV_COLLAPSE`
    # (what the batch asks for memory already touched) came with Linux 6.1.
    release = tuple(int(n) for n in re.findall(r"\d+", platform.release())[:2])
    if not thp.exists() or "[madvise]" not in thp.read_text() or release < (6, 1) or not pathlib.Path("/proc/self/smaps_rollup").exists():
        pytest.skip("transparent huge pages are not given on request here (madvise, Linux 6.1)")
    # In a process of its own: here the memory of the batches before may be reused.
    code = """if True:
        import pathlib, re, sys
        import arbiter
        def huge_kib():
            text = pathlib.Path("/proc/self/smaps_rollup").read_text()
            return int(re.search(r"AnonHugePages:\\s+(\\d+)", text).group(1))
        before = huge_kib()
        b = arbiter.TraxBatch(int(sys.argv[1]), "8x8")
        print(huge_kib() - before)
    """
    grown = [int(subprocess.run([sys.executable, "-c", code, str(n)], check=True, capture_output=True, text=True).stdout) for n in (1024, 16)]
    # The observations (2 MiB) and the games (about 10 MiB), less what the kernel may refuse;
    # nothing for a small batch.
    assert grown[0] >= 4096 and grown[1] == 0, grown


def test_the_arrays_go_to_jax_without_a_copy():
    import pathlib
    import runpy

    import jax.numpy as jnp

    b = TraxBatch(8, "8x8", seed=1)
    for array in b.arrays:
        # 64-byte aligned, which JAX needs to share memory rather than copy.
        assert jnp.from_dlpack(array).unsafe_buffer_pointer() == array.ctypes.data
        assert np.shares_memory(np.from_dlpack(array), array)
    example = pathlib.Path(__file__).parents[1] / "examples" / "jax_policy.py"
    mean = runpy.run_path(str(example))["play"](steps=20, num_games=16)
    assert -1.0 <= mean <= 1.0
