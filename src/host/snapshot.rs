//! The Core's Snapshot compiler (`host-rules.md` §1), staged as the Core
//! stages it: each stage runs only when every earlier one produced nothing,
//! and a stage reports every finding it has (never only the first). The
//! findings of the stage that stops the compile are sorted as the Core
//! sorts them (subject, pointer, Core code, message); on success the
//! compile gives the [`Snapshot`]: the lane, the roster and the digest
//! ([`digest`]).
//!
//! Inputs are what `ops::snapshot` has already verified and read: each
//! package verified by [`crate::verify`] (the Core's capability: only a
//! complete verifier issues one), with the caller's pin; each Interface and
//! Binding file's raw bytes with its pin; the default-create pins. The
//! Core's per-package re-checks after verification (the `definitionPath`
//! entry, the definition re-validated, the FormRef rebuilt from the
//! definition) are verify's own checks (`FD1xx`): a package verify accepts
//! passes them, so they are not repeated here.
//!
//! Each finding carries one of our codes ([`Code`], `FD750`–`FD759`,
//! `FD770`–`FD782`), whose `specCode` is the Core's code
//! (`invalid_input`, `duplicate_identity`, …), the Core's subject and
//! pointer, a message, and where in our inputs it is ([`At`]), so that
//! `ops::snapshot` can give it a file and a `line:column`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::codes::Code;

/// The lanes this Core build knows, in rank order (§1.3 stage 1).
const KNOWN_LANES: [&str; 3] = [
    "forms.takoform.com/v1beta1",
    "forms.takoform.com/v1beta4",
    "forms.takoform.com/v1",
];

/// The only lane the Core compiles and serves today.
pub const SERVED_LANE: &str = "forms.takoform.com/v1";

/// The `format` member of the digested document.
const DIGEST_FORMAT: &str = "takoform.compiled-snapshot@v1";

/// An exact Form identity (the four FormRef fields); it serializes as
/// [`FormRef::to_value`] writes it. `compat` names each side by it too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormRef {
    /// The Form's group (`apiVersion`).
    pub api_version: String,
    /// The Form kind.
    pub kind: String,
    /// The definition version.
    pub definition_version: String,
    /// The RFC 8785 digest of the definition.
    pub schema_digest: String,
}

impl FormRef {
    /// The Core's text of an exact Form: `group/Kind@version schema=sha256:…`.
    pub fn subject(&self) -> String {
        format!(
            "{}/{}@{} schema={}",
            self.api_version, self.kind, self.definition_version, self.schema_digest
        )
    }

    /// The FormRef as JSON (`apiVersion`, `kind`, `definitionVersion`,
    /// `schemaDigest`).
    pub fn to_value(&self) -> Value {
        json!({
            "apiVersion": self.api_version,
            "kind": self.kind,
            "definitionVersion": self.definition_version,
            "schemaDigest": self.schema_digest,
        })
    }

    /// The FormRef `value` decodes to as the Core's strict typed decoding
    /// does it (`decode_ref`); `None` when it does not decode.
    pub fn decode(value: &Value) -> Option<Self> {
        let [a, k, v, d] = decode_ref(
            value,
            ["apiVersion", "kind", "definitionVersion", "schemaDigest"],
        )?;
        Some(FormRef {
            api_version: a,
            kind: k,
            definition_version: v,
            schema_digest: d,
        })
    }
}

/// An exact Interface or Binding identity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContractRef {
    /// `interfaces.takoform.com/v1alpha1`, `bindings.takoform.com/v1alpha2`.
    pub api_version: String,
    /// The contract name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The RFC 8785 digest of its definition.
    pub schema_digest: String,
}

impl ContractRef {
    /// The Core's text of an exact contract: `apiVersion/name@version schema=…`.
    pub fn subject(&self) -> String {
        format!(
            "{}/{}@{} schema={}",
            self.api_version, self.name, self.version, self.schema_digest
        )
    }

    /// The reference as JSON (`apiVersion`, `name`, `version`, `schemaDigest`).
    pub fn to_value(&self) -> Value {
        json!({
            "apiVersion": self.api_version,
            "name": self.name,
            "version": self.version,
            "schemaDigest": self.schema_digest,
        })
    }

    /// The reference `value` decodes to as the Core's strict typed
    /// decoding does it (`decode_ref`).
    pub fn decode(value: &Value) -> Option<Self> {
        let [a, n, v, d] = decode_ref(value, ["apiVersion", "name", "version", "schemaDigest"])?;
        Some(ContractRef {
            api_version: a,
            name: n,
            version: v,
            schema_digest: d,
        })
    }
}

