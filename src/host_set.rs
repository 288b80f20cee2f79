//! The set a host will serve, loaded and compiled as the current Core
//! compiles it ([`crate::host::snapshot`]): library code shared by
//! `snapshot` and `desired` (issue 39 items 1 and 2; an operation never
//! imports another). A module of its own beside [`crate::host`], not in
//! it: it builds the report ([`crate::report`]), which `verify` (and so
//! `host`, whose locator `verify` reports) must never import back.
//!
//! Every package is found as `verify` finds them ([`crate::discover`]; a
//! DIR may be a package or a tree, and a package given twice is given
//! twice) and verified first ([`crate::verify::verify_package_keeping_definition`]);
//! a refused package is reported with its findings, as `family` does, and
//! then nothing is compiled (the Core takes only verified packages). The
//! `--interface`/`--binding` files are read as named; each
//! `--default GROUP/KIND@VERSION` becomes the full FormRef of the one
//! verified package it names (`FD781` otherwise), or `--defaults FILE`
//! gives the pins whole. Then the compiler runs and its findings become
//! [`Diagnostic`]s of the report's set entry ([`EntryKind::Snapshot`]),
//! each located in the file it concerns (a Form's definition or index, a
//! contract file), its Core code as the `specCode` of its code. On success
//! the set entry carries the digest and the roster (its typed `summary`, whose members every
//! format prints).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::fileread::{read_file, Reach};
use crate::host::snapshot::{
    self as core, At, ContractArtifact, DefaultPin, FormRef, PackageArtifact,
};
use crate::json::pointer::JsonPointer;
use crate::json::strict;
use crate::limits::JSON_BYTES;
use crate::package::{Source, INDEX_FILE};
use crate::report::{Entry, EntryKind, ExitRule, Report};
use crate::summary::{SetStatus, SetSummary, Summary};
use crate::verify::PackageOutcome;

/// What `snapshot DIR...` was given besides the DIRs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--host-api LANE`, as given (the command line's default is
    /// [`core::SERVED_LANE`]; an empty lane is refused as the Core refuses it).
    pub host_api: String,
    /// `--interface FILE`, in order.
    pub interfaces: Vec<PathBuf>,
    /// `--binding FILE`, in order.
    pub bindings: Vec<PathBuf>,
    /// `--default GROUP/KIND@VERSION`, in order.
    pub defaults: Vec<String>,
    /// `--defaults FILE`: a JSON list of `{group, kind, ref}` pins.
    pub defaults_file: Option<PathBuf>,
    /// Pin every group+kind that no `--default` names to its highest
    /// version (SemVer precedence), as a host pins the set it serves and
    /// `snapshot-oracle --auto-defaults` does (`desired`); two packages of
    /// that version with different digests are no one pin (`FD781`).
    pub auto_defaults: bool,
}

/// What a run of `snapshot` built: the report (every format prints it)
/// and, when the set compiled, the Snapshot.
#[derive(Debug, Default)]
pub struct SetRun {
    /// One entry per package (verify's outcome), per walk finding, and one
    /// per compiled set ([`EntryKind::Snapshot`]).
    pub report: Report,
    /// The compiled Snapshot of each set, in order (`DIR...` has one set,
    /// a `--manifest` one per input), `None` where it did not compile.
    pub snapshots: Vec<(String, Option<core::Snapshot>)>,
    /// Per set, the package directories in the compiler's input order
    /// ([`core::CompiledForm::package`] indexes it).
    pub origins: Vec<Vec<String>>,
}

/// The name of the set entry of `snapshot DIR...`.
pub const SET_NAME: &str = "snapshot";

/// One verified package: its compiler artifact and the files that locate
/// the compiler's findings about it.
pub struct Loaded {
    /// The package as the compiler takes it.
    pub artifact: PackageArtifact,
    /// `<dir>/<definitionPath>` and its source.
    definition: (String, Source),
    /// `<dir>/package-index.json` and its source.
    index: (String, Source),
}

