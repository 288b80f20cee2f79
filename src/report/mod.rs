//! The report of a run (issue 21 item 3): what `verify` found (and
//! `check`, the revocation commands, a refused `conformance` manifest, a
//! refused `index`, the language server), built complete before anything
//! renders it.
//!
//! A [`Report`] is a list of [`Entry`]s, each a package, a document, the
//! configuration file or a finding of the walk about a PATH
//! ([`EntryKind`], set when the entry is built, never patched afterwards),
//! each holding its findings after the selection (`--select`, `--ignore`,
//! `--warn`, `form-package.toml`; [`crate::select`]) and what the selection
//! hid or demoted ([`Hidden`]); then the directories the walk skipped by a
//! rule, the configuration file in force, whether statistics were asked
//! for, and the [`ExitRule`]. [`Report::exit_code`] decides the exit status
//! by the one verdict rule ([`Counts::fails`]) that every renderer's view
//! ([`crate::render::RunView`], built from the report) and
//! [`PackageOutcome::fails`] use too.

pub mod canonicalize;
pub mod check;
pub mod compat;
pub mod conformance;
pub mod family;
pub mod index;
pub mod relations;
pub mod revocation;
pub mod trust;
pub mod walk;

use std::path::{Path, PathBuf};

/// The rule a directory was skipped by (the walk's, and `compat`'s), as
/// every report holds it.
pub use crate::discover::SkipRule;

use crate::codes::Code;
use crate::diag::{Diagnostic, Severity};
use crate::select::Settings;
use crate::verify::PackageOutcome;

/// Errors, warnings and notes, each finding counted as
/// [`Diagnostic::weight`] findings (itself and those it says were not shown).
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
    /// The weighted counts of `diags`.
    pub fn of<'a>(diags: impl IntoIterator<Item = &'a Diagnostic>) -> Self {
        let mut c = Counts::default();
        for d in diags {
            c.add_diagnostic(d);
        }
        c
    }

    /// Errors + warnings + notes.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.notes
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

    /// Counts one finding as [`Diagnostic::weight`] findings.
    pub fn add_diagnostic(&mut self, d: &Diagnostic) {
        self.add_n(d.severity, d.weight());
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: Counts) {
        self.errors = self.errors.saturating_add(other.errors);
        self.warnings = self.warnings.saturating_add(other.warnings);
        self.notes = self.notes.saturating_add(other.notes);
    }

    /// The verdict of one entry, the one rule of every command and format:
    /// it fails when it holds an error, or a warning under
    /// `--deny-warnings` (`deny_warnings`).
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.errors > 0 || (deny_warnings && self.warnings > 0)
    }
}

impl PackageOutcome {
    /// The verdict of one package or document ([`Counts::fails`] on its
    /// findings): true when some finding is an error, or a warning under
    /// `--deny-warnings` (`deny_warnings`). What `check`'s verdict lines
    /// say. (Written here, beside the rule, so that `verify` does not
    /// import the report that imports it.)
    pub fn fails(&self, deny_warnings: bool) -> bool {
        Counts::of(&self.diagnostics).fails(deny_warnings)
    }
}

/// What a selection (`--select`, `--ignore`, `--warn`, `form-package.toml`;
/// [`crate::select`]) changed in one entry, recorded when the entry is
/// built ([`Entry::selected`]; N1 findings §3.2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Findings the selection hid, by their severity as found.
    pub counts: Counts,
    /// Errors the selection reports as warnings (`--warn`).
    pub demoted: usize,
}

impl Hidden {
    /// True when the entry had an error the selection hid or demoted:
    /// it passes (exit 0) but was not verified (stages may have been skipped).
    pub fn unverified(&self) -> bool {
        self.counts.errors + self.demoted > 0
    }

    /// Counts one finding the selection hid.
    pub fn add(&mut self, s: Severity) {
        self.counts.add_n(s, 1);
    }
}

/// What an entry of a report is. Only packages and documents are counted
/// as packages (verified or failed); the other kinds fail the run when
/// they hold an error, and are named in every format.
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
    /// A set compiled by `snapshot` (the Core's Snapshot compiler): its
    /// findings and, when it compiled, its digest and roster.
    Snapshot,
    /// A part of a published trust set checked by `trust verify-set`: the
    /// set folder, a package folder with its bundle, its signed checkpoint,
    /// a replayed checkpoint.
    #[serde(rename = "trust-set")]
    TrustSet,
}

