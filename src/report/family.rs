//! What `family` returns to its view (`ops::family::view`): the packages
//! (each with its `verify` findings located by [`crate::locate`]), the
//! Forms, contracts and candidate sets loaded, the relation graph, every
//! family finding, and the counts and verdict; `render::family` prints it
//! in its four formats and reads nothing of `family` itself. The family
//! finding ([`Finding`]: a [`Diagnostic`], the contract file its related
//! location, beside the family-only step, source, relation and target),
//! its [`Step`] and [`Location`], an [`Edge`] and a [`ContractRef`] are
//! defined here and used by `family` to build them.

use std::path::PathBuf;

use serde::Serialize;

use crate::codes::Code;
use crate::diag::{Diagnostic, Related, Severity, Target};
use crate::json::pointer::JsonPointer;
use crate::json::position::Position;

/// A checked family, as its view prints it.
#[derive(Clone, Debug, Default)]
pub struct FamilyReport {
    /// Every Form Package found, in path order.
    pub packages: Vec<Package>,
    /// Every Binding or Interface Definition loaded.
    pub contracts: Vec<Contract>,
    /// Every candidate set loaded.
    pub candidate_sets: Vec<CandidateSet>,
    /// Directories the walk skipped by a rule, with the rule.
    pub skipped: Vec<(PathBuf, super::SkipRule)>,
    /// Relation edges, in source order (package path, relation pointer, target).
    pub edges: Vec<Edge>,
    /// Target kinds that are not loaded, as `(apiVersion, kind)`.
    pub missing: Vec<(String, String)>,
    /// Every family finding (loading included), sorted.
    pub findings: Vec<Finding>,
    /// What was accepted.
    pub options: Accepted,
    /// (errors, warnings, notes) of the family findings and the packages'
    /// own `verify` findings together (what the summary counts).
    pub counts: (usize, usize, usize),
    /// True when some package fails `verify` or some family finding is an
    /// error.
    pub fails: bool,
    /// A PATH does not exist (its `FD900` finding is reported with the
    /// rest and every other PATH is still checked, as `verify` does).
    pub could_not_read: bool,
}

impl FamilyReport {
    /// The exit status of the `family` run this report is: 2 when a PATH
    /// does not exist ([`FamilyReport::could_not_read`]), else 1 when it
    /// [`fails`](FamilyReport::fails), else 0. `cli/family.rs` passes it
    /// through; no view decides it.
    pub fn exit_code(&self) -> u8 {
        if self.could_not_read {
            2
        } else {
            u8::from(self.fails)
        }
    }
}

/// What `family` was asked to accept, as its JSON document says it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accepted {
    /// `--partial`.
    pub partial: bool,
    /// `--allow-external GROUP`, each as given.
    pub allow_external: Vec<String>,
    /// `--no-ignore`.
    pub no_ignore: bool,
    /// `--exclude GLOB`, each glob as given.
    pub exclude: Vec<String>,
}

/// One Form Package of the family.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Package {
    /// The directory as found.
    pub path: String,
    /// Its Form, when its Form Definition loaded.
    pub form: Option<Form>,
    /// What `verify` found in it, located.
    pub findings: Vec<PackageFinding>,
    /// How many of them are errors.
    pub errors: usize,
    /// How many of them are warnings.
    pub warnings: usize,
    /// True when one of them is an error (the package fails `verify`).
    pub failed: bool,
}

/// One `verify` finding of a package, located: its [`Diagnostic`], whose
/// file is the file as found (`<package>/<file>`, or the package for a
/// finding about it), and the 1-based line and column of its span (1:1
/// when it has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageFinding {
    /// What `verify` found, its file as found.
    pub diagnostic: Diagnostic,
    /// Where its span starts (1:1 when it has none).
    pub position: Position,
}

impl PackageFinding {
    /// The file as found (`<package>/<file>`, or the package).
    pub fn file(&self) -> &str {
        self.diagnostic.file.as_deref().unwrap_or_default()
    }
}

/// A package finding as the JSON document spells it (a node's
/// `diagnostics`).
#[derive(Serialize)]
struct PackageFindingJson<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    message: &'a str,
    file: &'a str,
    pointer: &'a str,
    line: usize,
    column: usize,
}

