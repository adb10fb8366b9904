"""One round of Triple Triad under the Final Fantasy XIV rules, written from
rules/triple-triad-ffxiv.md (and the Same/Plus/Combo text of rules/triple-triad.md) alone.

This is the independent reference that computes the expectations of
conformance/triple-triad-ffxiv*.jsonl: it shares no code with the core, so that the two must agree
by reading the same specification. It is meant to be read, not to be fast.

It covers the case format of the spec: cards with `ranks` [top, right, bottom, left] and `type`;
the flags same, plus, combo, open and the fifteen FFXIV flags; `state.chaos_draws`, `state.swap`;
the kinds `play`, `perft` and `solve`. The FF8-only options (walls, elemental, battle, borderless,
same_min_matches, combo_from_basic) are outside it: a state asking for them raises Unsupported.
"""

TOP, RIGHT, BOTTOM, LEFT = 0, 1, 2, 3
SIDE_NAMES = ("top", "right", "bottom", "left")
PLAYERS = ("blue", "red")
TYPES = ("none", "primal", "scion", "beastman", "garlean")

FFXIV_FLAGS = (
    "roulette", "all_open", "three_open", "same", "sudden_death", "plus", "random", "order",
    "chaos", "reverse", "fallen_ace", "ascension", "descension", "swap", "draft",
)
# Flags of the FF8 case format that this reference leaves at their defaults.
FF8_ONLY_DEFAULTS = {
    "same_wall": False, "plus_wall": False, "battle": False, "borderless": False,
    "elemental": False, "elemental_clamp": True, "same_min_matches": 2, "combo_from_basic": False,
}
KNOWN_FLAGS = set(FFXIV_FLAGS) | {"combo", "open"} | set(FF8_ONLY_DEFAULTS)
CONTRADICTORY = (("ascension", "descension"), ("order", "chaos"), ("all_open", "three_open"))


class ConfigError(Exception):
    """The case expects `"error": true`: a state that cannot be set up or a refused move."""


class Unsupported(Exception):
    """A state outside what this reference implements (never a case's expectation)."""


def other(player):
    return "red" if player == "blue" else "blue"


def neighbour(cell, side):
    """The cell touching `cell` on `side`, or None at the board's edge (edges count for nothing)."""
    row, col = divmod(cell, 3)
    if side == TOP:
        return cell - 3 if row > 0 else None
    if side == RIGHT:
        return cell + 1 if col < 2 else None
    if side == BOTTOM:
        return cell + 3 if row < 2 else None
    return cell - 1 if col > 0 else None


def facing(side):
    return (side + 2) % 4


# ---- Reading a state -------------------------------------------------------------------------

def read_rules(raw):
    rules = {}
    for key, value in raw.items():
        if key not in KNOWN_FLAGS:
            raise ConfigError(f"unknown rule {key}")
        rules[key] = value
    for key, default in FF8_ONLY_DEFAULTS.items():
        if rules.get(key, default) != default:
            raise Unsupported(f"FF8 option {key}")
    flags = {name: bool(rules.get(name, False)) for name in FFXIV_FLAGS + ("combo", "open")}
    for a, b in CONTRADICTORY:
        if flags[a] and flags[b]:
            raise ConfigError(f"{a} with {b}")
    return flags


def read_card(raw):
    ranks = raw["ranks"]
    if len(ranks) != 4 or any(not isinstance(r, int) or r < 1 or r > 10 for r in ranks):
        raise ConfigError(f"bad ranks {ranks}")
    kind = raw.get("type", "none")
    if kind not in TYPES:
        raise ConfigError(f"unknown type {kind}")
    # `key` stands for the card in the solver's memo: equal ranks and type play alike.
    return {"name": raw["name"], "ranks": list(ranks), "type": kind, "key": (tuple(ranks), kind)}


