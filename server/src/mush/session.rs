//! One text connection: its player, the invitation and the game it is in, each command carried
//! out through the same accounts, challenges, matches and economy as the WebSocket, and the
//! hub's events told as lines.

use std::net::IpAddr;
use std::sync::Arc;

use arbiter_core::Rng;
use arbiter_economy::{suggest_ranks, MushRules, MushRulesError, Party, Spectators, Stake};
use serde_json::{json, Value};
use sqlx::Row as _;

use super::command::{BadCommand, Command, DeckCommand, Opponent, HELP_LINE};
use super::render;
use crate::accounts::User;
use crate::economy::Pick;
use crate::error::{Code, Failure};
use crate::frames::{ChallengeSeat, Closing, Frame, SeatView};
use crate::hub::Hub;
use crate::live::{self, Mover};
use crate::protocol::SeatRequest;
use crate::table::Input;

const GAME: &str = "triple-triad";

pub struct Session {
    id: u64,
    /// Where the connection comes from: `connect` and `create` spend the address's login budgets.
    peer: IpAddr,
    user: Option<User>,
    /// The game this player sits in or watches, and their seat (`None`: watching).
    game: Option<(i64, Option<usize>)>,
    /// The round of that game last shown, and what its sudden death does (the rules' word):
    /// a new round after a draw is announced.
    round: (u64, Option<String>),
    /// The invitations naming this player it was told of (challenge, inviter), newest last.
    invitations: Vec<(i64, String)>,
    /// The invitations this player made (challenge, whom), to tell a refusal.
    invited: Vec<(i64, String)>,
    /// Who withdrew the last invitation before it was answered: `+TT/Accept` says so.
    withdrawn: Option<String>,
    /// The challenge whose picking window this player was told of: `+TT/Pick` names five for it.
    picking: Option<i64>,
    pub quitting: bool,
}

/// The most invitations a connection remembers each way: the oldest are forgotten first.
const INVITATIONS_KEPT: usize = 32;

fn remember(list: &mut Vec<(i64, String)>, id: i64, name: String) {
    list.retain(|(c, _)| *c != id);
    list.push((id, name));
    if list.len() > INVITATIONS_KEPT {
        list.remove(0);
    }
}

fn forget(list: &mut Vec<(i64, String)>, id: i64) -> Option<String> {
    let i = list.iter().position(|(c, _)| *c == id)?;
    Some(list.remove(i).1)
}

pub fn welcome() -> Vec<String> {
    vec![
        "Welcome to Arbiter's Triple Triad. connect <name> <password> or create <name> <password>.".into(),
        HELP_LINE.into(),
    ]
}

type Reply = Result<Vec<String>, Failure>;

fn say(s: impl Into<String>) -> Reply {
    Ok(vec![s.into()])
}

impl Session {
    pub fn new(id: u64, peer: IpAddr) -> Session {
        Session {
            id,
            peer,
            user: None,
            game: None,
            round: (0, None),
            invitations: Vec::new(),
            invited: Vec::new(),
            withdrawn: None,
            picking: None,
            quitting: false,
        }
    }

    /// Whether the connection logged in (its idle time then counts from its last line).
    pub fn logged_in(&self) -> bool {
        self.user.is_some()
    }

    /// The answer to one line: the command's result, or why not (never a disconnect but QUIT).
    pub async fn handle(&mut self, hub: &Arc<Hub>, line: &str) -> Vec<String> {
        let command = match line.parse::<Command>() {
            Ok(c) => c,
            Err(BadCommand(why)) => return screen(vec![format!("Huh? {why}."), HELP_LINE.into()]),
        };
        screen(match self.run(hub, command).await {
            Ok(lines) => lines,
            Err(f) => vec![format!("Sorry: {}.", f.message.trim_end_matches('.'))],
        })
    }

    fn me(&self) -> Result<&User, Failure> {
        self.user.as_ref().ok_or_else(|| {
            Failure::new(
                Code::NotAuthenticated,
                "connect first: connect <name> <password> (or create <name> <password>)",
            )
        })
    }

