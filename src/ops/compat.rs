//! `form-package compat`: the command as one operation (the CLI file
//! `src/cli/compat.rs` only parses arguments and delivers the output): run
//! the request ([`crate::compat::report::run`]), render the report
//! ([`crate::render::compat::render`]), write the witnesses.
//!
//! A lone definition file is verified by the lone-document check `check`
//! runs ([`crate::document::check_document`], called by the library).

use std::path::{Path, PathBuf};

use crate::error::Error;

/// What one `compat` run did: its report, and with `--write-witnesses`
/// the witness files written or why writing them failed.
#[derive(Debug)]
pub struct CompatRun {
    /// Everything the run found.
    pub report: crate::compat::report::Report,
    /// With `--write-witnesses`: the files written, or the error that
    /// stopped the writing (the run then exits 2).
    pub witnesses: Option<Result<Vec<PathBuf>, Error>>,
}

impl CompatRun {
    /// The exit status: the report's
    /// ([`crate::compat::report::Report::exit_code`]), or 2 when the
    /// witnesses could not be written.
    pub fn exit_code(&self) -> u8 {
        match self.witnesses {
            Some(Err(_)) => 2,
            _ => self.report.exit_code(),
        }
    }
}

/// The whole command: runs the request (a warning fails its entry under
/// `--deny-warnings`, `deny_warnings`) and writes the witnesses into
/// `witnesses` when asked (refused, exit 2, inside a package:
/// [`crate::discover::inside_package`]); nothing is printed
/// ([`crate::render::compat`] makes the text).
///
/// # Errors
/// The command could not run (exit 2).
pub fn run(
    paths: &[PathBuf],
    history_mode: bool,
    base: Option<crate::compat::report::Base>,
    witnesses: Option<&Path>,
    deny_warnings: bool,
) -> Result<CompatRun, Error> {
    if let Some(dir) = witnesses {
        if let Some(package) = crate::discover::inside_package(dir) {
            return Err(Error::Usage(format!(
                "--write-witnesses {} is inside the package {}: nothing is written to a package being verified; write the witnesses outside it",
                dir.display(),
                crate::discover::as_given(dir, &package).display()
            )));
        }
    }
    let mut report = crate::compat::report::run(paths, history_mode, base)?;
    report.report.rule.deny_warnings = deny_warnings;
    let witnesses = witnesses.map(|dir| crate::compat::report::write_witnesses(&report, dir));
    Ok(CompatRun { report, witnesses })
}
