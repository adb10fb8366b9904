//! Values across the boundary: Python objects in and out, and every failure raised as the
//! exception of its [`ErrorKind`]. Everything Python passes is checked here, so that a wrong type
//! is a `TypeError` and a wrong value an `ArbiterError` subclass, never a panic.

use arbiter_core::{Error, ErrorKind};
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Number, Value};

pyo3::create_exception!(
    arbiter,
    ArbiterError,
    PyException,
    "Any error of the engine: `code` is the kind's name (`ILLEGAL_MOVE` …), the message the core's words."
);
pyo3::create_exception!(
    arbiter,
    BadArgumentError,
    ArbiterError,
    "An argument or configuration is invalid."
);
pyo3::create_exception!(arbiter, ParseError, ArbiterError, "Text or JSON that cannot be read.");
pyo3::create_exception!(
    arbiter,
    IllegalMoveError,
    ArbiterError,
    "A well-formed move the rules refuse now."
);
pyo3::create_exception!(arbiter, GameOverError, ArbiterError, "The game is over.");
pyo3::create_exception!(
    arbiter,
    LimitExceededError,
    ArbiterError,
    "A documented resource limit (tiles, depth, table size)."
);

/// Registers the exception classes, each with its kind's name as the class attribute `code`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let classes = [
        (py.get_type::<ArbiterError>(), None),
        (py.get_type::<BadArgumentError>(), Some(ErrorKind::BadArgument)),
        (py.get_type::<ParseError>(), Some(ErrorKind::Parse)),
        (py.get_type::<IllegalMoveError>(), Some(ErrorKind::IllegalMove)),
        (py.get_type::<GameOverError>(), Some(ErrorKind::GameOver)),
        (py.get_type::<LimitExceededError>(), Some(ErrorKind::LimitExceeded)),
    ];
    for (class, kind) in classes {
        // The base class's code names what no kind of the core does: a bug at the boundary.
        class.setattr("code", kind.map_or("INTERNAL_ERROR", ErrorKind::name))?;
        m.add(class.name()?, class)?;
    }
    Ok(())
}

/// The Python exception for a core error: the class of its kind, the core's message (cut to
/// `MESSAGE_LIMIT` as in C and JavaScript: a message may quote a JSON library's whole string).
pub fn raise(e: Error) -> PyErr {
    let message = arbiter_core::shorten(e.message(), arbiter_core::MESSAGE_LIMIT).into_owned();
    match e.kind() {
        ErrorKind::BadArgument => BadArgumentError::new_err(message),
        ErrorKind::Parse => ParseError::new_err(message),
        ErrorKind::IllegalMove => IllegalMoveError::new_err(message),
        ErrorKind::GameOver => GameOverError::new_err(message),
        ErrorKind::LimitExceeded => LimitExceededError::new_err(message),
        _ => ArbiterError::new_err(message),
    }
}

/// Core errors become Python exceptions with the core's kind and words.
pub trait OrRaise<T> {
    /// The value, or the exception to raise.
    fn py(self) -> PyResult<T>;
}

impl<T, E: Into<Error>> OrRaise<T> for Result<T, E> {
    fn py(self) -> PyResult<T> {
        self.map_err(|e| raise(e.into()))
    }
}

/// A `BadArgumentError`: a value of the right type out of range.
pub fn bad_argument(message: impl Into<String>) -> PyErr {
    raise(Error::new(ErrorKind::BadArgument, message))
}

/// A `ParseError`: text or JSON that cannot be read.
pub fn parse_error(message: impl Into<String>) -> PyErr {
    raise(Error::new(ErrorKind::Parse, message))
}

/// A `TypeError` naming what was expected and the type given.
pub fn wrong_type(what: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let name = got
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("{what} must be {expected}, not {name}"))
}

/// Whether `v` is an integer for Python (an `int` or anything with `__index__`, such as a NumPy
/// integer), `bool` excluded: `True` as a move or a seat is a mistake, not the number 1.
pub fn is_integer(v: &Bound<'_, PyAny>) -> bool {
    !v.is_instance_of::<PyBool>() && (v.is_instance_of::<PyInt>() || v.hasattr("__index__").unwrap_or(false))
}

