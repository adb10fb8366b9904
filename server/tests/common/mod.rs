//! The test harness: the real `arbiter-server` binary on a free loopback port over a fresh
//! database (a temporary SQLite file, or a fresh PostgreSQL database on the server named by
//! `ARBITER_TEST_DATABASE`), and WebSocket clients that keep every frame they receive.

#![allow(dead_code)] // each test file uses part of the harness

pub mod economy;
pub mod stored;
pub mod text;
pub mod truth;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use arbiter_core::tripletriad::Hands;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Row as _;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for one frame before failing.
pub const WAIT: Duration = Duration::from_secs(30);

/// A database for one test: the URL the server gets, and what keeps it alive.
pub struct Database {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl Database {
    /// A fresh SQLite file, or a fresh database on `ARBITER_TEST_DATABASE`'s PostgreSQL server.
    pub async fn fresh() -> Database {
        sqlx::any::install_default_drivers();
        match std::env::var("ARBITER_TEST_DATABASE") {
            Ok(admin) if admin.starts_with("postgres") => Database::on_postgres(&admin).await,
            _ => {
                let dir = tempfile::tempdir().expect("a temporary folder");
                let url = format!("sqlite://{}", dir.path().join("arbiter.db").display());
                Database { url, _dir: Some(dir) }
            }
        }
    }

    /// A fresh database on the PostgreSQL server at `admin` (a user that may CREATE DATABASE).
    pub async fn on_postgres(admin: &str) -> Database {
        sqlx::any::install_default_drivers();
        // The process's own count, so that two tests of one process never draw the same
        // name (three random digits once did), and a random part against an earlier run's.
        static DATABASES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = DATABASES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("arbiter_t{}_{n}_{}", std::process::id(), rand_u64() % 1_000_000);
        let pool = sqlx::AnyPool::connect(admin).await.expect("the test PostgreSQL server");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&pool)
            .await
            .expect("create a test database");
        pool.close().await;
        let base = admin.rsplit_once('/').map_or(admin, |(b, _)| b);
        let base = base.split('?').next().unwrap_or(base);
        Database {
            url: format!("{base}/{name}"),
            _dir: None,
        }
    }

    /// `arbiter-server --audit` on this database: the economy's figures, its invariant holding.
    pub fn audit(&self) -> Value {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
            .args(["--audit", "--database", &self.url])
            .output()
            .expect("run arbiter-server --audit");
        let figures: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("audit: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert!(out.status.success(), "the invariant does not hold: {figures}");
        assert_eq!(figures["problems"], json!([]), "{figures}");
        figures
    }

    pub fn is_postgres(&self) -> bool {
        self.url.starts_with("postgres")
    }

    /// A pool on the same database, to read what the server stored (seeds for the
    /// hidden-information checks, rows after a crash).
    pub async fn pool(&self) -> sqlx::AnyPool {
        sqlx::any::install_default_drivers();
        sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(&self.url)
            .await
            .expect("the test database")
    }

    /// The `n` of `sql`, a `SELECT COUNT(*) AS n ...` with `$1`, `$2`... bound to `binds`.
    pub async fn count(&self, sql: &str, binds: &[i64]) -> i64 {
        let pool = self.pool().await;
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()));
        for b in binds {
            query = query.bind(*b);
        }
        let n = query.fetch_one(&pool).await.unwrap().try_get("n").unwrap();
        pool.close().await;
        n
    }

    /// The seed match `id` was dealt from (it never leaves the server).
    pub async fn seed(&self, id: i64) -> u64 {
        let pool = self.pool().await;
        let row = sqlx::query("SELECT seed FROM matches WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        let seed: i64 = row.try_get("seed").unwrap();
        pool.close().await;
        seed as u64
    }

    /// The hands match `id` was played with (its record keeps them; no client ever sees them).
    pub async fn hands(&self, id: i64) -> Hands {
        let pool = self.pool().await;
        let row = sqlx::query("SELECT options FROM matches WHERE id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
        let options: Value = serde_json::from_str(&row.try_get::<String, _>("options").unwrap()).unwrap();
        pool.close().await;
        serde_json::from_value(options["hands"].clone()).unwrap()
    }

    /// Waits (up to [`WAIT`]) until the server keeps nothing untold for `user`: every end of
    /// their matches it had to tell them was written to one of their connections.
    pub async fn all_told(&self, user: i64) {
        let pool = self.pool().await;
        let until = std::time::Instant::now() + WAIT;
        loop {
            let row = sqlx::query("SELECT COUNT(*) AS n FROM untold WHERE user_id = $1")
                .bind(user)
                .fetch_one(&pool)
                .await
                .unwrap();
            if row.try_get::<i64, _>("n").unwrap() == 0 {
                break;
            }
            assert!(
                std::time::Instant::now() < until,
                "user {user} was never told of every end"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        pool.close().await;
    }
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    );
    h.finish()
}

/// A unique player name.
/// The moves of a `match_state` frame, in notation.
pub fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect()
}

pub fn name(prefix: &str) -> String {
    format!("{prefix}{}", rand_u64() % 1_000_000_000)
}

/// A running server process.
pub struct Server {
    pub child: Child,
    pub addr: String,
    /// The text listener's address, when started with one ([`Launch::text`]).
    pub mush: Option<String>,
    /// The lines of the server's log, when [`Launch::log`] asked for them.
    log: Option<std::sync::Mutex<std::sync::mpsc::Receiver<String>>>,
}

/// How [`Server::launch`] starts the process, beyond its database.
#[derive(Default)]
pub struct Launch<'a> {
    /// Arguments after `--listen`, `--mush-listen` and `--database`.
    pub args: &'a [&'a str],
    /// Set for the process too (the crash tests' `ARBITER_CRASH_AT`).
    pub env: &'a [(&'a str, &'a str)],
    /// The text listener too (`--mush-listen`), its address in [`Server::mush`].
    pub text: bool,
    /// `ARBITER_LOG` instead of `arbiter_server=warn`; the log is then read ([`Server::logged`])
    /// rather than left on the test's stderr.
    pub log: Option<&'a str>,
    /// At most this many open files for the process.
    pub files: Option<u64>,
}

