//! Live matches: the authoritative table, its seats and clock. A move is checked by the core,
//! written in the transaction that advances the match, and only then told: each seat its own
//! view, spectators the public one. Clocks and computer players run as tasks beside the match.

use std::sync::Arc;
use std::time::Duration;

use arbiter_core::tripletriad::{Match, Player};
use arbiter_core::{Budget, Rng};
use arbiter_economy::Spectators;
use serde_json::Value;
use sqlx::Row as _;

use crate::accounts::User;
use crate::bus::Event;
use crate::commit::{self, MoveRow};
use crate::crash_point::{self, Step};
use crate::db::{now_ms, Backend, Pool};
use crate::error::{Code, Failure};
pub use crate::frames::MoveRecord;
use crate::frames::{Frame, MatchState, MatchStatus, MatchSummary, SeatView};
use crate::hub::Hub;
use crate::table::{Ending, GameKind, Hosted, Input};

pub(crate) mod replica;
pub(crate) mod spectating;

/// Who sits in a seat.
#[derive(Clone, Debug)]
pub enum Sitter {
    Person(User),
    Computer(String),
}

/// The moves a `match_state` carries: the last ones; the rest are read page by page with
/// `history`. A frame's size does not grow with the match (about 70 bytes a move).
pub(crate) const RECENT_MOVES: usize = 50;

/// The most moves one `history` answer carries (about 35 KiB).
pub(crate) const HISTORY_MAX: usize = 500;

/// A move in the match's list.
/// A match this process holds.
pub struct Live {
    pub id: i64,
    pub game: GameKind,
    pub options: Value,
    seed: u64,
    pub time_s: u32,
    /// Who may watch (a seated player changes it while the match runs).
    pub spectators: Spectators,
    pub seats: Vec<Sitter>,
    table: Hosted,
    pub moves: Vec<MoveRecord>,
    /// When the clock of the seat to act runs out.
    pub deadline: Option<i64>,
    pub ending: Option<Ending>,
    pub started: i64,
    /// The challenge it started from.
    pub challenge: Option<i64>,
    /// The clock's and the computer player's tasks for the current ply.
    tasks: Vec<tokio::task::AbortHandle>,
}

/// Who asks for a move.
#[derive(Clone, Copy, Debug)]
pub enum Mover {
    /// A person, from connection `conn`.
    Person { user: i64, conn: u64 },
    /// The clock ran out at `ply`.
    Clock { ply: u64 },
    /// The computer player of the seat to act at `ply`.
    Computer { ply: u64 },
    /// The server, answering the only answer there is at `ply` (a forced pass).
    Forced { ply: u64 },
}

