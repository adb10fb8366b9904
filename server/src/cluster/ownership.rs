//! Which process owns which match: the match's row says (`matches.owner`, a node id), and a
//! process is alive while it holds one session advisory lock, on its own node key, on one
//! dedicated connection. The owner alone runs a match's clock and its computer seats; moves stay
//! safe whoever plays them, since a move is stored only at the ply it was made at.
//!
//! Why rows and not a lock per match (as before): PostgreSQL keeps every advisory lock in its
//! shared lock table, sized `max_locks_per_transaction × max_connections` (about 10,000–48,000
//! locks at the defaults). A lock per match filled it with that many running matches; the next
//! `pg_try_advisory_lock` failed with "out of shared memory", and since a failed lock meant a
//! dropped connection, every lock went with it: no match had an owner, and a restart met the same
//! wall. Lock buckets (match id modulo N) would bound the count, but they tie a match to whoever
//! holds its bucket rather than to the process that made it, need rebalancing as processes come
//! and go, and still spend a lock table's worth of slots. With rows, a process costs one lock
//! however many matches it owns, and the death of a process is still seen at once: PostgreSQL
//! drops a session's lock when the session ends.
//!
//! A takeover moves a dead node's matches in one transaction that holds that node's key
//! (`pg_try_advisory_xact_lock`): it succeeds only while the node is gone, and a process whose
//! lock connection failed and is coming back waits on its key until the move is committed, so it
//! then reads exactly the rows still its own. A statement that fails (a refused lock, a full lock
//! table) rolls back its own transaction and nothing else; only a connection that is gone loses
//! the node's lock, and then the process stops acting for every match it held (`Sweep::lost`).

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::PgConnection;
use sqlx::{Connection as _, Row as _};

/// Node keys live in a range of their own: any other user of the database's advisory locks
/// keeps below it.
const NODE_KEY_BASE: i64 = 1 << 60;

fn node_key(node: u64) -> i64 {
    NODE_KEY_BASE | (node as i64 & ((1 << 53) - 1))
}

/// The node keys held now: the processes alive.
const NODES: &str = "SELECT ((l.classid::bigint << 32) | l.objid::bigint) AS key FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid::bigint >= $1";

/// The owners of running matches that are not alive (NULL: a match nobody ever owned).
const ORPHANED: &str = "SELECT DISTINCT owner FROM matches
        WHERE status = 'running' AND (owner IS NULL OR NOT (owner = ANY($1)))";

/// This process's matches, and its node lock's connection.
pub struct Ownership {
    url: String,
    node: u64,
    conn: tokio::sync::Mutex<Option<PgConnection>>,
    held: Mutex<HashSet<i64>>,
}

/// What a sweep found.
pub struct Sweep {
    /// Matches that are this process's now (their owner was gone, or they are still its own
    /// after its lock connection came back).
    pub taken: Vec<i64>,
    /// Matches this process may no longer own (its lock connection was lost, or another took
    /// them meanwhile): it must stop acting for them.
    pub lost: Vec<i64>,
    /// The processes alive (their node ids), this one included; unknown when the lock
    /// connection was just lost.
    pub nodes: Option<Vec<u64>>,
}

impl Ownership {
    pub async fn connect(url: &str, node: u64) -> anyhow::Result<Ownership> {
        let ownership = Ownership {
            url: url.to_owned(),
            node,
            conn: tokio::sync::Mutex::new(None),
            held: Mutex::default(),
        };
        *ownership.conn.lock().await = Some(ownership.open().await?);
        Ok(ownership)
    }

    /// A connection holding the node's key: waits while another process is taking this node's
    /// matches over (it holds the key until that is committed).
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

    /// Makes `id`, being created in `tx`, this process's: the row is committed owned, so that no
    /// other process's sweep ever finds it unowned and the match starts where it was made.
    pub async fn claim(&self, tx: &mut sqlx::Transaction<'_, sqlx::Any>, id: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE matches SET owner = $1 WHERE id = $2")
            .bind(self.node as i64)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        self.held().insert(id);
        Ok(())
    }

    /// Lets `id` go (its match ended, or was never committed). The row keeps its last owner:
    /// only running matches are swept.
    pub fn release(&self, id: i64) {
        self.held().remove(&id);
    }

    /// Takes every running match whose owner is gone, brings what this process holds in line
    /// with the rows, and says which processes are alive. A lock connection found gone takes
    /// the node's lock with it: every match held is reported lost at once (another process may
    /// take it from now on), and the connection is opened again at the next sweep.
    pub async fn sweep(&self) -> anyhow::Result<Sweep> {
        let mut guard = self.conn.lock().await;
        let conn = match guard.as_mut() {
            Some(conn) => conn,
            None => guard.insert(self.open().await?),
        };
        match self.sweep_on(conn).await {
            Ok(sweep) => Ok(sweep),
            Err(e) if gone(conn, &e).await => {
                tracing::warn!("cluster locks: connection lost: {e}");
                *guard = None;
                let lost = self.held().drain().collect();
                Ok(Sweep {
                    taken: Vec::new(),
                    lost,
                    nodes: None,
                })
            }
            Err(e) => Err(anyhow::anyhow!("cluster locks: {e}")),
        }
    }