    async fn run(&mut self, hub: &Arc<Hub>, command: Command) -> Reply {
        let e = &hub.economy;
        match command {
            Command::Connect { name, password } | Command::Create { name, password } if self.user.is_some() => {
                let _ = (name, password);
                say("You are already connected.")
            }
            Command::Connect { name, password } => {
                let (user, _) = hub.accounts.login(&name, &password, self.peer).await?;
                self.login(hub, user).await
            }
            Command::Create { name, password } => {
                let (user, _) = hub.accounts.register(&name, &password, None, self.peer).await?;
                self.login(hub, user).await
            }
            Command::Quit => {
                self.quitting = true;
                say("Goodbye.")
            }
            Command::Who => {
                let names: Vec<String> = hub.online().into_iter().map(|u| u.name).collect();
                Ok(vec![
                    format!(
                        "Online: {}.",
                        if names.is_empty() {
                            "nobody".into()
                        } else {
                            names.join(", ")
                        }
                    ),
                    format!(
                        "Computer players, to challenge by name (+TT/Game Mog-Facile=<Deck>/<Rules>): {}.",
                        crate::robots::names().collect::<Vec<_>>().join(", ")
                    ),
                ])
            }
            Command::Help(None) => Ok(help()),
            Command::Help(Some(command)) => help_on(&command),
            Command::HelpRandom(level) => {
                let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
                let s = suggest_ranks(level, &mut Rng::new(seed))
                    .map_err(|e| Failure::new(Code::BadLevel, e.to_string()))?;
                let range = arbiter_economy::rank_sum_range(level).unwrap_or(0..=0);
                let mut out = vec![format!(
                    "Five suggestions for level {level} (up left right down, sum {} to {}):",
                    range.start(),
                    range.end()
                )];
                out.extend(
                    s.iter()
                        .map(|r| render::ranks(&arbiter_core::tripletriad::Card::new("", *r))),
                );
                Ok(out)
            }
            Command::Starter => {
                let me = self.me()?.id;
                let cards = e.starter(me).await?;
                let mut out = vec!["You receive your starter set of 20 cards:".to_string()];
                out.extend(cards.iter().map(render::card_line));
                Ok(out)
            }
            Command::Stash => Ok(render::stash(&e.stash(self.me()?.id).await?)),
            Command::Detail => Ok(render::detail(&e.stash(self.me()?.id).await?)),
            Command::Stats(name) => {
                let user = match name {
                    Some(n) => hub.accounts.find(&n).await?,
                    None => self.me()?.clone(),
                };
                let stats = hub.accounts.stats(user.id).await?;
                let s = &stats.get(GAME).cloned().unwrap_or(json!({}));
                let n = |k: &str| s[k].as_i64().unwrap_or(0);
                let mut out = vec![format!(
                    "{}: {} played, {} won, {} lost, {} drawn, {} did not finish.",
                    user.name,
                    n("played"),
                    n("won"),
                    n("lost"),
                    n("drawn"),
                    n("dnf")
                )];
                // A wallet is its owner's alone, as on the WebSocket (`tt_wallet`).
                if self.user.as_ref().is_some_and(|me| me.id == user.id) {
                    let w = e.wallet(user.id).await?;
                    out.push(format!(
                        "{} cards, {} points, {} experience, {} gils.",
                        e.card_count(user.id).await?,
                        w.points,
                        w.experience,
                        w.gils
                    ));
                }
                Ok(out)
            }
            Command::Deck(d) => self.deck(hub, d).await,
            Command::List => {
                let mut out =
                    vec!["Series  Name              Cards  Yours  Price (random/card, per level)".to_string()];
                for s in e.series(self.me()?.id).await? {
                    out.push(format!(
                        "{:<7} {:<17} {:>5}  {:>5}  {}",
                        s.series.code,
                        s.series.name,
                        s.cards,
                        s.owned,
                        s.series.prices()
                    ));
                }
                Ok(out)
            }
            Command::ListSeries { series, level } => {
                let cards = e.series_cards(self.me()?.id, series, level).await?;
                if cards.is_empty() {
                    return say(format!(
                        "Series {series} has no card{}.",
                        level.map(|l| format!(" of level {l}")).unwrap_or_default()
                    ));
                }
                Ok(cards
                    .iter()
                    .map(|(c, n)| format!("{}  (you own {n})", render::card_line(c)))
                    .collect())
            }
            Command::BuyRandom { series, level } => {
                let sale = e.buy_random(self.me()?.id, series, level).await?;
                say(format!(
                    "You buy {} for {} points.",
                    render::card_line(&sale.card),
                    sale.price
                ))
            }
            Command::BuyCard(name) => {
                let sale = e.buy_card(self.me()?.id, &name).await?;
                say(format!(
                    "You buy {} for {} points.",
                    render::card_line(&sale.card),
                    sale.price
                ))
            }
            Command::Custom {
                name,
                level,
                ranks,
                element,
                text,
            } => {
                let sale = e
                    .create_custom(self.me()?.id, &name, level, ranks, &element, &text)
                    .await?;
                say(format!(
                    "You create {} for {} points. It is in your stash and in the shop.",
                    render::card_line(&sale.card),
                    sale.price
                ))
            }
            Command::Game { opponent, deck, rules } => self.invite(hub, &opponent, deck.as_deref(), &rules).await,
            Command::Accept(pick) => self.accept(hub, pick).await,
            Command::Pick(pick) => self.pick_five(hub, pick).await,
            Command::Refuse => {
                let me = self.me()?.clone();
                let id = self.invitation(hub).await?;
                crate::challenges::decline(hub, id, &me, false).await?;
                say("You refuse the game.")
            }
            Command::Play { card, position } => self.play(hub, &card, position).await,
            Command::Grid => {
                let (id, seat) = self
                    .game
                    .ok_or_else(|| Failure::new(Code::NoSuchMatch, "you are in no game"))?;
                let handle = hub
                    .live(id)
                    .ok_or_else(|| Failure::new(Code::NoSuchMatch, "that game is over"))?;
                let view = handle.lock().await.view(seat);
                Ok(render::grid(&view, seat.map(colour)))
            }
            Command::Choose(picks) => {
                let me = self.me()?.id;
                let id = e
                    .awaiting_choice(me)
                    .await?
                    .ok_or_else(|| Failure::new(Code::NothingToChoose, "you have no cards to choose"))?;
                let s = e.choose(id, Some(me), &picks).await?;
                crate::live::tell_settlement(hub, id, &s).await;
                Ok(Vec::new())
            }
            Command::WinList => {
                let me = self.me()?.id;
                let id = e
                    .awaiting_choice(me)
                    .await?
                    .ok_or_else(|| Failure::new(Code::NothingToChoose, "no game of yours waits for a choice"))?;
                let w = e.win_list(id, me).await?;
                let mut out = vec![format!(
                    "The winner takes {} card{} (+TT/Choose <Card>,... or None):",
                    w.count,
                    if w.count == 1 { "" } else { "s" }
                )];
                out.extend(
                    w.cards
                        .iter()
                        .enumerate()
                        .map(|(i, c)| format!("{}) {}", i + 1, render::card_line(c))),
                );
                if !w.facing.is_empty() {
                    out.push("Direct swap: the winner gives up their own card in the same position:".into());
                    out.extend(
                        w.facing
                            .iter()
                            .enumerate()
                            .map(|(i, c)| format!("{}) {}", i + 1, render::card_line(c))),
                    );
                }
                Ok(out)
            }
            Command::Cancel => self.cancel(hub).await,
            Command::SpectateJoin(name) => {
                let user = hub.accounts.find(&name).await?;
                let row = sqlx::query(
                    "SELECT m.id AS id FROM matches m JOIN match_seats s ON s.match_id = m.id \
                     WHERE s.user_id = $1 AND m.status = 'running' AND m.game = $2",
                )
                .bind(user.id)
                .bind(GAME)
                .fetch_optional(&hub.pool)
                .await?
                .ok_or_else(|| Failure::new(Code::NoSuchMatch, format!("{} plays no game", user.name)))?;
                let id: i64 = row.try_get("id")?;
                let handle = hub
                    .live(id)
                    .ok_or_else(|| Failure::new(Code::NoSuchMatch, "that game is over"))?;
                // Checked and joined under the match's lock: a game made private meanwhile keeps
                // this spectator out, and no card played in between is missed.
                let live = handle.lock().await;
                if self.user.as_ref().is_some_and(|me| live.seat_of(me.id).is_some()) {
                    return say("You play in that game: +TT/Grid shows it.");
                }
                if live.spectators == Spectators::Private {
                    return Err(Failure::new(
                        Code::PrivateMatch,
                        format!("{}'s game is private: no spectators", user.name),
                    ));
                }
                hub.spectate(self.id, id, true);
                self.game = Some((id, None));
                let summary = live.summary();
                let view = live.view(None);
                self.round = (view["round"].as_u64().unwrap_or(0), sudden_death(&summary));
                let mut out = vec![format!(
                    "You watch {}'s game. Rules: {}.",
                    user.name,
                    crate::rules::words(&summary.options, summary.time, summary.spectators)
                )];
                out.extend(render::grid(&view, None));
                out.extend(super::chat::frame_lines(&hub.chat.history(Some(id)), &user.name));
                Ok(out)
            }
            Command::SpectateLeave => match self.game {
                Some((id, None)) => {
                    hub.spectate(self.id, id, false);
                    self.game = None;
                    say("You stop watching.")
                }
                _ => say("You are watching no game."),
            },
            c @ (Command::Say(_) | Command::Pose(_) | Command::Page { .. } | Command::Silence(_)) => {
                super::chat::run(hub, self.id, self.me()?, self.game, c).await
            }
            Command::Option(o) => {
                let o: Spectators = o
                    .parse()
                    .map_err(|e: MushRulesError| Failure::new(Code::BadMessage, e.to_string()))?;
                let me = self.me()?.clone();
                let Some((id, Some(_))) = self.game else {
                    return Err(Failure::new(
                        Code::NoSuchMatch,
                        "you are playing no game: +TT/Option changes the game you play",
                    ));
                };
                // Everyone concerned, this player included, hears it as an event.
                crate::live::spectating::set(hub, id, &me, o).await?;
                Ok(Vec::new())
            }
        }
    }

