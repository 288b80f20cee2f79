//! The render front end's model: every finding of a run with its span and
//! positions resolved once, before any renderer runs.
//!
//! [`RunView::new`] walks each package's findings once, builds one
//! [`LineIndex`] per file that some finding needs (O(file size), once), and
//! resolves each finding's JSON Pointer to a byte span
//! ([`super::resolve_span`]) and the span to start/end [`Position`]s. Every
//! renderer (human, JSON, SARIF, GitHub, JUnit) reads these, so all of them
//! show the same `line:column` and none of them scans a file per finding:
//! rendering N findings of a file of S bytes costs O(S + N log S).

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use super::position::{LineIndex, Position};
use crate::diag::{Diagnostic, Severity};
use crate::verify::{PackageOutcome, Source};

/// One finding with its location resolved.
#[derive(Debug)]
pub struct Located<'a> {
    /// The finding.
    pub diag: &'a Diagnostic,
    /// The bytes of its file, when the package kept them.
    pub source: Option<&'a Source>,
    /// Byte span in its file (explicit, else the pointer's), when it resolves.
    pub span: Option<Range<usize>>,
    /// Position of the span's first byte.
    pub start: Option<Position>,
    /// Position just past the span's last byte.
    pub end: Option<Position>,
}

impl Located<'_> {
    /// `<package>/<file>` as a display path (the package directory itself
    /// for a finding without a file). `package` is the directory as given.
    pub fn path(&self, package: &Path) -> String {
        match &self.diag.file {
            Some(f) => package.join(f).display().to_string(),
            None => package.display().to_string(),
        }
    }

    /// `<package>/<file>:line:column` (`:line:column` only when the span
    /// resolved), the one location shape of every command's output.
    pub fn location(&self, package: &Path) -> String {
        let path = self.path(package);
        match (&self.diag.file, self.start) {
            (Some(_), Some(p)) => format!("{path}:{}:{}", p.line, p.column),
            _ => path,
        }
    }
}

/// Errors, warnings and notes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Findings of severity error.
    pub errors: usize,
    /// Findings of severity warning.
    pub warnings: usize,
    /// Findings of severity note.
    pub notes: usize,
}

impl Counts {
    /// Errors + warnings + notes.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.notes
    }

    fn add(&mut self, s: Severity) {
        self.add_n(s, 1);
    }

    /// Counts `n` findings of severity `s`.
    fn add_n(&mut self, s: Severity, n: usize) {
        let slot = match s {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
            Severity::Note => &mut self.notes,
        };
        *slot = slot.saturating_add(n);
    }

    /// Counts one finding as [`Diagnostic::weight`] findings (itself and
    /// those it says were not shown).
    pub fn add_diagnostic(&mut self, d: &Diagnostic) {
        self.add_n(d.severity, d.weight());
    }
}

/// What a selection (`--select`, `--ignore`, `--warn`, `form-package.toml`;
/// [`crate::select`]) changed in one package, set by `verify` after
/// [`RunView::new`] (N1 findings §3.2).
#[derive(Clone, Debug, Default)]
pub struct Hidden {
    /// Findings the selection hid, by their severity as found.
    pub counts: Counts,
    /// Errors the selection reports as warnings (`--warn`).
    pub demoted: usize,
}

impl Hidden {
    /// True when the package had an error the selection hid or demoted:
    /// it passes (exit 0) but was not verified (stages may have been skipped).
    pub fn unverified(&self) -> bool {
        self.counts.errors + self.demoted > 0
    }

    /// Counts one finding the selection hid.
    pub fn add(&mut self, s: Severity) {
        self.counts.add(s);
    }
}

/// What an entry of a report is (issue 21 item 3). Only packages and
/// documents are counted as packages (verified or failed); the other kinds
/// fail the run when they hold an error, and are named in every format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// A Form Package directory.
    #[default]
    Package,
    /// A single document (`check`, `relations`).
    Document,
    /// The configuration file in force (`form-package.toml`, `--config`).
    Configuration,
    /// A finding of the walk for packages, about a PATH rather than a
    /// package: a PATH that does not exist (`FD900`), a directory the walk
    /// cannot read (`FD901`) or will not follow (`FD902`).
    Path,
}

