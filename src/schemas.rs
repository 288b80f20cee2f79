//! The published normative JSON Schemas, embedded byte for byte, and
//! validation of package documents against them.
//!
//! Every file under `schemas/` is a byte-exact copy of
//! `shared/spec/schemas/` (provenance in `schemas/PROVENANCE.md`; MIT,
//! Takoform contributors). They are registered by `$id` in one offline
//! [`jsonschema::Registry`]: nothing is ever fetched (the crate is built
//! with default features off, so it has no HTTP or file retriever, and the
//! validators are built `offline()`). Spec: `verifier-rules.md` §2.4–§2.6,
//! §3, §12 E7; `current-profile.md` §3–§5, §14.

mod native;
pub mod place;

use crate::diag::escape::{json_message, quote};
use std::sync::{LazyLock, OnceLock};

use jsonschema::{Draft, Registry, Validator};
use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::JsonPointer;

/// One embedded published schema.
#[derive(Debug)]
pub struct Published {
    /// File name under `schemas/`.
    pub file: &'static str,
    /// The schema's `$id`.
    pub id: &'static str,
    /// Raw SHA-256 (hex) recorded in `shared/spec/schemas/README.md`.
    pub sha256: &'static str,
    /// The file's bytes.
    pub text: &'static str,
}

/// Every embedded schema.
pub static PUBLISHED: &[Published] = &[
    Published { file: "binding-definition-v1alpha1.schema.json", id: "https://forms.takoform.com/schemas/bindings/v1alpha1/binding-definition.schema.json", sha256: "9955287f8c450886173e025cef776a0520ab45667ae1cb1f94a0bdb9864e7a60", text: include_str!("../schemas/binding-definition-v1alpha1.schema.json") },
    Published { file: "binding-definition-v1alpha2.schema.json", id: "https://forms.takoform.com/schemas/bindings/v1alpha2/binding-definition.schema.json", sha256: "34eebdb59ae41541396c5975d51b16326ca86a8114e5b0427ae8b725fe555e2f", text: include_str!("../schemas/binding-definition-v1alpha2.schema.json") },
    Published { file: "binding-ref-v1alpha1.schema.json", id: "https://forms.takoform.com/schemas/bindings/v1alpha1/binding-ref.schema.json", sha256: "d911ecb73ab4681a75a99a30807035a8c9238e35e2b2e3027816a09bbeca7580", text: include_str!("../schemas/binding-ref-v1alpha1.schema.json") },
    Published { file: "binding-ref-v1alpha2.schema.json", id: "https://forms.takoform.com/schemas/bindings/v1alpha2/binding-ref.schema.json", sha256: "a987fe339c6c0a9ef04b9ea9a2c8234f327b5d7dc294ba5304008fdbe830614a", text: include_str!("../schemas/binding-ref-v1alpha2.schema.json") },
    Published { file: "form-definition-v1.schema.json", id: "https://forms.takoform.com/schemas/v1/form-definition.schema.json", sha256: "5cfde9d7170e25ace10b56927f9b398598d66912f5d32f65254146232b4501fe", text: include_str!("../schemas/form-definition-v1.schema.json") },
    Published { file: "form-definition-v1alpha2.schema.json", id: "https://forms.takoform.com/schemas/v1alpha2/form-definition.schema.json", sha256: "2a9701fd3dd454d3b2ece1c2fc9b6976abf86d07275319b8cbda4f069da481d3", text: include_str!("../schemas/form-definition-v1alpha2.schema.json") },
    Published { file: "form-definition-v1alpha3.schema.json", id: "https://forms.takoform.com/schemas/v1alpha3/form-definition.schema.json", sha256: "ac7f439d3517dbc635362911dad18573f4bed616d6e602338850c1c564bdb417", text: include_str!("../schemas/form-definition-v1alpha3.schema.json") },
    Published { file: "form-definition-v1beta1.schema.json", id: "https://forms.takoform.com/schemas/v1beta1/form-definition.schema.json", sha256: "856df978e0b53c2c63e724d03ef306990844f12bdd2dcef51ab6144e6fcb3ef2", text: include_str!("../schemas/form-definition-v1beta1.schema.json") },
    Published { file: "form-definition.schema.json", id: "https://forms.takoform.com/schemas/v1alpha1/form-definition.schema.json", sha256: "4892550150408671432ffdf652279a0788085b75d84225ca729300549b6de4cc", text: include_str!("../schemas/form-definition.schema.json") },
    Published { file: "form-package-revocation-checkpoint-v1.schema.json", id: "https://forms.takoform.com/schemas/v1/form-package-revocation-checkpoint.schema.json", sha256: "0d5f7528247f445b76cb79002a01a7acc498c7fe267651ca22ee41255fac754a", text: include_str!("../schemas/form-package-revocation-checkpoint-v1.schema.json") },
    Published { file: "form-package-revocation-checkpoint.schema.json", id: "https://forms.takoform.com/schemas/v1alpha1/form-package-revocation-checkpoint.schema.json", sha256: "81aeb4e8ac220e9cbb8e2d51d1a405e2f794b94d474f64e0581636b98abf79d5", text: include_str!("../schemas/form-package-revocation-checkpoint.schema.json") },
    Published { file: "form-package-revocation-v1.schema.json", id: "https://forms.takoform.com/schemas/v1/form-package-revocation.schema.json", sha256: "9f5cd02ea32d72e568a072e3d2888abf2dbd21e7ada90370b3a09fbd87e48a0f", text: include_str!("../schemas/form-package-revocation-v1.schema.json") },
    Published { file: "form-package-revocation.schema.json", id: "https://forms.takoform.com/schemas/v1alpha1/form-package-revocation.schema.json", sha256: "0a4ba7dca20047ac79bbd9be90387a30b2da3a32a44ff9fb92220f0df9839191", text: include_str!("../schemas/form-package-revocation.schema.json") },
    Published { file: "form-ref-v1.schema.json", id: "https://forms.takoform.com/schemas/v1/form-ref.schema.json", sha256: "d2b7eda12d1767e346b858f884d676326b63c4072240b0a1d955897a30595831", text: include_str!("../schemas/form-ref-v1.schema.json") },
    Published { file: "form-ref-v1alpha2.schema.json", id: "https://forms.takoform.com/schemas/v1alpha2/form-ref.schema.json", sha256: "836961a2fdb3e0cf5de3c3576289a8e8ca8d176053d5bb3da7fe2d9b33476f9f", text: include_str!("../schemas/form-ref-v1alpha2.schema.json") },
    Published { file: "form-ref-v1alpha3.schema.json", id: "https://forms.takoform.com/schemas/v1alpha3/form-ref.schema.json", sha256: "2b12dc2c8c65716204cae0258e9aaca0bc7ceb7255b7a47ad6baf876cdcfdf4a", text: include_str!("../schemas/form-ref-v1alpha3.schema.json") },
    Published { file: "form-ref-v1beta1.schema.json", id: "https://forms.takoform.com/schemas/v1beta1/form-ref.schema.json", sha256: "a70844155d050c7aac30320e08563a8fe29bcca5411f1d575489158dbcc45018", text: include_str!("../schemas/form-ref-v1beta1.schema.json") },
    Published { file: "form-ref-v1beta2.schema.json", id: "https://forms.takoform.com/schemas/v1beta2/form-ref.schema.json", sha256: "aa76d4b7247e003df2d9bcc25daf4f6289f2251d42b65768803c83d2af2d28a0", text: include_str!("../schemas/form-ref-v1beta2.schema.json") },
    Published { file: "form-ref.schema.json", id: "https://forms.takoform.com/schemas/v1alpha1/form-ref.schema.json", sha256: "a3180d93e1819240691624039881712900ae8334d023d02e9a014c0221b767ee", text: include_str!("../schemas/form-ref.schema.json") },
    Published { file: "interface-definition-v1alpha1.schema.json", id: "https://forms.takoform.com/schemas/interfaces/v1alpha1/interface-definition.schema.json", sha256: "df25f05329c6466d95b5c6743a366cb20949d9a524d4bad45130ad2e9ad10f95", text: include_str!("../schemas/interface-definition-v1alpha1.schema.json") },
    Published { file: "interface-ref-v1alpha1.schema.json", id: "https://forms.takoform.com/schemas/interfaces/v1alpha1/interface-ref.schema.json", sha256: "b88fb231c93d707cac0fbd9f6948ee6ff7807e135bd25d53d2f6112c58259f61", text: include_str!("../schemas/interface-ref-v1alpha1.schema.json") },
    Published { file: "package-index-v1alpha2.schema.json", id: "https://forms.takoform.com/schemas/v1alpha2/package-index.schema.json", sha256: "6f819c6f04f3ea9daab8460bc43c7307f6994052cffe39a3cc0ac8372d38c9e1", text: include_str!("../schemas/package-index-v1alpha2.schema.json") },
    Published { file: "package-index-v1alpha3.schema.json", id: "https://forms.takoform.com/schemas/v1alpha3/package-index.schema.json", sha256: "04c85b0b7c48f489d0ac21615420a77f39f74c48831d848b2f9840211d73b5ed", text: include_str!("../schemas/package-index-v1alpha3.schema.json") },
    Published { file: "package-index-v1alpha4.schema.json", id: "https://forms.takoform.com/schemas/v1alpha4/package-index.schema.json", sha256: "ef892ebcad9bb03fa98a9e6e74c557b1d34c235c28549d694c0b588554213f7e", text: include_str!("../schemas/package-index-v1alpha4.schema.json") },
    Published { file: "package-index-v1alpha5.schema.json", id: "https://forms.takoform.com/schemas/v1alpha5/package-index.schema.json", sha256: "5c7b1778f6c7b74d4f07db26ef8692b6fe93c8f07d606971101cc89093cb54d8", text: include_str!("../schemas/package-index-v1alpha5.schema.json") },
    Published { file: "package-index.schema.json", id: "https://forms.takoform.com/schemas/v1alpha1/package-index.schema.json", sha256: "fd005571d10722d17155334fe88a1e4a64cd875beeb824efde3a0920c33aeaea", text: include_str!("../schemas/package-index.schema.json") },
];

