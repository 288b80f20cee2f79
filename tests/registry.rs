//! The code registry end to end: every code of `codes::TABLE` has a full
//! explanation; every active code is either triggered through
//! `verify::verify_package` by a package built here at test time (one change
//! to a package shipped in `fixtures/packages/`), or listed in
//! [`UNREACHABLE`] with the reason `verify` cannot produce it; and the
//! `explain` / `rules` subcommands print what the table says. A trigger must
//! produce exactly its code plus the few [`collateral`] codes its change
//! breaks by nature; a pre-empted code must lose to the earlier check.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test and bench code: a panic is a failed run, printing is the report

mod common;
use common::copy_dir;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use form_package::codes::{Code, Status, TABLE};
use serde_json::{json, Map, Value};

const STORE: &str = "fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632";
const BUCKET: &str = "fixtures/packages/v1beta1/object-bucket-0.1.0-553675391d88";
const ACTOR: &str = "fixtures/packages/versionless/actor-namespace-0.2.0-6cb09560435e";
const BUNDLE: &str = "fixtures/packages/v1alpha3/worker-bundle-0.1.0-4fa281311512";

/// Active codes `verify` cannot produce, with the reason. For a code
/// pre-empted by an earlier check, [`attempt`] builds the nearest package
/// and the test shows the earlier code fires instead.
const UNREACHABLE: &[(Code, &str)] = &[
    (
        Code::RootOpen,
        "needs open/fstat/readdir of an existing directory to fail; permission bits do not stop \
         root (the test user) and other causes are I/O errors or races",
    ),
    (
        Code::RootChanged,
        "needs the root directory to change while verification runs (a race)",
    ),
    (
        Code::IndexIdentity,
        "pre-empted: every index schema pins apiVersion and kind with `const` (FD101 fires first)",
    ),
    (
        Code::InvalidPayloadPath,
        "pre-empted: the index schema's packagePath pattern is stricter than the path grammar",
    ),
    (
        Code::NonCanonicalDigest,
        "pre-empted: the index schema's digest pattern is exactly the canonical digest grammar",
    ),
    (
        Code::PayloadSizeOutOfRange,
        "pre-empted: the index schema bounds size to 0..67108864, the same range",
    ),
    (
        Code::UnsupportedMediaType,
        "pre-empted: the index schema's mediaType enum is the same allowlist",
    ),
    (
        Code::DefinitionCount,
        "pre-empted: the index schema's contains/minContains 1/maxContains 1 on files",
    ),
    (
        Code::FixtureCount,
        "pre-empted: the definition schema's maxItems 32 on both fixture lists",
    ),
    (
        Code::InvalidFixturePath,
        "pre-empted: the definition schema's packagePath pattern on every fixture path",
    ),
    (
        Code::UnsupportedNegativeStage,
        "pre-empted: the definition schema's stage enum (desired, observed, output)",
    ),
];

// ---------------------------------------------------------------- helpers

/// A copy of a shipped package in a temp dir.
struct Pkg {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
}

impl Pkg {
    fn new(src: &str) -> Pkg {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("pkg");
        copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(src), &dir);
        Pkg { _tmp: tmp, dir }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }
    fn write(&self, rel: &str, bytes: &[u8]) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    fn json(&self, rel: &str) -> Value {
        serde_json::from_slice(&std::fs::read(self.path(rel)).unwrap()).unwrap()
    }
    fn write_json(&self, rel: &str, v: &Value) {
        self.write(rel, &serde_json::to_vec(v).unwrap());
    }
    /// Changes the definition and re-indexes.
    fn def(&self, f: impl FnOnce(&mut Map<String, Value>)) -> &Self {
        let mut d = self.json("definition.json");
        f(d.as_object_mut().unwrap());
        self.write_json("definition.json", &d);
        self.reindex()
    }
    /// Adds a desired property and re-indexes.
    fn prop(&self, name: &str, schema: Value) -> &Self {
        self.def(|d| {
            d["desiredSchema"]["properties"]
                .as_object_mut()
                .unwrap()
                .insert(name.into(), schema);
        })
    }
    /// Changes `desiredSchema.$defs` and re-indexes.
    fn defs(&self, defs: Value) -> &Self {
        self.def(|d| {
            d["desiredSchema"]
                .as_object_mut()
                .unwrap()
                .insert("$defs".into(), defs);
        })
    }
    /// Changes the index (no re-indexing).
    fn index(&self, f: impl FnOnce(&mut Map<String, Value>)) -> &Self {
        let mut i = self.json("package-index.json");
        f(i.as_object_mut().unwrap());
        self.write_json("package-index.json", &i);
        self
    }
    fn reindex(&self) -> &Self {
        let indexed = form_package::index::build_lenient(&self.dir, None)
            .unwrap_or_else(|d| panic!("index: {d:?}"));
        form_package::index::write(&self.dir, &indexed).unwrap();
        self
    }
    fn codes(&self) -> Vec<Code> {
        verify(&self.dir)
    }
}

