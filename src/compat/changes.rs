//! The change records of a pair (issue 20, item 2): every difference of
//! two Form Definitions (and, for packages, of their listed fixture files)
//! with a JSON Pointer into both documents and a class.
//!
//! The desired schema is judged by [`super::desired::compare`] (a proof or
//! a counterexample); everything else by the member it is in:
//! - `immutableFields`: a pointer gained is breaking (an in-place update now
//!   forces replacement), one lost a relaxation;
//! - `lifecycleCapabilities` and each interface's `document.operations`: a
//!   capability removed is breaking, one added an addition;
//! - `interfaces` (by name), `providedInterfaces` and `acceptedBindings`
//!   (by apiVersion and name): an entry removed or changed is breaking, one
//!   added an addition;
//! - `role` changed: breaking;
//! - `observedSchema` and `outputSchema`: a top-level member removed or
//!   retyped (its schemas not equivalent by `compare`) is breaking, one
//!   added an addition. This is an inference from decisions 0025 and 0030,
//!   not a rule (versioning-rules V5): each such record says so;
//! - in the desired schema, a `default` added, removed or changed, and a
//!   relation removed, retargeted or added ([`super::meaning`]): a change
//!   of meaning the verdict does not show;
//! - title, description, status, `x-` annotations, the fixture lists and
//!   the fixture files: documentation (a patch);
//! - any other member (constraints, requiresHostApi, …): no rule proves it
//!   compatible, so it counts as breaking (V3).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::change::{compact, rec};
pub use super::change::{quoted, Change, Class};
use super::desired::{compare, Verdict};
use super::side::{Doc, Side};
use crate::codes::Code;
use crate::engine::CompiledSchema;
use crate::json::pointer::JsonPointer;

/// The change records of OLD → NEW, given the desired verdict already
/// decided (in member order: OLD's members, then NEW's new ones).
pub fn changes(old: &Side, new: &Side, desired: &Verdict) -> Vec<Change> {
    let empty = Map::new();
    let o = old.definition.as_object().unwrap_or(&empty);
    let n = new.definition.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = o.keys().collect();
    keys.extend(n.keys().filter(|k| !o.contains_key(*k)));
    let mut out = Vec::new();
    for key in keys {
        let (a, b) = (o.get(key), n.get(key));
        if a == b && key != "desiredSchema" {
            continue;
        }
        let at = JsonPointer::root().child(key);
        let at_old = a.map(|_| at.clone());
        let at_new = b.map(|_| at.clone());
        match key.as_str() {
            "apiVersion" | "kind" | "definitionVersion" => {}
            "desiredSchema" => {
                let compiled = [old.desired_compiled.as_ref(), new.desired_compiled.as_ref()];
                out.extend(desired_record(desired, &at, (a, b), compiled));
                if let (Some(a), Some(b)) = (a, b) {
                    out.extend(super::meaning::default_changes(a, b, &at));
                }
            }
            "title"
            | "description"
            | "status"
            | "conformanceFixtures"
            | "negativeConformanceFixtures" => out.push(
                rec(Code::DocumentationChanged, at_old, at_new).says(format!("{key} changed")),
            ),
            k if k.starts_with("x-") => out.push(
                rec(Code::DocumentationChanged, at_old, at_new)
                    .says(format!("annotation {} changed", quoted(k))),
            ),
            "immutableFields" => set_changes(
                &mut out,
                a,
                b,
                (&at, &at),
                (
                    Code::ImmutableFieldAdded,
                    "immutable field added (an in-place update of it now forces replacement)",
                ),
                (
                    Code::ImmutableFieldRemoved,
                    "immutable field removed (it can now be updated in place)",
                ),
            ),
            "lifecycleCapabilities" => set_changes(
                &mut out,
                a,
                b,
                (&at, &at),
                (Code::CapabilityAdded, "lifecycle capability added"),
                (Code::CapabilityRemoved, "lifecycle capability removed"),
            ),
            "interfaces" | "providedInterfaces" | "acceptedBindings" => {
                entry_changes(&mut out, key, a, b, &at);
            }
            "role" => out.push(rec(Code::RoleChanged, at_old, at_new).says(format!(
                "role changed from {} to {}",
                shown(a),
                shown(b)
            ))),
            "observedSchema" | "outputSchema" => member_changes(&mut out, key, a, b, &at),
            _ => out.push(
                rec(Code::DefinitionMemberChanged, at_old, at_new).says(format!(
                    "{} {} (no rule proves this compatible: counted as breaking)",
                    quoted(key),
                    match (a, b) {
                        (None, _) => "added",
                        (_, None) => "removed",
                        _ => "changed",
                    }
                )),
            ),
        }
    }
    out.extend(super::meaning::relation_changes(old, new));
    if let (Some(oi), Some(ni)) = (&old.index, &new.index) {
        file_changes(&mut out, oi, ni, old, new);
    }
    // Package text a message names without [`quoted`] (a pointer, a
    // relation's target) is escaped too (breaker F13).
    for c in &mut out {
        if let Cow::Owned(escaped) = crate::diag::escape::text(&c.message) {
            c.message = escaped;
        }
    }
    out
}