impl Live {
    pub fn seat_of(&self, user: i64) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| matches!(s, Sitter::Person(u) if u.id == user))
    }

    pub fn people(&self) -> Vec<i64> {
        people(&self.seats)
    }

    pub fn to_move(&self) -> Option<usize> {
        if self.ending.is_some() {
            return None;
        }
        self.table.to_move()
    }

    /// How long a `pass` to the claim question put now waits before it is played and told:
    /// until the claim pause after the question, so that the server's forced pass and a
    /// seat's own quicker one reach everyone at the same moment (PROTOCOL.md, "Forced passes").
    fn claim_hold(&self, input: &Input, pause: Duration) -> Option<Duration> {
        let asked = self.deadline? - i64::from(self.time_s) * 1000;
        let wait = asked + pause.as_millis() as i64 - now_ms();
        (self.ending.is_none() && wait > 0 && self.table.is_claim_pass(input))
            .then(|| Duration::from_millis(wait as u64))
    }

    /// The summary the lobby lists.
    pub fn summary(&self) -> MatchSummary {
        MatchSummary {
            id: self.id,
            game: self.game.name().to_owned(),
            options: crate::economy::public_options(&self.options),
            rules: crate::rules::data(self.game, &self.options, self.time_s, self.spectators),
            time: self.time_s,
            private: self.spectators == Spectators::Private,
            spectators: self.spectators,
            seats: seat_views(self.game, &self.seats),
            ply: self.moves.len(),
            status: if self.ending.is_some() {
                MatchStatus::Over
            } else {
                MatchStatus::Running
            },
            started: self.started,
            challenge: self.challenge,
        }
    }

    pub(crate) fn view(&self, seat: Option<usize>) -> Value {
        match seat {
            Some(s) => self.table.seat_view(s),
            None => self.table.public_view(),
        }
    }

    /// The match as `seat` (or a spectator, `None`) may see it, with its last moves: `ply` moves
    /// played, `moves` those from index `from` on.
    pub fn state(&self, seat: Option<usize>) -> Value {
        let from = self.moves.len().saturating_sub(RECENT_MOVES);
        Frame::MatchState(Box::new(MatchState {
            summary: self.summary(),
            seat,
            view: self.view(seat),
            ply: self.moves.len(),
            from,
            moves: self.moves[from..].to_vec(),
            to_move: self.to_move(),
            deadline: self.deadline,
            remaining_ms: self.deadline.map(|d| (d - now_ms()).max(0)),
            result: self.ending.clone(),
        }))
        .json()
    }

    /// At most `count` moves (and [`HISTORY_MAX`]) of the list from index `from`: the same
    /// records `match_state` gives every seat and spectator alike (nothing hidden is in them).
    pub(crate) fn history(&self, from: u64, count: u64) -> Value {
        let ply = self.moves.len();
        let from = usize::try_from(from).map_or(ply, |f| f.min(ply));
        let count = usize::try_from(count).map_or(HISTORY_MAX, |c| c.min(HISTORY_MAX));
        let to = from + count.min(ply - from);
        Frame::History {
            match_id: self.id,
            ply,
            from,
            moves: self.moves[from..to].to_vec(),
        }
        .json()
    }

    /// `frame` for each seated person (built for their seat) and for the spectators.
    fn frames(&self, frame: impl Fn(Option<usize>) -> Value) -> (Vec<(i64, Value)>, Value) {
        let seats = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                Sitter::Person(u) => Some((u.id, frame(Some(i)))),
                Sitter::Computer(_) => None,
            })
            .collect();
        (seats, frame(None))
    }
}

/// The users in `seats` (the computer seats left out).
fn people(seats: &[Sitter]) -> Vec<i64> {
    seats
        .iter()
        .filter_map(|s| match s {
            Sitter::Person(u) => Some(u.id),
            Sitter::Computer(_) => None,
        })
        .collect()
}

pub fn seat_views(game: GameKind, seats: &[Sitter]) -> Vec<SeatView> {
    seats
        .iter()
        .map(|s| match s {
            Sitter::Person(u) => SeatView::Player {
                name: u.name.clone(),
                user: u.id,
            },
            Sitter::Computer(level) => SeatView::Computer {
                level: level.clone(),
                name: crate::robots::name_of(game, level).map(str::to_owned),
            },
        })
        .collect()
}

