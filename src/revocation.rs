//! Revocation statements and checkpoints: the two trust profiles
//! `trust.forms.takoform.com/v1alpha1` (legacy, `verifier-rules.md`
//! §11.1–§11.2) and `trust.forms.takoform.com/v1` (current,
//! `current-profile.md` §11.3 and
//! `corpus/conformance/revocation-checkpoint-v1/EXPECTED.md`), and the pin
//! a checkpoint yields when a host advances to it.
//!
//! Order, as the reference applies it: strict I-JSON (the caller parses) →
//! the published schema of the profile the `apiVersion` names → the typed
//! decode (sequences are unsigned 64-bit integer literals) → the typed
//! rules. Unlike the reference, every independent finding is reported; a
//! later step runs only when the one it depends on passed. Codes FD600–FD626.
//!
//! Output order: the reference prints the decoded document, so members come
//! out in the order of its typed fields (not the input's), which the structs
//! below reproduce; `render::revocation::reference_json` writes them as the
//! reference does.

use crate::diag::escape::quote;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canonical::{canonicalize, is_canonical_digest, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::{Error, Refused};
use crate::json::pointer::JsonPointer;
use crate::schemas::{self, SchemaRef};

/// The legacy trust profile.
pub const LEGACY: &str = "trust.forms.takoform.com/v1alpha1";
/// The current trust profile.
pub const CURRENT: &str = "trust.forms.takoform.com/v1";
/// `kind` of a statement.
pub const STATEMENT_KIND: &str = "FormPackageRevocation";
/// `kind` of a checkpoint.
pub const CHECKPOINT_KIND: &str = "FormPackageRevocationCheckpoint";

/// The reference's prefix of every revocation statement message.
pub const STATEMENT_PREFIX: &str = "Form Package revocation";
/// The reference's prefix of every revocation checkpoint message.
pub const CHECKPOINT_PREFIX: &str = "Form Package revocation checkpoint";

/// A FormRef as the revocation documents carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormRef {
    /// Group (and, for the legacy profile, version).
    pub api_version: String,
    /// Kind.
    pub kind: String,
    /// SemVer.
    pub definition_version: String,
    /// `sha256:` digest of the canonical definition.
    pub schema_digest: String,
}

/// The three effects (each const `true` in both schemas).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Effects {
    /// Block new create or update.
    pub block_new_create_or_update: bool,
    /// Block activation.
    pub block_activation: bool,
    /// Keep the bytes so existing instances can be observed and deleted.
    pub retain_bytes_for_observe_and_delete: bool,
}

/// A revocation statement, decoded (member order = the reference's output order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Statement {
    /// Trust profile.
    pub api_version: String,
    /// `FormPackageRevocation`.
    pub kind: String,
    /// ≥ 1.
    pub sequence: u64,
    /// SemVer.
    pub statement_version: String,
    /// The revoked package's digest.
    pub package_digest: String,
    /// The revoked package's FormRef.
    pub form_ref: FormRef,
    /// Why.
    pub reason_code: String,
    /// 1..1024 characters.
    pub summary: String,
    /// Optional `https://` URI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advisory_url: Option<String>,
    /// RFC 3339 date-time.
    pub issued_at: String,
    /// What hosts must do.
    pub effects: Effects,
}

/// One cumulative checkpoint entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    /// Current profile only (printed first when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement_api_version: Option<String>,
    /// Position + 1.
    pub sequence: u64,
    /// The statement's version.
    pub statement_version: String,
    /// Canonical digest of the statement.
    pub statement_digest: String,
    /// The revoked package's digest.
    pub package_digest: String,
    /// The revoked package's FormRef.
    pub form_ref: FormRef,
}

/// A revocation checkpoint, decoded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Checkpoint {
    /// Trust profile.
    pub api_version: String,
    /// `FormPackageRevocationCheckpoint`.
    pub kind: String,
    /// SemVer (`0.0.0` only for the current genesis).
    pub checkpoint_version: String,
    /// Number of cumulative entries.
    pub sequence: u64,
    /// Canonical digest of the predecessor, or null.
    pub previous_checkpoint_digest: Option<String>,
    /// Cumulative entries.
    pub entries: Vec<Entry>,
}

