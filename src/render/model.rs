//! The render front end's model: every finding of a run with its span and
//! positions resolved once, before any renderer runs.
//!
//! [`RunView::of`] builds the view of a run's [`Report`] (each entry's
//! kind, name, selection, counts and verdict are the report's, never
//! patched afterwards; an entry's name and whether the run could run are
//! read through [`PackageView::name`] and [`RunView::could_not_run`]).
//! It is the only way a command builds a view (`tests/docs/imports.rs`);
//! `RunView::new`, a view of bare package outcomes, exists for the
//! renderers' unit tests only. It walks each entry's findings once and
//! locates each ([`crate::locate::Locator`], the one place a finding is
//! located: one [`crate::locate::LineIndex`] per file that some finding needs, O(file
//! size) once; its JSON Pointer to a byte span, the span to start/end
//! [`Position`]s). Every
//! renderer (human, JSON, SARIF, GitHub, JUnit) reads these, so all of them
//! show the same `line:column` and none of them scans a file per finding:
//! rendering N findings of a file of S bytes costs O(S + N log S).

use std::ops::Range;
use std::path::Path;

use super::position::Position;
use crate::diag::Diagnostic;
pub use crate::report::{Counts, EntryKind, Hidden};
use crate::report::{Entry, Report, SkipRule};
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

/// One entry of a report (a package, a document, the configuration file or
/// a walk finding): its outcome and its located findings (in the
/// outcome's order).
#[derive(Debug)]
pub struct PackageView<'a> {
    /// What `verify` (or another command) learned about the package.
    pub outcome: &'a PackageOutcome,
    /// Every finding, located, in the outcome's order.
    pub findings: Vec<Located<'a>>,
    /// Its findings by severity.
    pub counts: Counts,
    /// Whether it fails ([`Counts::fails`]): an error, or a warning under
    /// `--deny-warnings`.
    pub failed: bool,
    /// What a selection hid or demoted (default: nothing).
    pub hidden: Hidden,
    /// What the entry is (from the report's [`Entry::kind`]; default a
    /// package).
    pub kind: EntryKind,
    /// The name the report gives this entry in `json` and `junit`, when it
    /// is not the outcome's path ([`Entry::named`]: the configuration file
    /// as the run names it; `check`: each document's path as given, while
    /// its outcome's path is the directory its files are relative to).
    /// Read through [`PackageView::name`]; set only from the report.
    display: Option<std::path::PathBuf>,
}

/// A whole run, located (see the module docs).
#[derive(Debug)]
pub struct RunView<'a> {
    /// Packages in the order given.
    pub packages: Vec<PackageView<'a>>,
    /// All findings by severity.
    pub counts: Counts,
    /// Entries counted as packages ([`EntryKind::is_package`]) that fail.
    pub failed: usize,
    /// The run exits 2 (a PATH does not exist, an input named could not be
    /// read): SARIF `invocations[0].executionSuccessful` is false
    /// ([`Report::could_not_run`]). Read through [`RunView::could_not_run`];
    /// set only from the report.
    could_not_run: bool,
    /// The configuration file in force, as the run names it (found upward
    /// or `--config FILE`), named by every format: the human header, the
    /// JSON `configuration` member, SARIF `invocations[0].properties`, a
    /// GitHub notice and a JUnit suite property (issue 22 item 4). `None`:
    /// no file was read ([`Report::config`]).
    pub config: Option<std::path::PathBuf>,
    /// The directories the walk skipped by a rule, each with its rule
    /// (`hidden`, `.gitignore`, `exclude`; [`crate::discover::Walk::skipped`]),
    /// said by [`crate::render::report`] after the report (never in
    /// silence, issue 14). Empty for a run without a walk
    /// ([`Report::skipped`]).
    pub skipped: Vec<(std::path::PathBuf, SkipRule)>,
}

impl<'a> RunView<'a> {
    /// Locates every finding of `outcomes`, each a package entry with no
    /// selection: the renderers' unit tests only (every command's view is
    /// its report's, `RunView::of`). `deny_warnings`: a warning fails its
    /// package.
    #[cfg(test)]
    pub(crate) fn new(outcomes: &'a [PackageOutcome], deny_warnings: bool) -> Self {
        Self::of_views(
            outcomes
                .iter()
                .map(|o| PackageView::located(o, deny_warnings))
                .collect(),
        )
    }

