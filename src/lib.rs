//! `form-package`: a verifier for Takoform Form Packages.
//!
//! The library is the verifier; `main.rs` only parses the command line and
//! maps outcomes to exit codes. The API is not stable.

pub mod codes;
pub mod definition_rules;
pub mod diag;
pub mod engine;
pub mod fixtures;
pub mod json;