/// An integer argument in `0..=max`: another type is a `TypeError`, a value out of range a
/// `BadArgumentError`.
pub fn integer(v: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<u64> {
    if !is_integer(v) {
        return Err(wrong_type(what, "an int", v));
    }
    match v.extract::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(bad_argument(format!(
            "{what} must be an integer from 0 to {max}, got {v}"
        ))),
    }
}

/// A seed: any integer from 0 to 2^64 - 1.
pub fn seed(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    integer(v, "seed", u64::MAX)
}

/// A string argument.
pub fn text(v: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    match v.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(wrong_type(what, "a str", v)),
    }
}

/// The Python value (dicts, lists, str, int, float, bool, None) of a JSON value.
pub fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (k, item) in fields {
                dict.set_item(k, value_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// The Python value of anything the core serialises (observations, saves, scores).
pub fn to_py<'py, T: Serialize>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    let json =
        serde_json::to_value(value).map_err(|e| ArbiterError::new_err(format!("cannot convert to JSON: {e}")))?;
    value_to_py(py, &json)
}

/// [`to_py`] of a value, or `None`.
pub fn to_py_or_none<'py, T: Serialize>(py: Python<'py>, value: Option<T>) -> PyResult<Bound<'py, PyAny>> {
    match value {
        Some(v) => to_py(py, &v),
        None => Ok(py.None().into_bound(py)),
    }
}

/// How deeply Python data may nest on its way to the core: serde_json's own limit for text, so
/// that a dict and its JSON text are refused alike, and far below what would overflow the stack.
const MAX_DEPTH: usize = 128;

/// The JSON value of a Python value made of dicts (str keys), lists, tuples, str, int, float,
/// bool and None; anything else is a `TypeError` naming where it was found.
pub fn py_to_value(v: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    value_at(v, what, 0)
}

fn value_at(v: &Bound<'_, PyAny>, what: &str, depth: usize) -> PyResult<Value> {
    if v.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(u) = v.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return match v.extract::<i64>() {
            Ok(i) => Ok(Value::from(i)),
            Err(_) => Err(parse_error(format!(
                "{what}: the integer {v} is out of the 64-bit range"
            ))),
        };
    }
    if let Ok(f) = v.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| parse_error(format!("{what}: {v} is not a JSON number")));
    }
    let nested = v.is_instance_of::<PyDict>() || v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>();
    if nested && depth >= MAX_DEPTH {
        return Err(parse_error(format!("{what}: nested more than {MAX_DEPTH} deep")));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut fields = Map::new();
        for (k, item) in d.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| wrong_type(&format!("a key in {what}"), "a str", &k))?
                .to_cow()?
                .into_owned();
            let inner = value_at(&item, &format!("{what}.{key}"), depth + 1)?;
            fields.insert(key, inner);
        }
        return Ok(Value::Object(fields));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let items = v
            .try_iter()?
            .enumerate()
            .map(|(i, item)| value_at(&item?, &format!("{what}[{i}]"), depth + 1))
            .collect::<PyResult<Vec<Value>>>()?;
        return Ok(Value::Array(items));
    }
    Err(wrong_type(
        what,
        "JSON data (dict, list, str, int, float, bool or None)",
        v,
    ))
}

/// Reads a value of the core from a dict (or list) or JSON text; anything unreadable (syntax,
/// shape, or a state the rules refuse) is a `ParseError` with serde's words, as C and JavaScript
/// give them (`conformance/bad-input/`).
pub fn from_py<T: DeserializeOwned>(v: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let read = if let Ok(s) = v.cast::<PyString>() {
        serde_json::from_str(&s.to_cow()?)
    } else if v.is_instance_of::<PyDict>() || v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        serde_json::from_value(py_to_value(v, what)?)
    } else {
        return Err(wrong_type(what, "a dict or JSON text", v));
    };
    read.map_err(|e| parse_error(e.to_string()))
}

/// A list (or tuple) argument read by the core's serde: a `TypeError` for another type.
pub fn list_from_py<T: DeserializeOwned>(v: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    if !(v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>()) {
        return Err(wrong_type(what, "a list", v));
    }
    from_py(v, what)
}
