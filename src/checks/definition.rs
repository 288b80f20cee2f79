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
//!
//! # What it checks
//!
//! - `definition-path` (`LOCATE`): FD118 `definition-path-unlisted`, FD119
//!   `definition-path-media-type`
//! - `definition-schema` (`SCHEMA`): FD120
//!   `unsupported-definition-api-version`, FD121 `definition-schema-violation`,
//!   FD122 `definition-decode`
//! - `definition-names` (`NAME_SCAN`): FD301 `forbidden-field-in-definition`,
//!   FD300 `forbidden-field-in-payload`
//! - `schema-proofs` (`PROOFS`): FD200 `non-local-ref`, FD201 `dynamic-ref`,
//!   FD202 `unresolved-ref`, FD203 `true-schema`, FD204 `non-schema-value`,
//!   FD205 `pattern-properties`, FD206 `legacy-dependencies`, FD207
//!   `content-keyword`, FD208 `nested-dialect`, FD209
//!   `resolution-scope-keyword`, FD210 `mixed-object-const`, FD211
//!   `malformed-schema-keyword`, FD212 `array-without-items`, FD213
//!   `open-object-schema`, FD214 `impure-typed-map`, FD215 `map-key-policy`,
//!   FD216 `implicit-object-keywords`, FD217 `open-schema`, FD218 `cyclic-ref`,
//!   FD219 `proof-depth-exceeded`, FD220 `proof-budget-exceeded`, FD221
//!   `structural-work-exceeded`, FD223 `unsatisfiable-all-of`, FD302
//!   `forbidden-schema-name`
//! - `compile` (`COMPILE`): FD222 `inline-schema-compile-error`
//! - `definition-rules` (`RULES`): FD400 `fixture-count`, FD401
//!   `duplicate-fixture-name`, FD402 `invalid-fixture-path`, FD403
//!   `fixture-unlisted`, FD412 `interface-document-violation`, FD413
//!   `duplicate-interface`, FD414 `interface-input-rule`
//! - `constraints` (`CONSTRAINTS`): FD415 `constraint-ordered-pair`, FD416
//!   `constraint-unique-by`, FD417 `constraint-relation`
//! - `relations` (`RELATIONS`): FD500 `relation-at-root`, FD501
//!   `relation-depth-exceeded`, FD502 `missing-target-contract`, FD503
//!   `conflicting-target-contracts`, FD504 `malformed-target-contract`, FD505
//!   `binding-not-accepted`, FD506 `non-const-reference-identity`, FD507
//!   `hidden-reference`, FD508 `historical-reference-without-contract`, FD509
//!   `target-formref-identity-mismatch`
//!
//! # Why
//!
//! The Form Definition is what a host installs: its schemas must be closed,
//! document-local and cheap to validate, and must compile with the
//! reference's Draft 2020-12 engine, so that every host reaches the same
//! verdict on every instance and no host can be made to do unbounded work.
//!
//! # Example
//!
//! Failing (FD222 `inline-schema-compile-error`): `desiredSchema.properties.x = {"type":"string","minLength":-1}`
//!
//! Passing: `desiredSchema.properties.x = {"type":"string","minLength":1}`
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §1.1 step 12; verifier-rules.md §0.2 S2, §0.3;
//! current-profile.md §2.3-2.4; verifier-rules.md §3; current-profile.md §5;
//! current-profile.md §5.1 (typed decode QUIRK); verifier-rules.md §6 V2;
//! current-profile.md §7.3; verifier-rules.md §6, §1.7 R1.23;
//! current-profile.md §7.4; verifier-rules.md §5 F1; verifier-rules.md §5 F3;
//! verifier-rules.md §4.2 step 1; verifier-rules.md §4.2 step 2;
//! verifier-rules.md §4.2 step 3; verifier-rules.md §4.2 step 4;
//! verifier-rules.md §4.2 step 5; verifier-rules.md §4.2 step 6;
//! verifier-rules.md §4.2 step 7; verifier-rules.md §4.2 step 8;
//! verifier-rules.md §4.2 steps 9-16; verifier-rules.md §4.2 step 12;
//! verifier-rules.md §4.3; verifier-rules.md §4.2 step 13; verifier-rules.md
//! §4.1; verifier-rules.md §4.4; verifier-rules.md §4.6; verifier-rules.md
//! §4.3 (ours); verifier-rules.md §4.2 steps 9-11, §6 V3; verifier-rules.md
//! §12 E1-E2; verifier-rules.md §3.7 R3.9; verifier-rules.md §3.7 R3.10;
//! verifier-rules.md §3.7 R3.11; verifier-rules.md §7.1 R7.1, §7.2 R7.5;
//! verifier-rules.md §3.6 R3.8; verifier-rules.md §3.6 R3.2;
//! verifier-rules.md §3.6 R3.3-R3.7; current-profile.md §6.2;
//! current-profile.md §6.2 pass 2; verifier-rules.md §8.3 step 2;
//! verifier-rules.md §8.3 step 1; verifier-rules.md §8.4; decision 0022;
//! decision 0015 rule 8 step 1; decision 0015 rule 2; verifier-rules.md §8.2;
//! verifier-rules.md §8.3; verifier-rules.md §8.1.

