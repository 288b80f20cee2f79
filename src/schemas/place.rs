//! What a published schema says about one place in a document: the
//! members the object there admits, whether an inline JSON Schema starts
//! there, whether the value is a package path, the strings it may be.
//!
//! The language server's completion (issue 24 item 5) reads this for every
//! position that is not inside an inline schema: the Form Definition's own
//! members, its fixture lists, the package index, a Binding or Interface
//! Definition. It walks the embedded published schemas ([`super::PUBLISHED`],
//! the same bytes `verify` validates against) by `properties`, `items`,
//! `additionalProperties` and `$ref` (local and to another embedded
//! schema), through `allOf`/`anyOf`/`oneOf` and `then`/`else` branches.
//! Nothing here is a copy of a schema.

use std::sync::LazyLock;

use serde_json::Value;

use super::{SchemaRef, PUBLISHED};
use crate::json::pointer::JsonPointer;

/// One member an object admits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The member name, exactly.
    pub name: String,
    /// Whether the schema lists it in `required`.
    pub required: bool,
    /// The schema's `description` of the member (its first, through
    /// `$ref`s), if it has one.
    pub description: Option<String>,
    /// The member's value in a few words: `string`, `array`,
    /// `"identity" | "revision" | …`, `package path`.
    pub shape: String,
}

/// What a published schema says about the instance at a pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// The members the object there admits, in the schema's order, each
    /// once (empty when the schema describes no object there).
    pub members: Vec<Member>,
    /// `Some(n)`: the first `n` tokens of the pointer lead to an inline
    /// JSON Schema (a node whose `properties` hold `$schema`: the envelope
    /// of `verifier-rules.md` §3.2, `#/$defs/jsonSchema`); the tokens after
    /// them are inside it, where the published schema says nothing more
    /// and this profile's keywords apply ([`crate::keywords::ADMITTED`]).
    pub inline_schema: Option<usize>,
    /// The value there is a package path (`#/$defs/packagePath`: the path
    /// grammar of `verifier-rules.md` §1.5 R1.13).
    pub package_path: bool,
    /// The strings the value may be (`enum`, `const`), in order, each once.
    pub values: Vec<String>,
}

/// Every embedded published schema, parsed once (`None`: one that does
/// not parse, which the schema tests rule out).
static PARSED: LazyLock<Vec<(&'static str, Option<Value>)>> = LazyLock::new(|| {
    PUBLISHED
        .iter()
        .map(|p| (p.id, serde_json::from_str(p.text).ok()))
        .collect()
});

/// A schema node and the `$id` of the document holding it (`""` for an
/// inline schema).
type Node<'a> = (&'a str, &'a Value);

/// Resolves a `$ref` found in the document of the given `$id`.
type Resolver<'a> = dyn Fn(&'a str, &str) -> Option<Node<'a>> + 'a;

/// The most schema nodes one step of the walk looks at (the published
/// schemas need a few dozen; a bound keeps a bad `$ref` from looping).
const MAX_NODES: usize = 512;

fn document(id: &str) -> Option<Node<'static>> {
    PARSED
        .iter()
        .find(|(i, _)| *i == id)
        .and_then(|(i, v)| v.as_ref().map(|v| (*i, v)))
}