const BASE: &str = "https://forms.takoform.com/schemas/";

/// The schemas this verifier validates against, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaRef {
    /// `package-index` of the given profile (`v1alpha1`..`v1alpha5`).
    Index(&'static str),
    /// `form-definition` of the given lane (`v1alpha1`, `v1alpha2`, `v1alpha3`, `v1beta1`, `v1`).
    Definition(&'static str),
    /// `form-ref` of the given grammar (`v1alpha1`, `v1alpha2`, `v1alpha3`, `v1beta1`, `v1beta2`).
    FormRef(&'static str),
    /// `form-package-revocation` of the given trust profile (`v1alpha1`, `v1`).
    Revocation(&'static str),
    /// `form-package-revocation-checkpoint` of the given trust profile (`v1alpha1`, `v1`).
    RevocationCheckpoint(&'static str),
    /// `bindings/<v>/binding-definition` (`v1alpha1`, `v1alpha2`).
    BindingDefinition(&'static str),
    /// `interfaces/<v>/interface-definition` (`v1alpha1`).
    InterfaceDefinition(&'static str),
}

impl SchemaRef {
    /// The `$id` of the schema.
    pub fn id(self) -> String {
        match self {
            SchemaRef::Index(v) => format!("{BASE}{v}/package-index.schema.json"),
            SchemaRef::Definition(v) => format!("{BASE}{v}/form-definition.schema.json"),
            SchemaRef::FormRef(v) => format!("{BASE}{v}/form-ref.schema.json"),
            SchemaRef::Revocation(v) => format!("{BASE}{v}/form-package-revocation.schema.json"),
            SchemaRef::RevocationCheckpoint(v) => {
                format!("{BASE}{v}/form-package-revocation-checkpoint.schema.json")
            }
            SchemaRef::BindingDefinition(v) => {
                format!("{BASE}bindings/{v}/binding-definition.schema.json")
            }
            SchemaRef::InterfaceDefinition(v) => {
                format!("{BASE}interfaces/{v}/interface-definition.schema.json")
            }
        }
    }
}

/// Every `$ref` target document (absolute URI without fragment) named in
/// `schema`, resolved against `base` (the `$id` of the schema holding it).
fn referenced_ids(schema: &Value, base: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    if let Some(r) = v.as_str() {
                        let doc = r.split('#').next().unwrap_or_default();
                        if doc.is_empty() {
                            continue;
                        }
                        let id = if doc.contains("://") {
                            doc.to_owned()
                        } else {
                            // Relative to the directory of `base`.
                            let dir = base.rsplit_once('/').map_or("", |(d, _)| d);
                            format!("{dir}/{doc}")
                        };
                        if !out.contains(&id) {
                            out.push(id);
                        }
                    }
                } else {
                    referenced_ids(v, base, out);
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                referenced_ids(v, base, out);
            }
        }
        _ => {}
    }
}

/// Compiled `pattern`s shared by every published-schema validator (the same
/// digest, version and name patterns recur across the schemas).
static PATTERNS: LazyLock<jsonschema::PatternCache> = LazyLock::new(jsonschema::PatternCache::new);

/// The offline registry holding `id` and every published schema it reaches
/// through `$ref` (transitively): only what one validator needs is parsed
/// and prepared. When a reference names no embedded schema, every embedded
/// schema is registered (resolution then fails exactly as it would have).
fn registry_for(id: &str) -> Result<Registry<'static>, String> {
    let resources = match closure(id)? {
        Some(r) => r,
        None => PUBLISHED
            .iter()
            .map(|p| parse(p).map(|v| (p.id.to_owned(), v)))
            .collect::<Result<_, _>>()?,
    };
    Registry::new()
        .extend(resources)
        .and_then(|b| b.prepare())
        .map_err(|e| format!("embedded schema registry: {e}"))
}

fn parse(p: &Published) -> Result<Value, String> {
    serde_json::from_str(p.text).map_err(|e| format!("{}: {e}", p.file))
}

/// `id` and the published schemas it reaches through `$ref`, parsed, in
/// discovery order; `None` when some reference names no embedded schema.
///
/// # Errors
/// An embedded schema that does not parse (an internal error).
fn closure(id: &str) -> Result<Option<Vec<(String, Value)>>, String> {
    let mut wanted = vec![id.to_owned()];
    let mut resources = Vec::new();
    while let Some(next) = wanted.get(resources.len()) {
        let Some(p) = PUBLISHED.iter().find(|p| p.id == next) else {
            return Ok(None);
        };
        let value = parse(p)?;
        referenced_ids(&value, p.id, &mut wanted);
        resources.push((p.id.to_owned(), value));
    }
    Ok(Some(resources))
}

/// The validator options shared by every published-schema validator:
/// Draft 2020-12, formats asserted (verifier-rules.md §12) by the
/// reference's own rules ([`crate::formats`], the same functions
/// inline definition schemas use; the crate's own `uri` refuses what Go's
/// `url.Parse` accepts, e.g. `<` in a query), the `regex` crate engine
/// (RE2-like), offline. Built on first use, with a registry of only the
/// schemas `id` needs.
fn build(id: &str) -> Result<Validator, String> {
    let registry = registry_for(id)?;
    let mut options = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .with_pattern_cache(PATTERNS.clone())
        .with_registry(&registry)
        .offline();
    for &(name, check) in crate::formats::CHECKS {
        options = options.with_format(name, check);
    }
    options
        .build(&serde_json::json!({ "$ref": id }))
        .map_err(|e| format!("embedded schema {id}: {e}"))
}

/// One validator slot per embedded schema (same order as [`PUBLISHED`]),
/// each built on first use: a package builds only the validators its
/// profile selects (index, definition lane, FormRef grammar; see
/// [`crate::profile::PROFILES`]).
static VALIDATORS: LazyLock<Vec<OnceLock<Result<Validator, String>>>> =
    LazyLock::new(|| PUBLISHED.iter().map(|_| OnceLock::new()).collect());

/// The validator of `r`, built on first use; `None` when no embedded
/// schema has its `$id`.
fn cached(r: SchemaRef) -> Option<&'static Result<Validator, String>> {
    let id = r.id();
    let slot = PUBLISHED.iter().position(|p| p.id == id)?;
    Some(VALIDATORS.get(slot)?.get_or_init(|| build(&id)))
}

/// Starts building the validators of `refs` that are not built yet on a
/// background thread, so that building them overlaps reading, digesting
/// and proving the package (the first `validate` of one waits for it).
/// Only a speed hint: nothing is built twice, and when no thread can be
/// started the validators are built on first use as before.
pub fn prewarm(refs: &[SchemaRef]) {
    let pending: Vec<SchemaRef> = refs
        .iter()
        .copied()
        .filter(|r| {
            let id = r.id();
            // A schema validated by generated code builds nothing.
            !native::enabled(&id)
                && PUBLISHED
                    .iter()
                    .position(|p| p.id == id)
                    .and_then(|i| VALIDATORS.get(i))
                    .is_some_and(|slot| slot.get().is_none())
        })
        .collect();
    if pending.is_empty() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("schema-prewarm".into())
        .spawn(move || {
            for r in pending {
                let _ = cached(r);
            }
        });
}

/// Starts building the Draft 2020-12 meta-schema validator on a background
/// thread. The crate builds it (once per process, ≈ 4.7 M instructions)
/// before the first validator of any schema, published or inline, since it
/// checks every schema it compiles against the meta-schema; started when a
/// command begins, it overlaps walking the PATHs and reading the package
/// index instead of holding up the first index validation. Only a speed
/// hint: it is built once whoever asks first, and when no thread can be
/// started it is built on first use as before. Starts at most one thread
/// per process (the binary calls it before parsing its command line, and
/// `verify` again for library callers).
pub fn prewarm_meta() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(spawn_meta);
}

