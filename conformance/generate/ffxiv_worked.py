"""The worked examples of section 6 of rules/triple-triad-ffxiv.md (FFTriadBuddy issues #79, #86
and #101), built by hand with their expected answers written out as the spec explains them; the
generator checks each against the reference before writing it.

Card ranks are FFTriadBuddy's `assets/data/cards.xml` read as [up, lt, dn, rt] (spec section 1:
`lt` is the rank printed on the right). Cards the reports do not name are placeholders ("... card
N"), chosen so that they take no part in the captures the report describes.
"""

import ffxiv_reference as ref

CARDS = {
    "Ultima, the High Seraph": [6, 10, 7, 7],
    "Chocobo": [3, 7, 2, 1],
    "Magitek Death Claw": ([4, 3, 2, 3], "garlean"),
    "Gaelicat": [4, 1, 1, 7],
    "Moogle": ([2, 1, 3, 7], "beastman"),
    "Sabotender": [4, 3, 3, 3],
    "Ahriman": [5, 5, 2, 2],
    "Amalj'aa": ([1, 4, 7, 1], "beastman"),
    "Haurchefant": [7, 1, 5, 8],
    "Apkallu": [3, 4, 4, 1],
    "Hildibrand & Nashu Mhakaracca": [1, 8, 10, 8],
    "Tonberry": [2, 2, 7, 2],
    "Coblyn": [3, 3, 3, 4],
    "Hisui & Kurenai": [10, 2, 7, 9],
    "Louisoix Leveilleur": ([9, 4, 9, 3], "scion"),
}


def card(name, ranks=None):
    entry = CARDS.get(name, ranks)
    ranks, kind = entry if isinstance(entry, tuple) else (entry, "none")
    out = {"name": name, "ranks": list(ranks)}
    if kind != "none":
        out["type"] = kind
    return out


def on(name, owner, ranks=None):
    return {"card": card(name, ranks), "owner": owner}


def board_names(pairs):
    return [None if p is None else {"name": p[0], "owner": p[1]} for p in pairs]


def ftb79():
    """Reverse + Fallen Ace: blue's last card, Ultima (right A), next to red's Chocobo (left 1)."""
    board = [
        on("Blue card 1", "blue", [5, 5, 5, 5]), on("Blue card 2", "blue", [5, 5, 5, 5]),
        on("Red card 1", "red", [5, 5, 5, 5]),
        on("Blue card 3", "blue", [5, 5, 5, 5]), None, on("Chocobo", "red"),
        on("Red card 2", "red", [5, 5, 5, 5]), on("Blue card 4", "blue", [5, 5, 5, 5]),
        on("Red card 3", "red", [5, 5, 5, 5]),
    ]
    hands = {"blue": [card("Ultima, the High Seraph")], "red": [card("Red card 4", [5, 5, 5, 5])]}
    after = [("Blue card 1", "blue"), ("Blue card 2", "blue"), ("Red card 1", "red"),
             ("Blue card 3", "blue"), ("Ultima, the High Seraph", "blue"), ("Chocobo", "blue"),
             ("Red card 2", "red"), ("Blue card 4", "blue"), ("Red card 3", "red")]
    both = {"reverse": True, "fallen_ace": True}
    state = {"rules": both, "board": board, "hands": hands, "to_move": "blue"}
    alone = dict(state, rules={"reverse": True})
    move = [{"card": 0, "cell": 4}]
    why = ("FFTriadBuddy #79 (spec section 6): blue's last move puts Ultima, the High Seraph "
           "(ranks 6,A,7,7) on cell 4; its right A faces red's Chocobo (3,7,2,1) on cell 5, left 1. "
           "Its other neighbours (cells 1, 3, 7) are blue's own. ")
    draw_after = [dict(e) for e in board_names(after)]
    draw_after[5]["owner"] = "red"
    yield "ffxiv/ftb79/play-reverse-fallen-ace", {
        "kind": "play", "state": state, "moves": move,
        "expect": {"board": board_names(after), "score": {"blue": 6, "red": 4}, "over": True,
                   "winner": "blue"},
        "note": why + "Under Reverse alone A < 1 is false, but Fallen Ace lets the attacking A take "
                      "the 1 (a 1 and an A: the attacker captures): Chocobo turns blue, blue wins "
                      "6-4 (4 earlier blue cards + Ultima + Chocobo), where the tool said 5-5."}
    yield "ffxiv/ftb79/solve-reverse-fallen-ace", {
        "kind": "solve", "state": state, "expect": {"value": 2},
        "note": why + "Blue's only move wins 6-4: solve value +2 for blue, not the tool's 0."}
    yield "ffxiv/ftb79/play-reverse-only", {
        "kind": "play", "state": alone, "moves": move,
        "expect": {"board": draw_after, "score": {"blue": 5, "red": 5}, "over": True,
                   "winner": "draw"},
        "note": why + "Without Fallen Ace, Reverse needs A < 1, false: no capture, 5-5 draw (the "
                      "tool's answer, right only for Reverse alone)."}
    yield "ffxiv/ftb79/solve-reverse-only", {
        "kind": "solve", "state": alone, "expect": {"value": 0},
        "note": why + "Reverse alone: the only move draws, value 0."}


