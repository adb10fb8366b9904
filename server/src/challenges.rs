//! Challenges and the lobby: a challenge names its game, options, clock and seats; people take
//! their seats by accepting; when every person's seat is taken the match starts in the same
//! transaction that closes the challenge (after the picking window, `picking`, when someone
//! still has to name the five cards they play).

use std::sync::Arc;

use arbiter_economy::Spectators;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::Row as _;

use crate::accounts::User;
use crate::bus::Event;
use crate::db::{new_id, now_ms};
use crate::economy::Pick;
use crate::error::{Code, Failure};
use crate::frames::{ChallengeSeat, ChallengeView, Closing, Frame};
use crate::hub::Hub;
use crate::live::{self, Sitter};
use crate::protocol::SeatRequest;
use crate::table::GameKind;

mod picking;

pub use picking::pick;
pub(crate) use picking::resume as resume_picking;

/// Seconds a move: the French server's range.
pub const TIME_RANGE: std::ops::RangeInclusive<u32> = 15..=300;

/// The most bytes a challenge's options take as JSON: every challenge and match summary of a
/// lobby page echoes them (the largest the rules admit, every Triple Triad rule and a wall on
/// each side of each cell, takes under 3 KiB).
pub(crate) const OPTIONS_MAX: usize = 4096;

/// The most characters of `options.words`, the rules as the text game words them.
pub(crate) const WORDS_MAX: usize = 200;

/// The most entries of each list (challenges, matches, people online) one `lobby` reply holds,
/// and its default.
pub(crate) const PAGE_MAX: usize = 50;

/// The most bytes of challenges, and of matches, one `lobby` reply holds (a page ends early
/// rather than go over): with the people online, a page stays under what a connection writes
/// in one frame (`a_full_page_fits_in_a_frame`), however large its entries.
const LIST_BYTES: usize = crate::protocol::FRAME_OUT_MAX / 4;

