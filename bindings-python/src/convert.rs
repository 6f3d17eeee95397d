//! Python objects into the core's tree in one pass: a walk over the objects that tells a
//! [`TreeBuilder`] what it meets, value by value (no `json.dumps`, no `serde_json::Value` in
//! between; issue 12). The builder bounds the compact size and the depth as it goes.
//!
//! The mapping follows `json.dumps` where JSON can hold the value, and refuses the rest with the
//! JSON path of the offending value (validator.md §4 path syntax, §7):
//!
//! | Python | JSON |
//! |---|---|
//! | `dict` (and subclasses) with `str` keys | object, members in the dict's order |
//! | any other `collections.abc.Mapping` with `str` keys (`types.MappingProxyType`, a custom `Mapping`) | object, members in the order of its `items()` |
//! | `list`, `tuple` (and subclasses) | array |
//! | `str` (and subclasses) | string (copied into the core's arena) |
//! | `int` (and subclasses, any size), not `bool` | integer, exact: [`TreeBuilder::integer`] within `i64`, [`TreeBuilder::integer_digits`] beyond (§7) |
//! | `float` (and subclasses), finite | [`TreeBuilder::float`]: the core's form of an in-memory float, never an integer (`30.0`, `-0.0`, `1e+20`; §7) |
//! | `bool` | `true` / `false` |
//! | `None` | `null` |
//!
//! What JSON cannot hold becomes a [`FaultKind`] and, at the top, a [`HostFault`] whose text is
//! the core's ([`Fault::into_host`]): NaN and ±inf ([`FaultKind::NotFinite`]), a container that
//! contains itself ([`FaultKind::Cycle`], the detail being the path it refers back to), a
//! non-`str` member name ([`FaultKind::NonStringName`]), any other type ([`FaultKind::Unsupported`]:
//! `a set`, `a bytes`, `a datetime.time`, `a decimal.Decimal`…), a lone surrogate in a string or
//! a member name ([`FaultKind::LoneSurrogate`], [`FaultKind::LoneSurrogateInName`], whose path is
//! the member's with U+FFFD for the surrogate) and nesting deeper than
//! [`MAX_DEPTH`](momentum_plan::MAX_DEPTH) levels ([`FaultKind::TooDeep`], at the first container
//! too deep). The walk recurses at most `MAX_DEPTH + 1` levels: the builder refuses the next
//! container before the walk enters it.
//!
//! The walk is generic over a [`Sink`]: the [`TreeBuilder`] for validation, `Count` for the
//! bench's floor (feature `bench-exports`: the same traversal, reading every value, building
//! nothing).

use momentum_plan::{Argument, FaultKind, HostFault, JsonPath, Segment, TreeBuilder};
use pyo3::exceptions::{PyTypeError, PyUnicodeEncodeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use std::fmt::Write as _;

/// Where the walk puts what it reads: a streaming writer's calls.
pub(crate) trait Sink {
    fn null(&mut self);
    fn bool(&mut self, b: bool);
    fn string(&mut self, s: &str);
    fn integer(&mut self, i: i64);
    fn integer_digits(&mut self, digits: &str);
    /// `false` for NaN and ±inf (nothing is added).
    fn float(&mut self, f: f64) -> bool;
    /// `false` when the array would be too deep (nothing is opened).
    fn begin_array(&mut self) -> bool;
    fn end_array(&mut self);
    /// `false` when the object would be too deep (nothing is opened).
    fn begin_object(&mut self) -> bool;
    fn key(&mut self, name: &str);
    fn end_object(&mut self);
    /// As `end_object`, for a `dict` whose keys are all exact `str`s (distinct, so no search for a
    /// repeated name is needed).
    fn end_object_distinct(&mut self);
}

impl Sink for TreeBuilder<'_> {
    fn null(&mut self) {
        TreeBuilder::null(self);
    }
    fn bool(&mut self, b: bool) {
        TreeBuilder::bool(self, b);
    }
    fn string(&mut self, s: &str) {
        TreeBuilder::string(self, s);
    }
    fn integer(&mut self, i: i64) {
        TreeBuilder::integer(self, i);
    }
    fn integer_digits(&mut self, digits: &str) {
        TreeBuilder::integer_digits(self, digits);
    }
    fn float(&mut self, f: f64) -> bool {
        TreeBuilder::float(self, f)
    }
    fn begin_array(&mut self) -> bool {
        TreeBuilder::begin_array(self).is_ok()
    }
    fn end_array(&mut self) {
        TreeBuilder::end_array(self);
    }
    fn begin_object(&mut self) -> bool {
        TreeBuilder::begin_object(self).is_ok()
    }
    fn key(&mut self, name: &str) {
        TreeBuilder::key(self, name);
    }
    fn end_object(&mut self) {
        TreeBuilder::end_object(self);
    }
    fn end_object_distinct(&mut self) {
        TreeBuilder::end_object_distinct(self);
    }
}

