//! Pipeline steps 12–19: the Form Definition, identity and digests, the
//! payload name scan, fixtures and relations (`verifier-rules.md` §1.1
//! steps 12–19, §3; `current-profile.md` §6, §7.4, §10).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::JsonPointer;
use crate::profile::{FormRefSchema, IndexProfile};
use crate::schemas;
use crate::verify::{
    formref_schema_for, JsonPayload, Listed, PackageOutcome, DEFINITION_MEDIA_TYPE, INDEX_FILE,
};

/// Runs steps 12–19 on a package whose index validated.
pub(crate) fn definition_and_after(
    out: &mut PackageOutcome,
    diags: &mut Vec<Diagnostic>,
    profile: IndexProfile,
    index: &Value,
    listed: &[Listed],
    payloads: &BTreeMap<String, Option<JsonPayload>>,
) {
    let def_path = index
        .get("definitionPath")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let at_def_path = JsonPointer::root().child("definitionPath");
    match listed.iter().find(|l| l.path == def_path) {
        None => {
            diags.push(
                Diagnostic::new(
                    Code::DefinitionPathUnlisted,
                    format!("definitionPath {def_path:?} is not listed"),
                )
                .in_file(INDEX_FILE)
                .at(at_def_path),
            );
            out.skipped
                .push("definition, identity, fixtures: definitionPath is not listed".into());
            return;
        }
        Some(l) if l.media_type != DEFINITION_MEDIA_TYPE => {
            diags.push(
                Diagnostic::new(
                    Code::DefinitionPathMediaType,
                    format!("definitionPath {def_path:?} has media type {:?}, want {DEFINITION_MEDIA_TYPE:?}", l.media_type),
                )
                .in_file(INDEX_FILE)
                .at(at_def_path),
            );
            out.skipped.push(
                "definition, identity, fixtures: definitionPath has the wrong media type".into(),
            );
            return;
        }
        Some(_) => {}
    }
    let Some(Some(def)) = payloads.get(&def_path) else {
        out.skipped.push(
            "definition, identity, fixtures: the definition could not be read or parsed".into(),
        );
        return;
    };
    let definition = &def.value;
    let form_ref = index.get("formRef").cloned().unwrap_or(Value::Null);

    // 13. definition validation
    let valid = crate::definition::validate(out, diags, profile, &def_path, definition, payloads);

    // 14. schemaDigest
    if let Ok(canonical) = canonicalize(definition) {
        let computed = sha256_digest(&canonical);
        let declared = form_ref
            .get("schemaDigest")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if computed != declared {
            diags.push(
                Diagnostic::new(
                    Code::SchemaDigestMismatch,
                    format!("FormRef schemaDigest is {declared}, canonical definition digest is {computed}"),
                )
                .in_file(INDEX_FILE)
                .at(JsonPointer::root().child("formRef").child("schemaDigest")),
            );
        }
    }

    // 15. identity
    let mut identity_ok = true;
    for member in ["apiVersion", "kind", "definitionVersion"] {
        if form_ref.get(member) != definition.get(member) {
            identity_ok = false;
            diags.push(
                Diagnostic::new(
                    Code::FormRefIdentityMismatch,
                    format!(
                        "FormRef identity does not match Form Definition identity: formRef.{member} is {}, the definition says {}",
                        form_ref.get(member).unwrap_or(&Value::Null),
                        definition.get(member).unwrap_or(&Value::Null)
                    ),
                )
                .in_file(INDEX_FILE)
                .at(JsonPointer::root().child("formRef").child(member)),
            );
        }
    }

    // 16. FormRef re-validation
    if identity_ok {
        revalidate_formref(diags, profile, &form_ref);
    }

    // 17. payload name scan (current-profile.md §7.4)
    crate::definition::scan_payloads(diags, &def_path, definition, payloads);

    // 18. fixtures, only on a definition that validated
    match valid {
        Some(v) if !diags.iter().any(Diagnostic::is_error) => {
            let media: BTreeMap<String, String> = listed
                .iter()
                .map(|l| (l.path.clone(), l.media_type.clone()))
                .collect();
            crate::definition::run_fixtures(out, diags, &def_path, definition, v, &media, payloads);
        }
        Some(v) if v.runnable() => out.skipped.push("fixtures: earlier errors".into()),
        Some(_) => {}
        None => {}
    }
}

fn revalidate_formref(diags: &mut Vec<Diagnostic>, profile: IndexProfile, form_ref: &Value) {
    let at = JsonPointer::root().child("formRef");
    let api = form_ref
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match formref_schema_for(api, profile) {
        FormRefSchema::Unsupported => diags.push(
            Diagnostic::new(
                Code::InvalidFormRef,
                format!("FormRef: unsupported apiVersion {api:?}"),
            )
            .in_file(INDEX_FILE)
            .at(at.child("apiVersion")),
        ),
        FormRefSchema::VersionedInNeutral => diags.push(
            Diagnostic::new(
                Code::VersionedFormRef,
                "FormRef: current neutral profile requires a versionless reverse-DNS group",
            )
            .in_file(INDEX_FILE)
            .at(at.child("apiVersion")),
        ),
        FormRefSchema::Schema(s) => match schemas::validate(s, form_ref) {
            Ok(v) => diags.extend(
                schemas::to_diagnostics(v, Code::InvalidFormRef, INDEX_FILE, "FormRef")
                    .into_iter()
                    .map(|d| d.under(&at)),
            ),
            Err(e) => diags.push(
                Diagnostic::new(Code::InvalidFormRef, format!("internal: {e}")).in_file(INDEX_FILE),
            ),
        },
    }
}
