//! What `validate-revocation FILE` and `validate-revocation-checkpoint
//! FILE` return (`ops::revocation`): the decoded document and its report,
//! or the refusal; `render::revocation` prints it.

use serde::Serialize;

use crate::error::Error;
use crate::fileread::FileRefusal;
use crate::report::Report;
use crate::revocation::{Checkpoint, Pin, Statement};

/// What a revocation command found (`ops::revocation::statement`, `ops::revocation::checkpoint`);
/// `render::revocation::output` prints it.
#[derive(Debug)]
pub enum RevocationRun {
    /// The document is valid (exit 0).
    Valid(Box<Valid>),
    /// The document, or the previous pin, is refused (exit 1).
    Refused(Box<Refusal>),
    /// A file the user named cannot be read (exit 2): `display` is its path
    /// as given.
    Unreadable {
        /// The path as given.
        display: String,
        /// Why nothing was read.
        why: FileRefusal,
    },
    /// The command could not run: an embedded schema that does not build
    /// (its [`Error::exit_code`], 2).
    Fault(Error),
}

impl RevocationRun {
    /// The exit status: a valid or refused document's is its report's
    /// ([`Report::exit_code`]: 0 valid, 1 refused, its findings being
    /// errors), 2 a file that cannot be read or a fault. `cli/revocation.rs`
    /// passes it through; `render::revocation` only makes the text.
    pub fn exit_code(&self) -> u8 {
        match self {
            RevocationRun::Valid(v) => v.report.exit_code(),
            RevocationRun::Refused(r) => r.report.exit_code(),
            RevocationRun::Unreadable { .. } => 2,
            RevocationRun::Fault(e) => e.exit_code(),
        }
    }
}

/// A valid document: what the reference prints of it and the report the
/// formats print.
#[derive(Debug)]
pub struct Valid {
    /// The decoded document, or the checkpoint with the pin it advanced to.
    pub document: Document,
    /// The report of the document: one document entry named by its path
    /// as given, with no finding (`ops::revocation::document_report`).
    pub report: Report,
    /// The path as given.
    pub display: String,
}

/// What a valid document decoded to. It serializes as the reference
/// prints it on success (`render::revocation::reference_json`): the
/// statement or the checkpoint itself, and after an advance one object
/// `{"checkpoint": …, "pin": …}` (`"unchanged": true` after them when
/// `--allow-unchanged` kept the pin), member order as the reference's.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Document {
    /// `validate-revocation`: the statement.
    Statement(Statement),
    /// `validate-revocation-checkpoint` without an advance: the checkpoint.
    Checkpoint(Checkpoint),
    /// `--advance` or `--previous-pin`: the checkpoint and the pin to keep
    /// for the next one.
    Advanced {
        /// The checkpoint.
        checkpoint: Checkpoint,
        /// The new pin (with `unchanged`, the previous pin itself).
        pin: Pin,
        /// Only with `--allow-unchanged`, when the checkpoint is the pinned
        /// one.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        unchanged: bool,
    },
}

impl Document {
    /// The pin an advance ended at, which every format carries (the point
    /// of an advance is the pin a host keeps).
    pub fn pin(&self) -> Option<&Pin> {
        match self {
            Document::Advanced { pin, .. } => Some(pin),
            _ => None,
        }
    }
}

/// A refused document (or previous pin): every finding, and the
/// reference's message.
#[derive(Debug)]
pub struct Refusal {
    /// The reference's one message (its `form-package: <message>` line):
    /// `<what>: invalid I-JSON: …` for a document that is not strict I-JSON
    /// (`ops::revocation::reference_parse_line`), else the first finding's message (which
    /// carries the reference's prefix).
    pub reference_line: String,
    /// The report of the refused file: one document entry named by its
    /// path as given, with every finding (`ops::revocation::document_report`).
    pub report: Report,
    /// The refused file's path as given.
    pub display: String,
}
