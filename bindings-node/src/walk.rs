//! The object way in: walks a JS value through raw N-API calls and builds a `serde_json::Value`
//! with exactly the JSON `JSON.stringify` would give, or says why JSON cannot hold it.
//!
//! Kept to measure against the text way (README, "Conversion"); `index.js` does not use it. Its
//! rules are the wrapper's rules (and `JSON.stringify`'s): own enumerable string keys in
//! property order; `toJSON(key)` is called when present; an object member whose value is
//! `undefined` is skipped. Functions, symbols, BigInts, NaN/±Infinity, cycles and `undefined` in
//! an array are faults naming their path. A JS number that is integral within ±(2^53−1) becomes
//! an integer; any other finite number keeps its JS text, with `.0` added when that text has no
//! fraction or exponent, so it is never an integer (validator.md §7). A lone surrogate in a
//! string or member name, or nesting deeper than `MAX_DEPTH`, is a [`Converted::NotJson`].
//!
//! N-API is a C API, so this module needs `unsafe`: every call gets the live `env` of the current
//! call and values from that same call's handle scope; statuses are checked after each call.
#![allow(unsafe_code)]

use momentum_plan::{JsonPath, MAX_DEPTH, Segment, Value};
use napi::bindgen_prelude::{JsValue, Unknown};
use napi::{Env, Error, Result, Status, sys};
use serde_json::{Map, Number};
use std::ptr;

/// The result of converting one JS value.
pub(crate) enum Converted {
    /// The JSON value (a JS string stays a `Value::String`: callers treat it as JSON text).
    Value(Value),
    /// JSON cannot hold the value for a reason the core reports as a `json` verdict: a lone
    /// surrogate, or nesting deeper than `MAX_DEPTH`. The text says what and where.
    NotJson(String),
}

/// Why a walk stopped.
enum Fault {
    /// Not a JSON value: a `TypeError` for the caller. Text is `at <path> <what>`.
    Type(String),
    /// See [`Converted::NotJson`].
    NotJson(String),
    /// An N-API call failed (e.g. a getter threw).
    Napi(Error),
}

impl From<Error> for Fault {
    fn from(e: Error) -> Fault {
        Fault::Napi(e)
    }
}

/// A path segment owned by the walk (rendered only when a fault is reported).
enum Seg {
    Key(String),
    Index(usize),
}

struct Walker {
    env: sys::napi_env,
    to_json: sys::napi_value,
    /// The segments from the root to the value being converted.
    path: Vec<Seg>,
    /// The containers from the root down, to name a cycle.
    ancestors: Vec<sys::napi_value>,
}

/// Converts `value` (the `what` argument: `plan` or `request`).
///
/// # Errors
/// `InvalidArg` with `<what> at <path> <why>` for a value JSON cannot hold; an N-API error as is.
pub(crate) fn to_value(env: &Env, value: Unknown<'_>, what: &str) -> Result<Converted> {
    let raw_env = env.raw();
    let mut to_json = ptr::null_mut();
    check(unsafe { sys::napi_create_string_utf8(raw_env, c"toJSON".as_ptr(), 6, &mut to_json) })?;
    let mut w = Walker { env: raw_env, to_json, path: Vec::new(), ancestors: Vec::new() };
    match w.convert(value.raw(), 1, None) {
        Ok(Some(v)) => Ok(Converted::Value(v)),
        Ok(None) => Err(Error::new(Status::InvalidArg, format!("{what} at $ is undefined, which JSON cannot hold"))),
        Err(Fault::Type(msg)) => Err(Error::new(Status::InvalidArg, format!("{what} {msg}"))),
        Err(Fault::NotJson(reason)) => Ok(Converted::NotJson(reason)),
        Err(Fault::Napi(e)) => Err(e),
    }
}

fn check(status: sys::napi_status) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::from(status), "N-API call failed while reading a value".to_owned()))
    }
}

impl Walker {
    fn render(&self) -> String {
        JsonPath::from_segments(self.path.iter().map(|s| match s {
            Seg::Key(k) => Segment::Key(k),
            Seg::Index(i) => Segment::Index(*i),
        }))
        .into_string()
    }

    fn type_fault(&self, what: &str) -> Fault {
        Fault::Type(format!("at {} {what}", self.render()))
    }

    fn type_of(&self, v: sys::napi_value) -> Result<sys::napi_valuetype> {
        let mut t = 0;
        check(unsafe { sys::napi_typeof(self.env, v, &mut t) })?;
        Ok(t)
    }

