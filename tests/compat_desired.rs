//! The desired-schema prover on crafted pairs (issue 20, done-when 2 and
//! 3): one pair per keyword kind and direction and each trap, each with its
//! expected verdict; every witness and converse example is re-checked here
//! with the engine (valid under one side, refused by the other). The real
//! corpus's consecutive versions are compared too; that trial reports
//! itself ignored when the corpus is absent (`FORM_PACKAGE_CORPUS`, default
//! `../shared/corpus`), and fails when `CI` is set.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed run, printing is the report

use std::path::{Path, PathBuf};

use form_package::compat::desired::{compare, Verdict};
use form_package::engine::compile;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{json, Value};

/// Re-checks a verdict's documents with the engine and returns its name.
fn checked(old: &Value, new: &Value) -> (String, Verdict) {
    let v = compare(old, new);
    let o = compile(old).expect("old compiles");
    let n = compile(new).expect("new compiles");
    match &v {
        Verdict::Breaking { witness } => {
            assert!(
                o.is_valid(witness),
                "witness {witness} not valid under OLD {old}"
            );
            assert!(
                !n.is_valid(witness),
                "witness {witness} valid under NEW {new}"
            );
        }
        Verdict::Widened { newly_accepted } => {
            assert!(
                n.is_valid(newly_accepted),
                "example {newly_accepted} not valid under NEW {new}"
            );
            assert!(
                !o.is_valid(newly_accepted),
                "example {newly_accepted} valid under OLD {old}"
            );
        }
        _ => {}
    }
    (v.name().to_owned(), v)
}

fn case(name: &str, old: Value, new: Value, want: &str) -> Option<String> {
    let (got, v) = checked(&old, &new);
    (got != want).then(|| format!("{name}: want {want}, got {v:?}"))
}

