//! The `lsp` test binary: `form-package lsp` out of process, message by message
//! and from a real client (tests/lsp-client) and the VS Code extension
//! (editors/vscode). Each area is in its own file here, declared below as a
//! module that gives its libtest-mimic trials (so a trial can report itself
//! ignored at run time, e.g. without the corpus), each listed as `[module]
//! name` (`cargo test --test BINARY MODULE` runs one file's); [`common`] is the
//! one shared prelude.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::print_stdout,
    clippy::print_stderr
)] // test code: a panic is a failed test, printing is the report

#[path = "../common/mod.rs"]
mod common;

mod lsp;
mod lsp_e2e;

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = Vec::new();
    trials.extend(lsp::trials().into_iter().map(|t| t.with_kind("lsp")));
    trials.extend(
        lsp_e2e::trials()
            .into_iter()
            .map(|t| t.with_kind("lsp_e2e")),
    );
    libtest_mimic::run(&args, trials).exit();
}