impl EntryKind {
    /// True for the kinds a summary counts as packages.
    pub fn is_package(self) -> bool {
        matches!(self, EntryKind::Package | EntryKind::Document)
    }
}

/// One entry of a report, built complete: what it is, its name, its
/// findings after the selection, what the selection hid or demoted, and its
/// weighted counts. Its fields are set when it is built ([`Entry::selected`],
/// [`Entry::named`]) and read through its methods.
#[derive(Debug)]
pub struct Entry {
    /// What the entry is.
    kind: EntryKind,
    /// The name a report gives the entry when it is not the outcome's path
    /// (the configuration file as the run names it, a document's path as
    /// given).
    name: Option<PathBuf>,
    /// What was learned about it, its findings after the selection.
    outcome: PackageOutcome,
    /// What the selection hid or demoted.
    hidden: Hidden,
    /// Its findings (after the selection) by severity, weighted.
    counts: Counts,
}

impl Entry {
    /// An entry of kind `kind` holding `outcome` as it is (no selection).
    pub fn new(kind: EntryKind, outcome: PackageOutcome) -> Self {
        Entry::selected(kind, outcome, None)
    }

    /// An entry of kind `kind` holding `outcome` with `selection` applied
    /// to its findings, recording what it hid and demoted. A PATH that
    /// does not exist (`FD900`) is why a run exits 2: no selection hides or
    /// demotes it, or the run would fail without a word (T1 B8).
    pub fn selected(
        kind: EntryKind,
        mut outcome: PackageOutcome,
        selection: Option<&Settings>,
    ) -> Self {
        let mut hidden = Hidden::default();
        let missing = names_a_missing_path(&outcome);
        // Weighted errors the selection left shown before applying its
        // `warn` (none when there is no selection: nothing is demoted).
        let mut shown_errors: usize = 0;
        if let Some(selection) = selection.filter(|_| !missing) {
            for d in &outcome.diagnostics {
                if !selection.shows(d.code) {
                    hidden.counts.add_diagnostic(d);
                } else if d.severity == Severity::Error {
                    shown_errors += d.weight();
                }
            }
            selection.apply(&mut outcome.diagnostics);
        }
        let counts = Counts::of(&outcome.diagnostics);
        hidden.demoted = shown_errors.saturating_sub(counts.errors);
        Entry {
            kind,
            name: None,
            counts,
            outcome,
            hidden,
        }
    }

    /// The entry under the name `name` in a report.
    pub fn named(mut self, name: PathBuf) -> Self {
        self.name = Some(name);
        self
    }

    /// What the entry is.
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// What was learned about it, its findings after the selection.
    pub fn outcome(&self) -> &PackageOutcome {
        &self.outcome
    }

    /// Its outcome, moved out (the entry is done with).
    pub fn into_outcome(self) -> PackageOutcome {
        self.outcome
    }

    /// What the selection hid or demoted.
    pub fn hidden(&self) -> &Hidden {
        &self.hidden
    }

    /// Its findings (after the selection) by severity, weighted.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The name it was given ([`Entry::named`]), if any.
    pub fn given_name(&self) -> Option<&Path> {
        self.name.as_deref()
    }

    /// The entry's name in a report: the name it was given
    /// ([`Entry::named`]), else its outcome's path (the package directory
    /// as given).
    pub fn name(&self) -> &Path {
        self.name.as_deref().unwrap_or(&self.outcome.path)
    }

    /// True when the entry fails ([`Counts::fails`]).
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.counts.fails(deny_warnings)
    }

    /// True when its findings hold `FD900 path-not-found`: the run could not
    /// run (exit 2).
    pub fn is_missing_path(&self) -> bool {
        self.kind == EntryKind::Path && names_a_missing_path(&self.outcome)
    }
}

/// True when `outcome` holds `FD900 path-not-found`: the one test of
/// [`Entry::selected`] (no selection hides it) and
/// [`Entry::is_missing_path`] (the run exits 2).
fn names_a_missing_path(outcome: &PackageOutcome) -> bool {
    outcome
        .diagnostics
        .iter()
        .any(|d| d.code == Code::PathNotFound)
}

