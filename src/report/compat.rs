//! What `compat` returns to its view (`ops::compat::run`): the run's
//! report, each compared pair as typed values (its summary, its change
//! records and findings, each a [`Diagnostic`] located in NEW, or in OLD
//! for what NEW lacks, with OLD as its related location when NEW has it
//! too: [`Record`]), and what the walk skipped; `render::compat` prints
//! it in every format and reads nothing of `compat` itself.

use std::path::PathBuf;

use serde_json::Value;

use crate::codes::ChangeClass;
use crate::diag::{Diagnostic, Related};
use crate::json::pointer::JsonPointer;
use crate::json::position::Position;
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
    pub findings: Vec<Record>,
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

/// Which side of a pair a location is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The older side.
    Old,
    /// The newer side.
    New,
}

/// The label of a record's location in OLD when it is located in NEW
/// ([`Related::label`]).
pub const OLD: &str = "old";

/// A change record's or a finding's [`Diagnostic`] and where it is: its
/// own location is in NEW (in OLD when only OLD has it), OLD's its related
/// location labelled [`OLD`] when NEW has it too, each located in its
/// side by [`crate::locate`] when the record was built.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Code, severity, message (package text escaped), help and notes (the
    /// other side's location as the formats of `verify` note it), its
    /// file and pointer in the side it is located in, and OLD's location
    /// as its related location when NEW has it too.
    pub diagnostic: Diagnostic,
    /// The side the diagnostic's own location is in; `None` when the record
    /// names neither side (the diagnostic is then at NEW's root).
    pub side: Option<Which>,
    /// 1-based line and column of the diagnostic's own location (of the
    /// nearest ancestor that resolves); `None` when it does not resolve.
    pub position: Option<Position>,
}

impl Record {
    /// Where it is in OLD, when it is about OLD.
    pub fn in_old(&self) -> Option<Place<'_>> {
        match self.side {
            Some(Which::Old) => Some(self.own()),
            Some(Which::New) => self.diagnostic.related_at(OLD).map(Place::of),
            None => None,
        }
    }

    /// Where it is in NEW, when it is about NEW.
    pub fn in_new(&self) -> Option<Place<'_>> {
        (self.side == Some(Which::New)).then(|| self.own())
    }

    /// The diagnostic's own location.
    fn own(&self) -> Place<'_> {
        Place {
            file: self.diagnostic.file.as_deref(),
            pointer: &self.diagnostic.pointer,
            position: self.position,
        }
    }
}

/// One change record of a pair: its [`Record`] and what only a change
/// record has.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Its diagnostic (code FD650–FD682) and where it is.
    pub record: Record,
    /// Its class.
    pub class: ChangeClass,
    /// True for the observed/output readings of versioning-rules V5.
    pub inference: bool,
    /// The witness of a meaning change (`FD668`, `FD682`).
    pub witness: Option<Value>,
    /// The witness is valid under both schemas as it is (a counterexample,
    /// not what hosts that materialize make of it).
    pub valid_under_both: bool,
}

/// Where a record is in one side: read from its diagnostic (its own
/// location or its related one), never stored beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    /// The side's file holding it; `None` when the side has no such
    /// document (a bare definition has no package index).
    pub file: Option<&'a str>,
    /// The pointer into it.
    pub pointer: &'a JsonPointer,
    /// Line and column of what it names, else of the nearest ancestor that
    /// resolves.
    pub position: Option<Position>,
}

impl<'a> Place<'a> {
    /// The place a related location names.
    pub fn of(related: &'a Related) -> Self {
        Place {
            file: related.file.as_deref(),
            pointer: &related.pointer,
            position: related.position,
        }
    }

    /// `file:line:column at /pointer` (`file at /pointer` when the pointer
    /// does not resolve; no ` at /pointer` for the root; empty with no
    /// file), the package's text as it is (a printer escapes it).
    pub fn shown(&self) -> String {
        let Some(file) = self.file else {
            return String::new();
        };
        let at = if self.pointer.is_root() {
            String::new()
        } else {
            format!(" at {}", self.pointer)
        };
        match self.position {
            Some(p) => format!("{file}:{}:{}{at}", p.line, p.column),
            None => format!("{file}{at}"),
        }
    }
}
