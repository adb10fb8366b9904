//! Stakes: the decks brought to a match are locked when it starts (with the gils bet); its end,
//! in the transaction that records the result, pays rewards and bets and either moves the cards
//! the rule decides or opens the winner's choice, which a later transaction settles exactly once
//! (by the winner, or for them when the choice's clock runs out).

use arbiter_core::tripletriad::{Card, Match, Player, TradeChoice, TradeRule, Transfer};
use arbiter_economy::{bet_transfer, reward, Catalog, Customs, Party, ShopCard, Stake, Standing};
use serde::Serialize;
use serde_json::Value;
use sqlx::Row as _;

use super::drawn::seat_seed;
use super::picked::{level_limit, picks_hands, Pick};
use super::{book, copies, lock_wallet, refused, Economy, Entry, Tx};
use crate::crash_point::{self, Step};
use crate::db::now_ms;
use crate::error::{Code, Failure};
use crate::frames::{CardMoved, Frame};
use crate::table::GameKind;

/// Seconds the winner has to choose.
pub const CHOICE_SECONDS: i64 = 60;

/// Where a person's hand comes from.
#[derive(Clone, Debug)]
enum Hand {
    /// The five they picked.
    Picked(Pick),
    /// Drawn from their collection (the random rule): the draw's seed, the level limit.
    Drawn(u64, Option<u32>),
}

/// What the end of a match did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Settlement {
    /// Cards that changed owners: (card id, shop card, from user, to user).
    pub moved: Vec<(i64, ShopCard, i64, i64)>,
    /// Cards the rule gave that the winner already held as often as allowed: they stayed.
    pub kept: Vec<ShopCard>,
    /// The winner must choose: (user, how many, until).
    pub choosing: Option<(i64, u8, i64)>,
    /// The people of the match.
    pub users: Vec<i64>,
    /// The `tt_settled` frame that tells them, once settled (none while the winner chooses).
    pub frame: Option<Value>,
}

/// A match's options as clients see them: never the hands the stakes brought.
pub fn public_options(options: &Value) -> Value {
    let mut o = options.clone();
    if let Some(map) = o.as_object_mut() {
        map.remove("hands");
    }
    o
}

/// What the winner may take (`+TT/WinList`).
#[derive(Clone, Debug, Serialize)]
pub struct WinList {
    pub chooser: i64,
    pub count: u8,
    pub deadline: i64,
    /// The loser's five, by position (1 to 5 in the text game).
    pub cards: Vec<ShopCard>,
    /// Under `direct_swap`, the winner's own five: taking the loser's card at a position gives
    /// up the winner's card at the same position.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facing: Vec<ShopCard>,
}

struct Row {
    trade: TradeRule,
    bet: i64,
    cards: [Vec<i64>; 2],
    users: [Option<i64>; 2],
    status: String,
    saved: Option<String>,
    deadline: Option<i64>,
}

async fn read(tx: &mut Tx<'_>, match_id: i64) -> Result<Option<Row>, Failure> {
    let Some(r) = sqlx::query(
        "SELECT trade, bet, cards, blue_user, red_user, status, saved, choice_deadline FROM tt_stakes WHERE match_id = $1",
    )
    .bind(match_id)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let bad = |e: &dyn std::fmt::Display| Failure::internal(format!("stake of {match_id}: {e}"));
    Ok(Some(Row {
        trade: r.try_get::<String, _>("trade")?.parse().map_err(|e| bad(&e))?,
        bet: r.try_get("bet")?,
        cards: serde_json::from_str(&r.try_get::<String, _>("cards")?).map_err(|e| bad(&e))?,
        users: [r.try_get("blue_user")?, r.try_get("red_user")?],
        status: r.try_get("status")?,
        saved: r.try_get("saved")?,
        deadline: r.try_get("choice_deadline")?,
    }))
}

/// Locks the people's wallets in one order (no deadlock between two matches' ends).
async fn lock_both(tx: &mut Tx<'_>, users: [Option<i64>; 2]) -> Result<(), Failure> {
    let mut people: Vec<i64> = users.iter().flatten().copied().collect();
    people.sort_unstable();
    for u in people {
        lock_wallet(tx, u).await?;
    }
    Ok(())
}

