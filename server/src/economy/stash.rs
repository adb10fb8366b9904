//! A player's stash and balances: the starter collection (once), the views by id and name.

use std::collections::BTreeMap;

use arbiter_economy::{Collection, ShopCard};
use serde::Serialize;
use sqlx::Row as _;

use super::{book, lock_wallet, mint, Economy, Entry};
use crate::error::{Code, Failure};

/// A player's balances.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wallet {
    pub points: i64,
    pub experience: i64,
    pub gils: i64,
    pub starter_taken: bool,
    pub current_deck: Option<String>,
}

pub(crate) async fn read_wallet<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    user: i64,
) -> Result<Wallet, Failure> {
    let row = sqlx::query("SELECT points, experience, gils, starter, current_deck FROM tt_wallets WHERE user_id = $1")
        .bind(user)
        .fetch_optional(e)
        .await?;
    let Some(r) = row else { return Ok(Wallet::default()) };
    Ok(Wallet {
        points: r.try_get("points")?,
        experience: r.try_get("experience")?,
        gils: r.try_get("gils")?,
        starter_taken: r.try_get::<Option<i64>, _>("starter")?.is_some(),
        current_deck: r.try_get("current_deck")?,
    })
}

/// One card of a stash: how many copies, and how many of them sit in decks.
#[derive(Clone, Debug, Serialize)]
pub struct StashEntry {
    pub card: ShopCard,
    pub count: u32,
    pub in_decks: u32,
    pub at_stake: u32,
}

impl Economy {
    /// The starter collection: 20 random cards of levels 1 to 3 (the core's, from a fresh
    /// seed), once per player.
    pub async fn starter(&self, user: i64) -> Result<Vec<ShopCard>, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        lock_wallet(&mut tx, user).await?;
        let taken = sqlx::query("UPDATE tt_wallets SET starter = $1 WHERE user_id = $2 AND starter IS NULL")
            .bind(crate::db::now_ms())
            .bind(user)
            .execute(&mut *tx)
            .await?;
        if taken.rows_affected() != 1 {
            return Err(Failure::new(
                Code::StarterTaken,
                "you already have your starter set: it is given once",
            ));
        }
        let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
        let mut out = Vec::new();
        for card in Collection::starter(seed).cards() {
            let c = catalog
                .find(&card.name)
                .ok_or_else(|| Failure::internal(format!("starter card {} not in the shop", card.name)))?;
            let id = mint(&mut tx, user, &c.id).await?;
            book(
                &mut tx,
                user,
                "starter",
                Entry {
                    cards: 1,
                    card: Some(id),
                    ..Entry::default()
                },
            )
            .await?;
            out.push(c.clone());
        }
        tx.commit().await?;
        out.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(out)
    }

    /// The balances of `user`.
    pub async fn wallet(&self, user: i64) -> Result<Wallet, Failure> {
        read_wallet(&self.pool, user).await
    }

    /// The stash of `user`, by card id.
    pub async fn stash(&self, user: i64) -> Result<Vec<StashEntry>, Failure> {
        let catalog = self.catalog().await?;
        let rows = sqlx::query(
            "SELECT c.card_id AS card_id, c.locked_by AS locked_by, \
             (SELECT COUNT(*) FROM tt_deck_cards d WHERE d.card = c.id) AS in_deck \
             FROM tt_cards c WHERE c.owner = $1",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        let mut by_id: BTreeMap<String, (u32, u32, u32)> = BTreeMap::new();
        for r in rows {
            let e = by_id.entry(r.try_get("card_id")?).or_default();
            e.0 += 1;
            e.1 += (r.try_get::<i64, _>("in_deck")? > 0) as u32;
            e.2 += r.try_get::<Option<i64>, _>("locked_by")?.is_some() as u32;
        }
        by_id
            .into_iter()
            .map(|(id, (count, in_decks, at_stake))| {
                let card = catalog
                    .find(&id)
                    .cloned()
                    .ok_or_else(|| Failure::internal(format!("card {id} not in the shop")))?;
                Ok(StashEntry {
                    card,
                    count,
                    in_decks,
                    at_stake,
                })
            })
            .collect()
    }

    /// How many cards `user` owns in all.
    pub async fn card_count(&self, user: i64) -> Result<u32, Failure> {
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM tt_cards WHERE owner = $1")
            .bind(user)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        Ok(n as u32)
    }
}
