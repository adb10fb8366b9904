//! Long matches resume, are watched and are read (issue #34, item 5): 20,000 plies of Triple
//! Triad (a sudden death of draws), Trax to its tile limit (10,000 tiles: the longest a Trax
//! match can be) and a 16-deal Nantong. Each is written into the database as the server stores
//! a match (seed, options, seats, one row a ply, the moves generated with the core), a server
//! started on that database takes it up, and its players resume, sync, spectate, read its history
//! page by page and play on, over real sockets. Every frame stays small whatever the length.

mod common;

use arbiter_core::tripletriad::{Hands, Match, MatchConfig, SuddenDeath};
use arbiter_core::Game;
use common::stored::{generate, players, store, Generated, TIME};
use common::truth::{rng, variant, Truth};
use common::{Client, Database, Server};
use serde_json::{json, Value};

/// The moves a `match_state` carries and the most a `history` answer does (`welcome.limits`).
const RECENT: usize = 50;
const PAGE: usize = 500;

/// A public match of `game` between the first two of `players`, stored with `generated`'s
/// moves, and a server started on it with the first player resumed: the match's id, the
/// server, her client and the `match_state` she got.
async fn resumed_pair(
    db: &Database,
    players: &[(String, i64)],
    game: &str,
    options: Value,
    seed: u64,
    generated: &Generated,
) -> (i64, Server, Client, Value) {
    let users = [players[0].1, players[1].1];
    let id = store(db, game, options, seed, false, &users, &generated.moves).await;
    // A whole history read at once is more requests than the default burst allows.
    let server = Server::start_with(db, &["--rate", "1000", "--burst", "1000"]);
    let mut alice = Client::resumed(&server, &players[0].0).await;
    let state = alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    (id, server, alice, state)
}

/// A `match_state` of a long match: the ply, the last moves as generated, a small frame, and
/// the view the truth gives that seat (or a spectator).
fn check_state(state: &Value, generated: &Generated, seat: Option<usize>, max_bytes: usize) {
    assert_eq!(
        state["type"],
        "match_state",
        "{}",
        &state.to_string()[..200.min(state.to_string().len())]
    );
    let size = state.to_string().len();
    assert!(size <= max_bytes, "a match_state of {size} bytes");
    println!("{} plies: a match_state of {size} bytes", generated.moves.len());
    let ply = generated.moves.len();
    assert_eq!(state["ply"], ply);
    assert_eq!(state["match"]["ply"], ply);
    assert_eq!(state["from"], ply - RECENT);
    let moves = state["moves"].as_array().unwrap();
    assert_eq!(moves.len(), RECENT);
    for (i, m) in moves.iter().enumerate() {
        let at = ply - RECENT + i;
        assert_eq!(m["ply"], at + 1);
        assert_eq!(m["seat"], generated.moves[at].0);
        assert_eq!(m["move"], generated.moves[at].1.as_str());
    }
    assert_eq!(state["seat"], json!(seat));
    generated.truth.check(seat, state);
}

/// Reads the whole move list page by page (each answer small) and checks it against the moves
/// generated: the same records a `match_state` gives, nothing more.
async fn read_history(c: &mut Client, id: i64, generated: &Generated) {
    let ply = generated.moves.len();
    let mut from = 0;
    let (started, mut largest) = (std::time::Instant::now(), 0);
    while from < ply {
        let page = c
            .request(json!({"type": "history", "match": id, "from": from, "count": 100_000}))
            .await;
        assert_eq!(page["type"], "history", "{page}");
        largest = largest.max(page.to_string().len());
        assert!(largest <= 64 * 1024, "a history page of {largest} bytes");
        assert_eq!(
            (page["match"].as_i64(), page["ply"].as_u64(), page["from"].as_u64()),
            (Some(id), Some(ply as u64), Some(from as u64))
        );
        let moves = page["moves"].as_array().unwrap();
        assert_eq!(moves.len(), PAGE.min(ply - from), "a page is the server's maximum");
        for (i, m) in moves.iter().enumerate() {
            let at = from + i;
            let keys: Vec<&str> = m.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys.len(), 5, "{m}");
            assert!(
                keys.iter()
                    .all(|k| ["ply", "seat", "move", "action", "timeout"].contains(k)),
                "{m}"
            );
            assert_eq!(
                (&m["ply"], &m["seat"], &m["move"], &m["timeout"]),
                (
                    &json!(at + 1),
                    &json!(generated.moves[at].0),
                    &json!(generated.moves[at].1),
                    &json!(false)
                )
            );
        }
        from += moves.len();
    }
    println!(
        "{ply} plies read in {} pages in {:?}, the largest {largest} bytes",
        ply.div_ceil(PAGE),
        started.elapsed()
    );
    // Past the end: nothing; a count: that many; a bad page: refused with the reason.
    let end = c
        .request(json!({"type": "history", "match": id, "from": ply + 10}))
        .await;
    assert_eq!(
        (end["from"].as_u64(), end["moves"].as_array().map(Vec::len)),
        (Some(ply as u64), Some(0))
    );
    let three = c
        .request(json!({"type": "history", "match": id, "from": 7, "count": 3}))
        .await;
    assert_eq!(three["moves"].as_array().unwrap().len(), 3);
    assert_eq!(three["moves"][0]["ply"], 8);
    c.refused(json!({"type": "history", "match": id, "from": -1}), "bad_message")
        .await;
    c.refused(json!({"type": "history", "match": id, "count": "all"}), "bad_message")
        .await;
    c.refused(json!({"type": "history", "match": id + 1}), "no_such_match")
        .await;
}

