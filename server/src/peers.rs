//! Who may hold a connection: at most `max_per_peer` per peer address and `max_connections` in
//! all, on every listener together, the whole kept below the open-file limit. Past a cap a
//! newcomer is turned away at once with a short answer, so that a flood of sockets never makes
//! `accept` fail for everyone else.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// Why a newcomer was turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The server holds `max_connections`.
    Full,
    /// This peer holds `max_per_peer`.
    PeerFull,
}

pub(crate) struct Peers {
    per_peer: u32,
    cap: usize,
    held: Mutex<Held>,
    /// Refused sockets being closed politely (see [`Peers::turn_away`]): bounded, as each holds a
    /// file of the reserve.
    closing: Arc<Semaphore>,
}

#[derive(Default)]
struct Held {
    total: usize,
    by_peer: HashMap<IpAddr, u32>,
}

/// A connection's place, given back when it is dropped (with the connection's socket).
pub(crate) struct Place {
    peers: Arc<Peers>,
    key: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.peers.held.lock().unwrap_or_else(|e| e.into_inner());
        held.total -= 1;
        if let Some(n) = held.by_peer.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.by_peer.remove(&self.key);
            }
        }
    }
}

impl Peers {
    /// `cap` connections in all, `reserve` more files for everything else (the refusals in
    /// progress take at most half of it).
    pub(crate) fn new(per_peer: u32, cap: usize, reserve: usize) -> Arc<Peers> {
        Arc::new(Peers {
            per_peer,
            cap,
            held: Mutex::default(),
            closing: Arc::new(Semaphore::new((reserve / 2).max(1))),
        })
    }

    pub(crate) fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Place, Refusal> {
        let key = key(peer);
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.total >= self.cap {
            return Err(Refusal::Full);
        }
        let n = held.by_peer.entry(key).or_insert(0);
        if *n >= self.per_peer {
            return Err(Refusal::PeerFull);
        }
        *n += 1;
        held.total += 1;
        Ok(Place {
            peers: self.clone(),
            key,
        })
    }

    /// Writes `answer` to a refused socket and closes it. When the reserve allows, the close
    /// waits a moment for what the peer already sent: closing on unread data resets the
    /// connection, and the peer could lose the answer.
    pub(crate) fn turn_away(&self, mut stream: TcpStream, answer: &'static [u8]) {
        let _ = stream.try_write(answer);
        let Ok(permit) = self.closing.clone().try_acquire_owned() else {
            return;
        };
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(1), async {
                let _ = stream.shutdown().await;
                let mut sink = [0u8; 1024];
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            })
            .await;
            drop(permit);
        });
    }
}

/// A socket holding its place: given back when the connection ends, upgraded to a WebSocket or
/// not.
pub(crate) struct Counted {
    stream: TcpStream,
    _place: Place,
}

impl Counted {
    pub(crate) fn new(stream: TcpStream, place: Place) -> Counted {
        Counted { stream, _place: place }
    }
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The unit one peer's connections are counted in: an IPv4 address (also when mapped into IPv6)
/// or an IPv6 /64, what one subscriber is usually given.
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// Raises the soft open-file limit to the hard one and returns the connections the server may
/// hold (`set`, at most what the limit allows) and the files it keeps in reserve.
pub(crate) fn connection_cap(set: Option<usize>) -> (usize, usize) {
    let files = raise_open_files();
    // The database's pool, the files served, the listeners and the polite refusals.
    let reserve = (files / 10).max(64);
    let most = files.saturating_sub(reserve).max(1);
    match set {
        Some(n) if n > most => {
            tracing::warn!("max_connections {n} is over what {files} open files allow: {most} it is");
            (most, reserve)
        }
        Some(n) => (n, files.saturating_sub(n).max(reserve)),
        None => (most, reserve),
    }
}

fn raise_open_files() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

/// The next connection on `listener` with its place, the refused ones turned away with
/// `refusal`'s answer meanwhile.
pub(crate) async fn accept(
    peers: &Arc<Peers>,
    listener: &TcpListener,
    refusal: fn(Refusal) -> &'static [u8],
) -> (TcpStream, std::net::SocketAddr, Place) {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of files despite the caps (another part of the process holds them), or the
                // peer gave up before the accept: never a reason to stop listening.
                tracing::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match peers.admit(peer.ip()) {
            Ok(place) => {
                // Without it a frame right after another waits for the delayed ACK (36 ms
                // instead of 2).
                let _ = stream.set_nodelay(true);
                return (stream, peer, place);
            }
            Err(r) => {
                tracing::debug!("turned away {peer}: {r:?}");
                peers.turn_away(stream, refusal(r));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_is_an_ipv4_address_or_an_ipv6_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(key(a), key(b));
        assert_ne!(key(a), key(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(key(mapped), "10.0.0.1".parse::<IpAddr>().unwrap());
    }

    #[tokio::test]
    async fn places_are_counted_and_given_back() {
        let peers = Peers::new(2, 3, 10);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = peers.admit(a).unwrap();
        let _a2 = peers.admit(a).unwrap();
        assert_eq!(peers.admit(a).err(), Some(Refusal::PeerFull));
        let _b1 = peers.admit(b).unwrap();
        assert_eq!(peers.admit(b).err(), Some(Refusal::Full));
        drop(a1);
        assert!(peers.admit(a).is_ok());
    }
}
