//! Challenges and the lobby: a challenge names its game, options, clock and seats; people take
//! their seats by accepting; when every person's seat is taken the match starts in the same
//! transaction that closes the challenge.

use std::sync::Arc;

use arbiter_core::tripletriad::Spectators;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::Row as _;

use crate::accounts::User;
use crate::bus::Event;
use crate::db::{new_id, now_ms};
use crate::error::Failure;
use crate::hub::Hub;
use crate::live::{self, Sitter};
use crate::protocol::SeatRequest;
use crate::table::GameKind;

/// Seconds a move: the French server's range.
pub const TIME_RANGE: std::ops::RangeInclusive<u32> = 15..=300;

/// A seat of a challenge as stored.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Seat {
    /// Invited by name; `user` once taken.
    Player {
        name: String,
        user: Option<User>,
    },
    Open {
        user: Option<User>,
    },
    Computer {
        level: String,
    },
}

impl Seat {
    fn user(&self) -> Option<&User> {
        match self {
            Seat::Player { user, .. } | Seat::Open { user } => user.as_ref(),
            Seat::Computer { .. } => None,
        }
    }

    fn json(&self) -> Value {
        match self {
            Seat::Player { name, user } => json!({"kind": "player", "name": name, "taken": user.is_some()}),
            Seat::Open { user } => {
                json!({"kind": "open", "taken": user.is_some(), "name": user.as_ref().map(|u| u.name.clone())})
            }
            Seat::Computer { level } => json!({"kind": "computer", "level": level}),
        }
    }
}

struct Challenge {
    id: i64,
    by: User,
    game: GameKind,
    options: Value,
    seats: Vec<Seat>,
    time_s: u32,
    spectators: Spectators,
    created: i64,
}

impl Challenge {
    fn json(&self) -> Value {
        json!({
            "id": self.id, "game": self.game.name(), "options": self.options, "time": self.time_s,
            "private": self.private(), "spectators": crate::spectators::name(self.spectators), "by": self.by, "seats": self.seats.iter().map(Seat::json).collect::<Vec<_>>(),
            "created": self.created,
        })
    }

    fn private(&self) -> bool {
        self.spectators == Spectators::Private
    }

    /// Listed in everyone's lobby: not private, with a seat anyone may take.
    fn listed(&self) -> bool {
        !self.private() && self.seats.iter().any(|s| matches!(s, Seat::Open { user: None }))
    }

    /// Everyone the challenge concerns by name.
    fn involved(&self) -> Vec<i64> {
        let mut users = vec![self.by.id];
        users.extend(self.seats.iter().filter_map(|s| s.user().map(|u| u.id)));
        users
    }

    fn invites(&self, user: &User) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s, Seat::Player { name, .. } if name.eq_ignore_ascii_case(&user.name)))
    }

    fn visible_to(&self, user: &User) -> bool {
        self.listed() || self.by.id == user.id || self.invites(user)
    }

    fn complete(&self) -> bool {
        self.seats
            .iter()
            .all(|s| matches!(s, Seat::Computer { .. }) || s.user().is_some())
    }
}

fn from_row(r: &crate::db::Row) -> Result<Challenge, Failure> {
    let game: String = r.try_get("game")?;
    let bad = |what: &str| Failure::internal(format!("challenge row: {what}"));
    Ok(Challenge {
        id: r.try_get("id")?,
        by: User {
            id: r.try_get("by_user")?,
            name: r.try_get("by_name")?,
        },
        game: GameKind::parse(&game).ok_or_else(|| bad("game"))?,
        options: serde_json::from_str(&r.try_get::<String, _>("options")?).map_err(|_| bad("options"))?,
        seats: serde_json::from_str(&r.try_get::<String, _>("seats")?).map_err(|_| bad("seats"))?,
        time_s: r.try_get::<i64, _>("time_s")? as u32,
        spectators: crate::spectators::from_columns(r.try_get("private")?, r.try_get("broadcast")?),
        created: r.try_get("created")?,
    })
}

const SELECT: &str =
    "SELECT challenges.id AS id, challenges.by_user AS by_user, users.name AS by_name, challenges.game AS game, \
                      challenges.options AS options, challenges.seats AS seats, challenges.time_s AS time_s, \
                      challenges.private AS private, challenges.broadcast AS broadcast, challenges.created AS created \
                      FROM challenges JOIN users ON users.id = challenges.by_user";

async fn fetch(hub: &Hub, id: i64, user: &User) -> Result<(Challenge, String), Failure> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE challenges.id = $1 AND challenges.status = 'open'"
    )))
    .bind(id)
    .fetch_optional(&hub.pool)
    .await?;
    let missing = || Failure::new("no_such_challenge", format!("no open challenge {id}"));
    let row = row.ok_or_else(missing)?;
    let c = from_row(&row)?;
    // A private challenge is accepted by id even by someone it does not name.
    if !c.visible_to(user) && !c.private() {
        return Err(missing());
    }
    let seats: String = row.try_get("seats")?;
    Ok((c, seats))
}

