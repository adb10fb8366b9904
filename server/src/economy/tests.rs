//! The economy against a real SQLite database: every operation, every refusal with its reason,
//! races between two clients of one player, and random matches with random stakes, with the
//! invariant audited after each step.

use arbiter_core::tripletriad::{Match, MatchConfig, TradeRule};
use arbiter_core::{Game, Rng};
use arbiter_economy::{Customs, Stake};
use serde_json::json;
use sqlx::Row as _;

use super::*;
use crate::error::Code;

async fn economy(name: &str) -> Economy {
    let _ = tracing_subscriber::fmt().with_test_writer().try_init();
    let dir = std::env::temp_dir().join(format!("arbiter-economy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = match std::env::var("ARBITER_TEST_POSTGRES") {
        Ok(pg) if name.starts_with("pg_") => pg,
        _ => format!("sqlite://{}", dir.join("e.db").display()),
    };
    let (pool, _) = crate::db::connect(&url).await.unwrap();
    Economy::new(pool)
}

async fn user(e: &Economy, name: &str) -> i64 {
    let id = new_id();
    sqlx::query("INSERT INTO users (id, name, name_key, password_hash, created) VALUES ($1, $2, $3, 'x', 0)")
        .bind(id)
        .bind(name)
        .bind(format!("{}-{id}", name.to_lowercase()))
        .execute(&e.pool)
        .await
        .unwrap();
    id
}

async fn give_points(e: &Economy, u: i64, points: i64) {
    let mut tx = e.pool.begin().await.unwrap();
    lock_wallet(&mut tx, u).await.unwrap();
    book(
        &mut tx,
        u,
        "reward",
        Entry {
            points,
            ..Entry::default()
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

async fn sound(e: &Economy) -> Figures {
    let f = audit(e).await.unwrap();
    assert!(f.problems.is_empty(), "{:#?}", f.problems);
    f
}

/// A deck of five of `u`'s cards, levels within 20.
async fn full_deck(e: &Economy, u: i64, name: &str) {
    e.deck_create(u, name).await.unwrap();
    let stash = e.stash(u).await.unwrap();
    let mut picked = Vec::new();
    for s in &stash {
        for _ in 0..s.count - s.in_decks {
            if picked.len() < 5 {
                picked.push(s.card.id.clone());
            }
        }
    }
    e.deck_add(u, Some(name), &picked).await.unwrap();
}

#[tokio::test]
async fn stash_decks_and_refusals() {
    let e = economy("stash").await;
    let a = user(&e, "Squall").await;
    let cards = e.starter(a).await.unwrap();
    assert_eq!(cards.len(), 20);
    assert!(cards.iter().all(|c| (1..=3).contains(&c.card.level)));
    assert_eq!(e.starter(a).await.unwrap_err().code, Code::StarterTaken);
    assert_eq!(e.card_count(a).await.unwrap(), 20);
    let stash = e.stash(a).await.unwrap();
    assert_eq!(stash.iter().map(|s| s.count).sum::<u32>(), 20);

    e.deck_create(a, "Start").await.unwrap();
    assert_eq!(e.deck_create(a, "start").await.unwrap_err().code, Code::DeckExists);
    assert_eq!(e.deck_create(a, "two words").await.unwrap_err().code, Code::BadDeckName);
    let first = stash[0].card.id.clone();
    // The current deck takes the cards when none is named.
    let d = e.deck_add(a, None, std::slice::from_ref(&first)).await.unwrap();
    assert_eq!(d.cards.len(), 1);
    assert_eq!(
        e.deck_add(a, None, &["Omega Weapon".into()]).await.unwrap_err().code,
        Code::NotOwned
    );
    assert_eq!(
        e.deck_add(a, None, &["Nobody".into()]).await.unwrap_err().code,
        Code::NoSuchCard
    );
    // A deck is a list: every copy of the first card goes into another deck as well, the one
    // in Start included; one more than owned is refused with the reason.
    e.deck_create(a, "Other").await.unwrap();
    let copies = stash[0].count as usize;
    let other = e
        .deck_add(a, Some("Other"), &vec![first.clone(); copies])
        .await
        .unwrap();
    assert_eq!(other.cards.len(), copies);
    let err = e
        .deck_add(a, Some("Other"), std::slice::from_ref(&first))
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::NotOwned);
    assert!(err.message.contains("already in deck Other"), "{}", err.message);
    let (_, check) = e.deck_check(a, Some("Start")).await.unwrap();
    assert!(!check.usable);
    assert_eq!((check.reason, check.card), (Some("size"), None));
    assert!(check.problem.unwrap().contains("5 cards"));
    e.deck_remove(a, Some("Start"), std::slice::from_ref(&first))
        .await
        .unwrap();
    // Out of one deck, still in the other.
    assert_eq!(e.deck(a, "Other").await.unwrap().cards.len(), copies);
    assert_eq!(
        e.deck_remove(a, Some("Start"), std::slice::from_ref(&first))
            .await
            .unwrap_err()
            .code,
        Code::NotInDeck
    );
    e.deck_delete(a, "Other").await.unwrap();
    full_deck(&e, a, "Full").await;
    let (view, check) = e.deck_check(a, Some("Full")).await.unwrap();
    assert_eq!(view.cards.len(), 5);
    assert!(check.usable, "{check:?}");
    assert_eq!(check.reason, None);
    assert_eq!(
        e.deck_add(a, Some("Full"), std::slice::from_ref(&first))
            .await
            .unwrap_err()
            .code,
        Code::DeckFull
    );
    let f = sound(&e).await;
    assert_eq!((f.cards, f.starters), (20, 20));
}

#[tokio::test]
async fn shop_and_custom_cards() {
    let e = economy("shop").await;
    let a = user(&e, "Rinoa").await;
    assert_eq!(e.buy_random(a, 'A', 7).await.unwrap_err().code, Code::NotEnoughPoints);
    give_points(&e, a, 1000).await;
    let sale = e.buy_random(a, 'A', 7).await.unwrap();
    assert_eq!((sale.card.card.level, sale.price), (7, 70));
    assert_eq!(e.buy_card(a, "Serendipity").await.unwrap_err().code, Code::NotForSale);
    assert_eq!(e.buy_random(a, 'Z', 7).await.unwrap_err().code, Code::NotForSale);
    assert_eq!(e.buy_random(a, 'Q', 7).await.unwrap_err().code, Code::NoSuchSeries);
    // PROTOCOL.md's codes, not the `bad_request` nobody documented that these were answered.
    assert_eq!(e.buy_random(a, 'A', 11).await.unwrap_err().code, Code::BadLevel);
    let long = "x".repeat(501);
    let refused = e.create_custom(a, "Longwinded", 5, [3, 5, 6, 4], "Water", &long).await;
    assert_eq!(refused.unwrap_err().code, Code::BadCustomCard);
    e.buy_card(a, "Omega Weapon").await.unwrap();
    assert_eq!(e.buy_card(a, "A110").await.unwrap_err().code, Code::CopyLimit);
    // +TT/Custom Ultros/5=3 4 5 6 Water: up 3, left 4, right 5, down 6.
    let ultros = e
        .create_custom(a, "Ultros", 5, [3, 5, 6, 4], "Water", "Octopus Menace")
        .await
        .unwrap();
    assert_eq!((ultros.card.id.as_str(), ultros.price), ("C001", 250));
    assert_eq!(
        e.create_custom(a, "ultros", 5, [3, 5, 6, 4], "Water", "")
            .await
            .unwrap_err()
            .code,
        Code::NameTaken
    );
    let err = e
        .create_custom(a, "Kraken", 5, [9, 9, 9, 9], "Water", "")
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BadCustomCard);
    assert!(err.message.contains("18 to 21"), "{}", err.message);
    assert_eq!(
        e.create_custom(a, "Kraken", 5, [3, 5, 6, 4], "Lava", "")
            .await
            .unwrap_err()
            .code,
        Code::BadCustomCard
    );
    // The custom card is in the shop, at the custom series' price.
    let b = user(&e, "Zell").await;
    give_points(&e, b, 400).await;
    assert_eq!(e.buy_card(b, "Ultros").await.unwrap_err().code, Code::NotEnoughPoints);
    give_points(&e, b, 100).await;
    assert_eq!(e.buy_card(b, "Ultros").await.unwrap().price, 500);
    let f = sound(&e).await;
    assert_eq!((f.purchases, f.customs, f.points_spent), (3, 1, 70 + 200 + 250 + 500));
    assert_eq!(e.wallet(b).await.unwrap().points, 0);
}

#[tokio::test]
async fn two_clients_of_one_player_race() {
    let e = std::sync::Arc::new(economy("race").await);
    let a = user(&e, "Selphie").await;
    give_points(&e, a, 200).await;
    // Two purchases with points for one.
    let (x, y) = tokio::join!(e.buy_card(a, "Omega Weapon"), e.buy_card(a, "Omega Weapon"));
    assert_eq!([x.is_ok(), y.is_ok()].iter().filter(|o| **o).count(), 1);
    let err = x.err().or(y.err()).unwrap();
    assert!(matches!(err.code, Code::NotEnoughPoints | Code::CopyLimit), "{err:?}");
    // The one copy into one deck twice at once: once. Into two decks: both (decks are lists).
    e.deck_create(a, "One").await.unwrap();
    e.deck_create(a, "Two").await.unwrap();
    let omega = vec!["Omega Weapon".to_string()];
    let (x, y) = tokio::join!(e.deck_add(a, Some("One"), &omega), e.deck_add(a, Some("One"), &omega));
    assert_eq!([x.is_ok(), y.is_ok()].iter().filter(|o| **o).count(), 1);
    assert_eq!(x.err().or(y.err()).unwrap().code, Code::NotOwned);
    e.deck_add(a, Some("Two"), &omega).await.unwrap();
    sound(&e).await;
}

/// A match row for the stakes to refer to.
async fn match_row(e: &Economy) -> i64 {
    let id = new_id();
    sqlx::query(
        "INSERT INTO matches (id, game, options, seed, time_s, private, status, ply, deadline, result, challenge_id, started, ended) \
         VALUES ($1, 'triple-triad', '{}', 0, 60, $2, 'running', 0, NULL, NULL, NULL, 0, NULL)",
    )
    .bind(id)
    .bind(0_i64)
    .execute(&e.pool)
    .await
    .unwrap();
    id
}

/// An open challenge row by `by` (the stakes find the challenger's deck in its options, the
/// other's in the seat table, chosen while it is open).
async fn challenge_row(e: &Economy, by: i64) -> i64 {
    let id = new_id();
    sqlx::query(
        "INSERT INTO challenges (id, by_user, game, options, seats, time_s, private, status, created, match_id) \
         VALUES ($1, $2, 'triple-triad', '{\"stake\": {\"trade\": \"one\"}}', '[]', 60, $3, 'open', 0, NULL)",
    )
    .bind(id)
    .bind(by)
    .bind(0_i64)
    .execute(&e.pool)
    .await
    .unwrap();
    id
}

const TT: crate::table::GameKind = crate::table::GameKind::TripleTriad;

/// `user` takes their seat of `challenge` with their deck `deck`.
async fn seat_deck(e: &Economy, challenge: i64, user: i64, deck: &str) -> Result<(), Failure> {
    let mut tx = e.pool.begin().await?;
    e.choose_hand(&mut tx, challenge, user, &super::Pick::Deck(deck.into()))
        .await?;
    Ok(tx.commit().await?)
}

/// Plays a whole match between `a` and `b` with `trade`; returns the settlement.
async fn play_match(e: &Economy, a: i64, b: i64, trade: TradeRule, seed: u64) -> Result<Settlement, Failure> {
    let id = match_row(e).await;
    let options = json!({
        "stake": {"trade": trade, "gils": 0, "customs": "mush"},
        "deck_level_limit": 20,
        "deck": "Main",
    });
    let challenge = challenge_row(e, a).await;
    seat_deck(e, challenge, b, "Main").await?;
    let mut tx = e.pool.begin().await?;
    let out = e
        .prepare_match(&mut tx, id, TT, &options, [Some(a), Some(b)], Some(challenge), 1)
        .await?;
    tx.commit().await?;
    let hands: arbiter_core::tripletriad::Hands =
        serde_json::from_value(json!({"blue": out["hands"]["blue"], "red": out["hands"]["red"]})).unwrap();
    let config = MatchConfig {
        trade,
        ..MatchConfig::default()
    };
    let mut m = Match::new(config, hands.blue, hands.red, seed).unwrap();
    let mut rng = Rng::new(seed);
    while !m.is_over() {
        let moves = m.game().legal_moves();
        m.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
    }
    // The result as the live match writes it, in the same transaction as the stakes' end.
    let mut tx = e.pool.begin().await?;
    sqlx::query("UPDATE matches SET status = 'over' WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let s = e.match_ended(&mut tx, id, Some(&m)).await?.unwrap();
    tx.commit().await?;
    if let Some((chooser, count, _)) = s.choosing {
        let picks: Vec<String> = (1..=count).map(|i| i.to_string()).collect();
        let loser = if chooser == a { b } else { a };
        assert_eq!(
            e.choose(id, Some(loser), &picks).await.unwrap_err().code,
            Code::NotTheWinner
        );
        let done = e.choose(id, Some(chooser), &picks).await?;
        assert_eq!(
            e.choose(id, Some(chooser), &picks).await.unwrap_err().code,
            Code::NothingToChoose
        );
        return Ok(done);
    }
    Ok(s)
}

#[tokio::test]
async fn stakes_move_cards_exactly_once() {
    let e = economy("stakes").await;
    let (a, b) = (user(&e, "Cloud").await, user(&e, "Tifa").await);
    for u in [a, b] {
        e.starter(u).await.unwrap();
    }
    let mut moved = 0;
    for (i, trade) in [
        TradeRule::One,
        TradeRule::All,
        TradeRule::Direct,
        TradeRule::Random,
        TradeRule::None,
    ]
    .into_iter()
    .enumerate()
    {
        for u in [a, b] {
            let _ = e.deck_delete(u, "Main").await;
            let _ = e.deck_delete(u, "Copy").await;
            full_deck(&e, u, "Main").await;
            // The same five cards in a second deck: a card lost leaves both.
            let main: Vec<String> = e
                .deck(u, "Main")
                .await
                .unwrap()
                .cards
                .iter()
                .map(|(_, c)| c.id.clone())
                .collect();
            e.deck_create(u, "Copy").await.unwrap();
            e.deck_add(u, Some("Copy"), &main).await.unwrap();
        }
        let s = play_match(&e, a, b, trade, 7 + i as u64).await.unwrap();
        moved += s.moved.len();
        for u in [a, b] {
            let (main, copy) = (e.deck(u, "Main").await.unwrap(), e.deck(u, "Copy").await.unwrap());
            assert_eq!(main.cards, copy.cards);
            assert_eq!(main.note, copy.note);
        }
        let f = sound(&e).await;
        assert_eq!(f.cards, 40);
        assert_eq!(f.transfers as usize, moved);
    }
    assert!(moved > 0);
    // Both played five games: 5 points each at least, 10 for each win.
    let points = e.wallet(a).await.unwrap().points + e.wallet(b).await.unwrap().points;
    assert!((50..=100).contains(&points), "{points}");
    // A deck that lost a card says why.
    let decks = [e.decks(a).await.unwrap(), e.decks(b).await.unwrap()].concat();
    if let Some(d) = decks.iter().find(|d| d.cards.len() < 5) {
        assert!(d.note.as_deref().unwrap_or_default().contains("was lost to"), "{d:?}");
    }
}

#[tokio::test]
async fn stakes_are_checked() {
    let e = economy("checks").await;
    let (a, b) = (user(&e, "Irvine").await, user(&e, "Quistis").await);
    e.starter(a).await.unwrap();
    full_deck(&e, a, "Main").await;
    // b has no deck.
    let err = play_match(&e, a, b, TradeRule::One, 1).await.unwrap_err();
    assert_eq!(err.code, Code::NoSuchDeck);
    e.starter(b).await.unwrap();
    full_deck(&e, b, "Main").await;
    // The French server's thresholds.
    let id = match_row(&e).await;
    let stake = json!({"stake": Stake { trade: TradeRule::Two, gils: 0, customs: Customs::Ttonline }, "deck_level_limit": 20, "deck": "Main"});
    let challenge = challenge_row(&e, a).await;
    seat_deck(&e, challenge, b, "Main").await.unwrap();
    let mut tx = e.pool.begin().await.unwrap();
    let err = e
        .prepare_match(&mut tx, id, TT, &stake, [Some(a), Some(b)], Some(challenge), 1)
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BadStake);
    assert!(err.message.contains("needs 2000"), "{}", err.message);
    drop(tx);
    // Nothing at stake against a computer.
    let mut tx = e.pool.begin().await.unwrap();
    let one = json!({"stake": {"trade": "one"}, "deck_level_limit": 20, "deck": "Main"});
    let err = e
        .prepare_match(&mut tx, id, TT, &one, [Some(a), None], Some(challenge), 1)
        .await
        .unwrap_err();
    assert_eq!(err.code, Code::BadStake);
    assert!(err.message.contains("computer"), "{}", err.message);
    drop(tx);
    // A gil bet they cannot cover.
    let mut tx = e.pool.begin().await.unwrap();
    let bet = json!({"stake": {"trade": "none", "gils": 5}, "deck_level_limit": 20, "deck": "Main"});
    let err = e
        .prepare_match(&mut tx, id, TT, &bet, [Some(a), Some(b)], Some(challenge), 1)
        .await
        .unwrap_err();
    assert!(err.message.contains("cannot bet 5"), "{}", err.message);
    drop(tx);
    // Without stakes against the computer, options pass through untouched: the table deals.
    let mut tx = e.pool.begin().await.unwrap();
    let plain = json!({"preset": "mush"});
    assert_eq!(
        e.prepare_match(&mut tx, id, TT, &plain, [Some(a), None], Some(challenge), 1)
            .await
            .unwrap(),
        plain
    );
    drop(tx);
    // Between people each plays the deck they named, else their current deck; nothing locked.
    let mut tx = e.pool.begin().await.unwrap();
    let out = e
        .prepare_match(&mut tx, id, TT, &plain, [Some(a), Some(b)], Some(challenge), 1)
        .await
        .unwrap();
    drop(tx);
    let deck = |u| {
        let e = &e;
        async move {
            let cards: Vec<_> = e
                .deck(u, "Main")
                .await
                .unwrap()
                .cards
                .into_iter()
                .map(|(_, c)| c.card)
                .collect();
            serde_json::to_value(cards).unwrap()
        }
    };
    assert_eq!(out["hands"]["blue"], deck(a).await);
    assert_eq!(out["hands"]["red"], deck(b).await);
    sound(&e).await;
}

#[tokio::test]
async fn random_hands_are_drawn_from_each_collection_by_the_seed() {
    let e = economy("drawn").await;
    let (a, b) = (user(&e, "Selphie").await, user(&e, "Seifer").await);
    e.starter(a).await.unwrap();
    let id = match_row(&e).await;
    let random = json!({"rules": {"random": true}, "deck_level_limit": 8});
    let draw = |options: serde_json::Value, people: [Option<i64>; 2], seed: u64| {
        let e = &e;
        async move {
            let mut tx = e.pool.begin().await.unwrap();
            e.prepare_match(&mut tx, id, TT, &options, people, None, seed).await
        }
    };
    // Fewer than five cards: refused with the reason, at the challenge, the accept, the start.
    let err = draw(random.clone(), [Some(a), Some(b)], 1).await.unwrap_err();
    assert_eq!(err.code, Code::TooFewCards);
    assert!(err.message.contains("this one has 0"), "{}", err.message);
    let game = crate::table::GameKind::TripleTriad;
    assert_eq!(
        e.check_seat(game, &random, true, b, None, false)
            .await
            .unwrap_err()
            .code,
        Code::TooFewCards
    );
    e.check_seat(game, &random, true, a, None, false).await.unwrap();
    e.check_seat(game, &json!({}), false, b, None, false).await.unwrap();
    // A computer's hand is the table's to deal; a person's comes from their own stash.
    let out = draw(random.clone(), [Some(a), None], 7).await.unwrap();
    assert!(out["hands"]["red"].is_null(), "{out}");
    let hand: Vec<arbiter_core::tripletriad::Card> = serde_json::from_value(out["hands"]["blue"].clone()).unwrap();
    assert_eq!(hand.len(), 5);
    assert!(hand.iter().map(|c| u32::from(c.level)).sum::<u32>() <= 8, "{hand:?}");
    let stash = e.stash(a).await.unwrap();
    for card in &hand {
        let owned = stash.iter().find(|s| s.card.card == *card).map_or(0, |s| s.count);
        let drawn = hand.iter().filter(|c| *c == card).count() as u32;
        assert!(drawn <= owned, "{card:?} drawn {drawn} times, owned {owned}");
    }
    // Replayable: the same seed and collections give the same hands; another seed, others.
    assert_eq!(draw(random.clone(), [Some(a), None], 7).await.unwrap(), out);
    let mut others = 0;
    for seed in 8..20 {
        others += usize::from(draw(random.clone(), [Some(a), None], seed).await.unwrap() != out);
    }
    assert!(others > 0, "the seed draws nothing");
    // Without the rule, options pass through untouched.
    let plain = json!({"deck_level_limit": 8});
    assert_eq!(draw(plain.clone(), [Some(a), None], 7).await.unwrap(), plain);
    sound(&e).await;
}

/// Random players, decks, matches and stakes (forfeits included): the invariant after every step.
#[tokio::test]
async fn random_economies_stay_sound() {
    let e = economy("random").await;
    let mut rng = Rng::new(2026);
    let mut players = Vec::new();
    for i in 0..4 {
        let u = user(&e, &format!("P{i}")).await;
        e.starter(u).await.unwrap();
        give_points(&e, u, rng.below(300) as i64).await;
        players.push(u);
    }
    let trades = [
        TradeRule::One,
        TradeRule::All,
        TradeRule::Direct,
        TradeRule::Random,
        TradeRule::None,
        TradeRule::Training,
    ];
    let (mut matches, mut refused) = (0, 0);
    for round in 0..24u64 {
        let a = players[rng.below(4) as usize];
        let mut b = players[rng.below(4) as usize];
        if a == b {
            b = players[(players.iter().position(|&p| p == a).unwrap() + 1) % 4];
        }
        match rng.below(4) {
            0 => {
                let _ = e.buy_random(a, 'A', 1 + rng.below(3) as u8).await;
            }
            _ => {
                for u in [a, b] {
                    let _ = e.deck_delete(u, "Main").await;
                    if e.card_count(u).await.unwrap() >= 5 {
                        full_deck(&e, u, "Main").await;
                    }
                }
                let trade = trades[rng.below(trades.len() as u64) as usize];
                match play_match(&e, a, b, trade, round).await {
                    Ok(_) => matches += 1,
                    Err(_) => refused += 1,
                }
            }
        }
        sound(&e).await;
    }
    let f = sound(&e).await;
    assert!(matches > 5, "{matches} matches, {refused} refused");
    assert_eq!(f.cards, f.starters + f.purchases + f.customs);
    println!("random economy: {matches} matches, {refused} refused, {f:?}");
}

/// The audit sees an end applied twice or half: a second reward, a trade booked that the
/// settlement does not list, a stake settled while its match still runs.
#[tokio::test]
async fn the_audit_sees_an_end_applied_twice() {
    let e = economy("twice").await;
    let (a, b) = (user(&e, "Laguna").await, user(&e, "Kiros").await);
    for u in [a, b] {
        e.starter(u).await.unwrap();
        full_deck(&e, u, "Main").await;
    }
    play_match(&e, a, b, TradeRule::One, 3).await.unwrap();
    sound(&e).await;
    let id: i64 = sqlx::query("SELECT match_id FROM tt_stakes")
        .fetch_one(&e.pool)
        .await
        .unwrap()
        .try_get("match_id")
        .unwrap();
    let mut tx = e.pool.begin().await.unwrap();
    let again = Entry {
        points: 5,
        match_id: Some(id),
        ..Entry::default()
    };
    book(&mut tx, a, "reward", again).await.unwrap();
    let card = Entry {
        match_id: Some(id),
        ..Entry::default()
    };
    book(&mut tx, b, "trade_in", card).await.unwrap();
    tx.commit().await.unwrap();
    sqlx::query("UPDATE matches SET status = 'running' WHERE id = $1")
        .bind(id)
        .execute(&e.pool)
        .await
        .unwrap();
    let problems = audit(&e).await.unwrap().problems.join("\n");
    for said in ["rewarded other than once", "trades booked", "disagree with their match"] {
        assert!(problems.contains(said), "{said:?} not in {problems}");
    }
}
