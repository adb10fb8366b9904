//! The HTTP side: `/ws`, `/healthz`, and the demo pages as static files.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::Router;
use tower_http::services::ServeDir;

use crate::hub::Hub;

pub fn router(hub: Arc<Hub>) -> Router {
    let files = ServeDir::new(&hub.config.static_dir);
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(healthz))
        .route("/", get(|| async { Redirect::temporary("/demo/") }))
        .fallback_service(files)
        .with_state(hub)
}

async fn ws(State(hub): State<Arc<Hub>>, upgrade: WebSocketUpgrade) -> impl IntoResponse {
    let limit = hub.config.max_frame;
    upgrade
        .max_frame_size(limit)
        .max_message_size(limit)
        // Small buffers: the defaults (128 KiB each way) cost 156 MB at 1,000 connections.
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| crate::conn::serve(hub, socket))
}

/// Alive, and the database answers.
async fn healthz(State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    match sqlx::query("SELECT 1").execute(&hub.pool).await {
        Ok(_) => (axum::http::StatusCode::OK, "ok\n"),
        Err(_) => (axum::http::StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n"),
    }
}
