//! The card economy's requests answered (`tt_*`, PROTOCOL.md's "Card economy" section): each one
//! an [`Economy`](crate::economy::Economy) call, its answer a frame.

use std::sync::Arc;

use arbiter_core::tripletriad::{suggest_ranks, Sale, ShopCard};
use arbiter_core::Rng;
use serde::Serialize;
use serde_json::Value;

use crate::accounts::User;
use crate::economy::{DeckCheck, DeckView, SeriesView, StashEntry, Wallet, WinList};
use crate::error::{Code, Failure};
use crate::hub::Hub;
use crate::protocol::{CardRequest, DeckOp};

/// An answer of the card economy.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Answer {
    TtWallet {
        wallet: Wallet,
        cards: u32,
    },
    TtStarter {
        cards: Vec<ShopCard>,
    },
    TtStash {
        cards: Vec<StashEntry>,
    },
    TtDecks {
        decks: Vec<DeckView>,
    },
    TtDeck {
        deck: DeckView,
        #[serde(skip_serializing_if = "Option::is_none")]
        check: Option<DeckCheck>,
    },
    TtDeckDeleted {
        name: String,
    },
    /// The shop's series.
    #[serde(rename = "tt_shop")]
    TtShopSeries {
        series: Vec<SeriesView>,
    },
    /// A series' cards.
    #[serde(rename = "tt_shop")]
    TtShopCards {
        cards: Vec<ShopEntry>,
    },
    TtBought {
        card: ShopCard,
        price: u32,
    },
    TtSuggest {
        level: u8,
        ranks: [[u8; 4]; 5],
    },
    TtWinList {
        #[serde(rename = "match")]
        match_id: i64,
        win_list: WinList,
    },
    TtChosen {
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
        CardRequest::TtWallet {} => Answer::TtWallet {
            wallet: e.wallet(u).await?,
            cards: e.card_count(u).await?,
        },
        CardRequest::TtStarter {} => Answer::TtStarter {
            cards: e.starter(u).await?,
        },
        CardRequest::TtStash {} => Answer::TtStash {
            cards: e.stash(u).await?,
        },
        CardRequest::TtDecks {} => Answer::TtDecks {
            decks: e.decks(u).await?,
        },
        CardRequest::TtDeck { op, name, cards } => {
            let named = || {
                name.clone()
                    .ok_or_else(|| Failure::new(Code::BadMessage, "name the deck"))
            };
            let deck = |deck| Answer::TtDeck { deck, check: None };
            match op {
                DeckOp::Create => {
                    e.deck_create(u, &named()?).await?;
                    deck(e.deck(u, &named()?).await?)
                }
                DeckOp::Delete => {
                    e.deck_delete(u, &named()?).await?;
                    Answer::TtDeckDeleted { name: named()? }
                }
                DeckOp::Add => deck(e.deck_add(u, name.as_deref(), &cards).await?),
                DeckOp::Remove => deck(e.deck_remove(u, name.as_deref(), &cards).await?),
                DeckOp::Check => {
                    let (deck, check) = e.deck_check(u, name.as_deref()).await?;
                    Answer::TtDeck {
                        deck,
                        check: Some(check),
                    }
                }
            }
        }
        CardRequest::TtShop { series: None, .. } => Answer::TtShopSeries {
            series: e.series(u).await?,
        },
        CardRequest::TtShop { series: Some(s), level } => Answer::TtShopCards {
            cards: e
                .series_cards(u, s, level)
                .await?
                .into_iter()
                .map(|(card, owned)| ShopEntry { card, owned })
                .collect(),
        },
        CardRequest::TtBuy {
            card: Some(c),
            series: None,
            level: None,
        } => bought(e.buy_card(u, &c).await?),
        CardRequest::TtBuy {
            card: None,
            series: Some(s),
            level: Some(l),
        } => bought(e.buy_random(u, s, l).await?),
        CardRequest::TtBuy { .. } => {
            return Err(Failure::new(
                Code::BadMessage,
                "buy either a card, or a series and a level",
            ))
        }
        CardRequest::TtCustom {
            name,
            level,
            ranks,
            element,
            text,
        } => bought(e.create_custom(u, &name, level, ranks, &element, &text).await?),
        CardRequest::TtSuggest { level } => {
            let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
            let ranks =
                suggest_ranks(level, &mut Rng::new(seed)).map_err(|e| Failure::new(Code::BadLevel, e.to_string()))?;
            Answer::TtSuggest { level, ranks }
        }
        CardRequest::TtWinList { match_id } => Answer::TtWinList {
            match_id,
            win_list: e.win_list(match_id, u).await?,
        },
        CardRequest::TtChoose { match_id, picks } => {
            let s = e.choose(match_id, Some(u), &picks).await?;
            crate::live::tell_settlement(hub, match_id, &s).await;
            Answer::TtChosen {
                match_id,
                moved: s.moved.len(),
            }
        }
    })
}

fn bought(sale: Sale) -> Answer {
    Answer::TtBought {
        card: sale.card,
        price: sale.price,
    }
}
