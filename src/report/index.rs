//! What `index DIR` returns (`ops::index::run`): the index written or
//! compared, or the findings that stopped it; `render::index` prints it.

use std::path::PathBuf;

use crate::report::Report;

/// What `index` did; [`crate::render::index::report`] prints it.
#[derive(Debug)]
pub enum IndexRun {
    /// Findings stopped it (exit 1): nothing was written.
    Refused(Box<Refused>),
    /// `--check`: the index that would be written, compared with the
    /// existing one (exit 1 when it would change, [`Indexed::drift`]).
    Checked(Indexed),
    /// The index was written (exit 0) to `path` (DIR's
    /// `package-index.json`).
    Wrote {
        /// What was written.
        indexed: Indexed,
        /// Where.
        path: PathBuf,
    },
}

/// What `index` built ([`crate::index::build`]), as its view says it:
/// the profile chosen and why, and how the index differs from the
/// existing one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Indexed {
    /// The index profile written and why it was chosen.
    pub profile: Profile,
    /// Whether the canonical form differs from the existing index.
    pub drift: bool,
    /// What differs, one line each (`added fixtures/x.json`, `changed
    /// definition.json (size, digest)`, `formRef.schemaDigest`, …).
    pub changes: Vec<String>,
}

/// The index profile `index` chose, and why, in a phrase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// The index `apiVersion` (`packages.forms.takoform.com/v1alpha5`).
    pub api_version: String,
    /// Why it is this one ([`crate::index::ProfileChoice::why`]).
    pub why: String,
}

impl From<&crate::index::Indexed> for Indexed {
    fn from(built: &crate::index::Indexed) -> Self {
        Indexed {
            profile: Profile {
                api_version: built.profile.api_version.clone(),
                why: built.profile.why(),
            },
            drift: built.drift,
            changes: built.changes.clone(),
        }
    }
}

/// The findings that stopped `index`, and what that leaves.
#[derive(Debug)]
pub struct Refused {
    /// The report of the findings: one package entry, DIR, with the
    /// files they name read again for their `line:column` (see
    /// `findings_of`).
    pub report: Report,
    /// `--check` was given (it never writes).
    pub check: bool,
    /// DIR's `package-index.json`.
    pub index: PathBuf,
    /// Whether it exists: it is then unchanged, else it was not created.
    pub index_exists: bool,
}

impl IndexRun {
    /// The exit status: `1` refused (nothing was written, whatever its
    /// report's findings weigh), or `--check` found the index would
    /// change; else `0`.
    pub fn exit_code(&self) -> u8 {
        match self {
            IndexRun::Refused(_) => 1,
            IndexRun::Checked(indexed) => u8::from(indexed.drift),
            IndexRun::Wrote { .. } => 0,
        }
    }
}
