//! The package's JSON writer: a serde `Serializer` into compact JSON text, which `to_js` hands to
//! `JSON.parse`. Its integers beyond ±(2^53 - 1) (random generator states, large seeds) are
//! written as decimal strings, which the core reads back, so that a save round-trips exactly
//! through JavaScript numbers. Why not `serde_json::to_string`: its serializer is generic over its
//! writer and formatter, so each derived serialiser of the core got its own copy of the
//! punctuation and key writing (issue #38); here they are non-generic functions, and the generic
//! methods only hand each value on.

use core::fmt;
use serde::ser::{self, Impossible, Serialize};

use crate::convert::MAX_SAFE_INTEGER;

/// Why a value could not be written (a serialiser of the core refused, or a map key that JSON
/// cannot hold). Boxed, so that every derived serialiser moves one word for each `?` (a `String`
/// is three: 1.5 KiB more of Triple Triad alone's module, gzipped).
#[allow(clippy::box_collection)]
pub(crate) struct Error(Box<String>);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl ser::StdError for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Error {
        Error(Box::new(message.to_string()))
    }
}

type Result<T = (), E = Error> = core::result::Result<T, E>;

/// `value` as compact JSON text, its wide integers quoted.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let mut writer = Writer(String::new());
    value.serialize(&mut writer)?;
    Ok(writer.0)
}

/// The text written so far.
pub(crate) struct Writer(String);

impl Writer {
    #[inline(never)]
    fn raw(&mut self, s: &str) {
        self.0.push_str(s);
    }

    /// A comma before every element but the first.
    #[inline(never)]
    fn comma(&mut self, first: &mut bool) {
        if !core::mem::take(first) {
            self.0.push(',');
        }
    }

    /// A struct's field name and its colon, with the comma before it.
    #[inline(never)]
    fn field(&mut self, first: &mut bool, key: &str) {
        self.comma(first);
        self.string(key);
        self.0.push(':');
    }

    /// `{"variant":`, which an enum's newtype, tuple or struct variant opens with.
    #[inline(never)]
    fn variant(&mut self, variant: &str) {
        self.0.push('{');
        self.string(variant);
        self.0.push(':');
    }

    #[inline(never)]
    fn unsigned(&mut self, n: u64) {
        self.integer(false, n, false);
    }

    #[inline(never)]
    fn signed(&mut self, n: i64) {
        self.integer(n < 0, n.unsigned_abs(), false);
    }

    /// An integer as a map's key: always quoted.
    #[inline(never)]
    fn key_unsigned(&mut self, n: u64) {
        self.integer(false, n, true);
    }

    #[inline(never)]
    fn key_signed(&mut self, n: i64) {
        self.integer(n < 0, n.unsigned_abs(), true);
    }

    /// An integer by its sign and magnitude, in quotes past what a JavaScript number holds (or
    /// always, for a key).
    fn integer(&mut self, negative: bool, magnitude: u64, quoted: bool) {
        let wide = quoted || magnitude > MAX_SAFE_INTEGER;
        if wide {
            self.0.push('"');
        }
        if negative {
            self.0.push('-');
        }
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut rest = magnitude;
        loop {
            i -= 1;
            digits[i] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        for &d in &digits[i..] {
            self.0.push(d as char);
        }
        if wide {
            self.0.push('"');
        }
    }

    /// A float as `serde_json` writes it (the shortest text that reads back; `null` when it is
    /// not finite, as JSON has no infinities).
    #[inline(never)]
    fn float(&mut self, v: f64) {
        match serde_json::to_string(&v) {
            Ok(text) => self.0.push_str(&text),
            Err(_) => self.0.push_str("null"),
        }
    }

    /// A string, quoted and escaped as JSON wants.
    #[inline(never)]
    fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.0.reserve(s.len() + 2);
        self.0.push('"');
        for c in s.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                '\n' => self.0.push_str("\\n"),
                '\r' => self.0.push_str("\\r"),
                '\t' => self.0.push_str("\\t"),
                '\u{8}' => self.0.push_str("\\b"),
                '\u{c}' => self.0.push_str("\\f"),
                '\0'..='\u{1f}' => {
                    self.0.push_str("\\u00");
                    self.0.push(HEX[c as usize >> 4] as char);
                    self.0.push(HEX[c as usize & 15] as char);
                }
                _ => self.0.push(c),
            }
        }
        self.0.push('"');
    }
}

/// Methods of `Serializer` that write a number as its widest kind.
macro_rules! widened {
    ($($name:ident($ty:ty) => $method:ident($wide:ty);)*) => {$(
        fn $name(self, v: $ty) -> Result {
            self.$method(<$wide>::from(v));
            Ok(())
        }
    )*};
}

