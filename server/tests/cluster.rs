//! Two `arbiter-server` processes on one PostgreSQL database: one lobby (presence, a challenge
//! made through one process and accepted through the other, moves reaching players on either),
//! each match owned by one process at a time, and, when a process is killed, the other taking its
//! matches over: the computer seat thinks there, the clock runs out there from its stored deadline,
//! and the player who was connected to the dead process resumes on the other with every
//! acknowledged move.
//!
//! These need PostgreSQL: `server/test.sh` runs them under `server/scripts/postgres.sh`, which
//! sets `ARBITER_TEST_DATABASE`; on SQLite (one process a file) they say so and pass.

mod common;

use common::truth::{rng, variant, Truth};
use common::{moves_of, name, start_match, Client, Database, Server};
use serde_json::json;
use sqlx::Row as _;

async fn postgres() -> Option<Database> {
    let db = Database::fresh().await;
    if db.is_postgres() {
        Some(db)
    } else {
        eprintln!("cluster tests: not on PostgreSQL (ARBITER_TEST_DATABASE unset): nothing to test");
        None
    }
}

/// The process that owns match `id` (its node id), while that process is alive: the owner
/// named in the match's row holds its node's advisory lock.
async fn live_owner(db: &Database, id: i64) -> Option<i64> {
    let pool = db.pool().await;
    let row = sqlx::query(
        "SELECT m.owner FROM matches m WHERE m.id = $1 AND EXISTS (SELECT 1 FROM pg_locks l \
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
         AND ((l.classid::bigint << 32) | l.objid::bigint) = ((1::bigint << 60) | m.owner))",
    )
    .bind(id)
    .fetch_optional(&pool)
    .await
    .unwrap();
    pool.close().await;
    row.map(|r| r.try_get::<i64, _>("owner").unwrap())
}

/// Waits until match `id` has a live owner, and returns it.
async fn owner(db: &Database, id: i64) -> i64 {
    new_owner(db, id, None).await
}