    async fn login(&mut self, hub: &Arc<Hub>, user: User) -> Reply {
        hub.authenticate(self.id, &user);
        // A text player is in the room: told of the games to watch and of broadcast ones.
        let joined = hub.subscribe_lobby(self.id);
        let row = sqlx::query(
            "SELECT m.id AS id, s.seat AS seat FROM matches m JOIN match_seats s ON s.match_id = m.id \
             WHERE s.user_id = $1 AND m.status = 'running' AND m.game = $2",
        )
        .bind(user.id)
        .bind(GAME)
        .fetch_optional(&hub.pool)
        .await?;
        let mut out = vec![format!("Welcome, {}.", user.name)];
        if joined {
            out.extend(super::chat::frame_lines(&hub.chat.history(None), &user.name));
        }
        if let Some(r) = row {
            let (id, seat) = (r.try_get("id")?, r.try_get::<i64, _>("seat")? as usize);
            self.game = Some((id, Some(seat)));
            out.push("You are in a game: +TT/Grid shows it.".into());
            if let Some(handle) = hub.live(id) {
                let live = handle.lock().await;
                self.round = (
                    live.view(None)["round"].as_u64().unwrap_or(0),
                    sudden_death(&live.summary()),
                );
                out.push(turn(live.to_move(), Some(seat)));
            }
        }
        self.user = Some(user);
        Ok(out)
    }

    async fn deck(&mut self, hub: &Arc<Hub>, d: DeckCommand) -> Reply {
        let e = &hub.economy;
        let me = self.me()?.id;
        match d {
            DeckCommand::Create(name) => {
                e.deck_create(me, &name).await?;
                say(format!(
                    "Deck {name} created. Add cards with +TT/Deck Add=<Card1>,<Card2>,..."
                ))
            }
            DeckCommand::Delete(name) => {
                e.deck_delete(me, &name).await?;
                say(format!("Deck {name} deleted."))
            }
            DeckCommand::List => {
                let decks = e.decks(me).await?;
                if decks.is_empty() {
                    return say("You have no deck. +TT/Deck Create=<Name> makes one.");
                }
                Ok(decks.iter().map(render::deck).collect())
            }
            DeckCommand::Add(name, cards) => Ok(vec![render::deck(&e.deck_add(me, name.as_deref(), &cards).await?)]),
            DeckCommand::Rem(name, cards) => Ok(vec![render::deck(&e.deck_remove(me, name.as_deref(), &cards).await?)]),
            DeckCommand::Check(name) => {
                let (view, check) = e.deck_check(me, name.as_deref()).await?;
                Ok(vec![render::deck(&view), render::check(&view, &check)])
            }
        }
    }

