//! The view of `form-package index`: what [`crate::ops::index::run`] did,
//! as text. The findings that stop it are rendered as `verify` renders
//! them (human, quiet: no summary), then the line that says nothing was
//! written; `--check` and a write say the profile chosen and what changed
//! or where the index went. `ops::index` reads the files the findings name;
//! this module alone turns them into text (issue 21 item 3).

use crate::render::{self, human};
use crate::report::index::{IndexRun, Profile, Refused};
use crate::report::Report;

/// The text of an `index` run: (stdout, stderr). A refusal is its findings
/// and the closing `form-package: index wrote nothing: …` (or `index
/// --check: the index cannot be built; …`) line on stderr; `--check` is
/// the profile line, then `package-index.json is up to date` or `would
/// change:` and one indented line per change; a write is the profile line
/// and `wrote <DIR>/package-index.json`.
pub fn report(run: &IndexRun) -> (String, String) {
    match run {
        IndexRun::Refused(refused) => {
            let mut stderr = findings(&refused.report);
            stderr.push_str(&wrote_nothing(refused));
            (String::new(), stderr)
        }
        IndexRun::Checked(indexed) => {
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
            (msg, String::new())
        }
        IndexRun::Wrote { indexed, path } => (
            format!(
                "{}wrote {}\n",
                profile_line(&indexed.profile),
                super::escape::path(path)
            ),
            String::new(),
        ),
    }
}

/// The human rendering of `report` (one package: the directory `index`
/// was given, its findings and the sources they point into), without the
/// summary line.
fn findings(report: &Report) -> String {
    let run = render::RunView::of(report);
    human::render_run(
        &run,
        &render::Options {
            quiet: true,
            ..Default::default()
        },
    )
}

/// `profile P (why)`: the index profile `index` chose and why (issue 26
/// item 2: it was chosen in silence).
fn profile_line(choice: &Profile) -> String {
    format!("profile {} ({})\n", choice.api_version, choice.why)
}

/// The last line of a refused `index`: nothing was written, and what that
/// leaves (`--check` never writes).
fn wrote_nothing(refused: &Refused) -> String {
    let state = if refused.index_exists {
        "is unchanged"
    } else {
        "was not created"
    };
    if refused.check {
        super::escape::line(&format!(
            "index --check: the index cannot be built; {} {state}",
            refused.index.display()
        ))
    } else {
        super::escape::line(&format!(
            "index wrote nothing: {} {state}",
            refused.index.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Entry, EntryKind, ExitRule};
    use crate::verify::PackageOutcome;

    /// A refusal closes with what it leaves: `--check` never writes, and an
    /// index that exists is unchanged while a missing one was not created.
    /// The exit status is the operation's (1), not the view's.
    #[test]
    fn a_refusal_says_what_it_leaves() {
        let refused = |check, index_exists| {
            IndexRun::Refused(Box::new(Refused {
                report: Report::new(
                    vec![Entry::new(EntryKind::Package, PackageOutcome::default())],
                    ExitRule::default(),
                ),
                check,
                index: "p/package-index.json".into(),
                index_exists,
            }))
        };
        let run = refused(false, true);
        assert_eq!(run.exit_code(), 1);
        assert_eq!(
            report(&run),
            (
                String::new(),
                "form-package: index wrote nothing: p/package-index.json is unchanged\n".to_owned()
            )
        );
        assert_eq!(
            report(&refused(true, false)).1,
            "form-package: index --check: the index cannot be built; p/package-index.json was not created\n"
        );
    }
}
