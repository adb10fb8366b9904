//! Nantong among three people over real sockets: the server answers the claim questions whose
//! only answer is `pass` without telling anybody that it did, shows every hand once a deal is
//! over (never before), and a shared first place is won by both seats.

mod common;

use std::time::{Duration, Instant};

use common::stored::{generate, players, store};
use common::truth::{rng, Truth};
use common::{start_match, Client, Database, Server};
use serde_json::{json, Value};

/// Long beside the frames' ways to the test: a question is timed from the moment the test reads
/// the frame that put it, which a loaded machine can delay by a few hundred milliseconds.
const PAUSE_MS: u64 = 600;
/// How much sooner than the pause an answer may seem told, for that delay: an answer not held
/// at all would come within a few milliseconds.
const SLACK_MS: u64 = 300;

async fn three(server: &Server) -> [Client; 3] {
    [
        Client::player(server, "ann").await,
        Client::player(server, "ben").await,
        Client::player(server, "cat").await,
    ]
}

async fn nantong(c: &mut [Client; 3]) -> i64 {
    let [a, b, d] = c;
    start_match(
        a,
        &mut [b, d],
        json!({"game": "nantong", "options": {"deals": 1}, "time": 60,
               "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]}),
    )
    .await
}

/// What a seat can tell of an answer from its `moved` frame, what depends on the rest of the
/// deal left out (the observer's own next question, a draw when the claims are over): the
/// fields of the frame and of its view, the move, and the answer as the last event.
fn shape(m: &Value) -> Value {
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let o = &m["view"]["observation"];
    json!({
        "keys": keys(m), "view": keys(&m["view"]), "observation": keys(o),
        "move": m["move"], "action": m["action"], "timeout": m["timeout"],
        "event": [o["last_event"]["action"], o["last_event"]["took"]],
        "last_deal": m["view"]["last_deal"],
    })
}

/// Every claim question is answered; a seat whose only answer is `pass` never acts, and each
/// other seat sees its pass exactly as a pass chosen at once by a seat that could have claimed:
/// the same frame, no sooner than the claim pause after the question either way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_pass_looks_like_a_chosen_one() {
    let db = Database::fresh().await;
    let pause = PAUSE_MS.to_string();
    let server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000", "--claim-pause-ms", &pause]);
    let mut c = three(&server).await;
    let id = nantong(&mut c).await;
    let seed = db.seed(id).await;
    let mut truth = Truth::nantong(seed, 1);
    let mut r = rng(seed);
    let mut ply = 0u64;
    // (forced, what another seat saw, how long after it saw the question it saw the answer)
    let mut answers: Vec<(bool, Value, Duration)> = Vec::new();
    let mut forced_by_server = 0;
    let mut asked = Instant::now();
    while let Some(seat) = truth.to_move() {
        let legal = truth.legal();
        let forced = legal == ["pass"];
        let claim = legal.iter().any(|m| m == "pass");
        if !forced {
            // A seat that could claim passes at once; anything else is a random move.
            let mv = if claim { "pass".to_owned() } else { truth.pick(&mut r) };
            c[seat]
                .send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
                .await;
        }
        ply += 1;
        let other = (seat + 1) % 3;
        let seen = c[other].moved(id, ply).await;
        let after = asked.elapsed();
        // The next question is put by this frame: its answer is timed from here.
        asked = Instant::now();
        for (s, client) in c.iter_mut().enumerate() {
            if s != other {
                client.moved(id, ply).await;
            }
        }
        assert_eq!(seen["seat"], seat);
        assert_eq!(seen["timeout"], false, "{seen}");
        if claim {
            assert_eq!(seen["move"], "pass");
            answers.push((forced, seen.clone(), after));
            forced_by_server += usize::from(forced);
        }
        truth.play(seen["move"].as_str().unwrap());
        let (f, ch) = (
            answers.iter().filter(|a| a.0).count(),
            answers.iter().filter(|a| !a.0).count(),
        );
        if f >= 6 && ch >= 2 {
            break;
        }
        assert!(
            ply < 400,
            "too few claim questions with a choice: {f} forced, {ch} chosen"
        );
    }
    assert!(forced_by_server >= 6);
    let pause = Duration::from_millis(PAUSE_MS);
    for (forced, m, after) in &answers {
        // Told no sooner than the pause (less the frames' ways to the test), and soon after.
        assert!(
            *after + Duration::from_millis(SLACK_MS) >= pause && *after < pause + Duration::from_millis(1500),
            "forced {forced}: told after {after:?}"
        );
        let text = m.to_string();
        assert!(!text.contains("forced") && !text.contains("server"), "{text}");
    }
    let shapes = |forced: bool| -> Vec<Value> {
        let mut v: Vec<Value> = answers.iter().filter(|a| a.0 == forced).map(|a| shape(&a.1)).collect();
        v.sort_by_key(|s| s.to_string());
        v.dedup();
        v
    };
    // A chosen pass's frame is one a forced pass also gives (per seat that passed).
    let forced = shapes(true);
    for chosen in shapes(false) {
        assert!(
            forced.contains(&chosen),
            "a chosen pass shows as {chosen}, forced ones as {forced:?}"
        );
    }
}

/// Once a deal is over every seat and the spectators see every hand and the score; until
/// then nobody sees another's hand in `last_deal`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_hand_is_shown_at_the_end_of_a_deal_and_not_before() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000", "--claim-pause-ms", "0"]);
    let mut c = three(&server).await;
    let id = nantong(&mut c).await;
    let seed = db.seed(id).await;
    let mut truth = Truth::nantong(seed, 1);
    let mut r = rng(seed);
    let mut ply = 0u64;
    let mut last: Vec<Value> = Vec::new();
    let mut before = None;
    while let Some(seat) = truth.to_move() {
        if truth.legal() != ["pass"] {
            let mv = truth.pick(&mut r);
            c[seat]
                .send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
                .await;
        }
        before = Some(truth.clone());
        ply += 1;
        last.clear();
        for client in c.iter_mut() {
            last.push(client.moved(id, ply).await);
        }
        truth.play(last[0]["move"].as_str().unwrap());
        if truth.to_move().is_some() {
            for m in &last {
                assert!(m["view"]["last_deal"].is_null(), "shown before the end: {m}");
            }
        }
        assert!(ply < 5000);
    }
    let Some(Truth::Nt { deal, .. }) = before else {
        unreachable!()
    };
    let mut deal = deal.clone();
    deal.play(last[0]["move"].as_str().unwrap().parse().unwrap()).unwrap();
    use arbiter_core::nantong::Seat;
    use arbiter_core::Game;
    let hands: Vec<Value> = Seat::ALL
        .iter()
        .map(|&s| serde_json::to_value(deal.observation(s).hand).unwrap())
        .collect();
    for m in &last {
        let shown = &m["view"]["last_deal"];
        assert_eq!(shown["hands"], json!(hands), "{m}");
        assert_eq!(shown["score"]["settlement"], json!(deal.score().unwrap().settlement));
    }
    let mut dan = Client::connect(&server).await;
    let state = dan.request(json!({"type": "spectate", "match": id})).await;
    assert_eq!(state["view"]["last_deal"]["hands"], json!(hands), "{state}");
}

