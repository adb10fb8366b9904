//! Clocks: a seat whose time runs out gets the core's timeout move played for it, also while it
//! is disconnected; reconnecting with the token restores the seat, its view and the move list.
//! The protocol's shortest clock is 15 seconds, and this test waits for it: the server has no
//! test-only switch.

mod common;

use arbiter_core::tripletriad::Player;
use arbiter_core::{Engine, Game};
use common::truth::{check_frames, variant, Truth};
use std::time::Duration;

use common::{start_match, Client, Database, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_plays_the_timeout_move_and_a_dropped_seat_comes_back() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let bob_token = bob.token.clone().unwrap();

    // Trax: alice opens, then bob drops on his turn and his clock runs on.
    let trax = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 15})).await;
    // Triple Triad (ttonline: open hands): nobody moves; the player to move times out.
    let tt = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "triple-triad", "options": {"preset": "ttonline"}, "time": 15}),
    )
    .await;
    let tt_state = alice.request(json!({"type": "sync", "match": tt})).await;
    let tt_deadline = tt_state["deadline"].as_i64().unwrap();

    alice
        .send(json!({"type": "move", "match": trax, "move": "@0+", "ply": 0}))
        .await;
    let first = alice.moved(trax, 1).await;
    let trax_deadline = first["deadline"].as_i64().unwrap();
    assert!(first["remaining_ms"].as_i64().unwrap() > 14_000);
    drop(bob);

    let mut truth = Truth::trax(variant("8x8"));
    truth.play("@0+");
    let Truth::Trax(g) = &truth else { unreachable!() };
    let expected = g.timeout_move().unwrap().to_string();
    let timed_out = alice.moved(trax, 2).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(now >= trax_deadline, "played {} ms early", trax_deadline - now);
    assert!(now < trax_deadline + 3_000, "played {} ms late", now - trax_deadline);
    assert_eq!(timed_out["timeout"], true);
    assert_eq!(timed_out["seat"], 1);
    assert_eq!(timed_out["move"], expected.as_str());
    assert_eq!(timed_out["to_move"], 0);

    // Triple Triad: the match layer's own timeout move (a function of the state).
    let seed = db.seed(tt).await;
    let tt_truth = Truth::tt("ttonline", None, 15, seed, db.hands(tt).await);
    let Truth::Tt(m) = &tt_truth else { unreachable!() };
    let mover = m
        .game()
        .to_move()
        .map(|p: Player| arbiter_core::tripletriad::TripleTriad::player_index(p))
        .unwrap();
    let t = alice.moved(tt, 1).await;
    assert_eq!(
        (t["timeout"].clone(), t["seat"].as_u64().unwrap() as usize),
        (json!(true), mover)
    );
    assert_eq!(t["move"], m.timeout_move().unwrap().to_string().as_str());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(now >= tt_deadline && now < tt_deadline + 3_000);

    // Bob comes back with his token: his seat, his view and both move lists.
    let mut bob = Client::connect(&server).await;
    let r = bob.request(json!({"type": "resume", "token": bob_token})).await;
    assert_eq!(r["type"], "authenticated");
    let s1 = bob
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == trax)
        .await;
    assert_eq!(s1["seat"], 1);
    assert_eq!(
        s1["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["@0+", expected.as_str()]
    );
    assert_eq!(s1["moves"][1]["timeout"], true);
    let s2 = bob
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == tt)
        .await;
    assert_eq!(s2["seat"], 1);
    let mut after = tt_truth.clone();
    after.play(t["move"].as_str().unwrap());
    check_frames(std::slice::from_ref(&s2), tt, Some(1), &[tt_truth.clone(), after]);
    // And plays on from there.
    let mut t2 = truth.clone();
    t2.play(&expected);
    let next = t2.legal()[0].clone();
    alice
        .send(json!({"type": "move", "match": trax, "move": next, "ply": 2}))
        .await;
    assert_eq!(bob.moved(trax, 3).await["move"], next.as_str());
    // A token forgotten by logout no longer resumes.
    bob.send(json!({"type": "logout"})).await;
    assert!(bob.next().await.is_none() || bob.next().await.is_none());
    let mut again = Client::connect(&server).await;
    again
        .refused(json!({"type": "resume", "token": bob_token}), "bad_token")
        .await;
}

/// A computer seat whose move the database fails to store (here: another process holds
/// SQLite's write lock past the server's 10 s busy timeout) tries again, and moves long before
/// its clock would have played the timeout move for it. SQLite only: PostgreSQL waits for a
/// lock without failing, and the server has no test-only switch to make it fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_seat_whose_move_fails_to_commit_tries_again() {
    let db = Database::fresh().await;
    if db.is_postgres() {
        eprintln!("skipped on PostgreSQL: no way to make one commit fail from outside");
        return;
    }
    let server = Server::start_with(&db, &["--think-ms", "2000"]);
    let mut alice = Client::player(&server, "alice").await;
    // The expert opens (white) and thinks up to 2 s: meanwhile the database is locked.
    let r = alice
        .request(json!({"type": "challenge", "game": "trax", "time": 60,
                        "seats": [{"kind": "computer", "level": "expert"}, {"kind": "me"}]}))
        .await;
    assert_eq!(r["type"], "challenge_created", "{r}");
    let st = alice.expect("match_state").await;
    let id = st["match"]["id"].as_i64().unwrap();
    let deadline = st["deadline"].as_i64().unwrap();
    let pool = db.pool().await;
    let mut lock = pool.acquire().await.unwrap();
    sqlx::raw_sql("BEGIN IMMEDIATE").execute(&mut *lock).await.unwrap();
    assert!(
        alice.request(json!({"type": "sync", "match": id})).await["moves"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the expert moved before the lock: the test tests nothing"
    );
    // Held until the first attempt has failed (2 s of thinking, then 10 s of busy waiting).
    tokio::time::sleep(Duration::from_secs(14)).await;
    sqlx::raw_sql("ROLLBACK").execute(&mut *lock).await.unwrap();
    drop(lock);
    pool.close().await;
    let moved = alice.moved(id, 1).await;
    assert_eq!(moved["timeout"], false, "the clock played for the computer: {moved}");
    assert_eq!(moved["seat"], 0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(
        now < deadline - 30_000,
        "the computer moved only {} ms before its clock ran out",
        deadline - now
    );
}