/// A checkpoint that validated, with what advancing needs.
#[derive(Clone, Debug)]
pub struct ValidCheckpoint {
    /// The decoded document.
    pub checkpoint: Checkpoint,
    /// `sha256:` of the RFC 8785 form of the whole document.
    pub digest: String,
    /// The `entries` array as parsed (for the prefix digest).
    pub entries: Vec<Value>,
}

/// What a host keeps between checkpoints (member order as the reference
/// writes it; `checkpointApiVersion` absent = a legacy pin).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pin {
    /// `trust.forms.takoform.com/v1` for a current pin; absent for legacy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_api_version: Option<String>,
    /// The pinned checkpoint's sequence.
    pub sequence: u64,
    /// Canonical digest of the pinned checkpoint.
    pub digest: String,
    /// Canonical digest of its `entries` array.
    pub entries_digest: String,
}

fn at(member: &str) -> JsonPointer {
    JsonPointer::root().child(member)
}

fn entry_at(i: usize, member: &str) -> JsonPointer {
    JsonPointer::root().child("entries").index(i).child(member)
}

/// The profile a document's `apiVersion` names (`None`: FD600 pushed).
fn profile(
    file: &str,
    value: &Value,
    prefix: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'static str> {
    let api = match value.get("apiVersion") {
        Some(Value::String(s)) => s.as_str(),
        _ => {
            let (what, ptr) = if value.is_object() {
                ("apiVersion must be a string", at("apiVersion"))
            } else {
                ("the document must be a JSON object", JsonPointer::root())
            };
            diags.push(
                Diagnostic::new(
                    Code::UnsupportedRevocationApiVersion,
                    format!("{prefix}: {what}"),
                )
                .in_file(file)
                .at(ptr),
            );
            return None;
        }
    };
    match api {
        LEGACY => Some(LEGACY),
        CURRENT => Some(CURRENT),
        other => {
            diags.push(
                Diagnostic::new(
                    Code::UnsupportedRevocationApiVersion,
                    format!("{prefix}: unsupported apiVersion {}", quote(other)),
                )
                .in_file(file)
                .at(at("apiVersion")),
            );
            None
        }
    }
}

fn version_of(api: &str) -> &'static str {
    if api == CURRENT {
        "v1"
    } else {
        "v1alpha1"
    }
}

/// Schema step; `false` when the document fails its schema.
///
/// # Errors
/// [`Error::Internal`] when the embedded published schema does not build
/// (a fault of the verifier, never a finding about the document).
fn schema_step(
    file: &str,
    value: &Value,
    schema: SchemaRef,
    code: Code,
    prefix: &str,
    diags: &mut Vec<Diagnostic>,
) -> Result<bool, Error> {
    let violations = schemas::validate(schema, value).map_err(Error::Internal)?;
    let ok = violations.is_empty();
    diags.extend(schemas::to_diagnostics(violations, code, file, prefix));
    Ok(ok)
}

/// Typed decode of the sequences: each must fit `u64` as a plain integer
/// literal (serde_json keeps `1.0`, `1e0` and values above 2^64-1 as
/// floats, which `as_u64` refuses, exactly the literals Go's uint64 decode
/// refuses). Returns `false` after pushing FD602 findings.
fn sequences_decode(file: &str, value: &Value, prefix: &str, diags: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    let mut check = |v: Option<&Value>, ptr: JsonPointer, what: String| {
        if let Some(n) = v.and_then(Value::as_number) {
            if n.as_u64().is_none() {
                ok = false;
                diags.push(
                    Diagnostic::new(
                        Code::RevocationDecode,
                        format!("{prefix}: json: cannot unmarshal number {n} into {what} of type uint64"),
                    )
                    .in_file(file)
                    .at(ptr),
                );
            }
        }
    };
    check(value.get("sequence"), at("sequence"), "sequence".into());
    if let Some(entries) = value.get("entries").and_then(Value::as_array) {
        for (i, e) in entries.iter().enumerate() {
            check(
                e.get("sequence"),
                entry_at(i, "sequence"),
                format!("entries[{i}].sequence"),
            );
        }
    }
    ok
}