/// A value shown in a message: a string quoted and escaped, else compact
/// JSON (serde_json escapes control characters), `absent` for none.
fn shown(v: Option<&Value>) -> String {
    match v {
        None => "absent".to_owned(),
        Some(Value::String(s)) => quoted(s),
        Some(other) => {
            let text = other.to_string();
            if text.len() > 80 {
                format!("{}…", text.chars().take(80).collect::<String>())
            } else {
                text
            }
        }
    }
}

/// The longest prefix of `pointer` (relative to `schema`) that resolves
/// in `schema`: the node itself, or its nearest ancestor there.
fn nearest(schema: &Value, pointer: &JsonPointer) -> JsonPointer {
    let mut at = pointer.clone();
    while at.resolve(schema).is_none() {
        match at.parent() {
            Some(p) => at = p,
            None => return JsonPointer::root(),
        }
    }
    at
}

/// The keyword of `refusing` (a whole desired schema) that refuses
/// `document`, by the engine's re-check (issue 35 item 5: the record
/// points at `/desiredSchema/properties/a/maxLength`, not at
/// `/desiredSchema`), relative to the schema and resolved in it
/// ([`nearest`]); `None` when the schema does not compile or accepts it.
/// `compiled`: the schema as verification compiled it, when known.
fn refusing_keyword(
    refusing: &Value,
    compiled: Option<&CompiledSchema>,
    document: &Value,
) -> Option<JsonPointer> {
    let engine = match compiled {
        Some(c) => c.clone(),
        None => crate::engine::compile_shared(refusing).ok()?,
    };
    let first = engine.violations(document, 1).into_iter().next()?;
    Some(nearest(refusing, &first.schema_pointer))
}

/// `pointer` (relative to a desired schema) below `at` (the desired
/// schema's pointer in the definition).
fn under(at: &JsonPointer, pointer: &JsonPointer) -> JsonPointer {
    JsonPointer::from(format!("{}{}", at.as_str(), pointer.as_str()).as_str())
}

/// Where a desired record points in both files (issue 35 item 5): at the
/// keyword of the refusing side (`refuser`, true: NEW) that refuses
/// `document`, and at the same place in the other side's schema (its
/// nearest node there); `/desiredSchema` in both when no keyword is found.
fn deciding(
    at: &JsonPointer,
    (old, new): (Option<&Value>, Option<&Value>),
    [old_compiled, new_compiled]: [Option<&CompiledSchema>; 2],
    document: &Value,
    refuser_is_new: bool,
) -> (JsonPointer, JsonPointer) {
    let (refusing, compiled, other) = if refuser_is_new {
        (new, new_compiled, old)
    } else {
        (old, old_compiled, new)
    };
    let Some((refusing, other)) = refusing.zip(other) else {
        return (at.clone(), at.clone());
    };
    let Some(keyword) = refusing_keyword(refusing, compiled, document) else {
        return (at.clone(), at.clone());
    };
    let there = nearest(other, &keyword);
    let (k, t) = (under(at, &keyword), under(at, &there));
    if refuser_is_new {
        (t, k)
    } else {
        (k, t)
    }
}

