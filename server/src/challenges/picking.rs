//! The picking window: once every seat of a Triple Triad game between people is taken, whoever
//! named no five (with the challenge or the accept) names them with `pick` before the
//! operator's clock (`--pick-seconds`) runs out, and the last one named starts the match. When
//! the clock runs out, a person who still named none plays their current deck if the game
//! admits it; otherwise the challenge closes (`pick_timeout`) before anything was staked.
//! The window lives in the database (status `picking`, `pick_until`), so that any process
//! (after a restart, or another of a cluster) ends it; the row's lock makes one of them do it.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use sqlx::Row as _;

use super::{close, commit_match, from_row, start_match, Challenge, SELECT};
use crate::accounts::User;
use crate::bus::Event;
use crate::db::{now_ms, Tx};
use crate::economy::{picks_hands, Pick};
use crate::error::{Code, Failure};
use crate::frames::{Closing, Frame};
use crate::hub::Hub;
use crate::live;
use crate::table::GameKind;

/// Whether a challenge of `game` under `options`, every seat taken, waits for the picks of the
/// people who named none rather than start with their current decks.
pub(super) fn windowed(hub: &Hub, game: GameKind, options: &Value, all_people: bool) -> bool {
    !hub.config.pick_time.is_zero() && all_people && picks_hands(game, options, true)
}

/// The people of `c` who have named no five: no pick stored with their seat, and for the
/// challenger no `options.deck` either.
pub(super) async fn unpicked(tx: &mut Tx<'_>, c: &Challenge) -> Result<Vec<User>, Failure> {
    let named = sqlx::query("SELECT user_id FROM tt_seat_decks WHERE challenge_id = $1")
        .bind(c.id)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.try_get("user_id"))
        .collect::<Result<Vec<i64>, _>>()?;
    // The text interface writes `"deck": null` when the inviter names none.
    let by_deck = c.options.get("deck").and_then(Value::as_str).is_some();
    Ok(c.seats
        .iter()
        .filter_map(|s| s.user())
        .filter(|u| !(named.contains(&u.id) || by_deck && u.id == c.by.id))
        .cloned()
        .collect())
}

/// Opens the window of `c`, whose last seat `tx` takes (and commits), for the people in
/// `waiting`.
pub(super) async fn open(hub: &Arc<Hub>, mut tx: Tx<'_>, c: &Challenge, waiting: &[User]) -> Result<(), Failure> {
    let until = now_ms() + i64::try_from(hub.config.pick_time.as_millis()).unwrap_or(i64::MAX / 2);
    sqlx::query("UPDATE challenges SET status = $1, pick_until = $2 WHERE id = $3")
        .bind(Closing::Picking.status())
        .bind(until)
        .bind(c.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    close(hub, c, Closing::Picking, &[]);
    tell(hub, c, until, waiting);
    arm(hub, c.id, until);
    Ok(())
}

/// Tells the people of `c` who is still to pick, and until when.
fn tell(hub: &Hub, c: &Challenge, until: i64, waiting: &[User]) {
    let mut users = c.involved();
    users.sort_unstable();
    users.dedup();
    hub.relay.publish(Event::Users {
        users,
        msg: Frame::Picking {
            challenge: c.view(),
            until,
            remaining_ms: (until - now_ms()).max(0),
            waiting: waiting.iter().map(|u| u.name.clone()).collect(),
        }
        .json(),
    });
}

/// Challenge `id` in its window, its row locked until `tx` ends (none: started or closed).
async fn locked(tx: &mut Tx<'_>, id: i64) -> Result<Option<(Challenge, i64)>, Failure> {
    let held = sqlx::query("UPDATE challenges SET pick_until = pick_until WHERE id = $1 AND status = 'picking'")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    if held.rows_affected() == 0 {
        return Ok(None);
    }
    let row = sqlx::query(sqlx::AssertSqlSafe(format!("{SELECT} WHERE challenges.id = $1")))
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    let until: i64 = sqlx::query("SELECT pick_until FROM challenges WHERE id = $1")
        .bind(id)
        .fetch_one(&mut **tx)
        .await?
        .try_get("pick_until")?;
    Ok(Some((from_row(&row)?, until)))
}

/// `user` names their five for challenge `id` in its window; the last of its people to name
/// them starts the match.
pub async fn pick(hub: &Arc<Hub>, id: i64, user: &User, pick: Pick) -> Result<Value, Failure> {
    let mut tx = hub.pool.begin().await?;
    let (c, until) = locked(&mut tx, id)
        .await?
        .filter(|(c, _)| c.seats.iter().any(|s| s.user().is_some_and(|u| u.id == user.id)))
        .ok_or_else(|| Failure::new(Code::NoSuchChallenge, format!("no game {id} waits for your five cards")))?;
    let mut waiting = unpicked(&mut tx, &c).await?;
    if !waiting.iter().any(|u| u.id == user.id) {
        return Err(Failure::new(
            Code::BadChallenge,
            "you have named your five cards for this game already",
        ));
    }
    hub.economy.check_pick(&mut tx, user.id, &pick, &c.options).await?;
    hub.economy.choose_hand(&mut tx, id, user.id, &pick).await?;
    waiting.retain(|u| u.id != user.id);
    if waiting.is_empty() {
        begin(hub, tx, &c).await?;
    } else {
        tx.commit().await?;
        tell(hub, &c, until, &waiting);
    }
    Ok(Frame::Picked { challenge: id }.json())
}

/// Starts the match of `c`, every five named, in `tx`.
async fn begin(hub: &Arc<Hub>, mut tx: Tx<'_>, c: &Challenge) -> Result<(), Failure> {
    let started = start_match(&mut tx, hub, c).await?;
    commit_match(tx, hub, started.id).await?;
    close(hub, c, Closing::Started, &[]);
    let hub = hub.clone();
    tokio::spawn(async move { live::start(&hub, started).await });
    Ok(())
}

/// Ends the window of challenge `id` at `until`.
fn arm(hub: &Arc<Hub>, id: i64, until: i64) {
    let hub = hub.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(u64::try_from(until - now_ms()).unwrap_or(0))).await;
        if let Err(f) = run_out(&hub, id).await {
            tracing::warn!("challenge {id}: the picking clock: {}", f.message);
        }
    });
}