use crate::diag::escape::quote;
use crate::json::Members;
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
///
/// **Why:** The definition is the contract the FormRef digests; it has to be
/// one of the signed payloads.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD118 `definition-path-unlisted`: definitionPath names a file the index
///   does not list (verifier-rules.md §1.1 step 12)
/// - FD119 `definition-path-media-type`: definitionPath names a file without
///   the Form Definition media type (verifier-rules.md §1.1 step 12)
///
/// **Failing** (FD118): `index: {"definitionPath":"other.json","files":[{"path":"definition.json",…}],…}`
///
/// **Passing:** `index: {"definitionPath":"definition.json","files":[{"path":"definition.json",…}],…}`
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
        .and_then(|i| i.member("definitionPath"))
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
                    format!("definitionPath {} is not listed", quote(def_path)),
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
                        "definitionPath {} has media type {}, want {}",
                        quote(def_path),
                        quote(&l.media_type),
                        quote(DEFINITION_MEDIA_TYPE)
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
///
/// **Why:** A definition no schema applies to cannot be validated, so nothing
/// about it could be trusted.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD120 `unsupported-definition-api-version`: the Form Definition
///   apiVersion selects no definition schema (verifier-rules.md §0.2 S2, §0.3;
///   current-profile.md §2.3-2.4)
/// - FD121 `definition-schema-violation`: the Form Definition does not
///   satisfy its profile's Draft 2020-12 schema (verifier-rules.md §3;
///   current-profile.md §5)
/// - FD122 `definition-decode`: a definition number the schema accepts is not
///   a plain int64 literal (typed decode) (current-profile.md §5.1 (typed
///   decode QUIRK))
///
/// **Failing** (FD120): `definition: {"apiVersion":"forms/v1",…}`
///
/// **Passing:** `definition: {"apiVersion":"forms.takoform.com/v1alpha1",…}`
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