    async fn invite(&mut self, hub: &Arc<Hub>, opponent: &Opponent, deck: Option<&str>, rules: &str) -> Reply {
        let me = self.me()?.clone();
        let r: MushRules = rules
            .parse()
            .map_err(|e: MushRulesError| Failure::new(Code::BadChallenge, e.to_string()))?;
        let drawn = r.config.rules.random;
        let deck = match (deck, drawn) {
            (Some(_), true) => {
                return Err(Failure::new(
                    Code::BadChallenge,
                    "under RandomHands the hands are drawn from each collection: name no deck (+TT/Game <Name>=/<Rules...>)",
                ))
            }
            // Without a deck, the inviter names their five when every seat is taken.
            (None, false) if hub.config.pick_time.is_zero() => {
                return Err(Failure::new(Code::NoDeck, "name your deck: +TT/Game <Name>=<Deck>/<Rules...>"))
            }
            (deck, _) => deck,
        };
        // Refused now rather than when the other accepts: a deck the rules do not admit, a stake
        // the challenger cannot make (the other's side is checked when they accept).
        if let Some(deck) = deck {
            let (view, check) = hub.economy.deck_check(me.id, Some(deck)).await?;
            if !(check.usable || r.config.deck_level_limit.is_none() && check.usable_limitless) {
                return Err(Failure::new(Code::DeckUnusable, render::check(&view, &check)));
            }
        }
        let stake = Stake {
            trade: r.config.trade,
            gils: r.gils,
            customs: r.customs,
        };
        let wallet = hub.economy.wallet(me.id).await?;
        let mine = Party {
            computer: false,
            experience: wallet.experience.clamp(0, i64::from(u32::MAX)) as u32,
            gils: wallet.gils.clamp(0, i64::from(u32::MAX)) as u32,
            cards: hub.economy.card_count(me.id).await?,
        };
        let tt = crate::table::GameKind::TripleTriad;
        let (word, computer) = match opponent {
            Opponent::Player(name) => (name, false),
            Opponent::Computer(word) => (word, true),
        };
        // A robot named as a player is the computer: no stakes against it, as with `Computer:`.
        let (other, seat, whom) = if computer || crate::robots::level_named(tt, word)?.is_some() {
            // A word that names no level goes to the challenge as given, which refuses it after
            // the stakes are checked here.
            let level = crate::robots::level(tt, word).unwrap_or_else(|_| word.to_ascii_lowercase());
            let whom = match hub.robots.account(tt, &level) {
                Some((_, name)) if !word.eq_ignore_ascii_case(&level) => format!("{name} (the computer, {level})"),
                _ => format!("the computer ({level})"),
            };
            let computer = Party {
                computer: true,
                ..Party::default()
            };
            (computer, SeatRequest::Computer { level }, whom)
        } else {
            (mine, SeatRequest::Player { name: word.clone() }, word.clone())
        };
        stake
            .check(&mine, &other)
            .map_err(|e| Failure::new(Code::BadStake, e.to_string()))?;
        let options = json!({
            "rules": r.config.rules,
            "sudden_death": r.config.sudden_death,
            "deck_level_limit": r.config.deck_level_limit,
            "stake": stake,
            "deck": deck,
            "words": r.to_string(),
        });
        let created = crate::challenges::create(
            hub,
            &me,
            GAME,
            Some(options),
            Some(vec![SeatRequest::Me, seat]),
            r.config.time,
            r.spectators,
            None,
        )
        .await?;
        if let Some(id) = created["challenge"]["id"].as_i64() {
            remember(&mut self.invited, id, whom.clone());
        }
        let hand = deck.map_or_else(
            || "hands drawn from each collection".to_string(),
            |d| format!("your deck {d}"),
        );
        say(format!(
            "You invite {whom} to a game with {hand}: {r}.{}",
            at_stake(&json!(stake))
        ))
    }