/// Open challenges read at most for one page, however few of them its asker may see: a page
/// may come back short, its `next` going on from the last one read.
const SCAN_PER_PAGE: usize = 10 * PAGE_MAX;

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

    fn view(&self, game: GameKind) -> ChallengeSeat {
        match self {
            Seat::Player { name, user } => ChallengeSeat::Player {
                name: name.clone(),
                taken: user.is_some(),
            },
            Seat::Open { user } => ChallengeSeat::Open {
                taken: user.is_some(),
                name: user.as_ref().map(|u| u.name.clone()),
            },
            Seat::Computer { level } => ChallengeSeat::Computer {
                level: level.clone(),
                name: crate::robots::name_of(game, level).map(str::to_owned),
            },
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
    fn view(&self) -> ChallengeView {
        ChallengeView {
            id: self.id,
            game: self.game.name().to_owned(),
            options: self.options.clone(),
            rules: crate::rules::data(self.game, &self.options, self.time_s, self.spectators),
            time: self.time_s,
            private: self.private(),
            spectators: self.spectators,
            by: self.by.clone(),
            seats: self.seats.iter().map(|s| s.view(self.game)).collect(),
            created: self.created,
        }
    }

    fn json(&self) -> Value {
        serde_json::to_value(self.view()).expect("a challenge is JSON")
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
    let missing = || Failure::new(Code::NoSuchChallenge, format!("no open challenge {id}"));
    let row = row.ok_or_else(missing)?;
    let c = from_row(&row)?;
    // A private challenge is accepted by id even by someone it does not name.
    if !c.visible_to(user) && !c.private() {
        return Err(missing());
    }
    let seats: String = row.try_get("seats")?;
    Ok((c, seats))
}

/// Options only the server writes: the hands stakes bring (at a match's start) and the rules as
/// the text interface words them (its own challenges).
const SERVER_OPTIONS: [&str; 2] = ["hands", "words"];

/// A WebSocket client's challenge options, refused if they hold a field only the server writes.
pub(crate) fn client_options(options: Option<Value>) -> Result<Option<Value>, Failure> {
    if let Some(field) = SERVER_OPTIONS
        .into_iter()
        .find(|f| options.as_ref().and_then(|o| o.get(f)).is_some())
    {
        return Err(Failure::new(
            Code::BadChallenge,
            format!("options.{field} is written by the server, never by a client"),
        ));
    }
    Ok(options)
}

/// A new challenge by `by`, with the five cards the challenger plays (`cards`; or
/// `options.deck`, or their current deck) when its game plays picked hands.
#[allow(clippy::too_many_arguments)] // a challenge's every field, as both interfaces give them
pub async fn create(
    hub: &Arc<Hub>,
    by: &User,
    game: &str,
    options: Option<Value>,
    seats: Option<Vec<SeatRequest>>,
    time: Option<u32>,
    spectators: Spectators,
    cards: Option<Vec<String>>,
) -> Result<Value, Failure> {
    let bad = |m: String| Failure::new(Code::BadChallenge, m);
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
    check_free_text(&options).map_err(bad)?;
    let options = game.check_options(&options, time_s).map_err(bad)?;
    // The challenger's cards stay with the seat, unlike their deck's name in the options that
    // everyone sees.
    let deck = options.get("deck").and_then(Value::as_str).map(str::to_owned);
    let cards = Pick::from_request(None, cards)?;
    if deck.is_some() && cards.is_some() {
        return Err(bad("name a deck (options.deck) or five cards, not both".into()));
    }
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
            SeatRequest::Computer { level } => Seat::Computer {
                level: crate::robots::level(game, &level)?,
            },
            SeatRequest::Player { name } if crate::robots::level_named(game, &name)?.is_some() => Seat::Computer {
                level: crate::robots::level(game, &name)?,
            },
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
    let all_people = !seats.iter().any(|s| matches!(s, Seat::Computer { .. }));
    let pick = cards.clone().or(deck.map(Pick::Deck));
    let later = picking::windowed(hub, game, &options, all_people);
    hub.economy
        .check_seat(game, &options, all_people, by.id, pick.as_ref(), later)
        .await?;
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
    // A challenge that starts at once is never open: only the match counts.
    within_limits(&mut tx, hub, by.id, !c.complete()).await?;
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
    if let Some(cards) = &cards {
        hub.economy.choose_hand(&mut tx, c.id, by.id, cards).await?;
    }
    if c.complete() {
        // Nobody to wait for: the match starts at once.
        let started = start_match(&mut tx, hub, &c).await?;
        commit_match(tx, hub, started.id).await?;
        let reply = Frame::ChallengeCreated { challenge: c.view() }.json();
        let hub = hub.clone();
        // After the reply, so that the challenger hears of the challenge before its match.
        tokio::spawn(async move { live::start(&hub, started).await });
        return Ok(reply);
    }
    tx.commit().await?;
    let mut also = c.involved();
    also.extend(named);
    hub.relay.publish(Event::Lobby {
        msg: Frame::ChallengeOpen { challenge: c.view() }.json(),
        listed: c.listed(),
        also,
    });
    Ok(Frame::ChallengeCreated { challenge: c.view() }.json())
}

/// Refuses options that would make every lobby page that lists them heavy, or that carry text
/// able to act on another player's screen (`words` reaches the invited text player verbatim).
fn check_free_text(options: &Value) -> Result<(), String> {
    if let Some(words) = options.get("words") {
        let words = words.as_str().ok_or("options.words is a string")?;
        crate::text::check("options.words", words, WORDS_MAX, false)?;
    }
    let size = options.to_string().len();
    if size > OPTIONS_MAX {
        return Err(format!("options take {size} bytes as JSON: {OPTIONS_MAX} at most"));
    }
    strings_are_printable(options, "options")
}

/// Every string in `v` (a key or a value) free of control characters.
fn strings_are_printable(v: &Value, at: &str) -> Result<(), String> {
    let check = |s: &str, at: &str| crate::text::check(at, s, OPTIONS_MAX, false);
    match v {
        Value::String(s) => check(s, at),
        Value::Array(items) => items.iter().try_for_each(|x| strings_are_printable(x, at)),
        Value::Object(map) => map.iter().try_for_each(|(k, x)| {
            check(k, at)?;
            strings_are_printable(x, &format!("{at}.{}", crate::text::one_line(k)))
        }),
        _ => Ok(()),
    }
}

/// Refuses when `user` already sits in the most running matches, or, making a challenge
/// (`challenging`), has the most open challenges. On PostgreSQL the account's row is locked until
/// `tx` ends, so that two connections of one account cannot both take the last place; SQLite's
/// one connection runs one transaction at a time already. One statement counts both: a
/// challenge and an accept hold that connection while they run, and every move's commit waits
/// for it.
async fn within_limits(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    hub: &Hub,
    user: i64,
    challenging: bool,
) -> Result<(), Failure> {
    if hub.backend == crate::db::Backend::Postgres {
        sqlx::query("SELECT 1 FROM users WHERE id = $1 FOR UPDATE")
            .bind(user)
            .execute(&mut **tx)
            .await?;
    }
    let row = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM match_seats JOIN matches ON matches.id = match_seats.match_id \
                 WHERE match_seats.user_id = $1 AND matches.status = 'running') AS running, \
                (SELECT COUNT(*) FROM challenges WHERE by_user = $1 AND status = 'open') AS open",
    )
    .bind(user)
    .fetch_one(&mut **tx)
    .await?;
    let (mut running, open): (i64, i64) = (row.try_get("running")?, row.try_get("open")?);
    // A game in its picking window is a match about to start for everyone seated: counted as
    // running, or a pair of accounts could seat each other in any number of them. The stored
    // seats hold a seated user as `{"id":ID,"name":…}`; the LIKE narrows, the seats decide.
    let picking = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE challenges.status = 'picking' AND challenges.seats LIKE $1"
    )))
    .bind(format!("%\"id\":{user},%"))
    .fetch_all(&mut **tx)
    .await?;
    for r in &picking {
        if from_row(r)?
            .seats
            .iter()
            .any(|s| s.user().is_some_and(|u| u.id == user))
        {
            running += 1;
        }
    }
    let max = hub.config.max_matches;
    if running >= i64::from(max) {
        return Err(Failure::new(
            Code::TooManyMatches,
            format!("you play {running} running matches: {max} at most at once (finish or leave one first)"),
        ));
    }
    let max = hub.config.max_challenges;
    if challenging && open >= i64::from(max) {
        return Err(Failure::new(
            Code::TooManyChallenges,
            format!("you have {open} open challenges: {max} at most at once (withdraw one first)"),
        ));
    }
    Ok(())
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
    sqlx::query("UPDATE challenges SET status = $1, match_id = $2 WHERE id = $3")
        .bind(Closing::Started.status())
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