/// Step 13: the `$` name scan of the whole definition. It needs only the
/// parsed definition, so it runs whether or not the definition satisfies its
/// schema (issue 25): the reference verifier of the v1alpha1–v1alpha4 lanes
/// scans the definition as a payload before validating it (§1.7 R1.23), and
/// the current one reports the schema error first (`current-profile.md`
/// §7.4); both are among the findings of one run. Its place in the table,
/// code per profile and exemption rule are the current profile's.
///
/// **Why:** The definition describes portable data; a forbidden key anywhere
/// in it (even in an annotation or default) signals non-portable content.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD301 `forbidden-field-in-definition`: a Form Definition key is a
///   forbidden field name (verifier-rules.md §6 V2; current-profile.md §7.3)
/// - FD300 `forbidden-field-in-payload`: a JSON payload key is a forbidden
///   field name (credentials, placement, commercial terms, code)
///   (verifier-rules.md §6, §1.7 R1.23; current-profile.md §7.4)
///
/// **Failing** (FD301): `definition desiredSchema: {…,"x-note":{"password":"x"}}`
///
/// **Passing:** `definition desiredSchema: {…,"x-note":{"hint":"x"}}`
pub(super) const NAME_SCAN: Check = Check {
    name: "definition-names",
    module: MODULE,
    codes: &[Code::ForbiddenDefinitionField, Code::ForbiddenPayloadField],
    needs: &[Need::Fact(Fact::Definition)],
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
///
/// **Why:** Network, file and anchor references load schemas from outside the
/// signed package, so the proof could not see what is validated.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD200 `non-local-ref`: a $ref that is not `#` or `#/…` (network, file,
///   anchor, non-string) (verifier-rules.md §5 F1)
/// - FD201 `dynamic-ref`: a $dynamicRef anywhere in an inline schema
///   (verifier-rules.md §5 F1)
/// - FD202 `unresolved-ref`: a local $ref whose JSON Pointer does not resolve
///   (verifier-rules.md §5 F3)
/// - FD203 `true-schema`: a boolean `true` schema admits arbitrary objects
///   (verifier-rules.md §4.2 step 1)
/// - FD204 `non-schema-value`: a subschema position holds neither an object
///   nor a boolean (verifier-rules.md §4.2 step 2)
/// - FD205 `pattern-properties`: patternProperties is forbidden
///   (verifier-rules.md §4.2 step 3)
/// - FD206 `legacy-dependencies`: the legacy `dependencies` keyword is
///   forbidden (verifier-rules.md §4.2 step 4)
/// - FD207 `content-keyword`: contentEncoding/contentMediaType/contentSchema
///   are forbidden (verifier-rules.md §4.2 step 5)
/// - FD208 `nested-dialect`: a nested $schema other than Draft 2020-12
///   (verifier-rules.md §4.2 step 6)
/// - FD209 `resolution-scope-keyword`:
///   $id/$anchor/$dynamicAnchor/$recursiveAnchor/$recursiveRef/$vocabulary
///   cannot be proven closed (verifier-rules.md §4.2 step 7)
/// - FD210 `mixed-object-const`: an object-valued const with sibling keywords
///   (verifier-rules.md §4.2 step 8)
/// - FD211 `malformed-schema-keyword`: a schema keyword has the wrong shape
///   for the proof (properties not an object, empty allOf, …)
///   (verifier-rules.md §4.2 steps 9-16)
/// - FD212 `array-without-items`: an array schema without `items`
///   (verifier-rules.md §4.2 step 12)
/// - FD213 `open-object-schema`: an object schema without
///   additionalProperties false or the typed-map escape (verifier-rules.md
///   §4.3)
/// - FD214 `impure-typed-map`: a typed map that also declares fixed or
///   dependent properties (verifier-rules.md §4.3)
/// - FD215 `map-key-policy`: a typed map whose propertyNames is not exactly
///   the reviewed marker (verifier-rules.md §4.3)
/// - FD216 `implicit-object-keywords`: object keywords without explicit
///   type=object (verifier-rules.md §4.2 step 13)
/// - FD217 `open-schema`: a schema node can admit arbitrary object values
///   (verifier-rules.md §4.1)
/// - FD218 `cyclic-ref`: a $ref cycle (including any $ref to #)
///   (verifier-rules.md §4.4)
/// - FD219 `proof-depth-exceeded`: a schema path longer than 64 edges
///   (verifier-rules.md §4.4)
/// - FD220 `proof-budget-exceeded`: the proof spent more than 4096 operations
///   (verifier-rules.md §4.4)
/// - FD221 `structural-work-exceeded`: the structural validation-work
///   estimate exceeds 16384 (verifier-rules.md §4.6)
/// - FD223 `unsatisfiable-all-of`: closed allOf branches require a property
///   another branch does not declare: no object satisfies both
///   (verifier-rules.md §4.3 (ours))
/// - FD302 `forbidden-schema-name`: a schema declares a forbidden
///   property/required/dependentRequired name (verifier-rules.md §4.2 steps
///   9-11, §6 V3)
///
/// **Failing** (FD200): `desiredSchema.properties.x = {"$ref":"https://attacker.invalid/s.json"}`
///
/// **Passing:** `desiredSchema.properties.x = {"$ref":"#/$defs/Name"}`
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
    let mut errors = std::collections::BTreeMap::new();
    for (ptr, schema, _) in inline_schemas(definition) {
        // The same schema at the same field in another package (another
        // version of it) is proved once a run ([`proof::memo`]).
        let report = proof::memo::Memo::global().prove(&ptr, schema, &proof_name_policy);
        let report = std::sync::Arc::unwrap_or_clone(report);
        let codes: Vec<Code> = report
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        if !codes.is_empty() {
            errors.insert(ptr, codes);
        }
        diags.extend(report.diagnostics.into_iter().filter(|d| {
            !(d.code == Code::ForbiddenSchemaName
                && d.target == Target::Key
                && pkg.definition_named.contains(&d.pointer))
        }));
    }
    let proven = errors.is_empty();
    pkg.proof_errors = errors;
    if proven {
        Ok(())
    } else {
        Err("an inline schema is not proven portable")
    }
}

