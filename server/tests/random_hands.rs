//! The random rule over real sockets: each hand drawn from its player's own collection, refused
//! at the challenge and the accept to a player with fewer than five cards, at stake under a
//! winner rule like a deck (the cards drawn locked, then settled), and the options a challenge
//! accepts all played: what would not be is refused. The economy's invariant is audited after.
//! On SQLite, and on PostgreSQL when the test command provides it.

mod common;

use std::collections::HashMap;

use arbiter_core::Rng;
use common::economy::{play, Played, Player};
use common::{Client, Database, Server};
use serde_json::{json, Value};

const ARGS: &[&str] = &["--rate", "2000", "--burst", "2000"];

/// How many copies of each card (by name) `p` owns.
async fn owned(p: &mut Player) -> HashMap<String, u64> {
    let stash = p.c.request(json!({"type": "tt_stash"})).await;
    let mut out = HashMap::new();
    for e in stash["cards"].as_array().expect("a stash") {
        let name = e["card"]["card"]["name"].as_str().unwrap().to_owned();
        *out.entry(name).or_default() += e["count"].as_u64().unwrap();
    }
    out
}

/// The hand `p` holds at the start of match `id`, by name.
async fn hand(p: &mut Player, id: i64) -> Vec<String> {
    let state = p.c.request(json!({"type": "sync", "match": id})).await;
    let hand = state["view"]["observation"]["hand"].as_array().expect("a hand");
    hand.iter().map(|c| c["name"].as_str().unwrap().to_owned()).collect()
}

/// Every card of `hand` owned by `p`, as often as it is held.
async fn from_own_collection(p: &mut Player, hand: &[String]) {
    let owned = owned(p).await;
    assert_eq!(hand.len(), 5, "{hand:?}");
    for name in hand {
        let held = hand.iter().filter(|n| *n == name).count() as u64;
        assert!(
            held <= owned.get(name).copied().unwrap_or(0),
            "{name} is not {}'s: {owned:?}",
            p.name
        );
    }
}

/// `a`'s challenge to `b` with `options`, accepted (without a deck): the match's id.
async fn accepted(a: &mut Player, b: &mut Player, options: Value) -> i64 {
    let r =
        a.c.request(json!({"type": "challenge", "game": "triple-triad", "options": options,
                        "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}]}))
            .await;
    assert_eq!(r["type"], "challenge_created", "{r}");
    let cid = r["challenge"]["id"].as_i64().unwrap();
    // A deck would not be played: it is refused, not ignored.
    b.c.refused(
        json!({"type": "accept", "challenge": cid, "deck": "Main"}),
        "bad_challenge",
    )
    .await;
    let acc = b.c.request(json!({"type": "accept", "challenge": cid})).await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    let started =
        a.c.expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
            .await;
    assert!(
        started["match"]["options"]["hands"].is_null(),
        "the hands never reach a client"
    );
    started["match"]["id"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_hands_come_from_each_collection_and_go_at_stake() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut a = Player::new(&server, "blue").await;
    let mut b = Player::new(&server, "red").await;
    // No starter taken: no card at all.
    let mut poor = Client::player(&server, "poor").await;
    let random = json!({"rules": {"random": true}, "sudden_death": "own_colours"});
    poor.refused(
        json!({"type": "challenge", "game": "triple-triad", "options": random}),
        "too_few_cards",
    )
    .await;
    let open =
        a.c.request(json!({"type": "challenge", "game": "triple-triad", "options": random}))
            .await;
    let cid = open["challenge"]["id"].as_i64().expect("an open challenge");
    let r = poor
        .refused(json!({"type": "accept", "challenge": cid}), "too_few_cards")
        .await;
    assert!(r["message"].as_str().unwrap().contains("five cards"), "{r}");
    a.c.request(json!({"type": "withdraw", "challenge": cid})).await;

    // Without stakes: each hand is five of its player's own cards, nothing locked.
    let id = accepted(&mut a, &mut b, random.clone()).await;
    let (blue, red) = (hand(&mut a, id).await, hand(&mut b, id).await);
    from_own_collection(&mut a, &blue).await;
    from_own_collection(&mut b, &red).await;
    let locked = "SELECT COUNT(*) AS n FROM tt_cards WHERE locked_by = $1";
    assert_eq!(db.count(locked, &[id]).await, 0);
    let mut rng = Rng::new(5);
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 500).await, Played::Over);

    // With a winner rule the cards drawn are at stake: locked until the end, then settled.
    let stake = json!({"trade": "direct", "gils": 0, "customs": "mush"});
    let staked = json!({"rules": {"random": true}, "sudden_death": "own_colours", "stake": stake});
    let id = accepted(&mut a, &mut b, staked).await;
    let (blue, red) = (hand(&mut a, id).await, hand(&mut b, id).await);
    from_own_collection(&mut a, &blue).await;
    from_own_collection(&mut b, &red).await;
    assert_eq!(db.count(locked, &[id]).await, 10);
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 500).await, Played::Over);
    a.c.expect_where(|v| v["type"] == "tt_settled" && v["match"] == id)
        .await;
    assert_eq!(db.count(locked, &[id]).await, 0);
    db.audit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_accepted_is_an_option_played() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut a = Player::new(&server, "blue").await;
    let stake = json!({"trade": "one", "gils": 0, "customs": "mush"});
    // Each option the core describes for Triple Triad, and the server's own fields, given a
    // value that changes nothing it plays, is refused: never taken and ignored.
    for (options, why) in [
        // The core's winner rule moves cards only at stake: the stake names it.
        (json!({"trade": "one"}), "options.trade"),
        (json!({"trade": "training"}), "options.trade"),
        // No deck is played when the hands are drawn.
        (
            json!({"rules": {"random": true}, "deck": "Main", "stake": stake}),
            "options.deck",
        ),
    ] {
        let r =
            a.c.refused(
                json!({"type": "challenge", "game": "triple-triad", "options": options}),
                "bad_challenge",
            )
            .await;
        assert!(r["message"].as_str().unwrap().contains(why), "{options}: {r}");
    }
    // Nor against the computer without stakes, which deals the hands: named by deck or cards.
    let mut rng = Rng::new(3);
    assert!(a.deck("Main", &mut rng).await);
    let computer = json!([{"kind": "me"}, {"kind": "computer", "level": "random"}]);
    for (extra, options) in [
        (json!({}), json!({"deck": "Main"})),
        (json!({"cards": ["A001", "A001", "A001", "A001", "A001"]}), json!({})),
    ] {
        let mut msg = json!({"type": "challenge", "game": "triple-triad", "options": options, "seats": computer});
        msg.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let r = a.c.refused(msg, "bad_challenge").await;
        assert!(r["message"].as_str().unwrap().contains("options.deck"), "{r}");
    }
    assert_eq!(db.count("SELECT COUNT(*) AS n FROM tt_seat_decks", &[]).await, 0);
    db.audit();
}
