//! The server's settings: command line, environment variables (`ARBITER_*`) and an optional
//! TOML file, in that order of precedence.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;
use serde::Deserialize;

/// `arbiter-server`: the online game server of Arbiter.
#[derive(Parser, Debug, Clone)]
#[command(version, about)]
pub struct Cli {
    /// The address to listen on (`127.0.0.1:0` picks a free port and prints it).
    #[arg(long, env = "ARBITER_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// `sqlite://FILE` (created at first start) or `postgres://…` (default: sqlite://arbiter.db).
    #[arg(long, env = "ARBITER_DATABASE")]
    pub database: Option<String>,
    /// A TOML file with any of the settings below (keys as the long options, `_` for `-`).
    #[arg(long, env = "ARBITER_CONFIG")]
    pub config: Option<PathBuf>,
    /// The folder served at `/` (the npm package folder holding `demo/`).
    #[arg(long, env = "ARBITER_STATIC_DIR")]
    pub static_dir: Option<PathBuf>,
    /// The largest WebSocket frame accepted, in bytes.
    #[arg(long, env = "ARBITER_MAX_FRAME")]
    pub max_frame: Option<usize>,
    /// Messages a second each connection may send, on average.
    #[arg(long, env = "ARBITER_RATE")]
    pub rate: Option<u32>,
    /// Messages a connection may send at once above the rate.
    #[arg(long, env = "ARBITER_BURST")]
    pub burst: Option<u32>,
    /// Password hashes computed at once (each takes 19 MiB and a core for ~50 ms).
    #[arg(long, env = "ARBITER_HASHERS")]
    pub hashers: Option<usize>,
    /// Logins and registrations waiting for a hasher; beyond, `busy` answers at once.
    #[arg(long, env = "ARBITER_LOGIN_QUEUE")]
    pub login_queue: Option<usize>,
    /// Logins and registrations one peer (an IPv4 address, an IPv6 /64) may have hashing or
    /// waiting at once; beyond, `too_many_logins`.
    #[arg(long, env = "ARBITER_LOGIN_PEER_HASHES")]
    pub login_peer_hashes: Option<u32>,
    /// Failed logins one peer may make in any ten minutes; beyond, `too_many_logins`.
    #[arg(long, env = "ARBITER_LOGIN_PEER_FAILURES")]
    pub login_peer_failures: Option<u32>,
    /// Failed logins on one name from one peer before that peer's logins on it back off
    /// (`login_throttled`, 1 s doubling with each further failure, up to 15 min).
    #[arg(long, env = "ARBITER_LOGIN_NAME_FAILURES")]
    pub login_name_failures: Option<u32>,
    /// Failed logins on one name from all peers before it backs off for every peer that failed
    /// a login within the hour.
    #[arg(long, env = "ARBITER_LOGIN_ACCOUNT_FAILURES")]
    pub login_account_failures: Option<u32>,
    /// The longest a computer player thinks on one move, in milliseconds (also bounded by its clock).
    #[arg(long, env = "ARBITER_THINK_MS")]
    pub think_ms: Option<u64>,
    /// Milliseconds after a Nantong claim question is put before any `pass` to it is told: the
    /// server's answer to a question whose only answer is `pass`, and a seat's own pass sent
    /// sooner, alike (so that nobody can tell the two apart).
    #[arg(long, env = "ARBITER_CLAIM_PAUSE_MS")]
    pub claim_pause_ms: Option<u64>,
    /// Also serve the text game's `+TT/...` commands on this address (line-based TCP; e.g.
    /// `127.0.0.1:4201`, a loopback address unless you mean otherwise). Off when not given.
    #[arg(long, env = "ARBITER_MUSH_LISTEN")]
    pub mush_listen: Option<SocketAddr>,
    /// Seconds the people of a Triple Triad game between people have, once its last seat is
    /// taken, to pick the five cards they play if they named none (0: no window, each plays their
    /// current deck at once).
    #[arg(long, env = "ARBITER_PICK_SECONDS")]
    pub pick_seconds: Option<u64>,
    /// Open challenges one account may have at once (more: `too_many_challenges`).
    #[arg(long, env = "ARBITER_MAX_CHALLENGES")]
    pub max_challenges: Option<u32>,
    /// Running matches one account may sit in before it may make or accept another
    /// (`too_many_matches`).
    #[arg(long, env = "ARBITER_MAX_MATCHES")]
    pub max_matches: Option<u32>,
    /// Seconds an HTTP client has to send a request's headers (also the longest an idle
    /// keep-alive connection waits for its next request).
    #[arg(long, env = "ARBITER_HEADER_TIMEOUT")]
    pub header_timeout: Option<u64>,
    /// Seconds a WebSocket has to send `hello` after it opens.
    #[arg(long, env = "ARBITER_HELLO_TIMEOUT")]
    pub hello_timeout: Option<u64>,
    /// Seconds a WebSocket may stay silent (no frame, no answer to the server's pings, which go
    /// out after half of it) before it is closed.
    #[arg(long, env = "ARBITER_IDLE_TIMEOUT")]
    pub idle_timeout: Option<u64>,
    /// Seconds a text connection has to log in.
    #[arg(long, env = "ARBITER_TEXT_LOGIN_TIMEOUT")]
    pub text_login_timeout: Option<u64>,
    /// Seconds a logged-in text connection may send no line before it is closed.
    #[arg(long, env = "ARBITER_TEXT_IDLE_TIMEOUT")]
    pub text_idle_timeout: Option<u64>,
    /// Connections one peer address (an IPv6 /64) may hold at once, on all listeners together.
    #[arg(long, env = "ARBITER_MAX_PER_PEER")]
    pub max_per_peer: Option<u32>,
    /// Connections the server holds at once, on all listeners together (default: the open-file
    /// limit, raised to its hard limit at start, less a tenth kept for the database and files).
    #[arg(long, env = "ARBITER_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Characters a chat line may hold (once stripped of control characters).
    #[arg(long, env = "ARBITER_CHAT_MAX")]
    pub chat_max: Option<usize>,
    /// Chat lines (and `!` commands) an account may send a minute, on average.
    #[arg(long, env = "ARBITER_CHAT_RATE")]
    pub chat_rate: Option<u32>,
    /// Chat lines an account may send at once above the rate.
    #[arg(long, env = "ARBITER_CHAT_BURST")]
    pub chat_burst: Option<u32>,
    /// The last lines of a chat room told to whoever joins it (0: none kept).
    #[arg(long, env = "ARBITER_CHAT_HISTORY")]
    pub chat_history: Option<usize>,
    /// Seconds a quiz question stays open.
    #[arg(long, env = "ARBITER_QUIZ_SECONDS")]
    pub quiz_seconds: Option<u64>,
    /// The seed of the quiz's questions (drawn at start when not given).
    #[arg(long, env = "ARBITER_QUIZ_SEED")]
    pub quiz_seed: Option<u64>,
    /// Check the card economy's invariant on the database, print its figures as JSON and exit
    /// (status 1 when anything is wrong), instead of serving.
    #[arg(long)]
    pub audit: bool,
}

