"""The deals behind ``arbiter.openspiel``'s chance nodes: what each draw can give and with what
probability, the game the core starts from a finished deal, and a deal resampled for one player.

A deal is the chance outcomes drawn so far, as bytes (each outcome below 256: a card of the
pool, a first player, an element, a dealer, a kind): immutable like a tuple, but one that
``copy.deepcopy`` returns as it is, where a tuple is copied element by element (OpenSpiel
deep-copies a state's attributes at every clone). The core keeps the rules: the presets'
configurations (level limit, first player, elements) are read from the core, and a finished deal
is started by the core's constructors from explicit hands (``TripleTriad.from_json``) or an
explicit deck (``Nantong.deal``), which validate it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from math import comb
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._core import Nantong, TripleTriad, TripleTriadMatch

Deal = bytes
Outcomes = List[Tuple[int, float]]
_ELEMENTS = ["none", "fire", "ice", "thunder", "earth", "poison", "wind", "water", "holy"]
_PLAYERS = ["blue", "red"]
#: The FF8 cards in the core's order, read once: a game is made again for every state OpenSpiel
#: deserialises.
FF8_CARDS: List[Dict[str, Any]] = TripleTriad.ff8_cards()


@lru_cache(maxsize=None)
def _hands(j: int, budget: Optional[int], avail: Tuple[Tuple[int, int], ...]) -> int:
    """Sets of `j` distinct cards, `avail` holding (level, cards of that level), whose levels sum
    to at most `budget` (no bound when None)."""
    if budget is not None and budget < 0:
        return 0
    if j == 0:
        return 1
    if not avail:
        return 0
    (level, n), rest = avail[0], avail[1:]
    total = 0
    for c in range(min(n, j) + 1):
        left = None if budget is None else budget - c * level
        if left is not None and left < 0:
            break
        total += comb(n, c) * _hands(j - c, left, rest)
    return total


@lru_cache(maxsize=1 << 14)
def _view(dealer: "TripleTriadDeal", deal: Deal, player: int) -> str:
    # A tree walk asks the same views of the deal over and over.
    return dealer._view(deal, player)


def _played_slots(count: int, actions: Sequence[int], first: Optional[str], other: int) -> set[int]:
    """The slots of `other`'s hand of `count` cards that `actions` played from. A move is
    `card * 9 + cell`, the card counted among the cards still in hand; turns alternate."""
    slots, played = list(range(count)), set()
    for ply, action in enumerate(actions):
        if first is not None and (_PLAYERS.index(first) + ply) % 2 == other:
            played.add(slots.pop(action // 9))
    return played


def _pick(weights: Outcomes, uniform: Callable[[], float]) -> int:
    """An outcome drawn from `weights` (summing to 1) with one uniform number."""
    u, acc = uniform(), 0.0
    for action, p in weights:
        acc += p
        if u < acc:
            return action
    return weights[-1][0]


class TripleTriadDeal:
    """A round under a preset, dealt as chance: blue's cards one by one, then red's (each hand
    distinct cards of the pool, uniform among the hands within the preset's level limit, as the
    core's deal), the first player (a fair coin unless the preset fixes it), then each cell's
    element under the Elemental rule (none with probability 3/4, else one of the eight).

    Smaller rounds: `hand` cards each (1 to 5) on a board whose first ``10 - 2 * hand`` cells hold
    Geezards, blue's and red's by turns from cell 0; hands drawn from the first `pool` FF8 cards
    (the core's order, weakest first); `elemental=False` plays without the Elemental rule (and its
    clamp), so no elements are drawn; `first` (blue or red) fixes the first player, as a match's
    configuration can.
    """

    def __deepcopy__(self, memo: Any) -> "TripleTriadDeal":
        # Never changed once made: a state's clones share it.
        return self

    def __init__(self, preset: str, hand: int, pool: int, elemental: bool, first: str):
        config = TripleTriadMatch.from_preset(preset, 0).to_json()["config"]
        if config.get("cards", "ff8") != "ff8":
            raise ValueError(f"preset {preset}: its hands are Final Fantasy XIV decks (FfxivDeal deals them)")
        cards = FF8_CARDS
        if not 1 <= hand <= 5:
            raise ValueError(f"hand: {hand} cards; a hand holds 1 to 5 cards")
        if not hand <= pool <= len(cards):
            raise ValueError(f"pool: {pool} cards; the pool holds from `hand` ({hand}) to {len(cards)} cards")
        self.cards = cards[:pool]
        self._started: Dict[Deal, TripleTriad] = {}
        self.levels = [c["level"] for c in self.cards]
        self.hand = hand
        self.limit: Optional[int] = config["deck_level_limit"]
        self.rules = dict(config["rules"])
        if not elemental:
            self.rules.update(elemental=False, elemental_clamp=False)
        if config["elements"] != "random":
            raise ValueError(f"preset {preset}: only drawn elements can be dealt as chance")
        self.elements = bool(self.rules["elemental"])
        self.walls = config["walls"]
        if first not in ("", *_PLAYERS):
            raise ValueError(f"first: {first!r}; blue, red, or empty for the preset's")
        self.first: Optional[str] = first or config["first"]
        self.open = bool(self.rules["open"])
        filled = 10 - 2 * hand
        self.board = [{"card": cards[0], "owner": _PLAYERS[c % 2]} if c < filled else None for c in range(9)]
        self.steps = 2 * hand + (self.first is None) + 9 * self.elements
        self.max_outcomes = max(pool, 9 if self.elements else 2)

    def _card_weights(self, fixed: Sequence[int]) -> Outcomes:
        """The next card of a hand holding `fixed` (cards already known, in any slot): each card's
        share of the valid hands that hold it, which depends only on its level."""
        free = [i for i in range(len(self.cards)) if i not in fixed]
        if self.limit is None:
            return [(i, 1 / len(free)) for i in free]
        budget = self.limit - sum(self.levels[i] for i in fixed)
        counts: Dict[int, int] = {}
        for i in free:
            counts[self.levels[i]] = counts.get(self.levels[i], 0) + 1
        share = {}
        for level in counts:
            rest = tuple(sorted({**counts, level: counts[level] - 1}.items()))
            share[level] = _hands(self.hand - len(fixed) - 1, budget - level, rest)
        weights = [(i, share[self.levels[i]]) for i in free]
        total = sum(w for _, w in weights)
        return [(i, w / total) for i, w in weights if w > 0]

    def outcomes(self, deal: Deal) -> Outcomes:
        n, k = len(deal), self.hand
        if n < 2 * k:
            start = 0 if n < k else k
            return self._card_weights(deal[start:n])
        if n == 2 * k and self.first is None:
            return [(0, 0.5), (1, 0.5)]
        return [(0, 0.75)] + [(e, 1 / 32) for e in range(1, 9)]

    def outcome_text(self, deal: Deal, action: int) -> str:
        n, k = len(deal), self.hand
        if n < 2 * k:
            return f"{_PLAYERS[n // k]} draws {self.cards[action]['name']}"
        if n == 2 * k and self.first is None:
            return f"{_PLAYERS[action]} moves first"
        return f"cell {n - 2 * k - (self.first is None)}: {_ELEMENTS[action]}"

    def _parts(self, deal: Deal) -> Tuple[List[int], List[int], Optional[str], List[int]]:
        k, at = self.hand, 2 * self.hand
        first = self.first
        if first is None and len(deal) > at:
            first, at = _PLAYERS[deal[at]], at + 1
        return list(deal[:k]), list(deal[k : 2 * k]), first, list(deal[at:])

    def start(self, deal: Deal) -> TripleTriad:
        # A tree walk (CFR, a best response) finishes each deal many times: the core reads a deal's
        # setup once, then it is copied.
        started = self._started.get(deal)
        if started is None:
            if len(self._started) >= 4096:
                self._started.clear()
            started = self._started[deal] = self._setup(deal)
        return started.clone()

    def _setup(self, deal: Deal) -> TripleTriad:
        blue, red, first, elements = self._parts(deal)
        setup = {
            "rules": self.rules,
            "walls": self.walls,
            "elements": [None if e == 0 else _ELEMENTS[e] for e in elements] or [None] * 9,
            "board": self.board,
            "hands": {"blue": [self.cards[i] for i in blue], "red": [self.cards[i] for i in red]},
            "to_move": first,
        }
        return TripleTriad.from_json(setup)

    def view(self, deal: Deal, player: int) -> str:
        """What `player` has seen of a deal under way: their cards, the opponent's (their number
        unless hands are open), the first player and the elements drawn."""
        return _view(self, deal, player)

    def _view(self, deal: Deal, player: int) -> str:
        blue, red, first, elements = self._parts(deal)
        hands = [blue, red]
        theirs: Any = hands[1 - player] if self.open else len(hands[1 - player])
        seen = {"hand": hands[player], "opponent": theirs, "first": first, "elements": elements}
        return "deal " + json.dumps(seen, separators=(",", ":"))

    def resample(self, deal: Deal, actions: Sequence[int], player: int, uniform: Callable[[], float]) -> Deal:
        """`deal` with the opponent's unplayed cards drawn again, uniformly among the hands that
        hold the cards they have played (in the slots they played them from) and meet the level
        limit: everything else is seen by `player`."""
        if self.open:
            return deal
        k = self.hand
        other = 1 - player
        blue, red, first, rest = self._parts(deal)
        hands = [blue, red]
        theirs = hands[other]
        played = _played_slots(len(theirs), actions, first, other)
        fixed = [theirs[s] for s in sorted(played)]
        for s in range(len(theirs)):
            if s not in played:
                theirs[s] = _pick(self._card_weights(fixed), uniform)
                fixed.append(theirs[s])
        head = [*hands[0], *hands[1]]
        return bytes(head) + deal[len(head) :]


#: FFXIV cards by rarity (1 to 5 stars), each a list of card indices into ``FfxivDeal.cards``.
_STARS = range(1, 6)


@lru_cache(maxsize=None)
def _decks(left: int, avail: Tuple[int, ...], rare: int, five: int) -> int:
    """Ordered FFXIV decks of `left` more distinct cards, `avail` holding how many cards of each
    rarity (1 to 5 stars) are still free, at most `rare` of them of 4 or 5 stars and `five` of 5."""
    if left == 0:
        return 1
    total = 0
    for r, n in enumerate(avail):
        stars = r + 1
        if n == 0 or (stars >= 4 and rare == 0) or (stars == 5 and five == 0):
            continue
        fewer = avail[:r] + (n - 1,) + avail[r + 1 :]
        total += n * _decks(left - 1, fewer, rare - (stars >= 4), five - (stars == 5))
    return total


class FfxivDeal(TripleTriadDeal):
    """A round under the ``ffxiv`` preset, dealt as chance as the core deals it: blue's deck then
    red's, each uniform among the ordered decks of five distinct FFXIV cards the deck rule allows
    (``arbiter.ffxiv.DECK_RULE``; the two decks independent), then the first player (a fair coin).

    A card is two chance nodes, since the 444 cards are more outcomes than a deal's byte holds: its
    rarity (outcome ``stars - 1``), with probability its share of the allowed decks that continue
    the cards drawn so far, then the card among the free ones of that rarity (outcome: its index
    among the cards of that rarity by id), uniform, since which card of a rarity it is changes no
    count. The product of the two is the core's draw of that card.
    """

    def __init__(self, preset: str, first: str):
        from .ffxiv import DECK_RULE, cards

        config = TripleTriadMatch.from_preset(preset, 0).to_json()["config"]
        self._started = {}
        self.hand = 5
        self.rules = dict(config["rules"])
        self.walls = config["walls"]
        self.elements = False
        if first not in ("", *_PLAYERS):
            raise ValueError(f"first: {first!r}; blue, red, or empty for the preset's")
        self.first = first or config["first"]
        self.open = bool(self.rules["open"])
        self.board = [None] * 9
        every = cards()
        # The round's cards as the core's deal gives them (name, ranks, type).
        self.cards = [
            {"name": c["name"]["en"], "ranks": c["ranks"], **({"type": c["type"]} if c["type"] != "none" else {})}
            for c in every
        ]
        self.stars = [c["rarity"] for c in every]
        self.by_stars = [[i for i, c in enumerate(every) if c["rarity"] == s] for s in _STARS]
        self.rare = DECK_RULE["max_four_or_five_stars"]
        self.five = DECK_RULE["max_five_stars"]
        self.steps = 2 * 2 * self.hand + (self.first is None)
        self.max_outcomes = max(len(group) for group in self.by_stars)

    def _stars_weights(self, chosen: Sequence[int]) -> Outcomes:
        """The next card's rarity (outcome ``stars - 1``) in a deck holding `chosen`."""
        avail = tuple(len(g) - sum(1 for i in chosen if self.stars[i] == s) for s, g in zip(_STARS, self.by_stars))
        rare = self.rare - sum(1 for i in chosen if self.stars[i] >= 4)
        five = self.five - sum(1 for i in chosen if self.stars[i] == 5)
        left = self.hand - len(chosen)
        total = _decks(left, avail, rare, five)
        weights = []
        for r, n in enumerate(avail):
            stars = r + 1
            if n == 0 or (stars >= 4 and rare == 0) or (stars == 5 and five == 0):
                continue
            fewer = avail[:r] + (n - 1,) + avail[r + 1 :]
            weights.append((r, n * _decks(left - 1, fewer, rare - (stars >= 4), five - (stars == 5)) / total))
        return weights

    def _card_outcomes(self, stars: int, chosen: Sequence[int]) -> Outcomes:
        free = [k for k, i in enumerate(self.by_stars[stars - 1]) if i not in chosen]
        return [(k, 1 / len(free)) for k in free]

    def _decks_drawn(self, deal: Deal) -> Tuple[List[int], List[int]]:
        """The card indices drawn so far, blue's deck then red's."""
        drawn = [self.by_stars[deal[i]][deal[i + 1]] for i in range(0, min(len(deal), 4 * self.hand) - 1, 2)]
        return drawn[: self.hand], drawn[self.hand :]

    def outcomes(self, deal: Deal) -> Outcomes:
        n, k = len(deal), self.hand
        if n < 4 * k:
            blue, red = self._decks_drawn(deal)
            chosen = blue if n < 2 * k else red
            return self._card_outcomes(deal[n - 1] + 1, chosen) if n % 2 else self._stars_weights(chosen)
        return [(0, 0.5), (1, 0.5)]

    def outcome_text(self, deal: Deal, action: int) -> str:
        n, k = len(deal), self.hand
        if n < 4 * k:
            who, slot = _PLAYERS[n // (2 * k)], n % (2 * k) // 2 + 1
            if n % 2 == 0:
                return f"{who}'s card {slot}: {action + 1} stars"
            return f"{who}'s card {slot}: {self.cards[self.by_stars[deal[n - 1]][action]]['name']}"
        return f"{_PLAYERS[action]} moves first"

    def _parts(self, deal: Deal) -> Tuple[List[int], List[int], Optional[str], List[int]]:
        blue, red = self._decks_drawn(deal)
        first, at = self.first, 4 * self.hand
        if first is None and len(deal) > at:
            first = _PLAYERS[deal[at]]
        return blue, red, first, []

    def _encode(self, card: int) -> bytes:
        stars = self.stars[card]
        return bytes((stars - 1, self.by_stars[stars - 1].index(card)))

    def resample(self, deal: Deal, actions: Sequence[int], player: int, uniform: Callable[[], float]) -> Deal:
        """`deal` with the opponent's unplayed cards drawn again, uniformly among the decks the
        rule allows that hold the cards they have played, in the slots they played them from."""
        if self.open:
            return deal
        other = 1 - player
        blue, red, first, _ = self._parts(deal)
        hands = [blue, red]
        theirs = hands[other]
        played = _played_slots(len(theirs), actions, first, other)
        chosen = [theirs[s] for s in sorted(played)]
        for s in range(len(theirs)):
            if s not in played:
                stars = _pick(self._stars_weights(chosen), uniform) + 1
                group = self.by_stars[stars - 1]
                theirs[s] = group[_pick(self._card_outcomes(stars, chosen), uniform)]
                chosen.append(theirs[s])
        head = b"".join(self._encode(c) for c in (*hands[0], *hands[1]))
        return head + deal[len(head) :]


class NantongDeal:
    """A Nantong deal dealt as chance: the dealer (each seat 1/3), then the cards of the deck in
    order, each kind with probability its cards left over the cards left, which is a uniform
    shuffle; `Nantong.deal` gives the seats and the stock from that order, as the core does.

    A smaller deal (``rules/nantong-small.md``): winning hands of `groups` groups and a pair
    (hands of ``3 * groups + 1`` cards, the dealer's one more), a deck of the first `kinds` kinds.
    `dealer` (0, 1 or 2) fixes the dealer, as the deal before fixes it in a match: the first chance
    node has that one outcome.
    """

    def __deepcopy__(self, memo: Any) -> "NantongDeal":
        # Never changed once made: a state's clones share it.
        return self

    def __init__(self, groups: int = 7, kinds: int = 30, dealer: int = -1) -> None:
        if dealer not in (-1, 0, 1, 2):
            raise ValueError(f"dealer: {dealer}; 0, 1 or 2, or -1 for a drawn one")
        self.dealer = dealer
        # The core checks the size (and says what is wrong with it).
        sample = Nantong(0, groups=groups, kinds=kinds).to_json()["deck"]
        self.groups = groups
        self.kinds: List[str] = sorted(set(sample))
        self.copies = len(sample) // len(self.kinds)
        self.cards = len(sample)
        self.steps = 1 + self.cards
        self.max_outcomes = max(3, len(self.kinds))
        self.open = False
        self.hand = 3 * groups + 1
        # The two indicators, turned up after the three hands.
        self.indicators = (3 * self.hand + 1, 3 * self.hand + 2)

    def outcomes(self, deal: Deal) -> Outcomes:
        if not deal:
            return [(self.dealer, 1.0)] if self.dealer >= 0 else [(s, 1 / 3) for s in range(3)]
        left = self.cards - (len(deal) - 1)
        counts = [self.copies] * len(self.kinds)
        for k in deal[1:]:
            counts[k] -= 1
        return [(k, c / left) for k, c in enumerate(counts) if c]

    def outcome_text(self, deal: Deal, action: int) -> str:
        if not deal:
            return f"seat {action} deals"
        return f"card {len(deal) - 1}: {self.kinds[action]}"

    def start(self, deal: Deal) -> Nantong:
        return Nantong.deal([self.kinds[k] for k in deal[1:]], deal[0], groups=self.groups)

    def _own(self, dealer: int, player: int) -> range:
        # The dealer takes the deck's first cards, one more than the next seats (`Nantong.deal`):
        # 23, then 22 each in the full game.
        offset, hand = (player - dealer) % 3, self.hand
        return range(0, hand + 1) if offset == 0 else range(1 + hand * offset, 1 + hand * (offset + 1))

    def view(self, deal: Deal, player: int) -> str:
        """What `player` has seen of a deal under way: the dealer, their own cards and the two
        indicators (cards 67 and 68 in the full game, turned up)."""
        if not deal:
            return "deal"
        cards = deal[1:]
        own = sorted(self.kinds[cards[i]] for i in self._own(deal[0], player) if i < len(cards))
        shown = [self.kinds[cards[i]] for i in self.indicators if i < len(cards)]
        return "deal " + json.dumps({"dealer": deal[0], "hand": own, "indicators": shown}, separators=(",", ":"))

    def hidden(self, deal: Deal, player: int) -> List[int]:
        """The positions in the deck of the cards `player` was not dealt and that were not turned up."""
        own = self._own(deal[0], player)
        return [i for i in range(len(deal) - 1) if i not in own and i not in self.indicators]
