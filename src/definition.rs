//! Form Definition validation (pipeline step 13) and the checks that hang
//! off it: the definition-wide name scan, the inline-schema proofs, engine
//! compilation, the remaining definition rules, constraints; then the
//! payload name scan (step 17) and the fixture runner (step 18).
//!
//! Order inside step 13 follows `current-profile.md` §6: schema + typed
//! decode → `$` name scan → per inline schema (local `$ref` closure,
//! closed-object proof, structural work, compile) → legacy interfaces →
//! fixture counts, names, paths → constraint semantics. Every stage whose
//! input is valid runs, so independent findings all appear in one run.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::JsonPointer;
use crate::profile::{IndexProfile, LEGACY_V1ALPHA1, LEGACY_V1ALPHA2};
use crate::proof::{self, NameQuery, NameSite};
use crate::schemas;
use crate::verify::definition_schema_for;
use crate::verify::{JsonPayload, PackageOutcome};
use crate::vocabulary::{self, ScanOptions, Whole};

/// What later steps need from a definition that validated.
pub(crate) struct Validated {
    /// The compiled stage schemas, when every inline schema proved and compiled.
    stages: Option<crate::fixtures::Stages>,
}

impl Validated {
    /// Whether the fixtures can run (every inline schema proved and compiled).
    pub(crate) fn runnable(&self) -> bool {
        self.stages.is_some()
    }
}

/// The inline schemas of a definition: (pointer, schema, is desiredSchema).
pub fn inline_schemas(definition: &Value) -> Vec<(JsonPointer, &Value, bool)> {
    let mut out = Vec::new();
    for field in ["desiredSchema", "observedSchema", "outputSchema"] {
        if let Some(s) = definition.get(field) {
            out.push((
                JsonPointer::root().child(field),
                s,
                field == "desiredSchema",
            ));
        }
    }
    if let Some(list) = definition.get("interfaces").and_then(Value::as_array) {
        for (i, iface) in list.iter().enumerate() {
            if let Some(s) = iface.get("documentSchema") {
                out.push((
                    JsonPointer::root()
                        .child("interfaces")
                        .index(i)
                        .child("documentSchema"),
                    s,
                    false,
                ));
            }
        }
    }
    out
}

/// The forbidden-name hook of the closed-object proof (`verifier-rules.md`
/// §4.2 steps 9–11, §6 V3) with the reviewed-field exemption of
/// `current-profile.md` §7.3: inside `desiredSchema`, a `properties` name
/// whose schema passes `reviewed`, and a `required` string whose sibling
/// property passes it (float64 whole numbers); never `dependentRequired`.
pub fn proof_name_policy(q: &NameQuery<'_>) -> Option<String> {
    let finding = vocabulary::is_forbidden(q.name)?;
    let exempt = q.in_desired
        && !matches!(q.site, NameSite::DependentRequired)
        && q.property_schema
            .is_some_and(|s| vocabulary::reviewed(q.name, s, Whole::Float64));
    (!exempt).then(|| finding.message())
}

