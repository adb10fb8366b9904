//! What a batch takes in memory and what the machine can give it, so that a batch too large is
//! refused with an exception instead of the process being killed on its first steps.
//!
//! A game's own memory is counted, not guessed: the module's allocator counts the bytes that one
//! thread allocates while [`heap_of`] measures (a Triple Triad game holds about 14 KB outside the
//! arrays, a batch's arrays are only part of it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes a thread allocates (less those it frees) while that
/// thread is measuring.
pub struct Counting;

thread_local! {
    /// Net bytes allocated by this thread since [`heap_of`] began, `None` when not measuring.
    static COUNT: Cell<Option<isize>> = const { Cell::new(None) };
}

fn add(bytes: isize) {
    // `try_with`: the allocator is called while a thread's locals are torn down too.
    let _ = COUNT.try_with(|c| {
        if let Some(n) = c.get() {
            c.set(Some(n + bytes));
        }
    });
}

// SAFETY: every call goes to `System` as it came; the count is a side effect on a thread-local
// `Cell`, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// `f()` and the bytes it left allocated (what the value it returns holds on the heap).
pub fn heap_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    COUNT.with(|c| c.set(Some(0)));
    let value = f();
    let bytes = COUNT.with(|c| c.replace(None)).unwrap_or(0);
    (value, bytes.max(0) as usize)
}

/// The bytes this process may still take: the system's available memory, or less under a
/// control group's limit or an address-space limit (`ulimit -v`, `resource.RLIMIT_AS`): Linux;
/// `None` where none can be read.
pub fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    });
    let read = |path: &str| std::fs::read_to_string(path).ok()?.trim().parse::<u64>().ok();
    // Control groups v2: this process's group's limit, less what the group already uses.
    let group = std::fs::read_to_string("/proc/self/cgroup").ok().and_then(|text| {
        let path = text.lines().find_map(|l| l.strip_prefix("0::"))?.trim().to_owned();
        let dir = format!("/sys/fs/cgroup{path}");
        let max = read(&format!("{dir}/memory.max"))?;
        let used = read(&format!("{dir}/memory.current")).unwrap_or(0);
        Some(max.saturating_sub(used))
    });
    // The address-space limit, less the address space this process already has.
    let field = |path: &str, name: &str, column: usize| -> Option<u64> {
        let text = std::fs::read_to_string(path).ok()?;
        let line = text.lines().find(|l| l.starts_with(name))?;
        line[name.len()..].split_whitespace().nth(column)?.parse().ok()
    };
    let address = field("/proc/self/limits", "Max address space", 0).and_then(|limit| {
        let used = field("/proc/self/status", "VmSize:", 0)? * 1024;
        Some(limit.saturating_sub(used))
    });
    [meminfo, group, address].into_iter().flatten().min()
}
