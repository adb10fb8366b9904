//! What a batch costs in memory besides its NumPy arrays, and what the process may still take.
//! A batch too large for the machine is refused with an exception when it is made, instead of the
//! process being killed by the kernel (or aborted by a failed allocation) once its games fill.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The module's Rust heap, counted per thread, so that a game's footprint is measured rather than
/// guessed: a Triple Triad game holds about 14 KB besides its rows of the arrays.
struct Counting;

thread_local! {
    /// Bytes this thread allocated minus bytes it freed (a block freed by another thread counts
    /// there: only differences taken within one thread mean something).
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// How many threads are measuring now: outside a measure, an allocation pays one load.
static MEASURING: AtomicUsize = AtomicUsize::new(0);

fn count(bytes: isize) {
    if MEASURING.load(Relaxed) > 0 {
        // A `const` thread-local without a destructor is there for the thread's whole life.
        let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
    }
}

// SAFETY: every call goes to the system allocator unchanged; only the counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on as it is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap bytes counted while it lives: [`Measure::kept`] is what the calling thread allocated and
/// kept since [`Measure::start`].
pub struct Measure {
    start: isize,
}

impl Measure {
    pub fn start() -> Measure {
        MEASURING.fetch_add(1, Relaxed);
        Measure {
            start: NET.with(Cell::get),
        }
    }

    pub fn kept(&self) -> isize {
        NET.with(Cell::get) - self.start
    }
}

impl Drop for Measure {
    fn drop(&mut self) {
        MEASURING.fetch_sub(1, Relaxed);
    }
}

/// The bytes this process may still take, if the system says: the least of the memory available
/// on the machine, what its cgroups (a container, a Slurm job) leave, and what its address-space
/// limit (`ulimit -v`) leaves. `None` where none of these can be read (not Linux).
pub fn headroom() -> Option<u64> {
    [machine_available(), cgroup_room(), address_space_room()]
        .into_iter()
        .flatten()
        .min()
}

/// `MemAvailable` of /proc/meminfo: what can be had without swapping.
fn machine_available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    kilobytes(&meminfo, "MemAvailable:")
}

/// The room under the tightest `memory.max` of the process's cgroup (v2) and its ancestors.
fn cgroup_room() -> Option<u64> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = cgroups.lines().find_map(|l| l.strip_prefix("0::"))?.trim();
    let root = Path::new("/sys/fs/cgroup");
    let mut dir = root.join(own.trim_start_matches('/'));
    let mut room: Option<u64> = None;
    loop {
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok()?.trim().parse::<u64>().ok();
        // `memory.max` reads "max" where there is no limit.
        if let (Some(max), Some(current)) = (read("memory.max"), read("memory.current")) {
            let here = max.saturating_sub(current);
            room = Some(room.map_or(here, |r| r.min(here)));
        }
        if dir == root || !dir.pop() {
            return room;
        }
    }
}

/// The room under `RLIMIT_AS`: its soft limit less the process's virtual size now.
fn address_space_room() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    Some(soft.saturating_sub(kilobytes(&status, "VmSize:")?))
}

/// A `Name:   1234 kB` line of a /proc file, in bytes.
fn kilobytes(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kb * 1024)
}
