//! `form-package`: a verifier for Takoform Form Packages.
//!
//! The library is the verifier; `main.rs` only parses the command line and
//! maps outcomes to exit codes. The API is not stable.
//!
//! Pipeline: [`discover`] finds package roots; [`verify::verify_package`]
//! runs the stages of `verifier-rules.md` §1.1 over one package ([`fsread`]
//! for the file system, [`json::strict`] and [`canonical`] for I-JSON and
//! RFC 8785, [`schemas`] and [`profile`] for structure, [`definition`] for
//! the Form Definition and its proofs, fixtures and relations); [`render`]
//! turns outcomes into text.

pub mod app;
pub mod canonical;
pub mod check;
pub mod cli;
pub mod codes;
pub mod conformance;
pub mod constraints;
pub mod definition;
pub mod definition_rules;
pub mod diag;
pub mod discover;
pub mod engine;
pub mod explain;
pub mod family;
pub mod fixtures;
pub mod fsread;
pub mod index;
pub mod json;
pub mod profile;
pub mod proof;
pub mod relations;
pub mod relations_cmd;
pub mod render;
pub mod revocation;
pub mod revocation_cmd;
pub mod schemas;
pub mod stages;
#[cfg(test)]
mod testing;
pub mod trust;
pub mod verify;
pub mod vocabulary;
