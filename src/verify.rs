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
    /// What a command says about this entry besides its findings
    /// ([`crate::summary::Summary`]: an advance's pin, a `compat` pair, a
    /// `desired` document, a `snapshot` set): `json` puts its members in
    /// the package object, `sarif` in the run's property bag, `junit` as
    /// testcase properties (compact JSON), `github` as notice lines.
    /// `None` for `verify`.
    pub summary: Option<crate::summary::Summary>,
    /// The publication locator of a verified package
    /// ([`crate::host::locator::for_index`]): `--format json` carries it
    /// (`packages[].locator`, issue 39 item 3); `None` for a package with
    /// an error, or one the locator is not defined for.
    pub locator: Option<Value>,
    /// How long verifying the package took (`verify`'s walk sets it;
    /// JUnit's testcase `time`), `None` for an entry no check ran on.
    pub elapsed: Option<std::time::Duration>,
}

impl PackageOutcome {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The JSON members of what the command said about this entry besides
    /// its findings ([`crate::summary::Summary::members`]); none without
    /// a summary. Every format prints these.
    pub fn summary_members(&self) -> serde_json::Map<String, Value> {
        self.summary
            .as_ref()
            .map(crate::summary::Summary::members)
            .unwrap_or_default()
    }

    /// How many diagnostics have severity `severity` (each counted once,
    /// whatever it says it stands for).
    pub fn count(&self, severity: diag::Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

/// Verifies one package directory. Never panics on bad input; every problem
/// with the package is a diagnostic.
pub fn verify_package(path: &Path) -> PackageOutcome {
    outcome(crate::checks::run(path), Spans::Whole)
}

/// [`verify_package`] for an outcome that is only printed (the `verify`
/// command's report): the same findings and figures, but the span map of
/// each file a finding names holds only what locating those findings reads
/// ([`strict::spans_at`]), not every value of the file. A caller that adds
/// findings of its own, or looks up other pointers, uses
/// [`verify_package`].
pub fn verify_package_to_print(path: &Path) -> PackageOutcome {
    outcome(crate::checks::run(path), Spans::Findings)
}

/// Which span map [`outcome`] builds for a kept file that has none.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spans {
    /// Every value of the file ([`strict::spans`]).
    Whole,
    /// The values the findings naming the file point at and their
    /// ancestors ([`strict::spans_at`]).
    Findings,
}

/// Verifies the package whose files `source` gives (on disk or in memory,
/// [`crate::source`]): the same checks and the same outcome as
/// [`verify_package`] on a directory holding the same files.
pub fn verify_source(source: Box<dyn crate::source::PackageSource>) -> PackageOutcome {
    outcome(crate::checks::run_source(source), Spans::Whole)
}

/// What verifying a package leaves for a command that goes on with it
/// (`family`): the outcome, and the Form Definition as verify read it.
#[derive(Debug)]
pub struct Verified {
    /// The outcome, as [`verify_package`] gives it.
    pub outcome: PackageOutcome,
    /// The definition verify read (through the fenced reader), when it
    /// read one: its package path, bytes, value and span map and, when the
    /// relations check derived them, its relations.
    pub definition: Option<ReadDefinition>,
    /// The package index verify read, when it parsed: its value and its
    /// bytes with their span map (`compat` reads nothing again).
    pub index: Option<(Value, Source)>,
    /// The package's regular files (package paths, byte order) as verify's
    /// inventory listed them, links and special files left out (`compat`
    /// finds a package inside the package in it, walking nothing again).
    pub files: Vec<String>,
}

/// A package's Form Definition as verify read it.
#[derive(Debug)]
pub struct ReadDefinition {
    /// Its package path (`definitionPath`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its value and span map from verify's one parse; `None` when verify
    /// kept no value (not listed with a JSON media type, not I-JSON):
    /// [`ReadDefinition::parse`] reads the bytes then.
    pub parsed: Option<strict::Parsed>,
    /// The relations verify derived from its desired schema; `None` when
    /// the check did not run (a legacy lane, a definition that is not valid).
    pub relations: Option<Vec<crate::summary::Relation>>,
    /// Its `desiredSchema` as verify compiled it (the engine's validator,
    /// shared: `compat` re-checks witnesses with it and compiles nothing
    /// again); `None` when verify compiled none (no object there, or it
    /// did not compile).
    pub desired: Option<crate::engine::CompiledSchema>,
    /// Its schema digest as verify computed it (`sha256:` of its RFC 8785
    /// form); `None` when verify computed none.
    pub schema_digest: Option<String>,
}

impl ReadDefinition {
    /// The definition's value and span map: verify's own parse
    /// ([`ReadDefinition::parsed`]), or, where verify kept none, the strict
    /// reader's answer on the bytes (the refusal of a definition that is
    /// not I-JSON, located; the value of one not listed as JSON).
    ///
    /// # Errors
    /// The strict reader's refusal of the bytes.
    pub fn parse(&mut self) -> Result<strict::Parsed, strict::ParseError> {
        match self.parsed.take() {
            Some(parsed) => Ok(parsed),
            None => strict::parse(&self.bytes),
        }
    }
}

/// Verifies the package directory `path` as [`verify_package`] does and
/// keeps the Form Definition and the package index it read, each parsed
/// once with its span map (`family` and `compat` read and parse nothing
/// again).
pub fn verify_package_keeping_definition(path: &Path) -> Verified {
    keeping_definition(crate::checks::run_keeping_spans(path))
}

/// [`verify_package_keeping_definition`] over the package whose files
/// `source` gives (in memory: `compat --baseline-rev` reads BASE from git).
pub fn verify_source_keeping_definition(source: Box<dyn crate::source::PackageSource>) -> Verified {
    keeping_definition(crate::checks::run_source_keeping_spans(source))
}

/// The [`Verified`] of one run of the checks, keeping spans.
fn keeping_definition((mut pkg, run): (crate::package::Package, crate::checks::Run)) -> Verified {
    // The outcome keeps a file only when a finding names it: a document
    // no finding names is moved out, not copied.
    let keep = |pkg: &mut crate::package::Package, file: &str| {
        if run
            .diagnostics
            .iter()
            .any(|d| d.file.as_deref() == Some(file))
        {
            pkg.sources.get(file).cloned()
        } else {
            pkg.sources.remove(file)
        }
    };
    let def_path = pkg.def_path.clone();
    let definition = match keep(&mut pkg, &def_path) {
        Some(source) if !def_path.is_empty() => {
            let value = pkg
                .payloads
                .get_mut(&def_path)
                .and_then(Option::take)
                .map(|p| p.value);
            Some(ReadDefinition {
                parsed: value
                    .zip(source.spans)
                    .map(|(value, spans)| strict::Parsed { value, spans }),
                path: def_path,
                bytes: source.bytes,
                relations: pkg.relations.take(),
                desired: pkg.stages.as_ref().and_then(|s| s.desired.clone()),
                schema_digest: pkg.schema_digest.take(),
            })
        }
        _ => None,
    };
    let index = pkg.index.clone().zip(keep(&mut pkg, INDEX_FILE));
    let files = regular_files(&pkg, &run.diagnostics);
    let mut outcome = outcome((pkg, run), Spans::Whole);
    if let Some(d) = &definition {
        outcome.relations = relation_values(d.relations.as_deref().unwrap_or_default());
    }
    Verified {
        outcome,
        definition,
        index,
        files,
    }
}

/// The regular files of `pkg`'s inventory ([`crate::package::Package::present`]
/// without the links and special files it holds for the closure: those
/// its inventory findings, `diags`, name), in byte order.
fn regular_files(pkg: &crate::package::Package, diags: &[Diagnostic]) -> Vec<String> {
    use crate::codes::Code;
    let odd: BTreeSet<&str> = diags
        .iter()
        .filter(|d| matches!(d.code, Code::SymlinkEntry | Code::SpecialFile))
        .filter_map(|d| d.file.as_deref())
        .collect();
    pkg.present
        .keys()
        .filter(|f| !odd.contains(f.as_str()))
        .cloned()
        .collect()
}

/// Relations as the report's JSON values.
fn relation_values(relations: &[crate::summary::Relation]) -> Vec<Value> {
    relations
        .iter()
        .filter_map(|r| serde_json::to_value(r).ok())
        .collect()
}

/// The outcome of one run of the checks.
fn outcome(
    (pkg, run): (crate::package::Package, crate::checks::Run),
    spans: Spans,
) -> PackageOutcome {
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
        summary: None,
        locator: None,
        elapsed: None,
    };
    if !out.has_errors() {
        out.locator = pkg
            .index
            .as_ref()
            .zip(pkg.package_digest.as_deref())
            .and_then(|(index, digest)| crate::host::locator::for_index(index, digest).ok())
            .map(|l| l.to_value());
    }
    // Renderers look sources up only through a diagnostic's file.
    let named: BTreeSet<&str> = out
        .diagnostics
        .iter()
        .filter_map(|d| d.file.as_deref())
        .collect();
    out.sources.retain(|f, _| named.contains(f.as_str()));
    // Documents were parsed without span maps; build them for the files
    // that parsed and are kept (the same parse, so it succeeds again), or
    // take them from the parse the source was given with the bytes (an
    // editor's buffer: no second parse).
    for (file, source) in &mut out.sources {
        if source.spans.is_none() && pkg.parsed_json.contains(file) {
            let given = pkg.root.as_ref().and_then(|r| r.parsed(file));
            source.spans = match (given, spans) {
                (Some(d), _) => Some(d.parsed.spans.clone()),
                (None, Spans::Whole) => strict::spans(&source.bytes).ok(),
                (None, Spans::Findings) => {
                    let named = out
                        .diagnostics
                        .iter()
                        .filter(|d| d.file.as_deref() == Some(file.as_str()))
                        .map(|d| &d.pointer);
                    strict::spans_at(&source.bytes, named).ok()
                }
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::pointer::JsonPointer;

    /// Verify keeps the definition and the index it parsed, each with its
    /// span map from that one parse, and the same outcome as
    /// [`verify_package`]; near miss: a plain `verify` builds no span map
    /// of a file no finding names.
    #[test]
    fn keeping_the_definition_keeps_its_one_parse_and_the_outcome() {
        let pkg = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7");
        let kept = verify_package_keeping_definition(&pkg);
        let plain = verify_package(&pkg);
        assert_eq!(kept.outcome.diagnostics, plain.diagnostics);
        assert_eq!(kept.outcome.report, plain.report);
        let mut read = kept.definition.unwrap();
        let parsed = read.parsed.take().unwrap();
        let again = strict::parse(&read.bytes).unwrap();
        assert_eq!(parsed.value, again.value);
        let desired = JsonPointer::from("/desiredSchema");
        assert_eq!(
            parsed.spans.value_span(&desired),
            again.spans.value_span(&desired)
        );
        assert!(parsed.spans.value_span(&desired).is_some());
        let (index, source) = kept.index.unwrap();
        let form_ref = JsonPointer::from("/formRef");
        let at = source.spans.unwrap().value_span(&form_ref).unwrap();
        assert_eq!(
            serde_json::from_slice::<Value>(&source.bytes[at]).unwrap(),
            index["formRef"]
        );
        assert!(plain.sources.is_empty());
    }
}