/// A new challenge by `by`.
pub async fn create(
    hub: &Arc<Hub>,
    by: &User,
    game: &str,
    options: Option<Value>,
    seats: Option<Vec<SeatRequest>>,
    time: Option<u32>,
    spectators: Spectators,
) -> Result<Value, Failure> {
    let bad = |m: String| Failure::new("bad_challenge", m);
    let game = GameKind::parse(game).ok_or_else(|| {
        bad(format!(
            "unknown game {:?} (expected {})",
            game.chars().take(40).collect::<String>(),
            GameKind::ALL.map(GameKind::name).join(", ")
        ))
    })?;
    let time_s = time.unwrap_or(60);
    if !TIME_RANGE.contains(&time_s) {
        return Err(bad(format!("time is {time_s} s a move: 15 to 300")));
    }
    let options = options.unwrap_or_else(|| json!({}));
    if !options.is_object() {
        return Err(bad("options is an object".into()));
    }
    let options = game.check_options(&options, time_s).map_err(bad)?;
    let requests = seats.unwrap_or_else(|| {
        let mut s = vec![SeatRequest::Me];
        s.resize(game.seats(), SeatRequest::Open);
        s
    });
    if requests.len() != game.seats() {
        return Err(bad(format!(
            "{} has {} seats, not {}",
            game.name(),
            game.seats(),
            requests.len()
        )));
    }
    if requests.iter().filter(|s| **s == SeatRequest::Me).count() != 1 {
        return Err(bad("exactly one seat is yours ({\"kind\": \"me\"})".into()));
    }
    let mut seats = Vec::new();
    let mut named = Vec::new();
    for r in requests {
        seats.push(match r {
            SeatRequest::Me => Seat::Player {
                name: by.name.clone(),
                user: Some(by.clone()),
            },
            SeatRequest::Open => Seat::Open { user: None },
            SeatRequest::Computer { level } => {
                let level = level.trim().to_ascii_lowercase();
                if !game.levels().contains(&level.as_str()) {
                    return Err(bad(format!(
                        "unknown level {level:?} (expected {})",
                        game.levels().join(", ")
                    )));
                }
                Seat::Computer { level }
            }
            SeatRequest::Player { name } => {
                let user = hub.accounts.find(&name).await?;
                if user.id == by.id || named.contains(&user.id) {
                    return Err(bad(format!("{} would sit twice", user.name)));
                }
                named.push(user.id);
                Seat::Player {
                    name: user.name,
                    user: None,
                }
            }
        });
    }
    let c = Challenge {
        id: new_id(),
        by: by.clone(),
        game,
        options,
        seats,
        time_s,
        spectators,
        created: now_ms(),
    };
    let mut tx = hub.pool.begin().await?;
    sqlx::query(
        "INSERT INTO challenges (id, by_user, game, options, seats, time_s, private, broadcast, status, created, match_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, NULL)",
    )
    .bind(c.id)
    .bind(by.id)
    .bind(game.name())
    .bind(c.options.to_string())
    .bind(serde_json::to_string(&c.seats).unwrap_or_default())
    .bind(i64::from(time_s))
    .bind(crate::spectators::columns(spectators).0)
    .bind(crate::spectators::columns(spectators).1)
    .bind(c.created)
    .execute(&mut *tx)
    .await?;
    if c.complete() {
        // Nobody to wait for: the match starts at once.
        let started = start_match(&mut tx, hub, &c).await?;
        commit_match(tx, hub, started.id).await?;
        let reply = json!({"type": "challenge_created", "challenge": c.json()});
        let hub = hub.clone();
        // After the reply, so that the challenger hears of the challenge before its match.
        tokio::spawn(async move { live::start(&hub, started).await });
        return Ok(reply);
    }
    tx.commit().await?;
    let mut also = c.involved();
    also.extend(named);
    hub.relay.publish(Event::Lobby {
        msg: json!({"type": "challenge_open", "challenge": c.json()}),
        listed: c.listed(),
        also,
    });
    Ok(json!({"type": "challenge_created", "challenge": c.json()}))
}

/// Inserts the match of a complete challenge and closes the challenge, inside `tx`.
async fn start_match(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    hub: &Hub,
    c: &Challenge,
) -> Result<live::Live, Failure> {
    let sitters = c
        .seats
        .iter()
        .map(|s| match s {
            Seat::Computer { level } => Sitter::Computer(level.clone()),
            s => Sitter::Person(s.user().cloned().expect("a complete challenge")),
        })
        .collect();
    let m = live::create(
        tx,
        &hub.economy,
        c.game,
        &c.options,
        c.time_s,
        c.spectators,
        sitters,
        Some(c.id),
    )
    .await?;
    sqlx::query("UPDATE challenges SET status = 'started', match_id = $1 WHERE id = $2")
        .bind(m.id)
        .bind(c.id)
        .execute(&mut **tx)
        .await?;
    // Owned before it is committed: from the commit on, another process's sweep would take a
    // running match nobody owns, and the match would start elsewhere than where it was made.
    live::replica::claim(hub, tx, m.id).await?;
    Ok(m)
}

