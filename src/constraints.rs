//! Constraint semantics of current-profile Form Definitions
//! (`current-profile.md` §6.2, messages §13).
//!
//! Runs after the definition schema has accepted `constraints` (the grammar
//! of §5.1 is the schema's job; entries of the wrong shape are skipped
//! here). Pass 1 checks the structure `orderedPair` and `uniqueBy` name,
//! walking the desired schema with [`walk`]; pass 2 checks that the local
//! pointers of `acyclic`, `distinctPair`, `uniquePair` and
//! `sameResolvedTarget` are relation pointers, using the pointer-set walk of
//! `current-profile.md` §9 ([`relation_pointers`]) — deliberately separate
//! from [`crate::relations`], whose recognition rules differ.
//!
//! Pure: no I/O, no printing.

use crate::diag::escape::quote;
use crate::json::Members;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::{escape, unescape, JsonPointer};

/// Depth beyond which the §9 pointer-set walk stops silently.
pub const RELATION_WALK_MAX_DEPTH: usize = crate::limits::CONSTRAINT_RELATION_DEPTH;

/// Resolves a constraint pointer in the desired schema (`current-profile.md`
/// §6.2 `walk`): the pointer must be non-empty, start with `/` and not end
/// with `/`; every `~0`/`~1`-decoded token must be non-empty and not `*`;
/// each level must have an object `properties` holding the name with an
/// object value. No `$ref`, `allOf`, `items` or other keyword is followed.
///
/// Returns the named schema and whether it is required at every level, or
/// the reference's error fragment (`is not a non-root JSON Pointer`,
/// `contains an invalid property token "<raw>"`, `traverses a schema with
/// no properties`, `does not name a declared property`).
pub fn walk<'a>(root: &'a Value, pointer: &str) -> Result<(&'a Map<String, Value>, bool), String> {
    if pointer.is_empty() || !pointer.starts_with('/') || pointer.ends_with('/') {
        return Err("is not a non-root JSON Pointer".to_owned());
    }
    let raw: Vec<&str> = pointer[1..].split('/').collect();
    let mut names = Vec::with_capacity(raw.len());
    for token in &raw {
        let name = unescape(token);
        if name.is_empty() || name == "*" {
            return Err(format!(
                "contains an invalid property token {}",
                quote(token)
            ));
        }
        names.push(name);
    }
    let mut node = root;
    let mut required = true;
    for name in &names {
        let Some(props) = node.member("properties").and_then(Value::as_object) else {
            return Err("traverses a schema with no properties".to_owned());
        };
        let Some(child) = props.member(name).filter(|c| c.is_object()) else {
            return Err("does not name a declared property".to_owned());
        };
        required = required && string_list_contains(node.member("required"), name);
        node = child;
    }
    // `node` came from an `is_object` filter or is a walked child.
    match node.as_object() {
        Some(o) => Ok((o, required)),
        None => Err("does not name a declared property".to_owned()),
    }
}

/// The member pointers that exist in `desired` (the desired schema), as
/// `immutableFields` and constraints name them: every property path through `properties` members whose value
/// is an object, as the verifier's own pointer walk into the desired
/// schema resolves them ([`walk`],
/// `current-profile.md` §6.2: no `$ref`, `allOf` or `items` followed),
/// in document order, at most [`MAX_POINTERS`]; `true` in the second
/// place when more were left out.
pub fn declared_pointers(desired: &Value) -> (Vec<String>, bool) {
    fn go(node: &Value, at: &str, depth: usize, out: &mut Vec<String>) -> bool {
        let Some(props) = node.member("properties").and_then(Value::as_object) else {
            return false;
        };
        for (name, child) in props.iter().filter(|(_, c)| c.is_object()) {
            if out.len() >= MAX_POINTERS {
                return true;
            }
            let p = format!("{at}/{}", escape(name));
            out.push(p.clone());
            if depth < crate::limits::CONSTRAINT_RELATION_DEPTH && go(child, &p, depth + 1, out) {
                return true;
            }
        }
        false
    }
    let mut out = Vec::new();
    let more = go(desired, "", 0, &mut out);
    // Each is what the verifier's walk resolves (empty names and `*` are
    // not property tokens there).
    out.retain(|p| walk(desired, p).is_ok());
    (out, more)
}

/// The most pointers [`declared_pointers`] lists at once.
pub const MAX_POINTERS: usize = 1000;