fn verify(path: &Path) -> Vec<Code> {
    form_package::verify::verify_package(path)
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

const SCHEMA: &str = "https://json-schema.org/draft/2020-12/schema";

fn zeros() -> String {
    format!("sha256:{}", "0".repeat(64))
}

fn closed(props: Value) -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": props})
}

fn marker() -> Value {
    json!({"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9._-]{0,63}$", "x-takoform-fieldPolicy": "portable-data-only-v1"})
}

fn interface_contract() -> Value {
    json!({"apiVersion": "interfaces.takoform.com/v1alpha1", "name": "worker.runtime", "version": "1.0.0", "schemaDigest": format!("sha256:{}", "a".repeat(64))})
}

/// A reference-shaped schema (verifier-rules.md §8.2) plus `extra` members.
fn reference(api: &str, extra: Value) -> Value {
    let mut r = json!({
        "type": "object", "additionalProperties": false,
        "required": ["apiVersion", "kind", "name"],
        "properties": {
            "apiVersion": {"type": "string", "const": api},
            "kind": {"type": "string", "const": "ModuleWorker"},
            "name": {"type": "string"}
        }
    });
    for (k, v) in extra.as_object().unwrap() {
        r[k] = v.clone();
    }
    r
}

fn edge_ref(extra: Value) -> Value {
    reference("edge.forms.takoform.com/v1beta1", extra)
}

/// The doubling chain of verifier-rules.md §4.6/§4.7: `Node0` = `base`,
/// `NodeK` = allOf of two references to `NodeK-1`.
fn doubling_chain(base: Value, levels: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("Node0".into(), base);
    for k in 1..=levels {
        defs.insert(
            format!("Node{k}"),
            json!({"allOf": [{"$ref": format!("#/$defs/Node{}", k - 1)}, {"$ref": format!("#/%24defs/Node{}", k - 1)}]}),
        );
    }
    Value::Object(defs)
}

fn push(d: &mut Map<String, Value>, list: &str, item: Value) {
    d.entry(list)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .unwrap()
        .push(item);
}

fn files(i: &mut Map<String, Value>) -> &mut Vec<Value> {
    i["files"].as_array_mut().unwrap()
}

// ---------------------------------------------------------------- triggers

