//! `form-package index DIR`: write (or `--check`) an author's
//! `package-index.json`.
//!
//! Every file below DIR except the index is listed, sorted byte-wise by
//! path, with its size and the `sha256:` digest of its raw bytes
//! (`verifier-rules.md` §1.5–§1.7, §2.3). A file already listed keeps its
//! media type; a new one gets the type its extension implies (`.json` →
//! `application/json`, `.md`/`.markdown` → `text/markdown`, `.txt` →
//! `text/plain`; the definition keeps the definition type); a file no
//! allowed type fits is refused. `formRef` is recomputed from the
//! definition: `apiVersion`, `kind`, `definitionVersion` and `schemaDigest`
//! (SHA-256 of its RFC 8785 form). The existing index's `apiVersion`,
//! `packageVersion` and `definitionPath` are kept; a new index takes
//! `--profile`, or the profile the definition's `apiVersion` implies
//! ([`profile_for_definition`]). The file is written atomically (temporary
//! file, then rename). Nothing is written when the directory holds
//! something `verify` refuses at the file-system level (links, FIFOs,
//! executables, bad names) or when the new index would not satisfy its
//! profile's published schema.

use crate::diag::escape::quote;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Map, Value};

use crate::canonical::{canonicalize, sha256_digest};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::error::{Error, Refused};
use crate::fsread;
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::package::{is_json_media_type, DEFINITION_MEDIA_TYPE, INDEX_FILE};
use crate::profile::{self, IndexProfile};
use crate::schemas;
use crate::source::PackageSource;

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
    /// What differs, one line each (`added fixtures/x.json`, `changed
    /// definition.json (size, digest)`, `formRef.schemaDigest`, …).
    pub changes: Vec<String>,
    /// The index profile written and why it was chosen.
    pub profile: ProfileChoice,
}

/// Where the profile of a new index came from (`index` prints it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfileSource {
    /// `--profile`.
    Flag,
    /// The existing `package-index.json`'s `apiVersion`.
    Existing,
    /// The definition's `apiVersion` ([`profile_for_definition`]).
    Definition(String),
    /// No definition `apiVersion` to go by: the current profile.
    Default,
}

/// The index profile `index` writes and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileChoice {
    /// The index `apiVersion` (`packages.forms.takoform.com/v1alpha5`).
    pub api_version: String,
    /// Why it is this one.
    pub source: ProfileSource,
}

impl ProfileChoice {
    /// Why this profile, in a phrase: `asked for with --profile`, `kept
    /// from the existing package-index.json`, `the definition's apiVersion
    /// "edge.forms.takoform.com" is a versionless group (the current
    /// profile)`.
    pub fn why(&self) -> String {
        match &self.source {
            ProfileSource::Flag => "asked for with --profile".to_owned(),
            ProfileSource::Existing => "kept from the existing package-index.json".to_owned(),
            ProfileSource::Default => {
                "the current profile (the definition has no apiVersion string)".to_owned()
            }
            ProfileSource::Definition(api) => {
                let api_shown = Value::from(api.as_str());
                if profile::legacy_lane(api).is_some() {
                    format!("the definition's apiVersion {api_shown} is a Legacy lane")
                } else if api.contains('/') {
                    format!(
                        "the definition's apiVersion {api_shown} is a versioned group (the retained-beta profile; a versionless group gets {})",
                        IndexProfile::V1alpha5.api_version()
                    )
                } else {
                    format!("the definition's apiVersion {api_shown} is a versionless group (the current profile)")
                }
            }
        }
    }
}

/// The existing index, if any, as the parts a rebuild keeps.
struct Previous {
    value: Option<Value>,
    media_types: BTreeMap<String, Value>,
    definition_path: String,
}

/// Builds the index for `dir`. `profile` (`index --profile`): the index
/// `apiVersion` to write, over the existing index's; without it the
/// existing index's, else the one the definition's lane gets
/// ([`profile_for_definition`]). A profile asked for must fit the
/// definition (FD120/FD121, as `verify` checks it), and index v1alpha1
/// needs an existing `packageVersion` (FD101).
///
/// # Errors
/// [`Refused::Findings`]: what makes the directory unindexable (file-system
/// refusals, a file no media type fits, an unreadable or unparsable
/// definition, an index that would not satisfy its profile's schema);
/// [`Refused::Fault`]: an internal fault.
pub fn build(dir: &Path, profile: Option<&str>) -> Result<Indexed, Refused> {
    build_with(dir, profile, true, None)
}

/// [`build`] of a new index of profile v1alpha1, whose `packageVersion`
/// (the release's artifact id, which `index` cannot know) is given: what
/// `init --profile packages.forms.takoform.com/v1alpha1` writes. An
/// existing index's `packageVersion` still wins.
///
/// # Errors
/// As [`build`].
pub fn build_release(
    dir: &Path,
    profile: Option<&str>,
    package_version: &str,
) -> Result<Indexed, Refused> {
    build_with(dir, profile, true, Some(package_version))
}

/// [`build`] without the content and index-schema checks: for tests and
/// tools that deliberately index a package `verify` must refuse (a payload
/// that is not I-JSON, a definition moved to another lane), so that the one
/// intended fault is all that is wrong with it.
///
/// # Errors
/// As [`build`], less the schema check.
pub fn build_lenient(dir: &Path, profile: Option<&str>) -> Result<Indexed, Refused> {
    build_with(dir, profile, false, None)
}

