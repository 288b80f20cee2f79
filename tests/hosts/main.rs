//! The `hosts` test binary (issue 39): `snapshot` (and `locator`) end to
//! end through the built binary, against the Core's compiler
//! (`../shared/oracle/snapshot-oracle`, differential: reported ignored when
//! the oracle is absent, failed then under `CI` or
//! `FORM_PACKAGE_REQUIRE_ORACLE`: `common::needs_oracle`)
//! and against recorded answers (no oracle needed).
#[path = "../common/mod.rs"]
mod common;

mod locator;
mod manifest;
mod oracle;
mod snapshot;

fn main() {
    common::run_trials(vec![
        ("snapshot", snapshot::trials()),
        ("locator", locator::trials()),
        ("manifest", manifest::trials()),
    ]);
}
