//! A running match's spectating option changed by a seated player, and what a broadcast
//! match shows the lobby of each move.

use std::sync::Arc;

use arbiter_economy::Spectators;
use serde_json::Value;

use super::{running, seat_views, Live, MoveRecord};
use crate::accounts::User;
use crate::bus::Event;
use crate::error::{Code, Failure};
use crate::frames::Frame;
use crate::hub::Hub;
use crate::spectators::columns;

/// A seated `user` sets the spectating option of running match `id`. Stored first, then told:
/// the seats and spectators hear `match_spectators`; when it becomes private every spectator
/// (on every process) is told why in an `unspectated` and stops watching, and the lobby unlists
/// the match; when it stops being private the lobby lists it again.
pub async fn set(hub: &Arc<Hub>, id: i64, user: &User, to: Spectators) -> Result<Value, Failure> {
    let mut live = running(hub, id).await?;
    if live.seat_of(user.id).is_none() {
        return Err(Failure::new(
            Code::NotSeated,
            "only a player of the match changes who may watch it",
        ));
    }
    let from = live.spectators;
    let msg = Frame::MatchSpectators {
        match_id: id,
        spectators: to,
        by: user.clone(),
    }
    .json();
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
        Frame::Unspectated {
            match_id: id,
            reason: Some("private".into()),
            by: Some(user.clone()),
            message: Some(format!("{} made the match private: spectators are removed", user.name)),
        }
        .json()
    });
    hub.relay.publish(Event::Spectators {
        match_id: id,
        spectators: to,
        users: live.people(),
        msg: msg.clone(),
        evicted,
    });
    let listing = match (from, to) {
        (_, Spectators::Private) => Some(Frame::MatchUnlisted { match_id: id }.json()),
        (Spectators::Private, _) => Some(
            Frame::MatchListed {
                summary: live.summary(),
            }
            .json(),
        ),
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
        msg: Frame::MatchBroadcast {
            match_id: live.id,
            game: live.game.name().to_owned(),
            seats: seat_views(live.game, &live.seats),
            ply: record.ply,
            seat: record.seat,
            notation: record.notation.clone(),
            view: live.view(None),
            to_move: live.to_move(),
        }
        .json(),
        listed: true,
        also: Vec::new(),
    }
}
