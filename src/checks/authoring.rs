//! Authoring lints (issue 36 items 1–5): schemas the reference accepts but
//! that silently switch off a check the author believes is on. Every
//! finding here is a warning or a note: the verdict stays the reference's
//! (exit 0 unless `--deny-warnings`), and each says what was meant.
//!
//! # What it checks
//!
//! - FD224 `unknown-format`: a `format` the profile does not assert
//!   (`verifier-rules.md` §12 E3), with the nearest asserted one;
//! - FD225 `duplicate-enum-value`: an `enum` value listed twice, by the
//!   engine's equality (§12 E6), at the second occurrence;
//! - FD226 `unsatisfiable-required`: a closed object requiring a member it
//!   does not declare;
//! - FD227 `non-portable-pattern` (a note): a pattern Go compiles that
//!   ECMA-262 reads otherwise or refuses, with the portable spelling;
//! - FD228 `invalid-default`: a `default` the schema that holds it refuses,
//!   by the engine (breaker F13);
//! - FD420 `unknown-immutable-field`: an `immutableFields` pointer naming
//!   no member of the desired schema, with the nearest one that exists.
//!
//! # Why
//!
//! The reference says `ok` to each of these, and so must we; but each one
//! asserts nothing where the author wrote an assertion.
//!
//! # Example
//!
//! Failing (FD224 `unknown-format`): `desiredSchema.properties.host = {"type":"string","format":"hostnme"}`
//!
//! Passing: `desiredSchema.properties.host = {"type":"string","format":"hostname"}`
//!
//! Every code's own failing and passing example: `form-package explain CODE`.
//!
//! # Spec rule
//!
//! verifier-rules.md §12 E3 (ours); verifier-rules.md §12 E6 (ours);
//! verifier-rules.md §4.3 (ours); verifier-rules.md §12 E2 (ours);
//! verifier-rules.md §12 (ours), host-rules.md §1.6; verifier-rules.md
//! §3.5 (ours).

use crate::json::Members;
use serde_json::{Map, Value};

use crate::codes::Code;
use crate::diag::escape::quote;
use crate::diag::Diagnostic;
use crate::engine::values::ValueSet;
use crate::engine::ASSERTED_FORMATS;
use crate::json::member;
use crate::json::pointer::{unescape, JsonPointer};
use crate::keywords::{self, Shape};
use crate::package::{Fact, Package};

use super::{Check, CheckResult, FileRole, Need};

mod pattern;
pub use pattern::unportable_constructs;

/// Authoring lints over the inline schemas and `immutableFields`
/// (issue 36 items 1–5); findings are warnings and notes.
///
/// **Why:** A schema the reference accepts can still assert nothing where
/// its author wrote an assertion (a misspelt format, a pointer to no
/// member): the verdict stays `ok`, the author learns what was meant.
///
/// **Codes** (`src/codes.rs`; spec rule in parentheses):
///
/// - FD224 `unknown-format`: a format this profile does not assert: it
///   accepts every string (verifier-rules.md §12 E3 (ours))
/// - FD225 `duplicate-enum-value`: an enum lists a value twice (by the
///   engine's equality: numbers by value) (verifier-rules.md §12 E6 (ours))
/// - FD226 `unsatisfiable-required`: a closed object requires a member it
///   does not declare: no object satisfies it (verifier-rules.md §4.3 (ours))
/// - FD227 `non-portable-pattern`: a pattern Go reads, but ECMA-262 consumers
///   (editors, browsers, other hosts) read differently or refuse
///   (verifier-rules.md §12 E2 (ours))
/// - FD228 `invalid-default`: a default its own schema refuses: a host
///   that inserts it stores a document the schema refuses (verifier-rules.md
///   §12 (ours); host-rules.md §1.6)
/// - FD420 `unknown-immutable-field`: an immutableFields pointer names no
///   member of the desired schema (verifier-rules.md §3.5 (ours))
///
/// **Failing** (FD224): `desiredSchema.properties.host = {"type":"string","format":"hostnme"}`
///
/// **Passing:** `desiredSchema.properties.host = {"type":"string","format":"hostname"}`
pub(super) const LINTS: Check = Check {
    name: "authoring-lints",
    module: "src/checks/authoring.rs",
    codes: &[
        Code::UnknownFormat,
        Code::DuplicateEnumValue,
        Code::UnsatisfiableRequired,
        Code::NonPortablePattern,
        Code::UnknownImmutableField,
        Code::InvalidDefault,
    ],
    needs: &[Need::Fact(Fact::DefinitionValid)],
    establishes: None,
    file: FileRole::Definition,
    run: lints,
};

