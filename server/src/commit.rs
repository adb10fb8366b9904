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
//!
//! A plain move needs no savepoint: its first statement is the ply check, which writes nothing
//! when it refuses, and after it the row's insert can only fail with the database itself (and
//! then the whole batch does). That halves the statements of a move, and each is a round trip
//! (to PostgreSQL's process, or to SQLite's worker thread) that the batch's other moves wait for.

use std::any::Any;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use sqlx::Acquire as _;
use tokio::sync::{mpsc, oneshot, Mutex};

use crate::db::{Backend, Pool, Tx};
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
    if !advance(tx, row, ending).await? {
        return Err(stale(row));
    }
    record(tx, row).await
}

/// Why `row` was refused: its match no longer stands at its ply (another process played it).
fn stale(row: &MoveRow) -> Failure {
    Failure::internal(format!(
        "match {}: ply {} is no longer the stored one",
        row.match_id, row.ply
    ))
}

/// Advances `row`'s match by one ply if it still stands at `row.ply` and runs; whether it did.
/// Refused, it writes nothing.
async fn advance(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    row: &MoveRow,
    ending: Option<&Ending>,
) -> Result<bool, Failure> {
    let advanced = sqlx::query(
        "UPDATE matches SET ply = $1, deadline = $2, status = $3, result = $4, ended = $5 \
         WHERE id = $6 AND ply = $7 AND status = 'running'",
    )
    .bind(row.ply as i64 + 1)
    .bind(row.deadline)
    .bind(if ending.is_some() { "over" } else { "running" })
    .bind(ending.map(|e| serde_json::to_string(e).unwrap_or_default()))
    .bind(ending.map(|_| row.at))
    .bind(row.match_id)
    .bind(row.ply as i64)
    .execute(&mut **tx)
    .await?;
    Ok(advanced.rows_affected() == 1)
}

/// Inserts `row` into the match's move list (after [`advance`]).
async fn record(tx: &mut sqlx::Transaction<'_, sqlx::Any>, row: &MoveRow) -> Result<(), Failure> {
    sqlx::query("INSERT INTO moves (match_id, ply, seat, notation, timeout, at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(row.match_id)
        .bind(row.ply as i64 + 1)
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

/// What a batch runs: a plain move (no savepoint), or any work (under a savepoint).
enum Piece {
    Move(MoveRow),
    Work(Work),
}

struct Pending {
    piece: Piece,
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
        self.queued(Piece::Work(work)).await
    }

    /// Commits the move `row` (that does not end its match).
    pub(crate) async fn commit_move(&self, row: MoveRow) -> Result<(), Failure> {
        self.queued(Piece::Move(row)).await
    }

    /// Queues `piece` for a writer and returns what it gave once committed.
    async fn queued<T: 'static>(&self, piece: Piece) -> Result<T, Failure> {
        let (done, answer) = oneshot::channel();
        self.queue
            .send(Pending { piece, done })
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
        let (pieces, dones): (Vec<Piece>, Vec<_>) = batch.into_iter().map(|p| (p.piece, p.done)).unzip();
        for (done, answer) in dones.into_iter().zip(run_batch(&pool, pieces).await) {
            // A waiter that went away (its connection's task ended) needs no answer.
            let _ = done.send(answer);
        }
    }
}

