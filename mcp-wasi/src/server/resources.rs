//! The saved plans as resources (mcp-server.md "Catalog", resource template `plan://{planId}`;
//! store only): `resources/templates/list`, `resources/list` (paginated) and `resources/read`.

use super::Server;
use super::eras::{Ctx, respond};
use crate::apps;
use crate::catalog::{self, JSON_MIME, PLAN_URI_PREFIX};
use crate::model::{
    CacheHints, ListResourceTemplatesResult, ListResourcesResult, PaginatedParams, ReadResourceParams,
    ReadResourceResult, Resource, TextResourceContents, parse_params,
};
use crate::rpc::{self, INTERNAL_ERROR, RESOURCE_NOT_FOUND, RpcError};
use crate::store;
use serde_json::{Map, Value, json};

/// Size of a `resources/list` page.
pub const PAGE_SIZE: usize = 100;

/// The resource URI of the plan saved under `plan_id`: `plan://<plan_id>`.
pub(super) fn plan_uri(plan_id: &str) -> String {
    format!("{PLAN_URI_PREFIX}{plan_id}")
}

/// `resources/templates/list`: the one template `plan://{planId}` with a store (none without:
/// a client offered the plan view lists no template), cacheable as public.
pub(super) fn list_templates(ctx: Ctx, id: &Value, store: bool) -> String {
    let resource_templates = if store { vec![catalog::plan_template(ctx.version)] } else { Vec::new() };
    respond(ctx, id, &ListResourceTemplatesResult { resource_templates }, Some(CacheHints::PUBLIC))
}

impl Server {
    /// `resources/list`: the saved plans with a safe id, sorted by id in byte order, a page of
    /// [`PAGE_SIZE`] after the cursor's id; cacheable as private (it changes with every save).
    /// A bad cursor is `-32602`; a store that cannot be listed `-32603`.
    pub(super) fn list_resources(&self, ctx: Ctx, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
        let p: PaginatedParams =
            parse_params(params).map_err(|_| RpcError::invalid_params("Invalid params: cursor must be a string"))?;
        let after = match p.cursor {
            None => None,
            Some(c) => Some(store::decode_cursor(&c).ok_or_else(|| RpcError::invalid_params("Invalid cursor"))?),
        };
        let names = self.store.as_ref().map_or_else(|| Ok(Vec::new()), |s| s.file_names()).map_err(|e| {
            RpcError::new(INTERNAL_ERROR, format!("Internal error: the plan store could not be read: {e}"))
        })?;
        let mut ids: Vec<&str> = names
            .iter()
            .filter_map(|n| store::id_of_file_name(n))
            .filter(|id| after.as_deref().is_none_or(|a| *id > a))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let next_cursor = (ids.len() > PAGE_SIZE).then(|| store::encode_cursor(ids[PAGE_SIZE - 1]));
        ids.truncate(PAGE_SIZE);
        let resources = ids
            .into_iter()
            .map(|plan_id| Resource {
                uri: plan_uri(plan_id),
                name: plan_id.to_owned(),
                title: None,
                mime_type: JSON_MIME,
            })
            .collect();
        Ok(respond(ctx, id, &ListResourcesResult { resources, next_cursor }, Some(CacheHints::PRIVATE)))
    }

    /// `resources/read`: the saved plan's text (invalid UTF-8 replaced), cacheable as private.
    /// A missing or unsafe id is `Resource not found` with `data {uri}`: `-32002` in the classic
    /// era, `-32602` in 2026-07-28; a plan that cannot be read is `-32603`.
    pub(super) fn read_resource(&self, ctx: Ctx, id: &Value, params: Map<String, Value>) -> Result<String, RpcError> {
        let p: ReadResourceParams = parse_params(params)
            .map_err(|_| RpcError::invalid_params("Invalid params: resources/read needs a string uri"))?;
        if ctx.apps && p.uri == apps::VIEW_URI {
            return Ok(respond(ctx, id, &apps::read_result(), Some(CacheHints::PRIVATE)));
        }
        let plan_id = p.uri.strip_prefix(PLAN_URI_PREFIX).filter(|i| store::is_safe_id(i));
        let bytes = match (plan_id, self.store.as_ref()) {
            (Some(plan_id), Some(store)) => store.read(&store::file_name(plan_id)).map_err(|e| {
                RpcError::new(INTERNAL_ERROR, format!("Internal error: the plan could not be read: {e}"))
            })?,
            _ => None,
        };
        let Some(bytes) = bytes else {
            let code = if ctx.modern() { rpc::INVALID_PARAMS } else { RESOURCE_NOT_FOUND };
            return Err(RpcError::with_data(code, "Resource not found", json!({ "uri": p.uri })));
        };
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(respond(
            ctx,
            id,
            &ReadResourceResult { contents: vec![TextResourceContents { uri: p.uri, mime_type: JSON_MIME, text }] },
            Some(CacheHints::PRIVATE),
        ))
    }
}
