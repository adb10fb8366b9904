//! Picked hands: the five cards a person plays from their own stash in a Triple Triad match
//! between people, or at stake: a saved deck, or five cards by id, named with the challenge or
//! the accept (the current deck when a game without stakes names none). The hands go into the
//! match's options (its record, so that it replays) and never reach a client's view of them.

use arbiter_core::tripletriad::Card;
use arbiter_economy::Catalog;
use serde_json::Value;
use sqlx::Row as _;

use super::decks::{check_name, deck_cards, named, verdict};
use super::{Economy, Tx};
use crate::error::{Code, Failure};
use crate::table::{ffxiv_dealt, random_hands, GameKind};

/// The most characters of one card named in a pick (series A's longest name takes 20, a custom
/// card's 30).
const CARD_WORD_MAX: usize = 40;

/// What tells a person how to name their five, in both interfaces.
const HOW: &str = "name the five cards you play: a deck of yours (the challenge's options.deck or the accept's deck; +TT/Game <Name>=<Deck>/<Rules> or +TT/Accept <Deck> in text) or five card ids (cards; +TT/Accept A001 A002 A003 A004 A005 in text)";

/// The five cards a person names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A saved deck, by name.
    Deck(String),
    /// Five cards of their stash, by id or name (a card twice: two copies).
    Cards(Vec<String>),
}

impl Pick {
    /// The pick a request names with `deck` or `cards` (none: neither), checked for its form.
    pub fn from_request(deck: Option<String>, cards: Option<Vec<String>>) -> Result<Option<Pick>, Failure> {
        match (deck, cards) {
            (Some(_), Some(_)) => Err(Failure::new(Code::BadChallenge, "name a deck or five cards, not both")),
            (Some(deck), None) => {
                check_name(deck.trim())?;
                Ok(Some(Pick::Deck(deck.trim().to_owned())))
            }
            (None, Some(cards)) => {
                if cards.len() != 5 {
                    return Err(Failure::new(
                        Code::DeckUnusable,
                        format!("a hand is five cards, not {}", cards.len()),
                    ));
                }
                for c in &cards {
                    crate::text::check("cards", c, CARD_WORD_MAX, false)
                        .map_err(|m| Failure::new(Code::NoSuchCard, m))?;
                }
                Ok(Some(Pick::Cards(cards)))
            }
            (None, None) => Ok(None),
        }
    }

    /// This pick checked for its form as [`Pick::from_request`] checks a request's (the text
    /// interface reads its own).
    pub fn checked(self) -> Result<Pick, Failure> {
        let (deck, cards) = match self {
            Pick::Deck(d) => (Some(d), None),
            Pick::Cards(c) => (None, Some(c)),
        };
        Pick::from_request(deck, cards)?.ok_or_else(|| Failure::internal("a pick of nothing"))
    }

    /// As stored with a seat (`tt_seat_decks.deck`): a deck's name, or the cards as a JSON list,
    /// which no deck's name can begin.
    pub(crate) fn stored(&self) -> String {
        match self {
            Pick::Deck(name) => name.clone(),
            Pick::Cards(cards) => Value::from(cards.clone()).to_string(),
        }
    }

    pub(crate) fn from_stored(text: &str) -> Result<Pick, Failure> {
        if !text.starts_with('[') {
            return Ok(Pick::Deck(text.to_owned()));
        }
        serde_json::from_str(text)
            .map(Pick::Cards)
            .map_err(|e| Failure::internal(format!("a seat's cards: {e}")))
    }
}

/// Whether the people of a match of `game` under `options` play hands they pick: Triple Triad
/// with FF8's cards, without the random rule, between people (`all_people`) or with cards at
/// stake. Otherwise the hands are drawn from the collections (the random rule) or dealt (against
/// the computer, and under FFXIV's cards, which no collection holds).
pub(crate) fn picks_hands(game: GameKind, options: &Value, all_people: bool) -> bool {
    game == GameKind::TripleTriad
        && random_hands(options).is_none()
        && !ffxiv_dealt(options)
        && (all_people || options.get("stake").is_some())
}

/// The deck level limit of a match under `options` (none: no limit), the core's.
pub(crate) fn level_limit(options: &Value) -> Option<u32> {
    crate::table::resolved(options).and_then(|(config, _)| config.deck_level_limit)
}

impl Economy {
    /// The pick a person who named none plays: in a game without stakes their current deck;
    /// with stakes nothing is put at stake unnamed.
    pub(crate) async fn default_pick(&self, tx: &mut Tx<'_>, user: i64, staked: bool) -> Result<Pick, Failure> {
        let current = match staked {
            true => None,
            false => super::stash::read_wallet(&mut **tx, user).await?.current_deck,
        };
        current.map(Pick::Deck).ok_or_else(|| Failure::new(Code::NoDeck, HOW))
    }

