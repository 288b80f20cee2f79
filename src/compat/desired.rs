//! The desired-schema verdict (issue 20, item 1; versioning-rules V3, V4).
//!
//! Interface shared by the prover and the `compat` command. The prover
//! decides, for two inline Draft 2020-12 schemas of this profile (each a
//! whole schema document: its `$ref`s are local to its own root), whether
//! every document OLD accepts is accepted by NEW and conversely.
//!
//! This first version is a stub: it proves `identical` (RFC 8785 equal) and
//! answers `unknown` for everything else, which the rules count as breaking.

use serde_json::Value;

use crate::json::pointer::JsonPointer;

/// The verdict on OLD ⊆ NEW and NEW ⊆ OLD, where each side is the set of
/// JSON documents a schema accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The two schemas are equal under RFC 8785 canonicalization.
    Identical,
    /// Different bytes, both inclusions proved: the same documents.
    Equivalent,
    /// OLD ⊆ NEW proved, and `newly_accepted` is a document NEW accepts and
    /// OLD refuses (checked by the engine before it is returned).
    Widened {
        /// A document valid under NEW and refused by OLD.
        newly_accepted: Value,
    },
    /// `witness` is a document OLD accepts and NEW refuses (checked by the
    /// engine before it is returned).
    Breaking {
        /// A document valid under OLD and refused by NEW.
        witness: Value,
    },
    /// Neither proved nor refuted within the work budget; counts as
    /// breaking (versioning-rules V3).
    Unknown {
        /// Pointer into OLD (relative to its root) of the node that could
        /// not be decided.
        pointer: JsonPointer,
        /// Why it could not be decided, in one phrase.
        reason: String,
    },
}

impl Verdict {
    /// The verdict's name as printed: `identical`, `equivalent`, `widened`,
    /// `breaking` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Identical => "identical",
            Verdict::Equivalent => "equivalent",
            Verdict::Widened { .. } => "widened",
            Verdict::Breaking { .. } => "breaking",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// Whether every document OLD accepts is accepted by NEW, proved
    /// (`identical`, `equivalent`, `widened`).
    pub fn is_compatible(&self) -> bool {
        matches!(
            self,
            Verdict::Identical | Verdict::Equivalent | Verdict::Widened { .. }
        )
    }
}

/// Compares two desired schemas `old` and `new` (whole inline schema
/// documents, e.g. a definition's `/desiredSchema`).
///
/// Never panics and always ends: hostile inputs end in
/// [`Verdict::Unknown`] with a reason.
pub fn compare(old: &Value, new: &Value) -> Verdict {
    // A boolean schema has no RFC 8785 form of its own here
    // (`canonicalize` takes containers only): compared as values.
    let same = match (
        crate::canonical::canonicalize(old),
        crate::canonical::canonicalize(new),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => old == new,
    };
    if same {
        Verdict::Identical
    } else {
        Verdict::Unknown {
            pointer: JsonPointer::default(),
            reason: "the inclusion prover is not built yet".to_owned(),
        }
    }
}
