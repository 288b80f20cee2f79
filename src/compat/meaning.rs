//! Changes of the desired contract's meaning that the two sets of accepted
//! documents do not show (versioning-rules V2, V3: a patch leaves "the
//! desired schema and its portable meaning" unchanged; a minor changes the
//! meaning of no document valid before). Meaning is what hosts store
//! (issue 35 item 1):
//!
//! - defaults ([`default_changes`]): the current Core's `Materialize`
//!   ([`crate::host::materialize`], `host-rules.md` §1.6) decides what a
//!   default means. A change of meaning exists when some document valid
//!   under both schemas materializes differently; its witness is that
//!   document with both materialized forms (`FD668`, breaking). A default
//!   the Core never inserts (on `$defs`, the root, behind `$ref`, `allOf`,
//!   `anyOf`, `if`/`then`, a `type` array, …), added, removed or changed,
//!   is a note (`FD680`): never silent, never breaking. The prover reads
//!   `default` as an annotation (it constrains nothing), so the verdict
//!   alone would call either `equivalent`;
//! - relations (decision 0015: the `x-takoform-*` annotations of a
//!   reference, as verification derived them, [`crate::relations`]): the
//!   derived relations are compared, so a rewrite that keeps every derived
//!   relation is equivalent; one removed, retargeted, made required or
//!   added is `FD669` ([`relation_changes`]): a host resolves each
//!   document's references by them.
//!
//! `examples`, `title`, `description`, `$comment` and every other `x-`
//! key stay documentation (the verdict's `equivalent`, `FD653`).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::change::{compact as shown, quoted, rec, rec_as, Change, Class, VALID_UNDER_BOTH};
use super::side::Side;
use crate::codes::Code;
use crate::json::pointer::JsonPointer;
use crate::relations::Relation;

/// The record of a change of kind `code` in the definition, of its usual
/// class ([`rec`]).
fn record(code: Code, old: JsonPointer, new: Option<JsonPointer>) -> Change {
    rec(code, Some(old), new)
}

/// The record of a change of kind `code` taking `class`, another class
/// its TOML lists ([`rec_as`]).
fn record_as(code: Code, class: Class, old: JsonPointer, new: Option<JsonPointer>) -> Change {
    rec_as(code, class, Some(old), new)
}

/// One step from a value to a value inside it, as the Core's default
/// insertion walks (`host-rules.md` §1.6): a named member, any member (an
/// object `additionalProperties`), an array item, or the `oneOf` branch a
/// discriminator selects (its name and tag).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Member(String),
    AnyMember,
    Item,
    Branch(String, String),
}

/// One place where the Core's `Materialize` inserts a default: the
/// instance path it is reached by, the default, the pointer of the schema
/// node that holds it.
struct Site<'a> {
    default: &'a Value,
    at: String,
}

/// Every default the Core inserts for `schema` (a whole desired schema),
/// by instance path: walked exactly as
/// [`crate::host::materialize::insert_defaults`] walks a document (the
/// first branch of each discriminator tag, `properties` members whose
/// schema is an object, object `additionalProperties`, object `items`);
/// nothing behind `$ref`, `allOf`, `anyOf`, `if`, a `type` array.
fn inserted(schema: &Value) -> BTreeMap<Vec<Step>, Site<'_>> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<(&Value, Vec<Step>, String)> = vec![(schema, Vec::new(), String::new())];
    while let Some((node, path, at)) = stack.pop() {
        let Some(node) = node.as_object() else {
            continue;
        };
        if let Some(d) = node
            .get("x-takoform-discriminator")
            .and_then(Value::as_str)
            .filter(|d| !d.is_empty())
        {
            let mut tags = std::collections::BTreeSet::new();
            for (i, branch) in node
                .get("oneOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let tag = branch
                    .pointer(&format!(
                        "/properties/{}/const",
                        crate::json::pointer::escape(d)
                    ))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if tags.insert(tag.to_owned()) {
                    let mut p = path.clone();
                    p.push(Step::Branch(d.to_owned(), tag.to_owned()));
                    stack.push((branch, p, format!("{at}/oneOf/{i}")));
                }
            }
            continue;
        }
        match node.get("type").and_then(Value::as_str) {
            Some("object") => {
                for (name, member) in node
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                {
                    let Some(m) = member.as_object() else {
                        continue;
                    };
                    let mut p = path.clone();
                    p.push(Step::Member(name.clone()));
                    let member_at =
                        format!("{at}/properties/{}", crate::json::pointer::escape(name));
                    if let Some(default) = m.get("default") {
                        out.insert(
                            p.clone(),
                            Site {
                                default,
                                at: member_at.clone(),
                            },
                        );
                    }
                    stack.push((member, p, member_at));
                }
                if let Some(extra) = node.get("additionalProperties").filter(|a| a.is_object()) {
                    let mut p = path.clone();
                    p.push(Step::AnyMember);
                    stack.push((extra, p, format!("{at}/additionalProperties")));
                }
            }
            Some("array") => {
                if let Some(items) = node.get("items").filter(|i| i.is_object()) {
                    let mut p = path;
                    p.push(Step::Item);
                    stack.push((items, p, format!("{at}/items")));
                }
            }
            _ => {}
        }
    }
    out
}

