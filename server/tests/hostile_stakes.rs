//! A dishonest player against the stakes, over real sockets: the options only the server
//! writes (the hands, the text interface's words), a stranger reading a match's hidden cards in
//! the winner's choice, a direct swap played for real cards, leaving a staked match to save
//! one's cards, and accepting an unknown challenge with a deck. The economy's invariant is
//! audited after each (`arbiter-server --audit`). On SQLite, and on PostgreSQL when the test
//! command provides it.

mod common;

use arbiter_core::Rng;
use common::economy::{facts, play, staked_match, Played, Player};
use common::{Client, Database, Server};
use serde_json::{json, Value};

const ARGS: &[&str] = &["--rate", "2000", "--burst", "2000"];

/// Two players with their starters and a deck `Main` each.
async fn pair(server: &Server, rng: &mut Rng) -> (Player, Player) {
    let mut a = Player::new(server, "blue").await;
    let mut b = Player::new(server, "red").await;
    assert!(a.deck("Main", rng).await && b.deck("Main", rng).await);
    (a, b)
}

/// Five cards of `rank` on every side, as a client would write them in `options.hands`.
fn five(rank: u8) -> Value {
    (0..5)
        .map(|i| json!({"name": format!("Forged{rank}-{i}"), "ranks": [rank, rank, rank, rank], "level": 1}))
        .collect()
}

