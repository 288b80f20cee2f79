//! The `verify` test binary: the verifier's verdicts and findings (corpus
//! agreement, the engine's numbers and formats, the strict reader, hostile and
//! untrusted input, gating, the code registry). Each area is
//! in its own file here, declared below as a module; [`common`] is the one
//! shared prelude (the binary's path, the corpus, running a command, copies in
//! temporary directories).
#[path = "../common/mod.rs"]
mod common;

mod check_agreement;
mod corpus;
mod definition_cases;
mod engine_formats;
mod engine_numbers;
mod gating;
mod hostile;
mod output_safety;
mod properties;
mod registry;
mod strict_reader;
mod untrusted_input;