/// Every `default` of a schema document the Core never inserts, by the
/// pointer of the schema node that holds it ([`super::desired::schema_objects`]:
/// walked as a schema, less the nodes of `inserted`).
fn never_inserted<'a>(
    schema: &'a Value,
    inserted: &BTreeMap<Vec<Step>, Site<'_>>,
) -> BTreeMap<String, &'a Value> {
    let reached: std::collections::BTreeSet<&str> =
        inserted.values().map(|s| s.at.as_str()).collect();
    super::desired::schema_objects(schema)
        .into_iter()
        .filter_map(|(m, at)| Some((at.as_str().to_owned(), m.get("default")?)))
        .filter(|(at, _)| !reached.contains(at.as_str()))
        .collect()
}

/// The instance path as a JSON Pointer pattern (`/limits/size`,
/// `/list/*`, `/map/*`, a branch as `[kind=a]`).
fn shown_path(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Member(m) => {
                s.push('/');
                s.push_str(&crate::json::pointer::escape(m));
            }
            Step::AnyMember | Step::Item => s.push_str("/*"),
            Step::Branch(d, t) => s.push_str(&format!("[{d}={t}]")),
        }
    }
    if s.is_empty() {
        s.push('/');
    }
    s
}

/// A document valid under both `old` and `new` that reaches the last
/// member of `path` through items, maps or discriminated branches and
/// lacks it: the minimal document of both ([`super::desired::omitting`]
/// with no member left out) with, along `path`, an empty object at each
/// member, one item, one member `a` of a map, and the discriminator's tag
/// at a branch. Not re-checked here: the caller judges what hosts that
/// materialize make of it under each schema ([`accepted`]); one refused
/// by both (a required member inside, a `propertyNames` that refuses
/// `a`) leaves the record unproved.
fn through(old: &Value, new: &Value, path: &[Step]) -> Option<Value> {
    let (Step::Member(_), rest) = path.split_last()? else {
        return None;
    };
    let mut doc = super::desired::omitting(old, new, &[], "")?;
    let mut at: &mut Value = &mut doc;
    for step in rest {
        at = match step {
            Step::Member(m) => {
                let o = at.as_object_mut()?;
                o.entry(m.clone())
                    .or_insert_with(|| Value::Object(Map::new()))
            }
            Step::AnyMember => {
                let o = at.as_object_mut()?;
                o.entry("a").or_insert_with(|| Value::Object(Map::new()))
            }
            Step::Item => {
                *at = Value::Array(vec![Value::Object(Map::new())]);
                at.get_mut(0)?
            }
            Step::Branch(d, tag) => {
                at.as_object_mut()?
                    .insert(d.clone(), Value::String(tag.clone()));
                at
            }
        };
    }
    if let Some(Step::Member(m)) = path.last() {
        at.as_object_mut()?.remove(m);
    }
    Some(doc)
}