/// Step 13: engine compilation of the stage schemas and Legacy document
/// schemas (`verifier-rules.md` §3.2, §3.8, §12 E1–E2).
///
/// Each schema is compiled whatever the proofs of the others found, and
/// whatever its own proof found unless that makes compiling it meaningless
/// ([`COMPILE_NEEDS_LOCAL`]; the schema is then named in a skipped record):
/// the reference proves and compiles one schema after the other (§3.8), so
/// a meta-schema violation of `desiredSchema` comes before a proof failure
/// of `outputSchema`, and both are among the findings of one run (issue 25).
/// A meta-schema refusal at the member a proof finding names (a non-schema
/// value, an empty `allOf`) is reported too: the two are different rules,
/// and where the reference's proof lets such a shape through (an unreachable
/// `$defs` entry with `"required": null`), the refusal is its first error.
///
/// **Why:** A schema the reference engine cannot compile makes the package
/// unusable on every host that validates with it.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD222 `inline-schema-compile-error`: an inline schema fails the Draft
///   2020-12 meta-schema or has a pattern Go's regexp cannot compile
///   (verifier-rules.md §12 E1-E2)
///
/// **Failing** (FD222): `desiredSchema.properties.x = {"type":"string","minLength":-1}`
///
/// **Passing:** `desiredSchema.properties.x = {"type":"string","minLength":1}`
pub(super) const COMPILE: Check = Check {
    name: "compile",
    module: "src/fixtures.rs",
    codes: &[Code::InlineSchemaCompile],
    needs: NEEDS_VALID,
    establishes: Some(Fact::Compiled),
    file: FileRole::Definition,
    run: compile,
};

/// Proof findings that make compiling their schema meaningless: the schema
/// reaches outside itself (a non-local, dynamic or unresolved `$ref`, a
/// resolution-scope keyword such as `$id`, another dialect), so the engine
/// would have to resolve what the proof refused, and offline it can only
/// report that it could not. Any other proof finding (an open object, a
/// malformed keyword, a budget) leaves the compile meaningful, and it runs.
pub(crate) const COMPILE_NEEDS_LOCAL: &[Code] = &[
    Code::NonLocalRef,
    Code::DynamicRef,
    Code::UnresolvedRef,
    Code::ResolutionScopeKeyword,
    Code::NestedDialect,
];

/// The skipped-record reason of a schema left out by [`COMPILE_NEEDS_LOCAL`].
const NOT_LOCAL: &str = "its proof found references or a dialect outside the schema, which compiling would have to resolve";

fn compile(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Err(INVALID);
    };
    let left_out: Vec<JsonPointer> = pkg
        .proof_errors
        .iter()
        .filter(|(_, codes)| codes.iter().any(|c| COMPILE_NEEDS_LOCAL.contains(c)))
        .map(|(ptr, _)| ptr.clone())
        .collect();
    let (compiled, found) =
        crate::fixtures::compile_stages_except(definition, |ptr| left_out.contains(ptr));
    let ok = !found.iter().any(Diagnostic::is_error);
    diags.extend(found);
    pkg.stages = Some(compiled);
    for ptr in &left_out {
        pkg.skipped_parts.push((proof::field_label(ptr), NOT_LOCAL));
    }
    if !ok {
        Err("an inline schema does not compile")
    } else if !left_out.is_empty() {
        Err(NOT_LOCAL_ANY)
    } else {
        Ok(())
    }
}

/// The reason [`Fact::Compiled`] fails when a schema was left out.
const NOT_LOCAL_ANY: &str = "an inline schema was not compiled";