fn crafted_pairs() -> Result<(), Failed> {
    let closed = |props: Value| json!({"type": "object", "properties": props, "additionalProperties": false});
    let cases: Vec<(&str, Value, Value, &str)> = vec![
        (
            "identical",
            json!({"type": "string"}),
            json!({"type": "string"}),
            "identical",
        ),
        (
            "type removed",
            json!({"type": ["string", "integer"]}),
            json!({"type": "string"}),
            "breaking",
        ),
        (
            "type added",
            json!({"type": "string"}),
            json!({"type": ["string", "null"]}),
            "widened",
        ),
        (
            "integer to number",
            json!({"type": "integer"}),
            json!({"type": "number"}),
            "widened",
        ),
        (
            "number to integer",
            json!({"type": "number"}),
            json!({"type": "integer"}),
            "breaking",
        ),
        // RFC 8785 prints 1.0 as 1: the same bytes.
        (
            "maximum 1 vs 1.0",
            json!({"type": "number", "maximum": 1}),
            json!({"type": "number", "maximum": 1.0}),
            "identical",
        ),
        (
            "maximum 1 vs 1.0 (trap)",
            json!({"type": "number", "maximum": 1, "title": "a"}),
            json!({"type": "number", "maximum": 1.0}),
            "equivalent",
        ),
        (
            "maximum 10 vs 1e1",
            json!({"type": "number", "maximum": 10, "title": "a"}),
            json!({"type": "number", "maximum": 1e1}),
            "equivalent",
        ),
        (
            "exact decimals",
            json!({"type": "number", "maximum": 0.3}),
            json!({"type": "number", "maximum": 0.30000000000000004}),
            "widened",
        ),
        (
            "maximum lowered",
            json!({"type": "integer", "maximum": 10}),
            json!({"type": "integer", "maximum": 5}),
            "breaking",
        ),
        (
            "maximum raised",
            json!({"type": "integer", "maximum": 5}),
            json!({"type": "integer", "maximum": 10}),
            "widened",
        ),
        (
            "minimum raised",
            json!({"type": "number", "minimum": 0}),
            json!({"type": "number", "minimum": 0.5}),
            "breaking",
        ),
        (
            "exclusive to inclusive",
            json!({"type": "number", "exclusiveMinimum": 0}),
            json!({"type": "number", "minimum": 0}),
            "widened",
        ),
        (
            "integer bounds equivalent",
            json!({"type": "integer", "exclusiveMaximum": 10}),
            json!({"type": "integer", "maximum": 9}),
            "equivalent",
        ),
        (
            "integer bounds equivalent frac",
            json!({"type": "integer", "maximum": 9.5}),
            json!({"type": "integer", "maximum": 9}),
            "equivalent",
        ),
        (
            "multipleOf tightened",
            json!({"type": "integer", "multipleOf": 2}),
            json!({"type": "integer", "multipleOf": 4}),
            "breaking",
        ),
        (
            "multipleOf relaxed",
            json!({"type": "integer", "multipleOf": 4}),
            json!({"type": "integer", "multipleOf": 2}),
            "widened",
        ),
        (
            "multipleOf decimal",
            json!({"type": "number", "multipleOf": 0.1}),
            json!({"type": "number", "multipleOf": 0.01}),
            "widened",
        ),
        (
            "maxLength lowered",
            json!({"type": "string", "maxLength": 10}),
            json!({"type": "string", "maxLength": 5}),
            "breaking",
        ),
        (
            "minLength lowered",
            json!({"type": "string", "minLength": 3}),
            json!({"type": "string", "minLength": 1}),
            "widened",
        ),
        (
            "enum value removed",
            json!({"enum": ["a", "b"]}),
            json!({"enum": ["a"]}),
            "breaking",
        ),
        (
            "enum value added",
            json!({"enum": ["a"]}),
            json!({"enum": ["a", "b"]}),
            "widened",
        ),
        (
            "enum reordered",
            json!({"enum": ["a", "b"]}),
            json!({"enum": ["b", "a"]}),
            "equivalent",
        ),
        (
            "const to enum",
            json!({"const": 1}),
            json!({"enum": [1.0]}),
            "equivalent",
        ),
        (
            "enum into type",
            json!({"enum": ["a", "b"]}),
            json!({"type": "string"}),
            "widened",
        ),
        (
            "type into enum",
            json!({"type": "string"}),
            json!({"enum": ["a"]}),
            "breaking",
        ),
        (
            "format added",
            json!({"type": "string"}),
            json!({"type": "string", "format": "date"}),
            "breaking",
        ),
        (
            "format removed",
            json!({"type": "string", "format": "date"}),
            json!({"type": "string"}),
            "widened",
        ),
        (
            "pattern same",
            json!({"type": "string", "pattern": "^a"}),
            json!({"type": "string", "pattern": "^a", "title": "t"}),
            "equivalent",
        ),
        (
            "required added",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            "breaking",
        ),
        (
            "required removed",
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            "widened",
        ),
        (
            "closed: optional added (trap)",
            closed(json!({"a": {"type": "string"}})),
            closed(json!({"a": {"type": "string"}, "b": {"type": "integer"}})),
            "widened",
        ),
        (
            "closed: optional removed (trap)",
            closed(json!({"a": {"type": "string"}, "b": {"type": "integer"}})),
            closed(json!({"a": {"type": "string"}})),
            "breaking",
        ),
        (
            "closed to open",
            closed(json!({"a": {"type": "string"}})),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            "widened",
        ),
        (
            "open to closed",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            closed(json!({"a": {"type": "string"}})),
            "breaking",
        ),
        (
            "member retyped",
            closed(json!({"a": {"type": "string"}})),
            closed(json!({"a": {"type": "integer"}})),
            "breaking",
        ),
        (
            "nested member narrowed",
            closed(json!({"a": closed(json!({"b": {"type": "integer", "maximum": 3}}))})),
            closed(json!({"a": closed(json!({"b": {"type": "integer", "maximum": 2}}))})),
            "breaking",
        ),
        (
            "typed map value widened",
            json!({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "string", "maxLength": 5}}),
            json!({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "string", "maxLength": 9}}),
            "widened",
        ),
        (
            "typed map value narrowed",
            json!({"type": "object", "additionalProperties": {"type": "string", "maxLength": 9}}),
            json!({"type": "object", "additionalProperties": {"type": "string", "maxLength": 5}}),
            "breaking",
        ),
        (
            "propertyNames added",
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "propertyNames": {"maxLength": 3}, "additionalProperties": {"type": "string"}}),
            "breaking",
        ),
        (
            "patternProperties narrowed",
            json!({"type": "object", "patternProperties": {"^x": {"type": "integer"}}}),
            json!({"type": "object", "patternProperties": {"^x": {"type": "integer", "minimum": 0}}}),
            "breaking",
        ),
        (
            "dependentRequired added",
            json!({"type": "object", "properties": {"a": {}, "b": {}}}),
            json!({"type": "object", "properties": {"a": {}, "b": {}}, "dependentRequired": {"a": ["b"]}}),
            "breaking",
        ),
        (
            "dependentRequired removed",
            json!({"type": "object", "properties": {"a": {}, "b": {}}, "dependentRequired": {"a": ["b"]}}),
            json!({"type": "object", "properties": {"a": {}, "b": {}}}),
            "widened",
        ),
        (
            "maxProperties lowered",
            json!({"type": "object", "maxProperties": 3}),
            json!({"type": "object", "maxProperties": 2}),
            "breaking",
        ),
        (
            "minProperties lowered",
            json!({"type": "object", "minProperties": 2}),
            json!({"type": "object", "minProperties": 1}),
            "widened",
        ),
        (
            "items narrowed",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!({"type": "array", "items": {"type": "integer", "minimum": 0}}),
            "breaking",
        ),
        (
            "items widened",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!({"type": "array", "items": {"type": "number"}}),
            "widened",
        ),
        (
            "prefixItems narrowed",
            json!({"type": "array", "prefixItems": [{"type": "string"}]}),
            json!({"type": "array", "prefixItems": [{"type": "string", "maxLength": 2}]}),
            "breaking",
        ),
        (
            "maxItems lowered",
            json!({"type": "array", "maxItems": 4}),
            json!({"type": "array", "maxItems": 3}),
            "breaking",
        ),
        (
            "minItems lowered",
            json!({"type": "array", "minItems": 2}),
            json!({"type": "array", "minItems": 1}),
            "widened",
        ),
        (
            "uniqueItems added",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}),
            "breaking",
        ),
        (
            "uniqueItems removed",
            json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}),
            json!({"type": "array", "items": {"type": "integer"}}),
            "widened",
        ),
        (
            "contains added",
            json!({"type": "array", "items": {"type": "integer"}}),
            json!({"type": "array", "items": {"type": "integer"}, "contains": {"const": 1}}),
            "breaking",
        ),
        (
            "contains removed",
            json!({"type": "array", "items": {"type": "integer"}, "contains": {"const": 1}}),
            json!({"type": "array", "items": {"type": "integer"}}),
            "widened",
        ),
        (
            "anyOf branch added",
            json!({"anyOf": [{"type": "string"}]}),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            "widened",
        ),
        (
            "anyOf branch removed",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"anyOf": [{"type": "string"}]}),
            "breaking",
        ),
        (
            "anyOf reordered",
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            "equivalent",
        ),
        (
            "oneOf disjoint branch added",
            json!({"oneOf": [{"type": "string"}]}),
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            "widened",
        ),
        (
            "oneOf overlapping branch added (trap)",
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "string", "maxLength": 3}]}),
            "breaking",
        ),
        (
            "oneOf with const discriminators",
            json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}, "y": {"type": "integer"}}, "required": ["kind"]}]}),
            json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}, "y": {"type": "integer"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "c"}}, "required": ["kind"]}]}),
            "widened",
        ),
        (
            "allOf narrowed",
            json!({"allOf": [{"type": "string"}]}),
            json!({"allOf": [{"type": "string"}, {"maxLength": 4}]}),
            "breaking",
        ),
        (
            "not widened",
            json!({"type": "integer", "not": {"minimum": 0}}),
            json!({"type": "integer", "not": {"minimum": 5}}),
            "widened",
        ),
        (
            "not added",
            json!({"type": "integer"}),
            json!({"type": "integer", "not": {"const": 3}}),
            "breaking",
        ),
        (
            "if-then narrowed",
            json!({"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}),
            json!({"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}, "if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": {"required": ["v"]}}),
            "breaking",
        ),
        (
            "if-then unchanged, else widened",
            json!({"type": "integer", "if": {"minimum": 10}, "then": {"multipleOf": 2}, "else": {"maximum": 5}}),
            json!({"type": "integer", "if": {"minimum": 10}, "then": {"multipleOf": 2}, "else": {"maximum": 6}}),
            "widened",
        ),
        (
            "$ref target narrowed",
            json!({"$defs": {"n": {"type": "integer"}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}),
            json!({"$defs": {"n": {"type": "integer", "maximum": 1}}, "type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}),
            "breaking",
        ),
        (
            "$ref inlined",
            json!({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}),
            json!({"type": "integer"}),
            "equivalent",
        ),
        (
            "recursive tree widened",
            json!({"$defs": {"t": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "additionalProperties": false}}, "$ref": "#/$defs/t"}),
            json!({"$defs": {"t": {"type": "object", "properties": {"v": {"type": "number"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "additionalProperties": false}}, "$ref": "#/$defs/t"}),
            "widened",
        ),
        (
            "recursive tree narrowed",
            json!({"$defs": {"t": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "additionalProperties": false}}, "$ref": "#/$defs/t"}),
            json!({"$defs": {"t": {"type": "object", "properties": {"v": {"type": "integer", "minimum": 0}, "kids": {"type": "array", "items": {"$ref": "#/$defs/t"}}}, "additionalProperties": false}}, "$ref": "#/$defs/t"}),
            "breaking",
        ),
        (
            "root recursion",
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}}),
            json!({"type": "object", "properties": {"next": {"$ref": "#"}, "v": {"type": "string"}}}),
            "breaking",
        ),
        (
            "root recursion widened",
            json!({"type": "object", "properties": {"next": {"$ref": "#"}, "v": {"type": "string"}}}),
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}}),
            "widened",
        ),
        ("false to true", json!(false), json!(true), "widened"),
        ("true to false", json!(true), json!(false), "breaking"),
        (
            "annotations only",
            json!({"type": "string", "description": "a"}),
            json!({"type": "string", "description": "b"}),
            "equivalent",
        ),
    ];
    let mut failures = Vec::new();
    for (name, old, new, want) in cases {
        if let Some(f) = case(name, old, new, want) {
            failures.push(f);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} failures:\n{}", failures.len(), failures.join("\n")).into())
    }
}

