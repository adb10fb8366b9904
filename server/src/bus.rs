//! How news reaches the connections: every event goes through a [`Relay`], which delivers it to
//! the connections of this process and, in a cluster, of the others. One process needs no more
//! than [`LocalRelay`]; a PostgreSQL `LISTEN/NOTIFY` relay plugs in behind the same trait.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::broadcast;

/// A piece of news and who may hear it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Event {
    /// A lobby message: to every lobby subscriber when `listed`, and in any case to every
    /// connection of the users in `also` (each connection hears it once).
    Lobby { msg: Value, listed: bool, also: Vec<i64> },
    /// A message to every connection of these users.
    Users { users: Vec<i64>, msg: Value },
    /// A match's news: `seats` holds each seated person's own frame (user id, frame), `public`
    /// the spectators'. `re` is the connection whose request caused it, with its request id.
    Match {
        match_id: i64,
        seats: Vec<(i64, Value)>,
        public: Value,
        re: Option<(u64, Value)>,
    },
    /// A match's spectating option changed to `spectators`: `msg` to every connection of its
    /// seated `users` and to its spectators; with `evicted` (it became private) the spectators
    /// are told that instead and stop watching.
    Spectators {
        match_id: i64,
        spectators: arbiter_economy::Spectators,
        users: Vec<i64>,
        msg: Value,
        evicted: Option<Value>,
    },
    /// A chat room's news (`chat`): to the lobby's subscribers (`match_id` none), or to a
    /// match's seated `users` and its spectators.
    Chat {
        match_id: Option<i64>,
        users: Vec<i64>,
        msg: Value,
    },
    /// A user came online (first connection) or went offline (last one), in `process`.
    Presence { user: i64, name: String, online: bool },
}

/// Carries events to every process serving the lobby, this one included.
pub trait Relay: Send + Sync + 'static {
    /// Sends `event` everywhere (this process too).
    fn publish(&self, event: Event);
    /// Every event published anywhere, in order of arrival here.
    fn subscribe(&self) -> broadcast::Receiver<Arc<Event>>;
}

/// One process: events go straight to its own connections.
pub struct LocalRelay {
    tx: broadcast::Sender<Arc<Event>>,
}

impl LocalRelay {
    pub fn new() -> LocalRelay {
        // Delivery only copies frames into per-connection queues, so the subscriber keeps up;
        // the capacity absorbs bursts of thousands of moves.
        LocalRelay {
            tx: broadcast::channel(1 << 16).0,
        }
    }
}

impl Relay for LocalRelay {
    fn publish(&self, event: Event) {
        // No receiver only before the hub subscribes or after it stopped: nobody to tell.
        let _ = self.tx.send(Arc::new(event));
    }

    fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.tx.subscribe()
    }
}