fn build_with(
    dir: &Path,
    profile: Option<&str>,
    strict_checks: bool,
    package_version: Option<&str>,
) -> Result<Indexed, Refused> {
    let root = fsread::open_root(dir).map_err(|d| vec![d])?;
    // Neither an index nor a definition: no package to index, said before
    // the inventory walks the directory (`index /` would walk the whole
    // file system first, T3 C10).
    if [INDEX_FILE, "definition.json"]
        .iter()
        .all(|f| std::fs::symlink_metadata(dir.join(f)).is_err())
    {
        return Err(no_definition("definition.json"));
    }
    build_from(&root, profile, strict_checks, package_version)
}

/// [`build`] over the files `source` gives, with every check `index`
/// makes: what `index` would write for a package held in memory (the
/// language server's "update package-index.json" from the editor's
/// buffers). The caller refuses what the memory source cannot show (the
/// disk's inventory findings), as [`build`] refuses them.
///
/// # Errors
/// As [`build`].
pub fn build_source(source: &dyn PackageSource, profile: Option<&str>) -> Result<Indexed, Refused> {
    build_from(source, profile, true, None)
}

/// [`build_lenient`] over the files `source` gives (a package held in
/// memory: `check FILE` indexes a lone definition and its fixtures so).
///
/// # Errors
/// As [`build_lenient`].
pub fn build_lenient_source(
    source: &dyn PackageSource,
    profile: Option<&str>,
) -> Result<Indexed, Refused> {
    build_from(source, profile, false, None)
}

