//! `form-package conformance DIR`: the reference's conformance suite run
//! through verify's checks ([`crate::ops::conformance::run`]), then printed
//! ([`crate::render::conformance::output`]); the exit status is the
//! report's ([`crate::ops::conformance::SuiteReport::exit_code`]).

use std::path::PathBuf;

use crate::output::Output;
use crate::render::conformance::ConformanceFormat;

/// `conformance`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite directory (e.g. conformance/form-package-v1).
    pub dir: PathBuf,
    /// Output format (`human`: one line per case and a summary; `json`).
    #[arg(long, value_enum, default_value_t = ConformanceFormat::Human)]
    pub format: ConformanceFormat,
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
