//! The picking window over real sockets: once every seat of a Triple Triad game between people
//! is taken, whoever named no five picks them (`pick`, `+TT/Pick`) before the operator's clock
//! (`--pick-seconds`) runs out; whoever named theirs with the challenge or the accept skips it;
//! the opponent is told who still picks, never what anyone picked. When the clock runs out, the
//! current deck plays if the game admits it, else the challenge closes (`pick_timeout`) with
//! nothing staked. The text interface accepts with five card ids too. The economy's invariant is
//! audited after. On SQLite, and on PostgreSQL when the test command provides it.

mod common;

use common::text::Text;
use common::{Client, Database, Server};
use serde_json::{json, Value};
use sqlx::Row as _;

/// A player with the starter set and the deck `Main`, their current deck.
async fn with_deck(server: &Server, prefix: &str) -> Client {
    let mut c = Client::player(server, prefix).await;
    c.deck().await;
    c
}

/// Five card ids of `user`'s stash, read from the database.
async fn five_ids(db: &Database, user: &str) -> Vec<String> {
    let pool = db.pool().await;
    let rows = sqlx::query(
        "SELECT tt_cards.card_id AS card FROM tt_cards JOIN users ON users.id = tt_cards.owner \
         WHERE users.name = $1 ORDER BY tt_cards.id DESC",
    )
    .bind(user)
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    rows.iter()
        .take(5)
        .map(|r| r.try_get::<String, _>("card").unwrap())
        .collect()
}

/// The challenge `by` makes to `to` (a Triple Triad game between them) under `options`, with
/// `extra` fields; its id.
async fn challenge(by: &mut Client, to: &str, options: Value, extra: Value) -> i64 {
    let mut msg = json!({"type": "challenge", "game": "triple-triad", "options": options,
                         "seats": [{"kind": "me"}, {"kind": "player", "name": to}]});
    msg.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let made = by.request(msg).await;
    assert_eq!(made["type"], "challenge_created", "{made}");
    made["challenge"]["id"].as_i64().unwrap()
}

async fn picking(c: &mut Client, cid: i64) -> Value {
    c.expect_where(|v| v["type"] == "picking" && v["challenge"]["id"] == cid)
        .await
}

