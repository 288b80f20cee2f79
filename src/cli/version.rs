//! `form-package version`: this build's identity as one compact JSON line.

use crate::output::Output;

/// Prints [`version_line`] of the commit `build.rs` recorded.
pub fn run() -> Output {
    Output {
        stdout: version_line(env!("FORM_PACKAGE_COMMIT")).into_bytes(),
        ..Default::default()
    }
}

/// The `version` line: the reference's members in its order (`command`,
/// `module`, `version`, then `commit` when the build knows it: 40 or 64
/// lowercase hex from `build.rs`; `current-profile.md` §11.1). No `sum`:
/// a Cargo build has no Go module checksum.
pub fn version_line(commit: &str) -> String {
    let mut line = format!(
        "{{\"command\":\"form-package\",\"module\":\"form-package\",\"version\":\"{}\"",
        env!("CARGO_PKG_VERSION")
    );
    if !commit.is_empty() {
        line.push_str(&format!(",\"commit\":\"{commit}\""));
    }
    line.push_str("}\n");
    line
}
