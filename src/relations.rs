//! Relation derivation and instance resolution (decision 0015 rules 1, 2
//! and 8; `verifier-rules.md` §8).
//!
//! [`derive()`] walks a Form Definition's `desiredSchema` the way a host does
//! (§8.3: only `properties` and object `items`), recognises references by
//! shape (§8.2), reads their target contracts (§8.4) and emits one
//! [`Relation`] per reference (§8.5). Package verification does not derive
//! relations (§8.1, `current-profile.md` §9), so every problem found here is
//! a warning (codes `FD500`–`FD507`, `FD509`) or, for historical edge `v1alpha1`
//! definitions without target contracts, a note (`FD508`). [`resolve`] finds
//! the concrete instances of relations in a desired document (§8.6).
//!
//! Pure: no I/O, no printing.

use crate::diag::escape::quote;
use crate::json::Members;
use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::member;
use crate::json::pointer::{escape, unescape, JsonPointer};
use crate::keywords::{ARRAY, MAP, SINGLE};

/// Maximum walk depth (`verifier-rules.md` §8.3 step 1).
pub const MAX_DEPTH: usize = crate::limits::RELATION_DEPTH;

/// The definition `apiVersion` whose references predate target contracts
/// (`verifier-rules.md` §8.1).
pub const EDGE_V1ALPHA1: &str = "edge.forms.takoform.com/v1alpha1";

pub use crate::summary::{Instance, Relation};

/// The result of [`derive()`]: relations sorted by pointer (byte-wise) and the
/// warnings/notes found on the way, pointing into `definition.json`.
#[derive(Clone, Debug, Default)]
pub struct Derivation {
    /// Derived relations, sorted by `pointer`.
    pub relations: Vec<Relation>,
    /// Findings (warnings `FD500`–`FD507` and `FD509`, note `FD508`); the file
    /// is not set.
    pub diagnostics: Vec<Diagnostic>,
}

/// The properties of `o` that look like a reference: `type` `"object"`,
/// `additionalProperties` `false`, exactly 3 properties, `required` sorted
/// exactly `apiVersion kind name`, and `properties.name` present.
/// Returns the `properties` map. (`verifier-rules.md` §8.2 minus the const
/// test.)
fn reference_like(o: &Map<String, Value>) -> Option<&Map<String, Value>> {
    if o.member("type").and_then(Value::as_str) != Some("object")
        || o.member("additionalProperties") != Some(&Value::Bool(false))
    {
        return None;
    }
    let props = o.member("properties")?.as_object()?;
    if props.len() != 3 || !props.has("name") {
        return None;
    }
    o.member("required")?.as_array()?;
    let mut required = required_names(o);
    required.sort_unstable();
    (required == ["apiVersion", "kind", "name"]).then_some(props)
}

/// The names of `o`'s `required` list as the reference's helper reads it:
/// every entry when all are strings; an empty list when `required` is
/// absent, not an array, or holds any non-string entry (`verifier-rules.md`
/// §8.2, §8.3 step 4: such a list marks no child required).
fn required_names(o: &Map<String, Value>) -> Vec<&str> {
    o.member("required")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
        .unwrap_or_default()
}

fn non_empty_const(v: Option<&Value>) -> Option<&str> {
    v?.as_object()?
        .member("const")?
        .as_str()
        .filter(|s| !s.is_empty())
}

/// The `(apiVersion, kind)` consts when `o` is a reference
/// (`verifier-rules.md` §8.2).
fn reference_identity(o: &Map<String, Value>) -> Option<(&str, &str)> {
    let props = reference_like(o)?;
    Some((
        non_empty_const(props.member("apiVersion"))?,
        non_empty_const(props.member("kind"))?,
    ))
}

fn non_empty_str<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.member(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

struct Walk<'d> {
    history: bool,
    accepted: HashSet<&'d str>,
    relations: Vec<Relation>,
    diagnostics: Vec<Diagnostic>,
    reported_bindings: HashSet<String>,
}

/// The binding in effect: contract name and the schema pointer of the
/// annotation.
type Binding = Option<(String, JsonPointer)>;

/// Where the walk of the desired schema stands: a schema node, the
/// instance pointer it describes (`/spec/backends/*/service`), its own
/// pointer in the definition, the binding in force there and whether it
/// is required at every level above.
#[derive(Clone, Copy)]
struct Site<'s> {
    node: &'s Map<String, Value>,
    pointer: &'s str,
    schema_ptr: &'s JsonPointer,
    binding: &'s Binding,
    required: bool,
}