/// Waits until match `id` has a live owner other than `gone`, and returns it: a killed process
/// keeps its lock until PostgreSQL has noticed its client is gone.
async fn new_owner(db: &Database, id: i64, gone: Option<i64>) -> i64 {
    for _ in 0..100 {
        if let Some(one) = live_owner(db, id).await {
            if Some(one) != gone {
                return one;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!(
        "match {id} never had a live owner besides {gone:?}: {:?}",
        live_owner(db, id).await
    );
}

/// Whether the match still runs after `mv`.
fn keeps_running(truth: &Truth, mv: &str) -> bool {
    let mut after = truth.clone();
    after.play(mv);
    after.to_move().is_some()
}

/// A move for the seat to act that leaves the match running whatever the other seat answers: the
/// matches of these tests must outlive their scripts (a computer seat's answer comes from the
/// match's own random seed, and a Trax loop can close within a few plies). `None` when every
/// move lets some answer end the match: after a random seat's answers, about 1 position in 250
/// at the fifth ply of 8x8.
fn lasting(truth: &Truth, rng: &mut arbiter_core::Rng) -> Option<String> {
    let safe = |mv: &String| {
        let mut after = truth.clone();
        after.play(mv);
        after.to_move().is_some() && after.legal().iter().all(|reply| keeps_running(&after, reply))
    };
    (0..32)
        .map(|_| truth.pick(rng))
        .find(&safe)
        .or_else(|| truth.legal().into_iter().find(&safe))
}

/// Plays `plies` plies of a Trax match between two people, each through its own client: the
/// mover sends, both wait for the `moved`. Returns the moves told.
async fn play_trax(
    id: i64,
    seats: [&mut Client; 2],
    truth: &mut Truth,
    from_ply: u64,
    plies: u64,
    seed: u64,
) -> Vec<String> {
    let mut r = rng(seed);
    let mut told = Vec::new();
    let [white, red] = seats;
    for ply in from_ply..from_ply + plies {
        let seat = truth.to_move().expect("the match runs");
        let mv = lasting(truth, &mut r).expect("a move that keeps the match running");
        let mover = if seat == 0 { &mut *white } else { &mut *red };
        mover
            .send(json!({"type": "move", "match": id, "move": mv, "ply": ply, "id": 1000 + ply}))
            .await;
        let a = white.moved(id, ply + 1).await;
        let b = red.moved(id, ply + 1).await;
        assert_eq!((&a["move"], &a["seat"]), (&b["move"], &b["seat"]));
        assert_eq!(a["move"], mv);
        truth.play(&mv);
        told.push(mv);
    }
    told
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_serve_one_lobby() {
    let Some(db) = postgres().await else { return };
    let a = Server::start(&db);
    let b = Server::start(&db);

    let mut bob = Client::connect(&b).await;
    let bob_name = name("bob");
    bob.register(&bob_name).await;
    let lobby = bob.request(json!({"type": "lobby"})).await;
    assert_eq!(lobby["type"], "lobby");

    // Presence crosses: bob, on B, hears alice come online on A; alice's lobby lists bob.
    let mut alice = Client::connect(&a).await;
    let alice_name = name("alice");
    alice.register(&alice_name).await;
    bob.expect_where(|v| v["type"] == "presence" && v["user"]["name"] == alice_name.as_str() && v["online"] == true)
        .await;
    let lobby = alice.request(json!({"type": "lobby"})).await;
    let online: Vec<&str> = lobby["online"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["name"].as_str())
        .collect();
    assert!(
        online.contains(&bob_name.as_str()) && online.contains(&alice_name.as_str()),
        "{lobby}"
    );

    // A challenge made through A, accepted through B; the lobby of B lists it first.
    let challenge = json!({"game": "trax", "options": {"variant": "8x8"},
        "seats": [{"kind": "me"}, {"kind": "open"}], "time": 60});
    let mut msg = challenge.clone();
    msg["type"] = "challenge".into();
    let made = alice.request(msg).await;
    assert_eq!(made["type"], "challenge_created", "{made}");
    let cid = made["challenge"]["id"].as_i64().unwrap();
    let open = bob
        .expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["id"] == cid)
        .await;
    assert_eq!(open["challenge"]["by"]["name"], alice_name.as_str());
    let accepted = bob.request(json!({"type": "accept", "challenge": cid})).await;
    assert_eq!(accepted["type"], "accepted", "{accepted}");
    let started = alice.expect("match_started").await;
    let id = started["match"]["id"].as_i64().unwrap();
    alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    bob.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;

    // Exactly one process owns it.
    owner(&db, id).await;

    // Moves made on either process reach both players; a spectator on A sees them too.
    let mut carol = Client::connect(&a).await;
    let watch = carol.request(json!({"type": "spectate", "match": id})).await;
    assert_eq!(watch["type"], "match_state", "{watch}");
    let mut truth = Truth::trax(variant("8x8"));
    let told = play_trax(id, [&mut alice, &mut bob], &mut truth, 0, 8, 11).await;
    for ply in 1..=8u64 {
        let m = carol.moved(id, ply).await;
        assert_eq!(m["move"], told[ply as usize - 1].as_str());
    }

    // A move out of turn through the other process is refused there, and nothing changes.
    let seat = truth.to_move().unwrap();
    let wrong = if seat == 0 { &mut bob } else { &mut alice };
    wrong
        .refused(
            json!({"type": "move", "match": id, "move": truth.legal()[0], "ply": 8}),
            "not_your_turn",
        )
        .await;
    let state = alice.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(moves_of(&state), told);
    let state = bob.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(moves_of(&state), told);

    // Leaving through B ends the match for everyone, A's players and spectators included.
    let leaver = if seat == 0 { &mut alice } else { &mut bob };
    leaver.send(json!({"type": "leave", "match": id})).await;
    let over = alice.over(id).await;
    assert_eq!(over["result"]["reason"], "forfeit");
    bob.over(id).await;
    carol.over(id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_survivor_takes_over_a_killed_process_s_matches() {
    let Some(db) = postgres().await else { return };
    let mut a = Server::start(&db);
    let b = Server::start(&db);

    let mut alice = Client::connect(&a).await;
    let alice_name = name("alice");
    alice.register(&alice_name).await;
    let mut bob = Client::connect(&b).await;
    let bob_name = name("bob");
    bob.register(&bob_name).await;

    // m1: bob's challenge through B, accepted by alice through A, so the match starts on A and
    // A owns it; the shortest clock, so that it runs out on the survivor.
    let people = start_match(
        &mut bob,
        &mut [&mut alice],
        json!({"game": "trax", "options": {"variant": "8x8"},
               "seats": [{"kind": "me"}, {"kind": "player", "name": alice_name}], "time": 15}),
    )
    .await;
    // m2: alice against a computer seat, made on A.
    let made = alice
        .request(
            json!({"type": "challenge", "game": "trax", "options": {"variant": "8x8"},
                        "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}], "time": 60}),
        )
        .await;
    assert_eq!(made["type"], "challenge_created", "{made}");
    let started = alice.expect("match_started").await;
    let computer = started["match"]["id"].as_i64().unwrap();
    alice
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == computer)
        .await;
    let a_owner = owner(&db, people).await;
    assert_eq!(owner(&db, computer).await, a_owner, "both matches start on A");

    // m1: bob (white) and alice play three plies.
    let mut truth = Truth::trax(variant("8x8"));
    let mut told = play_trax(people, [&mut bob, &mut alice], &mut truth, 0, 3, 5).await;
    // m2: alice moves, the computer answers, twice.
    let mut vs = Truth::trax(variant("8x8"));
    let mut r = rng(9);
    for ply in [0u64, 2] {
        let mv = lasting(&vs, &mut r).expect("a move that keeps the match running");
        alice
            .send(json!({"type": "move", "match": computer, "move": mv, "ply": ply}))
            .await;
        alice.moved(computer, ply + 1).await;
        vs.play(&mv);
        let answer = alice.moved(computer, ply + 2).await;
        vs.play(answer["move"].as_str().unwrap());
    }
    // The fourth ply of m1, acknowledged: the next seat's clock runs, its deadline stored.
    told.extend(play_trax(people, [&mut bob, &mut alice], &mut truth, 3, 1, 6).await);
    let last = bob
        .frames
        .iter()
        .rev()
        .find(|v| v["type"] == "moved" && v["match"] == people && v["ply"] == 4)
        .unwrap();
    let deadline = last["deadline"].as_i64().unwrap();

    a.kill9();
    // B takes both matches over within a sweep or two.
    let b_owner = new_owner(&db, people, Some(a_owner)).await;
    assert_eq!(owner(&db, computer).await, b_owner);

    // Alice comes back through B with her token: both matches, every acknowledged move.
    let mut again = Client::connect(&b).await;
    let resumed = again
        .request(json!({"type": "resume", "token": alice.token.clone().unwrap()}))
        .await;
    assert_eq!(resumed["type"], "authenticated", "{resumed}");
    let s1 = again
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == people)
        .await;
    assert_eq!(moves_of(&s1), told);
    assert_eq!(s1["deadline"], deadline, "the clock is the stored one");
    let s2 = again
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == computer)
        .await;
    assert_eq!(s2["moves"].as_array().unwrap().len(), 4);

    // The computer seat thinks on B now. Only its answer matters from here, so when no move is
    // safe against every answer (the computer's earlier answers came from a random seed), any
    // move that leaves it to answer will do.
    let mv = lasting(&vs, &mut r)
        .or_else(|| vs.legal().into_iter().find(|mv| keeps_running(&vs, mv)))
        .expect("a move that leaves the computer to answer");
    again
        .send(json!({"type": "move", "match": computer, "move": mv, "ply": 4}))
        .await;
    again.moved(computer, 5).await;
    let answer = again.moved(computer, 6).await;
    assert_eq!(answer["seat"], 1);

    // Nobody moves in m1: B plays the timeout move when the stored deadline passes.
    let timed = bob.moved(people, 5).await;
    assert_eq!(timed["timeout"], true, "{timed}");
    assert_eq!(timed["seat"], truth.to_move().unwrap());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(now >= deadline, "played {} ms before the deadline", deadline - now);
    let seen = again.moved(people, 5).await;
    assert_eq!(seen["move"], timed["move"]);
}

/// An end is told once whichever process tells it: written to a player's connection by the
/// process that did not end the match, it is not sent again when the player resumes on the one
/// that did; and a player away at the end hears of it through either process, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_s_end_is_told_once_across_processes() {
    let Some(db) = postgres().await else { return };
    let quiet = std::time::Duration::from_millis(500);
    let a = Server::start(&db);
    let b = Server::start(&db);
    let mut alice = Client::connect(&a).await;
    alice.register(&name("alice")).await;
    alice.request(json!({"type": "lobby"})).await;
    let mut bob = Client::connect(&b).await;
    bob.register(&name("bob")).await;
    let bob_id = bob.user.as_ref().unwrap()["id"].as_i64().unwrap();
    let token = bob.token.clone().unwrap();
    let trax = json!({"game": "trax", "time": 60});

    // Alice leaves through A; B writes the end to bob and marks it told.
    let first = start_match(&mut alice, &mut [&mut bob], trax.clone()).await;
    let left = alice.request(json!({"type": "leave", "match": first})).await;
    assert_eq!(left["type"], "left", "{left}");
    let over = bob.over(first).await;
    db.all_told(bob_id).await;
    let mut on_a = Client::resumed(&a, &token).await;
    on_a.settle(quiet).await;
    assert!(on_a.frames_of("match_over", first).is_empty(), "{over} told twice");

    // Every connection of bob's gone, the second match ends on A: he hears of it through B, once.
    let second = start_match(&mut alice, &mut [&mut bob], trax).await;
    on_a.drop_seen_by(&mut alice).await;
    bob.drop_seen_by(&mut alice).await;
    alice.request(json!({"type": "leave", "match": second})).await;
    let over = alice.over(second).await;
    let mut on_b = Client::resumed(&b, &token).await;
    on_b.settle(quiet).await;
    assert_eq!(on_b.frames_of("match_over", second), [over]);
    assert!(on_b.frames_of("match_over", first).is_empty());
    let mut on_a = Client::resumed(&a, &token).await;
    on_a.settle(quiet).await;
    assert!(on_a.frames_of("match_over", second).is_empty());
}