    async fn sweep_on(&self, conn: &mut PgConnection) -> Result<Sweep, sqlx::Error> {
        let nodes: Vec<u64> = sqlx::query(NODES)
            .bind(NODE_KEY_BASE >> 32)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .filter_map(|r| r.try_get::<i64, _>("key").ok())
            .map(|k| (k & ((1 << 53) - 1)) as u64)
            .collect();
        let alive: Vec<i64> = nodes.iter().map(|&n| n as i64).collect();
        let orphaned: Vec<Option<i64>> = sqlx::query(ORPHANED)
            .bind(&alive)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .filter_map(|r| r.try_get::<Option<i64>, _>(0).ok())
            .collect();
        let mut taken = Vec::new();
        for owner in orphaned {
            match self.take(conn, owner).await {
                Ok(ids) => taken.extend(ids),
                // That owner's matches wait for the next sweep; the others are taken meanwhile.
                Err(sqlx::Error::Database(e)) => tracing::warn!("cluster: matches of {owner:?} not taken: {e}"),
                Err(e) => return Err(e),
            }
        }
        let (back, lost) = self.reconcile(conn).await?;
        taken.extend(back);
        Ok(Sweep {
            taken,
            lost,
            nodes: Some(nodes),
        })
    }

    /// Takes the running matches of `owner` (a node that is gone, or nobody) in one transaction,
    /// and holds them once it is committed.
    async fn take(&self, conn: &mut PgConnection, owner: Option<i64>) -> Result<Vec<i64>, sqlx::Error> {
        let mut tx = conn.begin().await?;
        let rows = match owner {
            Some(dead) => {
                let free = sqlx::query("SELECT pg_try_advisory_xact_lock($1) AS ok")
                    .bind(node_key(dead as u64))
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get::<bool, _>("ok")?;
                if !free {
                    // Alive after all (it came back since the nodes were read).
                    return Ok(Vec::new());
                }
                sqlx::query("UPDATE matches SET owner = $1 WHERE status = 'running' AND owner = $2 RETURNING id")
                    .bind(self.node as i64)
                    .bind(dead)
                    .fetch_all(&mut *tx)
                    .await?
            }
            None => {
                sqlx::query("UPDATE matches SET owner = $1 WHERE status = 'running' AND owner IS NULL RETURNING id")
                    .bind(self.node as i64)
                    .fetch_all(&mut *tx)
                    .await?
            }
        };
        tx.commit().await?;
        let ids = ids(&rows);
        // At once: a move played here meanwhile must see this process as the owner.
        self.held().extend(ids.iter().copied());
        Ok(ids)
    }

    /// What this process holds against its rows: running matches still its own that it does not
    /// hold (after a lost lock connection, or a creation that raced with it) are held again, and
    /// held matches another took (while the lock was gone) are let go. Returns both.
    async fn reconcile(&self, conn: &mut PgConnection) -> Result<(Vec<i64>, Vec<i64>), sqlx::Error> {
        let mine: HashSet<i64> = ids(
            &sqlx::query("SELECT id FROM matches WHERE status = 'running' AND owner = $1")
                .bind(self.node as i64)
                .fetch_all(&mut *conn)
                .await?,
        )
        .into_iter()
        .collect();
        let (back, stray): (Vec<i64>, Vec<i64>) = {
            let mut held = self.held();
            let back: Vec<i64> = mine.iter().filter(|id| !held.contains(id)).copied().collect();
            held.extend(back.iter().copied());
            (back, held.iter().filter(|id| !mine.contains(id)).copied().collect())
        };
        // Held but not among this process's running rows: ended, not yet committed, or another's.
        if stray.is_empty() {
            return Ok((back, Vec::new()));
        }
        let lost = ids(&sqlx::query(
            "SELECT id FROM matches WHERE id = ANY($1) AND status = 'running' AND owner <> $2",
        )
        .bind(&stray)
        .bind(self.node as i64)
        .fetch_all(&mut *conn)
        .await?);
        let mut held = self.held();
        for id in &lost {
            held.remove(id);
        }
        Ok((back, lost))
    }
}

fn ids(rows: &[sqlx::postgres::PgRow]) -> Vec<i64> {
    rows.iter().filter_map(|r| r.try_get::<i64, _>(0).ok()).collect()
}

/// Whether `error` left the lock connection unusable (and its lock gone). A statement the
/// database refused (a full lock table included) leaves the session, and the node's lock, as
/// they were; a fatal error or a broken socket does not, and a ping tells which.
async fn gone(conn: &mut PgConnection, error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Database(_) => conn.ping().await.is_err(),
        _ => true,
    }
}

/// How often a process looks for orphaned matches; a dead owner's matches move within it.
pub const SWEEP_EVERY: Duration = Duration::from_millis(500);
