//! The one pseudo-random generator of the engine.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014): one `u64` of state, passes BigCrush, and is simple enough
//! to re-implement bit for bit in C or JavaScript. We keep our own rather than a `rand` generator
//! because the stream is part of saved games: a seed and a list of moves must replay identically
//! forever, and `rand`'s range sampling has changed between releases.

/// A seeded SplitMix64 generator whose whole state is one `u64` (serialisable with the game).
///
/// ```
/// use arbiter_core::Rng;
/// let mut a = Rng::new(42);
/// let mut b = Rng::new(42);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(6) < 6);
/// ```
///
/// In JSON, `{"state": N}`; `N` may also be a decimal string, so that JavaScript, whose numbers are
/// exact only up to 2^53, keeps every state exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rng {
    state: u64,
}

#[cfg(feature = "serde")]
crate::fields::read_fields!(Rng, deny_unknown = false;
    state: u64 => u64_from_number_or_text;
);

/// Reads a seed or a generator state saved in JSON: a number, or the same number as a decimal
/// string. JavaScript numbers are doubles, exact only up to 2^53, so the npm package writes larger
/// integers as strings; reading both keeps its saves exact. Writing stays a plain number.
#[cfg(feature = "serde")]
pub(crate) fn u64_from_number_or_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    use serde::de::{Error, Unexpected, Visitor};
    struct Wide;
    impl Visitor<'_> for Wide {
        type Value = u64;
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            f.write_str("an integer from 0 to 2^64 - 1, as a number or a decimal string")
        }
        fn visit_u64<E: Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<u64, E> {
            let digits = !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit());
            digits
                .then(|| v.parse().ok())
                .flatten()
                .ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
        }
    }
    d.deserialize_any(Wide)
}

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The current state; `Rng::new(state)` continues the same stream.
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (Lemire's multiply-and-reject, so without modulo bias).
    /// Returns 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // The threshold is below `n`, so a low word of at least `n` is accepted without the
        // division that computing it takes (Lemire's early exit: the same draws, accepted or
        // rejected alike, a fraction of the time; a deal's shuffle makes 109 of them a hand).
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// Shuffles `items` uniformly (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs for seed 0 as published with the reference implementation.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let v = r.below(5) as usize;
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn states_read_from_numbers_and_decimal_strings() {
        let read = |json: &str| serde_json::from_str::<Rng>(json).map(|r| r.state());
        assert_eq!(read(r#"{"state": 18446744073709551615}"#).unwrap(), u64::MAX);
        assert_eq!(read(r#"{"state": "18446744073709551615"}"#).unwrap(), u64::MAX);
        assert_eq!(
            serde_json::to_string(&Rng::new(u64::MAX)).unwrap(),
            r#"{"state":18446744073709551615}"#
        );
        for bad in [
            r#"{"state": "18446744073709551616"}"#,
            r#"{"state": "+1"}"#,
            r#"{"state": ""}"#,
            r#"{"state": -1}"#,
            r#"{"state": 1.5}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    /// The early exit draws exactly what the textbook form draws: the same values and the same
    /// rejections (n just above 2^63 rejects about half the draws), so every seed deals as before.
    #[test]
    fn below_draws_as_the_textbook_multiply_and_reject() {
        fn textbook(r: &mut Rng, n: u64) -> u64 {
            let threshold = n.wrapping_neg() % n;
            loop {
                let m = (r.next_u64() as u128) * (n as u128);
                if (m as u64) >= threshold {
                    return (m >> 64) as u64;
                }
            }
        }
        for n in [1, 2, 3, 7, 110, 1 << 32, (1 << 63) + 1, u64::MAX - 1, u64::MAX] {
            let (mut a, mut b) = (Rng::new(n), Rng::new(n));
            for _ in 0..2_000 {
                assert_eq!(a.below(n), textbook(&mut b, n), "n = {n}");
            }
            assert_eq!(a.next_u64(), b.next_u64(), "n = {n}: as many draws");
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(3);
        let mut v: [u8; 10] = core::array::from_fn(|i| i as u8);
        r.shuffle(&mut v);
        let mut s = v;
        s.sort();
        assert_eq!(s, core::array::from_fn(|i| i as u8));
    }
}
