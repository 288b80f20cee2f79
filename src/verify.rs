//! One package directory in, every finding out: runs the checks of
//! [`crate::checks`] over the package model of [`crate::package`] and
//! keeps what renderers need.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diag::{self, Diagnostic};
use crate::json::strict;

pub use crate::package::{is_json_media_type, Report, Source, DEFINITION_MEDIA_TYPE, INDEX_FILE};

/// Everything `verify` learned about one package.
#[derive(Debug, Default)]
pub struct PackageOutcome {
    /// The package directory as given.
    pub path: PathBuf,
    /// Every finding, sorted by (file, pointer, severity, code).
    pub diagnostics: Vec<Diagnostic>,
    /// The reference report, when the package has no error.
    pub report: Option<Report>,
    /// The same figures (digest, FormRef, listed file count, payload bytes)
    /// whatever the findings, `None` when the index did not parse or
    /// canonicalize: what an `ok` line shows when a selection hid a
    /// package's errors (N1 findings §3.2).
    pub figures: Option<Report>,
    /// The computed package digest, whenever the index canonicalized.
    pub package_digest: Option<String>,
    /// Checks not run because one they depend on failed:
    /// `"<check>, <check>: <reason>"`, one record per root cause.
    pub skipped: Vec<String>,
    /// Relations derived from the desired schema (family and current lanes).
    pub relations: Vec<Value>,
    /// Fixture documents validated (positive + negative).
    pub fixtures_run: usize,
    /// The violation that rejected each negative fixture (human `-v`).
    pub fixture_rejections: Vec<crate::fixtures::Rejection>,
    /// Sources by package-relative path, for rendering spans: only the files
    /// some diagnostic names are kept (a tree of verified packages holds no
    /// file bytes).
    pub sources: std::collections::BTreeMap<String, Source>,
    /// A fault of the verifier itself that stopped this package's checks:
    /// the command exits 2 ([`crate::error::Error`]), whatever was found.
    pub fault: Option<crate::error::Error>,
    /// Members a command adds to this entry of its report
    /// (`validate-revocation-checkpoint --advance`: `pin`, the point of an
    /// advance): `json` puts them in the package object, `sarif` in the
    /// run's property bag, `junit` as testcase properties (compact JSON),
    /// `github` as a notice line. Empty for `verify`.
    pub extra: serde_json::Map<String, Value>,
}

impl PackageOutcome {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Verifies one package directory. Never panics on bad input; every problem
/// with the package is a diagnostic.
pub fn verify_package(path: &Path) -> PackageOutcome {
    outcome(crate::checks::run(path))
}

/// Verifies the package whose files `source` gives (on disk or in memory,
/// [`crate::source`]): the same checks and the same outcome as
/// [`verify_package`] on a directory holding the same files.
pub fn verify_source(source: Box<dyn crate::source::PackageSource>) -> PackageOutcome {
    outcome(crate::checks::run_source(source))
}

/// What verifying a package leaves for a command that goes on with it
/// (`family`): the outcome, and the Form Definition as verify read it.
#[derive(Debug)]
pub struct Verified {
    /// The outcome, as [`verify_package`] gives it.
    pub outcome: PackageOutcome,
    /// The definition verify read (through the fenced reader), when it
    /// read one: its package path, bytes and, when the relations check
    /// derived them, its relations.
    pub definition: Option<ReadDefinition>,
    /// The package index verify read, when it parsed: its value and its
    /// bytes with their span map (`compat` reads nothing again).
    pub index: Option<(Value, Source)>,
}

/// A package's Form Definition as verify read it.
#[derive(Debug)]
pub struct ReadDefinition {
    /// Its package path (`definitionPath`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The relations verify derived from its desired schema; `None` when
    /// the check did not run (a legacy lane, a definition that is not valid).
    pub relations: Option<Vec<crate::relations::Relation>>,
}

/// Verifies the package directory `path` as [`verify_package`] does and
/// keeps the Form Definition and the package index it read (one read of
/// each file: `family` and `compat` read nothing again).
pub fn verify_package_keeping_definition(path: &Path) -> Verified {
    let (mut pkg, run) = crate::checks::run(path);
    let definition = pkg
        .sources
        .get(&pkg.def_path)
        .filter(|_| !pkg.def_path.is_empty())
        .map(|s| ReadDefinition {
            path: pkg.def_path.clone(),
            bytes: s.bytes.clone(),
            relations: pkg.relations.take(),
        });
    let index = pkg.index.clone().zip(pkg.sources.get(INDEX_FILE).cloned());
    let mut outcome = outcome((pkg, run));
    if let Some(d) = &definition {
        outcome.relations = relation_values(d.relations.as_deref().unwrap_or_default());
    }
    Verified {
        outcome,
        definition,
        index,
    }
}

/// Relations as the report's JSON values.
fn relation_values(relations: &[crate::relations::Relation]) -> Vec<Value> {
    relations
        .iter()
        .filter_map(|r| serde_json::to_value(r).ok())
        .collect()
}

/// The outcome of one run of the checks.
fn outcome((pkg, run): (crate::package::Package, crate::checks::Run)) -> PackageOutcome {
    let path = pkg.path.clone();
    let mut diagnostics = run.diagnostics;
    diag::finish(&mut diagnostics);
    let report = figures_of(&pkg);
    let mut out = PackageOutcome {
        path,
        diagnostics,
        report: None,
        figures: report.clone(),
        package_digest: pkg.package_digest.clone(),
        skipped: run.skipped,
        relations: relation_values(pkg.relations.as_deref().unwrap_or_default()),
        fixtures_run: pkg.fixtures_run,
        fixture_rejections: pkg.fixture_rejections,
        sources: pkg.sources,
        fault: run.fault,
        extra: serde_json::Map::new(),
    };
    // Renderers look sources up only through a diagnostic's file.
    let named: BTreeSet<&str> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.as_deref())
        .collect();
    out.sources.retain(|f, _| named.contains(f.as_str()));
    // Documents were parsed without span maps; build them for the files
    // that parsed and are kept (the same parse, so it succeeds again).
    for (file, source) in &mut out.sources {
        if source.spans.is_none() && pkg.parsed_json.contains(file) {
            source.spans = strict::parse(&source.bytes).ok().map(|p| p.spans);
        }
    }
    if !out.has_errors() {
        out.report = report;
    }
    out
}

/// The report members of a package's index (digest, FormRef, listed file
/// count and payload bytes), whatever its findings: `None` when the index
/// did not canonicalize or parse.
fn figures_of(pkg: &crate::package::Package) -> Option<Report> {
    match (&pkg.package_digest, &pkg.index) {
        (Some(digest), Some(index)) => Some(Report {
            package_digest: digest.clone(),
            form_ref: index.get("formRef").cloned().unwrap_or(Value::Null),
            file_count: pkg.listed.len(),
            payload_bytes: pkg.listed.iter().map(|l| l.size).sum(),
        }),
        _ => None,
    }
}
