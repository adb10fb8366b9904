#!/usr/bin/env python3
"""A referee outside the engines: two Trax engines play a whole game over the contest line
protocol (`-T`, `-W`, `-B`, then moves in official notation), and every move is checked by
replaying the game so far with `arbiter perft` (which refuses an illegal move).

As a script, two `arbiter engine trax` processes play one game: trax_referee.py ARBITER [VARIANT]
[LEVEL OPTION ...]. It exits non-zero on a protocol error, an illegal move, or a game that does not
end. trax_match.py uses `play` for matches against other programs."""
import os
import subprocess
import sys
import tempfile
import time


class RefereeError(Exception):
    """A protocol error, an illegal move or an engine that failed."""


def moves_left(arbiter, variant, moves):
    """perft 1 after the moves: the number of legal moves, 0 once the game is over; raises on an
    illegal move."""
    r = subprocess.run([arbiter, "perft", "trax", "1", "--variant", variant, "--moves", " ".join(moves), "--threads", "1"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RefereeError(f"illegal game {' '.join(moves)}: {r.stderr.strip()}")
    return int(r.stdout.split()[2])


class Engine:
    """An engine process; its standard error goes to a file (an engine may write a lot there),
    read back by `errors`."""

    def __init__(self, cmd, cwd=None):
        self.err = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                  text=True, bufsize=1)
        self.cpu = 0.0

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read(self):
        return self.p.stdout.readline().strip()

    def close(self, timeout):
        """Closes its input and waits for it (killed after `timeout` seconds): its exit status;
        `cpu` gets the seconds of processor time it used, all its threads together."""
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        end = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(self.p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > end:
                self.p.kill()
                _, status, usage = os.wait4(self.p.pid, 0)
                break
            time.sleep(0.01)
        self.cpu = usage.ru_utime + usage.ru_stime
        self.p.returncode = os.waitstatus_to_exitcode(status)
        return self.p.returncode

    def errors(self):
        self.err.seek(0)
        return self.err.read()


def play(arbiter, variant, white_cmd, red_cmd, max_moves=200, strict=True, cwd=(None, None)):
    """One game between two engine commands (run in the folders `cwd`, white's and red's), every
    move checked. Returns (moves, white, red): the
    moves played and the two finished Engine objects (their `cpu` and `errors()`). A game past
    `max_moves` stops there (its last position still open); with `strict` that is an error, as is
    an engine that stops before the end or exits with a failure."""
    white, red = Engine(white_cmd, cwd[0]), Engine(red_cmd, cwd[1])
    try:
        for e in (white, red):
            e.send("-T")
            if not e.read():
                raise RefereeError("no player id")
        red.send("-B")
        white.send("-W")
        moves, mover, other = [], white, red
        while True:
            line = mover.read()
            if not line:
                break  # the mover saw the game end (or stopped): checked below
            moves.append(line)
            if moves_left(arbiter, variant, moves) == 0:
                # The other engine sees the last move too, as from a contest server.
                other.send(line)
                break
            if len(moves) >= max_moves:
                if strict:
                    raise RefereeError(f"no end after {max_moves} moves")
                break
            other.send(line)
            mover, other = other, mover
    finally:
        for e in (white, red):
            status = e.close(timeout=60)
            if status != 0 and strict:
                raise RefereeError(f"an engine exited with {status}: {e.errors()[-2000:]}")
    if strict and (not moves or moves_left(arbiter, variant, moves) != 0):
        raise RefereeError(f"the game did not end: {' '.join(moves)}")
    return moves, white, red


def main():
    arbiter = sys.argv[1]
    variant = sys.argv[2] if len(sys.argv) > 2 else "8x8"
    extra = sys.argv[3:] or ["--level", "expert"]

    def engine(seed):
        return [arbiter, "engine", "trax", "--variant", variant, "--seed", str(seed)] + extra

    try:
        moves, _, _ = play(arbiter, variant, engine(1), engine(2))
    except RefereeError as e:
        print("referee:", e, file=sys.stderr)
        sys.exit(1)
    print(f"trax referee ({variant}): {len(moves)} legal moves, the game over: {' '.join(moves)}")


if __name__ == "__main__":
    main()
