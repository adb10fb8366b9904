//! Enums of unit variants read by name over their table (`ALL` and `name()`): the derived reader
//! writes out a match over the names and another over the variants in every enum, and each
//! binding's module carries them all; here one visitor, not generic over the enum, finds the
//! index (docs/speed.md, an eighth pass on the wasm size). It reads what the derive with
//! `rename_all` to the names reads (a name, or an object `{"name": null}`), refusing in its words.

use core::fmt;
use serde::de::{DeserializeSeed, Deserializer, EnumAccess, Error, Unexpected, VariantAccess, Visitor};

/// `impl Deserialize` for `$ty` over `$all` (every variant, in declaration order, as the derive
/// lists them) and `$ty::name`.
macro_rules! read_by_name {
    ($ty:ident, $all:expr) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                const NAMES: [&str; $all.len()] = {
                    let mut names = [""; $all.len()];
                    let mut i = 0;
                    while i < names.len() {
                        names[i] = $all[i].name();
                        i += 1;
                    }
                    names
                };
                crate::unit_enum::read(d, stringify!($ty), &NAMES).map(|i| $all[i])
            }
        }
    };
}
pub(crate) use read_by_name;

/// The index in `names` of the variant read, as the derived reader of the enum `name` finds it.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn read<'de, D: Deserializer<'de>>(
    d: D,
    name: &'static str,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    d.deserialize_enum(name, names, Variants { name, names })
}

#[derive(Clone, Copy)]
struct Variants {
    name: &'static str,
    names: &'static [&'static str],
}

impl<'de> Visitor<'de> for Variants {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(VariantName(self.names))?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// A variant's name, read as the derive's variant identifier.
struct VariantName(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for VariantName {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for VariantName {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_u64<E: Error>(self, v: u64) -> Result<usize, E> {
        match usize::try_from(v) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(Unexpected::Unsigned(v), &IndexBelow(self.0.len()))),
        }
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_str<E: Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| *name == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<usize, E> {
        match core::str::from_utf8(v) {
            Ok(v) => self.visit_str(v),
            Err(_) => Err(E::unknown_variant(&alloc::string::String::from_utf8_lossy(v), self.0)),
        }
    }
}

/// The derive's words for a variant index out of range.
struct IndexBelow(usize);

impl serde::de::Expected for IndexBelow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "variant index 0 <= i < {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use crate::tripletriad::{CardType, Element, Player, Side};

    fn check<T>(all: &[T], names: &str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
    {
        let read = |text: &str| serde_json::from_str::<T>(text).map_err(|e| e.to_string());
        for value in all {
            let name = serde_json::to_string(value).unwrap();
            assert_eq!(read(&name).as_ref(), Ok(value));
            assert_eq!(read(&alloc::format!("{{{name}: null}}")).as_ref(), Ok(value));
        }
        let refused: [(&str, String); 6] = [
            (
                r#""nope""#,
                alloc::format!("unknown variant `nope`, expected {names} at line 1 column 6"),
            ),
            (
                r#"{"nope": null}"#,
                alloc::format!("unknown variant `nope`, expected {names} at line 1 column 7"),
            ),
            ("5", "expected value at line 1 column 1".into()),
            ("null", "expected value at line 1 column 1".into()),
            (
                r#"{"x" 5}"#,
                alloc::format!("unknown variant `x`, expected {names} at line 1 column 4"),
            ),
            ("[]", "expected value at line 1 column 1".into()),
        ];
        for (text, message) in refused {
            assert_eq!(read(text), Err(message), "{text}");
        }
        let first = serde_json::to_string(&all[0]).unwrap();
        let column = first.len() + 4;
        let unit = alloc::format!("invalid type: integer `1`, expected unit at line 1 column {column}");
        assert_eq!(read(&alloc::format!("{{{first}: 1}}")), Err(unit));
    }

    /// serde's list of expected names.
    fn names(names: &[&str]) -> String {
        let quoted: Vec<_> = names.iter().map(|n| alloc::format!("`{n}`")).collect();
        match quoted.len() {
            2 => alloc::format!("{} or {}", quoted[0], quoted[1]),
            _ => alloc::format!("one of {}", quoted.join(", ")),
        }
    }

    /// The enums read by name read as their derived readers did, errors word for word.
    #[test]
    fn enums_read_as_derived() {
        check(&Element::ALL, &names(&Element::ALL.map(Element::name)));
        check(&CardType::ALL, &names(&CardType::ALL.map(CardType::name)));
        check(&Side::ALL, &names(&Side::ALL.map(Side::name)));
        check(&Player::BOTH, &names(&Player::BOTH.map(Player::name)));
    }
}