fn binding_of(node: &Map<String, Value>, schema_ptr: &JsonPointer, inherited: &Binding) -> Binding {
    match node.member("x-takoform-binding").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => {
            Some((name.to_owned(), schema_ptr.child("x-takoform-binding")))
        }
        _ => inherited.clone(),
    }
}

impl Walk<'_> {
    fn warn(&mut self, code: Code, msg: String, at: JsonPointer) {
        self.diagnostics.push(Diagnostic::new(code, msg).at(at));
    }

    /// FD509: every complete target FormRef of `list` (at `at`) names the
    /// reference's own `apiVersion` and `kind` consts, since a host installs
    /// the relation only to a Form of exactly that group and kind
    /// (`verifier-rules.md` §8.7; `current-profile.md` §7.2). The relation
    /// is still derived, as the reference derives it.
    fn target_identities(
        &mut self,
        list: &[Value],
        pointer: &str,
        at: &JsonPointer,
        api: &str,
        kind: &str,
    ) {
        for (i, r) in list.iter().enumerate() {
            let member = |k: &str| r.member(k).and_then(Value::as_str).unwrap_or_default();
            let (target_api, target_kind) = (member("apiVersion"), member("kind"));
            if target_api == api && target_kind == kind {
                continue;
            }
            let field = if target_api == api {
                "kind"
            } else {
                "apiVersion"
            };
            self.warn(
                Code::TargetFormRefIdentity,
                format!("reference {pointer} lists target Form {} {}, but its own apiVersion and kind consts are {} {}: no target can satisfy it", quote(target_api), quote(target_kind), quote(api), quote(kind)),
                at.index(i).child(field),
            );
        }
    }

    fn node(&mut self, at: Site<'_>, depth: usize) {
        let Site {
            node,
            pointer,
            schema_ptr,
            binding,
            required,
        } = at;
        if depth > MAX_DEPTH {
            self.warn(
                Code::RelationDepth,
                format!(
                    "relation derivation exceeded depth {MAX_DEPTH} at {}",
                    quote(pointer)
                ),
                schema_ptr.clone(),
            );
            return;
        }
        if let Some(props) = reference_like(node) {
            match (
                non_empty_const(props.member("apiVersion")),
                non_empty_const(props.member("kind")),
            ) {
                (Some(api), Some(kind)) => {
                    if pointer.is_empty() {
                        self.warn(
                            Code::RelationAtRoot,
                            "relation derivation found a reference at the desired-state root"
                                .to_owned(),
                            schema_ptr.clone(),
                        );
                    } else {
                        self.reference(at, api, kind);
                    }
                    return;
                }
                _ => {
                    // Name the member(s) without a non-empty string const and
                    // point at the first one's schema (the node when absent).
                    let missing: Vec<&str> = ["apiVersion", "kind"]
                        .into_iter()
                        .filter(|m| non_empty_const(props.get(*m)).is_none())
                        .collect();
                    let at = missing.first().filter(|m| props.has(m)).map_or_else(
                        || schema_ptr.clone(),
                        |m| schema_ptr.child("properties").child(m),
                    );
                    self.warn(
                        Code::NonConstReferenceIdentity,
                        format!("reference-shaped object {} has no non-empty string const {}, so it is not a relation", quote(pointer), missing.join(" or ")),
                        at,
                    );
                }
            }
        }
        if let Some(items) = node.member("items").and_then(Value::as_object) {
            self.node(
                Site {
                    node: items,
                    pointer: &format!("{pointer}/*"),
                    schema_ptr: &schema_ptr.child("items"),
                    binding: &binding_of(node, schema_ptr, binding),
                    required,
                },
                depth + 1,
            );
        }
        if let Some(props) = node.member("properties").and_then(Value::as_object) {
            let req = required_names(node);
            let mut names: Vec<&String> = props.keys().collect();
            names.sort_unstable();
            for name in names {
                let Some(child) = props.member(name).and_then(Value::as_object) else {
                    continue;
                };
                let child_ptr = schema_ptr.child("properties").child(name);
                self.node(
                    Site {
                        node: child,
                        pointer: &format!("{pointer}/{}", escape(name)),
                        schema_ptr: &child_ptr,
                        binding: &binding_of(child, &child_ptr, binding),
                        required: required && req.contains(&name.as_str()),
                    },
                    depth + 1,
                );
            }
        }
    }

    fn reference(&mut self, site: Site<'_>, api: &str, kind: &str) {
        let (node, pointer, schema_ptr) = (site.node, site.pointer, site.schema_ptr);
        let refs = node.member("x-takoform-target-formrefs");
        let iface = node.member("x-takoform-required-interface");
        let mut relation = Relation {
            pointer: pointer.to_owned(),
            target_api_version: api.to_owned(),
            target_kind: kind.to_owned(),
            binding: site
                .binding
                .as_ref()
                .map(|b| b.0.clone())
                .unwrap_or_default(),
            required: site.required,
            target_form_refs: None,
            required_interface: None,
        };
        if refs.is_some() && iface.is_some() {
            self.warn(
                Code::ConflictingTargetContracts,
                format!("reference {pointer} carries both x-takoform-target-formrefs and x-takoform-required-interface"),
                schema_ptr.clone(),
            );
        }
        if let Some(refs) = refs {
            let at = schema_ptr.child("x-takoform-target-formrefs");
            match refs.as_array().filter(|a| !a.is_empty()) {
                None => self.warn(
                    Code::MalformedTargetContract,
                    format!(
                        "reference {pointer} has an empty or malformed x-takoform-target-formrefs"
                    ),
                    at,
                ),
                Some(list) => {
                    let mut complete = true;
                    for (i, r) in list.iter().enumerate() {
                        let ok = r.as_object().is_some_and(|o| {
                            ["apiVersion", "kind", "definitionVersion", "schemaDigest"]
                                .iter()
                                .all(|k| non_empty_str(o, k).is_some())
                        });
                        if !ok {
                            complete = false;
                            self.warn(
                                Code::MalformedTargetContract,
                                format!("reference {pointer} lists an incomplete target Form identity; all four members are required"),
                                at.index(i),
                            );
                        }
                    }
                    if complete {
                        self.target_identities(list, pointer, &at, api, kind);
                        relation.target_form_refs = Some(list.clone());
                    }
                }
            }
        }
        if let Some(iface) = iface {
            let at = schema_ptr.child("x-takoform-required-interface");
            match iface.as_object() {
                None => self.warn(
                    Code::MalformedTargetContract,
                    format!(
                        "reference {pointer} carries a malformed x-takoform-required-interface"
                    ),
                    at,
                ),
                Some(o) => {
                    if ["apiVersion", "name", "version", "schemaDigest"]
                        .iter()
                        .all(|k| non_empty_str(o, k).is_some())
                    {
                        relation.required_interface = Some(iface.clone());
                    } else {
                        self.warn(
                            Code::MalformedTargetContract,
                            format!("reference {pointer} names an incomplete required Interface; all four members are required"),
                            at,
                        );
                    }
                }
            }
        }
        if refs.is_none() && iface.is_none() {
            let (code, message) = if self.history {
                (
                    Code::EdgeReferenceWithoutContract,
                    format!("reference {pointer} states no target contract (edge v1alpha1 predates target contracts)"),
                )
            } else {
                (
                    Code::MissingTargetContract,
                    format!("reference {pointer} states no target contract"),
                )
            };
            self.warn(code, message, schema_ptr.clone());
        }
        if let Some((name, at)) = site.binding {
            if !self.accepted.contains(name.as_str())
                && self.reported_bindings.insert(at.as_str().to_owned())
            {
                self.warn(
                    Code::BindingNotAccepted,
                    format!(
                        "x-takoform-binding {} names a contract absent from acceptedBindings",
                        quote(name)
                    ),
                    at.clone(),
                );
            }
        }
        self.relations.push(relation);
    }
}

