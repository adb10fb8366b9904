"""The bad-input files (conformance/bad-input/*.jsonl) through the Python package: every case
raises the ArbiterError subclass of its code with the message, word for word, that Rust, the C
library and the npm package give."""

import json
import pathlib

import pytest

import arbiter

DIR = pathlib.Path(__file__).resolve().parents[2] / "conformance" / "bad-input"
READERS = {
    "triple-triad": lambda text, variant: arbiter.TripleTriad.from_json(text),
    "triple-triad-match": lambda text, variant: arbiter.TripleTriadMatch.from_json(text),
    "trax": lambda text, variant: arbiter.Trax.from_json(text),
    "trax-record": lambda text, variant: arbiter.Trax.from_record(text, variant),
    "nantong": lambda text, variant: arbiter.Nantong.from_json(text),
    "nantong-finished-deal": lambda text, variant: arbiter.Nantong.score_hand(text),
}
FILES = sorted(DIR.glob("*.jsonl"))


def test_there_are_bad_input_files_for_every_game():
    assert [f.name for f in FILES] == ["nantong.jsonl", "trax.jsonl", "triple-triad.jsonl"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_bad_input_is_refused_with_its_code_and_words(path):
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len(cases) >= 5
    for case in cases:
        with pytest.raises(arbiter.ArbiterError) as raised:
            READERS[case["load"]](case["input"], case.get("variant"))
        assert (raised.value.code, str(raised.value)) == (case["code"], case["message"]), case["name"]
