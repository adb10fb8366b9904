//! Connections that hold a socket and say nothing, or too many from one address, against the real
//! server on loopback: slowloris headers, silent WebSockets before and after `hello`, silent text
//! sockets, the per-peer and global caps, a flood of idle sockets a newcomer still gets past;
//! `/healthz` under pipelining, bare-CR text lines, and a `tt_*` frame before `hello`.
//!
//! Other peers are loopback source addresses (127.0.0.2, ...: all of 127/8 is local on Linux).

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{Client, Database, Launch, Server};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// A TCP connection to `to` from the loopback address `127.0.0.{from}`.
async fn tcp_from(from: u8, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from(([127, 0, 0, from], 0)))?;
    socket.connect(to).await
}

type Ws = WebSocketStream<TcpStream>;

/// A WebSocket to the server from `127.0.0.{from}`, or the HTTP status that refused it.
async fn ws_from(from: u8, hosted: &Server) -> Result<Ws, u16> {
    let tcp = tcp_from(from, hosted.http()).await.expect("connect");
    match tokio_tungstenite::client_async(format!("ws://{}/ws", hosted.addr), tcp).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("websocket handshake: {e}"),
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("send");
}

/// The next JSON frame, or the close (code, reason) that came instead. Reading answers the
/// server's pings by itself.
async fn next(ws: &mut Ws, within: Duration) -> Result<Value, (u16, String)> {
    let until = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(until, ws.next()).await {
            Err(_) => panic!("nothing within {within:?}"),
            Ok(Some(Ok(Message::Text(t)))) => return Ok(serde_json::from_str(&t).unwrap()),
            Ok(Some(Ok(Message::Close(c)))) => {
                return Err(c.map_or((1005, String::new()), |c| (u16::from(c.code), c.reason.to_string())))
            }
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(_)) | None) => return Err((1006, String::new())),
        }
    }
}

/// Reads `stream` until it ends; what it read, or `None` if it was still open after `within`.
async fn read_to_end(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let until = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(until, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_headers_are_cut() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &["--header-timeout", "1"]);
    let mut slow = tcp_from(1, hosted.http()).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let started = Instant::now();
    // One header byte at a time, never the blank line.
    let cut = loop {
        if slow.write_all(b"X").await.is_err() {
            break true;
        }
        let mut buf = [0u8; 64];
        match tokio::time::timeout(Duration::from_millis(200), slow.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => break true,
            _ if started.elapsed() > Duration::from_secs(6) => break false,
            _ => {}
        }
    };
    assert!(
        cut,
        "a request whose headers never end was held for {:?}",
        started.elapsed()
    );
    // A keep-alive connection idle after its request is cut the same way.
    let mut idle = tcp_from(1, hosted.http()).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let read = read_to_end(&mut idle, Duration::from_secs(6)).await;
    assert!(
        read.as_deref().is_some_and(|r| r.starts_with("HTTP/1.1 200")),
        "{read:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_websockets_are_closed_and_quiet_listeners_kept() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &["--hello-timeout", "1", "--idle-timeout", "2"]);
    // No hello: closed after the hello timeout.
    let mut mute = ws_from(1, &hosted).await.unwrap();
    let started = Instant::now();
    assert_eq!(
        next(&mut mute, Duration::from_secs(6)).await,
        Err((1008, "hello_timeout".into()))
    );
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());

    // After hello: one that reads nothing (so answers no ping) is closed after the idle timeout;
    // one that sends nothing but answers the server's pings (a spectator, a player waiting on a
    // long opponent) stays.
    let mut gone = ws_from(1, &hosted).await.unwrap();
    let mut quiet = ws_from(1, &hosted).await.unwrap();
    for ws in [&mut gone, &mut quiet] {
        send(ws, json!({"type": "hello", "protocol": 1})).await;
        assert_eq!(next(ws, Duration::from_secs(5)).await.unwrap()["type"], "welcome");
    }
    let until = tokio::time::Instant::now() + Duration::from_secs(5);
    while let Ok(frame) = tokio::time::timeout_at(until, quiet.next()).await {
        assert!(
            matches!(frame, Some(Ok(Message::Ping(_)))),
            "a listening connection was closed: {frame:?}"
        );
    }
    // `gone` read nothing all that time: what it finds now is the close.
    let mut closed = None;
    while let Some(frame) = gone.next().await {
        match frame {
            Ok(Message::Close(c)) => closed = c.map(|c| (u16::from(c.code), c.reason.to_string())),
            Ok(_) => continue,
            Err(_) => {}
        }
        break;
    }
    assert_eq!(closed, Some((1008, "idle_timeout".into())));
    // And the one kept still talks.
    send(&mut quiet, json!({"type": "ping", "id": 1})).await;
    assert_eq!(next(&mut quiet, Duration::from_secs(5)).await.unwrap()["type"], "pong");
}

