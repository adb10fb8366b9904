//! The [`Relay`] of a cluster: every event goes at once to this process's connections and, through
//! PostgreSQL `NOTIFY`, to every other process serving the same database, which hands it to its own.
//!
//! A notification holds at most 8000 bytes; an event over [`INLINE_LIMIT`] (a Nantong move with its
//! three seats' views) is stored in `cluster_events` and the notification carries its id. One task
//! sends, in order, every queued event in one statement; one task listens. `PgListener` reconnects
//! by itself and re-subscribes, but notifications sent while it was away are gone: after a
//! reconnection the relay says so on [`PgRelay::resyncs`], and the hub sends every connection the
//! state of its matches again.

use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use sqlx::Row as _;
use tokio::sync::{broadcast, mpsc};

use super::Cluster;
use crate::bus::{Event, Relay};
use crate::db::{new_id, now_ms};

/// The channel every process listens on.
const CHANNEL: &str = "arbiter_cluster";
/// Payloads above this go through `cluster_events` (PostgreSQL refuses more than 8000 bytes).
const INLINE_LIMIT: usize = 7_000;
/// Events sent in one statement at most.
const BATCH: usize = 256;
/// How long a stored event is kept for the processes that fetch it.
const KEEP_MS: i64 = 60_000;

/// What travels in a notification.
#[derive(Serialize, Deserialize)]
struct Envelope {
    /// The sending process; it hears its own notifications and drops them.
    node: u64,
    /// The sender's count: keeps two equal events of one statement distinct (PostgreSQL folds
    /// identical notifications of one transaction into one).
    seq: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<Event>,
    /// The `cluster_events` row holding the event, when it is too large to travel inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stored: Option<i64>,
}

/// Events between the processes of one PostgreSQL database.
pub struct PgRelay {
    node: u64,
    /// Its own connections to the database, apart from the hub's.
    pub(crate) pool: PgPool,
    /// The cluster that sees other processes' events first.
    cluster: OnceLock<Weak<Cluster>>,
    local: broadcast::Sender<Arc<Event>>,
    outbox: mpsc::UnboundedSender<Event>,
    resync: broadcast::Sender<()>,
    /// Whether another process is alive: alone, a process sends no notifications at all.
    peers: Arc<AtomicBool>,
    /// When another process was last heard (Unix ms).
    heard: AtomicI64,
}

impl PgRelay {
    /// Connects the sending pool and the listener, and starts their tasks.
    pub async fn start(url: &str, node: u64) -> anyhow::Result<Arc<PgRelay>> {
        let pool = PgPoolOptions::new()
            .max_connections(2)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await
            .map_err(|e| anyhow::anyhow!("cluster relay: {e}"))?;
        let mut listener = PgListener::connect_with(&pool)
            .await
            .map_err(|e| anyhow::anyhow!("cluster relay: {e}"))?;
        listener
            .listen(CHANNEL)
            .await
            .map_err(|e| anyhow::anyhow!("cluster relay: LISTEN: {e}"))?;
        let (outbox, queue) = mpsc::unbounded_channel();
        let relay = Arc::new(PgRelay {
            node,
            pool: pool.clone(),
            cluster: OnceLock::new(),
            local: broadcast::channel(1 << 16).0,
            outbox,
            resync: broadcast::channel(16).0,
            // Until the first sweep has counted the processes, assume there are others.
            peers: Arc::new(AtomicBool::new(true)),
            heard: AtomicI64::new(0),
        });
        // Hello to the others (an envelope without an event): they start sending at once.
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(serde_json::to_string(&Envelope {
                node,
                seq: 0,
                event: None,
                stored: None,
            })?)
            .execute(&pool)
            .await
            .map_err(|e| anyhow::anyhow!("cluster relay: NOTIFY: {e}"))?;
        tokio::spawn(send_loop(pool.clone(), node, queue, relay.peers.clone()));
        tokio::spawn(listen_loop(listener, pool, Arc::downgrade(&relay)));
        Ok(relay)
    }

    /// Fires after the listener lost its connection and came back: events may have been missed.
    pub fn resyncs(&self) -> broadcast::Receiver<()> {
        self.resync.subscribe()
    }

    /// Whether other processes are alive, as a sweep found; one heard from in the last seconds
    /// counts too (it may have started after the sweep looked).
    pub(crate) fn set_peers(&self, any: bool) {
        let recent = now_ms() - self.heard.load(Ordering::Relaxed) < 5_000;
        self.peers.store(any || recent, Ordering::Relaxed);
    }

    /// Lets `cluster` see every other process's event before this process's connections do.
    pub(crate) fn attach(&self, cluster: &Arc<Cluster>) {
        let _ = self.cluster.set(Arc::downgrade(cluster));
    }

    /// Hands `event` to this process's connections only.
    pub(crate) fn deliver(&self, event: Event) {
        // No receiver only before the hub subscribes or after it stopped: nobody to tell.
        let _ = self.local.send(Arc::new(event));
    }
}

impl Relay for PgRelay {
    fn publish(&self, event: Event) {
        // The send task owns the order; if it has stopped the process is going down. Alone, a
        // process sends nothing but presence (see `send_loop`): no copy of every move's frames.
        if self.peers.load(Ordering::Relaxed) || matches!(event, Event::Presence { .. }) {
            let _ = self.outbox.send(event.clone());
        }
        self.deliver(event);
    }

    fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.local.subscribe()
    }
}

