"""The arena from Python (``arbiter._core.arena_games`` and ``arena_report``, what
``arbiter.distributed.arena`` runs on Ray): ``arbiter arena``'s options, ``cards`` among them."""

import pytest

import arbiter
from arbiter._core import arena_games, arena_report

PLAYERS = ["greedy", "random"]


def _report(**options):
    played = arena_games("triple-triad", PLAYERS, 3, 1000, 0, 4, **options)
    return arena_report("triple-triad", PLAYERS, 3, 1000, played, **options)


def test_cards_ffxiv_deals_ffxiv_decks_as_the_command_does():
    rules = ["ascension", "plus", "combo"]
    report = _report(cards="ffxiv", rules=rules)
    ffxiv = "two random FFXIV hands (decks the deck rule allows), rules plus,combo,ascension, closed hands"
    assert (report["setup"], report["games"]) == (ffxiv, 4)
    ff8 = "two random FF8 hands, rules plus,combo,ascension, closed hands"
    assert _report(cards="ff8", rules=rules)["setup"] == ff8
    assert _report(rules=rules)["setup"] == ff8


def test_cards_is_refused_where_the_command_refuses_it():
    with pytest.raises(arbiter.BadArgumentError, match="preset and cards exclude each other"):
        _report(cards="ffxiv", preset="ff8")
    with pytest.raises(arbiter.BadArgumentError, match="ff8 or ffxiv"):
        _report(cards="ff9")
    with pytest.raises(arbiter.BadArgumentError, match="takes no cards"):
        arena_report("trax", PLAYERS, 1, 1000, [], cards="ffxiv")