    /// Converts `v` at nesting level `depth` (the root is 1). `key` is the JS key `toJSON` gets
    /// (`None` for the root: `""`). `Ok(None)` means `undefined` (skipped in an object).
    fn convert(
        &mut self,
        v: sys::napi_value,
        depth: usize,
        key: Option<sys::napi_value>,
    ) -> std::result::Result<Option<Value>, Fault> {
        use sys::ValueType as T;
        let mut v = v;
        let mut t = self.type_of(v)?;
        if t == T::napi_object || t == T::napi_bigint {
            let mut f = ptr::null_mut();
            check(unsafe { sys::napi_get_property(self.env, v, self.to_json, &mut f) })?;
            if self.type_of(f)? == T::napi_function {
                let arg = match key {
                    Some(k) => k,
                    None => {
                        let mut s = ptr::null_mut();
                        check(unsafe { sys::napi_create_string_utf8(self.env, c"".as_ptr(), 0, &mut s) })?;
                        s
                    }
                };
                let mut out = ptr::null_mut();
                check(unsafe { sys::napi_call_function(self.env, v, f, 1, &arg, &mut out) })?;
                v = out;
                t = self.type_of(v)?;
            }
        }
        match t {
            T::napi_undefined => Ok(None),
            T::napi_null => Ok(Some(Value::Null)),
            T::napi_boolean => {
                let mut b = false;
                check(unsafe { sys::napi_get_value_bool(self.env, v, &mut b) })?;
                Ok(Some(Value::Bool(b)))
            }
            T::napi_number => self.number(v).map(Some),
            T::napi_string => {
                let s = self.string(v)?;
                Ok(Some(Value::String(s)))
            }
            T::napi_object => self.container(v, depth).map(Some),
            T::napi_function => Err(self.type_fault("is a function, which JSON cannot hold")),
            T::napi_symbol => Err(self.type_fault("is a symbol, which JSON cannot hold")),
            T::napi_bigint => {
                Err(self.type_fault("is a BigInt, which JSON cannot hold (pass a number, or the plan as JSON text)"))
            }
            _ => Err(self.type_fault("is not a JSON value")),
        }
    }

    fn number(&self, v: sys::napi_value) -> std::result::Result<Value, Fault> {
        let mut f = 0.0;
        check(unsafe { sys::napi_get_value_double(self.env, v, &mut f) })?;
        if !f.is_finite() {
            let what = if f.is_nan() { "NaN" } else { "an infinite number" };
            return Err(self.type_fault(&format!("is {what}, which JSON cannot hold (JSON has no NaN or Infinity)")));
        }
        const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
        if f.fract() == 0.0 && f.abs() <= MAX_SAFE {
            // Integral and exact: the cast is lossless.
            #[allow(clippy::cast_possible_truncation)]
            return Ok(Value::Number(Number::from(f as i64)));
        }
        // Keep JavaScript's own shortest text for the number, marked as a non-integer.
        let mut s = ptr::null_mut();
        check(unsafe { sys::napi_coerce_to_string(self.env, v, &mut s) })?;
        let mut text = self.string(s)?;
        if !text.bytes().any(|c| matches!(c, b'.' | b'e' | b'E')) {
            text.push_str(".0");
        }
        serde_json::from_str::<Number>(&text)
            .map(Value::Number)
            .map_err(|_| self.type_fault("is a number JSON cannot write"))
    }

    /// A JS string as UTF-8; a lone surrogate is a [`Fault::NotJson`].
    fn string(&self, v: sys::napi_value) -> std::result::Result<String, Fault> {
        let mut len = 0usize;
        check(unsafe { sys::napi_get_value_string_utf8(self.env, v, ptr::null_mut(), 0, &mut len) })?;
        let mut buf = vec![0u8; len + 1];
        let mut written = 0usize;
        check(unsafe {
            sys::napi_get_value_string_utf8(self.env, v, buf.as_mut_ptr().cast(), buf.len(), &mut written)
        })?;
        buf.truncate(written);
        let s = String::from_utf8(buf).map_err(|_| Fault::Napi(Error::from_reason("N-API gave invalid UTF-8")))?;
        // N-API writes a lone surrogate as U+FFFD: only then look at the UTF-16 units.
        if s.contains('\u{FFFD}') {
            let units = self.utf16(v)?;
            if let Some(bad) = char::decode_utf16(units.iter().copied()).find_map(std::result::Result::err) {
                return Err(Fault::NotJson(format!(
                    "the string at {} holds a lone surrogate (U+{:04X}), which is not a character",
                    self.render(),
                    bad.unpaired_surrogate()
                )));
            }
        }
        Ok(s)
    }