fn card_of(catalog: &Catalog, id: &str) -> Result<ShopCard, Failure> {
    catalog
        .find(id)
        .cloned()
        .ok_or_else(|| Failure::internal(format!("card {id} not in the shop")))
}

impl Economy {
    /// Stores the pick `user` takes a seat of challenge `challenge` with, inside the transaction
    /// that takes it (or makes the challenge).
    pub(crate) async fn choose_hand(
        &self,
        tx: &mut Tx<'_>,
        challenge: i64,
        user: i64,
        pick: &Pick,
    ) -> Result<(), Failure> {
        sqlx::query(
            "INSERT INTO tt_seat_decks (challenge_id, user_id, deck) VALUES ($1, $2, $3) \
             ON CONFLICT (challenge_id, user_id) DO UPDATE SET deck = $3",
        )
        .bind(challenge)
        .bind(user)
        .bind(pick.stored())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// A new match's options with the hands its people bring (inside the transaction that
    /// creates it, its seed `seed`): picked, drawn under the random rule, at stake with a stake;
    /// other options (a computer's dealt hands) come back as they are.
    #[allow(clippy::too_many_arguments)] // a new match's every input that decides its hands
    pub async fn prepare_match(
        &self,
        tx: &mut Tx<'_>,
        match_id: i64,
        game: GameKind,
        options: &Value,
        people: [Option<i64>; 2],
        challenge: Option<i64>,
        seed: u64,
    ) -> Result<Value, Failure> {
        let random = crate::table::random_hands(options);
        let stake = options.get("stake");
        let picks = picks_hands(game, options, people.iter().all(Option::is_some));
        if !picks && (game != GameKind::TripleTriad || random.is_none()) {
            return Ok(options.clone());
        }
        let challenger: Option<i64> = match challenge {
            Some(c) => sqlx::query("SELECT by_user FROM challenges WHERE id = $1")
                .bind(c)
                .fetch_optional(&mut **tx)
                .await?
                .map(|r| r.try_get("by_user"))
                .transpose()?,
            None => None,
        };
        let mut seats = [None, None];
        for (seat, user) in people.into_iter().enumerate() {
            let Some(user) = user else { continue };
            let hand = match random {
                Some(limit) => Hand::Drawn(seat_seed(seed, seat), limit),
                None => {
                    let mut named = None;
                    if let Some(c) = challenge {
                        named = sqlx::query("SELECT deck FROM tt_seat_decks WHERE challenge_id = $1 AND user_id = $2")
                            .bind(c)
                            .bind(user)
                            .fetch_optional(&mut **tx)
                            .await?
                            .map(|r| Pick::from_stored(&r.try_get::<String, _>("deck")?))
                            .transpose()?;
                    }
                    if named.is_none() && Some(user) == challenger {
                        named = options["deck"].as_str().map(|d| Pick::Deck(d.to_owned()));
                    }
                    match named {
                        Some(pick) => Hand::Picked(pick),
                        None => Hand::Picked(self.default_pick(tx, user, stake.is_some()).await?),
                    }
                }
            };
            seats[seat] = Some((user, hand));
        }
        let limit = level_limit(options);
        let [blue, red] = match stake {
            Some(stake) => {
                let stake: Stake = serde_json::from_value(stake.clone())
                    .map_err(|e| Failure::new(Code::BadStake, format!("stake: {e}")))?;
                self.stake_match(tx, match_id, stake, seats, limit).await?
            }
            None => {
                let catalog = self.catalog_with(&mut **tx).await?;
                let mut hands = [None, None];
                for (i, seat) in seats.iter().enumerate() {
                    if let Some((user, hand)) = seat {
                        let cards = self.hand(tx, &catalog, *user, hand, limit).await?;
                        hands[i] = Some(cards.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
                    }
                }
                hands
            }
        };
        let mut out = options.clone();
        out["hands"] = serde_json::json!({"blue": blue, "red": red});
        Ok(out)
    }

    /// The cards (physical ids and cards) of `user`'s hand.
    async fn hand(
        &self,
        tx: &mut Tx<'_>,
        catalog: &Catalog,
        user: i64,
        hand: &Hand,
        limit: Option<u32>,
    ) -> Result<Vec<(i64, Card)>, Failure> {
        match hand {
            Hand::Picked(pick) => self.picked_hand(tx, catalog, user, pick, limit).await,
            Hand::Drawn(seed, limit) => self.drawn_hand(tx, user, *seed, *limit).await,
        }
    }

    /// Puts the two seats' hands (their decks, or drawn under the random rule) and bets at stake in `match_id`, inside the transaction that
    /// creates the match; returns the hands, blue first (a computer's is `None`: the table deals
    /// it). Refuses with the reason: an unusable deck, a card at stake elsewhere, the stake's
    /// requirements (experience, gils, card counts, no stakes against a computer).
    async fn stake_match(
        &self,
        tx: &mut Tx<'_>,
        match_id: i64,
        stake: Stake,
        seats: [Option<(i64, Hand)>; 2],
        limit: Option<u32>,
    ) -> Result<[Option<Vec<Card>>; 2], Failure> {
        let catalog = self.catalog_with(&mut **tx).await?;
        let users = seats.each_ref().map(|s| s.as_ref().map(|(u, _)| *u));
        lock_both(tx, users).await?;
        let mut parties = [Party::default(); 2];
        let mut hands: [Option<Vec<Card>>; 2] = [None, None];
        let mut ids: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
        for (i, seat) in seats.iter().enumerate() {
            let Some((user, hand)) = seat else {
                parties[i].computer = true;
                continue;
            };
            let user = *user;
            let wallet = lock_wallet(tx, user).await?;
            let cards = self.hand(tx, &catalog, user, hand, limit).await?;
            let owned: i64 = sqlx::query("SELECT COUNT(*) AS n FROM tt_cards WHERE owner = $1")
                .bind(user)
                .fetch_one(&mut **tx)
                .await?
                .try_get("n")?;
            parties[i] = Party {
                computer: false,
                experience: wallet.experience.max(0) as u32,
                gils: wallet.gils.max(0) as u32,
                cards: owned as u32,
            };
            ids[i] = cards.iter().map(|(id, _)| *id).collect();
            hands[i] = Some(cards.into_iter().map(|(_, c)| c).collect());
        }
        stake
            .check(&parties[0], &parties[1])
            .map_err(|e| refused(Code::BadStake, e))?;
        for (i, seat_ids) in ids.iter().enumerate() {
            for &card in seat_ids {
                let locked = sqlx::query("UPDATE tt_cards SET locked_by = $1 WHERE id = $2 AND locked_by IS NULL")
                    .bind(match_id)
                    .bind(card)
                    .execute(&mut **tx)
                    .await?;
                if locked.rows_affected() != 1 {
                    return Err(Failure::new(
                        Code::CardAtStake,
                        "a card of that hand is at stake in another match: wait for its end",
                    ));
                }
            }
            if let (Some(user), true) = (users[i], stake.gils > 0) {
                book(
                    tx,
                    user,
                    "bet",
                    Entry {
                        gils: -i64::from(stake.gils),
                        match_id: Some(match_id),
                        ..Entry::default()
                    },
                )
                .await?;
            }
        }
        let customs = match stake.customs {
            Customs::Mush => "mush",
            Customs::Ttonline => "ttonline",
        };
        sqlx::query(
            "INSERT INTO tt_stakes (match_id, trade, customs, bet, cards, blue_user, red_user, status, choice_deadline, transfers, settled, saved) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', NULL, NULL, NULL, NULL)",
        )
        .bind(match_id)
        .bind(stake.trade.name())
        .bind(customs)
        .bind(i64::from(stake.gils))
        .bind(serde_json::to_string(&ids).map_err(Failure::internal)?)
        .bind(users[0])
        .bind(users[1])
        .execute(&mut **tx)
        .await?;
        Ok(hands)
    }

    /// The end of a match with stakes, inside the transaction that records its result: rewards,
    /// bets, and the trade (moved now, or left to the winner's choice). `game` is the core's
    /// match, over: played to its end, or forfeited by the player who left (a loss: the trade
    /// rule settles it as any other; the leaver earns nothing).
    pub async fn match_ended(
        &self,
        tx: &mut Tx<'_>,
        match_id: i64,
        game: Option<&Match>,
    ) -> Result<Option<Settlement>, Failure> {
        let Some(row) = read(tx, match_id).await? else {
            return Ok(None);
        };
        if row.status != "running" {
            return Err(Failure::internal(format!("match {match_id} ended twice")));
        }
        let m = game.ok_or_else(|| Failure::internal("stakes in a match that is not Triple Triad"))?;
        let result = m
            .result()
            .ok_or_else(|| Failure::internal(format!("match {match_id} ended before its end")))?;
        lock_both(tx, row.users).await?;
        let (winner, left) = (result.winner, m.forfeited().map(|p| p as usize));
        for (i, user) in row.users.iter().enumerate() {
            let Some(user) = *user else { continue };
            let standing = match (winner, left) {
                (_, Some(l)) if l == i => Standing::Forfeited,
                (Some(w), _) if w as usize == i => Standing::Won,
                (Some(_), _) => Standing::Lost,
                (None, _) => Standing::Drawn,
            };
            let r = reward(row.trade, standing);
            let payout = match bet_transfer(row.bet as u32, winner) {
                Some((_, to, amount)) if to as usize == i => 2 * i64::from(amount),
                Some(_) => 0,
                None => row.bet,
            };
            let e = Entry {
                points: r.points.into(),
                experience: r.experience.into(),
                gils: i64::from(r.gils),
                match_id: Some(match_id),
                ..Entry::default()
            };
            book(tx, user, "reward", e).await?;
            if payout > 0 {
                book(
                    tx,
                    user,
                    "payout",
                    Entry {
                        gils: payout,
                        match_id: Some(match_id),
                        ..Entry::default()
                    },
                )
                .await?;
            }
        }
        let mut out = Settlement {
            users: row.users.iter().flatten().copied().collect(),
            ..Settlement::default()
        };
        let mut m = m.clone();
        match choice(&m).map_err(Failure::internal)? {
            None => {
                let transfers = m.settle_trade(&[]).map_err(|e| Failure::internal(e.to_string()))?;
                out = Settlement {
                    users: out.users,
                    ..self.apply(tx, match_id, &row, &transfers).await?
                };
                self.close(tx, match_id, &out.moved, None).await?;
                settled_frame(tx, match_id, &mut out).await?;
            }
            Some((chooser, count)) => {
                let until = now_ms() + CHOICE_SECONDS * 1000;
                let saved = serde_json::to_string(&m).map_err(Failure::internal)?;
                sqlx::query(
                    "UPDATE tt_stakes SET status = 'choosing', choice_deadline = $1, saved = $2 WHERE match_id = $3",
                )
                .bind(until)
                .bind(saved)
                .bind(match_id)
                .execute(&mut **tx)
                .await?;
                let user = row.users[chooser as usize].ok_or_else(|| Failure::internal("a computer to choose"))?;
                out.choosing = Some((user, count, until));
            }
        }
        Ok(Some(out))
    }

    /// Moves the cards of `transfers` (a card the receiver already holds as often as allowed
    /// stays with its owner) and books each move.
    async fn apply(
        &self,
        tx: &mut Tx<'_>,
        match_id: i64,
        row: &Row,
        transfers: &[Transfer],
    ) -> Result<Settlement, Failure> {
        let catalog = self.catalog_with(&mut **tx).await?;
        let mut out = Settlement::default();
        for t in transfers {
            let card = row.cards[t.from as usize][t.index as usize];
            let (Some(from), Some(to)) = (row.users[t.from as usize], row.users[t.to as usize]) else {
                return Err(Failure::internal("a transfer with a computer player"));
            };
            let card_id: String = sqlx::query("SELECT card_id FROM tt_cards WHERE id = $1 AND owner = $2")
                .bind(card)
                .bind(from)
                .fetch_one(&mut **tx)
                .await?
                .try_get("card_id")?;
            let shop = card_of(&catalog, &card_id)?;
            if copies(tx, to, &card_id).await? >= catalog.copies_allowed(&shop) {
                out.kept.push(shop);
                continue;
            }
            sqlx::query("UPDATE tt_cards SET owner = $1, locked_by = NULL, acquired = $2 WHERE id = $3 AND owner = $4")
                .bind(to)
                .bind(now_ms())
                .bind(card)
                .bind(from)
                .execute(&mut **tx)
                .await?;
            // The card leaves every deck it was in (a deck is a list), each saying why.
            let decks = sqlx::query("SELECT deck_id FROM tt_deck_cards WHERE card = $1")
                .bind(card)
                .fetch_all(&mut **tx)
                .await?;
            if !decks.is_empty() {
                let name: String = sqlx::query("SELECT name FROM users WHERE id = $1")
                    .bind(to)
                    .fetch_one(&mut **tx)
                    .await?
                    .try_get("name")?;
                sqlx::query("DELETE FROM tt_deck_cards WHERE card = $1")
                    .bind(card)
                    .execute(&mut **tx)
                    .await?;
                let note = format!("{} ({}) was lost to {name}", shop.card.name, shop.id);
                for d in decks {
                    sqlx::query(
                        "UPDATE tt_decks SET note = CASE WHEN note IS NULL THEN $1 ELSE note || '; ' || $1 END WHERE id = $2",
                    )
                    .bind(&note)
                    .bind(d.try_get::<i64, _>("deck_id")?)
                    .execute(&mut **tx)
                    .await?;
                }
            }
            let moved = |cards: i64| Entry {
                cards,
                match_id: Some(match_id),
                card: Some(card),
                ..Entry::default()
            };
            book(tx, from, "trade_out", moved(-1)).await?;
            book(tx, to, "trade_in", moved(1)).await?;
            out.moved.push((card, shop, from, to));
        }
        crash_point::reached(Step::CardsMoved);
        Ok(out)
    }

    /// Settles: the match's cards are free again, the stake is over.
    async fn close(
        &self,
        tx: &mut Tx<'_>,
        match_id: i64,
        moved: &[(i64, ShopCard, i64, i64)],
        from: Option<&str>,
    ) -> Result<(), Failure> {
        sqlx::query("UPDATE tt_cards SET locked_by = NULL WHERE locked_by = $1")
            .bind(match_id)
            .execute(&mut **tx)
            .await?;
        let transfers: Vec<Value> = moved
            .iter()
            .map(|(card, shop, f, t)| serde_json::json!({"card": card, "card_id": shop.id, "from": f, "to": t}))
            .collect();
        let done = sqlx::query(
            "UPDATE tt_stakes SET status = 'settled', transfers = $1, settled = $2 WHERE match_id = $3 AND status = $4",
        )
        .bind(Value::Array(transfers).to_string())
        .bind(now_ms())
        .bind(match_id)
        .bind(from.unwrap_or("running"))
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(Failure::new(
                Code::AlreadySettled,
                "the cards of this match were already settled",
            ));
        }
        Ok(())
    }

    /// The winner's choice (`picks` are the loser's cards by position 1 to 5, id or name; none
    /// waives the cards), or, with `user` `None`, the choice made for the winner when the clock
    /// ran out: the highest levels. Settled exactly once.
    pub async fn choose(&self, match_id: i64, user: Option<i64>, picks: &[String]) -> Result<Settlement, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let row = read(&mut tx, match_id)
            .await?
            .ok_or_else(|| Failure::new(Code::NothingToChoose, "this match has no cards to choose"))?;
        if row.status != "choosing" {
            return Err(Failure::new(
                Code::NothingToChoose,
                "there is nothing to choose in this match",
            ));
        }
        lock_both(&mut tx, row.users).await?;
        let mut m: Match = serde_json::from_str(row.saved.as_deref().unwrap_or("null")).map_err(Failure::internal)?;
        let (chooser, count) = choice(&m)
            .map_err(Failure::internal)?
            .ok_or_else(|| Failure::internal("a choice without picks"))?;
        if let Some(u) = user {
            if row.users[chooser as usize] != Some(u) {
                return Err(Failure::new(Code::NotTheWinner, "only the winner chooses the cards"));
            }
        }
        let loser = chooser.other();
        let five = brought(&catalog, &m, loser)?;
        let indices: Vec<u8> = match user {
            Some(_) if picks.is_empty() => Vec::new(),
            Some(_) => {
                let mut taken = Vec::new();
                for p in picks {
                    let i = pick_index(p, &five, &taken)?;
                    taken.push(i);
                }
                taken
            }
            None => picks_for_the_winner(&m).map_err(Failure::internal)?,
        };
        crash_point::reached(Step::CardsChosen);
        let mut out = if indices.is_empty() {
            Settlement::default()
        } else {
            if indices.len() != count as usize {
                return Err(Failure::new(
                    Code::BadChoice,
                    format!("choose {count} card{} (or None)", if count == 1 { "" } else { "s" }),
                ));
            }
            let transfers = m.settle_trade(&indices).map_err(|e| refused(Code::BadChoice, e))?;
            self.apply(&mut tx, match_id, &row, &transfers).await?
        };
        self.close(&mut tx, match_id, &out.moved, Some("choosing")).await?;
        out.users = row.users.iter().flatten().copied().collect();
        settled_frame(&mut tx, match_id, &mut out).await?;
        tx.commit().await?;
        crash_point::reached(Step::ChoiceCommitted);
        Ok(out)
    }

