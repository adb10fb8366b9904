//! The economy's invariant, checked against the database: every physical card has one owner and
//! the number of cards changes only by starters, purchases and custom cards; each stash and
//! each balance equals the sum of its ledger; decks hold only their owner's cards; cards at
//! stake belong to an unsettled match; nobody holds more copies than allowed.

use serde::Serialize;
use sqlx::Row as _;

use super::Economy;
use crate::error::Failure;

/// What the audit counted, and what it found wrong (nothing, in a sound database).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Figures {
    pub players: i64,
    pub cards: i64,
    /// Cards created: by starters, purchases, custom cards.
    pub starters: i64,
    pub purchases: i64,
    pub customs: i64,
    /// Cards that changed owners in trades.
    pub transfers: i64,
    /// Matches with stakes settled, and still choosing.
    pub settled: i64,
    pub choosing: i64,
    /// Points held, earned and spent.
    pub points: i64,
    pub points_earned: i64,
    pub points_spent: i64,
    pub problems: Vec<String>,
}

async fn scalar(e: &Economy, sql: &'static str) -> Result<i64, Failure> {
    Ok(sqlx::query(sql).fetch_one(&e.pool).await?.try_get("n")?)
}

/// Audits the economy of `e`'s database.
pub async fn audit(e: &Economy) -> Result<Figures, Failure> {
    let catalog = e.catalog().await?;
    let mut f = Figures {
        players: scalar(e, "SELECT COUNT(*) AS n FROM tt_wallets").await?,
        cards: scalar(e, "SELECT COUNT(*) AS n FROM tt_cards").await?,
        starters: scalar(
            e,
            "SELECT CAST(COALESCE(SUM(cards), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind = 'starter'",
        )
        .await?,
        purchases: scalar(
            e,
            "SELECT CAST(COALESCE(SUM(cards), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind = 'purchase'",
        )
        .await?,
        customs: scalar(
            e,
            "SELECT CAST(COALESCE(SUM(cards), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind = 'custom'",
        )
        .await?,
        transfers: scalar(e, "SELECT COUNT(*) AS n FROM tt_ledger WHERE kind = 'trade_in'").await?,
        settled: scalar(e, "SELECT COUNT(*) AS n FROM tt_stakes WHERE status = 'settled'").await?,
        choosing: scalar(e, "SELECT COUNT(*) AS n FROM tt_stakes WHERE status = 'choosing'").await?,
        points: scalar(
            e,
            "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS n FROM tt_wallets",
        )
        .await?,
        points_earned: scalar(
            e,
            "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind = 'reward'",
        )
        .await?,
        points_spent: -scalar(
            e,
            "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind IN ('purchase', 'custom')",
        )
        .await?,
        problems: Vec::new(),
    };
    let p = &mut f.problems;
    if f.cards != f.starters + f.purchases + f.customs {
        p.push(format!(
            "{} cards exist, but starters, purchases and custom cards made {}",
            f.cards,
            f.starters + f.purchases + f.customs
        ));
    }
    let moved = scalar(
        e,
        "SELECT CAST(COALESCE(SUM(cards), 0) AS BIGINT) AS n FROM tt_ledger WHERE kind IN ('trade_in', 'trade_out')",
    )
    .await?;
    if moved != 0 {
        p.push(format!("trades created or destroyed {moved} cards"));
    }
    if f.points != f.points_earned - f.points_spent {
        p.push(format!(
            "{} points are held, but {} were earned and {} spent",
            f.points, f.points_earned, f.points_spent
        ));
    }
    let per_user = sqlx::query(
        "SELECT w.user_id AS u, w.points AS points, w.gils AS gils, w.experience AS experience, \
         (SELECT COUNT(*) FROM tt_cards c WHERE c.owner = w.user_id) AS cards, \
         (SELECT CAST(COALESCE(SUM(l.cards), 0) AS BIGINT) FROM tt_ledger l WHERE l.user_id = w.user_id) AS l_cards, \
         (SELECT CAST(COALESCE(SUM(l.points), 0) AS BIGINT) FROM tt_ledger l WHERE l.user_id = w.user_id) AS l_points, \
         (SELECT CAST(COALESCE(SUM(l.gils), 0) AS BIGINT) FROM tt_ledger l WHERE l.user_id = w.user_id) AS l_gils, \
         (SELECT CAST(COALESCE(SUM(l.experience), 0) AS BIGINT) FROM tt_ledger l WHERE l.user_id = w.user_id) AS l_experience \
         FROM tt_wallets w",
    )
    .fetch_all(&e.pool)
    .await?;
    for r in per_user {
        let u: i64 = r.try_get("u")?;
        for (held, booked) in [
            ("cards", "l_cards"),
            ("points", "l_points"),
            ("gils", "l_gils"),
            ("experience", "l_experience"),
        ] {
            let (a, b): (i64, i64) = (r.try_get(held)?, r.try_get(booked)?);
            if a != b {
                p.push(format!("player {u} holds {a} {held}, the ledger says {b}"));
            }
        }
    }
    let homeless = scalar(
        e,
        "SELECT COUNT(*) AS n FROM tt_cards c WHERE NOT EXISTS (SELECT 1 FROM tt_wallets w WHERE w.user_id = c.owner)",
    )
    .await?;
    if homeless != 0 {
        p.push(format!("{homeless} cards belong to a player without a stash"));
    }
    // A match ends once: its stake is running exactly while the match is, and each person of an
    // ended match got exactly one reward line (none while it runs).
    let out_of_step = scalar(
        e,
        "SELECT COUNT(*) AS n FROM tt_stakes s LEFT JOIN matches m ON m.id = s.match_id \
         WHERE m.id IS NULL OR (s.status = 'running' AND m.status <> 'running') \
         OR (s.status <> 'running' AND m.status = 'running')",
    )
    .await?;
    if out_of_step != 0 {
        p.push(format!(
            "{out_of_step} stakes disagree with their match on whether it ended"
        ));
    }
    let rewarded_wrong = scalar(
        e,
        "SELECT COUNT(*) AS n FROM tt_stakes s JOIN matches m ON m.id = s.match_id \
         WHERE (SELECT COUNT(*) FROM tt_ledger l WHERE l.kind = 'reward' AND l.match_id = s.match_id) <> \
         CASE WHEN m.status = 'running' THEN 0 \
         ELSE (CASE WHEN s.blue_user IS NULL THEN 0 ELSE 1 END) + (CASE WHEN s.red_user IS NULL THEN 0 ELSE 1 END) END",
    )
    .await?;
    if rewarded_wrong != 0 {
        p.push(format!(
            "{rewarded_wrong} matches with stakes were rewarded other than once per person at their end"
        ));
    }
    // A settlement is applied once: the cards it lists are the trades the ledger booked for it.
    for r in sqlx::query(
        "SELECT s.match_id AS id, s.status AS status, s.transfers AS transfers, \
         (SELECT COUNT(*) FROM tt_ledger l WHERE l.kind = 'trade_in' AND l.match_id = s.match_id) AS booked \
         FROM tt_stakes s",
    )
    .fetch_all(&e.pool)
    .await?
    {
        let id: i64 = r.try_get("id")?;
        let booked: i64 = r.try_get("booked")?;
        let listed = match r.try_get::<Option<String>, _>("transfers")? {
            Some(t) => serde_json::from_str::<Vec<serde_json::Value>>(&t)
                .map_err(|e| Failure::internal(format!("stake of {id}: transfers: {e}")))?
                .len() as i64,
            None => 0,
        };
        if booked != listed || (booked != 0 && r.try_get::<String, _>("status")? != "settled") {
            p.push(format!(
                "match {id}: {listed} cards listed as moved, {booked} trades booked"
            ));
        }
    }
    let strays = scalar(
        e,
        "SELECT COUNT(*) AS n FROM tt_deck_cards d JOIN tt_decks k ON k.id = d.deck_id JOIN tt_cards c ON c.id = d.card \
         WHERE c.owner <> k.owner",
    )
    .await?;
    if strays != 0 {
        p.push(format!("{strays} deck cards belong to someone else"));
    }
    let stale = scalar(
        e,
        "SELECT COUNT(*) AS n FROM tt_cards c WHERE c.locked_by IS NOT NULL AND NOT EXISTS \
         (SELECT 1 FROM tt_stakes s WHERE s.match_id = c.locked_by AND s.status <> 'settled')",
    )
    .await?;
    if stale != 0 {
        p.push(format!("{stale} cards are at stake in no unsettled match"));
    }
    for r in sqlx::query("SELECT owner, card_id, COUNT(*) AS n FROM tt_cards GROUP BY owner, card_id")
        .fetch_all(&e.pool)
        .await?
    {
        let id: String = r.try_get("card_id")?;
        let n: i64 = r.try_get("n")?;
        match catalog.find(&id) {
            Some(c) if n > i64::from(catalog.copies_allowed(c)) => {
                p.push(format!(
                    "player {} holds {n} copies of {id}",
                    r.try_get::<i64, _>("owner")?
                ));
            }
            Some(_) => {}
            None => p.push(format!("card {id} is in no series")),
        }
    }
    Ok(f)
}