impl EntryKind {
    /// True for the kinds a summary counts as packages.
    pub fn is_package(self) -> bool {
        matches!(self, EntryKind::Package | EntryKind::Document)
    }
}

/// One package: its outcome and its located findings (in the outcome's order).
#[derive(Debug)]
pub struct PackageView<'a> {
    /// What `verify` (or another command) learned about the package.
    pub outcome: &'a PackageOutcome,
    /// Every finding, located, in the outcome's order.
    pub findings: Vec<Located<'a>>,
    /// Its findings by severity.
    pub counts: Counts,
    /// Whether it fails: an error, or a warning under `--deny-warnings`.
    pub failed: bool,
    /// What a selection hid or demoted (default: nothing).
    pub hidden: Hidden,
    /// `Some(the configuration file as the run names it)` when this entry
    /// holds the findings of `form-package.toml` (or `--config FILE`), not a
    /// package: shown under that name and failing the run, but never
    /// counted as a package (T2 F8). Set with [`RunView::mark_configuration`].
    pub configuration: Option<std::path::PathBuf>,
    /// What the entry is ([`RunView::mark_configuration`] and
    /// [`RunView::mark_path`] set it; default a package).
    pub kind: EntryKind,
    /// The name the command gives this entry in `json` and `junit`, when it
    /// is not the outcome's path (`check`: each document's path as given,
    /// while its outcome's path is the directory its files are relative to).
    pub display: Option<std::path::PathBuf>,
}

/// A whole run, located (see the module docs).
#[derive(Debug)]
pub struct RunView<'a> {
    /// Packages in the order given.
    pub packages: Vec<PackageView<'a>>,
    /// All findings by severity.
    pub counts: Counts,
    /// Packages that fail (configuration entries not included).
    pub failed: usize,
    /// The run exits 2 (a PATH does not exist): SARIF
    /// `invocations[0].executionSuccessful` is false. Set by the caller;
    /// [`RunView::new`] leaves it false.
    pub could_not_run: bool,
    /// The configuration file in force, as the run names it (found upward
    /// or `--config FILE`), named by every format: the human header, the
    /// JSON `configuration` member, SARIF `invocations[0].properties`, a
    /// GitHub notice and a JUnit suite property (issue 22 item 4). `None`:
    /// no file was read. Set by the caller.
    pub config: Option<std::path::PathBuf>,
    /// The directories the walk skipped by a rule, each with its rule
    /// (`hidden`, `.gitignore`, `exclude`; [`crate::discover::Walk::skipped`]),
    /// said by [`crate::render::report`] after the report (never in
    /// silence, issue 14). Set by the caller; empty for a run without a
    /// walk.
    pub skipped: Vec<(std::path::PathBuf, String)>,
}

impl<'a> RunView<'a> {
    /// Locates every finding of `outcomes` (see the module docs).
    /// `deny_warnings`: a warning fails its package.
    pub fn new(outcomes: &'a [PackageOutcome], deny_warnings: bool) -> Self {
        let mut counts = Counts::default();
        let mut failed = 0;
        let packages: Vec<PackageView<'a>> = outcomes
            .iter()
            .map(|o| {
                let view = PackageView::new(o, deny_warnings);
                counts.errors += view.counts.errors;
                counts.warnings += view.counts.warnings;
                counts.notes += view.counts.notes;
                failed += usize::from(view.failed);
                view
            })
            .collect();
        RunView {
            packages,
            counts,
            failed,
            could_not_run: false,
            config: None,
            skipped: Vec::new(),
        }
    }

    /// Packages that do not fail and had no error hidden or demoted by a
    /// selection.
    pub fn verified(&self) -> usize {
        self.package_count() - self.failed - self.unverified()
    }

    /// Packages that pass only because a selection hid or demoted their
    /// errors ([`Hidden::unverified`]).
    pub fn unverified(&self) -> usize {
        self.packages
            .iter()
            .filter(|p| p.kind.is_package() && !p.failed && p.hidden.unverified())
            .count()
    }

