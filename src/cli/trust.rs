//! `form-package trust …`: publisher trust, offline
//! ([`crate::trust::cmd::run`]; its subcommands' arguments are
//! [`crate::trust::cmd::TrustCommand`]).

use crate::output::Output;
use crate::trust::cmd::TrustCommand;

/// `trust`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What to verify.
    #[command(subcommand)]
    pub command: TrustCommand,
}

/// Runs the `trust` subcommand.
pub fn run(a: &Args) -> Output {
    crate::trust::cmd::run(&a.command)
}
