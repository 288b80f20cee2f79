//! `form-package family PATH...`: a whole Form Family checked and drawn
//! ([`crate::family::run`]).

use std::path::PathBuf;

use crate::family::FamilyFormat;
use crate::output::Output;

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
    #[arg(long, value_enum, default_value_t = FamilyFormat::Human)]
    pub format: FamilyFormat,
}

/// Runs `family`.
pub fn run(a: Args) -> Output {
    crate::family::run(
        &a.paths,
        &crate::family::Options {
            partial: a.partial,
            allow_external: a.allow_external,
        },
        a.format,
    )
}
