//! # momentum-plan-py
//!
//! The Python binding of the `momentum-plan` validator: the native module
//! `momentum_plan._native`, re-exported by the Python package `momentum_plan`
//! (`python/momentum_plan/`). Built by maturin as an abi3 wheel for CPython ≥ 3.10.
//!
//! The binding is thin (no validation rules, no message texts here). Each argument goes to the
//! core's one entry, [`momentum_plan::validate_input`], in its cheapest form: a `str` as its
//! UTF-8 borrowed from the `str` ([`Input::Text`]), `bytes` as they are and a `bytearray` or a
//! C-contiguous `memoryview` of format `'B'` copied ([`Input::Bytes`]: UTF-8 bytes of JSON text),
//! any other value (a `dict` or any other `Mapping`, a `list`…) walked once into the core's tree
//! (module `convert`, a [`TreeBuilder`]; [`Input::Tree`]).
//! The verdict comes back as plain dicts (module `output`). The core runs with the GIL released when
//! neither argument borrows Python memory (both built into the arena); text is read in place, so
//! the GIL stays held for it. A Rust panic never crosses into Python: it becomes a `RuntimeError`.
//!
//! Every fault text is the core's ([`momentum_plan::HostFault`]): a value JSON cannot hold becomes a
//! [`HostFault`] raised as `TypeError` ([`momentum_plan::FaultKind::is_type`]) or `ValueError`,
//! with the attributes `argument` (`"plan"`/`"request"`), `path` (the JSONPath) and `kind` (the
//! fault's stable name, e.g. `"notFinite"`); in a plan, the faults JSON text could hold too
//! (nesting too deep, lone surrogates) are the core's `json` verdict instead. Request text that is
//! not JSON raises `ValueError` ([`Argument::not_json`]; `kind` `None`, `path` `"$"`).
//!
//! Python API (see `python/momentum_plan/_native.pyi` and the README):
//! - `validate_plan(plan, request) -> dict`: the verdict (validator.md §4).
//! - `get_plan_contract() -> dict`: the contract (validator.md §2).
//! - `repair_plan(plan, request, *, unsafe=False) -> dict`: the repair (validator.md §9).
//! - `plan_schema(request, variant="validation") -> dict`: the plan's JSON Schema (§9).
//! - `PlanStream(request)`, `.push(chunk) -> list`, `.finish() -> dict`, `.repeated_name`: the plan
//!   validated as it streams (§10; module `stream`).
//! - `plan_to_icalendar(plan, request, dtstamp) -> dict` and
//!   `commitments_from_icalendar(ics, start_date, timezone) -> dict`: a valid plan as iCalendar,
//!   a calendar's week as commitments (issue 32; module `calendar`, the crate
//!   `momentum-plan-calendar`).
//! - `FORMAT`, `CONTRACT_VERSION`, `__version__`.
//! - `_walk(obj)`: bench only (the floor row of `bench.py`), not API, and only in a build with the
//!   cargo feature `bench-exports` (`build-bench-native.sh`), never in the wheel.

mod calendar;
mod convert;
mod output;
mod stream;