/// Finds reference-shaped objects that only non-walked keywords reach
/// (decision 0015 rule 2: hosts enforce only what they derive).
/// `hidden_by` is the first non-walked keyword on the path.
/// `one_of_walked`: the current profile's pointer-set walk follows `oneOf`
/// branches (`current-profile.md` §9: that is how a reviewed tagged-union
/// `target` becomes relations), so there `oneOf` hides nothing.
fn hidden(
    v: &Value,
    ptr: &JsonPointer,
    hidden_by: Option<&str>,
    one_of_walked: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(o) = v.as_object() else {
        return;
    };
    if let (Some(kw), Some((api, kind))) = (hidden_by, reference_identity(o)) {
        out.push(
            Diagnostic::new(
                Code::HiddenReference,
                format!("reference to {api} {kind} is reachable only through {kw}, which hosts never walk"),
            )
            .at(ptr.clone())
            .help("declare the reference directly under properties/items so hosts resolve and protect it"),
        );
    }
    // Subschemas a host never walks (`verifier-rules.md` §8.3 "Not
    // traversed"): every keyword of the keyword model but `propertyNames`
    // (names are strings, never references).
    for kw in MAP {
        if let Some(m) = member(o, kw).and_then(Value::as_object) {
            let via = hidden_by.or((kw != "properties").then_some(kw));
            for (name, child) in m {
                hidden(child, &ptr.child(kw).child(name), via, one_of_walked, out);
            }
        }
    }
    for kw in ARRAY {
        if let Some(a) = member(o, kw).and_then(Value::as_array) {
            for (i, child) in a.iter().enumerate() {
                let via = if one_of_walked && kw == "oneOf" {
                    hidden_by
                } else {
                    hidden_by.or(Some(kw))
                };
                hidden(child, &ptr.child(kw).index(i), via, one_of_walked, out);
            }
        }
    }
    for kw in SINGLE.into_iter().filter(|k| *k != "propertyNames") {
        if let Some(child) = member(o, kw) {
            let via = hidden_by.or((kw != "items").then_some(kw));
            hidden(child, &ptr.child(kw), via, one_of_walked, out);
        }
    }
}