fn spawn_meta() {
    let _ = std::thread::Builder::new()
        .name("meta-prewarm".into())
        .spawn(|| {
            let draft =
                serde_json::json!({ "$schema": "https://json-schema.org/draft/2020-12/schema" });
            jsonschema::meta::is_valid(&draft)
        });
}

/// One schema violation: where in the instance, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Instance location.
    pub pointer: JsonPointer,
    /// True when the pointer names an unexpected member (its name is the problem).
    pub key: bool,
    /// Engine message.
    pub message: String,
    /// Schema location (keyword path) in the published schema (empty for
    /// the violation that stands for those not shown).
    pub schema_path: String,
    /// Violations this one stands for besides itself, not shown one by one
    /// ([`crate::diag::Diagnostic::not_shown`]); 0 but for the last one of a
    /// capped list.
    pub not_shown: usize,
}

/// Violations shown for one document; the rest are counted and said by
/// one more violation ([`validate`], issue 22 item 7).
pub const MAX_SHOWN: usize = 100;

/// Validates `instance` against a published schema and returns every
/// violation, with unexpected members listed one by one: those of the first
/// [`MAX_SHOWN`] errors, then, when there are more, one violation at the
/// root saying how many more and standing for them
/// ([`Violation::not_shown`]; nothing is dropped in silence).
///
/// # Errors
/// `Err` only when the embedded schema set itself is broken (an internal
/// error, never a finding about the package).
pub fn validate(schema: SchemaRef, instance: &Value) -> Result<Vec<Violation>, String> {
    let id = schema.id();
    // The generated validator when the schema is switched over and it can
    // decide alone (issue 38 item 1); else the crate's.
    match native::errors(&id, instance, MAX_SHOWN) {
        Some(raw) => Ok(findings(raw, instance)),
        None => validate_with_crate(schema, instance),
    }
}