/// The corpus root, when present.
fn corpus() -> Option<PathBuf> {
    let root = std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    root.join("manifest.json").is_file().then_some(root)
}

/// SemVer precedence key of a `definitionVersion` (enough for the corpus:
/// numeric core, a pre-release before its release).
fn precedence(v: &str) -> (Vec<u64>, u8, String) {
    let (core, pre) = match v.split_once('-') {
        Some((c, p)) => (c, Some(p)),
        None => (v, None),
    };
    let nums = core.split('.').map(|x| x.parse().unwrap_or(0)).collect();
    (nums, u8::from(pre.is_none()), pre.unwrap_or("").to_owned())
}

/// Every (group, kind) of the corpus with its versions in precedence order
/// (one `desiredSchema` per version: the first copy found).
/// (group, kind) and its versions: (definitionVersion, path, desiredSchema).
type History = ((String, String), Vec<(String, PathBuf, Value)>);

fn histories(root: &Path) -> Vec<History> {
    use std::collections::BTreeMap;
    let mut by: BTreeMap<(String, String), BTreeMap<String, (PathBuf, Value)>> = BTreeMap::new();
    let mut stack = vec![root.join("packages")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "definition.json") {
                let d: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                let key = (
                    d["apiVersion"].as_str().unwrap_or("").to_owned(),
                    d["kind"].as_str().unwrap_or("").to_owned(),
                );
                let version = d["definitionVersion"].as_str().unwrap_or("").to_owned();
                let desired = d["desiredSchema"].clone();
                by.entry(key)
                    .or_default()
                    .entry(version)
                    .or_insert((p, desired));
            }
        }
    }
    by.into_iter()
        .map(|(k, vs)| {
            let mut vs: Vec<(String, PathBuf, Value)> =
                vs.into_iter().map(|(v, (p, d))| (v, p, d)).collect();
            vs.sort_by_key(|(v, _, _)| precedence(v));
            (k, vs)
        })
        .filter(|(_, vs)| vs.len() > 1)
        .collect()
}

