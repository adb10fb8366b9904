//! The economy's property test, over the wire against the real server: several players with
//! random decks play random matches with random stakes (every trade rule, gil bets, both
//! customs), with random disconnects and reconnects, random leaving, random purchases, the winner
//! choosing or waiving, and the server SIGKILLed and restarted a few times, mid-match and with
//! a choice open. After every match: the invariant (`--audit`), the match ended exactly once,
//! and every player's stats count each ended match once.
//!
//! Seeded: `ARBITER_TEST_SEED=<n>` replays the test's own choices (the seed is printed; each
//! match's deal seed is the server's own, so a replay is close, not identical); `ARBITER_TEST_MATCHES`
//! scales it (default 14 matches). On SQLite, and on PostgreSQL when the test command provides it.

mod common;

use arbiter_core::Rng;
use common::economy::{ended_matches, facts, games_counted, play, staked_match, Played, Player};
use common::{Database, Server};
use serde_json::json;

const ARGS: &[&str] = &["--rate", "2000", "--burst", "2000"];

const TRADES: [&str; 12] = [
    "training",
    "none",
    "one",
    "two",
    "three",
    "four",
    "all",
    "diff",
    "diff_over_five",
    "direct",
    "random",
    "one",
];

/// What the run did, for the figures at the end.
#[derive(Default, Debug)]
struct Tally {
    matches: u32,
    refused: u32,
    forfeits: u32,
    choices: u32,
    waived: u32,
    disconnects: u32,
    kills: u32,
    purchases: u32,
}

struct World {
    db: Database,
    server: Server,
    players: Vec<Player>,
    rng: Rng,
    kills_left: u32,
    tally: Tally,
}

impl World {
    /// SIGKILL, restart on the same database, everyone reconnects.
    async fn kill(&mut self) {
        self.server.kill9();
        self.server = Server::start_with(&self.db, ARGS);
        for p in &mut self.players {
            p.reconnect(&self.server).await;
        }
        self.kills_left -= 1;
        self.tally.kills += 1;
    }

    /// Whether to kill now: about one chance in `one_in`, while kills are left.
    fn kill_now(&mut self, one_in: u64) -> bool {
        self.kills_left > 0 && self.rng.below(one_in) == 0
    }

    /// Player `i` drops (no close) and comes back with its token.
    async fn drop_and_return(&mut self, i: usize) {
        let p = &mut self.players[i];
        p.reconnect(&self.server).await;
        self.tally.disconnects += 1;
    }

    fn two(&mut self, i: usize, j: usize) -> (&mut Player, &mut Player) {
        assert_ne!(i, j);
        if i < j {
            let (l, r) = self.players.split_at_mut(j);
            (&mut l[i], &mut r[0])
        } else {
            let (l, r) = self.players.split_at_mut(i);
            (&mut r[0], &mut l[j])
        }
    }

