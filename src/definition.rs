//! Form Definition validation (pipeline step 13) and the checks that hang
//! off it: the definition-wide name scan, the inline-schema proofs, engine
//! compilation, the remaining definition rules, constraints; then the
//! payload name scan (step 17) and the fixture runner (step 18).
//!
//! Order inside step 13 follows `current-profile.md` §6: schema + typed
//! decode → `$` name scan → per inline schema (local `$ref` closure,
//! closed-object proof, structural work, compile) → legacy interfaces →
//! fixture counts, names, paths → constraint semantics.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::profile::IndexProfile;
use crate::stages::definition_schema_check;
use crate::verify::{JsonPayload, PackageOutcome};

/// What later steps need from a definition that validated.
#[derive(Debug, Default)]
pub(crate) struct Validated {}

/// Step 13. Returns `Some` when the definition satisfied its schema (later
/// definition-level findings may still exist; they are in `diags`).
pub(crate) fn validate(
    _out: &mut PackageOutcome,
    diags: &mut Vec<Diagnostic>,
    profile: IndexProfile,
    def_path: &str,
    definition: &Value,
    _payloads: &BTreeMap<String, Option<JsonPayload>>,
) -> Option<Validated> {
    if !definition_schema_check(diags, profile, def_path, definition) {
        return None;
    }
    Some(Validated::default())
}

/// Step 17: the name scan of every JSON payload except the definition.
pub(crate) fn scan_payloads(
    _diags: &mut Vec<Diagnostic>,
    _def_path: &str,
    _definition: &Value,
    _payloads: &BTreeMap<String, Option<JsonPayload>>,
) {
}

/// Step 18: positive then negative fixtures.
pub(crate) fn run_fixtures(
    _out: &mut PackageOutcome,
    _diags: &mut Vec<Diagnostic>,
    _definition: &Value,
    _validated: Option<Validated>,
    _payloads: &BTreeMap<String, Option<JsonPayload>>,
) {
}
