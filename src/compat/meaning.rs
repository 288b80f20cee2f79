//! Changes of the desired contract's meaning that the two sets of accepted
//! documents do not show (versioning-rules V2, V3: a patch leaves "the
//! desired schema and its portable meaning" unchanged; a minor changes the
//! meaning of no document valid before):
//!
//! - a `default` of the desired schema added, removed or changed
//!   ([`default_changes`], `FD668`): a document that omits the member
//!   means something else. The prover reads `default` as an annotation
//!   (it constrains nothing), so the verdict alone would call it
//!   `equivalent`;
//! - a relation (decision 0015: the `x-takoform-*` annotations of a
//!   reference, as verification derived them, [`crate::relations`])
//!   removed, retargeted, made required or added ([`relation_changes`],
//!   `FD669`): a host resolves each document's references by them.
//!
//! `examples`, `title`, `description`, `$comment` and every other `x-`
//! key stay documentation (the verdict's `equivalent`, `FD653`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::change::{compact as shown, quoted, Change, Class};
use super::side::{Doc, Side};
use crate::codes::Code;
use crate::json::pointer::{unescape, JsonPointer};
use crate::relations::Relation;

fn record(code: Code, class: Class, old: JsonPointer, new: Option<JsonPointer>) -> Change {
    Change {
        code,
        class,
        doc: Doc::Definition,
        old: Some(old),
        new,
        message: String::new(),
        inference: false,
        witness: None,
    }
}

/// Every `default` of a schema document by the pointer of the schema node
/// that holds it ([`super::desired::schema_objects`]: walked as a schema).
fn defaults(schema: &Value) -> BTreeMap<String, &Value> {
    super::desired::schema_objects(schema)
        .into_iter()
        .filter_map(|(m, at)| Some((at.as_str().to_owned(), m.get("default")?)))
        .collect()
}

/// The member path of a schema node reached through `properties` alone
/// (`/properties/a/properties/b` → `["a", "b"]`); `None` for any other
/// keyword on the way (`items`, `$defs`, `allOf`, …) or the root.
fn member_path(node: &str) -> Option<Vec<String>> {
    let tokens: Vec<&str> = node.strip_prefix('/')?.split('/').collect();
    let mut names = Vec::new();
    for pair in tokens.chunks(2) {
        match pair {
            ["properties", name] => names.push(unescape(name)),
            _ => return None,
        }
    }
    Some(names)
}

/// The records of the `default`s that differ between the desired schemas
/// `old` and `new` (`at`: the pointer of `desiredSchema` in both
/// definitions), one per schema node both schemas hold (a default on a
/// node only one side has is part of that node's addition or removal,
/// which the verdict classes):
/// - the member is listed in `required` beside it in OLD: no document
///   valid before omits it, so nothing changes meaning: documentation
///   (`FD665`);
/// - else breaking (`FD668`), with a counterexample when one is built
///   ([`super::desired::omitting`]: valid under both schemas, omitting the
///   member, re-checked by the engine); a default on a node that is not a
///   member reached through `properties` (the root, `items`, `$defs`, a
///   branch of `allOf`, …) has none, and counts as breaking unproved (V3).
pub fn default_changes(old: &Value, new: &Value, at: &JsonPointer) -> Vec<Change> {
    let (a, b) = (defaults(old), defaults(new));
    let mut nodes: Vec<&String> = a.keys().chain(b.keys()).collect();
    nodes.sort();
    nodes.dedup();
    let mut out = Vec::new();
    for node in nodes {
        let (x, y) = (a.get(node).copied(), b.get(node).copied());
        if x == y {
            continue;
        }
        let in_both = |s: &Value| s.pointer(node).is_some_and(Value::is_object);
        if !in_both(old) || !in_both(new) {
            continue;
        }
        let schema_at = JsonPointer::from(format!("{}{node}", at.as_str()).as_str());
        let located = |v: Option<&Value>| match v {
            Some(_) => schema_at.child("default"),
            None => schema_at.clone(),
        };
        let (po, pn) = (located(x), located(y));
        let path = member_path(node);
        let member = path.as_ref().and_then(|p| p.last()).cloned();
        let what = match (x, y) {
            (None, Some(y)) => format!("added ({})", shown(y)),
            (Some(x), None) => format!("removed (it was {})", shown(x)),
            (Some(x), Some(y)) => format!("changed from {} to {}", shown(x), shown(y)),
            (None, None) => continue,
        };
        let subject = match &member {
            Some(m) => format!("default of member {} at {schema_at}", quoted(m)),
            None => format!("default at {schema_at}"),
        };
        // The node holding the member (its parent object's schema).
        let parent = node
            .rsplit_once("/properties/")
            .map_or("", |(parent, _)| parent);
        let required_in_old = member.as_ref().is_some_and(|m| {
            old.pointer(parent)
                .and_then(|p| p.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(m)))
        });
        if required_in_old {
            out.push(Change {
                message: format!(
                    "{subject} {what}: OLD requires the member, so no document valid before omits it (documentation)"
                ),
                ..record(Code::DocumentationChanged, Class::Documentation, po, Some(pn))
            });
            continue;
        }
        let witness = path.as_ref().and_then(|p| {
            let (member, parents) = p.split_last()?;
            super::desired::omitting(old, new, parents, member)
        });
        let message = match &witness {
            Some(w) => format!(
                "{subject} {what}: a document that omits it means something else now, e.g. {} (valid under OLD and NEW)",
                shown(w)
            ),
            None => format!(
                "{subject} {what}: a document that omits it may mean something else; no such document was built (counted as breaking: compatibility not proved)"
            ),
        };
        out.push(Change {
            message,
            witness,
            ..record(Code::DesiredDefaultChanged, Class::Breaking, po, Some(pn))
        });
    }
    out
}

