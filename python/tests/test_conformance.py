"""The Python conformance runner, run as researchers run it: ``python -m arbiter.conformance``."""

import json
import pathlib
import subprocess
import sys

import pytest

CASES = pathlib.Path(__file__).resolve().parents[2] / "conformance"


def runner(*files):
    return subprocess.run(
        [sys.executable, "-m", "arbiter.conformance", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_case_file_passes():
    files = sorted(CASES.glob("*.jsonl"))
    assert len(files) >= 9
    r = runner(*files)
    last = r.stdout.strip().splitlines()[-1]
    passed, failed = (int(w) for w in last.replace(",", "").split()[::2])
    assert (failed, r.returncode) == (0, 0), r.stdout
    assert passed == sum(1 for f in files for line in f.read_text().splitlines() if line.strip())


def one_case(tmp_path, *lines):
    f = tmp_path / "cases.jsonl"
    f.write_bytes(b"\n".join(lines))
    return runner(f)


def test_a_wrong_expectation_fails_with_its_name(tmp_path):
    case = {"game": "trax", "kind": "perft", "name": "wrong", "variant": "8x8", "moves": [], "depth": 1,
            "expect": {"nodes": 5}}
    r = one_case(tmp_path, json.dumps(case).encode())
    assert r.returncode == 1
    assert "FAIL wrong: nodes: expected 5, got 2" in r.stdout
    assert r.stdout.strip().endswith("0 passed, 1 failed")


@pytest.mark.parametrize(
    "line",
    [
        b"{not json",
        b"\xff\xfe",
        b'{"game": "trax", "kind": "teleport", "name": "x", "expect": {}}',
        b'{"game": "chess", "kind": "play", "name": "x", "expect": {}}',
        b'{"game": "trax", "kind": "play", "name": "x"}',
        b'{"game": "trax", "kind": "play", "name": "x", "variant": 8, "moves": [], "expect": {}}',
        b'{"game": "nantong", "kind": "replay", "name": "x", "deck": 3, "dealer": 0, "actions": [], "expect": {}}',
        b'{"game": "triple-triad", "kind": "perft", "name": "x", "state": {}, "depth": -1, "expect": {}}',
        b'{"game": "triple-triad", "kind": "match", "name": "x", "expect": {"winner": "blue"}}',
    ],
)
def test_malformed_lines_and_unknown_kinds_fail(tmp_path, line):
    r = one_case(tmp_path, line)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.strip().endswith("0 passed, 1 failed")


def test_a_bool_is_not_a_number(tmp_path):
    case = {"game": "trax", "kind": "play", "name": "b", "variant": "8x8", "moves": ["@0/"],
            "expect": {"legal": True, "tiles": True}}
    r = one_case(tmp_path, json.dumps(case).encode())
    assert r.returncode == 1 and "tiles: expected true, got 1" in r.stdout


def test_no_case_is_a_failure(tmp_path):
    r = one_case(tmp_path, b"", b"  ")
    assert r.returncode == 1 and "0 passed, 1 failed" in r.stdout
    r = runner(tmp_path / "missing.jsonl")
    assert r.returncode == 1 and "cannot read" in r.stdout


def test_a_nantong_deal_played_out_is_a_replay_case_through_its_record(tmp_path):
    import arbiter

    g = arbiter.Nantong(21)
    seed = 0
    while not g.is_over:
        g.play(g.choose_move("random", seed))
        seed += 1
    score = g.score()
    record = g.replay_record()
    save = g.to_json()
    # The save lists the passes no seat could have answered otherwise; the record does not.
    assert len(record["actions"]) < len(save["actions"])
    assert (record["deck"], record["dealer"]) == (save["deck"], save["dealer"])
    expect = {"legal": True, "over": True, "scores": {"totals": score["totals"], "settlement": score["settlement"]}}
    case = {"game": "nantong", "kind": "replay", "name": "played", **record, "expect": expect}
    r = one_case(tmp_path, json.dumps(case).encode())
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout, r.stdout
    # The save as it is fails the replay format: its forced passes come twice.
    case["actions"] = save["actions"]
    assert one_case(tmp_path, json.dumps(case).encode()).returncode != 0