/// The index of the files `root` gives (see [`build`]).
fn build_from(
    root: &dyn PackageSource,
    profile: Option<&str>,
    strict_checks: bool,
    package_version: Option<&str>,
) -> Result<Indexed, Refused> {
    let inventory = root.inventory();
    if !inventory.diagnostics.is_empty() {
        return Err(inventory.diagnostics.into());
    }
    let previous = previous(root, inventory.has_index)?;
    let mut files = Vec::new();
    let mut definition = None;
    let mut refused = Vec::new();
    for e in inventory.files.iter().filter(|e| e.rel != INDEX_FILE) {
        let bytes = root
            .read(&e.rel, fsread::PAYLOAD_LIMIT, Some(&e.meta))
            .map_err(|d| vec![d])?;
        // A name no index schema admits can never be listed: said of the
        // file, as `verify` says it (FD018), not of an index entry that
        // exists only in the index being built (issue 22 item 10).
        if !crate::package::listable_path(&e.rel) {
            refused.push(
                Diagnostic::new(
                    Code::UnlistedFile,
                    format!("{} cannot be listed in a package index: a package path holds only ASCII letters, digits, '.', '_', '-' and '/'", quote(&e.rel)),
                )
                .in_file(e.rel.clone())
                .help(crate::package::UNLISTABLE_HELP),
            );
            continue;
        }
        let media = match previous.media_types.get(&e.rel) {
            Some(t) => t.clone(),
            None if e.rel == previous.definition_path => json!(DEFINITION_MEDIA_TYPE),
            None => match infer_media_type(&e.rel) {
                Some(t) => json!(t),
                None => {
                    refused.push(
                        Diagnostic::new(
                            Code::UnsupportedMediaType,
                            format!("{} has no allowed media type (.json, .md, .markdown or .txt)", quote(&e.rel)),
                        )
                        .in_file(e.rel.clone())
                        .help("remove the file from the package directory, or give it a data extension"),
                    );
                    continue;
                }
            },
        };
        // Content `verify` would refuse is refused here too: JSON payloads
        // must be strict I-JSON with a container at the top, text payloads
        // UTF-8 without NUL.
        let media_type = media.as_str().unwrap_or_default();
        if is_json_media_type(media_type) {
            // A document the source's builder already parsed (`check
            // FILE`'s definition held in memory): that parse, not another.
            let parsed = match root.parsed(&e.rel) {
                Some(done) => Ok(done.parsed.value.clone()),
                None => strict::parse_value(&bytes),
            };
            match parsed {
                Ok(value) => match crate::canonical::check(&value) {
                    Err(d) if strict_checks => refused.push(d.in_file(e.rel.clone())),
                    _ if e.rel == previous.definition_path => definition = Some(value),
                    _ => {}
                },
                Err(err) if strict_checks || e.rel == previous.definition_path => {
                    refused.push(err.to_payload_diagnostic().in_file(e.rel.clone()))
                }
                Err(_) => {}
            }
        } else if strict_checks && (std::str::from_utf8(&bytes).is_err() || bytes.contains(&0)) {
            refused.push(
                Diagnostic::new(
                    Code::InvalidTextPayload,
                    format!(
                        "text payload {} must be valid UTF-8 without NUL bytes",
                        quote(&e.rel)
                    ),
                )
                .in_file(e.rel.clone()),
            );
        }
        files.push(json!({"digest": sha256_digest(&bytes), "mediaType": media, "path": e.rel, "size": bytes.len()}));
    }
    // A fixture path the definition names must be a file of the package
    // (issue 14 item 3): an index listing it cannot be written.
    if strict_checks {
        if let Some(def) = &definition {
            for (at, path) in crate::fixtures::named_fixture_paths(def) {
                if !inventory.files.iter().any(|e| e.rel == path) {
                    refused.push(
                        Diagnostic::new(
                            Code::FixtureFileMissing,
                            format!(
                                "fixture file {} does not exist in the package",
                                quote(&path)
                            ),
                        )
                        .in_file(previous.definition_path.clone())
                        .at(at),
                    );
                }
            }
        }
    }
    if !refused.is_empty() {
        return Err(refused.into());
    }
    files.sort_by(|a, b| path_of(a).as_bytes().cmp(path_of(b).as_bytes()));
    let mut form_ref = Map::new();
    if let Some(def) = &definition {
        for m in ["apiVersion", "definitionVersion", "kind"] {
            form_ref.insert(m.into(), def.get(m).cloned().unwrap_or(Value::Null));
        }
        let canonical =
            canonicalize(def).map_err(|d| vec![d.in_file(previous.definition_path.clone())])?;
        form_ref.insert("schemaDigest".into(), json!(sha256_digest(&canonical)));
    }
    let inferred = definition
        .as_ref()
        .and_then(|d| d.get("apiVersion"))
        .and_then(Value::as_str)
        .map(|a| profile_for_definition(a).api_version());
    let old = previous.value.as_ref();
    // `--profile` wins over the existing index's profile (T1 C7: it was
    // ignored when an index existed, and `--check --profile` then said "up
    // to date" of an index of another profile).
    let definition_api = definition
        .as_ref()
        .and_then(|d| d.get("apiVersion"))
        .and_then(Value::as_str);
    let choice = match (profile, old.and_then(|o| o.get("apiVersion")), &inferred) {
        (Some(p), _, _) => ProfileChoice {
            api_version: p.to_owned(),
            source: ProfileSource::Flag,
        },
        (None, Some(v), _) => ProfileChoice {
            // A non-string apiVersion is refused by the index schema (FD100).
            api_version: v.as_str().map_or_else(|| v.to_string(), str::to_owned),
            source: ProfileSource::Existing,
        },
        (None, None, Some(i)) => ProfileChoice {
            api_version: i.clone(),
            source: ProfileSource::Definition(definition_api.unwrap_or_default().to_owned()),
        },
        (None, None, None) => ProfileChoice {
            api_version: IndexProfile::V1alpha5.api_version(),
            source: ProfileSource::Default,
        },
    };
    let api = match (profile, old.and_then(|o| o.get("apiVersion"))) {
        (None, Some(v)) => v.clone(),
        _ => json!(choice.api_version),
    };
    let legacy =
        api.as_str().and_then(IndexProfile::from_api_version) == Some(IndexProfile::V1alpha1);
    let mut index = Map::new();
    index.insert("apiVersion".into(), api);
    index.insert("definitionPath".into(), json!(previous.definition_path));
    index.insert("files".into(), Value::Array(files));
    index.insert("formRef".into(), Value::Object(form_ref));
    index.insert("kind".into(), json!("FormPackage"));
    // `packageVersion` is the artifact id of index v1alpha1 only (required
    // there, forbidden after it, verifier-rules.md §2.6): kept from the
    // existing index when the profile stays v1alpha1, dropped otherwise.
    match old
        .and_then(|o| o.get("packageVersion"))
        .cloned()
        .or_else(|| package_version.map(|v| json!(v)))
    {
        Some(v) if legacy => {
            index.insert("packageVersion".into(), v);
        }
        None if legacy && strict_checks => {
            return Err(vec![Diagnostic::new(
                Code::IndexSchemaViolation,
                format!(
                    "package index: profile {} needs packageVersion (the release's artifact id), which index cannot know{}",
                    IndexProfile::V1alpha1.api_version(),
                    inferred
                        .as_deref()
                        .map(|i| format!("; without --profile, index writes {i}"))
                        .unwrap_or_default()
                ),
            )
            .in_file(INDEX_FILE)
            .help("keep an existing v1alpha1 index (its packageVersion is kept), or write a later profile")]
            .into());
        }
        _ => {}
    }
    let index = Value::Object(index);
    if strict_checks {
        if definition.is_none()
            && !inventory
                .files
                .iter()
                .any(|e| e.rel == previous.definition_path)
        {
            return Err(no_definition(&previous.definition_path));
        }
        // Every finding in one run, each in the file the author edits: the
        // definition against the profile's definition schema (a typo in
        // `kind` or `definitionVersion` is a definition finding, not one
        // of an index not yet written), the index schema, then every limit
        // `verify` applies to the index (issue 22 item 6).
        let def_path = previous.definition_path.as_str();
        let mut findings = match &definition {
            Some(def) => check_lane(
                &choice,
                inferred.as_deref(),
                def,
                def_path,
                Some(root.path()),
            )?,
            None => Vec::new(),
        };
        let definition_fits = findings.is_empty();
        for d in check_schema(&index)? {
            // A formRef member is a copy of the definition's: when the
            // definition already has findings, this one is their echo.
            if d.pointer.as_str().starts_with("/formRef/") && !definition_fits {
                continue;
            }
            findings.push(relocate(d, &index, def_path));
        }
        findings.extend(
            crate::checks::limit_findings(&index)
                .into_iter()
                .map(|d| relocate(d, &index, def_path)),
        );
        if !findings.is_empty() {
            return Err(findings.into());
        }
    }
    let changes = match old {
        Some(o) => differences(o, &index),
        None => vec!["new package-index.json".to_owned()],
    };
    let drift = match old {
        Some(o) => canonicalize(o).ok() != canonicalize(&index).ok(),
        None => true,
    };
    let mut bytes = serde_json::to_vec_pretty(&index).unwrap_or_default();
    bytes.push(b'\n');
    Ok(Indexed {
        index,
        bytes,
        drift,
        changes,
        profile: choice,
    })
}

