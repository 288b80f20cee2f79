//! The `docs` test binary: README.md and the docs book stay true to the code,
//! and the import graph of `src/` keeps its layers. Each area is in its own
//! file here, declared below as a module; [`common`] is the one shared prelude
//! (the binary's path, the corpus, running a command, copies in temporary
//! directories).
#[path = "../common/mod.rs"]
mod common;

mod docs;
mod imports;
mod install;
mod paths;
mod test_rules;