impl Serialize for PackageFinding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = &self.diagnostic;
        PackageFindingJson {
            code: d.code.info().id,
            name: d.code.info().name,
            severity: d.severity.as_str(),
            message: &d.message,
            file: self.file(),
            pointer: d.pointer.as_str(),
            line: self.position.line,
            column: self.position.column,
        }
        .serialize(s)
    }
}

/// A Form loaded from a package's Form Definition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form {
    /// Its `apiVersion` (its family).
    pub api_version: String,
    /// Its `kind`.
    pub kind: String,
    /// Its `definitionVersion`.
    pub definition_version: String,
    /// `sha256:` RFC 8785 digest of the definition.
    pub schema_digest: String,
    /// Its `role`, when it declares one.
    pub role: Option<String>,
    /// The definition file as found.
    pub definition: String,
    /// Its `providedInterfaces`.
    pub provided: Vec<ContractRef>,
    /// Its `acceptedBindings`.
    pub accepted: Vec<ContractRef>,
}

/// A Binding or Interface Definition loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contract {
    /// The file as found.
    pub file: String,
    /// `binding` or `interface`.
    pub kind: &'static str,
    /// Its identity.
    pub identity: ContractRef,
    /// True when it is strict I-JSON and valid against its published schema.
    pub valid: bool,
}

/// A candidate set loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CandidateSet {
    /// The file as found.
    pub file: String,
    /// `binding` or `interface`, when its kind is known.
    pub kind: Option<&'static str>,
}

/// A reference to an Interface or Binding Definition by identity
/// (`interface-ref` / `binding-ref` shapes: apiVersion, name, version,
/// schemaDigest).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContractRef {
    /// `interfaces.takoform.com/v1alpha1`, `bindings.takoform.com/v1alpha1`, …
    pub api_version: String,
    /// Contract name (`worker.service`).
    pub name: String,
    /// Contract version (`1.0.0`).
    pub version: String,
    /// `sha256:` RFC 8785 digest.
    pub schema_digest: String,
}

/// How an edge of the graph fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeStatus {
    /// Every check passed.
    Ok,
    /// A check failed (the edge's finding says which).
    Failed,
    /// The target kind is not loaded and `--partial` was given.
    Unchecked,
    /// The target group was accepted with `--allow-external`.
    External,
}

/// Where an edge points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeTarget {
    /// A loaded Form: index into the family's packages ([`FamilyReport::packages`]).
    Form(usize),
    /// A target kind that is not loaded: index into [`FamilyReport::missing`].
    Missing(usize),
}

/// One relation instance of the graph: a source Form's relation to one
/// Form of its target kind (or to the missing kind).
#[derive(Clone, Debug)]
pub struct Edge {
    /// Source: index into the family's packages ([`FamilyReport::packages`]).
    pub from: usize,
    /// Target.
    pub to: EdgeTarget,
    /// Relation pointer (`/serviceBindings/*/resource`).
    pub pointer: String,
    /// The `x-takoform-binding` contract name, or `""`.
    pub binding: String,
    /// Short label of the target contract (`interface worker.runtime@1.0.0`,
    /// `formref WorkerBundle 0.1.0`, `no target contract`).
    pub contract: String,
    /// Whether the reference is required at every level.
    pub required: bool,
    /// How it fared.
    pub status: EdgeStatus,
    /// The step that failed (or why it was not checked).
    pub step: Option<Step>,
    /// The finding's code, when there is one.
    pub code: Option<Code>,
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

/// One family finding: a [`Diagnostic`] (its code, severity, message,
/// help, notes, where it is declared as its file and pointer, and the
/// contract file involved as its [`Related`] entry labelled
/// [`CONTRACT`]) and what only a family finding has: the step that
/// failed, the source package, the relation and the target, and the
/// position of its location (located when it is built, by
/// [`crate::locate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Code (`FD7xx`; `FD011`–`FD013` for a contract's I-JSON;
    /// `FD004`/`FD005`/`FD014` for a file that cannot be read), severity,
    /// message, help and notes; its file (as found under the PATHs) and
    /// pointer are where the definition (or contract, or candidate set)
    /// declares it, when [`Finding::position`] is set; its related
    /// location labelled [`CONTRACT`] is the contract file at the member
    /// that decides.
    pub diagnostic: Diagnostic,
    /// The check that failed.
    pub step: Step,
    /// The source package directory, when the finding is about a Form.
    pub source: Option<String>,
    /// The relation's pointer (`/serviceBindings/*/resource`).
    pub relation: Option<String>,
    /// The target: `apiVersion kind` of a Form, or `name@version` of a contract.
    pub target: Option<String>,
    /// 1-based line and column of the diagnostic's location; `None` when
    /// the finding has no location (its diagnostic names no file).
    pub position: Option<Position>,
}

