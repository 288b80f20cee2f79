//! One change record of a pair and its class (issue 34, item 3): the
//! vocabulary `changes`, `meaning`, `bump` and `pairs` share, in a file of
//! its own so that none of them imports another for it (moved from
//! `changes.rs`, which re-exports it).

use serde_json::Value;

use super::side::Doc;
use crate::codes::Code;
use crate::json::pointer::JsonPointer;

/// What a change means for the version (versioning-rules V2, V3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Documentation only: a patch.
    Documentation,
    /// A relaxed constraint: a minor.
    Relaxation,
    /// Added optional data or capability: a minor.
    Addition,
    /// Removed data, tightened constraint, changed meaning, or unproved: a
    /// major in 1.x, a minor in 0.x.
    Breaking,
}

/// One difference of a pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Its code (FD650–FD666).
    pub code: Code,
    /// Its class.
    pub class: Class,
    /// The document both pointers are into.
    pub doc: Doc,
    /// Where it is in OLD (`None`: NEW only).
    pub old: Option<JsonPointer>,
    /// Where it is in NEW (`None`: OLD only).
    pub new: Option<JsonPointer>,
    /// One phrase; package text in it is escaped.
    pub message: String,
    /// True for the observed/output readings of versioning-rules V5.
    pub inference: bool,
    /// The witness of a meaning change (`FD668`, `FD682`): a desired
    /// document that omits a defaulted member, judged by the engine on
    /// what hosts that materialize make of it; valid under both schemas
    /// when the message says [`VALID_UNDER_BOTH`].
    pub witness: Option<Value>,
}

/// What a meaning record's message says of a witness valid under both
/// schemas as it is (before defaults are inserted); the human report
/// labels such a witness a counterexample valid under both.
pub const VALID_UNDER_BOTH: &str = "(valid under OLD and NEW)";

pub(super) fn rec(
    code: Code,
    class: Class,
    old: Option<JsonPointer>,
    new: Option<JsonPointer>,
) -> Change {
    Change {
        code,
        class,
        doc: Doc::Definition,
        old,
        new,
        message: String::new(),
        inference: false,
        witness: None,
    }
}

impl Change {
    pub(super) fn says(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }
}

/// `"text"`: package text quoted in a message, as every message quotes it
/// ([`crate::diag::escape::quote`]: `"` and `\\` escaped, control, bidi and
/// separator characters as Go's escapes), so the JSON report and a
/// terminal show the same text.
pub fn quoted(s: &str) -> String {
    crate::diag::escape::quote(s)
}

/// Compact JSON of a document (control characters escaped by serde_json),
/// cut at 200 characters for a message (the whole one is in the report).
pub(super) fn compact(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 200 {
        format!("{}…", text.chars().take(200).collect::<String>())
    } else {
        text
    }
}
