"""The Python conformance runner: ``python -m arbiter.conformance FILE...``.

It checks the cases of ``conformance/FORMAT.md`` (JSON Lines, all three games, every kind)
through the package's public API only, as a researcher would call it. Like ``arbiter
conformance`` and the JavaScript runner: one line per failing case, then ``N passed, M failed``;
the exit code is non-zero when anything failed, was malformed or had an unknown kind.
"""

import json
import sys
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, TextIO, Tuple

from . import ArbiterError, Nantong, Trax, TripleTriad, TripleTriadMatch


class Failure(Exception):
    """A case that cannot pass: why."""


def fail(why: str) -> NoReturn:
    raise Failure(why)


def show(v: Any) -> str:
    return json.dumps(v)


def same(a: Any, b: Any) -> bool:
    """JSON equality: a bool is never a number (in Python ``True == 1``), 1 equals 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def check(expect: Dict[str, Any], key: str, got: Any) -> None:
    """Compares an expected field with what came out, when the case names it."""
    if key in expect and not same(expect[key], got):
        fail(f"{key}: expected {show(expect[key])}, got {show(got)}")


def field(c: Dict[str, Any], key: str) -> Any:
    """A required field of a case."""
    if key not in c:
        fail(f"malformed case: no field {show(key)}")
    return c[key]


def is_index(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def count(c: Dict[str, Any], key: str) -> int:
    v = field(c, key)
    if not is_index(v):
        fail(f"malformed case: {show(key)} is not a non-negative integer")
    return int(v)


def items(c: Dict[str, Any], key: str) -> List[Any]:
    v = field(c, key)
    if not isinstance(v, list):
        fail(f"malformed case: {show(key)} is not a list")
    return list(v)


def expecting(expect: Dict[str, Any], attempt: Callable[[], Any], verify: Callable[[Any], None]) -> None:
    """Runs ``attempt``; an expected ``"error": true`` passes when it raises, fails when it does not."""
    want_error = expect.get("error") is True
    try:
        result = attempt()
    except (ArbiterError, Failure, TypeError):
        # The engine refused (or the case named something that is not there, as a refusal).
        if want_error:
            return
        raise
    if want_error:
        fail("expected an error, but everything was accepted")
    verify(result)


# ---- Triple Triad -----------------------------------------------------------------------------


def tt_move(mv: Any, i: int) -> str:
    if not isinstance(mv, dict) or not is_index(mv.get("card")) or not is_index(mv.get("cell")):
        fail(f"move {i}: not {{card, cell}} with integers")
    return f"{mv['card']}@{mv['cell']}"


def tt_play(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    moves = items(c, "moves")

    def attempt() -> TripleTriad:
        g = TripleTriad.from_json(field(c, "state"))
        for i, mv in enumerate(moves):
            g.play(tt_move(mv, i))
        return g

    def verify(g: TripleTriad) -> None:
        board = [p and {"name": p["card"]["name"], "owner": p["owner"]} for p in g.to_json()["board"]]
        check(expect, "board", board)
        check(expect, "score", {"blue": g.score("blue"), "red": g.score("red")})
        check(expect, "over", g.is_over)
        check(expect, "winner", g.outcome)
        last = g.last_captures()
        check(expect, "steps", last and last["steps"])

    expecting(expect, attempt, verify)


def tt_state(c: Dict[str, Any]) -> TripleTriad:
    try:
        return TripleTriad.from_json(field(c, "state"))
    except ArbiterError as e:
        fail(f"bad state: {e}")


def match_json(c: Dict[str, Any]) -> Dict[str, Any]:
    """A match case as the package reads matches: ``{config, blue, red, seed}``."""

    def given(key: str, fallback: Any) -> Any:
        v = c.get(key)
        return fallback if v is None else v

    return {
        "config": {
            "rules": given("rules", {}),
            "elements": {"given": given("elements", [None] * 9)},
            "walls": given("walls", []),
            "sudden_death": field(c, "sudden_death"),
            "round_limit": field(c, "round_limit"),
            "trade": field(c, "trade"),
            "first": field(c, "first"),
            "owned": given("owned", None),
        },
        "blue": field(c, "blue"),
        "red": field(c, "red"),
        "seed": 0,
    }


def other(p: str) -> str:
    return "red" if p == "blue" else "blue"


def tt_match_play(c: Dict[str, Any]) -> Tuple[TripleTriadMatch, List[Dict[str, Any]]]:
    """Plays the case's match and settles the trade: the match and its transfers."""
    m = TripleTriadMatch.from_json(match_json(c))
    for n, round_moves in enumerate(items(c, "rounds")):
        if m.is_over:
            fail(f"round {n + 1} after the end of the match")
        if not isinstance(round_moves, list):
            fail("a round is not a list")
        for mv in round_moves:
            name = mv.get("card") if isinstance(mv, dict) else None
            if not isinstance(name, str):
                fail("a move without a card name")
            if not is_index(mv.get("cell")):
                fail("a move without a cell")
            g = m.game()
            mover = g.to_move or fail("a move after the end of the round")
            hand = [h["name"] for h in g.to_json()["hands"][mover]]
            if name not in hand:
                fail(f"{mover} holds no {name}")
            m.play(f"{hand.index(name)}@{mv['cell']}")
        if not m.is_over and m.round_number != n + 2:
            fail(f"round {n + 1} ends before the board is full")
    result = m.result or fail("the rounds end before the match does")
    picks = c.get("picks") or []
    if not isinstance(picks, list):
        fail("picks is not a list")
    # Picks name cards the loser brought; a match without a winner has no loser to pick from.
    winner = result.get("winner")
    brought = [card["name"] for card in m.to_json()[other(winner)]] if winner else []
    indices = []
    for name in picks:
        if name not in brought:
            fail(f"pick {show(name)} is not a card the loser brought")
        indices.append(brought.index(name))
    return m, m.settle_trade(indices)


