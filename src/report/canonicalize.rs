//! What `canonicalize FILE` and `digest FILE` return
//! (`ops::canonicalize::run`): the bytes, or a [`Refusal`] that
//! `render::canonical` prints.

use crate::diag::Diagnostic;
use crate::error::Error;
use crate::verify::Source;

/// Why a file has no canonical form (`ops::canonicalize::run`); `render::canonical` prints it.
#[derive(Debug)]
pub enum Refusal {
    /// The file cannot be read (exit 2).
    Unreadable(Error),
    /// The file is not strict I-JSON or has no RFC 8785 form (exit 1).
    Invalid(Box<Invalid>),
}

impl Refusal {
    /// The exit status of a refusal: the I/O error's (2, the command could
    /// not run) for a file that cannot be read, 1 for one with no canonical
    /// form.
    pub fn exit_code(&self) -> u8 {
        match self {
            Refusal::Unreadable(e) => e.exit_code(),
            Refusal::Invalid(_) => 1,
        }
    }
}

/// The exit status of `canonicalize`/`digest` for what `ops::canonicalize::run` returned:
/// 0 printed, else [`Refusal::exit_code`]. `cli/canonicalize.rs` passes it
/// through; `render::canonical` only makes the text.
pub fn exit_code(result: &Result<Vec<u8>, Refusal>) -> u8 {
    result.as_ref().err().map_or(0, Refusal::exit_code)
}

/// A file that is not strict I-JSON or has no RFC 8785 form.
#[derive(Debug)]
pub struct Invalid {
    /// The reference's message (its `form-package: <message>` line).
    pub reference_line: String,
    /// Our finding, its file the path as given.
    pub finding: Diagnostic,
    /// The file's bytes (and spans, when it parsed), which the finding
    /// points into.
    pub source: Source,
}
