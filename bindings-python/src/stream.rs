//! `PlanStream`: the core's [`momentum_plan::PlanStream`] (validator.md §10) as a Python class.
//! Thin: it converts the request and each chunk, calls the core, and converts the issues and the
//! verdict back (module `output`), as `validate_plan` does.

use crate::{guard, output, request_value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

/// The message for a call after `finish` (the stream has given its verdict).
const FINISHED: &str = momentum_plan::PlanStream::FINISHED;

/// A plan validated as it arrives (validator.md §10): `PlanStream(request)`, then `push(chunk)`
/// any number of times, then `finish()`.
///
/// `request`: as `validate_plan` takes it (a `Mapping`, or its JSON text as `str` or UTF-8
/// bytes), with the same exceptions.
#[pyclass(module = "momentum_plan._native", name = "PlanStream")]
pub(crate) struct PlanStream {
    inner: Option<momentum_plan::PlanStream>,
}

#[pymethods]
impl PlanStream {
    #[new]
    fn new(py: Python<'_>, request: &Bound<'_, PyAny>) -> PyResult<PlanStream> {
        guard(|| Ok(PlanStream { inner: Some(momentum_plan::PlanStream::new(request_value(py, request)?)) }))
    }

    /// Reads the next chunk of the plan's text and returns the issues that became settled with it
    /// (no continuation of the text can remove them), as a list of `{"code", "path", "message"}`
    /// dicts worded exactly as the final verdict words them, in the order they settled.
    ///
    /// `chunk`: `str` (its UTF-8), or `bytes` / `bytearray` (split anywhere, even inside a UTF-8
    /// sequence). Raises `TypeError` for any other type, `ValueError` for a `str` holding a lone
    /// surrogate (UTF-8 cannot carry it; `validate_plan` of such a whole `str` is a `json` error)
    /// and `ValueError` after `finish`.
    fn push<'py>(&mut self, py: Python<'py>, chunk: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        guard(|| {
            let stream = self.inner.as_mut().ok_or_else(|| PyValueError::new_err(FINISHED))?;
            let settled = if let Ok(s) = chunk.cast::<PyString>() {
                let text = s.to_str().map_err(|_| {
                    PyValueError::new_err(
                        "PlanStream.push: the str holds a lone surrogate, which UTF-8 text cannot carry",
                    )
                })?;
                stream.push(text.as_bytes())
            } else if let Ok(b) = chunk.cast::<PyBytes>() {
                stream.push(b.as_bytes())
            } else if let Ok(b) = chunk.cast::<PyByteArray>() {
                stream.push(&b.to_vec())
            } else {
                return Err(PyTypeError::new_err(format!(
                    "PlanStream.push takes str, bytes or bytearray, not {}",
                    chunk.get_type().name()?
                )));
            };
            output::issues(py, &settled)
        })
    }

    /// The verdict on all the text pushed, exactly `validate_plan` of it as bytes (a text that
    /// ended early gets the `json` error saying inside what). The stream is then spent: a later
    /// `push` or `finish` raises `ValueError`.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard(|| {
            let stream = self.inner.take().ok_or_else(|| PyValueError::new_err(FINISHED))?;
            output::verdict(py, &py.detach(|| stream.finish()))
        })
    }

    /// Whether a member name has repeated: from then on nothing settles, and only `finish`
    /// counts (validator.md §10, §7). `False` after `finish`.
    #[getter]
    fn repeated_name(&self) -> bool {
        self.inner.as_ref().is_some_and(momentum_plan::PlanStream::repeated_name)
    }

    /// How many bytes have been pushed (0 after `finish`).
    fn __len__(&self) -> usize {
        self.inner.as_ref().map_or(0, momentum_plan::PlanStream::len)
    }
}
