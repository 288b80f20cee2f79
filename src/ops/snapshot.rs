//! `form-package snapshot DIR...` and `snapshot --manifest FILE` (issue 39
//! item 1): the set a host will serve, compiled as the current Core
//! compiles it. The set's loading and compile are library code
//! ([`crate::host_set`], shared with `desired`); this operation adds the
//! `--manifest` reading (`takoform.core-artifact-corpus@v1`, pins checked).

use std::path::Path;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fileread::{read_file, Reach};
use crate::host::snapshot::{self as core, FormRef};
pub use crate::host_set::{compile_dirs, Options, SetRun, SET_NAME};
use crate::host_set::{decode_pin, verify_all, Set};
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::limits::JSON_BYTES;
use crate::package::INDEX_FILE;
use crate::report::{ExitRule, Report};

/// The one manifest format `snapshot --manifest` reads.
pub const MANIFEST_FORMAT: &str = "takoform.core-artifact-corpus@v1";

/// `snapshot --manifest FILE`: each input of a
/// `takoform.core-artifact-corpus@v1` manifest (`host-rules.md` §1.4)
/// compiled as its own set, with the manifest's pins: every package and
/// contract path a clean relative slash path below the manifest's folder,
/// with no symlink component and never repeated; a package path naming
/// its `package-index.json`; the compiled roster equal to
/// `expectedFormRefs`. Each set is one entry named `snapshot <name>`.
pub fn compile_manifest(path: &Path) -> SetRun {
    let display = path.display().to_string();
    let mut findings = Vec::new();
    let bad = |pointer: JsonPointer, what: String| {
        Diagnostic::new(
            Code::SnapshotInputInvalid,
            format!("manifest {}: {what}", crate::diag::escape::quote(&display)),
        )
        .in_file(display.clone())
        .at(pointer)
    };
    let refused = |findings: Vec<Diagnostic>, bytes: Vec<u8>, could_not_read: bool| {
        let outcome = crate::document::document_outcome(&display, bytes, findings);
        let mut report = Report::new(
            vec![crate::document::document_entry(&display, outcome)],
            ExitRule::default(),
        );
        report.could_not_read = could_not_read;
        SetRun {
            report,
            ..SetRun::default()
        }
    };
    let bytes = match read_file(path, Reach::Named, JSON_BYTES) {
        Ok(b) => b,
        Err(why) => {
            let d = Diagnostic::new(Code::UnreadableFile, format!("read {display}: {why}"));
            return refused(vec![d], Vec::new(), true);
        }
    };
    let value = match strict::parse_value(&bytes) {
        Ok(v) => v,
        Err(e) => return refused(vec![e.to_diagnostic()], bytes, false),
    };
    let root = JsonPointer::root();
    let Some(top) = value.as_object() else {
        return refused(vec![bad(root, "not a JSON object".into())], bytes, false);
    };
    for k in top.keys() {
        if !matches!(k.as_str(), "format" | "hostApiLane" | "snapshotInputs") {
            findings.push(bad(
                root.child(k),
                format!("unknown member {}", crate::diag::escape::quote(k)),
            ));
        }
    }
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let format = text(top.get("format"));
    if format != MANIFEST_FORMAT {
        findings.push(bad(
            root.child("format"),
            format!(
                "format {} is not {MANIFEST_FORMAT}",
                crate::diag::escape::quote(&format)
            ),
        ));
    }
    let lane = text(top.get("hostApiLane"));
    if lane != core::SERVED_LANE {
        findings.push(bad(
            root.child("hostApiLane"),
            format!(
                "hostApiLane {} is not the selectable Core lane {}",
                crate::diag::escape::quote(&lane),
                core::SERVED_LANE
            ),
        ));
    }
    let inputs = top
        .get("snapshotInputs")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let names: Vec<String> = inputs.iter().map(|i| text(i.get("name"))).collect();
    // Any names, as the Core's compiler takes them (breaker F5); the
    // generic conformance's pair external-family/zero-family is a rule of
    // that corpus, not of a Snapshot.
    if inputs.is_empty() {
        findings.push(bad(
            root.child("snapshotInputs"),
            "holds no Snapshot input".into(),
        ));
    }
    for (n, i) in inputs.iter().enumerate() {
        if !i.get("name").is_some_and(Value::is_string) {
            findings.push(bad(
                root.child("snapshotInputs").index(n).child("name"),
                "an input's name is a string".into(),
            ));
        }
    }
    if !findings.is_empty() {
        return refused(findings, bytes, false);
    }
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut entries = Vec::new();
    let mut snapshots = Vec::new();
    let mut origins = Vec::new();
    let mut manifest_findings = Vec::new();
    let mut could_not_read = false;
    for (n, input) in inputs.iter().enumerate() {
        let at = root.child("snapshotInputs").index(n);
        let name = names.get(n).cloned().unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut dirs = Vec::new();
        let mut pins = Vec::new();
        let list = |k: &str| {
            input
                .get(k)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        for (i, p) in list("packages").iter().enumerate() {
            let at = at.child("packages").index(i);
            let rel = text(p.get("path"));
            if let Err(why) = clean_relative(&base, &rel) {
                manifest_findings.push(bad(at.child("path"), why));
                continue;
            }
            if !rel.ends_with(INDEX_FILE)
                || Path::new(&rel).file_name() != Some(INDEX_FILE.as_ref())
            {
                manifest_findings.push(bad(
                    at.child("path"),
                    format!(
                        "package path {} must name {INDEX_FILE}",
                        crate::diag::escape::quote(&rel)
                    ),
                ));
                continue;
            }
            // A repeated path is refused as the Core's conformance refuses
            // it, and still reaches the compiler twice, which refuses the
            // duplicate identity (breaker F4: never a digest the Core would
            // not produce).
            if !seen.insert(rel.clone()) {
                manifest_findings.push(bad(
                    at.child("path"),
                    format!("repeats artifact path {}", crate::diag::escape::quote(&rel)),
                ));
            }
            let dir = base.join(Path::new(&rel).parent().unwrap_or(Path::new("")));
            dirs.push(dir);
            pins.push(text(p.get("packageDigest")));
        }
        let mut contracts = Vec::new();
        for (member, binding) in [("interfaces", false), ("bindings", true)] {
            for (i, c) in list(member).iter().enumerate() {
                let at = at.child(member).index(i);
                let rel = text(c.get("path"));
                if let Err(why) = clean_relative(&base, &rel) {
                    manifest_findings.push(bad(at.child("path"), why));
                    continue;
                }
                if !seen.insert(rel.clone()) {
                    manifest_findings.push(bad(
                        at.child("path"),
                        format!("repeats artifact path {}", crate::diag::escape::quote(&rel)),
                    ));
                }
                contracts.push((base.join(&rel), text(c.get("schemaDigest")), binding));
            }
        }
        let mut defaults = Vec::new();
        for (i, d) in list("defaultCreates").iter().enumerate() {
            match decode_pin(d) {
                Some(pin) => defaults.push(pin),
                None => manifest_findings.push(bad(
                    at.child("defaultCreates").index(i),
                    "a pin is {group, kind, ref} and nothing else".into(),
                )),
            }
        }
        let expected: Vec<Option<FormRef>> = list("expectedFormRefs")
            .iter()
            .map(FormRef::decode)
            .collect();
        let (mut set_entries, loaded) = verify_all(&dirs);
        let mut set = Set::default();
        set.input.host_api = lane.clone();
        set.refused = loaded.is_none();
        if let Some(mut loaded) = loaded {
            // Each package's pin is the manifest's, not its own digest.
            for (l, pin) in loaded.iter_mut().zip(&pins) {
                l.artifact.expected_digest.clone_from(pin);
            }
            set.add_packages(loaded);
        }
        for (p, pin, binding) in contracts {
            set.add_contract(&p, Some(pin), binding);
        }
        set.input.defaults = defaults;
        origins.push(
            set.input
                .packages
                .iter()
                .map(|p| p.origin.clone())
                .collect(),
        );
        let set_name = format!("{SET_NAME} {name}");
        let (entry, snapshot, unread) = set.compile(&set_name);
        could_not_read |= unread;
        if let Some(s) = &snapshot {
            let got: Vec<Option<FormRef>> =
                s.forms.iter().map(|f| Some(f.form_ref.clone())).collect();
            if got != expected {
                manifest_findings.push(bad(
                    at.child("expectedFormRefs"),
                    format!(
                        "input {} compiled to {} Forms that are not expectedFormRefs in order",
                        crate::diag::escape::quote(&name),
                        got.len()
                    ),
                ));
            }
        }
        set_entries.push(entry);
        entries.extend(set_entries);
        snapshots.push((set_name, snapshot));
    }
    if !manifest_findings.is_empty() {
        let outcome = crate::document::document_outcome(&display, bytes, manifest_findings);
        entries.insert(0, crate::document::document_entry(&display, outcome));
    }
    let mut report = Report::new(entries, ExitRule::default());
    report.could_not_read = could_not_read;
    SetRun {
        report,
        snapshots,
        origins,
    }
}

/// A clean relative slash path below `base` with no symlink component
/// (§1.4), or why not.
fn clean_relative(base: &Path, rel: &str) -> Result<(), String> {
    let q = crate::diag::escape::quote(rel);
    if rel.is_empty() || rel.starts_with('/') || rel.contains('\\') {
        return Err(format!("path {q} is not a relative slash path"));
    }
    if rel
        .split('/')
        .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return Err(format!("path {q} is not clean (empty, . or .. component)"));
    }
    let mut at = base.to_path_buf();
    for c in rel.split('/') {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!("path {q} has a symlink component"));
        }
    }
    Ok(())
}