/// Runs `pieces` in one transaction, each work under its savepoint; returns each one's outcome,
/// in order. A work that fails is rolled back alone, as is a move whose ply check refuses (it
/// wrote nothing); a failed BEGIN, savepoint, COMMIT or move statement fails every piece, none of
/// which is then stored.
async fn run_batch(pool: &Pool, pieces: Vec<Piece>) -> Vec<Result<Reply, Failure>> {
    let n = pieces.len();
    let whole = async {
        let mut tx = pool.begin().await?;
        let mut answers = Vec::with_capacity(n);
        for piece in pieces {
            let answer = match piece {
                Piece::Move(row) if advance(&mut tx, &row, None).await? => {
                    record(&mut tx, &row).await?;
                    Ok(Box::new(()) as Reply)
                }
                Piece::Move(row) => Err(stale(&row)),
                Piece::Work(work) => {
                    let mut one = tx.begin().await?;
                    let answer = work(&mut one).await;
                    match answer {
                        Ok(_) => one.commit().await?,
                        Err(_) => one.rollback().await?,
                    }
                    answer
                }
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;
    use sqlx::Row as _;

    /// A database of its own (SQLite, or the PostgreSQL of `ARBITER_TEST_POSTGRES`) with
    /// `matches` running matches at ply 0.
    async fn database(name: &str, matches: &[i64]) -> (Pool, Backend) {
        let dir = std::env::temp_dir().join(format!("arbiter-commit-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let url = std::env::var("ARBITER_TEST_POSTGRES")
            .unwrap_or_else(|_| format!("sqlite://{}", dir.join("c.db").display()));
        let (pool, backend) = crate::db::connect(&url).await.unwrap();
        for &id in matches {
            sqlx::query(
                "INSERT INTO matches (id, game, options, seed, time_s, private, status, ply, started) \
                 VALUES ($1, 'trax', '{}', 0, 60, 0, 'running', 0, 0)",
            )
            .bind(id)
            .execute(&pool)
            .await
            .unwrap();
        }
        (pool, backend)
    }

    fn row(match_id: i64, ply: u64) -> MoveRow {
        MoveRow {
            match_id,
            ply,
            seat: 0,
            notation: "@0/".into(),
            timeout: false,
            at: 1,
            deadline: Some(2),
        }
    }

    /// The match's ply and how many moves it has stored.
    async fn plies(pool: &Pool, id: i64) -> (i64, i64) {
        let row =
            sqlx::query("SELECT ply, (SELECT COUNT(*) FROM moves WHERE match_id = $1) FROM matches WHERE id = $1")
                .bind(id)
                .fetch_one(pool)
                .await
                .unwrap();
        (row.get::<i64, _>(0), row.get::<i64, _>(1))
    }

    /// Two good moves, a stale one (no savepoint: its refused check wrote nothing) and a work
    /// that writes, then fails (rolled back alone by its savepoint), sent at once so that they
    /// share batches.
    #[tokio::test]
    async fn a_batch_refuses_its_pieces_alone() {
        let ids = [(); 4].map(|_| crate::db::new_id());
        let (pool, backend) = database("refuse", &ids).await;
        let committer = Committer::start(pool.clone(), backend);
        let failing = committer.run(move |tx| {
            Box::pin(async move {
                write(tx, &row(ids[3], 0), None).await?;
                Err::<(), _>(Failure::internal("the work failed after writing"))
            })
        });
        let (a, stale, failed, c) = tokio::join!(
            committer.commit_move(row(ids[0], 0)),
            committer.commit_move(row(ids[1], 5)),
            failing,
            committer.commit_move(row(ids[2], 0)),
        );
        assert!(a.is_ok() && c.is_ok(), "{a:?} {c:?}");
        // Both are the server's failures (their detail goes to the log, not to a client).
        assert_eq!(stale.unwrap_err().code, Code::Internal);
        assert_eq!(failed.unwrap_err().code, Code::Internal);
        assert_eq!(plies(&pool, ids[0]).await, (1, 1));
        assert_eq!(plies(&pool, ids[1]).await, (0, 0));
        assert_eq!(plies(&pool, ids[2]).await, (1, 1));
        assert_eq!(plies(&pool, ids[3]).await, (0, 0));
        // The next move of a match goes on from the committed ply; a repeated one is refused.
        assert!(committer.commit_move(row(ids[0], 1)).await.is_ok());
        assert!(committer.commit_move(row(ids[0], 1)).await.is_err());
        assert_eq!(plies(&pool, ids[0]).await, (2, 2));
    }
}