use momentum_plan::{
    Arena, Argument, HostFault, Input, JsonError, Repair, RepairOptions, SchemaVariant, Tree, TreeBuilder, Value,
    Verdict,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

/// The allocator for the extension's own (Rust) allocations; Python's objects are unaffected.
#[global_allocator]
static GLOBAL: momentum_plan_alloc::MiMalloc = momentum_plan_alloc::MiMalloc;

/// Validates a plan against the request it answers and returns the verdict (validator.md §4, §5).
///
/// `plan`: the plan as a `dict` or any other `collections.abc.Mapping` (any JSON value is
/// accepted; a non-object gets the `type` verdict), or its JSON text as `str`, or as UTF-8 bytes:
/// `bytes`, `bytearray` or a C-contiguous `memoryview` of format `'B'` (validated as text: `json`
/// and `size` work on the text as given, §5.1, §5.2; bytes that are not UTF-8 are a `json` error).
/// `request`: the request as a `Mapping`, or its JSON text as `str` or UTF-8 bytes.
///
/// Returns `{"valid": bool, "errors": [issue], "warnings": [issue], "checks": [str]}` with
/// issues `{"code": str, "path": str, "message": str}`, keys in that order: exactly the core's
/// verdict JSON read by `json.loads`. An invalid plan is a normal result, not an exception.
///
/// Raises `TypeError` for Python values of a type JSON has no form for (a `set`, `bytes` inside a
/// dict, a `datetime`, a non-`str` member name, any other object) and `ValueError` for NaN or
/// infinite floats and cycles, with the core's text naming the argument and the JSON path (e.g.
/// `plan at $.routine.blocks[0].start is a set, which JSON cannot hold`) and the attributes
/// `argument`, `path` and `kind`; `ValueError` for request text that is not JSON (`request is not
/// JSON: …`). A `str` holding a lone surrogate, or nesting deeper than 512 levels, in the plan gets
/// the core's `json` verdict (validator.md D12), as text would; in the request it is a
/// `ValueError`.
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

/// Whether an issue with code `code` (a `str`) is a warning rather than an error (validator.md §4,
/// §5.5: `overnight`; mcp-server.md `save_plan`: `notSaved`), that is, where a verdict lists it:
/// for a host that has an issue without its verdict, as `PlanStream.push` returns them (§10).
/// The core's rule (`IssueCode::is_warning`); `False` for a string that is no issue code.
#[pyfunction]
fn is_warning(code: &str) -> bool {
    code.parse::<momentum_plan::IssueCode>().is_ok_and(momentum_plan::IssueCode::is_warning)
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

/// Repairs a plan against the request it answers (validator.md §9): applies the validator's safe
/// fixes (and unsafe ones when `unsafe` is true; placeholders never), validates again, to a fixed
/// point, and returns the `Repair` as a new `dict`: `plan` (the repaired plan's JSON text),
/// `patch` (RFC 6902, `test`-guarded), `applied`, `offered`, `verdict`, `rounds`, `stopped`,
/// `revealed`, `requestAtFault`: exactly the core's `Repair::to_json` read by `json.loads`.
///
/// The arguments are read exactly as `validate_plan` reads them, with the same exceptions; a plan
/// JSON cannot carry as text (a lone surrogate, nesting over 512 levels) gets the `json` verdict,
/// `plan` `""` (or, for a `str`, its text with U+FFFD for the surrogates) and nothing applied.
///
/// `unsafe` must be a `bool` (`None`, as left out, is `False`); anything else is a `TypeError`
/// naming its type: `unsafe is a str; pass True or False` ([`convert::keyword_bool`]), as the JS
/// packages say `options.unsafe is a string; pass true or false`.
#[pyfunction]
#[pyo3(signature = (plan, request, *, r#unsafe = None), text_signature = "(plan, request, *, unsafe=False)")]
fn repair_plan<'py>(
    py: Python<'py>,
    plan: &Bound<'py, PyAny>,
    request: &Bound<'py, PyAny>,
    r#unsafe: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let unsafe_fixes = convert::keyword_bool("unsafe", r#unsafe)?;
        let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
        let arena = Arena::with_capacity(4096);
        let request_read = match read(request, Argument::Request, &arena)? {
            Read::NotText(e) => return Err(request_not_json(py, &e)),
            Read::Fault(f) => return Err(host_error(py, &f)),
            ok => ok,
        };
        let (request_in, request_borrowed) = request_read.input();
        // A plan JSON text cannot carry: the core's `json` verdict, as `validate_plan` gives it.
        let not_json = |error: &JsonError, text: String| -> PyResult<Repair> {
            Repair::not_json(text, error, request_in).map_err(|e| request_not_json(py, &e))
        };
        let plan_read = match read(plan, Argument::Plan, &arena)? {
            Read::NotText(e) => {
                let text = plan.cast::<PyString>().map(|s| convert::lone_surrogate(s).map(|(_, _, lossy)| lossy));
                let text = match text {
                    Ok(t) => t?,
                    Err(_) => String::new(),
                };
                return output::repair(py, &not_json(&e, text)?);
            }
            Read::Fault(f) => match f.json_error() {
                Some(e) => return output::repair(py, &not_json(&e, String::new())?),
                None => return Err(host_error(py, &f)),
            },
            ok => ok,
        };
        let (plan_in, plan_borrowed) = plan_read.input();
        let repaired = if plan_borrowed || request_borrowed {
            momentum_plan::repair(plan_in, request_in, &options)
        } else {
            py.detach(|| momentum_plan::repair(plan_in, request_in, &options))
        };
        output::repair(py, &repaired.map_err(|e| request_not_json(py, &e))?)
    })
}

/// The JSON Schema (2020-12) of the plan that answers `request` (validator.md §9), as a new
/// `dict` (the core's schema JSON read by `json.loads`). `variant`: `"validation"` (accepts every
/// plan the validator accepts) or `"strict"` (the providers' structured-output subset).
///
/// The request is read exactly as `validate_plan` reads it, with the same exceptions. Raises
/// `ValueError` with the core's text for an unknown variant and for a request at fault (no plan
/// can satisfy it: `no plan can satisfy this request; the request must change: …`; with
/// `.argument` `"request"`, `.path` `"$"` and `.kind` `None`, as the JS packages' `Error`).
#[pyfunction]
#[pyo3(signature = (request, variant = "validation"))]
fn plan_schema<'py>(py: Python<'py>, request: &Bound<'py, PyAny>, variant: &str) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let value = request_value(py, request)?;
        let variant = SchemaVariant::from_name(variant).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let schema = py.detach(|| momentum_plan::plan_schema(&value, variant));
        let at_fault = |e: momentum_plan::SchemaError| {
            place(py, PyValueError::new_err(e.to_string()), Argument::Request, "$", None)
        };
        output::value(py, &schema.map_err(at_fault)?)
    })
}

