//! A match as one of several processes holds it. Every process keeps a copy of every running
//! match, so that a move is played where its player is connected: the database's ply check lets
//! exactly one move in at each ply, whichever process made it. A copy catches up from the database
//! whenever another process tells of the match, before its own connections hear of it, so what a
//! client sees next is what this process holds. Only the owner (see `cluster::ownership`) runs
//! the match's clock and its computer seats.
//!
//! A child of `live`, for the fields and the scheduling a copy must reach.

use super::*;

impl Live {
    /// Takes the stored match's moves, deadline and ending (read and replayed as at a restart).
    /// `true` when anything changed.
    async fn catch_up(&mut self, pool: &Pool) -> Result<bool, Failure> {
        let stored = load(pool, self.id).await?;
        let changed = stored.moves.len() > self.moves.len()
            || stored.deadline != self.deadline
            || (stored.ending.is_some() && self.ending.is_none());
        if changed {
            self.table = stored.table;
            self.moves = stored.moves;
            self.deadline = stored.deadline;
            self.ending = stored.ending;
        }
        Ok(changed)
    }

    fn stop_tasks(&mut self) {
        for t in self.tasks.drain(..) {
            t.abort();
        }
    }
}

/// Whether this process runs match `id`'s clock and computer seats: always alone, in a cluster
/// when it owns the match.
pub(crate) fn acts_for(hub: &Hub, id: i64) -> bool {
    hub.cluster.get().is_none_or(|c| c.ownership.owns(id))
}

/// Takes a match this process is creating, in the transaction that creates it (so that no other
/// process's sweep finds it unowned, and its computer seat and clock start here).
pub(crate) async fn claim(hub: &Hub, tx: &mut sqlx::Transaction<'_, sqlx::Any>, id: i64) -> Result<(), Failure> {
    if let Some(c) = hub.cluster.get() {
        c.ownership.claim(tx, id).await?;
    }
    Ok(())
}

/// Lets match `id` go after its end.
pub(crate) fn let_go(hub: &Hub, id: i64) {
    if let Some(c) = hub.cluster.get() {
        c.ownership.release(id);
    }
}

/// Another process told of match `id`: this copy catches up, or is loaded if new here. Then the
/// owner's tasks follow the new ply; an ended match is let go.
pub(crate) async fn refresh(hub: &Arc<Hub>, id: i64) {
    if let Err(f) = sync(hub, id, false).await {
        tracing::warn!("cluster: match {id} not brought up to date: {}", f.message);
    }
}

/// This process owns match `id` now (taken over from a process that died): its clock runs from
/// the stored deadline, its computer seat thinks here.
pub(crate) async fn adopt(hub: &Arc<Hub>, id: i64) {
    match sync(hub, id, true).await {
        Ok(()) => tracing::info!("cluster: took over match {id}"),
        Err(f) => tracing::warn!("cluster: match {id} not taken over: {}", f.message),
    }
}

/// This process may no longer own match `id` (its lock connection was lost, or another process
/// took the match meanwhile): it stops acting for it.
pub(crate) async fn disown(hub: &Arc<Hub>, id: i64) {
    if let Some(handle) = hub.live(id) {
        handle.lock().await.stop_tasks();
    }
}

async fn sync(hub: &Arc<Hub>, id: i64, reschedule: bool) -> Result<(), Failure> {
    let handle = match hub.live(id) {
        Some(handle) => handle,
        None => {
            let live = load(&hub.pool, id).await?;
            if live.ending.is_some() {
                // Taken (or held again) as it ended: nothing to act for.
                let_go(hub, id);
                return Ok(());
            }
            // Held meanwhile (the process that made it is this one, or another event was
            // quicker): that copy stays, and catches up below.
            let fresh = Arc::new(tokio::sync::Mutex::new(live));
            let held = hub
                .matches
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(id)
                .or_insert_with(|| fresh.clone())
                .clone();
            if Arc::ptr_eq(&held, &fresh) {
                schedule(hub, &mut *held.lock().await);
                return Ok(());
            }
            held
        }
    };
    let mut live = handle.lock().await;
    let changed = live.catch_up(&hub.pool).await?;
    if live.ending.is_some() {
        live.stop_tasks();
        hub.release(id);
        let_go(hub, id);
    } else if changed || reschedule {
        schedule(hub, &mut live);
    }
    Ok(())
}

/// The copies this process holds, taken out of the hub's lock.
fn held(hub: &Hub) -> Vec<(i64, Arc<tokio::sync::Mutex<Live>>)> {
    let matches = hub.matches.lock().unwrap_or_else(|e| e.into_inner());
    matches.iter().map(|(&id, l)| (id, l.clone())).collect()
}

/// Brings every copy to the stored ply, given every running match's id and ply: what a missed
/// notification or a race between loading and holding left behind is mended within a sweep.
/// Copies of matches that ended elsewhere are let go.
pub(crate) async fn heal(hub: &Arc<Hub>, running: &[(i64, u64)]) {
    let held = held(hub);
    let stored: std::collections::HashMap<i64, u64> = running.iter().copied().collect();
    for (id, handle) in &held {
        let behind = match (stored.get(id), handle.try_lock()) {
            (Some(&ply), Ok(live)) => (live.moves.len() as u64) < ply,
            // Busy: a move is being played on it right now, so it is current.
            (Some(_), Err(_)) => false,
            (None, _) => true,
        };
        if behind {
            refresh(hub, *id).await;
        }
    }
    for &(id, _) in running {
        if hub.live(id).is_none() {
            refresh(hub, id).await;
        }
    }
}

/// Every running match this process holds, caught up, as the frames that tell its seats and
/// spectators its whole state: what a resynchronisation sends after notifications were missed.
pub(crate) async fn states(hub: &Arc<Hub>) -> Vec<Event> {
    let held = held(hub);
    let mut events = Vec::with_capacity(held.len());
    for (id, _) in &held {
        refresh(hub, *id).await;
    }
    for (id, handle) in held {
        let live = handle.lock().await;
        let (seats, public) = live.frames(|seat| live.state(seat));
        events.push(Event::Match {
            match_id: id,
            seats,
            public,
            re: None,
        });
    }
    events
}