/// The record of the desired verdict (none for `identical`), located at
/// the keyword that decides it in both files: the keyword that refuses
/// the witness (in NEW) or the newly accepted document (in OLD), by the
/// engine's re-check, and the same place in the other side; for an
/// undecided verdict the node in OLD and the same node in NEW.
/// `compiled`: both schemas as verification compiled them, when known.
fn desired_record(
    desired: &Verdict,
    at: &JsonPointer,
    (old, new): (Option<&Value>, Option<&Value>),
    compiled: [Option<&CompiledSchema>; 2],
) -> Option<Change> {
    let both = |code| rec(code, Some(at.clone()), Some(at.clone()));
    let located = |code, document: &Value, refuser_is_new| {
        let (o, n) = deciding(at, (old, new), compiled, document, refuser_is_new);
        rec(code, Some(o), Some(n))
    };
    Some(match desired {
        Verdict::Identical => return None,
        Verdict::Equivalent => both(Code::DesiredSchemaEquivalent).says(
            "desiredSchema changed bytes but accepts the same documents (both inclusions proved)",
        ),
        Verdict::Widened { newly_accepted } => {
            located(Code::DesiredSchemaWidened, newly_accepted, false).says(format!(
            "desiredSchema widened: every old document is still accepted, and NEW also accepts {}",
            compact(newly_accepted)
        ))
        }
        Verdict::Compatible { pointer, reason } => {
            undecided(Code::DesiredSchemaCompatible, at, pointer, new, |node| {
                format!(
                "desiredSchema compatible: every old document is still accepted (proved); whether NEW accepts more is undecided at {node}: {reason} (counted as a possible addition)"
            )
            })
        }
        Verdict::Breaking { witness } => {
            located(Code::DesiredSchemaBreaking, witness, true).says(format!(
                "desiredSchema refuses a document the old one accepts: {}",
                compact(witness)
            ))
        }
        Verdict::Unknown { pointer, reason } => {
            undecided(Code::DesiredSchemaUndecided, at, pointer, new, |node| {
                format!(
                    "desiredSchema inclusion undecided at {node}: {reason} (counted as breaking)"
                )
            })
        }
    })
}

/// The record of a verdict with an undecided node: located at that node
/// of OLD (`pointer`, relative to the desired schema at `at`) and at the
/// same node in NEW (`new`, its desired schema; the nearest node there, so
/// both files show where); `says` gets the node's pointer from the
/// definition's root.
fn undecided(
    code: Code,
    at: &JsonPointer,
    pointer: &JsonPointer,
    new: Option<&Value>,
    says: impl FnOnce(&JsonPointer) -> String,
) -> Change {
    let node = under(at, pointer);
    let in_new = new.map_or_else(|| at.clone(), |n| under(at, &nearest(n, pointer)));
    let text = says(&node);
    rec(code, Some(node), Some(in_new)).says(text)
}