/// A request read as `validate_plan` reads it, into the core's `Value` (for the calls that keep
/// it: `plan_schema`, `PlanStream`), with the same exceptions.
fn request_value(py: Python<'_>, request: &Bound<'_, PyAny>) -> PyResult<Value> {
    let arena = Arena::with_capacity(1024);
    Ok(match read(request, Argument::Request, &arena)? {
        Read::NotText(e) => return Err(request_not_json(py, &e)),
        Read::Fault(f) => return Err(host_error(py, &f)),
        Read::Text(t) => momentum_plan::parse_json(t).map_err(|e| request_not_json(py, &e))?,
        Read::Bytes(b) => momentum_plan::parse_json_bytes(b).map_err(|e| request_not_json(py, &e))?,
        Read::OwnedBytes(b) => momentum_plan::parse_json_bytes(&b).map_err(|e| request_not_json(py, &e))?,
        Read::Tree(t) => t.to_value(),
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

/// One argument, read into the form the core takes most cheaply: text stays text (the core
/// parses it once into its tree), bytes stay bytes, anything else is walked into a tree in
/// `arena` ([`convert`]).
enum Read<'a> {
    /// Borrowed from the `str` (its UTF-8, cached by CPython).
    Text(&'a str),
    /// Borrowed from a `bytes`.
    Bytes(&'a [u8]),
    /// Copied from a `bytearray` or a `memoryview` (their contents can change under a borrow).
    OwnedBytes(Vec<u8>),
    Tree(Tree<'a>),
    /// A `str` holding a lone surrogate, which is not text: the core's fault, with line and column.
    NotText(JsonError),
    /// A value JSON cannot hold (the core's words).
    Fault(HostFault),
}

fn read<'a>(obj: &'a Bound<'_, PyAny>, argument: Argument, arena: &'a Arena) -> PyResult<Read<'a>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(if let Ok(text) = convert::utf8(s)? {
            Read::Text(text)
        } else {
            let (before, unit, _) = convert::lone_surrogate(s)?;
            Read::NotText(JsonError::lone_surrogate_in_text(unit, &before))
        });
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Read::Bytes(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Read::OwnedBytes(b.to_vec()));
    }
    if let Some(bytes) = memoryview_bytes(obj)? {
        return Ok(Read::OwnedBytes(bytes));
    }
    let mut builder = TreeBuilder::new(arena);
    match convert::Walk::new(&mut builder).value(obj) {
        Ok(()) => match builder.finish() {
            Some(tree) => Ok(Read::Tree(tree)),
            None => {
                Err(PyRuntimeError::new_err("momentum_plan internal error (a bug, please report it): tree misbuilt"))
            }
        },
        Err(fault) => fault.into_host(argument).map(Read::Fault),
    }
}

/// The bytes of a C-contiguous `memoryview` of format `'B'` (unsigned bytes: UTF-8 text, as
/// `bytes` would hold it), copied; `None` for any other object, and for a `memoryview` of other
/// items (the walk then refuses it as a type JSON has no form for).
fn memoryview_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let Ok(view) = obj.cast::<PyMemoryView>() else {
        return Ok(None);
    };
    let py = obj.py();
    if !view.getattr(intern!(py, "c_contiguous"))?.is_truthy()? || view.getattr(intern!(py, "format"))?.ne("B")? {
        return Ok(None);
    }
    let bytes = view.call_method0(intern!(py, "tobytes"))?;
    Ok(Some(bytes.cast::<PyBytes>()?.as_bytes().to_vec()))
}

impl<'a> Read<'a> {
    /// The core's input, and whether it borrows Python memory (then the GIL stays held).
    fn input(&'a self) -> (Input<'a>, bool) {
        match self {
            Read::Text(t) => (Input::Text(t), true),
            Read::Bytes(b) => (Input::Bytes(b), true),
            Read::OwnedBytes(b) => (Input::Bytes(b), false),
            Read::Tree(t) => (Input::Tree(t), false),
            // Not reached: faults are handled before the core is called.
            Read::NotText(_) | Read::Fault(_) => (Input::Text(""), false),
        }
    }
}

