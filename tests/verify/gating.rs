//! The runner's gating (`src/checks/mod.rs`): a check is skipped only when
//! a fact it needs failed, never because of an unrelated error elsewhere
//! (T1 finding C14: an unlisted file used to skip the fixtures). Runs on
//! the packages shipped in `fixtures/` (no corpus needed).

use crate::common;
use common::{copy_package, fixtures, reindex, run_in};

use serde_json::Value;

/// The codes of `verify --format json` of `pkg` (run in its parent), and
/// the run's `skipped` records.
fn codes_and_skipped(dir: &std::path::Path) -> (Vec<String>, String, Option<i32>) {
    let out = run_in(dir, &["verify", "--format", "json", "pkg"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = &report["packages"][0];
    let codes = package["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    (codes, package["skipped"].to_string(), out.status.code())
}

#[test]
fn an_unlisted_file_does_not_skip_the_fixtures() {
    let base = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let (tmp, pkg) = copy_package(&base);
    // A positive fixture the desired schema refuses (as the FD410 golden case).
    let desired = pkg.join("fixtures/desired.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&desired).unwrap()).unwrap();
    v["maxRetries"] = Value::from(1000);
    std::fs::write(&desired, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    reindex(&pkg);
    let (codes, _, status) = codes_and_skipped(tmp.path());
    assert_eq!(codes, ["FD410"], "near miss: the fixture alone");
    assert_eq!(status, Some(1));
    // An unrelated error: a file the index does not list.
    std::fs::write(pkg.join("stray.txt"), b"s").unwrap();
    let (codes, skipped, status) = codes_and_skipped(tmp.path());
    assert_eq!(codes, ["FD410", "FD018"], "{skipped}");
    assert!(!skipped.contains("fixtures"), "{skipped}");
    assert_eq!(status, Some(1));
}

/// `pkg/definition.json` with `edit` applied, re-indexed.
fn edit_definition(pkg: &std::path::Path, edit: impl FnOnce(&mut Value)) {
    let path = pkg.join("definition.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    reindex(pkg);
}

/// The (code, pointer) pairs of `verify --format json` of `pkg`, and the
/// run's `skipped` records.
fn findings(dir: &std::path::Path) -> (Vec<(String, String)>, String) {
    let out = run_in(dir, &["verify", "--format", "json", "pkg"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let package = &report["packages"][0];
    let found = package["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
            (s("code"), s("pointer"))
        })
        .collect();
    (found, package["skipped"].to_string())
}

/// Issue 25 cause 1: a forbidden field in a definition that also fails its
/// schema is reported in the same run (the v1alpha1 lane names the
/// definition's keys with the payload code, as its reference does before
/// validating the definition).
#[test]
fn a_forbidden_field_is_reported_when_the_definition_fails_its_schema() {
    let base = fixtures().join("packages/v1alpha1/container-registry-1.0.0-66b749693251");
    let (tmp, pkg) = copy_package(&base);
    edit_definition(&pkg, |d| {
        d["sessionCookie"] = Value::from("x");
    });
    let (found, skipped) = findings(tmp.path());
    let pair = |c: &str, p: &str| (c.to_owned(), p.to_owned());
    assert!(
        found.contains(&pair("FD121", "/sessionCookie")),
        "{found:?}"
    );
    assert!(
        found.contains(&pair("FD300", "/sessionCookie")),
        "{found:?}"
    );
    assert!(!skipped.contains("definition-names"), "{skipped}");
    assert!(
        skipped.contains("the definition fails its schema"),
        "{skipped}"
    );

    // Near miss: an extra member with a portable name is a schema error only.
    let (tmp, pkg) = copy_package(&base);
    edit_definition(&pkg, |d| {
        d["sessionNote"] = Value::from("x");
    });
    let (found, _) = findings(tmp.path());
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["FD121"], "{found:?}");
}

/// Issue 25 cause 1 on the current profile: the definition's own code
/// (FD301), beside the schema error that the current reference reports
/// first.
#[test]
fn a_forbidden_field_in_a_schema_invalid_current_definition_is_fd301() {
    let base = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let (tmp, pkg) = copy_package(&base);
    edit_definition(&pkg, |d| {
        d["title"] = Value::from(7);
        d["desiredSchema"]["x-note"] = serde_json::json!({"password": "x"});
    });
    let (found, _) = findings(tmp.path());
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert!(codes.contains(&"FD121"), "{found:?}");
    assert!(
        found.contains(&(
            "FD301".to_owned(),
            "/desiredSchema/x-note/password".to_owned()
        )),
        "{found:?}"
    );
    assert!(!codes.contains(&"FD300"), "{found:?}");
}

/// The container-registry v1alpha1 package (desired, observed and output
/// schemas) with `edit` applied to its definition, as (findings, skipped).
fn registry_with(edit: impl FnOnce(&mut Value)) -> (Vec<(String, String)>, String) {
    let base = fixtures().join("packages/v1alpha1/container-registry-1.0.0-66b749693251");
    let (tmp, pkg) = copy_package(&base);
    edit_definition(&pkg, edit);
    findings(tmp.path())
}

fn has(found: &[(String, String)], code: &str, pointer: &str) -> bool {
    found
        .iter()
        .any(|(c, p)| c == code && p.starts_with(pointer))
}

/// Issue 25 cause 2: the reference proves and compiles one schema after the
/// other, so a meta-schema violation of `desiredSchema` is its first error
/// even when a later schema's proof fails: both are among ours.
#[test]
fn a_compile_error_is_reported_when_another_schema_fails_its_proof() {
    let (found, skipped) = registry_with(|d| {
        d["desiredSchema"]["properties"]["name"]["minLength"] = Value::from(-1);
        d["outputSchema"]["properties"]["extra"] = serde_json::json!({"type": "object"});
    });
    assert!(
        has(&found, "FD222", "/desiredSchema/properties/name"),
        "{found:?}"
    );
    assert!(
        has(&found, "FD213", "/outputSchema/properties/extra"),
        "{found:?}"
    );
    assert!(!skipped.contains("compile"), "{skipped}");
    assert!(
        skipped.contains("definition-rules, fixtures: an inline schema is not proven portable"),
        "{skipped}"
    );

    // Near miss: the proof failure alone compiles cleanly.
    let (found, _) = registry_with(|d| {
        d["outputSchema"]["properties"]["extra"] = serde_json::json!({"type": "object"});
    });
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["FD213"], "{found:?}");
}

/// Issue 25 cause 2, one schema: an open object does not make its schema's
/// meta-schema violation meaningless, so both are reported.
#[test]
fn a_compile_error_is_reported_beside_a_proof_failure_of_the_same_schema() {
    let (found, _) = registry_with(|d| {
        d["desiredSchema"]["properties"]["name"]["minLength"] = Value::from(-1);
        d["desiredSchema"]["properties"]["extra"] = serde_json::json!({"type": "object"});
    });
    assert!(
        has(&found, "FD222", "/desiredSchema/properties/name"),
        "{found:?}"
    );
    assert!(
        has(&found, "FD213", "/desiredSchema/properties/extra"),
        "{found:?}"
    );
}

/// Issue 25 cause 2, the other side: a schema whose proof found a
/// non-local `$ref` is not compiled (the engine could only report that it
/// may not fetch it), and the skipped record names it; the other schemas
/// are still compiled.
#[test]
fn a_schema_with_a_non_local_ref_is_named_as_not_compiled() {
    let (found, skipped) = registry_with(|d| {
        d["desiredSchema"]["properties"]["name"] =
            serde_json::json!({"$ref": "https://example.invalid/name.json"});
        d["observedSchema"]["properties"]["generation"]["minimum"] = Value::from("1");
    });
    assert!(
        has(&found, "FD200", "/desiredSchema/properties/name"),
        "{found:?}"
    );
    assert!(!has(&found, "FD222", "/desiredSchema"), "{found:?}");
    assert!(
        has(&found, "FD222", "/observedSchema/properties/generation"),
        "{found:?}"
    );
    assert!(
        skipped.contains(
            "compile of desiredSchema: its proof found references or a dialect outside the schema"
        ),
        "{skipped}"
    );

    // Near miss: a local `$ref` is compiled, and nothing is left out.
    let (found, skipped) = registry_with(|d| {
        let name = d["desiredSchema"]["properties"]["name"].take();
        d["desiredSchema"]["$defs"] = serde_json::json!({ "n": name });
        d["desiredSchema"]["properties"]["name"] = serde_json::json!({"$ref": "#/$defs/n"});
    });
    assert!(found.is_empty(), "{found:?}");
    assert!(!skipped.contains("compile"), "{skipped}");
}

/// Issue 36 item 8: one cause, one message. A definition refused by its
/// schema and edited after indexing gives FD121 and the index findings that
/// follow (the definition's size and digest, the FormRef): all kept, those
/// marked as consequences in the message (every format shows it) with the
/// help to fix the definition first, naming the real path. Near miss: the
/// same stale index without a refused definition says nothing of the sort.
#[test]
fn index_findings_that_follow_from_a_refused_definition_say_so() {
    let base = fixtures().join("packages/versionless/queue-consumer-0.2.0-03c2f61a47b7");
    let (tmp, pkg) = copy_package(&base);
    let path = pkg.join("definition.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["definitionVersion"] = Value::from("0.1");
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let out = run_in(tmp.path(), &["verify", "--format", "json", "pkg"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["packages"][0]["diagnostics"].as_array().unwrap();
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    for c in ["FD121", "FD015", "FD016", "FD123", "FD124"] {
        assert!(codes.contains(&c), "{codes:?}");
    }
    for d in diags.iter().filter(|d| d["code"] != "FD121") {
        let message = d["message"].as_str().unwrap();
        assert!(
            message.ends_with("(a consequence: definition.json is refused, FD121)"),
            "{message}"
        );
        assert_eq!(
            d["help"].as_str(),
            Some("fix definition.json first (FD121), then `form-package index pkg`")
        );
    }
    let fd121 = diags.iter().find(|d| d["code"] == "FD121").unwrap();
    assert!(!fd121["message"].as_str().unwrap().contains("consequence"));

    // Near miss: a valid edit, the index stale: no consequence marks.
    v["definitionVersion"] = Value::from("0.3.0");
    std::fs::write(&path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let out = run_in(tmp.path(), &["verify", "--format", "json", "pkg"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("FD016"), "{text}");
    assert!(!text.contains("a consequence"), "{text}");
}
