//! The `commands` test binary: the subcommands end to end through the built
//! binary (exit codes, formats, `init`, `explain`, `relations`, `family`,
//! `check` and `conformance`, adoption and the CI integrations, package text
//! escaped in every view). Each area is
//! in its own file here, declared below as a module; [`common`] is the one
//! shared prelude (the binary's path, the corpus, running a command, copies in
//! temporary directories).
#[path = "../common/mod.rs"]
mod common;

mod adoption;
mod check_conformance;
mod cli;
mod cli_behaviour;
mod escape;
mod explain_examples;
mod family;
mod formats;
mod init;
mod integrations;
mod named_files;
mod onramp;
mod relations;
mod walk;