/// Reads match `id` from the database and replays it.
pub async fn load(pool: &Pool, id: i64) -> Result<Live, Failure> {
    let row = sqlx::query(
        "SELECT game, options, seed, time_s, private, broadcast, status, deadline, result, started, challenge_id FROM matches WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(|| Failure::new(Code::NoSuchMatch, format!("no match {id}")))?;
    let game_name: String = row.try_get("game")?;
    let game = GameKind::parse(&game_name).ok_or_else(|| Failure::internal(format!("match {id}: game {game_name}")))?;
    let options: Value = serde_json::from_str(&row.try_get::<String, _>("options")?)
        .map_err(|e| Failure::internal(format!("match {id} options: {e}")))?;
    let seed = row.try_get::<i64, _>("seed")? as u64;
    let time_s = row.try_get::<i64, _>("time_s")? as u32;
    let spectators = crate::spectators::from_columns(row.try_get("private")?, row.try_get("broadcast")?);
    let deadline: Option<i64> = row.try_get("deadline")?;
    let stored_result: Option<String> = row.try_get("result")?;
    let started: i64 = row.try_get("started")?;
    let challenge: Option<i64> = row.try_get("challenge_id")?;
    let seat_rows = sqlx::query(
        "SELECT match_seats.seat AS seat, match_seats.user_id AS user_id, match_seats.level AS level, users.name AS name \
         FROM match_seats LEFT JOIN users ON users.id = match_seats.user_id WHERE match_seats.match_id = $1 ORDER BY match_seats.seat",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let mut seats = Vec::new();
    for r in seat_rows {
        let user: Option<i64> = r.try_get("user_id")?;
        seats.push(match user {
            Some(uid) => Sitter::Person(User {
                id: uid,
                name: r.try_get("name")?,
            }),
            None => Sitter::Computer(r.try_get::<Option<String>, _>("level")?.unwrap_or_default()),
        });
    }
    let move_rows = sqlx::query("SELECT ply, seat, notation, timeout FROM moves WHERE match_id = $1 ORDER BY ply")
        .bind(id)
        .fetch_all(pool)
        .await?;
    let mut table =
        Hosted::new(game, &options, seed, time_s).map_err(|e| Failure::internal(format!("match {id}: {e}")))?;
    let mut moves = Vec::new();
    for r in move_rows {
        let notation: String = r.try_get("notation")?;
        let played = table
            .play(&Input::Notation(notation.clone()))
            .map_err(|e| Failure::internal(format!("match {id}: stored move {notation:?}: {}", e.message)))?;
        moves.push(MoveRecord {
            ply: r.try_get::<i64, _>("ply")? as u64,
            seat: r.try_get::<i64, _>("seat")? as usize,
            notation: played.notation,
            action: played.action,
            timeout: r.try_get::<i64, _>("timeout")? != 0,
        });
    }
    // A forfeit ends a match the table does not know is over: the stored result says so.
    let ending = match stored_result {
        Some(text) => Some(serde_json::from_str(&text).map_err(Failure::internal)?),
        None => None,
    };
    Ok(Live {
        id,
        game,
        options,
        seed,
        time_s,
        spectators,
        seats,
        table,
        moves,
        deadline,
        ending,
        started,
        challenge,
        tasks: Vec::new(),
    })
}

/// Creates a match (rows and all) inside `tx`; the caller commits, then calls [`start`].
#[allow(clippy::too_many_arguments)] // a match's every setting, and the economy its stakes go to
pub async fn create(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    economy: &crate::economy::Economy,
    game: GameKind,
    options: &Value,
    time_s: u32,
    spectators: Spectators,
    seats: Vec<Sitter>,
    challenge: Option<i64>,
) -> Result<Live, Failure> {
    let id = crate::db::new_id();
    let seed = getrandom::u64().map_err(|_| Failure::internal("no random source"))?;
    // Stakes put the seats' decks in play (and lock them) in this same transaction; the random
    // rule draws the hands from the seed.
    let people = [0, 1].map(|i| match seats.get(i) {
        Some(Sitter::Person(u)) => Some(u.id),
        _ => None,
    });
    let options = &economy
        .prepare_match(tx, id, game, options, people, challenge, seed)
        .await?;
    let table = Hosted::new(game, options, seed, time_s).map_err(|e| Failure::new(Code::BadChallenge, e))?;
    let started = now_ms();
    let deadline = started + i64::from(time_s) * 1000;
    sqlx::query(
        "INSERT INTO matches (id, game, options, seed, time_s, private, broadcast, status, ply, deadline, result, challenge_id, started, ended) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', 0, $8, NULL, $9, $10, NULL)",
    )
    .bind(id)
    .bind(game.name())
    .bind(options.to_string())
    .bind(seed as i64)
    .bind(i64::from(time_s))
    .bind(crate::spectators::columns(spectators).0)
    .bind(crate::spectators::columns(spectators).1)
    .bind(deadline)
    .bind(challenge)
    .bind(started)
    .execute(&mut **tx)
    .await?;
    for (i, s) in seats.iter().enumerate() {
        let (user, level) = match s {
            Sitter::Person(u) => (Some(u.id), None),
            Sitter::Computer(l) => (None, Some(l.clone())),
        };
        sqlx::query("INSERT INTO match_seats (match_id, seat, user_id, level, outcome) VALUES ($1, $2, $3, $4, NULL)")
            .bind(id)
            .bind(i as i64)
            .bind(user)
            .bind(level)
            .execute(&mut **tx)
            .await?;
    }
    Ok(Live {
        id,
        game,
        options: options.clone(),
        seed,
        time_s,
        spectators,
        seats,
        table,
        moves: Vec::new(),
        deadline: Some(deadline),
        ending: None,
        started,
        challenge,
        tasks: Vec::new(),
    })
}

/// Takes a committed new match into the hub and tells its seats and the lobby.
pub async fn start(hub: &Arc<Hub>, live: Live) {
    let id = live.id;
    let summary = live.summary();
    let (seats, _) = live.frames(|seat| {
        Frame::MatchStarted {
            summary: summary.clone(),
            seat,
        }
        .json()
    });
    let states: Vec<(i64, Value)> = live.frames(|seat| live.state(seat)).0;
    let private = live.spectators == Spectators::Private;
    let people = live.people();
    let handle = hub.hold(id, live);
    let mut guard = handle.lock().await;
    hub.relay.publish(Event::Match {
        match_id: id,
        seats,
        public: Value::Null,
        re: None,
    });
    hub.relay.publish(Event::Match {
        match_id: id,
        seats: states,
        public: Value::Null,
        re: None,
    });
    hub.relay.publish(Event::Lobby {
        msg: Frame::MatchListed { summary }.json(),
        listed: !private,
        also: people,
    });
    schedule(hub, &mut guard);
}

/// Takes a match loaded from the database (after a restart) into the hub, its clock running
/// from the stored deadline.
pub fn resume(hub: &Arc<Hub>, live: Live) {
    let handle = hub.hold(live.id, live);
    let hub = hub.clone();
    tokio::spawn(async move {
        let mut guard = handle.lock().await;
        schedule(&hub, &mut guard);
    });
}

/// Loads every running match and takes it into the hub.
pub async fn resume_all(hub: &Arc<Hub>) -> anyhow::Result<usize> {
    let ids: Vec<i64> = sqlx::query("SELECT id FROM matches WHERE status = 'running'")
        .fetch_all(&hub.pool)
        .await?
        .iter()
        .map(|r| r.try_get("id"))
        .collect::<Result<_, _>>()?;
    for &id in &ids {
        let live = load(&hub.pool, id)
            .await
            .map_err(|f| anyhow::anyhow!("match {id}: {}", f.message))?;
        resume(hub, live);
    }
    Ok(ids.len())
}

/// Starts the tasks of the current ply: the clock, and the computer player if one is to act.
fn schedule(hub: &Arc<Hub>, live: &mut Live) {
    for t in live.tasks.drain(..) {
        t.abort();
    }
    if !replica::acts_for(hub, live.id) {
        return;
    }
    let (Some(seat), Some(deadline)) = (live.to_move(), live.deadline) else {
        return;
    };
    let ply = live.moves.len() as u64;
    let id = live.id;
    let wait = Duration::from_millis((deadline - now_ms()).max(0) as u64);
    let h = hub.clone();
    live.tasks.push(
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            // A task of its own: the next move aborts this one's handle, never the move.
            tokio::spawn(async move { timeout(&h, id, ply).await });
        })
        .abort_handle(),
    );
    if let Some(input) = live.table.forced_move() {
        // Nobody is kept waiting for the only answer there is: it comes when a seat's own
        // quickest would (a seat that answers itself first makes this one moot).
        let hold = live.claim_hold(&input, hub.config.claim_pause).unwrap_or_default();
        let h = hub.clone();
        live.tasks.push(
            tokio::spawn(async move {
                tokio::time::sleep(hold).await;
                tokio::spawn(async move { server_move(&h, id, Mover::Forced { ply }, input, deadline).await });
            })
            .abort_handle(),
        );
    } else if let Sitter::Computer(level) = &live.seats[seat] {
        let table = live.table.clone();
        let level = level.clone();
        let seed = live.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The host's think time, never past the clock: a level that searches by time (Trax's)
        // spends all of it, the others stop within their own budget.
        let think = hub.config.think_ms.min(wait.as_millis() as u64 * 9 / 10);
        let h = hub.clone();
        live.tasks.push(
            tokio::spawn(async move {
                let chosen = tokio::task::spawn_blocking(move || {
                    let mut stop = arbiter_core::deadline(think);
                    table.choose(&level, &mut Rng::new(seed), Budget::clock(&mut stop))
                })
                .await;
                match chosen {
                    Ok(Some(input)) => {
                        tokio::spawn(
                            async move { server_move(&h, id, Mover::Computer { ply }, input, deadline).await },
                        );
                    }
                    Ok(None) => tracing::warn!("match {id}: the computer found no move at ply {ply}"),
                    Err(e) => tracing::warn!("match {id}: the computer's thinking failed at ply {ply}: {e}"),
                }
            })
            .abort_handle(),
        );
    }
}