    fn utf16(&self, v: sys::napi_value) -> Result<Vec<u16>> {
        let mut len = 0usize;
        check(unsafe { sys::napi_get_value_string_utf16(self.env, v, ptr::null_mut(), 0, &mut len) })?;
        let mut buf = vec![0u16; len + 1];
        let mut written = 0usize;
        check(unsafe { sys::napi_get_value_string_utf16(self.env, v, buf.as_mut_ptr(), buf.len(), &mut written) })?;
        buf.truncate(written);
        Ok(buf)
    }

    fn container(&mut self, v: sys::napi_value, depth: usize) -> std::result::Result<Value, Fault> {
        if depth > MAX_DEPTH {
            return Err(self.too_deep(v)?);
        }
        self.ancestors.push(v);
        let mut is_array = false;
        check(unsafe { sys::napi_is_array(self.env, v, &mut is_array) })?;
        let out = if is_array {
            let mut len = 0u32;
            check(unsafe { sys::napi_get_array_length(self.env, v, &mut len) })?;
            let mut items = Vec::with_capacity(len as usize);
            for i in 0..len {
                let mut e = ptr::null_mut();
                check(unsafe { sys::napi_get_element(self.env, v, i, &mut e) })?;
                self.path.push(Seg::Index(i as usize));
                let key = if self.is_object_like(e)? { Some(self.index_key(i)?) } else { None };
                match self.convert(e, depth + 1, key)? {
                    Some(x) => items.push(x),
                    None => {
                        return Err(self.type_fault("is undefined inside an array, which JSON cannot hold"));
                    }
                }
                self.path.pop();
            }
            Value::Array(items)
        } else {
            let mut names = ptr::null_mut();
            check(unsafe {
                sys::napi_get_all_property_names(
                    self.env,
                    v,
                    sys::KeyCollectionMode::own_only,
                    sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
                    sys::KeyConversion::numbers_to_strings,
                    &mut names,
                )
            })?;
            let mut len = 0u32;
            check(unsafe { sys::napi_get_array_length(self.env, names, &mut len) })?;
            let mut map = Map::with_capacity(len as usize);
            for i in 0..len {
                let mut k = ptr::null_mut();
                check(unsafe { sys::napi_get_element(self.env, names, i, &mut k) })?;
                let name = self.string(k)?;
                let mut e = ptr::null_mut();
                check(unsafe { sys::napi_get_property(self.env, v, k, &mut e) })?;
                self.path.push(Seg::Key(name));
                let converted = self.convert(e, depth + 1, Some(k))?;
                let Some(Seg::Key(name)) = self.path.pop() else {
                    unreachable!("the walk pushed a key segment");
                };
                if let Some(x) = converted {
                    map.insert(name, x);
                }
            }
            Value::Object(map)
        };
        self.ancestors.pop();
        Ok(out)
    }

    fn is_object_like(&self, v: sys::napi_value) -> Result<bool> {
        let t = self.type_of(v)?;
        Ok(t == sys::ValueType::napi_object || t == sys::ValueType::napi_bigint)
    }

    /// The key `toJSON` gets for array element `i`: the index as a string.
    fn index_key(&self, i: u32) -> Result<sys::napi_value> {
        let text = i.to_string();
        let mut k = ptr::null_mut();
        check(unsafe { sys::napi_create_string_utf8(self.env, text.as_ptr().cast(), text.len() as isize, &mut k) })?;
        Ok(k)
    }

    /// A container at level `MAX_DEPTH + 1`: a cycle when one of its ancestors is also its own
    /// ancestor (a `TypeError`), else too deep (the core's `json` verdict).
    fn too_deep(&self, v: sys::napi_value) -> std::result::Result<Fault, Fault> {
        let mut chain = self.ancestors.clone();
        chain.push(v);
        for j in 1..chain.len() {
            for i in 0..j {
                let mut same = false;
                check(unsafe { sys::napi_strict_equals(self.env, chain[i], chain[j], &mut same) })?;
                if same {
                    let at = |n: usize| {
                        JsonPath::from_segments(self.path[..n].iter().map(|s| match s {
                            Seg::Key(k) => Segment::Key(k),
                            Seg::Index(i) => Segment::Index(*i),
                        }))
                        .into_string()
                    };
                    return Ok(Fault::Type(format!(
                        "at {} refers back to {} (a cycle), which JSON cannot hold",
                        at(j),
                        at(i)
                    )));
                }
            }
        }
        Ok(Fault::NotJson(format!("nesting deeper than {MAX_DEPTH} levels is not allowed")))
    }
}
