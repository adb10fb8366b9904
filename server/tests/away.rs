//! A player away when their match ended hears of it later: the `match_over` (and, with stakes,
//! the `tt_settled`) that went out while they had no connection open comes after their next
//! `login` or `resume`, the very frame the others got, once; a player connected at the end never
//! gets it again. Across two processes: `tests/cluster.rs`.

mod common;

use std::time::Duration;

use arbiter_core::Rng;
use common::economy::{play, Played, Player};
use common::{start_match, Client, Database, Server};
use serde_json::{json, Value};

/// How long a client listens for frames that must not come.
const QUIET: Duration = Duration::from_millis(500);

/// A new connection of `name` logged in by password, with what came after `authenticated` read
/// until nothing more comes.
async fn logged_in(server: &Server, name: &str) -> Client {
    let mut c = Client::connect(server).await;
    let r = c
        .request(json!({"type": "login", "name": name, "password": "password1"}))
        .await;
    assert_eq!(r["type"], "authenticated", "{r}");
    c.settle(QUIET).await;
    c
}

/// A new connection resumed with `token`, with what came after `authenticated` read until
/// nothing more comes.
async fn resumed(server: &Server, token: &str) -> Client {
    let mut c = Client::resumed(server, token).await;
    c.settle(QUIET).await;
    c
}

/// Told already: neither a resume nor a login of this user's brings match `id`'s end or
/// settlement again.
async fn told_already(server: &Server, name: &str, token: &str, id: i64) {
    for again in [resumed(server, token).await, logged_in(server, name).await] {
        assert_eq!(again.frames_of("match_over", id), Vec::<Value>::new());
        assert_eq!(again.frames_of("tt_settled", id), Vec::<Value>::new());
    }
}

/// Where the first frame `pick` accepts is among everything `c` received.
fn position(c: &Client, pick: impl Fn(&Value) -> bool) -> usize {
    c.frames.iter().position(pick).expect("the frame came")
}

fn user_id(c: &Client) -> i64 {
    c.user.as_ref().unwrap()["id"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_that_ended_while_away_is_told_at_the_next_resume_once() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let (bob_name, token) = (bob.name(), bob.token.clone().unwrap());
    alice.request(json!({"type": "lobby"})).await;
    let id = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 60})).await;

    // Bob's connection drops; alice leaves meanwhile: the match ends with nobody to tell bob.
    bob.drop_seen_by(&mut alice).await;
    let left = alice.request(json!({"type": "leave", "match": id})).await;
    assert_eq!(left["type"], "left", "{left}");
    let over = alice.over(id).await;
    assert_eq!(over["result"]["reason"], "forfeit");

    // He comes back: after `authenticated`, the very frame alice got, once.
    let bob = resumed(&server, &token).await;
    assert_eq!(bob.frames_of("match_over", id), [over]);
    assert!(
        position(&bob, |v| v["type"] == "authenticated") < position(&bob, |v| v["type"] == "match_over"),
        "{:?}",
        bob.frames
    );
    // Told: neither a second resume nor a login brings it again.
    told_already(&server, &bob_name, &token, id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_connected_at_the_end_are_not_told_again_at_login() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000"]);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let id = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "triple-triad", "options": {"preset": "ff8"}, "time": 60}),
    )
    .await;
    // Played to its end by moves, both connected: both get the end then.
    let mut rng = Rng::new(5);
    assert_eq!(play([&mut alice, &mut bob], id, &mut rng, 500).await, Played::Over);
    for c in [&alice, &bob] {
        assert_eq!(c.frames_of("match_over", id).len(), 1);
        // Written to their sockets: nothing is kept for them any more.
        db.all_told(user_id(c)).await;
    }
    for c in [alice, bob] {
        let (name, token) = (c.name(), c.token.clone().unwrap());
        drop(c);
        told_already(&server, &name, &token, id).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settlement_of_a_stake_is_told_at_login_to_the_player_away() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--rate", "2000", "--burst", "2000"]);
    let mut rng = Rng::new(7);
    let mut a = Player::new(&server, "blue").await;
    let mut b = Player::new(&server, "red").await;
    assert!(a.deck("Main", &mut rng).await && b.deck("Main", &mut rng).await);
    for p in [&mut a, &mut b] {
        p.c.request(json!({"type": "lobby"})).await;
    }
    // The cards the rule decides (Direct) at stake, no sudden death: the ninth card ends it.
    let r =
        a.c.request(json!({
            "type": "challenge", "game": "triple-triad", "time": 60,
            "options": {"sudden_death": "off", "deck_level_limit": 20, "deck": "Main",
                        "stake": {"trade": "direct", "gils": 0, "customs": "mush"}},
            "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}],
        }))
        .await;
    assert_eq!(r["type"], "challenge_created", "{r}");
    let cid = r["challenge"]["id"].as_i64().unwrap();
    let acc =
        b.c.request(json!({"type": "accept", "challenge": cid, "deck": "Main"}))
            .await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    let started =
        a.c.expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
            .await;
    let id = started["match"]["id"].as_i64().unwrap();
    for c in [&mut a.c, &mut b.c] {
        c.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
            .await;
    }
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 8).await, Played::Paused);

    // The seat not to play the last card goes away; the other plays it.
    let state = a.c.request(json!({"type": "sync", "match": id})).await;
    let (mover, away) = if state["to_move"] == 0 {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let gone = std::mem::replace(&mut away.c, Client::connect(&server).await);
    gone.drop_seen_by(&mut mover.c).await;
    let view = mover.c.request(json!({"type": "sync", "match": id})).await;
    let cell = (0..9)
        .find(|&c| view["view"]["observation"]["board"][c].is_null())
        .unwrap();
    let last = mover
        .c
        .request(json!({"type": "move", "match": id, "move": format!("0@{cell}"), "ply": 8}))
        .await;
    assert_eq!(
        (&last["type"], &last["to_move"]),
        (&json!("moved"), &Value::Null),
        "{last}"
    );
    let over = mover.c.over(id).await;
    let settled = mover
        .c
        .expect_where(|v| v["type"] == "tt_settled" && v["match"] == id)
        .await;

    // The away player logs in: the end, then the settlement, each the frame the other got.
    away.c = logged_in(&server, &away.name).await;
    assert_eq!(away.c.frames_of("match_over", id), [over]);
    assert_eq!(away.c.frames_of("tt_settled", id), [settled]);
    assert!(
        position(&away.c, |v| v["type"] == "match_over") < position(&away.c, |v| v["type"] == "tt_settled"),
        "{:?}",
        away.c.frames
    );
    // Once: neither comes again, nor to the player who was there.
    told_already(&server, &away.name, &away.token, id).await;
    db.all_told(mover.id).await;
    told_already(&server, &mover.name, &mover.token, id).await;
    db.audit();
}
