//! The `lsp` test binary: `form-package lsp` out of process, message by message
//! and from a real client (tests/lsp-client) and the VS Code extension
//! (editors/vscode). Each area is in its own file here, declared below as a
//! module that gives its libtest-mimic trials (so a trial can report itself
//! ignored at run time, e.g. without the corpus), each listed as `[module]
//! name` (`cargo test --test BINARY MODULE` runs one file's); [`common`] is the
//! one shared prelude.
#[path = "../common/mod.rs"]
mod common;

mod lsp;
mod lsp_e2e;

fn main() {
    common::run_trials(vec![("lsp", lsp::trials()), ("lsp_e2e", lsp_e2e::trials())]);
}
