//! Where a finding is: the one place a JSON Pointer (or a byte offset) in
//! a file becomes a byte span and `line:column` (issue 34 item 2).
//!
//! Every command's location comes from here: the render front end's
//! [`crate::render::RunView`] (every format of `verify`, `check`,
//! `relations`, `compat`'s shared formats …), the human printer of a
//! single finding (`canonicalize`, `digest`, a refused `relations`), the
//! change records of `compat` ([`pointer_position`]) and the contracts,
//! candidate sets and package findings of `family`. The rules:
//!
//! - a finding's span is its explicit span, else the span of the member
//!   name its pointer names ([`Target::Key`]), else the span of the value,
//!   else that of the nearest ancestor that resolves ([`pointer_span`]);
//! - a span's start and end become [`Position`]s in one unit
//!   ([`crate::json::position`]: 1-based lines, columns in Unicode code
//!   points), with a [`LineIndex`] per file when a file has many findings
//!   ([`Locator`]), by one scan for a single finding ([`finding`]).
//!
//! The source excerpt a human report shows is drawn from the span found
//! here ([`crate::render::human`]); nothing else locates a finding.

use std::collections::HashMap;
use std::ops::Range;

use crate::diag::{Diagnostic, Target};
use crate::json::pointer::JsonPointer;
pub use crate::json::position::{LineIndex, Position};
use crate::json::strict::SpanIndex;
use crate::package::Source;

/// Where a finding is in its file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Byte span in its file (explicit, else the pointer's), when it resolves.
    pub span: Option<Range<usize>>,
    /// Position of the span's first byte: only for a finding that names a
    /// file whose bytes were kept.
    pub start: Option<Position>,
    /// Position just past the span's last byte (as `start`).
    pub end: Option<Position>,
}

/// The byte span of what `pointer` names in a file whose span map is
/// `spans`: the member name when `target` is [`Target::Key`] and the
/// member exists, else the value, else the nearest ancestor's value that
/// resolves; `None` when none does.
pub fn pointer_span(
    spans: &SpanIndex,
    pointer: &JsonPointer,
    target: Target,
) -> Option<Range<usize>> {
    if target == Target::Key {
        if let Some(s) = spans.key_span(pointer) {
            return Some(s);
        }
    }
    let mut p = Some(pointer.clone());
    while let Some(ptr) = p {
        if let Some(s) = spans.value_span(&ptr) {
            return Some(s);
        }
        p = ptr.parent();
    }
    None
}

/// Byte span of a diagnostic in its file (`source`: its bytes and span
/// map, when kept): the explicit span, else [`pointer_span`].
pub fn finding_span(d: &Diagnostic, source: Option<&Source>) -> Option<Range<usize>> {
    if let Some(s) = &d.span {
        return Some(s.clone());
    }
    pointer_span(source?.spans.as_ref()?, &d.pointer, d.target)
}

/// The position of what `pointer` names (its value, else the nearest
/// ancestor that resolves) in `source`, by one scan of the file (a few
/// lookups: `compat`'s change records); `None` when the file has no span
/// map or nothing resolves.
pub fn pointer_position(source: &Source, pointer: &JsonPointer) -> Option<Position> {
    let span = pointer_span(source.spans.as_ref()?, pointer, Target::Value)?;
    Some(crate::json::position::position(&source.bytes, span.start))
}

/// [`pointer_position`] in a file read once and located many times
/// (`family`'s contracts and candidate sets): `lines` is the index of
/// `bytes`; line 1, column 1 when nothing resolves.
pub fn pointer_position_in(
    bytes: &[u8],
    spans: &SpanIndex,
    lines: &LineIndex,
    pointer: &JsonPointer,
) -> Position {
    let at = pointer_span(spans, pointer, Target::Value).map_or(0, |s| s.start);
    lines.position(bytes, at)
}

/// The position of byte `offset` of `bytes` by one scan (where a reader
/// stopped: a file that is not I-JSON has no span map).
pub fn offset_position(bytes: &[u8], offset: usize) -> Position {
    crate::json::position::position(bytes, offset)
}

