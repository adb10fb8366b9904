//! The load benchmark's client: N WebSocket clients, paired into N/2 Triple Triad matches that run
//! at once against one `arbiter-server`, every client playing a random legal move as soon as it is
//! its turn, for a fixed time. It measures as boardgame.io's load client does
//! (`server/bench/README.md`): each pair starts a new match as soon as one ends; a move's round trip
//! is from sending it to receiving the `moved` event that carries it; moves and round trips count
//! only inside the window that follows `--warmup` seconds, for `--seconds` seconds.
//!
//! ```text
//! cargo run --release -p arbiter-server --example load -- \
//!     --spawn target/release/arbiter-server [--database postgres://…] \
//!     --clients 200 --seconds 20 [--warmup 3] [--think-ms 0] [--seed 1]
//! cargo run --release -p arbiter-server --example load -- --url ws://127.0.0.1:8080/ws \
//!     --clients 200 --server-pid PID …
//! ```
//!
//! `--spawn` starts the server on a free loopback port (with a fresh SQLite file in a temporary
//! folder unless `--database` names one, and no cap on connections per peer: every client comes
//! from one address), measures it, and kills it. A server given by `--url` needs
//! `--max-per-peer` above `--clients`. Prints one JSON line with the
//! fields of boardgame.io's client: moves, moves_per_s, p50_ms, p99_ms, matches_finished, errors,
//! client_cpu_share, and, knowing the server's pid, rss_baseline_mb, rss_peak_mb,
//! rss_per_match_kb (resident memory at the end of the window over the baseline taken once every
//! client is logged in, divided by the matches) and cpu_ms_per_move.
//!
//! The game is Triple Triad with the basic rule and closed hands (`{"rules": {}}`), the game the
//! anchor plays. The server's per-connection rate limit (`welcome.limits`) is honoured by pacing
//! each client below it, so no move is refused for flooding.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_core::Rng;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

const PASSWORD: &str = "load-benchmark";

struct Options {
    url: Option<String>,
    spawn: Option<PathBuf>,
    database: Option<String>,
    clients: usize,
    seconds: f64,
    warmup: f64,
    think_ms: u64,
    seed: u64,
    server_pid: Option<u32>,
    register_concurrency: usize,
    /// Accounts written into the database beforehand, with a session each (see `seed_accounts`).
    seeded: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: load (--url ws://HOST:PORT/ws [--server-pid PID] | --spawn ARBITER_SERVER [--database URL]) \
         [--clients 200] [--seconds 20] [--warmup 3] [--think-ms 0] [--seed 1] [--accounts seeded|registered] [--register-concurrency 4]"
    );
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut o = Options {
        url: None,
        spawn: None,
        database: None,
        clients: 200,
        seconds: 20.0,
        warmup: 3.0,
        think_ms: 0,
        seed: 1,
        server_pid: None,
        register_concurrency: 4,
        seeded: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        let number = |v: &str| v.parse::<f64>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--url" => o.url = Some(value),
            "--spawn" => o.spawn = Some(PathBuf::from(value)),
            "--database" => o.database = Some(value),
            "--clients" => o.clients = number(&value) as usize,
            "--seconds" => o.seconds = number(&value),
            "--warmup" => o.warmup = number(&value),
            "--think-ms" => o.think_ms = number(&value) as u64,
            "--seed" => o.seed = number(&value) as u64,
            "--server-pid" => o.server_pid = Some(number(&value) as u32),
            "--register-concurrency" => o.register_concurrency = (number(&value) as usize).max(1),
            "--accounts" => {
                o.seeded = match value.as_str() {
                    "seeded" => true,
                    "registered" => false,
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    if o.clients < 2
        || !o.clients.is_multiple_of(2)
        || (o.url.is_none() == o.spawn.is_none())
        || (o.seeded && o.spawn.is_none())
    {
        usage()
    }
    o
}

/// Resident memory (bytes) and CPU time (ms) of a process, from /proc.
fn process_usage(pid: &str) -> Option<(u64, f64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some((rss_kb * 1024, ticks * 1000.0 / 100.0))
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// What every client shares: the measuring window and the counters.
struct Shared {
    window_start: Instant,
    window_end: Instant,
    stopping: AtomicBool,
    finished: AtomicU64,
    errors: std::sync::Mutex<Vec<String>>,
}

impl Shared {
    fn error(&self, what: String) {
        if !self.stopping.load(Ordering::Relaxed) {
            self.errors.lock().expect("errors lock").push(what);
        }
    }
    fn in_window(&self, at: Instant) -> bool {
        at >= self.window_start && at < self.window_end
    }
}

async fn connect(url: &str) -> Result<Socket, String> {
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(4096)
        .max_message_size(Some(1 << 20));
    let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
        .await
        .map_err(|e| format!("connect {url}: {e}"))?;
    Ok(socket)
}

async fn send(socket: &mut Socket, message: Value) -> Result<(), String> {
    socket
        .send(Message::text(message.to_string()))
        .await
        .map_err(|e| format!("send: {e}"))
}

async fn receive(socket: &mut Socket) -> Result<Value, String> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(text.as_str()).map_err(|e| format!("server sent bad JSON: {e}"))
            }
            Some(Ok(Message::Close(frame))) => return Err(format!("closed by the server: {frame:?}")),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("receive: {e}")),
            None => return Err("connection ended".into()),
        }
    }
}

