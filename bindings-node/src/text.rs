//! The text way in: the hot path of `validatePlan` (README, "Conversion").
//!
//! A JS string is read with one N-API copy into a buffer sized from its UTF-16 length (napi-rs's
//! `String` argument scans the string once for its UTF-8 length, then copies it again: about
//! 2.7× slower on a 1.7 KB plan, `bench/README` has the probe). The verdict goes back as one
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
