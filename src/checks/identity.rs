//! The FormRef against the definition (`verifier-rules.md` §1.1 steps
//! 14–16): the `schemaDigest`, the identity members, and the FormRef's own
//! grammar under the index profile.

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
        let declared = pkg
            .form_ref()
            .get("schemaDigest")
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
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match profile::formref_schema(api, family) {
        FormRefSchema::Unsupported => diags.push(
            Diagnostic::new(
                Code::InvalidFormRef,
                format!("FormRef: unsupported apiVersion {api:?}"),
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