/// A text connection from `127.0.0.{from}`, its welcome read.
async fn text_from(from: u8, hosted: &Server) -> tokio::io::BufReader<TcpStream> {
    let mut text = tokio::io::BufReader::new(tcp_from(from, hosted.text()).await.unwrap());
    line_with(&mut text, "Welcome to Arbiter").await;
    text
}

/// Reads lines until one holds `what`, and returns them all; panics at the end of the stream
/// or after 10 s.
async fn line_with(text: &mut tokio::io::BufReader<TcpStream>, what: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let mut line = String::new();
        match tokio::time::timeout(Duration::from_secs(10), text.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => {}
            r => panic!("no line with {what:?} ({r:?}); read {seen:#?}"),
        }
        let found = line.contains(what);
        seen.push(line);
        if found {
            return seen;
        }
    }
}

/// Whether `text` ends (after its last lines) within `within`.
async fn ends_within(text: &mut tokio::io::BufReader<TcpStream>, within: Duration) -> bool {
    let until = tokio::time::Instant::now() + within;
    loop {
        let mut line = String::new();
        match tokio::time::timeout_at(until, text.read_line(&mut line)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_text_sockets_are_closed() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &["--text-login-timeout", "1", "--text-idle-timeout", "2"]);
    // Never logs in.
    let mut mute = text_from(1, &hosted).await;
    let started = Instant::now();
    line_with(&mut mute, "Log in within 1 s").await;
    assert!(ends_within(&mut mute, Duration::from_secs(3)).await);
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    // Logs in, then says nothing.
    let mut idle = text_from(1, &hosted).await;
    let name = common::name("idle");
    idle.write_all(format!("create {name} password1\r\n").as_bytes())
        .await
        .unwrap();
    line_with(&mut idle, "Welcome,").await;
    let started = Instant::now();
    line_with(&mut idle, "Nothing from you in 2 s").await;
    assert!(ends_within(&mut idle, Duration::from_secs(3)).await);
    let waited = started.elapsed();
    assert!(
        waited > Duration::from_millis(1500) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_peer_is_capped_on_every_listener_while_another_gets_in() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &["--max-per-peer", "3"]);
    // 127.0.0.2 holds three connections: a WebSocket, a text one and a bare HTTP socket.
    let _ws = ws_from(2, &hosted).await.unwrap();
    let _text = text_from(2, &hosted).await;
    let _bare = tcp_from(2, hosted.http()).await.unwrap();
    // Its fourth is refused, on either listener, with a reason.
    assert_eq!(ws_from(2, &hosted).await.err(), Some(429));
    let mut text = tokio::io::BufReader::new(tcp_from(2, hosted.text()).await.unwrap());
    line_with(&mut text, "Too many connections from your address").await;
    // Another address gets in and plays.
    let mut other = ws_from(3, &hosted).await.unwrap();
    send(&mut other, json!({"type": "hello", "protocol": 1})).await;
    assert_eq!(
        next(&mut other, Duration::from_secs(5)).await.unwrap()["type"],
        "welcome"
    );
    // A place comes back when its connection ends.
    drop(_bare);
    let mut again = None;
    for _ in 0..50 {
        match ws_from(2, &hosted).await {
            Ok(ws) => {
                again = Some(ws);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    assert!(again.is_some(), "the peer's place never came back");
}

/// Raises this process's open-file limit to hold `sockets` (and the server's, which inherits
/// it); as root beyond the hard limit.
fn raise_own_files(sockets: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        let want = (sockets + 1024).max(limit.rlim_cur);
        let raised = libc::rlimit {
            rlim_cur: want,
            rlim_max: want.max(limit.rlim_max),
        };
        if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
            let hard = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &hard);
        }
    }
}

/// Connects `n` sockets to `to` from the addresses `sources` in turn, never sending a byte;
/// returns those the server still holds after a moment (the refused ones it closed).
async fn flood(n: usize, sources: std::ops::RangeInclusive<u8>, to: SocketAddr) -> Vec<TcpStream> {
    let sources: Vec<u8> = sources.collect();
    let mut held = Vec::new();
    let mut refused = 0;
    for batch in (0..n).collect::<Vec<_>>().chunks(500) {
        // A server that stopped accepting leaves the rest waiting in its backlog, or unanswered.
        let tries = batch
            .iter()
            .map(|i| tokio::time::timeout(Duration::from_secs(2), tcp_from(sources[i % sources.len()], to)));
        for socket in futures_util::future::join_all(tries).await {
            match socket {
                Ok(Ok(s)) => held.push(s),
                _ => refused += 1,
            }
        }
    }
    // A refused socket is answered and closed: it reads to its end at once. Those the server
    // has yet to accept from its backlog look held until it does.
    let mut kept = held;
    for _ in 0..12 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let before = kept.len();
        kept.retain(|s| {
            let mut buf = [0u8; 256];
            matches!(s.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
        });
        refused += before - kept.len();
        if before == kept.len() {
            break;
        }
    }
    let mut by_source = std::collections::BTreeMap::new();
    for s in &kept {
        *by_source.entry(s.local_addr().unwrap().ip()).or_insert(0) += 1;
    }
    println!(
        "{n} sockets tried on {to}: {} held ({by_source:?}), {refused} refused",
        kept.len()
    );
    kept
}

/// Registers, challenges a computer to Trax, plays a move and sees the answer: a newcomer that
/// gets in and plays.
async fn newcomer_plays(hosted: &Server) -> Duration {
    let started = Instant::now();
    let mut c = Client::connect(hosted).await;
    c.register(&common::name("newcomer")).await;
    let r = c
        .request(json!({"type": "challenge", "game": "trax", "time": 60,
                        "seats": [{"kind": "me"}, {"kind": "computer", "level": "easy"}]}))
        .await;
    assert_eq!(r["type"], "challenge_created", "{r}");
    let state = c.expect("match_state").await;
    let id = state["match"]["id"].as_i64().unwrap();
    c.send(json!({"type": "move", "match": id, "move": "@0+"})).await;
    c.moved(id, 1).await;
    c.moved(id, 2).await;
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_idle_sockets_lets_a_newcomer_in() {
    // The full size is `HOSTILE_FLOOD=20000 HOSTILE_FILES=20000`; the CI one a tenth, against a
    // server with a small open-file limit (1,024: a default soft limit), which the flood would
    // exhaust without the caps.
    let n: usize = std::env::var("HOSTILE_FLOOD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let files: u64 = std::env::var("HOSTILE_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_024);
    raise_own_files(n as u64 + files);
    let db = Database::fresh().await;
    let hosted = Server::launch(
        &db,
        Launch {
            text: true,
            files: Some(files),
            ..Launch::default()
        },
    );
    let started = Instant::now();
    let mut held = flood(n * 3 / 4, 2..=9, hosted.http()).await;
    held.extend(flood(n - n * 3 / 4, 2..=9, hosted.text()).await);
    println!("flood of {n} in {:?}, {} held", started.elapsed(), held.len());
    let took = tokio::time::timeout(Duration::from_secs(20), newcomer_plays(&hosted))
        .await
        .expect("the newcomer never got in");
    println!("the newcomer logged in and played in {took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A text newcomer too.
    let mut text = tokio::time::timeout(Duration::from_secs(20), text_from(1, &hosted))
        .await
        .expect("the text newcomer never got in");
    text.write_all(format!("create {} password1\r\n", common::name("t")).as_bytes())
        .await
        .unwrap();
    line_with(&mut text, "Welcome,").await;
    drop(held);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_answers_503_and_recovers() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &["--max-connections", "40", "--header-timeout", "1"]);
    // Forty sockets from forty addresses fill it, each within its peer's cap.
    let mut held = Vec::new();
    for from in 10..50u8 {
        held.push(tcp_from(from, hosted.http()).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut late = tcp_from(1, hosted.http()).await.unwrap();
    let answer = read_to_end(&mut late, Duration::from_secs(5)).await.unwrap_or_default();
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    let mut text = tokio::io::BufReader::new(tcp_from(1, hosted.text()).await.unwrap());
    line_with(&mut text, "The server is full").await;
    // The silent ones are cut at the header timeout: a newcomer then gets in.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    tokio::time::timeout(Duration::from_secs(30), newcomer_plays(&hosted))
        .await
        .expect("the newcomer never got in");
    drop(held);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_under_pipelining_leaves_the_database_alone() {
    let db = Database::fresh().await;
    let hosted = Server::launch(
        &db,
        Launch {
            text: true,
            log: Some("arbiter_server=warn,sqlx::query=debug"),
            ..Launch::default()
        },
    );
    let started = Instant::now();
    let mut answered = 0;
    for from in 1..=4u8 {
        let mut s = tcp_from(from, hosted.http()).await.unwrap();
        let mut requests = String::new();
        for _ in 0..99 {
            requests.push_str("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        requests.push_str("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        s.write_all(requests.as_bytes()).await.unwrap();
        let read = read_to_end(&mut s, Duration::from_secs(10)).await.unwrap();
        answered += read.matches("HTTP/1.1 200 OK").count();
    }
    assert_eq!(answered, 400);
    let seconds = started.elapsed().as_secs() + 2;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let queries = hosted.logged().iter().filter(|l| l.contains("SELECT 1")).count() as u64;
    assert!(
        queries <= seconds,
        "400 health checks in {seconds} s asked the database {queries} times"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_lines_may_end_with_a_bare_cr() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &[]);
    let mut text = text_from(1, &hosted).await;
    let name = common::name("cr");
    text.write_all(format!("create {name} password1\r").as_bytes())
        .await
        .unwrap();
    line_with(&mut text, "Welcome,").await;
    // Telnet's CR NUL, and CR LF split over two writes: one line each, no empty one between.
    text.write_all(b"+TT/Starter\r\0").await.unwrap();
    line_with(&mut text, "starter set of 20 cards").await;
    text.write_all(b"+TT/Stash\r").await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    text.write_all(b"\n+TT/Stats\n").await.unwrap();
    line_with(&mut text, "Your stash: 20 cards").await;
    let stats = line_with(&mut text, "played").await;
    assert!(!stats.iter().any(|l| l.contains("Huh")), "{stats:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_economy_frame_before_hello_is_hello_first() {
    let db = Database::fresh().await;
    let hosted = Server::start_text(&db, &[]);
    for frame in [json!({"type": "tt_wallet", "id": 1}), json!({"type": "fly"})] {
        let mut c = ws_from(1, &hosted).await.unwrap();
        send(&mut c, frame.clone()).await;
        let e = next(&mut c, Duration::from_secs(5)).await.unwrap();
        assert_eq!(e["code"], "hello_first", "{frame}: {e}");
        assert_eq!(
            next(&mut c, Duration::from_secs(5)).await,
            Err((1002, "hello_first".into()))
        );
    }
}
