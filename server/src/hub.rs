//! The process's shared state: the database, the relay, the connections with what each
//! listens to, and the live matches this process holds.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::mpsc;

use crate::accounts::{Accounts, User};
use crate::bus::{Event, Relay};
use crate::config::Config;
use crate::db::{Backend, Pool};
use crate::live::Live;
use crate::told::{self, Receipt};

/// What a connection's writer is handed: a frame, with its receipt when it is one its user is
/// told once (`told`), which the writer settles once the frame is written.
#[derive(Debug)]
pub struct Outgoing {
    pub(crate) text: Arc<str>,
    pub(crate) once: Option<Receipt>,
}

/// Frames a connection may have waiting before it counts as too slow and is closed.
const QUEUE: usize = 512;

struct Conn {
    user: Option<User>,
    lobby: bool,
    tx: mpsc::Sender<Outgoing>,
}

#[derive(Default)]
struct Registry {
    conns: HashMap<u64, Conn>,
    by_user: HashMap<i64, HashSet<u64>>,
    spectators: HashMap<i64, HashSet<u64>>,
}

impl Registry {
    /// The connections of `users` on this process.
    fn conns_of(&self, users: &[i64]) -> HashSet<u64> {
        users
            .iter()
            .filter_map(|u| self.by_user.get(u))
            .flatten()
            .copied()
            .collect()
    }
}

pub struct Hub {
    pub config: Config,
    pub pool: Pool,
    pub backend: Backend,
    pub accounts: Accounts,
    pub economy: crate::economy::Economy,
    /// The group commit of moves (`commit`).
    pub(crate) commits: crate::commit::Committer,
    pub relay: Arc<dyn Relay>,
    registry: Mutex<Registry>,
    /// The running matches this process holds.
    pub matches: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<Live>>>>,
    /// The other processes on the same PostgreSQL database, if any (`cluster`).
    pub cluster: std::sync::OnceLock<Arc<crate::cluster::Cluster>>,
    /// The computer players' accounts, which keep their records.
    pub robots: crate::robots::Robots,
    pub(crate) chat: crate::chat::Chat,
}