fn lints(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
    let Some(definition) = pkg.definition() else {
        return Ok(());
    };
    for (ptr, schema, _) in super::inline_schemas(definition) {
        walk(schema, schema, &ptr, diags);
    }
    if let (Some(list), Some(desired)) = (
        definition
            .member("immutableFields")
            .and_then(Value::as_array),
        definition.member("desiredSchema"),
    ) {
        diags.extend(immutable_fields(list, desired));
    }
    Ok(())
}

/// Lints one schema node of the inline schema `root` and every subschema
/// under it (structurally: a `$ref` is linted where its target is).
fn walk(root: &Value, schema: &Value, at: &JsonPointer, out: &mut Vec<Diagnostic>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(default) = member(map, "default") {
        if let Some(d) = refused_default(root, schema, default) {
            out.push(d.at(at.child("default")));
        }
    }
    if let Some(Value::String(format)) = member(map, "format") {
        if let Some(d) = unknown_format(format) {
            out.push(d.at(at.child("format")));
        }
    }
    if let Some(Value::Array(items)) = member(map, "enum") {
        out.extend(duplicate_enum_values(items, &at.child("enum")));
    }
    out.extend(unsatisfiable_required(map, at));
    if let Some(Value::String(p)) = member(map, "pattern") {
        if let Some(d) = non_portable_pattern(p) {
            out.push(d.at(at.child("pattern")));
        }
    }
    for (k, v) in map {
        let k = k.as_str();
        match keywords::shape(k) {
            Some(Shape::Single) => walk(root, v, &at.child(k), out),
            Some(Shape::Map) => {
                if let Value::Object(m) = v {
                    for (name, sub) in m {
                        walk(root, sub, &at.child(k).child(name), out);
                    }
                }
            }
            Some(Shape::Array) => {
                if let Value::Array(items) = v {
                    for (i, sub) in items.iter().enumerate() {
                        walk(root, sub, &at.child(k).index(i), out);
                    }
                }
            }
            None => {}
        }
    }
}

/// Draft 2020-12 formats the reference's engine leaves unasserted (§12 E3).
const UNASSERTED_STANDARD: &[&str] = &["idn-email", "idn-hostname"];

/// FD224 for a `format` value, or `None` when the profile asserts it.
fn unknown_format(format: &str) -> Option<Diagnostic> {
    if ASSERTED_FORMATS.contains(&format) {
        return None;
    }
    let what = if UNASSERTED_STANDARD.contains(&format) {
        "a Draft 2020-12 format this profile does not assert"
    } else {
        "not a format this profile knows"
    };
    let mut d = Diagnostic::new(
        Code::UnknownFormat,
        format!(
            "format {} is {what}: it asserts nothing, every string passes",
            quote(format)
        ),
    );
    let list = ASSERTED_FORMATS.join(", ");
    let near = crate::diag::nearest(format, ASSERTED_FORMATS.iter().copied())
        .filter(|_| !UNASSERTED_STANDARD.contains(&format));
    d.help = Some(match near {
        Some(n) => format!(
            "did you mean {}? the formats this profile asserts: {list}",
            quote(n)
        ),
        None => format!("the formats this profile asserts: {list}; or drop the format"),
    });
    Some(d)
}

/// FD225 at each `enum` item the engine's `enum` test of the items before
/// it already admits ([`ValueSet::position`]: Go's equality, one hashed
/// lookup an item).
fn duplicate_enum_values(items: &[Value], at: &JsonPointer) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let set = ValueSet::new(items);
    for (j, item) in items.iter().enumerate() {
        if let Some(i) = set.position(item, j) {
            out.push(
                Diagnostic::new(
                    Code::DuplicateEnumValue,
                    format!(
                        "enum value {j} ({}) repeats value {i}: the list allows one value fewer than it shows",
                        excerpt(item)
                    ),
                )
                .at(at.index(j)),
            );
        }
    }
    out
}

