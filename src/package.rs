//! The package model: what the checks of [`crate::checks`] read and the
//! facts they establish for each other.
//!
//! A [`Package`] starts as a path. Each check reads the model and adds to it
//! (the opened root, the inventory, the parsed index and its profile, the
//! listed payloads and their parsed JSON, the definition's name scan, the
//! compiled stage schemas, the derived relations). The model performs no
//! checks itself; which facts hold is recorded by the runner
//! ([`crate::checks::run`]) as [`Fact`]s.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::error::Error;
use crate::fixtures::Stages;
use crate::fsread::StableMeta;
use crate::json::pointer::JsonPointer;
use crate::json::strict::SpanIndex;
use crate::profile::IndexProfile;

/// The index file name.
pub const INDEX_FILE: &str = "package-index.json";
/// The Form Definition media type.
pub const DEFINITION_MEDIA_TYPE: &str = "application/vnd.takoform.form-definition.v1+json";

/// A JSON media type (`verifier-rules.md` §1.8 and R1.23: anything ending
/// in `+json` too).
pub fn is_json_media_type(media_type: &str) -> bool {
    media_type == "application/json"
        || media_type == "application/schema+json"
        || media_type.ends_with("+json")
}

/// Media type implied by a file extension (`verifier-rules.md` §1.8);
/// `None` when no allowed media type fits (such a file cannot be listed).
pub fn infer_media_type(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name
        .rfind('.')
        .map(|i| name[i..].to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        ".json" => Some("application/json"),
        ".md" | ".markdown" => Some("text/markdown"),
        ".txt" => Some("text/plain"),
        _ => None,
    }
}

/// Whether `path` (a name the on-disk path grammar already accepted) can
/// be listed in a package index: every published index schema's
/// `packagePath` allows only ASCII letters, digits, `.`, `_` and `-` in
/// `/`-separated segments, so a file named otherwise (`café.json`, `a
/// b.json`) can never be listed and must be renamed or removed.
pub fn listable_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|seg| {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
}

/// The help of a file that can never be listed ([`listable_path`]).
pub const UNLISTABLE_HELP: &str = "rename it to ASCII letters, digits, '.', '_' and '-' (a package index can list no other name), or remove it from the package directory";

/// The reference report members (`verifier-rules.md` §9), emitted for a
/// package that verifies.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `sha256:` digest of the RFC 8785 form of `package-index.json`.
    pub package_digest: String,
    /// The index FormRef (`apiVersion`, `kind`, `definitionVersion`, `schemaDigest`).
    pub form_ref: Value,
    /// Number of `files` entries (the index is not counted).
    pub file_count: usize,
    /// Sum of declared sizes in bytes (the index is not counted).
    pub payload_bytes: u64,
}

/// A file's bytes and, for JSON that parsed, its span map (for rendering).
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// Raw bytes.
    pub bytes: Vec<u8>,
    /// Pointer → byte span map from the strict reader.
    pub spans: Option<SpanIndex>,
}

/// One listed payload (an entry of the index `files`) after the per-entry
/// checks.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Position in `files`.
    pub index: usize,
    /// Package-relative path as listed.
    pub path: String,
    /// Listed media type.
    pub media_type: String,
    /// Declared size in bytes.
    pub size: u64,
    /// Declared `sha256:` digest.
    pub digest: String,
}

/// A JSON payload that parsed and is I-JSON.
#[derive(Debug)]
pub struct JsonPayload {
    /// The parsed document.
    pub value: Value,
    /// The literal text of every number of `value` (§12 E4).
    pub numbers: crate::engine::numbers::Literals,
    /// The SHA-256 of the bytes it was read from (`sha256:` and hex), as
    /// the payload check computed it: the content key of the fixture memo
    /// ([`crate::fixtures::memo`]).
    pub digest: String,
}

/// A fact a check establishes for the checks after it. A check that needs
/// a fact runs only when the fact holds; otherwise the runner records the
/// check as skipped with the reason the fact failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fact {
    /// The package root is an open directory ([`Package::root`]).
    Root,
    /// `package-index.json` exists and is a plain file.
    IndexFile,
    /// The index parsed, canonicalized, selected a profile, satisfied its
    /// schema and decoded ([`Package::index`], [`Package::profile`]).
    Index,
    /// `definitionPath` is listed with the definition media type, and the
    /// definition was read and parsed ([`Package::definition`]).
    Definition,
    /// The definition satisfies its profile's published schema and decodes.
    DefinitionValid,
    /// Every inline schema passed the `$ref`, closed-object and work proofs.
    Proven,
    /// Every inline schema compiled ([`Package::stages`]).
    Compiled,
    /// The FormRef identity members equal the definition's.
    Identity,
}

