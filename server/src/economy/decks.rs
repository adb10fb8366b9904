//! Decks: lists of five physical cards of the owner's stash (« When putting cards in a Deck,
//! they are not removed from your stash »): a card may be in several decks, once in each; only
//! a card at stake is locked. A card lost in a match leaves every deck it was in, which then
//! says why until it is full again.

use arbiter_core::tripletriad::Card;
use arbiter_economy::{Catalog, Collection, CollectionError, ShopCard};
use serde::Serialize;
use sqlx::Row as _;

use super::{lock_wallet, Economy, Tx};
use crate::db::{new_id, now_ms};
use crate::error::{Code, Failure};

/// A deck and its cards.
#[derive(Clone, Debug, Serialize)]
pub struct DeckView {
    pub name: String,
    /// The physical cards, by slot.
    pub cards: Vec<(i64, ShopCard)>,
    /// Why cards left it, if they did.
    pub note: Option<String>,
    pub current: bool,
}

/// What the deck check says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeckCheck {
    /// Usable under the level limit of 20.
    pub usable: bool,
    /// Usable under Limitless.
    pub usable_limitless: bool,
    pub level_total: u32,
    /// Why not, in the core's words (and the deck's note).
    pub problem: Option<String>,
    /// Why not, as a code a client words: `size` (not five cards), `not_owned` (`card` is not in
    /// the stash as often as the deck holds it) or `level_total` (over 20).
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// A deck name as stored and compared.
fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

pub(crate) fn check_name(name: &str) -> Result<(), Failure> {
    let ok =
        (1..=30).contains(&name.chars().count()) && name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Failure::new(
            Code::BadDeckName,
            "a deck's name is one word of 1 to 30 letters, digits, - or _",
        ))
    }
}

async fn deck_id(tx: &mut Tx<'_>, user: i64, name: &str) -> Result<(i64, String), Failure> {
    let row = sqlx::query("SELECT id, name FROM tt_decks WHERE owner = $1 AND name_key = $2")
        .bind(user)
        .bind(key(name))
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Failure::new(Code::NoSuchDeck, format!("you have no deck named {name:?}")))?;
    Ok((row.try_get("id")?, row.try_get("name")?))
}

/// The deck `name`, or the current one.
async fn target(tx: &mut Tx<'_>, user: i64, name: Option<&str>) -> Result<(i64, String), Failure> {
    let current = lock_wallet(tx, user).await?.current_deck;
    let name = name.map(str::to_owned).or(current).ok_or_else(|| {
        Failure::new(
            Code::NoCurrentDeck,
            "name the deck (+TT/Deck Add <Deck>=...) or create one first",
        )
    })?;
    let found = deck_id(tx, user, &name).await?;
    set_current(tx, user, &found.1).await?;
    Ok(found)
}

async fn set_current(tx: &mut Tx<'_>, user: i64, name: &str) -> Result<(), Failure> {
    sqlx::query("UPDATE tt_wallets SET current_deck = $1 WHERE user_id = $2")
        .bind(key(name))
        .bind(user)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The deck's physical cards by slot.
pub(crate) async fn deck_cards(tx: &mut Tx<'_>, deck: i64) -> Result<Vec<(i64, String)>, Failure> {
    let rows = sqlx::query(
        "SELECT d.card AS card, c.card_id AS card_id FROM tt_deck_cards d JOIN tt_cards c ON c.id = d.card \
         WHERE d.deck_id = $1 ORDER BY d.slot",
    )
    .bind(deck)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("card")?, r.try_get("card_id")?)))
        .collect()
}

/// The card a player named, by id or name.
pub(crate) fn named<'a>(catalog: &'a Catalog, wanted: &str) -> Result<&'a ShopCard, Failure> {
    catalog.find(wanted).ok_or_else(|| {
        Failure::new(
            Code::NoSuchCard,
            format!("there is no card named or numbered {wanted:?}"),
        )
    })
}

