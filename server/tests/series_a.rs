//! Migration 0009 (the MUSH's series A without FF8's characters) on a database in the state 0008
//! left: built with the migrations before it and rows in the forms the server writes (a stash, a deck
//! with a note, a custom card whose name series A now takes, a match whose winner is choosing,
//! a settlement not yet told), then the real server started on it. Run on PostgreSQL with
//! `ARBITER_TEST_DATABASE` (server/scripts/postgres.sh), on a SQLite file otherwise.

mod common;

use arbiter_core::tripletriad::{ff8_card, preset, Card, Match, Player, TradeRule};
use arbiter_core::Game;
use arbiter_economy::{ShopCard, SERIES_A_REPLACED};
use common::{Client, Database, Server};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use sqlx::Row as _;

const ALICE: i64 = 11;
const BOB: i64 = 12;
const CHOOSING: i64 = 21;

/// The database as migrations 0001 to 0008 leave it.
async fn before_0009(db: &Database) -> sqlx::AnyPool {
    let dir = tempfile::tempdir().unwrap();
    let all = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for f in std::fs::read_dir(&all).unwrap() {
        let f = f.unwrap();
        let name = f.file_name().into_string().unwrap();
        if name.as_str() < "0009" {
            std::fs::copy(f.path(), dir.path().join(&name)).unwrap();
        }
    }
    // A SQLite file the server has not made yet is created here.
    let url = if db.is_postgres() {
        db.url.clone()
    } else {
        format!("{}?mode=rwc", db.url)
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::migrate::Migrator::new(dir.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    pool
}

async fn exec(pool: &sqlx::AnyPool, sql: &str, binds: &[Value]) {
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()));
    for b in binds {
        q = match b {
            Value::Number(n) => q.bind(n.as_i64().unwrap()),
            Value::String(s) => q.bind(s.clone()),
            _ => q.bind(None::<i64>),
        };
    }
    q.execute(pool).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
}

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// FF8's cards by name, as 0008's series A held them.
fn ff8(names: &[&str]) -> Vec<Card> {
    names.iter().map(|n| ff8_card(n).unwrap()).collect()
}

/// A finished match under the MUSH's rules and One where red (Alice, with Squall) lost to blue
/// (Bob): the winner's choice the server saved.
fn lost_by_alice() -> Match {
    let alice = ff8(&["Squall", "Gesper", "Geezard", "Funguar", "Bite Bug"]);
    let bob = ff8(&["Bahamut", "Eden", "Doomtrain", "Phoenix", "Alexander"]);
    for seed in 0.. {
        let mut config = preset("mush").unwrap();
        config.trade = TradeRule::One;
        config.deck_level_limit = None;
        let mut m = Match::new(config, bob.clone(), alice.clone(), seed).unwrap();
        while !m.is_over() {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
        }
        if m.result().unwrap().winner == Some(Player::Blue) {
            return m;
        }
    }
    unreachable!()
}

/// Every card row of `user`: (physical id, card id), sorted.
async fn cards_of(pool: &sqlx::AnyPool, user: i64) -> Vec<(i64, String)> {
    let rows = sqlx::query("SELECT id, card_id FROM tt_cards WHERE owner = $1 ORDER BY id")
        .bind(user)
        .fetch_all(pool)
        .await
        .unwrap();
    rows.iter().map(|r| (r.get("id"), r.get("card_id"))).collect()
}