impl Server {
    pub fn start(db: &Database) -> Server {
        Server::start_with(db, &[])
    }

    pub fn start_with(db: &Database, args: &[&str]) -> Server {
        Server::start_env(db, args, &[])
    }

    /// With `env` set for the process too (the crash tests' `ARBITER_CRASH_AT`).
    pub fn start_env(db: &Database, args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::launch(
            db,
            Launch {
                args,
                env,
                ..Launch::default()
            },
        )
    }

    /// With the text listener too: its address in [`Server::mush`].
    pub fn start_text(db: &Database, args: &[&str]) -> Server {
        Server::launch(
            db,
            Launch {
                args,
                text: true,
                ..Launch::default()
            },
        )
    }

    /// Starts the server as `how` says, and reads the addresses it prints (`http://ADDR/`, then
    /// `mush://ADDR` with the text listener).
    pub fn launch(db: &Database, how: Launch) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter-server"));
        command.args(["--listen", "127.0.0.1:0"]);
        if how.text {
            command.args(["--mush-listen", "127.0.0.1:0"]);
        }
        command
            .args(["--database", &db.url])
            .args(how.args)
            .env("ARBITER_LOG", how.log.unwrap_or("arbiter_server=warn"))
            // No picking window unless a test opens one (`--pick-seconds`, or `how.env`): the
            // tests about something else start their matches at once, with the current decks.
            .env("ARBITER_PICK_SECONDS", "0")
            .envs(how.env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(if how.log.is_some() {
                Stdio::piped()
            } else {
                Stdio::inherit()
            });
        if let Some(files) = how.files {
            use std::os::unix::process::CommandExt;
            // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child before exec.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit {
                        rlim_cur: files,
                        rlim_max: files,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().expect("start arbiter-server");
        let log = child.stderr.take().map(|err| {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            std::sync::Mutex::new(rx)
        });
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut read = || {
            let mut line = String::new();
            out.read_line(&mut line).expect("the server's address");
            line.trim().to_owned()
        };
        let addr = read().trim_start_matches("http://").trim_end_matches('/').to_owned();
        assert!(!addr.is_empty(), "the server printed no address");
        let mush = how.text.then(|| read().trim_start_matches("mush://").to_owned());
        assert!(
            mush.as_ref().is_none_or(|m| !m.is_empty()),
            "the server printed no text address"
        );
        Server { child, addr, mush, log }
    }

    /// The HTTP listener's address.
    pub fn http(&self) -> std::net::SocketAddr {
        self.addr.parse().unwrap()
    }

    /// The text listener's address (started with [`Launch::text`]).
    pub fn text(&self) -> std::net::SocketAddr {
        self.mush
            .as_deref()
            .expect("started with the text listener")
            .parse()
            .unwrap()
    }

    /// The log lines come since the last call (started with [`Launch::log`]).
    pub fn logged(&self) -> Vec<String> {
        let log = self.log.as_ref().expect("started with its log read");
        log.lock().unwrap().try_iter().collect()
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// SIGKILL: no shutdown of any kind.
    pub fn kill9(&mut self) {
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }

    /// Waits (up to [`WAIT`]) for the process to end by itself and returns how it ended.
    pub fn died(&mut self) -> std::process::ExitStatus {
        let until = std::time::Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(std::time::Instant::now() < until, "the server did not die");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process still runs (it never panics away).
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket client that keeps every frame it got.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every JSON frame received, in order.
    pub frames: Vec<Value>,
    /// Frames not yet taken by `next`/`expect`.
    unread: std::collections::VecDeque<Value>,
    next_id: u64,
    pub closed: Option<(u16, String)>,
    pub token: Option<String>,
    pub user: Option<Value>,
}

impl Client {
    /// Connected and greeted.
    pub async fn connect(server: &Server) -> Client {
        let mut c = Client::raw(server).await;
        c.send(json!({"type": "hello", "protocol": 1, "client": "tests"})).await;
        let w = c.expect("welcome").await;
        assert_eq!(w["protocol"], 1);
        c
    }

    /// Connected, greeted and registered under a fresh name starting with `prefix`.
    pub async fn player(server: &Server, prefix: &str) -> Client {
        let mut c = Client::connect(server).await;
        c.register(&name(prefix)).await;
        c
    }

    /// Connected, greeted and logged in with the token of an earlier session; what follows the
    /// `authenticated` waits unread.
    pub async fn resumed(server: &Server, token: &str) -> Client {
        let mut c = Client::connect(server).await;
        c.resume(token).await;
        c
    }

    /// Takes the starter set and saves five of its cards as the deck `Main`, which becomes the
    /// current deck: the hand the player brings to a Triple Triad game between people.
    pub async fn deck(&mut self) {
        let s = self.request(json!({"type": "tt_starter"})).await;
        let cards: Vec<Value> = s["cards"].as_array().unwrap()[..5]
            .iter()
            .map(|c| c["id"].clone())
            .collect();
        let made = self
            .request(json!({"type": "tt_deck", "op": "create", "name": "Main"}))
            .await;
        assert_eq!(made["type"], "tt_deck", "{made}");
        let added = self
            .request(json!({"type": "tt_deck", "op": "add", "name": "Main", "cards": cards}))
            .await;
        assert_eq!(added["type"], "tt_deck", "{added}");
    }

    /// The registered name.
    pub fn name(&self) -> String {
        self.user
            .as_ref()
            .and_then(|u| u["name"].as_str())
            .unwrap_or_default()
            .to_owned()
    }

    /// Connected, nothing sent.
    pub async fn raw(server: &Server) -> Client {
        let mut config = WebSocketConfig::default();
        config.max_message_size = Some(1 << 20);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(server.url(), Some(config), true)
            .await
            .expect("connect");
        Client {
            ws,
            frames: Vec::new(),
            unread: Default::default(),
            next_id: 1,
            closed: None,
            token: None,
            user: None,
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.expect("send");
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::Text(text.to_owned().into())).await.expect("send");
    }

    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws.send(Message::Binary(bytes.into())).await.expect("send");
    }

    /// The next frame, or `None` once the server closed (the reason in `closed`).
    pub async fn next(&mut self) -> Option<Value> {
        if let Some(v) = self.unread.pop_front() {
            return Some(v);
        }
        self.read(tokio::time::Instant::now() + WAIT).await
    }

    /// The next frame from the socket, by `deadline` at the latest.
    async fn read(&mut self, deadline: tokio::time::Instant) -> Option<Value> {
        loop {
            let Ok(frame) = tokio::time::timeout_at(deadline, self.ws.next()).await else {
                let last: Vec<&Value> = self.unread.iter().rev().take(3).collect();
                panic!("no awaited frame in {WAIT:?}; the last unread: {last:?}");
            };
            match frame {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).expect("the server sends JSON");
                    self.frames.push(v.clone());
                    return Some(v);
                }
                Some(Ok(Message::Close(c))) => {
                    self.closed = Some(c.map_or((1005, String::new()), |c| (u16::from(c.code), c.reason.to_string())));
                    return None;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => {
                    if self.closed.is_none() {
                        self.closed = Some((1006, String::new()));
                    }
                    return None;
                }
            }
        }
    }

    /// The first frame of type `ty`, keeping the others for later.
    pub async fn expect(&mut self, ty: &str) -> Value {
        self.expect_where(|v| v["type"] == ty).await
    }

    /// The first frame that `pick` accepts, keeping the others for later; within [`WAIT`], however
    /// many other frames arrive meanwhile (a running clock's would otherwise wait forever).
    pub async fn expect_where(&mut self, pick: impl Fn(&Value) -> bool) -> Value {
        match self.expect_or_closed(pick).await {
            Some(v) => v,
            None => panic!("closed while waiting: {:?}", self.closed),
        }
    }

    /// As [`Client::expect_where`], or `None` if the connection closes first (a server that
    /// died on purpose).
    pub async fn expect_or_closed(&mut self, pick: impl Fn(&Value) -> bool) -> Option<Value> {
        if let Some(i) = self.unread.iter().position(&pick) {
            return self.unread.remove(i);
        }
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let v = self.read(deadline).await?;
            if pick(&v) {
                return Some(v);
            }
            self.unread.push_back(v);
        }
    }