/// The pointer in a definition of the schema node a relation pointer
/// names (`/a/*/b` → `/desiredSchema/properties/a/items/properties/b`:
/// relations are derived through `properties` and `items` alone).
fn reference_at(relation: &str) -> JsonPointer {
    let mut at = String::from("/desiredSchema");
    for token in relation.split('/').skip(1) {
        if token == "*" {
            at.push_str("/items");
        } else {
            at.push_str("/properties/");
            at.push_str(token);
        }
    }
    JsonPointer::from(at.as_str())
}

/// A relation's target in one phrase: the target Form's group and kind,
/// then its contract (`interface <apiVersion> <name>@<version>`, `Forms
/// <kind>@<version>, …`, or `no target contract`), and the binding.
fn target(r: &Relation) -> String {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let contract = match (&r.required_interface, &r.target_form_refs) {
        (Some(i), _) => format!(
            "interface {} {}@{}",
            s(i, "apiVersion"),
            s(i, "name"),
            s(i, "version")
        ),
        (None, Some(list)) => format!(
            "Forms {}",
            list.iter()
                .map(|f| format!("{}@{}", s(f, "kind"), s(f, "definitionVersion")))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, None) => "no target contract".to_owned(),
    };
    let binding = if r.binding.is_empty() {
        String::new()
    } else {
        format!(", binding {}", quoted(&r.binding))
    };
    format!(
        "{} {}, {contract}{binding}",
        r.target_api_version, r.target_kind
    )
}

/// Whether the only difference of `o` and `n`'s targets is that `n` lists
/// more target FormRefs (every one of `o`'s kept): a relaxation.
fn only_more_form_refs(o: &Relation, n: &Relation) -> bool {
    let (Some(a), Some(b)) = (&o.target_form_refs, &n.target_form_refs) else {
        return false;
    };
    o.target_api_version == n.target_api_version
        && o.target_kind == n.target_kind
        && o.binding == n.binding
        && o.required_interface == n.required_interface
        && b.len() > a.len()
        && a.iter().all(|f| b.contains(f))
}

/// The annotation naming the entrypoint a relation's target must provide
/// (current-profile §7.2, a reviewed reference's optional member).
const ENTRYPOINT: &str = "x-takoform-required-entrypoint";