    /// One match between players `i` (blue) and `j` (red), with everything that may befall it.
    async fn one_match(&mut self, i: usize, j: usize) {
        let mut rng = Rng::new(self.rng.next_u64());
        let gils = if rng.below(2) == 0 { 0 } else { rng.below(30) };
        let stake = json!({
            "trade": TRADES[rng.below(TRADES.len() as u64) as usize],
            "gils": gils,
            "customs": if rng.below(5) == 0 { "ttonline" } else { "mush" },
        });
        let (a, b) = self.two(i, j);
        let usable = a.deck("Main", &mut rng).await && b.deck("Main", &mut rng).await;
        if !usable {
            self.tally.refused += 1;
            return;
        }
        let id = match staked_match(a, b, stake.clone()).await {
            Ok(id) => id,
            Err(e) => {
                // Refused with its reason, and nothing changed (the audit below says so).
                assert!(
                    matches!(e["code"].as_str(), Some("bad_stake" | "deck_unusable")),
                    "{stake}: {e}"
                );
                self.tally.refused += 1;
                return;
            }
        };
        loop {
            let (a, b) = self.two(i, j);
            let step = 1 + rng.below(8) as usize;
            match play([&mut a.c, &mut b.c], id, &mut rng, step).await {
                Played::Over => break,
                Played::Died => panic!("the server died by itself in match {id}"),
                Played::Paused => {}
            }
            match rng.below(12) {
                0 if self.kill_now(2) => self.kill().await,
                1 | 2 => {
                    let who = if rng.below(2) == 0 { i } else { j };
                    self.drop_and_return(who).await;
                }
                3 => {
                    let (a, b) = self.two(i, j);
                    let leaver = if rng.below(2) == 0 { a } else { b };
                    let left = leaver.c.request(json!({"type": "leave", "match": id})).await;
                    assert_eq!(left["type"], "left", "{left}");
                    self.tally.forfeits += 1;
                    break;
                }
                _ => {}
            }
        }
        if facts(&self.db, id).await.stake == "choosing" {
            if self.kill_now(3) {
                self.kill().await;
            } else if rng.below(4) == 0 {
                let who = if rng.below(2) == 0 { i } else { j };
                self.drop_and_return(who).await;
            }
            let (a, b) = self.two(i, j);
            let offer = a.c.expect_where(|v| v["type"] == "tt_choose" && v["match"] == id).await;
            let winner = if offer["chooser"] == a.id { a } else { b };
            let count = offer["count"].as_u64().unwrap();
            let waive = rng.below(8) == 0;
            let picks: Vec<String> = if waive {
                Vec::new()
            } else {
                let mut five: Vec<String> = (1..=5).map(|p| p.to_string()).collect();
                rng.shuffle(&mut five);
                five.truncate(count as usize);
                five
            };
            let r = winner
                .c
                .request(json!({"type": "tt_choose", "match": id, "picks": picks}))
                .await;
            assert_eq!(r["type"], "tt_chosen", "{r}");
            self.tally.choices += 1;
            self.tally.waived += u32::from(waive);
        }
        self.tally.matches += 1;
        let f = facts(&self.db, id).await;
        assert_eq!((f.status.as_str(), f.stake.as_str()), ("over", "settled"), "{f:?}");
        assert!(f.outcomes.iter().all(Option::is_some), "{f:?}");
        assert_eq!(f.rewards, 2, "{f:?}");
    }

    /// A random purchase by player `i` (refused when their points do not cover it).
    async fn purchase(&mut self, i: usize) {
        let level = 1 + self.rng.below(3);
        let p = &mut self.players[i];
        let r =
            p.c.request(json!({"type": "tt_buy", "series": "A", "level": level}))
                .await;
        match r["type"].as_str() {
            Some("tt_bought") => self.tally.purchases += 1,
            _ => assert!(
                matches!(r["code"].as_str(), Some("not_enough_points" | "copy_limit")),
                "{r}"
            ),
        }
    }

    /// The invariant, and each player's stats counting each ended match once.
    async fn check(&mut self) -> serde_json::Value {
        let figures = self.db.audit();
        for p in &self.players {
            let (played, outcomes) = games_counted(&self.db, p.id).await;
            assert_eq!(played, outcomes, "stats of {}", p.name);
            assert_eq!(played, ended_matches(&self.db, p.id).await, "stats of {}", p.name);
        }
        figures
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_matches_stakes_drops_and_kills_keep_the_economy_sound() {
    let seed = env_u64("ARBITER_TEST_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
    });
    let matches = env_u64("ARBITER_TEST_MATCHES").unwrap_or(14);
    println!("economy_random: ARBITER_TEST_SEED={seed} ARBITER_TEST_MATCHES={matches}");
    let db = Database::fresh().await;
    let server = Server::start_with(&db, ARGS);
    let mut players = Vec::new();
    for i in 0..4 {
        players.push(Player::new(&server, &format!("p{i}_")).await);
    }
    let mut w = World {
        db,
        server,
        players,
        rng: Rng::new(seed),
        kills_left: 2,
        tally: Tally::default(),
    };
    let mut played = 0;
    while played < matches {
        let i = w.rng.below(4) as usize;
        let j = (i + 1 + w.rng.below(3) as usize) % 4;
        if w.rng.below(5) == 0 {
            w.purchase(i).await;
        } else {
            w.one_match(i, j).await;
            played += 1;
        }
        w.check().await;
    }
    // At least one kill in every run, whatever the dice said.
    if w.tally.kills == 0 {
        w.kill().await;
    }
    let figures = w.check().await;
    let t = &w.tally;
    println!(
        "economy_random ({}): {} matches played ({} forfeits, {} choices, {} waived), {} refused with their reason, \
         {} purchases, {} cards transferred, {} disconnects, {} server kills survived; invariant {figures}",
        if w.db.is_postgres() { "PostgreSQL" } else { "SQLite" },
        t.matches,
        t.forfeits,
        t.choices,
        t.waived,
        t.refused,
        t.purchases,
        figures["transfers"],
        t.disconnects,
        t.kills,
    );
    assert!(t.matches > 0, "{t:?}");
}