    /// Sends `msg` with a fresh id and returns the reply that carries it.
    pub async fn request(&mut self, mut msg: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = id.into();
        self.send(msg).await;
        self.expect_where(|v| v["re"] == id).await
    }

    /// As `request`, or `None` if the connection closes before the reply.
    pub async fn try_request(&mut self, mut msg: Value) -> Option<Value> {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = id.into();
        self.ws.send(Message::Text(msg.to_string().into())).await.ok()?;
        self.expect_or_closed(|v| v["re"] == id).await
    }

    /// As `request`, and the reply must be an error with `code`.
    pub async fn refused(&mut self, msg: Value, code: &str) -> Value {
        let r = self.request(msg.clone()).await;
        assert_eq!(r["type"], "error", "{msg} was not refused: {r}");
        assert_eq!(r["code"], code, "{msg}: {r}");
        assert!(r["message"].as_str().is_some_and(|m| !m.is_empty()), "{r}");
        r
    }

    pub async fn register(&mut self, name: &str) -> Value {
        let r = self
            .request(json!({"type": "register", "name": name, "password": "password1"}))
            .await;
        assert_eq!(r["type"], "authenticated", "{r}");
        self.token = r["token"].as_str().map(str::to_owned);
        self.user = Some(r["user"].clone());
        r
    }

