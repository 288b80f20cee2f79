//! Unit tests of the family checks on small hand-made families.

use super::check::relation_schema_pointer;
use super::Step;

#[test]
fn relation_pointer_maps_to_schema_and_binding_annotation() {
    let def = serde_json::json!({
        "desiredSchema": {
            "properties": {
                "serviceBindings": {
                    "type": "array",
                    "x-takoform-binding": "module-worker.service",
                    "items": {"properties": {"resource": {"type": "object"}}}
                },
                "a/b": {"properties": {"worker": {}}}
            }
        }
    });
    let (at, b) = relation_schema_pointer(&def, "/serviceBindings/*/resource");
    assert_eq!(
        at.as_str(),
        "/desiredSchema/properties/serviceBindings/items/properties/resource"
    );
    assert_eq!(
        b.map(|p| p.as_str().to_owned()).as_deref(),
        Some("/desiredSchema/properties/serviceBindings/x-takoform-binding")
    );
    // Escaped tokens round-trip; no annotation on the way is none.
    let (at, b) = relation_schema_pointer(&def, "/a~1b/worker");
    assert_eq!(
        at.as_str(),
        "/desiredSchema/properties/a~1b/properties/worker"
    );
    assert!(b.is_none());
}

#[test]
fn step_names_are_stable() {
    assert_eq!(Step::Rule8Step5.name(), "rule8-step5");
    assert_eq!(
        serde_json::to_value(Step::Rule8Step1).unwrap(),
        serde_json::json!("rule8-step1")
    );
    assert_eq!(
        serde_json::to_value(Step::AcceptedBinding).unwrap(),
        serde_json::json!("accepted-binding")
    );
}
