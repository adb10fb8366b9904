"""Writes conformance/triple-triad-ffxiv.jsonl (the FFXIV rules: 50+ cases per rule, 5+ per pair
of rules, the worked FFTriadBuddy issues) and conformance/triple-triad-ffxiv-ff8.jsonl (Same, Plus
and Combo alone, which today's engine already implements: a check of the reference against it).

Deterministic (fixed seed). Every expectation comes from ffxiv_reference.py. Positions are drawn at
random, biased so that the rule a case is filed under acts in it: a candidate is kept when turning
that rule off would change the expected answer (for the rules that act on captures or on the legal
moves), else the best of a bounded number of tries is kept and its note says what it shows.

    python3 conformance/generate/ffxiv_cases.py   (from the repository root or anywhere)
"""

import copy
import itertools
import json
import pathlib
import random

import ffxiv_reference as ref
from ffxiv_worked import worked_cases

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "conformance" / "triple-triad-ffxiv.jsonl"
OUT_FF8 = ROOT / "conformance" / "triple-triad-ffxiv-ff8.jsonl"

RULES = ref.FFXIV_FLAGS
CAPTURE = ("same", "plus", "reverse", "fallen_ace", "ascension", "descension")
MOVE_RULES = ("order", "chaos")
NO_EFFECT = ("roulette", "random", "draft", "sudden_death", "all_open", "three_open")
CONTRADICTORY = {frozenset(p) for p in ref.CONTRADICTORY}
TRIES = 120
SOLVE_TRIES = 3


# ---- Cards and positions ---------------------------------------------------------------------

def rank(rng, rules):
    """A rank, drawn so that the rules in play get something to act on."""
    if rules.get("fallen_ace") and rng.random() < 0.3:
        return rng.choice((1, 10))
    if (rules.get("same") or rules.get("plus")) and rng.random() < 0.5:
        return rng.randint(3, 7)
    if rules.get("ascension") and rng.random() < 0.15:
        return rng.choice((9, 10))
    if rules.get("descension") and rng.random() < 0.15:
        return rng.choice((1, 2))
    return rng.randint(1, 10)


def card_type(rng, rules, types):
    if rules.get("ascension") or rules.get("descension"):
        return rng.choice(types) if rng.random() < 0.75 else "none"
    return rng.choice(ref.TYPES[1:]) if rng.random() < 0.15 else "none"


def new_card(rng, rules, name, types):
    card = {"name": name, "ranks": [rank(rng, rules) for _ in range(4)]}
    kind = card_type(rng, rules, types)
    if kind != "none":
        card["type"] = kind
    return card