/// Builds a package that triggers `code` and returns the codes `verify`
/// reports for it; `None` for a code with no trigger here.
fn trigger(code: Code) -> Option<Vec<Code>> {
    let store = || Pkg::new(STORE);
    let neg = |stage: &str, expected: &str| json!({"name": "neg", "stage": stage, "inputPath": "fixtures/desired.json", "expectedFailure": expected});
    Some(match code {
        // FD0xx: file system and strict parse
        Code::RootNotDirectory => verify(&store().path("definition.json")),
        Code::SymlinkEntry => {
            let p = store();
            std::os::unix::fs::symlink(p.path("definition.json"), p.path("alias.json")).unwrap();
            p.codes()
        }
        Code::SpecialFile => {
            let p = store();
            let ok = Command::new("mkfifo")
                .arg(p.path("named-pipe.txt"))
                .status()
                .unwrap();
            assert!(ok.success());
            p.codes()
        }
        Code::ExecutableMode => {
            let p = store();
            std::fs::set_permissions(
                p.path("definition.json"),
                std::fs::Permissions::from_mode(0o755),
            )
            .unwrap();
            p.codes()
        }
        Code::ExecutableExtension => {
            let p = store();
            p.write("payload.js", b"x");
            p.codes()
        }
        Code::InvalidEntryPath => {
            let p = store();
            p.write("a:b.txt", b"x");
            p.codes()
        }
        Code::MissingIndex => {
            let p = store();
            std::fs::remove_file(p.path("package-index.json")).unwrap();
            p.codes()
        }
        Code::UnreadableIndex => {
            let p = store();
            let mut bytes = std::fs::read(p.path("package-index.json")).unwrap();
            bytes.resize(4 * 1024 * 1024 + 1, b' ');
            p.write("package-index.json", &bytes);
            p.codes()
        }
        Code::InvalidUtf8 => {
            let p = store();
            p.write("package-index.json", b"{\"a\":\"\xff\"}");
            p.codes()
        }
        Code::InvalidIJson => {
            let p = store();
            p.write("package-index.json", br#"{"a":1,"a":2}"#);
            p.codes()
        }
        Code::ScalarTopLevel => {
            let p = store();
            p.write("package-index.json", b"5");
            p.codes()
        }
        Code::UnreadablePayload => {
            // listed with its old size, but larger than the 4 MiB definition read limit
            let p = store();
            let mut bytes = std::fs::read(p.path("definition.json")).unwrap();
            bytes.resize(4 * 1024 * 1024 + 1, b' ');
            p.write("definition.json", &bytes);
            p.codes()
        }
        Code::PayloadSizeMismatch => store().index(|i| files(i)[1]["size"] = json!(20)).codes(),
        Code::PayloadDigestMismatch => {
            store().index(|i| files(i)[1]["digest"] = json!(zeros())).codes()
        }
        Code::InvalidTextPayload => {
            let p = store();
            p.write("README.md", b"# store\xff\n");
            p.reindex().codes()
        }
        Code::UnlistedFile => {
            let p = store();
            p.write("extra.txt", b"x");
            p.codes()
        }
        Code::MissingListedFile => {
            let p = store();
            std::fs::remove_file(p.path("fixtures/desired.json")).unwrap();
            p.codes()
        }
        Code::InvalidJsonPayload => {
            let p = store();
            p.write("fixtures/desired.json", br#"{"name":"a","name":"b"}"#);
            p.reindex().codes()
        }
        // FD1xx: index and definition structure
        Code::UnsupportedIndexApiVersion => store()
            .index(|i| i["apiVersion"] = json!("packages.forms.takoform.com/v9"))
            .codes(),
        Code::IndexSchemaViolation => store()
            .index(|i| {
                i.insert("packageId".into(), json!("x"));
            })
            .codes(),
        Code::IndexDecode => {
            let p = store();
            let text = std::fs::read_to_string(p.path("package-index.json")).unwrap();
            assert!(text.contains(r#""size":19}"#));
            p.write(
                "package-index.json",
                text.replace(r#""size":19}"#, r#""size":19.0}"#).as_bytes(),
            );
            p.codes()
        }
        Code::TooManyFiles => store()
            .index(|i| {
                for n in 0..1024 {
                    files(i).push(json!({"path": format!("extra/f{n:04}.json"), "mediaType": "application/json", "size": 2, "digest": zeros()}));
                }
            })
            .codes(),
        Code::IndexListsItself => store()
            .index(|i| files(i).push(json!({"path": "package-index.json", "mediaType": "application/json", "size": 2, "digest": zeros()})))
            .codes(),
        Code::DuplicatePayloadPath => store()
            .index(|i| {
                let dup = files(i)[1].clone();
                files(i).push(dup);
            })
            .codes(),
        Code::UnsortedPayloadPaths => store().index(|i| files(i).reverse()).codes(),
        Code::DefinitionTooLarge => store()
            .index(|i| files(i)[0]["size"] = json!(4 * 1024 * 1024 + 1))
            .codes(),
        Code::JsonPayloadTooLarge => store()
            .index(|i| files(i)[1]["size"] = json!(16 * 1024 * 1024 + 1))
            .codes(),
        Code::ExecutablePayloadExtension => store()
            .index(|i| files(i).push(json!({"path": "tool.js", "mediaType": "application/json", "size": 2, "digest": zeros()})))
            .codes(),
        Code::MediaTypeExtensionMismatch => store()
            .index(|i| files(i)[1]["mediaType"] = json!("text/plain"))
            .codes(),
        Code::PayloadTotalTooLarge => store()
            .index(|i| {
                for n in 0..5 {
                    files(i).push(json!({"path": format!("z{n}.txt"), "mediaType": "text/plain", "size": 64 * 1024 * 1024, "digest": zeros()}));
                }
            })
            .codes(),
        Code::DefinitionPathUnlisted => store()
            .index(|i| i["definitionPath"] = json!("other.json"))
            .codes(),
        Code::DefinitionPathMediaType => store()
            .index(|i| i["definitionPath"] = json!("fixtures/desired.json"))
            .codes(),
        Code::UnsupportedDefinitionApiVersion => store()
            .def(|d| d["apiVersion"] = json!("forms/v1"))
            .index(|i| i["formRef"]["apiVersion"] = json!("forms.takoform.com/v1alpha1"))
            .codes(),
        Code::DefinitionSchemaViolation => store()
            .def(|d| {
                d.insert("packageId".into(), json!("x"));
            })
            .codes(),
        Code::DefinitionDecode => Pkg::new(ACTOR)
            .def(|d| push(d, "constraints", json!({"kind": "sum", "list": "/versions", "member": "weight", "total": 1.0})))
            .codes(),
        Code::SchemaDigestMismatch => store()
            .index(|i| i["formRef"]["schemaDigest"] = json!(zeros()))
            .codes(),
        Code::FormRefIdentityMismatch => store()
            .index(|i| i["formRef"]["definitionVersion"] = json!("1.0.1"))
            .codes(),
        // the FormRef schema admits the group, the namespaced-group guard refuses it
        Code::InvalidFormRef => Pkg::new(BUCKET)
            .def(|d| d["apiVersion"] = json!("forms.takoform.com/v1alpha3"))
            .codes(),
        Code::VersionedFormRef => Pkg::new(ACTOR)
            .def(|d| d["apiVersion"] = json!("edge.forms.takoform.com/v1"))
            .codes(),
        // FD2xx: schema proofs (one desired property of the example store)
        Code::NonLocalRef => store()
            .prop("x", json!({"$ref": "https://attacker.invalid/s.json"}))
            .codes(),
        Code::DynamicRef => store()
            .prop("x", json!({"type": "string", "$dynamicRef": "#/$defs/x"}))
            .codes(),
        Code::UnresolvedRef => store()
            .prop("x", json!({"$ref": "#/$defs/Missing"}))
            .codes(),
        Code::TrueSchema => store().prop("x", json!(true)).codes(),
        Code::NonSchemaValue => store().prop("x", json!(5)).codes(),
        Code::PatternProperties => store()
            .prop("x", json!({"type": "object", "additionalProperties": false, "patternProperties": {"^a": {"type": "string"}}}))
            .codes(),
        Code::LegacyDependencies => store()
            .prop("x", json!({"type": "object", "additionalProperties": false, "dependencies": {"a": ["b"]}}))
            .codes(),
        Code::ContentKeyword => store()
            .prop("x", json!({"type": "string", "contentEncoding": "base64"}))
            .codes(),
        Code::NestedDialect => store()
            .prop("x", json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}))
            .codes(),
        Code::ResolutionScopeKeyword => store()
            .prop("x", json!({"$id": "https://example.invalid/x", "type": "string"}))
            .codes(),
        Code::MixedObjectConst => store()
            .prop("x", json!({"const": {"a": 1}, "description": "fixed"}))
            .codes(),
        Code::MalformedSchemaKeyword => store()
            .prop("x", json!({"type": "string", "allOf": []}))
            .codes(),
        Code::ArrayWithoutItems => store().prop("x", json!({"type": "array"})).codes(),
        Code::OpenObjectSchema => store().prop("x", json!({"type": "object"})).codes(),
        Code::ImpureTypedMap => store()
            .prop("x", json!({"type": "object", "properties": {"a": {"type": "string"}}, "propertyNames": marker(), "additionalProperties": {"type": "string"}}))
            .codes(),
        Code::MapKeyPolicy => store()
            .prop("x", json!({"type": "object", "additionalProperties": {"type": "string"}}))
            .codes(),
        Code::ImplicitObjectKeywords => store().prop("x", json!({"minProperties": 1})).codes(),
        Code::OpenSchema => store().prop("x", json!({})).codes(),
        Code::CyclicRef => store()
            .defs(json!({"Loop": {"$ref": "#/$defs/Loop"}}))
            .codes(),
        Code::ProofDepthExceeded => {
            let mut v = json!({"type": "string"});
            for _ in 0..65 {
                v = closed(json!({ "n": v }));
            }
            store().prop("x", v).codes()
        }
        Code::ProofBudgetExceeded => {
            let branches: Vec<Value> = (0..2049)
                .map(|_| json!({"$ref": "#/$defs/Closed"}))
                .collect();
            store()
                .def(|d| {
                    d["desiredSchema"]["$defs"] = json!({"Closed": closed(json!({}))});
                    d["desiredSchema"]["properties"]["x"] = json!({ "allOf": branches });
                })
                .codes()
        }
        Code::StructuralWorkExceeded => store()
            .def(|d| {
                d["desiredSchema"]["$defs"] =
                    doubling_chain(closed(json!({"flag": {"type": "boolean"}})), 12);
                d["desiredSchema"]["properties"]["config"] = json!({"$ref": "#/$defs/Node12"});
            })
            .codes(),
        Code::InlineSchemaCompile => store()
            .prop("x", json!({"type": "string", "minLength": -1}))
            .codes(),
        Code::UnsatisfiableAllOf => store()
            .prop("x", json!({"allOf": [
                {"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"type": "object", "additionalProperties": false, "properties": {"b": {"type": "string"}}}
            ]}))
            .codes(),
        // FD3xx: vocabulary
        Code::ForbiddenPayloadField => {
            let p = store();
            p.write("extra.json", br#"{"password":"x"}"#);
            p.reindex().codes()
        }
        Code::ForbiddenDefinitionField => Pkg::new(ACTOR)
            .def(|d| d["desiredSchema"]["x-note"] = json!({"password": "x"}))
            .codes(),
        // A `required` string is a value: only the proof sees it (a forbidden
        // property *name* is the definition scan's finding, reported once).
        Code::ForbiddenSchemaName => store()
            .def(|d| {
                d["desiredSchema"]["required"].as_array_mut().unwrap().push(json!("password"));
            })
            .codes(),
        // FD4xx: definition rules and fixtures
        Code::DuplicateFixtureName => store()
            .def(|d| push(d, "conformanceFixtures", json!({"name": "basic", "desiredPath": "fixtures/desired.json", "observedPath": "fixtures/desired.json"})))
            .codes(),
        Code::FixtureUnlisted => store()
            .def(|d| push(d, "conformanceFixtures", json!({"name": "other", "desiredPath": "fixtures/missing.json"})))
            .codes(),
        Code::FixtureMediaType => store()
            .index(|i| files(i)[1]["mediaType"] = json!("application/schema+json"))
            .codes(),
        Code::FixtureStageWithoutSchema => store()
            .def(|d| push(d, "conformanceFixtures", json!({"name": "out", "desiredPath": "fixtures/desired.json", "outputPath": "fixtures/desired.json"})))
            .codes(),
        Code::NegativeStageWithoutSchema => store()
            .def(|d| push(d, "negativeConformanceFixtures", neg("output", "schema_validation_failed")))
            .codes(),
        Code::UnsupportedExpectedFailure => store()
            .def(|d| push(d, "negativeConformanceFixtures", neg("desired", "wrong_failure")))
            .codes(),
        Code::FixtureWorkExceeded => {
            let p = store();
            let list: Vec<Value> = (0..64).map(|_| json!("x")).collect();
            p.write_json("fixtures/desired.json", &json!({"name": "example", "list": list}));
            p.def(|d| {
                d["desiredSchema"]["$defs"] = doubling_chain(json!({"type": "string"}), 7);
                d["desiredSchema"]["properties"]["list"] =
                    json!({"type": "array", "items": {"$ref": "#/$defs/Node7"}});
            })
            .codes()
        }
        Code::FixtureSchemaViolation => {
            let p = store();
            p.write("fixtures/desired.json", br#"{"wrong":"field"}"#);
            p.reindex().codes()
        }
        Code::NegativeFixturePassed => store()
            .def(|d| push(d, "negativeConformanceFixtures", neg("desired", "schema_validation_failed")))
            .codes(),
        Code::InterfaceDocumentViolation => store()
            .def(|d| push(d, "interfaces", json!({
                "name": "mcp.server", "version": "1", "document": {"title": 42},
                "documentSchema": {"$schema": SCHEMA, "type": "object", "additionalProperties": false,
                    "properties": {"title": {"type": "string"}}, "required": ["title"]}
            })))
            .codes(),
        Code::DuplicateInterface => store()
            .def(|d| {
                push(d, "interfaces", json!({"name": "mcp.server", "version": "1"}));
                push(d, "interfaces", json!({"name": "mcp.server", "version": "1", "description": "again"}));
            })
            .codes(),
        Code::InterfaceInputRule => store()
            .def(|d| push(d, "interfaces", json!({"name": "mcp.server", "version": "1", "inputs": [{"name": "a", "source": "literal"}]})))
            .codes(),
        Code::ConstraintOrderedPair => Pkg::new(ACTOR)
            .def(|d| push(d, "constraints", json!({"kind": "orderedPair", "references": ["/className", "/worker"]})))
            .codes(),
        Code::ConstraintUniqueBy => Pkg::new(ACTOR)
            .def(|d| push(d, "constraints", json!({"kind": "uniqueBy", "list": "/className", "member": "x"})))
            .codes(),
        Code::ConstraintRelation => Pkg::new(ACTOR)
            .def(|d| push(d, "constraints", json!({"kind": "acyclic", "reference": "/className"})))
            .codes(),
        // FD5xx: relations (warnings on non-legacy definitions)
        Code::RelationAtRoot => Pkg::new(BUCKET)
            .def(|d| {
                let mut root = edge_ref(json!({ "x-takoform-required-interface": interface_contract() }));
                root["$schema"] = json!(SCHEMA);
                d["desiredSchema"] = root;
            })
            .codes(),
        Code::RelationDepth => {
            let mut v = json!({"type": "string"});
            for _ in 0..34 {
                v = closed(json!({ "n": v }));
            }
            Pkg::new(BUCKET).prop("deep", v).codes()
        }
        Code::MissingTargetContract => Pkg::new(BUCKET).prop("worker", edge_ref(json!({}))).codes(),
        Code::ConflictingTargetContracts => Pkg::new(BUCKET)
            .prop("worker", edge_ref(json!({
                "x-takoform-required-interface": interface_contract(),
                "x-takoform-target-formrefs": [{"apiVersion": "edge.forms.takoform.com/v1beta1", "kind": "ModuleWorker", "definitionVersion": "0.1.0", "schemaDigest": zeros()}]
            })))
            .codes(),
        Code::MalformedTargetContract => Pkg::new(BUCKET)
            .prop("worker", edge_ref(json!({ "x-takoform-target-formrefs": [] })))
            .codes(),
        Code::BindingNotAccepted => Pkg::new(BUCKET)
            .prop("workers", json!({
                "type": "array", "x-takoform-binding": "worker.binding",
                "items": edge_ref(json!({ "x-takoform-required-interface": interface_contract() }))
            }))
            .codes(),
        Code::NonConstReferenceIdentity => {
            let mut r = edge_ref(json!({ "x-takoform-required-interface": interface_contract() }));
            r["properties"]["apiVersion"] = json!({"type": "string"});
            Pkg::new(BUCKET).prop("worker", r).codes()
        }
        Code::HiddenReference => Pkg::new(BUCKET)
            .defs(json!({"Worker": edge_ref(json!({ "x-takoform-required-interface": interface_contract() }))}))
            .codes(),
        Code::EdgeReferenceWithoutContract => Pkg::new(BUNDLE)
            .prop("worker", reference("edge.forms.takoform.com/v1alpha1", json!({})))
            .codes(),
        _ => return None,
    })
}

// ---------------------------------------------------------------- tests

/// For a pre-empted code of [`UNREACHABLE`]: the code that fires first and
/// the codes `verify` reports for a package that breaks the pre-empted rule.
fn attempt(code: Code) -> Option<(Code, Vec<Code>)> {
    let store = || Pkg::new(STORE);
    let entry = |path: &str, media: &str| json!({"path": path, "mediaType": media, "size": 2, "digest": zeros()});
    Some(match code {
        Code::IndexIdentity => (
            Code::IndexSchemaViolation,
            store().index(|i| i["kind"] = json!("FormBundle")).codes(),
        ),
        Code::InvalidPayloadPath => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i).push(entry("x:y.json", "application/json")))
                .codes(),
        ),
        Code::NonCanonicalDigest => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["digest"] = json!(format!("sha256:{}", "A".repeat(64))))
                .codes(),
        ),
        Code::PayloadSizeOutOfRange => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["size"] = json!(64 * 1024 * 1024 + 1))
                .codes(),
        ),
        Code::UnsupportedMediaType => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| files(i)[1]["mediaType"] = json!("image/png"))
                .codes(),
        ),
        Code::DefinitionCount => (
            Code::IndexSchemaViolation,
            store()
                .index(|i| {
                    files(i).push(entry(
                        "z.json",
                        "application/vnd.takoform.form-definition.v1+json",
                    ))
                })
                .codes(),
        ),
        Code::FixtureCount => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| {
                    for n in 0..32 {
                        push(d, "conformanceFixtures", json!({"name": format!("f{n}"), "desiredPath": "fixtures/desired.json"}));
                    }
                })
                .codes(),
        ),
        Code::InvalidFixturePath => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| push(d, "conformanceFixtures", json!({"name": "up", "desiredPath": "fixtures/../fixtures/desired.json"})))
                .codes(),
        ),
        Code::UnsupportedNegativeStage => (
            Code::DefinitionSchemaViolation,
            store()
                .def(|d| push(d, "negativeConformanceFixtures", json!({"name": "neg", "stage": "import", "inputPath": "fixtures/desired.json", "expectedFailure": "schema_validation_failed"})))
                .codes(),
        ),
        _ => return None,
    })
}