/// FD228 for a `default` the schema node that holds it refuses, checked
/// by the engine (the one fixtures and hosts validate with) on the default
/// as the Core's Materialize leaves it: a host that inserts it also
/// inserts the defaults of its own absent members
/// ([`crate::host::materialize::insert_defaults`]), so `default: {}` whose
/// required member has a default of its own is accepted (breaker2 G10).
/// `None` when the node accepts it, or when the node cannot be checked on
/// its own: it does not compile alone, or a `$ref` in it (or in the
/// `$defs` it reaches) points anywhere but into `$defs`/`definitions` (the
/// lint warns only when certain).
fn refused_default(root: &Value, node: &Value, default: &Value) -> Option<Diagnostic> {
    let first = default_refusal(root, node, default)?;
    let at = first.instance_pointer.as_str();
    let inside = if at.is_empty() {
        String::new()
    } else {
        format!(" at {}", quote(at))
    };
    let mut d = Diagnostic::new(
        Code::InvalidDefault,
        format!(
            "default {} is refused by its own schema{inside}: {}",
            excerpt(default),
            first.message
        ),
    );
    d.help = Some(
        "a host that inserts this default (with the defaults of its own members) stores a document the schema refuses, and every request that omits the member fails: change the default to a value the schema accepts, or drop it"
            .to_owned(),
    );
    Some(d)
}

/// The first violation of `default` (on the schema node `node` of the
/// inline schema `root`) as the Core's Materialize leaves it (its own
/// absent members' defaults inserted, [`crate::host::materialize::insert_defaults`]),
/// checked by the engine on the node alone (with the `$defs` its `$ref`s
/// reach, as FD228 checks it): `Some` only
/// when the node certainly refuses it; `None` when it accepts it or cannot
/// be checked alone. The one test of FD228 and of `compat`'s meaning axis
/// (a default its own schema refuses: every document that omits the
/// member is refused by hosts that materialize; breaker2 G6).
pub fn default_refusal(
    root: &Value,
    node: &Value,
    default: &Value,
) -> Option<crate::engine::Violation> {
    let alone = standalone(root, node)?;
    let compiled = crate::engine::compile_shared(&alone).ok()?;
    let materialized = crate::host::materialize::insert_defaults(node, default);
    compiled.violations(&materialized, 1).into_iter().next()
}

/// `node` as a schema of its own: itself when it holds no `$ref`, else
/// itself with the root's `$defs`/`definitions` beside it when every
/// `$ref` it (and they) hold points into those; `None` otherwise.
fn standalone(root: &Value, node: &Value) -> Option<Value> {
    fn refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("$ref" | "$dynamicRef", Value::String(r)) => out.push(r),
                        _ => refs(x, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    refs(node, &mut found);
    if found.is_empty() || std::ptr::eq(root, node) {
        return Some(node.clone());
    }
    let defs: Vec<(&str, &Value)> = ["$defs", "definitions"]
        .into_iter()
        .filter_map(|k| root.member(k).map(|d| (k, d)))
        .collect();
    for (_, d) in &defs {
        refs(d, &mut found);
    }
    if !found
        .iter()
        .all(|r| r.starts_with("#/$defs/") || r.starts_with("#/definitions/"))
    {
        return None;
    }
    let Value::Object(mut alone) = node.clone() else {
        return None;
    };
    for (k, d) in defs {
        if alone.insert(k.to_owned(), d.clone()).is_some() {
            return None;
        }
    }
    Some(Value::Object(alone))
}

/// A short rendering of a schema value for a message (JSON text, cut at
/// 60 characters; [`Diagnostic::new`] escapes what it must).
fn excerpt(value: &Value) -> String {
    let text = value.to_string();
    let short: String = text.chars().take(60).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        text
    }
}

