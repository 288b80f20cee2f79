//! `form-package canonicalize FILE` and `form-package digest FILE`
//! ([`crate::ops::canonicalize::run`], printed by
//! [`crate::render::canonical::output`]; the exit status is the operation's,
//! [`crate::ops::canonicalize::exit_code`]).

use std::path::PathBuf;

use crate::output::Output;

/// The arguments of `canonicalize` and of `digest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The JSON file (any size).
    pub file: PathBuf,
}

/// Prints the canonical form (`digest` false) or its digest (true).
pub fn run(a: &Args, digest: bool) -> Output {
    crate::cli::args::canonical_output(crate::ops::canonicalize::run(&a.file, digest))
}