/// Step 13. Returns `Some` when the definition satisfied its schema (later
/// definition-level findings may still exist; they are in `diags`).
pub(crate) fn validate(
    out: &mut PackageOutcome,
    diags: &mut Vec<Diagnostic>,
    profile: IndexProfile,
    def_path: &str,
    definition: &Value,
    _payloads: &BTreeMap<String, Option<JsonPayload>>,
) -> Option<Validated> {
    if !definition_schema_check(diags, profile, def_path, definition) {
        out.skipped.push(
            "schema proofs, definition rules, fixtures: the definition fails its schema".into(),
        );
        return None;
    }
    // `$` name scan. The current verifier scans the definition here for
    // every profile; the older reference scanned it as a payload, and the
    // v1alpha1–v1alpha4 mutants name that catalogue entry, so those
    // profiles keep the payload code for the definition's keys.
    let code = if profile == IndexProfile::V1alpha5 {
        Code::ForbiddenDefinitionField
    } else {
        Code::ForbiddenPayloadField
    };
    let scanned = vocabulary::scan_document(definition, code, &ScanOptions::definition_scan());
    // A forbidden property name found by this scan is not reported a second
    // time by the proof (same member, same cause); `required` strings and
    // `dependentRequired` values are values, only the proof sees them.
    let named: std::collections::BTreeSet<JsonPointer> = scanned
        .iter()
        .filter(|d| d.target == crate::diag::Target::Key)
        .map(|d| d.pointer.clone())
        .collect();
    diags.extend(scanned.into_iter().map(|d| d.in_file(def_path)));
    // proofs
    let mut proofs_ok = true;
    for (ptr, schema, _) in inline_schemas(definition) {
        let report = proof::prove_inline_schema(&ptr, schema, &proof_name_policy);
        proofs_ok &= !report.diagnostics.iter().any(Diagnostic::is_error);
        diags.extend(
            report
                .diagnostics
                .into_iter()
                .filter(|d| {
                    !(d.code == Code::ForbiddenSchemaName
                        && d.target == crate::diag::Target::Key
                        && named.contains(&d.pointer))
                })
                .map(|d| d.in_file_if_unset(def_path)),
        );
    }
    // engine compilation and the remaining definition rules (only on proven schemas)
    let mut stages = None;
    if proofs_ok {
        let (compiled, compile_diags) = crate::fixtures::compile_stages(definition);
        let compiled_ok = !compile_diags.iter().any(Diagnostic::is_error);
        diags.extend(
            compile_diags
                .into_iter()
                .map(|d| d.in_file_if_unset(def_path)),
        );
        diags.extend(
            crate::definition_rules::check(definition, &compiled)
                .into_iter()
                .map(|d| d.in_file_if_unset(def_path)),
        );
        if compiled_ok {
            stages = Some(compiled);
        } else {
            out.skipped
                .push("fixtures: an inline schema does not compile".into());
        }
    } else {
        out.skipped.push(
            "compilation, interface rules, fixtures: an inline schema is not proven portable"
                .into(),
        );
    }
    // constraints (current profile)
    diags.extend(
        crate::constraints::check(definition)
            .into_iter()
            .map(|d| d.in_file_if_unset(def_path)),
    );
    // relations: derived for family and current lanes; findings are warnings
    let api = definition
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if api != LEGACY_V1ALPHA1 && api != LEGACY_V1ALPHA2 {
        let derivation = crate::relations::derive(definition);
        diags.extend(
            derivation
                .diagnostics
                .into_iter()
                .map(|d| d.in_file_if_unset(def_path)),
        );
        out.relations = derivation
            .relations
            .iter()
            .filter_map(|r| serde_json::to_value(r).ok())
            .collect();
    }
    Some(Validated { stages })
}

/// Envelope and schema of the definition (step 13, first half). Returns the
/// selected schema on success.
fn definition_schema_check(
    diags: &mut Vec<Diagnostic>,
    profile: IndexProfile,
    def_path: &str,
    definition: &Value,
) -> bool {
    let api = match definition.get("apiVersion") {
        Some(Value::String(s)) => s.clone(),
        _ => {
            let msg = if definition.is_object() {
                "Form Definition: apiVersion must be a string"
            } else {
                "Form Definition: the definition must be a JSON object"
            };
            diags.push(
                Diagnostic::new(Code::UnsupportedDefinitionApiVersion, msg).in_file(def_path),
            );
            return false;
        }
    };
    let Some(schema) = definition_schema_for(&api, profile) else {
        diags.push(
            Diagnostic::new(
                Code::UnsupportedDefinitionApiVersion,
                format!("Form Definition: unsupported apiVersion {api:?}"),
            )
            .in_file(def_path)
            .at(JsonPointer::root().child("apiVersion")),
        );
        return false;
    };
    match schemas::validate(schema, definition) {
        Ok(v) if v.is_empty() => {}
        Ok(v) => {
            diags.extend(schemas::to_diagnostics(
                v,
                Code::DefinitionSchemaViolation,
                def_path,
                "Form Definition",
            ));
            return false;
        }
        Err(e) => {
            diags.push(
                Diagnostic::new(Code::DefinitionSchemaViolation, format!("internal: {e}"))
                    .in_file(def_path),
            );
            return false;
        }
    }
    // typed decode (current-profile.md §5.1 QUIRK): constraints[].total is int64
    let mut ok = true;
    if let Some(list) = definition.get("constraints").and_then(Value::as_array) {
        for (i, c) in list.iter().enumerate() {
            if let Some(n) = c.get("total").and_then(Value::as_number) {
                if n.as_i64().is_none() {
                    ok = false;
                    diags.push(
                        Diagnostic::new(Code::DefinitionDecode, format!("Form Definition: json: cannot unmarshal number {n} into int64 total"))
                            .in_file(def_path)
                            .at(JsonPointer::root().child("constraints").index(i).child("total")),
                    );
                }
            }
        }
    }
    ok
}

