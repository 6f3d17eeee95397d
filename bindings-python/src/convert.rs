//! Python objects to [`Value`]: a direct walk over the objects (no `json.dumps`, no serde bridge).
//!
//! The mapping follows `json.dumps` where JSON can hold the value, and refuses the rest with the
//! JSON path of the offending value (validator.md §4 path syntax):
//!
//! | Python | JSON |
//! |---|---|
//! | `dict` (and subclasses) with `str` keys | object, members in the dict's order |
//! | `list`, `tuple` (and subclasses) | array |
//! | `str` (and subclasses) | string |
//! | `int` (and subclasses, any size), not `bool` | integer number, exact (validator.md §7) |
//! | `float` (and subclasses), finite | number that is never an integer: shortest round-trip form, `30.0` stays `30.0` (§7) |
//! | `bool` | `true` / `false` |
//! | `None` | `null` |
//!
//! Refused: a non-finite `float` ([`Fault::Value`]), a container that contains itself
//! ([`Fault::Value`]), a non-`str` member name and any other type, e.g. `set`, `bytes`,
//! `datetime`, `Decimal` ([`Fault::Type`]). A string holding a lone surrogate
//! ([`Fault::Surrogate`]), or nesting deeper than [`MAX_DEPTH`] levels ([`Fault::TooDeep`]), is
//! something JSON text cannot carry either: the plan turns it into the core's `json` verdict
//! (validator.md D12). The walk recurses at most `MAX_DEPTH + 1` levels.

use momentum_plan::{JsonError, JsonPath, MAX_DEPTH, Segment, Value};
use pyo3::exceptions::{PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number};

/// One step of the path to a faulty value, collected while the walk unwinds.
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// Why a Python value could not become JSON. Paths are collected innermost first.
pub(crate) enum Fault {
    /// A type JSON has no form for (`TypeError`): what it is, in words.
    Type(Vec<Step>, String),
    /// A value of a JSON-able type that JSON still cannot hold (`ValueError`): NaN, infinity, a cycle.
    Value(Vec<Step>, String),
    /// A `str` holding a lone surrogate (its code point; `true` when it is a member name, whose
    /// path is then the object's): JSON text cannot carry it either. For the plan, the core's
    /// `json` verdict (validator.md D12); for the request, a `ValueError`.
    Surrogate(Vec<Step>, u32, bool),
    /// A container at level `MAX_DEPTH + 1`: for the plan, the core's `json` verdict (D12); for
    /// the request, a `ValueError`.
    TooDeep(Vec<Step>),
    /// A Python error raised while reading the value (e.g. `MemoryError`): passed on unchanged.
    Py(PyErr),
}

impl From<PyErr> for Fault {
    fn from(e: PyErr) -> Fault {
        Fault::Py(e)
    }
}

impl Fault {
    fn push(mut self, step: Step) -> Fault {
        match &mut self {
            Fault::Type(p, _) | Fault::Value(p, _) | Fault::Surrogate(p, _, _) | Fault::TooDeep(p) => p.push(step),
            Fault::Py(_) => {}
        }
        self
    }

    /// The rendered path of a collected (innermost-first) step list.
    fn path(steps: &[Step]) -> JsonPath {
        JsonPath::from_segments(steps.iter().rev().map(|s| match s {
            Step::Key(k) => Segment::Key(k),
            Step::Index(i) => Segment::Index(*i),
        }))
    }

    /// The Python exception for this fault; `arg` names the argument (`plan` or `request`).
    pub(crate) fn into_pyerr(self, arg: &str) -> PyErr {
        match self {
            Fault::Type(p, what) => PyTypeError::new_err(format!("{arg} at {}: {what}", Fault::path(&p))),
            Fault::Value(p, what) => PyValueError::new_err(format!("{arg} at {}: {what}", Fault::path(&p))),
            Fault::Surrogate(p, cp, key) => {
                PyValueError::new_err(format!("{arg} at {}: {}", Fault::path(&p), surrogate_reason(cp, key)))
            }
            Fault::TooDeep(p) => PyValueError::new_err(format!("{arg} at {}: {}", Fault::path(&p), too_deep())),
            Fault::Py(e) => e,
        }
    }

    /// For the plan: `Ok(JsonError)` when the fault is one JSON text could not carry either (the
    /// core then gives its `json` verdict; a too-deep value gets exactly the core's reason), else
    /// the Python exception.
    pub(crate) fn into_plan_outcome(self) -> Result<JsonError, PyErr> {
        match self {
            Fault::Surrogate(p, cp, key) => {
                Ok(JsonError::in_value(format!("{} at {}", surrogate_reason(cp, key), Fault::path(&p))))
            }
            Fault::TooDeep(_) => Ok(JsonError::in_value(too_deep())),
            other => Err(other.into_pyerr("plan")),
        }
    }
}

