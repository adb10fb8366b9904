//! The web page's language kept in the account: chosen at registration or later, only the codes
//! the page has, and given back at every login and resume, over real sockets.

mod common;

use common::{name, Client, Database, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_is_checked_kept_and_restored_at_login() {
    let db = Database::fresh().await;
    let server = Server::start(&db);

    // Registering with a language keeps it; a code the page lacks creates no account.
    let mut anna = Client::connect(&server).await;
    let na = name("anna");
    anna.refused(
        json!({"type": "register", "name": na, "password": "password1", "language": "de"}),
        "bad_language",
    )
    .await;
    let r = anna
        .request(json!({"type": "register", "name": na, "password": "password1", "language": "fr"}))
        .await;
    assert_eq!(r["type"], "authenticated", "{r}");
    assert_eq!(r["language"], "fr", "{r}");
    let token = r["token"].as_str().unwrap().to_owned();

    // Only the exact codes: no region, no capitals, no padding, nothing long.
    for bad in [
        json!("FR"),
        json!("fr-FR"),
        json!(" fr"),
        json!(""),
        json!("x".repeat(2000)),
    ] {
        anna.refused(json!({"type": "language", "language": bad}), "bad_language")
            .await;
    }
    anna.refused(json!({"type": "language", "language": 1}), "bad_message")
        .await;
    anna.refused(json!({"type": "language"}), "bad_message").await;
    let set = anna.request(json!({"type": "language", "language": "en"})).await;
    assert_eq!(set, json!({"type": "language", "re": set["re"], "language": "en"}));
    drop(anna);

    // A new login and a resume find the last choice.
    let mut again = Client::connect(&server).await;
    let r = again
        .request(json!({"type": "login", "name": na, "password": "password1"}))
        .await;
    assert_eq!(r["type"], "authenticated", "{r}");
    assert_eq!(r["language"], "en", "{r}");
    again.request(json!({"type": "language", "language": "fr"})).await;
    let resumed = Client::resumed(&server, &token).await;
    let r = resumed.frames.iter().find(|f| f["type"] == "authenticated").unwrap();
    assert_eq!(r["language"], "fr", "{r}");

    // An account that never chose has none: the page then follows the browser.
    let mut bob = Client::connect(&server).await;
    let r = bob.register(&name("bob")).await;
    assert!(r.get("language").is_none(), "{r}");

    // Not before a login.
    let mut stranger = Client::connect(&server).await;
    stranger
        .refused(json!({"type": "language", "language": "fr"}), "not_authenticated")
        .await;
}
