//! Semantic definition rules that run after the inline schemas compile:
//! Legacy `interfaces` (`verifier-rules.md` §3.6 R3.2–R3.8) and the fixture
//! lists (§3.7 R3.9–R3.11), plus the package path grammar (§1.5 R1.13).
//!
//! The role rule (§3.4 R3.1) is withdrawn (`current-profile.md` §6.1) and
//! not enforced. `immutableFields` (§3.5) is syntax only and left to the
//! definition schema.
//!
//! Every finding points into the definition and carries no file (the
//! caller sets the definition path).

use crate::diag::escape::quote;
use crate::json::Members;
use std::collections::HashSet;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::{Diagnostic, Target};
use crate::fixtures::Stages;
use crate::json::pointer::JsonPointer;

/// Maximum entries in each fixture list (R3.9).
pub const MAX_FIXTURES: usize = crate::limits::FIXTURES;

// Fixture paths (R3.11) use the package path grammar of §1.5 R1.13.
use crate::fsread::path_grammar;

/// Runs R3.2–R3.11 on a definition that passed its profile schema, in the
/// §3.8 / `current-profile.md` §6 order: Legacy document checks (R3.8) →
/// fixture counts (R3.9) → interface rules (R3.2–R3.7) → fixture names and
/// paths (R3.10–R3.11). `stages` supplies the compiled
/// `interfaces[i].documentSchema`s (see [`crate::fixtures::compile_stages`]).
///
/// Codes: `InterfaceDocumentViolation` FD412, `FixtureCount` FD400,
/// `DuplicateInterface` FD413, `InterfaceInputRule` FD414,
/// `DuplicateFixtureName` FD401, `InvalidFixturePath` FD402.
pub fn check(definition: &Value, stages: &Stages) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let root = JsonPointer::root();
    let interfaces = match definition.member("interfaces") {
        Some(Value::Array(list)) => list.as_slice(),
        _ => &[],
    };
    // R3.8
    let empty = Value::Object(serde_json::Map::new());
    for (i, iface) in interfaces.iter().enumerate() {
        let Some(Some(schema)) = stages.documents.get(i) else {
            continue;
        };
        let at = root.child("interfaces").index(i);
        let (doc, doc_at) = match iface.member("document") {
            Some(d) => (d, at.child("document")),
            None => (&empty, at.clone()),
        };
        if schema.is_valid(doc) {
            continue;
        }
        for v in schema.violations(doc, crate::fixtures::MAX_VIOLATIONS) {
            let d = Diagnostic::new(
                Code::InterfaceDocumentViolation,
                format!(
                    "interfaces[{i}].document does not satisfy documentSchema: {}",
                    v.message
                ),
            )
            .note(format!(
                "schema keyword: {}/documentSchema{}",
                at.as_str(),
                v.schema_pointer.as_str()
            ));
            let p = if iface.member("document").is_some() {
                v.instance_pointer.under_pointer(&doc_at)
            } else {
                doc_at.clone()
            };
            out.push(match v.target {
                Target::Key if iface.member("document").is_some() => d.at_key(p),
                _ => d.at(p),
            });
        }
    }
    // R3.9
    for (member, label) in [
        ("conformanceFixtures", "conformance fixtures"),
        (
            "negativeConformanceFixtures",
            "negative conformance fixtures",
        ),
    ] {
        if let Some(Value::Array(list)) = definition.get(member) {
            if list.len() > MAX_FIXTURES {
                out.push(
                    Diagnostic::new(
                        Code::FixtureCount,
                        format!(
                            "Form Definition has {} {label}; maximum is {MAX_FIXTURES}",
                            list.len()
                        ),
                    )
                    .at(root.child(member)),
                );
            }
        }
    }
    // R3.2–R3.7
    let mut seen = HashSet::new();
    for (i, iface) in interfaces.iter().enumerate() {
        let at = root.child("interfaces").index(i);
        let name = iface.member("name").and_then(Value::as_str).unwrap_or("");
        let version = iface
            .member("version")
            .and_then(Value::as_str)
            .unwrap_or("");
        let id = format!("{name}@{version}");
        if !seen.insert(id.clone()) {
            out.push(
                Diagnostic::new(
                    Code::DuplicateInterface,
                    format!("Form Definition has duplicate Interface {}", quote(&id)),
                )
                .at(at.clone()),
            );
        }
        out.extend(input_rules(iface, &id, &at));
    }
    // R3.10–R3.11
    let mut names = HashSet::new();
    for (member, label, paths) in [
        (
            "conformanceFixtures",
            "conformance fixture",
            &["desiredPath", "observedPath", "outputPath"][..],
        ),
        (
            "negativeConformanceFixtures",
            "negative conformance fixture",
            &["inputPath"][..],
        ),
    ] {
        let Some(Value::Array(list)) = definition.get(member) else {
            continue;
        };
        for (i, fixture) in list.iter().enumerate() {
            let at = root.child(member).index(i);
            let name = fixture.member("name").and_then(Value::as_str).unwrap_or("");
            if !names.insert(name.to_owned()) {
                out.push(
                    Diagnostic::new(
                        Code::DuplicateFixtureName,
                        format!(
                            "Form Definition has duplicate conformance fixture name {}",
                            quote(name)
                        ),
                    )
                    .at(at.child("name")),
                );
            }
            for key in paths {
                if let Some(p) = fixture.get(*key).and_then(Value::as_str) {
                    if let Err(reason) = path_grammar(p) {
                        out.push(
                            Diagnostic::new(
                                Code::InvalidFixturePath,
                                format!("{label} {} {key}: {reason}", quote(name)),
                            )
                            .at(at.child(key)),
                        );
                    }
                }
            }
        }
    }
    out
}

