//! The `trust` test binary: Sigstore evidence and pins (`trust`) and the
//! revocation commands, end to end. Each area is in its own file here, declared
//! below as a module; [`common`] is the one shared prelude (the binary's path,
//! the corpus, running a command, copies in temporary directories).

#[path = "../common/mod.rs"]
mod common;

mod revocation;
mod trust;