/// The window of challenge `id` ran out: the current deck for whoever named none, if the game
/// admits it for each of them; otherwise the challenge closes.
async fn run_out(hub: &Arc<Hub>, id: i64) -> Result<(), Failure> {
    let mut tx = hub.pool.begin().await?;
    let Some((c, _)) = locked(&mut tx, id).await? else {
        return Ok(());
    };
    for u in unpicked(&mut tx, &c).await? {
        match hub.economy.timed_out_pick(&mut tx, u.id, &c.options).await {
            Ok(pick) => hub.economy.choose_hand(&mut tx, id, u.id, &pick).await?,
            Err(f) => {
                tracing::info!("challenge {id}: {} has no hand to play: {}", u.name, f.message);
                return cancel(hub, tx, &c).await;
            }
        }
    }
    let Err(f) = begin(hub, tx, &c).await else {
        return Ok(());
    };
    // The match could not start (a stake no longer possible): nothing was changed.
    tracing::info!("challenge {id}: its match could not start: {}", f.message);
    let mut tx = hub.pool.begin().await?;
    match locked(&mut tx, id).await? {
        Some((c, _)) => cancel(hub, tx, &c).await,
        None => Ok(()),
    }
}

async fn cancel(hub: &Arc<Hub>, mut tx: Tx<'_>, c: &Challenge) -> Result<(), Failure> {
    sqlx::query("UPDATE challenges SET status = $1, pick_until = NULL WHERE id = $2")
        .bind(Closing::PickTimeout.status())
        .bind(c.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    close(hub, c, Closing::PickTimeout, &[]);
    Ok(())
}

/// Arms the clock of every window still open (at start: one a stopped process left).
pub(crate) async fn resume(hub: &Arc<Hub>) -> Result<usize, Failure> {
    let rows = sqlx::query("SELECT id, pick_until FROM challenges WHERE status = 'picking'")
        .fetch_all(&hub.pool)
        .await?;
    for r in &rows {
        arm(
            hub,
            r.try_get("id")?,
            r.try_get::<Option<i64>, _>("pick_until")?.unwrap_or(0),
        );
    }
    Ok(rows.len())
}
