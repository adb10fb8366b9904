//! libarbiter: the C library of the Arbiter rules engines, a thin layer over `arbiter-core`.
//!
//! Every export catches panics, checks its pointers and lengths, and turns every error into an
//! [`ArbiterStatus`] and a message (`arbiter_last_error`). The verbs every game shares are
//! written once in [`verbs`]; each game's module exports them under its own names with one-line
//! wrappers, and adds what only that game has. The conventions are documented once, at the top
//! of the generated header (`ffi/cbindgen.toml`).
//!
//! The safety contract of every export is that of the header: pointers are NULL or valid for
//! what their documentation says, and a handle is used by one thread at a time.
#![allow(clippy::missing_safety_doc)]

// `budget`, `ffxiv` and the games' modules are public to Rust only for the C ABI fuzz target
// (fuzz/), which calls the exports as a host would. Their order is the header's: cbindgen follows
// it.
mod boundary;
pub mod budget;
pub mod ffxiv;
mod split;

pub mod nantong;
pub mod trax;
pub mod triple_triad;
pub mod triple_triad_match;
mod verbs;

#[cfg(test)]
mod tests;

use std::ffi::c_char;

pub use boundary::ArbiterStatus;
pub use budget::{ArbiterBudget, ArbiterCancel};

/// The message of the last call on this thread that did not return `ARBITER_OK`, in the core's
/// words: NUL-terminated UTF-8, owned by the library, valid until the next failing call on this
/// thread. An empty string before any failure. Successful calls leave it as it was. While the
/// thread exits (in a thread-local or pthread key destructor) the message cannot be kept: a
/// fixed text says so.
#[no_mangle]
pub extern "C" fn arbiter_last_error() -> *const c_char {
    boundary::last_error()
}

/// The header's major version (with `_MINOR`, `_PATCH` and `ARBITER_VERSION_STRING`).
/// `arbiter_version()` gives the library's, which a program may compare with them at start; the
/// major version is also in the shared library's SONAME (`libarbiter.so.0`).
pub const ARBITER_VERSION_MAJOR: u32 = 0;
/// The header's minor version.
pub const ARBITER_VERSION_MINOR: u32 = 1;
/// The header's patch version.
pub const ARBITER_VERSION_PATCH: u32 = 0;

/// The library's version, e.g. `"0.1.0"`: NUL-terminated, static.
#[no_mangle]
pub extern "C" fn arbiter_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod header {
    use std::path::Path;

    /// The committed header is what cbindgen makes of the crate now: a change to an export that
    /// is not carried into `include/arbiter.h` fails here. `UPDATE_HEADER=1` rewrites it.
    #[test]
    fn committed_header_matches_the_exports() {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
        let mut generated = Vec::new();
        cbindgen::Builder::new()
            .with_crate(crate_dir)
            .with_config(config)
            .generate()
            .expect("cbindgen reads the crate")
            .write(&mut generated);
        let generated = String::from_utf8(generated).expect("the header is UTF-8");
        let path = crate_dir.join("../include/arbiter.h");
        if std::env::var_os("UPDATE_HEADER").is_some() {
            std::fs::write(&path, &generated).expect("write include/arbiter.h");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "include/arbiter.h differs from the exports: run `UPDATE_HEADER=1 cargo test -p arbiter-ffi header` and commit it"
        );
    }

    #[test]
    fn version_is_the_crate_version() {
        // SAFETY: arbiter_version returns a static C string.
        let v = unsafe { std::ffi::CStr::from_ptr(super::arbiter_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
        // The header's macros are written out for cbindgen: a version bump must carry them (the C
        // test compares ARBITER_VERSION_STRING, made of them, with arbiter_version()).
        let parts = [
            super::ARBITER_VERSION_MAJOR,
            super::ARBITER_VERSION_MINOR,
            super::ARBITER_VERSION_PATCH,
        ];
        let crate_parts = [
            env!("CARGO_PKG_VERSION_MAJOR"),
            env!("CARGO_PKG_VERSION_MINOR"),
            env!("CARGO_PKG_VERSION_PATCH"),
        ]
        .map(|p| p.parse::<u32>().unwrap());
        assert_eq!(parts, crate_parts);
    }
}
