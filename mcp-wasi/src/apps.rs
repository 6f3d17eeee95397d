//! The plan view in the conversation (mcp-server.md "The plan view in the conversation (MCP
//! Apps)"; the extension `io.modelcontextprotocol/ui`, modelcontextprotocol/ext-apps
//! `specification/2026-01-26/apps.mdx`).
//!
//! One view, [`VIEW_URI`], a self-contained HTML document ([`VIEW_HTML`], embedded at build time
//! from `bindings-wasm/www/view/plan-view.html`, which `bindings-wasm/scripts/build-view.mjs`
//! builds from the renderer the import page shares). It is offered only to a client that
//! declares the extension with [`VIEW_MIME`] ([`declares_apps`]: in `initialize` in the classic
//! era, in each request's client capabilities in 2026-07-28). To such a client `validate_plan`
//! and `repair_plan` carry `_meta.ui.resourceUri` ([`tools`]) and `resources/read` of the
//! view answers [`read_result`], with or without a store. To any other client nothing changes.
//!
//! Over classic-era HTTP nothing is offered: each request is served alone, and the client's
//! `initialize` capabilities are not sent again (as with the overwrite question there).

use crate::model::Tool;
use crate::{REPAIR_PLAN, VALIDATE_PLAN};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The extension's identifier, the key under the client's `capabilities.extensions`.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The view's resource URI.
pub const VIEW_URI: &str = "ui://momentum-planner/plan-view";
/// The view's MIME type (the extension's HTML profile).
pub const VIEW_MIME: &str = "text/html;profile=mcp-app";
/// The view: one HTML5 document, scripts and styles inline, no external origin (UTF-8).
pub const VIEW_HTML: &str = include_str!("../../bindings-wasm/www/view/plan-view.html");

/// Whether client capabilities declare the extension with the view's MIME type:
/// `extensions["io.modelcontextprotocol/ui"].mimeTypes` is an array holding [`VIEW_MIME`].
/// Anything else (no `extensions`, another MIME type, a malformed entry) is `false`.
pub(crate) fn declares_apps(capabilities: &Map<String, Value>) -> bool {
    capabilities
        .get("extensions")
        .and_then(|e| e.get(UI_EXTENSION))
        .and_then(|u| u.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(VIEW_MIME)))
}

/// The catalog's tools as `tools/list` sends them: for a client offered the view (`apps`),
/// `validate_plan` and `repair_plan` carry `_meta: {ui: {resourceUri}}`; otherwise unchanged.
pub(crate) fn tools(apps: bool, mut tools: Vec<Tool>) -> Vec<Tool> {
    if apps {
        for tool in tools.iter_mut().filter(|t| t.name == VALIDATE_PLAN || t.name == REPAIR_PLAN) {
            tool.meta = Some(json!({ "ui": { "resourceUri": VIEW_URI } }));
        }
    }
    tools
}

/// `_meta.ui` of the view's contents: a border and background from the host, please.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct UiMeta {
    prefers_border: bool,
}

#[derive(Debug, Clone, Copy, Serialize)]
struct ContentsMeta {
    ui: UiMeta,
}

/// `TextResourceContents` of the view, with its `_meta.ui`.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct ViewContents {
    uri: &'static str,
    mime_type: &'static str,
    text: &'static str,
    #[serde(rename = "_meta")]
    meta: ContentsMeta,
}

/// `ReadResourceResult` of the view.
#[derive(Debug, Clone, Copy, Serialize)]
pub(crate) struct ViewReadResult {
    contents: [ViewContents; 1],
}

/// The `resources/read` result of [`VIEW_URI`]: its MIME type, the HTML, `prefersBorder: true`.
pub(crate) fn read_result() -> ViewReadResult {
    ViewReadResult {
        contents: [ViewContents {
            uri: VIEW_URI,
            mime_type: VIEW_MIME,
            text: VIEW_HTML,
            meta: ContentsMeta { ui: UiMeta { prefers_border: true } },
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn only_the_extension_with_the_html_profile_counts() {
        assert!(declares_apps(&caps(json!({"extensions": {UI_EXTENSION: {"mimeTypes": ["text/x", VIEW_MIME]}}}))));
        for other in [
            json!({}),
            json!({"extensions": {}}),
            json!({"extensions": {UI_EXTENSION: {}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": "text/html;profile=mcp-app"}}}),
            json!({"extensions": {UI_EXTENSION: {"mimeTypes": ["text/html"]}}}),
            json!({"extensions": {"io.modelcontextprotocol/other": {"mimeTypes": [VIEW_MIME]}}}),
            json!({"extensions": [UI_EXTENSION]}),
        ] {
            assert!(!declares_apps(&caps(other.clone())), "{other}");
        }
    }

    #[test]
    fn the_view_is_an_html_document() {
        assert!(VIEW_HTML.starts_with("<!doctype html>"), "{}", &VIEW_HTML[..40]);
        assert!(VIEW_HTML.trim_end().ends_with("</html>"));
    }
}
