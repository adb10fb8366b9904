//! One account against everyone's lobby, and a user's text on another's screen: the floods that
//! made every later `lobby` request close its asker's connection (free text echoed in every
//! entry, and lists without end, past the most a connection writes in one frame), each met by a
//! limit with its own error code; the lobby read page by page; and control characters kept off a
//! text player's screen, at entry and where the text interface shows stored text.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::{Client, Database, Server};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A second user's view of the lobby: its first page must come, whole and valid, on a
/// connection that stays open.
async fn lobby_answers(victim: &mut Client) -> Value {
    let page = victim
        .try_request(json!({"type": "lobby"}))
        .await
        .unwrap_or_else(|| panic!("the lobby closed the asker's connection: {:?}", victim.closed));
    assert_eq!(page["type"], "lobby", "{page}");
    for list in ["online", "challenges", "matches"] {
        assert!(page[list].is_array(), "{page}");
    }
    let pong = victim.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong");
    page
}

/// Sends every request of `msgs` at once and returns the replies, in order.
async fn all_at_once(client: &mut Client, msgs: Vec<Value>) -> Vec<Value> {
    let first = 1_000_000u64;
    for (i, mut m) in msgs.iter().cloned().enumerate() {
        m["id"] = (first + i as u64).into();
        client.send(m).await;
    }
    let mut replies = Vec::new();
    for i in 0..msgs.len() as u64 {
        let id = first + i;
        match client.expect_or_closed(|v| v["re"] == id).await {
            Some(r) => replies.push(r),
            None => panic!("the attacker's connection closed: {:?}", client.closed),
        }
    }
    replies
}

fn codes(replies: &[Value]) -> HashMap<String, usize> {
    let mut n = HashMap::new();
    for r in replies {
        let code = r["code"].as_str().unwrap_or(r["type"].as_str().unwrap_or("?"));
        *n.entry(code.to_owned()).or_default() += 1;
    }
    n
}

