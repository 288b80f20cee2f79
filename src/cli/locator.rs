//! `form-package locator DIR...` and `locator --parse TAG
//! [--package-api-version V]`: one operation each ([`crate::ops::locator`]),
//! printed by [`crate::render::locator::output`] in every `--format`; the
//! exit status is the report's.

use std::path::PathBuf;

use crate::cli::args::ReportArgs;
use crate::output::Output;

/// `locator`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Package directories and trees: each package verified, then its locator.
    #[arg(required_unless_present = "parse", conflicts_with = "parse")]
    pub dirs: Vec<PathBuf>,
    /// Read a publication tag back (`forms/<releaseId>/<artifact>`) with the Core's grammar.
    #[arg(long, value_name = "TAG")]
    pub parse: Option<String>,
    /// The package apiVersion the tag belongs to (tells v1alpha2 from v1alpha3).
    #[arg(long, value_name = "V", requires = "parse")]
    pub package_api_version: Option<String>,
    /// How the report is printed.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Runs `locator`: the operation, then its view, with the report's exit status.
pub fn run(a: Args, is_terminal: bool) -> Output {
    let report = match &a.parse {
        Some(tag) => crate::ops::locator::parse(tag, a.package_api_version.as_deref()),
        None => crate::ops::locator::of_dirs(&a.dirs),
    };
    let opts = crate::render::Options {
        color: a.report.use_color(is_terminal),
        ..crate::render::Options::here()
    };
    let (stdout, stderr) = crate::render::locator::output(&report, a.report.format, &opts);
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code: report.exit_code(),
    }
}
