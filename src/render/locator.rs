//! The view of `form-package locator`: the report in any `--format`
//! ([`super::report`]; `--format json` carries each locator as
//! `packages[].locator`), and in `human` after it each locator as the
//! Core's command prints one: indented JSON `{apiVersion, releaseId,
//! artifactId, tag, sourcePath}` (every string escaped); a tag read back
//! (`--parse`) prints only its locator, as the Core's command does.

use super::{escape, Format, Options, RunView};
use crate::report::Report;

/// What `locator` prints, as (stdout, stderr).
pub fn output(report: &Report, format: Format, opts: &Options) -> (String, String) {
    let view = RunView::of(report);
    // A tag read back (`--parse`) without a finding: the locator alone.
    let parsed_clean = report
        .entries
        .iter()
        .all(|e| e.kind() == crate::report::EntryKind::Document && e.outcome().locator.is_some());
    let (mut stdout, stderr) = if format == Format::Human && parsed_clean {
        (String::new(), String::new())
    } else {
        super::report(format, &view, opts)
    };
    if format == Format::Human {
        for e in &report.entries {
            if let Some(l) = &e.outcome().locator {
                let text = serde_json::to_string_pretty(l).unwrap_or_default();
                if !parsed_clean {
                    stdout.push_str(&format!("{}:\n", escape::path(e.name())));
                }
                for line in text.lines() {
                    stdout.push_str(&escape::text(line));
                    stdout.push('\n');
                }
            }
        }
    }
    (stdout, stderr)
}
