//! Issue 38 item 1: the published-schema validators compiled to Rust
//! (`src/schemas/native_gen/`) give the `jsonschema` crate's findings
//! (keyword, instance pointer, message; the crate is the oracle) on every
//! JSON document of the corpus (packages, mutants, conformance cases,
//! contracts, trust and revocation documents), every FormRef inside them,
//! and structural edits of a sample of them (each value replaced by values
//! of every JSON type and by near misses of the published patterns, each
//! member removed, a member added, an item repeated). Every generated
//! schema is compared on each document of its role, switched over or not.
//! The generated Draft 2020-12 meta-schema validator is compared the same
//! way on every schema position of the corpus (inline schemas and each
//! subschema in them, every document and its members), the published
//! schemas, crafted schemas that break each of its keywords, and
//! structural edits of the inline schemas. Reported ignored without the
//! corpus.

use crate::common;

use std::path::Path;

use form_package::json::strict;
use form_package::schemas::{self, SchemaRef};
use libtest_mimic::{Failed, Trial};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};

const INDEX: [&str; 5] = ["v1alpha1", "v1alpha2", "v1alpha3", "v1alpha4", "v1alpha5"];
const DEFINITION: [&str; 5] = ["v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1"];
const FORMREF: [&str; 6] = [
    "v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1beta2", "v1",
];
const TRUST: [&str; 2] = ["v1alpha1", "v1"];

/// Every schema a document of this shape is validated against here.
fn schemas_for(doc: &Value) -> Vec<SchemaRef> {
    let api = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
    let mut out = Vec::new();
    if kind == "FormPackage" || api.starts_with("packages.") || doc.get("files").is_some() {
        out.extend(INDEX.map(SchemaRef::Index));
    }
    if doc.get("desiredSchema").is_some() || doc.get("lifecycleCapabilities").is_some() {
        out.extend(DEFINITION.map(SchemaRef::Definition));
    }
    if doc.get("schemaDigest").is_some() && doc.get("definitionVersion").is_some() {
        out.extend(FORMREF.map(SchemaRef::FormRef));
    }
    if kind.contains("Revocation") || api.starts_with("trust.") {
        out.extend(TRUST.map(SchemaRef::Revocation));
        out.extend(TRUST.map(SchemaRef::RevocationCheckpoint));
    }
    if api.starts_with("bindings.") || kind.contains("Binding") {
        out.extend(["v1alpha1", "v1alpha2"].map(SchemaRef::BindingDefinition));
    }
    if api.starts_with("interfaces.") || kind.contains("Interface") {
        out.push(SchemaRef::InterfaceDefinition("v1alpha1"));
    }
    out
}

/// One comparison: the generated findings equal the crate's (a deferral to
/// the crate, more than a report shows, is counted, not compared).
fn compare(schema: SchemaRef, doc: &Value, what: &str, stats: &mut Stats) -> Result<(), Failed> {
    let Some(native) = schemas::validate_native(schema, doc) else {
        if schemas::raw_errors(schema, doc, true).is_some() {
            stats.deferred += 1;
        }
        return Ok(());
    };
    let oracle = schemas::validate_with_crate(schema, doc).map_err(|e| format!("{what}: {e}"))?;
    stats.compared += 1;
    if !oracle.is_empty() {
        stats.failing += 1;
    }
    if native != oracle {
        let raw_n = schemas::raw_errors(schema, doc, true);
        let raw_c = schemas::raw_errors(schema, doc, false);
        return Err(format!(
            "{what} under {}: generated findings differ from the crate's\n generated: {native:#?}\n crate: {oracle:#?}\n raw generated: {raw_n:#?}\n raw crate: {raw_c:#?}",
            schema.id()
        )
        .into());
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    compared: usize,
    failing: usize,
    deferred: usize,
}

fn json_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().to_path_buf())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    out.sort();
    out
}

/// Every object member named `formRef` (at any depth), and the
/// `providedInterfaces`/`acceptedBindings` items.
fn nested_refs<'v>(v: &'v Value, out: &mut Vec<&'v Value>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "formRef" {
                    out.push(x);
                }
                nested_refs(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| nested_refs(x, out)),
        _ => {}
    }
}