    /// `+TT/WinList`: what the winner may take, for `viewer`, one of the match's two players
    /// (the loser's five include the cards never played: nobody else may see them).
    pub async fn win_list(&self, match_id: i64, viewer: i64) -> Result<WinList, Failure> {
        let catalog = self.catalog().await?;
        let mut tx = self.pool.begin().await?;
        let row = read(&mut tx, match_id).await?;
        tx.commit().await?;
        if row.as_ref().is_some_and(|r| !r.users.contains(&Some(viewer))) {
            return Err(Failure::new(
                Code::NotSeated,
                "only the match's players see what its winner may take",
            ));
        }
        let row = row
            .filter(|r| r.status == "choosing")
            .ok_or_else(|| Failure::new(Code::NothingToChoose, "there is nothing to choose in this match"))?;
        let m: Match = serde_json::from_str(row.saved.as_deref().unwrap_or("null")).map_err(Failure::internal)?;
        let (chooser, count) = choice(&m)
            .map_err(Failure::internal)?
            .ok_or_else(|| Failure::internal("a choice without picks"))?;
        let swap = matches!(m.trade_choice(), Ok(TradeChoice::Swap { .. }));
        Ok(WinList {
            chooser: row.users[chooser as usize].unwrap_or(0),
            count,
            deadline: row.deadline.unwrap_or(0),
            cards: brought(&catalog, &m, chooser.other())?,
            facing: if swap {
                brought(&catalog, &m, chooser)?
            } else {
                Vec::new()
            },
        })
    }