/// The same settings as read from a file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct File {
    listen: Option<SocketAddr>,
    database: Option<String>,
    static_dir: Option<PathBuf>,
    max_frame: Option<usize>,
    rate: Option<u32>,
    burst: Option<u32>,
    hashers: Option<usize>,
    login_queue: Option<usize>,
    login_peer_hashes: Option<u32>,
    login_peer_failures: Option<u32>,
    login_name_failures: Option<u32>,
    login_account_failures: Option<u32>,
    think_ms: Option<u64>,
    claim_pause_ms: Option<u64>,
    mush_listen: Option<SocketAddr>,
    pick_seconds: Option<u64>,
    max_challenges: Option<u32>,
    max_matches: Option<u32>,
    header_timeout: Option<u64>,
    hello_timeout: Option<u64>,
    idle_timeout: Option<u64>,
    text_login_timeout: Option<u64>,
    text_idle_timeout: Option<u64>,
    max_per_peer: Option<u32>,
    max_connections: Option<usize>,
    chat_max: Option<usize>,
    chat_rate: Option<u32>,
    chat_burst: Option<u32>,
    chat_history: Option<usize>,
    quiz_seconds: Option<u64>,
    quiz_seed: Option<u64>,
}

/// The settings in force.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub database: String,
    pub static_dir: PathBuf,
    pub max_frame: usize,
    pub rate: u32,
    pub burst: u32,
    pub logins: crate::accounts::Limits,
    pub think_ms: u64,
    pub claim_pause: Duration,
    pub mush_listen: Option<SocketAddr>,
    /// The picking window (zero: none).
    pub pick_time: Duration,
    pub max_challenges: u32,
    pub max_matches: u32,
    pub header_timeout: Duration,
    pub hello_timeout: Duration,
    pub idle_timeout: Duration,
    pub text_login_timeout: Duration,
    pub text_idle_timeout: Duration,
    pub max_per_peer: u32,
    /// `None`: from the open-file limit, once it is raised (`peers::connection_cap`).
    pub max_connections: Option<usize>,
    pub chat: crate::chat::Limits,
}

