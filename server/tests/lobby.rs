//! The lobby: who is online, open challenges and matches in progress, kept up to date; and
//! computer players that think off the executor, so a slow level never delays other matches.

mod common;

use std::time::{Duration, Instant};

use common::truth::{rng, variant, Truth};
use common::{name, start_match, Client, Database, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_challenges_and_matches_reach_the_lobby_live() {
    let db = Database::fresh().await;
    let server = Server::start(&db);
    let mut watcher = Client::connect(&server).await;
    let nw = name("watch");
    watcher.register(&nw).await;
    let lobby = watcher.request(json!({"type": "lobby"})).await;
    assert!(lobby["online"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["name"] == nw.as_str()));

    let nd = name("dave");
    let mut dave = Client::connect(&server).await;
    dave.register(&nd).await;
    let p = watcher
        .expect_where(|v| v["type"] == "presence" && v["user"]["name"] == nd.as_str())
        .await;
    assert_eq!(p["online"], true);
    let open = dave
        .request(
            json!({"type": "challenge", "game": "nantong", "options": {"deals": 1}, "time": 120,
                        "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "computer", "level": "basic"}]}),
        )
        .await;
    let cid = open["challenge"]["id"].as_i64().unwrap();
    let seen = watcher
        .expect_where(|v| v["type"] == "challenge_open" && v["challenge"]["id"] == cid)
        .await;
    assert_eq!(
        seen["challenge"]["seats"][2],
        json!({"kind": "computer", "level": "basic"})
    );
    assert_eq!(seen["challenge"]["time"], 120);
    let listed = watcher.request(json!({"type": "lobby"})).await;
    assert!(listed["challenges"].as_array().unwrap().iter().any(|c| c["id"] == cid));
    // The watcher takes the open seat: the match starts and is listed with its rules.
    watcher.request(json!({"type": "accept", "challenge": cid})).await;
    let closed = watcher
        .expect_where(|v| v["type"] == "challenge_closed" && v["challenge"] == cid)
        .await;
    assert_eq!(closed["reason"], "started");
    let m = watcher.expect("match_listed").await;
    assert_eq!(m["match"]["options"], json!({"deals": 1}));
    let id = m["match"]["id"].as_i64().unwrap();
    let now = watcher.request(json!({"type": "lobby"})).await;
    assert!(now["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == id && x["game"] == "nantong"));
    assert!(now["challenges"].as_array().unwrap().iter().all(|c| c["id"] != cid));
    // Dave leaves it: it ends and leaves the lobby; dave goes offline.
    dave.request(json!({"type": "leave", "match": id})).await;
    watcher
        .expect_where(|v| v["type"] == "match_unlisted" && v["match"] == id)
        .await;
    drop(dave);
    let p = watcher
        .expect_where(|v| v["type"] == "presence" && v["user"]["name"] == nd.as_str() && v["online"] == false)
        .await;
    assert_eq!(p["online"], false);
    let st = watcher.request(json!({"type": "stats", "name": nd})).await;
    assert_eq!(st["games"]["nantong"]["dnf"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_computer_never_delays_other_matches() {
    let db = Database::fresh().await;
    // Computer players may think 6 s a move.
    let server = Server::start_with(&db, &["--think-ms", "6000"]);
    let mut alice = Client::player(&server, "alice").await;
    let mut bob = Client::player(&server, "bob").await;
    // Four Trax 8x8 matches against the expert, which answers white's first move by searching
    // (unbounded, it would play either colour's first two moves from its book at once).
    let asked = Instant::now();
    let mut thinking = Vec::new();
    for _ in 0..4 {
        let r = alice
            .request(
                json!({"type": "challenge", "game": "trax", "options": {"variant": "8x8"}, "time": 60,
                            "seats": [{"kind": "me"}, {"kind": "computer", "level": "expert"}]}),
            )
            .await;
        assert_eq!(r["type"], "challenge_created");
        let st = alice.expect("match_state").await;
        assert_eq!(st["to_move"], 0);
        let m = st["match"]["id"].as_i64().unwrap();
        alice
            .send(json!({"type": "move", "match": m, "move": "@0+", "ply": 0}))
            .await;
        alice.moved(m, 1).await;
        thinking.push(m);
    }
    let started = Instant::now();
    // Meanwhile two people play Trax: every move comes back quickly.
    let id = start_match(&mut alice, &mut [&mut bob], json!({"game": "trax"})).await;
    let mut truth = Truth::trax(variant("8x8"));
    let mut r = rng(3);
    let mut slowest = Duration::ZERO;
    for ply in 0..12u64 {
        let Some(seat) = truth.to_move() else { break };
        let mv = truth.pick(&mut r);
        let c = if seat == 0 { &mut alice } else { &mut bob };
        let sent = Instant::now();
        c.send(json!({"type": "move", "match": id, "move": mv, "ply": ply}))
            .await;
        c.moved(id, ply + 1).await;
        slowest = slowest.max(sent.elapsed());
        truth.play(&mv);
    }
    // The experts were still thinking meanwhile.
    let mut busy = 0;
    for m in &thinking {
        let st = bob.request(json!({"type": "sync", "match": m})).await;
        busy += usize::from(st["moves"].as_array().unwrap().len() == 1);
    }
    assert!(busy > 0, "the experts had all moved before the people played");
    assert!(
        slowest < Duration::from_millis(1500),
        "a Trax move took {slowest:?} while experts thought"
    );
    // And the experts did move (within their clock), each after its whole think time: it used to
    // stop at its node budget, 0.6 s in.
    for m in thinking {
        alice.moved(m, 2).await;
    }
    assert!(asked.elapsed() >= Duration::from_secs(6), "{:?}", asked.elapsed());
    eprintln!(
        "slowest Trax move {slowest:?} while {busy} experts thought; all moved after {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}