/// Waits for the reply to request `id`, dropping pushed events.
async fn reply(socket: &mut Socket, id: u64) -> Result<Value, String> {
    loop {
        let message = receive(socket).await?;
        if message["re"] == id {
            return Ok(message);
        }
    }
}

/// One logged-in client, with the server's rate limit for pacing.
struct Client {
    name: String,
    socket: Socket,
    interval: Duration,
    burst: f64,
}

/// Connects and logs in: by `resume` with a seeded account's token, or else by registering.
async fn log_in(url: &str, name: String, token: Option<String>, gate: &Semaphore) -> Result<Client, String> {
    let mut socket = connect(url).await?;
    send(
        &mut socket,
        json!({"type": "hello", "protocol": 1, "client": "arbiter-server load example"}),
    )
    .await?;
    let welcome = receive(&mut socket).await?;
    if welcome["type"] != "welcome" {
        return Err(format!("expected welcome, got {welcome}"));
    }
    let rate = welcome["limits"]["rate_per_s"].as_f64().unwrap_or(20.0).max(1.0);
    let burst = welcome["limits"]["burst"].as_f64().unwrap_or(rate);
    let mut kind = "register";
    if let Some(token) = token {
        send(&mut socket, json!({"type": "resume", "id": 1, "token": token})).await?;
        let answer = reply(&mut socket, 1).await?;
        if answer["type"] != "authenticated" {
            return Err(format!("resume {name}: {answer}"));
        }
        kind = "resume";
    }
    // Argon2 hashing is the slow part of setting up: a few at once, retried while the server says busy.
    let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
    for attempt in (kind == "register").then_some(1u64..).into_iter().flatten() {
        send(
            &mut socket,
            json!({"type": kind, "id": attempt, "name": name, "password": PASSWORD}),
        )
        .await?;
        let answer = reply(&mut socket, attempt).await?;
        match (answer["type"].as_str(), answer["code"].as_str()) {
            (Some("authenticated"), _) => break,
            (_, Some("name_taken")) => kind = "login",
            (_, Some("busy" | "rate_limited" | "too_many_logins")) if attempt < 200 => {
                tokio::time::sleep(Duration::from_millis(100)).await
            }
            _ => return Err(format!("{kind} {name}: {answer}")),
        }
    }
    // Slightly under the limit, so that timing jitter never trips it.
    let interval = Duration::from_secs_f64(1.05 / rate);
    Ok(Client {
        name,
        socket,
        interval,
        burst: (burst - 2.0).max(1.0),
    })
}

/// A seat's match as this client sees it.
struct Seat {
    id: u64,
    seat: u64,
    ply: u64,
    to_move: Option<u64>,
    view: Value,
}

