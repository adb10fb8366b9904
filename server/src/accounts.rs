//! Accounts: names, Argon2id password hashes (computed off the executor, a few at a time, behind
//! the budgets of `guard`), session tokens stored as their SHA-256, and the per-game stats.

mod guard;

use std::net::IpAddr;
use std::sync::Arc;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use sha2::{Digest, Sha256};
use sqlx::Row as _;

use crate::db::{new_id, now_ms, Pool};
use crate::error::{Code, Failure};
pub(crate) use guard::Limits;
use guard::{Guard, Hasher};

/// A logged-in user.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct User {
    pub id: i64,
    pub name: String,
}

/// The accounts of one database.
#[derive(Clone)]
pub struct Accounts {
    pool: Pool,
    guard: Arc<Guard>,
}

/// What a login on a name nobody holds is checked against, so that it takes as long as a wrong
/// password on a name somebody holds: the hash of a random password, forgotten, with the
/// parameters every stored hash has (a test holds them equal). Written here rather than hashed at
/// start, which kept 19 MiB resident for the life of the process.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$LS+NV8K5IfmzYRPz+6jdNQ$FRtFpLZk/ZVpUdbvfVq0vxXQvrqO6Nf0NguM6EVlEmU";

/// Checks a name: 1 to 24 letters, digits, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), Failure> {
    let ok = (1..=24).contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(Failure::new(Code::BadName, "a name is 1 to 24 letters, digits, _ or -"))
    }
}

/// The languages of the web page an account may keep (PROTOCOL.md's `language`).
pub(crate) const LANGUAGES: [&str; 2] = ["en", "fr"];

/// Checks a language code: one of [`LANGUAGES`], exactly as written there.
pub(crate) fn check_language(language: &str) -> Result<(), Failure> {
    if LANGUAGES.contains(&language) {
        Ok(())
    } else {
        Err(Failure::new(
            Code::BadLanguage,
            format!("a language is one of {}", LANGUAGES.join(", ")),
        ))
    }
}

fn check_password(password: &str) -> Result<(), Failure> {
    if (8..=128).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(Failure::new(Code::BadPassword, "a password is 8 to 128 characters"))
    }
}

