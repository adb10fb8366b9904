//! Structs read over a table of their fields (`read_fields!`), in place of the derived reader: the
//! derive writes out a visitor per struct with every field twice (an object's entry, an array's
//! element), and each binding's module carries them all; here one visitor, generic over the table
//! only, does the keys, the repeats, the order and the absences, and each struct adds one typed
//! read per field, shared by both forms (docs/speed.md, a ninth pass on the wasm size). It reads
//! what the derive read and refuses in its words, calling the deserializer in the same order (so
//! that each error gets the same place): an object with the fields in any order, unknown keys
//! skipped or refused (`deny_unknown_fields`), or an array of the fields in order, those with a
//! default allowed to be missing at its end.

use core::fmt;
use serde::de::{DeserializeSeed, Deserializer, Error, Expected, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// What `read_fields!` declares for a struct.
pub(crate) trait Fields: Sized {
    /// The struct's name, as the derive's visitor says it (`struct NAME`).
    const NAME: &'static str;
    /// The keys, in the struct's order.
    const KEYS: &'static [&'static str];
    /// Whether an unknown key is refused rather than skipped.
    const DENY_UNKNOWN: bool;
    /// Bit `i` set when field `i` takes its default if absent.
    const DEFAULTED: u32;
    /// The fields read so far.
    type Slots: Default;
    /// Reads field `index` from `d` into `slots`.
    fn read<'de, D: Deserializer<'de>>(slots: &mut Self::Slots, index: usize, d: D) -> Result<(), D::Error>;
    /// The struct from what was read: the reading loops ([`elements`], [`entries`]) refused every
    /// absence without a default, with the derive's error and its place.
    fn finish(slots: Self::Slots) -> Self;
}

/// `impl Deserialize` for a struct over its fields' table: `Name, deny_unknown = BOOL;` then each
/// field in the struct's order as `field: Type => reader` (`reader` takes the deserializer, as
/// `serde::Deserialize::deserialize` or a `deserialize_with` function), `("key")` after the field
/// for a renamed key, `, default` at the end for `#[serde(default)]` (`, default = VALUE` for
/// `#[serde(default = "...")]`). Every field must be listed: the struct is built from the list, so
/// a field left out does not compile. A field without a default must be present, also an `Option`
/// (which the derive, unlike this, reads as `None` when absent: give it `default`). At most 32
/// fields (the bits of `seen` and `DEFAULTED`).
macro_rules! read_fields {
    ($ty:ident, deny_unknown = $deny:literal; $($field:ident $(($key:literal))?: $fty:ty => $read:path $(, $default:ident $(= $value:expr)?)?;)*) => {
        const _: () = {
            #[derive(Default)]
            pub(crate) struct Slots {
                $($field: Option<$fty>,)*
            }

            impl crate::fields::Fields for $ty {
                const NAME: &'static str = stringify!($ty);
                const KEYS: &'static [&'static str] = &[$(crate::fields::read_fields!(@key $field $($key)?)),*];
                const DENY_UNKNOWN: bool = $deny;
                const DEFAULTED: u32 = {
                    let defaulted = [$(crate::fields::read_fields!(@defaulted $($default)?)),*];
                    assert!(defaulted.len() <= 32, "read_fields! takes 32 fields at most");
                    let mut bits = 0;
                    let mut i = 0;
                    while i < defaulted.len() {
                        if defaulted[i] {
                            bits |= 1 << i;
                        }
                        i += 1;
                    }
                    bits
                };
                type Slots = Slots;

                #[cfg_attr(arbiter_size, optimize(size))]
                fn read<'de, D: serde::Deserializer<'de>>(slots: &mut Slots, index: usize, d: D) -> Result<(), D::Error> {
                    let mut i = 0;
                    $(
                        if index == i {
                            slots.$field = Some($read(d)?);
                            return Ok(());
                        }
                        i += 1;
                    )*
                    unreachable!("field {index} of {i}")
                }

                #[cfg_attr(arbiter_size, optimize(size))]
                fn finish(slots: Slots) -> $ty {
                    $ty {
                        $($field: match slots.$field {
                            Some(value) => value,
                            None => crate::fields::read_fields!(@absent $($default $(= $value)?)?),
                        },)*
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for $ty {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                    crate::fields::read(d)
                }
            }
        };
    };
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $key:literal) => { $key };
    (@defaulted) => { false };
    (@defaulted default) => { true };
    (@absent default) => { Default::default() };
    (@absent default = $value:expr) => { $value };
    (@absent) => { unreachable!("a field without a default is absent") };
}
pub(crate) use read_fields;

