//! Diagnostics: the one finding type every check produces.
//!
//! Checks never print and never compute line/column: they say *where* a
//! finding is as (file, JSON Pointer, target) and may add an explicit byte
//! span when the pointer cannot express it (a parse error inside a token).
//! Renderers resolve pointers to byte spans through the strict reader's
//! span map and spans to `line:column`.

pub mod escape;

use std::ops::Range;

pub use crate::codes::Severity;

use crate::codes::Code;
use crate::json::pointer::JsonPointer;
use crate::json::position::Position;
use crate::json::strict::ParseError;

/// Whether a pointer designates a member's value or its name (vocabulary
/// findings point at the name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The value at the pointer.
    #[default]
    Value,
    /// The member name whose value is at the pointer.
    Key,
}

/// A secondary location of a finding: another place that explains it, as
/// SARIF's `relatedLocations` and the language server protocol's
/// `relatedInformation` mean it (`family`'s contract file at the member
/// that decides, `compat`'s OLD side of a change record that NEW has too).
/// Located when the finding is built ([`crate::locate`]), since the file
/// it names is not always one whose bytes the report keeps.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Related {
    /// A short label saying what the place is (`contract`, `old`).
    pub label: &'static str,
    /// The file, as the finding's command names files; `None` when the
    /// place is in no file (a side that has no such document).
    pub file: Option<String>,
    /// JSON Pointer into `file`.
    pub pointer: JsonPointer,
    /// Value or member name.
    pub target: Target,
    /// 1-based line and column of what `pointer` names (else of its
    /// nearest ancestor that resolves), as [`crate::locate`] found it;
    /// `None` when it was not located.
    pub position: Option<Position>,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code (`FD` + three digits); see [`crate::codes`].
    pub code: Code,
    /// Defaults to the code's severity.
    pub severity: Severity,
    /// One terse phrase, lowercase start, no trailing period.
    pub message: String,
    /// Package-relative path of the file the finding is in; `None` for a
    /// finding about the package directory itself.
    pub file: Option<String>,
    /// JSON Pointer into `file` (root when the finding is about the whole file).
    pub pointer: JsonPointer,
    /// Value or member name.
    pub target: Target,
    /// Explicit byte span in `file`; when `None`, renderers resolve `pointer`.
    pub span: Option<Range<usize>>,
    /// What to do about it.
    pub help: Option<String>,
    /// Facts: expected vs actual digests, limits, the reference's message.
    pub notes: Vec<String>,
    /// Findings of the same code this one stands for besides itself, not
    /// shown one by one (a capped list: its message says how many). Every
    /// count of findings (package, summary, `--statistics`) counts this one
    /// as `1 + not_shown` (issue 22 item 7). Usually 0.
    pub not_shown: usize,
    /// Secondary locations ([`Related`]); empty for most findings, and
    /// printed by no format of `verify`.
    pub related: Vec<Related>,
}

/// The nearest of `candidates` to `word` (edit distance with adjacent
/// transpositions, `strsim::osa_distance`; ASCII
/// case differences count 0, a candidate `word` abbreviates (3 characters
/// or more) counts 1), when within a third of `word`'s length (at least 1).
pub fn nearest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let folded = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| {
            let d = if c.to_ascii_lowercase() == folded {
                0
            } else if word.chars().count() >= 3 && c.starts_with(word) {
                1
            } else {
                strsim::osa_distance(word, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

impl Diagnostic {
    /// A finding with the code's default severity, at the document root of no
    /// file. Chain [`Diagnostic::in_file`], [`Diagnostic::at`], … to place it.
    ///
    /// Every character of `message` that [`escape::needs_escape`] is true
    /// for is escaped ([`escape::text`]): a check quotes package text with
    /// [`escape::quote`], and whatever still holds a control, bidi or
    /// separator character raw reaches no format raw (breaker F13).
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.info().severity,
            message: escaped(message.into()),
            file: None,
            pointer: JsonPointer::root(),
            target: Target::Value,
            span: None,
            help: code.info().help.map(str::to_owned),
            notes: Vec::new(),
            not_shown: 0,
            related: Vec::new(),
        }
    }

    /// How many findings this one counts as: itself and those it stands for
    /// ([`Diagnostic::not_shown`]).
    pub fn weight(&self) -> usize {
        self.not_shown.saturating_add(1)
    }

    /// Sets the file (package-relative path).
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Sets the file only when none is set yet.
    pub fn in_file_if_unset(mut self, file: &str) -> Self {
        if self.file.is_none() {
            self.file = Some(file.to_owned());
        }
        self
    }

    /// Sets the JSON Pointer (value target).
    pub fn at(mut self, pointer: JsonPointer) -> Self {
        self.pointer = pointer;
        self
    }

    /// Sets the JSON Pointer and marks the member name as the target.
    pub fn at_key(mut self, pointer: JsonPointer) -> Self {
        self.pointer = pointer;
        self.target = Target::Key;
        self
    }

    /// Sets an explicit byte span.
    pub fn span(mut self, span: Range<usize>) -> Self {
        self.span = Some(span);
        self
    }

    /// Replaces the help line (escaped as [`Diagnostic::new`] escapes the message).
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(escaped(help.into()));
        self
    }

    /// Adds a note (escaped as [`Diagnostic::new`] escapes the message).
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(escaped(note.into()));
        self
    }

    /// Adds a secondary location ([`Related`]).
    pub fn related(mut self, related: Related) -> Self {
        self.related.push(related);
        self
    }

    /// The secondary location labelled `label`, if any.
    pub fn related_at(&self, label: &str) -> Option<&Related> {
        self.related.iter().find(|r| r.label == label)
    }

    /// Overrides the severity.
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Prefixes every pointer-carrying finding with `prefix` (used when a
    /// check ran on a sub-document, e.g. `/desiredSchema`).
    pub fn under(mut self, prefix: &JsonPointer) -> Self {
        let joined = format!("{}{}", prefix.as_str(), self.pointer.as_str());
        self.pointer = JsonPointer::from(joined.as_str());
        self
    }

    /// True for `Severity::Error`.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The sort key renderers use: (file, pointer, severity, code,
    /// message); pointers in [`JsonPointer`]'s order (array indices as
    /// numbers: `/files/2` before `/files/10`).
    pub fn sort_key(&self) -> (Option<&str>, &JsonPointer, Severity, &'static str, &str) {
        (
            self.file.as_deref(),
            &self.pointer,
            self.severity,
            self.code.info().id,
            &self.message,
        )
    }
}