impl<'w> ser::Serializer for &'w mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'w>;
    type SerializeTuple = Compound<'w>;
    type SerializeTupleStruct = Compound<'w>;
    type SerializeTupleVariant = Compound<'w>;
    type SerializeMap = Compound<'w>;
    type SerializeStruct = Compound<'w>;
    type SerializeStructVariant = Compound<'w>;

    fn serialize_bool(self, v: bool) -> Result {
        self.raw(if v { "true" } else { "false" });
        Ok(())
    }

    widened! {
        serialize_i8(i8) => signed(i64);
        serialize_i16(i16) => signed(i64);
        serialize_i32(i32) => signed(i64);
        serialize_i64(i64) => signed(i64);
        serialize_u8(u8) => unsigned(u64);
        serialize_u16(u16) => unsigned(u64);
        serialize_u32(u32) => unsigned(u64);
        serialize_u64(u64) => unsigned(u64);
        serialize_f32(f32) => float(f64);
        serialize_f64(f64) => float(f64);
    }

    fn serialize_char(self, v: char) -> Result {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result {
        ser::Serializer::collect_seq(self, v)
    }

    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.raw("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.variant(variant);
        value.serialize(&mut *self)?;
        self.raw("}");
        Ok(())
    }

    /// Every list (`Vec`, slices) comes here: its own loop, so that each element type's copy is
    /// the loop and a call, not serde's default through [`Compound`] and `serialize_seq`.
    fn collect_seq<I>(self, items: I) -> Result
    where
        I: IntoIterator<Item: Serialize>,
    {
        self.raw("[");
        let mut first = true;
        for item in items {
            self.comma(&mut first);
            item.serialize(&mut *self)?;
        }
        self.raw("]");
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'w>> {
        Ok(Compound::open(self, "[", "]"))
    }

    fn serialize_tuple(self, _len: usize) -> Result<Compound<'w>> {
        Ok(Compound::open(self, "[", "]"))
    }

    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'w>> {
        Ok(Compound::open(self, "[", "]"))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w>> {
        self.variant(variant);
        Ok(Compound::open(self, "[", "]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'w>> {
        Ok(Compound::open(self, "{", "}"))
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Compound<'w>> {
        Ok(Compound::open(self, "{", "}"))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'w>> {
        self.variant(variant);
        Ok(Compound::open(self, "{", "}}"))
    }
}

/// An array or object being written: its elements or entries, then `close`.
pub(crate) struct Compound<'w> {
    writer: &'w mut Writer,
    first: bool,
    close: &'static str,
}

impl<'w> Compound<'w> {
    fn open(writer: &'w mut Writer, open: &str, close: &'static str) -> Compound<'w> {
        writer.raw(open);
        Compound {
            writer,
            first: true,
            close,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.writer.comma(&mut self.first);
        value.serialize(&mut *self.writer)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result {
        self.writer.field(&mut self.first, key);
        value.serialize(&mut *self.writer)
    }

    fn close(self) -> Result {
        self.writer.raw(self.close);
        Ok(())
    }
}

/// The sequence-like compounds: arrays, tuples and tuple variants.
macro_rules! elements {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
                self.element(value)
            }

            fn end(self) -> Result {
                self.close()
            }
        }
    )*};
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// The object-like compounds: structs and struct variants.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
                self.field(key, value)
            }

            fn end(self) -> Result {
                self.close()
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.writer.comma(&mut self.first);
        key.serialize(Key(&mut *self.writer))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.writer.raw(":");
        value.serialize(&mut *self.writer)
    }

    /// What `#[serde(flatten)]` calls for each field: one copy per field type, not two.
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(&mut self, key: &K, value: &V) -> Result {
        self.writer.comma(&mut self.first);
        key.serialize(Key(&mut *self.writer))?;
        self.writer.raw(":");
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result {
        self.close()
    }
}

/// A map's key: a string, as JSON wants; numbers and characters quoted, as `serde_json` does.
struct Key<'w>(&'w mut Writer);

/// The key's methods that refuse: JSON's keys are strings.
macro_rules! refused {
    ($($name:ident($($ty:ty),*) -> $out:ty;)*) => {$(
        fn $name(self, $(_: $ty),*) -> Result<$out> {
            Err(key_must_be_a_string())
        }
    )*};
}

/// Methods of the key's `Serializer` that write a number, always quoted.
macro_rules! quoted {
    ($($name:ident($ty:ty) => $method:ident($wide:ty);)*) => {$(
        fn $name(self, v: $ty) -> Result {
            self.0.$method(<$wide>::from(v));
            Ok(())
        }
    )*};
}

