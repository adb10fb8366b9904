//! The chat against the real server process: the lobby's room between a WebSocket player and a
//! text player, a match's room with its spectators silenced, the limits (length, rate, control
//! characters), the history told on joining, `!aide`, and a quiz question answered wrong then
//! right with its score table.

mod common;

use arbiter_core::tripletriad::FF8_CARDS;
use common::text::Text;
use common::{start_match, Client, Database, Server};
use serde_json::{json, Value};

/// A WebSocket player subscribed to the lobby, with the lobby's `chat_history` it was told.
async fn in_lobby(server: &Server, prefix: &str) -> (Client, Value) {
    let mut c = Client::player(server, prefix).await;
    let r = c.request(json!({"type": "lobby"})).await;
    assert_eq!(r["type"], "lobby", "{r}");
    let history = c.expect("chat_history").await;
    (c, history)
}

async fn say(c: &mut Client, text: &str) -> Value {
    c.request(json!({"type": "chat", "text": text})).await
}

/// The next `chat` frame from `from`.
async fn line_from(c: &mut Client, from: &str) -> Value {
    c.expect_where(|v| v["type"] == "chat" && v["from"]["name"] == from)
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_speaks_across_both_interfaces_and_remembers() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &["--chat-history", "3"]);
    let (mut web, history) = in_lobby(&server, "web").await;
    assert_eq!(history["lines"], json!([]), "{history}");
    let name = common::name("txt");
    let mut text = Text::create(&server, &name).await;

    // A line with a terminal escape, a bell, a line break and a bidi override: stripped.
    let r = say(&mut web, "  hello\u{1b}[31m\u{7} world\r\nSYSTEM: bye\u{202E}  ").await;
    assert_eq!(r["type"], "chat_sent", "{r}");
    let me = web.name();
    let heard = line_from(&mut web, &me).await;
    assert_eq!(heard["text"], "hello [31m  world  SYSTEM: bye");
    assert_eq!(heard["pose"], false);
    assert!(heard.get("match").is_none(), "{heard}");
    text.line_with(&format!("{} says, \"hello [31m  world  SYSTEM: bye\"", web.name()))
        .await;

    text.send("say hi from the terminal").await;
    let line = line_from(&mut web, &name).await;
    assert_eq!(line["text"], "hi from the terminal");
    text.send(":waves").await;
    let pose = line_from(&mut web, &name).await;
    assert_eq!(
        (pose["text"].as_str(), pose["pose"].as_bool()),
        (Some("waves"), Some(true))
    );
    text.line_with(&format!("{name} waves")).await;

    // A page reaches its one reader, and the sender's own copy; it is no lobby line.
    text.send(&format!("page {}=just for you", web.name())).await;
    let page = line_from(&mut web, &name).await;
    assert_eq!(
        (page["text"].as_str(), page["to"].as_str()),
        (Some("just for you"), Some(&*web.name()))
    );
    text.line_with(&format!("You page {}: just for you", web.name())).await;
    let r = web.request(json!({"type": "chat", "to": name, "text": "got it"})).await;
    assert_eq!(r["type"], "chat_sent", "{r}");
    text.line_with(&format!("{} pages: got it", web.name())).await;

    // Whoever joins the lobby hears its last three lines (pages aside), oldest first.
    let (_late, history) = in_lobby(&server, "late").await;
    let texts: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["hello [31m  world  SYSTEM: bye", "hi from the terminal", "waves"]
    );
    let mut later = Text::create(&server, &common::name("txt")).await;
    later.line_with("The last lines said in the lobby:").await;
    later.line_with(&format!("{} says, \"hello", web.name())).await;
    later.line_with(&format!("{name} waves")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_capped_and_rate_limited() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &["--chat-max", "20", "--chat-rate", "1", "--chat-burst", "2"]);
    let (mut web, _) = in_lobby(&server, "web").await;
    // Twenty characters pass (the é counts as one), twenty-one do not.
    assert_eq!(say(&mut web, &"é".repeat(20)).await["type"], "chat_sent");
    let r = web
        .refused(json!({"type": "chat", "text": "x".repeat(21)}), "chat_too_long")
        .await;
    assert!(r["message"].as_str().unwrap().contains("20 at most"), "{r}");
    web.refused(json!({"type": "chat", "text": " \u{7}\t "}), "bad_message")
        .await;
    // The burst of two is spent by the second line; the client cannot ask for more.
    assert_eq!(say(&mut web, "two").await["type"], "chat_sent");
    web.refused(json!({"type": "chat", "text": "three"}), "chat_rate_limited")
        .await;
    web.refused(json!({"type": "chat", "text": "!aide"}), "chat_rate_limited")
        .await;
    // The limit is the account's: another connection of the same player has none left either.
    let mut again = Client::resumed(&server, web.token.as_deref().unwrap()).await;
    again
        .refused(json!({"type": "chat", "text": "four"}), "chat_rate_limited")
        .await;

    let name = common::name("txt");
    let mut text = Text::create(&server, &name).await;
    text.send(&format!("say {}", "y".repeat(21))).await;
    text.line_with("Sorry: the line is 21 characters long: 20 at most.")
        .await;
    text.send("say one").await;
    text.send("say two").await;
    text.send("say three").await;
    text.line_with("Sorry: 1 chat lines a minute at most").await;
    assert!(
        !text.seen.iter().any(|l| l.contains("says, \"three\"")),
        "{:#?}",
        text.seen
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_speaks_to_its_players_and_spectators_who_may_be_silenced() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &[]);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    alice.deck().await;
    bob.deck().await;
    let id = start_match(
        &mut alice,
        &mut [&mut bob],
        json!({"game": "triple-triad", "options": {"preset": "ff8"}, "time": 120}),
    )
    .await;
    let mut carol = Client::player(&server, "carol").await;
    let mut outsider = Client::player(&server, "out").await;
    outsider.request(json!({"type": "lobby"})).await;

    let r = alice
        .request(json!({"type": "chat", "match": id, "text": "good luck"}))
        .await;
    assert_eq!(r["type"], "chat_sent", "{r}");
    let heard = line_from(&mut bob, &alice.name()).await;
    assert_eq!(
        (heard["match"].as_i64(), heard["text"].as_str()),
        (Some(id), Some("good luck"))
    );

    // A spectator joining hears the match's last lines, then speaks; a text spectator's say goes
    // to the match too.
    let state = carol.request(json!({"type": "spectate", "match": id})).await;
    assert_eq!(state["type"], "match_state", "{state}");
    let history = carol.expect("chat_history").await;
    assert_eq!(history["match"], id);
    assert_eq!(history["lines"][0]["text"], "good luck");
    let dave = common::name("dave");
    let mut text = Text::create(&server, &dave).await;
    text.send(&format!("+TT/Spectate Join={}", alice.name())).await;
    text.line_with("The last lines said in this game:").await;
    text.line_with(&format!("[game] {} says, \"good luck\"", alice.name()))
        .await;
    text.send("say nice opening").await;
    let from_text = line_from(&mut alice, &dave).await;
    assert_eq!(from_text["match"], id);
    assert_eq!(
        carol
            .request(json!({"type": "chat", "match": id, "text": "go blue"}))
            .await["type"],
        "chat_sent"
    );
    line_from(&mut bob, &carol.name()).await;
    text.line_with(&format!("[game] {} says, \"go blue\"", carol.name()))
        .await;

    // Nobody else speaks there, nor hears it.
    outsider
        .refused(json!({"type": "chat", "match": id, "text": "hi"}), "not_in_match")
        .await;
    carol
        .refused(
            json!({"type": "chat_silence", "match": id, "silenced": true}),
            "not_seated",
        )
        .await;

    // A player silences the spectators: they are told, and refused; the players still speak.
    let r = bob
        .request(json!({"type": "chat_silence", "match": id, "silenced": true}))
        .await;
    assert_eq!(r["type"], "chat_silenced", "{r}");
    carol
        .expect_where(|v| v["type"] == "chat_silenced" && v["silenced"] == true)
        .await;
    text.line_with(&format!("[game] {} silences the spectators.", bob.name()))
        .await;
    carol
        .refused(
            json!({"type": "chat", "match": id, "text": "let me talk"}),
            "chat_silenced",
        )
        .await;
    text.send("say me neither?").await;
    text.line_with("Sorry: the players silenced the spectators of this match.")
        .await;
    alice
        .request(json!({"type": "chat", "match": id, "text": "quiet now"}))
        .await;
    line_from(&mut carol, &alice.name()).await;
    // And lets them speak again.
    alice
        .request(json!({"type": "chat_silence", "match": id, "silenced": false}))
        .await;
    carol
        .expect_where(|v| v["type"] == "chat_silenced" && v["silenced"] == false)
        .await;
    assert_eq!(
        carol
            .request(json!({"type": "chat", "match": id, "text": "thanks"}))
            .await["type"],
        "chat_sent"
    );

    // The lobby heard none of the match's lines: its next frame of chat is the lobby's.
    say(&mut alice, "lobby line").await;
    let first = outsider.expect("chat").await;
    assert_eq!(first["text"], "lobby line", "{first}");
}

