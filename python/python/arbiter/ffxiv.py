"""Final Fantasy XIV's Triple Triad data: every card, every NPC opponent, the deck rule.

The data is the core's (``core/data/ffxiv-cards.json`` and ``ffxiv-npcs.json``, FFTriadBuddy's
data at a commit that :func:`sources` names), compiled into the native module: one source for
every binding. Each call returns fresh lists, which the caller may change.

>>> from arbiter import ffxiv
>>> chocobo = ffxiv.card("Chocobo")
>>> chocobo["ranks"], chocobo["type"]
([3, 7, 2, 1], 'none')
>>> len(ffxiv.hands("Baderon"))
10
"""

import json
from typing import Any, Dict, List, Union

from . import _core

__all__ = ["DECK_RULE", "card", "cards", "hands", "npc", "npcs", "sources"]

Card = Dict[str, Any]
Npc = Dict[str, Any]

_FOUR_OR_FIVE, _FIVE = _core._ffxiv_deck_rule()
#: What a player's deck may hold: five distinct cards, at most this many of 4 or 5 stars and of
#: 5 stars (NPCs do not follow it).
DECK_RULE: Dict[str, int] = {"cards": 5, "max_four_or_five_stars": _FOUR_OR_FIVE, "max_five_stars": _FIVE}


def _document(which: str) -> Dict[str, Any]:
    doc: Dict[str, Any] = json.loads(_core._ffxiv_json(which))
    return doc


def cards() -> List[Card]:
    """Every card by ascending id: ``{"id", "name": {"en", "fr"}, "ranks": [top, right, bottom,
    left] (10 is A), "rarity" (stars, 1 to 5), "type" ("none", "primal", "scion", "beastman",
    "garlean"), "sort", "group"}``."""
    found: List[Card] = _document("cards")["cards"]
    return found


def npcs() -> List[Npc]:
    """Every NPC opponent by ascending id: ``{"id", "name": {"en", "fr"}, "location": {"en", "fr",
    "x", "y"}, "rules" (rule names of ``arbiter.describe("triple-triad")``), "fixed" (card ids in
    every hand), "variable" (card ids the rest of a hand is drawn from), "rewards"}``."""
    found: List[Npc] = _document("npcs")["npcs"]
    return found


def sources() -> Dict[str, Any]:
    """Where the facts come from: the repository, commit and files of each document."""
    return {which: _document(which)["source"] for which in ("cards", "npcs")}


def _named(items: List[Dict[str, Any]], key: Union[str, int], what: str) -> Dict[str, Any]:
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise TypeError(f"a {what} is named by its name or id, not {type(key).__name__}")
    for item in items:
        if item["id"] == key or (
            isinstance(key, str) and key.strip().casefold() in (n.casefold() for n in item["name"].values())
        ):
            return item
    raise _core.BadArgumentError(f"no FFXIV {what} is named {key!r}")


def card(key: Union[str, int]) -> Card:
    """The card with this id, or this English or French name (case ignored)."""
    return _named(cards(), key, "card")


def npc(key: Union[str, int]) -> Npc:
    """The NPC with this id, or this English or French name (case ignored)."""
    return _named(npcs(), key, "NPC")


def hands(key: Union[str, int]) -> List[List[Card]]:
    """Every hand the NPC can bring, all equally likely: its fixed cards and ``5 - len(fixed)``
    of its variable ones, as the core deals them (``Npc::hands``)."""
    by_id = {c["id"]: c for c in cards()}
    name: str = npc(key)["name"]["en"]
    return [[by_id[i] for i in hand] for hand in _core._ffxiv_hands(name)]