/// A four-string reference decoded as Go's `encoding/json` decodes it into
/// a struct with unknown fields disallowed: `null` is the zero reference;
/// an object's members match a field by name, exactly or else ignoring
/// ASCII case; an unknown member, or a field value other than a string or
/// `null`, refuses the whole value.
fn decode_ref(value: &Value, fields: [&str; 4]) -> Option<[String; 4]> {
    let mut out: [String; 4] = Default::default();
    let object = match value {
        Value::Null => return Some(out),
        Value::Object(o) => o,
        _ => return None,
    };
    for (name, v) in object {
        let slot = fields
            .iter()
            .position(|f| f == name)
            .or_else(|| fields.iter().position(|f| f.eq_ignore_ascii_case(name)))?;
        match v {
            Value::String(s) => {
                if let Some(o) = out.get_mut(slot) {
                    o.clone_from(s);
                }
            }
            Value::Null => {}
            _ => return None,
        }
    }
    Some(out)
}

/// One verified package as the compiler takes it.
#[derive(Clone, Debug)]
pub struct PackageArtifact {
    /// Where it came from (the directory as given): diagnostics only,
    /// never part of an identity or the digest.
    pub origin: String,
    /// The caller's pin of its package digest.
    pub expected_digest: String,
    /// The package digest verify computed.
    pub package_digest: String,
    /// The index's FormRef (verify proved it is the definition's).
    pub form_ref: FormRef,
    /// The Form Definition verify read and accepted.
    pub definition: Value,
}