class Round:
    """A position: board (None or (card, owner) per cell), hands, player to move, Chaos draws."""

    def __init__(self, rules, board, hands, to_move, draws):
        self.rules = rules
        self.board = board
        self.hands = hands
        self.to_move = to_move
        self.draws = draws  # None (no Chaos), or the drawn hand indices of the coming turns

    @classmethod
    def from_state(cls, state):
        rules = read_rules(state.get("rules", {}))
        board = [None if e is None else (read_card(e["card"]), e["owner"]) for e in state["board"]]
        if len(board) != 9 or any(e is not None and e[1] not in PLAYERS for e in board):
            raise ConfigError("bad board")
        hands = {p: [read_card(c) for c in state["hands"][p]] for p in PLAYERS}
        to_move = state["to_move"]
        if to_move not in PLAYERS:
            raise ConfigError("bad player")
        empty = board.count(None)
        mine, theirs = len(hands[to_move]), len(hands[other(to_move)])
        if mine + theirs != empty + 1:
            raise ConfigError("hands do not hold one card more than there are empty cells")
        if empty > 0 and not theirs <= mine <= theirs + 1:
            raise ConfigError("the player to move holds too few or too many cards")
        draws = state.get("chaos_draws")
        if draws is not None:
            draws = list(draws)
            if not rules["chaos"]:
                raise ConfigError("chaos_draws without chaos")
            if len(draws) > empty:
                raise Unsupported("more draws than turns")
            sizes = {p: len(hands[p]) for p in PLAYERS}
            player = to_move
            for index in draws:
                if not isinstance(index, int) or not 0 <= index < sizes[player]:
                    raise ConfigError(f"draw {index} names a card {player} does not hold")
                sizes[player] -= 1
                player = other(player)
        elif rules["chaos"]:
            draws = []
        swap = state.get("swap")
        if swap is not None:
            if not rules["swap"]:
                raise ConfigError("swap without the Swap rule")
            if empty != 9 or len(hands["blue"]) != 5 or len(hands["red"]) != 5:
                raise ConfigError("swap not at round start")
            i, j = swap["blue"], swap["red"]
            if not (isinstance(i, int) and isinstance(j, int) and 0 <= i < 5 and 0 <= j < 5):
                raise ConfigError("swap names no card")
            hands["blue"][i], hands["red"][j] = hands["red"][j], hands["blue"][i]
        return cls(rules, board, hands, to_move, draws)

    # ---- Moves -------------------------------------------------------------------------------

    def over(self):
        return None not in self.board

    def legal_moves(self):
        """(card index, cell) pairs; Order allows only the first card, a Chaos draw only its card."""
        if self.over():
            return []
        size = len(self.hands[self.to_move])
        if self.rules["order"]:
            cards = [0]
        elif self.draws:
            cards = [self.draws[0]]
        else:
            cards = range(size)
        return [(i, c) for i in cards for c in range(9) if self.board[c] is None]

    def check_move(self, index, cell):
        if self.over():
            raise ConfigError("game over")
        if not isinstance(cell, int) or not 0 <= cell < 9 or self.board[cell] is not None:
            raise ConfigError(f"cell {cell} is not free")
        if not isinstance(index, int) or not 0 <= index < len(self.hands[self.to_move]):
            raise ConfigError(f"{self.to_move} has no card {index}")
        if self.rules["order"] and index != 0:
            raise ConfigError("order: only the first card may be played")
        if self.draws and index != self.draws[0]:
            raise ConfigError(f"chaos drew card {self.draws[0]}")

    def play(self, index, cell, log=None):
        """The position after the move (this one is left as it was)."""
        self.check_move(index, cell)
        mover = self.to_move
        hands = {p: list(h) for p, h in self.hands.items()}
        card = hands[mover].pop(index)
        board = resolve(self.rules, self.board, cell, card, mover, log)
        draws = self.draws[1:] if self.draws is not None else None
        return Round(self.rules, board, hands, other(mover), draws)

    def score(self):
        """Cards of each colour on the board plus the cards still in hand."""
        return {p: sum(1 for e in self.board if e and e[1] == p) + len(self.hands[p]) for p in PLAYERS}

    def winner(self):
        s = self.score()
        return "draw" if s["blue"] == s["red"] else max(PLAYERS, key=s.get)

    def key(self):
        return (
            tuple(None if e is None else (e[0]["key"], e[1]) for e in self.board),
            tuple(c["key"] for c in self.hands["blue"]),
            tuple(c["key"] for c in self.hands["red"]),
            self.to_move,
            tuple(self.draws) if self.draws is not None else None,
        )


# ---- One placement (section 4 of the spec) ---------------------------------------------------

def beats(rules, attack, defence, fallen_ace=True):
    """The basic condition: higher wins (lower under Reverse), strictly; under Fallen Ace a 1 and
    an A facing each other always go to the attacker."""
    if fallen_ace and rules["fallen_ace"] and {attack, defence} == {1, 10}:
        return True
    return attack < defence if rules["reverse"] else attack > defence


def modifiers(rules, board):
    """Per type, what Ascension/Descension add: +/- its count on the board before the placement."""
    if not (rules["ascension"] or rules["descension"]):
        return {}
    sign = 1 if rules["ascension"] else -1
    counts = {}
    for entry in board:
        if entry and entry[0]["type"] != "none":
            counts[entry[0]["type"]] = counts.get(entry[0]["type"], 0) + 1
    return {t: sign * n for t, n in counts.items()}


# Gets an entry whenever a Combo chain would differ without Fallen Ace inside it: the spec leaves
# that open (section 7), so the generator drops every case during which this list grew.
FALLEN_ACE_IN_COMBO = []


