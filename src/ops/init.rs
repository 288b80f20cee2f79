//! `form-package init DIR --group G --kind K [--profile P]`: start a Form
//! Package an author then edits (issue 26 item 1).
//!
//! Writes, into a new or empty directory only (never over an existing
//! package or any other file):
//!
//! - `definition.json`: a Form Definition of `apiVersion` G and `kind` K,
//!   `definitionVersion` `0.1.0`, one closed desired schema (`name`, a
//!   string of 1..63 characters, required), the members the profile's
//!   definition schema requires (`role` and `requiresHostApi` for the
//!   current profile, a closed `observedSchema` and `status` for the Legacy
//!   lanes), one positive and one negative conformance fixture;
//! - `fixtures/desired.json` (`{"name":"example"}`) and
//!   `fixtures/negative-empty-name.json` (`{"name":""}`, refused by
//!   `minLength`);
//! - `package-index.json`, built by [`crate::index`] exactly as `index`
//!   builds it (v1alpha1: `packageVersion` `0.1.0`).
//!
//! The profile is P, else the one `index` infers from G
//! ([`crate::index::profile_for_definition`]). G and K are checked against
//! the profile's published definition schema before anything is written,
//! and the result is one `verify` accepts (a test runs `init` for every
//! profile and verifies the result).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::error::{Error, Refused};
use crate::index::{self, ProfileChoice};
use crate::profile::{self, IndexProfile};
use crate::schemas;

/// The `definitionVersion` (and v1alpha1 `packageVersion`) of a new package.
pub const FIRST_VERSION: &str = "0.1.0";

/// What `init` wrote.
#[derive(Debug)]
pub struct Initialized {
    /// The package directory.
    pub dir: PathBuf,
    /// Package-relative paths written, in order (the index last).
    pub files: Vec<String>,
    /// The index profile and why.
    pub profile: ProfileChoice,
}

/// The files of a new package (package-relative path, bytes), the index
/// not included: the definition of `group` and `kind` for `profile`, and
/// its two fixtures.
pub fn files(group: &str, kind: &str, profile: IndexProfile) -> Vec<(String, Vec<u8>)> {
    let definition = definition(group, kind, profile);
    let pretty = |v: &Value| {
        let mut b = serde_json::to_vec_pretty(v).unwrap_or_default();
        b.push(b'\n');
        b
    };
    vec![
        ("definition.json".to_owned(), pretty(&definition)),
        (
            "fixtures/desired.json".to_owned(),
            pretty(&json!({"name": "example"})),
        ),
        (
            "fixtures/negative-empty-name.json".to_owned(),
            pretty(&json!({"name": ""})),
        ),
    ]
}

/// The Form Definition `init` writes (see the module documentation).
pub fn definition(group: &str, kind: &str, profile: IndexProfile) -> Value {
    let schema = "https://json-schema.org/draft/2020-12/schema";
    let mut d = serde_json::Map::new();
    d.insert("apiVersion".into(), json!(group));
    d.insert("kind".into(), json!(kind));
    d.insert("definitionVersion".into(), json!(FIRST_VERSION));
    d.insert("title".into(), json!(title(kind)));
    let lane = profile::legacy_lane(group);
    let legacy = lane.is_some();
    if let Some(lane) = lane {
        // Only the first Legacy lane's schema has (and requires) `status`.
        if lane.schema == "v1alpha1" {
            d.insert("status".into(), json!("compatibility-candidate"));
        }
    } else {
        d.insert("role".into(), json!("identity"));
        if profile.family() == profile::Family::CurrentNeutral {
            d.insert("requiresHostApi".into(), json!("forms.takoform.com/v1"));
        }
    }
    d.insert(
        "desiredSchema".into(),
        json!({
            "$schema": schema,
            "type": "object",
            "additionalProperties": false,
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 63}
            }
        }),
    );
    if legacy {
        d.insert(
            "observedSchema".into(),
            json!({
                "$schema": schema,
                "type": "object",
                "additionalProperties": false,
                "properties": {"ready": {"type": "boolean"}}
            }),
        );
    }
    d.insert(
        "lifecycleCapabilities".into(),
        json!(["create", "read", "update", "delete"]),
    );
    d.insert(
        "conformanceFixtures".into(),
        json!([{"name": "example", "desiredPath": "fixtures/desired.json"}]),
    );
    d.insert(
        "negativeConformanceFixtures".into(),
        json!([{
            "name": "reject-empty-name",
            "stage": "desired",
            "inputPath": "fixtures/negative-empty-name.json",
            "expectedFailure": "schema_validation_failed"
        }]),
    );
    Value::Object(d)
}