fn unreachable_reason(code: Code) -> Option<&'static str> {
    UNREACHABLE
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, r)| *r)
}

/// The other codes a trigger's package also (rightly) produces: a trigger
/// changes one thing, and a few changes break a second rule by nature.
fn collateral(code: Code) -> &'static [Code] {
    match code {
        // (a new file with an inventory finding is NOT also reported as
        // unlisted: one finding per cause)
        // the declared size no longer matches the file
        // (a payload refused by its declared size is not read, so no size mismatch follows)
        // entries for files that do not exist
        Code::ExecutablePayloadExtension | Code::PayloadTotalTooLarge => &[Code::MissingListedFile],
        // the index keeps the old formRef.apiVersion
        Code::UnsupportedDefinitionApiVersion => &[Code::FormRefIdentityMismatch],
        // the reserved group selects no definition schema either
        Code::InvalidFormRef => &[Code::UnsupportedDefinitionApiVersion],
        // the v1 definition schema wants a versionless group too
        Code::VersionedFormRef => &[Code::DefinitionSchemaViolation],
        // legacy profiles report the definition's own keys as payload keys
        // the required string needs no property of that name: nothing else fails
        Code::ForbiddenSchemaName => &[],
        // the old fixtures do not match a reference-shaped root
        Code::RelationAtRoot => &[Code::FixtureSchemaViolation],
        _ => &[],
    }
}

