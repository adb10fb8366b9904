//! The text game's own interface: a line-based TCP listener where the seed's `+TT/...` commands
//! work as written, over the same accounts, matches and economy as the WebSocket. A text
//! connection is a hub connection like a WebSocket one: it hears the same events, rendered as
//! lines, so a text player and a browser player play each other.

mod command;
mod render;
mod session;

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::hub::Hub;

/// The longest line read, in bytes: a longer one is refused and skipped.
const LINE_LIMIT: usize = 4096;

/// Accepts text connections on `listener` for as long as the server runs.
pub async fn serve(hub: Arc<Hub>, listener: TcpListener) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let _ = stream.set_nodelay(true);
                tokio::spawn(connection(hub.clone(), stream, peer));
            }
            Err(e) => {
                tracing::warn!("text listener: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }
}

async fn connection(hub: Arc<Hub>, stream: TcpStream, peer: SocketAddr) {
    let id = crate::db::new_id() as u64;
    let mut events = hub.connect(id);
    let (read, mut write) = stream.into_split();
    // A line is read within a limit, so that a line without end cannot fill the memory.
    let mut lines = BufReader::new(read).take(LINE_LIMIT as u64 + 1);
    let mut session = session::Session::new(id, peer.ip());
    let mut bucket = crate::conn::Bucket::new(hub.config.rate, hub.config.burst);
    tracing::debug!("text connection {id} from {peer}");
    let mut out = session::welcome();
    // A frame told once whose lines are in `out`: told when they are written.
    let mut once = None;
    let mut buf = Vec::new();
    loop {
        for line in out.drain(..) {
            let mut text = line.replace('\n', "\r\n");
            text.push_str("\r\n");
            if write.write_all(text.as_bytes()).await.is_err() {
                hub.disconnect(id);
                return;
            }
        }
        if let Some(r) = once.take() {
            crate::told::mark(&hub.pool, &r).await;
        }
        if session.quitting {
            break;
        }
        lines.set_limit((LINE_LIMIT + 1 - buf.len().min(LINE_LIMIT)) as u64);
        tokio::select! {
            // Cancel-safe: bytes read before another branch wins stay in `buf`.
            read = lines.read_until(b'\n', &mut buf) => {
                let over = buf.len() > LINE_LIMIT;
                match read {
                    Ok(0) if buf.is_empty() || !over => break,
                    Err(_) => break,
                    Ok(_) => {}
                }
                if !buf.ends_with(b"\n") && !over {
                    // The end of the stream in the middle of a line.
                    break;
                }
                if over {
                    // Skip the rest of the over-long line.
                    let mut rest = Vec::new();
                    while !buf.ends_with(b"\n") && !rest.ends_with(b"\n") {
                        rest.clear();
                        lines.set_limit(LINE_LIMIT as u64);
                        match lines.read_until(b'\n', &mut rest).await {
                            Ok(0) | Err(_) => break,
                            Ok(_) => {}
                        }
                    }
                    buf.clear();
                    out.push(format!("That line is longer than {LINE_LIMIT} bytes: it was ignored."));
                    continue;
                }
                let line = String::from_utf8_lossy(&buf).trim().to_string();
                buf.clear();
                if line.is_empty() {
                    continue;
                }
                out = if bucket.take() {
                    session.handle(&hub, &line).await
                } else {
                    vec!["Too many commands: slow down.".into()]
                };
            }
            event = events.recv() => match event {
                Some(event) => {
                    out = session.event(&hub, &event.text).await;
                    // The text game shows what concerns its game: a frame it shows nothing of
                    // (another game's end) is not told here.
                    once = event.once.filter(|_| !out.is_empty());
                }
                None => break,
            },
        }
    }
    hub.disconnect(id);
}