/// Everything known about one package while its checks run.
#[derive(Debug, Default)]
pub struct Package {
    /// The package directory as given.
    pub path: PathBuf,
    /// Where the files come from: the opened root on disk, or a package
    /// held in memory ([`Fact::Root`]).
    pub root: Option<Box<dyn crate::source::PackageSource>>,
    /// Inventoried files: `Some(meta)` for a plain file that can be read,
    /// `None` for a file with an inventory finding, a link or a special
    /// file (present for the closure, never read).
    pub present: BTreeMap<String, Option<StableMeta>>,
    /// Files with an inventory finding (never also reported as unlisted).
    pub flagged: BTreeSet<String>,
    /// The index's profile ([`Fact::Index`]).
    pub profile: Option<IndexProfile>,
    /// The parsed index ([`Fact::Index`]).
    pub index: Option<Value>,
    /// The computed package digest, whenever the index canonicalized.
    pub package_digest: Option<String>,
    /// The computed schema digest (`sha256:` of the definition's RFC 8785
    /// form), whenever the definition was read and canonicalized: `compat`
    /// names the Form by it and digests nothing again.
    pub schema_digest: Option<String>,
    /// The index `files` entries, in list order.
    pub listed: Vec<Listed>,
    /// Every listed payload that was read: `Some` for JSON that parsed and
    /// is I-JSON, `None` otherwise (unreadable, not JSON, or refused), and
    /// for I-JSON whose value no check reads (neither the definition nor
    /// named by its fixtures, no member name the vocabulary flags; such a
    /// payload is in [`Package::parsed_json`]).
    pub payloads: BTreeMap<String, Option<JsonPayload>>,
    /// `definitionPath` of the index.
    pub def_path: String,
    /// Member-name pointers of the definition that its name scan reported
    /// (the proofs do not report them a second time).
    pub definition_named: BTreeSet<JsonPointer>,
    /// The error codes the proof found in each inline schema, by the
    /// schema's pointer (`/desiredSchema`, `/interfaces/0/documentSchema`);
    /// a proven schema is absent. The compile check reads it to leave out a
    /// schema whose compile the proof made meaningless.
    pub proof_errors: BTreeMap<JsonPointer, Vec<Code>>,
    /// The compiled stage schemas (possibly partial: see [`Fact::Compiled`]).
    pub stages: Option<Stages>,
    /// Relations derived from the desired schema (family and current
    /// lanes), typed; `None` when the check did not derive them (a legacy
    /// lane, a definition that is not valid).
    pub relations: Option<Vec<crate::relations::Relation>>,
    /// Fixture documents validated (positive + negative).
    pub fixtures_run: usize,
    /// The violation that rejected each negative fixture (`verify -v`).
    pub fixture_rejections: Vec<crate::fixtures::Rejection>,
    /// Bytes of every file read, by package-relative path.
    pub sources: BTreeMap<String, Source>,
    /// Files whose bytes parsed as strict JSON (their span maps are built
    /// only if a diagnostic names them).
    pub parsed_json: BTreeSet<String>,
    /// A fault of the verifier itself: the runner stops, and the command
    /// exits 2 (never a finding about the package).
    pub fault: Option<Error>,
    /// Build the span maps of the index and the definition in their one
    /// parse (in [`Package::sources`]), not only when a finding names them:
    /// for a caller that goes on with both documents and locates its own
    /// findings in them (`compat`, `family`:
    /// [`crate::verify::verify_package_keeping_definition`]).
    pub keep_spans: bool,
    /// Parts of the running check's work it left out, as (part, reason):
    /// `("desiredSchema", "its $ref closure is not document-local")`. The
    /// runner turns each into a skipped-because record
    /// (`compile of desiredSchema: …`) and clears the list after each check.
    pub skipped_parts: Vec<(String, &'static str)>,
}

impl Package {
    /// A model of the package at `path` with nothing read yet.
    pub fn new(path: PathBuf) -> Self {
        Package {
            path,
            ..Default::default()
        }
    }

    /// The parsed definition ([`Fact::Definition`]).
    pub fn definition(&self) -> Option<&Value> {
        self.payloads
            .get(&self.def_path)
            .and_then(Option::as_ref)
            .map(|p| &p.value)
    }

    /// The index `formRef` (`null` when absent).
    pub fn form_ref(&self) -> &Value {
        self.index
            .as_ref()
            .and_then(|i| i.get("formRef"))
            .unwrap_or(&Value::Null)
    }
}