/// The target of `$ref` `r` in the document `base`: a fragment of the
/// same document, or another embedded schema by absolute or relative URI.
fn resolve(base: &'static str, r: &str) -> Option<Node<'static>> {
    let (doc, fragment) = r.split_once('#').unwrap_or((r, ""));
    let id = if doc.is_empty() {
        base.to_owned()
    } else if doc.contains("://") {
        doc.to_owned()
    } else {
        let dir = base.rsplit_once('/').map_or("", |(d, _)| d);
        format!("{dir}/{doc}")
    };
    let (id, root) = document(&id)?;
    let target = JsonPointer::parse(fragment)?.resolve(root)?;
    Some((id, target))
}

/// `start` and every node it stands for: its `$ref` targets and its
/// `allOf`/`anyOf`/`oneOf` branches and `then`/`else` subschemas,
/// transitively, each once. Sets `package_path` when a `$ref` names the
/// `packagePath` definition.
fn expand<'a>(
    start: &[Node<'a>],
    resolve: &Resolver<'a>,
    package_path: &mut bool,
) -> Vec<Node<'a>> {
    let mut out: Vec<Node<'a>> = Vec::new();
    let mut todo: Vec<Node<'a>> = start.to_vec();
    while let Some(node) = todo.pop() {
        if out.len() >= MAX_NODES || out.iter().any(|n| std::ptr::eq(n.1, node.1)) {
            continue;
        }
        let (doc, value) = node;
        let Some(obj) = value.as_object() else {
            continue;
        };
        out.push(node);
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            *package_path |= r.ends_with("/$defs/packagePath");
            todo.extend(resolve(doc, r));
        }
        for k in ["allOf", "anyOf", "oneOf"] {
            if let Some(branches) = obj.get(k).and_then(Value::as_array) {
                todo.extend(branches.iter().rev().map(|b| (doc, b)));
            }
        }
        for k in ["then", "else"] {
            todo.extend(obj.get(k).map(|b| (doc, b)));
        }
    }
    out
}

/// Whether a node is an inline-schema envelope (its `properties` hold
/// `$schema`).
fn is_envelope(node: &Node<'_>) -> bool {
    node.1
        .get("properties")
        .and_then(|p| p.get("$schema"))
        .is_some()
}

/// The value of a member in a few words, from its (expanded) schema nodes.
fn shape(nodes: &[Node<'_>], package_path: bool) -> String {
    if package_path {
        return "package path".to_owned();
    }
    let values = strings(nodes);
    if !values.is_empty() {
        let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
        return quoted.join(" | ");
    }
    if nodes.iter().any(is_envelope) {
        return "inline JSON Schema (Draft 2020-12)".to_owned();
    }
    let types: Vec<&str> = nodes
        .iter()
        .filter_map(|n| n.1.get("type"))
        .flat_map(|t| match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    match types.first() {
        Some(t) => (*t).to_owned(),
        None => "any JSON value".to_owned(),
    }
}

/// The strings of the `enum`s and `const`s of `nodes`, each once.
fn strings(nodes: &[Node<'_>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, n) in nodes {
        let listed = n
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for v in listed.chain(n.get("const")).filter_map(Value::as_str) {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_owned());
            }
        }
    }
    out
}

/// What `schema` says about the instance at `tokens` (a JSON Pointer's
/// decoded tokens from the document root). `None` when the schema
/// describes nothing there (a member it does not declare, an embedded
/// schema that is missing).
///
/// At each token the nodes are expanded (`expand`); a node's
/// `properties` member of that name is followed, else, for an array
/// index, its object `items`, else its object `additionalProperties`.
pub fn place(schema: SchemaRef, tokens: &[String]) -> Option<Place> {
    let id = schema.id();
    walk(document(&id)?, tokens, &resolve, true)
}

/// What the inline schema `schema` (a definition's desired, observed or
/// output schema) says about the instance at `tokens` (a fixture
/// document's pointer tokens): the same walk as [`place`], its local
/// `$ref`s resolved as the proofs resolve them
/// ([`crate::proof::ref_closure::resolve`], `verifier-rules.md` §5 F3).
/// `None` where the schema declares nothing.
pub fn inline_place(schema: &Value, tokens: &[String]) -> Option<Place> {
    let local = |_: &str, r: &str| {
        crate::proof::ref_closure::resolve(schema, r)
            .ok()
            .map(|t| ("", t.value))
    };
    walk(("", schema), tokens, &local, false)
}