/// `FD669` for a relation kept in both whose `x-takoform-required-
/// entrypoint` (at the reference's schema node `at`) differs (breaker
/// G11: `"queue"` → `"scheduled"` passed as equivalent): added or changed
/// is breaking (a target that served documents before may no longer
/// qualify), removed a relaxation. `None` when both say the same.
fn entrypoint_change(relation: &str, at: &JsonPointer, old: &Side, new: &Side) -> Option<Change> {
    let key = at.child(ENTRYPOINT);
    let of = |side: &Side| {
        key.resolve(&side.definition)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let (o, n) = (of(old), of(new));
    if o == n {
        return None;
    }
    let said = |e: &Option<String>| e.as_deref().map_or_else(|| "none".to_owned(), quoted);
    let class = if n.is_none() {
        Class::Relaxation
    } else {
        Class::Breaking
    };
    let located = |e: &Option<String>| if e.is_some() { key.clone() } else { at.clone() };
    Some(Change {
        message: format!(
            "relation {} required entrypoint changed: {} → {}",
            quoted(relation),
            said(&o),
            said(&n)
        ),
        ..record(Code::RelationChanged, class, located(&o), Some(located(&n)))
    })
}

/// The records of the relations verification derived for OLD and NEW
/// (matched by relation pointer), each located at the reference's schema
/// node (at the annotation that changed when one did):
/// - removed, or its target changed (group, kind, `x-takoform-required-
///   interface`, `x-takoform-target-formrefs`, binding): breaking (a
///   document naming a resource there resolves to another contract, or to
///   none); only more target FormRefs listed: a relaxation;
/// - its `x-takoform-required-entrypoint` added or changed: breaking;
///   removed: a relaxation (`entrypoint_change`);
/// - made required: breaking; made optional: a relaxation;
/// - added where OLD has no schema node: an addition when optional (no
///   document valid before holds the member), breaking when required;
///   added where OLD already accepted the member (say, its `kind` now a
///   `const`): breaking, since documents valid before that hold it now
///   bind to a target.
pub fn relation_changes(old: &Side, new: &Side) -> Vec<Change> {
    let mut out = Vec::new();
    let find = |list: &'_ [Relation], p: &str| list.iter().find(|r| r.pointer == p).cloned();
    let in_new = |at: &JsonPointer| at.resolve(&new.definition).map(|_| at.clone());
    for o in &old.relations {
        let at = reference_at(&o.pointer);
        let Some(n) = find(&new.relations, &o.pointer) else {
            out.push(Change {
                message: format!(
                    "relation {} ({}) removed: a document naming a resource there no longer binds to it",
                    quoted(&o.pointer),
                    target(o)
                ),
                ..record(Code::RelationChanged, Class::Breaking, at.clone(), in_new(&at))
            });
            continue;
        };
        let retargeted = Relation {
            required: o.required,
            ..n.clone()
        } != *o;
        if retargeted {
            let key = if o.required_interface != n.required_interface {
                Some("x-takoform-required-interface")
            } else if o.target_form_refs != n.target_form_refs {
                Some("x-takoform-target-formrefs")
            } else {
                None
            };
            let annotation = |side: &Side| {
                key.map(|k| at.child(k))
                    .filter(|p| p.resolve(&side.definition).is_some())
                    .unwrap_or_else(|| at.clone())
            };
            let class = if only_more_form_refs(o, &n) {
                Class::Relaxation
            } else {
                Class::Breaking
            };
            out.push(Change {
                message: format!(
                    "relation {} target changed: {} → {}",
                    quoted(&o.pointer),
                    target(o),
                    target(&n)
                ),
                ..record(
                    Code::RelationChanged,
                    class,
                    annotation(old),
                    Some(annotation(new)),
                )
            });
        }
        if let Some(change) = entrypoint_change(&o.pointer, &at, old, new) {
            out.push(change);
        }
        if o.required != n.required {
            let (class, what) = if n.required {
                (
                    Class::Breaking,
                    "now required: every document must name a resource there",
                )
            } else {
                (Class::Relaxation, "now optional")
            };
            out.push(Change {
                message: format!("relation {} {what}", quoted(&o.pointer)),
                ..record(Code::RelationChanged, class, at.clone(), Some(at.clone()))
            });
        }
    }
    for n in &new.relations {
        if find(&old.relations, &n.pointer).is_some() {
            continue;
        }
        let at = reference_at(&n.pointer);
        let accepted_before = at.resolve(&old.definition).is_some();
        let (class, why) = if accepted_before {
            (
                Class::Breaking,
                "OLD already accepted the member, so documents valid before that hold it now bind to a target",
            )
        } else if n.required {
            (
                Class::Breaking,
                "required: every document must name a resource there",
            )
        } else {
            (
                Class::Addition,
                "optional, on a member OLD did not have: no document valid before holds it",
            )
        };
        out.push(Change {
            message: format!(
                "relation {} ({}) added: {why}",
                quoted(&n.pointer),
                target(n)
            ),
            old: accepted_before.then(|| at.clone()),
            ..record(Code::RelationChanged, class, at.clone(), Some(at))
        });
    }
    out
}
