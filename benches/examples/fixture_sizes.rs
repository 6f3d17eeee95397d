//! Prints the byte size of each benchmark fixture's plan text as a JSON object (for
//! `benches/report`).
#![allow(missing_docs)]

fn main() {
    let sizes: serde_json::Map<String, serde_json::Value> =
        momentum_plan_benches::all().into_iter().map(|f| (f.name.to_owned(), f.plan_text.len().into())).collect();
    println!("{}", serde_json::Value::Object(sizes));
}