    /// The cards (physical ids and cards) `user` plays for `pick`, refused when a card is not
    /// theirs (or not as many times), the deck is unknown or not five cards, or their levels
    /// total more than the match's limit (`limit`; none: no limit).
    pub(crate) async fn picked_hand(
        &self,
        tx: &mut Tx<'_>,
        catalog: &Catalog,
        user: i64,
        pick: &Pick,
        limit: Option<u32>,
    ) -> Result<Vec<(i64, Card)>, Failure> {
        let (hand, note, what) = match pick {
            Pick::Deck(deck) => {
                let row = sqlx::query("SELECT id, note FROM tt_decks WHERE owner = $1 AND name_key = $2")
                    .bind(user)
                    .bind(deck.trim().to_lowercase())
                    .fetch_optional(&mut **tx)
                    .await?
                    .ok_or_else(|| Failure::new(Code::NoSuchDeck, format!("no deck named {deck:?}")))?;
                let hand = deck_cards(tx, row.try_get("id")?)
                    .await?
                    .iter()
                    .map(|(id, c)| card_of(catalog, c).map(|card| (*id, card)))
                    .collect::<Result<Vec<_>, _>>()?;
                (hand, row.try_get::<Option<String>, _>("note")?, format!("deck {deck}"))
            }
            Pick::Cards(cards) => (
                self.cards_hand(tx, catalog, user, cards).await?,
                None,
                "these five cards".into(),
            ),
        };
        let played: Vec<Card> = hand.iter().map(|(_, c)| c.clone()).collect();
        let unusable = |why: String| Failure::new(Code::DeckUnusable, format!("{what} cannot be played: {why}"));
        let check = verdict(tx, catalog, user, &played, note.as_deref()).await?;
        if !check.usable_limitless {
            return Err(unusable(check.problem.unwrap_or_default()));
        }
        match limit {
            Some(limit) if check.level_total > limit => Err(unusable(format!(
                "their levels total {}, over this game's deck level limit of {limit}",
                check.level_total
            ))),
            _ => Ok(hand),
        }
    }

    /// A physical card of `user`'s for each card named, a card named twice two copies; a card
    /// free to play first (one at stake elsewhere cannot be put at stake again).
    async fn cards_hand(
        &self,
        tx: &mut Tx<'_>,
        catalog: &Catalog,
        user: i64,
        cards: &[String],
    ) -> Result<Vec<(i64, Card)>, Failure> {
        let mut hand: Vec<(i64, Card)> = Vec::with_capacity(cards.len());
        for wanted in cards {
            let card = named(catalog, wanted)?;
            let copies: Vec<i64> = sqlx::query(
                "SELECT id FROM tt_cards WHERE owner = $1 AND card_id = $2 \
                 ORDER BY CASE WHEN locked_by IS NULL THEN 0 ELSE 1 END, id",
            )
            .bind(user)
            .bind(&card.id)
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?;
            let copy = copies
                .iter()
                .find(|c| !hand.iter().any(|(h, _)| h == *c))
                .ok_or_else(|| {
                    let asked = cards
                        .iter()
                        .filter(|w| catalog.find(w).is_some_and(|f| f.id == card.id))
                        .count();
                    Failure::new(
                        Code::NotOwned,
                        format!(
                            "you own {} of {} ({}), not {asked}",
                            copies.len(),
                            card.card.name,
                            card.id
                        ),
                    )
                })?;
            hand.push((*copy, card.card.clone()));
        }
        Ok(hand)
    }

    /// Refuses `pick` when `user` could not play it in a match under `options` (see
    /// [`Economy::picked_hand`]), inside `tx`.
    pub(crate) async fn check_pick(
        &self,
        tx: &mut Tx<'_>,
        user: i64,
        pick: &Pick,
        options: &Value,
    ) -> Result<(), Failure> {
        let catalog = self.catalog_with(&mut **tx).await?;
        self.picked_hand(tx, &catalog, user, pick, level_limit(options))
            .await
            .map(drop)
    }

    /// What `user`, who named no five in a picking window that ran out, plays in a match under
    /// `options`: their current deck when the match admits it (none at stake, the level limit
    /// kept); otherwise why not.
    pub(crate) async fn timed_out_pick(&self, tx: &mut Tx<'_>, user: i64, options: &Value) -> Result<Pick, Failure> {
        let pick = self.default_pick(tx, user, options.get("stake").is_some()).await?;
        self.check_pick(tx, user, &pick, options).await?;
        Ok(pick)
    }

    /// Refuses `user` a seat in a match of `game` under `options` (`all_people`: no computer
    /// seat) at the challenge or the accept rather than when the match starts: a pick named
    /// that the match would not play, or hands that could not be made (picked or drawn). With
    /// `later`, a person who names no five now names them in the picking window, so only a pick
    /// named is checked.
    pub(crate) async fn check_seat(
        &self,
        game: GameKind,
        options: &Value,
        all_people: bool,
        user: i64,
        pick: Option<&Pick>,
        later: bool,
    ) -> Result<(), Failure> {
        let picks = picks_hands(game, options, all_people);
        if pick.is_some() && !picks {
            return Err(Failure::new(
                Code::BadChallenge,
                "this challenge plays no hand of yours (options.deck or cards): only Triple Triad does, and not under the random rule (drawn from each collection), under FFXIV's cards (dealt from the seed) nor against the computer without stakes (dealt)",
            ));
        }
        if game != GameKind::TripleTriad {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        if let Some(limit) = random_hands(options) {
            // Whether some hand fits does not depend on the seed.
            self.drawn_hand(&mut tx, user, 0, limit).await?;
        } else if picks {
            let pick = match pick {
                Some(p) => p.clone(),
                None if later => return Ok(()),
                None => self.default_pick(&mut tx, user, options.get("stake").is_some()).await?,
            };
            self.check_pick(&mut tx, user, &pick, options).await?;
        }
        Ok(())
    }
}

fn card_of(catalog: &Catalog, id: &str) -> Result<Card, Failure> {
    catalog
        .find(id)
        .map(|c| c.card.clone())
        .ok_or_else(|| Failure::internal(format!("card {id} not in the shop")))
}
