//! The text game's interface against a real server process on loopback: a script typing the
//! seed's commands and checking the replies, a whole game with a stake between two text
//! players watched by a third, and a game between a text player and a WebSocket player; the
//! economy's invariant audited on the database afterwards (`arbiter-server --audit`).

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use arbiter_core::tripletriad::{Card, Match, Move, Options, Player};
use arbiter_core::{Game, Rng};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::Row as _;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(20);

struct Server {
    child: Child,
    http: String,
    mush: String,
    database: String,
}

impl Server {
    fn start(name: &str) -> Server {
        let dir = std::env::temp_dir().join(format!("arbiter-mush-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Server::on(&dir)
    }

    /// A server on the database of `dir` (kept from an earlier one).
    fn on(dir: &std::path::Path) -> Server {
        let database = format!("sqlite://{}", dir.join("db.sqlite").display());
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
            .args([
                "--listen",
                "127.0.0.1:0",
                "--mush-listen",
                "127.0.0.1:0",
                "--database",
                &database,
            ])
            // No picking window: these games name their decks, or play the current ones.
            .env("ARBITER_PICK_SECONDS", "0")
            .stdout(Stdio::piped())
            .stderr(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(dir.join("server.log"))
                    .unwrap(),
            )
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let mut read = || {
            line.clear();
            std::io::BufRead::read_line(&mut out, &mut line).unwrap();
            line.trim().to_string()
        };
        let http = read().trim_start_matches("http://").trim_end_matches('/').to_string();
        let mush = read().trim_start_matches("mush://").to_string();
        Server {
            child,
            http,
            mush,
            database,
        }
    }

    /// SIGKILL: no shutdown of any kind.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the server and audits its database.
    fn audit(mut self) -> Value {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter-server"))
            .args(["--audit", "--database", &self.database])
            .output()
            .unwrap();
        let figures: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(out.status.success(), "{figures}");
        assert_eq!(figures["problems"], json!([]));
        figures
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// A text client: what it types and reads goes to the transcript.
struct Mush {
    name: String,
    write: tokio::net::tcp::OwnedWriteHalf,
    lines: mpsc::UnboundedReceiver<String>,
    /// Lines read since the last `expect`.
    seen: Vec<String>,
    /// Everything typed (`> ` before it) and read so far: the player's screen.
    screen: Vec<String>,
}

impl Mush {
    async fn connect(addr: &str, name: &str) -> Mush {
        let (read, write) = TcpStream::connect(addr).await.unwrap().into_split();
        let (tx, lines) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut r = BufReader::new(read).lines();
            while let Ok(Some(l)) = r.next_line().await {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut m = Mush {
            name: name.into(),
            write,
            lines,
            seen: Vec::new(),
            screen: Vec::new(),
        };
        m.expect("Welcome to Arbiter").await;
        m
    }

    async fn send(&mut self, line: &str) {
        println!("[{}] > {line}", self.name);
        self.screen.push(format!("> {line}"));
        self.write.write_all(format!("{line}\r\n").as_bytes()).await.unwrap();
    }

    /// Reads until a line holds `text`; returns every line read.
    async fn expect(&mut self, text: &str) -> Vec<String> {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(i) = self.seen.iter().position(|l| l.contains(text)) {
                return self.seen.drain(..=i).collect();
            }
            match tokio::time::timeout_at(deadline, self.lines.recv()).await {
                Ok(Some(l)) => {
                    println!("[{}]   {l}", self.name);
                    self.screen.push(l.clone());
                    self.seen.push(l);
                }
                _ => panic!("{}: no line with {text:?}; read {:#?}", self.name, self.seen),
            }
        }
    }

    async fn says(&mut self, line: &str, text: &str) -> Vec<String> {
        self.send(line).await;
        self.expect(text).await
    }

    /// Every line that arrives within `ms`.
    async fn drain(&mut self, ms: u64) -> Vec<String> {
        while let Ok(Some(l)) = tokio::time::timeout(Duration::from_millis(ms), self.lines.recv()).await {
            println!("[{}]   {l}", self.name);
            self.screen.push(l.clone());
            self.seen.push(l);
        }
        std::mem::take(&mut self.seen)
    }
}

/// Five card ids from `+TT/Stash` lines (`A001  Geezard  x2`), within the level limit by
/// taking the lowest ids (levels 1 to 3).
fn five_ids(stash: &[String]) -> String {
    let mut ids = Vec::new();
    for l in stash {
        let mut parts = l.split_whitespace();
        if let (Some(id), Some(count)) = (parts.next(), l.rsplit('x').next()) {
            if id.len() == 4 && id.starts_with('A') {
                for _ in 0..count.trim().parse::<usize>().unwrap_or(0) {
                    ids.push(id.to_string());
                }
            }
        }
    }
    ids.truncate(5);
    ids.join(",")
}

/// An empty position in the last grid among `lines` (`(n)` marks an empty cell), the `k`-th
/// (modulo their number): varied, so that two players never replay one drawn round forever.
fn empty_cell(lines: &[String], k: usize) -> u8 {
    let start = lines.iter().rposition(|l| l.starts_with("Round ")).unwrap_or(0);
    let empty: Vec<u8> = lines[start..]
        .iter()
        .flat_map(|l| l.split('|'))
        .filter_map(|c| {
            c.trim()
                .strip_prefix('(')
                .and_then(|c| c.strip_suffix(')'))
                .and_then(|n| n.parse().ok())
        })
        .collect();
    assert!(!empty.is_empty(), "no empty cell in {lines:#?}");
    empty[k * 7 % empty.len()]
}

#[tokio::test]
async fn the_seeds_commands_and_a_game_with_a_stake() {
    let server = Server::start("seed");
    let mut squall = Mush::connect(&server.mush, "Squall").await;
    let mut cloud = Mush::connect(&server.mush, "Cloud").await;
    let mut zell = Mush::connect(&server.mush, "Zell").await;
    squall.says("+TT/Stash", "connect first").await;
    squall.says("create Squall lionheart", "Welcome, Squall").await;
    cloud.says("create Cloud buster-sword", "Welcome, Cloud").await;
    zell.says("create Zell t-board-1", "Welcome, Zell").await;

    // Your stash.
    squall.says("+TT/Starter", "starter set of 20 cards").await;
    squall.says("+TT/Starter", "given once").await;
    let stash = squall.says("+TT/Stash", "Your stash: 20 cards").await;
    let stash = [stash, squall.drain(300).await].concat();
    squall.says("+TT/Detail", "Element").await;
    squall.drain(300).await;
    squall.says("+TT/Stats", "0 played").await;
    squall.drain(300).await;
    // Another player's games, as the WebSocket's `stats` shows them: never their wallet.
    let others = [
        squall.says("+TT/Stats Cloud", "Cloud: 0 played").await,
        squall.drain(300).await,
    ]
    .concat();
    assert!(
        !others.iter().any(|l| l.contains("points") || l.contains("gils")),
        "another player's wallet is shown: {others:#?}"
    );
    cloud.says("+TT/Starter", "starter set").await;
    let cstash = cloud.says("+TT/Stash", "Your stash").await;
    let cstash = [cstash, cloud.drain(300).await].concat();

    // Your deck.
    squall.says("+TT/Deck Create=Start", "Deck Start created").await;
    squall.says("+TT/Deck Create=start", "already have a deck").await;
    squall
        .says(
            "+TT/Game Cloud=Start/Open Same Combo One",
            "cannot be used: a deck holds 5 cards, not 0",
        )
        .await;
    squall
        .says(
            &format!("+TT/Deck Add={}", five_ids(&stash)),
            "Start (current): 5 cards",
        )
        .await;
    squall
        .says("+TT/Deck Add=Omega Weapon", "deck Start already holds 5 cards")
        .await;
    squall.says("+TT/Deck Check=Start", "is ready").await;
    let first = five_ids(&stash).split(',').next().unwrap().to_string();
    squall
        .says(&format!("+TT/Deck Rem={first}"), "Start (current): 4 cards")
        .await;
    squall.says("+TT/Deck Check=Start", "a deck holds 5 cards, not 4").await;
    squall
        .says(&format!("+TT/Deck Add={first}"), "Start (current): 5 cards")
        .await;
    squall.says("+TT/Deck Create=Spare", "Deck Spare created").await;
    squall.says("+TT/Deck Delete=Spare", "Deck Spare deleted").await;
    // The deleted deck was the current one: none is now.
    squall.says("+TT/Deck List", "Start: 5 cards").await;
    cloud.says("+TT/Deck Create=Main", "Deck Main created").await;
    cloud
        .says(
            &format!("+TT/Deck Add={}", five_ids(&cstash)),
            "Main (current): 5 cards",
        )
        .await;

    // The shop and custom cards (no points yet).
    squall.says("+TT/List", "Final Fantasy").await;
    squall.drain(300).await;
    squall.says("+TT/List A/7", "Ultima Weapon").await;
    // Series A is the MUSH's: FF8's numbers and levels, no character card.
    let all = [squall.says("+TT/List A/All", "A110").await, squall.drain(300).await].concat();
    assert!(all.iter().any(|l| l.starts_with("A110 Omega Weapon")), "{all:#?}");
    assert!(all.iter().any(|l| l.starts_with("A007 Goblin")), "{all:#?}");
    for (n, old, _) in arbiter_economy::SERIES_A_REPLACED {
        assert!(!all.iter().any(|l| l.contains(old)), "A{n:03} {old}: {all:#?}");
    }
    squall.says("+TT/Buy Card=Squall", "no card named or numbered").await;
    squall
        .says("+TT/Buy Random=A/7", "costs 70 points and you have 0")
        .await;
    squall
        .says("+TT/Buy Card=Serendipity", "cannot be bought by card")
        .await;
    squall.says("+TT/Help Random=5", "Five suggestions for level 5").await;
    squall.drain(300).await;
    squall
        .says(
            "+TT/Custom Ultros/5=3 4 5 6 Water=Octopus Menace%r\"Silence Knave!\"",
            "costs 250 points",
        )
        .await;
    squall
        .says("+TT/Custom Kraken/5=9 9 9 9 Water=", "outside 18 to 21")
        .await;

    squall.says("+TT/Help", "+TT/Option Private|Broadcast|None").await;
    squall.drain(300).await;
    // Malformed lines get the help line and the connection stays.
    squall.says("+TT/Dance", "Type +TT/Help").await;
    squall.says("garbage", "Type +TT/Help").await;
    squall.says(&"x".repeat(5000), "longer than 4096 bytes").await;
    squall.says("+TT/Play 3=10", "position \"10\" is not 1 to 9").await;
    squall.says("+TT/Game Cloud=Start/Wall One", "Wall extends Same").await;

    // Playing the game: an invitation, a refusal, another, the game, a spectator.
    squall
        .says("+TT/Game Cloud=Start/Open Same Combo One", "You invite Cloud")
        .await;
    // The invitation says what leaving costs: the game and the cards at stake.
    let invitation = cloud.expect("Squall invites you").await;
    assert!(
        invitation
            .last()
            .unwrap()
            .contains("Leaving before the end loses the game"),
        "{invitation:#?}"
    );
    cloud.says("+TT/Refuse", "You refuse").await;
    squall
        .says("+TT/Game Cloud=Start/Open Same Combo One", "You invite Cloud")
        .await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    squall.expect("The game starts").await;
    zell.says("+TT/Spectate Join=Squall", "You watch Squall's game").await;
    let mut squall_won = None;
    let mut moves = 0;
    while squall_won.is_none() {
        for (i, who) in [&mut squall, &mut cloud].into_iter().enumerate() {
            let lines = who.drain(250).await;
            if let Some(l) = lines.iter().find(|l| l.contains("The game is over")) {
                squall_won = Some(l.contains("you win") == (i == 0));
                break;
            }
            if lines.iter().any(|l| l.contains("Your turn")) {
                let cell = empty_cell(&lines, moves);
                who.send(&format!("+TT/Play 1={cell}")).await;
                moves += 1;
            }
        }
        assert!(moves < 200, "the game does not end");
    }
    zell.drain(300).await;
    squall.send("+TT/Grid").await;
    squall.drain(300).await;
    // The winner chooses; the loser cannot leave before.
    let (winner, loser) = if squall_won == Some(true) {
        (&mut squall, &mut cloud)
    } else {
        (&mut cloud, &mut squall)
    };
    winner.drain(300).await;
    winner.says("+TT/WinList", "The winner takes 1 card").await;
    winner.drain(300).await;
    loser.says("+TT/Cancel", "cannot leave before the winner chooses").await;
    winner.says("+TT/Choose 1", "goes from").await;
    loser.expect("goes from").await;
    winner.says("+TT/Choose 1", "no cards to choose").await;
    loser.says("+TT/Deck List", "was lost to").await;
    // Points: 10 for the winner, who buys a level 1 card with them.
    winner.says("+TT/Stats", "10 points").await;
    winner.drain(300).await;
    winner.says("+TT/Buy Random=A/1", "for 10 points").await;
    loser.says("+TT/Stats", "5 points").await;
    loser.drain(300).await;
    squall.says("QUIT", "Goodbye").await;
    let figures = server.audit();
    assert_eq!(figures["cards"], 41);
    assert_eq!(figures["transfers"], 1);
    println!("invariant: {figures}");
}

/// A WebSocket client, JSON in and out.
struct Ws {
    sink: futures_util::stream::SplitSink<
        tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
        Message,
    >,
    frames: mpsc::UnboundedReceiver<Value>,
    seen: Vec<Value>,
}

impl Ws {
    async fn connect(http: &str) -> Ws {
        let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{http}/ws"))
            .await
            .unwrap();
        let (sink, mut stream) = socket.split();
        let (tx, frames) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(Ok(Message::Text(t))) = stream.next().await {
                if tx
                    .send(serde_json::from_str(t.as_str()).unwrap_or(Value::Null))
                    .is_err()
                {
                    break;
                }
            }
        });
        let mut ws = Ws {
            sink,
            frames,
            seen: Vec::new(),
        };
        ws.ask(json!({"type": "hello", "protocol": 1}), "welcome").await;
        ws
    }

    async fn send(&mut self, v: Value) {
        println!("[ws] > {v}");
        self.sink.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    async fn expect(&mut self, kind: &str) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(i) = self.seen.iter().position(|f| f["type"] == kind) {
                return self.seen.remove(i);
            }
            match tokio::time::timeout_at(deadline, self.frames.recv()).await {
                Ok(Some(f)) => self.seen.push(f),
                _ => panic!("no {kind} frame; read {:#?}", self.seen),
            }
        }
    }

    async fn ask(&mut self, v: Value, kind: &str) -> Value {
        self.send(v).await;
        let f = self.expect(kind).await;
        println!("[ws]   {}", f.to_string().chars().take(200).collect::<String>());
        f
    }
}

#[tokio::test]
async fn a_text_player_against_a_websocket_player() {
    let server = Server::start("ws");
    let mut squall = Mush::connect(&server.mush, "Squall").await;
    squall.says("create Squall lionheart", "Welcome, Squall").await;
    squall.says("+TT/Starter", "starter set").await;
    let stash = [squall.says("+TT/Stash", "Your stash").await, squall.drain(300).await].concat();
    squall.says("+TT/Deck Create=Start", "created").await;
    squall
        .says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards")
        .await;

    let (mut rinoa, my_id) = ws_player(&server, "Rinoa").await;
    let bad = rinoa
        .ask(json!({"type": "tt_buy", "card": "Omega Weapon"}), "error")
        .await;
    assert_eq!(bad["code"], "not_enough_points");
    // The MUSH's series A has no character card.
    let gone = rinoa.ask(json!({"type": "tt_buy", "card": "Squall"}), "error").await;
    assert_eq!(gone["code"], "no_such_card");

    squall.says("+TT/Game Rinoa=Start/Open One", "You invite Rinoa").await;
    let open = rinoa.expect("challenge_open").await;
    let challenge = open["challenge"]["id"].as_i64().unwrap();
    assert!(open["challenge"]["options"]["hands"].is_null());
    rinoa
        .ask(
            json!({"type": "accept", "challenge": challenge, "deck": "Main"}),
            "accepted",
        )
        .await;
    let started = rinoa.expect("match_started").await;
    let match_id = started["match"]["id"].as_i64().unwrap();
    let seat = started["seat"].as_u64().unwrap();
    assert!(
        started["match"]["options"]["hands"].is_null(),
        "the hands never reach a client"
    );
    squall.expect("The game starts").await;
    let mut state = rinoa.expect("match_state").await;
    let mut moves = 0;
    loop {
        // The WebSocket player moves when it is to move: its first card on the first empty cell.
        if state["to_move"].as_u64() == Some(seat) {
            let board = state["view"]["observation"]["board"].as_array().unwrap();
            let empty: Vec<usize> = (0..9).filter(|&c| board[c].is_null()).collect();
            let cell = empty[moves * 3 % empty.len()];
            let ply = rinoa_ply(&state);
            rinoa
                .send(json!({"type": "move", "match": match_id, "move": format!("0@{cell}"), "ply": ply}))
                .await;
            moves += 1;
        }
        let lines = squall.drain(250).await;
        if lines.iter().any(|l| l.contains("Your turn")) && !lines.iter().any(|l| l.contains("The game is over")) {
            squall.send(&format!("+TT/Play 1={}", empty_cell(&lines, moves))).await;
            moves += 1;
        }
        let mut next = None;
        while let Ok(Some(f)) = tokio::time::timeout(Duration::from_millis(250), rinoa.frames.recv()).await {
            if f["type"] == "moved"
                || f["type"] == "match_over"
                || f["type"] == "tt_choose"
                || f["type"] == "tt_settled"
            {
                next = Some(f.clone());
            }
            rinoa.seen.push(f);
        }
        if rinoa.seen.iter().any(|f| f["type"] == "match_over") {
            break;
        }
        if let Some(f) = next {
            state = f;
        }
        assert!(moves < 200, "the game does not end");
    }
    let choose = rinoa.expect("tt_choose").await;
    if choose["chooser"].as_i64() == Some(my_id) {
        let list = rinoa
            .ask(json!({"type": "tt_win_list", "match": match_id}), "tt_win_list")
            .await;
        assert_eq!(list["win_list"]["count"], 1);
        rinoa
            .ask(
                json!({"type": "tt_choose", "match": match_id, "picks": ["1"]}),
                "tt_chosen",
            )
            .await;
        squall.expect("goes from Squall to Rinoa").await;
    } else {
        squall.says("+TT/Choose 1", "goes from Rinoa to Squall").await;
    }
    let settled = rinoa.expect("tt_settled").await;
    assert_eq!(settled["moved"].as_array().unwrap().len(), 1);
    let figures = server.audit();
    assert_eq!(
        (figures["cards"].as_i64(), figures["transfers"].as_i64()),
        (Some(40), Some(1))
    );
    println!("invariant: {figures}");
}

/// The ply a `match_state` or `moved` frame leaves the match at.
fn rinoa_ply(state: &Value) -> u64 {
    state["ply"].as_u64().unwrap_or(0)
}

/// Plays a game between two text players to its end; whether the first won.
async fn play_out(a: &mut Mush, b: &mut Mush) -> bool {
    play_to_end(a, b)
        .await
        .expect("a draw replays its round under the text game's rules")
}

/// Plays a game between two text players to its end: whether the first won, `None` for a draw.
async fn play_to_end(a: &mut Mush, b: &mut Mush) -> Option<bool> {
    let mut moves = 0;
    loop {
        for (i, who) in [&mut *a, &mut *b].into_iter().enumerate() {
            if let Some(l) = take_turn(who, 250, &mut moves).await {
                if l.contains("a draw") {
                    return None;
                }
                return Some(l.contains("you win") == (i == 0));
            }
        }
        assert!(moves < 200, "the game does not end");
    }
}

/// One look at a text player's screen (`ms` of reading): the line that ends the game, or else
/// the first empty cell played if it is their turn (`moves` counts the moves played).
async fn take_turn(who: &mut Mush, ms: u64, moves: &mut usize) -> Option<String> {
    let lines = who.drain(ms).await;
    if let Some(l) = lines.iter().find(|l| l.contains("The game is over")) {
        return Some(l.clone());
    }
    if lines.iter().any(|l| l.contains("Your turn")) {
        who.send(&format!("+TT/Play 1={}", empty_cell(&lines, *moves))).await;
        *moves += 1;
    }
    None
}

/// SIGKILL after a purchase and after the result (the winner choosing), restarts on the same
/// database: the purchase is there once, the choice is still open and settles exactly once.
#[tokio::test]
async fn killed_at_the_end_of_a_match_and_after_a_purchase() {
    let dir = std::env::temp_dir().join(format!("arbiter-mush-{}-kill", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::on(&dir);
    let mut a = Mush::connect(&server.mush, "Seifer").await;
    let mut b = Mush::connect(&server.mush, "Fujin").await;
    a.says("create Seifer hyperion1", "Welcome").await;
    b.says("create Fujin windwind", "Welcome").await;
    for (m, deck) in [(&mut a, "Start"), (&mut b, "Main")] {
        m.says("+TT/Starter", "starter set").await;
        let stash = [m.says("+TT/Stash", "Your stash").await, m.drain(300).await].concat();
        m.says(&format!("+TT/Deck Create={deck}"), "created").await;
        m.says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards").await;
    }
    a.says("+TT/Game Fujin=Start/Same Plus One", "You invite").await;
    b.expect("invites you").await;
    b.says("+TT/Accept Main", "The game starts").await;
    let a_won = play_out(&mut a, &mut b).await;
    // The result is written and the winner is choosing: killed.
    server.kill();
    let server = Server::on(&dir);
    let mut a = Mush::connect(&server.mush, "Seifer").await;
    let mut b = Mush::connect(&server.mush, "Fujin").await;
    a.says("connect Seifer hyperion1", "Welcome").await;
    b.says("connect Fujin windwind", "Welcome").await;
    let (winner, loser) = if a_won { (&mut a, &mut b) } else { (&mut b, &mut a) };
    loser.says("+TT/Cancel", "cannot leave before the winner chooses").await;
    winner.says("+TT/WinList", "The winner takes 1 card").await;
    winner.drain(300).await;
    winner.says("+TT/Choose 2", "goes from").await;
    winner.says("+TT/Choose 2", "no cards to choose").await;
    // A purchase acknowledged, then killed: it is there, once.
    winner.says("+TT/Buy Random=A/1", "for 10 points").await;
    server.kill();
    let server = Server::on(&dir);
    let figures = server.audit();
    assert_eq!(
        (figures["cards"].as_i64(), figures["purchases"].as_i64()),
        (Some(41), Some(1))
    );
    assert_eq!(
        (figures["transfers"].as_i64(), figures["settled"].as_i64()),
        (Some(1), Some(1))
    );
    println!("invariant after two kills: {figures}");
}

/// Connects a text player, registers it, takes its starter set and makes a deck of five.
async fn player(server: &Server, name: &str, deck: &str) -> Mush {
    let mut m = Mush::connect(&server.mush, name).await;
    m.says(&format!("create {name} pass-{name}"), "Welcome").await;
    m.says("+TT/Starter", "starter set").await;
    let stash = [m.says("+TT/Stash", "Your stash").await, m.drain(300).await].concat();
    m.says(&format!("+TT/Deck Create={deck}"), "created").await;
    m.says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards").await;
    m
}

/// The text player whose turn it is plays a card on an empty cell of the grid; the other is
/// told it is not their turn.
async fn one_card(a: &mut Mush, b: &mut Mush, k: usize) {
    for who in [a, b] {
        who.drain(200).await;
        who.send("+TT/Grid").await;
        let grid = who.drain(400).await;
        who.send(&format!("+TT/Play 1={}", empty_cell(&grid, k))).await;
        let reply = who.drain(400).await;
        if !reply.iter().any(|l| l.contains("Sorry")) {
            return;
        }
    }
    panic!("neither player could play");
}

/// +TT/Option midgame: broadcast to the room, private (spectators told and removed, none may
/// join, also after a restart: it is stored), open again (the room is told); the WebSocket's
/// lobby and spectators see the same.
#[tokio::test]
async fn spectating_options_change_midgame_and_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("arbiter-mush-{}-option", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::on(&dir);
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    let mut zell = Mush::connect(&server.mush, "Zell").await;
    zell.says("create Zell t-board-1", "Welcome").await;
    let mut quistis = Mush::connect(&server.mush, "Quistis").await;
    quistis.says("create Quistis whip-whip", "Welcome").await;
    let mut rinoa = Ws::connect(&server.http).await;
    rinoa
        .ask(
            json!({"type": "register", "name": "Rinoa", "password": "angel-wing"}),
            "authenticated",
        )
        .await;
    rinoa.ask(json!({"type": "lobby"}), "lobby").await;

    squall.says("+TT/Option Private", "you are playing no game").await;
    squall
        .says("+TT/Option Secret", "valid options are Private, Broadcast or None")
        .await;
    squall.says("+TT/Game Cloud=Start/Open One", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    // The room is told of a game to watch.
    quistis
        .expect("Squall (blue) and Cloud (red) play Triple Triad: Open, winner rule One, Time=60; sudden death: original hands, level limit 20. +TT/Spectate Join=Squall to watch.")
        .await;
    let listed = rinoa.expect("match_listed").await;
    let id = listed["match"]["id"].as_i64().unwrap();
    assert_eq!(listed["match"]["spectators"], "open");
    zell.says("+TT/Spectate Join=Squall", "You watch Squall's game").await;
    zell.says("+TT/Spectate Leave", "You stop watching").await;
    zell.says("+TT/Spectate Join=Squall", "You watch Squall's game").await;
    let state = rinoa.ask(json!({"type": "spectate", "match": id}), "match_state").await;
    assert!(state["seat"].is_null());
    zell.says("+TT/Option Private", "you are playing no game").await;
    rinoa
        .ask(
            json!({"type": "spectators", "match": id, "spectators": "private"}),
            "error",
        )
        .await;

    // Broadcast: every card goes to the whole room; the players and spectators see it anyway.
    squall.says("+TT/Option Broadcast", "You make the game broadcast").await;
    cloud.expect("Squall makes the game broadcast").await;
    zell.expect("Squall makes the game broadcast").await;
    rinoa.expect("match_spectators").await;
    one_card(&mut squall, &mut cloud, 0).await;
    quistis.expect("[Broadcast] Squall (blue) against Cloud (red): ").await;
    quistis.drain(300).await;
    let shown = rinoa.expect("match_broadcast").await;
    assert_eq!((shown["match"].as_i64(), shown["ply"].as_u64()), (Some(id), Some(1)));
    assert!(shown["view"]["observation"].is_null(), "the spectators' view only");
    assert!(!zell.drain(300).await.iter().any(|l| l.contains("[Broadcast]")));

    // Private: spectators are told why and removed; nobody may join.
    cloud.says("+TT/Option Private", "You make the game private").await;
    squall.expect("Cloud makes the game private").await;
    zell.expect("Cloud made the match private: spectators are removed: you stop watching.")
        .await;
    let out = rinoa.expect("unspectated").await;
    assert_eq!(
        (out["match"].as_i64(), out["reason"].as_str()),
        (Some(id), Some("private"))
    );
    rinoa.expect("match_unlisted").await;
    rinoa.ask(json!({"type": "spectate", "match": id}), "error").await;
    zell.says("+TT/Spectate Join=Squall", "Squall's game is private: no spectators")
        .await;
    one_card(&mut squall, &mut cloud, 1).await;
    assert!(!quistis.drain(500).await.iter().any(|l| l.contains("[Broadcast]")));
    let lobby = rinoa.ask(json!({"type": "lobby"}), "lobby").await;
    assert_eq!(lobby["matches"], json!([]), "a private match is not listed");

    // Stored: after SIGKILL and a restart the game is still private.
    drop(rinoa);
    server.kill();
    let server = Server::on(&dir);
    let mut squall = Mush::connect(&server.mush, "Squall").await;
    squall.says("connect Squall pass-Squall", "You are in a game").await;
    let mut cloud = Mush::connect(&server.mush, "Cloud").await;
    cloud.says("connect Cloud pass-Cloud", "You are in a game").await;
    let mut zell = Mush::connect(&server.mush, "Zell").await;
    zell.says("connect Zell t-board-1", "Welcome").await;
    let mut quistis = Mush::connect(&server.mush, "Quistis").await;
    quistis.says("connect Quistis whip-whip", "Welcome").await;
    zell.says("+TT/Spectate Join=Cloud", "Cloud's game is private: no spectators")
        .await;

    // Open again: the room is told, spectators may join.
    squall
        .says("+TT/Option None", "You make the game open to spectators")
        .await;
    quistis.expect("+TT/Spectate Join=Squall to watch.").await;
    zell.says("+TT/Spectate Join=Cloud", "You watch Cloud's game").await;
    squall.says("+TT/Cancel", "Did Not Finish").await;
    zell.expect("The game is over").await;
    server.audit();
}

/// The French server's rule groups and winner rules typed on the text side: each refused with
/// its reason where it cannot be played (experience, gils, a computer opponent, mixed customs,
/// the clock, rule conflicts), then played: against the computer in training (nothing earned),
/// and between two players with no cards at stake (gils and experience earned) and then a bet.
#[tokio::test]
async fn the_french_servers_rules_from_the_text_side() {
    let server = Server::start("french");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    for (rules, why) in [
        ("Battle One", "blue has 0 experience: the winner rule one needs 1000"),
        ("Bataille Totale", "the winner rule all needs 5000"),
        ("Battle Two", "the winner rule two needs 2000"),
        ("Plus Change", "the winner rule diff needs 1000"),
        ("Same Aléatoire", "the winner rule random needs 1000"),
        (
            "Battle Diff",
            "Diff is a rule of the English text game and Battle one of the French server",
        ),
        ("Limitless Borderless", "a game follows one server's rules"),
        ("Same Wall Borderless None", "a borderless board has no edges"),
        ("PlusWall None", "plus_wall requires plus"),
        ("Same Time=5", "time is 5 s per move: the clock allows 15 to 300"),
        ("Same Temps=301", "time is 301 s per move"),
        ("Battle Training Bet=10", "blue has 0 gils and cannot bet 10"),
        ("Battle Time=x", "\"Time=x\" needs a whole number"),
    ] {
        squall.says(&format!("+TT/Game Cloud=Start/{rules}"), why).await;
    }
    squall
        .says(
            "+TT/Game Computer:Hard=Start/Same One",
            "nothing is staked against a computer player",
        )
        .await;
    squall
        .says(
            "+TT/Game Computer:Hard=Start/Same Training Bet=5",
            "nothing is staked against a computer player",
        )
        .await;
    squall
        .says("+TT/Game Computer:Nope=Start/None", "unknown level \"nope\"")
        .await;

    // Training against the computer: a whole game, nothing earned, no card moves.
    squall
        .says(
            "+TT/Game Computer:Greedy=Start/Bataille Mur-cassé Entraînement Temps=20",
            "You invite the computer (greedy) to a game with your deck Start: Battle Borderless Training Time=20 Bet=0.",
        )
        .await;
    squall.expect("The game starts").await;
    let mut k = 0;
    loop {
        let lines = squall.drain(300).await;
        if lines.iter().any(|l| l.contains("The game is over")) {
            break;
        }
        if lines.iter().any(|l| l.contains("Your turn")) {
            squall.send(&format!("+TT/Play 1={}", empty_cell(&lines, k))).await;
            k += 1;
        }
        assert!(k < 100, "the game does not end");
    }
    squall.says("+TT/Stats", "0 points, 0 experience, 0 gils").await;

    // None between two players: gils and experience, no cards.
    squall
        .says("+TT/Game Cloud=Start/Battle Plus None Time=60", "You invite Cloud")
        .await;
    cloud
        .expect("Squall invites you to a game of Triple Triad: Plus Battle, winner rule None, Time=60; sudden death: off, no level limit.")
        .await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    squall.expect("The game starts").await;
    // A draw ends the match under the French server's rules: it earns both the same.
    let first = play_to_end(&mut squall, &mut cloud).await;
    squall.drain(500).await;
    cloud.drain(500).await;
    // What each earns (points, experience, gils) for an outcome: won, lost, drawn.
    let earned = |won: Option<bool>| match won {
        Some(true) => (10, 100, 50),
        Some(false) => (5, 20, 10),
        None => (5, 40, 20),
    };
    for (m, won) in [(&mut squall, first), (&mut cloud, first.map(|w| !w))] {
        let (p, x, g) = earned(won);
        m.says("+TT/Stats", &format!("{p} points, {x} experience, {g} gils"))
            .await;
    }

    // A bet of 10 gils each: the winner takes both, a draw returns them.
    squall
        .says("+TT/Game Cloud=Start/Battle None Mise=10", "Battle None Bet=10")
        .await;
    cloud.expect("invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    let second = play_to_end(&mut squall, &mut cloud).await;
    squall.drain(500).await;
    cloud.drain(500).await;
    let bet = |won: Option<bool>| match won {
        Some(true) => 10,
        Some(false) => -10,
        None => 0,
    };
    for (m, a, b) in [
        (&mut squall, first, second),
        (&mut cloud, first.map(|w| !w), second.map(|w| !w)),
    ] {
        let gils = earned(a).2 + earned(b).2 + bet(b);
        m.says("+TT/Stats", &format!("experience, {gils} gils")).await;
    }
    let figures = server.audit();
    assert_eq!(figures["transfers"], 0);
}

/// Every rule in rule words on the text side, whichever interface made the challenge (never its
/// JSON): the invitation, the game's start, the spectator's first look; random hands from the
/// text side, refused with a deck or to a player without five cards.
#[tokio::test]
async fn rules_in_words_and_random_hands_from_the_text_side() {
    let server = Server::start("words");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut zell = player(&server, "Zell", "Main").await;
    let mut rinoa = Ws::connect(&server.http).await;
    rinoa
        .ask(
            json!({"type": "register", "name": "Rinoa", "password": "angel-wing"}),
            "authenticated",
        )
        .await;
    rinoa.ask(json!({"type": "tt_starter"}), "tt_starter").await;
    let words = "Open RandomHands Same, no stakes, Time=30; sudden death: shuffle, no level limit, round limit 3, walls: 0 top >5";
    let created = rinoa
        .ask(
            json!({"type": "challenge", "game": "triple-triad", "time": 30,
                   "options": {"rules": {"open": true, "random": true, "same": true}, "sudden_death": "shuffle",
                               "round_limit": 3, "walls": [{"cell": 0, "side": "top", "label": ">5"}]},
                   "seats": [{"kind": "me"}, {"kind": "player", "name": "Squall"}]}),
            "challenge_created",
        )
        .await;
    // The page reads the same rules as data.
    let rules = &created["challenge"]["rules"];
    assert_eq!(rules["rules"], json!(["open", "random", "same"]), "{created}");
    assert_eq!(
        (rules["time"].as_u64(), rules["stake"].is_null()),
        (Some(30), true),
        "{created}"
    );
    let invitation = squall.expect("Rinoa invites you").await;
    let line = invitation.last().unwrap();
    assert!(line.contains(&format!("Triple Triad: {words}.")), "{line}");
    assert!(!invitation.iter().any(|l| l.contains('{')), "{invitation:#?}");
    squall.says("+TT/Accept Main", "plays no hand of yours").await;
    squall.says("+TT/Accept", "You accept the game.").await;
    squall.expect(&format!("Rules: {words}.")).await;
    zell.says(
        "+TT/Spectate Join=Squall",
        &format!("You watch Squall's game. Rules: {words}."),
    )
    .await;
    zell.says("+TT/Spectate Leave", "You stop watching").await;

    // Random hands from the text side: no deck named, and none for a collection too small.
    zell.says("+TT/Game Squall=Main/RandomHands None", "name no deck").await;
    zell.says(
        "+TT/Game Squall=/RandomHands None",
        "You invite Squall to a game with hands drawn from each collection: RandomHands None Bet=0.",
    )
    .await;
    squall
        .expect("Zell invites you to a game of Triple Triad: RandomHands, winner rule None, Time=60; sudden death: off, no level limit.")
        .await;
    let mut poor = Mush::connect(&server.mush, "Poor").await;
    poor.says("create Poor pass-poor", "Welcome").await;
    poor.says("+TT/Game Zell=/RandomHands None", "five cards free to play")
        .await;
}

/// Whether a card of power `power` fires the label (`>5`, `<15`, `=8`), as the rules say.
fn fires(label: &str, power: u64) -> bool {
    let n: u64 = label[1..].parse().unwrap();
    match &label[..1] {
        ">" => power > n,
        "<" => power < n,
        "=" => power == n,
        other => panic!("a label starting with {other:?}"),
    }
}

/// Where a card put on `cell` ends when the wall on its `side` fires: one cell from the wall.
fn pushed(cell: u64, side: &str) -> u64 {
    match side {
        "left" => cell + 1,
        "right" => cell - 1,
        "top" => cell + 3,
        "bottom" => cell - 3,
        other => panic!("a side {other:?}"),
    }
}

/// A card of `powers` and an empty walled cell whose label it fires: (card, cell, side).
fn firing(
    walls: &[(u64, String, String)],
    powers: &[u64],
    empty: impl Fn(u64) -> bool,
) -> Option<(usize, u64, String)> {
    walls
        .iter()
        .filter(|(cell, ..)| empty(*cell))
        .find_map(|(cell, side, label)| {
            powers
                .iter()
                .position(|&p| fires(label, p))
                .map(|card| (card, *cell, side.clone()))
        })
}

/// The first frame of one of `kinds`, in order of arrival.
async fn next_of(ws: &mut Ws, kinds: &[&str]) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        if let Some(i) = ws.seen.iter().position(|f| kinds.iter().any(|k| f["type"] == *k)) {
            return ws.seen.remove(i);
        }
        match tokio::time::timeout_at(deadline, ws.frames.recv()).await {
            Ok(Some(f)) => ws.seen.push(f),
            _ => panic!("no frame of {kinds:?}; read {:#?}", ws.seen),
        }
    }
}

/// « Mur puissant » in live games against the computer, from the page's protocol and from the
/// text game: the labels are drawn (two to four on the border), every card shows its FF8 power,
/// and a card whose power fires the label of the cell it is put on slides one cell away from the
/// wall. The labels come from each match's seed: games are played until a wall has fired.
#[tokio::test]
async fn a_power_wall_fires_in_a_live_game_on_both_interfaces() {
    use arbiter_core::tripletriad::ff8_card;
    let server = Server::start("walls");

    let mut rinoa = Ws::connect(&server.http).await;
    rinoa
        .ask(
            json!({"type": "register", "name": "Rinoa", "password": "angel-wing"}),
            "authenticated",
        )
        .await;
    let mut fired = false;
    for _ in 0..12 {
        rinoa
            .send(json!({"type": "challenge", "game": "triple-triad", "time": 60,
                         "options": {"preset": "ttonline", "rules": {"battle": true, "power_walls": true}},
                         "seats": [{"kind": "me"}, {"kind": "computer", "level": "greedy"}]}))
            .await;
        let started = rinoa.expect("match_started").await;
        let (id, seat) = (
            started["match"]["id"].as_i64().unwrap(),
            started["seat"].as_u64().unwrap(),
        );
        let mut state = rinoa.expect("match_state").await;
        while state["type"] != "match_over" {
            if state["to_move"].as_u64() != Some(seat) {
                state = next_of(&mut rinoa, &["moved", "match_over"]).await;
                continue;
            }
            let obs = &state["view"]["observation"];
            let walls: Vec<(u64, String, String)> = obs["walls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| {
                    (
                        w["cell"].as_u64().unwrap(),
                        w["side"].as_str().unwrap().into(),
                        w["label"].as_str().unwrap().into(),
                    )
                })
                .collect();
            assert!((2..=4).contains(&walls.len()), "{walls:?}");
            let hand = obs["hand"].as_array().unwrap();
            for c in hand {
                let card = ff8_card(c["name"].as_str().unwrap()).unwrap();
                assert_eq!(c["power"].as_u64(), Some(u64::from(card.power)), "{c}");
            }
            let powers: Vec<u64> = hand.iter().map(|c| c["power"].as_u64().unwrap()).collect();
            let board = obs["board"].as_array().unwrap();
            let play = firing(&walls, &powers, |c| board[c as usize].is_null());
            let (card, cell) = match &play {
                Some((card, cell, _)) => (*card, *cell),
                None => (0, (0..9).find(|&c| board[c as usize].is_null()).unwrap()),
            };
            let notation = format!("{card}@{cell}");
            rinoa
                .send(json!({"type": "move", "match": id, "move": notation, "ply": state["ply"]}))
                .await;
            let mine = loop {
                let f = next_of(&mut rinoa, &["moved"]).await;
                if f["seat"].as_u64() == Some(seat) && f["move"] == notation.as_str() {
                    break f;
                }
            };
            if let Some((_, cell, side)) = play {
                let to = pushed(cell, &side) as usize;
                assert_eq!(
                    mine["view"]["observation"]["board"][to]["card"]["name"], hand[card]["name"],
                    "{mine}"
                );
                fired = true;
            }
            state = mine;
            if state["to_move"].is_null() {
                state = rinoa.expect("match_over").await;
            }
        }
        if fired {
            break;
        }
    }
    assert!(fired, "no wall fired in twelve games");

    let mut squall = Mush::connect(&server.mush, "Squall").await;
    squall.says("create Squall lionheart", "Welcome, Squall").await;
    squall.says("+TT/Starter", "starter set").await;
    let stash = [squall.says("+TT/Stash", "Your stash").await, squall.drain(300).await].concat();
    squall.says("+TT/Deck Create=Start", "created").await;
    squall
        .says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards")
        .await;
    let mut fired = false;
    for _ in 0..12 {
        squall
            .says(
                "+TT/Game Computer:Greedy=Start/Mur-puissant Entraînement Temps=60",
                "You invite the computer (greedy) to a game with your deck Start: PowerWalls Training Time=60 Bet=0.",
            )
            .await;
        squall.expect("The game starts").await;
        let mut colour = "";
        loop {
            let lines = squall.drain(300).await;
            if lines.iter().any(|l| l.contains("The game is over")) {
                break;
            }
            if lines.iter().any(|l| l.starts_with("Your hand (red)")) {
                colour = "red";
            } else if lines.iter().any(|l| l.starts_with("Your hand (blue)")) {
                colour = "blue";
            }
            if !lines.iter().any(|l| l.contains("Your turn")) {
                continue;
            }
            let start = lines.iter().rposition(|l| l.starts_with("Round ")).unwrap();
            let grid = &lines[start..];
            let walls: Vec<(u64, String, String)> = grid
                .iter()
                .find_map(|l| l.strip_prefix("Power walls: "))
                .expect("the labels are shown")
                .split(", ")
                .map(|w| {
                    let words: Vec<&str> = w.split(' ').collect();
                    // `>5 on the left of 4`: the cell counted from 1.
                    (
                        words[5].parse::<u64>().unwrap() - 1,
                        words[3].to_string(),
                        words[0].to_string(),
                    )
                })
                .collect();
            // `Your hand (blue): 1) Ifrit [9 8 6 2] P13  2) ...`
            let hand: Vec<(String, u64)> = grid
                .iter()
                .find_map(|l| l.strip_prefix(&format!("Your hand ({colour}): ")))
                .unwrap()
                .split("  ")
                .map(|c| {
                    let (name, power) = c.split_once(") ").unwrap().1.split_once(" [").unwrap();
                    (name.to_string(), power.rsplit_once("] P").unwrap().1.parse().unwrap())
                })
                .collect();
            let powers: Vec<u64> = hand.iter().map(|(_, p)| *p).collect();
            let empty: Vec<u64> = grid
                .iter()
                .flat_map(|l| l.split('|'))
                .filter_map(|c| {
                    c.trim()
                        .strip_prefix('(')
                        .and_then(|c| c.strip_suffix(')'))
                        .and_then(|n| n.parse::<u64>().ok())
                })
                .map(|n| n - 1)
                .collect();
            let play = firing(&walls, &powers, |c| empty.contains(&c));
            let (card, cell) = match &play {
                Some((card, cell, _)) => (*card, *cell),
                None => (0, empty[0]),
            };
            squall.send(&format!("+TT/Play {}={}", card + 1, cell + 1)).await;
            if let Some((_, cell, side)) = play {
                // The grid after the move: the card's power now shows on the cell it slid to.
                let after = squall.expect(&format!("{colour} plays")).await;
                let after = [after, squall.expect("Power walls: ").await].concat();
                let start = after.iter().rposition(|l| l.starts_with("Round ")).unwrap();
                let to = pushed(cell, &side) as usize;
                let names = &after[start + 2 + to / 3 * 3];
                let shown = names.split('|').nth(to % 3).unwrap().trim();
                let (name, power) = &hand[card];
                let power = format!(" P{power}");
                let kept: String = name.chars().take(11 - power.len()).collect();
                assert_eq!(shown, format!("{kept}{power}"), "{after:#?}");
                fired = true;
            }
        }
        if fired {
            break;
        }
    }
    assert!(fired, "no wall fired in twelve text games");
}

/// Plays a text game against the computer to its end: the first empty cell each turn.
async fn play_against_the_computer(m: &mut Mush) -> String {
    let mut k = 0;
    loop {
        if let Some(over) = take_turn(m, 300, &mut k).await {
            return over;
        }
        assert!(k < 100, "the game does not end");
    }
}

/// The computer players by name (« défiez Mog-Facile »): listed in the lobby and in `WHO`,
/// challenged by name as a player or as a computer seat's level from both interfaces, each
/// keeping its record of games, and no person may register or log in under their names.
#[tokio::test]
async fn the_computer_players_by_name() {
    let server = Server::start("robots");

    let mut rinoa = Ws::connect(&server.http).await;
    let refused = rinoa
        .ask(
            json!({"type": "register", "name": "mog-facile", "password": "angel-wing"}),
            "error",
        )
        .await;
    assert_eq!(refused["code"], "name_taken");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("Mog-Facile is a computer player's name"),
        "{refused}"
    );
    let login = rinoa
        .ask(
            json!({"type": "login", "name": "Mog-Facile", "password": "angel-wing"}),
            "error",
        )
        .await;
    assert_eq!(login["code"], "login_failed");
    rinoa
        .ask(
            json!({"type": "register", "name": "Rinoa", "password": "angel-wing"}),
            "authenticated",
        )
        .await;
    let lobby = rinoa.ask(json!({"type": "lobby"}), "lobby").await;
    let robots: Vec<(&str, &str)> = lobby["robots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    assert_eq!(
        robots,
        [
            ("Mog-Facile", "random"),
            ("Mog-Moyen", "greedy"),
            ("Mog-Difficile", "perfect"),
            ("Mog-Expert", "expert")
        ]
    );
    for (seats, why) in [
        (
            json!([{"kind": "me"}, {"kind": "computer", "level": "nope"}]),
            "unknown level \"nope\" (expected random, greedy, perfect, expert, or a computer player: Mog-Facile, Mog-Moyen, Mog-Difficile, Mog-Expert)",
        ),
    ] {
        let e = rinoa
            .ask(json!({"type": "challenge", "game": "triple-triad", "seats": seats}), "error")
            .await;
        assert_eq!(e["message"], why);
    }
    let e = rinoa
        .ask(
            json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}, {"kind": "player", "name": "Mog-Expert"}]}),
            "error",
        )
        .await;
    assert_eq!(e["message"], "Mog-Expert plays Triple Triad only");

    // Named as a player, any case, and as a computer seat's level by its word alone.
    let mut results = Vec::new();
    for seat in [
        json!({"kind": "player", "name": "mog-FACILE"}),
        json!({"kind": "computer", "level": "Facile"}),
    ] {
        rinoa
            .send(json!({"type": "challenge", "game": "triple-triad", "time": 60,
                         "options": {"preset": "ttonline"}, "seats": [{"kind": "me"}, seat]}))
            .await;
        let started = rinoa.expect("match_started").await;
        assert_eq!(
            started["match"]["seats"][1],
            json!({"kind": "computer", "level": "random", "name": "Mog-Facile"})
        );
        let (id, seat) = (
            started["match"]["id"].as_i64().unwrap(),
            started["seat"].as_u64().unwrap(),
        );
        let mut state = rinoa.expect("match_state").await;
        while state["type"] != "match_over" {
            if state["to_move"].as_u64() == Some(seat) {
                let board = state["view"]["observation"]["board"].as_array().unwrap();
                let cell = (0..9).find(|&c| board[c].is_null()).unwrap();
                let notation = format!("0@{cell}");
                rinoa
                    .send(json!({"type": "move", "match": id, "move": notation, "ply": state["ply"]}))
                    .await;
                state = loop {
                    let f = next_of(&mut rinoa, &["moved"]).await;
                    if f["seat"].as_u64() == Some(seat) && f["move"] == notation.as_str() {
                        break f;
                    }
                };
                if state["to_move"].is_null() {
                    state = rinoa.expect("match_over").await;
                }
            } else {
                state = next_of(&mut rinoa, &["moved", "match_over"]).await;
            }
        }
        let winners: Vec<u64> = state["result"]["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .collect();
        results.push(match winners.as_slice() {
            [] => "drawn",
            [w] if *w == seat => "lost",
            _ => "won",
        });
    }
    let stats = rinoa.ask(json!({"type": "stats", "name": "Mog-Facile"}), "stats").await;
    let record = &stats["games"]["triple-triad"];
    assert_eq!(record["played"], 2, "{stats}");
    for outcome in ["won", "lost", "drawn"] {
        let n = results.iter().filter(|r| **r == outcome).count();
        assert_eq!(record[outcome], n, "{outcome} in {stats}");
    }

    // The text game: listed in WHO, refused to `create`, challenged by name; its record shown.
    let mut squall = Mush::connect(&server.mush, "Squall").await;
    squall
        .says("create Mog-Moyen pass-word", "Mog-Moyen is a computer player's name")
        .await;
    squall.says("create Squall lionheart", "Welcome, Squall").await;
    squall
        .says(
            "WHO",
            "Computer players, to challenge by name (+TT/Game Mog-Facile=<Deck>/<Rules>): Mog-Facile, Mog-Moyen, Mog-Difficile, Mog-Expert.",
        )
        .await;
    squall.says("+TT/Starter", "starter set").await;
    let stash = [squall.says("+TT/Stash", "Your stash").await, squall.drain(300).await].concat();
    squall.says("+TT/Deck Create=Start", "created").await;
    squall
        .says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards")
        .await;
    squall
        .says(
            "+TT/Game Mog-Moyen=Start/Same One",
            "nothing is staked against a computer player",
        )
        .await;
    squall
        .says(
            "+TT/Game Computer:Nope=Start/None",
            "or a computer player: Mog-Facile, Mog-Moyen",
        )
        .await;
    for (opponent, invited) in [
        ("mog-moyen", "You invite Mog-Moyen (the computer, greedy) to a game"),
        (
            "Computer:moyen",
            "You invite Mog-Moyen (the computer, greedy) to a game",
        ),
        (
            "Computer:Mog-Moyen",
            "You invite Mog-Moyen (the computer, greedy) to a game",
        ),
    ] {
        squall
            .says(&format!("+TT/Game {opponent}=Start/Entraînement Temps=60"), invited)
            .await;
        squall.expect("The game starts: ").await;
        play_against_the_computer(&mut squall).await;
    }
    squall.says("+TT/Stats Mog-Moyen", "Mog-Moyen: 3 played").await;
}

