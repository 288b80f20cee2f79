//! Every case of `tests/cases/current-profile-definitions.json` (a copy of
//! the shared spec's `cases/current-profile-definitions.json`, provenance in
//! `tests/cases/README.md`; issue #4, done-when 6).
//!
//! Definition cases: the case file says to validate each definition "as if
//! it sat in a v1alpha5 package with correct digests". The harness builds
//! exactly that at test time: a copy of the shipped current-profile package
//! `fixtures/packages/versionless/actor-namespace-0.2.0-6cb09560435e` with
//! its `definition.json` replaced by the case definition (pretty-printed),
//! its `fixtures/` removed (no case definition lists conformance fixtures),
//! re-indexed with `index::build` + `index::write` (so `formRef`, sizes and
//! digests are right); then `verify::verify_package` runs the whole
//! pipeline. The verdict must be the case's `expect`.
//!
//! The case file names no error kind, so [`expected_codes`] maps every `fail`
//! case, from its name and the spec section it exercises, to the codes that
//! must appear among the errors; an unmapped `fail` case fails the test so a
//! newer copy of the file gets reviewed.
//!
//! Group cases (`namespacedFormGroup`): `profile::namespaced_form_group`
//! (`current-profile.md` §2.4) must give `isNamespacedFormGroup`.

use crate::common;
use common::copy_dir;

use std::path::{Path, PathBuf};

use form_package::diag::Diagnostic;
use serde_json::Value;

/// Raw SHA-256 of the copied case file (also in `tests/cases/README.md`).
const CASES_SHA256: &str =
    "sha256:0bfc3faefded49d3452266dc4bac40a6511b7a44bf8df851b9eb6cac74a262d7";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn case_bytes() -> Vec<u8> {
    std::fs::read(manifest_dir().join("tests/cases/current-profile-definitions.json")).unwrap()
}

fn cases() -> Value {
    serde_json::from_slice(&case_bytes()).unwrap()
}

/// A v1alpha5 package in `tmp` whose definition is `definition`.
fn package_for(tmp: &Path, definition: &Value) -> PathBuf {
    let pkg = tmp.join("pkg");
    copy_dir(
        &manifest_dir().join("fixtures/packages/versionless/actor-namespace-0.2.0-6cb09560435e"),
        &pkg,
    );
    std::fs::remove_dir_all(pkg.join("fixtures")).unwrap();
    std::fs::write(
        pkg.join("definition.json"),
        serde_json::to_vec_pretty(definition).unwrap(),
    )
    .unwrap();
    // Lenient: a case's definition fails its schema on purpose, and
    // `index` refuses to index such a definition.
    let indexed = form_package::index::build_lenient(&pkg, None).unwrap();
    form_package::index::write(&pkg, &indexed).unwrap();
    pkg
}

/// The codes of which at least one must be an error for a `fail` case, by
/// case name; `None` for a name not reviewed yet.
///
/// - `FD121` (definition schema, `current-profile.md` §5/§5.1): the closed
///   `constraints` grammar (missing or cross-variant members, one-element or
///   duplicate `references`), the versionless `apiVersion` pattern, the
///   `requiresHostApi` const, the `lifecycleCapabilities` enum, BindingRef
///   v1alpha2, the closed top level (`status`);
/// - `FD415`/`FD416`/`FD417`: constraint semantics pass 1 (`orderedPair`,
///   `uniqueBy`) and pass 2 (relation existence), §6.2;
/// - `FD301` (the `$` content-policy scan, §7.2–§7.3): `command`, `script`,
///   `target`, `backendTarget`, `concurrencyTarget` that are not a reviewed
///   bounded shape, or are nested below the top level; `FD302` is the same
///   name refused by the closed-object proof;
/// - `FD120` (no definition schema for the `apiVersion`, §2.3–§2.4): a
///   reserved group is not a `NamespacedFormGroup`.
fn expected_codes(name: &str) -> Option<&'static [&'static str]> {
    const SCHEMA: &[&str] = &["FD121"];
    const SCAN: &[&str] = &["FD301", "FD302"];
    Some(match name {
        "constraint: exclusive with no reference"
        | "constraint: sum with nothing to add"
        | "constraint: claim with no property"
        | "constraint: host-assigned with no output"
        | "constraint: claim wearing a sum's members"
        | "constraint: claim with an output"
        | "constraint: sum missing its total"
        | "constraint: host-assigned with a reference"
        | "constraint: ordered pair with one value"
        | "constraint: unique list with foreign member"
        | "constraint: acyclic with no reference"
        | "constraint: distinct with one relation"
        | "constraint: unique with duplicate relation"
        | "constraint: same target missing through" => SCHEMA,
        "constraint: ordered pair with optional value" => &["FD415"],
        "constraint: unique list with absent member" => &["FD416"],
        "constraint: acyclic non-relation pointer" | "constraint: pair contains non-relation" => {
            &["FD417"]
        }
        "reject field: command string"
        | "reject field: unbounded command list"
        | "reject field: embedded script"
        | "reject field: bare target"
        | "reject field: open object target"
        | "reject field: unannotated ResourceTarget"
        | "reject field: ambiguous target contract"
        | "reject field: partly annotated tagged target"
        | "reject field: backend target"
        | "reject field: unbounded concurrency target" => SCAN,
        "nested target (exemption is top-level only in the $ scan)" => &["FD301"],
        "versioned group under v1" => &["FD121", "FD126"],
        "pre-stable Host lane"
        | "missing requiresHostApi"
        | "refresh capability"
        | "revision with update"
        | "v1alpha1 BindingRef in v1"
        | "status member" => SCHEMA,
        "reserved group forms.takoform.com"
        | "reserved group packages.forms.takoform.com"
        | "reserved group trust.forms.takoform.com"
        | "reserved group forms.takoform.com/v1alpha3" => &["FD120"],
        _ => return None,
    })
}