/// [`validate`] by the `jsonschema` crate alone (the oracle of the
/// generated validators; `tests/golden/native.rs`).
///
/// # Errors
/// As [`validate`].
pub fn validate_with_crate(schema: SchemaRef, instance: &Value) -> Result<Vec<Violation>, String> {
    let validator = match cached(schema) {
        Some(Ok(v)) => v,
        Some(Err(e)) => return Err(e.clone()),
        None => return Err(format!("no embedded schema {}", schema.id())),
    };
    if validator.is_valid(instance) {
        return Ok(Vec::new());
    }
    // Messages only for the errors a report shows (the rest are counted).
    let raw = validator
        .iter_errors(instance)
        .enumerate()
        .map(|(i, err)| raw_error(&err, i < MAX_SHOWN));
    Ok(findings(raw, instance))
}

/// [`validate`] by the generated validator alone, switched over or not;
/// `None` when there is none for `schema` or it defers to the crate (more
/// than [`MAX_SHOWN`] errors, a pattern that would not build).
pub fn validate_native(schema: SchemaRef, instance: &Value) -> Option<Vec<Violation>> {
    native::errors_of(&schema.id(), instance, MAX_SHOWN).map(|raw| findings(raw, instance))
}

/// Each error of `instance` under `schema` as `[kind, instance pointer,
/// schema keyword location, message]`, in the order the crate
/// (`native == false`) or the generated validator gives them; `None`
/// when there is no such validator.
pub fn raw_errors(schema: SchemaRef, instance: &Value, native: bool) -> Option<Vec<[String; 4]>> {
    let raw: Vec<native::RawError> = if native {
        native::errors_of(&schema.id(), instance, usize::MAX)?
    } else {
        let validator = cached(schema)?.as_ref().ok()?;
        validator
            .iter_errors(instance)
            .map(|e| raw_error(&e, true))
            .collect()
    };
    Some(rows(raw))
}

/// Whether the generated matcher of the published `pattern` matches `text`
/// (`None` when no published schema has that pattern); the tests compare
/// it with the crate's `pattern`.
pub fn native_pattern(pattern: &str, text: &str) -> Option<bool> {
    native::pattern_matches(pattern, text)
}