/// A `T` read as its derived reader read it. The visitor only fills the slots, and the shared
/// loops refuse an absent field, so that each struct's building (`finish`) and its slots' drop
/// are written once, not once per form, and the visitor's value (`()`) moves nothing.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn read<'de, D: Deserializer<'de>, T: Fields>(d: D) -> Result<T, D::Error> {
    let mut slots = T::Slots::default();
    d.deserialize_struct(T::NAME, T::KEYS, Table::<T>(&mut slots))?;
    Ok(T::finish(slots))
}

struct Table<'s, T: Fields>(&'s mut T::Slots);

impl<'de, T: Fields> Visitor<'de> for Table<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        expecting(f, T::NAME)
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let slots = self.0;
        elements(&mut seq, T::NAME, T::KEYS.len(), T::DEFAULTED, &mut |seq, index| {
            seq.next_element_seed(Slot::<T> { slots, index })
        })
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let slots = self.0;
        let key = Key {
            keys: T::KEYS,
            deny_unknown: T::DENY_UNKNOWN,
        };
        entries(&mut map, key, T::DEFAULTED, &mut |map, index| {
            map.next_value_seed(Slot::<T> { slots, index })
        })
    }
}

/// The derive's expectation, `struct NAME`: apart from [`Table`], so that its one copy per struct
/// is a call.
fn expecting(f: &mut fmt::Formatter, name: &str) -> fmt::Result {
    f.write_str("struct ")?;
    f.write_str(name)
}

/// A struct's part of a loop: field `index` read from the source.
pub(crate) type Step<'s, S, T, E> = dyn FnMut(&mut S, usize) -> Result<T, E> + 's;

/// The fields in order, each by `element` (`None` when the array has ended), as the derive reads
/// an array: apart from [`Table`], so that its one copy per struct stays small. A field missing
/// at the end is refused unless it has a default, so none is absent after.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn elements<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    name: &'static str,
    len: usize,
    defaulted: u32,
    element: &mut Step<'_, A, Option<()>, A::Error>,
) -> Result<(), A::Error> {
    for index in 0..len {
        if element(seq, index)?.is_none() && defaulted & 1 << index == 0 {
            return Err(A::Error::invalid_length(index, &Length(name, len)));
        }
    }
    Ok(())
}

/// The entries, each known key's value by `value`, as the derive reads an object: unknown keys
/// skipped or refused, a repeated one refused, then the first field in order that is absent
/// without a default refused.
#[cfg_attr(arbiter_size, optimize(size))]
pub(crate) fn entries<'de, A: MapAccess<'de>>(
    map: &mut A,
    key: Key,
    defaulted: u32,
    value: &mut Step<'_, A, (), A::Error>,
) -> Result<(), A::Error> {
    let mut seen = 0u32;
    while let Some(found) = map.next_key_seed(key)? {
        let Some(index) = found else {
            map.next_value::<IgnoredAny>()?;
            continue;
        };
        if seen & 1 << index != 0 {
            return Err(A::Error::duplicate_field(key.keys[index]));
        }
        seen |= 1 << index;
        value(map, index)?;
    }
    // The bits past the last field are set too, and index no key.
    let absent = !(seen | defaulted);
    match key.keys.get(absent.trailing_zeros() as usize) {
        Some(key) => Err(A::Error::missing_field(key)),
        None => Ok(()),
    }
}

