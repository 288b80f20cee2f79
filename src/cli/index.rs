//! `form-package index DIR` ([`crate::ops::index::run`], printed by
//! [`crate::render::index::report`]).

use std::path::PathBuf;

use crate::cli::args;
use crate::output::Output;

/// `index`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The package directory.
    pub dir: PathBuf,
    /// Only compare; exit 1 when the index would change.
    #[arg(long)]
    pub check: bool,
    /// `--profile P`, the index profile to write ([`args::profile_help`]).
    #[arg(long, value_name = "P", help = args::profile_help(
        "The profile to write, over the existing index's; the definition must fit it. \
         Default: the existing index's profile, else the one the definition's lane gets."
    ))]
    pub profile: Option<String>,
}

/// Runs `index`: the operation, then its view ([`crate::render::index::report`]),
/// with the operation's exit status.
pub fn run(a: &Args) -> Output {
    match crate::ops::index::run(&a.dir, a.check, a.profile.as_deref()) {
        Ok(run) => {
            let (stdout, stderr) = crate::render::index::report(&run);
            Output {
                stdout: stdout.into_bytes(),
                stderr,
                code: run.exit_code(),
            }
        }
        Err(e) => e.into(),
    }
}