// The `Diagnostic` error is the crate-wide finding type (the agreed API).
#[allow(clippy::result_large_err)]
fn decode<T: for<'de> Deserialize<'de>>(
    file: &str,
    value: &Value,
    prefix: &str,
) -> Result<T, Diagnostic> {
    serde_json::from_value(value.clone()).map_err(|e| {
        Diagnostic::new(
            Code::RevocationDecode,
            format!("{prefix}: typed decode: {e}"),
        )
        .in_file(file)
    })
}

/// A kind of revocation document: the prefix of its messages, its
/// published schema of a profile version, the code of a schema finding.
struct DocumentKind {
    prefix: &'static str,
    schema: fn(&'static str) -> SchemaRef,
    code: Code,
}

const STATEMENT: DocumentKind = DocumentKind {
    prefix: STATEMENT_PREFIX,
    schema: SchemaRef::Revocation,
    code: Code::RevocationSchemaViolation,
};

const CHECKPOINT: DocumentKind = DocumentKind {
    prefix: CHECKPOINT_PREFIX,
    schema: SchemaRef::RevocationCheckpoint,
    code: Code::CheckpointSchemaViolation,
};

/// The steps every revocation document goes through before its typed
/// rules: the profile its `apiVersion` names, that profile's published
/// schema, the uint64 sequences, the typed decode. Returns the profile and
/// the decoded document.
///
/// # Errors
/// Every finding of the first step that fails (FD600, the kind's schema
/// code, FD602); [`Refused::Fault`] when an embedded schema does not build.
fn decode_checked<T: for<'de> Deserialize<'de>>(
    file: &str,
    value: &Value,
    kind: &DocumentKind,
) -> Result<(&'static str, T), Refused> {
    let DocumentKind {
        prefix,
        schema,
        code,
    } = *kind;
    let mut diags = Vec::new();
    let Some(api) = profile(file, value, prefix, &mut diags) else {
        return Err(diags.into());
    };
    if !schema_step(
        file,
        value,
        schema(version_of(api)),
        code,
        prefix,
        &mut diags,
    )? || !sequences_decode(file, value, prefix, &mut diags)
    {
        return Err(diags.into());
    }
    let document = decode(file, value, prefix).map_err(|d| vec![d])?;
    Ok((api, document))
}

/// Validates a revocation statement (`validate-revocation`). `file` names
/// the document in findings; `value` is its strict parse.
///
/// # Errors
/// Every finding (FD600–FD603) when the statement is not valid.
pub fn validate_statement(file: &str, value: &Value) -> Result<Statement, Refused> {
    let prefix = STATEMENT_PREFIX;
    let (api, statement): (_, Statement) = decode_checked(file, value, &STATEMENT)?;
    let mut diags = Vec::new();
    if api == CURRENT && !crate::profile::namespaced_form_group(&statement.form_ref.api_version) {
        diags.push(
            Diagnostic::new(
                Code::RevocationFormRefGroup,
                format!(
                    "{prefix}: FormRef apiVersion {} is reserved or unsupported",
                    quote(&statement.form_ref.api_version)
                ),
            )
            .in_file(file)
            .at(at("formRef").child("apiVersion")),
        );
    }
    if diags.is_empty() {
        Ok(statement)
    } else {
        Err(diags.into())
    }
}

/// Validates a revocation checkpoint on its own
/// (`validate-revocation-checkpoint`): schema, typed decode, and the typed
/// rules of `verifier-rules.md` §11.2 / `current-profile.md` §11.3.
///
/// # Errors
/// Every finding (FD600, FD602, FD610–FD617) when it is not valid.
pub fn validate_checkpoint(file: &str, value: &Value) -> Result<ValidCheckpoint, Refused> {
    let prefix = CHECKPOINT_PREFIX;
    let (api, checkpoint): (_, Checkpoint) = decode_checked(file, value, &CHECKPOINT)?;
    let mut diags = Vec::new();
    let d = |code: Code, ptr: JsonPointer, msg: String| {
        Diagnostic::new(code, format!("{prefix}: {msg}"))
            .in_file(file)
            .at(ptr)
    };
    let seq = checkpoint.sequence;
    let n = checkpoint.entries.len() as u64;
    if n != seq {
        diags.push(d(
            Code::CheckpointEntryCount,
            at("entries"),
            format!("sequence {seq} requires {seq} cumulative entries, found {n}"),
        ));
    }
    let previous = checkpoint.previous_checkpoint_digest.as_deref();
    if api == LEGACY && seq == 1 && previous.is_some() {
        diags.push(d(
            Code::CheckpointPreviousDigest,
            at("previousCheckpointDigest"),
            "sequence 1 must have null previousCheckpointDigest".into(),
        ));
    }
    let needs_previous = if api == LEGACY { seq > 1 } else { seq > 0 };
    if needs_previous && !previous.is_some_and(is_canonical_digest) {
        diags.push(d(
            Code::CheckpointPreviousDigest,
            at("previousCheckpointDigest"),
            format!("sequence {seq} requires a canonical previousCheckpointDigest"),
        ));
    }
    let mut versions: BTreeMap<&str, usize> = BTreeMap::new();
    let mut digests: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in checkpoint.entries.iter().enumerate() {
        let want = i as u64 + 1;
        if e.sequence != want {
            diags.push(d(
                Code::CheckpointEntrySequence,
                entry_at(i, "sequence"),
                format!("entries[{i}].sequence is {}, want {want}", e.sequence),
            ));
        }
        if api == CURRENT && !crate::profile::namespaced_form_group(&e.form_ref.api_version) {
            diags.push(d(
                Code::CheckpointEntryFormRefGroup,
                entry_at(i, "formRef").child("apiVersion"),
                format!(
                    "entries[{i}]: FormRef apiVersion {} is reserved or unsupported",
                    quote(&e.form_ref.api_version)
                ),
            ));
        }
        for (seen, value, code, member) in [
            (
                &mut versions,
                &e.statement_version,
                Code::CheckpointDuplicateStatementVersion,
                "statementVersion",
            ),
            (
                &mut digests,
                &e.statement_digest,
                Code::CheckpointDuplicateStatementDigest,
                "statementDigest",
            ),
        ] {
            if let Some(first) = seen.insert(value, i) {
                diags.push(
                    d(
                        code,
                        entry_at(i, member),
                        format!("duplicate {member} {}", quote(value)),
                    )
                    .note(format!("first used by entries[{first}]")),
                );
            }
        }
    }
    if seq > 0 {
        if let Some(last) = checkpoint.entries.last() {
            if last.statement_version != checkpoint.checkpoint_version {
                diags.push(
                    d(
                        Code::CheckpointFinalVersion,
                        at("checkpointVersion"),
                        "final statementVersion must equal checkpointVersion".into(),
                    )
                    .note(format!(
                        "checkpointVersion is {}, the last entry's statementVersion is {}",
                        quote(&checkpoint.checkpoint_version),
                        quote(&last.statement_version)
                    )),
                );
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags.into());
    }
    let digest = canonicalize(value)
        .map(|c| sha256_digest(&c))
        .map_err(|e| vec![e.in_file(file)])?;
    let entries = value
        .get("entries")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    Ok(ValidCheckpoint {
        checkpoint,
        digest,
        entries,
    })
}

/// Canonical digest of a JSON array of entries.
#[allow(clippy::result_large_err)] // the crate-wide finding type
fn entries_digest(entries: &[Value]) -> Result<String, Diagnostic> {
    canonicalize(&Value::Array(entries.to_vec())).map(|c| sha256_digest(&c))
}

/// The canonical digest of the current profile's genesis (sequence 0, no
/// entries, null predecessor, version `0.0.0`): the only document a
/// sequence-0 pin may name. `sha256:35c5c4cd…8f66`.
pub fn genesis_digest() -> String {
    let genesis = serde_json::json!({
        "apiVersion": CURRENT,
        "kind": CHECKPOINT_KIND,
        "checkpointVersion": "0.0.0",
        "sequence": 0,
        "previousCheckpointDigest": null,
        "entries": [],
    });
    canonicalize(&genesis)
        .map(|c| sha256_digest(&c))
        .unwrap_or_default()
}

/// Reads a pin (the shape `cases.json` uses and `--pin-out` writes): an
/// object of `sequence`, `digest`, `entriesDigest` and optionally
/// `checkpointApiVersion`.
///
/// # Errors
/// FD620 for a malformed pin (unknown member, wrong type, unsupported
/// profile, non-canonical digest, legacy sequence 0); FD626 for a current
/// sequence-0 pin that is not the genesis.
pub fn parse_pin(file: &str, value: &Value) -> Result<Pin, Vec<Diagnostic>> {
    parse_pin_at(file, value, &JsonPointer::root())
}

/// The members that make a JSON object a previous run's report rather than
/// a pin: `validate-revocation-checkpoint`'s `{"checkpoint", "pin"}`, its
/// `--format json` report `{"version", "tool", "packages", "summary"}`,
/// `trust verify-checkpoint`'s `{"status", "bundle", …, "pin"}`. A pin has
/// none of them.
const REPORT_MEMBERS: [&str; 4] = ["pin", "checkpoint", "status", "packages"];

/// Reads `--previous-pin`'s file, the one pin model of
/// `validate-revocation-checkpoint` and `trust verify-checkpoint`: `value`
/// is the pin itself ([`parse_pin`]), or a previous run's whole JSON report
/// (an object with a member of `REPORT_MEMBERS`: either command's
/// output), whose pin is read: its `pin` member (the default output of
/// `validate-revocation-checkpoint`, `trust verify-checkpoint`'s report;
/// findings at `/pin/…`), or, in a `--format json` report of
/// `validate-revocation-checkpoint`, the `pin` of its one entry
/// (`packages[0].pin`; findings at `/packages/0/pin/…`).
///
/// # Errors
/// [`parse_pin`]'s; FD620 at the root for a report without a pin (a
/// `--format json` report of a run that did not advance, or of more than
/// one document).
pub fn previous_pin(file: &str, value: &Value) -> Result<Pin, Vec<Diagnostic>> {
    let Some(map) = value
        .as_object()
        .filter(|m| REPORT_MEMBERS.iter().any(|k| m.contains_key(*k)))
    else {
        return parse_pin(file, value);
    };
    let root = JsonPointer::root();
    let entry = match map.get("packages").and_then(Value::as_array) {
        Some(entries) if !map.contains_key("pin") => match entries.as_slice() {
            [one] => one
                .get("pin")
                .map(|pin| (pin, root.child("packages").child("0").child("pin"))),
            _ => None,
        },
        _ => map.get("pin").map(|pin| (pin, root.child("pin"))),
    };
    match entry {
        Some((pin, at)) => parse_pin_at(file, pin, &at),
        None => Err(vec![Diagnostic::new(
            Code::InvalidCheckpointPin,
            "previous revocation checkpoint pin: the file is a report without a pin member",
        )
        .in_file(file)
        .at(root)
        .help("pass the pin a run wrote (`--pin-out`, or the `pin` member of its output), or the whole output of a run that advanced to a checkpoint")]),
    }
}

fn parse_pin_at(file: &str, value: &Value, base: &JsonPointer) -> Result<Pin, Vec<Diagnostic>> {
    let here = |member: &str| base.child(member);
    let bad = |ptr: JsonPointer, msg: String| {
        Diagnostic::new(Code::InvalidCheckpointPin, msg)
            .in_file(file)
            .at(ptr)
    };
    let Some(map) = value.as_object() else {
        return Err(vec![bad(
            base.clone(),
            "previous revocation checkpoint pin must be a JSON object".into(),
        )]);
    };
    let mut diags = Vec::new();
    for (k, v) in map {
        let ok = match k.as_str() {
            "checkpointApiVersion" | "digest" | "entriesDigest" => v.is_string(),
            "sequence" => v.as_u64().is_some(),
            _ => {
                diags.push(
                    bad(
                        here(k),
                        format!(
                            "previous revocation checkpoint pin has unknown member {}",
                            quote(k)
                        ),
                    )
                    .at_key(here(k)),
                );
                continue;
            }
        };
        if !ok {
            diags.push(bad(
                here(k),
                format!("previous revocation checkpoint pin: {k} has the wrong type"),
            ));
        }
    }
    for k in ["sequence", "digest", "entriesDigest"] {
        if !map.contains_key(k) {
            diags.push(bad(
                base.clone(),
                format!("previous revocation checkpoint pin lacks {k}"),
            ));
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let pin: Pin = serde_json::from_value(value.clone()).map_err(|e| {
        vec![bad(
            base.clone(),
            format!("previous revocation checkpoint pin: {e}"),
        )]
    })?;
    match pin.checkpoint_api_version.as_deref() {
        None | Some(LEGACY) | Some(CURRENT) => {}
        Some(other) => diags.push(bad(
            here("checkpointApiVersion"),
            format!(
                "previous revocation checkpoint pin has unsupported profile {}",
                quote(other)
            ),
        )),
    }
    for (k, v) in [
        ("digest", &pin.digest),
        ("entriesDigest", &pin.entries_digest),
    ] {
        if !is_canonical_digest(v) {
            diags.push(bad(
                here(k),
                format!("previous revocation checkpoint pin has a non-canonical {k}"),
            ));
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let current = pin.checkpoint_api_version.as_deref() == Some(CURRENT);
    if pin.sequence == 0 && !current {
        diags.push(bad(
            here("sequence"),
            "legacy revocation checkpoint pin cannot have sequence 0".into(),
        ));
    }
    if pin.sequence == 0 && current {
        let empty = entries_digest(&[]).unwrap_or_default();
        if pin.digest != genesis_digest() || pin.entries_digest != empty {
            diags.push(
                Diagnostic::new(
                    Code::CheckpointGenesisPin,
                    "previous revocation checkpoint pin does not identify the exact signed current genesis",
                )
                .in_file(file)
                .at(here("digest"))
                .note(format!("the genesis digest is {}", genesis_digest())),
            );
        }
    }
    if diags.is_empty() {
        Ok(pin)
    } else {
        Err(diags)
    }
}

/// Where an [`advance`] ended: the pin to keep for the next checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advanced {
    /// The new pin (with `unchanged`, the previous pin itself).
    pub pin: Pin,
    /// The checkpoint is the very one the previous pin names and
    /// `allow_unchanged` accepted it as unchanged since the pin.
    pub unchanged: bool,
}

/// Whether `valid` is the very checkpoint `pin` names: the same profile,
/// sequence, canonical digest and entries digest (an unchanged checkpoint
/// and a replayed one cannot be told apart).
fn is_pinned(pin: &Pin, valid: &ValidCheckpoint) -> bool {
    let pinned = pin.checkpoint_api_version.as_deref().unwrap_or(LEGACY);
    pinned == valid.checkpoint.api_version
        && pin.sequence == valid.checkpoint.sequence
        && pin.digest == valid.digest
        && entries_digest(&valid.entries).is_ok_and(|d| d == pin.entries_digest)
}

/// Advances to a validated checkpoint from `previous` (`None`: the first
/// trusted checkpoint) and returns the new pin (`verifier-rules.md` §11.2
/// `AdvanceRevocationCheckpoint`; `current-profile.md` §11.3). With
/// `allow_unchanged`, the checkpoint `previous` already names is accepted
/// as unchanged and the pin kept (`Advanced::unchanged`); without it the
/// rule stands (the next checkpoint is the pin's sequence + 1) and the
/// FD622 refusal says so in a note. This one function is the advance of
/// both `validate-revocation-checkpoint` and `trust`.
///
/// # Errors
/// FD621–FD625 (a not-first checkpoint with no pin, a sequence that is not
/// the next, a fork, a rewritten prefix, a crossed profile).
pub fn advance(
    file: &str,
    previous: Option<&Pin>,
    valid: &ValidCheckpoint,
    allow_unchanged: bool,
) -> Result<Advanced, Vec<Diagnostic>> {
    let cp = &valid.checkpoint;
    let api = cp.api_version.as_str();
    let d = |code: Code, ptr: JsonPointer, msg: String| {
        Diagnostic::new(code, format!("{CHECKPOINT_PREFIX}: {msg}"))
            .in_file(file)
            .at(ptr)
    };
    let mut diags = Vec::new();
    match previous {
        Some(pin) if allow_unchanged && is_pinned(pin, valid) => {
            return Ok(Advanced {
                pin: pin.clone(),
                unchanged: true,
            });
        }
        None => {
            if api == LEGACY && (cp.sequence != 1 || cp.previous_checkpoint_digest.is_some()) {
                diags.push(d(
                    Code::CheckpointFirstPin,
                    at("sequence"),
                    "first trusted legacy revocation checkpoint must be sequence 1".into(),
                ));
            }
            if api == CURRENT && (cp.sequence != 0 || valid.digest != genesis_digest()) {
                diags.push(d(
                    Code::CheckpointFirstPin,
                    at("sequence"),
                    "first trusted current revocation checkpoint must be the signed sequence 0 genesis".into(),
                ));
            }
        }
        Some(pin) => {
            let pinned = pin.checkpoint_api_version.as_deref().unwrap_or(LEGACY);
            if api != pinned {
                let what = if pin.checkpoint_api_version.is_none() {
                    format!("does not match pinned legacy profile {}", quote(LEGACY))
                } else {
                    format!("does not match pinned profile {}", quote(pinned))
                };
                diags.push(d(
                    Code::CheckpointProfileMismatch,
                    at("apiVersion"),
                    format!("revocation checkpoint apiVersion {} {what}", quote(api)),
                ));
            } else {
                let want = pin.sequence.checked_add(1);
                if Some(cp.sequence) != want {
                    let refusal = d(
                        Code::CheckpointSequenceNotNext,
                        at("sequence"),
                        format!(
                            "revocation checkpoint sequence is {}, want {}",
                            cp.sequence,
                            want.map_or_else(
                                || "none (the pin is at the last sequence)".to_owned(),
                                |w| w.to_string()
                            )
                        ),
                    );
                    diags.push(if is_pinned(pin, valid) {
                        refusal.note(UNCHANGED_NOTE)
                    } else {
                        refusal
                    });
                } else {
                    if cp.previous_checkpoint_digest.as_deref() != Some(pin.digest.as_str()) {
                        diags.push(
                            d(
                                Code::CheckpointFork,
                                at("previousCheckpointDigest"),
                                "revocation checkpoint does not extend the pinned digest".into(),
                            )
                            .note(format!("the pinned digest is {}", pin.digest)),
                        );
                    }
                    let n = usize::try_from(pin.sequence).unwrap_or(usize::MAX);
                    let prefix = valid.entries.get(..n).map(entries_digest);
                    match prefix {
                        Some(Ok(p)) if p == pin.entries_digest => {}
                        Some(Err(e)) => diags.push(e.in_file(file)),
                        _ => diags.push(
                            d(
                                Code::CheckpointPrefixRewritten,
                                at("entries"),
                                "revocation checkpoint rewrites the pinned cumulative entries"
                                    .into(),
                            )
                            .note(format!(
                                "the first {} entries must have the pinned entriesDigest {}",
                                pin.sequence, pin.entries_digest
                            )),
                        ),
                    }
                }
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let entries_digest = entries_digest(&valid.entries).map_err(|e| vec![e.in_file(file)])?;
    Ok(Advanced {
        pin: Pin {
            checkpoint_api_version: (api == CURRENT).then(|| CURRENT.to_owned()),
            sequence: cp.sequence,
            digest: valid.digest.clone(),
            entries_digest,
        },
        unchanged: false,
    })
}

/// The note on the FD622 refusal of the checkpoint the pin already names.
pub const UNCHANGED_NOTE: &str = "this is the checkpoint the pin already names: unchanged or replayed; --allow-unchanged accepts it as unchanged since the pin";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genesis_digest_is_the_published_one() {
        assert_eq!(
            genesis_digest(),
            "sha256:35c5c4cdc6cd6c4beaec8ba273091be10ae02c0d6f49861f97062fd59f9e8f66"
        );
        assert_eq!(
            entries_digest(&[]).unwrap(),
            "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945"
        );
    }

    #[test]
    fn sequence_decode_refuses_floats_and_accepts_u64_max() {
        let mut diags = Vec::new();
        let v: Value = serde_json::from_str(r#"{"sequence": 1.0}"#).unwrap();
        assert!(!sequences_decode("f", &v, "p", &mut diags));
        assert_eq!(diags[0].code, Code::RevocationDecode);
        let mut diags = Vec::new();
        let v: Value = serde_json::from_str(r#"{"sequence": 18446744073709551615}"#).unwrap();
        assert!(sequences_decode("f", &v, "p", &mut diags));
        assert!(diags.is_empty());
    }

    #[test]
    fn a_previous_pin_is_the_pin_or_a_whole_report_of_either_command() {
        let pin = serde_json::json!({"sequence": 1, "digest": format!("sha256:{}", "a".repeat(64)), "entriesDigest": format!("sha256:{}", "b".repeat(64))});
        let want = parse_pin("p", &pin).unwrap();
        // The pin alone; `validate-revocation-checkpoint`'s output and its
        // `--format json` report; `trust verify-checkpoint`'s report.
        let json_report = |entry: serde_json::Value| serde_json::json!({"version": 1, "packages": [entry], "summary": {"packages": 1}});
        for value in [
            pin.clone(),
            serde_json::json!({"checkpoint": {"sequence": 1}, "pin": pin}),
            json_report(serde_json::json!({"path": "c.json", "verdict": "ok", "pin": pin})),
            serde_json::json!({"status": "verified", "entryCount": 0, "pin": pin}),
        ] {
            assert_eq!(previous_pin("p", &value), Ok(want.clone()), "{value}");
        }
        // A `--format json` report's pin is read where it is: its findings
        // at /packages/0/pin/….
        let mut wrong = pin.clone();
        wrong["x"] = 1.into();
        let e = previous_pin("p", &json_report(serde_json::json!({"pin": wrong}))).unwrap_err();
        assert_eq!(
            (e[0].code, e[0].pointer.as_str()),
            (Code::InvalidCheckpointPin, "/packages/0/pin/x")
        );
        // Near misses: a `--format json` report of a run that did not
        // advance, or of two documents, has no pin to read (FD620 at the
        // root).
        for report in [
            json_report(serde_json::json!({"path": "c.json", "verdict": "ok"})),
            serde_json::json!({"packages": [{"pin": pin}, {"pin": pin}]}),
        ] {
            let e = previous_pin("p", &report).unwrap_err();
            assert_eq!(
                (e.len(), e[0].code, e[0].pointer.as_str()),
                (1, Code::InvalidCheckpointPin, ""),
                "{report}"
            );
        }
        // Near misses, refused with FD620: a report without a pin (at the
        // root), a pin inside a report with a wrong member (at /pin/x), a
        // pin with a wrong member (at /x).
        let e = previous_pin("p", &serde_json::json!({"status": "verified"})).unwrap_err();
        assert_eq!(
            (e.len(), e[0].code, e[0].pointer.as_str()),
            (1, Code::InvalidCheckpointPin, "")
        );
        assert!(
            e[0].message.contains("report without a pin"),
            "{}",
            e[0].message
        );
        let mut wrong = pin.clone();
        wrong["x"] = 1.into();
        let e = previous_pin("p", &serde_json::json!({"pin": wrong})).unwrap_err();
        assert_eq!(
            (e[0].code, e[0].pointer.as_str()),
            (Code::InvalidCheckpointPin, "/pin/x")
        );
        let e = previous_pin("p", &wrong).unwrap_err();
        assert_eq!(
            (e[0].code, e[0].pointer.as_str()),
            (Code::InvalidCheckpointPin, "/x")
        );
    }

    #[test]
    fn pin_shape_is_checked() {
        let good = serde_json::json!({"sequence": 1, "digest": format!("sha256:{}", "a".repeat(64)), "entriesDigest": format!("sha256:{}", "b".repeat(64))});
        assert!(parse_pin("p", &good).is_ok());
        let mut extra = good.clone();
        extra["x"] = 1.into();
        let e = parse_pin("p", &extra).unwrap_err();
        assert_eq!(e[0].code, Code::InvalidCheckpointPin);
        assert_eq!(e[0].pointer.as_str(), "/x");
    }
}