/// `s` with every character [`escape::needs_escape`] is true for escaped
/// ([`escape::text`]); `s` itself (no copy) when none is.
fn escaped(s: String) -> String {
    match escape::text(&s) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(e) => e,
    }
}

/// Sorts diagnostics deterministically and removes exact duplicates.
pub fn finish(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diags.dedup();
}

/// A refusal of the strict reader as a finding. Built here, not in
/// [`crate::json`]: the reader knows nothing of findings, and `diag` (whose
/// findings carry a [`JsonPointer`]) imports `json`, never the other way
/// (`tests/docs/imports.rs`, issue 21 item 1).
impl ParseError {
    /// The diagnostic for this refusal: [`Code::InvalidUtf8`] or
    /// [`Code::InvalidIJson`], message = [`ParseError::detail`](crate::json::strict::ParseError::detail), explicit
    /// span = [`ParseError::span`](crate::json::strict::ParseError::span), pointer = [`ParseError::pointer`](crate::json::strict::ParseError::pointer). The
    /// caller adds the file with [`Diagnostic::in_file`].
    pub fn to_diagnostic(&self) -> Diagnostic {
        let code = match self.kind {
            crate::json::strict::ParseErrorKind::InvalidUtf8 => Code::InvalidUtf8,
            crate::json::strict::ParseErrorKind::Syntax => Code::InvalidIJson,
        };
        self.to_diagnostic_as(code)
    }

    /// The finding for a listed JSON payload (the definition, a fixture):
    /// [`Code::InvalidUtf8`] for bad UTF-8, else
    /// [`Code::InvalidJsonPayload`], as the reference classifies it
    /// (PAYLOAD_IJSON). `verify` and `index` give the same bytes this one
    /// code (issue 36 item 7).
    pub fn to_payload_diagnostic(&self) -> Diagnostic {
        match self.kind {
            crate::json::strict::ParseErrorKind::InvalidUtf8 => self.to_diagnostic(),
            crate::json::strict::ParseErrorKind::Syntax => {
                self.to_diagnostic_as(Code::InvalidJsonPayload)
            }
        }
    }

    /// The finding with `code` instead of the kind's own (a payload's syntax
    /// refusal is `invalid-json-payload`, as the reference classifies it).
    /// The message is the detail with a quoted member name in
    /// [`escape::quote`]'s notation.
    pub fn to_diagnostic_as(&self, code: Code) -> Diagnostic {
        // The reader quotes a member name with Rust's `{:?}`; the finding
        // spells it as every message does ([`escape::message`]).
        Diagnostic::new(code, escape::message(&self.detail))
            .at(self.pointer.clone())
            .span(self.span.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_places_and_sorts() {
        let a = Diagnostic::new(Code::UnlistedFile, "b").in_file("z.json");
        let b = Diagnostic::new(Code::InvalidIJson, "a")
            .in_file("a.json")
            .at(JsonPointer::root().child("x"));
        let mut v = vec![a.clone(), b.clone(), a.clone()];
        finish(&mut v);
        assert_eq!(v, vec![b, a]);
    }

    #[test]
    fn under_prefixes_pointer() {
        let d = Diagnostic::new(Code::OpenSchema, "open")
            .at(JsonPointer::from("/properties/spec"))
            .under(&JsonPointer::from("/desiredSchema"));
        assert_eq!(d.pointer.as_str(), "/desiredSchema/properties/spec");
        assert_eq!(d.severity, Severity::Error);
    }
}