/// A move the server makes at a ply (a computer seat's, or a forced one), tried again while
/// the server fails to store it (a database error: nothing changed) until the ply's
/// `deadline`, when the clock's timeout move takes over; a move the rules refuse is not tried
/// again.
async fn server_move(hub: &Arc<Hub>, id: i64, mover: Mover, input: Input, deadline: i64) {
    let mut pause = RETRY_FIRST;
    loop {
        match play(hub, id, mover, input.clone(), None, None).await {
            Ok(()) => return,
            Err(f) if f.code == Code::Internal && now_ms() + (pause.as_millis() as i64) < deadline => {
                tracing::warn!("match {id}: the server's move ({mover:?}) was not stored; trying again");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(RETRY_MAX);
            }
            Err(f) => {
                tracing::warn!("match {id}: the server's move ({mover:?}) not played: {}", f.message);
                return;
            }
        }
    }
}

/// The pauses between a computer seat's attempts: doubling from the first to the longest.
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_MAX: Duration = Duration::from_secs(2);

async fn timeout(hub: &Arc<Hub>, id: i64, ply: u64) {
    let Some(handle) = hub.live(id) else { return };
    let input = {
        let live = handle.lock().await;
        if live.moves.len() as u64 != ply {
            return;
        }
        live.table.timeout_move()
    };
    if let Some(input) = input {
        if let Err(f) = play(hub, id, Mover::Clock { ply }, input, None, None).await {
            tracing::warn!("match {id}: timeout move refused: {}", f.message);
        }
    }
}

