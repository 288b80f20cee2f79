//! `form-package index DIR [--check] [--profile P]`: writes an author's
//! `package-index.json` ([`crate::index::build`], [`crate::index::write`])
//! or only compares it, and returns what it did ([`IndexRun`]); findings
//! are rendered as `verify` renders them ([`crate::render::index`]).

use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::index::Indexed;
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::verify::{self, PackageOutcome, Source};

/// What `index` did; [`crate::render::index::report`] prints it.
#[derive(Debug)]
pub enum IndexRun {
    /// Findings stopped it (exit 1): nothing was written.
    Refused(Box<Refused>),
    /// `--check`: the index that would be written, compared with the
    /// existing one (exit 1 when it would change, [`Indexed::drift`]).
    Checked(Indexed),
    /// The index was written (exit 0) to `path` (DIR's
    /// `package-index.json`).
    Wrote {
        /// What was written.
        indexed: Indexed,
        /// Where.
        path: PathBuf,
    },
}

/// The findings that stopped `index`, and what that leaves.
#[derive(Debug)]
pub struct Refused {
    /// The report of the findings: one package entry, DIR, with the
    /// files they name read again for their `line:column` (see
    /// `findings_of`).
    pub report: Report,
    /// `--check` was given (it never writes).
    pub check: bool,
    /// DIR's `package-index.json`.
    pub index: PathBuf,
    /// Whether it exists: it is then unchanged, else it was not created.
    pub index_exists: bool,
}

impl IndexRun {
    /// The exit status: `1` refused (nothing was written, whatever its
    /// report's findings weigh), or `--check` found the index would
    /// change; else `0`.
    pub fn exit_code(&self) -> u8 {
        match self {
            IndexRun::Refused(_) => 1,
            IndexRun::Checked(indexed) => u8::from(indexed.drift),
            IndexRun::Wrote { .. } => 0,
        }
    }
}

/// `index DIR [--check] [--profile P]`: writes the index atomically, or
/// with `--check` only compares it. Refuses (findings, nothing written) a
/// directory `verify` would refuse at the file-system level.
///
/// # Errors
/// The command could not run (exit 2): DIR does not exist, `--profile` is
/// unknown, a fault of the verifier, or the index could not be written.
pub fn run(dir: &Path, check: bool, profile: Option<&str>) -> Result<IndexRun, Error> {
    if std::fs::symlink_metadata(dir).is_err() {
        return Err(Error::Usage(format!(
            "{}: no such directory",
            dir.display()
        )));
    }
    // The one `--profile` parser (`v1alpha5` or its index apiVersion).
    let profile = profile
        .map(|p| crate::profile::parse_option("index", p).map(|p| p.api_version()))
        .transpose()?;
    let index = dir.join(verify::INDEX_FILE);
    match crate::index::build(dir, profile.as_deref()) {
        Err(crate::error::Refused::Fault(e)) => Err(e),
        Err(crate::error::Refused::Findings(diags)) => Ok(IndexRun::Refused(Box::new(Refused {
            report: Report::new(
                vec![Entry::new(EntryKind::Package, findings_of(dir, diags))],
                ExitRule::default(),
            ),
            check,
            index_exists: std::fs::symlink_metadata(&index).is_ok(),
            index,
        }))),
        Ok(indexed) if check => Ok(IndexRun::Checked(indexed)),
        Ok(indexed) => match crate::index::write(dir, &indexed) {
            Ok(()) => Ok(IndexRun::Wrote {
                indexed,
                path: index,
            }),
            Err(source) => Err(Error::Io {
                path: index,
                source,
            }),
        },
    }
}

/// The findings of a command about package `dir` (not `verify`) as one
/// package's outcome, for the same front end as `verify`: each file a
/// finding names is read again ([`crate::fileread`], found: a regular file,
/// not followed through a link, at most `limits::JSON_BYTES`, 16 MiB) and
/// strictly parsed for its spans, so every finding shows
/// `<package>/<file>:line:column` and its marked token.
fn findings_of(dir: &Path, diagnostics: Vec<Diagnostic>) -> PackageOutcome {
    let mut sources = std::collections::BTreeMap::new();
    for f in diagnostics.iter().filter_map(|d| d.file.as_deref()) {
        if sources.contains_key(f) {
            continue;
        }
        let found = read_file(&dir.join(f), Reach::Found, crate::limits::JSON_BYTES);
        let Ok(bytes) = found else {
            continue;
        };
        let spans = crate::json::strict::parse(&bytes).ok().map(|p| p.spans);
        sources.insert(f.to_owned(), Source { bytes, spans });
    }
    PackageOutcome {
        path: dir.to_path_buf(),
        diagnostics,
        sources,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_that_does_not_exist_exits_2() {
        let unknown = run(Path::new("/nonexistent/form-package"), true, None).unwrap_err();
        assert!(matches!(unknown, Error::Usage(_)), "{unknown}");
        let out = crate::output::Output::from(unknown);
        assert_eq!(out.code, 2);
        assert!(out.stderr.starts_with("form-package: "));
    }
}
