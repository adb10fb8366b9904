//! Past one machine: several `arbiter-server` processes on one PostgreSQL database serve one
//! lobby. Their events cross through `LISTEN/NOTIFY` ([`relay`]); each running match is owned by
//! one process at a time, named in its row, a process being alive while it holds one session
//! advisory lock ([`ownership`]); the owner alone runs its clock and computer seats. Every process
//! holds a copy of every running match (`live::replica`), so a player's moves are played by the
//! process the player is connected to. When a process dies its lock goes with its session, and
//! within a sweep another takes its matches over, clocks from their stored deadlines. Who is
//! online anywhere is kept in `cluster_presence`, a row per user and process, dropped with its
//! process.

mod ownership;
mod relay;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use sqlx::Row as _;

use crate::accounts::User;
use crate::bus::{Event, Relay};
use crate::db::Backend;
use crate::hub::Hub;
use crate::live::replica;

pub use ownership::Ownership;
pub use relay::PgRelay;

/// This process's part in a cluster.
pub struct Cluster {
    /// This process's id among the others (random, below 2^53).
    pub node: u64,
    pub relay: Arc<PgRelay>,
    pub ownership: Ownership,
    hub: OnceLock<Weak<Hub>>,
    /// The users online through the other processes, by process.
    elsewhere: Mutex<HashMap<u64, HashMap<i64, String>>>,
}

impl Cluster {
    /// Joins the cluster of the database at `url` (PostgreSQL): its notifications, its matches, and
    /// who is online through the others. The hub comes with [`Cluster::run`].
    pub async fn connect(url: &str) -> anyhow::Result<Arc<Cluster>> {
        let node = crate::db::new_id() as u64;
        let ownership = Ownership::connect(url, node).await?;
        let relay = PgRelay::start(url, node).await?;
        let cluster = Arc::new(Cluster {
            node,
            relay,
            ownership,
            hub: OnceLock::new(),
            elsewhere: Mutex::default(),
        });
        cluster.relay.attach(&cluster);
        cluster.load_presence().await?;
        tracing::info!("cluster: node {node} joined");
        Ok(cluster)
    }

    /// The relay the hub publishes through.
    pub fn relay(&self) -> Arc<dyn Relay> {
        self.relay.clone()
    }

    /// Joins `hub`, before it takes its matches in: from now on it acts only for the matches
    /// this process owns, and other processes' news brings its copies up to date.
    pub fn attach(self: &Arc<Self>, hub: &Arc<Hub>) {
        let _ = self.hub.set(Arc::downgrade(hub));
        if hub.cluster.set(self.clone()).is_err() {
            tracing::error!("cluster: the hub already serves a cluster");
        }
    }

    /// Takes orphaned matches over (every sweep), and resynchronises this process's
    /// connections after its notification connection was lost.
    pub fn run(self: &Arc<Self>, hub: &Arc<Hub>) {
        let weak = Arc::downgrade(hub);
        let me = self.clone();
        tokio::spawn(async move {
            loop {
                let Some(hub) = weak.upgrade() else { return };
                match me.ownership.sweep().await {
                    Ok(sweep) => {
                        for id in sweep.lost {
                            replica::disown(&hub, id).await;
                        }
                        for id in sweep.taken {
                            replica::adopt(&hub, id).await;
                        }
                        if let Some(nodes) = &sweep.nodes {
                            me.relay.set_peers(nodes.len() > 1);
                            me.prune_presence(&hub, nodes).await;
                        }
                        match me.running().await {
                            Ok(running) => replica::heal(&hub, &running).await,
                            Err(e) => tracing::warn!("cluster: running matches not read: {e}"),
                        }
                    }
                    Err(e) => tracing::warn!("cluster: sweep failed: {e}"),
                }
                drop(hub);
                tokio::time::sleep(ownership::SWEEP_EVERY).await;
            }
        });
        let weak = Arc::downgrade(hub);
        let me = self.clone();
        let mut resyncs = self.relay.resyncs();
        tokio::spawn(async move {
            while resyncs.recv().await.is_ok() {
                let Some(hub) = weak.upgrade() else { return };
                if let Err(e) = me.load_presence().await {
                    tracing::warn!("cluster: presence not reloaded: {e}");
                }
                for event in replica::states(&hub).await {
                    me.relay.deliver(event);
                }
            }
        });
    }

