//! The views of `form-package check` (and of `revocation`, which prints
//! its documents the same way): the per-document rendering in every
//! [`Format`] and the human verdict lines. `check_cmd` returns the checked
//! documents; this module alone turns them into text (issue 21 item 3).

use crate::codes::Code;
use crate::render::{self, human, Format};
use crate::verify::PackageOutcome;

/// Renders single-document outcomes in `format`; `names` are the documents'
/// paths as given (one per outcome): the `path` of each `--format json`
/// entry and the `name` of each JUnit testcase, so every document is
/// identifiable (an outcome's `path` is the directory its findings' files
/// are relative to); `verdicts` are the human verdict lines (one per
/// outcome), used for `human` only.
pub fn render_documents(
    outcomes: &[PackageOutcome],
    names: &[String],
    verdicts: &[String],
    format: Format,
    color: bool,
    deny_warnings: bool,
) -> String {
    let mut run = render::RunView::new(outcomes, deny_warnings);
    // A FILE that could not be read makes the run exit 2: SARIF says the
    // run did not complete (T2 F2), as it does for `verify`.
    run.could_not_run = outcomes.iter().any(|o| {
        o.diagnostics
            .iter()
            .any(|d| matches!(d.code, Code::PathNotFound | Code::UnreadableFile))
    });
    let opts = render::Options {
        color,
        quiet: true,
        deny_warnings,
        ..render::Options::here()
    };
    for (p, name) in run.packages.iter_mut().zip(names) {
        p.display = Some(name.into());
        p.kind = render::EntryKind::Document;
    }
    match format {
        Format::Human => {
            let mut text = String::new();
            for (p, v) in run.packages.iter().zip(verdicts) {
                text.push_str(&human::render_package(p, &opts));
                for s in &p.outcome.skipped {
                    text.push_str(&format!("  skipped {s}\n"));
                }
                text.push_str(v);
            }
            text
        }
        other => render::render(other, &run, &opts),
    }
}
