//! What both of the package's modules hold alike (the validator, `bindings-wasm/src/lib.rs`; the
//! extras, `bindings-wasm/extras/src/lib.rs`, which includes this file by its path): the allocator
//! and the `TypeError` a [`js::Misuse`] is thrown as. A file, not a crate both depend on, so that
//! neither module links the other's exports.

use momentum_plan_js as js;
use wasm_bindgen::prelude::*;

/// The allocator: talc instead of Rust's default dlmalloc, for size (README "Size").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TypeError)]
    pub(crate) type JsTypeError;
    #[wasm_bindgen(constructor, js_class = "TypeError")]
    pub(crate) fn new(message: &str) -> JsTypeError;
}

/// A text answer, or a thrown `TypeError` for a [`js::Misuse`].
pub(crate) type Out = Result<String, JsValue>;

/// A [`js::Misuse`] as the `TypeError` the shim throws.
pub(crate) fn misuse(m: js::Misuse) -> JsValue {
    JsTypeError::new(&m.0).into()
}