/// `user` takes a seat of challenge `id`, with the five they play when its game plays picked
/// hands (`pick`; none: their current deck).
pub async fn accept(hub: &Arc<Hub>, id: i64, user: &User, pick: Option<Pick>) -> Result<Value, Failure> {
    let (mut c, stored) = fetch(hub, id, user).await?;
    if c.by.id == user.id {
        return Err(Failure::new(Code::OwnChallenge, "this is your own challenge"));
    }
    if c.seats.iter().any(|s| s.user().is_some_and(|u| u.id == user.id)) {
        return Err(Failure::new(Code::NotInvited, "you already sit in this challenge"));
    }
    let all_people = !c.seats.iter().any(|s| matches!(s, Seat::Computer { .. }));
    let windowed = picking::windowed(hub, c.game, &c.options, all_people);
    hub.economy
        .check_seat(c.game, &c.options, all_people, user.id, pick.as_ref(), windowed)
        .await?;
    let seat = c
        .seats
        .iter()
        .position(|s| matches!(s, Seat::Player { name, user: None } if name.eq_ignore_ascii_case(&user.name)))
        .or_else(|| c.seats.iter().position(|s| matches!(s, Seat::Open { user: None })))
        .ok_or_else(|| Failure::new(Code::NotInvited, "no seat of this challenge is yours or open"))?;
    match &mut c.seats[seat] {
        Seat::Player { user: u, .. } | Seat::Open { user: u } => *u = Some(user.clone()),
        Seat::Computer { .. } => unreachable!("found a person's seat"),
    }
    let mut tx = hub.pool.begin().await?;
    within_limits(&mut tx, hub, user.id, false).await?;
    // Only if nobody changed it since it was read (another accept through another connection).
    let taken = sqlx::query("UPDATE challenges SET seats = $1 WHERE id = $2 AND seats = $3 AND status = 'open'")
        .bind(serde_json::to_string(&c.seats).unwrap_or_default())
        .bind(id)
        .bind(stored)
        .execute(&mut *tx)
        .await?;
    if taken.rows_affected() != 1 {
        return Err(Failure::new(
            Code::NoSuchChallenge,
            "the challenge changed meanwhile: look again",
        ));
    }
    if let Some(pick) = &pick {
        hub.economy.choose_hand(&mut tx, id, user.id, pick).await?;
    }
    if windowed && c.complete() {
        let waiting = picking::unpicked(&mut tx, &c).await?;
        if !waiting.is_empty() {
            picking::open(hub, tx, &c, &waiting).await?;
            return Ok(Frame::Accepted { challenge: id, seat }.json());
        }
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
            close(hub, &c, Closing::Started, &[]);
            let hub = hub.clone();
            tokio::spawn(async move { live::start(&hub, m).await });
        }
        None => hub.relay.publish(Event::Lobby {
            msg: Frame::ChallengeOpen { challenge: c.view() }.json(),
            listed: !c.private(),
            also: c.involved(),
        }),
    }
    Ok(Frame::Accepted { challenge: id, seat }.json())
}

