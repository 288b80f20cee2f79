//! The ordered list of package checks and the one runner that drives them.
//!
//! Order follows `verifier-rules.md` §1.1 as changed by `current-profile.md`
//! §6 and §10 (the payload name scan runs after the FormRef re-validation).
//! Each [`Check`] declares the codes it may emit, the [`Fact`]s it needs
//! and the fact it establishes, and which file its findings are in when
//! they name none. The runner ([`run`]) does everything between checks:
//!
//! - **gating**: a check runs only when every fact it needs holds. Unlike
//!   the reference, which stops at the first error, every independent
//!   finding is reported; a check is skipped only when it depends on one
//!   that failed (an unrelated error elsewhere, an unlisted file say, skips
//!   nothing);
//! - **skipped-because records**: a skipped check is named with the reason
//!   the first missing fact failed, and the fact it would have established
//!   fails with that same reason, so one root cause is one record
//!   (`schema-proofs, compile, fixtures: the definition fails its schema`).
//!   A check that ran but left part of its work out says so in
//!   [`Package::skipped_parts`], and the runner records that part the same
//!   way (`compile of desiredSchema: its $ref closure is not document-local`);
//! - **file attribution**: a finding without a file is placed in the
//!   check's [`FileRole`] file;
//! - **code discipline**: a code a check emits that it did not declare is
//!   recorded ([`Run::undeclared`]; a test keeps it empty over the corpus).
//!
//! Adding a rule: one row in [`crate::codes`], one check here (or a branch
//! of one, with its code added to `codes`), one golden case.

use std::collections::BTreeMap;
use std::path::Path;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::package::{Fact, Package, INDEX_FILE};

mod authoring;
mod definition;
mod files;
mod fixtures;
mod identity;
mod index;

pub use authoring::{default_refusal, unportable_constructs};
pub use definition::{inline_schemas, proof_name_policy};
pub use index::limit_findings;

/// What a check needs before it can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// A fact an earlier check established.
    Fact(Fact),
}

/// Where a check's findings are when the check names no file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// The package directory itself (no file).
    Package,
    /// `package-index.json`.
    Index,
    /// The definition (`definitionPath`).
    Definition,
}

/// The result of one check: `Ok` establishes the check's fact; `Err` is the
/// reason it does not hold (a short phrase: "the definition fails its
/// schema"). A fault of the verifier itself is set in [`Package::fault`]
/// (with [`FAULT`] as the reason); the runner then stops.
pub type CheckResult = Result<(), &'static str>;

/// The reason a check gives when it set [`Package::fault`].
pub const FAULT: &str = "an internal fault stopped verification";

/// One check of the pipeline.
#[derive(Clone, Copy)]
pub struct Check {
    /// Kebab-case name, as shown in skipped-because records.
    pub name: &'static str,
    /// The source file or directory that implements it
    /// (`src/checks/index.rs`, `src/proof/`), as `rules` and `explain` show it.
    pub module: &'static str,
    /// Every code it may emit.
    pub codes: &'static [Code],
    /// What must hold before it runs.
    pub needs: &'static [Need],
    /// The fact it establishes when it returns `Ok`.
    pub establishes: Option<Fact>,
    /// The file of findings that name none.
    pub file: FileRole,
    /// The check itself: reads and extends the model, pushes findings.
    pub run: fn(&mut Package, &mut Vec<Diagnostic>) -> CheckResult,
}

impl std::fmt::Debug for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Check")
            .field("name", &self.name)
            .field("module", &self.module)
            .finish_non_exhaustive()
    }
}

/// Every check, in run order.
pub static CHECKS: &[Check] = &[
    files::ROOT,
    files::INVENTORY,
    files::FENCE,
    index::DOCUMENT,
    index::ENTRIES,
    files::CLOSURE,
    files::PAYLOADS,
    definition::LOCATE,
    definition::SCHEMA,
    definition::NAME_SCAN,
    definition::PROOFS,
    definition::COMPILE,
    definition::RULES,
    definition::CONSTRAINTS,
    definition::RELATIONS,
    authoring::LINTS,
    identity::SCHEMA_DIGEST,
    identity::IDENTITY,
    identity::FORMREF,
    fixtures::PAYLOAD_NAME_SCAN,
    fixtures::FIXTURES,
    files::FENCE_AFTER,
];