/// Derives the relations of a Form Definition (decision 0015 rule 2,
/// `verifier-rules.md` §8.2–§8.5) and reports what would make a host refuse
/// or silently ignore them, as warnings with pointers into `definition.json`:
/// `FD500` reference at the desired root, `FD501` depth > 32, `FD502` no
/// target contract (`FD508` note instead for `edge.forms.takoform.com/v1alpha1`
/// definitions, §8.1), `FD503` both contracts, `FD504` malformed contract,
/// `FD505` `x-takoform-binding` absent from `acceptedBindings` by name
/// (rule 8 step 1), `FD506` reference-shaped object without const
/// `apiVersion`/`kind`, `FD507` reference reachable only through `$ref`
/// targets, `$defs`, `allOf`/`anyOf`/`oneOf`, `additionalProperties`,
/// `prefixItems` or other keywords hosts do not walk, `FD509` a target
/// FormRef of another group or kind than the reference's consts.
///
/// A definition without an object `desiredSchema` derives nothing. Relations
/// whose contract is malformed are still listed, without that contract.
pub fn derive(definition: &Value) -> Derivation {
    let Some(desired) = definition
        .member("desiredSchema")
        .and_then(Value::as_object)
    else {
        return Derivation::default();
    };
    let accepted = definition
        .member("acceptedBindings")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|b| b.member("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    let mut walk = Walk {
        history: definition.member("apiVersion").and_then(Value::as_str) == Some(EDGE_V1ALPHA1),
        accepted,
        relations: Vec::new(),
        diagnostics: Vec::new(),
        reported_bindings: HashSet::new(),
    };
    let root = JsonPointer::root().child("desiredSchema");
    let top = Site {
        node: desired,
        pointer: "",
        schema_ptr: &root,
        binding: &None,
        required: true,
    };
    walk.node(top, 0);
    let mut diagnostics = walk.diagnostics;
    if let Some(root_value) = definition.member("desiredSchema") {
        let versionless = definition
            .member("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(|a| !a.contains('/'));
        hidden(root_value, &root, None, versionless, &mut diagnostics);
    }
    let mut relations = walk.relations;
    relations.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    Derivation {
        relations,
        diagnostics,
    }
}

fn resolve_at(
    value: &Value,
    tokens: &[&str],
    concrete: &JsonPointer,
    relation: &str,
    out: &mut Vec<Instance>,
) {
    let Some((first, rest)) = tokens.split_first() else {
        if let Some(name) = value
            .as_object()
            .and_then(|o| o.member("name"))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            out.push(Instance {
                relation: relation.to_owned(),
                pointer: concrete.as_str().to_owned(),
                name: name.to_owned(),
            });
        }
        return;
    };
    if *first == "*" {
        if let Some(a) = value.as_array() {
            for (i, el) in a.iter().enumerate() {
                resolve_at(el, rest, &concrete.index(i), relation, out);
            }
        }
    } else if let Some(child) = value.as_object().and_then(|o| o.get(&unescape(first))) {
        let p = JsonPointer::from(format!("{}/{first}", concrete.as_str()).as_str());
        resolve_at(child, rest, &p, relation, out);
    }
}

/// Resolves relation instances in a desired document (`verifier-rules.md`
/// §8.6): each pointer is split on `/`, `*` fans out over array elements,
/// other tokens are unescaped and looked up; a missing member or a type
/// mismatch yields nothing; the leaf must be an object with a non-empty
/// string `name`. Instances are sorted by concrete pointer (byte-wise).
pub fn resolve(relations: &[Relation], desired: &Value) -> Vec<Instance> {
    let mut out = Vec::new();
    for r in relations {
        let tokens: Vec<&str> = if r.pointer.is_empty() {
            Vec::new()
        } else {
            r.pointer[1..].split('/').collect()
        };
        resolve_at(desired, &tokens, &JsonPointer::root(), &r.pointer, &mut out);
    }
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    out
}

#[cfg(test)]
mod tests;
