//! `form-package`: a verifier for Takoform Form Packages.
//!
//! The library is the verifier; `main.rs` only parses the command line and
//! maps outcomes to exit codes. The API is not stable.
//!
//! Pipeline: [`discover`] finds package roots; [`verify::verify_package`]
//! runs the ordered checks of [`checks`] over one [`package`] model
//! ([`fsread`] for the file system, [`json::strict`] and [`canonical`] for
//! I-JSON and RFC 8785, [`schemas`] and [`profile`] for structure, [`proof`],
//! [`fixtures`] and [`relations`] for the Form Definition); [`render`] turns
//! outcomes into text.

// Our own code never prints (renderers return text; main writes it) and
// never panics on input: no unwrap/expect, no unchecked indexing. Each
// remaining `allow` carries the invariant that makes it safe. Set in the
// crate roots (here, src/main.rs, build.rs), not in Cargo.toml's [lints],
// which would reach the test and bench crates.
#![warn(clippy::print_stdout, clippy::print_stderr)]
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod canonical;
pub mod checks;
pub mod cli;
pub mod codes;
pub mod compat;
pub mod constraints;
pub mod definition_rules;
pub mod diag;
pub mod discover;
pub mod doc_kind;
pub mod document;
pub mod engine;
pub mod error;
pub mod explain;
pub mod family;
pub mod fileread;
pub mod fixtures;
pub mod formats;
pub mod fsread;
pub mod fswrite;
pub mod host;
pub mod host_set;
pub mod index;
pub mod json;
pub mod keywords;
pub mod limits;
pub mod locate;
pub mod lsp;
pub mod memo;
pub mod ops;
pub mod output;
pub mod package;
pub mod profile;
pub mod proof;
pub mod relations;
pub mod render;
pub mod report;
pub mod revocation;
pub mod schemas;
pub mod select;
pub mod source;
pub mod summary;
#[cfg(test)]
mod testing;
pub mod trust;
pub mod verify;
pub mod vocabulary;
