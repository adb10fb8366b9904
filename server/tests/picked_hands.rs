//! Picked hands over real sockets: a Triple Triad game between people plays the five cards each
//! picked from their own collection (five card ids with the challenge, a deck with the accept, or
//! the current deck), which the match's record keeps and the opponent never sees under closed
//! rules; what a player cannot play (a card not theirs, too few copies, not five, over the
//! level limit, no deck at all) is refused with its reason before anything changes. The
//! economy's invariant is audited after. On SQLite, and on PostgreSQL when the test command
//! provides it.

mod common;

use arbiter_core::Rng;
use common::economy::{play, Played, Player};
use common::{Database, Server};
use serde_json::{json, Value};

const ARGS: &[&str] = &["--rate", "2000", "--burst", "2000"];

/// Five copies of `p`'s stash as card ids, the highest levels first.
async fn five(p: &mut Player) -> (Vec<String>, Vec<String>, u64) {
    let stash = p.c.request(json!({"type": "tt_stash"})).await;
    let mut copies = Vec::new();
    for e in stash["cards"].as_array().expect("a stash") {
        for _ in 0..e["count"].as_u64().unwrap() {
            let card = &e["card"];
            copies.push((
                card["card"]["level"].as_u64().unwrap(),
                card["id"].as_str().unwrap().to_owned(),
                card["card"]["name"].as_str().unwrap().to_owned(),
            ));
        }
    }
    copies.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    copies.truncate(5);
    let levels = copies.iter().map(|c| c.0).sum();
    let ids = copies.iter().map(|c| c.1.clone()).collect();
    let names = copies.into_iter().map(|c| c.2).collect();
    (ids, names, levels)
}

