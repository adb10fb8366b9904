//! The database: one `AnyPool` over SQLite or PostgreSQL, the same migrations and the same SQL
//! for both (basic types, `$n` placeholders), server-made ids and Unix-millisecond times.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor};

/// A pool over either database.
pub type Pool = AnyPool;
/// A row of either database.
pub type Row = AnyRow;

/// A transaction on the pool: what the steps of one change share.
pub type Tx<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// Which database the pool speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Connects (creating a SQLite file at first start) and runs the migrations.
pub async fn connect(url: &str) -> anyhow::Result<(Pool, Backend)> {
    sqlx::any::install_default_drivers();
    let (url, backend) = if let Some(rest) = url.strip_prefix("sqlite:") {
        // Create the file if missing; pragmas cannot go in the URL (after_connect sets them).
        let sep = if rest.contains('?') { '&' } else { '?' };
        let url = if rest.contains("mode=") {
            url.to_owned()
        } else {
            format!("{url}{sep}mode=rwc")
        };
        (url, Backend::Sqlite)
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
        (url.to_owned(), Backend::Postgres)
    } else {
        anyhow::bail!("database {url:?}: expected sqlite://FILE or postgres://…");
    };
    // No ping before each use: it was one more round trip for every transaction, moves
    // included. A connection the database dropped fails its statement instead (nothing is
    // acknowledged then) and the pool replaces it.
    let options = AnyPoolOptions::new()
        .acquire_timeout(Duration::from_secs(10))
        .test_before_acquire(false);
    let options = match backend {
        // One connection: SQLite has one writer at a time anyway, and a single connection never
        // meets SQLITE_BUSY between its own transactions. WAL with synchronous=FULL fsyncs each
        // commit, so a move acknowledged after COMMIT survives a crash or a power cut.
        Backend::Sqlite => options.max_connections(1).after_connect(|conn, _| {
            Box::pin(async move {
                conn.execute("PRAGMA journal_mode=WAL").await?;
                conn.execute("PRAGMA synchronous=FULL").await?;
                conn.execute("PRAGMA foreign_keys=ON").await?;
                conn.execute("PRAGMA busy_timeout=10000").await?;
                Ok(())
            })
        }),
        Backend::Postgres => options.max_connections(16),
    };
    let pool = options
        .connect(&url)
        .await
        .map_err(|e| anyhow::anyhow!("database {}: {e}", redact(&url)))?;
    sqlx::migrate!("./migrations")
        .run(&pool)
        .await
        .map_err(|e| anyhow::anyhow!("migrations: {e}"))?;
    Ok((pool, backend))
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => match url[s + 3..at].find(':') {
            Some(colon) => format!("{}:***{}", &url[..s + 3 + colon], &url[at..]),
            None => url.to_owned(),
        },
        _ => url.to_owned(),
    }
}

/// A fresh id: random, nonzero, below 2^53 so that JavaScript numbers hold it exactly.
pub fn new_id() -> i64 {
    loop {
        let id = (getrandom::u64().expect("the system's random source") & ((1 << 53) - 1)) as i64;
        if id != 0 {
            return id;
        }
    }
}

/// Now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_cut_from_urls() {
        assert_eq!(redact("postgres://u:secret@h:5/db"), "postgres://u:***@h:5/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://a.db"), "sqlite://a.db");
    }

    #[test]
    fn ids_are_safe_in_javascript() {
        for _ in 0..1000 {
            let id = new_id();
            assert!(id > 0 && id < 1 << 53);
        }
    }
}
