//! Every `explain` example that is a runnable snippet is run through
//! `verify` (issue 22 item 10: the passing example of FD211 was refused,
//! FD217, by both verifiers). A failing example must fire its code; a
//! passing one must verify (exit 0).
//!
//! Runnable: `desiredSchema… = JSON` (spliced into the desired schema of
//! a current-profile base package) and `fixtures/desired.json: JSON`
//! (written byte for byte as a positive fixture). The other examples are
//! prose (a file-system state, `[1025 entries]`, `{…}`, trust documents):
//! they are counted, and the runnable count may only grow.

use std::path::Path;
use std::process::Command;

use form_package::codes::TABLE;
use serde_json::{json, Value};

/// Where a snippet goes.
enum Splice {
    /// A member path below the definition (`desiredSchema.properties.x`).
    Schema(Vec<String>, Value),
    /// The bytes of `fixtures/desired.json`.
    Fixture(String),
}

/// The snippet as a splice, `None` when it is prose.
fn splice(example: &str) -> Option<Splice> {
    if let Some(rest) = example.strip_prefix("fixtures/desired.json: ") {
        // The bytes as written, an annotation after three spaces cut off;
        // they need not be I-JSON (FD020's duplicate names), only JSON-ish.
        let text = rest.split("   (").next().unwrap_or(rest);
        return (!text.contains('…')).then(|| Splice::Fixture(text.to_owned()));
    }
    let (path, json) = example.split_once(" = ")?;
    if !path.starts_with("desiredSchema")
        || !path
            .split('.')
            .all(|s| s.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        return None;
    }
    let json = json.split("   (").next().unwrap_or(json);
    let value: Value = serde_json::from_str(json).ok()?;
    Some(Splice::Schema(
        path.split('.').map(str::to_owned).collect(),
        value,
    ))
}

/// The bases: a current-profile definition (index v1alpha5) and a
/// retained-beta one (a versioned group, index v1alpha4, where the proof
/// rather than the definition's name scan reports a forbidden schema
/// name), each with a closed desired schema of `name` and `replicas`, the
/// `$defs` the examples name (`Name`, `Closed`, `x`), one negative fixture
/// and no positive one (an example's schema may drop `name`).
const BASES: [&str; 2] = ["edge.forms.takoform.com", "edge.forms.takoform.com/v1beta1"];

fn base(api_version: &str) -> Value {
    let mut def = json!({
        "apiVersion": api_version,
        "kind": "ExampleStore",
        "definitionVersion": "0.1.0",
        "title": "Example store",
        "role": "identity",
        "requiresHostApi": "forms.takoform.com/v1",
        "desiredSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "name": {"type": "string", "maxLength": 64},
                "replicas": {"type": "integer", "minimum": 0, "maximum": 10}
            },
            "$defs": {
                "Name": {"type": "string", "maxLength": 64},
                "Closed": {"type": "object", "additionalProperties": false},
                "x": {"type": "string"}
            }
        },
        "lifecycleCapabilities": ["create", "delete"],
        "negativeConformanceFixtures": [{
            "name": "reject-number-name", "stage": "desired",
            "inputPath": "fixtures/negative.json",
            "expectedFailure": "schema_validation_failed"
        }]
    });
    if api_version.contains('/') {
        def.as_object_mut().unwrap().remove("requiresHostApi");
    }
    def
}

/// Verifies the base package with `splice` applied; the codes of its
/// findings and whether it verified.
fn verify(tmp: &Path, api_version: &str, splice: &Splice) -> (Vec<String>, bool) {
    let pkg = tmp.join("pkg");
    let _ = std::fs::remove_dir_all(&pkg);
    std::fs::create_dir_all(pkg.join("fixtures")).unwrap();
    let mut def = base(api_version);
    match splice {
        Splice::Schema(path, value) => {
            let (last, parents) = path.split_last().unwrap();
            let mut at = &mut def;
            for p in parents {
                at = at
                    .as_object_mut()
                    .unwrap()
                    .entry(p.clone())
                    .or_insert_with(|| json!({}));
            }
            at[last.as_str()] = value.clone();
        }
        Splice::Fixture(text) => {
            std::fs::write(pkg.join("fixtures/desired.json"), text).unwrap();
            def["conformanceFixtures"] =
                json!([{"name": "canonical", "desiredPath": "fixtures/desired.json"}]);
        }
    }
    std::fs::write(
        pkg.join("definition.json"),
        serde_json::to_vec_pretty(&def).unwrap(),
    )
    .unwrap();
    std::fs::write(pkg.join("fixtures/negative.json"), r#"{"name":5}"#).unwrap();
    // Lenient: a failing example is a package `index` refuses to index.
    let indexed = form_package::index::build_lenient(&pkg, None).unwrap();
    form_package::index::write(&pkg, &indexed).unwrap();
    let out = Command::new(crate::common::BIN)
        .args(["verify", "--format", "json"])
        .arg(&pkg)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes = report["packages"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    (codes, out.status.code() == Some(0))
}

#[test]
fn every_runnable_explain_example_gives_its_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let mut ran = 0;
    let mut wrong = Vec::new();
    for info in TABLE {
        let e = form_package::explain::explanation(info.code);
        if let Some(s) = splice(e.failing) {
            ran += 1;
            let runs: Vec<_> = BASES.iter().map(|b| verify(tmp.path(), b, &s).0).collect();
            if !runs.iter().any(|codes| codes.iter().any(|c| c == info.id)) {
                wrong.push(format!(
                    "{} failing example fires it under no profile: {runs:?}\n  {}",
                    info.id, e.failing
                ));
            }
        }
        if let Some(s) = splice(e.passing) {
            ran += 1;
            for b in BASES {
                let (codes, ok) = verify(tmp.path(), b, &s);
                if !ok {
                    wrong.push(format!(
                        "{} passing example is refused under {b}: {codes:?}\n  {}",
                        info.id, e.passing
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The examples run today; a parser change that skips them fails here.
    assert!(ran >= 45, "only {ran} examples ran");
}

/// Near miss for the harness itself: prose is not run, and a runnable
/// snippet keeps its bytes.
#[test]
fn prose_examples_are_not_spliced() {
    assert!(splice("store/extra.txt exists but no files[] entry has it").is_none());
    assert!(splice(r#"desiredSchema.properties.x = {"allOf":[2049 × {}]}"#).is_none());
    assert!(splice(r#"index files[]: {"path":"a.json",…}"#).is_none());
    match splice(r#"fixtures/desired.json: {"name":"a","name":"b"}"#) {
        Some(Splice::Fixture(t)) => assert_eq!(t, r#"{"name":"a","name":"b"}"#),
        _ => panic!("a fixture snippet"),
    }
    match splice(r#"desiredSchema.properties.x = {"type":"string"}"#) {
        Some(Splice::Schema(p, v)) => {
            assert_eq!(p, ["desiredSchema", "properties", "x"]);
            assert_eq!(v, json!({"type": "string"}));
        }
        _ => panic!("a schema snippet"),
    }
}