/// Why hosts that materialize under `schema` refuse *every* document that
/// omits the member `path` ends with, reached through members and array
/// items only (a discriminated branch or a map is not judged: `None`),
/// `site` its default there if any: the default is refused by the member's
/// own schema ([`crate::checks::default_refusal`], FD228's test, on the
/// default as Materialize leaves it), or there is no default and the
/// member is `required` by the object schema that holds it. `None` when
/// neither is certain. Both conditions are local: the document is refused
/// whatever else it holds (breaker2 G6).
fn absence_refused(schema: &Value, path: &[Step], site: Option<&Site>) -> Option<String> {
    let (last, steps) = path.split_last()?;
    let Step::Member(name) = last else {
        return None;
    };
    let mut node = schema;
    for step in steps {
        node = match step {
            Step::Member(m) if node.get("type").and_then(Value::as_str) == Some("object") => {
                node.get("properties")?.get(m).filter(|n| n.is_object())?
            }
            Step::Item if node.get("type").and_then(Value::as_str) == Some("array") => {
                node.get("items").filter(|n| n.is_object())?
            }
            _ => return None,
        };
    }
    if node.get("type").and_then(Value::as_str) != Some("object") {
        return None;
    }
    let member = node
        .get("properties")?
        .get(name)
        .filter(|n| n.is_object())?;
    match site {
        Some(s) => crate::checks::default_refusal(schema, member, s.default).map(|v| {
            format!(
                "its default is refused by its own schema at {}, FD228",
                crate::diag::escape::text(v.schema_pointer.as_str())
            )
        }),
        None => node
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|m| m.as_str() == Some(name)))
            .then(|| "required, no default".to_owned()),
    }
}

/// What hosts that materialize make of a document `w` under OLD and NEW
/// ([`accepted`]): whether each accepts it once its defaults are inserted,
/// both materialized forms and `w` as RFC 8785 text, and whether `w`
/// itself is valid under both.
struct Judged {
    w: String,
    mo: String,
    mn: String,
    old_accepts: bool,
    new_accepts: bool,
    valid_under_both: bool,
}

/// Both desired schemas compiled by the engine, once per pair (`None`:
/// one does not compile).
type Compiled = Option<(crate::engine::CompiledSchema, crate::engine::CompiledSchema)>;

/// The Core's `Materialize` of `w` under `old` and `new` (defaults
/// inserted by [`crate::host::materialize::insert_defaults`], the result
/// validated by the engine, `host-rules.md` §1.6), the schemas compiled
/// once into `compiled`; `None` when a schema does not compile.
fn accepted(
    old: &Value,
    new: &Value,
    w: &Value,
    compiled: &std::cell::OnceCell<Compiled>,
) -> Option<Judged> {
    let (o, n) = compiled
        .get_or_init(|| {
            Some((
                crate::engine::compile(old).ok()?,
                crate::engine::compile(new).ok()?,
            ))
        })
        .as_ref()?;
    let (mo, mn) = (
        crate::host::materialize::insert_defaults(old, w),
        crate::host::materialize::insert_defaults(new, w),
    );
    Some(Judged {
        old_accepts: o.is_valid(&mo),
        new_accepts: n.is_valid(&mn),
        valid_under_both: o.is_valid(w) && n.is_valid(w),
        w: canonical_text(w),
        mo: canonical_text(&mo),
        mn: canonical_text(&mn),
    })
}

/// The RFC 8785 text of a value (its compact JSON when it has none).
fn canonical_text(v: &Value) -> String {
    crate::canonical::canonicalize(v)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| v.to_string())
}

