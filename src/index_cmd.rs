//! `form-package index DIR [--check] [--profile P]`: writes an author's
//! `package-index.json` ([`crate::index::build`], [`crate::index::write`])
//! or only compares it; findings are rendered as `verify` renders them.

use std::path::Path;

use crate::diag::Diagnostic;
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::output::Output;
use crate::render;
use crate::verify::{self, PackageOutcome, Source};

/// `index DIR [--check] [--profile P]`: writes the index atomically, or
/// with `--check` exits 1 when it would change. Refuses (exit 1, nothing
/// written) a directory `verify` would refuse at the file-system level.
pub fn run(dir: &Path, check: bool, profile: Option<&str>) -> Output {
    if std::fs::symlink_metadata(dir).is_err() {
        return Error::Usage(format!("{}: no such directory", dir.display())).into();
    }
    if let Some(p) = profile {
        if crate::profile::IndexProfile::from_api_version(p).is_none() {
            return Error::Usage(format!(
                "index: unknown --profile {p:?} ({})",
                crate::profile::api_versions().join(", ")
            ))
            .into();
        }
    }
    match crate::index::build(dir, profile) {
        Err(crate::error::Refused::Fault(e)) => e.into(),
        Err(crate::error::Refused::Findings(diags)) => {
            let mut stderr = render_findings_of(dir, diags);
            stderr.push_str(&wrote_nothing(dir, check));
            Output {
                stderr,
                code: 1,
                ..Default::default()
            }
        }
        Ok(indexed) if check => {
            let mut msg = profile_line(&indexed.profile);
            msg.push_str(if indexed.drift {
                "package-index.json would change:\n"
            } else {
                "package-index.json is up to date\n"
            });
            if indexed.drift {
                for c in &indexed.changes {
                    msg.push_str(&format!("  {c}\n"));
                }
            }
            Output {
                stdout: msg.into_bytes(),
                code: u8::from(indexed.drift),
                ..Default::default()
            }
        }
        Ok(indexed) => match crate::index::write(dir, &indexed) {
            Ok(()) => Output {
                stdout: format!(
                    "{}wrote {}\n",
                    profile_line(&indexed.profile),
                    dir.join(verify::INDEX_FILE).display()
                )
                .into_bytes(),
                ..Default::default()
            },
            Err(source) => Error::Io {
                path: dir.join(verify::INDEX_FILE),
                source,
            }
            .into(),
        },
    }
}

/// `profile P (why)`: the index profile `index` chose and why (issue 26
/// item 2: it was chosen in silence).
fn profile_line(choice: &crate::index::ProfileChoice) -> String {
    format!("profile {} ({})\n", choice.api_version, choice.why())
}

/// The last line of a refused `index`: nothing was written, and what that
/// leaves (`--check` never writes).
fn wrote_nothing(dir: &Path, check: bool) -> String {
    let index = dir.join(verify::INDEX_FILE);
    let state = if std::fs::symlink_metadata(&index).is_ok() {
        "is unchanged"
    } else {
        "was not created"
    };
    if check {
        format!(
            "form-package: index --check: the index cannot be built; {} {state}\n",
            index.display()
        )
    } else {
        format!(
            "form-package: index wrote nothing: {} {state}\n",
            index.display()
        )
    }
}

/// Renders the findings of a command about package `dir` (not `verify`) in
/// the human format, through the same front end as `verify`: each file a
/// finding names is read again ([`crate::fileread`], found: a regular file,
/// not followed through a link, at most `limits::JSON_BYTES`, 16 MiB) and
/// strictly parsed for its spans, so every finding shows
/// `<package>/<file>:line:column` and its marked token.
fn render_findings_of(dir: &Path, diagnostics: Vec<Diagnostic>) -> String {
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
    let outcome = [PackageOutcome {
        path: dir.to_path_buf(),
        diagnostics,
        sources,
        ..Default::default()
    }];
    render::index::findings(&outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_that_does_not_exist_exits_2() {
        let unknown = run(Path::new("/nonexistent/form-package"), true, None);
        assert_eq!(unknown.code, 2);
        assert!(unknown.stderr.starts_with("form-package: "));
    }
}
