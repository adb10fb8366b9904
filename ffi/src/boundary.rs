//! The edge between C and Rust: status codes, the per-thread error message, panics caught, and
//! the one convention for pointers, strings and buffers that every export follows.

use std::cell::RefCell;
use std::ffi::{c_char, CStr, CString};
use std::mem::MaybeUninit;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use arbiter_core::{shorten, Error, ErrorKind, MESSAGE_LIMIT};

/// What a call did: `ARBITER_OK` (0) or why it failed. After a failure, `arbiter_last_error()`
/// has the message, in the core's words.
#[repr(i32)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArbiterStatus {
    /// Success.
    ARBITER_OK = 0,
    /// An argument or configuration is invalid (a seat, a level, an action id, a setup).
    ARBITER_BAD_ARGUMENT = 1,
    /// A required pointer is NULL.
    ARBITER_NULL_POINTER = 2,
    /// Text or JSON that cannot be read: malformed notation or JSON, invalid UTF-8.
    ARBITER_PARSE_ERROR = 3,
    /// A well-formed move that the rules refuse now.
    ARBITER_ILLEGAL_MOVE = 4,
    /// The game is over: no move is accepted and no move can be chosen.
    ARBITER_GAME_OVER = 5,
    /// The caller's buffer is too small: the size needed was written to the size argument.
    ARBITER_BUFFER_TOO_SMALL = 6,
    /// A documented resource limit (tiles, depth, table size) would be exceeded.
    ARBITER_LIMIT_EXCEEDED = 7,
    /// A bug caught at the boundary (a panic): please report it with the message. The handle
    /// the call was given may be inconsistent: free it.
    ARBITER_INTERNAL_ERROR = 8,
}

use ArbiterStatus::*;

/// A failed call: its status and the message `arbiter_last_error()` will give.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: ArbiterStatus,
    pub message: String,
}

impl Failure {
    pub fn new(status: ArbiterStatus, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let status = match e.kind() {
            ErrorKind::BadArgument => ARBITER_BAD_ARGUMENT,
            ErrorKind::Parse => ARBITER_PARSE_ERROR,
            ErrorKind::IllegalMove => ARBITER_ILLEGAL_MOVE,
            ErrorKind::GameOver => ARBITER_GAME_OVER,
            ErrorKind::LimitExceeded => ARBITER_LIMIT_EXCEEDED,
            // A kind added to the core without a status here is a bug of this crate.
            _ => ARBITER_INTERNAL_ERROR,
        };
        Failure::new(status, e.message())
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Failure {
        Failure::new(ARBITER_PARSE_ERROR, e.to_string())
    }
}

/// Converts any core error type through the host-facing [`Error`].
pub(crate) fn core_error(e: impl Into<Error>) -> Failure {
    Failure::from(e.into())
}

thread_local! {
    // Empty until the thread's first failure: a slot first touched while the thread exits owns
    // no memory, so its destructor not running then leaks nothing.
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// What `arbiter_last_error` gives on a thread that is ending: a call from a thread-local or a
/// pthread key destructor may run after the message slot is destroyed, and must not abort.
const SLOT_GONE: &CStr = c"the error message is lost: this thread is exiting and its thread-local storage is gone";

/// The message of the last failed call on this thread.
pub(crate) fn last_error() -> *const c_char {
    // The CString's buffer stays put until the next failure on this thread replaces it.
    LAST_ERROR
        .try_with(|m| m.borrow().as_deref().unwrap_or(c"").as_ptr())
        .unwrap_or(SLOT_GONE.as_ptr())
}

fn record(failure: Failure) -> ArbiterStatus {
    // Messages quote caller text, which may hold NUL bytes: C would cut the message there.
    let message = shorten(&failure.message, MESSAGE_LIMIT).replace('\0', "\\0");
    let text = CString::new(message).expect("NUL bytes replaced");
    // On a thread that is ending the message is dropped; the status still tells the caller.
    let _ = LAST_ERROR.try_with(|m| *m.borrow_mut() = Some(text));
    failure.status
}

/// Runs the body of an export: its failure or a panic becomes a status and a message; nothing
/// unwinds into C.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Failure>) -> ArbiterStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => ARBITER_OK,
        Ok(Err(failure)) => record(failure),
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic without a message");
            record(Failure::new(
                ARBITER_INTERNAL_ERROR,
                format!("internal error: {what} (please report it)"),
            ))
        }
    }
}

