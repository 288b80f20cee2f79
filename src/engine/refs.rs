//! Local `$ref`s as the reference's engine compiles them (`verifier-rules.md`
//! §12 E1, §5 F3), before the `jsonschema` crate sees the inline schema.
//!
//! Two differences between the crate and the reference's engine
//! (santhosh-tekuri/jsonschema over Go `net/url`) are closed here:
//!
//! - **Spelling.** The reference splits a `$ref` at its first `#`, decodes
//!   the fragment with Go `url.PathUnescape` and reads it as a JSON Pointer;
//!   the only check on the spelling is the meta-schema's
//!   `format: "uri-reference"` (Go's rule, [`formats::is_uri_reference`]:
//!   a space, `é`, `<`, `{`, `|`, `^`, a backtick, `[`, a second `#`, a
//!   control character all pass; `\` does not). The crate parses `$ref` as a
//!   strict RFC 3986 reference and refuses all of those. So every `$ref` the
//!   crate compiles is handed over with each byte a fragment may not hold
//!   written as `%XX` ([`encode_fragment`]); the crate percent-decodes the
//!   fragment before it splits it, so it lands on the same member.
//! - **Targets.** The reference validates every resource a `$ref` lands on
//!   against the Draft 2020-12 meta-schema unless it is already one of the
//!   document's subschemas. A target inside an unknown keyword (`x-ext`),
//!   `default`, `const`, or a `$defs`/`properties` map itself is therefore
//!   checked; the crate compiles such a target without that check (and drops
//!   an ill-typed keyword in silence). [`survey`] does the check, once per
//!   target, and reports it at the `$ref` member that first reaches it.
//!
//! Hand-rolled because no crate option does either: the crate has no hook
//! for the `$ref` parser nor for validating reference targets.

use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;

use serde_json::Value;

use super::{formats, walk_patterns, CompileError};
use crate::json::pointer::JsonPointer;
use crate::keywords::{self, Shape};
use crate::proof::ref_closure;

/// What [`survey`] found in one inline schema.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    /// Meta-schema refusals the crate would not report, each at the `$ref`
    /// member at fault (pointer relative to the inline schema root).
    pub errors: Vec<CompileError>,
    /// Every `$ref` member the engine compiles (string values), by pointer.
    pub refs: Vec<JsonPointer>,
}

/// Walks the schema positions of `root` (as the reference's engine collects
/// subschemas: every Draft 2020-12 applicator, `$defs`, `definitions`,
/// `dependencies`, `contentSchema`, `additionalItems`), then every `$ref`
/// target transitively, and returns the `$ref` members found and the
/// meta-schema errors of §12 E1 that the crate misses:
///
/// - a `$ref` at a position the meta-schema validates whose value is not a
///   Go `uri-reference` (it contains `\`);
/// - a `$ref` whose target is not a schema position of the document and
///   does not satisfy the Draft 2020-12 meta-schema (or holds a `pattern`
///   Go cannot compile).
///
/// A `$ref` that does not resolve is skipped (the ref-closure proof, FD202,
/// reports it before compilation).
pub(crate) fn survey(root: &Value) -> Survey {
    let mut known: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<Found> = VecDeque::new();
    walk(root, &JsonPointer::root(), true, &mut known, &mut queue);
    let mut out = Survey::default();
    while let Some(found) = queue.pop_front() {
        let Found {
            member,
            reference,
            meta,
        } = found;
        out.refs.push(member.clone());
        if meta && !formats::is_uri_reference(&reference) {
            out.errors.push(CompileError {
                pointer: member,
                message: format!(
                    "{reference:?} is not valid against the Draft 2020-12 meta-schema: \
                     $ref must be a \"uri-reference\" (it contains \\)"
                ),
            });
            continue;
        }
        let Ok(target) = ref_closure::resolve(root, &reference) else {
            continue;
        };
        if known.contains(target.location.as_str()) {
            continue;
        }
        // A new resource for the engine: its subschemas become known, its
        // own `$ref`s are compiled too, and it is validated once.
        walk(target.value, &target.location, true, &mut known, &mut queue);
        let value = target.value;
        if let Err(e) = jsonschema::draft202012::meta::validate(value) {
            let at = e.instance_path().as_str().to_owned();
            out.errors.push(CompileError {
                pointer: member.clone(),
                message: format!(
                    "$ref target {reference:?} (at {}) is not valid against the \
                     Draft 2020-12 meta-schema: at {:?}: {e}",
                    display(&target.location),
                    at
                ),
            });
        }
        let mut bad_patterns = Vec::new();
        walk_patterns(value, &target.location, &mut bad_patterns);
        for p in bad_patterns {
            out.errors.push(CompileError {
                pointer: member.clone(),
                message: format!(
                    "$ref target {reference:?} (at {}) holds {}: {}",
                    display(&target.location),
                    display(&p.pointer),
                    p.message
                ),
            });
        }
    }
    out
}

