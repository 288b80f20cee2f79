//! The view of `form-package index`: the findings that stop it, rendered
//! as `verify` renders them (human, quiet: no summary). `index_cmd` reads
//! the files the findings name; this module alone turns them into text
//! (issue 21 item 3).

use crate::render::{self, human};
use crate::verify::PackageOutcome;

/// The human rendering of `outcome` (one package: the directory `index`
/// was given, its findings and the sources they point into), without the
/// summary line.
pub fn findings(outcome: &[PackageOutcome]) -> String {
    let run = render::RunView::new(outcome, false);
    human::render_run(
        &run,
        &render::Options {
            quiet: true,
            ..Default::default()
        },
    )
}
