"""arbiter.describe(): the core's options of each game, and the stubs' literal types held to them."""

import inspect
import re
from pathlib import Path

import pytest

import arbiter

STUBS = (Path(arbiter.__file__).parent / "_core.pyi").read_text()


def option(game, name):
    return next(o for o in arbiter.describe(game)["options"] if o["name"] == name)


def test_describe_gives_every_games_options():
    every = arbiter.describe()
    assert sorted(every) == ["nantong", "trax", "triple-triad"]
    for game, d in every.items():
        assert d["game"] == game and arbiter.describe(game) == d
    assert option("trax", "variant") == {"name": "variant", "kind": "choice", "values": ["8x8", "unbounded", "loop"], "default": "8x8"}
    assert option("nantong", "deals")["default"] == 4
    assert ["same_wall", "same"] in arbiter.describe("triple-triad")["requires"]
    with pytest.raises(arbiter.BadArgumentError, match="unknown game"):
        arbiter.describe("chess")


def test_the_stubs_literal_variants_are_the_declared_ones():
    literal = re.search(r"def variant\(self\) -> Literal\[([^\]]*)\]", STUBS)
    assert literal, "no variant type in the stubs"
    assert re.findall(r'"([^"]*)"', literal.group(1)) == option("trax", "variant")["values"]


def test_defaults_are_the_declared_ones():
    assert arbiter.Trax().variant == option("trax", "variant")["default"]
    assert arbiter.TraxBatch(1).game(0).variant == option("trax", "variant")["default"]


def test_the_adapters_defaults_are_the_declared_ones():
    from arbiter import _defaults

    preset = option("triple-triad", "preset")["default"]
    assert _defaults.DEFAULT_PRESET == preset
    assert _defaults.DEFAULT_VARIANT == option("trax", "variant")["default"]
    rules = arbiter.TripleTriad.from_preset(preset, 0).to_json()["rules"]
    assert arbiter.TripleTriadBatch(1).game(0).to_json()["rules"] == rules
    gym = pytest.importorskip("arbiter.gymnasium")
    zoo = pytest.importorskip("arbiter.pettingzoo")
    for f in (gym.TripleTriadEnv.__init__, zoo.triple_triad_v0):
        assert inspect.signature(f).parameters["preset"].default == preset