fn corpus_pairs(root: &Path) -> Result<(), Failed> {
    let mut counts: std::collections::BTreeMap<&'static str, usize> = Default::default();
    let mut failures = Vec::new();
    let mut pairs = 0;
    for ((group, kind), versions) in histories(root) {
        for w in versions.windows(2) {
            let [(va, _, a), (vb, _, b)] = w else {
                continue;
            };
            pairs += 1;
            let (_, v) = checked(a, b);
            let name: &'static str = v.name();
            *counts.entry(name).or_default() += 1;
            let detail = match &v {
                Verdict::Breaking { witness } => format!("witness {}", short(witness)),
                Verdict::Widened { newly_accepted } => format!("newly {}", short(newly_accepted)),
                Verdict::Unknown { pointer, reason } => {
                    format!("at {} : {reason}", pointer.as_str())
                }
                _ => String::new(),
            };
            println!("{group} {kind} {va} -> {vb}: {name} {detail}");
            let (pa, pb) = (precedence(va), precedence(vb));
            let patch = pa.0.get(..2) == pb.0.get(..2) && pa.1 == 1 && pb.1 == 1;
            if patch && v != Verdict::Identical {
                failures.push(format!(
                    "{group} {kind} {va} -> {vb}: a patch step is {name}"
                ));
            }
        }
    }
    println!("{pairs} pairs: {counts:?}");
    if pairs == 0 {
        failures.push("no consecutive versions found in the corpus".to_owned());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 160 {
        format!(
            "{}…",
            &s[..s
                .char_indices()
                .take_while(|(i, _)| *i < 160)
                .last()
                .map_or(0, |(i, c)| i + c.len_utf8())]
        )
    } else {
        s
    }
}

fn main() {
    let args = Arguments::from_args();
    let root = corpus();
    if root.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "corpus missing (set FORM_PACKAGE_CORPUS)"
        );
    }
    let corpus_root = root.clone().unwrap_or_default();
    let trials = vec![
        Trial::test("crafted_pairs", crafted_pairs),
        Trial::test("corpus_consecutive_versions", move || {
            corpus_pairs(&corpus_root)
        })
        .with_ignored_flag(root.is_none()),
    ];
    libtest_mimic::run(&args, trials).exit();
}