fn close(hub: &Hub, c: &Challenge, reason: Closing, also: &[i64]) {
    let mut users = c.involved();
    users.extend(also);
    hub.relay.publish(Event::Lobby {
        msg: Frame::ChallengeClosed {
            challenge: c.id,
            reason,
        }
        .json(),
        listed: !c.private(),
        also: users,
    });
}

/// Refuse (an invited player) or withdraw (the challenger).
pub async fn decline(hub: &Arc<Hub>, id: i64, user: &User, withdraw: bool) -> Result<Value, Failure> {
    let (c, _) = fetch(hub, id, user).await?;
    if withdraw && c.by.id != user.id {
        return Err(Failure::new(
            Code::NotChallenger,
            "only its challenger withdraws a challenge",
        ));
    }
    if !withdraw && !c.invites(user) {
        return Err(Failure::new(Code::NotInvited, "this challenge does not invite you"));
    }
    let reason = if withdraw { Closing::Withdrawn } else { Closing::Refused };
    let done = sqlx::query("UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'")
        .bind(reason.status())
        .bind(id)
        .execute(&hub.pool)
        .await?;
    if done.rows_affected() != 1 {
        return Err(Failure::new(Code::NoSuchChallenge, format!("no open challenge {id}")));
    }
    close(hub, &c, reason, &[user.id]);
    Ok(Frame::ChallengeClosed { challenge: id, reason }.json())
}

/// Where a `lobby` page starts in one of its lists.
#[derive(Clone, Debug, PartialEq)]
enum Mark<K> {
    Start,
    /// After the entry with this key (the list's order).
    After(K),
    /// Every entry was given.
    Done,
}