impl Config {
    /// Merges the command line (and environment) over the file over the defaults.
    pub fn load(cli: Cli) -> anyhow::Result<Config> {
        let file: File = match &cli.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))?;
                toml::from_str(&text).map_err(|e| anyhow::anyhow!("config file {}: {e}", path.display()))?
            }
            None => File::default(),
        };
        let config = Config {
            listen: cli
                .listen
                .or(file.listen)
                .unwrap_or_else(|| ([127, 0, 0, 1], 8080).into()),
            database: cli
                .database
                .or(file.database)
                .unwrap_or_else(|| "sqlite://arbiter.db".to_owned()),
            static_dir: cli
                .static_dir
                .or(file.static_dir)
                .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../wasm"))),
            max_frame: cli.max_frame.or(file.max_frame).unwrap_or(16 * 1024),
            rate: cli.rate.or(file.rate).unwrap_or(20),
            burst: cli.burst.or(file.burst).unwrap_or(40),
            logins: crate::accounts::Limits {
                hashers: cli.hashers.or(file.hashers).unwrap_or(2),
                queue: cli.login_queue.or(file.login_queue).unwrap_or(32),
                peer_hashes: cli.login_peer_hashes.or(file.login_peer_hashes).unwrap_or(4),
                peer_failures: cli.login_peer_failures.or(file.login_peer_failures).unwrap_or(20),
                name_failures: cli.login_name_failures.or(file.login_name_failures).unwrap_or(5),
                account_failures: cli.login_account_failures.or(file.login_account_failures).unwrap_or(50),
            },
            think_ms: cli.think_ms.or(file.think_ms).unwrap_or(3_000),
            claim_pause: Duration::from_millis(cli.claim_pause_ms.or(file.claim_pause_ms).unwrap_or(1_000)),
            mush_listen: cli.mush_listen.or(file.mush_listen),
            pick_time: secs(cli.pick_seconds.or(file.pick_seconds), 60),
            max_challenges: cli.max_challenges.or(file.max_challenges).unwrap_or(5),
            max_matches: cli.max_matches.or(file.max_matches).unwrap_or(10),
            header_timeout: secs(cli.header_timeout.or(file.header_timeout), 10),
            hello_timeout: secs(cli.hello_timeout.or(file.hello_timeout), 10),
            idle_timeout: secs(cli.idle_timeout.or(file.idle_timeout), 60),
            text_login_timeout: secs(cli.text_login_timeout.or(file.text_login_timeout), 120),
            text_idle_timeout: secs(cli.text_idle_timeout.or(file.text_idle_timeout), 3_600),
            max_per_peer: cli.max_per_peer.or(file.max_per_peer).unwrap_or(64),
            max_connections: cli.max_connections.or(file.max_connections),
            chat: crate::chat::Limits {
                max_chars: cli.chat_max.or(file.chat_max).unwrap_or(300),
                per_minute: cli.chat_rate.or(file.chat_rate).unwrap_or(20),
                burst: cli.chat_burst.or(file.chat_burst).unwrap_or(5),
                history: cli.chat_history.or(file.chat_history).unwrap_or(20),
                quiz_seconds: cli.quiz_seconds.or(file.quiz_seconds).unwrap_or(30),
                quiz_seed: cli.quiz_seed.or(file.quiz_seed),
            },
        };
        anyhow::ensure!(
            [
                config.header_timeout,
                config.hello_timeout,
                config.idle_timeout,
                config.text_login_timeout,
                config.text_idle_timeout
            ]
            .iter()
            .all(|t| !t.is_zero()),
            "timeouts must be at least 1 second"
        );
        anyhow::ensure!(
            config.max_per_peer >= 1 && config.max_connections != Some(0),
            "max_per_peer and max_connections must be at least 1"
        );
        anyhow::ensure!(config.max_frame >= 1024, "max_frame must be at least 1024 bytes");
        anyhow::ensure!(
            config.rate >= 1 && config.burst >= 1,
            "rate and burst must be at least 1"
        );
        anyhow::ensure!(
            config.pick_time <= Duration::from_secs(600),
            "pick_seconds must be at most 600"
        );
        let l = &config.logins;
        anyhow::ensure!(l.hashers >= 1, "hashers must be at least 1");
        anyhow::ensure!(
            l.peer_hashes >= 1 && l.peer_failures >= 1 && l.name_failures >= 1 && l.account_failures >= 1,
            "login_peer_hashes, login_peer_failures, login_name_failures and login_account_failures must be at least 1"
        );
        anyhow::ensure!(
            config.max_challenges >= 1 && config.max_matches >= 1,
            "max_challenges and max_matches must be at least 1"
        );
        let c = &config.chat;
        anyhow::ensure!(
            c.max_chars >= 1 && c.per_minute >= 1 && c.burst >= 1 && c.quiz_seconds >= 1,
            "chat_max, chat_rate, chat_burst and quiz_seconds must be at least 1"
        );
        // A line must fit a frame the client may send, with room for the request around it.
        anyhow::ensure!(
            c.max_chars * 4 + 256 <= config.max_frame,
            "chat_max is too large for max_frame: a line of chat_max characters must fit a frame"
        );
        Ok(config)
    }
}

fn secs(set: Option<u64>, default: u64) -> Duration {
    Duration::from_secs(set.unwrap_or(default))
}