/// Whether `schema` is validated by generated code at run time.
pub fn is_native(schema: SchemaRef) -> bool {
    native::enabled(&schema.id())
}

/// The first error of a schema under the Draft 2020-12 meta-schema, as the
/// `jsonschema` crate's `validate` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaError {
    /// Instance location in the schema checked (JSON Pointer text).
    pub instance_path: String,
    /// The crate's message.
    pub message: String,
}

/// Checks `schema` against the Draft 2020-12 meta-schema by the generated
/// validator (issue 38 item 1: no meta-schema validator is built at run
/// time for it), with the crate's first error: `Err` holds what
/// `jsonschema::draft202012::meta::validate` would return. The crate
/// decides when the generated code cannot (a pattern that would not build).
/// The engine checks each `$ref` target outside an inline schema's
/// subschemas with it (`engine::refs`); the tests hold it to the crate
/// ([`check_meta_with_crate`]).
///
/// # Errors
/// The first meta-schema error of `schema`.
pub fn check_meta(schema: &Value) -> Result<(), MetaError> {
    match native::meta_valid(schema) {
        Some(true) => return Ok(()),
        Some(false) => {
            if let Some(first) = native::meta_errors(schema).and_then(|e| e.into_iter().next()) {
                return Err(MetaError {
                    instance_path: first.instance_path,
                    message: first.message,
                });
            }
        }
        None => {}
    }
    check_meta_with_crate(schema)
}

/// [`check_meta`] by the `jsonschema` crate alone (its oracle).
///
/// # Errors
/// The crate's first meta-schema error of `schema`.
pub fn check_meta_with_crate(schema: &Value) -> Result<(), MetaError> {
    jsonschema::draft202012::meta::validate(schema).map_err(|e| MetaError {
        instance_path: e.instance_path().as_str().to_owned(),
        message: e.to_string(),
    })
}

/// Raw errors as `[kind, instance pointer, schema keyword location,
/// message]` rows, in their order ([`raw_errors`], [`raw_meta_errors`]).
fn rows(raw: Vec<native::RawError>) -> Vec<[String; 4]> {
    raw.into_iter()
        .map(|r| {
            [
                format!("{:?}", r.kind),
                r.instance_path,
                r.schema_path,
                r.message,
            ]
        })
        .collect()
}

/// Each error of `schema` under the Draft 2020-12 meta-schema as `[kind,
/// instance pointer, schema keyword location, message]`, in the order the
/// crate (`native == false`) or the generated validator gives them; `None`
/// when the generated code defers to the crate.
pub fn raw_meta_errors(schema: &Value, native: bool) -> Option<Vec<[String; 4]>> {
    let raw: Vec<native::RawError> = if native {
        native::meta_errors(schema)?
    } else {
        let validator = jsonschema::draft202012::meta::validator();
        validator
            .iter_errors(schema)
            .map(|e| raw_error(&e, true))
            .collect()
    };
    Some(rows(raw))
}

/// One crate error as the report needs it (its message only when asked).
fn raw_error(err: &jsonschema::ValidationError<'_>, message: bool) -> native::RawError {
    use jsonschema::error::ValidationErrorKind as K;
    let kind = match err.kind() {
        K::AdditionalProperties { unexpected } => {
            native::Kind::AdditionalProperties(unexpected.clone())
        }
        K::Contains => native::Kind::Contains,
        K::Pattern { pattern } => native::Kind::Pattern(pattern.clone()),
        K::Not { .. } => native::Kind::Not,
        K::AnyOf { .. } => native::Kind::AnyOf,
        K::OneOfNotValid { .. } => native::Kind::OneOfNotValid,
        _ => native::Kind::Other,
    };
    native::RawError {
        message: if message {
            err.to_string()
        } else {
            String::new()
        },
        kind,
        instance_path: err.instance_path().as_str().to_owned(),
        schema_path: err.schema_path().as_str().to_owned(),
    }
}

/// The violations of a validation's errors (in the engine's order): those
/// of the first [`MAX_SHOWN`] errors with each unexpected member its own,
/// sorted by pointer and message, and one more that counts the rest.
fn findings(raw: impl IntoIterator<Item = native::RawError>, instance: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut rest: usize = 0;
    for (i, err) in raw.into_iter().enumerate() {
        if i >= MAX_SHOWN {
            rest = rest.saturating_add(match &err.kind {
                native::Kind::AdditionalProperties(unexpected) => unexpected.len(),
                _ => 1,
            });
            continue;
        }
        let at = JsonPointer::from(err.instance_path.as_str());
        let schema_path = err.schema_path;
        match err.kind {
            native::Kind::AdditionalProperties(unexpected) => {
                for name in unexpected {
                    out.push(Violation {
                        pointer: at.child(&name),
                        key: true,
                        message: format!(
                            "unexpected member {} (the object is closed)",
                            quote(&name)
                        ),
                        schema_path: schema_path.clone(),
                        not_shown: 0,
                    });
                }
            }
            kind => out.push(Violation {
                // The engine and `readable` quote values as JSON text.
                message: json_message(&readable(
                    &kind,
                    &err.message,
                    &schema_path,
                    instance.pointer(at.as_str()),
                ))
                .into_owned(),
                pointer: at,
                key: false,
                schema_path,
                not_shown: 0,
            }),
        }
    }
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer).then(a.message.cmp(&b.message)));
    out.dedup();
    if rest > 0 {
        out.push(Violation {
            pointer: JsonPointer::root(),
            key: false,
            message: format!(
                "{rest} more violation{} not shown (a report shows those of the first {MAX_SHOWN} errors of a document; every count includes them)",
                if rest == 1 { "" } else { "s" }
            ),
            schema_path: String::new(),
            not_shown: rest - 1,
        });
    }
    out
}