async fn started(c: &mut Client, cid: i64) -> i64 {
    let s = c
        .expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
        .await;
    s["match"]["id"].as_i64().unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The names of the cards of ids `ids`, sorted.
fn names_of(ids: &[String]) -> Vec<String> {
    let shop = arbiter_economy::Catalog::standard();
    sorted(ids.iter().map(|id| shop.find(id).unwrap().card.name.clone()).collect())
}

/// The names of the cards of `hand`, sorted.
fn names(hand: &[arbiter_core::tripletriad::Card]) -> Vec<String> {
    sorted(hand.iter().map(|c| c.name.clone()).collect())
}

const MATCHES_OF: &str = "SELECT COUNT(*) AS n FROM challenges WHERE id = $1 AND match_id IS NOT NULL";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_named_no_five_picks_them_in_the_window_and_nobody_sees_them() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--pick-seconds", "30"]);
    let mut a = with_deck(&server, "blue").await;
    let mut b = with_deck(&server, "red").await;
    let (a_ids, b_ids) = (five_ids(&db, &a.name()).await, five_ids(&db, &b.name()).await);

    // Blue names five with the challenge; red accepts naming none: only red picks.
    let cid = challenge(
        &mut a,
        &b.name(),
        json!({"rules": {"same": true}}),
        json!({"cards": a_ids}),
    )
    .await;
    let acc = b.request(json!({"type": "accept", "challenge": cid})).await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    let red = b.name();
    for c in [&mut a, &mut b] {
        let p = picking(c, cid).await;
        assert_eq!(p["waiting"], json!([red]), "{p}");
        let left = p["remaining_ms"].as_i64().unwrap();
        assert!((25_000..=30_000).contains(&left), "{p}");
        assert_eq!(
            p["challenge"]["rules"]["rules"],
            json!(["same"]),
            "the window shows the rules: {p}"
        );
    }
    assert_eq!(db.count(MATCHES_OF, &[cid]).await, 0, "no match before the picks");
    a.refused(
        json!({"type": "pick", "challenge": cid, "deck": "Main"}),
        "bad_challenge",
    )
    .await;
    // A pick is checked as an accept's: not five, not owned.
    b.refused(
        json!({"type": "pick", "challenge": cid, "cards": ["A001"]}),
        "deck_unusable",
    )
    .await;
    b.refused(
        json!({"type": "pick", "challenge": cid, "cards": ["A110", "A110", "A110", "A110", "A110"]}),
        "not_owned",
    )
    .await;
    b.refused(json!({"type": "pick", "challenge": cid}), "bad_message")
        .await;
    let done = b
        .request(json!({"type": "pick", "challenge": cid, "cards": b_ids}))
        .await;
    assert_eq!(done, json!({"type": "picked", "challenge": cid, "re": done["re"]}));
    let id = started(&mut a, cid).await;
    assert_eq!(started(&mut b, cid).await, id);
    let hands = db.hands(id).await;
    assert_eq!(names(&hands.blue), names_of(&a_ids));
    assert_eq!(names(&hands.red), names_of(&b_ids));
    // Blue heard who picks, never what: no reply of red's, no event before the match holds
    // cards or hands.
    let before: Vec<&Value> = a.frames.iter().take_while(|f| f["type"] != "match_started").collect();
    assert!(before.iter().all(|f| f["type"] != "picked"), "{before:?}");
    for f in before.iter().filter(|f| f.get("re").is_none()) {
        let text = f.to_string();
        assert!(!text.contains("\"cards\"") && !text.contains("\"hands\""), "{text}");
    }
    // The window is over: a pick now is for nothing.
    b.refused(
        json!({"type": "pick", "challenge": cid, "deck": "Main"}),
        "no_such_challenge",
    )
    .await;

    // Both named theirs: no window at all.
    let cid = challenge(&mut a, &b.name(), json!({}), json!({"cards": a_ids})).await;
    let acc = b
        .request(json!({"type": "accept", "challenge": cid, "deck": "Main"}))
        .await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    started(&mut a, cid).await;
    assert!(a
        .frames
        .iter()
        .all(|f| !(f["type"] == "picking" && f["challenge"]["id"] == cid)));
    db.audit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_clock_runs_out_the_current_deck_plays_or_the_game_is_cancelled() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--pick-seconds", "2"]);
    let mut a = with_deck(&server, "blue").await;
    let mut b = with_deck(&server, "red").await;
    let b_main: Vec<String> = {
        let d = b.request(json!({"type": "tt_decks"})).await;
        d["decks"][0]["cards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c[1]["id"].as_str().unwrap().to_owned())
            .collect()
    };

    // Nobody named five; blue picks, red lets the clock run out: red plays their current deck.
    let cid = challenge(&mut a, &b.name(), json!({}), json!({})).await;
    assert_eq!(
        b.request(json!({"type": "accept", "challenge": cid})).await["type"],
        "accepted"
    );
    let p = picking(&mut b, cid).await;
    assert_eq!(
        sorted(serde_json::from_value(p["waiting"].clone()).unwrap()),
        sorted(vec![a.name(), b.name()])
    );
    let a_ids = five_ids(&db, &a.name()).await;
    let r = a
        .request(json!({"type": "pick", "challenge": cid, "cards": a_ids}))
        .await;
    assert_eq!(r["type"], "picked", "{r}");
    let p = picking(&mut b, cid).await;
    assert_eq!(p["waiting"], json!([b.name()]), "{p}");
    let id = started(&mut b, cid).await;
    let hands = db.hands(id).await;
    assert_eq!(names(&hands.red), names_of(&b_main));
    assert_eq!(names(&hands.blue), names_of(&a_ids));

    // A player with no deck at all: nothing to play, the challenge closes.
    let mut c = Client::player(&server, "nodeck").await;
    c.request(json!({"type": "tt_starter"})).await;
    let cid = challenge(&mut a, &c.name(), json!({}), json!({})).await;
    assert_eq!(
        c.request(json!({"type": "accept", "challenge": cid})).await["type"],
        "accepted"
    );
    for p in [&mut a, &mut c] {
        let closed = p
            .expect_where(|v| v["type"] == "challenge_closed" && v["challenge"] == cid && v["reason"] != "picking")
            .await;
        assert_eq!(closed["reason"], "pick_timeout", "{closed}");
    }
    assert_eq!(db.count(MATCHES_OF, &[cid]).await, 0);
    c.refused(
        json!({"type": "pick", "challenge": cid, "deck": "Main"}),
        "no_such_challenge",
    )
    .await;

    // At stake, nothing is played unnamed: red's current deck does not count, the challenge
    // closes and no card is locked or moved.
    let staked = json!({"preset": "mush", "stake": {"trade": "one"}});
    let cid = challenge(&mut a, &b.name(), staked, json!({})).await;
    assert_eq!(
        b.request(json!({"type": "accept", "challenge": cid})).await["type"],
        "accepted"
    );
    let r = a
        .request(json!({"type": "pick", "challenge": cid, "cards": a_ids}))
        .await;
    assert_eq!(r["type"], "picked", "{r}");
    let closed = b
        .expect_where(|v| v["type"] == "challenge_closed" && v["challenge"] == cid && v["reason"] != "picking")
        .await;
    assert_eq!(closed["reason"], "pick_timeout", "{closed}");
    assert_eq!(db.count(MATCHES_OF, &[cid]).await, 0);
    let locked = "SELECT COUNT(*) AS n FROM tt_cards WHERE locked_by IS NOT NULL";
    assert_eq!(db.count(locked, &[]).await, 0);
    db.audit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_player_picks_in_the_window_or_accepts_with_card_ids() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &["--pick-seconds", "30"]);
    let mut w = with_deck(&server, "web").await;
    let name = common::name("txt");
    let mut t = Text::create(&server, &name).await;
    t.send("+TT/Starter").await;
    t.line_with("You receive your starter set").await;
    let ids = five_ids(&db, &name).await;

    t.send("+TT/Help Accept").await;
    t.line_with("+TT/Accept A001 A002 A003 A004 A005").await;
    t.line_with("+TT/Pick").await;
    t.send("+TT/Help").await;
    t.line_with("+TT/Pick <Deck> or +TT/Pick <Card>").await;

    // Neither names five: both pick; the text player with ids, after the web player.
    let cid = challenge(&mut w, &name, json!({}), json!({})).await;
    t.line_with("invites you").await;
    t.send("+TT/Accept").await;
    t.line_with("You accept the game.").await;
    t.line_with("name the five cards you play within 30 seconds").await;
    let r = w
        .request(json!({"type": "pick", "challenge": cid, "deck": "Main"}))
        .await;
    assert_eq!(r["type"], "picked", "{r}");
    t.send("+TT/Pick A001 A002 A003 A004").await;
    t.line_with("five cards, not 4").await;
    t.send(&format!("+TT/Pick {}", ids.join(" "))).await;
    t.line_with("Your five cards are named").await;
    t.line_with("The game starts").await;
    let id = started(&mut w, cid).await;
    assert_eq!(names(&db.hands(id).await.red), names_of(&ids));
    t.send("+TT/Pick Main").await;
    t.line_with("no game waits for your five cards").await;

    // Five ids with the accept, the web player's deck with the challenge: no window.
    let cid = challenge(&mut w, &name, json!({"deck": "Main"}), json!({})).await;
    t.line_with("invites you").await;
    t.send("+TT/Accept A001 A002 A003 A004").await;
    t.line_with("five cards, not 4").await;
    t.send(&format!("+TT/Accept {}", ids.join(" "))).await;
    t.line_with(&format!("You accept the game with {}.", ids.join(", ")))
        .await;
    let line = t.line_with("The game starts").await;
    assert!(
        t.seen
            .iter()
            .rev()
            .take_while(|l| **l != line)
            .all(|l| !l.contains("name the five")),
        "{:#?}",
        t.seen
    );
    let id = started(&mut w, cid).await;
    assert_eq!(names(&db.hands(id).await.red), names_of(&ids));

    // The text player invites naming no deck (`<Name>=/<Rules>`): their five in the window.
    t.send(&format!("+TT/Game {}=/Open", w.name())).await;
    let open = w
        .expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["by"]["name"] == name.as_str())
        .await;
    let cid = open["challenge"]["id"].as_i64().unwrap();
    let acc = w
        .request(json!({"type": "accept", "challenge": cid, "deck": "Main"}))
        .await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    assert_eq!(picking(&mut w, cid).await["waiting"], json!([name]));
    t.line_with("name the five cards you play within").await;
    t.send(&format!("+TT/Pick {}", ids.join(","))).await;
    t.line_with("The game starts").await;
    let id = started(&mut w, cid).await;
    assert_eq!(names(&db.hands(id).await.blue), names_of(&ids));
    db.audit();
}