/// `EdgeCache` → `Edge Cache`.
fn title(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The profiles whose definition schema accepts `init`'s definition of
/// `group` (for the message that refuses a group under another profile).
fn fitting(group: &str, kind: &str) -> Vec<String> {
    profile::PROFILES
        .iter()
        .filter(|r| problems(group, kind, r.profile).is_ok_and(|p| p.is_empty()))
        .map(|r| r.profile.api_version())
        .collect()
}

/// What the profile's definition schema says of `init`'s definition of
/// `group` and `kind`, in plain words (empty: it fits).
fn problems(group: &str, kind: &str, profile: IndexProfile) -> Result<Vec<String>, Error> {
    let def = definition(group, kind, profile);
    let Some(schema) = profile::definition_schema(group, profile.family()) else {
        return Ok(vec![format!(
            "{group:?} is neither a Legacy lane (forms.takoform.com/v1alpha1, forms.takoform.com/v1alpha2) nor a namespaced group (\"edge.example.com\")"
        )]);
    };
    // A Legacy lane lives only under the index profiles made for it
    // (`current-profile.md` §2.1), a namespaced group only under v1alpha4
    // and v1alpha5 (the older indexes' FormRef schemas are Legacy).
    let allowed: &[IndexProfile] = match profile::legacy_lane(group) {
        Some(lane) if lane.new_index == IndexProfile::V1alpha2 => {
            &[IndexProfile::V1alpha1, IndexProfile::V1alpha2]
        }
        Some(lane) => std::slice::from_ref(&lane.new_index),
        None => &[IndexProfile::V1alpha4, IndexProfile::V1alpha5],
    };
    if !allowed.contains(&profile) {
        return Ok(vec![format!(
            "a definition of {group:?} does not live under index {}",
            profile.api_version()
        )]);
    }
    Ok(schemas::validate(schema, &def)
        .map_err(Error::Internal)?
        .into_iter()
        .map(|v| format!("{} (at {})", v.message, v.pointer.as_str()))
        .collect())
}

/// Writes a new package into `dir` (created if missing; it must otherwise
/// be empty). `profile`: an index `apiVersion` or its version token
/// (`v1alpha5`); `None` infers it from `group`.
///
/// # Errors
/// [`Refused::Fault`] with [`Error::Usage`] when `dir` is not empty or not
/// a directory, the profile is unknown, or `group`/`kind` do not fit the
/// profile's definition schema (nothing is written); [`Error::Io`] when a
/// write fails (what was written is removed); [`Refused::Findings`] should
/// `index` refuse the package (never expected: a test builds every profile).
pub fn init(
    dir: &Path,
    group: &str,
    kind: &str,
    profile: Option<&str>,
) -> Result<Initialized, Refused> {
    let usage = |m: String| Refused::Fault(Error::Usage(m));
    let p = match profile {
        Some(p) => profile::parse_option("init", p).map_err(Refused::Fault)?,
        None => index::profile_for_definition(group),
    };
    let problems = problems(group, kind, p).map_err(Refused::Fault)?;
    if !problems.is_empty() {
        let fits = fitting(group, kind);
        let hint = if fits.is_empty() {
            String::new()
        } else {
            format!("; {group:?} fits {}", fits.join(", "))
        };
        return Err(usage(format!(
            "init: a Form Definition of --group {group:?} --kind {kind:?} does not fit index {}: {}{hint}",
            p.api_version(),
            problems.join("; ")
        )));
    }
    // Nothing is written into a package: its index would not list the new
    // files (FD018). The check `--write-witnesses` makes (the nearest
    // directory from DIR upward holding a package index).
    if let Some(package) = crate::discover::inside_package(dir) {
        return Err(usage(format!(
            "init: {} is inside the package {}: init never writes into a package (its index would not list the new files, FD018); choose a directory outside it",
            dir.display(),
            package.display()
        )));
    }
    match std::fs::symlink_metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(usage(format!(
                "init: {} exists and is not a directory",
                dir.display()
            )))
        }
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|source| io(dir, source))?;
            if entries.next().is_some() {
                return Err(usage(format!(
                    "init: {} is not empty: init writes only into a new or empty directory, never over a package or any other file",
                    dir.display()
                )));
            }
        }
        Err(_) => std::fs::create_dir_all(dir).map_err(|source| io(dir, source))?,
    }
    let mut written: Vec<String> = Vec::new();
    let result = write_all(dir, group, kind, (p, profile.is_some()), &mut written);
    if result.is_err() {
        for f in written.iter().rev() {
            let _ = std::fs::remove_file(dir.join(f));
        }
        let _ = std::fs::remove_dir(dir.join("fixtures"));
    }
    result.map(|profile| Initialized {
        dir: dir.to_path_buf(),
        files: written,
        profile,
    })
}

