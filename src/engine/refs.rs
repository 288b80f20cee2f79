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
//!   target, with the generated meta-schema validator
//!   ([`schemas::check_meta`]; the crate's is its test oracle), and reports
//!   it at the `$ref` member that first reaches it.
//!
//! Hand-rolled because no crate option does either: the crate has no hook
//! for the `$ref` parser nor for validating reference targets.

use crate::diag::escape::quote;
use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;

use serde_json::Value;

use super::CompileError;
use crate::formats;
use crate::json::pointer::JsonPointer;
use crate::keywords::{self, Shape};
use crate::proof::ref_closure;
use crate::schemas;

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
///   does not satisfy the Draft 2020-12 meta-schema (a `pattern` Go cannot
///   compile there is refused by the crate's compile of the target, at the
///   `pattern` member).
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
                    "{} is not valid against the Draft 2020-12 meta-schema: \
                     $ref must be a \"uri-reference\" (it contains \\)",
                    quote(&reference)
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
        // The generated meta-schema validator (issue 38): the crate's own
        // runs only inside its compile, never a second time here.
        if let Err(e) = schemas::check_meta(target.value) {
            out.errors.push(CompileError {
                pointer: member.clone(),
                message: format!(
                    "$ref target {} (at {}) is not valid against the \
                     Draft 2020-12 meta-schema: at {}: {}",
                    quote(&reference),
                    display(&target.location),
                    quote(&e.instance_path),
                    e.message
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
    if let Some(Value::String(reference)) = crate::json::member(map, "$ref") {
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
/// [`encode_fragment`] spelling (the copy handed to the crate; `schema` is
/// copied only when a `$ref` changes).
pub(crate) fn encode_refs(schema: &mut std::borrow::Cow<'_, Value>, refs: &[JsonPointer]) {
    for member in refs {
        let Some(Value::String(s)) = schema.pointer(member.as_str()) else {
            continue;
        };
        let encoded = encode_fragment(s);
        if encoded != *s {
            // Copied on the first `$ref` that changes (issue 38).
            if let Some(Value::String(s)) = schema.to_mut().pointer_mut(member.as_str()) {
                *s = encoded;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{compile, DRAFT_2020_12};
    use serde_json::json;

    /// `{"$defs": {NAME: {"type": "string", "minLength": 2}}, "$ref": REF}`
    /// as an inline schema.
    fn named(name: &str, reference: &str) -> Value {
        json!({
            "$schema": DRAFT_2020_12,
            "$defs": {name: {"type": "string", "minLength": 2}},
            "$ref": reference,
        })
    }

    /// `$ref` spellings × verdict, as the reference decides them
    /// (`form-package-reference verify` on a package whose `desiredSchema`
    /// holds the same `$defs` name and `$ref`, 2026-12-01).
    #[test]
    fn ref_spellings_decided_as_the_reference() {
        // (name in $defs, $ref, the reference compiles it)
        let table: &[(&str, &str, bool)] = &[
            ("a b", "#/$defs/a b", true),
            ("é", "#/$defs/é", true),
            ("😀", "#/$defs/😀", true),
            ("a<b", "#/$defs/a<b", true),
            ("a{b", "#/$defs/a{b", true),
            ("a|b", "#/$defs/a|b", true),
            ("a^b", "#/$defs/a^b", true),
            ("a`b", "#/$defs/a`b", true),
            ("a[b", "#/$defs/a[b", true),
            ("a#b", "#/$defs/a#b", true),
            ("a\"b", "#/$defs/a\"b", true),
            ("a\u{1}b", "#/$defs/a\u{1}b", true),
            ("a\tb", "#/$defs/a\tb", true),
            ("a\nb", "#/$defs/a\nb", true),
            ("a\u{7f}b", "#/$defs/a\u{7f}b", true),
            ("a%b", "#/$defs/a%25b", true),
            ("a b", "#/$defs/a%20b", true),
            ("a/b", "#/$defs/a~1b", true),
            ("a?b", "#/$defs/a?b", true),
            ("a\\b", "#/$defs/a\\b", false),
        ];
        for &(name, reference, accepted) in table {
            let got = compile(&named(name, reference));
            assert_eq!(got.is_ok(), accepted, "{reference:?}: {got:?}");
            match got {
                Ok(c) => {
                    // The `$ref` lands on the named schema: its minLength
                    // applies.
                    assert!(c.is_valid(&json!("ab")), "{reference:?}");
                    assert!(!c.is_valid(&json!("a")), "{reference:?}");
                    assert!(!c.is_valid(&json!(5)), "{reference:?}");
                }
                Err(errors) => {
                    assert_eq!(errors.len(), 1, "{errors:?}");
                    assert_eq!(errors[0].pointer.as_str(), "/$ref");
                    assert!(errors[0].message.contains("uri-reference"), "{errors:?}");
                }
            }
        }
    }

    /// Percent-decodes `%XX` (test helper; the input is well formed).
    fn decode(s: &str) -> String {
        let mut out = Vec::new();
        let mut bytes = s.bytes();
        while let Some(b) = bytes.next() {
            if b == b'%' {
                let hex: String = bytes.by_ref().take(2).map(char::from).collect();
                out.push(u8::from_str_radix(&hex, 16).expect("hex"));
            } else {
                out.push(b);
            }
        }
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn encoded_fragments_decode_to_the_same_bytes() {
        for r in [
            "#/$defs/a b",
            "#/é/😀",
            "#/a#b",
            "#/a%25b",
            "#/x\u{1}\"<>[]{}|^`",
        ] {
            let e = encode_fragment(r);
            let after_hash = e.get(1..).unwrap_or_default();
            assert!(
                after_hash
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && b != b'#'),
                "{e}"
            );
            let back = decode(after_hash);
            // `%25` stays as written, as Go's decoder reads it.
            let want = r.get(1..).unwrap_or_default().replace("%25", "%");
            assert_eq!(back, want, "{r}");
        }
        assert_eq!(encode_fragment("#/$defs/a b"), "#/$defs/a%20b");
        assert_eq!(encode_fragment("#/a#b"), "#/a%23b");
        assert_eq!(encode_fragment("#/$defs/x~1y"), "#/$defs/x~1y");
    }

    /// Targets outside the document's subschemas × verdict, as the
    /// reference decides them (same oracle runs as above).
    #[test]
    fn targets_outside_subschemas_meet_the_meta_schema() {
        let base = |defs: Value, reference: &str| json!({"$schema": DRAFT_2020_12, "$defs": defs, "$ref": reference});
        // (defs, $ref, refused with this in the message)
        let refused: &[(Value, &str, &str)] = &[
            (
                json!({"a": {"type": "string", "x-ext": {"type": 5}}}),
                "#/$defs/a/x-ext",
                "/type",
            ),
            (
                json!({"a": {"type": "string", "x-ext": {"type": "string", "maxLength": "3"}}}),
                "#/$defs/a/x-ext",
                "/maxLength",
            ),
            (
                json!({"a": {"type": "string", "default": {"type": "string", "minLength": 1.5}}}),
                "#/$defs/a/default",
                "/minLength",
            ),
            (
                json!({"a": {"const": {"type": 5}}}),
                "#/$defs/a/const",
                "/type",
            ),
            (
                json!({"a": {"type": "string", "$defs": {"type": {"type": "string"}}}}),
                "#/$defs/a/$defs",
                "/type",
            ),
            (
                json!({"a": {"type": "object", "properties": {"type": {"type": "string"}}}}),
                "#/$defs/a/properties",
                "/type",
            ),
            (
                json!({"a": {"x-ext": [{"type": 5}]}}),
                "#/$defs/a/x-ext/0",
                "/type",
            ),
            (
                json!({"a": {"x-ext": {"type": "string", "pattern": "(?=a)"}}}),
                "#/$defs/a/x-ext",
                "(?=a)", // refused by the crate's compile of the target
            ),
            (
                json!({"b\\": {"type": "string"}, "a": {"x-ext": {"$ref": "#/$defs/b\\"}}}),
                "#/$defs/a/x-ext",
                "uri-reference",
            ),
        ];
        for (defs, reference, gist) in refused {
            let errors = compile(&base(defs.clone(), reference)).expect_err(reference);
            assert_eq!(errors.len(), 1, "{reference}: {errors:?}");
            let at = match *gist {
                "uri-reference" => "/$defs/a/x-ext/$ref",
                "(?=a)" => "/$defs/a/x-ext/pattern",
                _ => "/$ref",
            };
            assert_eq!(errors[0].pointer.as_str(), at, "{reference}");
            assert!(errors[0].message.contains(gist), "{reference}: {errors:?}");
        }
        // Near misses the reference accepts: a valid schema outside the
        // subschemas (its keywords apply), a target under it reached by
        // its own `$ref`, and `additionalItems` (a subschema position the
        // reference knows but Draft 2020-12's meta-schema does not check).
        let ok = compile(&base(
            json!({"a": {"x-ext": {"type": "string", "minLength": 2}}}),
            "#/$defs/a/x-ext",
        ))
        .expect("valid target");
        assert!(ok.is_valid(&json!("st")));
        assert!(!ok.is_valid(&json!("s")));
        let chained = base(
            json!({"b c": {"type": "string"}, "a": {"x-ext": {"$ref": "#/$defs/b c"}}}),
            "#/$defs/a/x-ext",
        );
        assert!(compile(&chained).is_ok());
        let legacy = base(
            json!({"a": {"additionalItems": {"type": 5}}}),
            "#/$defs/a/additionalItems",
        );
        assert!(compile(&legacy).is_ok());
    }

    /// The target check runs the generated meta-schema validator; the
    /// crate's `meta::validate` is its oracle: each refused target's
    /// message is the one the crate's first error gives. Near miss: a valid
    /// target outside the subschemas has no error from either.
    #[test]
    fn target_errors_are_the_crates_first_error() {
        let targets = [
            (json!({"a": {"x-ext": {"type": 5}}}), "#/$defs/a/x-ext"),
            (
                json!({"a": {"x-ext": {"maxLength": "3"}}}),
                "#/$defs/a/x-ext",
            ),
            (
                json!({"a": {"default": {"minLength": 1.5}}}),
                "#/$defs/a/default",
            ),
            (
                json!({"a": {"const": {"required": [1, 1]}}}),
                "#/$defs/a/const",
            ),
            (
                json!({"a": {"x-ext": [{"properties": {"b": 5}}]}}),
                "#/$defs/a/x-ext/0",
            ),
            (
                json!({"a": {"x-ext": {"$defs": {"b": {"enum": 3}}}}}),
                "#/$defs/a/x-ext",
            ),
        ];
        for (defs, reference) in targets {
            let schema = json!({"$schema": DRAFT_2020_12, "$defs": defs, "$ref": reference});
            let target = ref_closure::resolve(&schema, reference).expect(reference);
            let e = jsonschema::draft202012::meta::validate(target.value).expect_err(reference);
            let want = format!(
                "$ref target {} (at {}) is not valid against the \
                 Draft 2020-12 meta-schema: at {}: {e}",
                quote(reference),
                display(&target.location),
                quote(e.instance_path().as_str())
            );
            let errors = survey(&schema).errors;
            assert_eq!(errors.len(), 1, "{reference}: {errors:?}");
            assert_eq!(errors[0].message, want, "{reference}");
        }
        let fine = json!({"$schema": DRAFT_2020_12, "$defs": {"a": {"x-ext": {"minLength": 2}}}, "$ref": "#/$defs/a/x-ext"});
        let target = ref_closure::resolve(&fine, "#/$defs/a/x-ext").expect("resolves");
        assert!(jsonschema::draft202012::meta::validate(target.value).is_ok());
        assert!(survey(&fine).errors.is_empty());
    }

    #[test]
    fn each_target_is_validated_once() {
        // Two `$ref`s to one bad target outside the subschemas: one error,
        // at the first `$ref` met.
        let twice = json!({
            "$schema": DRAFT_2020_12,
            "$defs": {"a": {"x-ext": {"type": 5}}},
            "allOf": [{"$ref": "#/$defs/a/x-ext"}, {"$ref": "#/$defs/a/x-ext"}],
        });
        let errors = compile(&twice).expect_err("bad target");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].pointer.as_str(), "/allOf/0/$ref");
        // A target that is a subschema of the document is checked with the
        // document (one error, the document's), never again as a target.
        let ordinary = json!({
            "$schema": DRAFT_2020_12,
            "$defs": {"a": {"type": 5}},
            "$ref": "#/$defs/a",
        });
        let errors = compile(&ordinary).expect_err("bad subschema");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(!errors[0].message.contains("$ref target"), "{errors:?}");
        assert!(survey(&ordinary).errors.is_empty());
    }
}
