//! # arbiter-core
//!
//! Rules engines for three tabletop games behind one shape ([`Game`], and [`Engine`] for hosts):
//! Triple Triad ([`tripletriad`]), Trax ([`trax`]) and Nantong long cards ([`nantong`]).
//!
//! `#![no_std]` with `alloc`; features `std` (std error integration) and `serde` (states, setups
//! and observations as JSON-compatible data). All randomness comes from [`Rng`], seeded explicitly.
//!
//! ```
//! use arbiter_core::{Game, Outcome};
//! use arbiter_core::tripletriad::{TripleTriad, Setup};
//! let mut game = TripleTriad::new(&Setup::random_ff8(2024)).unwrap();
//! while let Some(_) = game.to_move() {
//!     let mv = *game.legal_moves().last().unwrap();
//!     game.play(mv).unwrap();
//! }
//! assert!(matches!(game.outcome(), Some(Outcome::Winner(_) | Outcome::Draw)));
//! ```
#![no_std]
#![warn(missing_docs)]
// The repository README's Rust example, compiled and run as a doctest so that it stays true.
#![cfg_attr(doctest, doc = include_str!("../../README.md"))]
#![forbid(unsafe_code)]
// The npm package's build (wasm/scripts/build.mjs, on nightly) compiles the core at opt-level 2 with
// `--cfg arbiter_size`: code off the hot paths (setup, parsing, explanations, matches' bookkeeping)
// is marked `#[cfg_attr(arbiter_size, optimize(size))]` so that it is compiled as at "z" while the
// rules and searches keep their speed (docs/speed.md, a seventh pass on the wasm size).
#![cfg_attr(arbiter_size, feature(optimize_attribute))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(not(target_has_atomic = "ptr"))]
pub(crate) use alloc::rc::Rc as Shared;
/// Data shared read-only between copies of a state: `Arc` where the target has atomic
/// compare-and-swap, `Rc` where it has none (thumbv6m, riscv32imc: no threads either).
#[cfg(target_has_atomic = "ptr")]
pub(crate) use alloc::sync::Arc as Shared;

#[cfg(feature = "std")]
pub mod arena;
mod engine;
mod error;
#[cfg(feature = "serde")]
mod fields;
#[cfg(feature = "serde")]
mod fixed_array;
mod frontier;
mod game;
pub mod games;
mod level;
pub mod nantong;
pub mod options;
#[cfg(feature = "std")]
mod parallel;
mod rng;
pub mod trax;
pub mod tripletriad;
#[cfg(feature = "serde")]
mod unit_enum;

#[cfg(feature = "std")]
pub use engine::deadline;
pub use engine::{perft_until, Budget, Engine};
pub use error::{quote, shorten, spoken_indices, Error, ErrorKind, MESSAGE_LIMIT, QUOTE_LIMIT};
pub use frontier::{Frontier, Transpose, FRONTIER_LIMIT, LINE_SEPARATOR};
pub use game::{perft, Game, Outcome};
pub use games::AnyGame;
pub use level::UnknownLevel;
#[cfg(feature = "std")]
pub use parallel::perft_threads;
#[cfg(feature = "serde")]
pub(crate) use rng::u64_from_number_or_text;
pub use rng::Rng;
