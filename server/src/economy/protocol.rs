//! The card economy's WebSocket messages (`tt_*`, PROTOCOL.md's "Card economy" section): each
//! one an [`Economy`](super::Economy) call, its answer as JSON.

use std::sync::Arc;

use arbiter_core::tripletriad::suggest_ranks;
use arbiter_core::Rng;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::User;
use crate::error::{Code, Failure};
use crate::hub::Hub;

#[derive(Deserialize)]
#[serde(tag = "type", deny_unknown_fields)]
enum Request {
    #[serde(rename = "tt_wallet")]
    Wallet {},
    #[serde(rename = "tt_starter")]
    Starter {},
    #[serde(rename = "tt_stash")]
    Stash {},
    #[serde(rename = "tt_decks")]
    Decks {},
    #[serde(rename = "tt_deck")]
    Deck {
        op: DeckOp,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        cards: Vec<String>,
    },
    #[serde(rename = "tt_shop")]
    Shop {
        #[serde(default)]
        series: Option<char>,
        #[serde(default)]
        level: Option<u8>,
    },
    #[serde(rename = "tt_buy")]
    Buy {
        #[serde(default)]
        series: Option<char>,
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        card: Option<String>,
    },
    #[serde(rename = "tt_custom")]
    Custom {
        name: String,
        level: u8,
        ranks: [u8; 4],
        #[serde(default = "no_element")]
        element: String,
        #[serde(default)]
        text: String,
    },
    #[serde(rename = "tt_suggest")]
    Suggest { level: u8 },
    #[serde(rename = "tt_win_list")]
    WinList {
        #[serde(rename = "match")]
        match_id: i64,
    },
    #[serde(rename = "tt_choose")]
    Choose {
        #[serde(rename = "match")]
        match_id: i64,
        picks: Vec<String>,
    },
}

fn no_element() -> String {
    "none".into()
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum DeckOp {
    Create,
    Delete,
    Add,
    Remove,
    Check,
}

/// The answer to a `tt_*` frame, or `None` for any other frame (the general protocol's). Asked
/// only after `hello`: before it, every frame is `hello_first`.
pub async fn intercept(hub: &Arc<Hub>, user: Option<&User>, text: &str) -> Option<Value> {
    if !text.contains("\"tt_") {
        return None;
    }
    let v: Value = serde_json::from_str(text).ok()?;
    if !v["type"].as_str().is_some_and(|t| t.starts_with("tt_")) {
        return None;
    }
    let mut v = v;
    let re = v.as_object_mut().and_then(|o| o.remove("id"));
    let reply = match user {
        None => Err(Failure::new(Code::NotAuthenticated, "log in first")),
        Some(u) => match serde_json::from_value::<Request>(v) {
            Ok(r) => answer(hub, u, r).await,
            Err(e) => Err(Failure::new(Code::BadMessage, e.to_string())),
        },
    };
    let mut out = match reply {
        Ok(v) => v,
        Err(f) => json!({"type": "error", "code": f.code, "message": f.message}),
    };
    if let (Some(re), Some(o)) = (re, out.as_object_mut()) {
        o.insert("re".into(), re);
    }
    Some(out)
}

fn to(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

async fn answer(hub: &Arc<Hub>, user: &User, r: Request) -> Result<Value, Failure> {
    let e = &hub.economy;
    let u = user.id;
    Ok(match r {
        Request::Wallet {} => {
            json!({"type": "tt_wallet", "wallet": to(e.wallet(u).await?), "cards": e.card_count(u).await?})
        }
        Request::Starter {} => json!({"type": "tt_starter", "cards": to(e.starter(u).await?)}),
        Request::Stash {} => json!({"type": "tt_stash", "cards": to(e.stash(u).await?)}),
        Request::Decks {} => json!({"type": "tt_decks", "decks": to(e.decks(u).await?)}),
        Request::Deck { op, name, cards } => {
            let named = || {
                name.clone()
                    .ok_or_else(|| Failure::new(Code::BadMessage, "name the deck"))
            };
            match op {
                DeckOp::Create => {
                    e.deck_create(u, &named()?).await?;
                    json!({"type": "tt_deck", "deck": to(e.deck(u, &named()?).await?)})
                }
                DeckOp::Delete => {
                    e.deck_delete(u, &named()?).await?;
                    json!({"type": "tt_deck_deleted", "name": named()?})
                }
                DeckOp::Add => json!({"type": "tt_deck", "deck": to(e.deck_add(u, name.as_deref(), &cards).await?)}),
                DeckOp::Remove => {
                    json!({"type": "tt_deck", "deck": to(e.deck_remove(u, name.as_deref(), &cards).await?)})
                }
                DeckOp::Check => {
                    let (deck, check) = e.deck_check(u, name.as_deref()).await?;
                    json!({"type": "tt_deck", "deck": to(deck), "check": to(check)})
                }
            }
        }
        Request::Shop { series: None, .. } => json!({"type": "tt_shop", "series": to(e.series(u).await?)}),
        Request::Shop { series: Some(s), level } => {
            let cards: Vec<Value> = e
                .series_cards(u, s, level)
                .await?
                .into_iter()
                .map(|(c, owned)| json!({"card": to(c), "owned": owned}))
                .collect();
            json!({"type": "tt_shop", "cards": cards})
        }
        Request::Buy {
            card: Some(c),
            series: None,
            level: None,
        } => {
            let sale = e.buy_card(u, &c).await?;
            json!({"type": "tt_bought", "card": to(sale.card), "price": sale.price})
        }
        Request::Buy {
            card: None,
            series: Some(s),
            level: Some(l),
        } => {
            let sale = e.buy_random(u, s, l).await?;
            json!({"type": "tt_bought", "card": to(sale.card), "price": sale.price})
        }
        Request::Buy { .. } => {
            return Err(Failure::new(
                Code::BadMessage,
                "buy either a card, or a series and a level",
            ))
        }
        Request::Custom {
            name,
            level,
            ranks,
            element,
            text,
        } => {
            let sale = e.create_custom(u, &name, level, ranks, &element, &text).await?;
            json!({"type": "tt_bought", "card": to(sale.card), "price": sale.price})
        }
        Request::Suggest { level } => {
            let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
            let ranks =
                suggest_ranks(level, &mut Rng::new(seed)).map_err(|e| Failure::new(Code::BadLevel, e.to_string()))?;
            json!({"type": "tt_suggest", "level": level, "ranks": ranks})
        }
        Request::WinList { match_id } => {
            json!({"type": "tt_win_list", "match": match_id, "win_list": to(e.win_list(match_id, u).await?)})
        }
        Request::Choose { match_id, picks } => {
            let s = e.choose(match_id, Some(u), &picks).await?;
            crate::live::tell_settlement(hub, match_id, &s).await;
            json!({"type": "tt_chosen", "match": match_id, "moved": s.moved.len()})
        }
    })
}