/// Runs the triggers of every active code whose id starts with `prefix`.
fn check_stage(prefix: &str) {
    let mut failures = Vec::new();
    for info in TABLE
        .iter()
        .filter(|i| i.id.starts_with(prefix) && i.status == Status::Active)
    {
        if unreachable_reason(info.code).is_some() {
            continue;
        }
        match trigger(info.code) {
            None => failures.push(format!(
                "{} {}: no trigger and not listed in UNREACHABLE",
                info.id, info.name
            )),
            Some(codes) => {
                let mut got: Vec<&str> = codes.iter().map(|c| c.info().id).collect();
                got.sort_unstable();
                got.dedup();
                let mut want: Vec<&str> = std::iter::once(info.code)
                    .chain(collateral(info.code).iter().copied())
                    .map(|c| c.info().id)
                    .collect();
                want.sort_unstable();
                if got != want {
                    failures.push(format!(
                        "{} {}: trigger produced {got:?}, want {want:?}",
                        info.id, info.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn package_and_parse_codes_are_reachable() {
    check_stage("FD0");
}

#[test]
fn index_and_definition_codes_are_reachable() {
    check_stage("FD1");
}

#[test]
fn proof_codes_are_reachable() {
    check_stage("FD2");
}

#[test]
fn vocabulary_codes_are_reachable() {
    check_stage("FD3");
}

#[test]
fn fixture_and_rule_codes_are_reachable() {
    check_stage("FD4");
}

#[test]
fn relation_codes_are_reachable() {
    check_stage("FD5");
}

#[test]
fn unreachable_table_is_exact() {
    for (code, reason) in UNREACHABLE {
        let info = code.info();
        assert_eq!(
            info.status,
            Status::Active,
            "{} is removed: drop it",
            info.id
        );
        assert!(!reason.is_empty(), "{}", info.id);
        assert!(
            trigger(*code).is_none(),
            "{} has a trigger: drop it from UNREACHABLE",
            info.id
        );
        if reason.starts_with("pre-empted") {
            let (first, codes) =
                attempt(*code).unwrap_or_else(|| panic!("{}: no attempt", info.id));
            assert!(codes.contains(&first), "{}: {codes:?}", info.id);
            assert!(!codes.contains(code), "{} is reachable: {codes:?}", info.id);
        }
    }
    let mut ids: Vec<_> = UNREACHABLE.iter().map(|(c, _)| c.info().id).collect();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "UNREACHABLE lists a code twice");
}

#[test]
fn removed_codes_are_never_emitted_by_triggers() {
    // A removed code has no trigger; it still has an explanation.
    for info in TABLE.iter().filter(|i| i.status == Status::Removed) {
        assert!(trigger(info.code).is_none(), "{}", info.id);
        let text = form_package::explain::explain(info.code);
        assert!(text.contains("removed"), "{text}");
    }
}

#[test]
fn every_code_has_a_complete_explanation() {
    for info in TABLE {
        let e = form_package::explain::explanation(info.code);
        for (section, text) in [
            ("checks", e.checks),
            ("why", e.why),
            ("failing", e.failing),
            ("passing", e.passing),
        ] {
            assert!(
                !text.trim().is_empty(),
                "{} has an empty {section} section",
                info.id
            );
        }
        assert_ne!(e.failing, e.passing, "{}", info.id);
        let text = form_package::explain::explain(info.code);
        for needle in [
            info.id,
            info.name,
            info.spec_ref,
            e.checks,
            e.why,
            e.failing,
            e.passing,
        ] {
            assert!(text.contains(needle), "{}: missing {needle:?}", info.id);
        }
        if !info.spec_code.is_empty() {
            assert!(text.contains(info.spec_code), "{}", info.id);
        }
        if let Some(help) = info.help {
            assert!(text.contains(help), "{}", info.id);
        }
    }
}

// ---------------------------------------------------------------- CLI

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_form-package"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn cli_explain_by_id() {
    let o = run(&["explain", "FD213"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("FD213 open-object-schema\n"), "{text}");
    for needle in [
        "severity: error",
        "status: active",
        "verifier-rules.md §4.3",
        "PROOF_OBJECT_OPEN",
        "Failing example",
        "Passing example",
        "add \"additionalProperties\": false",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn cli_explain_by_name_matches_id() {
    let by_name = run(&["explain", "open-object-schema"]);
    let by_id = run(&["explain", "fd213"]);
    assert_eq!(by_name.status.code(), Some(0));
    assert_eq!(by_name.stdout, by_id.stdout);
}

#[test]
fn cli_explain_unknown_code_exits_2() {
    let o = run(&["explain", "FD999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("unknown diagnostic code \"FD999\""), "{err}");
}

#[test]
fn cli_rules_lists_every_code_aligned() {
    let o = run(&["rules"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), TABLE.len() + 1, "header + one line per code");
    assert!(lines[0].starts_with("ID"), "{}", lines[0]);
    let summary_col = lines[0].find("SUMMARY").unwrap();
    for (info, line) in TABLE.iter().zip(&lines[1..]) {
        assert!(line.starts_with(info.id), "{line}");
        assert!(line.contains(info.name), "{line}");
        assert_eq!(&line[summary_col..], info.summary, "{line}");
    }
    assert!(text.contains("FD418  role-bindings"));
    assert!(text.contains("removed"));
}

/// The near miss of every trigger: each base package, re-indexed by the
/// same helper the triggers use, verifies with no finding at all.
#[test]
fn base_packages_verify_clean_after_reindexing() {
    for src in [STORE, BUCKET, ACTOR, BUNDLE] {
        let p = Pkg::new(src);
        assert_eq!(p.codes(), vec![], "{src}");
        let before = std::fs::read(p.path("definition.json")).unwrap();
        p.def(|_| {});
        assert_eq!(p.codes(), vec![], "{src} after def() + reindex");
        let after: Value = p.json("definition.json");
        assert_eq!(after, serde_json::from_slice::<Value>(&before).unwrap());
    }
}

/// The examples of the proof codes are real: each `desiredSchema.properties.x
/// = {…}` failing example, added to the example store, fires its code, and
/// the passing example does not.
#[test]
fn desired_property_examples_fire_and_pass() {
    const AT: &str = "desiredSchema.properties.x = ";
    let mut checked = Vec::new();
    for info in TABLE {
        let e = form_package::explain::explanation(info.code);
        let (Some(fail), Some(pass)) = (e.failing.strip_prefix(AT), e.passing.strip_prefix(AT))
        else {
            continue;
        };
        let (Ok(fail), Ok(pass)) = (
            serde_json::from_str::<Value>(fail),
            serde_json::from_str::<Value>(pass),
        ) else {
            continue;
        };
        let got = Pkg::new(STORE).prop("x", fail).codes();
        assert!(
            got.contains(&info.code),
            "{} failing example: {got:?}",
            info.id
        );
        let got = Pkg::new(STORE).prop("x", pass).codes();
        assert!(
            !got.contains(&info.code),
            "{} passing example: {got:?}",
            info.id
        );
        checked.push(info.id);
    }
    assert!(checked.len() >= 15, "only {checked:?}");
}