/// R3.3–R3.7 for one interface descriptor.
fn input_rules(iface: &Value, id: &str, at: &JsonPointer) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let inputs = match iface.member("inputs") {
        Some(Value::Array(list)) => list.as_slice(),
        _ => &[],
    };
    let prefix = format!("Form Definition Interface {}", quote(id));
    let mut names = HashSet::new();
    let mut resource_inputs: Vec<(usize, &str)> = Vec::new();
    for (j, input) in inputs.iter().enumerate() {
        let in_at = at.child("inputs").index(j);
        let name = input.member("name").and_then(Value::as_str).unwrap_or("");
        let source = input.member("source").and_then(Value::as_str).unwrap_or("");
        let pointer = input
            .member("pointer")
            .and_then(Value::as_str)
            .unwrap_or("");
        let has_value = input.member("value").is_some();
        let rule =
            |msg: String, ptr: JsonPointer| Diagnostic::new(Code::InterfaceInputRule, msg).at(ptr);
        if !names.insert(name) {
            out.push(rule(
                format!("{prefix} has duplicate input {}", quote(name)),
                in_at.child("name"),
            ));
        }
        match source {
            "literal" => {
                if !has_value {
                    out.push(rule(
                        format!(
                            "{prefix} input {} is a literal without a value",
                            quote(name)
                        ),
                        in_at.clone(),
                    ));
                }
                if !pointer.is_empty() {
                    out.push(rule(
                        format!(
                            "{prefix} input {} is a literal and must not carry a pointer",
                            quote(name)
                        ),
                        in_at.child("pointer"),
                    ));
                }
            }
            _ => {
                if has_value {
                    out.push(rule(
                        format!(
                            "{prefix} input {} carries a value with source {}; only a literal may",
                            quote(name),
                            quote(source)
                        ),
                        in_at.child("value"),
                    ));
                }
                if source == "resource_uri" {
                    resource_inputs.push((j, name));
                    if !pointer.is_empty() {
                        out.push(rule(
                            format!(
                                "{prefix} input {} is a resource_uri and must not carry a pointer",
                                quote(name)
                            ),
                            in_at.child("pointer"),
                        ));
                    }
                }
            }
        }
    }
    match iface.member("resourceUriInput").and_then(Value::as_str) {
        Some(marker) => {
            if resource_inputs.len() != 1 {
                out.push(
                    Diagnostic::new(
                        Code::InterfaceInputRule,
                        format!("{prefix} resourceUriInput {} requires exactly one resource_uri input; found {}", quote(marker), resource_inputs.len()),
                    )
                    .at(at.child("resourceUriInput")),
                );
            } else if let Some(only) = resource_inputs.first().filter(|r| r.1 != marker) {
                out.push(
                    Diagnostic::new(
                        Code::InterfaceInputRule,
                        format!(
                            "{prefix} resourceUriInput {} does not name its resource_uri input {}",
                            quote(marker),
                            quote(only.1)
                        ),
                    )
                    .at(at.child("resourceUriInput")),
                );
            }
        }
        None => {
            for (j, name) in resource_inputs {
                out.push(
                    Diagnostic::new(
                        Code::InterfaceInputRule,
                        format!("{prefix} input {} has source resource_uri but the Interface sets no resourceUriInput", quote(name)),
                    )
                    .at(at.child("inputs").index(j).child("source")),
                );
            }
        }
    }
    out
}