    /// The open invitation naming this player.
    async fn invitation(&self, hub: &Arc<Hub>) -> Result<i64, Failure> {
        let me = self.me()?;
        crate::challenges::concerning(hub, me)
            .await?
            .iter()
            .rev()
            .find(|c| {
                c["game"] == GAME
                    && c["by"]["id"].as_i64() != Some(me.id)
                    && c["seats"].as_array().into_iter().flatten().any(|s| {
                        s["kind"] == "player"
                            && s["taken"] == false
                            && s["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(&me.name))
                    })
            })
            .and_then(|c| c["id"].as_i64())
            .ok_or_else(|| {
                Failure::new(
                    Code::NoSuchChallenge,
                    match &self.withdrawn {
                        Some(by) => format!("{by} withdrew the invitation"),
                        None => "nobody has invited you to a game".into(),
                    },
                )
            })
    }

    async fn accept(&mut self, hub: &Arc<Hub>, pick: Option<Pick>) -> Reply {
        let me = self.me()?.clone();
        let id = self.invitation(hub).await?;
        let pick = pick.map(Pick::checked).transpose()?;
        let line = match &pick {
            Some(Pick::Deck(deck)) => format!("You accept the game with your deck {deck}."),
            Some(Pick::Cards(cards)) => format!("You accept the game with {}.", cards.join(", ")),
            None => "You accept the game.".to_string(),
        };
        crate::challenges::accept(hub, id, &me, pick).await?;
        say(line)
    }

    async fn pick_five(&mut self, hub: &Arc<Hub>, pick: Pick) -> Reply {
        let me = self.me()?.clone();
        let id = self
            .picking
            .ok_or_else(|| Failure::new(Code::NoSuchChallenge, "no game waits for your five cards"))?;
        crate::challenges::pick(hub, id, &me, pick.checked()?).await?;
        say("Your five cards are named: the game starts when every player has named theirs.")
    }

    async fn play(&mut self, hub: &Arc<Hub>, card: &str, position: u8) -> Reply {
        let me = self.me()?.id;
        let (id, seat) = match self.game {
            Some((id, Some(seat))) => (id, seat),
            _ => return Err(Failure::new(Code::NoSuchMatch, "you are playing no game")),
        };
        let handle = hub
            .live(id)
            .ok_or_else(|| Failure::new(Code::NoSuchMatch, "that game is over"))?;
        let hand = handle.lock().await.view(Some(seat))["observation"]["hand"].clone();
        let named = hub
            .economy
            .catalog()
            .await?
            .find(card.trim())
            .map(|c| c.card.name.clone());
        let index = pick(
            hand.as_array().map_or(&[][..], Vec::as_slice),
            card.trim(),
            named.as_deref(),
        )
        .map_err(|why| Failure::new(Code::BadMove, why))?;
        let notation = format!("{index}@{}", position - 1);
        live::play(
            hub,
            id,
            Mover::Person {
                user: me,
                conn: self.id,
            },
            Input::Notation(notation),
            None,
            None,
        )
        .await?;
        Ok(Vec::new())
    }

    async fn cancel(&mut self, hub: &Arc<Hub>) -> Reply {
        let me = self.me()?.clone();
        if let Some(id) = hub.economy.awaiting_choice(me.id).await? {
            let w = hub.economy.win_list(id, me.id).await?;
            if w.chooser != me.id {
                return Err(Failure::new(
                    Code::MatchOver,
                    "the game is over: you cannot leave before the winner chooses the cards",
                ));
            }
            return Err(Failure::new(
                Code::MatchOver,
                "choose your cards first (+TT/Choose <Card>,... or None)",
            ));
        }
        if let Some((id, Some(_))) = self.game {
            let dnf = live::leave(hub, id, me.id).await?;
            self.game = None;
            return say(if dnf {
                "You leave the game: you lose it, and it counts as Did Not Finish. Cards at stake go by the winner rule."
            } else {
                "You leave the game: your opponent is gone, so it counts as a loss, not Did Not Finish. Cards at stake go by the winner rule."
            });
        }
        if let Ok(challenges) = crate::challenges::concerning(hub, &me).await {
            let mine = challenges
                .iter()
                .find(|c| c["game"] == GAME && c["by"]["id"].as_i64() == Some(me.id))
                .and_then(|c| c["id"].as_i64());
            if let Some(id) = mine {
                crate::challenges::decline(hub, id, &me, true).await?;
                return say("You withdraw your invitation.");
            }
        }
        say("You are in no game.")
    }

    /// A hub event for this connection, as lines.
    pub fn event(&mut self, text: &str) -> Vec<String> {
        screen(self.event_lines(text))
    }

    fn event_lines(&mut self, text: &str) -> Vec<String> {
        // The frames this interface renders; the others (the lobby's lists, presence) say
        // nothing here.
        let Ok(frame) = serde_json::from_str::<Frame>(text) else {
            return Vec::new();
        };
        let me = self.user.as_ref().map(|u| (u.id, u.name.clone()));
        if let Some(lines) = super::chat::lines(&frame, me.as_ref().map_or("", |(_, n)| n)) {
            return lines;
        }
        let watching = |id: i64| self.game.is_some_and(|(g, _)| g == id);
        match frame {
            Frame::ChallengeOpen { challenge: c } => {
                let Some((id, name)) = me else { return Vec::new() };
                let invited = c.by.id != id
                    && c.seats.iter().any(|s| {
                        matches!(s, ChallengeSeat::Player { name: n, taken: false } if n.eq_ignore_ascii_case(&name))
                    });
                if !invited || c.game != GAME {
                    return Vec::new();
                }
                remember(&mut self.invitations, c.id, c.by.name.clone());
                self.withdrawn = None;
                let words = crate::rules::words(&c.options, c.time, c.spectators);
                vec![format!(
                    "{} invites you to a game of Triple Triad: {words}.{} Type +TT/Accept <Deck> or +TT/Refuse.",
                    c.by.name,
                    at_stake(&c.options["stake"])
                )]
            }
            Frame::Picking {
                challenge,
                remaining_ms,
                waiting,
                ..
            } => {
                let Some((_, name)) = me else { return Vec::new() };
                self.picking = Some(challenge.id);
                let seconds = (remaining_ms + 999) / 1000;
                if waiting.iter().any(|w| w.eq_ignore_ascii_case(&name)) {
                    return vec![format!(
                        "Every seat is taken: name the five cards you play within {seconds} seconds: +TT/Pick <Deck> or +TT/Pick <Card> <Card> <Card> <Card> <Card> (ids, or names with commas). Otherwise you play your current deck if this game admits it; if not, the game is cancelled."
                    )];
                }
                vec![format!(
                    "Waiting for {} to name their five cards ({seconds} seconds at most).",
                    waiting.join(", ")
                )]
            }
            Frame::ChallengeClosed { challenge, reason } if self.picking == Some(challenge) => {
                self.picking = None;
                match reason {
                    Closing::PickTimeout => vec![
                        "The game is cancelled: the picking time ran out and a player had no five cards this game admits. Nothing was at stake.".into(),
                    ],
                    _ => Vec::new(),
                }
            }
            Frame::ChallengeClosed { challenge, reason } => {
                if let Some(by) = forget(&mut self.invitations, challenge) {
                    if reason == Closing::Withdrawn {
                        let line = format!("{by} withdraws the invitation.");
                        self.withdrawn = Some(by);
                        return vec![line];
                    }
                } else if let Some(whom) = forget(&mut self.invited, challenge) {
                    if reason == Closing::Refused {
                        return vec![format!("{whom} refuses your invitation.")];
                    }
                }
                Vec::new()
            }
            Frame::MatchStarted { summary, seat } if summary.game == GAME => {
                self.game = Some((summary.id, seat));
                self.round = (0, sudden_death(&summary));
                let names: Vec<String> = summary
                    .seats
                    .iter()
                    .map(|s| match s {
                        SeatView::Player { name, .. } => name.clone(),
                        SeatView::Computer { level, name: None } => format!("computer {level:?}"),
                        SeatView::Computer { name: Some(name), .. } => name.clone(),
                    })
                    .collect();
                vec![
                    format!(
                        "The game starts: {} (blue) against {} (red).{}",
                        names.first().cloned().unwrap_or_default(),
                        names.get(1).cloned().unwrap_or_default(),
                        seat.map(|s| format!(" You play {}.", colour(s))).unwrap_or_default()
                    ),
                    format!(
                        "Rules: {}.",
                        crate::rules::words(&summary.options, summary.time, summary.spectators)
                    ),
                ]
            }
            Frame::MatchState(state) if state.summary.game == GAME => {
                self.round.0 = state.view["round"].as_u64().unwrap_or(0);
                let mut out = render::grid(&state.view, state.seat.map(colour));
                out.push(turn(state.to_move, state.seat));
                out
            }
            Frame::Moved {
                match_id,
                record,
                view,
                to_move,
                ..
            } if watching(match_id) => {
                let seat = self.game.and_then(|(_, s)| s);
                let mut out = vec![render::moved(record.seat, &record.notation, record.timeout, &view)];
                out.extend(self.new_round(&view));
                out.extend(render::grid(&view, seat.map(colour)));
                out.push(turn(to_move, seat));
                out
            }
            Frame::MatchOver { match_id, result } if watching(match_id) => {
                let seat = self.game.and_then(|(_, s)| s);
                let scores = result
                    .scores
                    .as_ref()
                    .map(|s| {
                        let at = |i: usize| s.get(i).map_or_else(|| "null".to_string(), i64::to_string);
                        format!(" {}-{}", at(0), at(1))
                    })
                    .unwrap_or_default();
                let line = match (result.winners.first().copied(), seat) {
                    (None, _) => format!("The game is over: a draw{scores}."),
                    (Some(w), Some(s)) if w == s => format!("The game is over: you win{scores}!"),
                    (Some(w), _) => format!("The game is over: {} wins{scores}.", colour(w)),
                };
                self.game = None;
                vec![line]
            }
            Frame::TtChoose { chooser, count: n, .. } => {
                if me.is_some_and(|(id, _)| chooser == id) {
                    vec![format!(
                        "You won {n} card{} from your opponent's deck: +TT/WinList shows them, +TT/Choose <Card>,... (or None) takes them within {} seconds.",
                        if n == 1 { "" } else { "s" },
                        crate::economy::CHOICE_SECONDS
                    )]
                } else {
                    vec![format!(
                        "The winner chooses {n} of your cards. You cannot leave before."
                    )]
                }
            }
            Frame::TtSettled { moved, .. } => {
                if moved.is_empty() {
                    return vec!["No card changes hands.".into()];
                }
                moved
                    .iter()
                    .map(|m| format!("{} goes from {} to {}.", m.card, m.from, m.to))
                    .collect()
            }
            Frame::MatchListed { summary: m } if m.game == GAME => {
                let Some((me, _)) = me else { return Vec::new() };
                if m.seats
                    .iter()
                    .any(|s| matches!(s, SeatView::Player { user, .. } if *user == me))
                {
                    return Vec::new();
                }
                let names: Vec<String> = m.seats.iter().map(SeatView::sitter).collect();
                let words = crate::rules::words(&m.options, m.time, m.spectators);
                let watch = m
                    .seats
                    .iter()
                    .find_map(|s| match s {
                        SeatView::Player { name, .. } => Some(format!(" +TT/Spectate Join={name} to watch.")),
                        SeatView::Computer { .. } => None,
                    })
                    .unwrap_or_default();
                vec![format!(
                    "{} (blue) and {} (red) play Triple Triad: {words}.{watch}",
                    names.first().cloned().unwrap_or_default(),
                    names.get(1).cloned().unwrap_or_default(),
                )]
            }
            Frame::MatchBroadcast {
                match_id,
                game,
                seats,
                seat,
                notation,
                view,
                ..
            } if game == GAME => {
                // The game's own players and spectators already see every card.
                if watching(match_id) {
                    return Vec::new();
                }
                let names: Vec<String> = seats.iter().map(SeatView::sitter).collect();
                let mut out = vec![format!(
                    "[Broadcast] {} (blue) against {} (red): {}",
                    names.first().cloned().unwrap_or_default(),
                    names.get(1).cloned().unwrap_or_default(),
                    render::moved(seat, &notation, false, &view)
                )];
                out.extend(render::grid(&view, None));
                out
            }
            Frame::MatchSpectators {
                match_id,
                spectators,
                by,
            } if watching(match_id) => {
                let who = if me.as_ref().is_some_and(|(id, _)| by.id == *id) {
                    "You make".to_string()
                } else {
                    format!("{} makes", by.name)
                };
                let what = match spectators {
                    Spectators::Private => "private: nobody may watch it, its spectators are removed",
                    Spectators::Broadcast => "broadcast: every card played is shown to the whole room",
                    Spectators::Open => "open to spectators",
                };
                vec![format!("{who} the game {what}.")]
            }
            Frame::Unspectated { match_id, message, .. }
                if self.game.is_some_and(|(g, s)| s.is_none() && g == match_id) =>
            {
                self.game = None;
                vec![format!(
                    "{}: you stop watching.",
                    message.as_deref().unwrap_or("The game is private now")
                )]
            }
            Frame::Error { code, message } if code != Code::RateLimited => vec![format!("Sorry: {message}.")],
            _ => Vec::new(),
        }
    }
}

impl Session {
    /// The line announcing a new round of the game shown, when `view` begins one.
    fn new_round(&mut self, view: &Value) -> Option<String> {
        let round = view["round"].as_u64()?;
        let before = std::mem::replace(&mut self.round.0, round);
        (before > 0 && round > before)
            .then(|| render::round_ended(view, before, self.round.1.as_deref()))
            .flatten()
    }
}

/// What a match's sudden death does, in the rules' word (`original_hands`).
fn sudden_death(summary: &crate::frames::MatchSummary) -> Option<String> {
    summary.rules["sudden_death"].as_str().map(str::to_owned)
}

/// Which card of `hand` (the view's cards, in order) a player means: its place (1 to 5), its
/// name or the start of it (any case), or `named`, the name of the card whose id was given.
/// Cards that differ and answer the same words are an ambiguity, said as such.
fn pick(hand: &[Value], card: &str, named: Option<&str>) -> Result<usize, String> {
    if let Ok(n) = card.parse::<usize>() {
        return if (1..=hand.len()).contains(&n) {
            Ok(n - 1)
        } else {
            Err(format!("your hand holds cards 1 to {}, not {n}", hand.len()))
        };
    }
    let name = |c: &Value| c["name"].as_str().unwrap_or_default().to_lowercase();
    let wanted = card.to_lowercase();
    let exact: Vec<usize> = (0..hand.len())
        .filter(|&i| name(&hand[i]) == wanted || named.is_some_and(|n| n.to_lowercase() == name(&hand[i])))
        .collect();
    let found = if exact.is_empty() {
        (0..hand.len())
            .filter(|&i| name(&hand[i]).starts_with(&wanted))
            .collect()
    } else {
        exact
    };
    match found.as_slice() {
        [] => Err(format!("{card:?} is not in your hand")),
        // Copies of one card: any of them is that card.
        [first, rest @ ..] if rest.iter().all(|&i| hand[i] == hand[*first]) => Ok(*first),
        _ => {
            let which: Vec<String> = found
                .iter()
                .map(|&i| format!("{} ({})", hand[i]["name"].as_str().unwrap_or("?"), i + 1))
                .collect();
            Err(format!(
                "{card:?} could be {}: name one, or give its place in your hand",
                which.join(" or ")
            ))
        }
    }
}

/// Lines as they reach the screen: whatever they quote that came from a user (a challenge's
/// words, a custom card's name, anything a database or another process may hold) cannot break
/// a line or send a terminal a control sequence, whatever was checked when it was stored.
fn screen(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .map(|l| match crate::text::one_line(&l) {
            std::borrow::Cow::Borrowed(_) => l,
            std::borrow::Cow::Owned(clean) => clean,
        })
        .collect()
}

fn colour(seat: usize) -> &'static str {
    if seat == 0 {
        "blue"
    } else {
        "red"
    }
}

