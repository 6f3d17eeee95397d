//! The committed generated files are exactly what the generator renders now, and name exactly the
//! core's registries. On failure: `cargo run -p momentum-plan-codegen`, then commit the files.

use momentum_plan::{Applicability, CATEGORIES, Check, IssueCode, SchemaVariant, Stop, WEEKDAYS};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ has a parent")
}

fn committed(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_generated_file_is_fresh() {
    let files = momentum_plan_codegen::files().expect("every definition renders");
    assert_eq!(files.len(), 9); // with js/calendar.d.ts (issue 32)
    let stale: Vec<&str> = files.iter().filter(|(p, text)| committed(p) != *text).map(|(p, _)| *p).collect();
    assert!(stale.is_empty(), "stale (run `cargo run -p momentum-plan-codegen`): {stale:?}");
}

/// The string literals of `export type <name> =` in the TypeScript, in order.
fn ts_union(ts: &str, name: &str) -> Vec<String> {
    let head = format!("export type {name} =\n");
    let start = ts.find(&head).unwrap_or_else(|| panic!("no {name}")) + head.len();
    ts[start..]
        .lines()
        .take_while(|l| l.starts_with("  | "))
        .map(|l| l.trim_start_matches("  | ").trim_end_matches(';').trim_matches('"').to_owned())
        .collect()
}

/// The literals of `<name>: TypeAlias = Union[Literal["a"], ...]` in the Python, in order.
fn py_union(py: &str, name: &str) -> Vec<String> {
    let head = format!("{name}: TypeAlias = Union[\n");
    let start = py.find(&head).unwrap_or_else(|| panic!("no {name}")) + head.len();
    py[start..]
        .lines()
        .take_while(|l| l.starts_with("    Literal["))
        .map(|l| l.trim().trim_start_matches("Literal[\"").trim_end_matches("\"],").to_owned())
        .collect()
}

#[test]
fn the_unions_are_the_core_registries() {
    let ts = committed("js/types.d.ts");
    let py = committed("bindings-python/python/momentum_plan/_types.py");
    let registries: [(&str, Vec<&str>); 7] = [
        ("IssueCode", IssueCode::ALL.iter().map(|c| c.as_str()).collect()),
        ("CheckName", Check::ALL.iter().map(|c| c.as_str()).collect()),
        ("CategoryId", CATEGORIES.iter().map(|c| c.id).collect()),
        ("Weekday", WEEKDAYS.to_vec()),
        ("Applicability", Applicability::ALL.iter().map(|a| a.as_str()).collect()),
        ("RepairStop", Stop::ALL.iter().map(|s| s.as_str()).collect()),
        ("SchemaVariant", SchemaVariant::ALL.iter().map(|v| v.as_str()).collect()),
    ];
    for (name, values) in registries {
        assert_eq!(ts_union(&ts, name), values, "TypeScript {name}");
        assert_eq!(py_union(&py, name), values, "Python {name}");
    }
    assert!(ts_union(&ts, "IssueCode").len() >= 25);
    // The issue's members are typed by the registry, in both languages.
    assert!(ts.contains("export interface Issue {\n  /** The stable issue code. */\n  code: IssueCode;"), "{ts}");
    assert!(py.contains("class Issue(TypedDict):") && py.contains("    code: IssueCode\n"), "{py}");
    // No `any` in the TypeScript outside comments.
    let code: String = ts.lines().filter(|l| !l.trim_start().starts_with(['/', '*'])).collect();
    assert!(!code.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == "any"));
}

