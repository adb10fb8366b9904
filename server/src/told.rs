//! What a player must hear once of their matches' ends: the `match_over` frame of each match and
//! the `tt_settled` frame of each settlement of its stakes. A player may be away when it happens
//! (dropped, the page closed, the server restarted between the end's commit and the frame), so
//! each frame is kept in `untold` (migration 0005) by the transaction that ends the match or
//! settles its stakes, and dropped once it is told: written to one of the player's connections,
//! or handed over at login or resume, which send what is left.
//!
//! The bookkeeping is rows of the database, not memory, because the frame may be written by
//! another process of a cluster than the one that ended the match, and must outlive a restart.
//! A live copy is dropped from the table after it is written (a frame lost with a dying socket
//! is still told at the next login), a login's copies before they are written (so that two
//! logins at once never both hand one over); the connection puts them back if writing fails.
//! Left open: a login that takes a frame between another connection's writing of it and its
//! dropping tells that player twice, once on each connection.

use serde_json::Value;
use sqlx::Row as _;

use crate::db::{now_ms, Pool, Tx};
use crate::error::Failure;

/// The frames told once, by type.
const KINDS: [&str; 2] = ["match_over", "tt_settled"];

/// Which frame of which match a user is told.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Receipt {
    user: i64,
    match_id: i64,
    kind: &'static str,
}

impl std::fmt::Display for Receipt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the {} of match {} for user {}", self.kind, self.match_id, self.user)
    }
}

/// The receipt of `frame` for `user` when it is a frame told once. Recognised by its type, so
/// that every way such a frame is published (the end of a match, a forfeit, a settlement, another
/// process's relay) is covered without each of them saying so.
pub(crate) fn receipt(user: i64, frame: &Value) -> Option<Receipt> {
    let kind = KINDS.into_iter().find(|k| frame["type"] == *k)?;
    Some(Receipt {
        user,
        match_id: frame["match"].as_i64()?,
        kind,
    })
}

/// A frame kept for a user, taken out of the table by [`claim`].
#[derive(Debug)]
pub(crate) struct Untold {
    pub(crate) receipt: Receipt,
    pub(crate) frame: Value,
    at: i64,
}

/// Keeps `frame` (a `match_over` or `tt_settled` of match `match_id`) for each of `users`, inside
/// the transaction that ends the match or settles it.
pub(crate) async fn keep(tx: &mut Tx<'_>, match_id: i64, users: &[i64], frame: &Value) -> Result<(), Failure> {
    let kind = frame["type"]
        .as_str()
        .filter(|t| KINDS.contains(t))
        .ok_or_else(|| Failure::internal(format!("match {match_id}: not a frame told once: {frame}")))?;
    let at = now_ms();
    for &user in users {
        sqlx::query("INSERT INTO untold (user_id, match_id, kind, frame, at) VALUES ($1, $2, $3, $4, $5)")
            .bind(user)
            .bind(match_id)
            .bind(kind)
            .bind(frame.to_string())
            .bind(at)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The frame of `receipt` was written to one of its user's connections: told.
pub(crate) async fn mark(pool: &Pool, receipt: &Receipt) {
    let done = sqlx::query("DELETE FROM untold WHERE user_id = $1 AND match_id = $2 AND kind = $3")
        .bind(receipt.user)
        .bind(receipt.match_id)
        .bind(receipt.kind)
        .execute(pool)
        .await;
    if let Err(e) = done {
        // Kept: told again at the next login, which is better than never.
        tracing::warn!("{receipt} not marked told: {e}");
    }
}

/// Takes every frame kept for `user` out of the table, in the order they were first sent (a
/// match's end before its settlement), for the connection that hands them over.
pub(crate) async fn claim(pool: &Pool, user: i64) -> Result<Vec<Untold>, Failure> {
    let rows = sqlx::query("DELETE FROM untold WHERE user_id = $1 RETURNING match_id, kind, frame, at")
        .bind(user)
        .fetch_all(pool)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let kind: String = r.try_get("kind")?;
        let kind = KINDS
            .into_iter()
            .find(|k| *k == kind)
            .ok_or_else(|| Failure::internal(format!("untold: kind {kind}")))?;
        let frame = serde_json::from_str(&r.try_get::<String, _>("frame")?)
            .map_err(|e| Failure::internal(format!("untold frame: {e}")))?;
        out.push(Untold {
            receipt: Receipt {
                user,
                match_id: r.try_get("match_id")?,
                kind,
            },
            frame,
            at: r.try_get("at")?,
        });
    }
    out.sort_by_key(|u| (u.at, u.receipt.kind != "match_over"));
    Ok(out)
}

/// Frames [`claim`]ed for a connection that failed to write them: kept again for the next login.
pub(crate) async fn put_back(pool: &Pool, untold: &[Untold]) {
    for u in untold {
        let done = sqlx::query(
            "INSERT INTO untold (user_id, match_id, kind, frame, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(u.receipt.user)
        .bind(u.receipt.match_id)
        .bind(u.receipt.kind)
        .bind(u.frame.to_string())
        .bind(u.at)
        .execute(pool)
        .await;
        if let Err(e) = done {
            tracing::warn!("{} lost: {e}", u.receipt);
        }
    }
}
