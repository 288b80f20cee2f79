//! What a host does with the Form Packages it serves (issue 39), as the
//! current Core (`tako0614/takoform@9bf48fd9`) does it, restated in
//! `../shared/spec/host-rules.md`:
//!
//! - [`snapshot`]: the Snapshot compiler, staged as the Core stages it
//!   (lane, package pins, duplicate identity, contracts, Form ↔ contract
//!   closure, `requiresHostApi`, target FormRefs, default-create pins),
//!   every finding of the stage that stops it, and on success the
//!   Snapshot digest ([`snapshot::digest`]) and roster. Pure: it reads
//!   nothing; [`crate::host_set`] verifies and reads the inputs (for
//!   `snapshot` and `desired`).
//! - [`locator`]: the publication locator (release id, artifact id, tag,
//!   source path) and its tag grammar, as the Core parses it.
//! - [`materialize`]: one desired document validated and materialized as
//!   the Core's `Validate`/`Materialize` do.
//!
//! The bar is `../shared/oracle/snapshot-oracle` (a build of the Core's
//! compiler): `tests/hosts/` compares verdicts, findings and digests with
//! it, and the desired tests its materialized bytes.

pub mod locator;
pub mod materialize;
pub mod snapshot;