/// Sends the queued events, as many as are waiting, in one statement; retries a failed batch
/// until the database takes it (the events of a connection blip arrive late, not never).
async fn send_loop(pool: PgPool, node: u64, mut queue: mpsc::UnboundedReceiver<Event>, peers: Arc<AtomicBool>) {
    let mut seq = 0u64;
    let mut last_sweep = now_ms();
    let mut batch = Vec::with_capacity(BATCH);
    while queue.recv_many(&mut batch, BATCH).await > 0 {
        let mut payloads = Vec::with_capacity(batch.len());
        let alone = !peers.load(Ordering::Relaxed);
        for event in batch.drain(..) {
            if let Event::Presence { user, name, online } = &event {
                note_presence(&pool, node, *user, name, *online).await;
            }
            if alone {
                continue;
            }
            seq += 1;
            match encode(&pool, node, seq, event).await {
                Ok(p) => payloads.push(p),
                Err(e) => tracing::error!("cluster relay: an event was not sent: {e}"),
            }
        }
        let mut delay = Duration::from_millis(50);
        while !payloads.is_empty() {
            let sent = sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
                .bind(CHANNEL)
                .bind(&payloads)
                .execute(&pool)
                .await;
            match sent {
                Ok(_) => break,
                Err(e) => {
                    tracing::warn!("cluster relay: NOTIFY failed, retrying: {e}");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(2));
                }
            }
        }
        if now_ms() - last_sweep > KEEP_MS {
            last_sweep = now_ms();
            let _ = sqlx::query("DELETE FROM cluster_events WHERE at < $1")
                .bind(last_sweep - KEEP_MS)
                .execute(&pool)
                .await;
        }
    }
}

/// This process's row of who is online, for processes that start later.
async fn note_presence(pool: &PgPool, node: u64, user: i64, name: &str, online: bool) {
    let done = if online {
        sqlx::query("INSERT INTO cluster_presence (node, user_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(node as i64)
            .bind(user)
            .bind(name)
            .execute(pool)
            .await
    } else {
        sqlx::query("DELETE FROM cluster_presence WHERE node = $1 AND user_id = $2")
            .bind(node as i64)
            .bind(user)
            .execute(pool)
            .await
    };
    if let Err(e) = done {
        tracing::warn!("cluster: presence of user {user} not stored: {e}");
    }
}

/// The notification's payload: the event inline, or a reference to its stored copy.
async fn encode(pool: &PgPool, node: u64, seq: u64, event: Event) -> anyhow::Result<String> {
    let inline = serde_json::to_string(&Envelope {
        node,
        seq,
        event: Some(event),
        stored: None,
    })?;
    if inline.len() <= INLINE_LIMIT {
        return Ok(inline);
    }
    let Envelope { event, .. } = serde_json::from_str(&inline)?;
    let body = serde_json::to_string(&event)?;
    let id = new_id();
    sqlx::query("INSERT INTO cluster_events (id, body, at) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(body)
        .bind(now_ms())
        .execute(pool)
        .await?;
    Ok(serde_json::to_string(&Envelope {
        node,
        seq,
        event: None,
        stored: Some(id),
    })?)
}

/// Hands every other process's events to this one's connections.
async fn listen_loop(mut listener: PgListener, pool: PgPool, relay: std::sync::Weak<PgRelay>) {
    loop {
        match listener.try_recv().await {
            Ok(Some(note)) => {
                let Some(relay) = relay.upgrade() else { return };
                // Serialised with `node` first: anything not this process's is another process.
                if !note.payload().starts_with(&format!("{{\"node\":{},", relay.node)) {
                    relay.heard.store(now_ms(), Ordering::Relaxed);
                    relay.peers.store(true, Ordering::Relaxed);
                }
                match decode(&pool, relay.node, note.payload()).await {
                    Ok(Some((node, mut event))) => {
                        if let Some(cluster) = relay.cluster.get().and_then(Weak::upgrade) {
                            cluster.receive(node, &mut event).await;
                        }
                        relay.deliver(event)
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!("cluster relay: a notification was dropped: {e}"),
                }
            }
            // The connection was lost and is back (re-subscribed): what was sent meanwhile is gone.
            Ok(None) => {
                let Some(relay) = relay.upgrade() else { return };
                tracing::warn!("cluster relay: the listener reconnected; resynchronising");
                let _ = relay.resync.send(());
            }
            Err(e) => {
                if relay.strong_count() == 0 {
                    return;
                }
                tracing::warn!("cluster relay: listening failed, retrying: {e}");
                tokio::time::sleep(Duration::from_millis(500)).await;
                if let Some(relay) = relay.upgrade() {
                    let _ = relay.resync.send(());
                }
            }
        }
    }
}

/// The sender and event of a notification, `None` for this process's own.
async fn decode(pool: &PgPool, node: u64, payload: &str) -> anyhow::Result<Option<(u64, Event)>> {
    let envelope: Envelope = serde_json::from_str(payload)?;
    if envelope.node == node {
        return Ok(None);
    }
    let event = match (envelope.event, envelope.stored) {
        (Some(event), _) => event,
        (None, Some(id)) => {
            let row = sqlx::query("SELECT body FROM cluster_events WHERE id = $1")
                .bind(id)
                .fetch_one(pool)
                .await?;
            serde_json::from_str(row.try_get::<&str, _>("body")?)?
        }
        // A process that just started: from now on there is someone to tell.
        (None, None) => return Ok(None),
    };
    Ok(Some((envelope.node, event)))
}