/// Joining an instance pointer below a prefix pointer.
trait UnderPointer {
    fn under_pointer(&self, prefix: &JsonPointer) -> JsonPointer;
}

impl UnderPointer for JsonPointer {
    fn under_pointer(&self, prefix: &JsonPointer) -> JsonPointer {
        JsonPointer::from(format!("{}{}", prefix.as_str(), self.as_str()).as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::compile_stages;
    use serde_json::json;

    fn run(def: &Value) -> Vec<Diagnostic> {
        let (stages, compile) = compile_stages(def);
        assert!(compile.is_empty(), "{compile:?}");
        check(def, &stages)
    }

    fn msgs(d: &[Diagnostic]) -> Vec<(Code, &str, &str)> {
        d.iter()
            .map(|d| (d.code, d.message.as_str(), d.pointer.as_str()))
            .collect()
    }

    #[test]
    fn path_grammar_reasons() {
        for (p, why) in [
            ("", "path must contain 1..240 bytes"),
            (&"a".repeat(241)[..], "path must contain 1..240 bytes"),
            ("forms\\definition.json", "backslash paths are forbidden"),
            ("/etc/passwd", "absolute paths are forbidden"),
            (
                "C:/definition.json",
                "volume or URI-like paths are forbidden",
            ),
            (
                "../definition.json",
                "path traversal and non-canonical paths are forbidden",
            ),
            (
                "forms/../../definition.json",
                "path traversal and non-canonical paths are forbidden",
            ),
            (
                "forms//definition.json",
                "path traversal and non-canonical paths are forbidden",
            ),
            (
                "./definition.json",
                "path traversal and non-canonical paths are forbidden",
            ),
            ("a/", "path traversal and non-canonical paths are forbidden"),
            (".", "path traversal and non-canonical paths are forbidden"),
            ("..", "path traversal and non-canonical paths are forbidden"),
        ] {
            assert_eq!(path_grammar(p), Err(why), "{p:?}");
        }
        for p in [
            "definition.json",
            "fixtures/a.json",
            ".x",
            "a..b/...",
            &"a".repeat(240)[..],
        ] {
            assert_eq!(path_grammar(p), Ok(()), "{p:?}");
        }
    }

    fn iface(extra: Value) -> Value {
        let mut base = json!({"name": "mcp.server", "version": "1"});
        if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        base
    }

    #[test]
    fn duplicate_interface_name_version() {
        let def = json!({"interfaces": [iface(json!({})), iface(json!({"version": "2"})), iface(json!({}))]});
        assert_eq!(
            msgs(&run(&def)),
            vec![(
                Code::DuplicateInterface,
                "Form Definition has duplicate Interface \"mcp.server@1\"",
                "/interfaces/2"
            )]
        );
    }

    #[test]
    fn input_rules_fire_and_near_misses_pass() {
        let ok = json!({"interfaces": [iface(json!({
            "resourceUriInput": "target",
            "inputs": [
                {"name": "endpoint", "source": "output", "pointer": ""},
                {"name": "escaped", "source": "output", "pointer": "/a~1b/~0key"},
                {"name": "lit", "source": "literal", "value": "x"},
                {"name": "nul", "source": "literal", "value": null},
                {"name": "hint", "source": "example-host.surface_hint"},
                {"name": "target", "source": "resource_uri"}]}))]});
        assert!(run(&ok).is_empty());
        let bad = json!({"interfaces": [iface(json!({
            "inputs": [
                {"name": "a", "source": "literal"},
                {"name": "b", "source": "literal", "value": 1, "pointer": "/x"},
                {"name": "c", "source": "output", "value": null},
                {"name": "c", "source": "output"},
                {"name": "r", "source": "resource_uri", "pointer": "/x"}]}))]});
        let got = run(&bad);
        let m: Vec<&str> = got.iter().map(|d| d.message.as_str()).collect();
        let p = "Form Definition Interface \"mcp.server@1\"";
        assert_eq!(
            m,
            vec![
                format!("{p} input \"a\" is a literal without a value"),
                format!("{p} input \"b\" is a literal and must not carry a pointer"),
                format!("{p} input \"c\" carries a value with source \"output\"; only a literal may"),
                format!("{p} has duplicate input \"c\""),
                format!("{p} input \"r\" is a resource_uri and must not carry a pointer"),
                format!("{p} input \"r\" has source resource_uri but the Interface sets no resourceUriInput"),
            ]
        );
        assert!(got.iter().all(|d| d.code == Code::InterfaceInputRule));
        assert_eq!(got[0].pointer.as_str(), "/interfaces/0/inputs/0");
    }

    #[test]
    fn resource_uri_marker_rules() {
        let wrong = json!({"interfaces": [iface(json!({"resourceUriInput": "other",
            "inputs": [{"name": "target", "source": "resource_uri"}]}))]});
        assert_eq!(
            msgs(&run(&wrong))[0].1,
            "Form Definition Interface \"mcp.server@1\" resourceUriInput \"other\" does not name its resource_uri input \"target\""
        );
        let none =
            json!({"interfaces": [iface(json!({"resourceUriInput": "target", "inputs": []}))]});
        assert_eq!(
            msgs(&run(&none))[0].1,
            "Form Definition Interface \"mcp.server@1\" resourceUriInput \"target\" requires exactly one resource_uri input; found 0"
        );
        let value = json!({"interfaces": [iface(json!({"resourceUriInput": "t",
            "inputs": [{"name": "t", "source": "resource_uri", "value": "x"}]}))]});
        assert_eq!(
            msgs(&run(&value))[0].1,
            "Form Definition Interface \"mcp.server@1\" input \"t\" carries a value with source \"resource_uri\"; only a literal may"
        );
    }

    #[test]
    fn document_must_satisfy_document_schema() {
        let schema = json!({"$schema": crate::engine::DRAFT_2020_12, "type": "object",
            "additionalProperties": false, "properties": {"title": {"type": "string"}}, "required": ["title"]});
        let typed = json!({"interfaces": [iface(json!({"documentSchema": schema, "document": {"title": 42}}))]});
        let got = run(&typed);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].code, Code::InterfaceDocumentViolation);
        assert_eq!(got[0].pointer.as_str(), "/interfaces/0/document/title");
        assert!(got[0]
            .message
            .starts_with("interfaces[0].document does not satisfy documentSchema: "));
        assert_eq!(
            got[0].notes[0],
            "schema keyword: /interfaces/0/documentSchema/properties/title/type"
        );
        // Omitted document is validated as {}.
        let omitted = json!({"interfaces": [iface(json!({"documentSchema": schema}))]});
        let got = run(&omitted);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].pointer.as_str(), "/interfaces/0");
        // Near misses: a valid document; a document without documentSchema.
        let fine = json!({"interfaces": [iface(json!({"documentSchema": schema, "document": {"title": "t"}}))]});
        assert!(run(&fine).is_empty());
        let free = json!({"interfaces": [iface(json!({"document": {"title": 42}}))]});
        assert!(run(&free).is_empty());
        let empty_ok = json!({"interfaces": [iface(json!({"documentSchema":
            {"$schema": crate::engine::DRAFT_2020_12, "type": "object", "additionalProperties": false}}))]});
        assert!(run(&empty_ok).is_empty());
    }

    fn positives(n: usize) -> Value {
        Value::Array(
            (0..n)
                .map(|i| json!({"name": format!("p{i}"), "desiredPath": "d.json"}))
                .collect(),
        )
    }

    #[test]
    fn fixture_counts() {
        assert!(run(&json!({"conformanceFixtures": positives(32)})).is_empty());
        assert_eq!(
            msgs(&run(&json!({"conformanceFixtures": positives(33)}))),
            vec![(
                Code::FixtureCount,
                "Form Definition has 33 conformance fixtures; maximum is 32",
                "/conformanceFixtures"
            )]
        );
        let negs: Vec<Value> = (0..33)
            .map(|i| json!({"name": format!("n{i}"), "stage": "desired", "inputPath": "d.json", "expectedFailure": "schema_validation_failed"}))
            .collect();
        let got = run(
            &json!({"conformanceFixtures": positives(32), "negativeConformanceFixtures": negs}),
        );
        assert_eq!(
            msgs(&got),
            vec![(
                Code::FixtureCount,
                "Form Definition has 33 negative conformance fixtures; maximum is 32",
                "/negativeConformanceFixtures"
            )]
        );
    }

    #[test]
    fn fixture_names_unique_across_both_lists() {
        let def = json!({
            "conformanceFixtures": [{"name": "basic", "desiredPath": "d.json"}, {"name": "basic", "desiredPath": "d.json", "observedPath": "o.json"}],
            "negativeConformanceFixtures": [{"name": "basic", "stage": "desired", "inputPath": "n.json", "expectedFailure": "schema_validation_failed"},
                                            {"name": "other", "stage": "desired", "inputPath": "n.json", "expectedFailure": "schema_validation_failed"}]});
        assert_eq!(
            msgs(&run(&def)),
            vec![
                (
                    Code::DuplicateFixtureName,
                    "Form Definition has duplicate conformance fixture name \"basic\"",
                    "/conformanceFixtures/1/name"
                ),
                (
                    Code::DuplicateFixtureName,
                    "Form Definition has duplicate conformance fixture name \"basic\"",
                    "/negativeConformanceFixtures/0/name"
                ),
            ]
        );
    }

    #[test]
    fn fixture_paths_follow_the_grammar() {
        let def = json!({
            "conformanceFixtures": [{"name": "a", "desiredPath": "fixtures/d.json", "outputPath": "../o.json"}],
            "negativeConformanceFixtures": [{"name": "b", "stage": "desired", "inputPath": "/abs.json", "expectedFailure": "schema_validation_failed"}]});
        assert_eq!(
            msgs(&run(&def)),
            vec![
                (Code::InvalidFixturePath, "conformance fixture \"a\" outputPath: path traversal and non-canonical paths are forbidden", "/conformanceFixtures/0/outputPath"),
                (Code::InvalidFixturePath, "negative conformance fixture \"b\" inputPath: absolute paths are forbidden", "/negativeConformanceFixtures/0/inputPath"),
            ]
        );
    }

    #[test]
    fn role_rule_is_not_enforced() {
        let def = json!({"role": "identity", "acceptedBindings": [{"name": "x"}]});
        assert!(run(&def).is_empty());
    }
}
