//! Clocks: a seat whose time runs out gets the core's timeout move played for it, also while it
//! is disconnected; reconnecting with the token restores the seat, its view and the move list.
//! The protocol's shortest clock is 15 seconds, and this test waits for it: the server has no
//! test-only switch.

mod common;

use arbiter_core::tripletriad::Player;
use arbiter_core::{Engine, Game};
use common::truth::{check_frames, variant, Truth};
use common::{start_match, Client, Database, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_plays_the_timeout_move_and_a_dropped_seat_comes_back() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
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
    let tt_truth = Truth::tt("ttonline", None, 15, seed);
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
