//! # momentum-plan-codegen
//!
//! The project's one schema source and the files generated from it. [`schema::defs`] describes
//! every public JSON shape (the verdict, the contract, the repair, the plan schema's head and the
//! MCP tool results) as JSON Schema 2020-12, with every enumeration read from the core's
//! registries (`IssueCode::ALL`, `Check::ALL`, `CATEGORIES`, `WEEKDAYS`, the contract's limits,
//! `Applicability::ALL`, `Stop::ALL`, `SchemaVariant::ALL`). From it, [`files`] renders:
//!
//! | file | what | read by |
//! |---|---|---|
//! | `schemas/momentum-plan.schema.json` | the definitions, as one schema document | people, other tools |
//! | `js/types.d.ts` | the TypeScript types | bindings-wasm (its `.d.ts` custom section) |
//! | `js/api.d.ts` | the functions both JS packages export (from `codegen/src/api.d.ts`) | bindings-wasm (appended to its `index.d.ts` files) |
//! | `js/calendar.d.ts` | the calendar's types and functions (issue 32; from `codegen/src/calendar.d.ts`) | bindings-wasm (in its `index.d.ts` files) |
//! | `bindings-node/index.d.ts` | the same types, the calendar's, then the same functions | bindings-node |
//! | `bindings-python/python/momentum_plan/_types.py` | `TypedDict`s and `Literal` unions | `momentum_plan` |
//! | `schemas/mcp-catalog.json` | the MCP catalog ([`catalog`]): instructions, tools with their schemas, resource template, prompt, plan-id rule, refusal and `notSaved` templates, argument errors | the WASI server, at build time |
//! | `bindings-python/python/momentum_plan/mcp-catalog.json` | the same bytes, as package data | `momentum_plan.planner` |
//! | `bindings-node/mcp-catalog.json` | the same bytes, in the npm package | `bindings-node/examples/server.mjs` |
//!
//! Adding an issue code is one line in the core's registry and one run of
//! `cargo run -p momentum-plan-codegen`; this crate's tests (`tests/fresh.rs`) fail while a
//! committed file differs from what it renders, and `scripts/test`'s final `git diff` gate fails on
//! any file a build or this generator rewrote.

pub mod catalog;
pub mod mcp;
mod py;
pub mod schema;
mod ts;

use std::fmt;

/// A definition the renderers cannot write (a schema construct they do not know); the message
/// names the definition and member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// `text` broken into lines of at most `width` characters at spaces (a longer word stays whole).
pub(crate) fn doc_lines(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let last = lines.last_mut().expect("never empty");
        if last.is_empty() {
            last.push_str(word);
        } else if last.chars().count() + 1 + word.chars().count() <= width {
            last.push(' ');
            last.push_str(word);
        } else {
            lines.push(word.to_owned());
        }
    }
    lines
}

/// Every generated file: its path from the workspace root and its whole text.
///
/// # Errors
/// A definition the TypeScript or Python renderer has no form for ([`Error`]).
pub fn files() -> Result<Vec<(&'static str, String)>, Error> {
    let defs = schema::defs();
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).map_err(|e| Error(e.to_string()));
    let catalog = pretty(&catalog::catalog())? + "\n";
    Ok(vec![
        ("schemas/momentum-plan.schema.json", pretty(&schema::document())? + "\n"),
        ("js/types.d.ts", ts::render(&defs)?),
        ("js/api.d.ts", ts::render_api()),
        ("js/calendar.d.ts", ts::render_calendar(&defs)?),
        ("bindings-node/index.d.ts", ts::render_node(&defs)?),
        ("bindings-python/python/momentum_plan/_types.py", py::render(&defs)?),
        ("schemas/mcp-catalog.json", catalog.clone()),
        ("bindings-python/python/momentum_plan/mcp-catalog.json", catalog.clone()),
        ("bindings-node/mcp-catalog.json", catalog),
    ])
}
