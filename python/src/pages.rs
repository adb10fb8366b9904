//! Huge pages for a large batch's memory (Linux). A step of a batch touches a handful of pages
//! per game (its slot, its game's blocks on the heap, its legal ids, its rows of the arrays), so
//! that 1,024 Trax games walk about 4,000 pages a call: more than the processor's translation
//! cache holds, and in a virtual machine each miss there is a walk through two page tables. In
//! pages of 2 MiB the same memory is a dozen pages (`docs/speed.md`, "Sixteenth round").

use std::collections::BTreeSet;

/// A huge page's size on x86_64 and (with 4 KiB pages) arm64.
pub const HUGE: usize = 2 << 20;

/// The batches whose memory is at least this large ask for huge pages: a smaller one's pages fit
/// the translation cache, and a collapse copies its 2 MiB.
pub const WORTH_IT: u64 = 4 << 20;

/// The huge pages that some memory touches, added a block at a time: a batch of a million games
/// has some ten million blocks, its huge pages a few thousand at most.
#[derive(Default)]
pub struct Windows {
    pages: BTreeSet<usize>,
    /// The page added last: a block mostly lies in the page of the one before.
    last: Option<usize>,
}

impl Windows {
    /// The huge pages of the `bytes` bytes from `start` (none if `bytes` is 0: an empty list's
    /// dangling pointer).
    pub fn add(&mut self, start: usize, bytes: usize) {
        if bytes == 0 {
            return;
        }
        for page in start / HUGE..=start.saturating_add(bytes - 1) / HUGE {
            if self.last != Some(page) {
                self.pages.insert(page);
                self.last = Some(page);
            }
        }
    }

    /// The pages as spans of bytes, those that meet merged, ascending.
    #[cfg(any(target_os = "linux", test))]
    fn spans(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for &page in &self.pages {
            let (a, b) = (page * HUGE, (page + 1) * HUGE);
            match out.last_mut() {
                Some(last) if last.1 == a => last.1 = b,
                _ => out.push((a, b)),
            }
        }
        out
    }
}

/// The parts of `windows` that lie in the private anonymous mappings of `maps` (the text of
/// `/proc/self/maps`): the heap and the allocator's own mappings, never a file's or a stack's.
#[cfg(any(target_os = "linux", test))]
fn anonymous_parts(windows: &[(usize, usize)], maps: &str) -> Vec<(usize, usize)> {
    let anonymous = maps.lines().filter_map(|line| {
        let mut fields = line.split_whitespace();
        let (range, perms) = (fields.next()?, fields.next()?);
        let path = fields.nth(3).unwrap_or("");
        if !perms.starts_with("rw-p") || !(path.is_empty() || path == "[heap]") {
            return None;
        }
        let (a, b) = range.split_once('-')?;
        Some((usize::from_str_radix(a, 16).ok()?, usize::from_str_radix(b, 16).ok()?))
    });
    let mut out = Vec::new();
    for (a, b) in anonymous {
        for &(wa, wb) in windows {
            let (lo, hi) = (a.max(wa), b.min(wb));
            if lo < hi {
                out.push((lo, hi));
            }
        }
    }
    out
}

/// Asks the kernel to back `windows` with huge pages where they are private anonymous memory:
/// what is in use at once (`MADV_COLLAPSE`, Linux 6.1), the rest as it is first touched
/// (`MADV_HUGEPAGE`). A hint: where the kernel says no (transparent huge pages off, an older
/// kernel) nothing changes.
#[cfg(target_os = "linux")]
pub fn advise(windows: &Windows) {
    const MADV_HUGEPAGE: i32 = 14;
    const MADV_COLLAPSE: i32 = 25;
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else {
        return;
    };
    for (lo, hi) in anonymous_parts(&windows.spans(), &maps) {
        for advice in [MADV_HUGEPAGE, MADV_COLLAPSE] {
            // SAFETY: the range is page-aligned and mapped private and anonymous (read just now);
            // either advice keeps every byte's value, only the pages' size changes.
            unsafe { madvise(std::ptr::without_provenance_mut(lo), hi - lo, advice) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn advise(_: &Windows) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_whole_huge_pages_and_only_anonymous_private_mappings() {
        let m = HUGE;
        let windows = |ranges: &[(usize, usize)]| {
            let mut w = Windows::default();
            for &(start, bytes) in ranges {
                w.add(start, bytes);
            }
            w.spans()
        };
        let ranges = [
            (5 * m + 10, 100),
            (m + 7, m),
            (0x8, 0),
            (2 * m + 1, 10),
            (9 * m - 1, 2),
            (m, 1),
        ];
        assert_eq!(windows(&ranges), [(m, 3 * m), (5 * m, 6 * m), (8 * m, 10 * m)]);
        let maps = format!(
            "{:x}-{:x} rw-p 00000000 00:00 0                          [heap]\n\
             {:x}-{:x} r-xp 00000000 08:01 1234                       /usr/lib/libc.so.6\n\
             {:x}-{:x} rw-p 00000000 00:00 0 \n\
             {:x}-{:x} rw-p 00000000 00:00 0                          [stack]\n",
            m / 2,
            2 * m,
            2 * m,
            5 * m + 4096,
            5 * m + 4096,
            8 * m + 8192,
            8 * m + 8192,
            12 * m,
        );
        let windows = windows(&[(m + 7, m), (5 * m + 10, 100), (9 * m - 1, 2)]);
        assert_eq!(
            anonymous_parts(&windows, &maps),
            [(m, 2 * m), (5 * m + 4096, 6 * m), (8 * m, 8 * m + 8192)]
        );
    }
}