/// Modules outside the package checks that emit codes of their own (the
/// `index` command refuses what `verify` would refuse; `check`,
/// `conformance`, `family`, `validate-revocation` and `trust` have their own codes).
pub static OTHER_EMITTERS: &[(&str, &[Code])] = &[
    (
        "src/index.rs",
        &[
            Code::InvalidJsonPayload,
            Code::UnsupportedMediaType,
            Code::InvalidTextPayload,
            Code::UnsupportedIndexApiVersion,
            Code::IndexSchemaViolation,
            Code::FixtureFileMissing,
            Code::DefinitionPathUnlisted,
            Code::UnsupportedDefinitionApiVersion,
            Code::DefinitionSchemaViolation,
            Code::UnlistedFile,
            Code::TooManyFiles,
            Code::DefinitionTooLarge,
            Code::JsonPayloadTooLarge,
            Code::PayloadTotalTooLarge,
        ],
    ),
    (
        "src/discover.rs",
        &[
            Code::PathNotFound,
            Code::UnreadableDirectory,
            Code::SymlinkedDirectory,
        ],
    ),
    ("src/select.rs", &[Code::ConfigInvalid]),
    (
        "src/document.rs",
        &[
            Code::UnrecognizedDocument,
            Code::ContractSchemaViolation,
            Code::UnsupportedContractApiVersion,
            Code::NoFixtureRan,
            Code::IndexWouldChange,
        ],
    ),
    (
        "src/ops/check.rs",
        &[Code::PathNotFound, Code::UnreadableFile],
    ),
    ("src/ops/relations.rs", &[Code::UnrecognizedDocument]),
    (
        "src/ops/desired.rs",
        &[
            Code::DesiredFormNotServed,
            Code::DesiredFormAmbiguous,
            Code::DesiredDocumentInvalid,
            Code::DesiredRefInvalid,
            Code::DesiredSetNotCompiled,
            Code::PathNotFound,
            Code::UnreadableFile,
        ],
    ),
    ("src/ops/conformance.rs", &[Code::ConformanceManifest]),
    (
        "src/compat/changes.rs",
        &[
            Code::DesiredSchemaBreaking,
            Code::DesiredSchemaUndecided,
            Code::DesiredSchemaWidened,
            Code::DesiredSchemaCompatible,
            Code::DesiredSchemaEquivalent,
            Code::ImmutableFieldAdded,
            Code::ImmutableFieldRemoved,
            Code::CapabilityRemoved,
            Code::CapabilityAdded,
            Code::ContractEntryRemoved,
            Code::ContractEntryChanged,
            Code::ContractEntryAdded,
            Code::RoleChanged,
            Code::DeclaredMemberRemoved,
            Code::DeclaredMemberRetyped,
            Code::DeclaredMemberAdded,
            Code::DocumentationChanged,
            Code::DefinitionMemberChanged,
        ],
    ),
    (
        "src/compat/meaning.rs",
        &[
            Code::DesiredDefaultChanged,
            Code::DesiredDefaultNotInserted,
            Code::DesiredDefaultFillsRequired,
            Code::RelationChanged,
            Code::DocumentationChanged,
        ],
    ),
    (
        "src/compat/pairs.rs",
        &[
            Code::BumpTooSmall,
            Code::FormRefReused,
            Code::MajorNotEarned,
            Code::PreReleaseVersion,
            Code::ReIdentification,
            Code::VersionNotIncreasing,
            Code::InvalidDefinitionVersion,
            Code::SideRefused,
        ],
    ),
    (
        "src/compat/report.rs",
        &[
            Code::FormRefReused,
            Code::InvalidDefinitionVersion,
            Code::NothingToCompare,
            Code::PublishedVersionRemoved,
            Code::UnexpectedFirstVersion,
            Code::SkippedPackage,
            Code::NothingNew,
        ],
    ),
    ("src/compat/side.rs", &[Code::UnrecognizedDocument]),
    (
        "src/family/check.rs",
        &[
            Code::ContractDigestConflict,
            Code::RelationTargetNotLoaded,
            Code::RelationTargetUnchecked,
            Code::RelationTargetExternal,
            Code::TargetFormRefNotInFamily,
            Code::TargetInterfaceNotProvided,
            Code::RequiredInterfaceNotLoaded,
            Code::BindingNotAcceptedBySource,
            Code::BindingContractNotLoaded,
            Code::BindingSourceRole,
            Code::BindingTargetFormNotAllowed,
            Code::BindingTargetInterfaceNotProvided,
            Code::AcceptedBindingRoleMismatch,
            Code::AcceptedBindingUnsatisfiable,
            Code::AcceptedBindingNotLoaded,
            Code::CandidateSetInvalid,
            Code::CandidateDigestMismatch,
            Code::CandidateNotLoaded,
        ],
    ),
    (
        "src/family/load.rs",
        &[
            Code::SymlinkEntry,
            Code::SpecialFile,
            Code::UnreadablePayload,
            Code::ContractSchemaViolation,
            Code::UnsupportedContractApiVersion,
            Code::FamilyFormNotLoaded,
            Code::PathNotFound,
            Code::UnreadableDirectory,
            Code::SymlinkedDirectory,
        ],
    ),
    (
        "src/revocation.rs",
        &[
            Code::UnsupportedRevocationApiVersion,
            Code::RevocationSchemaViolation,
            Code::RevocationDecode,
            Code::RevocationFormRefGroup,
            Code::CheckpointSchemaViolation,
            Code::CheckpointEntryCount,
            Code::CheckpointPreviousDigest,
            Code::CheckpointEntrySequence,
            Code::CheckpointDuplicateStatementVersion,
            Code::CheckpointDuplicateStatementDigest,
            Code::CheckpointFinalVersion,
            Code::CheckpointEntryFormRefGroup,
            Code::InvalidCheckpointPin,
            Code::CheckpointFirstPin,
            Code::CheckpointSequenceNotNext,
            Code::CheckpointFork,
            Code::CheckpointPrefixRewritten,
            Code::CheckpointProfileMismatch,
            Code::CheckpointGenesisPin,
        ],
    ),
    (
        "src/trust/bundle.rs",
        &[
            Code::TrustMalformedBundle,
            Code::TrustMissingTransparency,
            Code::TrustIdentity,
        ],
    ),
    (
        "src/ops/trust.rs",
        &[
            Code::TrustInvalidCheckpoint,
            Code::TrustRevoked,
            Code::TrustInputError,
        ],
    ),
    (
        "src/trust/mod.rs",
        &[
            Code::TrustInvalidPolicy,
            Code::TrustMalformedBundle,
            Code::TrustMalformedRoot,
            Code::TrustMissingTransparency,
            Code::TrustInvalidCheckpoint,
            Code::TrustRevoked,
            Code::TrustInputError,
        ],
    ),
    (
        "src/host/snapshot.rs",
        &[
            Code::HostApiNotALane,
            Code::HostApiLaneUnknown,
            Code::HostApiLaneNotServed,
            Code::SnapshotPinNotCanonical,
            Code::SnapshotDigestMismatch,
            Code::DuplicateFormIdentity,
            Code::HostApiRequirementUnmet,
            Code::TargetFormAbsent,
            Code::DefaultCreateMissing,
            Code::DefaultCreateAmbiguous,
            Code::DefaultCreateMismatched,
            Code::DefaultCreateAbsent,
        ],
    ),
    (
        "src/host/snapshot/contracts.rs",
        &[
            Code::SnapshotPinNotCanonical,
            Code::SnapshotDigestMismatch,
            Code::SnapshotContractInvalid,
            Code::DuplicateContractIdentity,
            Code::BindingTargetInterfaceAbsent,
            Code::BindingOperationNotInInterface,
            Code::InterfaceAbsent,
            Code::BindingAbsent,
            Code::SnapshotBindingRoleMismatch,
            Code::BindingAnnotationNotOne,
            Code::BindingAnnotationInterfaceMismatch,
        ],
    ),
    (
        "src/host/locator.rs",
        &[
            Code::LocatorTagInvalid,
            Code::LocatorReleaseIdNotCanonical,
            Code::LocatorFamilySemver,
            Code::LocatorTagAmbiguous,
        ],
    ),
    (
        "src/host_set.rs",
        &[
            Code::DefaultPinUnmatched,
            Code::SnapshotInputInvalid,
            Code::UnreadableFile,
        ],
    ),
    (
        "src/ops/snapshot.rs",
        &[Code::SnapshotInputInvalid, Code::UnreadableFile],
    ),
    (
        "src/trust/set.rs",
        &[
            Code::TrustSetPinMismatch,
            Code::TrustSetEntryInvalid,
            Code::TrustSetPackageMismatch,
            Code::TrustInputError,
        ],
    ),
    ("src/trust/policy.rs", &[Code::TrustInvalidPolicy]),
    ("src/trust/root.rs", &[Code::TrustMalformedRoot]),
    (
        "src/trust/tlog.rs",
        &[
            Code::TrustLogEntry,
            Code::TrustInclusionProof,
            Code::TrustLogCheckpoint,
        ],
    ),
    ("src/trust/tsa.rs", &[Code::TrustTimestamp]),
    (
        "src/trust/verify.rs",
        &[
            Code::TrustCertificateChain,
            Code::TrustCertificateTimestamp,
            Code::TrustSignature,
            Code::TrustThreshold,
            Code::TrustIdentity,
        ],
    ),
];