fn io(path: &Path, source: std::io::Error) -> Refused {
    Refused::Fault(Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn write_all(
    dir: &Path,
    group: &str,
    kind: &str,
    (p, asked): (IndexProfile, bool),
    written: &mut Vec<String>,
) -> Result<ProfileChoice, Refused> {
    std::fs::create_dir_all(dir.join("fixtures")).map_err(|s| io(&dir.join("fixtures"), s))?;
    for (rel, bytes) in files(group, kind, p) {
        let path = dir.join(&rel);
        // `create_new`: never over a file, even one that appeared since
        // the directory was found empty.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|s| io(&path, s))?;
        written.push(rel);
        f.write_all(&bytes).map_err(|s| io(&path, s))?;
    }
    // Not asked for: `index` infers the same profile, and says why.
    let api = p.api_version();
    let indexed = index::build_release(dir, asked.then_some(api.as_str()), FIRST_VERSION)?;
    index::write(dir, &indexed).map_err(|s| io(&dir.join(crate::package::INDEX_FILE), s))?;
    written.push(crate::package::INDEX_FILE.to_owned());
    Ok(indexed.profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_split_words() {
        assert_eq!(title("EdgeCache"), "Edge Cache");
        assert_eq!(title("S3Bucket"), "S3 Bucket");
    }

    /// A group that fits no profile asked for is refused before anything
    /// is written, naming the profiles it fits.
    #[test]
    fn a_group_that_does_not_fit_the_profile_writes_nothing() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("pkg");
        let err = init(&dir, "edge.example.com/v1", "EdgeCache", Some("v1alpha5")).unwrap_err();
        let Refused::Fault(Error::Usage(m)) = err else {
            panic!("{err:?}")
        };
        assert!(
            m.contains("\"edge.example.com/v1\" fits packages.forms.takoform.com/v1alpha4"),
            "{m}"
        );
        assert!(!dir.exists());
        let err = init(&dir, "edge.example.com", "edge-cache", None).unwrap_err();
        let Refused::Fault(Error::Usage(m)) = err else {
            panic!("{err:?}")
        };
        assert!(m.contains("is not a Form kind"), "{m}");
        assert!(!dir.exists());
        // Near miss: the versionless group under v1alpha5.
        let done = init(&dir, "edge.example.com", "EdgeCache", Some("v1alpha5")).unwrap();
        assert_eq!(done.files.last().unwrap(), "package-index.json");
    }

    /// Never over an existing package or file.
    #[test]
    fn a_non_empty_directory_is_refused() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("definition.json"), "{}").unwrap();
        let err = init(t.path(), "edge.example.com", "EdgeCache", None).unwrap_err();
        assert!(matches!(err, Refused::Fault(Error::Usage(ref m)) if m.contains("is not empty")));
        assert_eq!(
            std::fs::read(t.path().join("definition.json")).unwrap(),
            b"{}"
        );
        // Near miss: an existing empty directory is used.
        let empty = tempfile::tempdir().unwrap();
        init(empty.path(), "edge.example.com", "EdgeCache", None).unwrap();
        assert!(empty.path().join("package-index.json").is_file());
    }
}
