//! The HTTP side: `/ws`, `/healthz`, and the demo pages as static files.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::Router;
use tower_http::services::ServeDir;

use crate::hub::Hub;

/// The folders of the package the demo page loads: the page itself, the package's JavaScript and
/// the WebAssembly build. Nothing else of the folder (its `node_modules`, sources, manifests) is
/// served.
const SERVED: [&str; 3] = ["demo", "js", "dist"];

pub fn router(hub: Arc<Hub>) -> Router {
    // Each route keeps its whole path, so the folder's files answer under their own names;
    // `ServeDir` refuses `..` and the like.
    let files = ServeDir::new(&hub.config.static_dir);
    let mut router = Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(healthz))
        .route("/", get(|| async { Redirect::temporary("/demo/") }))
        .route("/demo", get(|| async { Redirect::temporary("/demo/") }))
        .route_service("/demo/", files.clone());
    for folder in SERVED {
        router = router.route_service(&format!("/{folder}/{{*path}}"), files.clone());
    }
    router.with_state(hub)
}

async fn ws(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    upgrade: WebSocketUpgrade,
) -> impl IntoResponse {
    let limit = hub.config.max_frame;
    upgrade
        .max_frame_size(limit)
        .max_message_size(limit)
        // Small buffers: the defaults (128 KiB each way) cost 156 MB at 1,000 connections.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| crate::conn::serve(hub, socket, peer))
}

/// Alive, and the database answers.
async fn healthz(State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    match sqlx::query("SELECT 1").execute(&hub.pool).await {
        Ok(_) => (axum::http::StatusCode::OK, "ok\n"),
        Err(_) => (axum::http::StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n"),
    }
}