impl Hub {
    pub fn new(
        config: Config,
        pool: Pool,
        backend: Backend,
        relay: Arc<dyn Relay>,
        robots: crate::robots::Robots,
    ) -> Arc<Hub> {
        let accounts = Accounts::new(pool.clone(), config.logins);
        let economy = crate::economy::Economy::new(pool.clone());
        let commits = crate::commit::Committer::start(pool.clone(), backend);
        let chat = crate::chat::Chat::new(config.chat.clone());
        let hub = Arc::new(Hub {
            config,
            pool,
            backend,
            accounts,
            economy,
            commits,
            relay,
            registry: Mutex::default(),
            matches: Mutex::default(),
            cluster: std::sync::OnceLock::new(),
            robots,
            chat,
        });
        let mut events = hub.relay.subscribe();
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(e) => match weak.upgrade() {
                        Some(hub) => hub.deliver(&e),
                        None => return,
                    },
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!("event delivery lagged: {n} events lost; clients resync with sync");
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        hub
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        // A panic elsewhere never leaves the registry half-changed: each change is one statement.
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new connection; its frames arrive on the receiver.
    pub fn connect(&self, id: u64) -> mpsc::Receiver<Outgoing> {
        let (tx, rx) = mpsc::channel(QUEUE);
        self.registry().conns.insert(
            id,
            Conn {
                user: None,
                lobby: false,
                tx,
            },
        );
        rx
    }

    /// The connection's user is `user` from now on.
    pub fn authenticate(&self, id: u64, user: &User) {
        let first = {
            let mut r = self.registry();
            let Some(c) = r.conns.get_mut(&id) else { return };
            c.user = Some(user.clone());
            let set = r.by_user.entry(user.id).or_default();
            set.insert(id);
            set.len() == 1
        };
        if first {
            self.relay.publish(Event::Presence {
                user: user.id,
                name: user.name.clone(),
                online: true,
            });
        }
    }

    pub fn disconnect(&self, id: u64) {
        let gone = {
            let mut r = self.registry();
            let Some(c) = r.conns.remove(&id) else { return };
            for s in r.spectators.values_mut() {
                s.remove(&id);
            }
            r.spectators.retain(|_, s| !s.is_empty());
            match c.user {
                Some(u) => {
                    let set = r.by_user.entry(u.id).or_default();
                    set.remove(&id);
                    let last = set.is_empty();
                    if last {
                        r.by_user.remove(&u.id);
                    }
                    last.then_some(u)
                }
                None => None,
            }
        };
        if let Some(u) = gone {
            self.relay.publish(Event::Presence {
                user: u.id,
                name: u.name,
                online: false,
            });
        }
    }

    /// Whether the connection subscribed now (it was not already).
    pub fn subscribe_lobby(&self, id: u64) -> bool {
        match self.registry().conns.get_mut(&id) {
            Some(c) => !std::mem::replace(&mut c.lobby, true),
            None => false,
        }
    }

    /// Whether connection `id` watches match `match_id`.
    pub(crate) fn watching(&self, id: u64, match_id: i64) -> bool {
        self.registry()
            .spectators
            .get(&match_id)
            .is_some_and(|s| s.contains(&id))
    }

    pub fn spectate(&self, id: u64, match_id: i64, on: bool) {
        let mut r = self.registry();
        if on {
            r.spectators.entry(match_id).or_default().insert(id);
        } else if let Some(s) = r.spectators.get_mut(&match_id) {
            s.remove(&id);
        }
    }

    /// Who is online, through this process or any other, by name.
    pub fn online_anywhere(&self) -> Vec<User> {
        let mut users = self.online();
        if let Some(c) = self.cluster.get() {
            for u in c.online_elsewhere() {
                if !users.iter().any(|v| v.id == u.id) {
                    users.push(u);
                }
            }
            users.sort_by(|a, b| a.name.cmp(&b.name));
        }
        users
    }

    /// The users online on this process, by name.
    pub fn online(&self) -> Vec<User> {
        let r = self.registry();
        let mut users: Vec<User> = r
            .by_user
            .values()
            .filter_map(|set| set.iter().next())
            .filter_map(|c| r.conns.get(c).and_then(|c| c.user.clone()))
            .collect();
        users.sort_by(|a, b| a.name.cmp(&b.name));
        users
    }

    /// Hands `event` to the connections of this process that may hear it.
    fn deliver(&self, event: &Event) {
        let mut r = self.registry();
        let mut slow = Vec::new();
        // `mine`: the frame, when it is addressed to the connection's user (a seat's own frame, a
        // message to that user), which may be one they are told once.
        let mut send = |r: &Registry, conn: u64, text: &Arc<str>, mine: Option<&Value>| {
            if let Some(c) = r.conns.get(&conn) {
                let once = mine.and_then(|f| told::receipt(c.user.as_ref()?.id, f));
                let out = Outgoing {
                    text: text.clone(),
                    once,
                };
                if c.tx.try_send(out).is_err() {
                    slow.push(conn);
                }
            }
        };
        match event {
            Event::Lobby { msg, listed, also } => {
                let text: Arc<str> = msg.to_string().into();
                let mut to = r.conns_of(also);
                if *listed {
                    to.extend(r.conns.iter().filter(|(_, c)| c.lobby).map(|(&id, _)| id));
                }
                for c in to {
                    send(&r, c, &text, None);
                }
            }
            Event::Users { users, msg } => {
                let text: Arc<str> = msg.to_string().into();
                let to = r.conns_of(users);
                for c in to {
                    send(&r, c, &text, Some(msg));
                }
            }
            Event::Spectators {
                match_id,
                users,
                msg,
                evicted,
                ..
            } => {
                let text: Arc<str> = msg.to_string().into();
                let seated = r.conns_of(users);
                for &c in &seated {
                    send(&r, c, &text, None);
                }
                let watchers: Vec<u64> = r.spectators.get(match_id).into_iter().flatten().copied().collect();
                let to_watchers: Arc<str> = evicted.as_ref().unwrap_or(msg).to_string().into();
                for c in watchers.iter().filter(|c| !seated.contains(*c)) {
                    send(&r, *c, &to_watchers, None);
                }
                if evicted.is_some() {
                    r.spectators.remove(match_id);
                }
            }
            Event::Chat { match_id, users, msg } => {
                self.chat.heard(msg);
                let text: Arc<str> = msg.to_string().into();
                let to: HashSet<u64> = match match_id {
                    None => r.conns.iter().filter(|(_, c)| c.lobby).map(|(&id, _)| id).collect(),
                    Some(m) => {
                        let mut to = r.conns_of(users);
                        to.extend(r.spectators.get(m).into_iter().flatten());
                        to
                    }
                };
                for c in to {
                    send(&r, c, &text, None);
                }
            }
            Event::Presence { user, name, online } => {
                let msg = crate::frames::Frame::Presence {
                    user: User {
                        id: *user,
                        name: name.clone(),
                    },
                    online: *online,
                }
                .json();
                let text: Arc<str> = msg.to_string().into();
                let to: Vec<u64> = r.conns.iter().filter(|(_, c)| c.lobby).map(|(&id, _)| id).collect();
                for c in to {
                    send(&r, c, &text, None);
                }
            }
            Event::Match {
                match_id,
                seats,
                public,
                re,
            } => {
                for (user, frame) in seats {
                    let plain: Arc<str> = frame.to_string().into();
                    let conns: Vec<u64> = r.by_user.get(user).into_iter().flatten().copied().collect();
                    for c in conns {
                        match re {
                            // The mover's own copy answers its request: the same object with
                            // `re` first (a frame is always an object), not a second tree.
                            Some((rc, id)) if *rc == c => {
                                let answer = format!("{{\"re\":{id},{}", &plain[1..]);
                                send(&r, c, &answer.into(), Some(frame));
                            }
                            _ => send(&r, c, &plain, Some(frame)),
                        }
                    }
                }
                let watchers: Vec<u64> = r.spectators.get(match_id).into_iter().flatten().copied().collect();
                if !watchers.is_empty() {
                    let text: Arc<str> = public.to_string().into();
                    for c in watchers {
                        send(&r, c, &text, None);
                    }
                }
            }
        }
        // A connection that cannot take its frames is dropped: its writer sees the queue close
        // and closes the socket; the client resumes and resyncs.
        for c in slow {
            if let Some(conn) = r.conns.get_mut(&c) {
                tracing::warn!("connection {c}: too slow, closing");
                let (tx, _) = mpsc::channel(1);
                conn.tx = tx;
            }
        }
        drop(r);
    }

    /// The running match `id`, if this process holds it.
    pub fn live(&self, id: i64) -> Option<Arc<tokio::sync::Mutex<Live>>> {
        self.matches.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }

    pub fn hold(&self, id: i64, live: Live) -> Arc<tokio::sync::Mutex<Live>> {
        let live = Arc::new(tokio::sync::Mutex::new(live));
        self.matches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, live.clone());
        live
    }

    pub fn release(&self, id: i64) {
        self.matches.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }
}
