//! The `trust` test binary: Sigstore evidence and pins (`trust`) and the
//! revocation commands, end to end. Each area is in its own file here, declared
//! below as a module that gives its libtest-mimic trials (so a trial can report
//! itself ignored at run time: without the corpus, Python `sigstore` or a
//! usable `strace`), each listed as `[module] name` (`cargo test --test
//! BINARY MODULE` runs one file's); [`common`] is the one shared prelude.
#[path = "../common/mod.rs"]
mod common;

mod previous_pin;
mod revocation;
mod set;
mod trust;

fn main() {
    common::run_trials(vec![
        ("previous_pin", previous_pin::trials()),
        ("revocation", revocation::trials()),
        ("set", set::trials()),
        ("trust", trust::trials()),
    ]);
}
