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

#[test]
fn links_are_not_followed_into_a_package() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir_all(real.join("d")).unwrap();
    std::fs::write(
        real.join("package-index.json"),
        r#"{"definitionPath":"x/definition.json"}"#,
    )
    .unwrap();
    std::fs::write(
        real.join("d/definition.json"),
        r#"{"apiVersion":"edge.forms.takoform.com/v1beta1","kind":"K"}"#,
    )
    .unwrap();
    // A directory on the definitionPath that is a link.
    std::os::unix::fs::symlink(real.join("d"), real.join("x")).unwrap();
    let fam = super::load::load(std::slice::from_ref(&real)).unwrap();
    assert_eq!(fam.packages.len(), 1);
    assert!(fam.packages[0].form.is_none());
    // The Form comes from what verify read, and verify never reads through
    // a link: its own findings name the link (FD004), the family's say the
    // Form was not loaded.
    assert!(
        fam.packages[0]
            .outcome
            .diagnostics
            .iter()
            .any(|d| d.code == crate::codes::Code::SymlinkEntry && d.file.as_deref() == Some("x")),
        "{:?}",
        fam.packages[0].outcome.diagnostics
    );
    assert!(
        fam.findings[0]
            .diagnostic
            .message
            .contains("verify could not read it"),
        "{:?}",
        fam.findings
    );
    // A symlinked package root is not read either.
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let fam = super::load::load(&[link]).unwrap();
    assert!(fam.packages.iter().all(|p| p.form.is_none()));
    // Near miss: the real path loads (a real definition, an index verify
    // reads, naming it).
    std::fs::remove_file(real.join("x")).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7/definition.json"),
        real.join("d/definition.json"),
    )
    .unwrap();
    std::fs::write(
        real.join("package-index.json"),
        r#"{"definitionPath":"d/definition.json"}"#,
    )
    .unwrap();
    let indexed = crate::index::build_lenient(&real, None).unwrap();
    crate::index::write(&real, &indexed).unwrap();
    let fam = super::load::load(&[real]).unwrap();
    assert_eq!(
        fam.packages[0].form.as_ref().map(|f| f.kind.as_str()),
        Some("WorkerVersion"),
        "{:?}",
        fam.packages[0].outcome.diagnostics
    );
}