def resolve(rules, before, cell, card, mover, log=None):
    """The board after `mover` puts `card` on the empty `cell`. `log`, a list, receives what each
    rule did: (rule, details) tuples, used for the cases' notes. Raises nothing: the move is legal."""
    mods = modifiers(rules, before)
    board = list(before)
    board[cell] = (card, mover)

    def value(c, side):
        placed = board[c][0]
        v = placed["ranks"][side] + mods.get(placed["type"], 0)
        return min(10, max(1, v))

    sides = [(s, neighbour(cell, s)) for s in range(4)]
    sides = [(s, n) for s, n in sides if n is not None and board[n] is not None]
    pairs = {n: (s, value(cell, s), value(n, facing(s))) for s, n in sides}
    if log is not None and mods:
        shown = {c: [value(c, s) for s in range(4)] for c in range(9)
                 if board[c] and board[c][0]["type"] != "none"}
        log.append(("values", {"mods": mods, "shown": shown}))

    def theirs(n):
        return board[n][1] != mover

    seeds = set()
    if rules["same"]:
        equal = [n for n, (s, a, d) in pairs.items() if a == d]
        if len(equal) >= 2:
            taken = sorted(n for n in equal if theirs(n))
            seeds.update(taken)
            if log is not None:
                log.append(("same", {"cells": sorted(equal), "captured": taken,
                                     "values": {n: pairs[n][1] for n in equal}}))
    if rules["plus"]:
        by_sum = {}
        for n, (s, a, d) in pairs.items():
            by_sum.setdefault(a + d, []).append(n)
        for total, group in sorted(by_sum.items()):
            if len(group) >= 2:
                taken = sorted(n for n in group if theirs(n))
                seeds.update(taken)
                if log is not None:
                    log.append(("plus", {"sum": total, "cells": sorted(group), "captured": taken}))
    basic = []
    for n, (s, a, d) in sorted(pairs.items()):
        if theirs(n) and n not in seeds and beats(rules, a, d):
            basic.append(n)
            if log is not None:
                log.append(("basic", {"cell": n, "attack": a, "defence": d}))
    chain = []
    if rules["combo"] and seeds:
        chain = combo(rules, board, mover, seeds, basic, value, True, log)
        if rules["fallen_ace"] and chain != combo(rules, board, mover, seeds, basic, value, False, None):
            # The spec's open question (section 7): the cases must not depend on it.
            if log is not None:
                log.append(("fallen_ace_in_combo", {}))
            FALLEN_ACE_IN_COMBO.append(True)
    for n in list(seeds) + basic + chain:
        board[n] = (board[n][0], mover)
    return board


def combo(rules, board, mover, seeds, basic, value, fallen_ace, log):
    """Cells the chain takes: each card taken by Same/Plus, then each card the chain takes, attacks
    its adjacent opponent cards by the basic condition, until nothing changes."""
    mine = set(seeds) | set(basic)
    taken, wave, number = [], sorted(seeds), 0
    while wave:
        number += 1
        nxt = []
        for c in wave:
            for s in range(4):
                n = neighbour(c, s)
                if n is None or board[n] is None or board[n][1] == mover or n in mine:
                    continue
                a, d = value(c, s), value(n, facing(s))
                if beats(rules, a, d, fallen_ace):
                    mine.add(n)
                    nxt.append(n)
                    if log is not None:
                        log.append(("combo", {"wave": number, "from": c, "cell": n,
                                              "attack": a, "defence": d}))
        taken += nxt
        wave = sorted(nxt)
    return taken


# ---- The three kinds -------------------------------------------------------------------------

def run_play(state, moves, log=None):
    """The `expect` of a play case, or {"error": True}. `log` (a list) gets one list per move."""
    try:
        pos = Round.from_state(state)
        for m in moves:
            move_log = [] if log is not None else None
            pos = pos.play(m["card"], m["cell"], move_log)
            if log is not None:
                log.append(move_log)
    except ConfigError:
        return {"error": True}
    expect = {
        "board": [None if e is None else {"name": e[0]["name"], "owner": e[1]} for e in pos.board],
        "score": pos.score(),
        "over": pos.over(),
    }
    if pos.over():
        expect["winner"] = pos.winner()
    return expect


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(i, c), depth - 1) for i, c in moves)


def run_perft(state, depth):
    try:
        return {"nodes": perft(Round.from_state(state), depth)}
    except ConfigError:
        return {"error": True}


def negamax(pos, memo):
    """The final score of the player to move minus the opponent's, both playing perfectly."""
    if pos.over():
        s = pos.score()
        return s[pos.to_move] - s[other(pos.to_move)]
    key = pos.key()
    if key not in memo:
        memo[key] = max(-negamax(pos.play(i, c), memo) for i, c in pos.legal_moves())
    return memo[key]


def run_solve(state):
    try:
        pos = Round.from_state(state)
        if pos.rules["chaos"] and len(pos.draws) < pos.board.count(None):
            raise ConfigError("solve under Chaos needs a draw for every remaining turn")
        return {"value": negamax(pos, {})}
    except ConfigError:
        return {"error": True}


def run_case(case, log=None):
    """The expectation this reference computes for a case (play, perft or solve)."""
    kind = case["kind"]
    if kind == "play":
        return run_play(case["state"], case["moves"], log)
    if kind == "perft":
        return run_perft(case["state"], case["depth"])
    if kind == "solve":
        return run_solve(case["state"])
    raise Unsupported(kind)
