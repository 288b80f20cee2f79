//! `form-package`: a verifier for Takoform Form Packages.
//!
//! The library is the verifier; `main.rs` only parses the command line and
//! maps outcomes to exit codes. The API is not stable.

pub mod codes;
pub mod diag;
pub mod json;
pub mod proof;
