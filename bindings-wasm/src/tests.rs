//! Native unit tests. The TypeScript types themselves (`js/types.d.ts`) are generated and checked
//! against the core's registries and JSON by `momentum-plan-codegen`'s tests; `test/types/`
//! type-checks a usage file against the built package's `.d.ts`.

#[test]
fn the_contract_text_is_the_cores() {
    let now = serde_json::to_string(momentum_plan::contract()).expect("contract");
    assert_eq!(crate::CONTRACT_JSON, now);
}