fn null(name: &str) -> Failure {
    Failure::new(ARBITER_NULL_POINTER, format!("{name} is NULL"))
}

/// The object behind a handle or an input pointer.
///
/// # Safety
/// `p` is NULL or points to a live `T` that nothing else mutates during the call.
pub(crate) unsafe fn arg<'a, T>(p: *const T, name: &str) -> Result<&'a T, Failure> {
    p.as_ref().ok_or_else(|| null(name))
}

/// The object behind a handle the call changes.
///
/// # Safety
/// `p` is NULL or points to a live `T` that nothing else uses during the call.
pub(crate) unsafe fn arg_mut<'a, T>(p: *mut T, name: &str) -> Result<&'a mut T, Failure> {
    p.as_mut().ok_or_else(|| null(name))
}

/// The items of a pointer + length input; NULL is accepted for length 0.
///
/// # Safety
/// `p` is NULL or points to `len` readable items.
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize, name: &str) -> Result<&'a [T], Failure> {
    // No object is larger than PTRDIFF_MAX bytes: such a length is a caller's bug (a negative
    // length cast to size_t, say), and a slice made from it is undefined behaviour.
    let max = isize::MAX as usize / size_of::<T>().max(1);
    match (p.is_null(), len) {
        (true, 0) => Ok(&[]),
        (true, _) => Err(null(name)),
        (false, _) if len > max => Err(Failure::new(
            ARBITER_BAD_ARGUMENT,
            format!("{name} has a length of {len}, larger than any buffer (at most PTRDIFF_MAX bytes)"),
        )),
        (false, _) => Ok(std::slice::from_raw_parts(p, len)),
    }
}

/// A pointer + length text input, checked as UTF-8.
///
/// # Safety
/// As [`slice`].
pub(crate) unsafe fn text<'a>(p: *const c_char, len: usize, name: &str) -> Result<&'a str, Failure> {
    let bytes = slice(p.cast::<u8>(), len, name)?;
    std::str::from_utf8(bytes).map_err(|e| Failure::new(ARBITER_PARSE_ERROR, format!("{name} is not UTF-8: {e}")))
}

/// A place for one result. Checked when the call starts, written only when it succeeds, so that
/// a failed call leaves the caller's variables as they were.
pub(crate) struct Out<T>(NonNull<T>);

impl<T> Out<T> {
    /// # Safety
    /// `p` is NULL or valid for writing a `T`.
    pub unsafe fn new(p: *mut T, name: &str) -> Result<Out<T>, Failure> {
        NonNull::new(p).map(Out).ok_or_else(|| null(name))
    }