/// `a`'s challenge to `b` under `options`, `extra` fields added to the request.
fn challenge(b: &Player, options: Value, extra: Value) -> Value {
    let mut msg = json!({"type": "challenge", "game": "triple-triad", "options": options,
                         "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}]});
    msg.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    msg
}

fn names(hand: &[arbiter_core::tripletriad::Card]) -> Vec<String> {
    hand.iter().map(|c| c.name.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_the_five_they_pick_and_nobody_sees_them_first() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut a = Player::new(&server, "blue").await;
    let mut b = Player::new(&server, "red").await;
    let mut rng = Rng::new(11);
    assert!(b.deck("Main", &mut rng).await);
    let deck = b.c.request(json!({"type": "tt_decks"})).await;
    let b_names: Vec<String> = deck["decks"][0]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1]["card"]["name"].as_str().unwrap().to_owned())
        .collect();
    let (ids, a_names, _) = five(&mut a).await;

    // Closed rules: the challenge, the invitation and the opponent's view never hold the cards.
    let closed = json!({"rules": {"same": true}, "sudden_death": "own_colours"});
    let made = a.c.request(challenge(&b, closed.clone(), json!({"cards": ids}))).await;
    assert_eq!(made["type"], "challenge_created", "{made}");
    let cid = made["challenge"]["id"].as_i64().unwrap();
    let open =
        b.c.expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["id"] == cid)
            .await;
    for frame in [&made, &open] {
        assert!(ids.iter().all(|id| !frame.to_string().contains(id.as_str())), "{frame}");
    }
    let acc =
        b.c.request(json!({"type": "accept", "challenge": cid, "deck": "Main"}))
            .await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    let started =
        b.c.expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
            .await;
    let id = started["match"]["id"].as_i64().unwrap();
    assert!(started["match"]["options"]["hands"].is_null(), "{started}");
    // The record keeps the hands: blue's five picked, red's deck.
    let hands = db.hands(id).await;
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(sorted(names(&hands.blue)), sorted(a_names.clone()));
    assert_eq!(sorted(names(&hands.red)), sorted(b_names.clone()));
    let view = b.c.request(json!({"type": "sync", "match": id})).await;
    let theirs = &view["view"]["observation"]["opponent_hand"];
    assert!(theirs.as_array().unwrap().iter().all(Value::is_null), "{view}");
    let mine: Vec<&str> = view["view"]["observation"]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(sorted(mine.iter().map(|s| s.to_string()).collect()), sorted(b_names));
    // Nothing is at stake: no card locked.
    let locked = "SELECT COUNT(*) AS n FROM tt_cards WHERE locked_by = $1";
    assert_eq!(db.count(locked, &[id]).await, 0);
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 500).await, Played::Over);

    // Open rules show each hand to the other; nobody named a hand: each plays their current
    // deck (a's first deck, made now).
    assert!(a.deck("First", &mut rng).await);
    let open_rules = json!({"rules": {"open": true}, "sudden_death": "own_colours"});
    let made = a.c.request(challenge(&b, open_rules, json!({}))).await;
    let cid = made["challenge"]["id"].as_i64().expect("a challenge");
    let acc = b.c.request(json!({"type": "accept", "challenge": cid})).await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    let started =
        b.c.expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
            .await;
    let id = started["match"]["id"].as_i64().unwrap();
    let hands = db.hands(id).await;
    let view = b.c.request(json!({"type": "sync", "match": id})).await;
    let shown: Vec<String> = view["view"]["observation"]["opponent_hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(shown, names(&hands.blue));
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 500).await, Played::Over);
    db.audit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_player_cannot_play_is_refused_with_its_reason() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut a = Player::new(&server, "blue").await;
    let mut b = Player::new(&server, "red").await;
    let plain = json!({"preset": "mush"});
    // No hand named and no deck yet: told how to name one.
    let r = a.c.refused(challenge(&b, plain.clone(), json!({})), "no_deck").await;
    assert!(r["message"].as_str().unwrap().contains("+TT/Accept <Deck>"), "{r}");
    let (ids, _, levels) = five(&mut a).await;
    let cards = |f: &dyn Fn(&mut Vec<String>)| {
        let mut c = ids.clone();
        f(&mut c);
        json!({"cards": c})
    };
    let cases = [
        (
            cards(&|c| {
                c.pop();
            }),
            "deck_unusable",
        ),
        (cards(&|c| c[0] = "Z999".into()), "no_such_card"),
        (cards(&|c| c[0] = "Omega Weapon".into()), "not_owned"),
        (cards(&|c| c[0] = "x\u{1b}[2J".into()), "no_such_card"),
        (
            json!({"cards": ids, "options": {"preset": "mush", "deck": "Main"}}),
            "bad_challenge",
        ),
    ];
    for (extra, code) in cases {
        let options = extra.get("options").cloned().unwrap_or(plain.clone());
        let mut extra = extra.clone();
        extra.as_object_mut().unwrap().remove("options");
        a.c.refused(challenge(&b, options, extra), code).await;
    }
    a.c.refused(challenge(&b, json!({"deck": "Nope"}), json!({})), "no_such_deck")
        .await;
    // A card held once, named twice.
    let stash = a.c.request(json!({"type": "tt_stash"})).await;
    let entries = stash["cards"].as_array().unwrap();
    let once = entries.iter().find(|e| e["count"] == 1).expect("a card held once");
    let mut twice = vec![once["card"]["id"].clone(); 2];
    twice.extend(
        entries
            .iter()
            .filter(|e| e != &once)
            .take(3)
            .map(|e| e["card"]["id"].clone()),
    );
    let r =
        a.c.refused(challenge(&b, plain.clone(), json!({"cards": twice})), "not_owned")
            .await;
    assert!(r["message"].as_str().unwrap().contains("not 2"), "{r}");
    // Only Triple Triad plays a hand: named for another game it is refused, never ignored.
    let trax = json!({"type": "challenge", "game": "trax", "cards": ids, "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}]});
    let r = a.c.refused(trax, "bad_challenge").await;
    assert!(r["message"].as_str().unwrap().contains("only Triple Triad"), "{r}");
    // Over the game's deck level limit (the core's, the preset's when none is given).
    let limit = levels - 1;
    let r =
        a.c.refused(
            challenge(&b, json!({"deck_level_limit": limit}), json!({"cards": ids})),
            "deck_unusable",
        )
        .await;
    assert!(
        r["message"].as_str().unwrap().contains(&format!("limit of {limit}")),
        "{r}"
    );
    assert_eq!(db.count("SELECT COUNT(*) AS n FROM challenges", &[]).await, 0);

    // The accept alike: a refused pick takes no seat, and the challenge waits for a good one.
    let made = a.c.request(challenge(&b, plain.clone(), json!({"cards": ids}))).await;
    let cid = made["challenge"]["id"].as_i64().expect("a challenge");
    b.c.refused(json!({"type": "accept", "challenge": cid}), "no_deck")
        .await;
    b.c.refused(
        json!({"type": "accept", "challenge": cid, "cards": vec!["Omega Weapon"; 5]}),
        "not_owned",
    )
    .await;
    b.c.refused(
        json!({"type": "accept", "challenge": cid, "deck": "Main", "cards": ids}),
        "bad_challenge",
    )
    .await;
    let (theirs, _, _) = five(&mut b).await;
    let acc =
        b.c.request(json!({"type": "accept", "challenge": cid, "cards": theirs}))
            .await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    // With a stake nothing is put at stake unnamed, even with a current deck.
    let mut rng = Rng::new(5);
    assert!(a.deck("Main", &mut rng).await);
    let stake = json!({"preset": "mush", "stake": {"trade": "one", "gils": 0, "customs": "mush"}});
    a.c.refused(challenge(&b, stake, json!({})), "no_deck").await;
    db.audit();
}
