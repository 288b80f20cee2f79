//! `form-package digest DIR` and `digest --form-ref FILE` (issue 36 item
//! 14): the FormRef in one step. `digest FILE` (the reference's command) is
//! [`crate::ops::canonicalize`]'s; here:
//!
//! - `digest DIR`: the package is verified first ([`super::verify`], with
//!   no configuration file, so no selection hides a finding); a package
//!   that verifies gives its FormRef (the index's `formRef`, which
//!   verification proved equal to the definition's) and its package
//!   digest; one that does not is refused with its report (exit 1);
//! - `digest --form-ref FILE`: the FormRef a package index would carry for
//!   the definition FILE, under the profile its `apiVersion` implies, after
//!   the definition was checked against that profile's definition schema
//!   as `index` checks it ([`crate::index::form_ref_of`]).
//!
//! `cli/digest.rs` prints what this returns with [`crate::render::digest`].

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::Error;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::select::RuleArgs;
use crate::verify::{PackageOutcome, Source};

/// What `digest DIR` or `digest --form-ref FILE` found.
#[derive(Debug)]
pub enum Digested {
    /// A package that verified.
    Package {
        /// Its FormRef (`apiVersion`, `definitionVersion`, `kind`,
        /// `schemaDigest`).
        form_ref: Value,
        /// Its package digest (`sha256:<64 hex>`).
        package_digest: String,
    },
    /// The FormRef of a definition.
    FormRef {
        /// The FormRef.
        form_ref: Value,
        /// The index profile it is for (`packages.forms.takoform.com/v1alpha5`).
        profile: String,
    },
    /// The package or definition was refused (exit 1; 2 for a fault of the
    /// verifier): its report, as `verify` would print it.
    Refused(Box<Report>),
}

impl Digested {
    /// The exit status: 0 printed, else the refusal report's.
    pub fn exit_code(&self) -> u8 {
        match self {
            Digested::Refused(report) => report.exit_code().max(1),
            _ => 0,
        }
    }
}

/// `digest DIR`: verifies the package at `dir` (named against `cwd`) and
/// returns its FormRef and package digest.
///
/// # Errors
/// The command could not run (exit 2): `dir` has no `package-index.json`
/// or holds more than one package (`digest` takes one package directory),
/// or verification could not run.
pub fn package(dir: &Path, cwd: &Path) -> Result<Digested, Error> {
    if std::fs::symlink_metadata(dir.join(crate::verify::INDEX_FILE)).is_err() {
        return Err(Error::Usage(format!(
            "{}: a directory without {}: digest takes a JSON file or one package directory",
            dir.display(),
            crate::verify::INDEX_FILE
        )));
    }
    let printed = super::verify::Printed {
        cwd: cwd.to_path_buf(),
        ..Default::default()
    };
    // No configuration file: a `select`/`ignore` found upward must not hide
    // why a package is refused before its digest is printed.
    let rules = RuleArgs {
        isolated: true,
        ..Default::default()
    };
    let report = super::verify::verify_paths_with(&[dir.to_path_buf()], &printed, &rules, &())
        .map_err(|r| Error::Usage(r.to_string()))?;
    let packages: Vec<&Entry> = report
        .entries
        .iter()
        .filter(|e| e.kind() == EntryKind::Package)
        .collect();
    let [entry] = packages.as_slice() else {
        if report.exit_code() != 0 {
            return Ok(Digested::Refused(Box::new(report)));
        }
        let holds = match packages.len() {
            0 => "no Form Package".to_owned(),
            n => format!("{n} Form Packages"),
        };
        return Err(Error::Usage(format!(
            "{}: a directory holding {holds}: digest takes a JSON file or one package directory",
            dir.display()
        )));
    };
    if report.exit_code() != 0 {
        return Ok(Digested::Refused(Box::new(report)));
    }
    let outcome = entry.outcome();
    match (&outcome.report, &outcome.package_digest) {
        (Some(verified), Some(digest)) => Ok(Digested::Package {
            form_ref: verified.form_ref.clone(),
            package_digest: digest.clone(),
        }),
        _ => Ok(Digested::Refused(Box::new(report))),
    }
}

/// `digest --form-ref FILE`: the FormRef a package index would carry for
/// the definition `file`.
///
/// # Errors
/// The file cannot be read (exit 2), or is refused by the strict reader
/// ([`super::canonicalize::Refusal`], exit 1): the reference's refusal,
/// printed as `canonicalize` prints it.
pub fn form_ref(file: &Path) -> Result<Digested, super::canonicalize::Refusal> {
    // The one strict read of a named JSON file (16 MiB, RFC 8785).
    let canonical = super::canonicalize::run(file, false)?;
    let definition: Value = serde_json::from_slice(&canonical).unwrap_or(Value::Null);
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    match crate::index::form_ref_of(&definition, &name) {
        Ok((form_ref, choice)) => Ok(Digested::FormRef {
            form_ref,
            profile: choice.api_version,
        }),
        Err(crate::error::Refused::Fault(e)) => Err(super::canonicalize::Refusal::Unreadable(e)),
        Err(crate::error::Refused::Findings(diagnostics)) => {
            let dir = file.parent().map_or_else(PathBuf::new, Path::to_path_buf);
            let mut sources = std::collections::BTreeMap::new();
            let read = crate::fileread::read_file(
                file,
                crate::fileread::Reach::Named,
                crate::limits::JSON_BYTES,
            );
            if let Ok(bytes) = read {
                let spans = crate::json::strict::parse(&bytes).ok().map(|p| p.spans);
                sources.insert(name, Source { bytes, spans });
            }
            let outcome = PackageOutcome {
                path: dir,
                diagnostics,
                sources,
                ..Default::default()
            };
            Ok(Digested::Refused(Box::new(Report::new(
                vec![Entry::new(EntryKind::Document, outcome)],
                ExitRule::default(),
            ))))
        }
    }
}
