//! `form-package conformance DIR`: the reference's conformance suite run
//! through verify's checks ([`crate::ops::conformance::run`]), then printed
//! ([`crate::render::conformance::output`]); the exit status is the
//! report's ([`crate::ops::conformance::SuiteReport::exit_code`]).

use std::path::PathBuf;

use crate::cli::args::Formats;
use crate::output::Output;
use crate::render::Format;

/// `conformance`'s `--format` values.
const FORMATS: Formats = Formats(&[
    (
        "human",
        Format::Human,
        "One line per case, then a summary line",
    ),
    (
        "json",
        Format::Json,
        "One JSON document: every case with its result, then the counts",
    ),
]);

/// `conformance`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory (e.g. conformance/form-package-v1).
    pub dir: PathBuf,
    /// Output format (`human`: one line per case and a summary; `json`).
    #[arg(long, value_parser = FORMATS, default_value = "human")]
    pub format: Format,
}

/// Runs the suite.
pub fn run(a: &Args) -> Output {
    let report = crate::ops::conformance::run(&a.dir);
    let (stdout, stderr) = crate::render::conformance::output(&report, a.format);
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code: report.exit_code(),
    }
}
