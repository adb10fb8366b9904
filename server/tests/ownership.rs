//! Match ownership at scale on PostgreSQL: thousands of running matches on a cluster whose lock
//! table is small (`max_locks_per_transaction=10`, `max_connections=40`: about 1,700 locks in
//! all), two server processes owning half each, then one of them SIGKILLed. Every match keeps a
//! live owner and every computer seat and clock keeps moving; and a full lock table refuses a
//! takeover without costing a process its own lock. With a lock per match, the second process
//! met "out of shared memory" at every sweep, its lock connection dropped with every lock it had,
//! and none of its matches' computer seats ever moved.
//!
//! A test cannot shrink the lock table of the cluster it is given, so this one starts a cluster
//! of its own through `server/scripts/postgres.sh` (as `server/test.sh` does for the suite),
//! when the suite runs on PostgreSQL (`ARBITER_TEST_DATABASE`); on SQLite it says so and passes.
//! `ARBITER_OWNERSHIP_MATCHES` sets the number of matches (2,000 by default; the clock grows
//! from 15 s past 3,000).

mod common;

use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Database, Server};
use sqlx::{Connection as _, Row as _};

/// A throwaway PostgreSQL cluster with a small lock table, stopped when dropped.
struct SmallCluster {
    script: Child,
    url: String,
}

impl SmallCluster {
    fn start() -> SmallCluster {
        let mut script = Command::new("bash")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/postgres.sh"))
            .args(["sh", "-c", "echo \"$ARBITER_TEST_DATABASE\"; exec sleep 3600"])
            .env("POSTGRES_MAX_CONNECTIONS", "40")
            .env("POSTGRES_OPTIONS", "-c max_locks_per_transaction=10")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run server/scripts/postgres.sh");
        let mut url = String::new();
        BufReader::new(script.stdout.take().unwrap())
            .read_line(&mut url)
            .expect("the small cluster's address");
        let url = url.trim().to_owned();
        assert!(url.starts_with("postgres"), "postgres.sh started no cluster");
        SmallCluster { script, url }
    }
}

impl Drop for SmallCluster {
    fn drop(&mut self) {
        // The script stops and removes its cluster on SIGTERM.
        unsafe {
            libc::kill(self.script.id() as i32, libc::SIGTERM);
        }
        let _ = self.script.wait();
    }
}

fn signal(server: &Server, signal: i32) {
    unsafe {
        libc::kill(server.child.id() as i32, signal);
    }
}

