//! The `compat` command as one library operation (the CLI file
//! `src/cli/compat.rs` only parses arguments and delivers the output): run
//! the request, render the report, write the witnesses.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// The whole command: runs the request ([`super::report::run`]), renders it in `format`
/// ([`crate::render::compat::render`]), writes the witnesses into
/// `witnesses` when asked (refused, exit 2, inside a package:
/// [`super::report::inside_package`]), and returns what to print and the exit status
/// ([`super::report::Report::exit_code`]; 2 when it could not run).
pub fn command(
    paths: &[PathBuf],
    history_mode: bool,
    base: Option<&Path>,
    witnesses: Option<&Path>,
    format: crate::render::Format,
    opts: &crate::render::Options,
) -> crate::output::Output {
    if let Some(package) = witnesses.and_then(super::report::inside_package) {
        return Error::Usage(format!(
            "--write-witnesses {} is inside the package {}: nothing is written to a package being verified; write the witnesses outside it",
            witnesses.map(Path::display).map(|d| d.to_string()).unwrap_or_default(),
            package.display()
        ))
        .into();
    }
    let report = match super::report::run(paths, history_mode, base) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let mut out = crate::output::Output {
        stdout: crate::render::compat::render(&report, format, opts).into_bytes(),
        code: report.exit_code(),
        ..Default::default()
    };
    if let Some(dir) = witnesses {
        match super::report::write_witnesses(&report, dir) {
            Ok(written) => {
                for w in written {
                    out.stderr
                        .push_str(&format!("form-package: wrote witness {}\n", w.display()));
                }
            }
            Err(e) => {
                let failed: crate::output::Output = e.into();
                out.stderr.push_str(&failed.stderr);
                out.code = 2;
            }
        }
    }
    out
}
