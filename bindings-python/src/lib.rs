//! # momentum-plan-py
//!
//! The Python binding of the `momentum-plan` validator: the native module
//! `momentum_plan._native`, re-exported by the Python package `momentum_plan`
//! (`python/momentum_plan/`). Built by maturin as an abi3 wheel for CPython ≥ 3.9.
//!
//! The binding is thin (no validation rules here): it converts Python values to
//! [`momentum_plan::Value`] ([`convert`]), calls the core, and converts the verdict back
//! ([`output`]). Plan text (`str`, `bytes`) is validated with the GIL released; so is an object
//! plan once converted. A Rust panic never crosses into Python: it becomes a `RuntimeError`.
//!
//! Python API (see `python/momentum_plan/_native.pyi` and the README):
//! - `validate_plan(plan, request) -> dict`: the verdict (validator.md §4).
//! - `get_plan_contract() -> dict`: the contract (validator.md §2).
//! - `FORMAT`, `CONTRACT_VERSION`, `__version__`.

mod convert;
mod output;

use momentum_plan::{JsonError, Value, Verdict};
use pyo3::exceptions::{PyRuntimeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

/// The allocator for the extension's own (Rust) allocations; Python's objects are unaffected.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Validates a plan against the request it answers and returns the verdict (validator.md §4, §5).
///
/// `plan`: the plan as a `dict` (any JSON value is accepted; a non-object gets the `type`
/// verdict), or its JSON text as `str` or `bytes` (validated as text: `json` and `size` work on
/// the text as given). `request`: the request as a `dict`, or its JSON text as `str` or `bytes`.
///
/// Returns `{"valid": bool, "errors": [issue], "warnings": [issue], "checks": [str]}` with
/// issues `{"code": str, "path": str, "message": str}`, keys in that order: exactly the core's
/// verdict JSON read by `json.loads`. An invalid plan is a normal result, not an exception.
///
/// Raises `TypeError` for Python values JSON has no form for (a `set`, `bytes` inside a dict,
/// a `datetime`, a non-`str` member name, any other object) and `ValueError` for NaN or infinite
/// floats and cycles, each naming the JSON path of the value (e.g. `plan at $.routine.blocks[0]
/// .start: ...`); `ValueError` for request text that is not JSON. A `str` holding a lone
/// surrogate, or nesting deeper than 512 levels, in the plan gets the core's `json` verdict
/// (validator.md D12), as text would.
#[pyfunction]
#[pyo3(signature = (plan, request))]
fn validate_plan<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyAny>,
    request: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let verdict = verdict_for(py, plan, request)?;
        output::verdict(py, &verdict)
    })
}

/// Returns the plan contract (validator.md §2) as a new `dict`: `format`, `contractVersion`,
/// `categories` (`[{"id", "means"}]`), `weekdays`, `limits` (counts, Unicode scalar values,
/// bytes, minutes) and `rules`, in that order.
#[pyfunction]
fn get_plan_contract(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static CONTRACT: OnceLock<Value> = OnceLock::new();
    guard(|| {
        let contract = CONTRACT.get_or_init(|| serde_json::to_value(momentum_plan::contract()).unwrap_or(Value::Null));
        output::value(py, contract)
    })
}

/// Runs `f`, turning a Rust panic into a Python `RuntimeError` (never a crash, never a
/// `PanicException`).
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        Err(PyRuntimeError::new_err(format!("momentum_plan internal error (a bug, please report it): {what}")))
    })
}

fn verdict_for(py: Python<'_>, plan: &Bound<'_, PyAny>, request: &Bound<'_, PyAny>) -> PyResult<Verdict> {
    let request = request_value(request)?;
    if let Ok(s) = plan.cast::<PyString>() {
        return match s.to_cow() {
            Ok(text) => Ok(py.detach(|| momentum_plan::validate_text(&text, &request))),
            Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(py) => Ok(Verdict::not_json(&surrogate_in_text(s)?)),
            Err(e) => Err(e),
        };
    }
    if let Ok(b) = plan.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        return Ok(py.detach(|| momentum_plan::validate_bytes(bytes, &request)));
    }
    match convert::Walk::new().value(plan, 1) {
        Ok(value) => Ok(py.detach(|| momentum_plan::validate(&value, &request))),
        Err(fault) => fault.into_plan_outcome().map(|e| Verdict::not_json(&e)),
    }
}

/// The request as a value: a `str`/`bytes` is JSON text (read strictly), anything else is
/// converted like the plan.
fn request_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let parsed = if let Ok(s) = obj.cast::<PyString>() {
        match s.to_cow() {
            Ok(text) => momentum_plan::json::parse(&text),
            Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(obj.py()) => Err(surrogate_in_text(s)?),
            Err(e) => return Err(e),
        }
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        momentum_plan::json::parse_bytes(b.as_bytes())
    } else {
        return convert::Walk::new().value(obj, 1).map_err(|f| f.into_pyerr("request"));
    };
    parsed.map_err(|e| PyValueError::new_err(format!("request is not valid JSON: {e}")))
}

/// The `json` fault for text holding a lone surrogate, at its line and column (in characters).
fn surrogate_in_text(s: &Bound<'_, PyString>) -> PyResult<JsonError> {
    let (before, cp) = convert::lone_surrogate(s)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Ok(JsonError {
        reason: format!("lone surrogate U+{cp:04X} in the text (a lone surrogate is not a character)"),
        line,
        column,
    })
}

/// The native module `momentum_plan._native`; import `momentum_plan` instead.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(validate_plan, m)?)?;
    m.add_function(wrap_pyfunction!(get_plan_contract, m)?)?;
    m.add("FORMAT", momentum_plan::FORMAT)?;
    m.add("CONTRACT_VERSION", momentum_plan::CONTRACT_VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