/// A game in its picking window counts as a running match for everyone seated: with one match
/// at most, neither player can challenge again until it ends, so two accounts cannot seat each
/// other in any number of windows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_its_window_counts_against_the_match_limit() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--pick-seconds", "60", "--max-matches", "1"]);
    let mut a = with_deck(&server, "blue").await;
    let mut b = with_deck(&server, "red").await;
    let cid = challenge(&mut a, &b.name(), json!({}), json!({})).await;
    let acc = b.request(json!({"type": "accept", "challenge": cid})).await;
    assert_eq!(acc["type"], "accepted", "{acc}");
    picking(&mut a, cid).await;
    let again = json!({"type": "challenge", "game": "triple-triad", "options": {},
                       "seats": [{"kind": "me"}, {"kind": "player", "name": b.name()}]});
    a.refused(again.clone(), "too_many_matches").await;
    let back = json!({"type": "challenge", "game": "triple-triad", "options": {},
                      "seats": [{"kind": "me"}, {"kind": "player", "name": a.name()}]});
    b.refused(back, "too_many_matches").await;
    let ids = five_ids(&db, &a.name()).await;
    let r = a.request(json!({"type": "pick", "challenge": cid, "cards": ids})).await;
    assert_eq!(r["type"], "picked", "{r}");
    db.audit();
}
