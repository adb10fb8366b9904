//! How the long commands (`perft`, `solve`, `arena`) run and show it: the threads they count on,
//! a progress bar on standard error, and the rate they count at.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Millions of nodes per second, or `-` for too short a run.
pub fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1}M nodes/s", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

/// `n` and the noun, singular for one: `1 node`, `2 nodes`.
pub fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `--threads`, or every core.
pub fn threads(arg: Option<usize>) -> Result<usize, String> {
    match arg {
        Some(0) => Err("--threads: at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A bar of the work done (moves at the root, games) on standard error, once a run has lasted a
/// second, and only when standard error is a terminal (a log or a pipe gets no carriage returns).
pub struct Progress {
    start: Instant,
    terminal: bool,
    shown: AtomicBool,
    /// What is counted, e.g. `moves at the root`.
    unit: &'static str,
}

impl Progress {
    pub fn new(unit: &'static str) -> Progress {
        Progress {
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
            unit,
        }
    }

    /// Seconds since the run started.
    pub fn seconds(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    pub fn update(&self, done: usize, total: usize) {
        self.update_with(done, total, "");
    }

    /// [`Progress::update`] with `note` after the count.
    pub fn update_with(&self, done: usize, total: usize, note: &str) {
        if !self.terminal || self.seconds() < 1.0 {
            return;
        }
        self.shown.store(true, Ordering::Relaxed);
        const WIDTH: usize = 30;
        let filled = WIDTH * done / total.max(1);
        eprint!(
            "\r[{}{}] {done}/{total} {} {note}\x1b[K",
            "#".repeat(filled),
            ".".repeat(WIDTH - filled),
            self.unit
        );
    }

    /// Clears the bar, if one was drawn, before the result is printed.
    pub fn finish(&self) {
        if self.shown.load(Ordering::Relaxed) {
            eprint!("\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::plural(1, "node"), "1 node");
        assert_eq!(super::plural(0, "node"), "0 nodes");
        assert_eq!(super::plural(2, "deal"), "2 deals");
    }
}
