//! What a string under the cursor points to (issue 24 items 2 and 3): a
//! local `$ref` names a schema in the same document, a package path (a
//! fixture path of the definition, a `files[].path` of the index) names a
//! file of the package.

use std::ops::Range;

use serde_json::Value;

use crate::json::pointer::JsonPointer;
use crate::json::strict;

/// Where a string value points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A local `$ref`: the span of the target schema in the same document,
    /// its JSON Pointer from the document root, and its JSON text.
    Schema {
        /// Byte span of the target value.
        span: Range<usize>,
        /// The target's pointer in the document (`/desiredSchema/$defs/a`).
        pointer: String,
        /// The target schema, pretty-printed.
        text: String,
    },
    /// A package path that passes the path grammar (R1.10/R1.13):
    /// whether the file exists is for the caller to say.
    File(String),
}

/// The string value whose token holds byte `offset` of `text` (quotes
/// included), with its pointer and span; `None` when `text` is not strict
/// I-JSON or no string is there.
fn string_at(
    parsed: &strict::Parsed,
    text: &[u8],
    offset: usize,
) -> Option<(JsonPointer, String, Range<usize>)> {
    let (ptr, entry) = parsed
        .spans
        .iter()
        .filter(|(_, e)| {
            e.value.start <= offset
                && offset < e.value.end
                && text.get(e.value.start) == Some(&b'"')
        })
        .min_by_key(|(_, e)| e.value.end - e.value.start)?;
    let pointer = JsonPointer::parse(ptr)?;
    let value = pointer.resolve(&parsed.value)?.as_str()?.to_owned();
    Some((pointer, value, entry.value.clone()))
}

/// What the string at byte `offset` of the JSON document `text` points to.
///
/// A `$ref` member's value is resolved as the proofs resolve it
/// ([`crate::proof::ref_closure::resolve`], `verifier-rules.md` §5 F3)
/// against its schema: the nearest enclosing object with a `$schema` or
/// `$id` member (the definition's `desiredSchema`, `observedSchema`,
/// `outputSchema`), else the document. Any other string is a
/// [`Target::File`] when it is a valid package path with an extension
/// (`fixtures/desired.json`). `None` otherwise. `parsed` is the strict
/// reader's parse of `text` (the editor's, made once per text).
pub fn target_at(parsed: &strict::Parsed, text: &[u8], offset: usize) -> Option<Target> {
    let (pointer, value, _) = string_at(parsed, text, offset)?;
    let tokens = pointer.tokens();
    if tokens.last().map(String::as_str) == Some("$ref") {
        let mut base = pointer.parent();
        while let Some(b) = base {
            let is_resource = matches!(
                b.resolve(&parsed.value),
                Some(Value::Object(m)) if m.contains_key("$schema") || m.contains_key("$id")
            );
            if is_resource || b.is_root() {
                let schema = b.resolve(&parsed.value)?;
                let found = crate::proof::ref_closure::resolve(schema, &value).ok()?;
                let full = JsonPointer::from(
                    format!("{}{}", b.as_str(), found.location.as_str()).as_str(),
                );
                let span = parsed.spans.value_span(&full)?;
                let text = serde_json::to_string_pretty(found.value).unwrap_or_default();
                return Some(Target::Schema {
                    span,
                    pointer: full.as_str().to_owned(),
                    text,
                });
            }
            base = b.parent();
        }
        return None;
    }
    let named_file = crate::fsread::path_grammar(&value).is_ok()
        && value
            .rsplit('/')
            .next()
            .is_some_and(|name| name.contains('.') && !name.starts_with('.'));
    named_file.then_some(Target::File(value))
}

/// The relation (decision 0015, `verifier-rules.md` §8) whose reference
/// schema holds byte `offset` of a Form Definition, as
/// [`crate::relations::derive`] derives it (the innermost, when references
/// nest), with the span of that schema. A relation pointer maps to its
/// schema through `desiredSchema` as the walk goes (§8.3): `*` is an
/// `items` hop, any other token a `properties` member. `None` when the
/// offset is in no reference. `parsed`: the definition's strict parse.
pub fn relation_at(
    parsed: &strict::Parsed,
    offset: usize,
) -> Option<(crate::relations::Relation, Range<usize>)> {
    crate::relations::derive(&parsed.value)
        .relations
        .into_iter()
        .filter_map(|r| {
            let mut at = String::from("/desiredSchema");
            for token in r.pointer.split('/').skip(1) {
                if token == "*" {
                    at.push_str("/items");
                } else {
                    at.push_str("/properties/");
                    at.push_str(token);
                }
            }
            let span = parsed.spans.value_span(&JsonPointer::parse(&at)?)?;
            (span.start <= offset && offset < span.end).then_some((r, span))
        })
        .min_by_key(|(_, span)| span.end - span.start)
}