/// Inserts `n` running Trax matches as a server would have left them: a random computer in seat
/// 0 (to move) and `person` in seat 1, `time_s` a move. Returns their ids.
async fn insert_matches(pool: &sqlx::AnyPool, person: i64, n: usize, time_s: i64) -> Vec<i64> {
    let now = now_ms();
    let mut ids = Vec::with_capacity(n);
    let mut tx = pool.begin().await.unwrap();
    for i in 0..n {
        // Apart from the other batch's ids (inserted a second or more later), below 2^53.
        let id = (now % 1_000_000_000) * 100_000 + i as i64;
        sqlx::query(
            "INSERT INTO matches (id, game, options, seed, time_s, private, status, ply, deadline, started) \
             VALUES ($1, 'trax', '{\"variant\":\"8x8\"}', $2, $3, 0, 'running', 0, $4, $5)",
        )
        .bind(id)
        .bind(id.wrapping_mul(0x9E37_79B9))
        .bind(time_s)
        .bind(now + time_s * 1000)
        .bind(now)
        .execute(&mut *tx)
        .await
        .unwrap();
        sqlx::query("INSERT INTO match_seats (match_id, seat, user_id, level) VALUES ($1, 0, NULL, 'random'), ($1, 1, $2, NULL)")
            .bind(id)
            .bind(person)
            .execute(&mut *tx)
            .await
            .unwrap();
        ids.push(id);
    }
    tx.commit().await.unwrap();
    ids
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A match as stored: its owner while that owner is alive, its ply, and whether it still runs.
struct Stored {
    owner: Option<i64>,
    ply: i64,
    running: bool,
}

/// The server processes alive: the nodes whose key is locked.
async fn alive(pool: &sqlx::AnyPool) -> HashSet<i64> {
    sqlx::query(
        "SELECT ((classid::bigint << 32) | objid::bigint) & ((1::bigint << 53) - 1) AS node FROM pg_locks \
         WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND classid::bigint >= (1::bigint << 28)",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .iter()
    .map(|r| r.try_get::<i64, _>("node").unwrap())
    .collect()
}

async fn stored(pool: &sqlx::AnyPool, ids: &[i64]) -> Vec<Stored> {
    let alive = alive(pool).await;
    let wanted: HashSet<i64> = ids.iter().copied().collect();
    sqlx::query("SELECT id, owner, ply, status FROM matches")
        .fetch_all(pool)
        .await
        .unwrap()
        .iter()
        .filter(|r| wanted.contains(&r.try_get::<i64, _>("id").unwrap()))
        .map(|r| Stored {
            owner: r
                .try_get::<Option<i64>, _>("owner")
                .unwrap()
                .filter(|o| alive.contains(o)),
            ply: r.try_get("ply").unwrap(),
            running: r.try_get::<String, _>("status").unwrap() == "running",
        })
        .collect()
}

/// Waits (up to `within`) until every match of `ids` has reached `ply` (or ended) and, while it
/// runs, has a live owner in `owners` (any live owner when empty); returns the owners seen.
async fn reached(pool: &sqlx::AnyPool, ids: &[i64], ply: i64, owners: &[i64], within: Duration) -> Vec<i64> {
    let until = Instant::now() + within;
    loop {
        let all = stored(pool, ids).await;
        let behind = all.iter().filter(|m| m.running && m.ply < ply).count();
        let unowned = all
            .iter()
            .filter(|m| m.running && !m.owner.is_some_and(|o| owners.is_empty() || owners.contains(&o)))
            .count();
        if behind == 0 && unowned == 0 {
            let mut seen: Vec<i64> = all.iter().filter_map(|m| m.owner).collect();
            seen.sort_unstable();
            seen.dedup();
            return seen;
        }
        assert!(
            Instant::now() < until,
            "after {within:?}, {behind} of {} matches are not at ply {ply} yet and {unowned} have no \
             live owner among {owners:?}",
            ids.len()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_matches_keep_owners_and_moving_on_a_small_lock_table() {
    if !std::env::var("ARBITER_TEST_DATABASE").is_ok_and(|u| u.starts_with("postgres")) {
        eprintln!("ownership test: not on PostgreSQL (ARBITER_TEST_DATABASE unset): nothing to test");
        return;
    }
    let n: usize = std::env::var("ARBITER_OWNERSHIP_MATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    // The person's clock must outlast the setup (the protocol's 15 s at the CI's scale), and the
    // waits grow with the matches.
    let time_s = (n as i64 / 200).clamp(15, 300);
    let wait = Duration::from_secs(60 + n as u64 / 100);
    let cluster = SmallCluster::start();
    let db = Database::on_postgres(&cluster.url).await;
    // The schema first: a server started and stopped.
    drop(Server::start(&db));
    let pool = db.pool().await;
    let person = 42;
    sqlx::query("INSERT INTO users (id, name, name_key, password_hash, created) VALUES ($1, 'away', 'away', 'x', 0)")
        .bind(person)
        .execute(&pool)
        .await
        .unwrap();

    // Half the matches, then A alone: A takes them all, and their computer seats move at once.
    let begun = Instant::now();
    let first = insert_matches(&pool, person, n / 2, time_s).await;
    let a = Server::start(&db);
    let a_node = reached(&pool, &first, 1, &[], wait).await;
    assert_eq!(a_node.len(), 1, "{a_node:?}");
    eprintln!("{} matches owned by A and moved in {:?}", first.len(), begun.elapsed());

    // The other half while A is stopped, then B: B takes those.
    signal(&a, libc::SIGSTOP);
    let second = insert_matches(&pool, person, n - n / 2, time_s).await;
    let mut b = Server::start(&db);
    let b_node = reached(&pool, &second, 1, &[], wait).await;
    signal(&a, libc::SIGCONT);
    assert_eq!(b_node.len(), 1, "{b_node:?}");
    assert_ne!(a_node, b_node);
    let all: Vec<i64> = first.iter().chain(&second).copied().collect();
    let both = [a_node[0], b_node[0]];
    reached(&pool, &all, 1, &both, wait).await;
    eprintln!("{n} matches owned by two processes and moved in {:?}", begun.elapsed());

    // B's matches still wait for their person's clock (from the computer's move) when B
    // dies: A takes them over, the clocks run out there and the computer seats answer there.
    let early = stored(&pool, &second).await;
    assert!(
        early.iter().all(|m| m.ply == 1),
        "the setup outlasted the {time_s} s clock"
    );
    b.kill9();
    let killed = Instant::now();
    reached(&pool, &second, 1, &a_node, wait).await;
    eprintln!("B's {} matches taken over by A in {:?}", second.len(), killed.elapsed());
    reached(&pool, &all, 3, &a_node, wait).await;
    eprintln!(
        "every clock ran out and every computer seat answered on A, {:?} after the kill",
        killed.elapsed()
    );

    // A full lock table refuses a takeover's statement and nothing else: C keeps its node's lock
    // (the others still see it alive) while the table is full, and takes A's matches once it is
    // not. (A failed statement used to drop the lock connection, and every lock with it.)
    let c = Server::start(&db);
    let c_node = *alive(&pool).await.iter().find(|&&n| n != a_node[0]).expect("C's node");
    // A's locks go with A, so the table is filled once A is gone, with C held still meanwhile.
    signal(&c, libc::SIGSTOP);
    drop(a);
    while alive(&pool).await.contains(&a_node[0]) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut filler = sqlx::AnyConnection::connect(&db.url).await.unwrap();
    let mut filled = 0;
    while sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(filled + 1)
        .execute(&mut filler)
        .await
        .is_ok()
    {
        filled += 1;
    }
    signal(&c, libc::SIGCONT);
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        assert!(alive(&pool).await.contains(&c_node), "C lost its node lock");
        let owned = stored(&pool, &all).await.iter().filter(|m| m.owner.is_some()).count();
        assert_eq!(owned, 0, "taken over with the lock table full ({filled} locks)");
    }
    filler.close().await.unwrap();
    let full = Instant::now();
    reached(&pool, &all, 3, &[c_node], wait).await;
    eprintln!(
        "the lock table full ({filled} locks), then A's {n} matches taken over by C in {:?}",
        full.elapsed()
    );
    drop(c);
    pool.close().await;
}
