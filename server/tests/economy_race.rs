//! Two clients of one player racing over real sockets: the one copy of a card into one deck, two
//! purchases with points for one. Both requests are on the wire before either answer is read;
//! one wins, the other gets a clear error, and the invariant holds. On SQLite, and on PostgreSQL
//! when the test command provides it.

mod common;

use arbiter_core::Rng;
use common::economy::{play, staked_match, Played, Player};
use common::{Client, Database, Server};
use serde_json::{json, Value};

const ARGS: &[&str] = &["--rate", "2000", "--burst", "2000"];

/// A second connection of `p`, logged in with the harness's password.
async fn second(server: &Server, p: &Player) -> Client {
    let mut c = Client::connect(server).await;
    let r = c
        .request(json!({"type": "login", "name": p.name, "password": "password1"}))
        .await;
    assert_eq!(r["type"], "authenticated", "{r}");
    c
}

/// Sends `x` on `one` and `y` on `two`, both before reading, and returns the two answers.
async fn race(one: &mut Client, x: Value, two: &mut Client, y: Value) -> (Value, Value) {
    let (mut x, mut y) = (x, y);
    x["id"] = 9001.into();
    y["id"] = 9002.into();
    tokio::join!(one.send(x), two.send(y));
    let (a, b) = tokio::join!(
        one.expect_where(|v| v["re"] == 9001),
        two.expect_where(|v| v["re"] == 9002)
    );
    (a, b)
}

/// Exactly one of the answers is `ok`, the other an error with `code` and a message.
fn one_wins(a: &Value, b: &Value, ok: &str, code: &str) {
    let (won, lost) = if a["type"] == ok { (a, b) } else { (b, a) };
    assert_eq!(won["type"], ok, "neither won: {a} {b}");
    assert_eq!(
        (lost["type"].as_str(), lost["code"].as_str()),
        (Some("error"), Some(code)),
        "{lost}"
    );
    assert!(lost["message"].as_str().is_some_and(|m| !m.is_empty()), "{lost}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_of_one_player_race_for_one_card_and_for_points() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut rng = Rng::new(4);
    let mut a = Player::new(&server, "racer").await;
    let mut b = Player::new(&server, "other").await;
    let mut twin = second(&server, &a).await;

    // The one copy of a card into one deck, four times over (a fifth would fill the deck, which
    // refuses the loser as full): added by both connections at once,
    // it is there once. A deck is a list: the same copy then goes into another deck too.
    for deck in ["One", "Two"] {
        let r =
            a.c.request(json!({"type": "tt_deck", "op": "create", "name": deck}))
                .await;
        assert_eq!(r["type"], "tt_deck", "{r}");
    }
    let stash = a.c.request(json!({"type": "tt_stash"})).await;
    let singles: Vec<String> = stash["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["count"] == 1)
        .map(|e| e["card"]["id"].as_str().unwrap().to_owned())
        .take(4)
        .collect();
    assert!(
        !singles.is_empty(),
        "a starter of 20 cards without a single copy: {stash}"
    );
    for card in &singles {
        let add = |deck: &str| json!({"type": "tt_deck", "op": "add", "name": deck, "cards": [card]});
        let (x, y) = race(&mut a.c, add("One"), &mut twin, add("One")).await;
        one_wins(&x, &y, "tt_deck", "not_owned");
        let r = twin.request(add("Two")).await;
        assert_eq!(r["type"], "tt_deck", "{r}");
    }
    let decks = a.c.request(json!({"type": "tt_decks"})).await;
    let held: usize = decks["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cards"].as_array().unwrap().len())
        .sum();
    assert_eq!(held, 2 * singles.len(), "{decks}");

    // Points for one purchase: the winner of a match with nothing at stake has 10.
    for p in [&mut a, &mut b] {
        let _ =
            p.c.request(json!({"type": "tt_deck", "op": "delete", "name": "One"}))
                .await;
        let _ =
            p.c.request(json!({"type": "tt_deck", "op": "delete", "name": "Two"}))
                .await;
        assert!(p.deck("Main", &mut rng).await);
    }
    let id = staked_match(&mut a, &mut b, json!({"trade": "none", "gils": 0, "customs": "mush"}))
        .await
        .unwrap();
    assert_eq!(play([&mut a.c, &mut b.c], id, &mut rng, 500).await, Played::Over);
    let (buyer, other) = if a.wallet().await.0 == 10 {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let mut twin = second(&server, buyer).await;
    assert_eq!(buyer.wallet().await, (10, 20));
    let buy = json!({"type": "tt_buy", "series": "A", "level": 1});
    let (x, y) = race(&mut buyer.c, buy.clone(), &mut twin, buy).await;
    one_wins(&x, &y, "tt_bought", "not_enough_points");
    assert_eq!(buyer.wallet().await, (0, 21));
    assert_eq!(other.wallet().await, (5, 20));
    let figures = db.audit();
    assert_eq!(
        (
            figures["cards"].as_i64(),
            figures["purchases"].as_i64(),
            figures["points"].as_i64()
        ),
        (Some(41), Some(1), Some(5)),
        "{figures}"
    );
    println!(
        "races: {} card races and one purchase race, one winner each; invariant {figures}",
        singles.len()
    );
}
