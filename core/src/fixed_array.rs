//! Fixed-size arrays read by a loop (`#[serde(deserialize_with = "crate::fixed_array::read")]`):
//! serde's own `[T; N]` reader writes out one read per element, nine for a board, and each
//! binding's module carries that for every array type it reads (docs/speed.md, an eighth pass on
//! the wasm size). It refuses what serde's refuses, in the same words: the same visitor
//! expectation ("an array of length N") and the same `invalid length` for a short array; a
//! longer one is left to the deserializer, as serde's leaves it.

use core::fmt;
use core::marker::PhantomData;
use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};

/// Reads `[T; N]` as serde's impl does (`deserialize_tuple(N, ...)`).
pub(crate) fn read<'de, D, T, const N: usize>(deserializer: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    deserializer.deserialize_tuple(N, Elements(PhantomData))
}

struct Elements<T, const N: usize>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + Default, const N: usize> Visitor<'de> for Elements<T, N> {
    type Value = [T; N];

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an array of length {N}")
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
        // Filled in place: no `Vec` to grow and convert.
        let mut read: [T; N] = core::array::from_fn(|_| T::default());
        for (index, slot) in read.iter_mut().enumerate() {
            match seq.next_element()? {
                Some(element) => *slot = element,
                None => return Err(A::Error::invalid_length(index, &self)),
            }
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    /// The loop and serde's own reader agree, errors word for word.
    #[test]
    fn reads_as_serdes_arrays() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Ours(#[serde(deserialize_with = "super::read")] [Option<u8>; 3]);
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Serdes([Option<u8>; 3]);
        for text in [
            "[1, null, 3]",
            "[1, 2]",
            "[]",
            "[1, 2, 3, 4]",
            "5",
            "{}",
            "[1, \"a\", 3]",
            "[1, 2, 3,]",
            "[1, 2",
        ] {
            let ours = serde_json::from_str::<Ours>(text)
                .map(|o| o.0)
                .map_err(|e| e.to_string());
            let serdes = serde_json::from_str::<Serdes>(text)
                .map(|s| s.0)
                .map_err(|e| e.to_string());
            assert_eq!(ours, serdes, "{text}");
        }
        assert_eq!(
            serde_json::from_str::<Ours>("[1, null, 3]").unwrap().0,
            [Some(1), None, Some(3)]
        );
    }
}