/// Where the next `lobby` page starts: the open challenges by (created, id), the running
/// matches by (started, id), the people online by name. Given to clients as an opaque string.
#[derive(Clone, Debug, PartialEq)]
struct Cursor {
    challenges: Mark<(i64, i64)>,
    matches: Mark<(i64, i64)>,
    online: Mark<String>,
}

impl Cursor {
    const START: Cursor = Cursor {
        challenges: Mark::Start,
        matches: Mark::Start,
        online: Mark::Start,
    };

    /// `None` once every list is done: there is no next page.
    fn encode(&self) -> Option<String> {
        fn part<K>(m: &Mark<K>, key: impl Fn(&K) -> String) -> String {
            match m {
                Mark::Start => String::new(),
                Mark::After(k) => key(k),
                Mark::Done => "~".into(),
            }
        }
        if self.challenges == Mark::Done && self.matches == Mark::Done && self.online == Mark::Done {
            return None;
        }
        let pair = |(a, b): &(i64, i64)| format!("{a}.{b}");
        Some(format!(
            "{}/{}/{}",
            part(&self.challenges, pair),
            part(&self.matches, pair),
            part(&self.online, String::clone)
        ))
    }

    fn decode(text: &str) -> Option<Cursor> {
        fn part<K>(s: &str, key: impl Fn(&str) -> Option<K>) -> Option<Mark<K>> {
            match s {
                "" => Some(Mark::Start),
                "~" => Some(Mark::Done),
                s => key(s).map(Mark::After),
            }
        }
        let pair = |s: &str| {
            let (a, b) = s.split_once('.')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let name = |s: &str| crate::accounts::check_name(s).ok().map(|()| s.to_owned());
        let mut parts = text.split('/');
        let cursor = Cursor {
            challenges: part(parts.next()?, pair)?,
            matches: part(parts.next()?, pair)?,
            online: part(parts.next()?, name)?,
        };
        parts.next().is_none().then_some(cursor)
    }
}

/// One page of the lobby as `user` sees it now: up to `limit` (at most [`PAGE_MAX`], the
/// default) of each list, from `after` (the `next` of the page before; none: the first page).
pub async fn lobby(hub: &Hub, user: &User, after: Option<&str>, limit: Option<u32>) -> Result<Value, Failure> {
    let limit = match limit {
        Some(0) => return Err(Failure::new(Code::BadMessage, "lobby: limit is 1 or more")),
        Some(n) => (n as usize).min(PAGE_MAX),
        None => PAGE_MAX,
    };
    let from = match after {
        None => Cursor::START,
        Some(text) => Cursor::decode(text).ok_or_else(|| {
            Failure::new(
                Code::BadMessage,
                "lobby: after is the next of an earlier lobby page, as it came",
            )
        })?,
    };
    let (challenges, challenges_next) = challenge_page(hub, user, &from.challenges, limit).await?;
    let (matches, matches_next) = match_page(hub, &from.matches, limit).await?;
    let (online, online_next) = online_page(hub, &from.online, limit);
    let next = Cursor {
        challenges: challenges_next,
        matches: matches_next,
        online: online_next,
    };
    let page = Frame::Lobby {
        online,
        robots: crate::robots::listed(),
        challenges,
        matches,
        after: after.map(str::to_owned),
        next: next.encode(),
        limit,
    };
    Ok(page.json())
}

/// The open challenges `user` may see after `from`, and where the next page starts: at most
/// [`SCAN_PER_PAGE`] are read, whatever `user` sees of them.
async fn challenge_page(
    hub: &Hub,
    user: &User,
    from: &Mark<(i64, i64)>,
    limit: usize,
) -> Result<(Vec<Value>, Mark<(i64, i64)>), Failure> {
    let (created, id) = match from {
        Mark::Done => return Ok((Vec::new(), Mark::Done)),
        Mark::Start => (i64::MIN, i64::MIN),
        Mark::After(k) => *k,
    };
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE challenges.status = 'open' \
         AND (challenges.created > $1 OR (challenges.created = $1 AND challenges.id > $2)) \
         ORDER BY challenges.created, challenges.id LIMIT $3"
    )))
    .bind(created)
    .bind(id)
    .bind(SCAN_PER_PAGE as i64)
    .fetch_all(&hub.pool)
    .await?;
    let mut page = Page::default();
    let mut last = None;
    for r in &rows {
        let c = from_row(r)?;
        if c.visible_to(user) && !page.take(c.json(), limit) {
            return Ok((page.entries, last.map_or_else(|| from.clone(), Mark::After)));
        }
        last = Some((c.created, c.id));
    }
    let next = match last {
        Some(k) if rows.len() == SCAN_PER_PAGE => Mark::After(k),
        _ => Mark::Done,
    };
    Ok((page.entries, next))
}