/// FD226 at each `required` name a closed object cannot have.
fn unsatisfiable_required(map: &Map<String, Value>, at: &JsonPointer) -> Vec<Diagnostic> {
    if member(map, "additionalProperties") != Some(&Value::Bool(false)) {
        return Vec::new();
    }
    let Some(Value::Array(required)) = member(map, "required") else {
        return Vec::new();
    };
    let declared = member(map, "properties").and_then(Value::as_object);
    let names: Vec<&str> = declared
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (i, name) in required.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        if declared.is_some_and(|m| m.has(name)) {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::UnsatisfiableRequired,
            format!(
                "required names {}, which this closed object does not declare: additionalProperties false refuses it, so no object satisfies the schema",
                quote(name)
            ),
        )
        .at(at.child("required").index(i));
        if let Some(n) = crate::diag::nearest(name, names.iter().copied()) {
            d.help = Some(format!(
                "did you mean {}? declare the member under properties, or drop it from required",
                quote(n)
            ));
        }
        out.push(d);
    }
    out
}

/// FD227 for a pattern Go compiles but ECMA-262 reads otherwise.
fn non_portable_pattern(pattern: &str) -> Option<Diagnostic> {
    crate::engine::goregex::compile(pattern).ok()?;
    let found = unportable_constructs(pattern);
    if found.is_empty() {
        return None;
    }
    let what: Vec<&str> = found.iter().map(|(w, _)| w.as_str()).collect();
    let mut d = Diagnostic::new(
        Code::NonPortablePattern,
        format!(
            "pattern {} uses {}, which Go reads but ECMA-262 (editors, browsers, other hosts) reads differently or refuses",
            quote(pattern),
            what.join(", ")
        ),
    );
    let fixes: Vec<String> = found
        .iter()
        .map(|(w, p)| format!("for {w} write {p}"))
        .collect();
    d.help = Some(fixes.join("; "));
    Some(d)
}

/// FD420 for each `immutableFields` entry that names no member of `desired`.
fn immutable_fields(list: &[Value], desired: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let existing = crate::constraints::declared_pointers(desired).0;
    for (i, entry) in list.iter().enumerate() {
        let Some(pointer) = entry.as_str() else {
            continue;
        };
        if names_member(desired, desired, pointer) {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::UnknownImmutableField,
            format!(
                "immutableFields pointer {} names no member of the desired schema: it makes nothing immutable",
                quote(pointer)
            ),
        )
        .at(JsonPointer::root().child("immutableFields").index(i));
        if let Some(n) = crate::diag::nearest(pointer, existing.iter().map(String::as_str)) {
            d.help = Some(format!("did you mean {}?", quote(n)));
        } else if !existing.is_empty() {
            let shown: Vec<String> = existing.iter().take(12).map(|p| quote(p)).collect();
            let more = if existing.len() > 12 { ", …" } else { "" };
            d.help = Some(format!(
                "write the pointer of a member the desired schema declares: {}{more}",
                shown.join(", ")
            ));
        }
        out.push(d);
    }
    out
}

/// The most `$ref` hops and branches [`names_member`] follows (a bound,
/// not a rule: beyond it a pointer counts as naming a member).
const MEMBER_BUDGET: usize = 4096;

/// Whether `pointer` (an instance pointer) can name a member of documents
/// `schema` admits: through `properties`, a typed map's
/// `additionalProperties`, `items`/`prefixItems` for an array index,
/// local `$ref`s and `allOf`/`anyOf`/`oneOf` branches. Any doubt (a
/// pointer that is not one, a `$ref` that does not resolve, the budget)
/// counts as naming one: the lint warns only when certain.
fn names_member(root: &Value, schema: &Value, pointer: &str) -> bool {
    let Some(rest) = pointer.strip_prefix('/') else {
        return true;
    };
    let tokens: Vec<String> = rest.split('/').map(unescape).collect();
    let mut budget = MEMBER_BUDGET;
    reaches(root, schema, &tokens, &mut budget)
}