/// The derive's expectation of an array too short: `struct NAME with N elements`.
struct Length(&'static str, usize);

impl Expected for Length {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let plural = if self.1 == 1 { "" } else { "s" };
        write!(f, "struct {} with {} element{plural}", self.0, self.1)
    }
}

/// One field's value, read into its slot.
struct Slot<'s, T: Fields> {
    slots: &'s mut T::Slots,
    index: usize,
}

impl<'de, T: Fields> DeserializeSeed<'de> for Slot<'_, T> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        T::read(self.slots, self.index, d)
    }
}

/// A key, read as the derive's field identifier: its field's index, `None` for an unknown key
/// to skip.
#[derive(Clone, Copy)]
pub(crate) struct Key {
    pub(crate) keys: &'static [&'static str],
    pub(crate) deny_unknown: bool,
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Option<usize>;

    #[cfg_attr(arbiter_size, optimize(size))]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for Key {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }

    #[cfg_attr(arbiter_size, optimize(size))]
    fn visit_str<E: Error>(self, name: &str) -> Result<Option<usize>, E> {
        match self.keys.iter().position(|key| *key == name) {
            Some(index) => Ok(Some(index)),
            None if self.deny_unknown => Err(E::unknown_field(name, self.keys)),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use crate::nantong::{FinishedDeal, Meld, Nantong};
    use crate::trax::{Trax, Variant};
    use crate::tripletriad::{
        dealt_hands, Card, Hands, Match, MatchConfig, Move, Owned, Placed, Player, Setup, Swap, Wall,
    };
    use crate::{Game, Rng};
    use core::fmt;

    /// What `text` reads to, as `Debug` text, or the error's text.
    fn read<T: serde::de::DeserializeOwned + core::fmt::Debug>(text: &str) -> String {
        match serde_json::from_str::<T>(text) {
            Ok(value) => alloc::format!("{value:?}"),
            Err(e) => e.to_string(),
        }
    }

    /// What `text` reads to, written back as JSON, or the error's text.
    fn written<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) -> String {
        match serde_json::from_str::<T>(text) {
            Ok(value) => serde_json::to_string(&value).unwrap(),
            Err(e) => e.to_string(),
        }
    }

    const NINE: &str = "[null,null,null,null,null,null,null,null,null]";

    fn cases() -> Vec<(&'static str, String)> {
        let card = r#"{"name":"a","ranks":[1,2,3,4]}"#;
        let hands = alloc::format!(r#"{{"blue":[{card}],"red":[]}}"#);
        let setup = alloc::format!(r#"{{"board":{NINE},"hands":{hands},"to_move":"red"}}"#);
        let all = |text: &str| text.replace("NINE", NINE).replace("CARD", card);
        let mut cases: Vec<(&str, String)> = Vec::new();
        let mut case = |ty: &'static str, text: String| cases.push((ty, text));
        for text in [
            setup.clone(),
            all(r#"{"to_move":"blue","hands":{},"board":NINE,"unknown":[1,{"a":2}]}"#),
            all(
                r#"{"rules":{"same":true},"elements":[null,"fire",null,null,null,null,null,null,"ice"],"walls":[{"cell":0,"side":"top","label":">5"}],"board":[{"card":CARD,"owner":"red"},null,null,null,null,null,null,null,null],"hands":{"blue":[CARD],"red":[CARD]},"to_move":"blue","chaos_draws":[1,0],"swap":{"blue":0,"red":1}}"#,
            ),
            all(r#"[{},NINE,[],NINE,{},"blue",[3],{"blue":1,"red":0}]"#),
            all(r#"[{},NINE,[],NINE,{},"blue"]"#),
            all(r#"[{},NINE,[],NINE,{}]"#),
            all("[]"),
            all(r#"[{},NINE,[],NINE,{},"blue",[3],null,5]"#),
            "{}".into(),
            all(r#"{"board":NINE}"#),
            all(r#"{"board":NINE,"hands":{}}"#),
            all(r#"{"board":NINE,"board":NINE}"#),
            all(r#"{"rules":{},"rules":{}}"#),
            all(r#"{"board":[null],"hands":{}}"#),
            all(r#"{"to_move":"green"}"#),
            all(r#"{"hands":[[CARD],[],[]]}"#),
            all(r#"{"swap":{"blue":0,"red":1,"green":2}}"#),
            all(r#"{"swap":[0]}"#),
            all(r#"{"swap":{"blue":0}}"#),
            all(r#"{"walls":[{"cell":0,"side":"top"}]}"#),
            all(r#"{"walls":[{"cell":0,"side":"top","label":"5","colour":1}]}"#),
            all(r#"{"walls":[[0,"left","=3"]],"board":NINE,"hands":{},"to_move":"red"}"#),
            all(r#"{"walls":[[0,"left"]]}"#),
            all(r#"{"board":[{"card":CARD}]}"#),
            all(r#"{"board":[{"owner":"red","card":CARD,"owner":"blue"}]}"#),
            all(r#"{"board":[[CARD,"red"],["x"]]}"#),
            all(
                r#"{"board":NINE,"hands":{"blue":[CARD],"red":[["b",[1,2,3,4],"fire",7,3,"beastman"]]},"to_move":"red"}"#,
            ),
            "5".into(),
            "\"setup\"".into(),
            "null".into(),
            "{".into(),
            "[".into(),
            all(r#"{"board":NINE,"hands":{},"to_move":"red"} x"#),
            all(r#"{"board":NINE,"hands":{},"to_move":"red",}"#),
            all(r#"{"board":NINE "hands":{}}"#),
            all(r#"{"board":NINE,"hands":{},"to_move":"red","chaos_draws":[1,2,]}"#),
            all(r#"{"board":NINE,"hands":{},"to_move":"red","chaos_draws":[1,-2]}"#),
            all(r#"{"board":NINE,"hands":{"blue":[{"name":"a"}]}}"#),
        ] {
            case("Setup", text);
        }
        for text in [
            card.to_string(),
            r#"{"name":"a","ranks":[1,2,3,4],"element":"fire","power":4000000000,"level":10,"type":"garlean","x":1}"#
                .into(),
            r#"["a",[1,2,3,4],"fire",1,2,"scion"]"#.into(),
            r#"["a",[1,2,3,4]]"#.into(),
            r#"["a"]"#.into(),
            r#"{"name":"a"}"#.into(),
            r#"{"ranks":[1,2,3,4]}"#.into(),
            r#"{"name":"a","ranks":[1,2,3]}"#.into(),
            r#"{"name":"a","ranks":[1,2,3,4],"type":"moogle"}"#.into(),
            r#"{"name":"a","ranks":[1,2,3,4],"card_type":"moogle"}"#.into(),
            r#"{"name":"a","ranks":[1,2,3,4],"level":256}"#.into(),
            r#"{"name":"a","name":"b"}"#.into(),
            r#"{"name":1}"#.into(),
            r#"{"name":"a","ranks":[1,2,3,4],"power":-1}"#.into(),
            r#"{"name":"a","ranks":[1,2,3,4],"power":1.5}"#.into(),
        ] {
            case("Card", text);
        }
        for text in [
            alloc::format!(r#"{{"card":{card},"owner":"blue"}}"#),
            alloc::format!(r#"[{card},"red"]"#),
            alloc::format!(r#"[{card}]"#),
            r#"{"owner":"blue"}"#.into(),
            alloc::format!(r#"{{"card":{card}}}"#),
            "[]".into(),
        ] {
            case("Placed", text);
        }
        for text in [
            "{}",
            "[]",
            "[[]]",
            r#"{"red":[],"x":0}"#,
            r#"{"blue":[],"blue":[]}"#,
            "[[],[],[]]",
            "true",
        ] {
            case("Hands", text.into());
        }
        for text in [
            r#"{"blue":1,"red":2}"#,
            "[1,2]",
            "[1]",
            "[]",
            r#"{"red":2}"#,
            r#"{"blue":1}"#,
            r#"{"blue":1,"red":2,"x":3}"#,
            r#"{"blue":1,"blue":2}"#,
            r#"{"blue":300,"red":2}"#,
        ] {
            case("Swap", text.into());
        }
        for text in [
            r#"{"cell":8,"side":"right","label":">5"}"#,
            r#"[8,"bottom","<7"]"#,
            r#"[8,"bottom"]"#,
            r#"{"cell":8,"side":"right"}"#,
            r#"{"side":"right","label":">5"}"#,
            r#"{"cell":8,"side":"right","label":">5","x":1}"#,
            r#"{"cell":8,"cell":8}"#,
            r#"{"cell":8,"side":"middle","label":">5"}"#,
            r#"{"cell":8,"side":"right","label":"Z"}"#,
        ] {
            case("Wall", text.into());
        }
        let config = MatchConfig {
            round_limit: Some(3),
            owned: Some(Owned { blue: 20, red: 30 }),
            first: Some(Player::Red),
            ..MatchConfig::default()
        };
        let hands = dealt_hands(&config, 7).unwrap();
        let mut played = Match::new(config.clone(), hands.blue, hands.red, 7).unwrap();
        let first = played.game().legal_moves()[0];
        played.play(first).unwrap();
        let config = serde_json::to_string(&config).unwrap();
        let record = serde_json::to_string(&played).unwrap();
        for (ty, object) in [
            ("MatchConfig", config),
            ("Match", record),
            ("Owned", r#"{"blue":1,"red":2}"#.into()),
        ] {
            for text in mutations(&object) {
                case(ty, text);
            }
        }
        let mut trax = Trax::new(Variant::EightByEight);
        let mut nantong = Nantong::new(5);
        for _ in 0..3 {
            trax.play(trax.legal_moves()[0]).unwrap();
            nantong.play(nantong.legal_moves()[0]).unwrap();
        }
        let trax = serde_json::to_string(&trax).unwrap();
        let nantong = serde_json::to_string(&nantong).unwrap();
        let deal = r#"{"indicators":["2s","3m"],"dealer":0,"win":null,"players":[{"hand":["2m","2m","2m","6s","6s","6s","1m","4m","7m","1s","4s","7s","1c","4c","7c","2c","5c","8c","9c","9c","T","W"]},{"hand":["2s","2s","2s","2m","5m","8m","3s","5s","8s","2c","5c","8c","3c","6c","9c","1m","4m","7m","1s","4s","7s","R"]},{"hand":["5m","5m","6m","6m","8m","8m","9m","9m","1s","1s","4s","4s","7s","7s","1c","1c","4c","4c","7c","7c","3c","3c"],"melds":[],"ready":false}]}"#;
        for (ty, object) in [
            ("Trax", trax),
            ("Nantong", nantong.clone()),
            ("FinishedDeal", deal.into()),
            ("Rng", r#"{"state":"18446744073709551615"}"#.into()),
            ("Meld", r#"{"type":"pong","card":"5m"}"#.into()),
            ("Move", r#"{"card":4,"cell":8}"#.into()),
        ] {
            for text in mutations(&object) {
                case(ty, text);
            }
        }
        let player = r#"{"hand":["5m","5m","6m","6m","8m","8m","9m","9m","1s","1s","4s","4s","7s","7s","1c","1c","4c","4c","7c","7c","3c","3c"],"melds":[],"ready":false}"#;
        for text in mutations(player) {
            case("FinishedDeal", deal.replace(player, &text));
        }
        let hand = r#"["2m","2m","2m","6s","6s","6s","1m","4m","7m","1s","4s","7s","1c","4c","7c","2c","5c","8c","9c","9c","T","W"]"#;
        let won = deal.replace(r#""win":null"#, r#""win":WIN"#).replace(hand, r#"["2m","2m","2m","6s","6s","6s","1m","4m","7m","1s","4s","7s","1c","4c","7c","2c","5c","8c","9c","9c","1m"]"#);
        for text in mutations(
            r#"{"seat":0,"card":"1m","source":"self_draw","heavenly":false,"dealer_first_discard":false,"last_card":true}"#,
        ) {
            case("FinishedDeal", won.replace("WIN", &text));
        }
        let actions = &nantong[nantong.find(r#""actions":"#).unwrap()..];
        for played in [
            r#"[{"seat":1}]"#,
            r#"[["x"]]"#,
            "[[1]]",
            r#"[{"seat":0,"action":"pass","x":1}]"#,
            "[5]",
        ] {
            case(
                "Nantong",
                nantong.replace(actions, &alloc::format!(r#""actions":{played}}}"#)),
            );
        }
        for text in [
            r#"[{},"random",[],"own_colours",1,"one","blue",30,20,[3,4],"ff8"]"#,
            "[{}]",
            "[]",
        ] {
            case("MatchConfig", text.into());
        }
        cases
    }

    /// `object` (JSON text) itself and changed: each key left out, its value a text that no field
    /// takes, an unknown key added, and as an array of its values (in the text's order), whole and
    /// shortened by one.
    fn mutations(object: &str) -> Vec<String> {
        let value: serde_json::Value = serde_json::from_str(object).unwrap();
        let map = value.as_object().unwrap();
        let mut texts = alloc::vec![object.to_string()];
        for key in map.keys() {
            let mut without = map.clone();
            without.remove(key);
            texts.push(serde_json::to_string(&without).unwrap());
            let mut wrong = map.clone();
            wrong.insert(key.clone(), "?".into());
            texts.push(serde_json::to_string(&wrong).unwrap());
        }
        let mut unknown = map.clone();
        unknown.insert("zz".into(), 1.into());
        texts.push(serde_json::to_string(&unknown).unwrap());
        texts.push(alloc::format!(
            "{},\"{}\":0}}",
            &object[..object.len() - 1],
            map.keys().next().unwrap()
        ));
        let Values(values) = serde_json::from_str(object).unwrap();
        texts.push(serde_json::to_string(&values).unwrap());
        texts.push(serde_json::to_string(&values[..values.len() - 1]).unwrap());
        texts
    }

    /// An object's values in the text's order (`serde_json::Map` sorts its keys).
    struct Values(Vec<serde_json::Value>);

    impl<'de> serde::Deserialize<'de> for Values {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Values, D::Error> {
            struct InOrder;
            impl<'de> serde::de::Visitor<'de> for InOrder {
                type Value = Values;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Values, A::Error> {
                    let mut values = Vec::new();
                    while let Some((_, value)) = map.next_entry::<String, serde_json::Value>()? {
                        values.push(value);
                    }
                    Ok(Values(values))
                }
            }
            d.deserialize_map(InOrder)
        }
    }

    fn read_as(ty: &str, text: &str) -> String {
        match ty {
            "Setup" => read::<Setup>(text),
            "Card" => read::<Card>(text),
            "Placed" => read::<Placed>(text),
            "Hands" => read::<Hands>(text),
            "Swap" => read::<Swap>(text),
            "MatchConfig" => read::<MatchConfig>(text),
            "Owned" => read::<Owned>(text),
            "Match" => written::<Match>(text),
            "Rng" => read::<Rng>(text),
            "Meld" => read::<Meld>(text),
            "Move" => read::<Move>(text),
            "Trax" => written::<Trax>(text),
            "Nantong" => written::<Nantong>(text),
            "FinishedDeal" => written::<FinishedDeal>(text),
            _ => read::<Wall>(text),
        }
    }

    /// Every case reads as the derived readers read it: `fields_derived.txt` was written by them
    /// before they were replaced (a line a case: the type, the text, what it read or the error).
    #[test]
    fn print_derived() {
        for (ty, text) in cases() {
            std::println!("{ty}\t{text}\t{}", read_as(ty, &text));
        }
    }

    #[test]
    fn read_as_derived() {
        let pinned: Vec<&str> = include_str!("fields_derived.txt").lines().collect();
        let cases = cases();
        assert_eq!(pinned.len(), cases.len());
        for ((ty, text), line) in cases.iter().zip(pinned) {
            assert_eq!(alloc::format!("{ty}\t{text}\t{}", read_as(ty, text)), line);
        }
    }
}