/// Plays `input` in match `id` for `mover`, or says why not (and nothing changes).
pub async fn play(
    hub: &Arc<Hub>,
    id: i64,
    mover: Mover,
    input: Input,
    ply: Option<u64>,
    re: Option<Value>,
) -> Result<(), Failure> {
    let handle = hub.live(id).ok_or_else(|| match mover {
        Mover::Person { .. } => Failure::new(Code::NoSuchMatch, format!("no running match {id}")),
        _ => Failure::new(Code::MatchOver, "the match is over"),
    })?;
    let hold = handle.lock().await.claim_hold(&input, hub.config.claim_pause);
    if let Some(hold) = hold {
        tokio::time::sleep(hold).await;
    }
    let mut live = handle.lock().await;
    if live.ending.is_some() {
        return Err(Failure::new(Code::MatchOver, "the match is over"));
    }
    let current = live.moves.len() as u64;
    let seat = live
        .to_move()
        .ok_or_else(|| Failure::new(Code::MatchOver, "the match is over"))?;
    let timeout = match mover {
        Mover::Person { user, .. } => {
            let mine = live
                .seat_of(user)
                .ok_or_else(|| Failure::new(Code::NotSeated, "you do not sit in this match"))?;
            if let Some(p) = ply.filter(|&p| p != current) {
                return Err(Failure::new(
                    Code::StalePly,
                    format!("the match is at ply {current}, not {p}"),
                ));
            }
            if mine != seat {
                return Err(Failure::new(
                    Code::NotYourTurn,
                    format!(
                        "seat {seat} ({}) is to act, not yours ({mine})",
                        sitter_name(&live.seats[seat])
                    ),
                ));
            }
            false
        }
        // A clock or a computer player that fired for a ply already played: nothing to do.
        Mover::Clock { ply } | Mover::Computer { ply } | Mover::Forced { ply } if ply != current => return Ok(()),
        Mover::Clock { .. } => true,
        Mover::Computer { .. } | Mover::Forced { .. } => false,
    };
    let mut table = live.table.clone();
    let played = table.play(&input).map_err(|r| Failure::new(r.code, r.message))?;
    let ending = table.ending();
    let now = now_ms();
    let deadline = ending.is_none().then(|| now + i64::from(live.time_s) * 1000);
    let new_ply = current + 1;

    let row = MoveRow {
        match_id: id,
        ply: current,
        seat,
        notation: played.notation.clone(),
        timeout,
        at: now,
        deadline,
    };
    let settlement = match ending.clone() {
        None => {
            hub.commits.commit_move(row).await?;
            None
        }
        // On SQLite the last move and the match's end go through the writer as well: every
        // commit queues for its one connection, and one of its own would cost an fsync.
        Some(e) if hub.backend == Backend::Sqlite => {
            let (h, game, seats, t) = (hub.clone(), live.game, live.seats.clone(), table.clone());
            hub.commits
                .run(move |tx| {
                    Box::pin(async move {
                        commit::write(tx, &row, Some(&e)).await?;
                        finish(tx, &h, id, game, &seats, &e, t.tt_match()).await
                    })
                })
                .await?
        }
        // On PostgreSQL it keeps a transaction of its own: the settlement locks both players'
        // wallet rows and may wait for them, which inside a batch would hold every other
        // match's move. (The pool has connections to spare.)
        Some(e) => {
            let mut tx = hub.pool.begin().await?;
            commit::write(&mut tx, &row, Some(&e)).await?;
            let settlement = finish(&mut tx, hub, id, live.game, &live.seats, &e, table.tt_match()).await?;
            tx.commit().await?;
            settlement
        }
    };
    if ending.is_some() {
        crash_point::reached(Step::ResultCommitted);
    }

    // Committed: now the match advances and everyone is told.
    live.table = table;
    live.deadline = deadline;
    live.moves.push(MoveRecord {
        ply: new_ply,
        seat,
        notation: played.notation,
        action: played.action,
        timeout,
    });
    let record = live.moves.last().expect("just pushed").clone();
    let to_move = live.table.to_move();
    let (seats, public) = live.frames(|s| {
        Frame::Moved {
            match_id: id,
            record: record.clone(),
            view: live.view(s),
            to_move,
            deadline,
            remaining_ms: deadline.map(|d| (d - now).max(0)),
        }
        .json()
    });
    let re = match (mover, re) {
        (Mover::Person { conn, .. }, Some(r)) => Some((conn, r)),
        _ => None,
    };
    hub.relay.publish(Event::Match {
        match_id: id,
        seats,
        public,
        re,
    });
    if live.spectators == Spectators::Broadcast {
        hub.relay.publish(spectating::broadcast(&live, &record));
    }
    match ending {
        Some(e) => end(hub, &mut live, e),
        None => schedule(hub, &mut live),
    }
    if let Some(s) = settlement {
        tell_settlement(hub, id, &s).await;
    }
    Ok(())
}

