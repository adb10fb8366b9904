//! Triple Triad's card economy in the database: every physical card with its one owner, decks,
//! the shop, custom cards, balances, the stakes of matches, and the ledger the invariant sums.
//! The rules (prices, copy limits, rank ranges, deck checks, trades, rewards) are the core's;
//! this module stores and moves, each change in one transaction that first locks the players'
//! balance rows, so that two clients of one player never both spend the same points or card.

mod audit;
mod decks;
mod drawn;
mod picked;
mod shop;
mod stakes;
mod stash;
#[cfg(test)]
mod tests;

use std::sync::RwLock;

use arbiter_economy::{Catalog, ShopCard};
use sqlx::Row as _;

use crate::db::{new_id, now_ms, Pool, Tx};
use crate::error::{Code, Failure};

pub use audit::audit;
#[cfg(test)]
use audit::Figures;
pub(crate) use decks::check_name as check_deck_name;
pub use decks::{DeckCheck, DeckView};
pub(crate) use picked::picks_hands;
pub use picked::Pick;
pub use shop::SeriesView;
pub(crate) use stakes::check_settles;
pub use stakes::{public_options, Settlement, WinList, CHOICE_SECONDS};
pub use stash::{StashEntry, Wallet};

/// The economy of one database: the pool and the shop's database (the standard series and the
/// custom cards read from storage).
pub struct Economy {
    pub pool: Pool,
    catalog: RwLock<Catalog>,
}

impl Economy {
    pub fn new(pool: Pool) -> Economy {
        Economy {
            pool,
            catalog: RwLock::new(Catalog::standard()),
        }
    }

    /// The shop's database with every custom card stored so far (another process may have made
    /// some since this one last looked).
    pub async fn catalog(&self) -> Result<Catalog, Failure> {
        self.catalog_with(&self.pool).await
    }

    /// [`Economy::catalog`] read through `e` (a transaction's connection: SQLite's pool has one).
    pub(crate) async fn catalog_with<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
        &self,
        e: E,
    ) -> Result<Catalog, Failure> {
        let known = self
            .catalog
            .read()
            .map_err(|_| Failure::internal("catalog lock"))?
            .cards()
            .len();
        let customs = Catalog::standard().cards().len();
        let rows = sqlx::query("SELECT card FROM tt_custom_cards ORDER BY card_id")
            .fetch_all(e)
            .await?;
        if rows.len() + customs != known {
            let mut fresh = Catalog::standard();
            for r in rows {
                let card: ShopCard = serde_json::from_str(&r.try_get::<String, _>("card")?)
                    .map_err(|e| Failure::internal(format!("custom card: {e}")))?;
                fresh
                    .add(card)
                    .map_err(|e| Failure::internal(format!("custom card: {e}")))?;
            }
            *self.catalog.write().map_err(|_| Failure::internal("catalog lock"))? = fresh;
        }
        Ok(self
            .catalog
            .read()
            .map_err(|_| Failure::internal("catalog lock"))?
            .clone())
    }
}

/// Creates `user`'s balances if missing and locks them for the rest of `tx` (the row lock
/// PostgreSQL takes on UPDATE; SQLite's one writer does the same), then reads them.
pub(crate) async fn lock_wallet(tx: &mut Tx<'_>, user: i64) -> Result<Wallet, Failure> {
    sqlx::query(
        "INSERT INTO tt_wallets (user_id, points, experience, gils, starter, current_deck) \
         VALUES ($1, 0, 0, 0, NULL, NULL) ON CONFLICT (user_id) DO NOTHING",
    )
    .bind(user)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE tt_wallets SET points = points WHERE user_id = $1")
        .bind(user)
        .execute(&mut **tx)
        .await?;
    stash::read_wallet(&mut **tx, user).await
}

/// One line of the ledger.
#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    pub points: i64,
    pub cards: i64,
    pub experience: i64,
    pub gils: i64,
    pub match_id: Option<i64>,
    pub card: Option<i64>,
}

/// Writes a ledger line and applies its balances to the wallet (cards are moved by the caller).
pub(crate) async fn book(tx: &mut Tx<'_>, user: i64, kind: &str, e: Entry) -> Result<(), Failure> {
    if e.points != 0 || e.experience != 0 || e.gils != 0 {
        let done = sqlx::query(
            "UPDATE tt_wallets SET points = points + $1, experience = experience + $2, gils = gils + $3 \
             WHERE user_id = $4 AND points + $1 >= 0 AND gils + $3 >= 0",
        )
        .bind(e.points)
        .bind(e.experience)
        .bind(e.gils)
        .bind(user)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(Failure::internal(format!(
                "wallet of {user}: {kind} would go below zero"
            )));
        }
    }
    sqlx::query(
        "INSERT INTO tt_ledger (id, user_id, kind, points, cards, experience, gils, match_id, card, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(new_id())
    .bind(user)
    .bind(kind)
    .bind(e.points)
    .bind(e.cards)
    .bind(e.experience)
    .bind(e.gils)
    .bind(e.match_id)
    .bind(e.card)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A new physical card of `card_id` in `owner`'s stash (the caller books its creation).
pub(crate) async fn mint(tx: &mut Tx<'_>, owner: i64, card_id: &str) -> Result<i64, Failure> {
    let id = new_id();
    sqlx::query("INSERT INTO tt_cards (id, card_id, owner, locked_by, acquired) VALUES ($1, $2, $3, NULL, $4)")
        .bind(id)
        .bind(card_id)
        .bind(owner)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
    Ok(id)
}

/// Copies of `card_id` that `owner` holds.
pub(crate) async fn copies(tx: &mut Tx<'_>, owner: i64, card_id: &str) -> Result<u32, Failure> {
    let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM tt_cards WHERE owner = $1 AND card_id = $2")
        .bind(owner)
        .bind(card_id)
        .fetch_one(&mut **tx)
        .await?
        .try_get("n")?;
    Ok(n as u32)
}

/// A shop error as the client is told it.
pub(crate) fn refused(code: Code, e: impl std::fmt::Display) -> Failure {
    Failure::new(code, e.to_string())
}