/// The walk of [`place`] from `root`; `envelopes`: stop where an inline
/// schema starts.
fn walk<'a>(
    root: Node<'a>,
    tokens: &[String],
    resolve: &Resolver<'a>,
    envelopes: bool,
) -> Option<Place> {
    let mut frontier = vec![root];
    let mut package_path = false;
    for (i, t) in tokens.iter().enumerate() {
        let nodes = expand(&frontier, resolve, &mut package_path);
        if envelopes && nodes.iter().any(is_envelope) {
            return Some(Place {
                inline_schema: Some(i),
                ..Place::default()
            });
        }
        let index = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let mut next = Vec::new();
        for (doc, n) in nodes {
            if let Some(child) = n.get("properties").and_then(|p| p.get(t)) {
                next.push((doc, child));
            } else if let Some(items) = n.get("items").filter(|i| index && i.is_object()) {
                next.push((doc, items));
            } else if let Some(more) = n.get("additionalProperties").filter(|a| a.is_object()) {
                next.push((doc, more));
            }
        }
        if next.is_empty() {
            return None;
        }
        frontier = next;
        package_path = false;
    }
    let nodes = expand(&frontier, resolve, &mut package_path);
    if envelopes && nodes.iter().any(is_envelope) {
        return Some(Place {
            inline_schema: Some(tokens.len()),
            ..Place::default()
        });
    }
    let mut members: Vec<Member> = Vec::new();
    for (doc, n) in &nodes {
        let required = |name: &str| {
            n.get("required")
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(name)))
        };
        let Some(props) = n.get("properties").and_then(Value::as_object) else {
            continue;
        };
        for (name, child) in props {
            if let Some(m) = members.iter_mut().find(|m| &m.name == name) {
                m.required |= required(name);
                continue;
            }
            let mut path = false;
            let of = expand(&[(*doc, child)], resolve, &mut path);
            let description = of
                .iter()
                .find_map(|n| n.1.get("description").and_then(Value::as_str))
                .map(str::to_owned);
            members.push(Member {
                name: name.clone(),
                required: required(name),
                description,
                shape: shape(&of, path),
            });
        }
    }
    Some(Place {
        members,
        inline_schema: None,
        package_path,
        values: strings(&nodes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(p: &str) -> Vec<String> {
        JsonPointer::from(p).tokens()
    }

    #[test]
    fn the_definition_schema_names_its_members_and_inline_schemas() {
        let v1 = SchemaRef::Definition("v1");
        let root = place(v1, &[]).unwrap();
        let names: Vec<&str> = root.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names.first(), Some(&"apiVersion"));
        for n in [
            "desiredSchema",
            "immutableFields",
            "conformanceFixtures",
            "constraints",
        ] {
            assert!(names.contains(&n), "{n}: {names:?}");
        }
        let role = root.members.iter().find(|m| m.name == "role").unwrap();
        assert!(role.required);
        assert!(
            role.shape.starts_with("\"identity\" | \"revision\""),
            "{role:?}"
        );
        assert!(role
            .description
            .as_deref()
            .unwrap()
            .contains("Closed resource role"));
        let desc = root
            .members
            .iter()
            .find(|m| m.name == "description")
            .unwrap();
        assert!(!desc.required);
        // Inside an inline schema the published schema stops.
        let inside = place(v1, &t("/desiredSchema/properties/a")).unwrap();
        assert_eq!(inside.inline_schema, Some(1));
        assert!(inside.members.is_empty());
        // A fixture entry through `items`, its paths through `$ref`.
        let fixture = place(v1, &t("/conformanceFixtures/0")).unwrap();
        let names: Vec<&str> = fixture.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["name", "desiredPath", "observedPath", "outputPath"]);
        assert!(
            place(v1, &t("/conformanceFixtures/0/desiredPath"))
                .unwrap()
                .package_path
        );
        // A constraint: the members of every variant of the `oneOf`.
        let c = place(v1, &t("/constraints/0")).unwrap();
        assert!(c.members.iter().any(|m| m.name == "references"));
        assert!(c.values.is_empty());
        assert_eq!(
            place(v1, &t("/role"))
                .unwrap()
                .values
                .first()
                .map(String::as_str),
            Some("identity")
        );
        // The index: formRef's members come from the FormRef schema it
        // references by URI.
        let f = place(SchemaRef::Index("v1alpha5"), &t("/formRef")).unwrap();
        assert!(f.members.iter().any(|m| m.name == "schemaDigest"), "{f:?}");
        assert!(
            place(SchemaRef::Index("v1alpha5"), &t("/files/0/path"))
                .unwrap()
                .package_path
        );
        // Near misses: a member the schema does not declare, a title.
        assert_eq!(place(v1, &t("/nope")), None);
        let title = place(v1, &t("/title")).unwrap();
        assert!(!title.package_path && title.values.is_empty() && title.members.is_empty());
    }
}
