//! The Form Definition (`verifier-rules.md` §1.1 steps 12–13, §3;
//! `current-profile.md` §6): locating it through `definitionPath`, its
//! schema and typed decode, the definition-wide name scan, the inline-schema
//! proofs, engine compilation, the remaining definition rules, constraint
//! semantics and the relations derived from the desired schema.
//!
//! Order inside step 13 follows `current-profile.md` §6: schema + typed
//! decode → `$` name scan → per inline schema (local `$ref` closure,
//! closed-object proof, structural work, compile) → legacy interfaces →
//! fixture counts, names, paths → constraint semantics.

use serde_json::Value;

use crate::codes::Code;
use crate::diag::{Diagnostic, Target};
use crate::error::Error;
use crate::json::pointer::JsonPointer;
use crate::package::{Fact, Package, DEFINITION_MEDIA_TYPE};
use crate::profile::{self, IndexProfile};
use crate::proof::{self, NameQuery, NameSite};
use crate::schemas;
use crate::vocabulary::{self, ScanOptions, Whole};

use super::{Check, CheckResult, FileRole, Need, FAULT};

const MODULE: &str = "src/checks/definition.rs";
const INVALID: &str = "the definition fails its schema";
const NEEDS_VALID: &[Need] = &[Need::Fact(Fact::DefinitionValid)];

/// Step 12: `definitionPath` is listed with the definition media type, and
/// the definition was read and parsed.
pub(super) const LOCATE: Check = Check {
    name: "definition-path",
    module: MODULE,
    codes: &[Code::DefinitionPathUnlisted, Code::DefinitionPathMediaType],
    needs: &[Need::Fact(Fact::Index)],
    establishes: Some(Fact::Definition),
    file: FileRole::Index,
    run: locate,
};