    /// The users online through the other processes (not this one's: the hub knows those).
    pub fn online_elsewhere(&self) -> Vec<User> {
        let mut users: HashMap<i64, String> = HashMap::new();
        for by_user in self.elsewhere.lock().unwrap_or_else(|e| e.into_inner()).values() {
            users.extend(by_user.iter().map(|(&id, name)| (id, name.clone())));
        }
        users.into_iter().map(|(id, name)| User { id, name }).collect()
    }

    /// Another process's event, before this process's connections hear it: copies of its match
    /// catch up first, and presence is noted.
    async fn receive(&self, node: u64, event: &mut Event) {
        match event {
            Event::Match { match_id, re, .. } => {
                // The request it answers came through the other process: no connection here has it.
                *re = None;
                if let Some(hub) = self.hub.get().and_then(Weak::upgrade) {
                    replica::refresh(&hub, *match_id).await;
                }
            }
            Event::Presence { user, name, online } => {
                let mut elsewhere = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
                let by_user = elsewhere.entry(node).or_default();
                if *online {
                    by_user.insert(*user, name.clone());
                } else {
                    by_user.remove(user);
                }
            }
            Event::Spectators {
                match_id, spectators, ..
            } => {
                // This process's copy of the match lets in (or keeps out) spectators as the owner does.
                if let Some(handle) = self.hub.get().and_then(Weak::upgrade).and_then(|h| h.live(*match_id)) {
                    handle.lock().await.spectators = *spectators;
                }
            }
            Event::Lobby { .. } | Event::Users { .. } | Event::Chat { .. } => {}
        }
    }

    /// Every running match and its stored ply.
    async fn running(&self) -> anyhow::Result<Vec<(i64, u64)>> {
        let rows = sqlx::query("SELECT id, ply FROM matches WHERE status = 'running'")
            .fetch_all(&self.relay.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>("id")?, r.try_get::<i64, _>("ply")? as u64)))
            .collect()
    }

    async fn load_presence(&self) -> anyhow::Result<()> {
        let rows = sqlx::query("SELECT node, user_id, name FROM cluster_presence WHERE node <> $1")
            .bind(self.node as i64)
            .fetch_all(&self.relay.pool)
            .await?;
        let mut elsewhere: HashMap<u64, HashMap<i64, String>> = HashMap::new();
        for r in rows {
            let node = r.try_get::<i64, _>("node")? as u64;
            elsewhere
                .entry(node)
                .or_default()
                .insert(r.try_get("user_id")?, r.try_get("name")?);
        }
        *self.elsewhere.lock().unwrap_or_else(|e| e.into_inner()) = elsewhere;
        Ok(())
    }

    /// Forgets who was online through processes that are gone, and tells this process's lobby.
    async fn prune_presence(&self, hub: &Hub, alive: &[u64]) {
        let gone: Vec<(i64, String)> = {
            let mut elsewhere = self.elsewhere.lock().unwrap_or_else(|e| e.into_inner());
            let dead: Vec<u64> = elsewhere.keys().filter(|n| !alive.contains(n)).copied().collect();
            dead.iter().filter_map(|n| elsewhere.remove(n)).flatten().collect()
        };
        if gone.is_empty() {
            return;
        }
        let alive: Vec<i64> = alive.iter().map(|&n| n as i64).collect();
        let _ = sqlx::query("DELETE FROM cluster_presence WHERE NOT (node = ANY($1))")
            .bind(alive)
            .execute(&self.relay.pool)
            .await;
        let here: Vec<i64> = hub.online().iter().map(|u| u.id).collect();
        let still: Vec<i64> = self.online_elsewhere().iter().map(|u| u.id).collect();
        for (user, name) in gone {
            if !here.contains(&user) && !still.contains(&user) {
                self.relay.deliver(Event::Presence {
                    user,
                    name,
                    online: false,
                });
            }
        }
    }
}

/// The cluster of the database at `url` when it is PostgreSQL; one SQLite file has one process.
pub async fn join(url: &str, backend: Backend) -> anyhow::Result<Option<Arc<Cluster>>> {
    match backend {
        Backend::Postgres => Ok(Some(Cluster::connect(url).await?)),
        Backend::Sqlite => Ok(None),
    }
}
