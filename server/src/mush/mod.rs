//! The text game's own interface: a line-based TCP listener where the seed's `+TT/...` commands
//! work as written, over the same accounts, matches and economy as the WebSocket. A text
//! connection is a hub connection like a WebSocket one: it hears the same events, rendered as
//! lines, so a text player and a browser player play each other.

mod chat;
mod command;
mod render;
mod session;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};

use crate::hub::Hub;
use crate::peers::{self, Peers, Refusal};

/// The longest line read, in bytes: a longer one is refused and skipped.
const LINE_LIMIT: usize = 4096;

/// Accepts text connections on `listener` for as long as the server runs, within `peers`' caps.
pub async fn serve(hub: Arc<Hub>, listener: TcpListener, peers: Arc<Peers>) {
    loop {
        let (stream, peer, place) = peers::accept(&peers, &listener, refusal).await;
        let hub = hub.clone();
        tokio::spawn(async move {
            connection(hub, stream, peer).await;
            drop(place);
        });
    }
}

fn refusal(r: Refusal) -> &'static [u8] {
    match r {
        Refusal::Full => b"The server is full: try again later.\r\n",
        Refusal::PeerFull => b"Too many connections from your address: try again later.\r\n",
    }
}

async fn connection(hub: Arc<Hub>, stream: TcpStream, peer: SocketAddr) {
    let id = crate::db::new_id() as u64;
    let mut events = hub.connect(id);
    let (read, mut write) = stream.into_split();
    let mut lines = Lines::new(read);
    let mut session = session::Session::new(id, peer.ip());
    let mut bucket = crate::conn::Bucket::new(hub.config.rate, hub.config.burst);
    tracing::debug!("text connection {id} from {peer}");
    let (login, idle) = (hub.config.text_login_timeout, hub.config.text_idle_timeout);
    let opened = Instant::now();
    let mut heard = opened;
    let mut out = session::welcome();
    // A frame told once whose lines are in `out`: told when they are written.
    let mut once = None;
    loop {
        // A client that reads nothing for as long as it may stay silent is as gone as a silent
        // one.
        if !write_lines(&mut write, out.drain(..), idle).await {
            hub.disconnect(id);
            return;
        }
        if let Some(r) = once.take() {
            crate::told::mark(&hub.pool, &r).await;
        }
        if session.quitting {
            break;
        }
        let (deadline, goodbye) = if session.logged_in() {
            (
                heard + idle,
                format!("Nothing from you in {} s: goodbye.", idle.as_secs()),
            )
        } else {
            (
                opened + login,
                format!("Log in within {} s of connecting: goodbye.", login.as_secs()),
            )
        };
        tokio::select! {
            line = lines.next() => {
                heard = Instant::now();
                match line {
                    Line::End => break,
                    Line::TooLong => out.push(format!("That line is longer than {LINE_LIMIT} bytes: it was ignored.")),
                    Line::Text(line) if line.is_empty() => {}
                    Line::Text(line) => {
                        out = if bucket.take() {
                            session.handle(&hub, &line).await
                        } else {
                            vec!["Too many commands: slow down.".into()]
                        };
                    }
                }
            }
            event = events.recv() => match event {
                Some(event) => {
                    out = session.event(&event.text);
                    // The text game shows what concerns its game: a frame it shows nothing of
                    // (another game's end) is not told here.
                    once = event.once.filter(|_| !out.is_empty());
                }
                None => break,
            },
            () = tokio::time::sleep_until(deadline.into()) => {
                let _ = write_lines(&mut write, [goodbye].into_iter(), Duration::from_secs(1)).await;
                break;
            }
        }
    }
    hub.disconnect(id);
}

/// Writes `lines` with telnet's line ends, or gives up after `patience`: whether they went.
async fn write_lines(write: &mut OwnedWriteHalf, lines: impl Iterator<Item = String>, patience: Duration) -> bool {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.replace('\n', "\r\n"));
        text.push_str("\r\n");
    }
    text.is_empty()
        || matches!(
            tokio::time::timeout(patience, write.write_all(text.as_bytes())).await,
            Ok(Ok(()))
        )
}

/// What a text connection sent.
enum Line {
    Text(String),
    /// A line over [`LINE_LIMIT`], skipped whole.
    TooLong,
    /// The connection closed (in the middle of a line too).
    End,
}

/// The lines of a text connection, ended by CR, LF, CR LF or telnet's CR NUL: clients differ.
/// A line is kept within [`LINE_LIMIT`], so that a line without end cannot fill the memory.
struct Lines<R> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// The last line ended with CR: an LF or NUL right after it belongs to that end.
    after_cr: bool,
    /// The line being read is over the limit: its bytes are dropped until its end.
    over: bool,
}

impl<R: AsyncRead + Unpin> Lines<R> {
    fn new(read: R) -> Lines<R> {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            after_cr: false,
            over: false,
        }
    }

    /// The next line, trimmed. Cancel-safe: the only wait is `fill_buf`'s, and what was read
    /// before stays in `self`.
    async fn next(&mut self) -> Line {
        loop {
            let chunk = match self.read.fill_buf().await {
                Ok(c) if !c.is_empty() => c,
                _ => return Line::End,
            };
            let mut used = 0;
            let mut ended = false;
            for &b in chunk {
                used += 1;
                if std::mem::take(&mut self.after_cr) && (b == b'\n' || b == 0) {
                    continue;
                }
                match b {
                    b'\r' | b'\n' => {
                        self.after_cr = b == b'\r';
                        ended = true;
                        break;
                    }
                    _ if self.over => {}
                    _ if self.line.len() == LINE_LIMIT => {
                        self.over = true;
                        self.line.clear();
                    }
                    _ => self.line.push(b),
                }
            }
            self.read.consume(used);
            if ended {
                if std::mem::take(&mut self.over) {
                    return Line::TooLong;
                }
                let text = String::from_utf8_lossy(&self.line).trim().to_string();
                self.line.clear();
                return Line::Text(text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines_of(bytes: &[u8]) -> Vec<String> {
        let mut lines = Lines::new(bytes);
        let mut out = Vec::new();
        loop {
            match lines.next().await {
                Line::Text(t) => out.push(t),
                Line::TooLong => out.push("<too long>".into()),
                Line::End => return out,
            }
        }
    }

    #[tokio::test]
    async fn every_line_end_ends_a_line() {
        assert_eq!(
            lines_of(b"a\nb\r\nc\rd\r\0e\r\r\nf\n").await,
            ["a", "b", "c", "d", "e", "", "f"]
        );
        // The end of the stream in the middle of a line.
        assert_eq!(lines_of(b"a\rb").await, ["a"]);
        let mut long = vec![b'x'; LINE_LIMIT + 10];
        long.extend_from_slice(b"\rok\r");
        assert_eq!(lines_of(&long).await, ["<too long>", "ok"]);
        let mut just = vec![b'x'; LINE_LIMIT];
        just.push(b'\n');
        assert_eq!(lines_of(&just).await[0].len(), LINE_LIMIT);
    }
}