/// Rows of `table` in the database (`matches`, `challenges`, `stats`).
async fn count(db: &Database, table: &str) -> i64 {
    db.count(&format!("SELECT COUNT(*) AS n FROM {table}"), &[]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenger_cannot_deal_the_hands_or_write_the_servers_fields() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut rng = Rng::new(34);
    let (mut a, mut b) = pair(&server, &mut rng).await;
    let invitee = json!([{"kind": "me"}, {"kind": "player", "name": b.name}]);
    let forged = json!({"blue": five(10), "red": five(1)});
    let stake = json!({"trade": "one", "gils": 0, "customs": "mush"});
    // The attack as it was made (no stakes: the hands alone), then with stakes, and every other
    // field a client may not write.
    for (options, field) in [
        (json!({"hands": forged}), "hands"),
        (json!({"hands": forged, "stake": stake, "deck": "Main"}), "hands"),
        (json!({"hands": {"blue": five(10)}}), "hands"),
        (json!({"words": "Open One"}), "words"),
        (json!({"deck": "Main", "rules": {"random": true}}), "deck"),
        (json!({"deck": "Main\r\nSYSTEM", "stake": stake}), "deck"),
        (json!({"deck": 5, "stake": stake}), "string"),
    ] {
        let r =
            a.c.request(json!({"type": "challenge", "game": "triple-triad", "options": options, "seats": invitee}))
                .await;
        assert_eq!(r["code"], "bad_challenge", "{options}: {r}");
        assert!(r["message"].as_str().unwrap().contains(field), "{options}: {r}");
    }
    // Against a computer the match would start at once: refused all the same.
    let r =
        a.c.request(
            json!({"type": "challenge", "game": "triple-triad", "options": {"hands": forged},
                        "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}]}),
        )
        .await;
    assert_eq!(r["code"], "bad_challenge", "{r}");
    // Nothing came of any of it: no challenge to accept, no match, no stats.
    let lobby = b.c.request(json!({"type": "lobby"})).await;
    assert_eq!(lobby["challenges"], json!([]), "{lobby}");
    assert_eq!((count(&db, "challenges").await, count(&db, "matches").await), (0, 0));
    for p in [&mut a, &mut b] {
        let stats = p.c.request(json!({"type": "stats"})).await;
        assert_eq!(stats["games"], json!({}), "{stats}");
    }
    // The honest challenge with stakes still goes through, its hands the decks'.
    let id = staked_match(&mut a, &mut b, stake).await.unwrap();
    let state = a.c.request(json!({"type": "sync", "match": id})).await;
    let hand = state["view"]["observation"]["hand"].as_array().unwrap();
    assert!(
        hand.iter().all(|c| !c["name"].as_str().unwrap().starts_with("Forged")),
        "{state}"
    );
    db.audit();
}

/// Plays staked match `id` to its end; returns the `tt_choose` offer both players got.
async fn to_the_choice(a: &mut Player, b: &mut Player, id: i64, rng: &mut Rng) -> Value {
    assert_eq!(play([&mut a.c, &mut b.c], id, rng, 500).await, Played::Over);
    let offer = a.c.expect_where(|v| v["type"] == "tt_choose" && v["match"] == id).await;
    b.c.expect_where(|v| v["type"] == "tt_choose" && v["match"] == id).await;
    offer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_players_read_the_losers_cards_in_the_winners_choice() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut rng = Rng::new(8);
    let (mut a, mut b) = pair(&server, &mut rng).await;
    let mut stranger = Client::player(&server, "eve").await;
    let stake = json!({"trade": "one", "gils": 0, "customs": "mush"});
    let id = staked_match(&mut a, &mut b, stake).await.unwrap();
    let ask = json!({"type": "tt_win_list", "match": id});
    // While the match runs there is nothing to choose; a stranger is told they do not sit in it.
    stranger.refused(ask.clone(), "not_seated").await;
    let offer = to_the_choice(&mut a, &mut b, id, &mut rng).await;
    let refused = stranger.refused(ask.clone(), "not_seated").await;
    assert!(refused.get("win_list").is_none(), "{refused}");
    // The two players may read it: the winner chooses from it, the loser sees what is at stake.
    for p in [&mut a, &mut b] {
        let w = p.c.request(ask.clone()).await;
        assert_eq!(w["win_list"]["cards"].as_array().map(Vec::len), Some(5), "{w}");
        assert_eq!(w["win_list"]["chooser"], offer["chooser"], "{w}");
    }
    let winner = if offer["chooser"] == a.id { &mut a } else { &mut b };
    let chosen = winner
        .c
        .request(json!({"type": "tt_choose", "match": id, "picks": ["1"]}))
        .await;
    assert_eq!(chosen["type"], "tt_chosen", "{chosen}");
    // Settled: a stranger still learns nothing but that they do not sit in it.
    stranger.refused(ask, "not_seated").await;
    db.audit();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_direct_swap_with_stakes_ends_and_swaps_two_cards() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut rng = Rng::new(10);
    let (mut a, mut b) = pair(&server, &mut rng).await;
    let stake = json!({"trade": "direct_swap", "gils": 0, "customs": "mush"});
    let id = staked_match(&mut a, &mut b, stake).await.unwrap();
    // The last card is played and answered (it was `internal`, the match never ending).
    let offer = to_the_choice(&mut a, &mut b, id, &mut rng).await;
    assert_eq!(offer["count"], 1, "{offer}");
    let (winner, loser) = if offer["chooser"] == a.id {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let list = winner.c.request(json!({"type": "tt_win_list", "match": id})).await;
    let (theirs, mine) = (&list["win_list"]["cards"], &list["win_list"]["facing"]);
    assert_eq!(
        (theirs.as_array().map(Vec::len), mine.as_array().map(Vec::len)),
        (Some(5), Some(5)),
        "{list}"
    );
    let chosen = winner
        .c
        .request(json!({"type": "tt_choose", "match": id, "picks": ["2"]}))
        .await;
    assert_eq!(chosen["type"], "tt_chosen", "{chosen}");
    let told = loser
        .c
        .expect_where(|v| v["type"] == "tt_settled" && v["match"] == id)
        .await;
    let (moved, kept) = (told["moved"].as_array().unwrap(), told["kept"].as_array().unwrap());
    assert_eq!(moved.len() + kept.len(), 2, "{told}");
    // The loser's second card goes to the winner, the winner's second the other way.
    let label = |c: &Value| format!("{} {}", c["id"].as_str().unwrap(), c["card"]["name"].as_str().unwrap());
    for m in moved {
        let (from, card) = (m["from"].as_str().unwrap(), m["card"].as_str().unwrap());
        let expected = if from == loser.name { &theirs[1] } else { &mine[1] };
        assert_eq!(card, label(expected), "{told}");
    }
    let f = facts(&db, id).await;
    assert_eq!((f.status.as_str(), f.stake.as_str()), ("over", "settled"), "{f:?}");
    assert_eq!(f.trades, moved.len() as i64, "{f:?}");

    // The French server's customs do not offer it: refused when the challenge is made, not at
    // the start or the end of its match.
    let french = json!({"trade": "direct_swap", "gils": 0, "customs": "ttonline"});
    let r = winner
        .c
        .request(json!({"type": "challenge", "game": "triple-triad", "time": 60,
                        "options": {"deck": "Main", "stake": french},
                        "seats": [{"kind": "me"}, {"kind": "player", "name": loser.name}]}))
        .await;
    assert_eq!(r["code"], "bad_challenge", "{r}");
    assert!(r["message"].as_str().unwrap().contains("direct_swap"), "{r}");

    let figures = db.audit();
    assert_eq!(figures["transfers"].as_i64(), Some(f.trades), "{figures}");
}

/// A staked match between `a` and `b` (blue and red) under `trade`, two cards played, then
/// `b` leaves: the match is over, `b` lost it and did not finish.
async fn left_after_two_cards(db: &Database, trade: &str, rng: &mut Rng) -> (Server, Player, Player, i64) {
    let server = Server::start_with(db, ARGS);
    let (mut a, mut b) = pair(&server, rng).await;
    let stake = json!({"trade": trade, "gils": 0, "customs": "mush"});
    let id = staked_match(&mut a, &mut b, stake).await.unwrap();
    assert_eq!(play([&mut a.c, &mut b.c], id, rng, 2).await, Played::Paused);
    let left = b.c.request(json!({"type": "leave", "match": id})).await;
    assert_eq!((&left["type"], &left["dnf"]), (&json!("left"), &json!(true)), "{left}");
    let over = a.c.over(id).await;
    assert_eq!(over["result"]["outcome"], json!(["won", "dnf"]), "{over}");
    (server, a, b, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_a_staked_match_loses_it_by_the_trade_rule() {
    let db = Database::fresh().await;
    let mut rng = Rng::new(11);
    // `one`: the one who stayed chooses a card of the leaver's, as after any win.
    let (_server, mut a, mut b, id) = left_after_two_cards(&db, "one", &mut rng).await;
    let offer = a.c.expect_where(|v| v["type"] == "tt_choose" && v["match"] == id).await;
    assert_eq!(
        (&offer["chooser"], &offer["count"]),
        (&json!(a.id), &json!(1)),
        "{offer}"
    );
    b.c.expect_where(|v| v["type"] == "tt_choose" && v["match"] == id).await;
    let chosen =
        a.c.request(json!({"type": "tt_choose", "match": id, "picks": ["1"]}))
            .await;
    assert_eq!(chosen["type"], "tt_chosen", "{chosen}");
    let told =
        b.c.expect_where(|v| v["type"] == "tt_settled" && v["match"] == id)
            .await;
    let moved = told["moved"].as_array().unwrap();
    assert_eq!(moved.len() + told["kept"].as_array().unwrap().len(), 1, "{told}");
    assert!(moved.iter().all(|m| m["from"] == b.name && m["to"] == a.name), "{told}");
    // The stats: a win, and a Did Not Finish; the leaver earns nothing (10 points to the winner).
    let stats = b.c.request(json!({"type": "stats"})).await;
    assert_eq!(stats["games"]["triple-triad"]["dnf"], 1, "{stats}");
    let ((pa, _), (pb, _)) = (a.wallet().await, b.wallet().await);
    assert_eq!((pa, pb), (10, 0));
    let f = facts(&db, id).await;
    assert_eq!((f.stake.as_str(), f.trades), ("settled", moved.len() as i64), "{f:?}");
    db.audit();

    // `all`: the five cards move at once, no choice to wait for.
    let db = Database::fresh().await;
    let (_server, mut a, mut b, id) = left_after_two_cards(&db, "all", &mut rng).await;
    let told =
        a.c.expect_where(|v| v["type"] == "tt_settled" && v["match"] == id)
            .await;
    let moved = told["moved"].as_array().unwrap();
    assert_eq!(moved.len() + told["kept"].as_array().unwrap().len(), 5, "{told}");
    assert!(moved.iter().all(|m| m["from"] == b.name), "{told}");
    let ((_, ca), (_, cb)) = (a.wallet().await, b.wallet().await);
    assert_eq!((ca, cb), (20 + moved.len() as i64, 20 - moved.len() as i64));
    let figures = db.audit();
    assert_eq!(figures["transfers"].as_i64(), Some(moved.len() as i64), "{figures}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepting_an_unknown_challenge_with_a_deck() {
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut rng = Rng::new(12);
    let (mut a, mut b) = pair(&server, &mut rng).await;
    let unknown = json!({"type": "accept", "challenge": 4_242_424_242i64, "deck": "Main"});
    for _ in 0..3 {
        b.c.refused(unknown.clone(), "no_such_challenge").await;
    }
    b.c.refused(
        json!({"type": "accept", "challenge": 4_242_424_242i64, "deck": "no such\nname"}),
        "bad_deck_name",
    )
    .await;
    // A closed one is unknown too; an open one takes the deck and starts.
    let stake = json!({"trade": "none", "gils": 0, "customs": "mush"});
    let r =
        a.c.request(json!({"type": "challenge", "game": "triple-triad",
                        "options": {"deck": "Main", "stake": stake},
                        "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}]}))
            .await;
    let cid = r["challenge"]["id"].as_i64().unwrap();
    let w = a.c.request(json!({"type": "withdraw", "challenge": cid})).await;
    assert_eq!(w["type"], "challenge_closed", "{w}");
    b.c.refused(
        json!({"type": "accept", "challenge": cid, "deck": "Main"}),
        "no_such_challenge",
    )
    .await;
    staked_match(&mut a, &mut b, stake).await.unwrap();
    db.audit();
}