/// The entries of one list of a page, within [`LIST_BYTES`].
#[derive(Default)]
struct Page {
    entries: Vec<Value>,
    bytes: usize,
}

impl Page {
    /// Adds `entry` unless the page is full (by count or size); never refuses the first.
    fn take(&mut self, entry: Value, limit: usize) -> bool {
        let size = entry.to_string().len();
        if self.entries.len() == limit || !self.entries.is_empty() && self.bytes + size > LIST_BYTES {
            return false;
        }
        self.bytes += size;
        self.entries.push(entry);
        true
    }
}

/// The running listed matches after `from` and where the next page starts.
async fn match_page(
    hub: &Hub,
    from: &Mark<(i64, i64)>,
    limit: usize,
) -> Result<(Vec<Value>, Mark<(i64, i64)>), Failure> {
    let (started, id) = match from {
        Mark::Done => return Ok((Vec::new(), Mark::Done)),
        Mark::Start => (i64::MIN, i64::MIN),
        Mark::After(k) => *k,
    };
    let rows = sqlx::query(
        "SELECT id, started FROM matches WHERE status = 'running' AND private = $1 \
         AND (started > $2 OR (started = $2 AND id > $3)) ORDER BY started, id LIMIT $4",
    )
    .bind(0i64)
    .bind(started)
    .bind(id)
    .bind(limit as i64)
    .fetch_all(&hub.pool)
    .await?;
    let mut page = Page::default();
    let mut last = None;
    for r in &rows {
        let id: i64 = r.try_get("id")?;
        // Held here: the live summary; held by another process: its stored rows.
        let summary = match hub.live(id) {
            Some(h) => Some(h.lock().await.summary()),
            None => live::load(&hub.pool, id).await.ok().map(|l| l.summary()),
        };
        if let Some(summary) = summary {
            if !page.take(serde_json::to_value(summary).map_err(Failure::internal)?, limit) {
                return Ok((page.entries, last.map_or_else(|| from.clone(), Mark::After)));
            }
        }
        last = Some((r.try_get::<i64, _>("started")?, id));
    }
    let next = match last {
        Some(k) if rows.len() == limit => Mark::After(k),
        _ => Mark::Done,
    };
    Ok((page.entries, next))
}

/// The people online after `from` by name, and where the next page starts.
fn online_page(hub: &Hub, from: &Mark<String>, limit: usize) -> (Vec<User>, Mark<String>) {
    let after = match from {
        Mark::Done => return (Vec::new(), Mark::Done),
        Mark::Start => None,
        Mark::After(name) => Some(name.as_str()),
    };
    let mut rest = hub.online_anywhere();
    rest.retain(|u| after.is_none_or(|a| u.name.as_str() > a));
    rest.sort_by(|a, b| a.name.cmp(&b.name));
    let more = rest.len() > limit;
    rest.truncate(limit);
    let next = match rest.last() {
        Some(u) if more => Mark::After(u.name.clone()),
        _ => Mark::Done,
    };
    (rest, next)
}