    /// Logs in with the token of an earlier session; what follows the `authenticated` stays
    /// unread.
    pub async fn resume(&mut self, token: &str) -> Value {
        let r = self.request(json!({"type": "resume", "token": token})).await;
        assert_eq!(r["type"], "authenticated", "{r}");
        self.token = r["token"].as_str().map(str::to_owned);
        self.user = Some(r["user"].clone());
        r
    }

    /// Closes the connection by dropping it, and waits until `watcher` (subscribed to the
    /// lobby) hears this user go offline: the server is done with the connection.
    pub async fn drop_seen_by(self, watcher: &mut Client) {
        let name = self.name();
        drop(self);
        watcher
            .expect_where(|v| v["type"] == "presence" && v["user"]["name"] == name.as_str() && v["online"] == false)
            .await;
    }

    /// The frames of type `ty` about match `id` received so far.
    pub fn frames_of(&self, ty: &str, id: i64) -> Vec<Value> {
        self.frames
            .iter()
            .filter(|v| v["type"] == ty && v["match"] == id)
            .cloned()
            .collect()
    }

    /// Waits for the `moved` frame of `match_id` at `ply`.
    pub async fn moved(&mut self, match_id: i64, ply: u64) -> Value {
        self.expect_where(|v| v["type"] == "moved" && v["match"] == match_id && v["ply"] == ply)
            .await
    }

    /// Waits for the end of `match_id`.
    pub async fn over(&mut self, match_id: i64) -> Value {
        self.expect_where(|v| v["type"] == "match_over" && v["match"] == match_id)
            .await
    }

    /// Drains frames until `quiet` passes without one (or the socket closes).
    pub async fn settle(&mut self, quiet: Duration) {
        while let Ok(Some(Ok(m))) = tokio::time::timeout(quiet, self.ws.next()).await {
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(&t).unwrap();
                self.frames.push(v.clone());
                self.unread.push_back(v);
            }
        }
    }
}

/// Makes a challenge, has the others accept it in turn, and returns the match id (every
/// client has seen `match_started` and its first `match_state`).
pub async fn start_match(challenger: &mut Client, others: &mut [&mut Client], challenge: Value) -> i64 {
    let mut msg = challenge;
    msg["type"] = "challenge".into();
    let r = challenger.request(msg).await;
    assert_eq!(r["type"], "challenge_created", "{r}");
    let cid = r["challenge"]["id"].as_i64().unwrap();
    for o in others.iter_mut() {
        let a = o.request(json!({"type": "accept", "challenge": cid})).await;
        assert_eq!(a["type"], "accepted", "{a}");
    }
    let started = challenger
        .expect_where(|v| v["type"] == "match_started" && v["match"]["challenge"] == cid)
        .await;
    let id = started["match"]["id"].as_i64().unwrap();
    challenger
        .expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
        .await;
    for o in others.iter_mut() {
        o.expect_where(|v| v["type"] == "match_started" && v["match"]["id"] == id)
            .await;
        o.expect_where(|v| v["type"] == "match_state" && v["match"]["id"] == id)
            .await;
    }
    id
}
