//! `arbiter engine trax` through its line protocol: two engine processes play a whole game with
//! a referee between them that checks every move with the core, and the protocol's other turns.

use arbiter_core::trax::{Move, Trax, Variant};
use arbiter_core::Game;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The binary under test; `ARBITER_BIN` points the tests at another build (an older one, to see
/// a bug's test fail).
fn bin() -> String {
    std::env::var("ARBITER_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_arbiter").to_string())
}

struct Engine {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(bin())
            .args(["engine", "trax"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Engine { child, to, from }
    }

    fn send(&mut self, token: &str) {
        writeln!(self.to, "{token}").unwrap();
        self.to.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        self.from.read_line(&mut s).unwrap();
        s.trim_end().to_string()
    }
}

/// Plays a game between two engines; returns the referee's game.
fn referee(variant: &str, white: &[&str], red: &[&str]) -> Trax {
    let v: Variant = variant.parse().unwrap();
    let mut engines = [
        Engine::start(&[&["--variant", variant], white].concat()),
        Engine::start(&[&["--variant", variant], red].concat()),
    ];
    for e in &mut engines {
        e.send("-T");
        assert_eq!(e.line(), "arbiter");
    }
    engines[1].send("-B");
    engines[0].send("-W");
    let mut g = Trax::new(v);
    let mut side = 0;
    while !g.is_over() {
        let text = engines[side].line();
        let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        g.play(mv).unwrap_or_else(|e| panic!("{g:?}: {mv} refused: {e}"));
        assert!(g.tiles() < 2_000, "no end in sight");
        side = 1 - side;
        if !g.is_over() {
            engines[side].send(&text);
        }
    }
    // The winner's engine has stopped; the other is told the last move and stops too.
    engines[side].send(&g.history().last().unwrap().to_string());
    // Both state the result on standard error, for a referee that does not know the rules.
    let said = match g.win() {
        Some(w) => format!("game over: {} wins by a", w.winner),
        None => "game over: a draw".to_string(),
    };
    for mut e in engines {
        drop(e.to);
        let status = e.child.wait().unwrap();
        assert!(status.success(), "{status}");
        assert_eq!(e.from.lines().count(), 0, "nothing after the end");
        let mut err = String::new();
        e.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert!(err.starts_with(&said), "{err:?} for {said:?}");
    }
    g
}

#[test]
fn two_engines_play_a_whole_game_through_the_protocol() {
    let g = referee("8x8", &["--level", "medium", "--seed", "3"], &["--level", "hard"]);
    assert!(g.is_over());
    let g = referee("unbounded", &["--level", "easy"], &["--level", "medium", "--seed", "5"]);
    assert!(g.is_over());
}

#[test]
fn an_illegal_opponent_move_is_an_error() {
    let out = Command::new(bin())
        .args(["engine", "trax", "--level", "easy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"-B\n@0\\\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("illegal") && err.contains("@0\\"), "{err}");
}

#[test]
fn a_time_budget_plays_whole_games_on_one_or_two_threads() {
    let g = referee(
        "unbounded",
        &["--time-ms", "20", "--threads", "2"],
        &["--time-ms", "20", "--threads", "1", "--seed", "4"],
    );
    assert!(g.is_over());
}

#[test]
fn a_time_cap_still_gives_a_legal_move() {
    let mut e = Engine::start(&["--time-ms", "5"]);
    e.send("-R @0+");
    let mv: Move = e.line().parse().unwrap();
    let mut g = Trax::new(Variant::Unbounded);
    g.play("@0+".parse().unwrap()).unwrap();
    g.play(mv).unwrap();
    drop(e.to);
    assert!(e.child.wait().unwrap().success());
}

/// The engine's output and errors for `input`, and whether it succeeded.
fn engine_with(input: &[u8]) -> (bool, String, String) {
    let mut child = Command::new(bin())
        .args(["engine", "trax", "--level", "easy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_engine_keeps_its_colour() {
    // -W once: one opening move, then the second -W is refused (it used to play for red too).
    let (ok, out, err) = engine_with(b"-W\n-W\n-W\n");
    assert!(
        !ok && out.lines().count() == 1 && err.contains("already plays white"),
        "{out}{err}"
    );
    // -B then -W: refused before any move (red used to open).
    let (ok, out, err) = engine_with(b"-B\n-W\n");
    assert!(!ok && out.is_empty() && err.contains("already plays red"), "{out}{err}");
    // A move first makes the engine the other player: a later -W is refused.
    let (ok, out, err) = engine_with(b"@0+\n-W\n");
    assert!(
        !ok && out.lines().count() == 1 && err.contains("already plays red"),
        "{out}{err}"
    );
    // The id can be asked at any time.
    let (ok, out, _) = engine_with(b"-T\n-B\n-T\n");
    assert!(ok && out == "arbiter\narbiter\n", "{out}");
}

#[test]
fn an_endless_line_is_refused_without_reading_it_whole() {
    let mut child = Command::new(bin())
        .args(["engine", "trax"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    // 64 MB without a newline, a megabyte at a time, until the engine stops reading.
    let chunk = vec![b'A'; 1 << 20];
    let mut sent = 0;
    while sent < 64 << 20 && to.write_all(&chunk).is_ok() {
        sent += chunk.len();
    }
    drop(to);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("longer than 65536 bytes"),
        "{err}"
    );
    assert!(sent < 8 << 20, "{sent} bytes were read before the refusal");
}