#[tokio::test]
async fn mush_series_a_migration() {
    let db = Database::fresh().await;
    let pool = before_0009(&db).await;
    for (id, name) in [(ALICE, "Alice"), (BOB, "Bob")] {
        exec(
            &pool,
            "INSERT INTO users (id, name, name_key, password_hash, created) VALUES ($1, $2, $3, 'x', 0)",
            &[json!(id), json!(name), json!(name.to_lowercase())],
        )
        .await;
        exec(
            &pool,
            "INSERT INTO sessions (token_hash, user_id, created) VALUES ($1, $2, 0)",
            &[json!(token_hash(&format!("token-{name}"))), json!(id)],
        )
        .await;
        exec(
            &pool,
            "INSERT INTO tt_wallets (user_id, points, experience, gils, starter, current_deck) VALUES ($1, 1000, 0, 0, 0, 'start')",
            &[json!(id)],
        )
        .await;
    }
    // Alice's stash: Squall (A110), two Gesper (A007), Geezard; Bob's: Biggs, Wedge (A055).
    let stash = [
        (101, "A110", ALICE),
        (102, "A007", ALICE),
        (103, "A007", ALICE),
        (104, "A001", ALICE),
        (105, "A002", ALICE),
        (106, "A003", ALICE),
        (201, "A055", BOB),
    ];
    for (id, card, owner) in stash {
        let locked = if owner == ALICE && id != 104 {
            json!(CHOOSING)
        } else {
            Value::Null
        };
        exec(
            &pool,
            "INSERT INTO tt_cards (id, card_id, owner, locked_by, acquired) VALUES ($1, $2, $3, $4, 0)",
            &[json!(id), json!(card), json!(owner), locked],
        )
        .await;
    }
    exec(
        &pool,
        "INSERT INTO tt_decks (id, owner, name, name_key, note, created) VALUES (1, $1, 'Start', 'start', 'Squall (A110) was lost to Bob', 0)",
        &[json!(ALICE)],
    )
    .await;
    for (slot, card) in [101, 102, 103, 105, 106].into_iter().enumerate() {
        exec(
            &pool,
            "INSERT INTO tt_deck_cards (deck_id, slot, card) VALUES (1, $1, $2)",
            &[json!(slot as i64), json!(card)],
        )
        .await;
    }
    // Goblin was no card of 0008's series A: a custom card could take the name.
    let goblin = ShopCard {
        id: "C001".into(),
        card: Card::new("GobLin", [3, 3, 3, 3]).with_level(2),
        text: "A custom goblin".into(),
    };
    exec(
        &pool,
        "INSERT INTO tt_custom_cards (card_id, name_key, card, creator, created) VALUES ('C001', 'goblin', $1, $2, 0)",
        &[json!(serde_json::to_string(&goblin).unwrap()), json!(BOB)],
    )
    .await;
    // A match whose winner (Bob) is choosing among Alice's five, Squall and Gesper among them.
    let m = lost_by_alice();
    let options = json!({"preset": "mush", "stake": {"trade": "one", "gils": 0, "customs": "mush"},
        "hands": {"blue": m.brought(Player::Blue), "red": m.brought(Player::Red)}});
    exec(
        &pool,
        "INSERT INTO matches (id, game, options, seed, time_s, private, status, ply, deadline, result, challenge_id, started, ended) \
         VALUES ($1, 'triple-triad', $2, 0, 60, 0, 'over', 0, NULL, NULL, NULL, 0, 0)",
        &[json!(CHOOSING), json!(options.to_string())],
    )
    .await;
    exec(
        &pool,
        "INSERT INTO tt_stakes (match_id, trade, customs, bet, cards, blue_user, red_user, status, choice_deadline, transfers, settled, saved) \
         VALUES ($1, 'one', 'mush', 0, $2, $3, $4, 'choosing', $5, NULL, NULL, $6)",
        &[
            json!(CHOOSING),
            json!("[[0,0,0,0,0],[101,102,103,105,106]]"),
            json!(BOB),
            json!(ALICE),
            json!(i64::MAX / 2),
            json!(serde_json::to_string(&m).unwrap()),
        ],
    )
    .await;
    // What Bob was not yet told of an earlier settlement: he won Squall.
    let frame = json!({"type": "tt_settled", "match": CHOOSING, "moved": [{"id": 101, "card": "A110 Squall", "from": "Alice", "to": "Bob"}],
        "kept": [serde_json::to_value(ShopCard { id: "A110".into(), card: ff8_card("Squall").unwrap(), text: String::new() }).unwrap()]});
    exec(
        &pool,
        "INSERT INTO untold (user_id, match_id, kind, frame, at) VALUES ($1, $2, 'tt_settled', $3, 0)",
        &[json!(BOB), json!(CHOOSING), json!(frame.to_string())],
    )
    .await;
    let before = [cards_of(&pool, ALICE).await, cards_of(&pool, BOB).await];
    pool.close().await;

    let server = Server::start(&db);
    let pool = db.pool().await;
    // Every card keeps its row, its owner and its id: the counts are unchanged.
    assert_eq!([cards_of(&pool, ALICE).await, cards_of(&pool, BOB).await], before);
    let text = |sql: &'static str| {
        let pool = pool.clone();
        async move {
            let row = sqlx::query(sql).bind(CHOOSING).fetch_one(&pool).await.unwrap();
            row.get::<String, _>(0)
        }
    };
    let stored = [
        text("SELECT options FROM matches WHERE id = $1").await,
        text("SELECT saved FROM tt_stakes WHERE match_id = $1").await,
        text("SELECT frame FROM untold WHERE match_id = $1").await,
    ];
    for (s, numbers) in stored.iter().zip([&[7, 110][..], &[7, 110], &[110]]) {
        for (_, old, new) in SERIES_A_REPLACED.iter().filter(|(n, _, _)| numbers.contains(n)) {
            assert!(
                !s.contains(&format!("\"{old}\"")) && s.contains(&format!("\"{new}\"")),
                "{s}"
            );
        }
    }
    assert!(stored[2].contains("\"A110 Omega Weapon\""), "{}", stored[2]);
    pool.close().await;

    // Alice's stash, deck and its note name series A's cards, by the same ids.
    let mut alice = Client::resumed(&server, "token-Alice").await;
    let shown = alice.request(json!({"type": "tt_stash"})).await;
    let names: Vec<(String, String, u64)> = shown["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["card"]["id"].as_str().unwrap().to_owned(),
                e["card"]["card"]["name"].as_str().unwrap().to_owned(),
                e["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(names.contains(&("A110".into(), "Omega Weapon".into(), 1)), "{shown}");
    assert!(names.contains(&("A007".into(), "Goblin".into(), 2)), "{shown}");
    let decks = alice.request(json!({"type": "tt_decks"})).await;
    let deck = &decks["decks"][0];
    let in_deck: Vec<&str> = deck["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1]["card"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        in_deck,
        ["Omega Weapon", "Goblin", "Goblin", "Funguar", "Bite Bug"],
        "{decks}"
    );
    assert_eq!(deck["note"], "Omega Weapon (A110) was lost to Bob", "{decks}");

    // Bob hears of the settlement in series A's names; the custom Goblin keeps its card under
    // a name of its own; the winner's choice lists and takes Omega Weapon.
    let mut bob = Client::resumed(&server, "token-Bob").await;
    let settled = bob.expect("tt_settled").await;
    assert_eq!(settled["moved"][0]["card"], "A110 Omega Weapon", "{settled}");
    let custom = bob.request(json!({"type": "tt_buy", "card": "GobLin (C001)"})).await;
    assert_eq!(custom["card"]["id"], "C001", "{custom}");
    let a007 = bob.request(json!({"type": "tt_buy", "card": "goblin"})).await;
    assert_eq!(a007["card"]["id"], "A007", "{a007}");
    let list = bob.request(json!({"type": "tt_win_list", "match": CHOOSING})).await;
    let five: Vec<&str> = list["win_list"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(five[..2], ["Omega Weapon", "Goblin"], "{list}");
    let chosen = bob
        .request(json!({"type": "tt_choose", "match": CHOOSING, "picks": ["Omega Weapon"]}))
        .await;
    assert_eq!(chosen["moved"], 1, "{chosen}");
    let pool = db.pool().await;
    let bobs = cards_of(&pool, BOB).await;
    assert!(bobs.contains(&(101, "A110".into())), "{bobs:?}");
    // The seven cards and the two Bob bought.
    assert_eq!(cards_of(&pool, ALICE).await.len() + bobs.len(), 9);
    pool.close().await;
}

/// The migration renames each card `REPLACED` lists, and no other.
#[test]
fn the_migration_follows_the_replacements() {
    let sql = include_str!("../migrations/0009_series_a.sql");
    for (n, old, new) in SERIES_A_REPLACED {
        for pair in [
            format!("'\"name\":\"{old}\"', '\"name\":\"{new}\"'"),
            format!("'\"A{n:03} {old}\"', '\"A{n:03} {new}\"'"),
            format!("'{old} (A{n:03})', '{new} (A{n:03})'"),
            format!("'{}'", new.to_lowercase()),
        ] {
            assert!(sql.contains(&pair), "{pair}");
        }
    }
    assert_eq!(sql.matches("'\"name\":\"").count(), 2 * 3 * SERIES_A_REPLACED.len());
}
