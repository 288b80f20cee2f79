//! `form-package family PATH...`: loads what the PATHs hold
//! ([`crate::family::load`]) and checks it as one Form Family
//! ([`crate::family::check`]); [`view`] makes the checked report the
//! report model's ([`FamilyReport`]), which `render::family` prints, and
//! `cli/family.rs` passes its exit status on.

use std::path::PathBuf;

use crate::diag::Diagnostic;
use crate::family::{check, load, Options};
use crate::report::family::{self as model, FamilyReport, PackageFinding};
use crate::report::SkipRule;
use crate::verify::PackageOutcome;

/// Why `family` could not run at all (the command exits 2 and prints
/// nothing on stdout). Its `Display` is the reason alone; the command line
/// prints it as `form-package: <reason>`.
#[derive(Debug)]
pub enum Refusal {
    /// A PATH is a file that is none of a package, a contract or a
    /// candidate set ([`load::LoadError`]: `/dev/null`, a FIFO, …).
    Load(load::LoadError),
    /// The PATHs (as given) hold no Form Package, contract or candidate
    /// set, and none of them is missing; with the directories the walk
    /// skipped by a rule (and the rule), which the reason names.
    Empty(Vec<PathBuf>, Vec<(PathBuf, SkipRule)>),
    /// An `--exclude` glob that does not parse (the message names it).
    Exclude(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Load(e) => f.write_str(&e.0),
            Refusal::Empty(paths, skipped) => {
                write!(
                    f,
                    "no Form Package, contract or candidate set under {}",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                if !skipped.is_empty() {
                    let dirs: Vec<String> = skipped
                        .iter()
                        .map(|(dir, rule)| format!("{} ({rule})", dir.display()))
                        .collect();
                    write!(
                        f,
                        " outside the {} skipped by a rule: {} (--no-ignore searches hidden and .gitignore'd ones)",
                        if skipped.len() == 1 { "directory" } else { "directories" },
                        dirs.join(", ")
                    )?;
                }
                Ok(())
            }
            Refusal::Exclude(e) => write!(f, "--exclude: {e}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// Runs `family` over `paths`: loads what they hold ([`load::load`]),
/// checks it ([`check::check`]) and returns the checked report as the
/// report model holds it ([`view`]). It carries the exit status
/// ([`FamilyReport::exit_code`]: 0 when every package verifies and no
/// family finding is an error, 1 otherwise, 2 when a PATH does not exist,
/// reported as an `FD900` finding with every other PATH still checked);
/// `crate::render::family` prints it.
///
/// # Errors
/// [`Refusal`] (exit 2): an `--exclude` glob that does not parse, a PATH
/// that is a file none of a family's, or PATHs that hold nothing a family
/// is made of (outside the directories a rule skipped).
pub fn run(paths: &[PathBuf], options: &Options) -> Result<FamilyReport, Refusal> {
    for (_, glob) in &options.walk.exclude {
        crate::discover::check_exclude_glob(glob).map_err(Refusal::Exclude)?;
    }
    let family = load::load_with(paths, &options.walk).map_err(Refusal::Load)?;
    if family.packages.is_empty()
        && family.contracts.is_empty()
        && family.findings.is_empty()
        && family.candidate_sets.is_empty()
    {
        return Err(Refusal::Empty(paths.to_vec(), family.skipped));
    }
    Ok(view(&check::check(family, options)))
}

/// The checked `report` as the report model holds it ([`FamilyReport`],
/// what `render::family` prints): each package's `verify` findings
/// located ([`crate::locate::finding`]), each Form, contract and
/// candidate set by the members its views print, the graph, the family
/// findings, the counts ([`check::Report::all_counts`]) and the verdict.
pub fn view(report: &check::Report) -> FamilyReport {
    let fam = &report.family;
    let kind = |k: load::ContractKind| match k {
        load::ContractKind::Binding => "binding",
        load::ContractKind::Interface => "interface",
    };
    let refs = |list: &[(usize, load::ContractRef)]| list.iter().map(|(_, r)| r.clone()).collect();
    FamilyReport {
        packages: fam
            .packages
            .iter()
            .map(|p| model::Package {
                path: p.path.clone(),
                form: p.form.as_ref().map(|f| model::Form {
                    api_version: f.api_version.clone(),
                    kind: f.kind.clone(),
                    definition_version: f.definition_version.clone(),
                    schema_digest: f.schema_digest.clone(),
                    role: f.role.clone(),
                    definition: f.doc.file.clone(),
                    provided: refs(&f.provided),
                    accepted: refs(&f.accepted),
                }),
                findings: package_findings(&p.path, &p.outcome),
                errors: p.outcome.count(crate::diag::Severity::Error),
                warnings: p.outcome.count(crate::diag::Severity::Warning),
                failed: p.outcome.has_errors(),
            })
            .collect(),
        contracts: fam
            .contracts
            .iter()
            .map(|c| model::Contract {
                file: c.doc.file.clone(),
                kind: kind(c.kind),
                identity: c.identity.clone(),
                valid: c.valid,
            })
            .collect(),
        candidate_sets: fam
            .candidate_sets
            .iter()
            .map(|s| model::CandidateSet {
                file: s.doc.file.clone(),
                kind: s.kind.map(kind),
            })
            .collect(),
        skipped: fam.skipped.clone(),
        edges: report.edges.clone(),
        missing: report.missing.clone(),
        findings: report.findings.clone(),
        options: model::Accepted {
            partial: report.options.partial,
            allow_external: report.options.allow_external.clone(),
            no_ignore: report.options.walk.no_ignore,
            exclude: report
                .options
                .walk
                .exclude
                .iter()
                .map(|(_, g)| g.clone())
                .collect(),
        },
        counts: report.all_counts(),
        fails: report.fails(),
        could_not_read: report
            .findings
            .iter()
            .any(|f| f.code() == crate::codes::Code::PathNotFound),
    }
}

/// The package's `verify` findings with their locations (file as found,
/// 1-based line and column of its span, or 1:1 when it has none).
fn package_findings(package: &str, outcome: &PackageOutcome) -> Vec<PackageFinding> {
    outcome
        .diagnostics
        .iter()
        .map(|d: &Diagnostic| {
            let source = d.file.as_deref().and_then(|f| outcome.sources.get(f));
            let position = crate::locate::finding(d, source)
                .start
                .unwrap_or(crate::locate::Position { line: 1, column: 1 });
            let mut diagnostic = d.clone();
            diagnostic.file = Some(match &d.file {
                Some(f) => format!("{package}/{f}"),
                None => package.to_owned(),
            });
            PackageFinding {
                diagnostic,
                position,
            }
        })
        .collect()
}
