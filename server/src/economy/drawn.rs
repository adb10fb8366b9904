//! Random hands (the `random` rule): each person's five cards drawn from their own collection
//! with the match's seed, so that the same seed and collections give the same hands. The
//! collection drawn from is the cards free to play: a card at stake in another match is not.

use arbiter_core::tripletriad::Card;
use arbiter_core::Rng;
use arbiter_economy::Collection;
use sqlx::Row as _;

use super::{Economy, Tx};
use crate::error::{Code, Failure};

/// A stream of the match's seed no other draw uses: a seat's hand does not depend on who moves
/// first or on the elements.
const HANDS: u64 = 0x4841_4e44_5300_0000;

/// The seed of seat `seat`'s draw in a match seeded `seed`.
pub(crate) fn seat_seed(seed: u64, seat: usize) -> u64 {
    seed ^ HANDS ^ seat as u64
}

impl Economy {
    /// `user`'s five drawn from `seed` (as card ids and cards), within `limit`: refused when
    /// their collection cannot make a hand.
    pub(crate) async fn drawn_hand(
        &self,
        tx: &mut Tx<'_>,
        user: i64,
        seed: u64,
        limit: Option<u32>,
    ) -> Result<Vec<(i64, Card)>, Failure> {
        let catalog = self.catalog_with(&mut **tx).await?;
        let rows = sqlx::query("SELECT id, card_id FROM tt_cards WHERE owner = $1 AND locked_by IS NULL ORDER BY id")
            .bind(user)
            .fetch_all(&mut **tx)
            .await?;
        let mut ids = Vec::with_capacity(rows.len());
        let mut collection = Collection::default();
        for r in &rows {
            let card_id: String = r.try_get("card_id")?;
            let card = catalog
                .find(&card_id)
                .ok_or_else(|| Failure::internal(format!("card {card_id} not in the shop")))?;
            collection.add(card.card.clone()).map_err(Failure::internal)?;
            ids.push(r.try_get::<i64, _>("id")?);
        }
        let picks = collection.random_hand(&mut Rng::new(seed), limit).ok_or_else(|| {
            let within = limit.map(|l| format!(" whose levels total at most {l}")).unwrap_or_default();
            Failure::new(
                Code::TooFewCards,
                format!(
                    "random hands are drawn from each player's collection, which needs five cards free to play{within} (a card at stake in another match is not): this one has {}",
                    rows.len()
                ),
            )
        })?;
        Ok(picks
            .into_iter()
            .map(|i| (ids[i], collection.cards()[i].clone()))
            .collect())
    }
}
