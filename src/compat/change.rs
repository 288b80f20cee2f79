//! One change record of a pair and its class (issue 34, item 3): the
//! vocabulary `changes`, `meaning`, `bump` and `pairs` share, in a file of
//! its own so that none of them imports another for it (moved from
//! `changes.rs`, which re-exports it).

use serde_json::Value;

use super::side::Doc;
use crate::codes::Code;
use crate::json::pointer::JsonPointer;

/// What a change means for the version (versioning-rules V2, V3): the
/// class each change kind's code records in its TOML (`class`, the usual
/// class first), defined beside the code table that carries it.
pub use crate::codes::ChangeClass as Class;

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
    /// what hosts that materialize make of it.
    pub witness: Option<Value>,
    /// The witness is valid under both schemas as it is, before defaults
    /// are inserted (a counterexample; its message says
    /// [`VALID_UNDER_BOTH`]). Set by the prover, never read back from the
    /// message, which quotes package text.
    pub valid_under_both: bool,
}

/// What a meaning record's message says of a witness valid under both
/// schemas as it is (before defaults are inserted); the human report
/// labels such a witness a counterexample valid under both.
pub const VALID_UNDER_BOTH: &str = "(valid under OLD and NEW)";

/// The class `code`'s TOML records first (its usual class); `Breaking`
/// for a code that records none (no change kind: the `change_kinds_have_a_class`
/// test keeps every code compat records listed).
pub(super) fn usual(code: Code) -> Class {
    code.info()
        .change
        .first()
        .map_or(Class::Breaking, |(class, _)| *class)
}

/// The record of a change of kind `code` at `old`/`new`, of the class its
/// TOML records first (the classifier reads it there, issue 34 item 3).
pub(super) fn rec(code: Code, old: Option<JsonPointer>, new: Option<JsonPointer>) -> Change {
    rec_as(code, usual(code), old, new)
}

/// The record of a change of kind `code` taking `class`, one of the classes
/// its TOML lists beside the usual one (FD669: a relation removed is
/// breaking, one made optional a relaxation, one added optional an
/// addition).
pub(super) fn rec_as(
    code: Code,
    class: Class,
    old: Option<JsonPointer>,
    new: Option<JsonPointer>,
) -> Change {
    debug_assert!(
        code.info().change.iter().any(|(c, _)| *c == class),
        "{} does not list the class {class:?} in its TOML",
        code.info().id
    );
    Change {
        code,
        class,
        doc: Doc::Definition,
        old,
        new,
        message: String::new(),
        inference: false,
        witness: None,
        valid_under_both: false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::{ChangeBump, TABLE};

    /// The change kinds compat records (FD650–FD669, FD680, FD682) each record a
    /// class and a bump in their TOML; no other code does.
    #[test]
    fn change_kinds_have_a_class() {
        for info in TABLE {
            let n: u32 = info.id.get(2..).and_then(|d| d.parse().ok()).unwrap_or(0);
            let kind = (650..=669).contains(&n) || n == 680 || n == 682;
            assert_eq!(!info.change.is_empty(), kind, "{}", info.id);
        }
        assert_eq!(usual(Code::DesiredSchemaWidened), Class::Addition);
        assert_eq!(usual(Code::ImmutableFieldRemoved), Class::Relaxation);
        assert_eq!(usual(Code::DesiredDefaultNotInserted), Class::Documentation);
        assert_eq!(
            Code::RelationChanged.info().change,
            &[
                (Class::Breaking, ChangeBump::Major),
                (Class::Relaxation, ChangeBump::Minor),
                (Class::Addition, ChangeBump::Minor),
            ]
        );
        let relaxed = rec_as(Code::RelationChanged, Class::Relaxation, None, None);
        assert_eq!(relaxed.class, Class::Relaxation);
        assert_eq!(
            rec(Code::RelationChanged, None, None).class,
            Class::Breaking
        );
    }
}
