//! Every bad input is answered with its error code and changes nothing; hostile clients
//! (malformed frames, floods, oversized frames) never disturb other connections.

mod common;

use common::{name, start_match, Client, Database, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handshake_comes_first() {
    let db = Database::fresh().await;
    let mut server = Server::start(&db);
    let mut c = Client::raw(&server).await;
    c.send(json!({"type": "ping"})).await;
    let e = c.next().await.unwrap();
    assert_eq!(e["code"], "hello_first");
    assert!(c.next().await.is_none());
    assert_eq!(c.closed.as_ref().unwrap().0, 1002);

    let mut c = Client::raw(&server).await;
    c.send(json!({"type": "hello", "protocol": 99})).await;
    assert_eq!(c.next().await.unwrap()["code"], "protocol_version");
    assert!(c.next().await.is_none());
    assert_eq!(c.closed.clone().unwrap(), (1002, "protocol_version".to_owned()));

    let mut c = Client::raw(&server).await;
    c.send_text("not json").await;
    assert_eq!(c.next().await.unwrap()["code"], "bad_json");
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_unknown_messages() {
    let db = Database::fresh().await;
    let mut server = Server::start(&db);
    let mut c = Client::connect(&server).await;
    c.send_text("{\"type\":").await;
    assert_eq!(c.next().await.unwrap()["code"], "bad_json");
    c.send_text("[1,2]").await;
    assert_eq!(c.next().await.unwrap()["code"], "bad_json");
    c.send_binary(vec![0, 159, 146, 150]).await;
    assert_eq!(c.next().await.unwrap()["code"], "bad_json");
    c.refused(json!({"type": "fly"}), "unknown_type").await;
    c.refused(json!({"type": "login", "name": 5}), "bad_message").await;
    c.refused(json!({"type": "move", "match": "x", "move": "a"}), "bad_message")
        .await;
    c.refused(json!({"type": "ping", "extra": true}), "bad_message").await;
    c.refused(json!({"type": "hello", "protocol": 1}), "bad_message").await;
    // Requests that need an account.
    c.refused(json!({"type": "lobby"}), "not_authenticated").await;
    c.refused(json!({"type": "challenge", "game": "trax"}), "not_authenticated")
        .await;
    c.refused(json!({"type": "move", "match": 1, "move": "@0+"}), "not_authenticated")
        .await;
    // The card economy's requests are requests like the others: well formed, they need an
    // account; malformed, they are malformed first.
    c.refused(json!({"type": "tt_wallet"}), "not_authenticated").await;
    c.refused(json!({"type": "tt_buy", "card": 5}), "bad_message").await;
    // Accounts.
    c.refused(
        json!({"type": "register", "name": "no spaces", "password": "password1"}),
        "bad_name",
    )
    .await;
    c.refused(
        json!({"type": "register", "name": name("p"), "password": "short"}),
        "bad_password",
    )
    .await;
    c.refused(
        json!({"type": "login", "name": name("nobody"), "password": "password1"}),
        "login_failed",
    )
    .await;
    c.refused(json!({"type": "resume", "token": "0".repeat(64)}), "bad_token")
        .await;
    let n = name("dup");
    c.register(&n).await;
    let mut other = Client::connect(&server).await;
    other
        .refused(
            json!({"type": "register", "name": n.to_uppercase(), "password": "password1"}),
            "name_taken",
        )
        .await;
    other
        .refused(
            json!({"type": "login", "name": n, "password": "wrong password"}),
            "login_failed",
        )
        .await;
    c.refused(
        json!({"type": "login", "name": n, "password": "password1"}),
        "already_authenticated",
    )
    .await;
    // Challenges.
    c.refused(json!({"type": "challenge", "game": "chess"}), "bad_challenge")
        .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "time": 14}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "time": 301}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "options": {"variant": "9x9"}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "options": {"colour": 1}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "triple-triad", "options": {"preset": "chess"}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "triple-triad", "options": {"rules": {"same_wall": true}}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "triple-triad", "options": {"round_limit": 0}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "nantong", "options": {"deals": 0}}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}]}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}, {"kind": "me"}]}),
        "bad_challenge",
    )
    .await;
    c.refused(
        json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}, {"kind": "computer", "level": "god"}]}),
        "bad_challenge",
    )
    .await;
    c.refused(json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}, {"kind": "player", "name": name("ghost")}]}), "no_such_player").await;
    c.refused(json!({"type": "accept", "challenge": 12345}), "no_such_challenge")
        .await;
    c.refused(json!({"type": "withdraw", "challenge": 12345}), "no_such_challenge")
        .await;
    c.refused(json!({"type": "sync", "match": 12345}), "no_such_match")
        .await;
    c.refused(json!({"type": "stats", "name": name("ghost")}), "no_such_player")
        .await;
    // None of it made anything: the lobby holds nothing of this user's.
    let lobby = c.request(json!({"type": "lobby"})).await;
    assert!(lobby["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .all(|ch| ch["by"]["name"] != n.as_str()));
    assert_eq!(c.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_refused_withdrawn_and_accepted_by_the_wrong_people() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let nb = bob.name();
    let mut carl = Client::player(&server, "carl").await;
    let to_bob =
        json!({"type": "challenge", "game": "trax", "seats": [{"kind": "me"}, {"kind": "player", "name": nb}]});
    let cid = alice.request(to_bob.clone()).await["challenge"]["id"].as_i64().unwrap();
    alice
        .refused(json!({"type": "accept", "challenge": cid}), "own_challenge")
        .await;
    carl.refused(json!({"type": "accept", "challenge": cid}), "no_such_challenge")
        .await;
    carl.refused(json!({"type": "refuse", "challenge": cid}), "no_such_challenge")
        .await;
    bob.refused(json!({"type": "withdraw", "challenge": cid}), "not_challenger")
        .await;
    let r = bob.request(json!({"type": "refuse", "challenge": cid})).await;
    assert_eq!(r["reason"], "refused");
    let closed = alice
        .expect_where(|v| v["type"] == "challenge_closed" && v["challenge"] == cid)
        .await;
    assert_eq!(closed["reason"], "refused");
    bob.refused(json!({"type": "accept", "challenge": cid}), "no_such_challenge")
        .await;
    // Withdrawn: an open challenge disappears from the lobby.
    carl.request(json!({"type": "lobby"})).await;
    let open = alice.request(json!({"type": "challenge", "game": "trax"})).await["challenge"]["id"]
        .as_i64()
        .unwrap();
    carl.expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["id"] == open)
        .await;
    alice.request(json!({"type": "withdraw", "challenge": open})).await;
    let gone = carl
        .expect_where(|v| v["type"] == "challenge_closed" && v["challenge"] == open)
        .await;
    assert_eq!(gone["reason"], "withdrawn");
    let lobby = carl.request(json!({"type": "lobby"})).await;
    assert!(lobby["challenges"].as_array().unwrap().iter().all(|c| c["id"] != open));
    carl.refused(json!({"type": "accept", "challenge": open}), "no_such_challenge")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_moves_are_refused_and_change_nothing() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let mut eve = Client::player(&server, "eve").await;
    let id = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 60})).await;
    // White (alice) opens; the first tile of Trax must be at @0.
    let before = alice.request(json!({"type": "sync", "match": id})).await;
    bob.refused(json!({"type": "move", "match": id, "move": "@0+"}), "not_your_turn")
        .await;
    eve.refused(json!({"type": "move", "match": id, "move": "@0+"}), "not_seated")
        .await;
    eve.refused(json!({"type": "leave", "match": id}), "not_seated").await;
    alice
        .refused(json!({"type": "move", "match": id, "move": "zz9"}), "bad_move")
        .await;
    alice
        .refused(json!({"type": "move", "match": id, "move": "B5+"}), "illegal_move")
        .await;
    alice
        .refused(json!({"type": "move", "match": id, "action": 999_999}), "bad_move")
        .await;
    alice
        .refused(
            json!({"type": "move", "match": id, "move": "@0+", "action": 1}),
            "bad_message",
        )
        .await;
    alice.refused(json!({"type": "move", "match": id}), "bad_message").await;
    alice
        .refused(
            json!({"type": "move", "match": id, "move": "@0+", "ply": 3}),
            "stale_ply",
        )
        .await;
    alice
        .refused(json!({"type": "move", "match": 1, "move": "@0+"}), "no_such_match")
        .await;
    let after = alice.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(before["moves"], after["moves"]);
    assert_eq!(before["view"], after["view"]);
    assert_eq!(after["moves"], json!([]));
    // A good move still goes through, once.
    alice
        .send(json!({"type": "move", "match": id, "move": "@0+", "ply": 0}))
        .await;
    alice.moved(id, 1).await;
    alice
        .refused(
            json!({"type": "move", "match": id, "move": "@0+", "ply": 0}),
            "stale_ply",
        )
        .await;
    alice
        .refused(json!({"type": "move", "match": id, "move": "A0/"}), "not_your_turn")
        .await;
    let synced = bob.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(synced["moves"].as_array().unwrap().len(), 1);
    // Leaving forfeits: a did-not-finish for alice, a win for bob; the match refuses moves.
    let left = alice.request(json!({"type": "leave", "match": id})).await;
    assert_eq!(left["dnf"], true);
    let over = bob.over(id).await;
    assert_eq!(over["result"]["reason"], "forfeit");
    assert_eq!(over["result"]["outcome"], json!(["dnf", "won"]));
    bob.refused(json!({"type": "move", "match": id, "move": "A0/"}), "no_such_match")
        .await;
    let st = alice.request(json!({"type": "stats"})).await;
    assert_eq!(
        st["games"]["trax"],
        json!({"played": 1, "won": 0, "lost": 0, "drawn": 0, "dnf": 1})
    );
    let st = bob.request(json!({"type": "stats"})).await;
    assert_eq!(
        st["games"]["trax"],
        json!({"played": 1, "won": 1, "lost": 0, "drawn": 0, "dnf": 0})
    );
    // The finished match still syncs, from the database.
    let fin = bob.request(json!({"type": "sync", "match": id})).await;
    assert_eq!(fin["result"]["reason"], "forfeit");
    assert!(fin["to_move"].is_null());
}

