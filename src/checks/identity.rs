//! The FormRef against the definition (`verifier-rules.md` §1.1 steps
//! 14–16): the `schemaDigest`, the identity members, and the FormRef's own
//! grammar under the index profile.
//!
//! # What it checks
//!
//! - `schema-digest` (`SCHEMA_DIGEST`): FD123 `schema-digest-mismatch`
//! - `formref-identity` (`IDENTITY`): FD124 `formref-identity-mismatch`
//! - `formref` (`FORMREF`): FD125 `invalid-formref`, FD126
//!   `versioned-formref-in-neutral-profile`
//!
//! # Why
//!
//! The FormRef is the name hosts resolve a package by; when it does not match
//! the definition's own identity and the canonical digest of its bytes, a
//! host would install something other than what was named.
//!
//! # Example
//!
//! Failing (FD123 `schema-digest-mismatch`): `index formRef: {…,"schemaDigest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}`
//!
//! Passing: `` index formRef: {…,"schemaDigest":"sha256:7d3ccaec178df99f28a368b8eb3f3bf2f0df55f0e13dd78a34b4be658af01a4d"}   (`form-package digest definition.json`) ``
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §1.1 step 14, §2.3 D3; verifier-rules.md §1.1 step 15;
//! verifier-rules.md §0.2 S3; current-profile.md §2.5.

use crate::diag::escape::quote;
use crate::json::Members;
use serde_json::Value;

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::json::pointer::JsonPointer;
use crate::package::{Fact, Package, INDEX_FILE};
use crate::profile::{self, FormRefSchema};
use crate::schemas;

use super::{Check, CheckResult, FileRole, Need, FAULT};

const MODULE: &str = "src/checks/identity.rs";

/// Step 14: `formRef.schemaDigest` is the digest of the definition's RFC
/// 8785 form.
///
/// **Why:** The FormRef is how hosts pin a Form; a digest that does not match
/// the definition pins a different contract.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD123 `schema-digest-mismatch`: formRef.schemaDigest is not the SHA-256
///   of the canonical definition (verifier-rules.md §1.1 step 14, §2.3 D3)
///
/// **Failing** (FD123): `index formRef: {…,"schemaDigest":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}`
///
/// **Passing:** `` index formRef: {…,"schemaDigest":"sha256:7d3ccaec178df99f28a368b8eb3f3bf2f0df55f0e13dd78a34b4be658af01a4d"}   (`form-package digest definition.json`) ``
pub(super) const SCHEMA_DIGEST: Check = Check {
    name: "schema-digest",
    module: MODULE,
    codes: &[Code::SchemaDigestMismatch],
    needs: &[Need::Fact(Fact::Definition)],
    establishes: None,
    file: FileRole::Index,
    run: schema_digest,
};

fn schema_digest(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Ok(());
    };
    if let Ok(canonical) = canonicalize(definition) {
        let computed = sha256_digest(&canonical);
        pkg.schema_digest = Some(computed.clone());
        let declared = pkg
            .form_ref()
            .member("schemaDigest")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if computed != declared {
            diags.push(
                Diagnostic::new(
                    Code::SchemaDigestMismatch,
                    format!("FormRef schemaDigest is {declared}, canonical definition digest is {computed}"),
                )
                .at(JsonPointer::root().child("formRef").child("schemaDigest")),
            );
        }
    }
    Ok(())
}

/// Step 15: `apiVersion`, `kind` and `definitionVersion` of the FormRef
/// equal the definition's.
///
/// **Why:** The index would advertise one Form while shipping another.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD124 `formref-identity-mismatch`: formRef
///   apiVersion/kind/definitionVersion differ from the definition's
///   (verifier-rules.md §1.1 step 15)
///
/// **Failing** (FD124): `index formRef: {"definitionVersion":"1.0.1",…}   definition: {"definitionVersion":"1.0.0",…}`
///
/// **Passing:** `index formRef: {"definitionVersion":"1.0.0",…}   definition: {"definitionVersion":"1.0.0",…}`
pub(super) const IDENTITY: Check = Check {
    name: "formref-identity",
    module: MODULE,
    codes: &[Code::FormRefIdentityMismatch],
    needs: &[Need::Fact(Fact::Definition)],
    establishes: Some(Fact::Identity),
    file: FileRole::Index,
    run: identity,
};

fn identity(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Err("the definition could not be read or parsed");
    };
    let form_ref = pkg.form_ref();
    let mut ok = true;
    for member in ["apiVersion", "kind", "definitionVersion"] {
        if form_ref.get(member) != definition.get(member) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::FormRefIdentityMismatch,
                    format!(
                        "FormRef identity does not match Form Definition identity: formRef.{member} is {}, the definition says {}",
                        form_ref.get(member).unwrap_or(&Value::Null),
                        definition.get(member).unwrap_or(&Value::Null)
                    ),
                )
                .at(JsonPointer::root().child("formRef").child(member)),
            );
        }
    }
    if ok {
        Ok(())
    } else {
        Err("the FormRef identity does not match the definition")
    }
}

/// Step 16: the FormRef satisfies the FormRef schema of its lane.
///
/// **Why:** A FormRef only valid by the index schema's looser pattern would
/// name a group hosts refuse.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD125 `invalid-formref`: the FormRef fails re-validation against its
///   lane's FormRef schema (verifier-rules.md §0.2 S3; current-profile.md §2.5)
/// - FD126 `versioned-formref-in-neutral-profile`: a current-neutral FormRef
///   carries a group version (current-profile.md §2.5)
///
/// **Failing** (FD125): `index formRef (index v1alpha4): {"apiVersion":"forms.takoform.com/v1alpha3",…}   (reserved group)`
///
/// **Passing:** `index formRef (index v1alpha4): {"apiVersion":"edge.forms.takoform.com/v1beta1",…}`
pub(super) const FORMREF: Check = Check {
    name: "formref",
    module: MODULE,
    codes: &[Code::InvalidFormRef, Code::VersionedFormRef],
    needs: &[Need::Fact(Fact::Identity)],
    establishes: None,
    file: FileRole::Index,
    run: formref,
};

fn formref(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(family) = pkg.profile.map(|p| p.family()) else {
        return Ok(());
    };
    let form_ref = pkg.form_ref().clone();
    let form_ref = &form_ref;
    let at = JsonPointer::root().child("formRef");
    let api = form_ref
        .member("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match profile::formref_schema(api, family) {
        FormRefSchema::Unsupported => diags.push(
            Diagnostic::new(
                Code::InvalidFormRef,
                format!("FormRef: unsupported apiVersion {}", quote(api)),
            )
            .at(at.child("apiVersion")),
        ),
        FormRefSchema::VersionedInNeutral => diags.push(
            Diagnostic::new(
                Code::VersionedFormRef,
                "FormRef: current neutral profile requires a versionless reverse-DNS group",
            )
            .at(at.child("apiVersion")),
        ),
        FormRefSchema::Schema(s) => match schemas::validate(s, form_ref) {
            Ok(v) => diags.extend(
                schemas::to_diagnostics(v, Code::InvalidFormRef, INDEX_FILE, "FormRef")
                    .into_iter()
                    .map(|d| d.under(&at)),
            ),
            Err(e) => {
                pkg.fault = Some(Error::Internal(e));
                return Err(FAULT);
            }
        },
    }
    Ok(())
}