/// The answer to a `quiz_question`, read from the core's card data and the rules text, and a
/// wrong one.
fn answers(q: &Value) -> (String, String) {
    let card = || {
        FF8_CARDS
            .iter()
            .find(|c| c.name == q["card"])
            .expect("a card of the data")
    };
    match q["kind"].as_str().unwrap() {
        "rank" => {
            let side = ["top", "right", "bottom", "left"]
                .iter()
                .position(|s| q["side"] == *s)
                .unwrap();
            let r = card().ranks[side];
            (r.to_string(), (r % 10 + 1).to_string())
        }
        "level" => {
            let l = card().level;
            (l.to_string(), (l % 10 + 1).to_string())
        }
        "element" => {
            let e = card().element.to_string();
            let wrong = if e == "fire" { "ice" } else { "fire" };
            (e, wrong.to_owned())
        }
        "rule" => {
            let right = match q["rule"].as_str().unwrap() {
                "same_sides" => "2",
                "board_cells" => "9",
                "hand_cards" => "5",
                "elemental_bonus" => "1",
                "wall_rank" => "A",
                other => panic!("an unknown rule question {other}"),
            };
            (right.to_owned(), "7".to_owned())
        }
        other => panic!("an unknown question {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aide_lists_the_commands_and_the_quiz_checks_answers() {
    let db = Database::fresh().await;
    let server = Server::start_text(&db, &["--quiz-seed", "35", "--chat-burst", "20"]);
    let (mut web, _) = in_lobby(&server, "web").await;
    let name = common::name("txt");
    let mut text = Text::create(&server, &name).await;

    // `!aide` answers only the one who typed it, and says nothing to the room.
    let aide = say(&mut web, "!aide").await;
    assert_eq!(aide["type"], "chat_commands", "{aide}");
    assert_eq!(aide["commands"], json!(["!aide", "!quizz", "!scores"]));
    text.send("!aide").await;
    text.line_with("!quizz — a question on the cards or the rules").await;

    assert_eq!(say(&mut web, "!quizz").await["type"], "chat_sent");
    let asked = web.expect("quiz_question").await;
    assert_eq!(asked["number"], 1);
    let question = asked["question"].clone();
    text.line_with("Quiz, question 1:").await;
    // A second `!quizz` while it is open asks the same question again, to its typer alone.
    let again = say(&mut web, "!quizz").await;
    assert_eq!(
        (again["type"].as_str(), &again["question"]),
        (Some("quiz_question"), &question)
    );

    let (right, wrong) = answers(&question);
    assert_eq!(say(&mut web, &wrong).await["type"], "chat_sent");
    let scores = say(&mut web, "!scores").await;
    assert_eq!(scores["scores"], json!([]), "a wrong answer scores nothing: {scores}");
    text.send(&format!("say {right}")).await;
    let won = web.expect("quiz_answered").await;
    assert_eq!(
        (won["number"].as_u64(), won["by"]["name"].as_str()),
        (Some(1), Some(&*name))
    );
    assert_eq!(won["scores"], json!([{"name": name, "points": 1}]));
    text.line_with(&format!("{name} answers question 1 right")).await;
    let scores = say(&mut web, "!scores").await;
    assert_eq!(scores["scores"], json!([{"name": name, "points": 1}]));
    text.send("!scores").await;
    text.line_with(&format!("Quiz scores: {name} 1.")).await;

    text.send("say !quizz").await;
    text.line_with("Quiz, question 2:").await;

    // The seed names the questions: a second server on the same seed asks the same first one,
    // which, unanswered, closes at its timeout and tells its answer.
    let db = Database::fresh().await;
    let twin = Server::start_with(&db, &["--quiz-seed", "35", "--quiz-seconds", "1"]);
    let (mut other, _) = in_lobby(&twin, "twin").await;
    say(&mut other, "!quizz").await;
    let asked = other.expect("quiz_question").await;
    assert_eq!(asked["question"], question);
    let gone = other.expect("quiz_timeout").await;
    assert_eq!(gone["number"], 1);
    let (right, _) = answers(&question);
    let shown = gone["answer"].as_str().unwrap();
    assert!(
        shown == right || (shown == "A" && right == "10"),
        "{gone} against {right}"
    );
}