// The MUSH's +TT/Cancel: "If the opponent is still online when using this command, you get a Did
// Not Finish"; with the opponent gone, leaving is a plain loss.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_after_the_opponent_went_is_a_loss_not_a_dnf() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    let id = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax", "time": 60})).await;
    alice.request(json!({"type": "lobby"})).await;
    let bob_name = bob.name();
    drop(bob);
    alice
        .expect_where(|v| v["type"] == "presence" && v["user"]["name"] == bob_name.as_str() && v["online"] == false)
        .await;
    let left = alice.request(json!({"type": "leave", "match": id})).await;
    assert_eq!(left["dnf"], false);
    let over = alice.over(id).await;
    assert_eq!(over["result"]["reason"], "forfeit");
    assert_eq!(over["result"]["outcome"], json!(["lost", "won"]));
    let st = alice.request(json!({"type": "stats"})).await;
    assert_eq!(
        st["games"]["trax"],
        json!({"played": 1, "won": 0, "lost": 1, "drawn": 0, "dnf": 0})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_matches_have_no_spectators() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut alice = Client::player(&server, "alice").await;
    let r = alice
        .request(json!({"type": "challenge", "game": "trax", "private": true,
                        "seats": [{"kind": "me"}, {"kind": "computer", "level": "random"}]}))
        .await;
    assert_eq!(r["type"], "challenge_created");
    let id = alice.expect("match_started").await["match"]["id"].as_i64().unwrap();
    let mut eve = Client::connect(&server).await;
    eve.refused(json!({"type": "spectate", "match": id}), "private_match")
        .await;
    eve.refused(json!({"type": "sync", "match": id}), "private_match").await;
    eve.register(&name("eve")).await;
    let lobby = eve.request(json!({"type": "lobby"})).await;
    assert!(lobby["matches"].as_array().unwrap().iter().all(|m| m["id"] != id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_and_floods_close_only_their_connection() {
    let db = Database::fresh().await;
    let mut server = Server::start(&db);
    let mut bystander = Client::player(&server, "calm").await;

    let mut big = Client::connect(&server).await;
    big.send_text(&format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(64 * 1024)))
        .await;
    assert!(big.next().await.is_none(), "an oversized frame closes the socket");
    assert_eq!(big.closed.as_ref().unwrap().0, 1009, "{:?}", big.closed);

    let mut flood = Client::connect(&server).await;
    // Ids of both kinds: each answer, pong or refusal, names the request it answers.
    let id = |i: u64| {
        if i.is_multiple_of(7) {
            json!(format!("p{i}"))
        } else {
            json!(i)
        }
    };
    for i in 0..400 {
        flood.send(json!({"type": "ping", "id": id(i)})).await;
    }
    let mut limited = 0;
    let mut answered = 0;
    while let Some(f) = flood.next().await {
        assert_eq!(f["re"], id(answered), "the answer to request {answered}: {f}");
        answered += 1;
        if f["code"] == "rate_limited" {
            limited += 1;
        } else {
            assert_eq!(f["type"], "pong", "{f}");
        }
    }
    assert!(
        limited > 100,
        "{limited} refusals, closed {:?}, {} frames",
        flood.closed,
        flood.frames.len()
    );
    assert_eq!(flood.closed.clone().unwrap(), (1008, "rate_limited".to_owned()));

    // The others never noticed.
    assert_eq!(bystander.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(server.alive());
    let health = reqwest_free_get(&server.addr, "/healthz").await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
}

/// A plain HTTP GET over a socket (no HTTP client crate for one request).
async fn reqwest_free_get(addr: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

/// Only the folders the demo page loads are served from the static folder: not its
/// `node_modules`, manifests or sources, nor anything reached by `..`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_demo_files_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("demo/index.html", "<!doctype html>"),
        ("demo/main.js", "// the page"),
        ("js/client.js", "// the client"),
        ("dist/arbiter_wasm.js", "// the glue"),
        ("dist/arbiter_wasm_bg.wasm", "\0asm"),
        ("node_modules/playwright/package.json", "{}"),
        ("package.json", "{}"),
        ("src/lib.rs", "// a source"),
        ("demo-secrets.txt", "no"),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let db = Database::fresh().await;
    let server = Server::start_with(&db, &["--static-dir", dir.path().to_str().unwrap()]);
    let get = |path: &'static str| reqwest_free_get(&server.addr, path);
    for (path, body) in [
        ("/demo/", "<!doctype html>"),
        ("/demo/index.html", "<!doctype html>"),
        ("/demo/main.js", "// the page"),
        ("/js/client.js", "// the client"),
        ("/dist/arbiter_wasm.js", "// the glue"),
    ] {
        let r = get(path).await;
        assert!(r.starts_with("HTTP/1.1 200") && r.ends_with(body), "{path}: {r}");
    }
    let wasm = get("/dist/arbiter_wasm_bg.wasm").await;
    assert!(
        wasm.to_ascii_lowercase().contains("content-type: application/wasm"),
        "{wasm}"
    );
    for path in ["/", "/demo"] {
        let r = get(path).await;
        assert!(r.starts_with("HTTP/1.1 307") && r.contains("/demo/\r\n"), "{path}: {r}");
    }
    for path in [
        "/node_modules/playwright/package.json",
        "/package.json",
        "/src/lib.rs",
        "/demo-secrets.txt",
        "/demo/../package.json",
        "/js/%2e%2e/package.json",
        "/dist/..%2fpackage.json",
        "/demo/missing.js",
    ] {
        let r = get(path).await;
        assert!(
            r.starts_with("HTTP/1.1 404") || r.starts_with("HTTP/1.1 400"),
            "{path}: {r}"
        );
    }
}
