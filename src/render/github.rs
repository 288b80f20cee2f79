//! `--format github`: GitHub Actions workflow commands. Stub until #6 lands.

use crate::verify::PackageOutcome;

/// Renders every diagnostic as a workflow command line.
pub fn render(packages: &[PackageOutcome]) -> String {
    super::json::render(packages, false)
}