/// Whether byte `offset` of a package index is on its
/// `/formRef/schemaDigest` member (key or value); its value then, `None`
/// when it is not a string. `None` (outer) when the offset is elsewhere.
/// `parsed`: the index's strict parse.
pub fn schema_digest_at(parsed: &strict::Parsed, offset: usize) -> Option<Option<String>> {
    let at = JsonPointer::from("/formRef/schemaDigest");
    let entry = parsed.spans.entry(&at)?;
    let start = entry.key.as_ref().map_or(entry.value.start, |k| k.start);
    (start <= offset && offset < entry.value.end).then(|| {
        at.resolve(&parsed.value)
            .and_then(Value::as_str)
            .map(str::to_owned)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`target_at`] on `text`, parsed here; `None` when it is not strict
    /// I-JSON.
    fn target(text: &[u8], offset: usize) -> Option<Target> {
        target_at(&strict::parse(text).ok()?, text, offset)
    }

    #[test]
    fn refs_resolve_in_their_schema_and_paths_are_files() {
        let doc = r##"{"desiredSchema": {"$schema": "x", "$defs": {"a~b": {"type": "string"}},
 "properties": {"n": {"$ref": "#/$defs/a~0b"}, "m": {"$ref": "#/$defs/nope"}}},
 "conformanceFixtures": [{"desiredPath": "fixtures/desired.json", "name": "basic"}]}"##;
        let b = doc.as_bytes();
        let at = |needle: &str| doc.find(needle).unwrap() + 2;
        match target(b, at("#/$defs/a~0b")) {
            Some(Target::Schema {
                span,
                pointer,
                text,
            }) => {
                assert_eq!(pointer, "/desiredSchema/$defs/a~0b");
                assert_eq!(&doc[span], r#"{"type": "string"}"#);
                assert!(text.contains("\"type\": \"string\""));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            target(b, at("fixtures/desired.json")),
            Some(Target::File("fixtures/desired.json".into()))
        );
        // Near misses: a dangling ref, a plain word, a key, broken JSON.
        assert_eq!(target(b, at("#/$defs/nope")), None);
        assert_eq!(target(b, at("basic")), None);
        assert_eq!(target(b, at("desiredPath")), None);
        assert_eq!(target(&b[..40], 30), None);
    }

    #[test]
    fn relations_are_found_at_their_reference_schema() {
        let reference = r#"{"type": "object", "additionalProperties": false,
            "required": ["apiVersion", "kind", "name"],
            "x-takoform-required-interface": {"apiVersion": "interfaces.takoform.com/v1alpha1", "name": "edge.kv", "version": "1.0.0", "schemaDigest": "sha256:00"},
            "properties": {"apiVersion": {"const": "a.takoform.com/v1"}, "kind": {"const": "Store"}, "name": {"type": "string"}}}"#;
        let doc = format!(
            r#"{{"desiredSchema": {{"type": "object", "properties": {{"stores": {{"type": "array", "items": {ref}}}, "title": {{"type": "string"}}}}}}}}"#,
            ref = reference
        );
        let b = doc.as_bytes();
        let parsed = strict::parse(b).unwrap();
        let (r, span) = relation_at(&parsed, doc.find("edge.kv").unwrap()).unwrap();
        assert_eq!(r.pointer, "/stores/*");
        assert_eq!(r.target_kind, "Store");
        assert_eq!(&doc[span], reference);
        // Near miss: outside the reference.
        assert_eq!(relation_at(&parsed, doc.find("title").unwrap()), None);
    }

    #[test]
    fn the_schema_digest_member_is_found_by_key_or_value() {
        let index =
            r#"{"formRef": {"kind": "K", "schemaDigest": "sha256:ab"}, "kind": "FormPackage"}"#;
        let b = index.as_bytes();
        let parsed = strict::parse(b).unwrap();
        let on = |needle: &str| schema_digest_at(&parsed, index.find(needle).unwrap() + 1);
        assert_eq!(on("schemaDigest"), Some(Some("sha256:ab".into())));
        assert_eq!(on("sha256:ab"), Some(Some("sha256:ab".into())));
        // Near misses: another member, a digest that is not a string.
        assert_eq!(on("\"K\""), None);
        let odd = r#"{"formRef": {"schemaDigest": 3}}"#;
        let odd = strict::parse(odd.as_bytes()).unwrap();
        assert_eq!(schema_digest_at(&odd, 16), Some(None));
    }
}