/// The change records of the desired schemas `old` and `new` (`at`: the
/// pointer of `desiredSchema` in both definitions) by what hosts store
/// (issue 35 item 1): the meaning axis is the Core's `Materialize`
/// ([`crate::host::materialize`]).
///
/// - A default the Core inserts (reached through `properties` of an object
///   schema, object `additionalProperties`, `items`, a discriminated
///   branch), added, removed or changed at an instance path, judged on a
///   document that omits the member ([`super::desired::omitting`]: valid
///   under both when one is, else the minimal document of both less the
///   member), by what hosts that materialize accept and store
///   (`accepted`: defaults inserted, the result validated; breaker F12):
///   accepted under both and stored differently, breaking (`FD668`, the
///   witness with both materialized forms); accepted under NEW only (a
///   default added to a required member: NEW's hosts accept `{}`), a
///   relaxation (`FD682`, a minor); accepted under OLD only (that default
///   removed), breaking (`FD668`); stored alike, documentation (`FD665`).
///   No such document built or accepted anywhere: breaking, unproved.
/// - A default the Core never inserts (on `$defs`, the root, behind
///   `$ref`, `allOf`, `anyOf`, `if`/`then`, a `type` array, …) added,
///   removed or changed at a pointer: a note (`FD680`), never breaking and
///   never silent: editors may show it, hosts ignore it.
pub fn default_changes(old: &Value, new: &Value, at: &JsonPointer) -> Vec<Change> {
    let (a, b) = (inserted(old), inserted(new));
    let mut out = Vec::new();
    let mut paths: Vec<&Vec<Step>> = a.keys().chain(b.keys()).collect();
    paths.sort();
    paths.dedup();
    let under = |p: &str| JsonPointer::from(format!("{}{p}", at.as_str()).as_str());
    let compiled = std::cell::OnceCell::new();
    for path in paths {
        let (x, y) = (a.get(path), b.get(path));
        if x.map(|s| s.default) == y.map(|s| s.default) {
            continue;
        }
        // Each side's place: its `default`, else the node the other side's
        // default is on when this side has it, else the desired schema.
        let place =
            |mine: Option<&Site>, theirs: Option<&Site>, schema: &Value| match (mine, theirs) {
                (Some(s), _) => under(&s.at).child("default"),
                (None, Some(t)) if schema.pointer(&t.at).is_some() => under(&t.at),
                _ => at.clone(),
            };
        let (po, pn) = (place(x, y, old), place(y, x, new));
        let what = match (x, y) {
            (None, Some(y)) => format!("added ({})", shown(y.default)),
            (Some(x), None) => format!("removed (it was {})", shown(x.default)),
            (Some(x), Some(y)) => {
                format!("changed from {} to {}", shown(x.default), shown(y.default))
            }
            (None, None) => continue,
        };
        let member = match path.last() {
            Some(Step::Member(m)) => Some(m.clone()),
            _ => None,
        };
        let subject = match &member {
            Some(m) => format!(
                "default of member {} at {} (inserted by hosts at {})",
                quoted(m),
                x.or(y).map_or_else(|| at.clone(), |s| under(&s.at)),
                shown_path(path)
            ),
            None => format!("default inserted at {}", shown_path(path)),
        };
        let names: Option<Vec<String>> = path
            .iter()
            .map(|s| match s {
                Step::Member(m) => Some(m.clone()),
                _ => None,
            })
            .collect();
        // A document that omits the member (valid under both, or not: a
        // member `required` on a side), judged by what hosts that
        // materialize accept (breaker F12); [`accepted`] re-checks it with
        // the engine (whether it is valid under both), so the generator
        // runs once and nothing compiles twice.
        let candidate = match names.as_ref() {
            Some(p) => p.split_last().and_then(|(member, parents)| {
                super::desired::omitting_unchecked(old, new, parents, member)
            }),
            None => through(old, new, path),
        };
        let judged = candidate
            .as_ref()
            .and_then(|w| accepted(old, new, w, &compiled));
        // Both hosts accept it and store different documents, and it is
        // valid under both as it is: a counterexample.
        let under_both = judged
            .as_ref()
            .is_some_and(|j| j.old_accepts && j.new_accepts && j.mo != j.mn && j.valid_under_both);
        let (class, code, message) = match &judged {
            // Both hosts accept it and store different documents.
            Some(j) if j.old_accepts && j.new_accepts && j.mo != j.mn => (
                Class::Breaking,
                Code::DesiredDefaultChanged,
                if under_both {
                    format!(
                        "{subject} {what}: hosts store another document, e.g. {} {VALID_UNDER_BOTH} materializes as {} under OLD and as {} under NEW",
                        j.w, j.mo, j.mn
                    )
                } else {
                    format!(
                        "{subject} {what}: hosts that materialize store another document, e.g. {} (accepted under OLD and NEW once materialized) materializes as {} under OLD and as {} under NEW",
                        j.w, j.mo, j.mn
                    )
                },
            ),
            // Only NEW's hosts accept it: what they accept widened, every
            // document OLD accepted keeps its meaning (a relaxation, V3).
            Some(j) if !j.old_accepts && j.new_accepts => (
                Class::Relaxation,
                Code::DesiredDefaultFillsRequired,
                format!(
                    "{subject} {what}: hosts that materialize now accept a document that omits it, e.g. {} (refused under OLD, where it materializes as {}) materializes as {} under NEW (a relaxation)",
                    j.w, j.mo, j.mn
                ),
            ),
            // Only OLD's hosts accept it: what they accept narrowed.
            Some(j) if j.old_accepts && !j.new_accepts => (
                Class::Breaking,
                Code::DesiredDefaultChanged,
                format!(
                    "{subject} {what}: hosts that materialize now refuse a document they accepted, e.g. {} materializes as {} under OLD (accepted) and as {} under NEW (refused)",
                    j.w, j.mo, j.mn
                ),
            ),
            // Both sides' hosts refuse every document that omits the
            // member (a required member without a default, or a default
            // its own schema refuses): no change they can observe
            // (breaker2 G6; FD228 warns the author of the refused default).
            _ if judged.as_ref().is_some_and(|j| !j.old_accepts && !j.new_accepts)
                && absence_refused(old, path, x).is_some()
                && absence_refused(new, path, y).is_some() =>
            {
                let why = |s: &Value, site: Option<&Site>| {
                    absence_refused(s, path, site).unwrap_or_default()
                };
                (
                    Class::Documentation,
                    Code::DocumentationChanged,
                    format!(
                        "{subject} {what}: hosts that materialize refuse every document that omits it, under OLD ({}) and under NEW ({}): no change they can observe (documentation)",
                        why(old, x),
                        why(new, y)
                    ),
                )
            }
            // Both accept it as the same document: nothing hosts store
            // changed for it.
            Some(j) if j.old_accepts && j.new_accepts => (
                Class::Documentation,
                Code::DocumentationChanged,
                format!(
                    "{subject} {what}: {} materializes as {} under both (documentation)",
                    j.w, j.mo
                ),
            ),
            _ => (
                Class::Breaking,
                Code::DesiredDefaultChanged,
                format!(
                    "{subject} {what}: a document that omits it may materialize differently; no such document was built (counted as breaking: compatibility not proved)"
                ),
            ),
        };
        // A witness only where hosts make different things of it (one side
        // accepts it): never for a document both refuse (the record is
        // then unproved; the compat differential found FD668 `{}` refused
        // by both).
        let witness = judged
            .as_ref()
            .filter(|j| {
                class != Class::Documentation
                    && (j.old_accepts || j.new_accepts)
                    && (j.old_accepts != j.new_accepts || j.mo != j.mn)
            })
            .and(candidate);
        out.push(Change {
            message,
            valid_under_both: under_both && witness.is_some(),
            witness,
            ..record_as(code, class, po, Some(pn))
        });
    }
    let (c, d) = (never_inserted(old, &a), never_inserted(new, &b));
    let mut nodes: Vec<&String> = c.keys().chain(d.keys()).collect();
    nodes.sort();
    nodes.dedup();
    for node in nodes {
        let (x, y) = (c.get(node).copied(), d.get(node).copied());
        if x == y {
            continue;
        }
        let schema_at = under(node);
        let place = |v: Option<&Value>, schema: &Value| match v {
            Some(_) => Some(schema_at.child("default")),
            None => schema.pointer(node).map(|_| schema_at.clone()),
        };
        let what = match (x, y) {
            (None, Some(y)) => format!("added ({})", shown(y)),
            (Some(x), None) => format!("removed (it was {})", shown(x)),
            (Some(x), Some(y)) => format!("changed from {} to {}", shown(x), shown(y)),
            (None, None) => continue,
        };
        let (po, pn) = (place(x, old), place(y, new));
        out.push(rec(Code::DesiredDefaultNotInserted, po, pn).says(format!(
            "default at {schema_at} {what}: the Core never inserts it (hosts ignore it; a note)"
        )));
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
        ..record_as(Code::RelationChanged, class, located(&o), Some(located(&n)))
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
                ..record(Code::RelationChanged, at.clone(), in_new(&at))
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
                ..record_as(
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
                ..record_as(Code::RelationChanged, class, at.clone(), Some(at.clone()))
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
            ..record_as(Code::RelationChanged, class, at.clone(), Some(at))
        });
    }
    out
}