    /// Matches whose winner is choosing, with the choice's deadline (clocks to arm at start).
    pub async fn pending_choices(&self) -> Result<Vec<(i64, i64)>, Failure> {
        let rows = sqlx::query("SELECT match_id, choice_deadline FROM tt_stakes WHERE status = 'choosing'")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("match_id")?,
                    r.try_get::<Option<i64>, _>("choice_deadline")?.unwrap_or(0),
                ))
            })
            .collect()
    }

    /// The match `user` must wait in: the one whose winner is still choosing, if any.
    pub async fn awaiting_choice(&self, user: i64) -> Result<Option<i64>, Failure> {
        let row = sqlx::query(
            "SELECT match_id FROM tt_stakes WHERE status = 'choosing' AND (blue_user = $1 OR red_user = $1)",
        )
        .bind(user)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("match_id")?),
            None => None,
        })
    }
}

/// The `tt_settled` frame of settlement `s` of match `match_id` (the players by name), kept for
/// its players inside the settling transaction until they are told (`told`).
async fn settled_frame(tx: &mut Tx<'_>, match_id: i64, s: &mut Settlement) -> Result<(), Failure> {
    let mut names = std::collections::HashMap::new();
    for &u in &s.users {
        let r = sqlx::query("SELECT name FROM users WHERE id = $1")
            .bind(u)
            .fetch_one(&mut **tx)
            .await?;
        names.insert(u, r.try_get::<String, _>("name")?);
    }
    let name = |u: &i64| names.get(u).cloned().unwrap_or_default();
    let label = |c: &ShopCard| format!("{} {}", c.id, c.card.name);
    let moved = s
        .moved
        .iter()
        .map(|(card, c, from, to)| CardMoved {
            id: *card,
            card: label(c),
            from: name(from),
            to: name(to),
        })
        .collect();
    let kept = s.kept.iter().map(label).collect();
    let frame = Frame::TtSettled { match_id, moved, kept }.json();
    crate::told::keep(tx, match_id, &s.users, &frame).await?;
    s.frame = Some(frame);
    Ok(())
}