fn card_of(catalog: &Catalog, id: &str) -> Result<ShopCard, Failure> {
    catalog
        .find(id)
        .cloned()
        .ok_or_else(|| Failure::internal(format!("card {id} not in the shop")))
}

/// The core's verdict on a deck of `cards` from `user`'s stash.
pub(crate) async fn verdict(
    tx: &mut Tx<'_>,
    catalog: &Catalog,
    user: i64,
    cards: &[Card],
    note: Option<&str>,
) -> Result<DeckCheck, Failure> {
    let mut stash = Collection::default();
    for r in sqlx::query("SELECT card_id FROM tt_cards WHERE owner = $1")
        .bind(user)
        .fetch_all(&mut **tx)
        .await?
    {
        let card = card_of(catalog, &r.try_get::<String, _>("card_id")?)?.card;
        // The stash is within its limits by construction; a copy over them would not count.
        let _ = stash.add(card);
    }
    let level_total = cards.iter().map(|c| u32::from(c.level)).sum();
    let limited = stash.validate_deck(cards, false);
    let limitless = stash.validate_deck(cards, true);
    let problem = limited.as_ref().err().map(|e| match note {
        Some(n) => format!("{e} ({n})"),
        None => e.to_string(),
    });
    let (reason, card) = match limited {
        Ok(()) => (None, None),
        Err(CollectionError::DeckSize(_)) => (Some("size"), None),
        Err(CollectionError::NotOwned(name)) => (Some("not_owned"), Some(name)),
        Err(CollectionError::LevelTotal(_)) => (Some("level_total"), None),
        Err(e) => return Err(Failure::internal(format!("deck check: {e}"))),
    };
    Ok(DeckCheck {
        usable: reason.is_none(),
        usable_limitless: limitless.is_ok(),
        level_total,
        problem,
        reason,
        card,
    })
}

