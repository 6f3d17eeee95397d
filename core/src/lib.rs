//! # momentum-plan
//!
//! The `daily-momentum-ai-plan` contract and its validator: a pure, deterministic function
//! `(plan, request) -> Verdict` that says where each error is (a JSONPath) and what to change,
//! so the model that drafted the plan can fix it. Specified by `shared/spec/validator.md`; every
//! binding and server of this project exposes exactly this crate's behaviour.
//!
//! The crate does no I/O, reads no clock, environment or randomness and holds no mutable global
//! state (enforced by `clippy.toml`'s disallowed methods and `-D warnings`). It builds for native
//! targets, `wasm32-unknown-unknown` and `wasm32-wasip2`, and gives byte-identical verdicts on all.
//!
//! ```
//! use momentum_plan::{validate_text, Value};
//! let request: Value = serde_json::json!({"requestId": "r1", "kind": "routine"});
//! let verdict = validate_text("{\"format\": 1}", &request);
//! assert!(!verdict.valid);
//! assert_eq!(verdict.errors[0].code.as_str(), "format");
//! assert_eq!(verdict.errors[0].path, "$.format");
//! ```

mod builder;
mod contract;
mod fix;
mod host;
mod json;
mod messages;
mod path;
mod quote;
mod repair;
mod schema;
mod span;
mod stream;
mod tree;
mod validate;
mod verdict;

pub use builder::{Arena, Tree, TreeBuilder};
pub use contract::{
    CATEGORIES, CONTRACT_VERSION, Category, Contract, FORMAT, LIMITS, Limits, RULES, WEEKDAYS, contract, is_category,
    weekday_index,
};
pub use fix::{Applicability, Fix};
pub use host::{Argument, FaultKind, HostFault, float_text};
pub use json::{
    JsonError, JsonErrorKind, MAX_DEPTH, line_column, parse as parse_json, parse_bytes as parse_json_bytes,
};
pub use path::{JsonPath, Segment};
pub use quote::json_string;
pub use repair::{Repair, RepairOptions, Stop, repair};
pub use schema::{SchemaError, SchemaVariant, plan_schema};
pub use serde_json::Value;
pub use span::{Position, Span, SpanError, value_span};
pub use stream::PlanStream;
pub use validate::{
    Input, validate, validate_bytes, validate_input, validate_text, validate_text_pair, validate_value_text,
};
pub use verdict::{Check, Issue, IssueCode, UnknownIssueCode, Verdict};
