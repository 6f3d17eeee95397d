//! Golden verdicts (issue 14 item 2): the whole verdict JSON, messages included, pinned for one
//! vector per issue code and one per D-rule (validator.md §5, §6), so that a change to any message
//! the drafting model reads shows up as a diff.
//!
//! Each golden file `tests/golden/<name>.json` holds the chosen vector's id and its verdict (pretty
//! JSON). The vector for a code is the first, in file and line order, whose verdict raises that
//! code; for a D-rule, the first whose `origin` names the rule (`fixed:D4,D5` names D4 and D5). The
//! vectors are read at test time; the goldens are this crate's own output, blessed with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test --release -p momentum-plan --test golden
//! ```
//!
//! and reviewed as a diff. A golden that no code or rule names any more fails the test (as insta's
//! `--unreferenced reject`), and so does a missing one.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod common;

use momentum_plan::{IssueCode, Value, validate};
use std::collections::BTreeMap;

#[test]
fn every_code_and_every_d_rule_has_its_golden_verdict() {
    let mut chosen: BTreeMap<String, (String, String)> = BTreeMap::new(); // name -> (vector id, verdict)
    for file in common::vector_files() {
        for line in std::fs::read_to_string(&file).expect("readable").lines().filter(|l| !l.trim().is_empty()) {
            let rec = momentum_plan::parse_json(line).expect("vector line is JSON");
            let id = rec["id"].as_str().expect("id").to_owned();
            let verdict = validate(&rec["plan"], &rec["request"]);
            let mut names: Vec<String> =
                verdict.errors.iter().chain(&verdict.warnings).map(|i| i.code.as_str().to_owned()).collect();
            if let Some(rules) = rec["origin"].as_str().and_then(|o| o.strip_prefix("fixed:")) {
                names.extend(rules.split(',').map(str::to_owned));
            }
            for name in names {
                chosen.entry(name).or_insert_with(|| (id.clone(), verdict.to_json()));
            }
        }
    }
    // Every code the validator raises, and D1..D12, must have a vector.
    for code in IssueCode::ALL.iter().filter(|c| **c != IssueCode::NotSaved) {
        assert!(chosen.contains_key(code.as_str()), "no vector raises {code}");
    }
    for d in 1..=12 {
        assert!(chosen.contains_key(&format!("D{d}")), "no vector is fixed:D{d}");
    }

    let dir = common::root().join("core/tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut problems = Vec::new();
    for (name, (id, verdict)) in &chosen {
        let verdict: Value = serde_json::from_str(verdict).expect("verdict JSON");
        let text =
            serde_json::to_string_pretty(&serde_json::json!({"vector": id, "verdict": verdict})).expect("JSON") + "\n";
        let path = dir.join(format!("{name}.json"));
        if update {
            std::fs::create_dir_all(&dir).expect("golden dir");
            std::fs::write(&path, &text).expect("golden written");
        } else {
            match std::fs::read_to_string(&path) {
                Ok(old) if old == text => {}
                Ok(_) => problems.push(format!(
                    "{name}: the verdict of {id} changed (bless with UPDATE_GOLDEN=1 and review the diff)"
                )),
                Err(_) => {
                    problems.push(format!("{name}: no golden file {} (bless with UPDATE_GOLDEN=1)", path.display()));
                }
            }
        }
    }
    for entry in std::fs::read_dir(&dir).expect("golden dir readable") {
        let file = entry.expect("entry").path();
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        if !chosen.contains_key(&name) {
            if update {
                std::fs::remove_file(&file).expect("unreferenced golden removed");
            } else {
                problems.push(format!("{name}: an unreferenced golden file (no code or D-rule names it)"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
