//! Values across the boundary: strings, numbers and plain objects in and out, and every failure
//! thrown as an `ArbiterError`. Everything that JavaScript passes is checked here, so that no
//! input reaches a panic: on `wasm32-unknown-unknown` a panic aborts and poisons the instance.

use arbiter_core::{shorten, Error, ErrorKind, MESSAGE_LIMIT, QUOTE_LIMIT};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// A result whose error is the `ArbiterError` to throw.
pub type Js<T> = Result<T, JsValue>;

#[wasm_bindgen(raw_module = "../js/error.js")]
extern "C" {
    /// The package's one error class: imported rather than defined here so that the Node and
    /// browser entries export the very class that the glue throws.
    type ArbiterError;
    #[wasm_bindgen(constructor)]
    fn new(code: &str, message: &str) -> ArbiterError;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = String, catch)]
    fn js_string(value: &JsValue) -> Result<String, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = keys)]
    pub fn object_keys(object: &JsValue) -> Vec<String>;
    #[wasm_bindgen(js_namespace = Reflect, js_name = get)]
    pub fn property(object: &JsValue, key: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = Array, js_name = isArray)]
    pub fn is_array(value: &JsValue) -> bool;
    /// A JavaScript string, measured before it is copied into the module's memory.
    #[wasm_bindgen(js_name = String)]
    type JsText;
    #[wasm_bindgen(method, getter)]
    fn length(this: &JsText) -> u32;
}

/// The longest text the package reads, in UTF-16 code units: far beyond any save or record (a
/// Trax game at its largest tile limit is about 300 KB), and small enough that copying it into the
/// module's memory (up to three bytes a unit) cannot exhaust it, which would trap.
pub const TEXT_LIMIT: u32 = 1 << 24;

/// An `ArbiterError` with `code`; its message is cut to the length that the C library keeps.
pub fn throw(code: &str, message: impl AsRef<str>) -> JsValue {
    ArbiterError::new(code, &shorten(message.as_ref(), MESSAGE_LIMIT)).into()
}

/// The text of a JavaScript string, `None` for any other value; a string over [`TEXT_LIMIT`] is
/// refused before it is copied.
pub fn string(v: &JsValue) -> Js<Option<String>> {
    if !v.is_string() {
        return Ok(None);
    }
    let length = v.unchecked_ref::<JsText>().length();
    if length > TEXT_LIMIT {
        return Err(throw(
            ErrorKind::LimitExceeded.name(),
            format!("a text of {length} characters is longer than the engine reads (at most {TEXT_LIMIT})"),
        ));
    }
    Ok(v.as_string())
}

/// A `BAD_ARGUMENT` error: a JavaScript value of the wrong type or out of range.
pub fn bad_argument(message: impl AsRef<str>) -> JsValue {
    throw(ErrorKind::BadArgument.name(), message)
}

/// Core errors become `ArbiterError`s with the core's kind and words.
pub trait OrThrow<T> {
    /// The value, or the error to throw.
    fn js(self) -> Js<T>;
}

impl<T, E: Into<Error>> OrThrow<T> for Result<T, E> {
    fn js(self) -> Js<T> {
        self.map_err(|e| thrown(e.into()))
    }
}

/// The `ArbiterError` of a core error: apart from [`OrThrow::js`], which has a copy per result type.
#[inline(never)]
fn thrown(e: Error) -> JsValue {
    throw(e.kind().name(), e.message())
}

/// A short account of a value for messages: primitives as JavaScript prints them, strings
/// quoted (a long one by its length alone, never copied whole), anything else by its type.
pub fn describe(v: &JsValue) -> String {
    if v.is_string() {
        let length = v.unchecked_ref::<JsText>().length();
        return match v.as_string().filter(|_| length as usize <= QUOTE_LIMIT) {
            Some(s) => crate::write::to_string(&s).unwrap_or(s),
            None => format!("a string of {length} characters"),
        };
    }
    let primitive = v.is_undefined() || v.is_null() || v.as_f64().is_some() || v.as_bool().is_some();
    if v.is_bigint() {
        return js_string(v).map(|s| s + "n").unwrap_or_default();
    }
    if primitive {
        return js_string(v).unwrap_or_default();
    }
    match v.js_typeof().as_string().as_deref() {
        Some("object") => "an object".into(),
        Some(t) => format!("a {t}"),
        None => "a value of unknown type".into(),
    }
}