/// The packages found under `dirs`, verified: the report's entries (one
/// per package and walk finding), and the verified ones (`None` when some
/// package was refused).
pub fn verify_all(dirs: &[PathBuf]) -> (Vec<Entry>, Option<Vec<Loaded>>) {
    let mut walked =
        crate::report::walk::discover(dirs, &crate::discover::WalkRules::default(), &|_| false);
    let mut entries = walked.entries();
    let roots = walked.roots();
    let verified: Vec<_> = roots
        .par_iter()
        .map(|r| crate::verify::verify_package_keeping_definition(r))
        .collect();
    let mut loaded = Vec::new();
    let mut all = entries.is_empty();
    for v in verified {
        let crate::verify::Verified {
            outcome,
            definition,
            index,
            ..
        } = v;
        let ok = !outcome.has_errors() && outcome.fault.is_none();
        let dir = outcome.path.display().to_string();
        let usable = ok
            .then(|| {
                let mut def = definition?;
                let parsed = def.parse().ok()?;
                let (index_value, index_source) = index?;
                let form_ref = index_value.get("formRef").and_then(FormRef::decode)?;
                Some(Loaded {
                    artifact: PackageArtifact {
                        origin: dir.clone(),
                        expected_digest: outcome.package_digest.clone().unwrap_or_default(),
                        package_digest: outcome.package_digest.clone().unwrap_or_default(),
                        form_ref,
                        definition: parsed.value,
                    },
                    definition: (
                        join(&dir, &def.path),
                        Source {
                            bytes: def.bytes,
                            spans: Some(parsed.spans),
                        },
                    ),
                    index: (join(&dir, INDEX_FILE), index_source),
                })
            })
            .flatten();
        match usable {
            Some(l) => loaded.push(l),
            None => all = false,
        }
        entries.push(Entry::new(EntryKind::Package, outcome));
    }
    (entries, all.then_some(loaded))
}

/// `dir/file` as a display path.
fn join(dir: &str, file: &str) -> String {
    Path::new(dir).join(file).display().to_string()
}

/// One contract file read as named: its artifact (pinned to its own digest
/// unless `pin` is given) and its source, or the finding that it cannot be
/// read.
fn read_contract(
    path: &Path,
    pin: Option<String>,
) -> Result<(ContractArtifact, Source), Box<Diagnostic>> {
    let display = path.display().to_string();
    let bytes = read_file(path, Reach::Named, JSON_BYTES).map_err(|why| {
        Box::new(Diagnostic::new(
            Code::UnreadableFile,
            format!("read {display}: {why}"),
        ))
    })?;
    let parsed = strict::parse(&bytes).ok();
    let expected_digest = pin.unwrap_or_else(|| match &parsed {
        Some(p) => crate::canonical::canonicalize(&p.value)
            .map(|b| crate::canonical::sha256_digest(&b))
            .unwrap_or_else(|_| crate::canonical::sha256_digest(&bytes)),
        None => crate::canonical::sha256_digest(&bytes),
    });
    let source = Source {
        bytes: bytes.clone(),
        spans: parsed.map(|p| p.spans),
    };
    Ok((
        ContractArtifact {
            origin: display,
            expected_digest,
            bytes,
        },
        source,
    ))
}

/// A set ready to compile: the compiler's input and the files that locate
/// its findings.
#[derive(Default)]
pub struct Set {
    /// The compiler's input.
    pub input: core::Input,
    /// Per package: (definition file, index file).
    package_files: Vec<(String, String)>,
    /// Per Interface, per Binding: its file.
    interface_files: Vec<String>,
    binding_files: Vec<String>,
    /// Every file a finding may name, with its bytes and spans.
    sources: BTreeMap<String, Source>,
    /// Findings before the compile (a pin that matches nothing, a file that
    /// cannot be read): when there are any, nothing is compiled.
    findings: Vec<Diagnostic>,
    /// A file the user named could not be read (exit 2).
    could_not_read: bool,
    /// A package of the set was refused by verify: nothing is compiled
    /// (the Core takes only verified packages).
    pub refused: bool,
}