    /// `, N unverified: errors hidden or demoted by a selection` when
    /// [`RunView::unverified`] is not 0, else nothing: the part of a
    /// summary line (human, github) that says so.
    pub fn unverified_note(&self) -> String {
        match self.unverified() {
            0 => String::new(),
            n => format!(", {n} unverified: errors hidden or demoted by a selection"),
        }
    }

    /// Entries that are packages ([`EntryKind::is_package`]): neither the
    /// configuration file's (T2 F8) nor a walk finding's. What every summary
    /// counts as "N packages".
    pub fn package_count(&self) -> usize {
        self.packages.iter().filter(|p| p.kind.is_package()).count()
    }

    /// True when a package fails, or the configuration file or a walk
    /// finding has an error: the run's verdict (exit 1 unless it could not
    /// run).
    pub fn fails(&self) -> bool {
        self.failed > 0
            || self
                .packages
                .iter()
                .any(|p| !p.kind.is_package() && p.failed)
    }

    /// Marks entry `index` as the findings of the configuration file
    /// `name` (not a package): it leaves the package counts. Out of range
    /// or already marked: nothing changes.
    pub fn mark_configuration(&mut self, index: usize, name: std::path::PathBuf) {
        if let Some(p) = self.packages.get_mut(index) {
            if p.kind.is_package() {
                self.failed -= usize::from(p.failed);
                p.configuration = Some(name);
                p.kind = EntryKind::Configuration;
            }
        }
    }

    /// Marks entry `index` as a finding of the walk for packages (a PATH,
    /// not a package: [`EntryKind::Path`]): it leaves the package counts.
    /// Out of range or already marked: nothing changes.
    pub fn mark_path(&mut self, index: usize) {
        if let Some(p) = self.packages.get_mut(index) {
            if p.kind.is_package() {
                self.failed -= usize::from(p.failed);
                p.kind = EntryKind::Path;
            }
        }
    }

    /// Every located finding with its package, in order.
    pub fn findings(&self) -> impl Iterator<Item = (&PackageView<'a>, &Located<'a>)> {
        self.packages
            .iter()
            .flat_map(|p| p.findings.iter().map(move |f| (p, f)))
    }
}

impl<'a> PackageView<'a> {
    /// Locates the findings of one package: one [`LineIndex`] per file.
    pub fn new(outcome: &'a PackageOutcome, deny_warnings: bool) -> Self {
        let mut indexes: HashMap<&str, LineIndex> = HashMap::new();
        let mut counts = Counts::default();
        let findings = outcome
            .diagnostics
            .iter()
            .map(|d| {
                counts.add_diagnostic(d);
                let source = d.file.as_deref().and_then(|f| outcome.sources.get(f));
                let span = super::resolve_span(d, source);
                let (start, end) = match (d.file.as_deref(), source, &span) {
                    (Some(f), Some(src), Some(s)) => {
                        let idx = indexes
                            .entry(f)
                            .or_insert_with(|| LineIndex::new(&src.bytes));
                        (
                            Some(idx.position(&src.bytes, s.start)),
                            Some(idx.position(&src.bytes, s.end)),
                        )
                    }
                    _ => (None, None),
                };
                Located {
                    diag: d,
                    source,
                    span,
                    start,
                    end,
                }
            })
            .collect();
        let failed = counts.errors > 0 || (deny_warnings && counts.warnings > 0);
        PackageView {
            outcome,
            findings,
            counts,
            failed,
            hidden: Hidden::default(),
            configuration: None,
            kind: EntryKind::Package,
            display: None,
        }
    }

    /// The package directory as given.
    pub fn path(&self) -> &'a Path {
        &self.outcome.path
    }

    /// The name of the entry in a report: the configuration file for its
    /// entry, else the name the command gave it ([`PackageView::display`]),
    /// else the package directory as given.
    pub fn name(&self) -> &Path {
        self.configuration
            .as_deref()
            .or(self.display.as_deref())
            .unwrap_or(&self.outcome.path)
    }
}