/// The bench's floor: counts the values and bytes read, builds nothing (the same depth bound).
#[cfg(feature = "bench-exports")]
#[derive(Default)]
pub(crate) struct Count {
    pub(crate) values: usize,
    pub(crate) bytes: usize,
    depth: usize,
}

#[cfg(feature = "bench-exports")]
impl Count {
    fn open(&mut self) -> bool {
        if self.depth >= momentum_plan::MAX_DEPTH {
            return false;
        }
        self.depth += 1;
        self.values += 1;
        true
    }
}

#[cfg(feature = "bench-exports")]
impl Sink for Count {
    fn null(&mut self) {
        self.values += 1;
    }
    fn bool(&mut self, _: bool) {
        self.values += 1;
    }
    fn string(&mut self, s: &str) {
        self.values += 1;
        self.bytes += s.len();
    }
    fn integer(&mut self, _: i64) {
        self.values += 1;
    }
    fn integer_digits(&mut self, digits: &str) {
        self.values += 1;
        self.bytes += digits.len();
    }
    fn float(&mut self, f: f64) -> bool {
        self.values += 1;
        f.is_finite()
    }
    fn begin_array(&mut self) -> bool {
        self.open()
    }
    fn end_array(&mut self) {
        self.depth -= 1;
    }
    fn begin_object(&mut self) -> bool {
        self.open()
    }
    fn key(&mut self, name: &str) {
        self.bytes += name.len();
    }
    fn end_object(&mut self) {
        self.depth -= 1;
    }
    fn end_object_distinct(&mut self) {
        self.depth -= 1;
    }
}

/// One step of the path to a faulty value, collected while the walk unwinds.
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// Why a Python value could not become JSON. Paths are collected innermost first, on the way
/// out (nothing is kept for the values that convert).
pub(crate) enum Fault {
    /// A fault the core words ([`HostFault`]); for [`FaultKind::Cycle`], `back` is the number of
    /// path steps (from the root) to the container referred back to.
    Host { kind: FaultKind, detail: String, steps: Vec<Step>, back: usize },
    /// A Python error raised while reading the value (e.g. `MemoryError`): passed on unchanged.
    Py(PyErr),
}

impl From<PyErr> for Fault {
    fn from(e: PyErr) -> Fault {
        Fault::Py(e)
    }
}

impl Fault {
    fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault::Host { kind, detail: detail.into(), steps: Vec::new(), back: 0 }
    }

    fn push(mut self, step: Step) -> Fault {
        if let Fault::Host { steps, .. } = &mut self {
            steps.push(step);
        }
        self
    }

    /// The [`HostFault`] in `argument` (its text is the core's), or the Python error as it was.
    pub(crate) fn into_host(self, argument: Argument) -> Result<HostFault, PyErr> {
        match self {
            Fault::Host { kind, detail, steps, back } => {
                let render = |n: usize| {
                    JsonPath::from_segments(steps.iter().rev().take(n).map(|s| match s {
                        Step::Key(k) => Segment::Key(k),
                        Step::Index(i) => Segment::Index(*i),
                    }))
                    .into_string()
                };
                let detail = if kind == FaultKind::Cycle { render(back) } else { detail };
                Ok(HostFault::new(argument, render(steps.len()), kind, detail))
            }
            Fault::Py(e) => Err(e),
        }
    }
}

/// Walks one argument into `sink`, refusing cycles (the containers on the current path are kept).
pub(crate) struct Walk<'s, S: Sink> {
    sink: &'s mut S,
    open: Vec<usize>,
}