fn turn(to_move: Option<usize>, seat: Option<usize>) -> String {
    match (to_move, seat) {
        (None, _) => String::new(),
        (Some(t), Some(s)) if t == s => "Your turn: +TT/Play <Card>=<Position>.".into(),
        (Some(t), _) => format!("{} to play.", colour(t)),
    }
}

/// Each command's help, by the word `+TT/Help <Command>` takes: `+TT/Help` gives them all.
const HELP: &[(&str, &[&str])] = &[
    ("Starter", &["+TT/Starter — 20 random cards of levels 1 to 3, once."]),
    ("Stash", &["+TT/Stash — your cards and how many of each."]),
    ("Detail", &["+TT/Detail — your cards with level, ranks (up left right down), element, and how many are in decks."]),
    ("Stats", &["+TT/Stats [<Name>] — games played, won, lost, drawn; your own points, experience and gils."]),
    ("Deck", &[
        "+TT/Deck Create=<Name>, Delete=<Name>, List, Add=<Card>,..., Rem=<Card>,..., Check=<Name>.",
        "  A deck is a list of five cards of your stash: a card may be in several decks; only a card at stake in a game is locked.",
    ]),
    ("Game", &[
        "+TT/Game <Name>=<Deck>/<Rules> — rules: Open Same Wall Plus Combo Elemental Limitless; None One All Diff; Broadcast Private.",
        "  Or the French server's: Battle Borderless PlusWall (Bataille, Mur-cassé, Mur-additionnel...); Training None One Two Three Four Total Direct Change Random; Bet=<gils>.",
        "  RandomHands (Main-aléatoire) draws each hand from its player's collection: +TT/Game <Name>=/<Rules>, +TT/Accept without a deck.",
        "  Time=<15 to 300> seconds a move on both; <Name> Computer:<Level> plays the computer (no stakes: None or Training).",
    ]),
    ("Accept", &[
        "+TT/Accept <Deck> — play the game you are invited to with a deck of yours; +TT/Accept A001 A002 A003 A004 A005 — with five cards by id (or by name: Bite Bug,Geezard,...).",
        "  +TT/Accept alone: the server draws the hands under RandomHands; otherwise you name your five when every seat is taken (+TT/Pick), or play your current deck.",
    ]),
    ("Pick", &["+TT/Pick <Deck> or +TT/Pick <Card> <Card> <Card> <Card> <Card> — the five cards you play, while the game waits for them (the server says how many seconds; then your current deck if the game admits it, else the game is cancelled)."]),
    ("Refuse", &["+TT/Refuse — refuse the game you are invited to: the inviter is told."]),
    ("Play", &["+TT/Play <Card>=<Position> — a card of your hand (its place 1 to 5, its name or the start of it, or its id such as A001) on a position (1 upper left to 9 lower right)."]),
    ("Grid", &["+TT/Grid — the grid and the hands; under Elemental each cell's element and the +1/-1 a card on it gets."]),
    ("Choose", &["+TT/Choose <Card>,... or None — the winner takes the cards at stake (+TT/WinList shows them)."]),
    ("WinList", &["+TT/WinList — the cards the winner may take."]),
    ("Cancel", &["+TT/Cancel — leave your game (you lose it), or withdraw your invitation (the invitee is told)."]),
    ("Spectate", &["+TT/Spectate Join=<Name>, +TT/Spectate Leave — watch a player's game, or stop."]),
    ("Option", &["+TT/Option Private|Broadcast|None (midgame) — who may watch the game you play."]),
    ("List", &["+TT/List [<Series>/<Level or All>] — the shop's series, or one series' cards."]),
    ("Buy", &["+TT/Buy Random=<Series>/<Level>, +TT/Buy Card=<Name> — buy a card with points."]),
    ("Custom", &["+TT/Custom <Name>/<Level>=<Up> <Left> <Right> <Down> <Elemental>=<Text> — design a card of your own."]),
    ("Help", &["+TT/Help — every command; +TT/Help <Command> — one of them; +TT/Help Random=<Level> — five rank sets for a level."]),
    ("Silence", &["+TT/Silence On|Off — the spectators of your game may not speak (or may again)."]),
    ("say", &["say <message> (or \"<message>) — in your game's chat when in one, else the lobby's; say !aide for the server's own commands (!quizz)."]),
    ("pose", &["pose <action> (or :<action>) — an action in the same chat."]),
    ("page", &["page <Name>=<message> — to one player."]),
    ("WHO", &["WHO — who is online, and the computer players."]),
    ("QUIT", &["QUIT — leave (your game goes on: connect again to play it)."]),
];

