//! What `relations PATH` returns (`ops::relations::run`): the relations
//! derived from one definition and the run's report, or why there are
//! none; `render::relations` prints it.

use crate::report::{Entry, Report};
use crate::summary::{Instance, Relation};

/// The version of the `--format json` document.
pub const VERSION: u32 = 1;

/// The definition the relations are derived from, as the reports name it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Definition {
    /// Its name in findings: package-relative (`definition.json`, or the
    /// index's `definitionPath`), PATH as given for a bare file, or
    /// `<stdin>`.
    pub name: String,
    /// Its `apiVersion` (`""` when absent or not a string).
    pub api_version: String,
    /// Its `kind` (`""` when absent or not a string).
    pub kind: String,
    /// Its `definitionVersion` (`""` when absent or not a string).
    pub definition_version: String,
}

/// A finding that stopped `relations` (exit 1): the definition (or the
/// index naming it, or the `--instance` document) cannot be read or
/// parsed, or is not what `relations` takes (FD630).
#[derive(Debug)]
pub struct Stopped {
    /// The document when it parsed but is not a Form Definition (FD630):
    /// its members name it in the `--format json` document.
    pub definition: Option<Definition>,
    /// The report of the run: one entry, the finding's, as `verify`
    /// reports a failing package (its path the package directory, or,
    /// for a file named as given, named after that file).
    pub report: Report,
}

/// Why `relations` produced no relations.
#[derive(Debug)]
pub enum Refusal {
    /// The command could not run (exit 2): PATH (or the `--instance` FILE)
    /// does not exist, is not a regular file or directory, or cannot be
    /// read; standard input cannot be read. The message names the cause;
    /// there is no report (nothing goes to stdout, in any format).
    Usage(String),
    /// A finding stopped it (exit 1).
    Stopped(Box<Stopped>),
}

/// The relations of one definition: what `relations` reports.
#[derive(Debug)]
pub struct Derived {
    /// The definition they were derived from.
    pub definition: Definition,
    /// The relations, sorted by pointer (byte-wise).
    pub relations: Vec<Relation>,
    /// With `--instance`: the concrete instances in the desired document
    /// (none when that document was refused, see
    /// [`Derived::instance_refused`]).
    pub instances: Option<Vec<Instance>>,
    /// The report of the run, built complete. Its first entry is the
    /// definition's: its path is the package directory (empty for a bare
    /// definition or standard input, and the entry is then named after the
    /// definition: [`Definition::name`]), its findings (warnings
    /// FD500–FD507 and FD509, note FD508) sorted by (pointer, severity,
    /// code), its one source the definition. A second entry is a
    /// `--instance` document that does not parse or is not a JSON object
    /// (FD012…, FD630), named after the FILE as given: the run exits 1.
    pub report: Report,
}

impl Derived {
    /// The entry of the refused `--instance` document, if it was refused.
    pub fn instance_refused(&self) -> Option<&Entry> {
        self.report.entries.get(1)
    }
}
