//! The card shop: points spent and the card added in one transaction; custom cards created at
//! half the custom series' price and stored so that every process's shop knows them.

use std::collections::HashMap;

use arbiter_core::tripletriad::Element;
use arbiter_core::Rng;
use arbiter_economy::{Sale, Series, ShopCard, ShopError};
use serde::Serialize;
use sqlx::Row as _;

use super::{book, lock_wallet, mint, refused, Economy, Entry};
use crate::crash_point::{self, Step};
use crate::error::{Code, Failure};

/// A series as `+TT/List` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SeriesView {
    pub series: Series,
    /// Different cards in it.
    pub cards: u32,
    /// How many of those the player owns at least one of.
    pub owned: u32,
}

fn shop_failure(e: ShopError) -> Failure {
    let code = match &e {
        ShopError::NotEnoughPoints { .. } => Code::NotEnoughPoints,
        ShopError::NotForSale { .. } | ShopError::SeriesFull(_) => Code::NotForSale,
        ShopError::UnknownCard(_) | ShopError::NoCardOfLevel { .. } => Code::NoSuchCard,
        ShopError::UnknownSeries(_) => Code::NoSuchSeries,
        ShopError::TooManyCopies { .. } | ShopError::AllOwned { .. } => Code::CopyLimit,
        ShopError::NameTaken(_) => Code::NameTaken,
        ShopError::Card(_) | ShopError::BadName { .. } | ShopError::TextTooLong(_) => Code::BadCustomCard,
        ShopError::Level(_) => Code::BadLevel,
    };
    refused(code, e)
}

impl Economy {
    /// What the player owns, by card id.
    async fn owned_counts(&self, user: i64) -> Result<HashMap<String, u32>, Failure> {
        let rows = sqlx::query("SELECT card_id, COUNT(*) AS n FROM tt_cards WHERE owner = $1 GROUP BY card_id")
            .bind(user)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("card_id")?, r.try_get::<i64, _>("n")? as u32)))
            .collect()
    }

    /// Every series with its size, how many of its cards `user` has, and its prices.
    pub async fn series(&self, user: i64) -> Result<Vec<SeriesView>, Failure> {
        let catalog = self.catalog().await?;
        let owned = self.owned_counts(user).await?;
        Ok(catalog
            .series()
            .iter()
            .map(|s| SeriesView {
                series: s.clone(),
                cards: catalog.cards_of(s.code, None).count() as u32,
                owned: catalog
                    .cards_of(s.code, None)
                    .filter(|c| owned.contains_key(&c.id))
                    .count() as u32,
            })
            .collect())
    }

    /// The cards of a series (one level or all) with how many `user` owns.
    pub async fn series_cards(
        &self,
        user: i64,
        series: char,
        level: Option<u8>,
    ) -> Result<Vec<(ShopCard, u32)>, Failure> {
        let catalog = self.catalog().await?;
        catalog.series_of(series).map_err(shop_failure)?;
        let owned = self.owned_counts(user).await?;
        Ok(catalog
            .cards_of(series, level)
            .map(|c| (c.clone(), owned.get(&c.id).copied().unwrap_or(0)))
            .collect())
    }

    /// Takes the price and adds the card, or refuses and changes nothing.
    async fn sell(
        &self,
        user: i64,
        choose: impl FnOnce(&HashMap<String, u32>, i64) -> Result<Sale, ShopError>,
    ) -> Result<Sale, Failure> {
        let mut tx = self.pool.begin().await?;
        let wallet = lock_wallet(&mut tx, user).await?;
        let rows = sqlx::query("SELECT card_id, COUNT(*) AS n FROM tt_cards WHERE owner = $1 GROUP BY card_id")
            .bind(user)
            .fetch_all(&mut *tx)
            .await?;
        let owned: HashMap<String, u32> = rows
            .iter()
            .map(|r| Ok((r.try_get("card_id")?, r.try_get::<i64, _>("n")? as u32)))
            .collect::<Result<_, Failure>>()?;
        let sale = choose(&owned, wallet.points).map_err(shop_failure)?;
        deliver(tx, user, "purchase", sale).await
    }

    /// `+TT/Buy Random=<Series>/<Level>`.
    pub async fn buy_random(&self, user: i64, series: char, level: u8) -> Result<Sale, Failure> {
        let catalog = self.catalog().await?;
        let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
        self.sell(user, |owned, points| {
            let count = |c: &ShopCard| owned.get(&c.id).copied().unwrap_or(0);
            catalog.buy_random(series, level, points.max(0) as u32, count, &mut Rng::new(seed))
        })
        .await
    }

    /// `+TT/Buy Card=<Name>`.
    pub async fn buy_card(&self, user: i64, name_or_id: &str) -> Result<Sale, Failure> {
        let catalog = self.catalog().await?;
        self.sell(user, |owned, points| {
            let have = catalog
                .find(name_or_id)
                .map_or(0, |c| owned.get(&c.id).copied().unwrap_or(0));
            catalog.buy_card(name_or_id, points.max(0) as u32, have)
        })
        .await
    }

    /// `+TT/Custom`: a new card, unique by name, in the creator's stash and in the shop.
    pub async fn create_custom(
        &self,
        user: i64,
        name: &str,
        level: u8,
        ranks: [u8; 4],
        element: &str,
        text: &str,
    ) -> Result<Sale, Failure> {
        let element: Element = element.parse().map_err(|e| refused(Code::BadCustomCard, e))?;
        // Everyone reads a custom card (the shop, hands, boards): only printable text, the text's
        // line breaks aside (the text game's %r); the core bounds the lengths.
        crate::text::check("the card's name", name, usize::MAX, false).map_err(|e| refused(Code::BadCustomCard, e))?;
        crate::text::check("the card's text", text, usize::MAX, true).map_err(|e| refused(Code::BadCustomCard, e))?;
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let wallet = lock_wallet(&mut tx, user).await?;
        let sale = catalog
            .design_custom(name, level, ranks, element, text, wallet.points.max(0) as u32)
            .map_err(shop_failure)?;
        let json = serde_json::to_string(&sale.card).map_err(Failure::internal)?;
        // The unique keys decide between two creators racing for one name or one id.
        let stored = sqlx::query(
            "INSERT INTO tt_custom_cards (card_id, name_key, card, creator, created) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&sale.card.id)
        .bind(sale.card.card.name.to_lowercase())
        .bind(json)
        .bind(user)
        .bind(crate::db::now_ms())
        .execute(&mut *tx)
        .await?;
        if stored.rows_affected() != 1 {
            return Err(Failure::new(
                Code::NameTaken,
                format!(
                    "{:?} or the id {} was just taken by another card: try again",
                    sale.card.card.name, sale.card.id
                ),
            ));
        }
        deliver(tx, user, "custom", sale).await
    }
}

/// Puts the card sold in the buyer's stash, takes its price, and commits.
async fn deliver(mut tx: super::Tx<'_>, user: i64, kind: &str, sale: Sale) -> Result<Sale, Failure> {
    let id = mint(&mut tx, user, &sale.card.id).await?;
    let entry = Entry {
        points: -i64::from(sale.price),
        cards: 1,
        card: Some(id),
        ..Entry::default()
    };
    book(&mut tx, user, kind, entry).await?;
    crash_point::reached(Step::PointsPaid);
    tx.commit().await?;
    crash_point::reached(Step::PurchaseCommitted);
    Ok(sale)
}