fn reaches(root: &Value, schema: &Value, tokens: &[String], budget: &mut usize) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let Some((first, rest)) = tokens.split_first() else {
        return true;
    };
    let map = match schema {
        Value::Object(m) => m,
        // `true` admits anything; `false` admits nothing.
        Value::Bool(b) => return *b,
        _ => return true,
    };
    if let Some(Value::String(r)) = map.member("$ref") {
        match crate::proof::ref_closure::resolve(root, r) {
            Ok(t) if reaches(root, t.value, tokens, budget) => return true,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    for k in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.member(k) {
            if branches.iter().any(|b| reaches(root, b, tokens, budget)) {
                return true;
            }
        }
    }
    for k in ["if", "then", "else"] {
        if let Some(sub) = map.member(k) {
            if sub.is_object() && reaches(root, sub, tokens, budget) {
                return true;
            }
        }
    }
    // A node whose `type` rules out objects has no member, one that rules
    // out arrays no item (`/name/` under a string member names nothing).
    let (object, array) = (admits_type(map, "object"), admits_type(map, "array"));
    if let Some(child) = map
        .member("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.get(first.as_str()))
        .filter(|_| object)
    {
        if reaches(root, child, rest, budget) {
            return true;
        }
    }
    let branched = ["$ref", "allOf", "anyOf", "oneOf"]
        .iter()
        .any(|k| map.has(k));
    match map.member("additionalProperties") {
        // An open object admits any member (a `$ref` or a branch, which
        // were followed above, says what it admits instead).
        None | Some(Value::Bool(true)) if object && !branched => return true,
        Some(extra) if object && extra.is_object() && reaches(root, extra, rest, budget) => {
            return true
        }
        _ => {}
    }
    let Ok(index) = first.parse::<usize>() else {
        return false;
    };
    if !array {
        return false;
    }
    // An array that says nothing of its items admits any item.
    if !object && !branched && !map.has("items") && !map.has("prefixItems") {
        return true;
    }
    if let Some(item) = map
        .member("prefixItems")
        .and_then(Value::as_array)
        .and_then(|prefix| prefix.get(index))
    {
        if reaches(root, item, rest, budget) {
            return true;
        }
    }
    map.member("items")
        .filter(|v| v.is_object())
        .is_some_and(|items| reaches(root, items, rest, budget))
}

/// Whether a schema node's `type` admits instances of the JSON type
/// `name` (no `type`, or one that is not a string or an array of them,
/// admits every type).
fn admits_type(map: &Map<String, Value>, name: &str) -> bool {
    match map.member("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str().is_none_or(|t| t == name)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use serde_json::json;

    fn lint(schema: Value) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        walk(
            &schema,
            &schema,
            &JsonPointer::root().child("desiredSchema"),
            &mut out,
        );
        out
    }

    fn codes(d: &[Diagnostic]) -> Vec<(Code, String)> {
        d.iter()
            .map(|d| (d.code, d.pointer.as_str().to_owned()))
            .collect()
    }

    #[test]
    fn unknown_format_names_the_nearest_asserted_one() {
        let d = lint(json!({"type": "string", "format": "hostnme"}));
        assert_eq!(
            codes(&d),
            vec![(Code::UnknownFormat, "/desiredSchema/format".to_owned())]
        );
        let help = d[0].help.as_deref().unwrap();
        assert!(help.starts_with("did you mean \"hostname\"?"), "{help}");
        assert!(help.contains("uri-template, semver"), "{help}");
        // Near miss: a correct spelling gives no warning.
        assert!(lint(json!({"type": "string", "format": "hostname"})).is_empty());
        // A standard format the profile leaves unasserted is named so.
        let d = lint(json!({"type": "string", "format": "idn-hostname"}));
        assert!(d[0]
            .message
            .contains("a Draft 2020-12 format this profile does not assert"));
        // A property named "format" is a member, not the keyword.
        let named = json!({"type": "object", "additionalProperties": false,
            "properties": {"format": {"type": "string"}}});
        assert!(lint(named).is_empty());
    }

    #[test]
    fn duplicate_enum_values_by_the_engine_equality() {
        let d = lint(json!({"enum": ["small", "medium", "large", "small"]}));
        assert_eq!(
            codes(&d),
            vec![(Code::DuplicateEnumValue, "/desiredSchema/enum/3".to_owned())]
        );
        assert!(d[0].message.contains("repeats value 0"), "{}", d[0].message);
        // Numbers by value: 1 and 1.0 are one value.
        let d = lint(json!({"enum": [1, 2, 1.0]}));
        assert_eq!(
            codes(&d),
            vec![(Code::DuplicateEnumValue, "/desiredSchema/enum/2".to_owned())]
        );
        // The engine's enum test, Go's quirk included: after a number
        // opened the type gate, 1 equals the string "1" listed before it.
        let d = lint(json!({"enum": [2, "1", 1]}));
        assert_eq!(
            codes(&d),
            vec![(Code::DuplicateEnumValue, "/desiredSchema/enum/2".to_owned())]
        );
        assert!(d[0].message.contains("repeats value 1"), "{}", d[0].message);
        // Near misses: distinct values; a string and a number; objects
        // differing in one member.
        assert!(lint(json!({"enum": ["small", "medium", "large", "xlarge"]})).is_empty());
        assert!(lint(json!({"enum": ["1", 1]})).is_empty());
        assert!(lint(json!({"enum": [{"a": 1}, {"a": 2}]})).is_empty());
    }

    #[test]
    fn unsatisfiable_required_in_a_closed_object() {
        let closed = json!({"type": "object", "additionalProperties": false,
            "properties": {"count": {"type": "integer"}, "size": {"type": "integer"}},
            "required": ["count", "sizes"]});
        let d = lint(closed);
        assert_eq!(
            codes(&d),
            vec![(
                Code::UnsatisfiableRequired,
                "/desiredSchema/required/1".to_owned()
            )]
        );
        assert!(d[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("did you mean \"size\"?"));
        // Near misses: the member declared; a typed map (a schema, not false).
        let declared = json!({"type": "object", "additionalProperties": false,
            "properties": {"count": {"type": "integer"}, "sizes": {"type": "integer"}},
            "required": ["count", "sizes"]});
        assert!(lint(declared).is_empty());
        let map = json!({"type": "object", "additionalProperties": {"type": "string"},
            "required": ["anything"]});
        assert!(lint(map).is_empty());
        // Nested: found under properties.
        let nested = json!({"type": "object", "additionalProperties": false,
            "properties": {"x": {"type": "object", "additionalProperties": false, "required": ["y"]}}});
        assert_eq!(
            codes(&lint(nested)),
            vec![(
                Code::UnsatisfiableRequired,
                "/desiredSchema/properties/x/required/0".to_owned()
            )]
        );
    }

    #[test]
    fn non_portable_patterns_and_near_misses() {
        let names = |p: &str| -> Vec<String> {
            unportable_constructs(p)
                .into_iter()
                .map(|(w, _)| w)
                .collect()
        };
        assert_eq!(names("(?i)^abc$"), vec!["the inline flags (?i)"]);
        assert_eq!(names("^[[:digit:]]+$"), vec!["the POSIX class [:digit:]"]);
        assert_eq!(
            names("\\Aabc\\z"),
            vec!["\\A (start of text)", "\\z (end of text)"]
        );
        assert_eq!(names("\\Qa.b\\E"), vec!["\\Q…\\E (a quoted literal)"]);
        assert_eq!(names("(?P<x>a)"), vec!["the named group (?P<name>…)"]);
        // Near misses: portable spellings, an escaped backslash before A,
        // a non-capturing group, a plain bracket class.
        for p in ["^[0-9]+$", "\\\\A", "(?:ab)+", "[a-z:]", "^a$", "(?<x>a)"] {
            assert!(names(p).is_empty(), "{p}: {:?}", names(p));
        }
        let d = lint(json!({"type": "string", "pattern": "^[[:digit:]]+\\z"}));
        assert_eq!(
            codes(&d),
            vec![(
                Code::NonPortablePattern,
                "/desiredSchema/pattern".to_owned()
            )]
        );
        assert_eq!(d[0].severity, crate::diag::Severity::Note);
        assert!(d[0]
            .help
            .as_deref()
            .unwrap()
            .contains("[[:digit:]] is [0-9]"));
        // A pattern Go refuses is FD222's, not a note.
        assert!(lint(json!({"type": "string", "pattern": "a*+"})).is_empty());
    }

    /// Breaker F6: Go/ECMA-262 differences beyond the first five, each
    /// with its portable spelling, and their near misses.
    #[test]
    fn non_portable_escapes_spaces_and_braces() {
        let found = |p: &str| unportable_constructs(p);
        let one = |p: &str, what: &str, portable: &str| {
            assert_eq!(
                found(p),
                vec![(what.to_owned(), portable.to_owned())],
                "{p}"
            );
        };
        one("^\\x{41}$", "the braced hex escape \\x{41}", "\\x41");
        one(
            "^\\x{E9}t\\x{E9}$",
            "the braced hex escape \\x{E9}",
            "\\xE9",
        );
        one(
            "^\\S+$",
            "\\S (Go: all but the five ASCII spaces; ECMA-262: all but every Unicode space)",
            "[^\\t\\n\\f\\r ]",
        );
        one(
            "a\\sb",
            "\\s (Go: the five ASCII spaces; ECMA-262: every Unicode space)",
            "[\\t\\n\\f\\r ]",
        );
        one(
            "^[^@\\s]+$",
            "\\s or \\S in the class [^@\\s] (Go: ASCII spaces; ECMA-262: every Unicode space)",
            "[^@\\t\\n\\f\\r ]",
        );
        one(
            "^[a-z]\\-[a-z]$",
            "the escape \\- (ECMA-262 refuses it outside a class)",
            "-",
        );
        one(
            "^[a\\#]$",
            "the escape \\# (ECMA-262 refuses it in a class)",
            "#",
        );
        one(
            "^a{,3}$",
            "{,3} (Go reads the text {,3}, ECMA-262 refuses it)",
            "{0,3} for a repetition, \\{,3\\} for the text",
        );
        one(
            "^a{01}$",
            "{01} (Go reads the text {01}, ECMA-262 a repetition)",
            "{1} for a repetition, \\{01\\} for the text",
        );
        one(
            "^{$",
            "a lone { (Go reads the text {, ECMA-262 refuses it)",
            "\\{",
        );
        one(
            "^a]$",
            "a lone ] (Go reads the text ], ECMA-262 refuses it)",
            "\\]",
        );
        one("^\\a$", "\\a (the bell character)", "\\x07");
        one("^\\012$", "the octal escape \\012", "\\x0A");
        one(
            "^\\x{4E2D}$",
            "the braced hex escape \\x{4E2D}",
            "the character \u{4E2D} itself (U+4E2D)",
        );
        // Each construct once, however often it appears.
        assert_eq!(found("^[a-z]\\-[a-z]\\-[a-z]$").len(), 1);
        // Near misses: what both read alike. Escaped syntax characters and
        // `/`, `\-` in a class, `\xHH`, `\0`, counted repeats, `\p{…}`,
        // `[\s\S]`, and a class that lists ECMA-262's other spaces beside
        // `\s` (as real packages do).
        for p in [
            "^a\\.b\\/c\\{2\\}\\[\\]$",
            "^[a-z\\-_]+$",
            "^\\x41\\0$",
            "^a{0,3}b{2}c{1,}d{0}$",
            "^\\p{Greek}+\\pL$",
            "^[\\s\\S]*$",
            "^[^\\s\u{b}\u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}?#]*$",
            "^\\d+\\w*\\b$",
        ] {
            assert!(found(p).is_empty(), "{p}: {:?}", found(p));
        }
        // The note itself names the constructs and the help the spelling.
        let d = lint(json!({"type": "string", "pattern": "^\\S+\\-x{,3}$"}));
        assert_eq!(
            codes(&d),
            vec![(
                Code::NonPortablePattern,
                "/desiredSchema/pattern".to_owned()
            )]
        );
        let help = d[0].help.as_deref().unwrap();
        assert!(help.contains("write [^\\t\\n\\f\\r ]"), "{help}");
        assert!(
            help.contains("for the escape \\- (ECMA-262 refuses it outside a class) write -"),
            "{help}"
        );
        assert!(help.contains("write {0,3} for a repetition"), "{help}");
    }

    /// Breaker F13: a default its own schema refuses, by the engine.
    #[test]
    fn a_default_its_own_schema_refuses() {
        let d = lint(json!({"type": "object", "properties": {
            "o": {"type": "string", "maxLength": 3, "default": "TOOLONG"}}}));
        assert_eq!(
            codes(&d),
            vec![(
                Code::InvalidDefault,
                "/desiredSchema/properties/o/default".to_owned()
            )]
        );
        assert!(
            d[0].message
                .starts_with("default \"TOOLONG\" is refused by its own schema: "),
            "{}",
            d[0].message
        );
        // Inside an object default: the member at fault is named.
        let d = lint(json!({"properties": {"limits": {"type": "object",
            "properties": {"count": {"type": "integer"}},
            "default": {"count": "ten"}}}}));
        assert_eq!(d.len(), 1);
        assert!(
            d[0].message.contains(" at \"/count\": "),
            "{}",
            d[0].message
        );
        // Through a $ref into $defs.
        let d = lint(json!({"$defs": {"Size": {"enum": ["s", "m"]}},
            "properties": {"size": {"$ref": "#/$defs/Size", "default": "xl"}}}));
        assert_eq!(
            codes(&d),
            vec![(
                Code::InvalidDefault,
                "/desiredSchema/properties/size/default".to_owned()
            )]
        );
        // A default Materialize completes is judged as completed: a nested
        // default that its own node refuses is still found (at itself).
        let d = lint(json!({"properties": {"o": {"type": "object",
            "properties": {"a": {"type": "string", "maxLength": 0, "default": "q"}},
            "required": ["a"], "default": {}}}}));
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d.iter().all(|d| d.code == Code::InvalidDefault));
        // Near misses: a default its schema accepts (1.0 is an integer by
        // value), through a $ref too; a $ref elsewhere is not judged; a
        // default `{}` (or `[{}]`) whose required member Materialize fills
        // from its own default (breaker2 G10: hosts store {"a":"q"}).
        for ok in [
            json!({"properties": {"o": {"type": "object", "additionalProperties": false,
                "properties": {"a": {"type": "string", "default": "q"}},
                "required": ["a"], "default": {}}}}),
            json!({"properties": {"arr": {"type": "array", "items": {"type": "object",
                "properties": {"a": {"type": "string", "default": "q"}},
                "required": ["a"]}, "default": [{}]}}}),
            json!({"properties": {"o": {"type": "string", "maxLength": 3, "default": "abc"}}}),
            json!({"properties": {"n": {"type": "integer", "default": 1.0}}}),
            json!({"$defs": {"Size": {"enum": ["s", "m"]}},
                "properties": {"size": {"$ref": "#/$defs/Size", "default": "m"}}}),
            json!({"properties": {"a": {"type": "string"},
                "b": {"$ref": "#/properties/a", "default": 5}}}),
        ] {
            assert!(lint(ok.clone()).is_empty(), "{ok}: {:?}", lint(ok.clone()));
        }
    }

    #[test]
    fn immutable_fields_name_members() {
        let desired = json!({"type": "object", "additionalProperties": false,
        "$defs": {"Engine": {"type": "object", "additionalProperties": false,
            "properties": {"version": {"type": "string"}}}},
        "properties": {
            "engine": {"$ref": "#/$defs/Engine"},
            "ports": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                "properties": {"port": {"type": "integer"}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "mix": {"allOf": [{"type": "object", "additionalProperties": false,
                "properties": {"a": {"type": "string"}}}]}
        }});
        let list: Vec<Value> = [
            "/engin",
            "/engine",
            "/engine/version",
            "/engine/versoin",
            "/ports/0/port",
            "/labels/anything",
            "/mix/a",
            "/mix/b",
            "/engine/version/",
            "/ports/0/port/x",
            "/ports/0",
        ]
        .iter()
        .map(|p| json!(p))
        .collect();
        let d = immutable_fields(&list, &desired);
        let at: Vec<&str> = d.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            at,
            vec![
                "/immutableFields/0",
                "/immutableFields/3",
                "/immutableFields/7",
                "/immutableFields/8",
                "/immutableFields/9"
            ]
        );
        assert_eq!(d[0].help.as_deref(), Some("did you mean \"/engine\"?"));
        assert!(d.iter().all(|d| d.code == Code::UnknownImmutableField));
    }
}