fn help() -> Vec<String> {
    HELP.iter()
        .flat_map(|(_, lines)| lines.iter())
        .map(|s| s.to_string())
        .chain(["+TT/Help <Command> explains one command (+TT/Help Play).".to_string()])
        .collect()
}

fn help_on(command: &str) -> Reply {
    HELP.iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(command))
        .map(|(_, lines)| lines.iter().map(|s| s.to_string()).collect())
        .ok_or_else(|| {
            Failure::new(
                Code::BadMessage,
                format!("there is no command +TT/{command}: +TT/Help lists them"),
            )
        })
}

/// What an invitation says of a stake that moves cards or gils: leaving does not save them.
fn at_stake(stake: &Value) -> &'static str {
    // A stake without a rule is `one` (the core's default).
    let cards = stake.is_object() && !matches!(stake["trade"].as_str(), Some("training" | "none"));
    if cards || stake["gils"].as_u64().is_some_and(|g| g > 0) {
        " Leaving before the end loses the game: the winner takes what is at stake by the winner rule."
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::pick;

    #[test]
    fn a_card_by_place_name_start_or_id() {
        let hand = [
            json!({"name": "Geezard", "ranks": [1, 4, 1, 5]}),
            json!({"name": "Gesper", "ranks": [1, 1, 5, 4]}),
            json!({"name": "Geezard", "ranks": [1, 4, 1, 5]}),
            json!({"name": "Bite Bug", "ranks": [1, 3, 3, 5]}),
        ];
        assert_eq!(pick(&hand, "2", None), Ok(1));
        assert!(pick(&hand, "5", None).unwrap_err().contains("1 to 4, not 5"));
        assert_eq!(pick(&hand, "bite bug", None), Ok(3));
        assert_eq!(pick(&hand, "Bite", None), Ok(3));
        // Two copies of one card are no ambiguity.
        assert_eq!(pick(&hand, "geezard", None), Ok(0));
        assert_eq!(pick(&hand, "A001", Some("Geezard")), Ok(0));
        let e = pick(&hand, "Ge", None).unwrap_err();
        assert!(e.contains("could be Geezard (1) or Gesper (2) or Geezard (3)"), "{e}");
        assert!(pick(&hand, "Zidane", None).unwrap_err().contains("not in your hand"));
        // Two cards of one name that differ (custom cards) are.
        let customs = [
            json!({"name": "Moogle", "ranks": [1, 1, 1, 9]}),
            json!({"name": "Moogle", "ranks": [9, 1, 1, 1]}),
        ];
        assert!(pick(&customs, "moogle", None)
            .unwrap_err()
            .contains("could be Moogle (1) or Moogle (2)"));
    }
}