/// Triple Triad where nobody ever captures: every round a 5–5 draw, and sudden death (own
/// colours, no round limit) plays on for ever. The first seed whose hands allow it.
fn endless_triple_triad(plies: usize) -> (u64, Generated) {
    let no_capture = |t: &Truth| {
        let Truth::Tt(m) = t else { unreachable!() };
        let g = m.game();
        let mover = g.to_move()?;
        g.legal_moves()
            .into_iter()
            .find(|&mv| {
                let mut after = g.clone();
                after.play(mv).is_ok() && after.score(mover) == g.score(mover)
            })
            .map(|mv| mv.to_string())
    };
    (1..200)
        .find_map(|seed| {
            let config = MatchConfig {
                sudden_death: SuddenDeath::OwnColours,
                time: Some(TIME as u32),
                ..MatchConfig::default()
            };
            let hands = Hands::random_ff8(seed, None).unwrap();
            let m = Match::new(config, hands.blue, hands.red, seed).unwrap();
            // A quick look at the first rounds before the whole length.
            let long = |n| Some(generate(Truth::Tt(m.clone()), n, no_capture)).filter(|g| g.moves.len() == n);
            long(40)?;
            Some((seed, long(plies)?))
        })
        .expect("a seed whose hands never have to capture")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_thousand_plies_of_triple_triad_resume_are_watched_and_read() {
    let db = Database::fresh().await;
    let p = players(&db, 3).await;
    let plies = 20_004;
    let (seed, generated) = endless_triple_triad(plies);
    let Truth::Tt(m) = &generated.truth else { unreachable!() };
    let rounds = m.rounds().len();
    assert!(rounds > 2_000 && m.rounds().iter().all(|r| r.winner.is_none()));
    // The basic game's rules (none), as the moves were generated under.
    let options = json!({"rules": {}, "sudden_death": "own_colours"});
    let (id, server, mut alice, state) = resumed_pair(&db, &p, "triple-triad", options, seed, &generated).await;
    let seat = generated.truth.to_move();
    check_state(&state, &generated, Some(0), 16 * 1024);
    // The rounds: the last eight listed, the draws before them counted.
    assert_eq!(state["view"]["rounds"].as_array().unwrap().len(), 8);
    assert_eq!(state["view"]["rounds_before"], rounds - 8);
    assert_eq!(state["view"]["round"], rounds + 1);
    let mut bob = Client::resumed(&server, &p[1].0).await;
    bob.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    let synced = bob.request(json!({"type": "sync", "match": id})).await;
    check_state(&synced, &generated, Some(1), 16 * 1024);
    let mut carol = Client::resumed(&server, &p[2].0).await;
    let watched = carol.request(json!({"type": "spectate", "match": id})).await;
    check_state(&watched, &generated, None, 16 * 1024);
    read_history(&mut carol, id, &generated).await;

    // Play goes on: the seat to act moves, every seat and the spectator hear it, each frame small.
    let mover = if seat == Some(0) { &mut alice } else { &mut bob };
    let mv = generated.truth.legal()[0].clone();
    let moved = mover
        .request(json!({"type": "move", "match": id, "move": mv, "ply": plies}))
        .await;
    assert_eq!(moved["type"], "moved", "{moved}");
    assert!(moved.to_string().len() < 8 * 1024, "{moved}");
    carol.moved(id, plies as u64 + 1).await;
    // A player leaves: the match is over, and read from the database alike.
    let left = alice.request(json!({"type": "leave", "match": id})).await;
    assert_eq!(left["type"], "left", "{left}");
    let over = carol.over(id).await;
    assert!(over.to_string().len() < 1024);
    let last = carol
        .request(json!({"type": "history", "match": id, "from": plies - 2}))
        .await;
    assert_eq!(last["ply"], plies + 1);
    assert_eq!(last["moves"][2]["move"], mv.as_str());
    let after = carol.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(
        (after["ply"].as_u64(), after["moves"].as_array().map(Vec::len)),
        (Some(plies as u64 + 1), Some(RECENT))
    );
    assert!(after["result"]["reason"] == "forfeit", "{}", after["result"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trax_to_its_tile_limit_resumes_is_watched_and_read() {
    let db = Database::fresh().await;
    let p = players(&db, 3).await;
    // Ten columns of a thousand straight tiles from `@0+`, column after column: straight tracks
    // only, never a loop (loop Trax has no lines), one tile a turn and none forced (a cell
    // meets one colour from above and the other from the left), until the 10,000th tile leaves
    // no turn that fits (drawn). A column is at most 1,022 tiles long (the core's span limit).
    let mut all = std::iter::once("@0+".to_owned()).chain(
        (1..=10u64)
            .flat_map(|c| (1..=1000).map(move |r| (c, r)))
            .skip(1)
            .map(|(c, r)| format!("{}{r}+", arbiter_core::trax::column_name(c))),
    );
    let generated = generate(Truth::trax(variant("loop")), 9_999, |_| all.next());
    assert_eq!(generated.moves.len(), 9_999);
    let last = all.next().unwrap();
    let (id, server, mut alice, state) = resumed_pair(&db, &p, "trax", json!({"variant": "loop"}), 1, &generated).await;
    // The view is the board's record (the tile limit bounds it: about 9 bytes a tile).
    check_state(&state, &generated, Some(0), 128 * 1024);
    let mut bob = Client::resumed(&server, &p[1].0).await;
    let synced = bob.request(json!({"type": "sync", "match": id})).await;
    check_state(&synced, &generated, Some(1), 128 * 1024);
    let mut carol = Client::resumed(&server, &p[2].0).await;
    let watched = carol.request(json!({"type": "spectate", "match": id})).await;
    check_state(&watched, &generated, None, 128 * 1024);
    read_history(&mut carol, id, &generated).await;

    // White plays the 10,000th tile: no turn fits any more, the match is drawn.
    assert_eq!(generated.truth.to_move(), Some(1));
    let moved = bob
        .request(json!({"type": "move", "match": id, "move": last, "ply": 9_999}))
        .await;
    assert_eq!(moved["type"], "moved", "{moved}");
    let over = carol.over(id).await;
    assert_eq!(over["result"]["outcome"], json!(["drawn", "drawn"]));
    // Over, it is read from the database (replayed): a sync costs that replay.
    let replayed = std::time::Instant::now();
    let after = alice.request(json!({"type": "sync", "match": id})).await;
    println!("the finished match synced in {:?}", replayed.elapsed());
    assert_eq!(after["ply"], 10_000);
    assert!(after.to_string().len() < 128 * 1024);
    let page = alice
        .request(json!({"type": "history", "match": id, "from": 9_990}))
        .await;
    assert_eq!(page["moves"][9]["move"], last.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sixteen_deal_nantong_resumes_and_is_read_by_its_seats_alone() {
    let db = Database::fresh().await;
    let p = players(&db, 4).await;
    // Random players to the end of the 16th deal (about 4,000 plies); stored one move short.
    let seed = 16;
    let random = |plies| {
        let mut r = rng(seed);
        generate(Truth::nantong(seed, 16), plies, move |t| Some(t.pick(&mut r)))
    };
    let whole = random(usize::MAX);
    assert_eq!(whole.truth.to_move(), None, "the match ends");
    let plies = whole.moves.len();
    assert!(plies > 3_900, "{plies} plies");
    // Stored short of the last move a seat makes: the claim questions after it whose only
    // answer is pass are the server's, which would play them as soon as it took the match up.
    let stored = (0..plies).rev().find(|&k| random(k).truth.legal() != ["pass"]).unwrap();
    let generated = random(stored);
    let last = whole.moves[stored].1.clone();
    let id = store(
        &db,
        "nantong",
        json!({"deals": 16}),
        seed,
        true,
        &[p[0].1, p[1].1, p[2].1],
        &generated.moves,
    )
    .await;

    let server = Server::start(&db);
    let mut seats = Vec::new();
    for (s, (token, _)) in p[..3].iter().enumerate() {
        let mut c = Client::resumed(&server, token).await;
        let state = c
            .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
            .await;
        check_state(&state, &generated, Some(s), 32 * 1024);
        seats.push(c);
    }
    read_history(&mut seats[1], id, &generated).await;
    // A private match: no spectator, and no stranger reads its moves either.
    let mut dave = Client::resumed(&server, &p[3].0).await;
    dave.refused(json!({"type": "spectate", "match": id}), "private_match")
        .await;
    dave.refused(json!({"type": "history", "match": id}), "private_match")
        .await;

    let mover = generated.truth.to_move().unwrap();
    let moved = seats[mover]
        .request(json!({"type": "move", "match": id, "move": last, "ply": stored}))
        .await;
    assert_eq!(moved["type"], "moved", "{moved}");
    let over = seats[0].over(id).await;
    assert_eq!(over["result"]["reason"], "finished");
    let after = seats[2].request(json!({"type": "sync", "match": id})).await;
    assert_eq!(after["ply"], plies);
    assert!(after.to_string().len() < 32 * 1024);
    dave.refused(json!({"type": "history", "match": id}), "private_match")
        .await;
}