/// A random legal Triple Triad move from a seat's observation: a card of the hand on an empty cell.
fn random_move(view: &Value, rng: &mut Rng) -> Option<String> {
    let observation = &view["observation"];
    let hand = observation["hand"].as_array()?.len() as u64;
    let empty: Vec<usize> = observation["board"]
        .as_array()?
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_null())
        .map(|(i, _)| i)
        .collect();
    if hand == 0 || empty.is_empty() {
        return None;
    }
    let card = rng.below(hand);
    let cell = empty[rng.below(empty.len() as u64) as usize];
    Some(format!("{card}@{cell}"))
}

/// A duration drawn uniformly between zero and `max`, in thousandths.
fn uniform(max: Duration, rng: &mut Rng) -> Duration {
    max.mul_f64(rng.below(1001) as f64 / 1000.0)
}

/// A turn's think time: uniform between half and one and a half times `think` (the protocol's
/// step 3). People do not all answer after the same second: with one fixed time, every match that
/// started together moves together, and each wave of moves queues behind the one before it.
fn think_time(think: Duration, rng: &mut Rng) -> Duration {
    if think.is_zero() {
        return think;
    }
    think / 2 + uniform(think, rng)
}

/// Plays one client until the end of the window; returns the round trips inside it (ms).
/// `opponent` is the other client's name for the challenger of the pair, `None` for the one
/// who accepts.
async fn play(
    mut client: Client,
    opponent: Option<String>,
    think: Duration,
    seed: u64,
    shared: Arc<Shared>,
) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    let mut rtts = Vec::new();
    let mut next_id = 1000u64;
    let mut current: Option<Seat> = None;
    // The move in flight: (request id, ply it was made at, when it was sent).
    let mut pending: Option<(u64, u64, Instant)> = None;
    let mut due: Option<Instant> = None;
    // Pacing: a token bucket just under the server's, spent by every message sent.
    let mut tokens = client.burst;
    let mut refilled = Instant::now();
    let mut accepted: HashMap<u64, ()> = HashMap::new();
    let challenge = |id: u64, name: &str| {
        json!({"type": "challenge", "id": id, "game": "triple-triad", "options": {"rules": {}},
               "seats": [{"kind": "me"}, {"kind": "player", "name": name}], "time": 300, "private": true})
    };
    if let Some(name) = &opponent {
        // The pairs start their first matches spread over one match's length (nine moves), as
        // people come and go at their own times: started at once, every match would end at
        // about the same moment, and the next start with it, in waves that no real lobby makes.
        if !think.is_zero() {
            tokio::time::sleep(uniform(think * 9, &mut rng)).await;
        }
        next_id += 1;
        if let Err(e) = send(&mut client.socket, challenge(next_id, name)).await {
            shared.error(e);
            return rtts;
        }
    }
    let end = shared.window_end;
    loop {
        let wake = due.unwrap_or(end).min(end);
        let message = tokio::select! {
            m = receive(&mut client.socket) => Some(m),
            _ = tokio::time::sleep_until(wake.into()) => None,
        };
        let now = Instant::now();
        if now >= end {
            break;
        }
        match message {
            Some(Err(e)) => {
                shared.error(format!("{}: {e}", client.name));
                break;
            }
            Some(Ok(m)) => match m["type"].as_str().unwrap_or("") {
                "challenge_open" if opponent.is_none() => {
                    let id = m["challenge"]["id"].as_u64().unwrap_or(0);
                    if accepted.insert(id, ()).is_none() {
                        next_id += 1;
                        tokens -= 1.0;
                        let _ = send(
                            &mut client.socket,
                            json!({"type": "accept", "id": next_id, "challenge": id}),
                        )
                        .await;
                    }
                }
                "match_state" => {
                    let id = m["match"]["id"].as_u64().unwrap_or(0);
                    current = Some(Seat {
                        id,
                        seat: m["seat"].as_u64().unwrap_or(u64::MAX),
                        ply: m["match"]["ply"].as_u64().unwrap_or(0),
                        to_move: m["to_move"].as_u64(),
                        view: m["view"].clone(),
                    });
                }
                "moved" => {
                    if let Some(seat) = current.as_mut().filter(|s| m["match"] == s.id) {
                        seat.ply = m["ply"].as_u64().unwrap_or(seat.ply + 1);
                        seat.to_move = m["to_move"].as_u64();
                        seat.view = m["view"].clone();
                        // The move this client made: the one told at the ply after the one it was made at.
                        if let Some((_, at, sent)) = pending {
                            if m["ply"] == at + 1 && m["seat"] == seat.seat {
                                if shared.in_window(now) {
                                    rtts.push(now.duration_since(sent).as_secs_f64() * 1000.0);
                                }
                                pending = None;
                            }
                        }
                    }
                }
                "match_over" if current.as_ref().is_some_and(|s| m["match"] == s.id) => {
                    current = None;
                    pending = None;
                    due = None;
                    if opponent.is_some() {
                        if shared.in_window(now) {
                            shared.finished.fetch_add(1, Ordering::Relaxed);
                        }
                        next_id += 1;
                        let name = opponent.as_deref().unwrap_or_default();
                        tokens -= 1.0;
                        if let Err(e) = send(&mut client.socket, challenge(next_id, name)).await {
                            shared.error(e);
                            break;
                        }
                    }
                }
                "error" => {
                    let code = m["code"].as_str().unwrap_or("?").to_string();
                    if pending.is_some_and(|(id, _, _)| m["re"] == id) {
                        pending = None;
                    }
                    shared.error(format!("{}: {code}: {}", client.name, m["message"]));
                }
                _ => {}
            },
            None => {}
        }
        // Our turn, nothing in flight: play after the think time and when pacing allows.
        let Some(seat) = current.as_ref() else { continue };
        if seat.to_move != Some(seat.seat) || pending.is_some() {
            due = None;
            continue;
        }
        let now = Instant::now();
        tokens =
            (tokens + now.duration_since(refilled).as_secs_f64() / client.interval.as_secs_f64()).min(client.burst);
        refilled = now;
        let ready = due.get_or_insert_with(|| now + think_time(think, &mut rng));
        let paced = if tokens >= 1.0 {
            *ready
        } else {
            (*ready).max(now + client.interval.mul_f64(1.0 - tokens))
        };
        if paced > now {
            due = Some(paced);
            continue;
        }
        due = None;
        let Some(notation) = random_move(&seat.view, &mut rng) else {
            shared.error(format!("{}: no legal move in {}", client.name, seat.view));
            break;
        };
        tokens -= 1.0;
        next_id += 1;
        let request = json!({"type": "move", "id": next_id, "match": seat.id, "move": notation, "ply": seat.ply});
        pending = Some((next_id, seat.ply, Instant::now()));
        if let Err(e) = send(&mut client.socket, request).await {
            shared.error(e);
            break;
        }
    }
    shared.stopping.store(true, Ordering::Relaxed);
    let _ = client.socket.close(None).await;
    rtts
}