#[cold]
fn key_must_be_a_string() -> Error {
    Error(Box::new("key must be a string".into()))
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result {
        self.0.string(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result {
        self.0.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_bool(self, v: bool) -> Result {
        self.0.string(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.0.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result {
        value.serialize(self)
    }

    quoted! {
        serialize_i8(i8) => key_signed(i64);
        serialize_i16(i16) => key_signed(i64);
        serialize_i32(i32) => key_signed(i64);
        serialize_i64(i64) => key_signed(i64);
        serialize_u8(u8) => key_unsigned(u64);
        serialize_u16(u16) => key_unsigned(u64);
        serialize_u32(u32) => key_unsigned(u64);
        serialize_u64(u64) => key_unsigned(u64);
    }

    refused! {
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Impossible<(), Error>;
        serialize_tuple(usize) -> Impossible<(), Error>;
        serialize_tuple_struct(&'static str, usize) -> Impossible<(), Error>;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Impossible<(), Error>;
        serialize_map(Option<usize>) -> Impossible<(), Error>;
        serialize_struct(&'static str, usize) -> Impossible<(), Error>;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Impossible<(), Error>;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::to_string;
    use crate::convert::MAX_SAFE_INTEGER;
    use arbiter_core::nantong::Nantong;
    use arbiter_core::trax::{Trax, Variant};
    use arbiter_core::tripletriad::{Match, TripleTriad};
    use arbiter_core::Game;
    use serde::Serialize;
    use serde_json::Value;
    use std::collections::BTreeMap;

    /// `serde_json`'s value of `v`, its integers past ±(2^53 - 1) turned into decimal strings.
    fn expected<T: Serialize>(v: &T) -> Value {
        fn quote_wide(v: Value) -> Value {
            match v {
                Value::Number(n)
                    if n.as_u64()
                        .map_or(n.as_i64().is_some_and(|i| i.unsigned_abs() > MAX_SAFE_INTEGER), |u| {
                            u > MAX_SAFE_INTEGER
                        }) =>
                {
                    Value::String(n.to_string())
                }
                Value::Array(a) => Value::Array(a.into_iter().map(quote_wide).collect()),
                Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, quote_wide(v))).collect()),
                other => other,
            }
        }
        quote_wide(serde_json::to_value(v).unwrap())
    }

    /// Ours is JSON that means what `serde_json` writes, wide integers quoted.
    fn agrees<T: Serialize>(v: &T) {
        let ours = to_string(v).unwrap();
        let read: Value = serde_json::from_str(&ours).unwrap_or_else(|e| panic!("{e}: {ours}"));
        assert_eq!(read, expected(v), "{ours}");
    }

    #[test]
    fn the_games_saves_and_observations_are_written_as_serde_json_writes_them() {
        let mut m = Match::from_preset("ff8", 7).unwrap();
        agrees(&m);
        for _ in 0..3 {
            let mv = m.game().legal_moves()[0];
            m.play(mv).unwrap();
            agrees(&m);
            agrees(&m.game().last_move());
            agrees(&m.observation(m.game().next_player()));
        }
        let mut g = TripleTriad::from_preset("ffxiv", 3).unwrap();
        agrees(&g);
        g.play(g.legal_moves()[0]).unwrap();
        agrees(&g);
        agrees(&g.last_move());
        let mut t = Trax::new(Variant::Unbounded);
        for _ in 0..6 {
            t.play(t.legal_moves()[0]).unwrap();
        }
        agrees(&t);
        let mut n = Nantong::new(5);
        for _ in 0..20 {
            if let Some(&a) = n.legal_moves().first() {
                n.play(a).unwrap();
            }
        }
        agrees(&n);
        agrees(&arbiter_core::tripletriad::describe());
    }

    #[test]
    fn integers_past_two_to_the_53_are_quoted_and_nothing_else() {
        #[derive(Serialize)]
        struct Wide {
            a: u64,
            b: (i64, u64, i64),
            c: &'static str,
            d: String,
            e: f64,
            f: u64,
            g: BTreeMap<u64, i8>,
            h: Option<()>,
            i: char,
        }
        let v = Wide {
            a: 1 << 53,
            b: (-(1 << 53), MAX_SAFE_INTEGER, -1),
            c: "9007199254740993",
            d: "\"18446744073709551615\u{1}\n\t\\é".into(),
            e: 1.5e300,
            f: u64::MAX,
            g: BTreeMap::from([(u64::MAX, -3), (5, 4)]),
            h: None,
            i: '"',
        };
        assert_eq!(
            to_string(&v).unwrap(),
            r#"{"a":"9007199254740992","b":["-9007199254740992",9007199254740991,-1],"c":"9007199254740993","d":"\"18446744073709551615\u0001\n\t\\é","e":1.5e+300,"f":"18446744073709551615","g":{"5":4,"18446744073709551615":-3},"h":null,"i":"\""}"#
        );
        agrees(&v);
    }

    #[test]
    fn enums_are_written_as_serde_json_writes_them() {
        #[derive(Serialize)]
        enum E {
            Unit,
            New(u8),
            Tuple(u8, String),
            Struct { x: i8, y: Vec<u8> },
        }
        let all = [
            E::Unit,
            E::New(1),
            E::Tuple(2, "t".into()),
            E::Struct { x: -3, y: vec![4, 5] },
        ];
        assert_eq!(
            to_string(&all).unwrap(),
            r#"["Unit",{"New":1},{"Tuple":[2,"t"]},{"Struct":{"x":-3,"y":[4,5]}}]"#
        );
        assert_eq!(to_string(&all).unwrap(), serde_json::to_string(&all).unwrap());
        assert_eq!(to_string(&[f64::NAN, -0.0, 0.1]).unwrap(), "[null,-0.0,0.1]");
    }

    #[test]
    fn a_key_that_is_no_string_or_number_is_refused() {
        let m = BTreeMap::from([((1, 2), 3)]);
        assert_eq!(to_string(&m).unwrap_err().to_string(), "key must be a string");
    }
}