def position(rng, rules, empty):
    """A valid state with `empty` empty cells: random cards and owners, the hand sizes the turn
    order gives."""
    types = rng.sample(ref.TYPES[1:], 2)
    free = set(rng.sample(range(9), empty))
    board = [None if c in free else {"card": new_card(rng, rules, f"X{c}", types),
                                     "owner": rng.choice(ref.PLAYERS)} for c in range(9)]
    mover = rng.choice(ref.PLAYERS)
    sizes = {mover: (empty + 2) // 2, ref.other(mover): (empty + 1) // 2}
    hands = {p: [new_card(rng, rules, f"{p[0].upper()}{i + 1}", types) for i in range(sizes[p])]
             for p in ref.PLAYERS}
    return {"rules": {k: True for k, v in rules.items() if v}, "board": board, "hands": hands,
            "to_move": mover}


def shown(state, cell, side):
    """A board card's value as the reference reads it on this board (Ascension/Descension)."""
    pos = ref.Round.from_state(strip(state))
    mods = ref.modifiers(pos.rules, pos.board)
    card = pos.board[cell][0]
    return min(10, max(1, card["ranks"][side] + mods.get(card["type"], 0)))


def strip(state):
    """The state without Chaos draws or Swap, for looking at its board only."""
    return {k: v for k, v in state.items() if k not in ("chaos_draws", "swap")}


def craft(rng, state, index, rules):
    """Reshapes the mover's card `index` so that, put on some cell, Same, Plus or Fallen Ace
    fires; returns that cell (or None when no cell has two neighbours)."""
    board = state["board"]
    card = state["hands"][state["to_move"]][index]
    cells = [c for c in range(9) if board[c] is None]
    rng.shuffle(cells)
    for cell in cells:
        near = [(s, n) for s in range(4)
                if (n := ref.neighbour(cell, s)) is not None and board[n] is not None]
        if len(near) < 2 and not rules.get("fallen_ace"):
            continue
        mod = 0
        if card.get("type") and (rules.get("ascension") or rules.get("descension")):
            count = sum(1 for e in board if e and e["card"].get("type") == card["type"])
            mod = count if rules.get("ascension") else -count
        faces = [(s, shown(state, n, ref.facing(s))) for s, n in near]
        wanted = []
        if rules.get("same") and (not rules.get("plus") or rng.random() < 0.5):
            wanted = [(s, v) for s, v in rng.sample(faces, 2)] if len(faces) >= 2 else []
        elif rules.get("plus") and len(faces) >= 2:
            (s1, v1), (s2, v2) = rng.sample(faces, 2)
            total = rng.randint(max(v1, v2) + 1, min(v1, v2) + 10)
            wanted = [(s1, total - v1), (s2, total - v2)]
        elif rules.get("fallen_ace"):
            wanted = [(s, 1 if v == 10 else 10) for s, v in faces if v in (1, 10)][:1]
        ok = True
        for s, v in wanted:
            printed = v - mod
            if 1 <= printed <= 10:
                card["ranks"][s] = printed
            else:
                ok = False
        if ok and wanted:
            return cell
    return None


# ---- Cases -----------------------------------------------------------------------------------

def base_rules(names):
    rules = {n: True for n in names}
    if rules.get("same") or rules.get("plus"):
        rules["combo"] = True
    return rules


def draw_for(pos, rng):
    return rng.randrange(len(pos.hands[pos.to_move]))


def play_case(rng, rules, empty, moves_wanted, round_start=False, first_move=None):
    """A play case: a position, then `moves_wanted` legal moves (the first crafted when asked)."""
    state = position(rng, rules, 9 if round_start else empty)
    if round_start and rules.get("swap") and rng.random() < 0.9:
        state["swap"] = {"blue": rng.randrange(5), "red": rng.randrange(5)}
    mover_hand = state["hands"][state["to_move"]]
    index = 0 if rules.get("order") else rng.randrange(len(mover_hand))
    cell = None
    if first_move and state["board"].count(None) < 9:
        cell = craft(rng, state, index, rules)
    draws = []
    pos = ref.Round.from_state(copy.deepcopy(state))
    moves = []
    for k in range(moves_wanted):
        if pos.over():
            break
        if rules.get("chaos"):
            pos.draws = [index if k == 0 else draw_for(pos, rng)]
            draws.append(pos.draws[0])
        legal = pos.legal_moves()
        if k == 0 and cell is not None and (index, cell) in legal:
            move = (index, cell)
        elif k == 0 and not rules.get("chaos"):
            move = rng.choice([m for m in legal if m[0] == index] or legal)
        else:
            move = rng.choice(legal)
        moves.append({"card": move[0], "cell": move[1]})
        pos = pos.play(*move)
    if rules.get("chaos"):
        # Sometimes the draws go on past the moves played (still no more than the turns left).
        while len(draws) < state["board"].count(None) and rng.random() < 0.4:
            pos.draws = [draw_for(pos, rng)]
            draws.append(pos.draws[0])
            pos = pos.play(pos.draws[0], rng.choice([c for c in range(9) if pos.board[c] is None]))
        if draws or rng.random() < 0.7:
            state["chaos_draws"] = draws
    return {"kind": "play", "state": state, "moves": moves}


def chaos_draws_all(rng, state):
    """Draws for every remaining turn."""
    sizes = {p: len(state["hands"][p]) for p in ref.PLAYERS}
    player, draws = state["to_move"], []
    for _ in range(state["board"].count(None)):
        draws.append(rng.randrange(sizes[player]))
        sizes[player] -= 1
        player = ref.other(player)
    return draws


def perft_case(rng, rules, empty, depth, round_start=False):
    state = position(rng, rules, 9 if round_start else empty)
    if round_start and rules.get("swap"):
        state["swap"] = {"blue": rng.randrange(5), "red": rng.randrange(5)}
    if rules.get("chaos"):
        state["chaos_draws"] = chaos_draws_all(rng, state)[:rng.randint(0, depth + 1)]
    return {"kind": "perft", "state": state, "depth": depth}


def solve_case(rng, rules, empty):
    state = position(rng, rules, empty)
    if rules.get("chaos"):
        state["chaos_draws"] = chaos_draws_all(rng, state)
    return {"kind": "solve", "state": state}


def expect(case, log=None):
    ref.FALLEN_ACE_IN_COMBO.clear()
    result = ref.run_case(case, log)
    return result, bool(ref.FALLEN_ACE_IN_COMBO)


def without(case, rule):
    """The case with `rule` off (and the state fields that only that rule allows removed)."""
    alt = copy.deepcopy(case)
    alt["state"]["rules"].pop(rule, None)
    if rule == "chaos":
        alt["state"].pop("chaos_draws", None)
    if rule in ("same", "plus") and not (alt["state"]["rules"].get("same")
                                         or alt["state"]["rules"].get("plus")):
        alt["state"]["rules"].pop("combo", None)
    return alt


def acts(case, result, rule):
    """Whether turning `rule` off changes the answer."""
    if rule not in CAPTURE + MOVE_RULES or "error" in result:
        return False
    return ref.run_case(without(case, rule)) != result


# ---- Notes -----------------------------------------------------------------------------------

def describe(event, move, label):
    """One event of a move's log, named after the rule it shows (`label`, from tag())."""
    rule, d = event
    at = f"move {move}"
    if rule == "same":
        return f"same ({at}): equal sides on cells {d['cells']}, takes {d['captured']}"
    if rule == "plus":
        return f"plus ({at}): sum {d['sum']} on cells {d['cells']}, takes {d['captured']}"
    if rule == "basic":
        return f"{label or 'basic'} ({at}): {d['attack']} takes {d['defence']} at cell {d['cell']}"
    if rule == "combo":
        under = f", by {label}" if label not in (None, "combo") else ""
        return (f"combo wave {d['wave']} ({at}{under}): cell {d['from']}'s {d['attack']} takes "
                f"{d['defence']} at cell {d['cell']}")
    if rule == "values":
        mods = ", ".join(f"{t} {m:+d}" for t, m in sorted(d["mods"].items()))
        return f"values ({at}): {mods}"
    return f"{rule} ({at})"


def tag(event, rules):
    """The FFXIV rule an event shows, for the note's headline."""
    rule, d = event
    if rule in ("basic", "combo"):
        a, b = d["attack"], d["defence"]
        if rules.get("fallen_ace") and {a, b} == {1, 10} and (a == 1) != bool(rules.get("reverse")):
            return "fallen_ace"
        if rules.get("reverse"):
            return "reverse"
        return "combo" if rule == "combo" else None
    if rule == "values":
        return "ascension" if rules.get("ascension") else "descension"
    return rule


def play_note(case, log, result, filed):
    rules = case["state"]["rules"]
    lines, shows = [], set()
    for m, move_log in enumerate(log, 1):
        for event in move_log:
            t = tag(event, rules)
            if t:
                shows.add(t)
            if t or event[0] in ("same", "plus"):
                lines.append(describe(event, m, t))
    if "error" in result:
        return None
    head = []
    for rule in filed:
        if rule in NO_EFFECT or rule in ("swap", "order", "chaos"):
            continue
        alt = ref.run_case(without(case, rule))
        if alt != result:
            head.append(f"{rule} acts (the board differs without it)")
    if not lines:
        lines.append("basic captures only" if any(e[0] == "basic" for ml in log for e in ml)
                     else "no capture")
    return "; ".join(head + lines[:8]) + ("; ..." if len(lines) > 8 else "")


def finish_note(case, result, filed, log):
    parts = []
    kind = case["kind"]
    if kind == "play":
        parts.append(play_note(case, log, result, filed) or "")
    elif kind == "perft":
        parts.append(f"{result['nodes']} move sequences of depth {case['depth']}")
        for rule in filed:
            if rule in MOVE_RULES:
                parts.append(f"{ref.run_case(without(case, rule))['nodes']} without {rule}")
    else:
        parts.append(f"value {result['value']} for {case['state']['to_move']}")
        for rule in filed:
            if rule in CAPTURE + MOVE_RULES:
                alt = ref.run_case(without(case, rule))
                parts.append(f"{alt.get('value')} without {rule}")
    for rule in filed:
        if rule in NO_EFFECT:
            parts.append(f"{rule} changes nothing in a round (the same answer without it)")
    if case["state"]["rules"].get("ascension") or case["state"]["rules"].get("descension"):
        parts.append("placed card fights with its type's count before the placement, "
                     "Same/Plus read modified values (spec section 5)")
    if "swap" in case["state"]:
        s = case["state"]["swap"]
        parts.append(f"swap: blue's card {s['blue']} and red's card {s['red']} change hands first")
    if case["state"]["rules"].get("order") and kind == "play":
        parts.append("order: every move plays the mover's first card")
    if "chaos_draws" in case["state"]:
        parts.append(f"chaos draws {case['state']['chaos_draws']}")
    return "; ".join(p for p in parts if p)


# ---- Choosing cases --------------------------------------------------------------------------

def build(rng, names, kind):
    """One case of `kind` with the rules `names`, chosen among candidates: the first in which
    every rule that can act in that kind does (captures in a play; Order and Chaos in a perft;
    both in a solve), else the one in which most do."""
    rules = base_rules(names)
    need = [n for n in names if n in {"play": CAPTURE, "perft": MOVE_RULES}.get(kind, CAPTURE + MOVE_RULES)]
    best = None
    for _ in range(TRIES if kind != "solve" else SOLVE_TRIES):
        if kind == "play":
            start = "swap" in names and rng.random() < 0.8
            empty = rng.randint(2, 8)
            moves = rng.randint(4, 7) if start else rng.randint(1, min(4, empty))
            case = play_case(rng, rules, empty, moves, round_start=start,
                             first_move=rng.random() < 0.8)
        elif kind == "perft":
            start = "swap" in names and rng.random() < 0.5
            case = perft_case(rng, rules, rng.randint(3, 6), rng.randint(1, 2 if start else 3),
                              round_start=start)
        else:
            # Six empty cells only where Order or Chaos keep the tree small (the reference is slow).
            small = rules.get("order") or rules.get("chaos")
            case = solve_case(rng, rules, rng.choice((4, 5, 6, 6) if small else (3, 4, 5, 5, 5)))
        log = []
        result, fallen_ace_in_combo = expect(case, log)
        if fallen_ace_in_combo:
            continue
        score = sum(acts(case, result, r) for r in need)
        if best is None or score > best[0]:
            best = (score, case, result, log)
        if score == len(need):
            break
    _, case, result, log = best
    case["expect"] = result
    case["note"] = finish_note(case, result, names, log)
    return case


def all_cards(state):
    """Every card of a state, in hand or on the board."""
    return [c for p in ref.PLAYERS for c in state["hands"][p]] + \
        [e["card"] for e in state["board"] if e]


def error_case(rng, names, what):
    """A configuration or move error of the spec, in a play or solve case."""
    rules = base_rules(names)
    empty = rng.randint(3, 7)
    if what == "contradiction":
        case = (play_case(rng, {k: v for k, v in rules.items()
                                if k not in ("descension", "chaos", "three_open")}, empty, 2)
                if rng.random() < 0.6 else solve_case(rng, {}, min(empty, 5)))
        case["state"]["rules"] = rules
        case["state"].pop("chaos_draws", None)
        note = " with ".join(n for n in names) + " together: a configuration error"
    elif what == "unknown_type":
        case = play_case(rng, rules, empty, 1)
        victim = rng.choice(all_cards(case["state"]))
        victim["type"] = rng.choice(("dragon", "society", "Primal", "moogle"))
        note = f"a card of type {victim['type']!r}: an unknown type is a configuration error"
    elif what in ("order_refused", "chaos_refused"):
        case = play_case(rng, rules, empty, rng.randint(1, 2))
        pos = ref.Round.from_state(copy.deepcopy(case["state"]))
        for m in case["moves"][:-1]:
            pos = pos.play(m["card"], m["cell"])
        size, last = len(pos.hands[pos.to_move]), case["moves"][-1]
        if size < 2:
            return None
        allowed = pos.draws[0] if what == "chaos_refused" else 0
        last["card"] = rng.choice([i for i in range(size) if i != allowed])
        note = (f"{what.split('_')[0]}: move {len(case['moves'])} plays card {last['card']} where "
                f"only card {allowed} may be played: refused")
    elif what == "draw_not_held":
        case = play_case(rng, rules, empty, 1)
        hand = case["state"]["hands"][case["state"]["to_move"]]
        case["state"]["chaos_draws"] = [len(hand) + rng.randint(0, 2)]
        note = f"chaos_draws names card {case['state']['chaos_draws'][0]} of a hand of {len(hand)}"
    elif what == "draws_without_chaos":
        plain = {k: v for k, v in rules.items() if k != "chaos"}
        case = play_case(rng, plain, empty, 1)
        case["state"]["chaos_draws"] = [case["moves"][0]["card"]]
        note = "chaos_draws without the Chaos rule: a configuration error"
    elif what == "solve_missing_draws":
        case = solve_case(rng, rules, rng.randint(3, 5))
        case["state"]["chaos_draws"] = case["state"]["chaos_draws"][:rng.randint(0, 2)]
        note = (f"solve under chaos with {len(case['state']['chaos_draws'])} draws for "
                f"{case['state']['board'].count(None)} turns: an error")
    elif what == "swap_without_swap":
        plain = {k: v for k, v in rules.items() if k != "swap"}
        case = play_case(rng, plain, 9, 2, round_start=True)
        case["state"]["swap"] = {"blue": rng.randrange(5), "red": rng.randrange(5)}
        note = "state.swap without the Swap rule: a configuration error"
    elif what == "swap_late":
        case = play_case(rng, rules, empty, 1)
        case["state"]["swap"] = {"blue": 0, "red": 0}
        note = f"state.swap with {9 - empty} cards on the board (not round start): a configuration error"
    else:
        raise ValueError(what)
    case["expect"] = {"error": True}
    if ref.run_case(case) != {"error": True}:
        return None
    case["note"] = note
    return case


# Per rule: how many cases of each kind (play, perft, solve) and which errors.
def plan(rule):
    if rule in ("same", "plus", "reverse", "fallen_ace"):
        return {"play": 34, "perft": 8, "solve": 8}, []
    if rule in ("ascension", "descension"):
        return {"play": 30, "perft": 6, "solve": 8}, ["contradiction"] * 3 + ["unknown_type"] * 3
    if rule == "order":
        return {"play": 22, "perft": 10, "solve": 10}, ["order_refused"] * 4 + ["contradiction"] * 4
    if rule == "chaos":
        return {"play": 20, "perft": 8, "solve": 8}, (
            ["chaos_refused"] * 4 + ["draw_not_held"] * 3 + ["draws_without_chaos"] * 3
            + ["solve_missing_draws"] * 4)
    if rule == "swap":
        return {"play": 24, "perft": 8, "solve": 10}, ["swap_without_swap"] * 4 + ["swap_late"] * 4
    if rule in ("all_open", "three_open"):
        return {"play": 20, "perft": 12, "solve": 12}, ["contradiction"] * 6
    return {"play": 20, "perft": 15, "solve": 15}, []


def partner(rule):
    return {"ascension": "descension", "descension": "ascension", "order": "chaos",
            "chaos": "order", "all_open": "three_open", "three_open": "all_open"}[rule]


def rule_cases(rng):
    for rule in RULES:
        print("rule", rule, flush=True)
        kinds, errors = plan(rule)
        n = 0
        for kind, count in kinds.items():
            for _ in range(count):
                n += 1
                yield f"ffxiv/{rule}/{kind}-{n}", build(rng, [rule], kind)
        for what in errors:
            names = sorted([rule, partner(rule)]) if what == "contradiction" else [rule]
            case = None
            while case is None:
                case = error_case(rng, names, what)
            n += 1
            yield f"ffxiv/{rule}/error-{n}", case


def top_up(cases, rng):
    """Plays with the rule on for each rule that has fewer than 50 cases of its own with its flag
    on (its errors about the rule's absence, such as `chaos_draws` without Chaos, do not count):
    drawn from a stream of their own after every other case, so that those stay as they were."""
    for rule in RULES:
        mine = [n for n, c in cases if n.startswith(f"ffxiv/{rule}/")]
        on = sum(1 for n, c in cases if n.startswith(f"ffxiv/{rule}/") and c["state"]["rules"].get(rule))
        for n in range(len(mine) + 1, len(mine) + 1 + max(0, 50 - on)):
            yield f"ffxiv/{rule}/play-{n}", build(rng, [rule], "play")


def pair_cases(rng):
    for a, b in itertools.combinations(RULES, 2):
        names = [a, b]
        if frozenset(names) in CONTRADICTORY:
            for n in range(1, 6):
                yield f"ffxiv/{a}+{b}/error-{n}", error_case(rng, names, "contradiction")
            continue
        for n, kind in enumerate(("play", "play", "play", "perft", "solve"), 1):
            yield f"ffxiv/{a}+{b}/{kind}-{n}", build(rng, names, kind)


def ff8_cases(rng):
    """Same, Plus and Combo without any FFXIV flag: the part of the FFXIV rules the FF8 engine
    shares, to check this reference against today's core."""
    mixes = (["same"], ["plus"], ["same", "plus"])
    for n in range(1, 101):
        names = mixes[n % 3]
        kind = "play" if n % 5 else ("perft" if n % 10 else "solve")
        case = build(rng, names, kind)
        yield f"ffxiv/ff8-subset/{'+'.join(names)}/{kind}-{n}", case


def line(name, case):
    out = {"game": "triple-triad", "kind": case["kind"], "name": name, "note": case["note"]}
    out.update({k: v for k, v in case.items() if k not in ("kind", "note", "expect")})
    out["expect"] = case["expect"]
    return json.dumps(out, separators=(",", ":"))


def main():
    rng = random.Random(39)
    cases = list(worked_cases()) + list(rule_cases(rng)) + list(pair_cases(rng))
    cases += list(top_up(cases, random.Random(3939)))
    names = [n for n, _ in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    OUT.write_text("".join(line(n, c) + "\n" for n, c in cases))
    OUT_FF8.write_text("".join(line(n, c) + "\n" for n, c in ff8_cases(random.Random(8))))
    print(f"{OUT.name}: {len(cases)} cases, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
