//! The computer players by name, in the French server's manner (« défiez Mog-Facile (ou un autre
//! robot) »): one for each level of Triple Triad's computer player, each an account of its own
//! that keeps its record of games as a person's does (`stats`), that nobody may register or log
//! in as. A computer seat of Triple Triad is its level's robot, however it was asked for.

use sqlx::Row as _;

use crate::db::{new_id, now_ms, Pool};
use crate::error::{Code, Failure};
use crate::table::GameKind;

/// Each robot's name, its word alone (what `Computer:facile` names) and the level of the core's
/// Triple Triad computer player it plays, weakest first as the core lists the levels.
const ROBOTS: [(&str, &str, &str); 4] = [
    ("Mog-Facile", "facile", "random"),
    ("Mog-Moyen", "moyen", "greedy"),
    ("Mog-Difficile", "difficile", "perfect"),
    ("Mog-Expert", "expert", "expert"),
];

/// The password hash of a robot's account: no PHC string, so that no password ever matches it.
const NO_PASSWORD: &str = "robot";

/// The robot named `name` (any case): its name as written and its level.
fn named(name: &str) -> Option<(&'static str, &'static str)> {
    let name = name.trim();
    ROBOTS
        .iter()
        .find(|(n, ..)| n.eq_ignore_ascii_case(name))
        .map(|&(n, _, level)| (n, level))
}

/// Refuses a robot's name to a person registering.
pub fn check_not_robot(name: &str) -> Result<(), Failure> {
    match named(name) {
        Some((robot, _)) => Err(Failure::new(
            Code::NameTaken,
            format!("{robot} is a computer player's name"),
        )),
        None => Ok(()),
    }
}

/// The robots' names, in the order of their levels.
pub fn names() -> impl Iterator<Item = &'static str> {
    ROBOTS.iter().map(|(n, ..)| *n)
}

/// The robots as the lobby lists them: name, game, level.
pub fn listed() -> Vec<serde_json::Value> {
    let game = GameKind::TripleTriad.name();
    ROBOTS
        .iter()
        .map(|(name, _, level)| serde_json::json!({"name": name, "game": game, "level": level}))
        .collect()
}

/// Whether `name` is a robot's, for `game`: its level (the robots play Triple Triad only; another
/// game's seat named so is refused with the reason).
pub fn level_named(game: GameKind, name: &str) -> Result<Option<String>, Failure> {
    match named(name) {
        Some((robot, _)) if game != GameKind::TripleTriad => Err(Failure::new(
            Code::BadChallenge,
            format!("{robot} plays Triple Triad only"),
        )),
        Some((_, level)) => Ok(Some(level.to_string())),
        None => Ok(None),
    }
}

/// The level a computer seat of `game` asks for: a level's name, or for Triple Triad a robot's
/// name (`Mog-Facile`) or its word alone (`facile`), any case.
pub fn level(game: GameKind, word: &str) -> Result<String, Failure> {
    let word = word.trim().to_ascii_lowercase();
    if game.levels().contains(&word.as_str()) {
        return Ok(word);
    }
    if game == GameKind::TripleTriad {
        if let Some((_, _, level)) = ROBOTS
            .iter()
            .find(|(n, w, _)| n.eq_ignore_ascii_case(&word) || *w == word)
        {
            return Ok(level.to_string());
        }
    }
    let robots = if game == GameKind::TripleTriad {
        format!(", or a computer player: {}", names().collect::<Vec<_>>().join(", "))
    } else {
        String::new()
    };
    Err(Failure::new(
        Code::BadChallenge,
        format!("unknown level {word:?} (expected {}{robots})", game.levels().join(", ")),
    ))
}

/// The name of the robot that plays `game` at `level`, if any.
pub fn name_of(game: GameKind, level: &str) -> Option<&'static str> {
    ROBOTS
        .iter()
        .find(|(.., l)| game == GameKind::TripleTriad && *l == level)
        .map(|(n, ..)| *n)
}

/// The robots' accounts, made at start where missing.
pub struct Robots {
    /// Each robot's user id, in the order of [`ROBOTS`].
    ids: Vec<i64>,
}

impl Robots {
    /// Finds or makes each robot's account. A person's account that holds a robot's name (made
    /// before robots had names) stops the start, with the name to change.
    pub async fn ensure(pool: &Pool) -> anyhow::Result<Robots> {
        let mut ids = Vec::new();
        for (name, ..) in ROBOTS {
            let key = name.to_lowercase();
            let find = || async {
                sqlx::query("SELECT id, password_hash FROM users WHERE name_key = $1")
                    .bind(key.clone())
                    .fetch_optional(pool)
                    .await
            };
            let row = match find().await? {
                Some(row) => row,
                None => {
                    // Another process of a cluster may make it first: the unique key keeps one.
                    let _ = sqlx::query(
                        "INSERT INTO users (id, name, name_key, password_hash, created) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(new_id())
                    .bind(name)
                    .bind(key.clone())
                    .bind(NO_PASSWORD)
                    .bind(now_ms())
                    .execute(pool)
                    .await;
                    find()
                        .await?
                        .ok_or_else(|| anyhow::anyhow!("the account of {name} could not be made"))?
                }
            };
            anyhow::ensure!(
                row.try_get::<String, _>("password_hash")? == NO_PASSWORD,
                "a person's account is named {name}, a computer player's name: rename it before starting"
            );
            ids.push(row.try_get("id")?);
        }
        Ok(Robots { ids })
    }

    /// The account of the robot that plays `game` at `level`, if any.
    pub fn account(&self, game: GameKind, level: &str) -> Option<(i64, &'static str)> {
        let name = name_of(game, level)?;
        let i = ROBOTS.iter().position(|(n, ..)| *n == name)?;
        Some((self.ids[i], name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_robot_a_level_in_the_cores_order() {
        let levels: Vec<&str> = ROBOTS.iter().map(|(.., l)| *l).collect();
        assert_eq!(levels, GameKind::TripleTriad.levels());
    }

    #[test]
    fn names_words_and_levels_name_a_level() {
        let tt = GameKind::TripleTriad;
        for word in ["Mog-Facile", "mog-facile", "MOG-FACILE", "facile", "Facile", "random"] {
            assert_eq!(level(tt, word).unwrap(), "random", "{word}");
        }
        assert_eq!(level(tt, "expert").unwrap(), "expert");
        assert_eq!(level(tt, "Mog-Moyen").unwrap(), "greedy");
        let e = level(tt, "nope").unwrap_err();
        assert!(
            e.message.contains("unknown level \"nope\"") && e.message.contains("Mog-Facile, Mog-Moyen"),
            "{}",
            e.message
        );
        assert!(level(GameKind::Trax, "facile").is_err());
        assert_eq!(level_named(tt, " mog-difficile").unwrap().as_deref(), Some("perfect"));
        assert_eq!(level_named(tt, "Squall").unwrap(), None);
        assert!(level_named(GameKind::Nantong, "Mog-Expert").is_err());
        assert!(check_not_robot("MOG-expert").is_err());
        assert!(check_not_robot("Mog").is_ok());
    }
}
