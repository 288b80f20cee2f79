//! The `compat` test binary: `form-package compat` end to end and the
//! desired-schema prover on crafted, generated, hostile and corpus pairs. Each
//! area is in its own file here, declared below as a module that gives its
//! libtest-mimic trials (so a trial can report itself ignored at run time, e.g.
//! without the corpus), each listed as `[module] name` (`cargo test --test
//! BINARY MODULE` runs one file's); [`common`] is the one shared prelude.
#[path = "../common/mod.rs"]
mod common;

mod compat;
mod compat_desired;
mod compat_gate;
mod compat_meaning;
mod compat_silent;

fn main() {
    common::run_trials(vec![
        ("compat", compat::trials()),
        ("compat_desired", compat_desired::trials()),
        ("compat_gate", compat_gate::trials()),
        ("compat_meaning", compat_meaning::trials()),
        ("compat_silent", compat_silent::trials()),
    ]);
}