/// The core's reason for nesting over [`MAX_DEPTH`] (`json::check_numbers_and_depth`).
fn too_deep() -> String {
    format!("nesting deeper than {MAX_DEPTH} levels is not allowed")
}

/// Why a string with a lone surrogate is not JSON.
pub(crate) fn surrogate_reason(cp: u32, key: bool) -> String {
    let what = if key { "a member name" } else { "a string" };
    format!("lone surrogate U+{cp:04X} in {what} (a lone surrogate is not a character)")
}

/// The walk's state: the containers on the current path, to find cycles.
pub(crate) struct Walk {
    open: Vec<usize>,
}

impl Walk {
    pub(crate) fn new() -> Walk {
        Walk { open: Vec::with_capacity(16) }
    }

    /// Converts `obj` (at nesting level `level`, the root being level 1).
    pub(crate) fn value(&mut self, obj: &Bound<'_, PyAny>, level: usize) -> Result<Value, Fault> {
        // Most common types first; every check here is a type-flag or pointer test.
        if let Ok(s) = obj.cast::<PyString>() {
            return string(s).map(Value::String);
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            return self.dict(d, level);
        }
        if obj.is_none() {
            return Ok(Value::Null);
        }
        if let Ok(b) = obj.cast_exact::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if let Ok(i) = obj.cast::<PyInt>() {
            return int(i).map(Value::Number);
        }
        if let Ok(l) = obj.cast::<PyList>() {
            return self.list(obj, l.len(), |i| l.get_item(i), level);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return float(f.value()).map(Value::Number);
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            return self.list(obj, t.len(), |i| t.get_item(i), level);
        }
        Err(Fault::Type(Vec::new(), not_json_type(obj)))
    }

    /// Enters a container: refuses a cycle and a level over `MAX_DEPTH`.
    fn enter(&mut self, obj: &Bound<'_, PyAny>, kind: &str, level: usize) -> Result<(), Fault> {
        let id = obj.as_ptr() as usize;
        if self.open.contains(&id) {
            return Err(Fault::Value(
                Vec::new(),
                format!("circular reference: this {kind} contains itself, and JSON cannot hold a cycle"),
            ));
        }
        if level > MAX_DEPTH {
            return Err(Fault::TooDeep(Vec::new()));
        }
        self.open.push(id);
        Ok(())
    }

    fn dict(&mut self, d: &Bound<'_, PyDict>, level: usize) -> Result<Value, Fault> {
        self.enter(d.as_any(), "dict", level)?;
        let mut map = Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let Ok(ks) = k.cast::<PyString>() else {
                return Err(Fault::Type(
                    Vec::new(),
                    format!(
                        "the member name {} is {}, not a str; JSON member names are strings",
                        repr(&k),
                        type_name(&k)
                    ),
                ));
            };
            let key = match string(ks) {
                Ok(key) => key,
                Err(Fault::Surrogate(p, cp, _)) => return Err(Fault::Surrogate(p, cp, true)),
                Err(e) => return Err(e),
            };
            match self.value(&v, level + 1) {
                Ok(value) => {
                    map.insert(key, value);
                }
                Err(e) => return Err(e.push(Step::Key(key))),
            }
        }
        self.open.pop();
        Ok(Value::Object(map))
    }

    fn list<'py>(
        &mut self,
        obj: &Bound<'py, PyAny>,
        len: usize,
        get: impl Fn(usize) -> PyResult<Bound<'py, PyAny>>,
        level: usize,
    ) -> Result<Value, Fault> {
        self.enter(obj, "list", level)?;
        let mut out = Vec::with_capacity(len);
        // `get` checks bounds: a list that shrinks while it is read (another thread, a `__del__`)
        // gives an `IndexError`, never a read out of bounds.
        for i in 0..len {
            let item = get(i)?;
            match self.value(&item, level + 1) {
                Ok(v) => out.push(v),
                Err(e) => return Err(e.push(Step::Index(i))),
            }
        }
        self.open.pop();
        Ok(Value::Array(out))
    }
}

/// A Python `str` as UTF-8; a lone surrogate is [`Fault::Surrogate`].
pub(crate) fn string(s: &Bound<'_, PyString>) -> Result<String, Fault> {
    match s.to_cow() {
        Ok(c) => Ok(c.into_owned()),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) => {
            let (_, cp) = lone_surrogate(s)?;
            Err(Fault::Surrogate(Vec::new(), cp, false))
        }
        Err(e) => Err(Fault::Py(e)),
    }
}