/// The engine's message, made readable where it is not: a `contains`
/// failure on `files` says what the one-definition rule wants, a `not`
/// failure says the value is refused, `anyOf`/`oneOf` name their keyword,
/// a large quoted instance is shortened to 80 characters (so the reason
/// after it stays), and any message is cut to 240 characters.
fn readable(kind: &native::Kind, engine: &str, schema_path: &str, value: Option<&Value>) -> String {
    use native::Kind as K;
    let shown = |v: Option<&Value>| {
        let t = v.map(Value::to_string).unwrap_or_default();
        if t.chars().count() > 80 {
            format!("{}…", t.chars().take(80).collect::<String>())
        } else {
            t
        }
    };
    let message = match kind {
        K::Contains if schema_path.starts_with("/properties/files") => {
            let n = value
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter(|f| {
                            f.get("mediaType").and_then(Value::as_str)
                                == Some("application/vnd.takoform.form-definition.v1+json")
                        })
                        .count()
                })
                .unwrap_or(0);
            format!("files must list exactly one application/vnd.takoform.form-definition.v1+json entry; found {n}")
        }
        K::Pattern(pattern) => match value.and_then(|v| plain_pattern(pattern, v)) {
            Some(plain) => plain,
            None => engine.to_owned(),
        },
        K::Not => format!("the value {} is one the schema refuses here", shown(value)),
        K::AnyOf => format!(
            "the value {} matches none of the allowed shapes (anyOf)",
            shown(value)
        ),
        K::OneOfNotValid => format!(
            "the value {} matches none of the allowed shapes (oneOf)",
            shown(value)
        ),
        // The engine quotes the whole instance before its reason: quote a
        // large one shortened, so the reason is never what the cut drops.
        _ => match value.map(Value::to_string) {
            Some(t) if t.chars().count() > 80 && engine.contains(&t) => {
                engine.replacen(&t, &shown(value), 1)
            }
            _ => engine.to_owned(),
        },
    };
    if message.chars().count() > 240 {
        format!("{}…", message.chars().take(240).collect::<String>())
    } else {
        message
    }
}

/// The published patterns an author meets most, in plain words with the
/// nearest value that fits (issue 26 item 2: a `definitionVersion: "v0.2"`
/// typo said `"v0.2" does not match "^(0|[1-9][0-9]*)\.…$"`). `None` for
/// any other pattern: the engine's message stands.
fn plain_pattern(pattern: &str, value: &Value) -> Option<String> {
    let text = value.as_str()?;
    let shown = Value::from(text).to_string();
    let suggest = |s: String| {
        if s != text && !s.is_empty() {
            format!(", e.g. {}", Value::from(s))
        } else {
            String::new()
        }
    };
    if pattern.starts_with(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)") {
        let bare = text.trim_start_matches(['v', 'V']);
        let mut parts: Vec<String> = bare
            .split('.')
            .map(|p| p.trim_start_matches('0').to_owned())
            .map(|p| if p.is_empty() { "0".to_owned() } else { p })
            .collect();
        let numeric = parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        let example = if numeric && parts.len() <= 3 {
            parts.resize(3, "0".to_owned());
            parts.join(".")
        } else {
            "1.0.0".to_owned()
        };
        return Some(format!(
            "{shown} is not a SemVer 2.0.0 version: write MAJOR.MINOR.PATCH (no leading \"v\"){}",
            suggest(example)
        ));
    }
    if pattern == "^[A-Z][A-Za-z0-9]{0,63}$" {
        let pascal: String = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect();
        let pascal = if pascal.starts_with(|c: char| c.is_ascii_uppercase()) {
            pascal.chars().take(64).collect()
        } else {
            String::new()
        };
        return Some(format!(
            "{shown} is not a Form kind: a kind starts with an uppercase ASCII letter and holds only ASCII letters and digits, at most 64{}",
            suggest(pascal)
        ));
    }
    let group = r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+";
    if let Some(rest) = pattern.strip_prefix(group) {
        let unversioned = text.split('/').next().unwrap_or(text).to_ascii_lowercase();
        return Some(if rest == "$" {
            format!(
                "{shown} is not a versionless namespaced group: lowercase DNS-like labels (\"edge.forms.takoform.com\"), no \"/version\"{}",
                suggest(unversioned)
            )
        } else {
            format!(
                "{shown} is not a versioned namespaced group: lowercase DNS-like labels and a version (\"edge.forms.takoform.com/v1beta1\")"
            )
        });
    }
    match pattern {
        "^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$" => Some(format!(
            "{shown} is not a package path: ASCII letters, digits, '.', '_' and '-' in segments separated by '/'"
        )),
        "^[a-z0-9][a-z0-9._-]{0,127}$" => Some(format!(
            "{shown} is not a fixture name: lowercase ASCII letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128"
        )),
        "^sha256:[0-9a-f]{64}$" => Some(format!(
            "{shown} is not a digest: \"sha256:\" and 64 lowercase hexadecimal digits"
        )),
        _ => None,
    }
}

