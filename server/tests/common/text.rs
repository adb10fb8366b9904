//! A text player of the harness: a line-based client of the server's text listener.

use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use super::Server;

/// A text player: logged in, the welcome's lines read.
pub struct Text {
    io: BufReader<TcpStream>,
    /// Every line read.
    pub seen: Vec<String>,
}

impl Text {
    pub async fn create(server: &Server, name: &str) -> Text {
        let mut t = Text {
            io: BufReader::new(TcpStream::connect(server.text()).await.unwrap()),
            seen: Vec::new(),
        };
        t.line_with("Welcome to Arbiter").await;
        t.send(&format!("create {name} password1")).await;
        t.line_with(&format!("Welcome, {name}.")).await;
        t
    }

    pub async fn send(&mut self, line: &str) {
        self.io
            .get_mut()
            .write_all(format!("{line}\r\n").as_bytes())
            .await
            .unwrap();
    }

    /// Reads lines until one holds `what`, and returns it.
    pub async fn line_with(&mut self, what: &str) -> String {
        loop {
            let mut line = String::new();
            match tokio::time::timeout(Duration::from_secs(20), self.io.read_line(&mut line)).await {
                Ok(Ok(n)) if n > 0 => {}
                r => panic!("no line with {what:?} ({r:?}); read {:#?}", self.seen),
            }
            let line = line.trim_end().to_owned();
            self.seen.push(line.clone());
            if line.contains(what) {
                return line;
            }
        }
    }
}
