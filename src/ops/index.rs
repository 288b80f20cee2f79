//! `form-package index DIR [--check] [--profile P]`: writes an author's
//! `package-index.json` ([`crate::index::build`], [`crate::index::write`])
//! or only compares it, and returns what it did ([`IndexRun`]); findings
//! are rendered as `verify` renders them ([`crate::render::index`]).

use std::path::Path;

use crate::diag::Diagnostic;
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::verify::{self, PackageOutcome, Source};

pub use crate::report::index::{IndexRun, Refused};

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
        Ok(indexed) if check => Ok(IndexRun::Checked((&indexed).into())),
        Ok(indexed) => match crate::index::write(dir, &indexed) {
            Ok(()) => Ok(IndexRun::Wrote {
                indexed: (&indexed).into(),
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
