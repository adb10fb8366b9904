"""The reference pinned by small positions worked out by hand from rules/triple-triad-ffxiv.md.

Run: python3 -m pytest conformance/generate/test_ffxiv_reference.py
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import ffxiv_reference as ref  # noqa: E402

FILLER = [5, 5, 5, 5]


def card(name, ranks, kind=None):
    c = {"name": name, "ranks": list(ranks)}
    if kind:
        c["type"] = kind
    return c


def state(rules, board, blue, red, to_move="blue", **extra):
    """`board` maps a cell to (ranks, owner[, type]); the hands are lists of ranks (or cards)."""
    cells = [None] * 9
    for c, spec in board.items():
        cells[c] = {"card": card(f"C{c}", spec[0], spec[2] if len(spec) > 2 else None),
                    "owner": spec[1]}

    def hand(p, cards):
        return [c if isinstance(c, dict) else card(f"{p}{i}", c) for i, c in enumerate(cards)]

    out = {"rules": dict.fromkeys(rules, True), "board": cells, "hands":
           {"blue": hand("b", blue), "red": hand("r", red)}, "to_move": to_move}
    out.update(extra)
    return out


def owners(result):
    return [None if e is None else e["owner"] for e in result["board"]]


def filled_except(free, owner="blue"):
    """A board of harmless own cards everywhere but the cells in `free`."""
    return {c: (FILLER, owner) for c in range(9) if c not in free}


def test_basic_capture_is_strict_and_reverse_turns_it():
    # Blue's 5 on the centre: red's bottom 3 above it is taken (5 > 3), red's right 5 beside it is
    # not (equal); blue: five fillers + the placed card + cell 1 + one card in hand = 8.
    board = filled_except({0, 4})
    board.update({1: ([1, 1, 3, 1], "red"), 3: ([1, 5, 1, 1], "red")})
    s = state([], board, [FILLER, FILLER], [FILLER])
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert (owners(play)[1], owners(play)[3]) == ("blue", "red")
    assert play["score"] == {"blue": 8, "red": 2} and not play["over"] and "winner" not in play
    # Reverse: 5 takes neither the 3 (not lower) nor the 5 (equal), but takes a 7.
    s["rules"] = {"reverse": True}
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert (owners(play)[1], owners(play)[3]) == ("red", "red")
    s["board"][1]["card"]["ranks"] = [1, 1, 7, 1]
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "blue"


def test_fallen_ace_the_attacker_of_a_one_and_an_ace_captures():
    one, ace = [1, 1, 1, 1], [10, 10, 10, 10]
    for rules, attacker, defender, taken in (
        (["fallen_ace"], one, ace, True),                 # 1 takes A (Fallen Ace)
        ([], one, ace, False),                            # not without it
        (["fallen_ace"], ace, one, True),                 # A takes 1 by the plain rule still
        (["reverse"], ace, one, False),                   # Reverse alone: A is not lower than 1
        (["reverse", "fallen_ace"], ace, one, True),      # FTB#79: A takes 1 under both
        (["reverse", "fallen_ace"], one, ace, True),      # 1 takes A by Reverse still
    ):
        board = filled_except({0, 1})
        board[0] = (defender, "red")
        s = state(rules, board, [attacker], [FILLER])
        got = owners(ref.run_play(s, [{"card": 0, "cell": 1}]))[0]
        assert got == ("blue" if taken else "red"), (rules, attacker[0], defender[0])


def test_same_counts_own_cards_and_captures_opponents_only():
    # Placed [4, 9, 1, 6] on 4: top 4 = red's bottom 4 (cell 1), left 6 = blue's own right 6
    # (cell 3): two equal sides, red's card is taken. Right 9 / bottom 1 meet blue fillers' 5s.
    board = filled_except({0, 4})
    board.update({1: ([1, 1, 4, 1], "red"), 3: ([1, 6, 1, 1], "blue")})
    s = state(["same"], board, [[4, 9, 1, 6], FILLER], [FILLER])
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "blue"
    # One equal side is not enough (and 4 does not beat 4).
    s["board"][3]["card"]["ranks"] = [1, 7, 1, 1]
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "red"


def test_plus_and_its_combo_follow_reverse():
    # Placed [2, 5, 3, 9] on 4: top 2 + 6 (cell 1's bottom) = 8 = bottom 3 + 5 (cell 7's top);
    # the sums with the blue fillers on 3 and 5 are 14 and 10. Cell 1, taken, then attacks red's
    # cell 0: its left 2 against cell 0's right 8.
    board = filled_except({2, 4})
    board.update({0: ([9, 8, 9, 9], "red"), 1: ([1, 1, 6, 2], "red"), 7: ([5, 1, 1, 1], "red")})
    s = state(["plus", "combo"], board, [[2, 5, 3, 9], FILLER], [FILLER])
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert [owners(play)[c] for c in (0, 1, 7)] == ["red", "blue", "blue"]  # 2 > 8 is false
    s["rules"]["reverse"] = True
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert [owners(play)[c] for c in (0, 1, 7)] == ["blue", "blue", "blue"]  # 2 < 8 takes
    s["rules"]["combo"] = False
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert [owners(play)[c] for c in (0, 1, 7)] == ["red", "blue", "blue"]


def test_ascension_counts_the_cards_of_the_type_before_the_placement_and_clamps():
    # A primal already on the board (cell 8): the placed primal's top 6 shows 7 > red's 6 above.
    board = filled_except({0, 4})
    board.update({1: ([1, 1, 6, 1], "red"), 8: ([1, 1, 1, 1], "red", "primal")})
    placed = card("p", [6, 1, 1, 1], "primal")
    s = state(["ascension"], board, [placed, FILLER], [FILLER])
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "blue"
    s["rules"] = {}
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "red"  # 6 vs 6
    # Descension: 6 - 1 = 5 does not beat 5; without it 6 does.
    s["board"][1]["card"]["ranks"] = [1, 1, 5, 1]
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "blue"
    s["rules"] = {"descension": True}
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "red"
    # Clamp: an A raised stays A and does not beat an A.
    s["rules"] = {"ascension": True}
    s["board"][1]["card"]["ranks"] = [1, 1, 10, 1]
    placed["ranks"][0] = 10
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "red"
    # With no other primal on the board the placed one counts 0 (not itself): 9 vs 9.
    s["board"][8] = {"card": card("u", FILLER), "owner": "red"}
    placed["ranks"][0] = 9
    s["board"][1]["card"]["ranks"] = [1, 1, 9, 1]
    assert owners(ref.run_play(s, [{"card": 0, "cell": 4}]))[1] == "red"


def test_ascension_raises_the_neighbour_too_and_same_reads_raised_values():
    # Red's primal on 1 (bottom 4), red's untyped card on 3 (right 6), blue places a primal
    # [4, 1, 1, 6] on 4. One primal before: both primals show +1.
    board = filled_except({0, 4})
    board.update({1: ([1, 1, 4, 1], "red", "primal"), 3: ([1, 6, 1, 1], "red")})
    s = state(["same", "combo"], board, [card("p", [4, 1, 1, 6], "primal"), FILLER], [FILLER])
    # Printed values: 4 = 4 and 6 = 6, Same takes both.
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert (owners(play)[1], owners(play)[3]) == ("blue", "blue")
    # Raised: 5 = 5 but 7 vs 6: one pair, no Same; the basic rule takes cell 3 (7 > 6).
    s["rules"]["ascension"] = True
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert (owners(play)[1], owners(play)[3]) == ("red", "blue")
    # With cell 3's right at 7: 5 = 5 and 7 = 7, Same takes both.
    s["board"][3]["card"]["ranks"] = [1, 7, 1, 1]
    play = ref.run_play(s, [{"card": 0, "cell": 4}])
    assert (owners(play)[1], owners(play)[3]) == ("blue", "blue")


def test_order_chaos_and_perft():
    # Cells 0-2 empty, blue fillers elsewhere; blue and red hold two cards each, blue to move.
    s = state(["order"], filled_except({0, 1, 2}), [FILLER, FILLER], [FILLER, FILLER])
    assert ref.run_perft(s, 1) == {"nodes": 3}
    assert ref.run_perft(s, 3) == {"nodes": 3 * 2 * 1}
    assert ref.run_play(s, [{"card": 1, "cell": 0}]) == {"error": True}
    s["rules"] = {}
    assert ref.run_perft(s, 3) == {"nodes": (3 * 2) * (2 * 2) * (1 * 1)}
    s["rules"] = {"chaos": True}
    s["chaos_draws"] = [1]
    assert ref.run_perft(s, 2) == {"nodes": 3 * (2 * 2)}  # red's turn: draw unknown
    assert ref.run_play(s, [{"card": 0, "cell": 0}]) == {"error": True}
    assert ref.run_solve(s) == {"error": True}  # a draw for each of the 3 turns is needed
    s["chaos_draws"] = [1, 0, 0]
    # Nothing is ever taken (5s against 5s): blue 6 fillers + 2 placed, red 1 placed + 1 in hand.
    assert ref.run_solve(s) == {"value": 6}
    s["chaos_draws"] = [1, 2]  # red holds two cards: index 2 is not one of them
    assert ref.run_play(s, []) == {"error": True}
    s["rules"] = {}
    s["chaos_draws"] = [0]
    assert ref.run_play(s, []) == {"error": True}


def test_swap_exchanges_slots_at_round_start_only():
    blue = [card(f"B{i}", FILLER) for i in range(5)]
    red = [card(f"R{i}", FILLER) for i in range(5)]
    s = state(["swap"], {}, blue, red, swap={"blue": 1, "red": 3})
    play = ref.run_play(s, [{"card": 1, "cell": 0}, {"card": 3, "cell": 8}])
    assert play["board"][0] == {"name": "R3", "owner": "blue"}
    assert play["board"][8] == {"name": "B1", "owner": "red"}
    s["rules"] = {}
    assert ref.run_play(s, []) == {"error": True}
    late = state(["swap"], filled_except({0, 1, 2}), [FILLER, FILLER], [FILLER, FILLER],
                 swap={"blue": 0, "red": 0})
    assert ref.run_play(late, []) == {"error": True}


def test_configuration_errors_and_rules_without_effect():
    s = state([], filled_except({0, 1, 2}, "red"), [[9, 9, 9, 9], FILLER], [FILLER, FILLER])
    for pair in (["ascension", "descension"], ["order", "chaos"], ["all_open", "three_open"]):
        s["rules"] = dict.fromkeys(pair, True)
        assert ref.run_play(s, []) == {"error": True}
    s["rules"] = {}
    # Blue's 9 on cell 1 takes red's 5 below it: blue 2 on the board + 1 in hand, red 5 + 2.
    plain = ref.run_play(s, [{"card": 0, "cell": 1}])
    assert plain["score"] == {"blue": 3, "red": 7}
    for rule in ("roulette", "random", "draft", "sudden_death", "all_open", "three_open"):
        s["rules"] = {rule: True}
        assert ref.run_play(s, [{"card": 0, "cell": 1}]) == plain
    s["rules"] = {}
    s["hands"]["blue"][1]["type"] = "society"
    assert ref.run_play(s, []) == {"error": True}


def test_score_counts_the_card_in_hand_and_solve_takes_the_best_move():
    # Cells 0 and 8 empty, red's 1s elsewhere; blue holds a 9 and a 1, red a 1. Blue's 9 on 0
    # takes cells 1 and 3; red's 1 on 8 takes nothing; blue 3 on the board + its 1 in hand.
    s = state([], {c: ([1, 1, 1, 1], "red") for c in range(1, 8)}, [[9, 9, 9, 9], [1, 1, 1, 1]],
              [[1, 1, 1, 1]])
    play = ref.run_play(s, [{"card": 0, "cell": 0}, {"card": 0, "cell": 8}])
    assert play["score"] == {"blue": 4, "red": 6} and play["over"] and play["winner"] == "red"
    # Playing the 9 (on 0 or 8) is best: -2; keeping it in hand loses 2-8.
    assert ref.run_solve(s) == {"value": -2}