fn describe(d: &Diagnostic) -> String {
    format!(
        "{} {:?} {} at {}",
        d.code.info().id,
        d.severity,
        d.message,
        d.pointer.as_str()
    )
}

#[test]
fn case_file_is_the_recorded_copy() {
    assert_eq!(
        form_package::canonical::sha256_digest(&case_bytes()),
        CASES_SHA256
    );
    let c = cases();
    assert_eq!(c["definitions"].as_array().unwrap().len(), 59);
    assert_eq!(c["namespacedFormGroup"].as_array().unwrap().len(), 12);
}

#[test]
fn every_definition_case_gives_its_expectation() {
    let mut bad = Vec::new();
    let mut counts = (0, 0);
    for c in cases()["definitions"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let expect = c["expect"].as_str().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let pkg = package_for(tmp.path(), &c["definition"]);
        let o = form_package::verify::verify_package(&pkg);
        let errors: Vec<&Diagnostic> = o.diagnostics.iter().filter(|d| d.is_error()).collect();
        let all = o
            .diagnostics
            .iter()
            .map(describe)
            .collect::<Vec<_>>()
            .join("\n      ");
        match expect {
            "ok" => {
                counts.0 += 1;
                if !errors.is_empty() {
                    bad.push(format!("{name}: want ok, got fail\n      {all}"));
                } else if o.report.is_none() {
                    bad.push(format!("{name}: verified without a report"));
                }
            }
            "fail" => {
                counts.1 += 1;
                let Some(want) = expected_codes(name) else {
                    bad.push(format!(
                        "{name}: fail case without an expected code; review it"
                    ));
                    continue;
                };
                if errors.is_empty() {
                    bad.push(format!("{name}: want fail, got ok\n      {all}"));
                } else if !errors.iter().any(|d| want.contains(&d.code.info().id)) {
                    bad.push(format!("{name}: want one of {want:?}, got\n      {all}"));
                }
            }
            other => bad.push(format!("{name}: unknown expect {other:?}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(counts, (19, 40));
}

#[test]
fn harness_package_of_the_base_fixture_verifies_with_its_digest() {
    // near miss for every fail case: the same harness with the unchanged base
    // definition verifies, so a failure comes from the case definition
    let c = cases();
    let base = &c["definitions"][0];
    assert_eq!(base["name"], "base fixture");
    let tmp = tempfile::tempdir().unwrap();
    let pkg = package_for(tmp.path(), &base["definition"]);
    let o = form_package::verify::verify_package(&pkg);
    assert!(o.diagnostics.is_empty(), "{:?}", o.diagnostics);
    let report = o.report.unwrap();
    assert_eq!(report.file_count, 1); // the definition (the index is not counted)
    assert_eq!(report.form_ref["kind"], "JobDeployment");
    assert_eq!(report.form_ref["apiVersion"], "compute.publisher.example");
}

#[test]
fn every_group_case_gives_its_expectation() {
    let mut n = 0;
    for c in cases()["namespacedFormGroup"].as_array().unwrap() {
        let group = c["group"].as_str().unwrap();
        let want = c["isNamespacedFormGroup"].as_bool().unwrap();
        assert_eq!(
            form_package::profile::namespaced_form_group(group),
            want,
            "{group}"
        );
        n += 1;
    }
    assert_eq!(n, 12);
}