    pub fn set(self, value: T) {
        // SAFETY: `new` was promised a pointer valid for writing.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// A caller buffer of `cap` items and the place where the size needed is reported (also when the
/// buffer is too small). The buffer may be NULL when `cap` is 0, to ask for the size.
pub(crate) struct Buffer<T> {
    buf: *mut T,
    cap: usize,
    size: Out<usize>,
}

impl<T: Copy> Buffer<T> {
    /// # Safety
    /// `buf` is NULL or valid for writing `cap` items; `size` as in [`Out::new`].
    pub unsafe fn new(buf: *mut T, cap: usize, size: *mut usize, name: &str) -> Result<Buffer<T>, Failure> {
        if buf.is_null() && cap > 0 {
            return Err(null(name));
        }
        Ok(Buffer {
            buf,
            cap,
            size: Out::new(size, "the size argument")?,
        })
    }

    /// Writes `items` and then `end` (the terminating NUL of a string), or reports the size needed.
    /// Items go straight into the caller's buffer: no copy on the way (legal actions are on every
    /// playout's hot path).
    pub fn fill(self, items: impl ExactSizeIterator<Item = T>, end: Option<T>) -> Result<(), Failure> {
        let len = items.len();
        let need = len + end.is_some() as usize;
        self.size.set(need);
        if self.cap < need {
            return Err(Failure::new(
                ARBITER_BUFFER_TOO_SMALL,
                format!("buffer too small: {need} needed, {} given", self.cap),
            ));
        }
        if need == 0 {
            // Nothing to write, and `buf` may be NULL (`cap` 0): a slice may not be made from it.
            return Ok(());
        }
        // SAFETY: `new` was promised `cap` writable items, and `need` fits in them. The items may
        // be uninitialised: they are written, never read.
        let dst = unsafe { std::slice::from_raw_parts_mut(self.buf.cast::<MaybeUninit<T>>(), need) };
        let (body, tail) = dst.split_at_mut(len);
        for (d, item) in body.iter_mut().zip(items) {
            d.write(item);
        }
        if let (Some(end), [last]) = (end, tail) {
            last.write(end);
        }
        Ok(())
    }
}

/// A text result: UTF-8, NUL-terminated; the size reported counts the NUL.
pub(crate) type TextOut = Buffer<c_char>;

impl TextOut {
    pub fn text(self, s: &str) -> Result<(), Failure> {
        self.fill(s.bytes().map(|b| b as c_char), Some(0))
    }

    pub fn json(self, value: &impl serde::Serialize) -> Result<(), Failure> {
        let s = serde_json::to_string(value).map_err(|e| Failure::new(ARBITER_INTERNAL_ERROR, e.to_string()))?;
        self.text(&s)
    }
}

/// A handle: a game object boxed for C. `free` takes it back.
pub(crate) trait Handle: Sized {
    type Inner;
    fn wrap(inner: Self::Inner) -> Self;
    fn inner(&self) -> &Self::Inner;
    fn inner_mut(&mut self) -> &mut Self::Inner;
}

/// Implements [`Handle`] for a one-field struct (the handle types themselves are written out,
/// so that cbindgen sees them).
macro_rules! handle {
    ($handle:ident, $inner:ty) => {
        impl $crate::boundary::Handle for $handle {
            type Inner = $inner;
            fn wrap(inner: $inner) -> Self {
                $handle(inner)
            }
            fn inner(&self) -> &$inner {
                &self.0
            }
            fn inner_mut(&mut self) -> &mut $inner {
                &mut self.0
            }
        }
    };
}
pub(crate) use handle;

/// Gives a new object to C through `out`.
pub(crate) fn give<H: Handle>(out: Out<*mut H>, inner: H::Inner) {
    out.set(Box::into_raw(Box::new(H::wrap(inner))));
}

/// Takes back an object given to C.
///
/// # Safety
/// `h` is NULL or a handle this library gave and nobody uses any more.
pub(crate) unsafe fn free<H: Handle>(h: *mut H) {
    if !h.is_null() {
        // Dropping runs only the core's destructors, which do not panic.
        drop(Box::from_raw(h));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn message() -> String {
        // SAFETY: last_error is always a valid C string.
        unsafe { CStr::from_ptr(last_error()) }.to_str().unwrap().to_owned()
    }

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_message() {
        let status = guard(|| panic!("rules table corrupt"));
        assert_eq!(status, ARBITER_INTERNAL_ERROR);
        assert_eq!(message(), "internal error: rules table corrupt (please report it)");
        let status = guard(|| panic!("cell {}", 12));
        assert_eq!(status, ARBITER_INTERNAL_ERROR);
        assert!(message().contains("cell 12"));
    }

    #[test]
    fn nul_bytes_in_messages_stay_visible() {
        let status = guard(|| Err(Failure::new(ARBITER_PARSE_ERROR, "bad move \"a\0b\"")));
        assert_eq!(status, ARBITER_PARSE_ERROR);
        assert_eq!(message(), "bad move \"a\\0b\"");
    }

    #[test]
    fn messages_are_per_thread() {
        guard(|| Err(Failure::new(ARBITER_GAME_OVER, "main thread")));
        std::thread::spawn(|| {
            guard(|| Err(Failure::new(ARBITER_BAD_ARGUMENT, "other thread")));
            assert_eq!(message(), "other thread");
        })
        .join()
        .unwrap();
        assert_eq!(message(), "main thread");
    }

    #[test]
    fn a_small_buffer_reports_the_size_and_stays_untouched() {
        let mut buf = [7 as c_char; 4];
        let mut size = 0usize;
        let status = guard(|| unsafe { TextOut::new(buf.as_mut_ptr(), 4, &mut size, "buf")?.text("four") });
        assert_eq!((status, size), (ARBITER_BUFFER_TOO_SMALL, 5));
        assert_eq!(buf, [7; 4]);
        let status = guard(|| unsafe { TextOut::new(std::ptr::null_mut(), 0, &mut size, "buf")?.text("") });
        assert_eq!((status, size), (ARBITER_BUFFER_TOO_SMALL, 1));
    }
}