def ftb86():
    """Reverse + Plus against Marcechamp, replayed from the report's four moves."""
    hands = {
        "blue": [card("Magitek Death Claw"), card("Gaelicat (blue)", CARDS["Gaelicat"]),
                 card("Moogle"), card("Sabotender"), card("Ahriman")],
        "red": [card("Amalj'aa"), card("Gaelicat"), card("Marcechamp card 3", [5, 5, 5, 5]),
                card("Marcechamp card 4", [5, 5, 5, 5]), card("Marcechamp card 5", [5, 5, 5, 5])],
    }
    state = {"rules": {"plus": True, "combo": True, "reverse": True}, "board": [None] * 9,
             "hands": hands, "to_move": "red"}
    moves = [{"card": 0, "cell": 8}, {"card": 0, "cell": 2}, {"card": 0, "cell": 1},
             {"card": 1, "cell": 5}]
    why = ("FFTriadBuddy #86 (spec section 6), NPC Marcechamp, rules Plus and Reverse (FFXIV Plus "
           "always chains: combo). A3 = cell 2, A2 = cell 1, B3 = cell 5, C3 = cell 8. Red plays "
           "Amalj'aa (1,4,7,1) on C3; blue Magitek Death Claw (4,3,2,3) on A3; red Gaelicat "
           "(4,1,1,7) on A2: its right 1 against the Claw's left 3 takes it by Reverse (1 < 3). ")
    after3 = [None, ("Gaelicat", "red"), ("Magitek Death Claw", "red"), None, None, None, None,
              None, ("Amalj'aa", "red")]
    yield "ffxiv/ftb86/play-move3", {
        "kind": "play", "state": state, "moves": moves[:3],
        "expect": {"board": board_names(after3), "score": {"blue": 4, "red": 6}, "over": False},
        "note": why + "After move 3 the Claw is red: 4-6."}
    after4 = [None, ("Gaelicat", "red"), ("Magitek Death Claw", "blue"), None, None,
              ("Moogle", "blue"), None, None, ("Amalj'aa", "blue")]
    yield "ffxiv/ftb86/play-move4", {
        "kind": "play", "state": state, "moves": moves,
        "expect": {"board": board_names(after4), "score": {"blue": 6, "red": 4}, "over": False},
        "note": why + "Blue's Moogle (2,1,3,7) on B3: Plus 2+2 (Claw's bottom) = 3+1 (Amalj'aa's "
                      "top) = 4 takes the Claw and Amalj'aa. The chain from the Claw meets "
                      "Gaelicat: its left 3 against Gaelicat's right 1, and under Reverse 3 does not "
                      "beat 1, so Gaelicat stays red (the tool turned it blue): 6-4, not 7-3."}


def ftb101():
    """Plus + Reverse: the NPC's last card, Haurchefant, and the Reverse chain it starts."""
    blue, red = "blue", "red"
    board = [
        on("Coblyn", blue), on("Hisui & Kurenai", blue), on("Louisoix Leveilleur", blue),
        on("Tonberry", blue), on("NPC card 1", red, [5, 5, 5, 5]),
        on("NPC card 2", red, [5, 5, 5, 5]),
        on("Hildibrand & Nashu Mhakaracca", blue), on("Apkallu", blue), None,
    ]
    hands = {"blue": [card("Blue's fifth card", [5, 5, 5, 5])], "red": [card("Haurchefant")]}
    state = {"rules": {"plus": True, "combo": True, "reverse": True}, "board": board,
             "hands": hands, "to_move": "red"}
    move = [{"card": 0, "cell": 8}]
    names = [e["card"]["name"] for e in board[:8]] + ["Haurchefant"]
    why = ("FFTriadBuddy #101 (spec section 6), reconstructed from the report's card names: "
           "Coblyn, Hisui & Kurenai, Louisoix / Tonberry, NPC card, NPC card / Hildibrand & "
           "Nashu, Apkallu, empty; blue holds one card. Red puts Haurchefant (7,1,5,8) on cell 8: "
           "Plus 7+5 (NPC card 2's bottom) = 8+4 (Apkallu's right) = 12 takes Apkallu. ")
    yield "ffxiv/ftb101/play-plus-reverse", {
        "kind": "play", "state": state, "moves": move,
        "expect": {"board": board_names([(n, red) for n in names]), "score": {"blue": 1, "red": 9},
                   "over": True, "winner": "red"},
        "note": why + "The Reverse chain: Apkallu's left 1 < Hildibrand's right 8; Hildibrand's "
                      "top 1 < Tonberry's bottom 7; Tonberry's top 2 < Coblyn's bottom 3; Coblyn's "
                      "right 3 < Hisui's left 9; Hisui's right 2 < Louisoix's left 3: every card is "
                      "red, red wins 9-1 (the tool showed blue's 100 % win)."}
    plain = dict(state, rules={"plus": True, "combo": True})
    without = [(n, blue) for n in names[:4]] + [(names[4], red), (names[5], red),
                                                  (names[6], blue), (names[7], red), (names[8], red)]
    yield "ffxiv/ftb101/play-plus-without-reverse", {
        "kind": "play", "state": plain, "moves": move,
        "expect": {"board": board_names(without), "score": {"blue": 6, "red": 4}, "over": True,
                   "winner": "blue"},
        "note": why + "Without Reverse the chain stops at once (Apkallu's 1 does not beat "
                      "Hildibrand's 8): blue wins 6-4, the tool's answer; wrong under Reverse."}
    yield "ffxiv/ftb101/solve-plus-reverse", {
        "kind": "solve", "state": state, "expect": {"value": 8},
        "note": why + "Red's only move ends 9-1 through the Reverse chain: value +8 for red."}


def worked_cases():
    for name, case in [*ftb79(), *ftb86(), *ftb101()]:
        got = ref.run_case(case)
        assert got == case["expect"], f"{name}: the reference gives {got}"
        yield name, case
