//! The card economy over the wire, for the economy's crash and property tests: players with
//! their starters and decks, matches with stakes played to their end by random legal moves
//! (each chosen from the mover's own view), the winner's choice, and what the database says of
//! a match afterwards.

use arbiter_core::Rng;
use serde_json::{json, Value};
use sqlx::Row as _;

use super::{Client, Database, Server};

/// A person with a connection, their id and the token that resumes them.
pub struct Player {
    pub c: Client,
    pub id: i64,
    pub token: String,
    pub name: String,
}

impl Player {
    /// Registered, with the starter set taken.
    pub async fn new(server: &Server, prefix: &str) -> Player {
        let c = Client::player(server, prefix).await;
        let mut p = Player {
            id: c.user.as_ref().unwrap()["id"].as_i64().unwrap(),
            token: c.token.clone().unwrap(),
            name: c.name(),
            c,
        };
        let s = p.c.request(json!({"type": "tt_starter"})).await;
        assert_eq!(s["cards"].as_array().map(Vec::len), Some(20), "{s}");
        p
    }

    /// A new connection to `server`, resumed with the token; the frames the resume brings
    /// (`match_state`, `tt_choose`) wait in the client.
    pub async fn reconnect(&mut self, server: &Server) {
        self.c = Client::connect(server).await;
        let r = self.c.request(json!({"type": "resume", "token": self.token})).await;
        assert_eq!(r["type"], "authenticated", "{r}");
    }

    /// Points and cards.
    pub async fn wallet(&mut self) -> (i64, i64) {
        let w = self.c.request(json!({"type": "tt_wallet"})).await;
        assert_eq!(w["type"], "tt_wallet", "{w}");
        (w["wallet"]["points"].as_i64().unwrap(), w["cards"].as_i64().unwrap())
    }

    /// (Re)builds deck `deck` from five random cards of the stash that are in no other deck;
    /// false when fewer than five are free.
    pub async fn deck(&mut self, deck: &str, rng: &mut Rng) -> bool {
        let _ = self
            .c
            .request(json!({"type": "tt_deck", "op": "delete", "name": deck}))
            .await;
        let stash = self.c.request(json!({"type": "tt_stash"})).await;
        let mut free = Vec::new();
        for e in stash["cards"].as_array().unwrap() {
            for _ in e["in_decks"].as_u64().unwrap()..e["count"].as_u64().unwrap() {
                free.push(e["card"]["id"].as_str().unwrap().to_owned());
            }
        }
        if free.len() < 5 {
            return false;
        }
        rng.shuffle(&mut free);
        free.truncate(5);
        let made = self
            .c
            .request(json!({"type": "tt_deck", "op": "create", "name": deck}))
            .await;
        assert_eq!(made["type"], "tt_deck", "{made}");
        let added = self
            .c
            .request(json!({"type": "tt_deck", "op": "add", "name": deck, "cards": free}))
            .await;
        assert_eq!(added["type"], "tt_deck", "{added}");
        true
    }
}

/// Blue (`a`, the challenger) against red (`b`) with `stake` (`{"trade", "gils", "customs"}`),
/// each with their deck `Main`, sudden death until someone wins; the match id once both have its
/// first state, or the refusal (an `error` frame) of the challenge or the acceptance.
pub async fn staked_match(a: &mut Player, b: &mut Player, stake: Value) -> Result<i64, Value> {
    let r =
        a.c.request(json!({
            "type": "challenge", "game": "triple-triad", "time": 60,
            "options": {"sudden_death": "own_colours", "deck_level_limit": 20, "deck": "Main", "stake": stake},
            "seats": [{"kind": "me"}, {"kind": "player", "name": b.name}],
        }))
        .await;
    if r["type"] != "challenge_created" {
        return Err(r);
    }
    let cid = r["challenge"]["id"].as_i64().unwrap();
    let acc =
        b.c.request(json!({"type": "accept", "challenge": cid, "deck": "Main"}))
            .await;
    if acc["type"] != "accepted" {
        let w = a.c.request(json!({"type": "withdraw", "challenge": cid})).await;
        assert_ne!(w["type"], "error", "{w}");
        return Err(acc);
    }
    let started =
        a.c.expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
            .await;
    let id = started["match"]["id"].as_i64().unwrap();
    assert!(
        started["match"]["options"]["hands"].is_null(),
        "the hands never reach a client"
    );
    for c in [&mut a.c, &mut b.c] {
        c.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
            .await;
    }
    Ok(id)
}

/// How a stretch of play ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Played {
    /// The match is over (both players were told).
    Over,
    /// The server closed a connection: it died.
    Died,
    /// The move limit was reached first, the match still running.
    Paused,
}