/// The modules that may emit `code`: the checks declaring it, then other
/// commands' modules, without repeats.
pub fn emitting_modules(code: Code) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let checks = CHECKS
        .iter()
        .filter(|c| c.codes.contains(&code))
        .map(|c| c.module);
    let others = OTHER_EMITTERS
        .iter()
        .filter(|(_, codes)| codes.contains(&code))
        .map(|(m, _)| *m);
    for m in checks.chain(others) {
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// What one run of the checks produced besides the model.
#[derive(Debug, Default)]
pub struct Run {
    /// Every finding, in check order (not yet sorted).
    pub diagnostics: Vec<Diagnostic>,
    /// Skipped-because records: `"<check>, <check>: <reason>"`, one per
    /// root cause, in check order.
    pub skipped: Vec<String>,
    /// (check, code) for every finding whose code its check did not
    /// declare: a defect (kept empty by a test over the corpus).
    pub undeclared: Vec<(&'static str, Code)>,
    /// The fault that stopped the run (the command exits 2).
    pub fault: Option<Error>,
}

/// Runs every check of [`CHECKS`] over the package directory at `path`
/// (its files read from disk).
pub fn run(path: &Path) -> (Package, Run) {
    run_checks(Package::new(path.to_path_buf()), CHECKS)
}

/// [`run`], with the span maps of the index and the definition built in
/// their one parse ([`Package::keep_spans`]).
pub fn run_keeping_spans(path: &Path) -> (Package, Run) {
    let mut pkg = Package::new(path.to_path_buf());
    pkg.keep_spans = true;
    run_checks(pkg, CHECKS)
}

/// Runs every check of [`CHECKS`] over the package whose files `source`
/// gives (named by [`PackageSource::path`](crate::source::PackageSource::path)).
pub fn run_source(source: Box<dyn crate::source::PackageSource>) -> (Package, Run) {
    let mut pkg = Package::new(source.path().to_path_buf());
    pkg.root = Some(source);
    run_checks(pkg, CHECKS)
}

/// [`run_source`], keeping each document's span map (as
/// [`run_keeping_spans`] does for a directory).
pub fn run_source_keeping_spans(source: Box<dyn crate::source::PackageSource>) -> (Package, Run) {
    let mut pkg = Package::new(source.path().to_path_buf());
    pkg.root = Some(source);
    pkg.keep_spans = true;
    run_checks(pkg, CHECKS)
}

/// Runs `checks`, in order, over the package `pkg` (a path, and its source
/// when it has one).
fn run_checks(mut pkg: Package, checks: &[Check]) -> (Package, Run) {
    let mut out = Run::default();
    let mut facts: BTreeMap<Fact, Result<(), &'static str>> = BTreeMap::new();
    // (reason, names of the checks or parts it skipped), in first-skip order.
    let mut skipped: Vec<(&'static str, Vec<String>)> = Vec::new();
    let mut skip =
        |reason: &'static str, name: String| match skipped.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, names)) => names.push(name),
            None => skipped.push((reason, vec![name])),
        };
    for check in checks {
        if let Some(reason) = blocked(check, &facts) {
            if let Some(fact) = check.establishes {
                facts.insert(fact, Err(reason));
            }
            skip(reason, check.name.to_owned());
            continue;
        }
        let mut found = Vec::new();
        let result = (check.run)(&mut pkg, &mut found);
        if let Some(fact) = check.establishes {
            facts.insert(fact, result);
        }
        for (part, reason) in std::mem::take(&mut pkg.skipped_parts) {
            skip(reason, format!("{} of {part}", check.name));
        }
        let file = match check.file {
            FileRole::Package => None,
            FileRole::Index => Some(INDEX_FILE.to_owned()),
            FileRole::Definition => Some(pkg.def_path.clone()),
        };
        if pkg.fault.is_some() {
            out.fault = pkg.fault.take();
            break;
        }
        for mut d in found {
            if !check.codes.contains(&d.code) {
                out.undeclared.push((check.name, d.code));
            }
            if d.file.is_none() {
                d.file.clone_from(&file);
            }
            out.diagnostics.push(d);
        }
    }
    mark_consequences(&pkg, &mut out.diagnostics);
    out.skipped = skipped
        .into_iter()
        .map(|(reason, names)| format!("{}: {reason}", names.join(", ")))
        .collect();
    (pkg, out)
}

/// The codes that refuse the definition itself.
const DEFINITION_REFUSED: &[Code] = &[
    Code::UnsupportedDefinitionApiVersion,
    Code::DefinitionSchemaViolation,
    Code::DefinitionDecode,
];

/// One cause, one message (issue 36 item 8): when the definition itself is
/// refused (FD120–FD122), the index findings that follow from editing it —
/// the definition's size and digest (FD015, FD016, at its index entry) and the FormRef
/// (FD123, FD124) — stay findings (the reference's first error may be
/// among them), but their message says they are a consequence, in every
/// format, and their help says what to do in order, with the package's
/// real path: `index` refuses until the definition passes.
fn mark_consequences(pkg: &Package, diags: &mut [Diagnostic]) {
    let def = Some(pkg.def_path.as_str());
    let Some(cause) = diags
        .iter()
        .find(|d| DEFINITION_REFUSED.contains(&d.code) && d.file.as_deref() == def)
        .map(|d| d.code.info().id)
    else {
        return;
    };
    let def_path = crate::diag::escape::text(&pkg.def_path).into_owned();
    let dir = crate::diag::escape::text(&pkg.path.display().to_string()).into_owned();
    // FD015/FD016 are at the index entry (`/files/i/size`) of the file.
    let entry_names_definition = |d: &Diagnostic| {
        let entry = d.pointer.parent().map(|p| p.child("path"));
        entry
            .zip(pkg.index.as_ref())
            .and_then(|(p, index)| p.resolve(index))
            .and_then(serde_json::Value::as_str)
            == def
    };
    for d in diags.iter_mut() {
        let follows = matches!(
            d.code,
            Code::SchemaDigestMismatch | Code::FormRefIdentityMismatch
        ) || (matches!(
            d.code,
            Code::PayloadSizeMismatch | Code::PayloadDigestMismatch
        ) && entry_names_definition(d));
        if follows {
            d.message
                .push_str(&format!(" (a consequence: {def_path} is refused, {cause})"));
            d.help = Some(format!(
                "fix {def_path} first ({cause}), then `form-package index {dir}`"
            ));
        }
    }
}

/// Why `check` cannot run, if it cannot: the reason of the first fact it
/// needs that failed (or was never established).
fn blocked(
    check: &Check,
    facts: &BTreeMap<Fact, Result<(), &'static str>>,
) -> Option<&'static str> {
    for need in check.needs {
        match need {
            Need::Fact(f) => match facts.get(f) {
                Some(Ok(())) => {}
                Some(Err(reason)) => return Some(reason),
                None => return Some("an earlier check did not run"),
            },
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::{Status, TABLE};

    #[test]
    fn every_active_code_has_an_emitting_module() {
        let orphans: Vec<&str> = TABLE
            .iter()
            .filter(|i| i.status == Status::Active && emitting_modules(i.code).is_empty())
            .map(|i| i.id)
            .collect();
        assert_eq!(orphans, Vec::<&str>::new());
    }

    /// Every module a code's page names as emitting it exists (a moved
    /// file, `src/trust/cmd.rs` when it became `src/ops/trust.rs`, left its
    /// old path on the pages). Near miss: a path that is gone is found.
    #[test]
    fn every_emitting_module_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let named = CHECKS
            .iter()
            .map(|c| c.module)
            .chain(OTHER_EMITTERS.iter().map(|(m, _)| *m));
        let gone: Vec<&str> = named.filter(|m| !root.join(m).exists()).collect();
        assert_eq!(gone, Vec::<&str>::new());
        assert!(!root.join("src/trust/cmd.rs").exists());
    }

    /// The sources of the check modules (their docs are under test).
    const SOURCES: &[&str] = &[
        include_str!("files.rs"),
        include_str!("index.rs"),
        include_str!("definition.rs"),
        include_str!("identity.rs"),
        include_str!("fixtures.rs"),
        include_str!("authoring.rs"),
    ];

    /// Doc lines without their `//!` / `///` prefix, joined by spaces with
    /// runs of whitespace collapsed (so a wrapped line reads as one).
    fn flat(lines: &[&str], prefix: &str) -> String {
        lines
            .iter()
            .map(|l| l.strip_prefix(prefix).unwrap_or(l))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// (module doc, the `Check` constant's doc) of the check named `name`.
    fn docs_of(name: &str) -> Option<(String, String)> {
        let wanted = format!("name: \"{name}\",");
        SOURCES.iter().find_map(|src| {
            let lines: Vec<&str> = src.lines().collect();
            let at = lines.iter().position(|l| l.trim() == wanted)?;
            let start = lines[..at]
                .iter()
                .rposition(|l| l.starts_with("pub(super) const "))?;
            let mut item: Vec<&str> = lines[..start]
                .iter()
                .rev()
                .take_while(|l| l.starts_with("///"))
                .copied()
                .collect();
            item.reverse();
            let module: Vec<&str> = lines
                .iter()
                .take_while(|l| l.starts_with("//!"))
                .copied()
                .collect();
            Some((flat(&module, "//!"), flat(&item, "///")))
        })
    }

    /// The codes of `codes` that `doc` does not name as `FDnnn `name``,
    /// with (when `summaries`) the table's summary line.
    fn undocumented(doc: &str, codes: &[Code], summaries: bool) -> Vec<&'static str> {
        codes
            .iter()
            .map(|c| c.info())
            .filter(|i| {
                let named = format!("{} `{}`", i.id, i.name);
                !doc.contains(&named) || (summaries && !doc.contains(&flat(&[i.summary], "")))
            })
            .map(|i| i.id)
            .collect()
    }

    /// Architecture guide "fixed doc sections" (ruff style): each check
    /// module opens with What it checks / Why / Example / Spec rule naming
    /// every code its checks declare, and each `Check` constant names its
    /// codes with the table's summaries, a why and a failing and passing
    /// example.
    #[test]
    fn every_check_documents_its_codes_in_fixed_sections() {
        for c in CHECKS {
            let (module, item) = docs_of(c.name).unwrap_or_else(|| panic!("{}", c.name));
            for section in ["# What it checks", "# Why", "# Example", "# Spec rule"] {
                assert!(
                    module.contains(section),
                    "{}: module doc lacks {section}",
                    c.name
                );
            }
            assert_eq!(
                undocumented(&module, c.codes, false),
                Vec::<&str>::new(),
                "{}",
                c.name
            );
            assert_eq!(
                undocumented(&item, c.codes, true),
                Vec::<&str>::new(),
                "{}",
                c.name
            );
            if !c.codes.is_empty() {
                for label in ["**Why:**", "**Codes**", "**Failing**", "**Passing:**"] {
                    assert!(item.contains(label), "{}: lacks {label}", c.name);
                }
            }
        }
    }

    #[test]
    fn a_doc_missing_a_code_or_its_summary_is_caught() {
        let codes = [Code::UnlistedFile, Code::MissingListedFile];
        let doc = "FD018 `unlisted-file`: a file in the package directory is not listed in package-index.json";
        assert_eq!(undocumented(doc, &codes, false), ["FD019"]);
        // Near miss: the id alone, without the name, is not enough.
        assert_eq!(
            undocumented("FD018 FD019", &codes, false),
            ["FD018", "FD019"]
        );
        assert_eq!(
            undocumented("FD018 `unlisted-file`", &codes[..1], true),
            ["FD018"]
        );
        assert!(undocumented(doc, &codes[..1], true).is_empty());
    }

    #[test]
    fn removed_codes_belong_to_no_check_and_modules_exist() {
        for c in CHECKS {
            for code in c.codes {
                assert_eq!(
                    code.info().status,
                    Status::Active,
                    "{} declares {code:?}",
                    c.name
                );
            }
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(c.module);
            assert!(path.exists(), "{}: {}", c.name, c.module);
        }
        assert_eq!(
            emitting_modules(Code::InvalidIJson),
            ["src/checks/index.rs", "src/checks/files.rs"]
        );
        assert_eq!(emitting_modules(Code::OpenObjectSchema), ["src/proof/"]);
    }

    fn faulty(pkg: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
        diags.push(Diagnostic::new(
            Code::MissingIndex,
            "dropped with the fault",
        ));
        pkg.fault = Some(Error::Internal("embedded schema does not build".into()));
        Err(FAULT)
    }

    fn later(_: &mut Package, diags: &mut Vec<Diagnostic>) -> CheckResult {
        diags.push(Diagnostic::new(Code::UnlistedFile, "must not run"));
        Ok(())
    }

    #[test]
    fn an_internal_fault_stops_the_run_and_is_no_finding() {
        let check = |name, run| Check {
            name,
            module: "src/checks/mod.rs",
            codes: &[Code::MissingIndex, Code::UnlistedFile],
            needs: &[],
            establishes: None,
            file: FileRole::Package,
            run,
        };
        let dir = std::env::temp_dir();
        let (_, r) = run_checks(
            Package::new(dir.clone()),
            &[check("faulty", faulty), check("later", later)],
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let fault = r.fault.map(|e| e.to_string());
        assert_eq!(
            fault.as_deref(),
            Some("internal error: embedded schema does not build")
        );
        // Without the fault, both run and report.
        let (_, r) = run_checks(Package::new(dir.clone()), &[check("later", later)]);
        assert_eq!(r.diagnostics.len(), 1);
        assert!(r.fault.is_none());
    }

    fn partial(pkg: &mut Package, _: &mut Vec<Diagnostic>) -> CheckResult {
        pkg.skipped_parts
            .push(("desiredSchema".into(), "its refs leave it"));
        pkg.skipped_parts
            .push(("outputSchema".into(), "its refs leave it"));
        Err("a part was left out")
    }

    #[test]
    fn a_part_left_out_is_one_record_per_reason_and_skips_its_dependants() {
        let check = |name, run, needs, establishes| Check {
            name,
            module: "src/checks/mod.rs",
            codes: &[Code::UnlistedFile],
            needs,
            establishes,
            file: FileRole::Package,
            run,
        };
        let dir = std::env::temp_dir();
        let (pkg, r) = run_checks(
            Package::new(dir),
            &[
                check("compile", partial, &[], Some(Fact::Compiled)),
                check("later", later, &[Need::Fact(Fact::Compiled)], None),
            ],
        );
        assert_eq!(
            r.skipped,
            [
                "compile of desiredSchema, compile of outputSchema: its refs leave it",
                "later: a part was left out"
            ]
        );
        assert!(pkg.skipped_parts.is_empty());
        assert!(r.diagnostics.is_empty());
    }

    #[test]
    fn needs_are_established_earlier() {
        let mut established = Vec::new();
        for c in CHECKS {
            for Need::Fact(f) in c.needs {
                assert!(established.contains(f), "{} needs {f:?} first", c.name);
            }
            if let Some(f) = c.establishes {
                assert!(!established.contains(&f), "{f:?} established twice");
                established.push(f);
            }
        }
        let mut names: Vec<&str> = CHECKS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CHECKS.len(), "check names are unique");
    }

    #[test]
    #[cfg_attr(no_corpus, ignore = "needs the corpus")]
    fn checks_emit_only_declared_codes_over_the_corpus() {
        let root = crate::testing::corpus_root();
        let mut dirs = Vec::new();
        for set in ["packages", "mutants", "mutants-current", "engine"] {
            if let Ok(found) = crate::discover::package_roots(&root.join(set)) {
                dirs.extend(found);
            }
        }
        dirs.sort();
        assert!(dirs.len() > 300, "corpus has {} packages", dirs.len());
        let mut bad = Vec::new();
        for d in &dirs {
            let (_, r) = run(d);
            bad.extend(r.undeclared.into_iter().map(|u| (d.clone(), u)));
        }
        assert!(bad.is_empty(), "{bad:?}");
    }
}