fn locate(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    pkg.def_path = pkg
        .index
        .as_ref()
        .and_then(|i| i.get("definitionPath"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let def_path = &pkg.def_path;
    let at = JsonPointer::root().child("definitionPath");
    match pkg.listed.iter().find(|l| &l.path == def_path) {
        None => {
            diags.push(
                Diagnostic::new(
                    Code::DefinitionPathUnlisted,
                    format!("definitionPath {def_path:?} is not listed"),
                )
                .at(at),
            );
            return Err("definitionPath is not listed");
        }
        Some(l) if l.media_type != DEFINITION_MEDIA_TYPE => {
            diags.push(
                Diagnostic::new(
                    Code::DefinitionPathMediaType,
                    format!(
                        "definitionPath {def_path:?} has media type {:?}, want {DEFINITION_MEDIA_TYPE:?}",
                        l.media_type
                    ),
                )
                .at(at),
            );
            return Err("definitionPath has the wrong media type");
        }
        Some(_) => {}
    }
    if pkg.definition().is_none() {
        return Err("the definition could not be read or parsed");
    }
    Ok(())
}

/// Step 13, first half: envelope, profile lane, published schema, typed decode.
pub(super) const SCHEMA: Check = Check {
    name: "definition-schema",
    module: MODULE,
    codes: &[
        Code::UnsupportedDefinitionApiVersion,
        Code::DefinitionSchemaViolation,
        Code::DefinitionDecode,
    ],
    needs: &[Need::Fact(Fact::Definition)],
    establishes: Some(Fact::DefinitionValid),
    file: FileRole::Definition,
    run: schema,
};

fn schema(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let (Some(definition), Some(profile)) = (pkg.definition(), pkg.profile) else {
        return Err(INVALID);
    };
    match definition_schema_check(diags, profile, &pkg.def_path, definition) {
        Ok(true) => Ok(()),
        Ok(false) => Err(INVALID),
        Err(e) => {
            pkg.fault = Some(e);
            Err(FAULT)
        }
    }
}

/// Step 13: the `$` name scan of the whole definition.
pub(super) const NAME_SCAN: Check = Check {
    name: "definition-names",
    module: MODULE,
    codes: &[Code::ForbiddenDefinitionField, Code::ForbiddenPayloadField],
    needs: NEEDS_VALID,
    establishes: None,
    file: FileRole::Definition,
    run: name_scan,
};

fn name_scan(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Ok(());
    };
    // The current verifier scans the definition here for every profile; the
    // older reference scanned it as a payload, and the v1alpha1–v1alpha4
    // mutants name that catalogue entry, so those profiles keep the payload
    // code for the definition's keys.
    let code = if pkg.profile.is_some_and(|p| p.row().definition_scan_code) {
        Code::ForbiddenDefinitionField
    } else {
        Code::ForbiddenPayloadField
    };
    let scanned = vocabulary::scan_document(definition, code, &ScanOptions::definition_scan());
    // A forbidden property name found by this scan is not reported a second
    // time by the proof (same member, same cause); `required` strings and
    // `dependentRequired` values are values, only the proof sees them.
    let named = scanned
        .iter()
        .filter(|d| d.target == Target::Key)
        .map(|d| d.pointer.clone())
        .collect();
    pkg.definition_named = named;
    diags.extend(scanned);
    Ok(())
}

/// Step 13: `$ref` closure, closed-object proof and structural work of every
/// inline schema (`verifier-rules.md` §4).
pub(super) const PROOFS: Check = Check {
    name: "schema-proofs",
    module: "src/proof/",
    codes: &[
        Code::NonLocalRef,
        Code::DynamicRef,
        Code::UnresolvedRef,
        Code::TrueSchema,
        Code::NonSchemaValue,
        Code::PatternProperties,
        Code::LegacyDependencies,
        Code::ContentKeyword,
        Code::NestedDialect,
        Code::ResolutionScopeKeyword,
        Code::MixedObjectConst,
        Code::MalformedSchemaKeyword,
        Code::ArrayWithoutItems,
        Code::OpenObjectSchema,
        Code::ImpureTypedMap,
        Code::MapKeyPolicy,
        Code::ImplicitObjectKeywords,
        Code::OpenSchema,
        Code::CyclicRef,
        Code::ProofDepthExceeded,
        Code::ProofBudgetExceeded,
        Code::StructuralWorkExceeded,
        Code::UnsatisfiableAllOf,
        Code::ForbiddenSchemaName,
    ],
    needs: NEEDS_VALID,
    establishes: Some(Fact::Proven),
    file: FileRole::Definition,
    run: proofs,
};

fn proofs(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Err(INVALID);
    };
    let mut proven = true;
    for (ptr, schema, _) in inline_schemas(definition) {
        let report = proof::prove_inline_schema(&ptr, schema, &proof_name_policy);
        proven &= !report.diagnostics.iter().any(Diagnostic::is_error);
        diags.extend(report.diagnostics.into_iter().filter(|d| {
            !(d.code == Code::ForbiddenSchemaName
                && d.target == Target::Key
                && pkg.definition_named.contains(&d.pointer))
        }));
    }
    if proven {
        Ok(())
    } else {
        Err("an inline schema is not proven portable")
    }
}

/// Step 13: engine compilation of the stage schemas and Legacy document
/// schemas (`verifier-rules.md` §3.2, §3.8, §12 E1–E2).
pub(super) const COMPILE: Check = Check {
    name: "compile",
    module: "src/fixtures.rs",
    codes: &[Code::InlineSchemaCompile],
    needs: &[Need::Fact(Fact::Proven)],
    establishes: Some(Fact::Compiled),
    file: FileRole::Definition,
    run: compile,
};

fn compile(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Err(INVALID);
    };
    let (compiled, found) = crate::fixtures::compile_stages(definition);
    let ok = !found.iter().any(Diagnostic::is_error);
    diags.extend(found);
    pkg.stages = Some(compiled);
    if ok {
        Ok(())
    } else {
        Err("an inline schema does not compile")
    }
}

