//! The card economy's requests answered (`tt_*`, PROTOCOL.md's "Card economy" section): each one
//! an [`Economy`](crate::economy::Economy) call, its answer a frame.

use std::sync::Arc;

use arbiter_core::Rng;
use arbiter_economy::{suggest_ranks, Sale, ShopCard};
use serde::Serialize;
use serde_json::Value;

use crate::accounts::User;
use crate::economy::{DeckCheck, DeckView, SeriesView, StashEntry, Wallet, WinList};
use crate::error::{Code, Failure};
use crate::hub::Hub;
use crate::protocol::{CardRequest, DeckOp};

/// An answer of the card economy.
#[derive(Serialize)]
#[serde(tag = "type")]
enum Answer {
    #[serde(rename = "tt_wallet")]
    Wallet { wallet: Wallet, cards: u32 },
    #[serde(rename = "tt_starter")]
    Starter { cards: Vec<ShopCard> },
    #[serde(rename = "tt_stash")]
    Stash { cards: Vec<StashEntry> },
    #[serde(rename = "tt_decks")]
    Decks { decks: Vec<DeckView> },
    #[serde(rename = "tt_deck")]
    Deck {
        deck: DeckView,
        #[serde(skip_serializing_if = "Option::is_none")]
        check: Option<DeckCheck>,
    },
    #[serde(rename = "tt_deck_deleted")]
    DeckDeleted { name: String },
    /// The shop's series.
    #[serde(rename = "tt_shop")]
    ShopSeries { series: Vec<SeriesView> },
    /// A series' cards.
    #[serde(rename = "tt_shop")]
    ShopCards { cards: Vec<ShopEntry> },
    #[serde(rename = "tt_bought")]
    Bought { card: ShopCard, price: u32 },
    #[serde(rename = "tt_suggest")]
    Suggest { level: u8, ranks: [[u8; 4]; 5] },
    #[serde(rename = "tt_win_list")]
    WinList {
        #[serde(rename = "match")]
        match_id: i64,
        win_list: WinList,
    },
    #[serde(rename = "tt_chosen")]
    Chosen {
        #[serde(rename = "match")]
        match_id: i64,
        moved: usize,
    },
}

/// A card of the shop, and how many copies the player owns.
#[derive(Serialize)]
struct ShopEntry {
    card: ShopCard,
    owned: u32,
}

/// The answer to `request` of logged-in `user`.
pub async fn answer(hub: &Arc<Hub>, user: &User, request: CardRequest) -> Result<Value, Failure> {
    let answer = answer_of(hub, user, request).await?;
    serde_json::to_value(answer).map_err(Failure::internal)
}

async fn answer_of(hub: &Arc<Hub>, user: &User, r: CardRequest) -> Result<Answer, Failure> {
    let e = &hub.economy;
    let u = user.id;
    Ok(match r {
        CardRequest::Wallet {} => Answer::Wallet {
            wallet: e.wallet(u).await?,
            cards: e.card_count(u).await?,
        },
        CardRequest::Starter {} => Answer::Starter {
            cards: e.starter(u).await?,
        },
        CardRequest::Stash {} => Answer::Stash {
            cards: e.stash(u).await?,
        },
        CardRequest::Decks {} => Answer::Decks {
            decks: e.decks(u).await?,
        },
        CardRequest::Deck { op, name, cards } => {
            let named = || {
                name.clone()
                    .ok_or_else(|| Failure::new(Code::BadMessage, "name the deck"))
            };
            let deck = |deck| Answer::Deck { deck, check: None };
            match op {
                DeckOp::Create => {
                    e.deck_create(u, &named()?).await?;
                    deck(e.deck(u, &named()?).await?)
                }
                DeckOp::Delete => {
                    e.deck_delete(u, &named()?).await?;
                    Answer::DeckDeleted { name: named()? }
                }
                DeckOp::Add => deck(e.deck_add(u, name.as_deref(), &cards).await?),
                DeckOp::Remove => deck(e.deck_remove(u, name.as_deref(), &cards).await?),
                DeckOp::Check => {
                    let (deck, check) = e.deck_check(u, name.as_deref()).await?;
                    Answer::Deck {
                        deck,
                        check: Some(check),
                    }
                }
            }
        }
        CardRequest::Shop { series: None, .. } => Answer::ShopSeries {
            series: e.series(u).await?,
        },
        CardRequest::Shop { series: Some(s), level } => Answer::ShopCards {
            cards: e
                .series_cards(u, s, level)
                .await?
                .into_iter()
                .map(|(card, owned)| ShopEntry { card, owned })
                .collect(),
        },
        CardRequest::Buy {
            card: Some(c),
            series: None,
            level: None,
        } => bought(e.buy_card(u, &c).await?),
        CardRequest::Buy {
            card: None,
            series: Some(s),
            level: Some(l),
        } => bought(e.buy_random(u, s, l).await?),
        CardRequest::Buy { .. } => {
            return Err(Failure::new(
                Code::BadMessage,
                "buy either a card, or a series and a level",
            ))
        }
        CardRequest::Custom {
            name,
            level,
            ranks,
            element,
            text,
        } => bought(e.create_custom(u, &name, level, ranks, &element, &text).await?),
        CardRequest::Suggest { level } => {
            let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
            let ranks =
                suggest_ranks(level, &mut Rng::new(seed)).map_err(|e| Failure::new(Code::BadLevel, e.to_string()))?;
            Answer::Suggest { level, ranks }
        }
        CardRequest::WinList { match_id } => Answer::WinList {
            match_id,
            win_list: e.win_list(match_id, u).await?,
        },
        CardRequest::Choose { match_id, picks } => {
            let s = e.choose(match_id, Some(u), &picks).await?;
            crate::live::tell_settlement(hub, match_id, &s).await;
            Answer::Chosen {
                match_id,
                moved: s.moved.len(),
            }
        }
    })
}

fn bought(sale: Sale) -> Answer {
    Answer::Bought {
        card: sale.card,
        price: sale.price,
    }
}