fn display(p: &JsonPointer) -> &str {
    if p.is_root() {
        "the root"
    } else {
        p.as_str()
    }
}

/// One `$ref` member met by [`walk`].
struct Found {
    member: JsonPointer,
    reference: String,
    /// True when the meta-schema validates this position (false under
    /// `additionalItems`, which Draft 2020-12 does not know).
    meta: bool,
}

/// Records every schema position under `node` (at `at`) in `known` and
/// queues each string `$ref` member met.
fn walk(
    node: &Value,
    at: &JsonPointer,
    meta: bool,
    known: &mut HashSet<String>,
    queue: &mut VecDeque<Found>,
) {
    if !known.insert(at.as_str().to_owned()) {
        return;
    }
    let Value::Object(map) = node else {
        return;
    };
    if let Some(Value::String(reference)) = map.get("$ref") {
        queue.push_back(Found {
            member: at.child("$ref"),
            reference: reference.clone(),
            meta,
        });
    }
    for (k, v) in map {
        let here = at.child(k);
        let shape = match k.as_str() {
            "contentSchema" => Some(Shape::Single),
            "dependencies" => Some(Shape::Map),
            other => keywords::shape(other),
        };
        let meta = meta && k != keywords::LEGACY_SINGLE;
        match shape {
            Some(Shape::Single) => walk(v, &here, meta, known, queue),
            Some(Shape::Map) => {
                if let Value::Object(m) = v {
                    for (name, sub) in m {
                        // `dependencies` also maps names to string arrays.
                        if k == "dependencies" && !(sub.is_object() || sub.is_boolean()) {
                            continue;
                        }
                        walk(sub, &here.child(name), meta, known, queue);
                    }
                }
            }
            Some(Shape::Array) => {
                if let Value::Array(items) = v {
                    for (i, sub) in items.iter().enumerate() {
                        walk(sub, &here.index(i), meta, known, queue);
                    }
                }
            }
            None => {}
        }
    }
}

/// `reference` with every byte an RFC 3986 fragment may not hold written
/// as `%XX` (upper-case hex); the leading `#` and every `%` are kept (a
/// well-formed escape stays one; a malformed one was refused by the
/// ref-closure proof, F3, and the crate refuses it too). Percent-decoding
/// the result gives back the bytes of `reference`.
pub(crate) fn encode_fragment(reference: &str) -> String {
    let mut out = String::with_capacity(reference.len());
    for (i, b) in reference.bytes().enumerate() {
        let keep = (i == 0 && b == b'#')
            || b.is_ascii_alphanumeric()
            || b"-._~!$&'()*+,;=:@/?%".contains(&b);
        if keep {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Replaces each `$ref` member of `refs` in `schema` by its
/// [`encode_fragment`] spelling (the copy handed to the crate).
pub(crate) fn encode_refs(schema: &mut Value, refs: &[JsonPointer]) {
    for member in refs {
        if let Some(Value::String(s)) = schema.pointer_mut(member.as_str()) {
            let encoded = encode_fragment(s);
            if encoded != *s {
                *s = encoded;
            }
        }
    }
}