/// Step 13: Legacy interfaces, fixture counts, names and paths (on proven
/// schemas; a schema that did not compile is left out).
pub(super) const RULES: Check = Check {
    name: "definition-rules",
    module: "src/definition_rules.rs",
    codes: &[
        Code::FixtureCount,
        Code::DuplicateFixtureName,
        Code::InvalidFixturePath,
        Code::FixtureUnlisted,
        Code::InterfaceDocumentViolation,
        Code::DuplicateInterface,
        Code::InterfaceInputRule,
    ],
    needs: &[Need::Fact(Fact::Proven)],
    establishes: None,
    file: FileRole::Definition,
    run: rules,
};

fn rules(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    if let (Some(definition), Some(stages)) = (pkg.definition(), &pkg.stages) {
        diags.extend(crate::definition_rules::check(definition, stages));
    }
    Ok(())
}

/// Step 13: constraint semantics (`current-profile.md` §5.1).
pub(super) const CONSTRAINTS: Check = Check {
    name: "constraints",
    module: "src/constraints.rs",
    codes: &[
        Code::ConstraintOrderedPair,
        Code::ConstraintUniqueBy,
        Code::ConstraintRelation,
    ],
    needs: NEEDS_VALID,
    establishes: None,
    file: FileRole::Definition,
    run: constraints,
};

fn constraints(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    if let Some(definition) = pkg.definition() {
        diags.extend(crate::constraints::check(definition));
    }
    Ok(())
}

/// Relations derived from the desired schema, for family and current lanes
/// (`verifier-rules.md` §8); findings are warnings.
pub(super) const RELATIONS: Check = Check {
    name: "relations",
    module: "src/relations.rs",
    codes: &[
        Code::RelationAtRoot,
        Code::RelationDepth,
        Code::MissingTargetContract,
        Code::ConflictingTargetContracts,
        Code::MalformedTargetContract,
        Code::BindingNotAccepted,
        Code::NonConstReferenceIdentity,
        Code::HiddenReference,
        Code::EdgeReferenceWithoutContract,
    ],
    needs: NEEDS_VALID,
    establishes: None,
    file: FileRole::Definition,
    run: relations,
};

fn relations(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Ok(());
    };
    let api = definition
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if profile::legacy_lane(api).is_some() {
        return Ok(());
    }
    let derivation = crate::relations::derive(definition);
    diags.extend(derivation.diagnostics);
    pkg.relations = derivation
        .relations
        .iter()
        .filter_map(|r| serde_json::to_value(r).ok())
        .collect();
    Ok(())
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

/// Envelope and schema of the definition (step 13, first half): `Ok(true)`
/// when the definition satisfies its schema and decodes; `Err` only for an
/// internal fault (an embedded schema that does not build).
fn definition_schema_check(
    diags: &mut Vec<Diagnostic>,
    profile: IndexProfile,
    def_path: &str,
    definition: &Value,
) -> Result<bool, Error> {
    let api = match definition.get("apiVersion") {
        Some(Value::String(s)) => s.clone(),
        _ => {
            let msg = if definition.is_object() {
                "Form Definition: apiVersion must be a string"
            } else {
                "Form Definition: the definition must be a JSON object"
            };
            diags.push(Diagnostic::new(Code::UnsupportedDefinitionApiVersion, msg));
            return Ok(false);
        }
    };
    let Some(schema) = profile::definition_schema(&api, profile.family()) else {
        diags.push(
            Diagnostic::new(
                Code::UnsupportedDefinitionApiVersion,
                format!("Form Definition: unsupported apiVersion {api:?}"),
            )
            .at(JsonPointer::root().child("apiVersion")),
        );
        return Ok(false);
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
            return Ok(false);
        }
        Err(e) => return Err(Error::Internal(e)),
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
                            .at(JsonPointer::root().child("constraints").index(i).child("total")),
                    );
                }
            }
        }
    }
    Ok(ok)
}