/// Commits the transaction that created match `id`, and lets the match go if it fails.
async fn commit_match(tx: sqlx::Transaction<'_, sqlx::Any>, hub: &Hub, id: i64) -> Result<(), Failure> {
    let committed = tx.commit().await;
    if committed.is_err() {
        live::replica::let_go(hub, id);
    }
    Ok(committed?)
}

pub async fn accept(hub: &Arc<Hub>, id: i64, user: &User) -> Result<Value, Failure> {
    let (mut c, stored) = fetch(hub, id, user).await?;
    if c.by.id == user.id {
        return Err(Failure::new("own_challenge", "this is your own challenge"));
    }
    if c.seats.iter().any(|s| s.user().is_some_and(|u| u.id == user.id)) {
        return Err(Failure::new("not_invited", "you already sit in this challenge"));
    }
    let seat = c
        .seats
        .iter()
        .position(|s| matches!(s, Seat::Player { name, user: None } if name.eq_ignore_ascii_case(&user.name)))
        .or_else(|| c.seats.iter().position(|s| matches!(s, Seat::Open { user: None })))
        .ok_or_else(|| Failure::new("not_invited", "no seat of this challenge is yours or open"))?;
    match &mut c.seats[seat] {
        Seat::Player { user: u, .. } | Seat::Open { user: u } => *u = Some(user.clone()),
        Seat::Computer { .. } => unreachable!("found a person's seat"),
    }
    let mut tx = hub.pool.begin().await?;
    // Only if nobody changed it since it was read (another accept through another connection).
    let taken = sqlx::query("UPDATE challenges SET seats = $1 WHERE id = $2 AND seats = $3 AND status = 'open'")
        .bind(serde_json::to_string(&c.seats).unwrap_or_default())
        .bind(id)
        .bind(stored)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Failure::new(
            "no_such_challenge",
            "the challenge changed meanwhile: look again",
        ));
    }
    let started = if c.complete() {
        Some(start_match(&mut tx, hub, &c).await?)
    } else {
        None
    };
    match &started {
        Some(m) => commit_match(tx, hub, m.id).await?,
        None => tx.commit().await?,
    }
    match started {
        Some(m) => {
            close(hub, &c, "started", &[]);
            let hub = hub.clone();
            tokio::spawn(async move { live::start(&hub, m).await });
        }
        None => hub.relay.publish(Event::Lobby {
            msg: json!({"type": "challenge_open", "challenge": c.json()}),
            listed: !c.private(),
            also: c.involved(),
        }),
    }
    Ok(json!({"type": "accepted", "challenge": id, "seat": seat}))
}

fn close(hub: &Hub, c: &Challenge, reason: &str, also: &[i64]) {
    let mut users = c.involved();
    users.extend(also);
    hub.relay.publish(Event::Lobby {
        msg: json!({"type": "challenge_closed", "challenge": c.id, "reason": reason}),
        listed: !c.private(),
        also: users,
    });
}

/// Refuse (an invited player) or withdraw (the challenger).
pub async fn decline(hub: &Arc<Hub>, id: i64, user: &User, withdraw: bool) -> Result<Value, Failure> {
    let (c, _) = fetch(hub, id, user).await?;
    if withdraw && c.by.id != user.id {
        return Err(Failure::new(
            "not_challenger",
            "only its challenger withdraws a challenge",
        ));
    }
    if !withdraw && !c.invites(user) {
        return Err(Failure::new("not_invited", "this challenge does not invite you"));
    }
    let status = if withdraw { "withdrawn" } else { "refused" };
    let done = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
        .bind(status)
        .bind(id)
        .execute(&hub.pool)
        .await?;
    if done.rows_affected() != 1 {
        return Err(Failure::new("no_such_challenge", format!("no open challenge {id}")));
    }
    close(hub, &c, status, &[user.id]);
    Ok(json!({"type": "challenge_closed", "challenge": id, "reason": status}))
}

/// The lobby as `user` sees it now.
pub async fn lobby(hub: &Hub, user: &User) -> Result<Value, Failure> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE challenges.status = 'open' ORDER BY challenges.created"
    )))
    .fetch_all(&hub.pool)
    .await?;
    let mut challenges = Vec::new();
    for r in &rows {
        let c = from_row(r)?;
        if c.visible_to(user) {
            challenges.push(c.json());
        }
    }
    let ids: Vec<i64> =
        sqlx::query("SELECT id FROM matches WHERE status = 'running' AND private = $1 ORDER BY started")
            .bind(0i64)
            .fetch_all(&hub.pool)
            .await?
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?;
    let mut matches = Vec::new();
    for id in ids {
        // Held here: the live summary; held by another process: its stored rows.
        let summary = match hub.live(id) {
            Some(h) => h.lock().await.summary(),
            None => match live::load(&hub.pool, id).await {
                Ok(l) => l.summary(),
                Err(_) => continue,
            },
        };
        matches.push(summary);
    }
    Ok(json!({"type": "lobby", "online": crate::cluster::online(hub), "challenges": challenges, "matches": matches}))
}
