//! Logins under attack: a flood of wrong passwords from many connections and peers must not keep
//! a real user out, guessing meets its budgets, and the answer's time does not tell known names
//! from unknown ones. Peers are told apart by address: each client binds its socket to its own
//! loopback address (127.0.0.N, all local on Linux) before it connects.

mod common;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{name, Database, Server, WAIT};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

const PASSWORD: &str = "password1";

/// A TCP connection to `to` from the loopback address 127.0.0.`peer`.
async fn tcp_from(peer: u8, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from(([127, 0, 0, peer], 0))).unwrap();
    socket.connect(to).await.expect("connect")
}

/// A greeted WebSocket client on one peer address.
struct Client {
    ws: WebSocketStream<TcpStream>,
    next_id: u64,
}

impl Client {
    async fn connect(server: &Server, peer: u8) -> Client {
        let stream = tcp_from(peer, server.http()).await;
        let (ws, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.http()), stream)
            .await
            .expect("upgrade");
        let mut c = Client { ws, next_id: 1 };
        let welcome = c.request(json!({"type": "hello", "protocol": 1})).await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        c
    }

    /// Sends `msg` with a fresh id and waits for the frame that answers it.
    async fn request(&mut self, mut msg: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = id.into();
        self.ws.send(Message::Text(msg.to_string().into())).await.expect("send");
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("an answer in time")
                .expect("the connection open")
                .expect("a frame");
            if let Message::Text(t) = frame {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["re"] == id || v["type"] == "welcome" {
                    return v;
                }
            }
        }
    }

    async fn login(&mut self, name: &str, password: &str) -> Value {
        self.request(json!({"type": "login", "name": name, "password": password}))
            .await
    }
}

/// Registers `name` from 127.0.0.`peer`.
async fn register(server: &Server, peer: u8, name: &str) {
    let mut c = Client::connect(server, peer).await;
    let r = c
        .request(json!({"type": "register", "name": name, "password": PASSWORD}))
        .await;
    assert_eq!(r["type"], "authenticated", "{r}");
}

/// Logs in with the right password from a fresh connection of 127.0.0.`peer`: the answer, and
/// how long it took.
async fn real_login(server: &Server, peer: u8, name: &str) -> (Value, Duration) {
    let mut c = Client::connect(server, peer).await;
    let started = Instant::now();
    let r = c.login(name, PASSWORD).await;
    (r, started.elapsed())
}

/// Flooding connections per flooding peer.
const PER_PEER: usize = 4;

/// 700 connections from 175 peers (ARBITER_TEST_FLOOD sets another count), each keeping a login
/// with a wrong password in flight on one of ten existing names, as the attacker did;
/// meanwhile a real user, from an address of their own, logs in three times, each within 2 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_wrong_passwords_leaves_room_for_a_real_login() {
    let flood: usize = std::env::var("ARBITER_TEST_FLOOD")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(700);
    let db = Database::fresh().await;
    let server = Arc::new(Server::start_text(&db, &[]));
    let victim = name("victim");
    register(&server, 2, &victim).await;
    let decoys: Arc<Vec<String>> = Arc::new((0..10).map(|_| name("decoy")).collect());
    for d in decoys.iter() {
        register(&server, 3, d).await;
    }
    let stop = Arc::new(AtomicBool::new(false));
    // Connected, then answered login_failed, busy, and refused otherwise.
    let counts: Arc<[AtomicU64; 4]> = Arc::default();
    let mut flooders = Vec::new();
    for i in 0..flood {
        // Peers 127.0.0.10 and up, PER_PEER connections each.
        let peer = u8::try_from(10 + i / PER_PEER).expect("at most 245 flooding peers");
        let (server, decoys, stop, counts) = (server.clone(), decoys.clone(), stop.clone(), counts.clone());
        flooders.push(tokio::spawn(async move {
            let mut c = Client::connect(&server, peer).await;
            counts[0].fetch_add(1, Ordering::Relaxed);
            let mut n = i;
            while !stop.load(Ordering::Relaxed) {
                n += 1;
                let r = c.login(&decoys[n % decoys.len()], "wrong password").await;
                match r["code"].as_str() {
                    Some("login_failed") => counts[1].fetch_add(1, Ordering::Relaxed),
                    // Refused at once: try again a little later, under the connection's rate.
                    _ => {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        counts[if r["code"] == "busy" { 2 } else { 3 }].fetch_add(1, Ordering::Relaxed)
                    }
                };
            }
        }));
    }
    // The flood is under way: every connection is in, and the server has answered as many
    // wrong passwords as there are flooding peers.
    let until = Instant::now() + WAIT;
    while counts[0].load(Ordering::Relaxed) < flood as u64
        || counts[1].load(Ordering::Relaxed) < flood.div_ceil(PER_PEER) as u64
    {
        assert!(
            Instant::now() < until,
            "the flood never got under way: {} connected, {} login_failed, {} busy, {} other refusals",
            counts[0].load(Ordering::Relaxed),
            counts[1].load(Ordering::Relaxed),
            counts[2].load(Ordering::Relaxed),
            counts[3].load(Ordering::Relaxed)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        let (r, took) = real_login(&server, 2, &victim).await;
        assert_eq!(r["type"], "authenticated", "after {took:?}: {r}");
        times.push(took);
    }
    stop.store(true, Ordering::Relaxed);
    let [_, failed, busy, other] = &*counts;
    eprintln!(
        "flood of {flood}: real logins took {times:?}; flood answers: {} login_failed, {} busy, {} other refusals",
        failed.load(Ordering::Relaxed),
        busy.load(Ordering::Relaxed),
        other.load(Ordering::Relaxed)
    );
    for took in times {
        assert!(
            took < Duration::from_secs(2),
            "a real login took {took:?} under the flood"
        );
    }
    for f in flooders {
        f.abort();
    }
}

