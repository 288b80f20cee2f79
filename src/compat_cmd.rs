//! `form-package compat`: the command as one operation (the CLI file
//! `src/cli/compat.rs` only parses arguments and delivers the output): run
//! the request ([`crate::compat::report::run`]), render the report
//! ([`crate::render::compat::render`]), write the witnesses.
//!
//! A lone definition file is verified by `check`'s pipeline
//! ([`check_file`], over [`crate::check_cmd::check_document`]), handed to
//! the library so that `compat` itself never depends on a command module.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::verify::PackageOutcome;

/// [`crate::compat::side::CheckFile`] over `check`: the document's
/// findings (a definition is verified as the only payload of a package held
/// in memory, with the fixtures beside it) and whether it is a Form
/// Definition.
///
/// # Errors
/// Why `check` could not run (exit 2).
pub fn check_file(
    display: &str,
    bytes: Vec<u8>,
    beside: &Path,
) -> Result<(PackageOutcome, bool), String> {
    let checked = crate::check_cmd::check_document(display, bytes, Some(beside))?;
    let is_definition = checked.kind == Some(crate::doc_kind::DocKind::Definition);
    Ok((checked.outcome, is_definition))
}

/// The whole command: runs the request, renders it in `format`, writes the
/// witnesses into `witnesses` when asked (refused, exit 2, inside a
/// package: [`crate::compat::report::inside_package`]), and returns what
/// to print and the exit status
/// ([`crate::compat::report::Report::exit_code`]; 2 when it could not run).
pub fn run(
    paths: &[PathBuf],
    history_mode: bool,
    base: Option<&Path>,
    witnesses: Option<&Path>,
    format: crate::render::Format,
    opts: &crate::render::Options,
) -> crate::output::Output {
    if let Some(package) = witnesses.and_then(crate::compat::report::inside_package) {
        return Error::Usage(format!(
            "--write-witnesses {} is inside the package {}: nothing is written to a package being verified; write the witnesses outside it",
            witnesses.map(Path::display).map(|d| d.to_string()).unwrap_or_default(),
            package.display()
        ))
        .into();
    }
    let report = match crate::compat::report::run(paths, history_mode, base, check_file) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let mut out = crate::output::Output {
        stdout: crate::render::compat::render(&report, format, opts).into_bytes(),
        code: report.exit_code(),
        ..Default::default()
    };
    if let Some(dir) = witnesses {
        match crate::compat::report::write_witnesses(&report, dir) {
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