/// The open challenges `user` made or is invited to, oldest first (the text game's own
/// invitation and its `+TT/Cancel`).
pub async fn concerning(hub: &Hub, user: &User) -> Result<Vec<Value>, Failure> {
    // The seats as stored name an invited player `"name":"NAME"`; the LIKE only narrows the rows
    // read (`_` matches any character), `invites` decides.
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "{SELECT} WHERE challenges.status = 'open' AND (challenges.by_user = $1 OR challenges.seats LIKE $2) \
         ORDER BY challenges.created, challenges.id"
    )))
    .bind(user.id)
    .bind(format!("%\"name\":\"{}\"%", user.name))
    .fetch_all(&hub.pool)
    .await?;
    let mut out = Vec::new();
    for r in &rows {
        let c = from_row(r)?;
        if c.by.id == user.id || c.invites(user) {
            out.push(c.json());
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(n: usize) -> User {
        User {
            id: (1 << 53) - 1,
            name: "x".repeat(n),
        }
    }

    #[test]
    fn a_full_page_fits_in_a_frame() {
        // The largest entry: options at their limit, every name and id at theirs, three seats.
        let mut options = json!({"words": ""});
        let pad = OPTIONS_MAX - options.to_string().len();
        options["words"] = "x".repeat(pad).into();
        assert_eq!(options.to_string().len(), OPTIONS_MAX);
        let taken = Seat::Open { user: Some(user(24)) };
        let c = Challenge {
            id: (1 << 53) - 1,
            by: user(24),
            game: GameKind::Nantong,
            options,
            seats: vec![taken.clone(), taken.clone(), taken],
            time_s: 300,
            spectators: Spectators::Broadcast,
            created: i64::MAX,
        };
        let entry = c.json().to_string().len();
        assert!(entry < LIST_BYTES / 8, "{entry}");
        // Challenges and matches within their bytes, the people online by count, the rest.
        let online = json!(user(24)).to_string().len() + 1;
        let cursor = Cursor {
            challenges: Mark::After((i64::MIN, i64::MIN)),
            matches: Mark::After((i64::MIN, i64::MIN)),
            online: Mark::After("x".repeat(24)),
        };
        let rest = 2 * cursor.encode().unwrap().len() + 200;
        let page = 2 * (LIST_BYTES + entry) + PAGE_MAX * online + rest;
        assert!(page < crate::protocol::FRAME_OUT_MAX, "{page}");
    }

    #[test]
    fn cursors_read_back_and_refuse_junk() {
        let c = Cursor {
            challenges: Mark::After((1796187600000, 8123)),
            matches: Mark::Done,
            online: Mark::After("a-b_c".into()),
        };
        let text = c.encode().unwrap();
        assert_eq!(Cursor::decode(&text), Some(c));
        assert_eq!(Cursor::decode("//"), Some(Cursor::START));
        let done = Cursor {
            challenges: Mark::Done,
            matches: Mark::Done,
            online: Mark::Done,
        };
        assert_eq!(done.encode(), None);
        for junk in ["", "1/2", "1.2/~/x/y", "a.b/~/~", "1.2/~/bad name", "1.2.3/~/~"] {
            assert_eq!(Cursor::decode(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn options_are_small_and_printable() {
        assert!(check_free_text(&json!({"preset": "mush", "words": "Open Same One"})).is_ok());
        for bad in [
            json!({"words": "Open\r\nSYSTEM: your password expired"}),
            json!({"words": "\u{1b}]0;title\u{7}"}),
            json!({"words": 5}),
            json!({"words": "x".repeat(WORDS_MAX + 1)}),
            json!({"deck": {"a": ["\u{202e}"]}}),
            json!({"walls": [], "x\ny": 1}),
            json!({"walls": vec![json!({"cell": 0}); 500]}),
        ] {
            assert!(check_free_text(&bad).is_err(), "{bad}");
        }
    }
}
