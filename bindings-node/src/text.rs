//! The text way in: the hot path of `validatePlan` (README, "Conversion").
//!
//! A JS string is read with one N-API copy into a buffer sized from its UTF-16 length (napi-rs's
//! `String` argument scans the string once for its UTF-8 length, then copies it again: about
//! 2.7× slower on a 1.7 KB plan, README "Conversion"). The verdict goes back as one
//! string, the core's `Verdict::to_packed`, that the shared converter splits (`unpackVerdict` in
//! `js/convert.js`), about half the cost of `JSON.parse` of the verdict JSON and a third of
//! building the objects through N-API.
//!
//! N-API is a C API, so reading a string needs `unsafe`: the `env` and the value are those of the
//! current call, the buffer is as large as N-API is told, and statuses are checked after each call.
#![allow(unsafe_code)]

use napi::bindgen_prelude::{JsValue, Unknown};
use napi::{Error, Result, Status, sys};
use std::ptr;

/// A plan or request as the shared converter hands it over (validator.md §3): JSON text as a JS
/// string, or the UTF-8 bytes of JSON text as a `Uint8Array` (a `Buffer`, a `Uint8Array`, an
/// `ArrayBuffer` or a byte view the caller passed, which the converter views as a `Uint8Array`).
pub(crate) enum Text<'a> {
    /// Read from a JS string (one copy, [`read_string`]).
    Str(String),
    /// Borrowed from the `Uint8Array`'s memory for the length of the call (no copy).
    Bytes(&'a [u8]),
}

impl Text<'_> {
    /// The text as the native side takes it ([`momentum_plan_js::Text`]).
    pub(crate) fn js(&self) -> momentum_plan_js::Text<'_> {
        match self {
            Text::Str(s) => momentum_plan_js::Text::Str(s),
            Text::Bytes(b) => momentum_plan_js::Text::Bytes(b),
        }
    }
}

impl Text<'_> {
    /// The text's UTF-8 bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Text::Str(s) => s.as_bytes(),
            Text::Bytes(b) => b,
        }
    }
}

/// The JS value `value` as [`Text`]: a `Uint8Array`'s bytes as they are, else a string as
/// [`read_string`] reads it (`what` names it in errors).
///
/// # Errors
/// `StringExpected` when `value` is neither a string nor a `Uint8Array`; `GenericFailure` if
/// N-API fails otherwise.
pub(crate) fn read_text<'a>(value: &'a Unknown<'_>, what: &str) -> Result<Text<'a>> {
    let env = value.value().env;
    let raw = value.raw();
    let mut is_typed = false;
    // SAFETY: `env` and `raw` belong to the current call.
    check(unsafe { sys::napi_is_typedarray(env, raw, &raw mut is_typed) }, what)?;
    if !is_typed {
        return read_string(value, what).map(Text::Str);
    }
    let mut kind: sys::napi_typedarray_type = -1;
    let mut len = 0usize;
    let mut data: *mut std::ffi::c_void = ptr::null_mut();
    let mut buffer: sys::napi_value = ptr::null_mut();
    let mut offset = 0usize;
    // SAFETY: `raw` is a typed array of the current call; N-API fills the out-parameters, `data`
    // pointing at its first element (already moved by its byte offset).
    check(
        unsafe {
            sys::napi_get_typedarray_info(
                env,
                raw,
                &raw mut kind,
                &raw mut len,
                &raw mut data,
                &raw mut buffer,
                &raw mut offset,
            )
        },
        what,
    )?;
    if kind != sys::TypedarrayType::uint8_array {
        return Err(Error::new(Status::StringExpected, format!("{what} must be a string or a Uint8Array")));
    }
    if len == 0 || data.is_null() {
        return Ok(Text::Bytes(&[]));
    }
    // SAFETY: N-API reports `len` bytes at `data`, the array's memory, which stays alive and
    // unmoved while the argument is (for the whole synchronous call: no JS runs until it returns).
    Ok(Text::Bytes(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), len) }))
}

/// The JS string `value` as UTF-8 (`what` names it in errors).
///
/// Input: any JS value; a string holding no lone surrogate reads exactly (the wrapper checks with
/// `isWellFormed` first; N-API would write U+FFFD for one). Output: the text; its length in bytes
/// is at most 3 × its length in UTF-16 code units, which is the buffer given to N-API, so nothing
/// is ever cut.
///
/// # Errors
/// `StringExpected` when `value` is not a string; `GenericFailure` if N-API fails otherwise or
/// (it never does) writes bytes that are not UTF-8.
pub(crate) fn read_string(value: &Unknown<'_>, what: &str) -> Result<String> {
    let env = value.value().env;
    let raw = value.raw();
    let mut units = 0usize;
    // SAFETY: `env` and `raw` belong to the current call; a null buffer asks only for the length.
    let status = unsafe { sys::napi_get_value_string_utf16(env, raw, ptr::null_mut(), 0, &raw mut units) };
    if status == sys::Status::napi_string_expected {
        return Err(Error::new(Status::StringExpected, format!("{what} must be a string")));
    }
    check(status, what)?;
    let capacity = units.saturating_mul(3).saturating_add(1);
    let mut buf: Vec<u8> = Vec::with_capacity(capacity);
    let mut written = 0usize;
    // SAFETY: `buf` has room for `capacity` bytes and N-API is told exactly that; it writes at most
    // `capacity - 1` bytes and a NUL, and reports in `written` how many bytes before the NUL.
    check(
        unsafe { sys::napi_get_value_string_utf8(env, raw, buf.as_mut_ptr().cast(), capacity, &raw mut written) },
        what,
    )?;
    // SAFETY: N-API initialized the first `written` bytes (written < capacity).
    unsafe { buf.set_len(written.min(capacity)) };
    String::from_utf8(buf).map_err(|_| Error::new(Status::GenericFailure, format!("{what}: N-API wrote invalid UTF-8")))
}

fn check(status: sys::napi_status, what: &str) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(Status::GenericFailure, format!("reading {what} failed (N-API status {status})")))
    }
}