fn verdict_for(py: Python<'_>, plan: &Bound<'_, PyAny>, request: &Bound<'_, PyAny>) -> PyResult<Verdict> {
    let arena = Arena::with_capacity(4096);
    // The request first: its faults are the caller's error whatever the plan holds.
    let request = match read(request, Argument::Request, &arena)? {
        Read::NotText(e) => return Err(request_not_json(py, &e)),
        Read::Fault(f) => return Err(host_error(py, &f)),
        ok => ok,
    };
    let plan = match read(plan, Argument::Plan, &arena)? {
        Read::NotText(e) => return not_json_plan(py, &e, &request),
        Read::Fault(f) => match f.json_error() {
            Some(e) => return not_json_plan(py, &e, &request),
            None => return Err(host_error(py, &f)),
        },
        ok => ok,
    };
    let ((plan, plan_borrowed), (request_in, request_borrowed)) = (plan.input(), request.input());
    let verdict = if plan_borrowed || request_borrowed {
        momentum_plan::validate_input(plan, request_in)
    } else {
        py.detach(|| momentum_plan::validate_input(plan, request_in))
    };
    verdict.map_err(|e| request_not_json(py, &e))
}

/// The `json` verdict for a plan JSON cannot carry (D12). Request text is still read, so request
/// text that is not JSON raises whatever the plan holds.
fn not_json_plan(py: Python<'_>, error: &JsonError, request: &Read<'_>) -> PyResult<Verdict> {
    if let Read::Text(_) | Read::Bytes(_) | Read::OwnedBytes(_) = request {
        momentum_plan::validate_input(Input::Text("{}"), request.input().0).map_err(|e| request_not_json(py, &e))?;
    }
    Ok(Verdict::not_json(error))
}

/// `ValueError(request is not JSON: …)` with `.argument` `"request"`, `.path` `"$"` and `.kind`
/// `None`.
fn request_not_json(py: Python<'_>, error: &JsonError) -> PyErr {
    let err = PyValueError::new_err(Argument::Request.not_json(error));
    place(py, err, Argument::Request, "$", None)
}

/// The exception for a host fault: `TypeError` for a type JSON has no form for, else
/// `ValueError`; the core's text, with `.argument`, `.path` and `.kind` (the fault's stable name).
fn host_error(py: Python<'_>, fault: &HostFault) -> PyErr {
    let text = fault.to_string();
    let err = if fault.kind.is_type() { PyTypeError::new_err(text) } else { PyValueError::new_err(text) };
    place(py, err, fault.argument, &fault.path, Some(fault.kind.as_str()))
}

/// Sets `.argument`, `.path` and `.kind` on the exception (plain attributes of the instance; a
/// failure to set them leaves the exception as it is).
fn place(py: Python<'_>, err: PyErr, argument: Argument, path: &str, kind: Option<&str>) -> PyErr {
    let value = err.value(py);
    let _ = value.setattr(intern!(py, "argument"), argument.as_str());
    let _ = value.setattr(intern!(py, "path"), path);
    let _ = value.setattr(intern!(py, "kind"), kind);
    err
}

/// Bench only (`bench.py`'s floor row; feature `bench-exports`), not part of the API: walks `obj`
/// exactly as `validate_plan` walks a dict, reading every value, and builds nothing. Returns the
/// number of values read and the UTF-8 bytes of their strings and member names.
#[cfg(feature = "bench-exports")]
#[pyfunction]
fn _walk(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    let mut count = convert::Count::default();
    match convert::Walk::new(&mut count).value(obj) {
        Ok(()) => Ok((count.values, count.bytes)),
        Err(fault) => Err(host_error(py, &fault.into_host(Argument::Plan)?)),
    }
}

/// The native module `momentum_plan._native`; import `momentum_plan` instead.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(validate_plan, m)?)?;
    m.add_function(wrap_pyfunction!(get_plan_contract, m)?)?;
    m.add_function(wrap_pyfunction!(repair_plan, m)?)?;
    m.add_function(wrap_pyfunction!(plan_schema, m)?)?;
    m.add_function(wrap_pyfunction!(is_warning, m)?)?;
    m.add_function(wrap_pyfunction!(calendar::plan_to_icalendar, m)?)?;
    m.add_function(wrap_pyfunction!(calendar::commitments_from_icalendar, m)?)?;
    m.add_class::<stream::PlanStream>()?;
    #[cfg(feature = "bench-exports")]
    m.add_function(wrap_pyfunction!(_walk, m)?)?;
    m.add("FORMAT", momentum_plan::FORMAT)?;
    m.add("CONTRACT_VERSION", momentum_plan::CONTRACT_VERSION)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The public names (as in `_native.pyi`); `_walk` is bench only and stays out.
    m.add(
        "__all__",
        [
            "validate_plan",
            "repair_plan",
            "plan_schema",
            "plan_to_icalendar",
            "commitments_from_icalendar",
            "PlanStream",
            "is_warning",
            "get_plan_contract",
            "FORMAT",
            "CONTRACT_VERSION",
            "__version__",
        ],
    )?;
    Ok(())
}