/// A string argument.
pub fn text(v: &JsValue, what: &str) -> Js<String> {
    string(v)?.ok_or_else(|| bad_argument(format!("{what} must be a string, got {}", describe(v))))
}

/// An integer argument in `0..=max` (`max` at most 2^53 - 1, where doubles stop being exact).
pub fn integer(v: &JsValue, what: &str, max: u64) -> Js<u64> {
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..=max as f64).contains(&n) => Ok(n as u64),
        _ => Err(bad_argument(format!(
            "{what} must be an integer from 0 to {max}, got {}",
            describe(v)
        ))),
    }
}

/// The largest integer that a JavaScript number holds exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A seed: a safe non-negative integer, or a bigint for the whole 64-bit range.
pub fn seed(v: &JsValue) -> Js<u64> {
    if v.is_bigint() {
        return u64::try_from(v.clone())
            .map_err(|_| bad_argument(format!("seed must be from 0 to 2^64 - 1, got {}", describe(v))));
    }
    integer(v, "seed (a number, or a bigint for larger seeds)", MAX_SAFE_INTEGER)
}

/// A plain object (or array) built from `value`'s JSON form ([`crate::write`]: integers beyond
/// 2^53 become decimal strings, which the core reads back, so that a save round-trips exactly
/// through JavaScript numbers).
pub fn to_js<T: Serialize>(value: &T) -> Js<JsValue> {
    parsed(crate::write::to_string(value))
}

/// The rest of [`to_js`], apart so that its one copy per written type stays small.
#[inline(never)]
fn parsed(text: Result<String, crate::write::Error>) -> Js<JsValue> {
    let internal = |why: &dyn core::fmt::Display| throw("INTERNAL_ERROR", format!("cannot convert to JSON: {why}"));
    let text = text.map_err(|e| internal(&e))?;
    json_parse(&text).map_err(|_| internal(&"JSON.parse refused the engine's JSON"))
}

/// The JSON text of an argument given as a plain object or as JSON text.
pub fn json_text(v: &JsValue, what: &str) -> Js<String> {
    if let Some(s) = string(v)? {
        return Ok(s);
    }
    let wrong = || bad_argument(format!("{what} must be an object or JSON text, got {}", describe(v)));
    if !v.is_object() {
        return Err(wrong());
    }
    let text = json_stringify(v).map_err(|e| {
        let why = e.as_string().or_else(|| js_string(&e).ok()).unwrap_or_default();
        throw(
            ErrorKind::Parse.name(),
            format!("{what} cannot be written as JSON: {why}"),
        )
    })?;
    string(&text)?.ok_or_else(wrong)
}

/// A copy of an object as its JSON text carries it (what [`from_js`] would read), for arguments
/// read field by field.
pub fn json_copy(v: &JsValue, what: &str) -> Js<JsValue> {
    json_parse(&json_text(v, what)?).map_err(|_| throw(ErrorKind::Parse.name(), format!("{what} is not JSON")))
}

/// Reads a value of the core from a plain object or JSON text; anything unreadable (syntax,
/// shape or a state the rules refuse) is a `PARSE_ERROR` in serde's words alone, as the C
/// library reports it (`conformance/bad-input/` holds both to that).
pub fn from_js<T: DeserializeOwned>(v: &JsValue, what: &str) -> Js<T> {
    let text = json_text(v, what)?;
    crate::json::from_str(&text).map_err(|e| throw(ErrorKind::Parse.name(), e.to_string()))
}

/// `null` for nothing.
pub fn or_null(v: Option<JsValue>) -> JsValue {
    v.unwrap_or(JsValue::NULL)
}

/// [`to_js`] of a value, or `null` for nothing.
pub fn to_js_or_null<T: Serialize>(value: Option<T>) -> Js<JsValue> {
    Ok(or_null(value.map(|v| to_js(&v)).transpose()?))
}
