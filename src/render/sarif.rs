//! `--format sarif`: SARIF 2.1.0 (one rule per code). Stub until #6 lands.

use crate::verify::PackageOutcome;

/// Renders the whole run as one SARIF 2.1.0 log.
pub fn render(packages: &[PackageOutcome]) -> String {
    super::json::render(packages, false)
}