/// The stored form of a token.
fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Accounts {
    pub fn new(pool: Pool, limits: Limits) -> Accounts {
        Accounts {
            pool,
            guard: Guard::new(limits),
        }
    }

    /// Runs `work` on the blocking pool with `hasher`: Argon2id takes a core and 19 MiB for tens
    /// of milliseconds, and hundreds at once would exhaust memory.
    async fn hashing<T: Send + 'static>(
        hasher: Hasher,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failure> {
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop(hasher);
            out
        })
        .await
        .map_err(|_| Failure::internal("password hashing failed"))
    }

    /// Creates an account for a connection from `peer` (under the same budgets as a login),
    /// keeping `language` as its page's language when given.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        language: Option<&str>,
        peer: IpAddr,
    ) -> Result<(User, String), Failure> {
        check_name(name)?;
        crate::robots::check_not_robot(name)?;
        check_password(password)?;
        language.map(check_language).transpose()?;
        let ticket = self.guard.admit(peer.into(), None)?;
        // The hasher first, the database after: a login refused `busy` costs no query, so that
        // a flood of them never queues honest logins behind its reads.
        let hasher = self.guard.hasher(&ticket).await?;
        let key = name.to_lowercase();
        let taken = sqlx::query("SELECT id FROM users WHERE name_key = $1")
            .bind(key.clone())
            .fetch_optional(&self.pool)
            .await?;
        if taken.is_some() {
            return Err(Failure::new(Code::NameTaken, format!("the name {name} is taken")));
        }
        let password = password.to_owned();
        let hash = Self::hashing(hasher, move || {
            Argon2::default()
                .hash_password(password.as_bytes())
                .map(|h| h.to_string())
        })
        .await?
        .map_err(|_| Failure::internal("password hashing failed"))?;
        let user = User {
            id: new_id(),
            name: name.to_owned(),
        };
        let inserted = sqlx::query(
            "INSERT INTO users (id, name, name_key, password_hash, created, language) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user.id)
        .bind(user.name.clone())
        .bind(key)
        .bind(hash)
        .bind(now_ms())
        .bind(language.map(str::to_owned))
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => {}
            // Two registrations of one name at once: the unique key refuses the second.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(Failure::new(Code::NameTaken, format!("the name {name} is taken")));
            }
            Err(e) => return Err(e.into()),
        }
        let token = self.new_session(user.id).await?;
        Ok((user, token))
    }

    /// Checks a password for a connection from `peer`. A name nobody holds costs the same time
    /// and counts the same failures as a wrong password, so that neither tells it apart.
    pub async fn login(&self, name: &str, password: &str, peer: IpAddr) -> Result<(User, String), Failure> {
        let failed = || Failure::new(Code::LoginFailed, "wrong name or password");
        if check_name(name).is_err() || check_password(password).is_err() {
            return Err(failed());
        }
        let key = name.to_lowercase();
        let ticket = self.guard.admit(peer.into(), Some(&key))?;
        // See `register`: no query before the hasher.
        let hasher = self.guard.hasher(&ticket).await?;
        let row = sqlx::query("SELECT id, name, password_hash FROM users WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        let (user, stored) = match row {
            Some(row) => (
                Some(User {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                }),
                row.try_get::<String, _>("password_hash")?,
            ),
            None => (None, DUMMY_HASH.to_owned()),
        };
        let password = password.to_owned();
        let verified = Self::hashing(hasher, move || {
            PasswordHash::new(&stored).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
        })
        .await?;
        let user = user.filter(|_| verified);
        self.guard.record(&ticket, user.is_some());
        let user = user.ok_or_else(failed)?;
        let token = self.new_session(user.id).await?;
        Ok((user, token))
    }

    async fn new_session(&self, user: i64) -> Result<String, Failure> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|_| Failure::internal("no random source"))?;
        let token = hex(&bytes);
        sqlx::query("INSERT INTO sessions (token_hash, user_id, created) VALUES ($1, $2, $3)")
            .bind(token_hash(&token))
            .bind(user)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(token)
    }

    pub async fn resume(&self, token: &str) -> Result<User, Failure> {
        let row = sqlx::query(
            "SELECT users.id AS id, users.name AS name FROM sessions JOIN users ON users.id = sessions.user_id \
             WHERE sessions.token_hash = $1",
        )
        .bind(token_hash(token))
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| Failure::new(Code::BadToken, "unknown or forgotten token: log in again"))?;
        Ok(User {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        })
    }

    /// The page's language `user` chose, if they ever did.
    pub async fn language(&self, user: i64) -> Result<Option<String>, Failure> {
        let row = sqlx::query("SELECT language FROM users WHERE id = $1")
            .bind(user)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("language")?)
    }

    /// Keeps `language` (checked) as `user`'s page language.
    pub async fn set_language(&self, user: i64, language: &str) -> Result<(), Failure> {
        check_language(language)?;
        sqlx::query("UPDATE users SET language = $1 WHERE id = $2")
            .bind(language.to_owned())
            .bind(user)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn forget(&self, token: &str) -> Result<(), Failure> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn find(&self, name: &str) -> Result<User, Failure> {
        let row = sqlx::query("SELECT id, name FROM users WHERE name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| Failure::new(Code::NoSuchPlayer, format!("no player is named {name}")))?;
        Ok(User {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
        })
    }

    /// Played, won, lost, drawn and did-not-finish counts per game.
    pub async fn stats(&self, user: i64) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
        let rows =
            sqlx::query("SELECT game, played, won, lost, drawn, dnf FROM stats WHERE user_id = $1 ORDER BY game")
                .bind(user)
                .fetch_all(&self.pool)
                .await?;
        let mut out = serde_json::Map::new();
        for r in rows {
            let mut counts = serde_json::Map::new();
            for k in ["played", "won", "lost", "drawn", "dnf"] {
                counts.insert(k.into(), r.try_get::<i64, _>(k)?.into());
            }
            out.insert(r.try_get("game")?, counts.into());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dummy_hash_costs_what_a_stored_one_does() {
        let dummy = PasswordHash::new(DUMMY_HASH).unwrap();
        let fresh = Argon2::default().hash_password(b"any password").unwrap().to_string();
        let fresh = PasswordHash::new(&fresh).unwrap();
        assert_eq!(dummy.algorithm, fresh.algorithm);
        assert_eq!(dummy.version, fresh.version);
        assert_eq!(dummy.params, fresh.params);
        assert_eq!(dummy.salt.map(|s| s.len()), fresh.salt.map(|s| s.len()));
        assert_eq!(dummy.hash.map(|h| h.len()), fresh.hash.map(|h| h.len()));
    }

    #[test]
    fn names_and_passwords() {
        assert!(check_name("alice_2-b").is_ok());
        for bad in ["", "a b", "é", "<script>", &"x".repeat(25)] {
            assert_eq!(check_name(bad).unwrap_err().code, Code::BadName, "{bad:?}");
        }
        assert!(check_password("12345678").is_ok());
        assert_eq!(check_password("1234567").unwrap_err().code, Code::BadPassword);
    }

    #[test]
    fn only_the_pages_languages_are_kept() {
        for good in LANGUAGES {
            assert!(check_language(good).is_ok());
        }
        for bad in ["", "FR", "de", "fr-FR", "fr\n", &"f".repeat(1000)] {
            assert_eq!(check_language(bad).unwrap_err().code, Code::BadLanguage, "{bad:?}");
        }
    }

    #[test]
    fn tokens_are_stored_hashed() {
        let h = token_hash("abc");
        assert_eq!(h.len(), 64);
        assert_ne!(h, "abc");
        assert_eq!(h, token_hash("abc"));
    }
}
