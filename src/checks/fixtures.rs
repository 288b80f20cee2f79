//! The payloads against the definition (`verifier-rules.md` §1.1 steps
//! 17–18): the forbidden-name scan of every JSON payload
//! (`current-profile.md` §7.4), then the conformance fixtures (§7).
//!
//! # What it checks
//!
//! - `payload-names` (`PAYLOAD_NAME_SCAN`): FD300
//!   `forbidden-field-in-payload`
//! - `fixtures` (`FIXTURES`): FD403 `fixture-unlisted`, FD404
//!   `fixture-media-type`, FD405 `fixture-stage-without-schema`, FD406
//!   `negative-stage-without-schema`, FD407 `unsupported-negative-stage`, FD408
//!   `unsupported-expected-failure`, FD409 `fixture-work-exceeded`, FD410
//!   `fixture-schema-violation`, FD411 `negative-fixture-passed`, FD419
//!   `negative-fixture-over-budget` (a note), FD421
//!   `negative-fixture-root-only` (a note)
//!
//! # Why
//!
//! Fixtures prove that the schemas accept what the author says they accept
//! and refuse what they must refuse, and no payload may carry credentials,
//! placement, commercial terms or code, whatever file it sits in.
//!
//! # Example
//!
//! Failing (FD300 `forbidden-field-in-payload`): `extra.json: {"password":"hunter2"}`
//!
//! Passing: `extra.json: {"displayName":"hunter"}`
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §6, §1.7 R1.23; current-profile.md §7.4;
//! verifier-rules.md §7.1 R7.1, §7.2 R7.5; verifier-rules.md §7.1 R7.1;
//! verifier-rules.md §7.1 R7.3-R7.4; verifier-rules.md §7.2 R7.6;
//! verifier-rules.md §7.2 R7.7; verifier-rules.md §4.7; verifier-rules.md
//! §7.3; verifier-rules.md §7.2 R7.8.

use crate::diag::escape::quote;
use crate::json::Members;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::package::{Fact, Package};
use crate::proof;
use crate::vocabulary::{self, ScanOptions};

use super::{Check, CheckResult, FileRole, Need};

/// Step 17 (`current-profile.md` §7.4): the name scan of every JSON payload
/// except the definition. A desired-only fixture's top-level keys that are
/// reviewed top-level desired properties are exempt.
///
/// **Why:** Portable packages must never carry secrets, infrastructure
/// placement, prices or code; a key like password or apiKey shows the data is
/// not portable.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD300 `forbidden-field-in-payload`: a JSON payload key is a forbidden
///   field name (credentials, placement, commercial terms, code)
///   (verifier-rules.md §6, §1.7 R1.23; current-profile.md §7.4)
///
/// **Failing** (FD300): `extra.json: {"password":"hunter2"}`
///
/// **Passing:** `extra.json: {"displayName":"hunter"}`
pub(super) const PAYLOAD_NAME_SCAN: Check = Check {
    name: "payload-names",
    module: "src/checks/fixtures.rs",
    codes: &[Code::ForbiddenPayloadField],
    needs: &[Need::Fact(Fact::Definition)],
    establishes: None,
    file: FileRole::Package,
    run: payload_names,
};

fn payload_names(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Ok(());
    };
    let (desired, other) = fixture_uses(definition);
    for (path, payload) in &pkg.payloads {
        let Some(p) = payload else { continue };
        if *path == pkg.def_path {
            continue;
        }
        let desired_only = desired.contains(path.as_str()) && !other.contains(path.as_str());
        let opts = ScanOptions::payload_scan(definition, desired_only);
        diags.extend(
            vocabulary::scan_document(&p.value, Code::ForbiddenPayloadField, &opts)
                .into_iter()
                .map(|d| d.in_file(path.clone())),
        );
    }
    Ok(())
}

/// The entries of the definition's array member `list` (none when it is
/// missing or not an array: the definition's schema check reports that).
fn entries<'a>(definition: &'a Value, list: &str) -> impl Iterator<Item = &'a Value> {
    definition
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Paths used by desired-stage fixtures, and by any other stage.
fn fixture_uses(definition: &Value) -> (BTreeSet<&str>, BTreeSet<&str>) {
    let mut desired = BTreeSet::new();
    let mut other = BTreeSet::new();
    for f in entries(definition, "conformanceFixtures") {
        if let Some(p) = f.member("desiredPath").and_then(Value::as_str) {
            desired.insert(p);
        }
        for k in ["observedPath", "outputPath"] {
            if let Some(p) = f.member(k).and_then(Value::as_str) {
                other.insert(p);
            }
        }
    }
    for f in entries(definition, "negativeConformanceFixtures") {
        if let Some(p) = f.member("inputPath").and_then(Value::as_str) {
            if f.member("stage").and_then(Value::as_str) == Some("desired") {
                desired.insert(p);
            } else {
                other.insert(p);
            }
        }
    }
    (desired, other)
}