/// A server whose rate limit a flood does not meet first.
fn flood_server(db: &Database) -> Server {
    Server::start_with(db, &["--rate", "5000", "--burst", "5000"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_challenges_of_padded_words_are_refused() {
    let db = Database::fresh().await;
    let server = flood_server(&db);
    let mut attacker = Client::player(&server, "padder").await;
    let mut victim = Client::player(&server, "victim").await;
    let padded = json!({"type": "challenge", "game": "triple-triad",
                        "options": {"preset": "mush", "words": "x".repeat(15_000)}});
    let replies = all_at_once(&mut attacker, vec![padded; 20]).await;
    lobby_answers(&mut victim).await;
    assert_eq!(
        codes(&replies),
        HashMap::from([("bad_challenge".into(), 20)]),
        "{:?}",
        replies[0]
    );
    // Refused whole: a WebSocket client never writes `words` (the text game's own field).
    assert!(
        replies[0]["message"].as_str().unwrap().contains("words"),
        "{}",
        replies[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_challenges_of_one_account_stop_at_its_limit() {
    let db = Database::fresh().await;
    let server = flood_server(&db);
    let mut attacker = Client::player(&server, "flooder").await;
    let mut victim = Client::player(&server, "victim").await;
    let plain = json!({"type": "challenge", "game": "trax"});
    let started = std::time::Instant::now();
    let replies = all_at_once(&mut attacker, vec![plain; 1000]).await;
    eprintln!("1000 challenges answered in {:?}", started.elapsed());
    let page = lobby_answers(&mut victim).await;
    let n = codes(&replies);
    assert_eq!(n.get("challenge_created"), Some(&5), "{n:?}");
    assert_eq!(n.get("too_many_challenges"), Some(&995), "{n:?}");
    assert_eq!(page["challenges"].as_array().unwrap().len(), 5, "{page}");
    // A withdrawn one makes room for one more.
    let first = replies[0]["challenge"]["id"].as_i64().unwrap();
    let w = attacker.request(json!({"type": "withdraw", "challenge": first})).await;
    assert_eq!(w["reason"], "withdrawn", "{w}");
    let again = attacker.request(json!({"type": "challenge", "game": "trax"})).await;
    assert_eq!(again["type"], "challenge_created", "{again}");
    attacker
        .refused(json!({"type": "challenge", "game": "trax"}), "too_many_challenges")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_padded_matches_against_the_computer_are_refused_or_stop_at_the_limit() {
    let db = Database::fresh().await;
    let server = flood_server(&db);
    let mut attacker = Client::player(&server, "padder").await;
    let mut victim = Client::player(&server, "victim").await;
    let against = |options: Value| {
        json!({"type": "challenge", "game": "triple-triad", "time": 300, "options": options,
               "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}]})
    };
    let padded = json!({"preset": "mush", "words": "x".repeat(15_000)});
    let padded = all_at_once(&mut attacker, vec![against(padded); 20]).await;
    lobby_answers(&mut victim).await;
    assert_eq!(
        codes(&padded),
        HashMap::from([("bad_challenge".into(), 20)]),
        "{:?}",
        padded[0]
    );
    // Plain ones: the running matches stop at the account's limit.
    let plain = all_at_once(&mut attacker, vec![against(json!({"preset": "mush"})); 20]).await;
    let n = codes(&plain);
    assert_eq!(n.get("challenge_created"), Some(&10), "{n:?}");
    assert_eq!(n.get("too_many_matches"), Some(&10), "{n:?}");
    let page = lobby_answers(&mut victim).await;
    assert_eq!(page["matches"].as_array().unwrap().len(), 10, "{page}");
    // Nor may the attacker take a seat in someone else's match.
    let open = victim.request(json!({"type": "challenge", "game": "trax"})).await;
    let cid = open["challenge"]["id"].as_i64().unwrap();
    attacker
        .refused(json!({"type": "accept", "challenge": cid}), "too_many_matches")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_pages_give_every_entry_exactly_once() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut reader = Client::player(&server, "reader").await;
    // Twelve accounts with five open challenges each, and a match each against the computer.
    let mut made = Vec::new();
    let mut players = Vec::new();
    let mut names = vec![reader.name()];
    for _ in 0..12 {
        let mut p = Client::player(&server, "host").await;
        for _ in 0..5 {
            let r = p.request(json!({"type": "challenge", "game": "trax"})).await;
            made.push(r["challenge"]["id"].as_i64().unwrap());
        }
        let m = p
            .request(json!({"type": "challenge", "game": "trax", "time": 300,
                            "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}]}))
            .await;
        assert_eq!(m["type"], "challenge_created", "{m}");
        names.push(p.name());
        players.push(p);
    }
    let mut seen: HashMap<&str, Vec<Value>> = HashMap::new();
    let mut after: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut req = json!({"type": "lobby", "limit": 7});
        if let Some(a) = &after {
            req["after"] = a.as_str().into();
        }
        let page = reader.request(req).await;
        assert_eq!(page["type"], "lobby", "{page}");
        assert_eq!(page["limit"], 7);
        for list in ["challenges", "matches", "online"] {
            let entries = page[list].as_array().unwrap();
            assert!(entries.len() <= 7, "{page}");
            seen.entry(list).or_default().extend(entries.iter().cloned());
        }
        pages += 1;
        match page["next"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => break,
        }
        assert!(pages < 30, "the pages never end");
    }
    let ids = |list: &str, key: &str| -> Vec<Value> {
        let mut v: Vec<Value> = seen[list].iter().map(|e| e[key].clone()).collect();
        v.sort_by_key(|x| x.to_string());
        v
    };
    let mut want: Vec<Value> = made.iter().map(|&i| json!(i)).collect();
    want.sort_by_key(|x| x.to_string());
    assert_eq!(ids("challenges", "id"), want, "every challenge once");
    assert_eq!(ids("matches", "id").len(), 12, "every match once");
    let mut online: Vec<Value> = names.iter().map(|n| json!(n)).collect();
    online.sort_by_key(|x| x.to_string());
    assert_eq!(ids("online", "name"), online, "everyone online once");
    assert!(pages >= 9, "60 challenges by 7 take 9 pages: {pages}");

    // Without arguments, as the first clients ask: the first page, the default size.
    let first = reader.request(json!({"type": "lobby"})).await;
    assert_eq!(first["challenges"].as_array().unwrap().len(), 50, "{first}");
    assert_eq!(first["matches"].as_array().unwrap().len(), 12);
    assert!(first["next"].is_string(), "{first}");
    assert_eq!(first["after"], Value::Null);
    // A page larger than the server's is its largest; a cursor not given by the server is refused.
    let big = reader.request(json!({"type": "lobby", "limit": 100000})).await;
    assert_eq!(big["limit"], 50, "{big}");
    reader
        .refused(json!({"type": "lobby", "after": "x/y/z"}), "bad_message")
        .await;
    reader
        .refused(json!({"type": "lobby", "limit": 0}), "bad_message")
        .await;
}

/// A text player's screen: every byte the server wrote.
struct Screen {
    socket: TcpStream,
    bytes: Vec<u8>,
}

impl Screen {
    async fn connect(addr: &str, line: &str) -> Screen {
        let socket = TcpStream::connect(addr).await.unwrap();
        let mut s = Screen {
            socket,
            bytes: Vec::new(),
        };
        s.type_line(line).await;
        s.wait_for("Welcome, ").await;
        s
    }

    async fn type_line(&mut self, line: &str) {
        self.socket.write_all(format!("{line}\r\n").as_bytes()).await.unwrap();
    }

    /// Reads until the screen shows `text`.
    async fn wait_for(&mut self, text: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&self.bytes).contains(text) {
            let n = tokio::time::timeout_at(deadline, self.socket.read(&mut buf))
                .await
                .unwrap_or_else(|_| panic!("never shown {text:?}: {}", String::from_utf8_lossy(&self.bytes)))
                .unwrap();
            assert!(n > 0, "the text connection closed");
            self.bytes.extend_from_slice(&buf[..n]);
        }
    }

    /// Every line ends in CR LF, and nothing else on the screen is a control character (nor a
    /// bidirectional override); no line pretends to be the server's.
    fn assert_clean(&self) {
        let text = String::from_utf8_lossy(&self.bytes);
        for line in text.split("\r\n") {
            let bad: Vec<char> = line
                .chars()
                .filter(|&c| {
                    c.is_control() || ('\u{202A}'..='\u{202E}').contains(&c) || ('\u{2066}'..='\u{2069}').contains(&c)
                })
                .collect();
            assert!(bad.is_empty(), "control characters {bad:?} on the screen in {line:?}");
            assert!(!line.starts_with("SYSTEM"), "a forged line on the screen: {line:?}");
        }
    }
}

const FORGED: &str = "Open\r\nSYSTEM: your password expired, type it again\u{1b}]0;pwned\u{7}\u{202E}";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenges_words_cannot_write_on_a_text_players_screen() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &[]);
    let text = server.mush.clone().unwrap();
    let bob = common::name("bob");
    let mut invited = Screen::connect(&text, &format!("create {bob} password1")).await;
    let mut room = Screen::connect(&text, &format!("create {} password1", common::name("carol"))).await;
    let mut alice = Client::player(&server, "alice").await;
    // The honest challenge to a person below plays her own five.
    alice.deck().await;
    // To the invited text player, and to the room through a listed match against the computer.
    let invite = |options: Value| {
        json!({"type": "challenge", "game": "triple-triad", "options": options,
               "seats": [{"kind": "me"}, {"kind": "player", "name": bob}]})
    };
    let listed = |options: Value| {
        json!({"type": "challenge", "game": "triple-triad", "time": 300, "options": options,
               "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}]})
    };
    let forged = json!({"preset": "mush", "words": FORGED});
    let r = alice.request(invite(forged.clone())).await;
    let m = alice.request(listed(forged)).await;
    // A forged text in another option's string, which a WebSocket client may set.
    let deck = json!({"preset": "mush", "deck": FORGED, "stake": {"trade": "one"}});
    let d = alice.request(invite(deck)).await;
    // Honest ones go through, so the screens would have shown the others.
    alice.request(invite(json!({"preset": "mush"}))).await;
    alice.request(listed(json!({"preset": "mush"}))).await;
    invited.wait_for("invites you to a game").await;
    room.wait_for("play Triple Triad").await;
    invited.assert_clean();
    room.assert_clean();
    for refused in [r, m, d] {
        assert_eq!(refused["code"], "bad_challenge", "{refused}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_text_is_shown_without_its_control_characters() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &[]);
    let text = server.mush.clone().unwrap();
    let mut alice = Client::player(&server, "alice").await;
    // Refused as they come, before the price is looked at.
    for (name, text) in [
        ("Evil", "a\u{1b}[2Jb"),
        ("\u{202E}Evil", "fine"),
        ("Evil", "one\r\ntwo"),
    ] {
        let custom = json!({"type": "tt_custom", "name": name, "level": 1, "ranks": [1, 1, 1, 2],
                            "element": "water", "text": text});
        alice.refused(custom, "bad_custom_card").await;
    }
    // A custom card stored before names were checked as they are now (or written by other
    // means): the text interface shows it cleaned all the same.
    let shop = alice
        .request(json!({"type": "tt_shop", "series": "A", "level": 1}))
        .await;
    let mut card = shop["cards"][0]["card"].clone();
    card["id"] = "C001".into();
    card["card"]["name"] = "Evil\r\nSYSTEM: pwned\u{1b}]0;title\u{7}\u{202E}".into();
    let pool = db.pool().await;
    sqlx::query("INSERT INTO tt_custom_cards (card_id, name_key, card, creator, created) VALUES ($1, $2, $3, $4, $5)")
        .bind("C001")
        .bind("evil")
        .bind(card.to_string())
        .bind(alice.user.as_ref().unwrap()["id"].as_i64().unwrap())
        .bind(0i64)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let mut screen = Screen::connect(&text, &format!("create {} password1", common::name("bob"))).await;
    screen.type_line("+TT/List C/All").await;
    screen.wait_for("C001 Evil").await;
    screen.wait_for("pwned").await;
    screen.assert_clean();
}