def canonical(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def tt_match(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    def verify(played: Tuple[TripleTriadMatch, List[Dict[str, Any]]]) -> None:
        m, settled = played
        rounds = [
            {"score": {"blue": r["scores"][0], "red": r["scores"][1]}, "winner": r["winner"] or "draw"}
            for r in m.rounds
        ]
        check(expect, "rounds", rounds)
        result = m.result or {}
        check(expect, "winner", result.get("winner") or "draw")
        if "transfers" in expect:
            if not isinstance(expect["transfers"], list):
                fail("malformed case: transfers is not a list")
            got = [{"card": t["card"]["name"], "from": t["from"], "to": t["to"]} for t in settled]
            if sorted(map(canonical, got)) != sorted(map(canonical, expect["transfers"])):
                fail(f"transfers: expected {show(expect['transfers'])}, got {show(got)}")

    expecting(expect, lambda: tt_match_play(c), verify)


def tt_perft(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    depth = count(c, "depth")
    expecting(expect, lambda: tt_state(c).perft(depth), lambda n: check(expect, "nodes", n))


def tt_solve(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    expecting(expect, lambda: tt_state(c).solve()["value"], lambda v: check(expect, "value", v))


# ---- Trax -------------------------------------------------------------------------------------


def trax_input(c: Dict[str, Any]) -> Tuple[Trax, List[str]]:
    variant = field(c, "variant")
    if not isinstance(variant, str):
        fail('malformed case: "variant" is not a string')
    moves = items(c, "moves")
    if not all(isinstance(m, str) for m in moves):
        fail("malformed case: a move is not a string")
    try:
        return Trax(variant), moves
    except ArbiterError as e:
        fail(f"malformed case: {e}")


def trax_replay(g: Trax, moves: Sequence[str]) -> Optional[int]:
    """Plays the moves: the index of the first refused one (malformed notation included)."""
    for i, mv in enumerate(moves):
        try:
            g.play(mv)
        except ArbiterError:
            return i
    return None


def trax_play(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    g, moves = trax_input(c)
    refused = trax_replay(g, moves)
    if refused is not None:
        check(expect, "legal", False)
        check(expect, "illegal_at", refused)
        return
    check(expect, "legal", True)
    check(expect, "over", g.is_over)
    check(expect, "winner", g.outcome)
    check(expect, "tiles", g.tiles)
    check(expect, "to_move", g.next_player)
    if "legal_moves" in expect:
        check(expect, "legal_moves", len(g.legal_moves()))


def trax_perft(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    g, moves = trax_input(c)
    depth = count(c, "depth")
    refused = trax_replay(g, moves)
    if refused is not None:
        fail(f"move {refused} of the case is refused")
    check(expect, "nodes", g.perft(depth))


# ---- Nantong ----------------------------------------------------------------------------------


def codes(c: Dict[str, Any], key: str) -> List[str]:
    v = items(c, key)
    if not all(isinstance(x, str) for x in v):
        fail(f"malformed case: {key} holds a non-string")
    return v


def nt_winning(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    standing = Nantong.winning(codes(c, "hand"), c.get("melds", []))
    check(expect, "winning", standing["winning"])
    if "waits" in expect:
        if not isinstance(expect["waits"], list):
            fail("malformed case: waits is not a list")
        if sorted(map(canonical, standing["waits"])) != sorted(map(canonical, expect["waits"])):
            fail(f"waits: expected {show(expect['waits'])}, got {show(standing['waits'])}")


def nt_score(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    score = Nantong.score_hand(c)
    check(expect, "totals", score["totals"])
    check(expect, "settlement", score["settlement"])


def nt_replay(c: Dict[str, Any], expect: Dict[str, Any]) -> None:
    deck = field(c, "deck")
    dealer = count(c, "dealer")
    actions = items(c, "actions")
    try:
        g = Nantong.deal(deck, dealer)
    except (ArbiterError, TypeError) as e:
        fail(f"bad deal: {e}")
    # The cases list only the claim questions a seat could act on: the others are passed.
    for n, a in enumerate(actions):
        g.pass_forced()
        if not isinstance(a, dict) or not is_index(a.get("seat")):
            fail(f"malformed case: action {n} has no seat")
        if not isinstance(a.get("action"), str):
            fail(f"malformed case: action {n} has no action")
        try:
            g.act(a["seat"], a["action"])
        except ArbiterError as e:
            if expect.get("legal") is False:
                check(expect, "illegal_at", n)
                return
            fail(f"action {n} ({a['seat']}: {a['action']}) refused: {e}")
    g.pass_forced()
    check(expect, "legal", True)
    check(expect, "over", g.is_over)
    if "scores" in expect:
        score = g.score() or fail(f"scores: expected {show(expect['scores'])}, but the deal is not over")
        scores = expect["scores"] if isinstance(expect["scores"], dict) else fail("malformed case: scores")
        check(scores, "totals", score["totals"])
        check(scores, "settlement", score["settlement"])


# ---- The run ----------------------------------------------------------------------------------

Kind = Callable[[Dict[str, Any], Dict[str, Any]], None]
GAMES: Dict[str, Dict[str, Kind]] = {
    "triple-triad": {"play": tt_play, "perft": tt_perft, "solve": tt_solve, "match": tt_match},
    "trax": {"play": trax_play, "perft": trax_perft},
    "nantong": {"winning": nt_winning, "score": nt_score, "replay": nt_replay},
}


def run_line(line: str) -> Tuple[Optional[str], Optional[str]]:
    """Runs one line: the case's name (if any) and why it failed (``None`` when it passed)."""
    try:
        c = json.loads(line)
    except ValueError as e:
        return None, f"malformed line: {e}"
    name = c.get("name") if isinstance(c, dict) and isinstance(c.get("name"), str) else None
    try:
        if not isinstance(c, dict):
            fail("malformed case: not an object")
        for key in ("game", "kind", "name"):
            if not isinstance(c.get(key), str):
                fail(f"malformed case: no string field {show(key)}")
        expect = c.get("expect")
        if not isinstance(expect, dict):
            fail('malformed case: no object field "expect"')
        kinds = GAMES.get(c["game"]) or fail(f"unknown game {show(c['game'])}")
        run = kinds.get(c["kind"]) or fail(f"unknown kind {show(c['kind'])} for {c['game']}")
        run(c, expect)
        return name, None
    except Failure as e:
        return name, str(e)
    except Exception as e:  # noqa: BLE001 - an engine error where the case expected success, or a broken case
        return name, f"{type(e).__name__}: {e}"


def run_files(files: Sequence[str], out: TextIO) -> Tuple[int, int]:
    """Runs every case of every file, printing one line per failing case: (passed, failed)."""
    passed = failed = 0
    for file in files:
        try:
            with open(file, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"FAIL {file}: cannot read: {e}", file=out)
            failed += 1
            continue
        for n, raw in enumerate(data.split(b"\n")):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                print(f"FAIL {file}:{n + 1}: malformed line: not UTF-8", file=out)
                failed += 1
                continue
            if not line.strip():
                continue
            name, why = run_line(line)
            if why is None:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {name or f'{file}:{n + 1}'}: {why}", file=out)
    if passed + failed == 0:
        # A run that checked nothing must not look like a success.
        print("FAIL no conformance case in the files given", file=out)
        failed += 1
    print(f"{passed} passed, {failed} failed", file=out)
    return passed, failed


def main(argv: Optional[Sequence[str]] = None) -> int:
    files = list(sys.argv[1:] if argv is None else argv)
    _, failed = run_files(files, sys.stdout)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