/// Step 13: Legacy interfaces, fixture counts, names and paths (on proven
/// schemas; a schema that did not compile is left out).
///
/// **Why:** Bounds the fixture validation work of every verification.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD400 `fixture-count`: more than 32 positive or 32 negative fixtures
///   (verifier-rules.md §3.7 R3.9)
/// - FD401 `duplicate-fixture-name`: a fixture name is used twice across both
///   lists (verifier-rules.md §3.7 R3.10)
/// - FD402 `invalid-fixture-path`: a fixture path fails the package path
///   grammar (verifier-rules.md §3.7 R3.11)
/// - FD403 `fixture-unlisted`: a fixture path is not listed in the index
///   (verifier-rules.md §7.1 R7.1, §7.2 R7.5)
/// - FD412 `interface-document-violation`: a legacy interface document does
///   not satisfy its documentSchema (verifier-rules.md §3.6 R3.8)
/// - FD413 `duplicate-interface`: two legacy interfaces share name@version
///   (verifier-rules.md §3.6 R3.2)
/// - FD414 `interface-input-rule`: a legacy interface input breaks the
///   literal/resource_uri rules (verifier-rules.md §3.6 R3.3-R3.7)
///
/// **Failing** (FD400): `definition: {"conformanceFixtures":[33 entries],…}`
///
/// **Passing:** `definition: {"conformanceFixtures":[32 entries],…}`
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
///
/// **Why:** Hosts compare the two values; a pointer to an optional or
/// non-numeric field makes the constraint meaningless.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD415 `constraint-ordered-pair`: an orderedPair pointer does not name a
///   required numeric schema (current-profile.md §6.2)
/// - FD416 `constraint-unique-by`: a uniqueBy list/member does not name an
///   array of objects with a required scalar member (current-profile.md §6.2)
/// - FD417 `constraint-relation`: a constraint names a local pointer the
///   desired schema does not declare as a relation (current-profile.md §6.2
///   pass 2)
///
/// **Failing** (FD415): `constraints[]: {"kind":"orderedPair","references":["/className","/worker"]}   (className is a string)`
///
/// **Passing:** `constraints[]: {"kind":"orderedPair","references":["/minReplicas","/maxReplicas"]}   (both required integers)`
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
///
/// **Why:** Relation derivation refuses a reference at the root, so a host
/// cannot install the Form.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD500 `relation-at-root`: the desired schema root is itself
///   reference-shaped (verifier-rules.md §8.3 step 2)
/// - FD501 `relation-depth-exceeded`: relation derivation exceeded depth 32
///   (verifier-rules.md §8.3 step 1)
/// - FD502 `missing-target-contract`: a reference states no target contract
///   (verifier-rules.md §8.4; decision 0022)
/// - FD503 `conflicting-target-contracts`: a reference carries both
///   target-contract annotations (verifier-rules.md §8.4)
/// - FD504 `malformed-target-contract`: a target-contract annotation is
///   empty, malformed or incomplete (verifier-rules.md §8.4)
/// - FD505 `binding-not-accepted`: an x-takoform-binding names a contract
///   absent from acceptedBindings (decision 0015 rule 8 step 1)
/// - FD506 `non-const-reference-identity`: a reference-shaped object whose
///   apiVersion or kind is not const is silently not a relation (decision 0015
///   rule 2; verifier-rules.md §8.2)
/// - FD507 `hidden-reference`: a reference-shaped object behind
///   $ref/$defs/allOf/anyOf/oneOf/additionalProperties/prefixItems, which hosts
///   never enforce (decision 0015 rule 2; verifier-rules.md §8.3)
/// - FD508 `historical-reference-without-contract`: an edge v1alpha1
///   reference predates target contracts (verifier-rules.md §8.1)
/// - FD509 `target-formref-identity-mismatch`: a target FormRef of a
///   reference names another apiVersion or kind than the reference's own
///   consts (verifier-rules.md §8.7; current-profile.md §7.2)
///
/// **Failing** (FD500): `desiredSchema = {"type":"object","additionalProperties":false,"required":["apiVersion","kind","name"],"properties":{"apiVersion":{"const":"edge.forms.takoform.com"},"kind":{"const":"ModuleWorker"},"name":{"type":"string"}},…}`
///
/// **Passing:** `desiredSchema = {"type":"object","additionalProperties":false,"properties":{"worker":{…the reference…}},…}`
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
        Code::TargetFormRefIdentity,
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
        .member("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if profile::legacy_lane(api).is_some() {
        return Ok(());
    }
    let derivation = crate::relations::derive(definition);
    diags.extend(derivation.diagnostics);
    pkg.relations = Some(derivation.relations);
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
    if let Some(list) = definition.member("interfaces").and_then(Value::as_array) {
        for (i, iface) in list.iter().enumerate() {
            if let Some(s) = iface.member("documentSchema") {
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
    let api = match definition.member("apiVersion") {
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
                format!("Form Definition: unsupported apiVersion {}", quote(&api)),
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
    if let Some(list) = definition.member("constraints").and_then(Value::as_array) {
        for (i, c) in list.iter().enumerate() {
            if let Some(n) = c.member("total").and_then(Value::as_number) {
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