impl<'s, S: Sink> Walk<'s, S> {
    pub(crate) fn new(sink: &'s mut S) -> Walk<'s, S> {
        Walk { sink, open: Vec::with_capacity(16) }
    }

    /// Reads `obj` (and everything in it) into the sink.
    pub(crate) fn value(&mut self, obj: &Bound<'_, PyAny>) -> Result<(), Fault> {
        // Exact built-in types first (a pointer compare each), in the order plans hold them.
        if let Ok(s) = obj.cast_exact::<PyString>() {
            return self.string(s);
        }
        if let Ok(d) = obj.cast_exact::<PyDict>() {
            return self.dict(d);
        }
        if let Ok(i) = obj.cast_exact::<PyInt>() {
            return self.int(i);
        }
        if let Ok(l) = obj.cast_exact::<PyList>() {
            return self.list(obj, l.len(), |i| l.get_item(i));
        }
        if let Ok(b) = obj.cast_exact::<PyBool>() {
            self.sink.bool(b.is_true());
            return Ok(());
        }
        if obj.is_none() {
            self.sink.null();
            return Ok(());
        }
        if let Ok(f) = obj.cast_exact::<PyFloat>() {
            return self.float(f.value());
        }
        // Subclasses (an `OrderedDict`, an `IntEnum`, a `str` enum), then tuples.
        if let Ok(s) = obj.cast::<PyString>() {
            return self.string(s);
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            return self.dict(d);
        }
        if let Ok(i) = obj.cast::<PyInt>() {
            return self.int(i);
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return self.float(f.value());
        }
        if let Ok(l) = obj.cast::<PyList>() {
            return self.list(obj, l.len(), |i| l.get_item(i));
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            return self.list(obj, t.len(), |i| t.get_item(i));
        }
        // Any other `collections.abc.Mapping` (a `MappingProxyType`, a custom `Mapping`): an
        // object, read through the mapping protocol (`items()`), keys as for a `dict`.
        if let Ok(m) = obj.cast::<PyMapping>() {
            return self.mapping(m);
        }
        Err(Fault::new(FaultKind::Unsupported, describe(obj)))
    }

    fn string(&mut self, s: &Bound<'_, PyString>) -> Result<(), Fault> {
        match utf8(s)? {
            Ok(text) => {
                self.sink.string(text);
                Ok(())
            }
            Err((unit, _)) => Err(Fault::new(FaultKind::LoneSurrogate, format!("{unit:04X}"))),
        }
    }

    fn float(&mut self, f: f64) -> Result<(), Fault> {
        if self.sink.float(f) {
            Ok(())
        } else {
            let host = HostFault::not_finite(Argument::Plan, "", f);
            Err(Fault::new(FaultKind::NotFinite, host.detail))
        }
    }

    fn int(&mut self, i: &Bound<'_, PyInt>) -> Result<(), Fault> {
        match i.extract::<i64>() {
            Ok(n) => self.sink.integer(n),
            Err(_) => self.sink.integer_digits(&big_int_digits(i)?),
        }
        Ok(())
    }

    /// Enters a container: refuses a cycle (a container already open on the path) and a level
    /// over `MAX_DEPTH` (the sink refuses to open it).
    fn enter(&mut self, obj: &Bound<'_, PyAny>, object: bool) -> Result<(), Fault> {
        let id = obj.as_ptr() as usize;
        if let Some(back) = self.open.iter().position(|&o| o == id) {
            return Err(Fault::Host { kind: FaultKind::Cycle, detail: String::new(), steps: Vec::new(), back });
        }
        let opened = if object { self.sink.begin_object() } else { self.sink.begin_array() };
        if !opened {
            return Err(Fault::new(FaultKind::TooDeep, ""));
        }
        self.open.push(id);
        Ok(())
    }

    fn dict(&mut self, d: &Bound<'_, PyDict>) -> Result<(), Fault> {
        self.enter(d.as_any(), true)?;
        // Keys that are all exact `str`s are distinct as text (a `dict` holds no two equal ones);
        // a `str` subclass may define its own equality, so two of its keys can spell one name.
        let mut distinct = true;
        for (k, v) in d.iter() {
            distinct &= k.is_exact_instance_of::<PyString>();
            self.member(&k, &v)?;
        }
        self.open.pop();
        if distinct {
            self.sink.end_object_distinct();
        } else {
            self.sink.end_object();
        }
        Ok(())
    }

    /// A `Mapping` that is not a `dict`: its `items()` in order. Its keys are not known to be
    /// distinct (a custom `Mapping` may list one twice), so the builder looks for repeats.
    fn mapping(&mut self, m: &Bound<'_, PyMapping>) -> Result<(), Fault> {
        self.enter(m.as_any(), true)?;
        for item in m.items()?.iter() {
            let (k, v) = item.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
            self.member(&k, &v)?;
        }
        self.open.pop();
        self.sink.end_object();
        Ok(())
    }

    /// One member of an object: its name (a `str`, else [`FaultKind::NonStringName`]) and value.
    fn member(&mut self, k: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>) -> Result<(), Fault> {
        let Ok(ks) = k.cast::<PyString>() else {
            let what = format!("{} ({})", with_article(&type_name(k)), repr(k));
            return Err(Fault::new(FaultKind::NonStringName, what));
        };
        let key = match utf8(ks)? {
            Ok(key) => key,
            Err((unit, lossy)) => {
                let f = Fault::new(FaultKind::LoneSurrogateInName, format!("{unit:04X}"));
                return Err(f.push(Step::Key(lossy)));
            }
        };
        self.sink.key(key);
        self.value(v).map_err(|e| e.push(Step::Key(key.to_owned())))
    }

    fn list<'py>(
        &mut self,
        obj: &Bound<'py, PyAny>,
        len: usize,
        get: impl Fn(usize) -> PyResult<Bound<'py, PyAny>>,
    ) -> Result<(), Fault> {
        self.enter(obj, false)?;
        // `get` checks bounds: a list that shrinks while it is read (a `__del__`) gives an
        // `IndexError`, never a read out of bounds.
        for i in 0..len {
            let item = get(i)?;
            if let Err(e) = self.value(&item) {
                return Err(e.push(Step::Index(i)));
            }
        }
        self.open.pop();
        self.sink.end_array();
        Ok(())
    }
}