/// How a report's verdict becomes an exit status ([`Report::exit_code`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExitRule {
    /// `--deny-warnings`: a warning fails its entry.
    pub deny_warnings: bool,
    /// `--exit-zero` or `exit-zero = true`: exit 0 even when an entry fails.
    pub exit_zero: bool,
    /// `exit_zero` came from a configuration file the user did not name
    /// (found upward): it never passes a run with an integrity error
    /// (issue 22 item 4).
    pub discovered_exit_zero: bool,
}

/// The report of a run (see the module docs).
#[derive(Debug, Default)]
pub struct Report {
    /// The entries in the order reported: the configuration file's first,
    /// then each PATH's packages and walk findings, sorted by path.
    pub entries: Vec<Entry>,
    /// The configuration file in force, as the run names it (found upward
    /// or `--config FILE`); `None`: no file was read.
    pub config: Option<PathBuf>,
    /// The directories the walk skipped by a rule, each with its rule
    /// (`hidden`, `.gitignore`, `exclude`; [`crate::discover::Walk::skipped`]).
    pub skipped: Vec<(PathBuf, SkipRule)>,
    /// `--statistics` (or `statistics = true`) in a format that has a
    /// statistics form: the report is printed as the count of findings per
    /// code.
    pub statistics: bool,
    /// How the verdict becomes an exit status.
    pub rule: ExitRule,
    /// An input the user named could not be read (a `check` or
    /// `relations` FILE, a `compat` side, a `conformance` suite whose
    /// manifest is refused): the run exits 2 whatever its
    /// entries say, and SARIF says it did not complete. Set by the
    /// operation that builds the report, which also reports why as an
    /// entry's finding.
    pub could_not_read: bool,
    /// What the run says about its settings on stderr, one line each
    /// (`form-package: note: …`): a selector of a configuration file found
    /// upward that leaves an integrity code alone
    /// ([`crate::select::discovered_notes`]).
    pub notes: Vec<String>,
}

impl Report {
    /// A report of `entries` under `rule` (no configuration file, nothing
    /// skipped, no statistics).
    pub fn new(entries: Vec<Entry>, rule: ExitRule) -> Self {
        Report {
            entries,
            rule,
            ..Report::default()
        }
    }