/// Plays random legal moves in match `id` (blue `seats[0]`, red `seats[1]`), each from the
/// mover's own view, until the match ends, the server dies, or `limit` moves are played.
pub async fn play(seats: [&mut Client; 2], id: i64, rng: &mut Rng, limit: usize) -> Played {
    let [blue, red] = seats;
    for _ in 0..limit {
        let Some(state) = blue.try_request(json!({"type": "sync", "match": id})).await else {
            return Played::Died;
        };
        assert_eq!(state["type"], "match_state", "{state}");
        let Some(seat) = state["to_move"].as_u64() else {
            return Played::Over;
        };
        let mover = if seat == 0 { &mut *blue } else { &mut *red };
        let view = if seat == 0 {
            state
        } else {
            match mover.try_request(json!({"type": "sync", "match": id})).await {
                Some(v) => v,
                None => return Played::Died,
            }
        };
        let o = &view["view"]["observation"];
        let hand = o["hand"].as_array().unwrap().len() as u64;
        let empty: Vec<usize> = (0..9).filter(|&c| o["board"][c].is_null()).collect();
        let mv = format!("{}@{}", rng.below(hand), empty[rng.below(empty.len() as u64) as usize]);
        let ply = view["ply"].as_u64().unwrap();
        let Some(r) = mover
            .try_request(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
            .await
        else {
            return Played::Died;
        };
        assert_eq!(r["type"], "moved", "{mv} refused: {r}");
        if r["to_move"].is_null() {
            for c in [&mut *blue, &mut *red] {
                let over = c
                    .expect_or_closed(|v| v["type"] == "match_over" && v["match"] == id)
                    .await;
                if over.is_none() {
                    return Played::Died;
                }
            }
            return Played::Over;
        }
    }
    Played::Paused
}

/// The winner takes the first `count` positions of the loser's five; `None` when the server
/// died before answering, else the `tt_chosen` reply.
pub async fn choose(winner: &mut Client, id: i64, count: u64) -> Option<Value> {
    let picks: Vec<String> = (1..=count).map(|i| i.to_string()).collect();
    let r = winner
        .try_request(json!({"type": "tt_choose", "match": id, "picks": picks}))
        .await?;
    assert_eq!(r["type"], "tt_chosen", "{r}");
    Some(r)
}

/// What the database says of a match with stakes.
#[derive(Debug)]
pub struct Facts {
    pub status: String,
    pub outcomes: Vec<Option<String>>,
    pub stake: String,
    /// Cards that changed owners for it (ledger lines).
    pub trades: i64,
    /// Reward lines for it (one per person once it is over).
    pub rewards: i64,
}

pub async fn facts(db: &Database, id: i64) -> Facts {
    let pool = db.pool().await;
    let one = |sql: &'static str| {
        let pool = pool.clone();
        async move { sqlx::query(sql).bind(id).fetch_one(&pool).await.unwrap() }
    };
    let status: String = one("SELECT status FROM matches WHERE id = $1")
        .await
        .try_get("status")
        .unwrap();
    let stake: String = one("SELECT status FROM tt_stakes WHERE match_id = $1")
        .await
        .try_get("status")
        .unwrap();
    let trades: i64 = one("SELECT COUNT(*) AS n FROM tt_ledger WHERE kind = 'trade_in' AND match_id = $1")
        .await
        .try_get("n")
        .unwrap();
    let rewards: i64 = one("SELECT COUNT(*) AS n FROM tt_ledger WHERE kind = 'reward' AND match_id = $1")
        .await
        .try_get("n")
        .unwrap();
    let outcomes = sqlx::query("SELECT outcome FROM match_seats WHERE match_id = $1 ORDER BY seat")
        .bind(id)
        .fetch_all(&pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get("outcome").unwrap())
        .collect();
    pool.close().await;
    Facts {
        status,
        outcomes,
        stake,
        trades,
        rewards,
    }
}

/// Triple Triad games `user` has in their stats: played, and the sum of won, lost, drawn and
/// did-not-finish (equal when every end was counted once).
pub async fn games_counted(db: &Database, user: i64) -> (i64, i64) {
    let pool = db.pool().await;
    let row = sqlx::query(
        "SELECT CAST(COALESCE(SUM(played), 0) AS BIGINT) AS p, \
         CAST(COALESCE(SUM(won + lost + drawn + dnf), 0) AS BIGINT) AS o \
         FROM stats WHERE user_id = $1 AND game = 'triple-triad'",
    )
    .bind(user)
    .fetch_one(&pool)
    .await
    .unwrap();
    let out = (row.try_get("p").unwrap(), row.try_get("o").unwrap());
    pool.close().await;
    out
}

/// Matches `user` sits in that have ended, by the seats' outcomes.
pub async fn ended_matches(db: &Database, user: i64) -> i64 {
    db.count(
        "SELECT COUNT(*) AS n FROM match_seats WHERE user_id = $1 AND outcome IS NOT NULL",
        &[user],
    )
    .await
}