fn sitter_name(s: &Sitter) -> String {
    match s {
        Sitter::Person(u) => u.name.clone(),
        Sitter::Computer(level) => format!("computer {level}"),
    }
}

/// Match `id`, locked, if it is running here (what a seat's request other than a move acts on).
pub async fn running(hub: &Hub, id: i64) -> Result<tokio::sync::OwnedMutexGuard<Live>, Failure> {
    let handle = hub
        .live(id)
        .ok_or_else(|| Failure::new(Code::NoSuchMatch, format!("no running match {id}")))?;
    let live = handle.lock_owned().await;
    if live.ending.is_some() {
        return Err(Failure::new(Code::MatchOver, "the match is over"));
    }
    Ok(live)
}

/// `user` leaves match `id`: a forfeit, and "did not finish" in their stats while another seat
/// is still there to play on (a computer seat, or a person online through any process); leaving
/// players who have all gone is a plain loss (the MUSH's `+TT/Cancel`). Either way a Triple
/// Triad match is lost by the leaver: its stakes are settled by the trade rule as after any
/// loss (leaving never saves a card). Returns whether it counted as "did not finish".
pub async fn leave(hub: &Arc<Hub>, id: i64, user: i64) -> Result<bool, Failure> {
    let mut live = running(hub, id).await?;
    let seat = live
        .seat_of(user)
        .ok_or_else(|| Failure::new(Code::NotSeated, "you do not sit in this match"))?;
    let online: Vec<i64> = hub.online_anywhere().iter().map(|u| u.id).collect();
    let dnf = live.seats.iter().enumerate().any(|(s, sitter)| {
        s != seat
            && match sitter {
                Sitter::Person(u) => online.contains(&u.id),
                Sitter::Computer(_) => true,
            }
    });
    let ending = Ending::forfeit(live.seats.len(), seat, dnf);
    let forfeited = match live.table.tt_match() {
        Some(m) => {
            let mut m = m.clone();
            m.forfeit(Player::BOTH[seat]).map_err(Failure::internal)?;
            Some(m)
        }
        None => None,
    };
    let mut tx = hub.pool.begin().await?;
    let done = sqlx::query(
        "UPDATE matches SET status = 'over', deadline = NULL, result = $1, ended = $2 WHERE id = $3 AND ply = $4 AND status = 'running'",
    )
    .bind(serde_json::to_string(&ending).unwrap_or_default())
    .bind(now_ms())
    .bind(id)
    .bind(live.moves.len() as i64)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        return Err(Failure::internal(format!("match {id}: not the stored state")));
    }
    let settlement = finish(&mut tx, hub, id, live.game, &live.seats, &ending, forfeited.as_ref()).await?;
    tx.commit().await?;
    crash_point::reached(Step::ResultCommitted);
    live.deadline = None;
    end(hub, &mut live, ending);
    if let Some(s) = settlement {
        tell_settlement(hub, id, &s).await;
    }
    Ok(dnf)
}

