//! `form-package family PATH...`: a whole Form Family checked
//! ([`crate::family::run`]), then printed ([`crate::render::family::output`]);
//! the exit status is the report's ([`crate::family::check::Report::exit_code`]).

use std::path::PathBuf;

use crate::output::Output;
use crate::render::family::Format;

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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Runs `family`: the operation, then its view, with the report's exit
/// status; a refusal is its reason on stderr (exit 2).
pub fn run(a: Args) -> Output {
    let options = crate::family::Options {
        partial: a.partial,
        allow_external: a.allow_external,
    };
    match crate::family::run(&a.paths, &options) {
        Ok(report) => Output {
            stdout: crate::render::family::output(&report, a.format).into_bytes(),
            code: report.exit_code(),
            ..Default::default()
        },
        Err(refusal) => Output {
            stderr: format!("form-package: {refusal}\n"),
            code: 2,
            ..Default::default()
        },
    }
}
