//! `form-package family PATH...`: checks a whole Form Family and the
//! Binding and Interface Definitions it names (issue 13, decision 0015
//! rules 2 and 8, `verifier-rules.md` §8.4–§8.7).
//!
//! The family is exactly what the PATHs hold:
//! - every Form Package found as `verify` finds them ([`crate::discover`]),
//!   each verified by [`crate::verify::verify_package_keeping_definition`]
//!   (the library, not a copy) and, when verify read its Form Definition,
//!   loaded as a Form from those bytes (nothing is read twice) with the
//!   relations verify derived (or, where verify derives none, a legacy
//!   lane or an invalid definition, [`crate::relations::derive`]'s);
//! - every `definition.json` outside a package, loaded as a contract
//!   (Binding Definition `bindings.takoform.com/v1alpha1|v1alpha2`, Interface
//!   Definition `interfaces.takoform.com/v1alpha1`): strict I-JSON, its
//!   published schema (byte-exact copies in `schemas/`), its RFC 8785
//!   digest;
//! - every `candidate-set*.json` outside a package.
//!
//! [`load`] reads all of that, [`check`] runs the cross-package checks and
//! [`crate::render::family`] renders the outcome (`human`, `json`, `dot`, `mermaid`). Every
//! finding is a [`Finding`]: a code of the `FD7xx` range (or the strict
//! reader's `FD011`/`FD012`/`FD013` for a contract that is not I-JSON, or
//! the code `verify` gives a file it cannot read, `FD004`/`FD005`/`FD014`,
//! [`load::unreadable`]), the
//! step that failed ([`Step`]), the source package, the relation pointer,
//! the target, and `file:line:column` locations in the definition that
//! declares it and in the contract file.

pub mod check;
pub mod load;

/// What `family` was asked to accept.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--partial`: the snapshot is known to be incomplete, so a relation
    /// whose target kind is not loaded is a note (`FD703`), not an error
    /// (`FD702`).
    pub partial: bool,
    /// `--allow-external GROUP`: target groups (`edge.forms.takoform.com`,
    /// or a full `apiVersion`) accepted on purpose as outside the family
    /// (note `FD704`).
    pub allow_external: Vec<String>,
    /// The rules of the walk, `verify`'s (`--no-ignore`, `--exclude`; the
    /// default skips hidden directories and, inside a git repository,
    /// what `.gitignore` files name). Each `exclude` glob is checked
    /// ([`crate::discover::check_exclude_glob`]) before anything is read.
    pub walk: crate::discover::WalkRules,
}

/// The finding, its step and location are values of the report model,
/// which `render::family` prints.
pub use crate::report::family::{Finding, Location, Step};

impl Finding {
    /// Deterministic order: location, code, message.
    fn sort_key(&self) -> (Option<Location>, &'static str, &str, Option<&str>) {
        (
            self.location(),
            self.code().info().id,
            &self.diagnostic.message,
            self.target.as_deref(),
        )
    }
}

/// Sorts findings deterministically and drops exact duplicates.
pub fn finish(findings: &mut Vec<Finding>) {
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    findings.dedup();
}

#[cfg(test)]
mod tests;