fn previous(root: &dyn PackageSource, has_index: bool) -> Result<Previous, Vec<Diagnostic>> {
    let value: Option<Value> = if has_index {
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
    let media_types = value
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
    let definition_path = value
        .as_ref()
        .and_then(|o| o.get("definitionPath"))
        .and_then(Value::as_str)
        .unwrap_or("definition.json")
        .to_owned();
    Ok(Previous {
        value,
        media_types,
        definition_path,
    })
}

fn path_of(entry: &Value) -> &str {
    entry.get("path").and_then(Value::as_str).unwrap_or("")
}

/// FD118: there is no Form Definition (`definition_path`) to index.
fn no_definition(definition_path: &str) -> Refused {
    vec![Diagnostic::new(
        Code::DefinitionPathUnlisted,
        format!("no Form Definition to index: {} is not a file of the package", quote(definition_path)),
    )
    .in_file(INDEX_FILE)
    .help("write the Form Definition as definition.json in the package directory, then run index again")]
    .into()
}

/// The definition must be one that can live under the index profile
/// `index` chose (asked for, kept or inferred, `choice`): its `apiVersion`
/// must have a definition schema in that profile's family and satisfy it,
/// the check `verify` makes as FD120 / FD121, so that `index` never writes
/// an index `verify` then refuses for its profile (T1 C7, issue 26 item 2).
/// Findings are in the definition (`definition_path`), and name the likely
/// fix: a current-profile definition written with a versioned group (the
/// habitual `edge.forms.takoform.com/v1`) is told to drop the version; a
/// definition that fits the profile its `apiVersion` implies (`inferred`)
/// but not the one asked for or kept is told which profile it fits, and
/// the command to run on the package's real path (`dir`, escaped; `None`
/// for a lone definition).
///
/// # Errors
/// [`Refused::Fault`] when an embedded schema is broken.
fn check_lane(
    choice: &ProfileChoice,
    inferred: Option<&str>,
    definition: &Value,
    definition_path: &str,
    dir: Option<&Path>,
) -> Result<Vec<Diagnostic>, Refused> {
    let Some(p) = IndexProfile::from_api_version(&choice.api_version) else {
        // An unknown profile: the index schema check says so (FD100).
        return Ok(Vec::new());
    };
    let profile = choice.api_version.as_str();
    let api = definition
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let at_api = JsonPointer::root().child("apiVersion");
    let under = format!(
        "under index {profile}, {}",
        match choice.source {
            ProfileSource::Flag => "asked for with --profile",
            ProfileSource::Existing => "the existing index's profile",
            ProfileSource::Definition(_) => "the profile its apiVersion implies",
            ProfileSource::Default => "the current profile",
        }
    );
    let fits = |family: crate::profile::Family, def: &Value| -> Result<Option<bool>, Refused> {
        let api = def.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        match profile::definition_schema(api, family) {
            None => Ok(None),
            Some(schema) => Ok(Some(
                schemas::validate(schema, def)
                    .map_err(Error::Internal)?
                    .is_empty(),
            )),
        }
    };
    let Some(schema) = profile::definition_schema(api, p.family()) else {
        return Ok(vec![Diagnostic::new(
            Code::UnsupportedDefinitionApiVersion,
            format!("a Form Definition of apiVersion {} cannot live {under}", quote(api)),
        )
        .in_file(definition_path)
        .at(at_api)
        .help("write a Legacy lane (forms.takoform.com/v1alpha1 or v1alpha2) or a namespaced group (\"edge.forms.takoform.com\"), then run index again")]);
    };
    let violations = schemas::validate(schema, definition).map_err(Error::Internal)?;
    if violations.is_empty() {
        return Ok(Vec::new());
    }
    // The habitual group: a versioned group on a definition that is a
    // current-profile (v1) definition in every other respect.
    if profile::legacy_lane(api).is_none()
        && api.contains('/')
        && profile::namespaced_form_group(api)
    {
        let group = api.split('/').next().unwrap_or(api);
        let mut versionless = definition.clone();
        if let Some(o) = versionless.as_object_mut() {
            o.insert("apiVersion".into(), json!(group));
        }
        if fits(crate::profile::Family::CurrentNeutral, &versionless)? == Some(true) {
            return Ok(vec![Diagnostic::new(
                Code::DefinitionSchemaViolation,
                format!("Form Definition: apiVersion {} carries a group version, but the rest of this definition is written for the current profile, whose groups are versionless ({under})", quote(api)),
            )
            .in_file(definition_path)
            .at(at_api)
            .help(format!("write \"apiVersion\": {} (a versionless group: index then writes {}), then run index again", quote(group), IndexProfile::V1alpha5.api_version()))]);
        }
    }
    // Asked for or kept, but the definition fits the profile its own
    // apiVersion implies.
    let instead = match (&choice.source, inferred) {
        (ProfileSource::Flag | ProfileSource::Existing, Some(i)) if i != profile => {
            let family = IndexProfile::from_api_version(i).map(IndexProfile::family);
            match family {
                Some(f) if fits(f, definition)? == Some(true) => Some(i),
                _ => None,
            }
        }
        _ => None,
    };
    let mut diags = schemas::to_diagnostics(
        violations,
        Code::DefinitionSchemaViolation,
        definition_path,
        "Form Definition",
    );
    for d in &mut diags {
        d.message.push_str(&format!(" ({under})"));
        if let Some(i) = instead {
            d.help = Some(match choice.source {
                ProfileSource::Flag => format!(
                    "this definition fits {i}, the profile its apiVersion implies: run index without --profile"
                ),
                _ => match dir {
                    Some(dir) => format!(
                        "this definition fits {i}, the profile its apiVersion implies: run `form-package index --profile {i} {}`",
                        crate::diag::escape::text(&dir.display().to_string())
                    ),
                    None => format!(
                        "this definition fits {i}, the profile its apiVersion implies: index its package with `--profile {i}`"
                    ),
                },
            });
        }
    }
    Ok(diags)
}

/// The index schema's findings for the index `index` would write (never
/// written when there are any). FD100 for a profile no schema has.
///
/// # Errors
/// [`Refused::Fault`] when an embedded schema is broken.
fn check_schema(index: &Value) -> Result<Vec<Diagnostic>, Refused> {
    let api = index
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some(profile) = IndexProfile::from_api_version(api) else {
        return Ok(vec![Diagnostic::new(
            Code::UnsupportedIndexApiVersion,
            format!("package index: unsupported apiVersion {}", quote(api)),
        )
        .in_file(INDEX_FILE)
        .at(JsonPointer::root().child("apiVersion"))
        .help(format!(
            "pass --profile with one of {} to replace it",
            profile::api_versions().join(", ")
        ))]);
    };
    match schemas::validate(profile.index_schema(), index) {
        Ok(v) => Ok(schemas::to_diagnostics(
            v,
            Code::IndexSchemaViolation,
            INDEX_FILE,
            "package index",
        )),
        Err(e) => Err(Refused::Fault(Error::Internal(e))),
    }
}

/// Moves a finding about the index `index` is about to write (and so
/// never the file to edit) to the file the author must edit: an entry
/// `/files/N/…` to the file it lists, `/files` to the package directory,
/// `/formRef/M` to the definition's member `M` (issue 22 item 10, issue
/// 26 item 2). Anything else stays where it is.
fn relocate(mut d: Diagnostic, index: &Value, definition_path: &str) -> Diagnostic {
    let tokens = d.pointer.tokens();
    let mut tokens = tokens.iter().map(String::as_str);
    match (tokens.next(), tokens.next()) {
        (Some("files"), None) => {
            d.file = None;
            d.pointer = JsonPointer::root();
        }
        (Some("files"), Some(n)) => {
            let listed = n
                .parse::<usize>()
                .ok()
                .and_then(|n| index.get("files")?.get(n)?.get("path")?.as_str());
            if let Some(path) = listed {
                d.file = Some(path.to_owned());
                d.pointer = JsonPointer::root();
                d.target = Default::default();
            }
        }
        (Some("formRef"), Some(member)) => {
            d.message = d.message.replacen(
                "package index:",
                &format!("the definition's {member} (copied into the package index's formRef):"),
                1,
            );
            d.file = Some(definition_path.to_owned());
            d.pointer = JsonPointer::root().child(member);
            d.target = Default::default();
            d.help = Some("fix the definition, then run index again".to_owned());
        }
        _ => {}
    }
    d
}

/// Writes `indexed` to `dir/package-index.json` atomically
/// ([`crate::fswrite::replace`]: a temporary file created new in `dir`,
/// never through a link planted there, renamed over it). The temporary
/// file is removed on every failure path: left behind, it would be a file
/// of the package that no index lists (FD115 on the next run).
///
/// # Errors
/// The I/O error of writing or renaming.
pub fn write(dir: &Path, indexed: &Indexed) -> std::io::Result<()> {
    crate::fswrite::replace(&dir.join(INDEX_FILE), &indexed.bytes)
}

pub use crate::package::infer_media_type;

/// The FormRef a package index would carry for `definition` (issue 36
/// item 14, `digest --form-ref`): its `apiVersion`, `definitionVersion`,
/// `kind` and the RFC 8785 `schemaDigest`, after the definition was checked
/// against the definition schema of the profile its `apiVersion` implies
/// ([`profile_for_definition`]), as `index` checks it before writing;
/// with that profile.
///
/// # Errors
/// [`Refused::Findings`] in `definition_path` when the definition does not
/// fit its profile or has no canonical form; [`Refused::Fault`] when an
/// embedded schema does not build.
pub fn form_ref_of(
    definition: &Value,
    definition_path: &str,
) -> Result<(Value, ProfileChoice), Refused> {
    let api = definition
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let choice = ProfileChoice {
        api_version: profile_for_definition(api).api_version(),
        source: ProfileSource::Definition(api.to_owned()),
    };
    let refused = check_lane(
        &choice,
        Some(&choice.api_version),
        definition,
        definition_path,
        None,
    )?;
    if !refused.is_empty() {
        return Err(refused.into());
    }
    let canonical = canonicalize(definition).map_err(|d| vec![d.in_file(definition_path)])?;
    let mut form_ref = Map::new();
    for m in ["apiVersion", "definitionVersion", "kind"] {
        form_ref.insert(m.into(), definition.get(m).cloned().unwrap_or(Value::Null));
    }
    form_ref.insert("schemaDigest".into(), json!(sha256_digest(&canonical)));
    Ok((Value::Object(form_ref), choice))
}

pub use crate::profile::profile_for_definition;

/// Human-readable differences between an old and a new index.
fn differences(old: &Value, new: &Value) -> Vec<String> {
    let entries = |v: &Value| -> BTreeMap<String, Value> {
        v.get("files")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|f| (path_of(f).to_owned(), f.clone()))
            .collect()
    };
    let (a, b) = (entries(old), entries(new));
    let mut out = Vec::new();
    for (path, f) in &b {
        match a.get(path) {
            None => out.push(format!("added {path}")),
            Some(g) if g != f => {
                let what: Vec<&str> = ["mediaType", "size", "digest"]
                    .into_iter()
                    .filter(|k| f.get(*k) != g.get(*k))
                    .collect();
                out.push(format!("changed {path} ({})", what.join(", ")));
            }
            Some(_) => {}
        }
    }
    for path in a.keys().filter(|p| !b.contains_key(*p)) {
        out.push(format!("removed {path}"));
    }
    for m in ["apiVersion", "kind", "definitionVersion", "schemaDigest"] {
        if old.get("formRef").and_then(|r| r.get(m)) != new.get("formRef").and_then(|r| r.get(m)) {
            out.push(format!("formRef.{m}"));
        }
    }
    if old.get("definitionPath") != new.get("definitionPath") {
        out.push("definitionPath".to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_and_profiles_are_inferred() {
        assert_eq!(infer_media_type("a/b.JSON"), Some("application/json"));
        assert_eq!(infer_media_type("README.markdown"), Some("text/markdown"));
        assert_eq!(infer_media_type("notes.txt"), Some("text/plain"));
        assert_eq!(infer_media_type("blob.bin2"), None);
        assert_eq!(infer_media_type(".DS_Store"), None);
        assert_eq!(
            profile_for_definition("forms.takoform.com/v1alpha1"),
            IndexProfile::V1alpha2
        );
        assert_eq!(
            profile_for_definition("forms.takoform.com/v1alpha2"),
            IndexProfile::V1alpha3
        );
        assert_eq!(
            profile_for_definition("edge.forms.takoform.com/v1beta1"),
            IndexProfile::V1alpha4
        );
        assert_eq!(
            profile_for_definition("edge.forms.takoform.com"),
            IndexProfile::V1alpha5
        );
    }

    fn package(from: &str) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages")
            .join(from);
        for e in walkdir::WalkDir::new(&src) {
            let e = e.unwrap();
            let to = t.path().join(e.path().strip_prefix(&src).unwrap());
            if e.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else {
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
        t
    }

    fn codes(r: Result<Indexed, Refused>) -> Vec<&'static str> {
        match r {
            Err(Refused::Findings(d)) => d.iter().map(|d| d.code.info().id).collect(),
            Err(Refused::Fault(e)) => panic!("{e}"),
            Ok(i) => vec![if i.drift { "drift" } else { "same" }],
        }
    }

    /// T1 C7/C15: `--profile` wins over the existing index's profile and
    /// must fit the definition; v1alpha1 needs a packageVersion index
    /// cannot invent.
    #[test]
    fn a_profile_asked_for_is_written_or_refused_never_ignored() {
        let t = package("v1alpha1/example-store-1.0.0-f486d5e31632");
        let dir = t.path();
        let v = |p: &str| format!("packages.forms.takoform.com/{p}");
        assert_eq!(codes(build(dir, None)), ["same"]);
        assert_eq!(codes(build(dir, Some(&v("v1alpha1")))), ["same"]);
        // Another profile is a change (it was "up to date"), and drops
        // packageVersion, which only v1alpha1 carries.
        let moved = build(dir, Some(&v("v1alpha2"))).unwrap();
        assert!(moved.drift);
        assert_eq!(moved.index["apiVersion"], v("v1alpha2"));
        assert!(moved.index.get("packageVersion").is_none());
        write(dir, &moved).unwrap();
        // Back to v1alpha1: no packageVersion to keep.
        assert_eq!(codes(build(dir, Some(&v("v1alpha1")))), ["FD101"]);
        // A profile whose index schema refuses the Legacy FormRef.
        assert_eq!(codes(build(dir, Some(&v("v1alpha5")))), ["FD101"]);
        // Near miss: without --profile the existing index's profile stays.
        assert_eq!(codes(build(dir, None)), ["same"]);
        // A v1beta1 definition (index v1alpha4) under the current profile:
        // its index is valid, the definition does not fit the lane (what
        // `verify` would then refuse as FD121).
        let t = package("v1beta1/object-bucket-0.1.0-553675391d88");
        let refused = codes(build(t.path(), Some(&v("v1alpha5"))));
        assert!(
            !refused.is_empty() && refused.iter().all(|c| *c == "FD121"),
            "{refused:?}"
        );
        assert_eq!(codes(build(t.path(), Some(&v("v1alpha4")))), ["same"]);
    }

    /// A current-profile package written by hand: one closed desired
    /// schema, one positive and one negative fixture, no index.
    fn authored(api: &str, kind: &str, version: &str) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let def = json!({
            "apiVersion": api, "kind": kind, "definitionVersion": version,
            "title": "Edge cache", "role": "identity",
            "requiresHostApi": "forms.takoform.com/v1",
            "desiredSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "additionalProperties": false, "required": ["name"],
                "properties": {"name": {"type": "string", "minLength": 1}}},
            "lifecycleCapabilities": ["create", "delete"],
            "conformanceFixtures": [{"name": "canonical", "desiredPath": "fixtures/desired.json"}],
            "negativeConformanceFixtures": [{"name": "reject-empty-name", "stage": "desired",
                "inputPath": "fixtures/negative-empty.json", "expectedFailure": "schema_validation_failed"}]
        });
        std::fs::create_dir(t.path().join("fixtures")).unwrap();
        std::fs::write(
            t.path().join("definition.json"),
            serde_json::to_vec_pretty(&def).unwrap(),
        )
        .unwrap();
        std::fs::write(t.path().join("fixtures/desired.json"), "{\"name\":\"x\"}").unwrap();
        std::fs::write(
            t.path().join("fixtures/negative-empty.json"),
            "{\"name\":\"\"}",
        )
        .unwrap();
        t
    }

    fn findings(r: Result<Indexed, Refused>) -> Vec<Diagnostic> {
        match r {
            Err(Refused::Findings(d)) => d,
            Err(Refused::Fault(e)) => panic!("{e}"),
            Ok(i) => panic!("indexed: {}", String::from_utf8_lossy(&i.bytes)),
        }
    }

    /// Issue 26 item 2: the habitual versioned group on a current-profile
    /// definition is refused by default and with `--profile` alike, at
    /// `/apiVersion` of the definition, naming the versionless group.
    #[test]
    fn a_versioned_group_on_a_current_definition_names_the_versionless_group() {
        let t = authored("edge.forms.takoform.com/v1", "EdgeCache", "0.1.0");
        let v5 = IndexProfile::V1alpha5.api_version();
        for asked in [None, Some(v5.as_str())] {
            let d = findings(build(t.path(), asked));
            assert_eq!(d.len(), 1, "{d:?}");
            assert_eq!(d[0].code, Code::DefinitionSchemaViolation);
            assert_eq!(d[0].file.as_deref(), Some("definition.json"));
            assert_eq!(d[0].pointer.as_str(), "/apiVersion");
            let help = d[0].help.as_deref().unwrap();
            assert!(
                help.contains("\"apiVersion\": \"edge.forms.takoform.com\""),
                "{help}"
            );
        }
        // Near miss: the versionless group is indexed under v1alpha5, and
        // says why.
        let t = authored("edge.forms.takoform.com", "EdgeCache", "0.1.0");
        let i = build(t.path(), None).unwrap();
        assert_eq!(i.profile.api_version, v5);
        assert_eq!(
            i.profile.source,
            ProfileSource::Definition("edge.forms.takoform.com".into())
        );
        assert!(
            i.profile.why().contains("versionless group"),
            "{}",
            i.profile.why()
        );
        write(t.path(), &i).unwrap();
        let again = build(t.path(), None).unwrap();
        assert_eq!(again.profile.source, ProfileSource::Existing);
        assert!(!again.drift);
        let asked = build(t.path(), Some(&v5)).unwrap();
        assert_eq!(asked.profile.source, ProfileSource::Flag);
    }

    /// Issue 26 item 2: a `definitionVersion` or `kind` typo is a finding
    /// of the definition at its own member, in plain words, never FD101 in
    /// an index not yet written.
    #[test]
    fn definition_typos_are_found_in_the_definition_in_plain_words() {
        for (version, kind, at, words) in [
            ("v0.2", "EdgeCache", "/definitionVersion", "is not a SemVer 2.0.0 version: write MAJOR.MINOR.PATCH (no leading \"v\"), e.g. \"0.2.0\""),
            ("0.1.0", "edge-cache", "/kind", "is not a Form kind: a kind starts with an uppercase ASCII letter and holds only ASCII letters and digits, at most 64, e.g. \"EdgeCache\""),
        ] {
            let t = authored("edge.forms.takoform.com", kind, version);
            let d = findings(build(t.path(), None));
            assert_eq!(d.len(), 1, "{d:?}");
            assert_eq!(d[0].code, Code::DefinitionSchemaViolation);
            assert_eq!(d[0].file.as_deref(), Some("definition.json"));
            assert_eq!(d[0].pointer.as_str(), at);
            assert!(d[0].message.contains(words), "{}", d[0].message);
            assert!(!t.path().join(INDEX_FILE).exists());
        }
        // Near miss: "0.2.0" and "EdgeCache" index.
        let t = authored("edge.forms.takoform.com", "EdgeCache", "0.2.0");
        assert_eq!(codes(build(t.path(), None)), ["drift"]);
    }

    /// Issue 22 item 6: `index` refuses what `verify` refuses for its
    /// limits, with verify's code, in the file to edit.
    #[test]
    fn index_applies_the_limits_verify_applies() {
        let t = authored("edge.forms.takoform.com", "EdgeCache", "0.1.0");
        // 1022 more files: 1025 entries, 1026 files with the index.
        for i in 0..1022 {
            std::fs::write(t.path().join(format!("fixtures/f{i}.json")), "{}").unwrap();
        }
        let d = findings(build(t.path(), None));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, Code::TooManyFiles);
        assert_eq!(d[0].file, None);
        // Near miss: 1024 entries is the limit.
        std::fs::remove_file(t.path().join("fixtures/f0.json")).unwrap();
        assert_eq!(codes(build(t.path(), None)), ["drift"]);

        // A definition of 4 MiB + 1 byte (a long but valid description).
        let t = authored("edge.forms.takoform.com", "EdgeCache", "0.1.0");
        let path = t.path().join("definition.json");
        let grow = |extra: usize| {
            let mut def: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            def["desiredSchema"]["properties"]["name"]["enum"] = json!(["x"]);
            def["desiredSchema"]["properties"]["name"]["description"] = json!("");
            let base = serde_json::to_vec(&def).unwrap().len();
            let pad = (fsread::DEFINITION_LIMIT as usize + extra) - base;
            def["desiredSchema"]["properties"]["name"]["description"] = json!("d".repeat(pad));
            let bytes = serde_json::to_vec(&def).unwrap();
            assert_eq!(bytes.len(), fsread::DEFINITION_LIMIT as usize + extra);
            std::fs::write(&path, bytes).unwrap();
        };
        grow(1);
        let d = findings(build(t.path(), None));
        assert_eq!(
            d.iter().map(|d| d.code).collect::<Vec<_>>(),
            [Code::DefinitionTooLarge]
        );
        assert_eq!(d[0].file.as_deref(), Some("definition.json"));
        // Near miss: exactly 4 MiB.
        grow(0);
        assert_eq!(codes(build(t.path(), None)), ["drift"]);
    }

    /// Issue 22 item 10: a name no index can list is FD018 of that file,
    /// with help that can be followed; never FD101 at `/files/N/path`.
    #[test]
    fn an_unlistable_name_is_said_of_the_file() {
        let t = authored("edge.forms.takoform.com", "EdgeCache", "0.1.0");
        std::fs::write(t.path().join("fixtures/café.json"), "{}").unwrap();
        let d = findings(build(t.path(), None));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].code, Code::UnlistedFile);
        assert_eq!(d[0].file.as_deref(), Some("fixtures/café.json"));
        let help = d[0].help.as_deref().unwrap();
        assert!(
            help.starts_with("rename it") && !help.contains("list it"),
            "{help}"
        );
        // Near miss: the ASCII name is listed.
        std::fs::rename(
            t.path().join("fixtures/café.json"),
            t.path().join("fixtures/cafe.json"),
        )
        .unwrap();
        let i = build(t.path(), None).unwrap();
        assert!(i.index["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == "fixtures/cafe.json"));
    }

    #[test]
    fn relocated_findings_name_the_file_to_edit() {
        let index = json!({"files": [{"path": "definition.json"}, {"path": "fixtures/big.json"}]});
        let at = |p: &str| {
            relocate(
                Diagnostic::new(Code::IndexSchemaViolation, "package index: x")
                    .in_file(INDEX_FILE)
                    .at(JsonPointer::parse(p).unwrap()),
                &index,
                "definition.json",
            )
        };
        let d = at("/files/1/size");
        assert_eq!(
            (d.file.as_deref(), d.pointer.as_str()),
            (Some("fixtures/big.json"), "")
        );
        let d = at("/formRef/kind");
        assert_eq!(
            (d.file.as_deref(), d.pointer.as_str()),
            (Some("definition.json"), "/kind")
        );
        assert!(
            d.message.starts_with("the definition's kind"),
            "{}",
            d.message
        );
        let d = at("/files");
        assert_eq!((d.file.as_deref(), d.pointer.as_str()), (None, ""));
        // Near miss: an index member of its own stays in the index.
        let d = at("/definitionPath");
        assert_eq!(
            (d.file.as_deref(), d.pointer.as_str()),
            (Some(INDEX_FILE), "/definitionPath")
        );
    }

    #[test]
    fn a_directory_without_a_definition_says_so() {
        let t = tempfile::tempdir().unwrap();
        assert_eq!(codes(build(t.path(), None)), ["FD118"]);
    }

    /// B3: a rename that fails (the index path is a directory) leaves no
    /// temporary file in the package.
    #[test]
    fn failed_write_removes_its_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(INDEX_FILE)).unwrap();
        let indexed = Indexed {
            index: Value::Null,
            bytes: b"{}\n".to_vec(),
            drift: false,
            changes: Vec::new(),
            profile: ProfileChoice {
                api_version: IndexProfile::V1alpha5.api_version(),
                source: ProfileSource::Default,
            },
        };
        assert!(write(dir.path(), &indexed).is_err());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from(INDEX_FILE)]);
        std::fs::remove_dir(dir.path().join(INDEX_FILE)).unwrap();
        write(dir.path(), &indexed).unwrap();
        assert_eq!(std::fs::read(dir.path().join(INDEX_FILE)).unwrap(), b"{}\n");
    }

    #[test]
    fn differences_name_each_entry() {
        let old = json!({"files": [{"path": "a.json", "size": 1, "digest": "x", "mediaType": "application/json"},
                                   {"path": "gone.json", "size": 1, "digest": "x", "mediaType": "application/json"}],
                         "formRef": {"schemaDigest": "s1"}, "definitionPath": "d.json"});
        let new = json!({"files": [{"path": "a.json", "size": 2, "digest": "y", "mediaType": "application/json"},
                                   {"path": "new.json", "size": 1, "digest": "x", "mediaType": "application/json"}],
                         "formRef": {"schemaDigest": "s2"}, "definitionPath": "d.json"});
        assert_eq!(
            differences(&old, &new),
            [
                "changed a.json (size, digest)",
                "added new.json",
                "removed gone.json",
                "formRef.schemaDigest"
            ]
        );
        assert!(differences(&old, &old).is_empty());
    }
}