fn corpus_documents(corpus: &Path) -> Result<(), Failed> {
    let mut stats = Stats::default();
    let mut docs = 0;
    for path in json_files(corpus) {
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() > 4 << 20 {
            continue;
        }
        let Ok(doc) = strict::parse_value(&bytes) else {
            continue;
        };
        let what = path.strip_prefix(corpus).unwrap().display().to_string();
        let mut targets: Vec<(SchemaRef, &Value)> =
            schemas_for(&doc).into_iter().map(|s| (s, &doc)).collect();
        let mut refs = Vec::new();
        nested_refs(&doc, &mut refs);
        for r in refs {
            targets.extend(FORMREF.map(|v| (SchemaRef::FormRef(v), r)));
        }
        if !targets.is_empty() {
            docs += 1;
        }
        for (schema, value) in targets {
            compare(schema, value, &what, &mut stats)?;
        }
    }
    assert!(docs > 1000, "only {docs} documents compared");
    assert!(
        stats.compared > 5000 && stats.failing > 500,
        "compared {} ({} failing)",
        stats.compared,
        stats.failing
    );
    eprintln!(
        "native: {docs} documents, {} comparisons ({} with findings, {} deferred to the crate)",
        stats.compared, stats.failing, stats.deferred
    );
    Ok(())
}

/// Near misses of the published patterns and bounds made from `s`.
fn string_variants(s: &str) -> Vec<String> {
    let mut out = vec![
        String::new(),
        format!("{s}x"),
        format!("{s}/"),
        format!("{s}-"),
        format!("{s}."),
        format!("{s}\n"),
        format!(".{s}"),
        format!("/{s}"),
        format!("{s}/../x"),
        format!("{s}~"),
        format!("{s}é"),
        s.to_uppercase(),
        s.to_lowercase(),
        s.repeat(3),
        "a".repeat(64),
        "a".repeat(65),
        "A".repeat(64),
        "A".repeat(65),
        "a".repeat(128),
        "a".repeat(129),
        "a".repeat(241),
        "a".repeat(321),
        "..".to_owned(),
        "a/./b".to_owned(),
        "1.2.3-01".to_owned(),
        "1.2.3-rc.1+b.2".to_owned(),
        "01.2.3".to_owned(),
        format!("sha256:{}", "a".repeat(64)),
        format!("sha256:{}", "A".repeat(64)),
        format!("sha256:{}", "a".repeat(63)),
        "forms.takoform.com/v1alpha1".to_owned(),
        "edge.forms.takoform.com/v1beta1".to_owned(),
        "edge.forms.takoform.com".to_owned(),
        "https://example.com/a?<2>".to_owned(),
        "2024-01-01T00:00:60Z".to_owned(),
        "/a~2".to_owned(),
        "/a/*".to_owned(),
    ];
    let chars: Vec<char> = s.chars().collect();
    if !chars.is_empty() {
        out.push(chars[1..].iter().collect());
        out.push(chars[..chars.len() - 1].iter().collect());
        for c in ['Z', '0', '-', '.', '/', '_', 'é', ' '] {
            let mut t = chars.clone();
            t[0] = c;
            out.push(t.iter().collect());
            let mut t = chars.clone();
            let n = t.len() - 1;
            t[n] = c;
            out.push(t.iter().collect());
            let mut t = chars.clone();
            t.insert(chars.len() / 2, c);
            out.push(t.iter().collect());
        }
    }
    out
}