impl Set {
    /// Adds the verified packages.
    pub fn add_packages(&mut self, loaded: Vec<Loaded>) {
        for l in loaded {
            self.package_files
                .push((l.definition.0.clone(), l.index.0.clone()));
            self.sources.insert(l.definition.0, l.definition.1);
            self.sources.insert(l.index.0, l.index.1);
            self.input.packages.push(l.artifact);
        }
    }

    /// Adds a contract file (`binding`: a Binding, else an Interface),
    /// pinned to `pin` or to its own digest.
    pub fn add_contract(&mut self, path: &Path, pin: Option<String>, binding: bool) {
        match read_contract(path, pin) {
            Ok((artifact, source)) => {
                let file = artifact.origin.clone();
                self.sources.insert(file.clone(), source);
                if binding {
                    self.binding_files.push(file);
                    self.input.bindings.push(artifact);
                } else {
                    self.interface_files.push(file);
                    self.input.interfaces.push(artifact);
                }
            }
            Err(d) => {
                self.could_not_read = true;
                self.findings.push(*d);
            }
        }
    }

    /// `--default GROUP/KIND@VERSION`: the exact FormRef of the one
    /// verified package it names (two packages, even of one identity, are
    /// not one). `auto`: the pin is [`Options::auto_defaults`]'s, which
    /// counts exact Forms, not packages (one package given twice is one
    /// Form, left to the compiler's duplicate identity).
    fn add_default(&mut self, text: &str, auto: bool) {
        let parsed = text
            .rsplit_once('@')
            .and_then(|(gk, v)| gk.rsplit_once('/').map(|(g, k)| (g, k, v)));
        let Some((group, kind, version)) = parsed else {
            self.findings.push(Diagnostic::new(
                Code::DefaultPinUnmatched,
                format!(
                    "--default {} is not GROUP/KIND@VERSION",
                    crate::diag::escape::quote(text)
                ),
            ));
            return;
        };
        let mut matches: Vec<&FormRef> = self
            .input
            .packages
            .iter()
            .map(|p| &p.form_ref)
            .filter(|r| r.api_version == group && r.kind == kind && r.definition_version == version)
            .collect();
        // Counted by package, as the Core's own front ends count them: the
        // same package given twice matches twice.
        matches.sort();
        if auto {
            matches.dedup();
        }
        match matches.as_slice() {
            [one] => {
                let form_ref = (*one).clone();
                self.input.defaults.push(DefaultPin {
                    group: group.to_owned(),
                    kind: kind.to_owned(),
                    form_ref,
                });
            }
            found => {
                let what = if auto {
                    format!(
                        "the default-create pin {} (the highest version of its group and kind, as a host pins it when no --default names them)",
                        crate::diag::escape::quote(text)
                    )
                } else {
                    format!("--default {}", crate::diag::escape::quote(text))
                };
                let mut d = Diagnostic::new(
                    Code::DefaultPinUnmatched,
                    format!(
                        "{what} matches {} verified packages of the set, want 1",
                        found.len()
                    ),
                );
                for r in found {
                    d = d.note(format!("matches {}", r.subject()));
                }
                self.findings.push(d);
            }
        }
    }