#[test]
fn mcp_output_schemas_are_self_contained_and_bare() {
    let text = committed("schemas/mcp-catalog.json");
    let catalog = momentum_plan::parse_json(&text).expect("JSON");
    let tools = catalog["tools"].as_array().expect("array");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().expect("name")).collect();
    assert_eq!(
        names,
        [
            "get_plan_contract",
            "validate_plan",
            "repair_plan",
            "get_plan_schema",
            "export_calendar",
            "import_commitments",
            "save_plan"
        ]
    );
    for entry in tools {
        let name = &entry["name"];
        let output = entry["outputSchema"].to_string();
        assert!(!output.contains("$ref") && !output.contains("$schema"), "{name}: {output}");
        assert_eq!(entry["inputSchema"]["type"], "object", "{name}");
        assert_eq!(entry["annotations"]["title"], entry["title"], "{name}");
        assert!(entry["description"].as_str().is_some_and(|d| d.len() > 100), "{name}");
    }
    assert_eq!(tools[2]["outputSchema"]["properties"]["verdict"], tools[1]["outputSchema"]);
    // The calendar tools (issue 32): the export's warnings are the crate's, the import's
    // commitments exactly the request's shape; both read-only.
    let commitment = &tools[5]["outputSchema"]["properties"]["commitments"]["items"];
    assert_eq!(commitment["required"], serde_json::json!(["label", "days", "start", "end"]));
    assert_eq!(tools[4]["outputSchema"]["required"], serde_json::json!(["uri", "events", "warnings"]));
    assert!(tools[4..6].iter().all(|t| t["annotations"]["readOnlyHint"] == true));
    // The package copies are the same bytes (each is also checked fresh above).
    for copy in ["bindings-python/python/momentum_plan/mcp-catalog.json", "bindings-node/mcp-catalog.json"] {
        assert!(committed(copy) == text, "{copy} differs from schemas/mcp-catalog.json");
    }
}

/// The plan-id pattern of the catalog names the WASI store's limit (`MAX_ID_LEN` 128) and every
/// refusal template fills only the slots the servers know.
#[test]
fn mcp_catalog_templates_name_known_slots() {
    let catalog = momentum_plan::parse_json(&committed("schemas/mcp-catalog.json")).expect("JSON");
    assert_eq!(catalog["planId"]["pattern"], "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$");
    assert_eq!(catalog["planId"]["maxLength"], 128);
    let known = ["{id}", "{uri}", "{count}", "{code}", "{message}", "{error}", "{path}"];
    let calendar = catalog["calendar"]["planInvalid"].as_str().expect("text");
    assert!(calendar.contains("{verdict}") && calendar.matches('{').count() == 1, "{calendar}");
    assert_eq!(catalog["calendar"]["uriTemplate"], "calendar://{requestId}.ics");
    for group in ["refusals", "notSaved", "overwriteQuestion"] {
        for (key, template) in catalog[group].as_object().expect("object") {
            let mut rest = template.as_str().expect("text");
            while let Some(at) = rest.find('{') {
                let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
                assert!(known.contains(&&rest[at..end]), "{group}.{key}: unknown slot {}", &rest[at..end]);
                rest = &rest[end..];
            }
        }
    }
}

#[test]
fn the_python_package_exports_every_generated_type() {
    let quoted = |text: &str, from: &str| -> Vec<String> {
        let start = text.find(from).unwrap_or_else(|| panic!("no {from}")) + from.len();
        let end = start + text[start..].find("\n]").expect("end of list");
        text[start..end].lines().map(|l| l.trim().trim_end_matches(',').trim_matches('"').to_owned()).collect()
    };
    let types = quoted(&committed("bindings-python/python/momentum_plan/_types.py"), "__all__ = [\n");
    let package = quoted(&committed("bindings-python/python/momentum_plan/__init__.py"), "__all__ = [\n");
    assert!(types.len() >= 20 && types.iter().any(|t| t == "IssueCode"), "{types:?}");
    let missing: Vec<&String> = types.iter().filter(|t| !package.contains(t)).collect();
    assert!(missing.is_empty(), "momentum_plan/__init__.py's __all__ lacks {missing:?}");
}

/// The function declarations both JS packages ship name the core's nesting limit, and the Node
/// package's `index.d.ts` ends with them.
#[test]
fn the_function_declarations_are_shared() {
    let api = committed("js/api.d.ts");
    assert!(api.contains(&format!("nested deeper than {} levels", momentum_plan::MAX_DEPTH)), "{api}");
    assert!(!api.contains("{maxDepth}"), "an unfilled slot in js/api.d.ts");
    for name in ["validatePlan", "repairPlan", "planSchema", "getPlanContract"] {
        assert!(api.contains(&format!("export declare function {name}(")), "js/api.d.ts lacks {name}");
    }
    let body = api.split_once("\n\n").expect("a header, then the declarations").1;
    assert!(committed("bindings-node/index.d.ts").ends_with(body), "bindings-node/index.d.ts ends otherwise");
}
