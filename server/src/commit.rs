//! Group commit. A commit costs an fsync (SQLite with `synchronous=FULL`, PostgreSQL with
//! `fsync=on`), and at a thousand matches the moves queued behind each other's fsync: the wait,
//! not the work, made the round trip. So moves go to a writer that takes every piece of work
//! waiting at once, runs them in one transaction (each under a savepoint of its own, so that one
//! move's failed ply check rolls back that move only), commits once and then answers each
//! waiter. A waiter (the match's `play`, holding the match's lock) tells nobody before its
//! answer: a move acknowledged to anyone is committed.
//!
//! There is no timer: a batch is whatever arrived while the previous commit was in flight, so a
//! quiet server commits each move at once and a busy one shares its fsyncs.

use std::any::Any;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use sqlx::Acquire as _;
use tokio::sync::{mpsc, oneshot, Mutex};

use crate::db::{Backend, Pool};
use crate::economy::Tx;
use crate::error::Failure;
use crate::table::Ending;

/// The most pieces of work one transaction takes: a bound on the time a batch holds its connection (on
/// SQLite, the only one) and on the statements a failed commit takes back.
const BATCH: usize = 512;
/// Pieces of work that may wait for a writer before `play` itself waits (back-pressure, not a limit).
const QUEUE: usize = 8192;

/// The rows of one move: match `match_id` advances from ply `ply` to `ply + 1`.
#[derive(Clone, Debug)]
pub(crate) struct MoveRow {
    pub match_id: i64,
    pub ply: u64,
    pub seat: usize,
    pub notation: String,
    pub timeout: bool,
    /// When it was played (Unix ms).
    pub at: i64,
    /// The next seat's deadline (none once the match is over).
    pub deadline: Option<i64>,
}

/// Writes `row` in `tx`: the match advances only if it still stands at `row.ply` and runs, and
/// `ending`, if the move ends it, is its stored result. The caller commits (or rolls back).
pub(crate) async fn write(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    row: &MoveRow,
    ending: Option<&Ending>,
) -> Result<(), Failure> {
    let new_ply = row.ply as i64 + 1;
    let advanced = sqlx::query(
        "UPDATE matches SET ply = $1, deadline = $2, status = $3, result = $4, ended = $5 \
         WHERE id = $6 AND ply = $7 AND status = 'running'",
    )
    .bind(new_ply)
    .bind(row.deadline)
    .bind(if ending.is_some() { "over" } else { "running" })
    .bind(ending.map(|e| serde_json::to_string(e).unwrap_or_default()))
    .bind(ending.map(|_| row.at))
    .bind(row.match_id)
    .bind(row.ply as i64)
    .execute(&mut **tx)
    .await?;
    if advanced.rows_affected() != 1 {
        return Err(Failure::internal(format!(
            "match {}: ply {} is no longer the stored one",
            row.match_id, row.ply
        )));
    }
    sqlx::query("INSERT INTO moves (match_id, ply, seat, notation, timeout, at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(row.match_id)
        .bind(new_ply)
        .bind(row.seat as i64)
        .bind(&row.notation)
        .bind(i64::from(row.timeout))
        .bind(row.at)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// What a piece of work gives back once committed (the caller's type, erased on the way).
type Reply = Box<dyn Any + Send>;
/// A piece of work: statements run in a transaction shared with others, under a savepoint.
type Work = Box<dyn for<'a, 'b> FnOnce(&'a mut Tx<'b>) -> BoxFuture<'a, Result<Reply, Failure>> + Send>;

struct Pending {
    work: Work,
    done: oneshot::Sender<Result<Reply, Failure>>,
}

/// The writers of one pool and the queue they take work from.
pub(crate) struct Committer {
    queue: mpsc::Sender<Pending>,
}

impl Committer {
    /// Starts the writers of `pool`: one on SQLite (it has one connection and one writer at a
    /// time anyway), and on PostgreSQL a quarter of the pool's connections, so that one batch's
    /// fsync overlaps the next batch's statements while the rest of the pool serves everything
    /// else (logins, challenges, match ends).
    pub(crate) fn start(pool: Pool, backend: Backend) -> Committer {
        let writers = match backend {
            Backend::Sqlite => 1,
            Backend::Postgres => (pool.options().get_max_connections() as usize / 4).max(1),
        };
        let (queue, rx) = mpsc::channel(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..writers {
            tokio::spawn(writer(pool.clone(), rx.clone()));
        }
        Committer { queue }
    }

    /// Runs `work` in some batch's transaction and returns what it gave once that transaction is
    /// committed, or why not (and then nothing it wrote is stored).
    pub(crate) async fn run<T, F>(&self, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: for<'a, 'b> FnOnce(&'a mut Tx<'b>) -> BoxFuture<'a, Result<T, Failure>> + Send + 'static,
    {
        let work: Work = Box::new(move |tx| {
            let done = work(tx);
            Box::pin(async move { done.await.map(|t| Box::new(t) as Reply) })
        });
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Pending { work, done })
            .await
            .map_err(|_| Failure::internal("the writer stopped"))?;
        let reply = answer
            .await
            .map_err(|_| Failure::internal("the writer dropped a piece of work"))??;
        reply
            .downcast::<T>()
            .map(|t| *t)
            .map_err(|_| Failure::internal("the writer answered with another type"))
    }

    /// Commits the move `row` (that does not end its match).
    pub(crate) async fn commit_move(&self, row: MoveRow) -> Result<(), Failure> {
        self.run(move |tx| Box::pin(async move { write(tx, &row, None).await }))
            .await
    }
}

/// One writer: takes what waits (the receiver is shared, so that while one writer's batch is
/// committing another gathers the next), runs it, answers.
async fn writer(pool: Pool, rx: Arc<Mutex<mpsc::Receiver<Pending>>>) {
    loop {
        let mut batch = Vec::new();
        {
            let mut rx = rx.lock().await;
            // Closed: the hub (the one sender) is gone.
            if rx.recv_many(&mut batch, BATCH).await == 0 {
                return;
            }
        }
        let (works, dones): (Vec<Work>, Vec<_>) = batch.into_iter().map(|p| (p.work, p.done)).unzip();
        for (done, answer) in dones.into_iter().zip(run_batch(&pool, works).await) {
            // A waiter that went away (its connection's task ended) needs no answer.
            let _ = done.send(answer);
        }
    }
}

/// Runs `works` in one transaction, each under its savepoint; returns each one's outcome, in
/// order. A piece that fails (a move's ply check) is rolled back alone; a failed BEGIN, savepoint
/// or COMMIT fails every piece, none of which is then stored.
async fn run_batch(pool: &Pool, works: Vec<Work>) -> Vec<Result<Reply, Failure>> {
    let n = works.len();
    let whole = async {
        let mut tx = pool.begin().await?;
        let mut answers = Vec::with_capacity(n);
        for work in works {
            let mut one = tx.begin().await?;
            let answer = work(&mut one).await;
            match answer {
                Ok(_) => one.commit().await?,
                Err(_) => one.rollback().await?,
            }
            answers.push(answer);
        }
        tx.commit().await?;
        Ok::<_, Failure>(answers)
    };
    match whole.await {
        Ok(answers) => answers,
        Err(f) => (0..n).map(|_| Err(f.clone())).collect(),
    }
}