/// Every structural edit of `doc` (see the module doc).
fn edits(doc: &Value) -> Vec<Value> {
    let mut pointers = Vec::new();
    collect_pointers(doc, String::new(), &mut pointers);
    let replacements = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(100.0),
        json!(67108865),
        json!(9223372036854775808u64),
        json!("x"),
        json!([]),
        json!({}),
        json!([1, 1]),
        json!([{"a": 1}, {"a": 1.0}]),
        json!({"zz": 1}),
    ];
    let mut out = Vec::new();
    for p in &pointers {
        let target = doc.pointer(p).unwrap();
        let mut values: Vec<Value> = replacements.to_vec();
        if let Some(s) = target.as_str() {
            values.extend(string_variants(s).into_iter().map(Value::from));
        }
        if let Some(a) = target.as_array() {
            let mut longer = a.clone();
            if let Some(first) = a.first() {
                longer.push(first.clone());
            }
            values.push(Value::Array(longer));
            values.push(Value::Array(a.iter().take(1).cloned().collect()));
        }
        if let Some(o) = target.as_object() {
            let mut wider = o.clone();
            wider.insert("zz~/".into(), json!(1));
            values.push(Value::Object(wider));
        }
        for v in values {
            let mut d = doc.clone();
            *d.pointer_mut(p).unwrap() = v;
            out.push(d);
        }
        // Removal.
        if let Some((parent, last)) = p.rsplit_once('/') {
            let mut d = doc.clone();
            match d.pointer_mut(parent).unwrap() {
                Value::Object(m) => {
                    m.shift_remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Value::Array(a) => {
                    a.remove(last.parse::<usize>().unwrap());
                }
                _ => {}
            }
            out.push(d);
        }
    }
    out
}

fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    if !at.is_empty() {
        out.push(at.clone());
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                collect_pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                collect_pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Edits compared per sampled document (the debug-build test stays near a minute).
const EDITS: usize = 300;

fn structural_edits(corpus: &Path) -> Result<(), Failed> {
    let mut stats = Stats::default();
    // A sample: the first documents of each kind of file in each folder
    // (every epoch of packages, the mutants, contracts, trust documents).
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    for path in json_files(corpus) {
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() > 64 << 10 {
            continue;
        }
        let Ok(doc) = strict::parse_value(&bytes) else {
            continue;
        };
        let rel = path.strip_prefix(corpus).unwrap();
        // `packages/<epoch>`, else the top folder (`mutants`, `contracts`, ...).
        let depth = if rel.starts_with("packages") { 2 } else { 1 };
        let folder: Vec<_> = rel
            .iter()
            .take(depth)
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        let schemas = schemas_for(&doc);
        if schemas.is_empty() {
            continue;
        }
        let key = format!(
            "{}|{}|{}",
            folder.join("/"),
            doc.get("apiVersion").and_then(Value::as_str).unwrap_or(""),
            path.file_name().unwrap().to_string_lossy()
        );
        let n = seen.entry(key).or_default();
        *n += 1;
        if *n > 1 {
            continue;
        }
        let what = rel.display().to_string();
        // At most EDITS edits of each document, spread over all of them.
        let all = edits(&doc);
        let stride = all.len().div_ceil(EDITS).max(1);
        for (i, d) in all.iter().enumerate().step_by(stride) {
            for s in &schemas {
                compare(*s, d, &format!("{what} edit {i}"), &mut stats)?;
            }
        }
    }
    assert!(stats.compared > 20_000, "compared {}", stats.compared);
    eprintln!(
        "native edits: {} comparisons ({} with findings, {} deferred)",
        stats.compared, stats.failing, stats.deferred
    );
    Ok(())
}

/// Every `pattern` of the published schemas.
fn published_patterns() -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("pattern", Value::String(p)) => out.push(p.clone()),
                        ("patternProperties", Value::Object(pp)) => {
                            out.extend(pp.keys().cloned());
                            pp.values().for_each(|y| walk(y, out));
                        }
                        ("const" | "enum", _) => {}
                        _ => walk(x, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for p in schemas::PUBLISHED {
        walk(&serde_json::from_str(p.text).unwrap(), &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// Each generated pattern matcher agrees with the crate's `pattern` (the
/// regex engine of the published validators) on the strings made of each
/// pattern's own characters and near misses: every length from 0 to 3 over
/// a small alphabet, boundary lengths, and random strings (proptest).
fn patterns_agree() -> Result<(), Failed> {
    let patterns = published_patterns();
    assert!(patterns.len() > 20, "{patterns:?}");
    let alphabet: Vec<char> = "aAz0 9.-_/~*:+sh256vé\n".chars().collect();
    let mut checked = 0usize;
    let mut absent = Vec::new();
    for p in &patterns {
        // Only in a schema that is not generated (interface-definition).
        if schemas::native_pattern(p, "").is_none() {
            absent.push(p.clone());
            continue;
        }
        let crate_validator = jsonschema::options()
            .with_pattern_options(jsonschema::PatternOptions::regex())
            .build(&json!({ "pattern": p }))
            .unwrap();
        let mut texts: Vec<String> = vec![String::new()];
        for a in &alphabet {
            texts.push(a.to_string());
            for b in &alphabet {
                texts.push(format!("{a}{b}"));
                for c in ['a', '.', '/', '0'] {
                    texts.push(format!("{a}{b}{c}"));
                }
            }
        }
        for n in [1, 2, 3, 61, 62, 63, 64, 65, 126, 127, 128, 129] {
            for c in ['a', 'A', '0', '-', '.', '/', 'é'] {
                texts.push(c.to_string().repeat(n));
                texts.push(format!("a{}", c.to_string().repeat(n)));
                texts.push(format!("sha256:{}", c.to_string().repeat(n)));
            }
        }
        texts.extend(string_variants("edge.forms.takoform.com/v1beta1"));
        texts.extend(string_variants("1.2.3-rc.1+b.5"));
        texts.extend(string_variants("fixtures/a.json"));
        texts.extend(string_variants("/spec/a~1b"));
        texts.extend(string_variants("https://example.com/"));
        let check = |t: &str| -> Result<(), String> {
            let want = crate_validator.is_valid(&Value::from(t));
            match schemas::native_pattern(p, t) {
                Some(got) if got == want => Ok(()),
                got => Err(format!(
                    "pattern {p:?} on {t:?}: generated {got:?}, crate {want}"
                )),
            }
        };
        for t in &texts {
            check(t)?;
            checked += 1;
        }
        let mut runner = TestRunner::new(Config {
            cases: 300,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&"[a-zA-Z0-9./~*_:+é-]{0,80}", |t| {
                check(&t).map_err(TestCaseError::fail)
            })
            .map_err(|e| e.to_string())?;
    }
    assert!(checked > 10_000, "{checked}");
    assert!(
        absent.len() <= 3,
        "patterns without a generated matcher: {absent:?}"
    );
    Ok(())
}

/// One meta-schema comparison: the errors of the generated Draft 2020-12
/// meta-schema validator are the crate's (kind, instance pointer, keyword
/// location, message), and the first error [`schemas::check_meta`]
/// reports is the one the crate's `validate` returns.
fn compare_meta(schema: &Value, what: &str, stats: &mut Stats) -> Result<(), Failed> {
    let Some(native) = schemas::raw_meta_errors(schema, true) else {
        stats.deferred += 1;
        return Ok(());
    };
    let mut native = native;
    let mut oracle = schemas::raw_meta_errors(schema, false).unwrap_or_default();
    stats.compared += 1;
    if !oracle.is_empty() {
        stats.failing += 1;
    }
    // Every error, in any order (the crate's `iter_errors` follows the
    // instance's member order where its `validate` follows the schema's;
    // the engine reports only the first, compared below).
    native.sort();
    oracle.sort();
    if native != oracle {
        return Err(format!(
            "{what}: generated meta-schema errors differ from the crate's\n generated: {native:#?}\n crate: {oracle:#?}"
        )
        .into());
    }
    let first = schemas::check_meta(schema);
    let want = schemas::check_meta_with_crate(schema);
    if first != want {
        return Err(format!(
            "{what}: first meta-schema error differs\n generated: {first:?}\n crate: {want:?}"
        )
        .into());
    }
    Ok(())
}

/// The schema positions of a corpus document to check against the
/// meta-schema: the document itself, each member of it, and every value at
/// any depth of a member named `…Schema` or `schema` (the inline schemas)
/// with every object and boolean inside it (each is a `$ref` target the
/// engine may check alone).
fn meta_targets<'v>(doc: &'v Value, out: &mut Vec<&'v Value>) {
    fn inside<'v>(v: &'v Value, out: &mut Vec<&'v Value>) {
        match v {
            Value::Object(m) => {
                out.push(v);
                m.values().for_each(|x| inside(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| inside(x, out)),
            Value::Bool(_) => out.push(v),
            _ => {}
        }
    }
    fn find<'v>(v: &'v Value, out: &mut Vec<&'v Value>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k.ends_with("Schema") || k == "schema" {
                        inside(x, out);
                    } else {
                        find(x, out);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| find(x, out)),
            _ => {}
        }
    }
    out.push(doc);
    if let Value::Object(m) = doc {
        out.extend(m.values());
    }
    find(doc, out);
}

/// Schemas that break each keyword of the meta-schema once, and near
/// misses that must pass.
fn crafted_meta() -> Vec<Value> {
    vec![
        json!(true),
        json!(false),
        json!({}),
        json!(5),
        json!("string"),
        json!(null),
        json!([]),
        json!({"type": "strin"}),
        json!({"type": ["string", "string"]}),
        json!({"type": []}),
        json!({"type": ["string", 5]}),
        json!({"type": 5}),
        json!({"type": ["object", "null"], "minLength": -1}),
        json!({"minLength": 1.5, "maxItems": "1"}),
        json!({"minLength": 1.0}),
        json!({"multipleOf": 0}),
        json!({"multipleOf": -1.5}),
        json!({"multipleOf": 0.01}),
        json!({"required": ["a", "a"]}),
        json!({"required": ["a", 1]}),
        json!({"allOf": []}),
        json!({"anyOf": [{"type": 1}, true]}),
        json!({"oneOf": {}}),
        json!({"not": 1}),
        json!({"items": 1, "prefixItems": [1]}),
        json!({"properties": {"a": 1, "b": {"type": "x"}, "c": true}}),
        json!({"patternProperties": {"^[": {}}}),
        json!({"patternProperties": {"a": 2}}),
        json!({"additionalProperties": "no"}),
        json!({"propertyNames": 7}),
        json!({"dependentSchemas": {"a": 1}}),
        json!({"dependentRequired": {"a": ["b", "b"]}}),
        json!({"dependencies": {"a": 1, "b": ["c"], "d": [1]}}),
        json!({"definitions": {"a": 1}}),
        json!({"$defs": {"a": {"$defs": {"b": {"enum": 1}}}}}),
        json!({"$id": "a#b"}),
        json!({"$id": "a#"}),
        json!({"$id": 5}),
        json!({"$anchor": "1a"}),
        json!({"$anchor": "a-1._"}),
        json!({"$dynamicAnchor": "é"}),
        json!({"$recursiveAnchor": "-"}),
        json!({"$recursiveRef": 1}),
        json!({"$ref": 1, "$dynamicRef": false}),
        json!({"$ref": "#/a b"}),
        json!({"$schema": 1}),
        json!({"$vocabulary": {"https://x": 1, "y": true}}),
        json!({"$comment": 1, "title": 2, "description": 3}),
        json!({"deprecated": "yes", "readOnly": 1, "writeOnly": null}),
        json!({"examples": {}, "default": 1}),
        json!({"format": 1, "contentEncoding": 2, "contentMediaType": 3}),
        json!({"contentSchema": 1}),
        json!({"unevaluatedItems": 1, "unevaluatedProperties": 2}),
        json!({"if": 1, "then": 2, "else": 3}),
        json!({"contains": 1, "minContains": -1, "maxContains": 1.5}),
        json!({"uniqueItems": 1, "enum": 1, "const": 1}),
        json!({"pattern": 5}),
        json!({"pattern": "[", "format": "regex"}),
        json!({"maximum": "1", "exclusiveMaximum": null, "minimum": [], "exclusiveMinimum": {}}),
        json!({"maxProperties": -1, "minProperties": 1e300}),
        json!({"properties": {"a": {"properties": {"b": {"items": {"type": "nope"}}}}}}),
        json!({"x-ext": {"type": 1}, "items": {"$defs": {"x": {"minItems": -2}}}}),
    ]
}

fn meta_corpus(corpus: &Path) -> Result<(), Failed> {
    let mut stats = Stats::default();
    for (i, s) in crafted_meta().iter().enumerate() {
        compare_meta(s, &format!("crafted {i}: {s}"), &mut stats)?;
    }
    assert!(stats.failing > 40, "crafted: {} failing", stats.failing);
    for p in schemas::PUBLISHED {
        let v: Value = serde_json::from_str(p.text).unwrap();
        compare_meta(&v, p.file, &mut stats)?;
    }
    for path in json_files(corpus) {
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() > 4 << 20 {
            continue;
        }
        let Ok(doc) = strict::parse_value(&bytes) else {
            continue;
        };
        let what = path.strip_prefix(corpus).unwrap().display().to_string();
        let mut targets = Vec::new();
        meta_targets(&doc, &mut targets);
        for (i, t) in targets.into_iter().enumerate() {
            compare_meta(t, &format!("{what} #{i}"), &mut stats)?;
        }
    }
    assert!(
        stats.compared > 50_000 && stats.failing > 1000,
        "compared {} ({} failing)",
        stats.compared,
        stats.failing
    );
    eprintln!(
        "native meta-schema: {} comparisons ({} with errors, {} deferred to the crate)",
        stats.compared, stats.failing, stats.deferred
    );
    Ok(())
}

/// Structural edits of the inline schemas of a sample of definitions (the
/// edits of [`edits`], and at each object a member of [`crafted_meta`]
/// added), each compared under the meta-schema.
fn meta_edits(corpus: &Path) -> Result<(), Failed> {
    let mut stats = Stats::default();
    let crafted = crafted_meta();
    let mut seen: std::collections::HashSet<String> = Default::default();
    for path in json_files(corpus) {
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() > 64 << 10 {
            continue;
        }
        let Ok(doc) = strict::parse_value(&bytes) else {
            continue;
        };
        let rel = path.strip_prefix(corpus).unwrap();
        let depth = if rel.starts_with("packages") { 2 } else { 1 };
        let folder: Vec<_> = rel
            .iter()
            .take(depth)
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        let Some(Value::Object(m)) = Some(&doc) else {
            continue;
        };
        for (k, schema) in m {
            if !(k.ends_with("Schema") && schema.is_object()) {
                continue;
            }
            if !seen.insert(format!("{}|{k}", folder.join("/"))) {
                continue;
            }
            let what = format!("{} {k}", rel.display());
            let mut all = edits(schema);
            let mut pointers = Vec::new();
            collect_pointers(schema, String::new(), &mut pointers);
            pointers.push(String::new());
            for p in &pointers {
                if !schema.pointer(p).is_some_and(Value::is_object) {
                    continue;
                }
                for c in &crafted {
                    if let Value::Object(add) = c {
                        let mut d = schema.clone();
                        if let Some(Value::Object(o)) = d.pointer_mut(p) {
                            for (ak, av) in add {
                                o.insert(ak.clone(), av.clone());
                            }
                        }
                        all.push(d);
                    }
                }
            }
            let stride = all.len().div_ceil(EDITS).max(1);
            for (i, d) in all.iter().enumerate().step_by(stride) {
                compare_meta(d, &format!("{what} edit {i}"), &mut stats)?;
            }
        }
    }
    assert!(
        stats.compared > 5_000 && stats.failing > 1000,
        "compared {} ({} failing)",
        stats.compared,
        stats.failing
    );
    eprintln!(
        "native meta-schema edits: {} comparisons ({} with errors, {} deferred)",
        stats.compared, stats.failing, stats.deferred
    );
    Ok(())
}

pub fn trials() -> Vec<Trial> {
    let corpus = common::corpus();
    vec![
        Trial::test("native_patterns_agree_with_the_crate", patterns_agree),
        common::corpus_trial(
            "native_meta_schema_equals_the_crate_on_the_corpus",
            &corpus,
            meta_corpus,
        ),
        common::corpus_trial(
            "native_meta_schema_equals_the_crate_on_structural_edits",
            &corpus,
            meta_edits,
        ),
        common::corpus_trial(
            "native_findings_equal_the_crate_on_the_corpus",
            &corpus,
            corpus_documents,
        ),
        common::corpus_trial(
            "native_findings_equal_the_crate_on_structural_edits",
            &corpus,
            structural_edits,
        ),
    ]
}
