//! The operations: one file per command, named like the command's face in
//! `src/cli/` (`cli/verify.rs` calls `ops::verify`, `cli/check.rs`
//! `ops::check`, …). An operation reads its inputs, runs the library
//! (`checks`, `verify`, `document`, `compat`, `family`, `trust`, …) and
//! returns a typed result carrying its exit status; `src/render/` turns that
//! result into text and the command's `cli/` file into an `Output`.
//!
//! Only `src/cli/` (and `main.rs`) imports an operation: the library and
//! `render/` never do (`tests/docs/imports.rs` holds the rule).

pub mod canonicalize;
pub mod check;
pub mod compat;
pub mod conformance;
pub mod desired;
pub mod digest;
pub mod family;
pub mod index;
pub mod init;
pub mod locator;
pub mod relations;
pub mod revocation;
pub mod snapshot;
pub mod trust;
pub mod verify;
