//! `form-package family PATH...`: a whole Form Family checked
//! ([`crate::ops::family::run`]), then printed ([`crate::render::family::output`]);
//! the exit status is the report's ([`crate::report::family::FamilyReport::exit_code`]).

use std::path::PathBuf;

use crate::cli::args::Formats;
use crate::output::Output;
use crate::render::Format;

/// `family`'s `--format` values.
const FORMATS: Formats = Formats(&[
    (
        "human",
        Format::Human,
        "A text report: package verdicts, the relation graph as a table, then every finding with its locations",
    ),
    (
        "json",
        Format::Json,
        "One JSON document: nodes, edges, contracts, candidate sets and findings (its JSON Schema: `form-package schema family`)",
    ),
    (
        "dot",
        Format::Dot,
        "A Graphviz digraph: Forms grouped by family, relations as labelled edges, failing edges red. Render with `dot -Tsvg family.dot > family.svg`",
    ),
    (
        "mermaid",
        Format::Mermaid,
        "A Mermaid flowchart with the same content as `dot`",
    ),
]);

/// `family`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Trees holding the family's packages, contracts and candidate sets.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// The snapshot is known to be incomplete: a target kind that is not
    /// loaded is a note, not an error.
    #[arg(long)]
    pub partial: bool,
    /// Accept relations into this group (or apiVersion) without loading it (repeatable).
    #[arg(long, value_name = "GROUP")]
    pub allow_external: Vec<String>,
    /// Do not search these directories (gitignore-style globs, relative to the working directory), as `verify --exclude`.
    #[arg(long, value_delimiter = ',', value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Search hidden directories and those `.gitignore` names too (never applies inside a package), as `verify --no-ignore`.
    #[arg(long)]
    pub no_ignore: bool,
    /// Output format.
    #[arg(long, value_parser = FORMATS, default_value = "human")]
    pub format: Format,
}

/// Runs `family`: the operation, then its view, with the report's exit
/// status; a refusal is its reason on stderr (exit 2).
pub fn run(a: Args) -> Output {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let options = crate::family::Options {
        partial: a.partial,
        allow_external: a.allow_external,
        walk: crate::discover::WalkRules {
            no_ignore: a.no_ignore,
            exclude: a.exclude.into_iter().map(|g| (cwd.clone(), g)).collect(),
        },
    };
    match crate::ops::family::run(&a.paths, &options) {
        Ok(report) => Output {
            stdout: crate::render::family::output(&report, a.format).into_bytes(),
            code: report.exit_code(),
            ..Default::default()
        },
        Err(refusal) => Output {
            stderr: crate::render::escape::line(&refusal.to_string()),
            code: 2,
            ..Default::default()
        },
    }
}
