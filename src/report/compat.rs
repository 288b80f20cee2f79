//! What `compat` returns to its view (`ops::compat::run`): the run's
//! report, each compared pair as typed values (its summary, its change
//! records and findings, each located in both sides by
//! [`crate::locate`]), and what the walk skipped; `render::compat`
//! prints it in every format and reads nothing of `compat` itself.

use std::path::PathBuf;

use serde_json::Value;

use crate::codes::{ChangeClass, Code};
use crate::json::pointer::JsonPointer;
use crate::report::Report;
use crate::summary::PairSummary;

/// Which command produced a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `compat OLD NEW`.
    Pair,
    /// `compat --history PATH...`.
    History,
    /// `compat --baseline BASE PATH...`.
    Baseline,
}

/// Everything one `compat` run found, as its view prints it.
#[derive(Debug)]
pub struct Compat {
    /// The command.
    pub mode: Mode,
    /// Every compared pair, in (group, kind, precedence) order; the pair
    /// at `i` is the entry `outside_pairs() + i` of [`Compat::report`].
    pub pairs: Vec<Pair>,
    /// Packages of BASE refused by verification (never used as a baseline;
    /// counted, not listed).
    pub base_refused: usize,
    /// The run's report, built complete: first the findings outside the
    /// pairs ([`Compat::outside_pairs`]), then one entry per pair, in
    /// order, its findings its change records then the pair's findings.
    pub report: Report,
    /// Directories the walk of `--history` / `--baseline` skipped by a rule
    /// (hidden, `.gitignore`), with the rule.
    pub skipped: Vec<(PathBuf, super::SkipRule)>,
}

impl Compat {
    /// The number of entries of [`Compat::report`] outside the pairs (its
    /// first ones).
    pub fn outside_pairs(&self) -> usize {
        self.report.entries.len().saturating_sub(self.pairs.len())
    }
}

/// One compared pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// Its summary, as its entry carries it (the members of its `--format
    /// json` object besides `changes` and `findings`).
    pub summary: PairSummary,
    /// The older side.
    pub old: End,
    /// The newer side.
    pub new: End,
    /// True when OLD and NEW name different groups or kinds.
    pub reidentified: bool,
    /// The desired verdict's name (`identical` … `unknown`); `None` when
    /// the pair was not compared.
    pub verdict: Option<&'static str>,
    /// A `breaking` verdict's witness: valid under OLD, refused by NEW.
    pub witness: Option<Value>,
    /// A `widened` verdict's document: valid under NEW, refused by OLD.
    pub newly_accepted: Option<Value>,
    /// Every change record, in definition member order.
    pub changes: Vec<Change>,
    /// The findings about the versions.
    pub findings: Vec<Finding>,
}

/// One side of a pair, as its verdict line names it.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    /// Its FormRef's `apiVersion`, as written.
    pub api_version: String,
    /// Its FormRef's `kind`, as written.
    pub kind: String,
    /// Its `definitionVersion`, as written.
    pub definition_version: String,
    /// `group kind version`.
    pub label: String,
    /// The PATH as given.
    pub path: PathBuf,
}

/// One change record of a pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Its code (FD650–FD682).
    pub code: Code,
    /// Its class.
    pub class: ChangeClass,
    /// True for the observed/output readings of versioning-rules V5.
    pub inference: bool,
    /// One phrase; package text in it is escaped.
    pub message: String,
    /// The witness of a meaning change (`FD668`, `FD682`).
    pub witness: Option<Value>,
    /// The witness is valid under both schemas as it is (a counterexample,
    /// not what hosts that materialize make of it).
    pub valid_under_both: bool,
    /// Where it is in OLD (`None`: NEW only).
    pub old: Option<Place>,
    /// Where it is in NEW (`None`: OLD only).
    pub new: Option<Place>,
}

/// One finding about a pair's versions.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Its code.
    pub code: Code,
    /// One phrase; package text in it is escaped.
    pub message: String,
    /// Where it is in OLD's definition, when it is about OLD.
    pub old: Option<Place>,
    /// Where it is in NEW's definition, when it is about NEW.
    pub new: Option<Place>,
}

/// Where a change record or finding is in one side.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// The side's file holding it; `None` when the side has no such
    /// document (a bare definition has no package index).
    pub file: Option<String>,
    /// The pointer into it.
    pub pointer: JsonPointer,
    /// `(line, column)` of what it names, else of the nearest ancestor
    /// that resolves ([`crate::locate::pointer_position`]).
    pub line_column: Option<(usize, usize)>,
    /// `file:line:column at /pointer` (`file at /pointer` when the pointer
    /// does not resolve; no ` at /pointer` for the root; empty with no
    /// file), the package's text as it is (the view escapes it).
    pub shown: String,
}