/// One Interface or Binding Definition file as the compiler takes it.
#[derive(Clone, Debug)]
pub struct ContractArtifact {
    /// Where it came from (the file as given).
    pub origin: String,
    /// The caller's pin of its RFC 8785 digest.
    pub expected_digest: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A default-create pin: the exact Form that creates `group/kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultPin {
    /// The group.
    pub group: String,
    /// The kind.
    pub kind: String,
    /// The exact Form.
    pub form_ref: FormRef,
}

impl DefaultPin {
    /// The pin as the Core's JSON (`group`, `kind`, `ref`).
    pub fn to_value(&self) -> Value {
        json!({"group": self.group, "kind": self.kind, "ref": self.form_ref.to_value()})
    }
}

/// The compiler's whole input (§1.1); list order never matters.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The lane the Snapshot will serve.
    pub host_api: String,
    /// The verified packages.
    pub packages: Vec<PackageArtifact>,
    /// The Interface Definitions.
    pub interfaces: Vec<ContractArtifact>,
    /// The Binding Definitions.
    pub bindings: Vec<ContractArtifact>,
    /// The default-create pins.
    pub defaults: Vec<DefaultPin>,
}

/// Which input a finding is about, so the caller can locate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// The input as a whole (the lane).
    Input,
    /// `Input::packages[i]`.
    Package(usize),
    /// `Input::interfaces[i]`.
    Interface(usize),
    /// `Input::bindings[i]`.
    Binding(usize),
    /// A group+kind's default-create pins (no one file).
    Defaults,
}

/// One finding of the compiler, as the Core gives it plus our code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Our code; its `specCode` is the Core's code.
    pub code: Code,
    /// The Core's subject (an exact identity, an origin, `group/Kind`, `input`).
    pub subject: String,
    /// The Core's pointer (`""` when it has none).
    pub pointer: String,
    /// What is wrong, in the Core's terms.
    pub message: String,
    /// Which input it is about.
    pub at: At,
    /// For a contract that is not what its schema says: the violations,
    /// each as (pointer in the file, message); the first locates the finding.
    pub violations: Vec<(String, String)>,
}

impl Finding {
    fn new(code: Code, subject: String, pointer: &str, message: String, at: At) -> Self {
        Finding {
            code,
            subject,
            pointer: pointer.to_owned(),
            message,
            at,
            violations: Vec::new(),
        }
    }

    /// The Core's code (`invalid_input`, `duplicate_identity`, …): the
    /// `specCode` of [`Finding::code`].
    pub fn core_code(&self) -> &'static str {
        self.code.info().spec_code
    }

    /// The finding as the Core's diagnostic JSON (`code`, `subject`,
    /// `pointer` when it has one, `message`).
    pub fn to_core_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("code".into(), json!(self.core_code()));
        m.insert("subject".into(), json!(self.subject));
        if !self.pointer.is_empty() {
            m.insert("pointer".into(), json!(self.pointer));
        }
        m.insert("message".into(), json!(self.message));
        Value::Object(m)
    }
}

/// One compiled Form: its exact identity, its package digest, which input
/// it came from, and its definition.
#[derive(Clone, Debug)]
pub struct CompiledForm {
    /// The exact FormRef.
    pub form_ref: FormRef,
    /// The pinned package digest.
    pub package_digest: String,
    /// `Input::packages` index.
    pub package: usize,
    /// The Form Definition (its `desiredSchema` is what a host validates
    /// and materializes against).
    pub definition: Value,
}

/// One compiled Binding: its identity and its exact target Interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledBinding {
    /// The Binding.
    pub binding: ContractRef,
    /// Its `targetInterface`.
    pub target_interface: ContractRef,
}

/// A compiled Snapshot (§1.2): never partial.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The lane it serves.
    pub host_api: String,
    /// `sha256:<hex>` of the RFC 8785 digest document ([`digest`]).
    pub digest: String,
    /// The Forms in Form order (group, kind, SemVer, digest).
    pub forms: Vec<CompiledForm>,
    /// The Interfaces in identity order.
    pub interfaces: Vec<ContractRef>,
    /// The Bindings in identity order.
    pub bindings: Vec<CompiledBinding>,
    /// The default-create pins, by group then kind.
    pub defaults: Vec<DefaultPin>,
}

impl Snapshot {
    /// The exact Form `form_ref`, if it is in the Snapshot (never "latest").
    pub fn form(&self, form_ref: &FormRef) -> Option<&CompiledForm> {
        self.forms.iter().find(|f| &f.form_ref == form_ref)
    }

    /// The default-create Form of exactly `group`/`kind` (never by kind
    /// alone, never "latest").
    pub fn default_for(&self, group: &str, kind: &str) -> Option<&FormRef> {
        self.defaults
            .iter()
            .find(|d| d.group == group && d.kind == kind)
            .map(|d| &d.form_ref)
    }

    /// The roster as JSON: `forms` (`{ref, packageDigest}`), `interfaces`
    /// (`{ref}`), `bindings` (`{ref, targetInterface}`), `defaults`
    /// (`{group, kind, ref}`), each a list (empty when none).
    pub fn roster(&self) -> Map<String, Value> {
        let (forms, interfaces, bindings, defaults) = self.lists();
        let mut m = Map::new();
        m.insert("forms".into(), Value::Array(forms));
        m.insert("interfaces".into(), Value::Array(interfaces));
        m.insert("bindings".into(), Value::Array(bindings));
        m.insert("defaults".into(), Value::Array(defaults));
        m
    }

    /// The four lists of the roster and the digest, as JSON values.
    fn lists(&self) -> (Vec<Value>, Vec<Value>, Vec<Value>, Vec<Value>) {
        let forms = self
            .forms
            .iter()
            .map(|f| json!({"ref": f.form_ref.to_value(), "packageDigest": f.package_digest}))
            .collect();
        let interfaces = self
            .interfaces
            .iter()
            .map(|i| json!({"ref": i.to_value()}))
            .collect();
        let bindings = self
            .bindings
            .iter()
            .map(|b| {
                json!({"ref": b.binding.to_value(), "targetInterface": b.target_interface.to_value()})
            })
            .collect();
        let defaults = self.defaults.iter().map(DefaultPin::to_value).collect();
        (forms, interfaces, bindings, defaults)
    }
}

/// The document the Snapshot digest is taken over (§1.3 stage 9):
/// `{format, hostApi, forms, interfaces, bindings, defaults}`, where an
/// empty `interfaces`, `bindings` or `defaults` list is `null` (the Core
/// encodes Go nil slices) and an empty `forms` list is `[]`.
pub fn digest_document(snapshot: &Snapshot) -> Value {
    let (forms, interfaces, bindings, defaults) = snapshot.lists();
    let nil_if_empty = |v: Vec<Value>| {
        if v.is_empty() {
            Value::Null
        } else {
            Value::Array(v)
        }
    };
    json!({
        "format": DIGEST_FORMAT,
        "hostApi": snapshot.host_api,
        "forms": forms,
        "interfaces": nil_if_empty(interfaces),
        "bindings": nil_if_empty(bindings),
        "defaults": nil_if_empty(defaults),
    })
}

/// `sha256:<hex>` of the RFC 8785 bytes of [`digest_document`].
pub fn digest(snapshot: &Snapshot) -> String {
    let doc = digest_document(snapshot);
    let bytes = crate::canonical::canonicalize(&doc).unwrap_or_default();
    crate::canonical::sha256_digest(&bytes)
}

/// Compiles `input` (see the module docs): the Snapshot, or every finding
/// of the first stage that has any, sorted as the Core sorts them.
///
/// # Errors
/// The findings of the stage that stopped the compile (never empty).
pub fn compile(input: &Input) -> Result<Snapshot, Vec<Finding>> {
    stop(lane(&input.host_api))?;
    let forms = stop_with(pinned_forms(&input.packages))?;
    let forms = stop_with(unique_forms(&input.packages, forms))?;
    let contracts = stop_with(crate::host::snapshot::contracts::compile(
        &input.interfaces,
        &input.bindings,
    ))?;
    stop(contracts::closure(&input.packages, &forms, &contracts))?;
    stop(host_api_requirements(
        &input.host_api,
        &input.packages,
        &forms,
    ))?;
    stop(target_formrefs(&input.packages, &forms))?;
    let defaults = stop_with(default_pins(&input.defaults, &forms))?;
    let mut snapshot = Snapshot {
        host_api: input.host_api.clone(),
        digest: String::new(),
        forms: forms
            .into_iter()
            .map(|(form_ref, package)| CompiledForm {
                package_digest: input
                    .packages
                    .get(package)
                    .map(|p| p.expected_digest.clone())
                    .unwrap_or_default(),
                definition: input
                    .packages
                    .get(package)
                    .map(|p| p.definition.clone())
                    .unwrap_or_default(),
                form_ref,
                package,
            })
            .collect(),
        interfaces: contracts
            .interfaces
            .iter()
            .map(|i| i.identity.clone())
            .collect(),
        bindings: contracts
            .bindings
            .iter()
            .map(|b| CompiledBinding {
                binding: b.identity.clone(),
                target_interface: b.target.clone(),
            })
            .collect(),
        defaults,
    };
    snapshot.digest = digest(&snapshot);
    Ok(snapshot)
}

/// `Err` with the stage's findings sorted when it has any.
fn stop(findings: Vec<Finding>) -> Result<(), Vec<Finding>> {
    if findings.is_empty() {
        Ok(())
    } else {
        stop_with(Err(findings))
    }
}

/// A stage's result, its findings sorted as the Core sorts them.
fn stop_with<T>(r: Result<T, Vec<Finding>>) -> Result<T, Vec<Finding>> {
    r.map_err(|mut f| {
        sort(&mut f);
        f
    })
}

/// Sorts findings by (subject, pointer, Core code, message), byte order.
pub fn sort(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        (
            a.subject.as_str(),
            a.pointer.as_str(),
            a.core_code(),
            a.message.as_str(),
        )
            .cmp(&(
                b.subject.as_str(),
                b.pointer.as_str(),
                b.core_code(),
                b.message.as_str(),
            ))
    });
}

/// Stage 1: the lane's syntax, that this Core knows it, that it is served.
fn lane(host_api: &str) -> Vec<Finding> {
    let finding = |code, message| {
        vec![Finding::new(
            code,
            "input".into(),
            "/hostApi",
            message,
            At::Input,
        )]
    };
    if !lane_syntax(host_api) {
        return finding(
            Code::HostApiNotALane,
            format!(
                "HostAPI {} is not a Takoform Host API lane identity",
                go_quote(host_api)
            ),
        );
    }
    if lane_rank(host_api).is_none() {
        return finding(
            Code::HostApiLaneUnknown,
            format!(
                "HostAPI {} is not a Host API lane known by this Core build",
                go_quote(host_api)
            ),
        );
    }
    if host_api != SERVED_LANE {
        return finding(
            Code::HostApiLaneNotServed,
            format!("HostAPI {} is a historical or unserved lane; only {SERVED_LANE} is currently selectable", go_quote(host_api)),
        );
    }
    Vec::new()
}

/// `forms.takoform.com/v<N>` with an optional `alpha<N>` or `beta<N>`.
fn lane_syntax(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("forms.takoform.com/v") else {
        return false;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (major, suffix) = rest.split_at(end);
    if !digits(major) {
        return false;
    }
    if suffix.is_empty() {
        return true;
    }
    ["alpha", "beta"]
        .iter()
        .any(|p| suffix.strip_prefix(p).is_some_and(digits))
}

/// The rank of a lane this Core knows.
fn lane_rank(lane: &str) -> Option<usize> {
    KNOWN_LANES.iter().position(|l| *l == lane)
}

/// Go's `%q` of `s`: a double-quoted Go string literal.
pub fn go_quote(s: &str) -> String {
    crate::diag::escape::quote(s)
}

/// Stage 2: each package's pin, then the candidates by exact identity
/// (each with the packages that supply it).
fn pinned_forms(
    packages: &[PackageArtifact],
) -> Result<BTreeMap<FormKey, Vec<usize>>, Vec<Finding>> {
    let mut findings = Vec::new();
    let mut candidates: BTreeMap<FormKey, Vec<usize>> = BTreeMap::new();
    for (i, p) in packages.iter().enumerate() {
        let subject = if p.origin.trim().is_empty() {
            format!("package:{}", p.package_digest)
        } else {
            p.origin.clone()
        };
        if !crate::canonical::is_canonical_digest(&p.expected_digest) {
            findings.push(Finding::new(
                Code::SnapshotPinNotCanonical,
                subject,
                "/expectedDigest",
                "expected package digest is not a canonical lowercase sha256 digest".into(),
                At::Package(i),
            ));
            continue;
        }
        if p.package_digest != p.expected_digest {
            findings.push(Finding::new(
                Code::SnapshotDigestMismatch,
                subject,
                "/package-index.json",
                format!(
                    "package index digest is {}, expected {}",
                    p.package_digest, p.expected_digest
                ),
                At::Package(i),
            ));
            continue;
        }
        candidates
            .entry(FormKey(p.form_ref.clone()))
            .or_default()
            .push(i);
    }
    if findings.is_empty() {
        Ok(candidates)
    } else {
        Err(findings)
    }
}

/// A FormRef ordered as the Core orders Forms: group, kind (bytes), then
/// SemVer precedence when both versions parse and differ, else the version
/// text, then the schema digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormKey(pub FormRef);

impl Ord for FormKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (&self.0, &other.0);
        a.api_version
            .cmp(&b.api_version)
            .then_with(|| a.kind.cmp(&b.kind))
            .then_with(|| {
                match (
                    semver::Version::parse(&a.definition_version),
                    semver::Version::parse(&b.definition_version),
                ) {
                    (Ok(x), Ok(y)) if x.cmp_precedence(&y) != std::cmp::Ordering::Equal => {
                        x.cmp_precedence(&y)
                    }
                    _ => a.definition_version.cmp(&b.definition_version),
                }
            })
            .then_with(|| a.schema_digest.cmp(&b.schema_digest))
    }
}

impl PartialOrd for FormKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Stage 3: one package per exact identity; the Forms in Form order, each
/// with its package.
fn unique_forms(
    packages: &[PackageArtifact],
    candidates: BTreeMap<FormKey, Vec<usize>>,
) -> Result<Vec<(FormRef, usize)>, Vec<Finding>> {
    let mut findings = Vec::new();
    let mut forms = Vec::new();
    for (key, supplied) in candidates {
        match supplied.as_slice() {
            [one] => forms.push((key.0, *one)),
            _ => {
                let mut origins: Vec<&str> = supplied
                    .iter()
                    .filter_map(|i| packages.get(*i).map(|p| p.origin.as_str()))
                    .collect();
                origins.sort_unstable();
                findings.push(Finding::new(
                    Code::DuplicateFormIdentity,
                    key.0.subject(),
                    "",
                    format!(
                        "exact Form identity is supplied {} times by {}",
                        supplied.len(),
                        origins.join(", ")
                    ),
                    At::Package(supplied.first().copied().unwrap_or_default()),
                ));
            }
        }
    }
    if findings.is_empty() {
        Ok(forms)
    } else {
        Err(findings)
    }
}

/// Stage 6: a Form's `requiresHostApi` must be a known lane of rank at
/// most the served lane's.
fn host_api_requirements(
    host_api: &str,
    packages: &[PackageArtifact],
    forms: &[(FormRef, usize)],
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (form_ref, i) in forms {
        let Some(p) = packages.get(*i) else { continue };
        let required = p
            .definition
            .get("requiresHostApi")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if required.is_empty() {
            continue;
        }
        let ok = matches!((lane_rank(host_api), lane_rank(required)), (Some(s), Some(r)) if s >= r);
        if !ok {
            findings.push(Finding::new(
                Code::HostApiRequirementUnmet,
                form_ref.subject(),
                "/requiresHostApi",
                format!("Form requires Host API {required}, but this Snapshot serves {host_api}"),
                At::Package(*i),
            ));
        }
    }
    findings
}

/// Stage 7: every `x-takoform-target-formrefs` entry that decodes as a
/// FormRef names an exact Form of the set.
fn target_formrefs(packages: &[PackageArtifact], forms: &[(FormRef, usize)]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (form_ref, i) in forms {
        let Some(p) = packages.get(*i) else { continue };
        let Some(schema) = p.definition.get("desiredSchema") else {
            continue;
        };
        let mut targets = Vec::new();
        collect_targets(schema, "/desiredSchema".to_owned(), &mut targets);
        for (pointer, target) in targets {
            if !forms.iter().any(|(f, _)| *f == target) {
                findings.push(Finding::new(
                    Code::TargetFormAbsent,
                    form_ref.subject(),
                    &pointer,
                    format!(
                        "exact target Form {} is absent from the Snapshot",
                        target.subject()
                    ),
                    At::Package(*i),
                ));
            }
        }
    }
    findings
}

/// The `x-takoform-target-formrefs` entries below `value` that decode, with
/// their pointers, members visited in byte order of their names.
fn collect_targets(value: &Value, pointer: String, out: &mut Vec<(String, FormRef)>) {
    match value {
        Value::Object(m) => {
            for (key, child) in sorted(m) {
                let at = format!("{pointer}/{}", crate::json::pointer::escape(key));
                if key == "x-takoform-target-formrefs" {
                    if let Value::Array(entries) = child {
                        for (n, e) in entries.iter().enumerate() {
                            if let Some(r) = FormRef::decode(e) {
                                out.push((format!("{at}/{n}"), r));
                            }
                        }
                    }
                    continue;
                }
                collect_targets(child, at, out);
            }
        }
        Value::Array(a) => {
            for (n, e) in a.iter().enumerate() {
                collect_targets(e, format!("{pointer}/{n}"), out);
            }
        }
        _ => {}
    }
}

/// An object's members in byte order of their names (Go's `sort.Strings`).
pub(crate) fn sorted(m: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<(&String, &Value)> = m.iter().collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v
}

/// Stage 8: exactly one pin per group+kind of the Forms and of the pins,
/// naming its own group+kind and an exact Form of the set.
fn default_pins(
    pins: &[DefaultPin],
    forms: &[(FormRef, usize)],
) -> Result<Vec<DefaultPin>, Vec<Finding>> {
    let mut groups: BTreeMap<(String, String), Vec<&DefaultPin>> = BTreeMap::new();
    for (f, _) in forms {
        groups
            .entry((f.api_version.clone(), f.kind.clone()))
            .or_default();
    }
    for p in pins {
        groups
            .entry((p.group.clone(), p.kind.clone()))
            .or_default()
            .push(p);
    }
    let mut findings = Vec::new();
    let mut defaults = Vec::new();
    for ((group, kind), pinned) in groups {
        let subject = format!("{group}/{kind}");
        let finding =
            |code, message| Finding::new(code, subject.clone(), "", message, At::Defaults);
        let pin = match pinned.as_slice() {
            [] => {
                findings.push(finding(
                    Code::DefaultCreateMissing,
                    "supported group+kind has no explicit default-create FormRef".into(),
                ));
                continue;
            }
            [pin] => *pin,
            many => {
                findings.push(finding(
                    Code::DefaultCreateAmbiguous,
                    format!(
                        "group+kind has {} default-create pins; exactly one is required",
                        many.len()
                    ),
                ));
                continue;
            }
        };
        if pin.group != pin.form_ref.api_version || pin.kind != pin.form_ref.kind {
            findings.push(finding(
                Code::DefaultCreateMismatched,
                "default-create group+kind does not match its exact FormRef".into(),
            ));
            continue;
        }
        if !forms.iter().any(|(f, _)| *f == pin.form_ref) {
            findings.push(finding(
                Code::DefaultCreateAbsent,
                format!(
                    "default-create exact Form {} is absent from the Snapshot",
                    pin.form_ref.subject()
                ),
            ));
            continue;
        }
        defaults.push(pin.clone());
    }
    if findings.is_empty() {
        Ok(defaults)
    } else {
        Err(findings)
    }
}

pub mod contracts;

#[cfg(test)]
mod tests;
