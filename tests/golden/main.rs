//! The `golden` test binary: outputs compared byte for byte with a reference
//! (the per-code golden folders, RFC 8785 bytes against
//! `serde_json_canonicalizer`, disk against in-memory package sources, the
//! reference CLI against the reference verifier's recorded answers, the
//! release workflow's artifacts). Each area is in its own file here, declared
//! below as a module that gives its libtest-mimic trials (so a trial can report
//! itself ignored at run time, e.g. without the corpus), each listed as
//! `[module] name` (`cargo test --test BINARY MODULE` runs one file's);
//! [`common`] is the one shared prelude.
#[path = "../common/mod.rs"]
mod common;

mod action;
mod desired;
mod golden;
mod native;
mod native_gen;
mod package_source;
mod reference_cli;
mod release;
mod speed;

fn main() {
    common::run_trials(vec![
        ("action", action::trials()),
        ("desired", desired::trials()),
        ("golden", golden::trials()),
        ("native", native::trials()),
        ("native_gen", native_gen::trials()),
        ("package_source", package_source::trials()),
        ("reference_cli", reference_cli::trials()),
        ("release", release::trials()),
        ("speed", speed::trials()),
    ]);
}
