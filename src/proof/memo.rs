//! A content-addressed memo of inline-schema proofs shared by the packages
//! of one run (issue 38).
//!
//! Versions of one package carry the same stage schemas: of the corpus's
//! 685 inline-schema proofs, about half repeat an earlier (field, schema)
//! pair. What [`super::prove_inline_schema`] finds is a function of its
//! three inputs only, and the memo is keyed by them:
//!
//! - **the field** (`/desiredSchema`, `/interfaces/3/documentSchema`): every
//!   pointer of the report is prefixed with it, and `desiredSchema` has its
//!   own name exemption;
//! - **the schema as the prover reads it**: its content key with numbers
//!   as held ([`crate::memo::content_key`], [`crate::memo::Numbers::AsHeld`]),
//!   which keeps member order (the prover visits members in order) and
//!   tells `1` from `1.0` (two values, and messages print numbers as
//!   `serde_json` writes them): two schemas with one key are the same
//!   value;
//! - **the name policy**: fixed by the caller ([`Memo::prove`] is given one
//!   policy per memo; the verifier's checks use
//!   `checks::definition::proof_name_policy` only).
//!
//! What is kept is the whole [`ProofReport`], which names no file and no
//! position (the checks place its findings in `definition.json` for the
//! package at hand). **Bounded:** each entry is charged [`ENTRY_CHARGE`]
//! bytes plus the text of its findings; when an insertion would pass the
//! budget ([`BUDGET`]; a language server proves every edit of a schema) the
//! memo is emptied first, and a report larger than the whole budget is not
//! kept.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::{NamePolicy, ProofReport};
use crate::json::pointer::JsonPointer;

/// The memo's budget in charged bytes (see the module documentation).
pub const BUDGET: usize = 4 << 20;

/// Bytes charged per entry besides its findings' text (key and its field,
/// map slot, `Arc`, the report's fixed part).
pub const ENTRY_CHARGE: usize = 256;

/// Bytes charged for one finding besides its text.
const FINDING_CHARGE: usize = 160;

/// The key: the field's pointer text and the schema's content key (see
/// the module documentation).
pub type Key = (String, [u8; 32]);

/// The memo: bounded, shared between threads ([`crate::memo::Bounded`]).
/// A proof runs outside the lock: two threads that miss on the same pair
/// at once both prove, and the first to finish stores its report (the same
/// report).
pub type Memo = crate::memo::Bounded<Key, ProofReport>;

/// Bytes charged for the entry of `report` (its field is charged in
/// [`ENTRY_CHARGE`]).
fn charge(report: &ProofReport) -> usize {
    report.diagnostics.iter().fold(ENTRY_CHARGE, |n, d| {
        let text = d.message.len()
            + d.pointer.as_str().len()
            + d.help.as_ref().map_or(0, String::len)
            + d.notes.iter().map(String::len).sum::<usize>();
        n.saturating_add(text + FINDING_CHARGE)
    })
}

impl Memo {
    /// The memo of the verifier's checks, shared by every package verified
    /// in this process (its policy is
    /// `checks::definition::proof_name_policy`).
    pub fn global() -> &'static Memo {
        static GLOBAL: OnceLock<Memo> = OnceLock::new();
        GLOBAL.get_or_init(|| Memo::new(BUDGET))
    }

    /// [`super::prove_inline_schema`] of `schema` at `field` under `names`
    /// (always the same policy for one memo): from the memo, or proved
    /// and stored.
    pub fn prove(
        &self,
        field: &JsonPointer,
        schema: &Value,
        names: NamePolicy<'_>,
    ) -> Arc<ProofReport> {
        let (digest, _) = crate::memo::content_key(schema, crate::memo::Numbers::AsHeld);
        let key: Key = (field.as_str().to_owned(), digest);
        self.get_or_make(
            key,
            || super::prove_inline_schema(field, schema, names),
            charge,
        )
    }
}
