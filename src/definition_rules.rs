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

use std::collections::HashSet;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::{Diagnostic, Target};
use crate::fixtures::Stages;
use crate::json::pointer::JsonPointer;

/// Maximum entries in each fixture list (R3.9).
pub const MAX_FIXTURES: usize = 32;

/// Go's package path grammar (§1.5 R1.13), used for fixture paths (R3.11).
///
/// # Errors
/// The reference's reason text: `path must contain 1..240 bytes`,
/// `backslash paths are forbidden`, `absolute paths are forbidden`,
/// `volume or URI-like paths are forbidden`,
/// `path traversal and non-canonical paths are forbidden`,
/// `empty, dot, and parent segments are forbidden`.
pub fn path_grammar(p: &str) -> Result<(), &'static str> {
    if p.is_empty() || p.len() > 240 {
        return Err("path must contain 1..240 bytes");
    }
    if p.contains('\\') {
        return Err("backslash paths are forbidden");
    }
    if p.starts_with('/') {
        return Err("absolute paths are forbidden");
    }
    if p.contains(':') {
        return Err("volume or URI-like paths are forbidden");
    }
    if clean(p) != p || p == "." || p == ".." || p.starts_with("../") {
        return Err("path traversal and non-canonical paths are forbidden");
    }
    if p.split('/').any(|s| s.is_empty() || s == "." || s == "..") {
        return Err("empty, dot, and parent segments are forbidden");
    }
    Ok(())
}

/// Go `path.Clean` (lexical).
fn clean(p: &str) -> String {
    let rooted = p.starts_with('/');
    let mut stack: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if stack.last().is_some_and(|s| *s != "..") {
                    stack.pop();
                } else if !rooted {
                    stack.push("..");
                }
            }
            s => stack.push(s),
        }
    }
    let body = stack.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_owned(),
        (false, false) => body,
    }
}

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
    let interfaces = match definition.get("interfaces") {
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
        let (doc, doc_at) = match iface.get("document") {
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
            let p = if iface.get("document").is_some() {
                v.instance_pointer.under_pointer(&doc_at)
            } else {
                doc_at.clone()
            };
            out.push(match v.target {
                Target::Key if iface.get("document").is_some() => d.at_key(p),
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
        let name = iface.get("name").and_then(Value::as_str).unwrap_or("");
        let version = iface.get("version").and_then(Value::as_str).unwrap_or("");
        let id = format!("{name}@{version}");
        if !seen.insert(id.clone()) {
            out.push(
                Diagnostic::new(
                    Code::DuplicateInterface,
                    format!("Form Definition has duplicate Interface \"{id}\""),
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
            let name = fixture.get("name").and_then(Value::as_str).unwrap_or("");
            if !names.insert(name.to_owned()) {
                out.push(
                    Diagnostic::new(
                        Code::DuplicateFixtureName,
                        format!(
                            "Form Definition has duplicate conformance fixture name \"{name}\""
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
                                format!("{label} \"{name}\" {key}: {reason}"),
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
    let inputs = match iface.get("inputs") {
        Some(Value::Array(list)) => list.as_slice(),
        _ => &[],
    };
    let prefix = format!("Form Definition Interface \"{id}\"");
    let mut names = HashSet::new();
    let mut resource_inputs: Vec<(usize, &str)> = Vec::new();
    for (j, input) in inputs.iter().enumerate() {
        let in_at = at.child("inputs").index(j);
        let name = input.get("name").and_then(Value::as_str).unwrap_or("");
        let source = input.get("source").and_then(Value::as_str).unwrap_or("");
        let pointer = input.get("pointer").and_then(Value::as_str).unwrap_or("");
        let has_value = input.get("value").is_some();
        let rule =
            |msg: String, ptr: JsonPointer| Diagnostic::new(Code::InterfaceInputRule, msg).at(ptr);
        if !names.insert(name) {
            out.push(rule(
                format!("{prefix} has duplicate input \"{name}\""),
                in_at.child("name"),
            ));
        }
        match source {
            "literal" => {
                if !has_value {
                    out.push(rule(
                        format!("{prefix} input \"{name}\" is a literal without a value"),
                        in_at.clone(),
                    ));
                }
                if !pointer.is_empty() {
                    out.push(rule(
                        format!(
                            "{prefix} input \"{name}\" is a literal and must not carry a pointer"
                        ),
                        in_at.child("pointer"),
                    ));
                }
            }
            _ => {
                if has_value {
                    out.push(rule(
                        format!(
                            "{prefix} input \"{name}\" carries a value with source \"{source}\"; only a literal may"
                        ),
                        in_at.child("value"),
                    ));
                }
                if source == "resource_uri" {
                    resource_inputs.push((j, name));
                    if !pointer.is_empty() {
                        out.push(rule(
                            format!(
                                "{prefix} input \"{name}\" is a resource_uri and must not carry a pointer"
                            ),
                            in_at.child("pointer"),
                        ));
                    }
                }
            }
        }
    }
    match iface.get("resourceUriInput").and_then(Value::as_str) {
        Some(marker) => {
            if resource_inputs.len() != 1 {
                out.push(
                    Diagnostic::new(
                        Code::InterfaceInputRule,
                        format!(
                            "{prefix} resourceUriInput \"{marker}\" requires exactly one resource_uri input; found {}",
                            resource_inputs.len()
                        ),
                    )
                    .at(at.child("resourceUriInput")),
                );
            } else if resource_inputs[0].1 != marker {
                out.push(
                    Diagnostic::new(
                        Code::InterfaceInputRule,
                        format!(
                            "{prefix} resourceUriInput \"{marker}\" does not name its resource_uri input \"{}\"",
                            resource_inputs[0].1
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
                        format!(
                            "{prefix} input \"{name}\" has source resource_uri but the Interface sets no resourceUriInput"
                        ),
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