/// The end of a match in the database, inside the transaction of its last move or its
/// forfeit: each seat's outcome and each person's stats. The one place a match's end changes
/// anything beyond the match: stakes (cards changing collections) belong here.
async fn finish(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    hub: &Hub,
    id: i64,
    game: GameKind,
    seats: &[Sitter],
    ending: &Ending,
    tt: Option<&Match>,
) -> Result<Option<crate::economy::Settlement>, Failure> {
    for (i, (sitter, outcome)) in seats.iter().zip(&ending.outcome).enumerate() {
        sqlx::query("UPDATE match_seats SET outcome = $1 WHERE match_id = $2 AND seat = $3")
            .bind(outcome.name())
            .bind(id)
            .bind(i as i64)
            .execute(&mut **tx)
            .await?;
        // A computer seat's record is its robot's, where the level has one.
        let user = match sitter {
            Sitter::Person(user) => user.id,
            Sitter::Computer(level) => match hub.robots.account(game, level) {
                Some((id, _)) => id,
                None => continue,
            },
        };
        let column = outcome.name();
        // The column name comes from a closed set of four: no injection.
        let sql = format!(
            "INSERT INTO stats (user_id, game, played, won, lost, drawn, dnf) VALUES ($1, $2, 1, $3, $4, $5, $6) \
             ON CONFLICT (user_id, game) DO UPDATE SET played = stats.played + 1, {column} = stats.{column} + 1"
        );
        let one = |c: &str| i64::from(c == column);
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(user)
            .bind(game.name())
            .bind(one("won"))
            .bind(one("lost"))
            .bind(one("drawn"))
            .bind(one("dnf"))
            .execute(&mut **tx)
            .await?;
    }
    // Kept until told, with the end itself: a player away now, or a crash before the frame goes
    // out, still hears of it at the next login.
    crate::told::keep(tx, id, &people(seats), &over_frame(id, ending)).await?;
    // The stakes: rewards, bets and the cards the rule moves, in this same transaction.
    let settlement = hub.economy.match_ended(tx, id, tt).await?;
    crash_point::reached(Step::ResultWritten);
    Ok(settlement)
}

