//! The `trust` test binary: Sigstore evidence and pins (`trust`) and the
//! revocation commands, end to end. Each area is in its own file here, declared
//! below as a module; [`common`] is the one shared prelude (the binary's path,
//! the corpus, running a command, copies in temporary directories).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed test, printing is the report

#[path = "../common/mod.rs"]
mod common;

mod revocation;
mod trust;