/// Turns violations into diagnostics with `code`, prefixing the message
/// with `what` as the reference does (`package index: does not satisfy
/// Draft 2020-12 schema: …`, verifier-rules.md §2.6).
pub fn to_diagnostics(
    violations: Vec<Violation>,
    code: Code,
    file: &str,
    what: &str,
) -> Vec<Diagnostic> {
    violations
        .into_iter()
        .map(|v| {
            let d = Diagnostic::new(
                code,
                format!(
                    "{what}: does not satisfy Draft 2020-12 schema: {}",
                    v.message
                ),
            )
            .in_file(file);
            let mut d = if v.schema_path.is_empty() {
                d
            } else {
                d.note(format!("schema keyword: {}", v.schema_path))
            };
            d.not_shown = v.not_shown;
            if v.key {
                d.at_key(v.pointer)
            } else {
                d.at(v.pointer)
            }
        })
        .collect()
}

/// The JSON Schema of `verify --format json` (this tool's own output
/// contract, `schemas/form-package-report-v1.schema.json`), embedded so an
/// installed binary prints it with `form-package schema report`.
pub const REPORT_SCHEMA: &str = include_str!("../schemas/form-package-report-v1.schema.json");

/// The JSON Schema of `compat --format json`
/// (`schemas/form-package-compat-v1.schema.json`), printed by
/// `form-package schema compat`.
pub const COMPAT_SCHEMA: &str = include_str!("../schemas/form-package-compat-v1.schema.json");

