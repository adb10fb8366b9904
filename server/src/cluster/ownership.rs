//! Which process owns which match: a PostgreSQL session advisory lock per match (its key the
//! match id), held on one dedicated connection of the owner. PostgreSQL drops a session's locks
//! when the session ends, so the death of a process (or of its connection) frees its matches at
//! once, and a sweep of the others takes them over. The owner alone runs a match's clock and its
//! computer seats; moves stay safe whoever plays them, since a move is stored only at the ply it
//! was made at.
//!
//! Each process also holds a lock on its own node key, so that the others can tell which
//! processes are alive (their presence rows are kept only while they are).

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::PgConnection;
use sqlx::{Connection as _, Row as _};

/// Node keys live apart from match ids (which are below 2^53).
const NODE_KEY_BASE: i64 = 1 << 60;

fn node_key(node: u64) -> i64 {
    NODE_KEY_BASE | (node as i64 & ((1 << 53) - 1))
}

/// The matches running and owned by nobody: their owner's session is gone (or never locked them).
const ORPHANS: &str = "SELECT m.id FROM matches m WHERE m.status = 'running' AND NOT EXISTS (
        SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND ((l.classid::bigint << 32) | l.objid::bigint) = m.id)";

/// The node keys held now: the processes alive.
const NODES: &str = "SELECT ((l.classid::bigint << 32) | l.objid::bigint) AS key FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid::bigint >= $1";

/// This process's locks.
pub struct Ownership {
    url: String,
    node: u64,
    conn: tokio::sync::Mutex<Option<PgConnection>>,
    held: Mutex<HashSet<i64>>,
}

/// What a sweep found.
pub struct Sweep {
    /// Matches that were nobody's and are this process's now.
    pub taken: Vec<i64>,
    /// Matches this process owned until its lock connection was lost: they may be another's
    /// now, and it must stop acting for them.
    pub lost: Vec<i64>,
    /// The processes alive (their node ids), this one included.
    pub nodes: Vec<u64>,
}

impl Ownership {
    pub async fn connect(url: &str, node: u64) -> anyhow::Result<Ownership> {
        let ownership = Ownership {
            url: url.to_owned(),
            node,
            conn: tokio::sync::Mutex::new(None),
            held: Mutex::default(),
        };
        let mut conn = ownership.conn.lock().await;
        *conn = Some(ownership.open().await?);
        drop(conn);
        Ok(ownership)
    }

    async fn open(&self) -> anyhow::Result<PgConnection> {
        let mut conn = PgConnection::connect(&self.url)
            .await
            .map_err(|e| anyhow::anyhow!("cluster locks: {e}"))?;
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(node_key(self.node))
            .execute(&mut conn)
            .await?;
        Ok(conn)
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether this process owns `id`.
    pub fn owns(&self, id: i64) -> bool {
        self.held().contains(&id)
    }

    /// Takes `id` if nobody holds it; `true` when this process owns it now.
    pub async fn try_own(&self, id: i64) -> bool {
        if self.owns(id) {
            return true;
        }
        let mut guard = self.conn.lock().await;
        let Some(conn) = guard.as_mut() else { return false };
        match sqlx::query("SELECT pg_try_advisory_lock($1) AS ok")
            .bind(id)
            .fetch_one(conn)
            .await
        {
            Ok(row) if row.try_get::<bool, _>("ok").unwrap_or(false) => {
                self.held().insert(id);
                true
            }
            Ok(_) => false,
            Err(e) => {
                tracing::warn!("cluster locks: {e}");
                *guard = None;
                false
            }
        }
    }

    /// Lets `id` go (its match ended).
    pub async fn release(&self, id: i64) {
        if !self.held().remove(&id) {
            return;
        }
        let mut guard = self.conn.lock().await;
        if let Some(conn) = guard.as_mut() {
            if let Err(e) = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(id)
                .execute(conn)
                .await
            {
                tracing::warn!("cluster locks: {e}");
                *guard = None;
            }
        }
    }

    /// Takes every orphaned running match, and says which processes are alive. After a lost
    /// lock connection it reconnects and reports every match it owned as lost first.
    pub async fn sweep(&self) -> anyhow::Result<Sweep> {
        let mut guard = self.conn.lock().await;
        let mut lost = Vec::new();
        if guard.is_none() {
            lost = self.held().drain().collect();
            *guard = Some(self.open().await?);
        }
        let conn = guard.as_mut().expect("connected above");
        let result: Result<_, sqlx::Error> = async {
            let orphans: Vec<i64> = sqlx::query(ORPHANS)
                .fetch_all(&mut *conn)
                .await?
                .iter()
                .filter_map(|r| r.try_get::<i64, _>(0).ok())
                .collect();
            let mut taken = Vec::new();
            for id in orphans {
                let row = sqlx::query("SELECT pg_try_advisory_lock($1) AS ok")
                    .bind(id)
                    .fetch_one(&mut *conn)
                    .await?;
                if row.try_get::<bool, _>("ok").unwrap_or(false) {
                    // At once: a move played here meanwhile must see this process as the owner.
                    self.held().insert(id);
                    taken.push(id);
                }
            }
            let nodes: Vec<u64> = sqlx::query(NODES)
                .bind(NODE_KEY_BASE >> 32)
                .fetch_all(&mut *conn)
                .await?
                .iter()
                .filter_map(|r| r.try_get::<i64, _>("key").ok())
                .map(|k| (k & ((1 << 53) - 1)) as u64)
                .collect();
            Ok((taken, nodes))
        }
        .await;
        match result {
            Ok((taken, nodes)) => Ok(Sweep { taken, lost, nodes }),
            Err(e) => {
                // Whatever was taken in this sweep is dropped with the session (the next sweep
                // reports it lost).
                *guard = None;
                Err(anyhow::anyhow!("cluster locks: {e}"))
            }
        }
    }
}

/// How often a process looks for orphaned matches; a dead owner's matches move within it.
pub const SWEEP_EVERY: Duration = Duration::from_millis(500);