/// The label of a family finding's contract location ([`Related::label`]).
pub const CONTRACT: &str = "contract";

/// A finding as its JSON document spells it (`findings` of
/// `schemas/form-package-family-v1.schema.json`).
#[derive(Serialize)]
struct FindingJson<'a> {
    /// Its code's id (`FD714`).
    code: &'static str,
    severity: Severity,
    message: &'a str,
    step: Step,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    relation: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contract: Option<Location>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

impl Serialize for Finding {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = &self.diagnostic;
        FindingJson {
            code: d.code.info().id,
            severity: d.severity,
            message: &d.message,
            step: self.step,
            source: self.source.as_deref(),
            relation: self.relation.as_deref(),
            target: self.target.as_deref(),
            location: self.location(),
            contract: self.contract(),
            help: d.help.as_deref(),
            notes: &d.notes,
        }
        .serialize(s)
    }
}

impl Finding {
    /// A finding with the code's default severity and help line. Package
    /// text in `message` is quoted with [`crate::diag::escape::quote`];
    /// any control, bidi or separator character still raw in it is escaped
    /// ([`Diagnostic::new`], breaker F13).
    pub fn new(code: Code, step: Step, message: impl Into<String>) -> Self {
        Finding {
            diagnostic: Diagnostic::new(code, message),
            step,
            source: None,
            relation: None,
            target: None,
            position: None,
        }
    }

    /// Its code.
    pub fn code(&self) -> Code {
        self.diagnostic.code
    }

    /// True for `Severity::Error`.
    pub fn is_error(&self) -> bool {
        self.diagnostic.is_error()
    }

    /// Places the finding at `location` (its diagnostic's file and pointer,
    /// and [`Finding::position`]).
    pub fn locate(&mut self, location: Location) {
        let d = &mut self.diagnostic;
        d.file = Some(location.file);
        d.pointer = JsonPointer::from(location.pointer.as_str());
        self.position = Some(Position {
            line: location.line,
            column: location.column,
        });
    }

    /// Where the definition (or contract, or candidate set) declares it.
    pub fn location(&self) -> Option<Location> {
        let (file, at) = (self.diagnostic.file.as_ref()?, self.position?);
        Some(Location {
            file: file.clone(),
            pointer: self.diagnostic.pointer.as_str().to_owned(),
            line: at.line,
            column: at.column,
        })
    }

    /// Names the contract file involved, at the member that decides: the
    /// diagnostic's related location labelled [`CONTRACT`] (replacing one
    /// named before).
    pub fn set_contract(&mut self, location: Location) {
        let related = &mut self.diagnostic.related;
        related.retain(|r| r.label != CONTRACT);
        related.push(Related {
            label: CONTRACT,
            file: Some(location.file),
            pointer: JsonPointer::from(location.pointer.as_str()),
            target: Target::Value,
            position: Some(Position {
                line: location.line,
                column: location.column,
            }),
        });
    }

    /// The contract file involved, at the member that decides (the
    /// related location labelled [`CONTRACT`]).
    pub fn contract(&self) -> Option<Location> {
        let r = self.diagnostic.related_at(CONTRACT)?;
        let (file, at) = (r.file.as_ref()?, r.position?);
        Some(Location {
            file: file.clone(),
            pointer: r.pointer.as_str().to_owned(),
            line: at.line,
            column: at.column,
        })
    }
}
