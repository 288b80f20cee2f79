//! `form-package trust …`: publisher trust, offline
//! ([`crate::trust::cmd::answer`], summarized by `render::trust`; its subcommands' arguments are
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

/// Runs the `trust` subcommand: the JSON report on stdout, its human
/// summary on stderr ([`crate::render::trust`]); `--pin-out` writes the pin
/// once the command succeeded (as `--output-file` writes a report: a new
/// file atomically, an existing one in place). A refusal is the JSON
/// failure report on stderr ([`crate::trust::cmd::failure`]).
pub fn run(a: &Args) -> Output {
    let answer = match crate::trust::cmd::answer(&a.command) {
        Ok(answer) => answer,
        Err(e) => return crate::trust::cmd::failure(&e),
    };
    let pin_out = crate::trust::cmd::pin_out(&a.command);
    let written = match (pin_out, answer.pin()) {
        (Some(path), Some(pin)) => crate::trust::cmd::pin_file(pin).and_then(|bytes| {
            crate::render::write_output(path, &bytes).map_err(|e| {
                crate::trust::TrustError::new(
                    crate::codes::Code::TrustInputError,
                    format!("write pin file {}: {e}", path.display()),
                )
                .could_not_run()
            })
        }),
        _ => Ok(()),
    };
    match written.and_then(|()| answer.to_json()) {
        Ok(stdout) => Output {
            stdout,
            stderr: crate::render::trust::summary(&answer, pin_out),
            ..Default::default()
        },
        Err(e) => crate::trust::cmd::failure(&e),
    }
}
