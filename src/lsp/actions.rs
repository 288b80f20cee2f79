//! Code actions (issue 24 item 4): the new `package-index.json` as `index`
//! would write it from the editor's buffers, and the edit that closes an
//! object schema where FD213 fires. Renaming a forbidden field is not
//! offered: which name replaces it is a design decision, not a fix.

use std::ops::Range;

use crate::fsread::INDEX_NAME;
use crate::json::pointer::JsonPointer;
use crate::json::strict;

use super::analysis::Analysis;

/// The member the FD213 fix writes.
const CLOSED: &str = "\"additionalProperties\": false";

/// The text of `package-index.json` that `form-package index` would write
/// for the package `a` was verified from (buffers over the disk), through
/// the same library operation ([`crate::index::build_source`]). `None`
/// when `index` would refuse the package (a finding of the disk's
/// inventory, a definition that does not parse, a file no media type
/// fits…) or when the index there already says the same
/// (`index --check` would say "up to date").
pub fn updated_index(a: &Analysis) -> Option<Vec<u8>> {
    if !a.disk_findings.is_empty() || !a.files.contains_key(INDEX_NAME) {
        return None;
    }
    // The files and buffers' parses as verified: nothing copied or parsed
    // again.
    let source = super::analysis::source(&a.root, &a.files, &a.parsed);
    let indexed = crate::index::build_source(&source, None).ok()?;
    indexed.drift.then_some(indexed.bytes)
}

/// The edit that closes the object schema an FD213 finding names at
/// `pointer` in the JSON document `text`: a byte range to replace and its
/// new text. A pointer to an `additionalProperties` member (`true`, or a
/// value of another type) gets its value replaced by `false`; a pointer to
/// an object schema gets the member `"additionalProperties": false` after
/// its last member (on its own line, indented as that member, when the
/// member starts a line), or as the only member of `{}`. `None` when the
/// pointer names neither. `parsed`: the strict reader's parse of `text`.
pub fn close_object(
    parsed: &strict::Parsed,
    text: &[u8],
    pointer: &JsonPointer,
) -> Option<(Range<usize>, String)> {
    if pointer.tokens().last().map(String::as_str) == Some("additionalProperties") {
        let parent = pointer.parent()?;
        if parent.resolve(&parsed.value)?.is_object() {
            return Some((parsed.spans.value_span(pointer)?, "false".to_owned()));
        }
    }
    let obj = pointer.resolve(&parsed.value)?.as_object()?;
    let span = parsed.spans.value_span(pointer)?;
    let last = obj
        .keys()
        .filter_map(|k| parsed.spans.entry(&pointer.child(k)))
        .max_by_key(|e| e.value.end);
    let Some(last) = last else {
        // `{}` (whitespace inside kept out).
        let inner = span.start + 1..span.end.checked_sub(1)?;
        return Some((inner, CLOSED.to_owned()));
    };
    let key_start = last.key.as_ref()?.start;
    let line_start = text
        .get(..key_start)?
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let indent = text.get(line_start..key_start)?;
    let own_line = line_start > span.start && indent.iter().all(|&b| b == b' ' || b == b'\t');
    let insert = if own_line {
        let newline = if text.get(line_start.checked_sub(2)?..line_start) == Some(b"\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        format!(
            ",{newline}{}{CLOSED}",
            String::from_utf8_lossy(indent).into_owned()
        )
    } else {
        format!(", {CLOSED}")
    };
    Some((last.value.end..last.value.end, insert))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &str, ptr: &str) -> Option<String> {
        let parsed = strict::parse(text.as_bytes()).ok()?;
        let (r, new) = close_object(&parsed, text.as_bytes(), &JsonPointer::from(ptr))?;
        Some(format!("{}{new}{}", &text[..r.start], &text[r.end..]))
    }

    #[test]
    fn objects_are_closed_where_they_are_written() {
        // One line: after the last member.
        assert_eq!(
            apply(r#"{"a": {"type": "object", "properties": {}}}"#, "/a").as_deref(),
            Some(r#"{"a": {"type": "object", "properties": {}, "additionalProperties": false}}"#)
        );
        // Pretty-printed: on its own line, indented as the last member.
        let pretty = "{\n  \"a\": {\n    \"type\": \"object\",\n    \"x\": 1\n  }\n}";
        assert_eq!(
            apply(pretty, "/a").as_deref(),
            Some("{\n  \"a\": {\n    \"type\": \"object\",\n    \"x\": 1,\n    \"additionalProperties\": false\n  }\n}")
        );
        let crlf = "{\r\n  \"type\": \"object\"\r\n}";
        assert_eq!(
            apply(crlf, "").as_deref(),
            Some("{\r\n  \"type\": \"object\",\r\n  \"additionalProperties\": false\r\n}")
        );
        // An empty object, and `additionalProperties: true` replaced.
        assert_eq!(
            apply(r#"{"a": { }}"#, "/a").as_deref(),
            Some(r#"{"a": {"additionalProperties": false}}"#)
        );
        assert_eq!(
            apply(
                r#"{"additionalProperties":true,"type":"object"}"#,
                "/additionalProperties"
            )
            .as_deref(),
            Some(r#"{"additionalProperties":false,"type":"object"}"#)
        );
        // Near misses: a pointer to a string, to nothing, broken JSON.
        assert_eq!(apply(r#"{"a": "x"}"#, "/a"), None);
        assert_eq!(apply(r#"{"a": {}}"#, "/b"), None);
        assert_eq!(apply(r#"{"a": {"#, "/a"), None);
    }
}