    /// Every finding shown, entry by entry.
    pub fn findings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.entries
            .iter()
            .flat_map(|e| e.outcome.diagnostics.iter())
    }

    /// True when the run could not run: a PATH does not exist (`FD900`),
    /// or an input named could not be read ([`Report::could_not_read`]).
    pub fn could_not_run(&self) -> bool {
        self.could_not_read || self.entries.iter().any(Entry::is_missing_path)
    }

    /// The first fault of the verifier itself, with its entry's path.
    pub fn fault(&self) -> Option<(&Path, &crate::error::Error)> {
        self.entries.iter().find_map(|e| {
            e.outcome
                .fault
                .as_ref()
                .map(|f| (e.outcome.path.as_path(), f))
        })
    }

    /// True when some entry fails ([`Entry::fails`]).
    pub fn fails(&self) -> bool {
        self.entries
            .iter()
            .any(|e| e.fails(self.rule.deny_warnings))
    }

    /// The exit status: 2 when the run could not run (a fault of the
    /// verifier, a PATH that does not exist); else 0 under `exit_zero`,
    /// unless it came from a discovered file and an integrity error is
    /// shown (issue 22 item 4); else 1 when an entry fails, 0 when none
    /// does.
    pub fn exit_code(&self) -> u8 {
        if let Some((_, fault)) = self.fault() {
            return fault.exit_code();
        }
        if self.could_not_run() {
            return 2;
        }
        let integrity_error = || {
            self.findings()
                .any(|d| d.is_error() && d.code.is_integrity())
        };
        if self.rule.exit_zero && !(self.rule.discovered_exit_zero && integrity_error()) {
            return 0;
        }
        u8::from(self.fails())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn finding(code: Code, severity: Severity) -> Diagnostic {
        Diagnostic::new(code, "x").severity(severity)
    }

    fn outcome(path: &str, diagnostics: Vec<Diagnostic>) -> PackageOutcome {
        PackageOutcome {
            path: path.into(),
            diagnostics,
            ..PackageOutcome::default()
        }
    }

    fn report(entries: Vec<Entry>, rule: ExitRule) -> Report {
        Report::new(entries, rule)
    }

    /// An entry of each kind keeps its kind and name, its findings are
    /// counted weighted, and only packages and documents count as packages
    /// in the views built from the report; near miss: a failing
    /// configuration entry or walk finding fails the run but is no failed
    /// package.
    #[test]
    fn an_entry_of_each_kind_is_counted_as_built() {
        let mut capped = finding(Code::OpenObjectSchema, Severity::Error);
        capped.not_shown = 2;
        let r = report(
            vec![
                Entry::new(
                    EntryKind::Configuration,
                    outcome(".", vec![finding(Code::ConfigInvalid, Severity::Error)]),
                )
                .named("form-package.toml".into()),
                Entry::new(EntryKind::Package, outcome("a", vec![capped])),
                Entry::new(
                    EntryKind::Document,
                    outcome(
                        "b",
                        vec![finding(Code::OpenObjectSchema, Severity::Warning)],
                    ),
                ),
                Entry::new(
                    EntryKind::Path,
                    outcome(
                        "c",
                        vec![finding(Code::UnreadableDirectory, Severity::Error)],
                    ),
                ),
            ],
            ExitRule::default(),
        );
        assert_eq!(r.entries[1].counts.errors, 3);
        let run = crate::render::RunView::of(&r);
        let kinds: Vec<EntryKind> = run.packages.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                EntryKind::Configuration,
                EntryKind::Package,
                EntryKind::Document,
                EntryKind::Path
            ]
        );
        assert_eq!(run.packages[0].name(), Path::new("form-package.toml"));
        assert_eq!(run.packages[1].name(), Path::new("a"));
        assert_eq!(run.package_count(), 2);
        assert_eq!(run.failed, 1);
        assert_eq!(run.verified(), 1);
        assert_eq!(
            run.counts,
            Counts {
                errors: 5,
                warnings: 1,
                notes: 0
            }
        );
        assert!(!run.could_not_run());
        // Near miss: without the package's error, the configuration file's
        // and the walk's entries still fail the run, and no package does.
        let mut r = r;
        r.entries.remove(1);
        assert_eq!(crate::render::RunView::of(&r).failed, 0);
        assert!(r.fails());
        assert_eq!(r.exit_code(), 1);
    }

    /// The selection is applied when the entry is built: what it hides is
    /// counted, what `warn` demotes is counted and reported as a warning;
    /// near misses: no selection changes nothing, and a PATH that does not
    /// exist is never hidden.
    #[test]
    fn the_selection_hides_and_demotes_when_the_entry_is_built() {
        let found = || {
            outcome(
                "a",
                vec![
                    finding(Code::OpenObjectSchema, Severity::Error),
                    finding(Code::PayloadDigestMismatch, Severity::Error),
                    finding(Code::UnreadableDirectory, Severity::Warning),
                ],
            )
        };
        let selection = Settings {
            ignore: vec!["FD901".into()],
            warn: vec!["open-object-schema".into()],
            ..Settings::default()
        };
        let e = Entry::selected(EntryKind::Package, found(), Some(&selection));
        assert_eq!(e.outcome.diagnostics.len(), 2);
        assert_eq!(
            e.hidden,
            Hidden {
                counts: Counts {
                    errors: 0,
                    warnings: 1,
                    notes: 0
                },
                demoted: 1
            }
        );
        assert_eq!(
            e.counts,
            Counts {
                errors: 1,
                warnings: 1,
                notes: 0
            }
        );
        assert!(e.hidden.unverified());
        let plain = Entry::new(EntryKind::Package, found());
        assert_eq!(plain.hidden, Hidden::default());
        assert_eq!(plain.counts.total(), 3);
        let everything = Settings {
            ignore: vec!["ALL".into()],
            ..Settings::default()
        };
        let missing = Entry::selected(
            EntryKind::Path,
            outcome("nope", vec![finding(Code::PathNotFound, Severity::Error)]),
            Some(&everything),
        );
        assert_eq!(missing.counts.errors, 1);
        assert!(missing.is_missing_path());
        let hidden = Entry::selected(
            EntryKind::Path,
            outcome(
                "dir",
                vec![finding(Code::UnreadableDirectory, Severity::Error)],
            ),
            Some(&everything),
        );
        assert!(hidden.outcome.diagnostics.is_empty());
        assert_eq!(hidden.hidden.counts.errors, 1);
    }

    /// Each way to each exit status, with a near miss each.
    #[test]
    fn the_exit_rule_decides_0_1_or_2() {
        let one = |code: Code, severity: Severity, rule: ExitRule| {
            report(
                vec![Entry::new(
                    EntryKind::Package,
                    outcome("a", vec![finding(code, severity)]),
                )],
                rule,
            )
            .exit_code()
        };
        let plain = ExitRule::default();
        let deny = ExitRule {
            deny_warnings: true,
            ..plain
        };
        let zero = ExitRule {
            exit_zero: true,
            ..plain
        };
        let discovered_zero = ExitRule {
            exit_zero: true,
            discovered_exit_zero: true,
            ..plain
        };
        // 1: an error; near miss: a warning or a note.
        assert_eq!(one(Code::OpenObjectSchema, Severity::Error, plain), 1);
        assert_eq!(one(Code::OpenObjectSchema, Severity::Warning, plain), 0);
        assert_eq!(one(Code::OpenObjectSchema, Severity::Note, plain), 0);
        // 1: a warning under --deny-warnings; near miss: a note.
        assert_eq!(one(Code::OpenObjectSchema, Severity::Warning, deny), 1);
        assert_eq!(one(Code::OpenObjectSchema, Severity::Note, deny), 0);
        // 0: exit-zero passes an error, also an integrity error when the
        // user asked for it; a discovered file's does not pass an
        // integrity error (near miss: it passes any other error).
        assert_eq!(one(Code::OpenObjectSchema, Severity::Error, zero), 0);
        assert_eq!(one(Code::PayloadDigestMismatch, Severity::Error, zero), 0);
        assert_eq!(
            one(
                Code::PayloadDigestMismatch,
                Severity::Error,
                discovered_zero
            ),
            1
        );
        assert_eq!(
            one(Code::OpenObjectSchema, Severity::Error, discovered_zero),
            0
        );
        assert_eq!(
            one(
                Code::PayloadDigestMismatch,
                Severity::Warning,
                discovered_zero
            ),
            0
        );
        // 2: a PATH that does not exist, whatever exit-zero says; near
        // miss: a directory the walk cannot read is a failure (1).
        let walk = |code: Code, rule: ExitRule| {
            report(
                vec![
                    Entry::new(EntryKind::Package, outcome("a", Vec::new())),
                    Entry::new(
                        EntryKind::Path,
                        outcome("b", vec![finding(code, Severity::Error)]),
                    ),
                ],
                rule,
            )
        };
        assert_eq!(walk(Code::PathNotFound, zero).exit_code(), 2);
        assert!(walk(Code::PathNotFound, plain).could_not_run());
        assert_eq!(walk(Code::UnreadableDirectory, plain).exit_code(), 1);
        assert!(!walk(Code::UnreadableDirectory, plain).could_not_run());
        // 2: an input the user named could not be read, whatever
        // exit-zero and the entries say; near miss: the same report read.
        let mut unread = walk(Code::UnreadableDirectory, zero);
        unread.could_not_read = true;
        assert!(unread.could_not_run());
        assert_eq!(unread.exit_code(), 2);
        unread.could_not_read = false;
        assert_eq!(unread.exit_code(), 0);
        // 2: a fault of the verifier, even in a package with no finding;
        // near miss: the same package without the fault passes.
        let mut faulted = outcome("a", Vec::new());
        faulted.fault = Some(Error::Internal("no schema".into()));
        let r = report(vec![Entry::new(EntryKind::Package, faulted)], plain);
        assert_eq!(r.exit_code(), 2);
        assert_eq!(r.fault().map(|(p, _)| p), Some(Path::new("a")));
        let r = report(
            vec![Entry::new(EntryKind::Package, outcome("a", Vec::new()))],
            plain,
        );
        assert_eq!(r.exit_code(), 0);
        assert!(r.fault().is_none());
    }

    /// `PackageOutcome::fails` is the same rule: near miss, a warning fails
    /// only under `--deny-warnings`.
    #[test]
    fn an_outcome_fails_by_the_same_rule() {
        let w = outcome(
            "a",
            vec![finding(Code::OpenObjectSchema, Severity::Warning)],
        );
        assert!(!w.fails(false));
        assert!(w.fails(true));
        assert!(outcome("a", vec![finding(Code::OpenObjectSchema, Severity::Error)]).fails(false));
    }
}