#[tokio::test]
async fn a_text_player_accepts_a_browser_challenge_with_a_deck_or_is_told_how() {
    let server = Server::start("picked");
    let mut zell = Mush::connect(&server.mush, "Zell").await;
    zell.says("create Zell pass-Zell", "Welcome").await;
    zell.says("+TT/Starter", "starter set").await;
    let stash = [zell.says("+TT/Stash", "Your stash").await, zell.drain(300).await].concat();
    let mut rinoa = Ws::connect(&server.http).await;
    rinoa
        .ask(
            json!({"type": "register", "name": "Rinoa", "password": "angel-wing"}),
            "authenticated",
        )
        .await;
    let starter = rinoa.ask(json!({"type": "tt_starter"}), "tt_starter").await;
    let five: Vec<Value> = starter["cards"].as_array().unwrap()[..5]
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    // No stake: each plays their own five, Rinoa hers by id.
    rinoa
        .ask(
            json!({"type": "challenge", "game": "triple-triad", "options": {"preset": "mush"}, "cards": five,
                   "seats": [{"kind": "me"}, {"kind": "player", "name": "Zell"}]}),
            "challenge_created",
        )
        .await;
    zell.expect("invites you").await;
    // Without a deck of his own he is told how to name one, and keeps the invitation.
    zell.says("+TT/Accept", "+TT/Accept <Deck>").await;
    zell.says("+TT/Deck Create=Main", "created").await;
    zell.says(&format!("+TT/Deck Add={}", five_ids(&stash)), "5 cards")
        .await;
    zell.says("+TT/Accept Main", "deck Main").await;
    let started = rinoa.expect("match_started").await;
    assert!(started["match"]["options"]["hands"].is_null(), "{started}");
    let state = rinoa.expect("match_state").await;
    let hand: Vec<&str> = state["view"]["observation"]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let picked: Vec<&str> = starter["cards"].as_array().unwrap()[..5]
        .iter()
        .map(|c| c["card"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(hand, picked, "Rinoa plays the five she picked, in her order");
    zell.expect("The game starts").await;
    server.audit();
}

/// A WebSocket player registered with its starter set and a deck `Main` of five cards; its id.
async fn ws_player(server: &Server, name: &str) -> (Ws, i64) {
    let mut ws = Ws::connect(&server.http).await;
    let me = ws
        .ask(
            json!({"type": "register", "name": name, "password": format!("pass-{name}")}),
            "authenticated",
        )
        .await;
    ws.ask(json!({"type": "tt_starter"}), "tt_starter").await;
    let stash = ws.ask(json!({"type": "tt_stash"}), "tt_stash").await;
    let mut ids = Vec::new();
    for e in stash["cards"].as_array().unwrap() {
        for _ in 0..e["count"].as_u64().unwrap() {
            ids.push(e["card"]["id"].as_str().unwrap().to_string());
        }
    }
    ids.truncate(5);
    ws.ask(json!({"type": "tt_deck", "op": "create", "name": "Main"}), "tt_deck")
        .await;
    let deck = ws
        .ask(
            json!({"type": "tt_deck", "op": "add", "name": "Main", "cards": ids}),
            "tt_deck",
        )
        .await;
    assert_eq!(deck["deck"]["cards"].as_array().unwrap().len(), 5);
    (ws, me["user"]["id"].as_i64().unwrap())
}

/// The lines of the last grid among `lines`, from its `Round` line on.
fn last_grid(lines: &[String]) -> &[String] {
    let start = lines.iter().rposition(|l| l.starts_with("Round ")).expect("a grid");
    &lines[start..]
}

/// Line `k` (0 the ranks, 1 the name, 2 the elements) of cell `cell` (0 to 8) in a grid shown
/// with its elements (three lines a row and a separator).
fn cell_line(grid: &[String], cell: usize, k: usize) -> String {
    let line = &grid[1 + cell / 3 * 4 + k];
    line.split('|').nth(cell % 3).unwrap_or_default().trim().to_string()
}

/// An element's name as the text game writes it (`Fire`).
fn element_word(e: &str) -> String {
    e[..1].to_uppercase() + &e[1..]
}

/// Under Elemental the text grid shows each cell's element, each hand card's element and the
/// +1/-1 a placed card gets; under Open a text spectator sees both hands' faces. The truth is
/// the WebSocket player's view of the same match.
#[tokio::test]
async fn elements_and_open_hands_on_the_text_side() {
    let shop = arbiter_economy::Catalog::standard();
    let server = Server::start("elements");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut zell = Mush::connect(&server.mush, "Zell").await;
    zell.says("create Zell t-board-1", "Welcome").await;
    let (mut rinoa, _) = ws_player(&server, "Rinoa").await;
    let mut checked_marks = 0;
    for _ in 0..6 {
        squall
            .says("+TT/Game Rinoa=Start/Elemental Open None", "You invite Rinoa")
            .await;
        let open = rinoa.expect("challenge_open").await;
        let challenge = open["challenge"]["id"].as_i64().unwrap();
        rinoa
            .ask(
                json!({"type": "accept", "challenge": challenge, "deck": "Main"}),
                "accepted",
            )
            .await;
        let started = rinoa.expect("match_started").await;
        let (match_id, seat) = (
            started["match"]["id"].as_i64().unwrap(),
            started["seat"].as_u64().unwrap(),
        );
        let mut state = rinoa.expect("match_state").await;
        let elements: Vec<Option<String>> = state["view"]["observation"]["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().map(element_word))
            .collect();
        squall.expect("The game starts").await;
        if elements.iter().all(Option::is_none) {
            // A board without an elemental cell shows nothing to check: another game.
            squall.says("+TT/Cancel", "You leave the game").await;
            rinoa.expect("match_over").await;
            squall.drain(300).await;
            continue;
        }
        // A spectator sees both hands' faces (Open), as the WebSocket player knows them.
        let watched = [
            zell.says("+TT/Spectate Join=Squall", "You watch").await,
            zell.drain(400).await,
        ]
        .concat();
        let obs = &state["view"]["observation"];
        for card in obs["hand"]
            .as_array()
            .unwrap()
            .iter()
            .chain(obs["opponent_hand"].as_array().unwrap())
        {
            let name = card["name"].as_str().expect("Open shows the faces");
            assert!(
                watched.iter().any(|l| l.contains("'s hand: ") && l.contains(name)),
                "{name} is not shown to the spectator: {watched:#?}"
            );
        }
        assert!(!watched.iter().any(|l| l.contains(" holds ")), "{watched:#?}");
        let mut moves = 0;
        loop {
            if state["to_move"].as_u64() == Some(seat) {
                // Rinoa plays its first card on an elemental cell while there is one.
                let board = state["view"]["observation"]["board"].as_array().unwrap();
                let empty: Vec<usize> = (0..9).filter(|&c| board[c].is_null()).collect();
                let cell = empty
                    .iter()
                    .copied()
                    .find(|&c| elements[c].is_some())
                    .unwrap_or(empty[0]);
                let ply = rinoa_ply(&state);
                rinoa
                    .send(json!({"type": "move", "match": match_id, "move": format!("0@{cell}"), "ply": ply}))
                    .await;
                moves += 1;
            }
            let lines = squall.drain(300).await;
            // The elements read at the start are round 1's: a drawn round deals the board again.
            if lines.iter().any(|l| l.starts_with("Round 1 ")) && !lines.iter().any(|l| l.starts_with("Round 2")) {
                let grid = last_grid(&lines);
                for (cell, element) in elements.iter().enumerate() {
                    let shown = cell_line(grid, cell, 2);
                    if let Some(e) = element {
                        assert!(shown.ends_with(&format!("[{e}]")), "cell {cell}: {grid:#?}");
                    }
                    let ranks = cell_line(grid, cell, 0);
                    if let (Some(e), true) = (element, ranks.starts_with("B ") || ranks.starts_with("R ")) {
                        let card = shown.split(" [").next().unwrap();
                        let mark = if card == e { "+1" } else { "-1" };
                        assert!(ranks.ends_with(mark), "cell {cell}: {grid:#?}");
                        checked_marks += 1;
                    }
                }
                // `Your hand (blue): 1) Ifrit [9 6 2 8] P13 (Fire)  2) ...`
                let hand_line = grid.iter().find(|l| l.starts_with("Your hand (")).unwrap();
                for c in hand_line.split_once(": ").unwrap().1.split("  ") {
                    let name = c.split_once(") ").unwrap().1.split(" [").next().unwrap();
                    let element = shop.find(name).unwrap().card.element;
                    if element != arbiter_core::tripletriad::Element::None {
                        assert!(
                            c.ends_with(&format!("({})", element_word(element.name()))),
                            "{c} in {hand_line}"
                        );
                    }
                }
            }
            if lines.iter().any(|l| l.contains("The game is over")) {
                break;
            }
            if lines.iter().any(|l| l.contains("Your turn")) {
                let grid = last_grid(&lines);
                let empty: Vec<usize> = (0..9).filter(|&c| cell_line(grid, c, 1).is_empty()).collect();
                let cell = empty
                    .iter()
                    .copied()
                    .find(|&c| elements[c].is_some())
                    .unwrap_or(empty[0]);
                squall.send(&format!("+TT/Play 1={}", cell + 1)).await;
                moves += 1;
            }
            while let Ok(Some(f)) = tokio::time::timeout(Duration::from_millis(100), rinoa.frames.recv()).await {
                if f["type"] == "moved" {
                    state = f.clone();
                }
                rinoa.seen.push(f);
            }
            if rinoa.seen.iter().any(|f| f["type"] == "match_over") {
                rinoa.seen.clear();
                squall.expect("The game is over").await;
                break;
            }
            assert!(moves < 200, "the game does not end");
        }
        break;
    }
    assert!(checked_marks > 0, "no card was placed on an elemental cell");
}

/// Invitations that end are told to the other side: a refusal to the inviter, a withdrawal to
/// the invitee (whose `+TT/Accept` then says so), from the text side and from the WebSocket.
#[tokio::test]
async fn invitations_that_end_are_told() {
    let server = Server::start("invitations");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    squall.says("+TT/Game Cloud=Start/One", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Refuse", "You refuse").await;
    squall.expect("Cloud refuses your invitation").await;
    squall.says("+TT/Game Cloud=Start/One", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    squall.says("+TT/Cancel", "You withdraw your invitation").await;
    cloud.expect("Squall withdraws the invitation").await;
    cloud.says("+TT/Accept Main", "Squall withdrew the invitation").await;
    cloud.says("+TT/Refuse", "Squall withdrew the invitation").await;

    // The WebSocket's refusal and withdrawal reach the text side too.
    let (mut rinoa, _) = ws_player(&server, "Rinoa").await;
    squall.says("+TT/Game Rinoa=Start/One", "You invite Rinoa").await;
    let open = rinoa.expect("challenge_open").await;
    let id = open["challenge"]["id"].as_i64().unwrap();
    rinoa
        .ask(json!({"type": "refuse", "challenge": id}), "challenge_closed")
        .await;
    squall.expect("Rinoa refuses your invitation").await;
    rinoa
        .send(json!({"type": "challenge", "game": "triple-triad", "time": 60,
                     "options": {"preset": "mush"},
                     "seats": [{"kind": "me"}, {"kind": "player", "name": "Cloud"}]}))
        .await;
    let created = rinoa.expect("challenge_created").await;
    cloud.expect("Rinoa invites you").await;
    let id = created["challenge"]["id"].as_i64().unwrap();
    rinoa
        .ask(json!({"type": "withdraw", "challenge": id}), "challenge_closed")
        .await;
    cloud.expect("Rinoa withdraws the invitation").await;
    cloud.says("+TT/Accept Main", "Rinoa withdrew the invitation").await;
    // A new invitation is the one answered.
    squall.says("+TT/Game Cloud=Start/One", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
}

/// `+TT/Play` by a card's name or id as well as by its place in the hand; `+TT/Help <Command>`
/// for each command; a line saying whose turn it is after reconnecting.
#[tokio::test]
async fn play_by_name_or_id_help_and_whose_turn() {
    let server = Server::start("play-by-name");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    let listed = [
        squall.says("+TT/Help", "+TT/Help <Command>").await,
        squall.drain(300).await,
    ]
    .concat();
    let commands = [
        "Starter", "Stash", "Detail", "Stats", "Deck", "Game", "Accept", "Refuse", "Play", "Grid", "Choose", "WinList",
        "Cancel", "Spectate", "Option", "List", "Buy", "Custom", "Silence", "Help",
    ];
    for c in commands {
        assert!(
            listed.iter().any(|l| l.contains(&format!("+TT/{c}"))),
            "{c}: {listed:#?}"
        );
        let lines = [
            squall.says(&format!("+TT/Help {c}"), &format!("+TT/{c}")).await,
            squall.drain(200).await,
        ]
        .concat();
        assert!(
            lines.len() < listed.len(),
            "+TT/Help {c} gives the whole list: {lines:#?}"
        );
    }
    squall.says("+TT/Help say", "say <message>").await;
    squall.says("+TT/Help Dance", "there is no command +TT/Dance").await;

    // The ids of each player's cards, from the stash.
    let mut names = std::collections::HashMap::new();
    for m in [&mut squall, &mut cloud] {
        for l in [m.says("+TT/Stash", "Your stash").await, m.drain(300).await].concat() {
            let mut parts = l.split_whitespace();
            if let Some(id) = parts.next().filter(|id| id.len() == 4 && id.starts_with('A')) {
                let name: Vec<&str> = parts.take_while(|p| !p.starts_with('x')).collect();
                names.insert(name.join(" "), id.to_string());
            }
        }
    }
    squall.says("+TT/Game Cloud=Start/None", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    let mut plays = Vec::new();
    for k in 0..3 {
        for who in [&mut squall, &mut cloud] {
            let lines = who.drain(400).await;
            if !lines.iter().any(|l| l.contains("Your turn")) {
                continue;
            }
            let hand = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("Your hand ("))
                .unwrap()
                .clone();
            let (colour, cards) = hand["Your hand (".len()..].split_once("): ").unwrap();
            let name = cards
                .split("  ")
                .nth(1)
                .unwrap()
                .split_once(") ")
                .unwrap()
                .1
                .split(" [")
                .next()
                .unwrap();
            let cell = empty_cell(&lines, k);
            who.says("+TT/Play Zidane=1", "\"Zidane\" is not in your hand").await;
            let card = if k % 2 == 0 {
                name.to_lowercase()
            } else {
                names[name].clone()
            };
            who.says(
                &format!("+TT/Play {card}={cell}"),
                &format!("{colour} plays {name} at position {cell}"),
            )
            .await;
            plays.push(card);
            break;
        }
    }
    assert_eq!(plays.len(), 3, "{plays:?}");
    // Reconnecting: whose turn it is.
    cloud.says("QUIT", "Goodbye").await;
    let mut cloud = Mush::connect(&server.mush, "Cloud").await;
    let lines = [
        cloud.says("connect Cloud pass-Cloud", "You are in a game").await,
        cloud.drain(300).await,
    ]
    .concat();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Your turn") || l.ends_with(" to play.")),
        "{lines:#?}"
    );
}

/// The Triple Triad match running on `server` as the core plays it: the seed, the options
/// (the hands brought among them) and the clock the server stored, replayed.
async fn stored_match(server: &Server) -> Match {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&server.database).await.unwrap();
    let row = sqlx::query("SELECT seed, options, time_s FROM matches WHERE status = 'running'")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    let mut options: Value = serde_json::from_str(&row.get::<String, _>("options")).unwrap();
    let fields = options.as_object_mut().unwrap();
    let hands = fields.remove("hands").unwrap();
    let stake: arbiter_economy::Stake = serde_json::from_value(fields.remove("stake").unwrap()).unwrap();
    fields.remove("words");
    fields.remove("deck");
    let mut config = serde_json::from_value::<Options>(options).unwrap().config().unwrap();
    config.time = Some(row.get::<i64, _>("time_s") as u32);
    config.trade = stake.trade;
    let hand = |p: &str| serde_json::from_value::<Vec<Card>>(hands[p].clone()).unwrap();
    Match::new(config, hand("blue"), hand("red"), row.get::<i64, _>("seed") as u64).unwrap()
}

/// Moves that draw `m`'s first round and then play the match to its end: the first of `tries`
/// seeded random playouts of the core's match that does.
fn a_drawn_first_round(m: &Match, tries: u64) -> Option<Vec<Move>> {
    'tries: for t in 0..tries {
        let mut rng = Rng::new(t);
        let mut g = m.clone();
        let mut moves = Vec::new();
        while !g.is_over() {
            let legal = g.game().legal_moves();
            let mv = legal[rng.below(legal.len() as u64) as usize];
            g.play(mv).unwrap();
            moves.push(mv);
            if moves.len() == 9 && g.round_number() == 1 {
                continue 'tries;
            }
        }
        return Some(moves);
    }
    None
}

/// The lines of `screen` shown for the grid that opens round `n` (what was typed left out).
fn round_grid(screen: &[String], n: u32) -> Vec<String> {
    let shown: Vec<String> = screen.iter().filter(|l| !l.starts_with("> ")).cloned().collect();
    let start = shown
        .iter()
        .position(|l| l.starts_with(&format!("Round {n}  (")))
        .unwrap_or_else(|| panic!("no grid opens round {n}: {shown:#?}"));
    shown[start..].to_vec()
}

/// A whole text game under `Elemental Same Plus Combo One` between two text players whose first
/// round is drawn: the moves are chosen on the core's replay of the match the server stored (the
/// engine is deterministic from the seed), played by both over their sockets. Each sees every
/// round's elements, the draw and the next round announced; both screens go to
/// `target/transcripts/mush-elemental-same-plus-combo-one.txt`.
#[tokio::test]
async fn a_drawn_round_is_announced() {
    let server = Server::start("drawn-round");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    let (m, moves) = loop {
        squall
            .says("+TT/Game Cloud=Start/Elemental Same Plus Combo One", "You invite Cloud")
            .await;
        cloud.expect("Squall invites you").await;
        cloud.says("+TT/Accept Main", "The game starts").await;
        let m = stored_match(&server).await;
        if let Some(moves) = a_drawn_first_round(&m, 5000) {
            break (m, moves);
        }
        // No draw within reach of this deal (it never happened in trials): another game.
        squall.says("+TT/Cancel", "You leave the game").await;
        cloud.expect("The game is over").await;
        cloud.says("+TT/Choose None", "No card changes hands").await;
    };
    // Blue is whoever is told to play first, when blue moves first.
    let first = [squall.drain(400).await, cloud.drain(400).await].map(|l| l.iter().any(|l| l.contains("Your turn")));
    let first_mover = m.game().to_move().unwrap();
    let blue_is_squall = first[0] == (first_mover == Player::Blue);
    let mut g = m.clone();
    let mut elements = vec![*g.game().elements()];
    for (k, mv) in moves.iter().enumerate() {
        let squalls = (g.game().to_move().unwrap() == Player::Blue) == blue_is_squall;
        let who = if squalls { &mut squall } else { &mut cloud };
        if k > 0 {
            who.expect("Your turn").await;
        }
        let (card, cell) = mv
            .to_string()
            .split_once('@')
            .map(|(c, p)| (c.parse::<u8>().unwrap(), p.parse::<u8>().unwrap()))
            .unwrap();
        who.send(&format!("+TT/Play {}={}", card + 1, cell + 1)).await;
        let round = g.round_number();
        g.play(*mv).unwrap();
        if g.round_number() > round {
            elements.push(*g.game().elements());
        }
    }
    squall.expect("The game is over").await;
    cloud.expect("The game is over").await;
    if let Some(winner) = g.result().unwrap().winner {
        let (w, l) = if (winner == Player::Blue) == blue_is_squall {
            (&mut squall, &mut cloud)
        } else {
            (&mut cloud, &mut squall)
        };
        w.says("+TT/WinList", "The winner takes 1 card").await;
        w.drain(300).await;
        w.says("+TT/Choose 1", "goes from").await;
        l.expect("goes from").await;
    }
    squall.drain(300).await;
    cloud.drain(300).await;

    let last = g.round_number();
    assert!(last >= 2 && elements.len() == last as usize);
    for s in [&squall.screen, &cloud.screen] {
        for n in 1..last {
            let told = s.iter().position(|l| l.starts_with(&format!("Round {n} is a ")));
            let next = s.iter().position(|l| l.starts_with(&format!("Round {}  (", n + 1)));
            let (Some(told), Some(next)) = (told, next) else {
                panic!("round {n}'s draw is not announced: {s:#?}");
            };
            assert!(told < next, "{s:#?}");
            // The move that ended the round is told in words, not in the engine's notation.
            assert!(
                s[..told]
                    .iter()
                    .rev()
                    .find(|l| !l.starts_with("> "))
                    .unwrap()
                    .contains("plays their last card at position"),
                "{s:#?}"
            );
            assert!(
                s[told].contains(&format!("round {} begins", n + 1)) && s[told].contains("draw"),
                "{}",
                s[told]
            );
        }
        // Each round's board shows its elements, dealt again after a draw.
        for (n, round) in elements.iter().enumerate() {
            let grid = round_grid(s, n as u32 + 1);
            for (cell, e) in round.iter().enumerate() {
                if let Some(e) = e {
                    let shown = cell_line(&grid, cell, 2);
                    assert!(
                        shown.ends_with(&format!("[{}]", element_word(e.name()))),
                        "round {}, cell {cell}: {grid:#?}",
                        n + 1
                    );
                }
            }
        }
    }
    // target/debug/deps/mush-…: the transcript goes to target/transcripts.
    let target = std::env::current_exe()
        .unwrap()
        .ancestors()
        .nth(3)
        .unwrap()
        .to_path_buf();
    let dir = target.join("transcripts");
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = format!(
        "A text game under Elemental Same Plus Combo One between two text players, round 1 drawn, {} moves.\n",
        moves.len()
    );
    for (name, s) in [("Squall", &squall.screen), ("Cloud", &cloud.screen)] {
        out += &format!("\n===== {name}'s screen (\"> \" before what {name} typed) =====\n");
        for l in s.iter() {
            out += l;
            out.push('\n');
        }
    }
    let path = dir.join("mush-elemental-same-plus-combo-one.txt");
    std::fs::write(&path, out).unwrap();
    println!("transcript: {}", path.display());
}

/// A deck is a list (« When putting cards in a Deck, they are not removed from your stash »):
/// the same cards in two decks, one played for a card at stake while the other, holding the
/// locked cards, cannot be played elsewhere until the first game ends; the invariant holds.
#[tokio::test]
async fn a_card_in_several_decks() {
    let server = Server::start("several-decks");
    let mut squall = player(&server, "Squall", "Start").await;
    let mut cloud = player(&server, "Cloud", "Main").await;
    let mut zell = player(&server, "Zell", "Mine").await;
    let stash = [squall.says("+TT/Stash", "Your stash").await, squall.drain(300).await].concat();
    squall.says("+TT/Deck Create=Other", "Deck Other created").await;
    squall
        .says(
            &format!("+TT/Deck Add={}", five_ids(&stash)),
            "Other (current): 5 cards",
        )
        .await;
    squall.says("+TT/Deck Check=Other", "is ready").await;
    squall.says("+TT/Deck Check=Start", "is ready").await;
    squall.says("+TT/Detail", "In decks").await;
    squall.drain(300).await;
    squall.says("+TT/Game Cloud=Other/One", "You invite Cloud").await;
    cloud.expect("Squall invites you").await;
    cloud.says("+TT/Accept Main", "The game starts").await;
    squall.expect("The game starts").await;
    // Start's cards are at stake through Other: Start cannot be played meanwhile.
    zell.says("+TT/Game Squall=Mine/One", "You invite Squall").await;
    squall.expect("Zell invites you").await;
    squall.says("+TT/Accept Start", "at stake in another match").await;
    squall.says("+TT/Refuse", "You refuse").await;
    let squall_won = play_out(&mut squall, &mut cloud).await;
    let (winner, loser) = if squall_won {
        (&mut squall, &mut cloud)
    } else {
        (&mut cloud, &mut squall)
    };
    winner.says("+TT/Choose 1", "goes from").await;
    loser.drain(300).await;
    if !squall_won {
        // The card lost leaves both decks, each saying why.
        let decks = [
            squall.says("+TT/Deck List", "was lost to").await,
            squall.drain(300).await,
        ]
        .concat();
        let lost = decks.iter().filter(|l| l.contains("was lost to Cloud")).count();
        assert_eq!(lost, 2, "{decks:#?}");
    }
    let figures = server.audit();
    assert_eq!(figures["transfers"], 1);
}