    /// True when the run could not run ([`Report::could_not_run`]: a PATH
    /// that does not exist, an input named that could not be read): the
    /// run exits 2, and SARIF says it did not complete.
    pub fn could_not_run(&self) -> bool {
        self.could_not_run
    }

    /// The view of `report`: every entry located, with its kind, name and
    /// what its selection hid as the report built them, and the report's
    /// configuration file, skipped directories and whether it could run.
    pub fn of(report: &'a Report) -> Self {
        let view = |e| PackageView::of(e, report.rule.deny_warnings);
        // Locating is per entry: several locate on the pool (as
        // `human::render_run` renders them).
        let views = if report.entries.len() > 1 {
            use rayon::prelude::*;
            report.entries.par_iter().map(view).collect()
        } else {
            report.entries.iter().map(view).collect()
        };
        let mut run = Self::of_views(views);
        run.could_not_run = report.could_not_run();
        run.config.clone_from(&report.config);
        run.skipped.clone_from(&report.skipped);
        run
    }

    /// A run of `packages` (nothing else set).
    fn of_views(packages: Vec<PackageView<'a>>) -> Self {
        let mut counts = Counts::default();
        for p in &packages {
            counts.add(p.counts);
        }
        let failed = packages
            .iter()
            .filter(|p| p.kind.is_package() && p.failed)
            .count();
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

    /// The numbers a summary line says, as its words, for the human and
    /// GitHub lines to arrange: `N packages`, `V verified` (then
    /// [`RunView::unverified_note`]), `F failed`, `E errors`, `W warnings`,
    /// `N notes`.
    pub fn tally(&self) -> [String; 6] {
        [
            super::count(self.package_count(), "package"),
            format!("{} verified{}", self.verified(), self.unverified_note()),
            format!("{} failed", self.failed),
            super::count(self.counts.errors, "error"),
            super::count(self.counts.warnings, "warning"),
            super::count(self.counts.notes, "note"),
        ]
    }

    /// Entries that are packages ([`EntryKind::is_package`]): neither the
    /// configuration file's (T2 F8) nor a walk finding's. What every summary
    /// counts as "N packages".
    pub fn package_count(&self) -> usize {
        self.packages.iter().filter(|p| p.kind.is_package()).count()
    }

    /// Every located finding with its package, in order.
    pub fn findings(&self) -> impl Iterator<Item = (&PackageView<'a>, &Located<'a>)> {
        self.packages
            .iter()
            .flat_map(|p| p.findings.iter().map(move |f| (p, f)))
    }
}

impl<'a> PackageView<'a> {
    /// Locates the findings of the report's `entry`: its kind, name, what
    /// its selection hid, its counts and its verdict ([`Entry::fails`]) are
    /// the report's.
    pub fn of(entry: &'a Entry, deny_warnings: bool) -> Self {
        PackageView {
            findings: locate(entry.outcome()),
            outcome: entry.outcome(),
            counts: entry.counts(),
            failed: entry.fails(deny_warnings),
            hidden: entry.hidden().clone(),
            kind: entry.kind(),
            display: Some(entry.name().to_path_buf()),
        }
    }

    /// Locates the findings of one bare package outcome, with no selection
    /// ([`RunView::new`]).
    #[cfg(test)]
    fn located(outcome: &'a PackageOutcome, deny_warnings: bool) -> Self {
        let counts = Counts::of(&outcome.diagnostics);
        PackageView {
            outcome,
            findings: locate(outcome),
            counts,
            failed: counts.fails(deny_warnings),
            hidden: Hidden::default(),
            kind: EntryKind::Package,
            display: None,
        }
    }

    /// The package directory as given.
    pub fn path(&self) -> &'a Path {
        &self.outcome.path
    }

    /// The name of the entry in a report: the name the report gave it
    /// ([`Entry::named`]; the configuration file for its entry, a document's
    /// path as given), else the package directory as given.
    pub fn name(&self) -> &Path {
        self.display.as_deref().unwrap_or(&self.outcome.path)
    }
}

/// Every finding of `outcome`, located ([`crate::locate::Locator`]: one
/// [`crate::locate::LineIndex`] per file).
fn locate(outcome: &PackageOutcome) -> Vec<Located<'_>> {
    let mut locator = crate::locate::Locator::new();
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let source = d.file.as_deref().and_then(|f| outcome.sources.get(f));
            let place = locator.finding(d, source);
            Located {
                diag: d,
                source,
                span: place.span,
                start: place.start,
                end: place.end,
            }
        })
        .collect()
}