/// Writes `names` as accounts into the server's database with a session each, and returns
/// their tokens: 2,000 Argon2 hashes would take the server minutes of both cores before the first
/// move. Only the benchmark does this; it follows migrations/0001 (a token is stored as its
/// SHA-256, the password hash is never checked since the clients `resume`).
async fn seed_accounts(database: &str, names: &[String]) -> Result<Vec<String>, String> {
    use sha2::{Digest, Sha256};
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(database)
        .await
        .map_err(|e| format!("seed accounts: {e}"))?;
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let random = || getrandom::u64().map_err(|e| format!("seed accounts: {e}"));
    let mut tx = pool.begin().await.map_err(|e| e.to_string())?;
    let mut tokens = Vec::with_capacity(names.len());
    for name in names {
        let id = (random()? & ((1 << 53) - 1)) as i64;
        let token = format!("{:016x}{:016x}", random()?, random()?);
        sqlx::query("INSERT INTO users (id, name, name_key, password_hash, created) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(name)
            .bind(name.to_lowercase())
            .bind("seeded by the load benchmark: no password")
            .bind(0i64)
            .execute(&mut *tx)
            .await
            .map_err(|e| format!("seed accounts: {e}"))?;
        sqlx::query("INSERT INTO sessions (token_hash, user_id, created) VALUES ($1, $2, $3)")
            .bind(hex(&Sha256::digest(token.as_bytes())))
            .bind(id)
            .bind(0i64)
            .execute(&mut *tx)
            .await
            .map_err(|e| format!("seed accounts: {e}"))?;
        tokens.push(token);
    }
    tx.commit().await.map_err(|e| e.to_string())?;
    pool.close().await;
    Ok(tokens)
}

/// A free loopback port from the kernel.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    listener.local_addr().expect("local address").port()
}