/// The JSON Schema of `family --format json`
/// (`schemas/form-package-family-v1.schema.json`), printed by
/// `form-package schema family`.
pub const FAMILY_SCHEMA: &str = include_str!("../schemas/form-package-family-v1.schema.json");

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sha2::Digest;

    /// A large instance quoted by the engine is shortened, so the reason
    /// after it survives the 240-character cut (near miss: a short one is
    /// quoted whole).
    #[test]
    fn a_long_quoted_instance_keeps_the_reason() {
        let schema = serde_json::json!({"type": "array", "maxItems": 0});
        let big = serde_json::json!([{"digest": "a".repeat(300)}]);
        let validator = jsonschema::validator_for(&schema).unwrap();
        let err = validator.iter_errors(&big).next().unwrap();
        let engine = err.to_string();
        assert!(engine.chars().count() > 240, "{engine}");
        let m = readable(
            &raw_error(&err, false).kind,
            &engine,
            "/maxItems",
            Some(&big),
        );
        assert!(m.ends_with("has more than 0 items"), "{m}");
        assert!(m.chars().count() < 160, "{m}");
        let small = serde_json::json!([1]);
        let err = validator.iter_errors(&small).next().unwrap();
        let m = readable(
            &raw_error(&err, false).kind,
            &err.to_string(),
            "/maxItems",
            Some(&small),
        );
        assert_eq!(m, "[1] has more than 0 items");
    }

    /// Issue 26 item 2: the patterns an author meets are said in plain
    /// words with the nearest fitting value; any other pattern keeps the
    /// engine's message.
    #[test]
    fn published_patterns_are_said_in_plain_words() {
        let semver = r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-x)?$";
        let m = plain_pattern(semver, &json!("v0.2")).unwrap();
        assert!(
            m.starts_with("\"v0.2\" is not a SemVer 2.0.0 version")
                && m.ends_with("e.g. \"0.2.0\""),
            "{m}"
        );
        assert!(plain_pattern(semver, &json!("latest"))
            .unwrap()
            .ends_with("e.g. \"1.0.0\""));
        let m = plain_pattern("^[A-Z][A-Za-z0-9]{0,63}$", &json!("edge-cache")).unwrap();
        assert!(m.ends_with("e.g. \"EdgeCache\""), "{m}");
        let group =
            r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$";
        let m = plain_pattern(group, &json!("edge.forms.takoform.com/v1")).unwrap();
        assert!(m.ends_with("e.g. \"edge.forms.takoform.com\""), "{m}");
        // Near misses: another pattern, a non-string value.
        assert_eq!(plain_pattern("^[a-z]+$", &json!("A")), None);
        assert_eq!(plain_pattern(semver, &json!(2)), None);
    }

    #[test]
    fn embedded_copies_are_byte_exact() {
        for p in PUBLISHED {
            let hex: String = sha2::Sha256::digest(p.text.as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(hex, p.sha256, "{} differs from the published bytes", p.file);
            let v: Value = serde_json::from_str(p.text).unwrap();
            assert_eq!(v["$id"], p.id, "{}", p.file);
            assert_eq!(
                v["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{}",
                p.file
            );
        }
        assert_eq!(PUBLISHED.len(), 26);
    }

    #[test]
    fn every_validator_builds_offline() {
        for r in [
            SchemaRef::Index("v1alpha1"),
            SchemaRef::Index("v1alpha2"),
            SchemaRef::Index("v1alpha3"),
            SchemaRef::Index("v1alpha4"),
            SchemaRef::Index("v1alpha5"),
            SchemaRef::Definition("v1alpha1"),
            SchemaRef::Definition("v1alpha2"),
            SchemaRef::Definition("v1alpha3"),
            SchemaRef::Definition("v1beta1"),
            SchemaRef::Definition("v1"),
            SchemaRef::FormRef("v1alpha1"),
            SchemaRef::FormRef("v1alpha2"),
            SchemaRef::FormRef("v1alpha3"),
            SchemaRef::FormRef("v1beta1"),
            SchemaRef::FormRef("v1beta2"),
            SchemaRef::Revocation("v1alpha1"),
            SchemaRef::Revocation("v1"),
            SchemaRef::RevocationCheckpoint("v1alpha1"),
            SchemaRef::RevocationCheckpoint("v1"),
            SchemaRef::BindingDefinition("v1alpha1"),
            SchemaRef::BindingDefinition("v1alpha2"),
            SchemaRef::InterfaceDefinition("v1alpha1"),
        ] {
            assert!(validate(r, &serde_json::json!({})).is_ok(), "{r:?}");
        }
    }

    #[test]
    fn every_reference_closure_is_embedded() {
        // No validator falls back to the full registry, and the closures are
        // the ones the published schemas name.
        for p in PUBLISHED {
            let c = closure(p.id).unwrap().expect(p.file);
            assert_eq!(c[0].0, p.id);
        }
        let ids = |id: &str| -> Vec<String> {
            closure(id)
                .unwrap()
                .unwrap()
                .into_iter()
                .map(|(i, _)| i)
                .collect()
        };
        assert_eq!(
            ids(&SchemaRef::Index("v1alpha5").id()),
            [
                SchemaRef::Index("v1alpha5").id(),
                SchemaRef::FormRef("v1beta2").id()
            ]
        );
        assert_eq!(
            ids(&SchemaRef::Index("v1alpha1").id()),
            [
                SchemaRef::Index("v1alpha1").id(),
                SchemaRef::FormRef("v1alpha1").id()
            ]
        );
        assert_eq!(
            ids(&SchemaRef::FormRef("v1beta1").id()),
            [SchemaRef::FormRef("v1beta1").id()]
        );
        // Near miss: an unknown id has no closure.
        assert!(closure("https://example.com/x.json").unwrap().is_none());
    }

    #[test]
    fn formref_grammar_is_enforced() {
        let good = serde_json::json!({"apiVersion":"forms.example.com/v1","kind":"Thing","definitionVersion":"1.2.3-rc.1+build.5","schemaDigest":format!("sha256:{}", "a".repeat(64))});
        assert_eq!(
            validate(SchemaRef::FormRef("v1beta1"), &good).unwrap(),
            vec![]
        );
        let mut bad = good.clone();
        bad["definitionVersion"] = "1.2.3-01".into();
        bad["extra"] = 1.into();
        let v = validate(SchemaRef::FormRef("v1beta1"), &bad).unwrap();
        assert!(v.iter().any(|x| x.pointer.as_str() == "/extra" && x.key));
        assert!(v.iter().any(|x| x.pointer.as_str() == "/definitionVersion"));
    }

    /// A valid revocation statement of `profile` (the conformance suite's
    /// `statement-1.json` / `statement-1-current.json` shapes) with `field` set to `value`: whether the
    /// published schema of `profile` accepts it.
    fn revocation_accepts(profile: &'static str, field: &str, value: &str) -> bool {
        let api = if profile == "v1" {
            "trust.forms.takoform.com/v1"
        } else {
            "trust.forms.takoform.com/v1alpha1"
        };
        let form_api = if profile == "v1" {
            "storage.forms.publisher.example"
        } else {
            "forms.takoform.com/v1alpha1"
        };
        let mut doc = serde_json::json!({
            "apiVersion": api, "kind": "FormPackageRevocation", "sequence": 1,
            "statementVersion": "1.0.0",
            "packageDigest": format!("sha256:{}", "a".repeat(64)),
            "formRef": {"apiVersion": form_api, "kind": "ObjectBucket",
                "definitionVersion": "1.0.0", "schemaDigest": format!("sha256:{}", "c".repeat(64))},
            "reasonCode": "signature-invalid", "summary": "s",
            "issuedAt": "2026-07-17T00:00:00Z",
            "effects": {"blockNewCreateOrUpdate": true, "blockActivation": true,
                "retainBytesForObserveAndDelete": true}
        });
        doc[field] = value.into();
        validate(SchemaRef::Revocation(profile), &doc)
            .unwrap()
            .is_empty()
    }

    /// The published schemas' `format`s are the reference's Go formats
    /// (formats), not the crate's: every verdict below was read
    /// off the oracle (`validate-revocation`, legacy profile; docs/src/fidelity.md
    /// § Published-schema formats).
    #[test]
    fn published_formats_are_the_references() {
        for profile in ["v1alpha1", "v1"] {
            // Go's url.Parse never looks at a query or a fragment: the
            // crate's `uri` refused these, the reference accepts them.
            assert!(revocation_accepts(
                profile,
                "advisoryUrl",
                "https://example.com/a?<2>"
            ));
            assert!(revocation_accepts(profile, "advisoryUrl", "https://#@<"));
            // Near misses: a broken host or port is refused by both.
            assert!(!revocation_accepts(profile, "advisoryUrl", "https://[::1/"));
            assert!(!revocation_accepts(
                profile,
                "advisoryUrl",
                "https://ex ample.com/"
            ));
            assert!(!revocation_accepts(profile, "advisoryUrl", "https://x:8a/"));
            // Go's signed Atoi time fields: accepted by the reference.
            assert!(revocation_accepts(
                profile,
                "issuedAt",
                "2024-01-01T00:00:+1Z"
            ));
            assert!(revocation_accepts(
                profile,
                "issuedAt",
                "2024-01-01T+1:00:00Z"
            ));
            // Near misses: a leap second off 23:59 and a second of 61.
            assert!(!revocation_accepts(
                profile,
                "issuedAt",
                "2024-01-01T00:00:60Z"
            ));
            assert!(!revocation_accepts(
                profile,
                "issuedAt",
                "2024-01-01T00:00:61Z"
            ));
            assert!(revocation_accepts(
                profile,
                "issuedAt",
                "2024-12-31T23:59:60Z"
            ));
        }
    }
}