    /// `--defaults FILE`: a JSON list of `{group, kind, ref}` pins (or an
    /// object whose `defaultCreates` is that list).
    fn add_defaults_file(&mut self, path: &Path) {
        let display = path.display().to_string();
        let bytes = match read_file(path, Reach::Named, JSON_BYTES) {
            Ok(b) => b,
            Err(why) => {
                self.could_not_read = true;
                self.findings.push(Diagnostic::new(
                    Code::UnreadableFile,
                    format!("read {display}: {why}"),
                ));
                return;
            }
        };
        let parsed = match strict::parse(&bytes) {
            Ok(p) => p,
            Err(e) => {
                self.findings
                    .push(e.to_diagnostic().in_file(display.clone()));
                self.sources.insert(display, Source { bytes, spans: None });
                return;
            }
        };
        let (list, base) = match &parsed.value {
            Value::Array(a) => (Some(a), JsonPointer::root()),
            Value::Object(o) => (
                o.get("defaultCreates").and_then(Value::as_array),
                JsonPointer::root().child("defaultCreates"),
            ),
            _ => (None, JsonPointer::root()),
        };
        let bad = |pointer: JsonPointer, what: &str| {
            Diagnostic::new(
                Code::SnapshotInputInvalid,
                format!(
                    "--defaults {}: {what}",
                    crate::diag::escape::quote(&display)
                ),
            )
            .in_file(display.clone())
            .at(pointer)
        };
        match list {
            None => self.findings.push(bad(
                JsonPointer::root(),
                "not a list of {group, kind, ref} pins (nor an object with defaultCreates)",
            )),
            Some(pins) => {
                for (n, p) in pins.iter().enumerate() {
                    match decode_pin(p) {
                        Some(pin) => self.input.defaults.push(pin),
                        None => self.findings.push(bad(
                            base.index(n),
                            "a pin is {\"group\": string, \"kind\": string, \"ref\": FormRef} and nothing else",
                        )),
                    }
                }
            }
        }
        self.sources.insert(
            display,
            Source {
                bytes,
                spans: Some(parsed.spans),
            },
        );
    }

    /// Compiles the set (unless findings came first) and builds its entry.
    pub fn compile(mut self, name: &str) -> (Entry, Option<core::Snapshot>, bool) {
        let mut snapshot = None;
        let status = if self.findings.is_empty() && !self.refused {
            match core::compile(&self.input) {
                Ok(s) => {
                    let status = SetStatus::Compiled {
                        digest: s.digest.clone(),
                        roster: s.roster(),
                    };
                    snapshot = Some(s);
                    status
                }
                Err(found) => {
                    let located: Vec<Diagnostic> = found.iter().map(|f| self.locate(f)).collect();
                    self.findings.extend(located);
                    SetStatus::Failed {
                        core_diagnostics: found.iter().map(core::Finding::to_core_value).collect(),
                    }
                }
            }
        } else {
            SetStatus::NotCompiled
        };
        let summary = Summary::Set(Box::new(SetSummary {
            host_api: self.input.host_api.clone(),
            status,
        }));
        let named: std::collections::BTreeSet<String> = self
            .findings
            .iter()
            .filter_map(|d| d.file.clone())
            .collect();
        self.sources.retain(|f, _| named.contains(f));
        let outcome = PackageOutcome {
            path: PathBuf::new(),
            diagnostics: self.findings,
            sources: self.sources,
            summary: Some(summary),
            ..PackageOutcome::default()
        };
        (
            Entry::new(EntryKind::Snapshot, outcome).named(PathBuf::from(name)),
            snapshot,
            self.could_not_read,
        )
    }

    /// The compiler's finding as a located [`Diagnostic`].
    fn locate(&self, f: &core::Finding) -> Diagnostic {
        let mut d = Diagnostic::new(f.code, format!("{}: {}", f.subject, f.message))
            .note(format!("the Core's diagnostic: {}", f.core_code()));
        if !f.pointer.is_empty() {
            d = d.note(format!("the Core's pointer: {}", f.pointer));
        }
        let pointer = |p: &str| JsonPointer::parse(p).unwrap_or_else(JsonPointer::root);
        match f.at {
            At::Package(i) => {
                let Some((definition, index)) = self.package_files.get(i) else {
                    return d;
                };
                if let Some(rest) = f.pointer.strip_prefix("/package-index.json") {
                    d.in_file(index.clone()).at(pointer(rest))
                } else if f.pointer.is_empty() {
                    d.in_file(index.clone()).at(pointer("/formRef"))
                } else {
                    d.in_file(definition.clone()).at(pointer(&f.pointer))
                }
            }
            At::Interface(i) | At::Binding(i) => {
                let files = if matches!(f.at, At::Binding(_)) {
                    &self.binding_files
                } else {
                    &self.interface_files
                };
                let Some(file) = files.get(i) else { return d };
                if f.pointer == "/expectedDigest" {
                    return d;
                }
                let mut d = if f.pointer == "/definition" || f.pointer.is_empty() {
                    let at = f
                        .violations
                        .first()
                        .map(|(p, _)| pointer(p))
                        .unwrap_or_else(JsonPointer::root);
                    d.in_file(file.clone()).at(at)
                } else {
                    d.in_file(file.clone()).at(pointer(&f.pointer))
                };
                for (p, m) in f.violations.iter().skip(1) {
                    d = d.note(format!(
                        "also at {}: {m}",
                        if p.is_empty() { "/" } else { p }
                    ));
                }
                d
            }
            At::Input | At::Defaults => d,
        }
    }
}