/// Starts the server, waiting for `/healthz`.
fn spawn_server(binary: &PathBuf, database: &str, addr: SocketAddr) -> Result<Child, String> {
    let mut child = Command::new(binary)
        .args(["--listen", &addr.to_string(), "--database", database])
        // Every client comes from this one address.
        .args(["--max-per-peer", "1000000"])
        .env("ARBITER_LOG", "arbiter_server=warn")
        // The challenges here name no hands: the matches start at once, with the current decks,
        // rather than wait out a picking window (an older binary ignores the variable).
        .env("ARBITER_PICK_SECONDS", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("start {}: {e}", binary.display()))?;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the server exited at start: {status}"));
        }
        if let Ok(mut stream) = std::net::TcpStream::connect(addr) {
            use std::io::{Read, Write};
            let _ = write!(
                stream,
                "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
            );
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            if answer.starts_with("HTTP/1.1 200") {
                return Ok(child);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    Err("the server did not answer /healthz within 60 s".into())
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[tokio::main]
async fn main() {
    let options = parse_options();
    let mut spawned: Option<(Child, Option<tempfile::TempDir>)> = None;
    let (url, server_pid, storage, database) = match &options.spawn {
        Some(binary) => {
            let (database, folder) = match &options.database {
                Some(url) => (url.clone(), None),
                None => {
                    let folder = tempfile::tempdir().expect("a temporary folder");
                    (
                        format!("sqlite://{}?mode=rwc", folder.path().join("load.db").display()),
                        Some(folder),
                    )
                }
            };
            let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
            let child = spawn_server(binary, &database, addr).unwrap_or_else(|e| {
                eprintln!("load: {e}");
                std::process::exit(1)
            });
            let pid = child.id();
            let storage = if database.starts_with("postgres") {
                "postgres"
            } else {
                "sqlite"
            };
            spawned = Some((child, folder));
            (format!("ws://{addr}/ws"), Some(pid), storage, Some(database))
        }
        None => (
            options.url.clone().unwrap_or_default(),
            options.server_pid,
            "external",
            None,
        ),
    };
    let seeded = database.as_deref().filter(|_| options.seeded);
    let result = run(&options, &url, server_pid, seeded).await;
    if let Some((mut child, _folder)) = spawned {
        let _ = child.kill();
        let _ = child.wait();
    }
    match result {
        Ok(mut report) => {
            report["storage"] = json!(storage);
            println!("{report}");
            if report["errors"] != 0 {
                std::process::exit(1)
            }
        }
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(1)
        }
    }
}

async fn run(options: &Options, url: &str, server_pid: Option<u32>, database: Option<&str>) -> Result<Value, String> {
    let gate = Arc::new(Semaphore::new(options.register_concurrency));
    // Names unique to this run, so that a reused database does not mix runs.
    let run_tag = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() % 1_000_000)
        .unwrap_or(0);
    let pid = server_pid.map(|p| p.to_string());
    let usage = |pid: &Option<String>| pid.as_deref().and_then(process_usage);
    // Before any client connects: memory per match includes the connections' own.
    let baseline = usage(&pid);
    let setup = Instant::now();
    let names: Vec<String> = (0..options.clients).map(|i| format!("l{run_tag}-{i}")).collect();
    let mut tokens: Vec<Option<String>> = match database {
        Some(db) => seed_accounts(db, &names).await?.into_iter().map(Some).collect(),
        None => vec![None; names.len()],
    };
    let logins: Vec<_> = names
        .iter()
        .zip(tokens.drain(..))
        .map(|(name, token)| {
            let (url, gate, name) = (url.to_string(), gate.clone(), name.clone());
            tokio::spawn(async move { log_in(&url, name, token, &gate).await })
        })
        .collect();
    let mut clients = Vec::with_capacity(options.clients);
    for login in logins {
        clients.push(login.await.map_err(|e| e.to_string())??);
    }
    eprintln!(
        "load: {} clients logged in in {:.1} s",
        clients.len(),
        setup.elapsed().as_secs_f64()
    );

    let peak = Arc::new(AtomicU64::new(baseline.map_or(0, |b| b.0)));
    let started = Instant::now();
    let window_start = started + Duration::from_secs_f64(options.warmup);
    let window_end = window_start + Duration::from_secs_f64(options.seconds);
    let shared = Arc::new(Shared {
        window_start,
        window_end,
        stopping: AtomicBool::new(false),
        finished: AtomicU64::new(0),
        errors: Default::default(),
    });
    let sampler = pid.clone().map(|pid| {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                if let Some((rss, _)) = process_usage(&pid) {
                    peak.fetch_max(rss, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    });
    let names: Vec<String> = clients.iter().map(|c| c.name.clone()).collect();
    let think = Duration::from_millis(options.think_ms);
    let mut players = Vec::new();
    for (i, client) in clients.into_iter().enumerate() {
        let opponent = (i % 2 == 0).then(|| names[i + 1].clone());
        let seed = options.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        players.push(tokio::spawn(play(client, opponent, think, seed, shared.clone())));
    }
    tokio::time::sleep_until(window_start.into()).await;
    let cpu_start = usage(&pid).map_or(0.0, |u| u.1);
    let client_cpu_start = process_usage("self").map_or(0.0, |u| u.1);
    tokio::time::sleep_until(window_end.into()).await;
    let at_end = usage(&pid);
    let client_cpu = process_usage("self").map_or(0.0, |u| u.1) - client_cpu_start;
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    let mut rtts = Vec::new();
    for player in players {
        rtts.extend(player.await.map_err(|e| e.to_string())?);
    }
    rtts.sort_by(f64::total_cmp);
    let errors = shared.errors.lock().expect("errors lock").clone();
    let matches = options.clients / 2;
    let mut report = json!({
        "server": format!("arbiter-server {}", env!("CARGO_PKG_VERSION")),
        "clients": options.clients,
        "matches": matches,
        "seconds": options.seconds,
        "think_ms": options.think_ms,
        "moves": rtts.len(),
        "moves_per_s": round(rtts.len() as f64 / options.seconds),
        "p50_ms": percentile(&rtts, 0.5).map(round),
        "p99_ms": percentile(&rtts, 0.99).map(round),
        "matches_finished": shared.finished.load(Ordering::Relaxed),
        "errors": errors.len(),
        "client_cpu_share": round(client_cpu / (options.seconds * 1000.0)),
    });
    if let (Some((base_rss, _)), Some((end_rss, cpu_end))) = (baseline, at_end) {
        report["rss_baseline_mb"] = json!(round(base_rss as f64 / 1048576.0));
        report["rss_peak_mb"] = json!(round(peak.load(Ordering::Relaxed) as f64 / 1048576.0));
        report["rss_per_match_kb"] = json!(round((end_rss as f64 - base_rss as f64) / 1024.0 / matches as f64));
        report["cpu_ms_per_move"] = if rtts.is_empty() {
            Value::Null
        } else {
            json!(round((cpu_end - cpu_start) / rtts.len() as f64))
        };
    }
    if let Some(first) = errors.first() {
        report["first_error"] = json!(first);
    }
    Ok(report)
}