/// Tells the two players what the end of their match did with the cards: the winner's choice to
/// make (its clock armed), or the cards that moved.
pub async fn tell_settlement(hub: &Arc<Hub>, id: i64, s: &crate::economy::Settlement) {
    let users = s.users.clone();
    if let Some((chooser, count, deadline)) = s.choosing {
        let msg = choice_frame(id, chooser, count, deadline);
        hub.relay.publish(Event::Users { users, msg });
        arm_choice(hub, id, deadline);
        return;
    }
    if let Some(msg) = s.frame.clone() {
        hub.relay.publish(Event::Users { users, msg });
    }
}

/// The `tt_choose` frame: `chooser` takes `count` cards of match `id` by `deadline`.
pub fn choice_frame(id: i64, chooser: i64, count: u8, deadline: i64) -> Value {
    Frame::TtChoose {
        match_id: id,
        chooser,
        count,
        deadline,
    }
    .json()
}

/// When the winner's clock runs out, the choice is made for them (the highest levels).
pub fn arm_choice(hub: &Arc<Hub>, id: i64, deadline: i64) {
    let hub = hub.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis((deadline - now_ms()).max(0) as u64)).await;
        match hub.economy.choose(id, None, &[]).await {
            Ok(s) => Box::pin(tell_settlement(&hub, id, &s)).await,
            Err(f) if f.code == Code::NothingToChoose || f.code == Code::AlreadySettled => {}
            Err(f) => tracing::warn!("match {id}: the choice's clock: {}", f.message),
        }
    });
}

/// A match that ended (its end committed): tell everyone, stop its clock, let it go.
fn end(hub: &Arc<Hub>, live: &mut Live, ending: Ending) {
    for t in live.tasks.drain(..) {
        t.abort();
    }
    let msg = over_frame(live.id, &ending);
    live.ending = Some(ending);
    let (seats, public) = live.frames(|_| msg.clone());
    hub.relay.publish(Event::Match {
        match_id: live.id,
        seats,
        public,
        re: None,
    });
    hub.relay.publish(Event::Lobby {
        msg: Frame::MatchUnlisted { match_id: live.id }.json(),
        listed: live.spectators != Spectators::Private,
        also: live.people(),
    });
    hub.release(live.id);
    replica::let_go(hub, live.id);
}

/// The `match_over` frame of match `id`.
fn over_frame(id: i64, ending: &Ending) -> Value {
    Frame::MatchOver {
        match_id: id,
        result: ending.clone(),
    }
    .json()
}