/// Two seats sharing the best total both win, in the result and in their stats (the settlement
/// pays each of them by the third); the third loses. The match is one deal of random moves,
/// the first seed whose deal ends so, stored one move short and finished over a socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_first_place_is_won_by_both() {
    let db = Database::fresh().await;
    let p = players(&db, 3).await;
    let random = |seed: u64, plies| {
        let mut r = rng(seed);
        generate(Truth::nantong(seed, 1), plies, move |t| Some(t.pick(&mut r)))
    };
    let (seed, whole, totals) = (0..5_000u64)
        .find_map(|seed| {
            let whole = random(seed, usize::MAX);
            let Truth::Nt { deal, .. } = &whole.truth else {
                unreachable!()
            };
            let totals = deal.score()?.settlement;
            let best = *totals.iter().max()?;
            (totals.iter().filter(|&&t| t == best).count() == 2).then_some((seed, whole, totals))
        })
        .expect("a random deal with a shared first place");
    let plies = whole.moves.len();
    let generated = random(seed, plies - 1);
    let id = store(
        &db,
        "nantong",
        json!({"deals": 1}),
        seed,
        false,
        &[p[0].1, p[1].1, p[2].1],
        &generated.moves,
    )
    .await;
    // A last pass that is the only answer is the server's, played the claim pause after the
    // match was stored: time for the three to come back first and be told the end live.
    let server = Server::start_with(&db, &["--claim-pause-ms", "5000"]);
    let mut seats = Vec::new();
    for (token, _) in &p {
        let mut c = Client::resumed(&server, token).await;
        c.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
            .await;
        seats.push(c);
    }
    let mover = generated.truth.to_move().unwrap();
    if generated.truth.legal() != ["pass"] {
        let last = &whole.moves[plies - 1].1;
        seats[mover]
            .send(json!({"type": "move", "match": id, "move": last, "ply": plies - 1}))
            .await;
    }
    let best = *totals.iter().max().unwrap();
    let first: Vec<usize> = (0..3).filter(|&s| totals[s] == best).collect();
    let over = seats[0].over(id).await;
    assert_eq!(over["result"]["winners"], json!(first), "{over}");
    assert_eq!(over["result"]["scores"], json!(totals));
    for (s, c) in seats.iter_mut().enumerate() {
        let outcome = if first.contains(&s) { "won" } else { "lost" };
        assert_eq!(over["result"]["outcome"][s], outcome);
        if s > 0 {
            assert_eq!(c.over(id).await["result"], over["result"]);
        }
        let stats = c.request(json!({"type": "stats"})).await;
        assert_eq!(stats["games"]["nantong"][outcome], 1, "seat {s}: {stats}");
    }
}