impl Economy {
    pub async fn deck_create(&self, user: i64, name: &str) -> Result<(), Failure> {
        check_name(name)?;
        let mut tx = self.pool.begin().await?;
        lock_wallet(&mut tx, user).await?;
        let exists = sqlx::query("SELECT id FROM tt_decks WHERE owner = $1 AND name_key = $2")
            .bind(user)
            .bind(key(name))
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_some() {
            return Err(Failure::new(
                Code::DeckExists,
                format!("you already have a deck named {name:?}"),
            ));
        }
        sqlx::query(
            "INSERT INTO tt_decks (id, owner, name, name_key, note, created) VALUES ($1, $2, $3, $4, NULL, $5)",
        )
        .bind(new_id())
        .bind(user)
        .bind(name.trim())
        .bind(key(name))
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        set_current(&mut tx, user, name).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn deck_delete(&self, user: i64, name: &str) -> Result<(), Failure> {
        let mut tx = self.pool.begin().await?;
        let current = lock_wallet(&mut tx, user).await?.current_deck;
        let (id, _) = deck_id(&mut tx, user, name).await?;
        sqlx::query("DELETE FROM tt_deck_cards WHERE deck_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM tt_decks WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if current.as_deref() == Some(key(name).as_str()) {
            sqlx::query("UPDATE tt_wallets SET current_deck = NULL WHERE user_id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every deck of `user` with its cards.
    pub async fn decks(&self, user: i64) -> Result<Vec<DeckView>, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let current = super::stash::read_wallet(&mut *tx, user).await?.current_deck;
        let rows = sqlx::query("SELECT id, name, name_key, note FROM tt_decks WHERE owner = $1 ORDER BY name_key")
            .bind(user)
            .fetch_all(&mut *tx)
            .await?;
        let mut out = Vec::new();
        for r in rows {
            let cards = deck_cards(&mut tx, r.try_get("id")?)
                .await?
                .into_iter()
                .map(|(i, c)| Ok((i, card_of(&catalog, &c)?)))
                .collect::<Result<_, Failure>>()?;
            let k: String = r.try_get("name_key")?;
            out.push(DeckView {
                name: r.try_get("name")?,
                cards,
                note: r.try_get("note")?,
                current: current.as_deref() == Some(k.as_str()),
            });
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Adds cards (by name or id) to a deck: for each, a copy of the stash not yet in that deck
    /// (other decks may hold it too). All or nothing; the deck becomes the current one.
    pub async fn deck_add(&self, user: i64, deck: Option<&str>, cards: &[String]) -> Result<DeckView, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let (id, name) = target(&mut tx, user, deck).await?;
        let mut held = deck_cards(&mut tx, id).await?.len();
        for wanted in cards {
            let card = named(&catalog, wanted)?;
            if held >= 5 {
                return Err(Failure::new(
                    Code::DeckFull,
                    format!("deck {name} already holds 5 cards"),
                ));
            }
            let free = sqlx::query(
                "SELECT c.id AS id FROM tt_cards c WHERE c.owner = $1 AND c.card_id = $2 \
                 AND NOT EXISTS (SELECT 1 FROM tt_deck_cards d WHERE d.card = c.id AND d.deck_id = $3) \
                 ORDER BY c.id LIMIT 1",
            )
            .bind(user)
            .bind(&card.id)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(free) = free else {
                let owned = super::copies(&mut tx, user, &card.id).await?;
                return Err(Failure::new(
                    Code::NotOwned,
                    if owned == 0 {
                        format!("you do not own {} ({})", card.card.name, card.id)
                    } else {
                        format!(
                            "all {owned} of your {} ({}) are already in deck {name}",
                            card.card.name, card.id
                        )
                    },
                ));
            };
            let slot: i64 =
                sqlx::query("SELECT COALESCE(MAX(slot), -1) + 1 AS s FROM tt_deck_cards WHERE deck_id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("s")?;
            sqlx::query("INSERT INTO tt_deck_cards (deck_id, slot, card) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(slot)
                .bind(free.try_get::<i64, _>("id")?)
                .execute(&mut *tx)
                .await?;
            held += 1;
        }
        if held == 5 {
            sqlx::query("UPDATE tt_decks SET note = NULL WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.deck(user, &name).await
    }

    /// Removes cards (by name or id) from a deck: all or nothing.
    pub async fn deck_remove(&self, user: i64, deck: Option<&str>, cards: &[String]) -> Result<DeckView, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let (id, name) = target(&mut tx, user, deck).await?;
        let mut held = deck_cards(&mut tx, id).await?;
        for wanted in cards {
            let card = named(&catalog, wanted)?;
            let at = held.iter().position(|(_, c)| *c == card.id).ok_or_else(|| {
                Failure::new(
                    Code::NotInDeck,
                    format!("deck {name} holds no {} ({})", card.card.name, card.id),
                )
            })?;
            let (instance, _) = held.remove(at);
            sqlx::query("DELETE FROM tt_deck_cards WHERE deck_id = $1 AND card = $2")
                .bind(id)
                .bind(instance)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.deck(user, &name).await
    }

    /// One deck.
    pub async fn deck(&self, user: i64, name: &str) -> Result<DeckView, Failure> {
        self.decks(user)
            .await?
            .into_iter()
            .find(|d| key(&d.name) == key(name))
            .ok_or_else(|| Failure::new(Code::NoSuchDeck, format!("you have no deck named {name:?}")))
    }

    /// The deck check: five cards, all in the stash, levels within 20 unless Limitless.
    pub async fn deck_check(&self, user: i64, name: Option<&str>) -> Result<(DeckView, DeckCheck), Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let (_, name) = target(&mut tx, user, name).await?;
        tx.commit().await?;
        let view = self.deck(user, &name).await?;
        let cards: Vec<Card> = view.cards.iter().map(|(_, c)| c.card.clone()).collect();
        let mut tx = self.pool.begin().await?;
        let check = verdict(&mut tx, &catalog, user, &cards, view.note.as_deref()).await?;
        tx.commit().await?;
        Ok((view, check))
    }
}
