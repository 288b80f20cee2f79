//! `form-package validate-revocation FILE` and
//! `form-package validate-revocation-checkpoint FILE`: one operation each
//! ([`crate::ops::revocation::statement`],
//! [`crate::ops::revocation::checkpoint`]), printed by
//! [`crate::render::revocation::output`]; the exit status is the
//! operation's ([`crate::ops::revocation::RevocationRun::exit_code`]).

use std::path::PathBuf;

use crate::cli::args;
use crate::ops::revocation::RevocationRun;
use crate::output::Output;
use crate::render::{human::Color, Format};

/// `validate-revocation`'s arguments.
#[derive(Debug, clap::Args)]
pub struct StatementArgs {
    /// The statement (JSON).
    pub file: PathBuf,
    /// Output format for findings (default: the reference's output, findings on stderr).
    #[arg(long, value_parser = args::REPORT_FORMATS)]
    pub format: Option<Format>,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

/// `validate-revocation-checkpoint`'s arguments.
#[derive(Debug, clap::Args)]
pub struct CheckpointArgs {
    /// The checkpoint (JSON).
    pub file: PathBuf,
    /// Advance with no previous pin: the first trusted checkpoint (legacy sequence 1, or the current genesis).
    #[arg(long, conflicts_with = "previous_pin")]
    pub advance: bool,
    /// Advance from this pin (a JSON file: the pin {checkpointApiVersion?, sequence, digest,
    /// entriesDigest}, or a previous run's whole report of this command (its output or its
    /// `--format json` report) or of `trust verify-checkpoint`, whose pin is read).
    #[arg(long, value_name = "PIN_FILE")]
    pub previous_pin: Option<PathBuf>,
    /// The checkpoint the previous pin already names is a success (the pin
    /// kept, `"unchanged": true`), as `trust verify-checkpoint
    /// --allow-unchanged` takes it; without it the next checkpoint must be
    /// the pin's sequence + 1.
    #[arg(long, requires = "previous_pin")]
    pub allow_unchanged: bool,
    /// Output format for findings (default: the reference's output, findings on stderr).
    #[arg(long, value_parser = args::REPORT_FORMATS)]
    pub format: Option<Format>,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

/// Runs `validate-revocation`; `is_terminal`: whether stdout is a terminal.
pub fn statement(a: &StatementArgs, is_terminal: bool) -> Output {
    let run = crate::ops::revocation::statement(&a.file);
    output(run, a.format, a.color, is_terminal)
}

/// Runs `validate-revocation-checkpoint`; `is_terminal`: whether stdout is a terminal.
pub fn checkpoint(a: &CheckpointArgs, is_terminal: bool) -> Output {
    let run = crate::ops::revocation::checkpoint(
        &a.file,
        a.advance,
        a.previous_pin.as_deref(),
        a.allow_unchanged,
    );
    output(run, a.format, a.color, is_terminal)
}

/// `run` printed in `format` ([`crate::render::revocation::output`]) with
/// the operation's exit status.
fn output(run: RevocationRun, format: Option<Format>, color: Color, is_terminal: bool) -> Output {
    let code = run.exit_code();
    let color = crate::render::human::use_color(color, is_terminal);
    let (stdout, stderr) = crate::render::revocation::output(run, format, color);
    Output {
        stdout,
        stderr,
        code,
    }
}