/// A pick as typed: position 1 to 5, or the card's id or name.
/// A name names the first copy not already picked.
fn pick_index(pick: &str, five: &[ShopCard], taken: &[u8]) -> Result<u8, Failure> {
    let p = pick.trim();
    if let Ok(n @ 1..=5) = p.parse::<u8>() {
        return Ok(n - 1);
    }
    (0..five.len() as u8)
        .find(|i| {
            let c = &five[*i as usize];
            !taken.contains(i) && (c.id.eq_ignore_ascii_case(p) || c.card.name.eq_ignore_ascii_case(p))
        })
        .ok_or_else(|| {
            Failure::new(
                Code::BadChoice,
                format!("{p:?} is not one of the loser's cards (see +TT/WinList)"),
            )
        })
}

/// The five cards `player` brought to `m`, as the shop knows them.
fn brought(catalog: &Catalog, m: &Match, player: Player) -> Result<Vec<ShopCard>, Failure> {
    m.brought(player).iter().map(|c| card_of(catalog, &c.name)).collect()
}

/// What the trade of ended match `m` asks of its winner: `None`, nothing (the cards move at
/// once); or the winner (`chooser`) picks `count` of the loser's five (`direct_swap`: one, their
/// own card facing it going the other way).
fn choice(m: &Match) -> Result<Option<(Player, u8)>, arbiter_core::tripletriad::MatchError> {
    Ok(match m.trade_choice()? {
        TradeChoice::Automatic => None,
        TradeChoice::Pick { chooser, count } => Some((chooser, count)),
        TradeChoice::Swap { chooser } => Some((chooser, 1)),
    })
}