/// Step 18: positive then negative fixtures (`verifier-rules.md` §7), only
/// on a package with no error so far and compiled stage schemas.
///
/// **Why:** An unlisted fixture is not covered by any digest, so the evidence
/// it gives is not bound to the package.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD403 `fixture-unlisted`: a fixture path is not listed in the index
///   (verifier-rules.md §7.1 R7.1, §7.2 R7.5)
/// - FD404 `fixture-media-type`: a fixture is not listed as application/json
///   (verifier-rules.md §7.1 R7.1)
/// - FD405 `fixture-stage-without-schema`: a positive fixture names a stage
///   whose schema the definition lacks (verifier-rules.md §7.1 R7.3-R7.4)
/// - FD406 `negative-stage-without-schema`: a negative fixture names a stage
///   whose schema the definition lacks (verifier-rules.md §7.2 R7.6)
/// - FD407 `unsupported-negative-stage`: a negative fixture stage outside
///   desired/observed/output (verifier-rules.md §7.2 R7.6)
/// - FD408 `unsupported-expected-failure`: expectedFailure is not
///   schema_validation_failed (verifier-rules.md §7.2 R7.7)
/// - FD409 `fixture-work-exceeded`: a fixture's instance-aware work estimate
///   exceeds 16384 (verifier-rules.md §4.7)
/// - FD410 `fixture-schema-violation`: a positive fixture does not satisfy
///   its stage schema (verifier-rules.md §7.3)
/// - FD411 `negative-fixture-passed`: a negative fixture satisfies its stage
///   schema (verifier-rules.md §7.2 R7.8)
/// - FD419 `negative-fixture-over-budget`: a negative fixture counts as
///   failing only because its instance work estimate exceeds the budget, not
///   because it was found to violate its schema (a note; verifier-rules.md
///   §4.7, §7.2 R7.8)
/// - FD421 `negative-fixture-root-only`: a negative fixture is refused only
///   at the document root, by a required member it lacks and an undeclared
///   member of a near spelling it has: the usual sign of a misspelt member
///   name (a note; verifier-rules.md §7.2 R7.8 (ours))
///
/// **Failing** (FD403): `definition conformanceFixtures[]: {"name":"other","desiredPath":"fixtures/missing.json"}   (not in files[])`
///
/// **Passing:** `definition conformanceFixtures[]: {"name":"basic","desiredPath":"fixtures/desired.json"}   (listed)`
pub(super) const FIXTURES: Check = Check {
    name: "fixtures",
    module: "src/fixtures.rs",
    codes: &[
        Code::FixtureUnlisted,
        Code::FixtureMediaType,
        Code::FixtureStageWithoutSchema,
        Code::NegativeStageWithoutSchema,
        Code::UnsupportedNegativeStage,
        Code::UnsupportedExpectedFailure,
        Code::FixtureWorkExceeded,
        Code::FixtureSchemaViolation,
        Code::NegativeFixturePassed,
        Code::NegativeFixtureOverBudget,
        Code::NegativeFixtureRootOnly,
    ],
    needs: &[Need::Fact(Fact::Proven), Need::Fact(Fact::Compiled)],
    establishes: None,
    file: FileRole::Definition,
    run: fixtures,
};

fn fixtures(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let (Some(definition), Some(stages)) = (pkg.definition(), &pkg.stages) else {
        return Ok(());
    };
    let media: BTreeMap<&str, &str> = pkg
        .listed
        .iter()
        .map(|l| (l.path.as_str(), l.media_type.as_str()))
        .collect();
    let payloads = &pkg.payloads;
    let lookup = |path: &str| {
        media.get(path).map(|m| crate::fixtures::PayloadView {
            media_type: m,
            value: payloads
                .get(path)
                .and_then(Option::as_ref)
                .map(|p| &p.value),
            literals: payloads
                .get(path)
                .and_then(Option::as_ref)
                .map(|p| &p.numbers),
            digest: payloads
                .get(path)
                .and_then(Option::as_ref)
                .map(|p| p.digest.as_str()),
        })
    };
    // The production work estimate: the process's fixture memo applies.
    let mut run = crate::fixtures::run_fixtures_with(
        definition,
        stages,
        &lookup,
        &proof::work::instance_work,
        Some(crate::fixtures::memo::Memo::global()),
    );
    let rejections = std::mem::take(&mut run.rejections);
    diags.extend(
        run.diagnostics
            .into_iter()
            .map(|d| missing_fixture_file(d, &pkg.present, definition)),
    );
    pkg.fixtures_run = run.positive_run + run.negative_run;
    pkg.fixture_rejections = rejections;
    Ok(())
}

/// An unlisted fixture (`FD403`) whose file is not in the package's
/// inventory either says so (issue 14 item 3): listing a file that is not
/// there cannot fix it. Only the message and help change, not the code.
fn missing_fixture_file<T>(
    d: Diagnostic,
    present: &BTreeMap<String, T>,
    definition: &serde_json::Value,
) -> Diagnostic {
    if d.code != Code::FixtureUnlisted {
        return d;
    }
    let Some(path) = d
        .pointer
        .resolve(definition)
        .and_then(serde_json::Value::as_str)
    else {
        return d;
    };
    if present.contains_key(path) {
        return d;
    }
    let message = format!("{}: the file does not exist in the package", d.message);
    let help = format!(
        "add the file {} to the package (then `form-package index DIR` lists it), or fix the path",
        quote(path)
    );
    Diagnostic { message, ..d }.help(help)
}