/// A Python `str` as UTF-8: `Ok(Ok(text))`, or `Ok(Err((unit, lossy)))` for a `str` holding a
/// lone surrogate: the first one's code unit, and the text with U+FFFD for each lone surrogate.
///
/// `to_str` (abi3-py310) borrows the UTF-8 CPython caches in the `str` object (no copy; for an
/// ASCII `str`, its own data). The text is valid while `s` lives and is never changed.
#[inline]
pub(crate) fn utf8<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Result<&'a str, (u16, String)>> {
    match s.to_str() {
        Ok(text) => Ok(Ok(text)),
        Err(e) => not_utf8(s, e),
    }
}

/// `utf8` of a `str` that `to_str` refused (`e`): a lone surrogate, or `e` itself (out of line:
/// the walk meets it at most once).
#[cold]
#[inline(never)]
fn not_utf8(s: &Bound<'_, PyString>, e: PyErr) -> PyResult<Result<&'static str, (u16, String)>> {
    if e.is_instance_of::<PyUnicodeEncodeError>(s.py()) {
        let (_, unit, lossy) = lone_surrogate(s)?;
        Ok(Err((unit, lossy)))
    } else {
        Err(e)
    }
}

/// For a `str` that cannot be encoded as UTF-8: the text before its first lone surrogate, that
/// surrogate's code unit, and the whole text with U+FFFD for each lone surrogate.
pub(crate) fn lone_surrogate(s: &Bound<'_, PyString>) -> PyResult<(String, u16, String)> {
    let raw = s.call_method1(pyo3::intern!(s.py(), "encode"), ("utf-8", "surrogatepass"))?;
    let bytes: &[u8] = raw.cast::<PyBytes>()?.as_bytes();
    let good = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    let before = String::from_utf8_lossy(&bytes[..good]).into_owned();
    let unit = surrogate_at(bytes, good).unwrap_or(0xD800);
    // Surrogatepass writes each surrogate as ED A0..BF 80..BF: one U+FFFD each.
    let mut lossy = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(tail) => {
                lossy.push_str(tail);
                break;
            }
            Err(e) => {
                let (ok, bad) = rest.split_at(e.valid_up_to());
                lossy.push_str(std::str::from_utf8(ok).unwrap_or_default());
                lossy.push('\u{FFFD}');
                let skip = if surrogate_at(bad, 0).is_some() { 3 } else { 1 };
                rest = &bad[skip.min(bad.len())..];
            }
        }
    }
    Ok((before, unit, lossy))
}