/// The picks made for a winner whose clock ran out: the loser's highest levels, or under
/// `direct_swap` the swap the core's computer player makes (the most gained).
fn picks_for_the_winner(m: &Match) -> Result<Vec<u8>, arbiter_core::tripletriad::MatchError> {
    match m.trade_choice()? {
        TradeChoice::Pick { chooser, count } => {
            let loser = m.brought(chooser.other());
            let mut by_level: Vec<u8> = (0..5).collect();
            by_level.sort_by_key(|&i| std::cmp::Reverse(loser[i as usize].level));
            by_level.truncate(count as usize);
            Ok(by_level)
        }
        _ => m.computer_picks(),
    }
}

/// Whether every end a match under these options can meet is one its stakes settle: `m` (a
/// match under a challenge's options) played to its end by timeout moves, and forfeited by
/// either player, each goes through the trade as the settlement does it ([`choice`],
/// [`picks_for_the_winner`], the core's `settle_trade`). Run when the challenge is made, so
/// that no match starts whose end the settlement would refuse.
pub(crate) fn check_settles(m: &Match) -> Result<(), String> {
    let mut played = m.clone();
    // Sudden death without a round limit may draw for long: a hundred rounds at most.
    for _ in 0..900 {
        let Some(mv) = played.timeout_move() else { break };
        played.play(mv).map_err(|e| e.to_string())?;
    }
    let mut ends: Vec<Match> = played.is_over().then_some(played).into_iter().collect();
    for leaver in Player::BOTH {
        let mut left = m.clone();
        left.forfeit(leaver).map_err(|e| e.to_string())?;
        ends.push(left);
    }
    for mut end in ends {
        let picks = match choice(&end).map_err(|e| e.to_string())? {
            None => Vec::new(),
            Some(_) => picks_for_the_winner(&end).map_err(|e| e.to_string())?,
        };
        end.settle_trade(&picks)
            .map_err(|e| format!("stake: the trade {} cannot be settled: {e}", end.config().trade))?;
    }
    Ok(())
}