/// `v` is an array of strings containing `name` (a non-string entry makes the
/// list unusable).
fn string_list_contains(v: Option<&Value>, name: &str) -> bool {
    v.and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
        .is_some_and(|a| a.contains(&name))
}

fn type_is(o: &Map<String, Value>, types: &[&str]) -> bool {
    o.member("type")
        .and_then(Value::as_str)
        .is_some_and(|t| types.contains(&t))
}

/// The relation pointer set R of a desired schema (`current-profile.md` §9):
/// a node with a key `x-takoform-target-formrefs` or
/// `x-takoform-required-interface` adds its pointer (unless root) and stops;
/// object branches of an array `oneOf` keep the pointer; object `items` add
/// `/*`; object `properties` members add `/<escaped name>`. Stops silently
/// beyond depth 64.
pub fn relation_pointers(desired: &Value) -> BTreeSet<String> {
    fn go(node: &Value, ptr: &str, depth: usize, out: &mut BTreeSet<String>) {
        if depth > RELATION_WALK_MAX_DEPTH {
            return;
        }
        let Some(o) = node.as_object() else {
            return;
        };
        if o.has("x-takoform-target-formrefs") || o.has("x-takoform-required-interface") {
            if !ptr.is_empty() {
                out.insert(ptr.to_owned());
            }
            return;
        }
        if let Some(branches) = o.member("oneOf").and_then(Value::as_array) {
            for b in branches.iter().filter(|b| b.is_object()) {
                go(b, ptr, depth + 1, out);
            }
        }
        if let Some(items) = o.member("items").filter(|i| i.is_object()) {
            go(items, &format!("{ptr}/*"), depth + 1, out);
        }
        if let Some(props) = o.member("properties").and_then(Value::as_object) {
            for (name, child) in props.iter().filter(|(_, c)| c.is_object()) {
                go(child, &format!("{ptr}/{}", escape(name)), depth + 1, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    go(desired, "", 0, &mut out);
    out
}

fn finding(code: Code, message: String, at: JsonPointer) -> Diagnostic {
    Diagnostic::new(code, message.clone()).at(at).note(format!(
        "the reference verifier reports: Form Definition {message}"
    ))
}

fn ordered_pair(
    i: usize,
    c: &Map<String, Value>,
    desired: &Value,
    at: &JsonPointer,
    out: &mut Vec<Diagnostic>,
) {
    let Some(refs) = c.member("references").and_then(Value::as_array) else {
        return;
    };
    for (j, p) in refs.iter().enumerate() {
        let Some(p) = p.as_str() else { continue };
        let ptr = at.child("references").index(j);
        match walk(desired, p) {
            Err(e) => out.push(finding(
                Code::ConstraintOrderedPair,
                format!("constraints[{i}] orderedPair pointer {p}: {e}"),
                ptr,
            )),
            Ok((node, required)) => {
                if !required || !type_is(node, &["integer", "number"]) {
                    out.push(finding(
                        Code::ConstraintOrderedPair,
                        format!("constraints[{i}] orderedPair pointer {p} must name a required numeric schema"),
                        ptr,
                    ));
                }
            }
        }
    }
}

fn unique_by(
    i: usize,
    c: &Map<String, Value>,
    desired: &Value,
    at: &JsonPointer,
    out: &mut Vec<Diagnostic>,
) {
    let (Some(list), Some(member)) = (
        c.member("list").and_then(Value::as_str),
        c.member("member").and_then(Value::as_str),
    ) else {
        return;
    };
    let list_at = at.child("list");
    let fail = |msg: String, ptr: JsonPointer| finding(Code::ConstraintUniqueBy, msg, ptr);
    let node = match walk(desired, list) {
        Err(e) => {
            out.push(fail(
                format!("constraints[{i}] uniqueBy list {list}: {e}"),
                list_at,
            ));
            return;
        }
        Ok((node, _required)) => node,
    };
    if !type_is(node, &["array"]) {
        out.push(fail(
            format!("constraints[{i}] uniqueBy list {list} must name an array schema"),
            list_at,
        ));
        return;
    }
    let Some(items) = node
        .member("items")
        .and_then(Value::as_object)
        .filter(|o| type_is(o, &["object"]))
    else {
        out.push(fail(
            format!("constraints[{i}] uniqueBy list {list} must contain object schemas"),
            list_at,
        ));
        return;
    };
    let member_at = at.child("member");
    let Some(props) = items.member("properties").and_then(Value::as_object) else {
        out.push(fail(
            format!("constraints[{i}] uniqueBy member {member} must be required on {list} items"),
            member_at,
        ));
        return;
    };
    if !string_list_contains(items.member("required"), member) {
        out.push(fail(
            format!("constraints[{i}] uniqueBy member {member} must be required on {list} items"),
            member_at,
        ));
        return;
    }
    let scalar = props
        .get(member)
        .and_then(Value::as_object)
        .is_some_and(|m| type_is(m, &["string", "integer", "number", "boolean"]));
    if !scalar {
        out.push(fail(
            format!("constraints[{i}] uniqueBy member {member} on {list} items must be scalar"),
            member_at,
        ));
    }
}

/// The kinds whose local pointers must be relations (pass 2).
const RELATION_KINDS: [&str; 4] = [
    "acyclic",
    "distinctPair",
    "uniquePair",
    "sameResolvedTarget",
];

/// Checks the semantics of a definition's `constraints`
/// (`current-profile.md` §6.2), in list order, and returns every failure
/// (the reference stops at the first; the verdict is the same):
///
/// - `FD415` `orderedPair`: each pointer must [`walk`], be required at every
///   level and name a schema whose `type` is the string `integer` or `number`;
/// - `FD416` `uniqueBy`: `list` must walk (it may be optional) to a `type`
///   `array` schema whose object `items` (`type` `object`) has object
///   `properties` and a string-array `required` containing `member`, whose
///   schema has a scalar string `type` (`string integer number boolean`);
/// - `FD417` when any constraint has kind `acyclic`, `distinctPair`,
///   `uniquePair` or `sameResolvedTarget`: `acyclic.reference`, both
///   `references`, `sameResolvedTarget.anchor` and `.members` (not
///   `.through`) must be in [`relation_pointers`] of `desiredSchema`,
///   compared as raw strings.
///
/// Messages are the reference's without the `Form Definition ` prefix (which
/// a note carries in full); pointers name the offending member
/// (`/constraints/<i>/references/<j>`, `/list`, `/member`, `/reference`,
/// `/anchor`, `/members`). A definition without a `constraints` array yields
/// nothing; other kinds (`exclusive`, `sum`, `claim`, `hostAssigned`) are
/// never checked here.
pub fn check(definition: &Value) -> Vec<Diagnostic> {
    let Some(constraints) = definition.member("constraints").and_then(Value::as_array) else {
        return Vec::new();
    };
    let null = Value::Null;
    let desired = definition.member("desiredSchema").unwrap_or(&null);
    let base = JsonPointer::root().child("constraints");
    let mut out = Vec::new();
    let entries: Vec<(usize, &Map<String, Value>, &str)> = constraints
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let o = c.as_object()?;
            Some((i, o, o.member("kind")?.as_str()?))
        })
        .collect();
    for &(i, c, kind) in &entries {
        let at = base.index(i);
        match kind {
            "orderedPair" => ordered_pair(i, c, desired, &at, &mut out),
            "uniqueBy" => unique_by(i, c, desired, &at, &mut out),
            _ => {}
        }
    }
    if !entries.iter().any(|(_, _, k)| RELATION_KINDS.contains(k)) {
        return out;
    }
    let relations = relation_pointers(desired);
    for &(i, c, kind) in &entries {
        let at = base.index(i);
        let mut local: Vec<(JsonPointer, &Value)> = Vec::new();
        match kind {
            "acyclic" => local.extend(c.member("reference").map(|v| (at.child("reference"), v))),
            "distinctPair" | "uniquePair" => {
                if let Some(refs) = c.member("references").and_then(Value::as_array) {
                    local.extend(
                        refs.iter()
                            .enumerate()
                            .map(|(j, v)| (at.child("references").index(j), v)),
                    );
                }
            }
            "sameResolvedTarget" => {
                local.extend(c.member("anchor").map(|v| (at.child("anchor"), v)));
                local.extend(c.member("members").map(|v| (at.child("members"), v)));
            }
            _ => {}
        }
        for (ptr, v) in local {
            let Some(p) = v.as_str() else { continue };
            if !relations.contains(p) {
                out.push(finding(
                    Code::ConstraintRelation,
                    format!("constraints[{i}] kind {kind} names local pointer {p}, which desiredSchema does not declare as a relation"),
                    ptr,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
