//! `form-package index DIR`: write (or `--check`) an author's
//! `package-index.json`.
//!
//! Every file below DIR except the index is listed, sorted byte-wise by
//! path, with its size and the `sha256:` digest of its raw bytes
//! (`verifier-rules.md` §1.5–§1.7, §2.3). A file already listed keeps its
//! media type; a new one gets the type its extension implies (`.json` →
//! `application/json`, `.md`/`.markdown` → `text/markdown`, `.txt` →
//! `text/plain`; the definition keeps the definition type).
//! `formRef` is recomputed from the definition: `apiVersion`, `kind`,
//! `definitionVersion` and `schemaDigest` (SHA-256 of its RFC 8785 form).
//! The existing index's `apiVersion`, `packageVersion` and `definitionPath`
//! are kept. The file is written atomically (temporary file, then rename).
//! Nothing is written when the directory holds something `verify` refuses
//! at the file-system level (links, FIFOs, executables, bad names).

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::canonical::{canonicalize, sha256_digest};
use crate::diag::Diagnostic;
use crate::fsread;
use crate::json::strict;
use crate::verify::{DEFINITION_MEDIA_TYPE, INDEX_FILE};

/// The result of indexing a directory.
#[derive(Debug)]
pub struct Indexed {
    /// The new index document (member order as published: apiVersion,
    /// definitionPath, files, formRef, kind, packageVersion; the canonical
    /// form is what counts).
    pub index: Value,
    /// Pretty-printed bytes that would be written (2-space indent, final LF).
    pub bytes: Vec<u8>,
    /// Whether the canonical form differs from the existing index.
    pub drift: bool,
}

/// Builds the index for `dir`. `profile`: index `apiVersion` for a new
/// index (ignored when one exists).
///
/// # Errors
/// The findings that make the directory unindexable (file-system refusals,
/// an unreadable or unparsable definition).
pub fn build(dir: &Path, profile: Option<&str>) -> Result<Indexed, Vec<Diagnostic>> {
    let root = fsread::open_root(dir).map_err(|d| vec![d])?;
    let inventory = root.inventory();
    if !inventory.diagnostics.is_empty() {
        return Err(inventory.diagnostics);
    }
    let old: Option<Value> = if inventory.has_index {
        let bytes = root
            .read(INDEX_FILE, fsread::INDEX_LIMIT, None)
            .map_err(|d| vec![d])?;
        Some(
            strict::parse(&bytes)
                .map_err(|e| vec![e.to_diagnostic().in_file(INDEX_FILE)])?
                .value,
        )
    } else {
        None
    };
    let old_types: Map<String, Value> = old
        .as_ref()
        .and_then(|o| o.get("files"))
        .and_then(Value::as_array)
        .map(|files| {
            files
                .iter()
                .filter_map(|f| {
                    Some((
                        f.get("path")?.as_str()?.to_owned(),
                        f.get("mediaType")?.clone(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let def_path = old
        .as_ref()
        .and_then(|o| o.get("definitionPath"))
        .and_then(Value::as_str)
        .unwrap_or("definition.json")
        .to_owned();
    let mut files = Vec::new();
    let mut definition = None;
    for e in inventory.files.iter().filter(|e| e.rel != INDEX_FILE) {
        let bytes = root
            .read(&e.rel, fsread::PAYLOAD_LIMIT, Some(&e.meta))
            .map_err(|d| vec![d])?;
        let media = match old_types.get(&e.rel) {
            Some(t) => t.clone(),
            None if e.rel == def_path => json!(DEFINITION_MEDIA_TYPE),
            None => json!(infer_media_type(&e.rel)),
        };
        if e.rel == def_path {
            let parsed = strict::parse(&bytes)
                .map_err(|err| vec![err.to_diagnostic().in_file(e.rel.clone())])?;
            definition = Some(parsed.value);
        }
        files.push(json!({"digest": sha256_digest(&bytes), "mediaType": media, "path": e.rel, "size": bytes.len()}));
    }
    files.sort_by(|a, b| {
        a["path"]
            .as_str()
            .unwrap_or("")
            .as_bytes()
            .cmp(b["path"].as_str().unwrap_or("").as_bytes())
    });
    let mut form_ref = Map::new();
    if let Some(def) = &definition {
        for m in ["apiVersion", "definitionVersion", "kind"] {
            form_ref.insert(m.into(), def.get(m).cloned().unwrap_or(Value::Null));
        }
        let canonical = canonicalize(def).map_err(|d| vec![d.in_file(def_path.clone())])?;
        form_ref.insert("schemaDigest".into(), json!(sha256_digest(&canonical)));
    }
    let api = old
        .as_ref()
        .and_then(|o| o.get("apiVersion"))
        .cloned()
        .unwrap_or_else(|| json!(profile.unwrap_or("packages.forms.takoform.com/v1alpha5")));
    let mut index = Map::new();
    index.insert("apiVersion".into(), api);
    index.insert("definitionPath".into(), json!(def_path));
    index.insert("files".into(), Value::Array(files));
    index.insert("formRef".into(), Value::Object(form_ref));
    index.insert("kind".into(), json!("FormPackage"));
    if let Some(v) = old.as_ref().and_then(|o| o.get("packageVersion")) {
        index.insert("packageVersion".into(), v.clone());
    }
    let index = Value::Object(index);
    let drift = match &old {
        Some(o) => canonicalize(o).ok() != canonicalize(&index).ok(),
        None => true,
    };
    let mut bytes = serde_json::to_vec_pretty(&index).unwrap_or_default();
    bytes.push(b'\n');
    Ok(Indexed {
        index,
        bytes,
        drift,
    })
}

/// Writes `indexed` to `dir/package-index.json` atomically.
///
/// # Errors
/// The I/O error of writing or renaming.
pub fn write(dir: &Path, indexed: &Indexed) -> std::io::Result<()> {
    let tmp = dir.join(".package-index.json.tmp");
    std::fs::write(&tmp, &indexed.bytes)?;
    std::fs::rename(&tmp, dir.join(INDEX_FILE))
}

/// Media type implied by a file extension (`verifier-rules.md` §1.8).
pub fn infer_media_type(path: &str) -> &'static str {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".json") {
        "application/json"
    } else if lower.ends_with(".md") || lower.ends_with(".markdown") {
        "text/markdown"
    } else if lower.ends_with(".txt") {
        "text/plain"
    } else {
        "application/octet-stream"
    }
}