/// The strings of a JSON array with their indexes (other items ignored:
/// verification already refused a definition where they are not strings).
fn strings(v: Option<&Value>) -> Vec<(usize, &str)> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .enumerate()
                .filter_map(|(i, x)| Some((i, x.as_str()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// Records of a set of strings: each one NEW gained is `added`, each one
/// it lost `removed`.
fn set_changes(
    out: &mut Vec<Change>,
    old: Option<&Value>,
    new: Option<&Value>,
    (at_old, at_new): (&JsonPointer, &JsonPointer),
    added: (Code, &str),
    removed: (Code, &str),
) {
    let (a, b) = (strings(old), strings(new));
    for (i, s) in &a {
        if !b.iter().any(|(_, t)| t == s) {
            out.push(rec(removed.0, Some(at_old.index(*i)), None).says(format!(
                "{}: {}",
                removed.1,
                quoted(s)
            )));
        }
    }
    for (i, s) in &b {
        if !a.iter().any(|(_, t)| t == s) {
            out.push(rec(added.0, None, Some(at_new.index(*i))).says(format!(
                "{}: {}",
                added.1,
                quoted(s)
            )));
        }
    }
}

/// The key an entry of a contract list is matched by: `name` for
/// `interfaces`, (`apiVersion`, `name`) for the others.
fn entry_key(list: &str, v: &Value) -> String {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
    if list == "interfaces" {
        s("name").to_owned()
    } else {
        format!("{} {}", s("apiVersion"), s("name"))
    }
}

/// Records of `interfaces`, `providedInterfaces`, `acceptedBindings`.
fn entry_changes(
    out: &mut Vec<Change>,
    list: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    at: &JsonPointer,
) {
    let items = |v: Option<&Value>| -> Vec<(usize, Value)> {
        v.and_then(Value::as_array)
            .map(|a| a.iter().cloned().enumerate().collect())
            .unwrap_or_default()
    };
    let (a, b) = (items(old), items(new));
    for (i, x) in &a {
        let key = entry_key(list, x);
        let Some((j, y)) = b.iter().find(|(_, y)| entry_key(list, y) == key) else {
            out.push(
                rec(Code::ContractEntryRemoved, Some(at.index(*i)), None)
                    .says(format!("{list} entry {} removed", quoted(key.trim()))),
            );
            continue;
        };
        if x == y {
            continue;
        }
        let (pi, pj) = (at.index(*i), at.index(*j));
        // Operations of an interface's document: capabilities.
        let ops = |v: &Value| v.pointer("/document/operations").cloned();
        let (xo, yo) = (ops(x), ops(y));
        if xo != yo {
            set_changes(
                out,
                xo.as_ref(),
                yo.as_ref(),
                (
                    &pi.child("document").child("operations"),
                    &pj.child("document").child("operations"),
                ),
                (Code::CapabilityAdded, "interface operation added"),
                (Code::CapabilityRemoved, "interface operation removed"),
            );
        }
        // The rest of the entry, its description and operations aside.
        let strip = |v: &Value| {
            let mut v = v.clone();
            if let Some(m) = v.as_object_mut() {
                m.shift_remove("description");
                if let Some(d) = m.get_mut("document").and_then(Value::as_object_mut) {
                    d.shift_remove("operations");
                }
            }
            v
        };
        if strip(x) != strip(y) {
            out.push(
                rec(Code::ContractEntryChanged, Some(pi), Some(pj))
                    .says(format!("{list} entry {} changed", quoted(key.trim()))),
            );
        } else if x.get("description") != y.get("description") {
            out.push(
                rec(
                    Code::DocumentationChanged,
                    Some(pi.child("description")),
                    Some(pj.child("description")),
                )
                .says(format!(
                    "{list} entry {} description changed",
                    quoted(key.trim())
                )),
            );
        }
    }
    for (j, y) in &b {
        let key = entry_key(list, y);
        if !a.iter().any(|(_, x)| entry_key(list, x) == key) {
            out.push(
                rec(Code::ContractEntryAdded, None, Some(at.index(*j)))
                    .says(format!("{list} entry {} added", quoted(key.trim()))),
            );
        }
    }
}

/// Keywords of a stage schema that carry no constraint.
fn is_annotation(k: &str) -> bool {
    matches!(
        k,
        "title" | "description" | "$comment" | "examples" | "default" | "$schema"
    ) || k.starts_with("x-")
}

/// Records of `observedSchema` / `outputSchema` (versioning-rules V5: an
/// inference, labelled so).
fn member_changes(
    out: &mut Vec<Change>,
    stage: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    at: &JsonPointer,
) {
    let empty = Map::new();
    fn props<'v>(v: Option<&'v Value>, empty: &'v Map<String, Value>) -> &'v Map<String, Value> {
        v.and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .unwrap_or(empty)
    }
    let (a, b) = (props(old, &empty), props(new, &empty));
    let pa = at.child("properties");
    let label = "(an inference from decisions 0025 and 0030, not a rule: versioning-rules V5)";
    let inferred = |c: Change| Change {
        inference: true,
        ..c
    };
    for (name, x) in a {
        let p = pa.child(name);
        match b.get(name) {
            None => out.push(inferred(
                rec(Code::DeclaredMemberRemoved, Some(p), None)
                    .says(format!("{stage} member {} removed {label}", quoted(name))),
            )),
            Some(y) if x != y => {
                let verdict = compare(&with_defs(x, old), &with_defs(y, new));
                match verdict {
                    Verdict::Identical => {}
                    Verdict::Equivalent => out.push(
                        rec(Code::DocumentationChanged, Some(p.clone()), Some(p))
                            .says(format!("{stage} member {} changed bytes, same documents", quoted(name))),
                    ),
                    other => out.push(inferred(
                        rec(Code::DeclaredMemberRetyped, Some(p.clone()), Some(p))
                            .says(format!(
                                "{stage} member {} retyped (its schemas are not equivalent: {}) {label}",
                                quoted(name),
                                other.name()
                            )),
                    )),
                }
            }
            Some(_) => {}
        }
    }
    for name in b.keys().filter(|k| !a.contains_key(*k)) {
        out.push(inferred(
            rec(Code::DeclaredMemberAdded, None, Some(pa.child(name)))
                .says(format!("{stage} member {} added {label}", quoted(name))),
        ));
    }
    // The stage schema outside its members.
    let rest = |v: Option<&Value>| -> Map<String, Value> {
        v.and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| k.as_str() != "properties" && k.as_str() != "$defs")
                    .filter(|(k, _)| !is_annotation(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (ra, rb) = (rest(old), rest(new));
    let in_old = old.map(|_| at.clone());
    let in_new = new.map(|_| at.clone());
    if old.is_none() || new.is_none() {
        return;
    }
    if ra != rb {
        out.push(
            rec(Code::DefinitionMemberChanged, in_old, in_new).says(format!(
                "{stage} changed outside its members (required, additionalProperties, …): counted as breaking"
            )),
        );
    } else if !same_annotations(old, new) {
        out.push(
            rec(Code::DocumentationChanged, in_old, in_new)
                .says(format!("{stage} annotations changed")),
        );
    }
}

/// Whether the top-level annotations (and `$defs`, which only members use)
/// of two stage schemas are the same.
fn same_annotations(a: Option<&Value>, b: Option<&Value>) -> bool {
    let pick = |v: Option<&Value>| -> Map<String, Value> {
        v.and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| is_annotation(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    pick(a) == pick(b)
}

/// A member schema as a whole schema document for [`compare`]: its local
/// `$ref`s (`#/$defs/…`) resolve against the stage schema's root, so the
/// root's `$defs` are carried along (a thin adapter over `compare`, which
/// takes whole documents).
fn with_defs(member: &Value, stage: Option<&Value>) -> Value {
    let defs = stage.and_then(|s| s.get("$defs"));
    match (member, defs) {
        (Value::Object(m), Some(defs)) if !m.contains_key("$defs") => {
            let mut m = m.clone();
            m.insert("$defs".to_owned(), defs.clone());
            Value::Object(m)
        }
        _ => member.clone(),
    }
}

/// Records of the files a package index lists besides the definition
/// (fixtures): added, removed or changed, documentation (V1: they need a
/// new version, but not a new contract).
fn file_changes(out: &mut Vec<Change>, oi: &Value, ni: &Value, old: &Side, new: &Side) {
    let def = |s: &Side| {
        s.index
            .as_ref()
            .and_then(|i| i.get("definitionPath"))
            .and_then(Value::as_str)
            .unwrap_or("definition.json")
            .to_owned()
    };
    let (od, nd) = (def(old), def(new));
    let files = |i: &Value, skip: &str| -> Vec<(usize, String, Value)> {
        i.get("files")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(n, f)| {
                        let p = f.get("path")?.as_str()?;
                        (p != skip).then(|| {
                            (
                                n,
                                p.to_owned(),
                                f.get("digest").cloned().unwrap_or(Value::Null),
                            )
                        })
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (files(oi, &od), files(ni, &nd));
    let at = JsonPointer::root().child("files");
    let mut push = |old: Option<JsonPointer>, new: Option<JsonPointer>, what: String| {
        let mut c = rec(Code::DocumentationChanged, old, new).says(what);
        c.doc = Doc::Index;
        out.push(c);
    };
    for (i, path, digest) in &a {
        match b.iter().find(|(_, p, _)| p == path) {
            None => push(
                Some(at.index(*i)),
                None,
                format!("file {} removed", quoted(path)),
            ),
            Some((j, _, d)) if d != digest => push(
                Some(at.index(*i).child("digest")),
                Some(at.index(*j).child("digest")),
                format!("file {} changed", quoted(path)),
            ),
            Some(_) => {}
        }
    }
    for (j, path, _) in &b {
        if !a.iter().any(|(_, p, _)| p == path) {
            push(
                None,
                Some(at.index(*j)),
                format!("file {} added", quoted(path)),
            );
        }
    }
}