/// Where a single finding is ([`Place`]), by one scan of its file: what a
/// command that prints one finding uses (`canonicalize`, `digest`,
/// `family`'s package findings); [`Locator`] for many findings of a file.
pub fn finding(d: &Diagnostic, source: Option<&Source>) -> Place {
    place(d, source, |src, at| {
        crate::json::position::position(&src.bytes, at)
    })
}

/// Where `d` is, positions found by `position` (in the finding's source).
fn place(
    d: &Diagnostic,
    source: Option<&Source>,
    mut position: impl FnMut(&Source, usize) -> Position,
) -> Place {
    let span = finding_span(d, source);
    let (start, end) = match (&d.file, source, &span) {
        (Some(_), Some(src), Some(s)) => (Some(position(src, s.start)), Some(position(src, s.end))),
        _ => (None, None),
    };
    Place { span, start, end }
}

/// Locates the findings of one package or document: one [`LineIndex`] per
/// file some finding needs (O(file size), once), so N findings of a file of
/// S bytes cost O(S + N log S).
#[derive(Debug, Default)]
pub struct Locator<'a> {
    /// The index of each file located so far, by its name.
    indexes: HashMap<&'a str, LineIndex>,
}

impl<'a> Locator<'a> {
    /// A locator that has indexed no file yet.
    pub fn new() -> Self {
        Locator::default()
    }

    /// Where `d` is; `source`: its file's bytes, when kept.
    pub fn finding(&mut self, d: &'a Diagnostic, source: Option<&Source>) -> Place {
        let indexes = &mut self.indexes;
        place(d, source, |src, at| match d.file.as_deref() {
            Some(f) => indexes
                .entry(f)
                .or_insert_with(|| LineIndex::new(&src.bytes))
                .position(&src.bytes, at),
            None => crate::json::position::position(&src.bytes, at),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;

    use crate::testing::source;

    /// One rule, every way: the explicit span wins, a key is its name, a
    /// pointer that does not resolve is its nearest ancestor's, and the
    /// locator (indexed) and a single finding (one scan) agree; near
    /// misses: a finding naming no file, or whose source was not kept, has
    /// a span at most and no position.
    #[test]
    fn a_finding_is_located_by_one_rule() {
        let src = source("{\n  \"a\": {\"é\": 1},\n  \"b\": [true]\n}\n");
        let at = |p: &str, target: Target| {
            let mut d = Diagnostic::new(Code::OpenObjectSchema, "x")
                .in_file("f.json")
                .at(JsonPointer::from(p));
            d.target = target;
            d
        };
        let value = at("/a/é", Target::Value);
        let key = at("/a/é", Target::Key);
        let missing = at("/b/7/c", Target::Value);
        let mut explicit = at("/a", Target::Value);
        explicit.span = Some(1..2);
        let pos = |line, column| Some(Position { line, column });
        let mut locator = Locator::new();
        for (d, start) in [
            (&value, pos(2, 14)),
            (&key, pos(2, 9)),
            (&missing, pos(3, 8)),
            (&explicit, pos(1, 2)),
        ] {
            let one = finding(d, Some(&src));
            assert_eq!(one.start, start, "{}", d.pointer);
            assert_eq!(locator.finding(d, Some(&src)), one);
        }
        assert_eq!(
            pointer_position(&src, &JsonPointer::from("/b/7/c")),
            pos(3, 8)
        );
        let lines = LineIndex::new(&src.bytes);
        let spans = src.spans.as_ref().unwrap();
        assert_eq!(
            Some(pointer_position_in(
                &src.bytes,
                spans,
                &lines,
                &JsonPointer::from("/a/é")
            )),
            pos(2, 14)
        );
        assert_eq!(
            offset_position(&src.bytes, 4),
            Position { line: 2, column: 3 }
        );
        // Near misses.
        let mut no_file = value.clone();
        no_file.file = None;
        assert_eq!(finding(&no_file, Some(&src)).start, None);
        assert!(finding(&no_file, Some(&src)).span.is_some());
        assert_eq!(finding(&value, None), Place::default());
        assert_eq!(finding(&explicit, None).span, Some(1..2));
        assert_eq!(finding(&explicit, None).start, None);
    }
}
