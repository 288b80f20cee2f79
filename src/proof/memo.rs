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
//! - **the schema as the prover reads it**: the SHA-256 of its `serde_json`
//!   text, which keeps member order (the prover visits members in order)
//!   and number spelling (`1` and `1.0` are two values, and messages print
//!   numbers): two schemas with one digest are the same value;
//! - **the name policy**: fixed by the caller ([`Memo::prove`] is given one
//!   policy per memo; the verifier's checks use
//!   `checks::definition::proof_name_policy` only).
//!
//! What is kept is the whole [`ProofReport`], which names no file and no
//! position (the checks place its findings in `definition.json` for the
//! package at hand). **Bounded:** at most [`LIMIT`] entries; when full, the
//! memo is emptied first.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{NamePolicy, ProofReport};
use crate::json::pointer::JsonPointer;

/// The most entries the memo holds.
pub const LIMIT: usize = 4096;

type Key = (String, [u8; 32]);

/// The memo: bounded, shared between threads. A proof runs outside the
/// lock: two threads that miss on the same pair at once both prove, and
/// the first to finish stores its report (the same report).
#[derive(Default)]
pub struct Memo {
    map: Mutex<HashMap<Key, Arc<ProofReport>>>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("proof::Memo")
    }
}

/// The SHA-256 of `schema`'s `serde_json` text (see the module docs).
fn digest(schema: &Value) -> [u8; 32] {
    struct Hashing(Sha256);
    impl std::io::Write for Hashing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut h = Hashing(Sha256::new());
    // Writing a `Value` into a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut h, schema);
    let _ = h.flush();
    h.0.finalize().into()
}

impl Memo {
    /// The memo of the verifier's checks, shared by every package verified
    /// in this process (its policy is
    /// `checks::definition::proof_name_policy`).
    pub fn global() -> &'static Memo {
        static GLOBAL: OnceLock<Memo> = OnceLock::new();
        GLOBAL.get_or_init(Memo::default)
    }

    /// How many entries it holds now.
    pub fn len(&self) -> usize {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
        let key: Key = (field.as_str().to_owned(), digest(schema));
        if let Some(hit) = self
            .map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return Arc::clone(hit);
        }
        let made = Arc::new(super::prove_inline_schema(field, schema, names));
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= LIMIT {
            map.clear();
        }
        map.entry(key).or_insert_with(|| Arc::clone(&made));
        made
    }
}
