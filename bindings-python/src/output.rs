//! Verdicts and JSON values to Python objects: plain `dict`, `list`, `str`, `int`, `float`,
//! `bool` and `None`, keys in the order the spec gives (validator.md §2, §4).

use momentum_plan::{Check, Fix, Issue, IssueCode, Repair, Value, Verdict};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};

/// The check names and issue codes as interned Python strings, made once per interpreter (a
/// verdict then holds shared `str` objects instead of new ones).
struct Names {
    checks: Vec<Py<PyString>>,
    codes: Vec<Py<PyString>>,
}

fn names(py: Python<'_>) -> &Names {
    static NAMES: PyOnceLock<Names> = PyOnceLock::new();
    NAMES.get_or_init(py, || Names {
        checks: Check::ALL.iter().map(|c| PyString::intern(py, c.as_str()).unbind()).collect(),
        codes: IssueCode::ALL.iter().map(|c| PyString::intern(py, c.as_str()).unbind()).collect(),
    })
}

fn check_name(py: Python<'_>, c: Check) -> Bound<'_, PyString> {
    match Check::ALL.iter().position(|x| *x == c) {
        Some(i) => names(py).checks[i].bind(py).clone(),
        None => PyString::intern(py, c.as_str()),
    }
}

fn code_name(py: Python<'_>, c: IssueCode) -> Bound<'_, PyString> {
    match IssueCode::ALL.iter().position(|x| *x == c) {
        Some(i) => names(py).codes[i].bind(py).clone(),
        None => PyString::intern(py, c.as_str()),
    }
}

/// The verdict as `{"valid", "errors", "warnings", "checks"}` with issues `{"code", "path",
/// "message"}` (validator.md §4): equal to the core's `Verdict::to_json` read by `json.loads`.
pub(crate) fn verdict<'py>(py: Python<'py>, v: &Verdict) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "valid"), v.valid)?;
    d.set_item(intern!(py, "errors"), issues(py, &v.errors)?)?;
    d.set_item(intern!(py, "warnings"), issues(py, &v.warnings)?)?;
    // Made at its final length (no appends that grow it).
    let checks = PyList::new(py, v.checks.iter().map(|c| check_name(py, *c)))?;
    d.set_item(intern!(py, "checks"), checks)?;
    Ok(d)
}

pub(crate) fn issues<'py>(py: Python<'py>, list: &[Issue]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for i in list {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "code"), code_name(py, i.code))?;
        d.set_item(intern!(py, "path"), &i.path)?;
        d.set_item(intern!(py, "message"), &i.message)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The repair as `{"plan", "patch", "applied", "offered", "verdict", "rounds", "stopped",
/// "revealed", "requestAtFault"}` with fixes `{"code", "path", "applicability", "description"}`
/// (validator.md §9): equal to the core's `Repair::to_json` read by `json.loads`.
pub(crate) fn repair<'py>(py: Python<'py>, r: &Repair) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "plan"), &r.plan)?;
    let patch = PyList::empty(py);
    for op in &r.patch {
        patch.append(value(py, op)?)?;
    }
    d.set_item(intern!(py, "patch"), patch)?;
    d.set_item(intern!(py, "applied"), fixes(py, &r.applied)?)?;
    d.set_item(intern!(py, "offered"), fixes(py, &r.offered)?)?;
    d.set_item(intern!(py, "verdict"), verdict(py, &r.verdict)?)?;
    d.set_item(intern!(py, "rounds"), r.rounds)?;
    d.set_item(intern!(py, "stopped"), PyString::intern(py, r.stopped.as_str()))?;
    d.set_item(intern!(py, "revealed"), issues(py, &r.revealed)?)?;
    d.set_item(intern!(py, "requestAtFault"), PyList::new(py, &r.request_at_fault)?)?;
    Ok(d)
}

fn fixes<'py>(py: Python<'py>, list: &[Fix]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for f in list {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "code"), code_name(py, f.code))?;
        d.set_item(intern!(py, "path"), &f.path)?;
        d.set_item(intern!(py, "applicability"), PyString::intern(py, f.applicability.as_str()))?;
        d.set_item(intern!(py, "description"), &f.description)?;
        out.append(d)?;
    }
    Ok(out)
}

/// A JSON value as plain Python data; objects keep their member order. Integers become `int`
/// (exact, any size), other numbers `float`. Recursion is bounded by the value's depth, which is
/// small for the values given here (the contract).
pub(crate) fn value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else if !n.as_str().bytes().any(|c| matches!(c, b'.' | b'e' | b'E')) {
                // An integer literal beyond 64 bits: exact, as `json.loads` reads it.
                big_int(py, n.as_str())?
            } else {
                // As `json.loads` (`float(literal)`): correctly rounded, ±inf beyond the range.
                n.as_str().parse::<f64>().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let out = PyList::empty(py);
            for x in a {
                out.append(value(py, x)?)?;
            }
            out.into_any()
        }
        Value::Object(m) => {
            let out = PyDict::new(py);
            for (k, x) in m {
                out.set_item(k, value(py, x)?)?;
            }
            out.into_any()
        }
    })
}

/// An integer literal (digits, optional `-`) as an exact Python `int`, in chunks of at most 4,000
/// digits, so `sys.int_max_str_digits` (4,300 by default) never refuses a long one.
fn big_int<'py>(py: Python<'py>, digits: &str) -> PyResult<Bound<'py, PyAny>> {
    const CHUNK: usize = 4000;
    let int = py.get_type::<pyo3::types::PyInt>();
    let (negative, body) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    let mut out = 0u8.into_pyobject(py)?.into_any();
    let mut start = 0;
    while start < body.len() {
        let end = (start + CHUNK).min(body.len());
        let part = int.call1((&body[start..end],))?;
        let scale = 10u8.into_pyobject(py)?.pow(end - start, py.None())?;
        out = out.mul(scale)?.add(part)?;
        start = end;
    }
    if negative { out.neg() } else { Ok(out) }
}
