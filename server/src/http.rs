//! The HTTP side: `/ws`, `/healthz`, and the demo pages as static files.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tower_http::services::ServeDir;
use tower_service::Service as _;

use crate::hub::Hub;
use crate::peers::{self, Peers, Refusal};

/// The folders of the package the demo page loads: the page itself, the package's JavaScript and
/// the WebAssembly build. Nothing else of the folder (its `node_modules`, sources, manifests) is
/// served.
const SERVED: [&str; 3] = ["demo", "js", "dist"];

/// How often the database is asked whether it answers, and how old its last answer may be for
/// `/healthz` to say ok.
const HEALTH_EVERY: Duration = Duration::from_secs(1);
const HEALTH_STALE: Duration = Duration::from_secs(5);

/// Serves HTTP, and the WebSockets it upgrades, on `listener` for as long as the server runs.
/// Each connection is driven here rather than by `axum::serve`, which gives hyper no timer: a
/// client that never finishes its headers would hold its socket for ever.
pub(crate) async fn serve(hub: Arc<Hub>, listener: TcpListener, peers: Arc<Peers>) {
    let health = Health::watch(hub.clone());
    let router = router(hub.clone(), health);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(hub.config.header_timeout);
    loop {
        let (stream, peer, place) = peers::accept(&peers, &listener, refusal).await;
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: axum::http::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(request)
        });
        let connection = http
            .serve_connection(TokioIo::new(peers::Counted::new(stream, place)), service)
            .with_upgrades();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("http connection from {peer}: {e}");
            }
        });
    }
}

/// What a turned-away HTTP client reads (a browser's WebSocket sees the status).
fn refusal(r: Refusal) -> &'static [u8] {
    match r {
        Refusal::Full => {
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 10\r\nConnection: close\r\n\r\nthe server is full: try again later\n"
        }
        Refusal::PeerFull => {
            b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nRetry-After: 10\r\nConnection: close\r\n\r\ntoo many connections from your address\n"
        }
    }
}

fn router(hub: Arc<Hub>, health: Arc<Health>) -> Router {
    // Each route keeps its whole path, so the folder's files answer under their own names;
    // `ServeDir` refuses `..` and the like.
    let files = ServeDir::new(&hub.config.static_dir);
    let mut router = Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(move || async move { health.answer() }))
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
        .max_write_buffer_size(crate::protocol::WRITE_MAX)
        .on_upgrade(move |socket| crate::conn::serve(hub, socket, peer))
}

/// Whether the database answered lately: asked by one task every [`HEALTH_EVERY`], so that
/// `/healthz`, which anyone may ask as often as they like, never reaches the database.
struct Health {
    started: Instant,
    /// Milliseconds since `started` of the last answer.
    answered: AtomicU64,
}

impl Health {
    fn watch(hub: Arc<Hub>) -> Arc<Health> {
        // The database answered a moment ago: the server connected to it before serving.
        let health = Arc::new(Health {
            started: Instant::now(),
            answered: AtomicU64::new(0),
        });
        let h = health.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(HEALTH_EVERY).await;
                let ask = sqlx::query("SELECT 1").execute(&hub.pool);
                if let Ok(Ok(_)) = tokio::time::timeout(HEALTH_STALE, ask).await {
                    h.answered
                        .store(h.started.elapsed().as_millis() as u64, Ordering::Relaxed);
                }
            }
        });
        health
    }

    fn answer(&self) -> (axum::http::StatusCode, &'static str) {
        let since = (self.started.elapsed().as_millis() as u64).saturating_sub(self.answered.load(Ordering::Relaxed));
        if since <= HEALTH_STALE.as_millis() as u64 {
            (axum::http::StatusCode::OK, "ok\n")
        } else {
            (axum::http::StatusCode::SERVICE_UNAVAILABLE, "database unavailable\n")
        }
    }
}
