//! Matches written into the database as the server stores them (seed, options, seats, one row
//! a ply, the moves generated with the core), for a server started on that database to take up.

use serde_json::Value;

use super::truth::Truth;
use super::{Client, Database, Server};

/// The seconds a move: no clock runs out during a test.
pub const TIME: i64 = 300;

/// A match as generated: each move's seat and notation, and the truth after them all.
pub struct Generated {
    pub moves: Vec<(usize, String)>,
    pub truth: Truth,
}

/// Up to `plies` moves from `truth` as `pick` chooses them (fewer if the match ends or `pick`
/// finds none).
pub fn generate(mut truth: Truth, plies: usize, mut pick: impl FnMut(&Truth) -> Option<String>) -> Generated {
    let mut moves = Vec::new();
    while moves.len() < plies {
        let Some(seat) = truth.to_move() else { break };
        let Some(mv) = pick(&truth) else { break };
        truth.play(&mv);
        moves.push((seat, mv));
    }
    Generated { moves, truth }
}

/// Writes a running match of `game` between `users` with `moves` into the database, as the
/// server stores one, and returns its id.
pub async fn store(
    db: &Database,
    game: &str,
    options: Value,
    seed: u64,
    private: bool,
    users: &[i64],
    moves: &[(usize, String)],
) -> i64 {
    let pool = db.pool().await;
    let id = 7_000_000 + (seed % 1_000_000) as i64;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let mut tx = pool.begin().await.unwrap();
    sqlx::query(
        "INSERT INTO matches (id, game, options, seed, time_s, private, broadcast, status, ply, deadline, result, challenge_id, started, ended) \
         VALUES ($1, $2, $3, $4, $5, $6, 0, 'running', $7, $8, NULL, NULL, $9, NULL)",
    )
    .bind(id)
    .bind(game)
    .bind(options.to_string())
    .bind(seed as i64)
    .bind(TIME)
    .bind(i64::from(private))
    .bind(moves.len() as i64)
    .bind(now + TIME * 1000)
    .bind(now)
    .execute(&mut *tx)
    .await
    .unwrap();
    for (seat, user) in users.iter().enumerate() {
        sqlx::query(
            "INSERT INTO match_seats (match_id, seat, user_id, level, outcome) VALUES ($1, $2, $3, NULL, NULL)",
        )
        .bind(id)
        .bind(seat as i64)
        .bind(user)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    // Several rows a statement: 20,000 single inserts would take a while on PostgreSQL.
    for (chunk_no, chunk) in moves.chunks(500).enumerate() {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| {
                format!(
                    "(${}, ${}, ${}, ${}, 0, ${})",
                    i * 5 + 1,
                    i * 5 + 2,
                    i * 5 + 3,
                    i * 5 + 4,
                    i * 5 + 5
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO moves (match_id, ply, seat, notation, timeout, at) VALUES {}",
            rows.join(", ")
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (i, (seat, notation)) in chunk.iter().enumerate() {
            q = q
                .bind(id)
                .bind((chunk_no * 500 + i + 1) as i64)
                .bind(*seat as i64)
                .bind(notation.clone())
                .bind(now);
        }
        q.execute(&mut *tx).await.unwrap();
    }
    tx.commit().await.unwrap();
    pool.close().await;
    id
}

/// Registers `n` players on a first server and returns their tokens and ids: the match
/// is then written for them while no server runs.
pub async fn players(db: &Database, n: usize) -> Vec<(String, i64)> {
    let server = Server::start(db);
    let mut out = Vec::new();
    for _ in 0..n {
        let c = Client::player(&server, "long").await;
        out.push((
            c.token.clone().unwrap(),
            c.user.as_ref().unwrap()["id"].as_i64().unwrap(),
        ));
    }
    out
}