/// Step 17 (`current-profile.md` §7.4): the name scan of every JSON payload
/// except the definition. A desired-only fixture's top-level keys that are
/// reviewed top-level desired properties are exempt.
pub(crate) fn scan_payloads(
    diags: &mut Vec<Diagnostic>,
    def_path: &str,
    definition: &Value,
    payloads: &BTreeMap<String, Option<JsonPayload>>,
) {
    let (desired, other) = fixture_uses(definition);
    for (path, payload) in payloads {
        let Some(p) = payload else { continue };
        if path == def_path {
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
}

/// Paths used by desired-stage fixtures, and by any other stage.
fn fixture_uses(
    definition: &Value,
) -> (
    std::collections::BTreeSet<&str>,
    std::collections::BTreeSet<&str>,
) {
    let mut desired = std::collections::BTreeSet::new();
    let mut other = std::collections::BTreeSet::new();
    for f in definition
        .get("conformanceFixtures")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(p) = f.get("desiredPath").and_then(Value::as_str) {
            desired.insert(p);
        }
        for k in ["observedPath", "outputPath"] {
            if let Some(p) = f.get(k).and_then(Value::as_str) {
                other.insert(p);
            }
        }
    }
    for f in definition
        .get("negativeConformanceFixtures")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(p) = f.get("inputPath").and_then(Value::as_str) {
            if f.get("stage").and_then(Value::as_str) == Some("desired") {
                desired.insert(p);
            } else {
                other.insert(p);
            }
        }
    }
    (desired, other)
}

/// Step 18: positive then negative fixtures (`verifier-rules.md` §7).
/// `media`: listed path → media type.
pub(crate) fn run_fixtures(
    out: &mut PackageOutcome,
    diags: &mut Vec<Diagnostic>,
    def_path: &str,
    definition: &Value,
    validated: Validated,
    media: &BTreeMap<String, String>,
    payloads: &BTreeMap<String, Option<JsonPayload>>,
) {
    let Some(stages) = validated.stages else {
        return;
    };
    let lookup = |path: &str| {
        media.get(path).map(|m| crate::fixtures::PayloadView {
            media_type: m.as_str(),
            value: payloads
                .get(path)
                .and_then(Option::as_ref)
                .map(|p| &p.value),
            literals: payloads
                .get(path)
                .and_then(Option::as_ref)
                .map(|p| &p.numbers),
        })
    };
    let run =
        crate::fixtures::run_fixtures(definition, &stages, &lookup, &proof::work::instance_work);
    out.fixtures_run = run.positive_run + run.negative_run;
    let package = out.path.clone();
    diags.extend(run.diagnostics.into_iter().map(|d| {
        let d = d.in_file_if_unset(def_path);
        missing_fixture_file(d, &package, definition)
    }));
}

/// An unlisted fixture (`FD403`) whose file is not in the package either
/// says so (issue 14 item 3): listing a file that is not there cannot fix
/// it. The path passed the package path grammar (`FD402` otherwise), so it
/// stays inside the package; the look-up only shapes the message.
fn missing_fixture_file(
    d: Diagnostic,
    package: &std::path::Path,
    definition: &Value,
) -> Diagnostic {
    if d.code != crate::codes::Code::FixtureUnlisted {
        return d;
    }
    let Some(path) = d.pointer.resolve(definition).and_then(Value::as_str) else {
        return d;
    };
    if std::fs::symlink_metadata(package.join(path)).is_ok() {
        return d;
    }
    let message = format!("{}: the file does not exist in the package", d.message);
    let help = format!(
        "add the file {path:?} to the package (then `form-package index DIR` lists it), or fix the path"
    );
    Diagnostic { message, ..d }.help(help)
}