/// One peer guesses: five wrong passwords on a name, then the name is held back for it
/// (`login_throttled`); twenty failures in all, then the peer is refused (`too_many_logins`),
/// right password or not, on the WebSocket and on the text listener alike. The owner, from an
/// address that never failed, gets in; so they do after many peers guessed, while a peer that
/// failed elsewhere is held back.
#[tokio::test]
async fn guessing_is_refused_after_the_budget() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &[]);
    let victim = name("victim");
    register(&server, 2, &victim).await;

    let mut guesser = Client::connect(&server, 20).await;
    for n in 0..5 {
        let r = guesser.login(&victim, &format!("guess {n}!")).await;
        assert_eq!(r["code"], "login_failed", "{r}");
    }
    let r = guesser.login(&victim, "guess 5!").await;
    assert_eq!(r["code"], "login_throttled", "{r}");
    assert!(r["message"].as_str().unwrap().contains("try again in"), "{r}");
    // Other names: the peer's budget (20 failures in ten minutes) runs out.
    for n in 5..20 {
        let r = guesser.login(&name("nobody"), &format!("guess {n}!")).await;
        assert_eq!(r["code"], "login_failed", "{r}");
    }
    for right_or_wrong in ["guess 21!", PASSWORD] {
        let r = guesser.login(&name("nobody"), right_or_wrong).await;
        assert_eq!(r["code"], "too_many_logins", "{r}");
    }
    let r = guesser.login(&victim, PASSWORD).await;
    assert_eq!(r["code"], "too_many_logins", "{r}");
    let r = guesser
        .request(json!({"type": "register", "name": name("new"), "password": PASSWORD}))
        .await;
    assert_eq!(r["code"], "too_many_logins", "{r}");

    // The text listener spends the same budgets.
    let (read, mut write) = tcp_from(20, server.text()).await.into_split();
    let mut lines = BufReader::new(read).lines();
    write
        .write_all(format!("connect {victim} {PASSWORD}\r\n").as_bytes())
        .await
        .unwrap();
    let refused = loop {
        let line = tokio::time::timeout(WAIT, lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if line.starts_with("Sorry") {
            break line;
        }
    };
    assert!(
        refused.contains("too many failed logins from your address"),
        "{refused}"
    );

    let (r, _) = real_login(&server, 21, &victim).await;
    assert_eq!(r["type"], "authenticated", "{r}");

    // Twelve more peers make five guesses each, until the name is held back for them too (50
    // failures in all).
    let failed = Arc::new(AtomicU64::new(5));
    let mut guessers = Vec::new();
    for peer in 30..42 {
        let mut c = Client::connect(&server, peer).await;
        let (victim, failed) = (victim.clone(), failed.clone());
        guessers.push(tokio::spawn(async move {
            for n in 0..5 {
                let r = c.login(&victim, &format!("guess {n}?")).await;
                match r["code"].as_str() {
                    Some("login_failed") => failed.fetch_add(1, Ordering::Relaxed),
                    _ => {
                        assert_eq!(r["code"], "login_throttled", "{r}");
                        break;
                    }
                };
            }
        }));
    }
    for g in guessers {
        g.await.unwrap();
    }
    assert!(failed.load(Ordering::Relaxed) >= 50, "{failed:?}");
    // A peer that failed once elsewhere is held back on the name, the right password or not.
    let mut c = Client::connect(&server, 22).await;
    assert_eq!(c.login(&name("nobody"), "a typo!!").await["code"], "login_failed");
    let r = c.login(&victim, PASSWORD).await;
    assert_eq!(r["code"], "login_throttled", "{r}");
    // One that never failed gets in.
    let (r, _) = real_login(&server, 23, &victim).await;
    assert_eq!(r["type"], "authenticated", "{r}");
}

/// The median of `times`.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A wrong password on a name nobody holds takes as long as one on a name somebody holds.
#[tokio::test]
async fn unknown_names_answer_as_slowly_as_known_ones() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &[]);
    let known = name("known");
    register(&server, 2, &known).await;
    let (mut known_times, mut unknown_times) = (Vec::new(), Vec::new());
    for i in 0..7 {
        for (peer, who, times) in [
            (30 + i, known.clone(), &mut known_times),
            (40 + i, name("unknown"), &mut unknown_times),
        ] {
            let mut c = Client::connect(&server, peer).await;
            let started = Instant::now();
            let r = c.login(&who, "wrong password").await;
            times.push(started.elapsed());
            assert_eq!(r["code"], "login_failed", "{r}");
        }
    }
    let (known, unknown) = (median(known_times), median(unknown_times));
    eprintln!("median answer: known name {known:?}, unknown name {unknown:?}");
    assert!(
        unknown * 3 > known && unknown < known * 3,
        "a known name answers in {known:?}, an unknown one in {unknown:?}"
    );
}
