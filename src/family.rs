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

use serde::Serialize;

use crate::codes::Code;
use crate::diag::Severity;

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

/// Which check a finding comes from. Decision 0015 rule 8's steps keep
/// their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// A PATH given to `family` does not exist (`FD900`; the run exits 2),
    /// or a directory below it cannot be read (`FD901`) or is a symlink
    /// (`FD902`, not followed), as `verify` reports them.
    Path,
    /// A package could not take part (its Form Definition did not load).
    Package,
    /// A contract file itself: I-JSON, published schema, digest, duplicates.
    Contract,
    /// A candidate set against the loaded contracts.
    CandidateSet,
    /// The relation's target `(apiVersion, kind)` is a Form in the family.
    TargetKind,
    /// Rule 8 (1): `acceptedBindings` carries the annotated contract.
    #[serde(rename = "rule8-step1")]
    Rule8Step1,
    /// Rule 8 (2): that exact BindingRef is loaded (name, version, digest).
    #[serde(rename = "rule8-step2")]
    Rule8Step2,
    /// Rule 8 (3): source `role` equals the Binding's `sourceRole`.
    #[serde(rename = "rule8-step3")]
    Rule8Step3,
    /// Rule 8 (4): the target Form is in `allowedTargetForms`.
    #[serde(rename = "rule8-step4")]
    Rule8Step4,
    /// Rule 8 (5): the target declares the Binding's `targetInterface`.
    #[serde(rename = "rule8-step5")]
    Rule8Step5,
    /// The relation's target contract (`verifier-rules.md` §8.4, §8.7).
    TargetContract,
    /// An `acceptedBindings` entry some binding could ever verify against.
    AcceptedBinding,
}

impl Step {
    /// The kebab-case name used in every format (`rule8-step5`).
    pub fn name(self) -> &'static str {
        match self {
            Step::Path => "path",
            Step::Package => "package",
            Step::Contract => "contract",
            Step::CandidateSet => "candidate-set",
            Step::TargetKind => "target-kind",
            Step::Rule8Step1 => "rule8-step1",
            Step::Rule8Step2 => "rule8-step2",
            Step::Rule8Step3 => "rule8-step3",
            Step::Rule8Step4 => "rule8-step4",
            Step::Rule8Step5 => "rule8-step5",
            Step::TargetContract => "target-contract",
            Step::AcceptedBinding => "accepted-binding",
        }
    }
}

/// A place in a JSON file: the path as found under the PATHs, the JSON
/// Pointer, and the 1-based line and column (Unicode scalar values) of the
/// value (or the nearest ancestor that exists).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Location {
    /// File path as found (PATH joined with the relative path).
    pub file: String,
    /// JSON Pointer (escaped).
    pub pointer: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)?;
        if !self.pointer.is_empty() {
            write!(f, " ({})", self.pointer)?;
        }
        Ok(())
    }
}

/// One family finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable code (`FD7xx`; `FD011`–`FD013` for a contract's I-JSON;
    /// `FD004`/`FD005`/`FD014` for a file that cannot be read).
    #[serde(serialize_with = "code_id")]
    pub code: Code,
    /// Error, warning or note.
    pub severity: Severity,
    /// One phrase, lowercase start.
    pub message: String,
    /// The check that failed.
    pub step: Step,
    /// The source package directory, when the finding is about a Form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The relation's pointer (`/serviceBindings/*/resource`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// The target: `apiVersion kind` of a Form, or `name@version` of a contract.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Where in the definition (or contract, or candidate set) that declares it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The contract file involved, at the member that decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contract: Option<Location>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Facts: digests compared, which Forms were tried.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn code_id<S: serde::Serializer>(c: &Code, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.info().id)
}

impl Finding {
    /// A finding with the code's default severity and help line. Package
    /// text in `message` is quoted with [`crate::diag::escape::quote`];
    /// any control, bidi or separator character still raw in it is escaped
    /// here ([`crate::diag::escape::text`], breaker F13).
    pub fn new(code: Code, step: Step, message: impl Into<String>) -> Self {
        Finding {
            code,
            severity: code.info().severity,
            message: crate::diag::escape::text(&message.into()).into_owned(),
            step,
            source: None,
            relation: None,
            target: None,
            location: None,
            contract: None,
            help: code.info().help.map(str::to_owned),
            notes: Vec::new(),
        }
    }

    /// True for `Severity::Error`.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Deterministic order: location, code, message.
    fn sort_key(&self) -> (Option<&Location>, &'static str, &str, Option<&str>) {
        (
            self.location.as_ref(),
            self.code.info().id,
            &self.message,
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
