#!/usr/bin/env python3
"""A referee outside the engine: two `arbiter engine trax` processes play a whole game over the
contest line protocol, and every move is checked by replaying the game so far with `arbiter
perft` (which refuses an illegal move). Usage: trax_referee.py ARBITER [VARIANT] [LEVEL ...].
Exits non-zero on a protocol error, an illegal move, or a game that does not end."""
import subprocess
import sys

arbiter = sys.argv[1]
variant = sys.argv[2] if len(sys.argv) > 2 else "8x8"
extra = sys.argv[3:] or ["--level", "expert"]


def engine(seed):
    cmd = [arbiter, "engine", "trax", "--variant", variant, "--seed", str(seed)] + extra
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def fail(why):
    print("referee:", why, file=sys.stderr)
    sys.exit(1)


def moves_left(moves):
    """perft 1 after the moves: the number of legal moves, 0 once the game is over; fails on an
    illegal move."""
    r = subprocess.run([arbiter, "perft", "trax", "1", "--variant", variant, "--moves", " ".join(moves), "--threads", "1"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"illegal game {' '.join(moves)}: {r.stderr.strip()}")
    return int(r.stdout.split()[2])


white, red = engine(1), engine(2)
for p in (white, red):
    send(p, "-T")
    if not p.stdout.readline().strip():
        fail("no player id")
send(red, "-B")
send(white, "-W")
moves, mover, other = [], white, red
while True:
    line = mover.stdout.readline().strip()
    if not line:
        break  # the mover saw the game end (or stopped): the referee checks below
    moves.append(line)
    if moves_left(moves) == 0:
        break
    if len(moves) > 200:
        fail("no end after 200 moves")
    send(other, line)
    mover, other = other, mover
for p in (white, red):
    p.stdin.close()
    if p.wait(timeout=60) != 0:
        fail(f"an engine exited with {p.returncode}")
if not moves or moves_left(moves) != 0:
    fail(f"the game did not end: {' '.join(moves)}")
print(f"trax referee ({variant}): {len(moves)} legal moves, the game over: {' '.join(moves)}")
