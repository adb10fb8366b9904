#!/usr/bin/env python3
"""A match between `arbiter engine trax` and another contest-protocol Trax engine, under the
referee of trax_referee.py (every move checked; the winner is the one `arbiter engine` states on
standard error at the end). Colours alternate: game 2k is arbiter white with seed k, game 2k+1
the same seed with colours swapped. One line of JSON a game goes to --log; the summary gives wins,
losses and draws by colour with 95 % Wilson intervals, and each engine's processor time a move.

    trax_match.py ARBITER --peer 'CMD --seed={seed}' [--peer-dir DIR] --games 40 --time-ms 200 [--threads 2]

The peer's command is split on spaces; {seed} becomes the game's seed. docs/speed.md gives the
command for peryaudo's itersmp-fe."""
import argparse
import json
import math
import re
import sys
import time

from trax_referee import RefereeError, play


def wilson(k, n, z=1.96):
    """The 95 % Wilson score interval of k successes in n, in percent."""
    if n == 0:
        return (0.0, 100.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (100 * (centre - half), 100 * (centre + half))


def summary(label, games):
    n = len(games)
    won = sum(g["result"] == "win" for g in games)
    lost = sum(g["result"] == "loss" for g in games)
    lo, hi = wilson(won, n)
    pct = 100 * won / n if n else 0.0
    return f"{label}: {n} games, won {won}, lost {lost}, drawn {n - won - lost}: {pct:.1f} % won (95 % CI {lo:.1f}-{hi:.1f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("arbiter")
    ap.add_argument("--peer", required=True, help="the other engine's command; {seed} is replaced")
    ap.add_argument("--peer-dir", help="the folder the other engine runs in")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--time-ms", type=int, default=200,
                    help="arbiter's time a move; 0: the level's node budget on one thread, which a loaded "
                         "machine does not distort (against another arbiter, say, for a change's effect)")
    ap.add_argument("--threads", type=int, default=2, help="arbiter's threads")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--variant", default="unbounded")
    ap.add_argument("--colours", choices=["both", "white", "red"], default="both",
                    help="arbiter's colours (one colour: one game a seed)")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--max-moves", type=int, default=300, help="a game this long is scored a draw")
    ap.add_argument("--log", help="append one JSON line a game")
    a = ap.parse_args()
    log = open(a.log, "a") if a.log else None
    games = []
    for i in range(a.games):
        if a.colours == "both":
            seed, colour = a.first_seed + i // 2, ("white" if i % 2 == 0 else "red")
        else:
            seed, colour = a.first_seed + i, a.colours
        ours = [a.arbiter, "engine", "trax", "--variant", a.variant, "--level", a.level, "--seed", str(seed)]
        if a.time_ms:
            ours += ["--time-ms", str(a.time_ms), "--threads", str(a.threads)]
        peer = a.peer.replace("{seed}", str(seed)).split()
        white_cmd, red_cmd = (ours, peer) if colour == "white" else (peer, ours)
        cwd = (None, a.peer_dir) if colour == "white" else (a.peer_dir, None)
        start = time.monotonic()
        try:
            moves, white, red = play(a.arbiter, a.variant, white_cmd, red_cmd, a.max_moves, strict=False, cwd=cwd)
        except RefereeError as e:
            print(f"game {i + 1}: referee: {e}", file=sys.stderr)
            sys.exit(1)
        us, them = (white, red) if colour == "white" else (red, white)
        said = re.search(r"game over: (white|red) wins by (.*)|game over: a draw", us.errors())
        if said is None:
            result, how = "draw", f"unfinished after {len(moves)} moves"
        elif said.group(1) is None:
            result, how = "draw", "draw"
        else:
            result, how = ("win" if said.group(1) == colour else "loss"), said.group(2)
        ours_moves = (len(moves) + (colour == "white")) // 2
        game = {"game": i + 1, "seed": seed, "arbiter": colour, "result": result, "how": how, "plies": len(moves),
                "cpu_ms_per_move": {"arbiter": round(1000 * us.cpu / max(ours_moves, 1)),
                                    "peer": round(1000 * them.cpu / max(len(moves) - ours_moves, 1))},
                "wall_s": round(time.monotonic() - start, 1), "moves": " ".join(moves),
                "peer_said": (them.errors().strip().splitlines() or [""])[-1][-200:]}
        games.append(game)
        if log:
            log.write(json.dumps(game) + "\n")
            log.flush()
        print(f"game {i + 1:3} seed {seed:3} arbiter {colour:5}: {result:4} ({how}, {len(moves)} moves; cpu/move "
              f"arbiter {game['cpu_ms_per_move']['arbiter']} ms, peer {game['cpu_ms_per_move']['peer']} ms)", flush=True)
    print(summary("all", games))
    for colour in ("white", "red"):
        print(summary(f"arbiter as {colour}", [g for g in games if g["arbiter"] == colour]))


if __name__ == "__main__":
    main()
