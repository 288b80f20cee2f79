//! `form-package snapshot DIR...` and `snapshot --manifest FILE`: the set a
//! host will serve compiled as the current Core compiles it
//! ([`crate::ops::snapshot`]), printed by [`crate::render::snapshot::output`]
//! in every `--format`; the exit status is the report's.

use std::path::PathBuf;

use crate::cli::args::ReportArgs;
use crate::output::Output;

/// `snapshot`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Package directories and trees holding the packages of the set.
    #[arg(required_unless_present = "manifest", conflicts_with = "manifest")]
    pub dirs: Vec<PathBuf>,
    /// The Host API lane the Snapshot will serve.
    #[arg(long, value_name = "LANE", default_value = crate::host::snapshot::SERVED_LANE)]
    pub host_api: String,
    /// An Interface Definition of the set (repeatable, one file per flag).
    #[arg(long, value_name = "FILE")]
    pub interface: Vec<PathBuf>,
    /// A Binding Definition of the set (repeatable, one file per flag).
    #[arg(long, value_name = "FILE")]
    pub binding: Vec<PathBuf>,
    /// A default-create pin: the verified package GROUP/KIND@VERSION names
    /// creates GROUP/KIND (repeatable; every group+kind of the set needs one).
    #[arg(long = "default", value_name = "GROUP/KIND@VERSION")]
    pub default: Vec<String>,
    /// Default-create pins as a JSON list of {group, kind, ref} (ref a full FormRef).
    #[arg(long, value_name = "FILE")]
    pub defaults: Option<PathBuf>,
    /// Compile the inputs of a takoform.core-artifact-corpus@v1 manifest (pins checked).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// How the report is printed.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Runs `snapshot`: the operation, then its view, with the report's exit
/// status.
pub fn run(a: Args, is_terminal: bool) -> Output {
    let run = match &a.manifest {
        Some(m) => crate::ops::snapshot::compile_manifest(m),
        None => crate::ops::snapshot::compile_dirs(
            &a.dirs,
            &crate::ops::snapshot::Options {
                host_api: a.host_api.clone(),
                interfaces: a.interface.clone(),
                bindings: a.binding.clone(),
                defaults: a.default.clone(),
                defaults_file: a.defaults.clone(),
                auto_defaults: false,
            },
        ),
    };
    let opts = crate::render::Options {
        color: a.report.use_color(is_terminal),
        ..crate::render::Options::here()
    };
    let (stdout, stderr) = crate::render::snapshot::output(&run.report, a.report.format, &opts);
    Output {
        stdout: stdout.into_bytes(),
        stderr,
        code: run.report.exit_code(),
    }
}