/// The surrogate code unit written (by `surrogatepass`) at `bytes[at..]`, if one is.
fn surrogate_at(bytes: &[u8], at: usize) -> Option<u16> {
    match bytes.get(at..at + 3) {
        Some(&[a @ 0xED, b @ 0xA0..=0xBF, c @ 0x80..=0xBF]) => {
            Some(((u16::from(a) & 0x0f) << 12) | ((u16::from(b) & 0x3f) << 6) | (u16::from(c) & 0x3f))
        }
        _ => None,
    }
}

/// The decimal digits (with a leading `-`) of a Python `int` beyond `i64`, exactly: through `u64`
/// when it fits, else through `hex()` (exempt from `sys.int_max_str_digits`, which `str()` is not).
fn big_int_digits(i: &Bound<'_, PyInt>) -> PyResult<String> {
    if let Ok(n) = i.extract::<u64>() {
        return Ok(n.to_string());
    }
    let hex: String = i
        .py()
        .import(pyo3::intern!(i.py(), "builtins"))?
        .call_method1(pyo3::intern!(i.py(), "hex"), (i,))?
        .extract()?;
    let (negative, digits) = match hex.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, hex.as_str()),
    };
    let mut decimal = hex_to_decimal(digits.trim_start_matches("0x"));
    if negative {
        decimal.insert(0, '-');
    }
    Ok(decimal)
}

/// Lower-case hexadecimal digits (no sign, no prefix) as decimal digits, exactly.
fn hex_to_decimal(hex: &str) -> String {
    // The base of the decimal chunks below (10^9: nine digits each).
    const CHUNK: u64 = 1_000_000_000;
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
                let _ = write!(out, "{c:09}");
            }
        }
    }
    out
}

/// A keyword argument that takes a `bool` (`repair_plan`'s `unsafe`): `false` when absent or
/// `None`, the bool itself, else `TypeError("unsafe is a str; pass True or False")`: the shape of
/// the JS packages' `options.unsafe is a string; pass true or false`, in Python's words (an `int`
/// is not a bool here: `1` is refused, never taken as `True`).
pub(crate) fn keyword_bool(keyword: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    match value {
        None => Ok(false),
        Some(v) if v.is_none() => Ok(false),
        Some(v) => match v.cast::<PyBool>() {
            Ok(b) => Ok(b.is_true()),
            Err(_) => Err(PyTypeError::new_err(format!("{keyword} is {}; pass True or False", describe(v)))),
        },
    }
}

/// `a set`, `an int`, `a datetime.time`: a type name with its article (the host's words for
/// [`FaultKind::Unsupported`] and [`FaultKind::NonStringName`]).
fn with_article(name: &str) -> String {
    let vowel = name.chars().next().is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// What an object without a JSON form is, in Python's words, as the JavaScript package words its
/// own: `a function (walk)` for a function or method (its `__name__`, as JS gives a function's
/// name), `a bytes object`, else the type's name with its article (`a set`, `a datetime.time`).
fn describe(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    match name.as_str() {
        "function" | "builtin_function_or_method" | "method" => {
            match obj.getattr("__name__").ok().and_then(|n| n.extract::<String>().ok()).filter(|n| !n.is_empty()) {
                Some(n) => format!("a function ({n})"),
                None => "a function".to_owned(),
            }
        }
        "bytes" | "bytearray" | "memoryview" => format!("{} object", with_article(&name)),
        _ => with_article(&name),
    }
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

/// `repr(obj)`, cut to a readable length, with U+FFFD for any lone surrogate.
fn repr(obj: &Bound<'_, PyAny>) -> String {
    let r = obj.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string_lossy().into_owned());
    match r.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &r[..i]),
        None => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_to_decimal_is_exact() {
        assert_eq!(hex_to_decimal("0"), "0");
        assert_eq!(hex_to_decimal("ffffffffffffffffffff"), "1208925819614629174706175");
        assert_eq!(hex_to_decimal("10000000000000000"), "18446744073709551616");
    }

    #[test]
    fn surrogates_are_read_from_surrogatepass_bytes() {
        assert_eq!(surrogate_at(b"\xed\xa0\xbd", 0), Some(0xD83D));
        assert_eq!(surrogate_at(b"\xed\xbf\xbf", 0), Some(0xDFFF));
        assert_eq!(surrogate_at(b"abc", 0), None);
        assert_eq!(with_article("int"), "an int");
        assert_eq!(with_article("set"), "a set");
    }
}