/// For a `str` that cannot be encoded as UTF-8: the text before its first lone surrogate, and
/// that surrogate's code point.
pub(crate) fn lone_surrogate(s: &Bound<'_, PyString>) -> PyResult<(String, u32)> {
    let raw = s.call_method1(pyo3::intern!(s.py(), "encode"), ("utf-8", "surrogatepass"))?;
    let bytes: &[u8] = raw.cast::<pyo3::types::PyBytes>()?.as_bytes();
    let good = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let prefix = String::from_utf8_lossy(&bytes[..good]).into_owned();
    // Surrogatepass writes a surrogate as ED A0..BF 80..BF.
    let cp = match bytes.get(good..good + 3) {
        Some(&[a, b, c]) => ((u32::from(a) & 0x0f) << 12) | ((u32::from(b) & 0x3f) << 6) | (u32::from(c) & 0x3f),
        _ => 0xfffd,
    };
    Ok((prefix, cp))
}

/// A Python `int` as an exact JSON integer (validator.md §7), of any size.
fn int(i: &Bound<'_, PyInt>) -> Result<Number, Fault> {
    if let Ok(n) = i.extract::<i64>() {
        return Ok(Number::from(n));
    }
    if let Ok(n) = i.extract::<u64>() {
        return Ok(Number::from(n));
    }
    // Beyond 64 bits: hexadecimal is exempt from `sys.int_max_str_digits`, decimal is not.
    let hex: String = i
        .py()
        .import(pyo3::intern!(i.py(), "builtins"))?
        .call_method1(pyo3::intern!(i.py(), "hex"), (i,))?
        .extract()?;
    let (negative, digits) = match hex.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, hex.as_str()),
    };
    let digits = digits.trim_start_matches("0x");
    let mut decimal = hex_to_decimal(digits);
    if negative {
        decimal.insert(0, '-');
    }
    serde_json::from_str::<Number>(&decimal)
        .map_err(|e| Fault::Value(Vec::new(), format!("the integer cannot be read: {e}")))
}

/// A Python `float` as a JSON number: finite only, never an integer (validator.md §7).
fn float(f: f64) -> Result<Number, Fault> {
    Number::from_f64(f).ok_or_else(|| {
        let what = if f.is_nan() {
            "nan"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        };
        Fault::Value(Vec::new(), format!("the float {what} is not JSON; JSON numbers are finite"))
    })
}

/// Lower-case hexadecimal digits (no sign, no prefix) as decimal digits, exactly.
pub(crate) fn hex_to_decimal(hex: &str) -> String {
    // Little-endian base-2^32 limbs.
    let bytes = hex.as_bytes();
    let mut limbs: Vec<u32> = Vec::with_capacity(bytes.len() / 8 + 1);
    let mut end = bytes.len();
    while end > 0 {
        let start = end.saturating_sub(8);
        let chunk = std::str::from_utf8(&bytes[start..end]).unwrap_or("0");
        limbs.push(u32::from_str_radix(chunk, 16).unwrap_or(0));
        end = start;
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    // Repeated division by 10^9, most significant limb first; remainders are base-10^9 digits.
    const CHUNK: u64 = 1_000_000_000;
    let mut chunks: Vec<u32> = Vec::new();
    while !(limbs.len() == 1 && limbs[0] == 0) {
        let mut rem: u64 = 0;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = u32::try_from(cur / CHUNK).unwrap_or(u32::MAX);
            rem = cur % CHUNK;
        }
        chunks.push(u32::try_from(rem).unwrap_or(0));
        while limbs.len() > 1 && limbs.last() == Some(&0) {
            limbs.pop();
        }
    }
    let mut out = String::with_capacity(chunks.len() * 9 + 1);
    match chunks.split_last() {
        None => out.push('0'),
        Some((top, rest)) => {
            out.push_str(&top.to_string());
            for c in rest.iter().rev() {
                out.push_str(&format!("{c:09}"));
            }
        }
    }
    out
}

/// What a value of a type JSON cannot hold is, with a hint where one helps.
fn not_json_type(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    let hint = match name.as_str() {
        "bytes" | "bytearray" | "memoryview" => "; decode it to str first",
        "set" | "frozenset" => "; use a list",
        "datetime.datetime" | "datetime.date" | "datetime.time" => "; write it as a string (times as \"HH:MM\")",
        "decimal.Decimal" => "; use an int or a float",
        _ => "",
    };
    format!("a value of type {name} is not JSON (JSON holds dict, list, str, int, float, bool and None){hint}")
}

/// `module.qualname` of the object's type, without the module for builtins.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let t = obj.get_type();
    let qualname = t.qualname().map_or_else(|_| "?".to_owned(), |q| q.to_string());
    match t.module() {
        Ok(m) if m != "builtins" => format!("{m}.{qualname}"),
        _ => qualname,
    }
}

/// `repr(obj)`, cut to a readable length.
fn repr(obj: &Bound<'_, PyAny>) -> String {
    let r = obj.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string_lossy().into_owned());
    match r.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &r[..i]),
        None => r,
    }
}