/// A `{group, kind, ref}` pin decoded as the Core decodes one (no other
/// member; `group` and `kind` strings).
pub fn decode_pin(v: &Value) -> Option<DefaultPin> {
    let o = v.as_object()?;
    if o.keys()
        .any(|k| !matches!(k.as_str(), "group" | "kind" | "ref"))
    {
        return None;
    }
    Some(DefaultPin {
        group: o.get("group")?.as_str()?.to_owned(),
        kind: o.get("kind")?.as_str()?.to_owned(),
        form_ref: FormRef::decode(o.get("ref")?)?,
    })
}

/// `snapshot DIR...`: the packages under `dirs` verified, the set compiled
/// with `options`; see the module docs.
pub fn compile_dirs(dirs: &[PathBuf], options: &Options) -> SetRun {
    let (mut entries, loaded) = verify_all(dirs);
    let mut set = Set::default();
    set.input.host_api.clone_from(&options.host_api);
    let compiles = loaded.is_some();
    if let Some(loaded) = loaded {
        set.add_packages(loaded);
    }
    for p in &options.interfaces {
        set.add_contract(p, None, false);
    }
    for p in &options.bindings {
        set.add_contract(p, None, true);
    }
    if compiles {
        for d in &options.defaults {
            set.add_default(d, false);
        }
        if options.auto_defaults && options.defaults_file.is_none() {
            for d in highest_versions(&set.input.packages, &options.defaults) {
                set.add_default(&d, true);
            }
        }
    }
    if let Some(f) = &options.defaults_file {
        set.add_defaults_file(f);
    }
    set.refused = !compiles;
    let origins = set
        .input
        .packages
        .iter()
        .map(|p| p.origin.clone())
        .collect();
    let (entry, snapshot, could_not_read) = set.compile(SET_NAME);
    entries.push(entry);
    let mut report = Report::new(entries, ExitRule::default());
    report.could_not_read = could_not_read;
    SetRun {
        report,
        snapshots: vec![(SET_NAME.to_owned(), snapshot)],
        origins: vec![origins],
    }
}

/// `GROUP/KIND@VERSION` of the highest version (the Core's Form order) of
/// every group+kind among `packages` that no pin of `given` names.
fn highest_versions(packages: &[PackageArtifact], given: &[String]) -> Vec<String> {
    let named: std::collections::BTreeSet<(&str, &str)> = given
        .iter()
        .filter_map(|t| {
            let (gk, _) = t.rsplit_once('@')?;
            gk.rsplit_once('/')
        })
        .collect();
    let mut highest: BTreeMap<(&str, &str), core::FormKey> = BTreeMap::new();
    for p in packages {
        let r = &p.form_ref;
        let key = (r.api_version.as_str(), r.kind.as_str());
        if named.contains(&key) {
            continue;
        }
        let candidate = core::FormKey(r.clone());
        match highest.get(&key) {
            Some(h) if *h >= candidate => {}
            _ => {
                highest.insert(key, candidate);
            }
        }
    }
    highest
        .values()
        .map(|k| {
            format!(
                "{}/{}@{}",
                k.0.api_version, k.0.kind, k.0.definition_version
            )
        })
        .collect()
}
