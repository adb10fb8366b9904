//! Who may watch a match, and how: open (anyone may spectate), broadcast (every card played is
//! also shown to the whole lobby) or private (nobody). Chosen with the challenge, changed by a
//! seated player while the match runs (`+TT/Option`, the WebSocket's `spectators`), stored with
//! the match so that a restart keeps it.

use std::sync::Arc;

use arbiter_core::tripletriad::Spectators;
use serde_json::{json, Value};

use crate::accounts::User;
use crate::bus::Event;
use crate::error::{Code, Failure};
use crate::hub::Hub;
use crate::live::{seats_json, Live, MoveRecord};

/// The option as the `private` and `broadcast` columns store it.
pub fn columns(s: Spectators) -> (i64, i64) {
    (
        i64::from(s == Spectators::Private),
        i64::from(s == Spectators::Broadcast),
    )
}

/// The option of the `private` and `broadcast` columns (private wins: it hides more).
pub fn from_columns(private: i64, broadcast: i64) -> Spectators {
    match (private != 0, broadcast != 0) {
        (true, _) => Spectators::Private,
        (false, true) => Spectators::Broadcast,
        (false, false) => Spectators::Open,
    }
}

/// The option's name in frames.
pub fn name(s: Spectators) -> &'static str {
    match s {
        Spectators::Open => "open",
        Spectators::Broadcast => "broadcast",
        Spectators::Private => "private",
    }
}

/// A seated `user` sets the spectating option of running match `id`. Stored first, then told:
/// the seats and spectators hear `match_spectators`; when it becomes private every spectator
/// (on every process) is told why in an `unspectated` and stops watching, and the lobby unlists
/// the match; when it stops being private the lobby lists it again.
pub async fn set(hub: &Arc<Hub>, id: i64, user: &User, to: Spectators) -> Result<Value, Failure> {
    let mut live = crate::live::running(hub, id).await?;
    if live.seat_of(user.id).is_none() {
        return Err(Failure::new(
            Code::NotSeated,
            "only a player of the match changes who may watch it",
        ));
    }
    let from = live.spectators;
    let msg = json!({"type": "match_spectators", "match": id, "spectators": name(to), "by": user});
    if from == to {
        return Ok(msg);
    }
    let (private, broadcast) = columns(to);
    let done = sqlx::query("UPDATE matches SET private = $1, broadcast = $2 WHERE id = $3 AND status = 'running'")
        .bind(private)
        .bind(broadcast)
        .bind(id)
        .execute(&hub.pool)
        .await?;
    if done.rows_affected() != 1 {
        return Err(Failure::new(Code::MatchOver, "the match is over"));
    }
    live.spectators = to;
    let evicted = (to == Spectators::Private).then(|| {
        json!({
            "type": "unspectated", "match": id, "reason": "private",
            "message": format!("{} made the match private: spectators are removed", user.name),
        })
    });
    hub.relay.publish(Event::Spectators {
        match_id: id,
        spectators: to,
        users: live.people(),
        msg: msg.clone(),
        evicted,
    });
    let listing = match (from, to) {
        (_, Spectators::Private) => Some(json!({"type": "match_unlisted", "match": id})),
        (Spectators::Private, _) => Some(json!({"type": "match_listed", "match": live.summary()})),
        _ => None,
    };
    if let Some(msg) = listing {
        hub.relay.publish(Event::Lobby {
            msg,
            listed: true,
            also: live.people(),
        });
    }
    Ok(msg)
}

/// What the lobby is shown of a broadcast match after `record` was played: the public view.
pub fn broadcast(live: &Live, record: &MoveRecord) -> Event {
    Event::Lobby {
        msg: json!({
            "type": "match_broadcast", "match": live.id, "game": live.game.name(), "seats": seats_json(&live.seats),
            "ply": record.ply, "seat": record.seat, "move": record.notation, "view": live.view(None),
            "to_move": live.to_move(),
        }),
        listed: true,
        also: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_hold_each_option() {
        for s in [Spectators::Open, Spectators::Broadcast, Spectators::Private] {
            let (p, b) = columns(s);
            assert_eq!(from_columns(p, b), s);
        }
        // Both set (never written so) reads as the option that shows less.
        assert_eq!(from_columns(1, 1), Spectators::Private);
    }
}
