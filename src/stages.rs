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
    definition_schema_for, formref_schema_for, JsonPayload, Listed, PackageOutcome,
    DEFINITION_MEDIA_TYPE, INDEX_FILE,
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

/// Envelope and schema of the definition (step 13, first half). Returns the
/// selected schema on success.
pub(crate) fn definition_schema_check(
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
