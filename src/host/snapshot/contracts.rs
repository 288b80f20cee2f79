//! Stages 4 and 5 of the Snapshot compiler (`host-rules.md` §1.3): the
//! Interface and Binding Definitions themselves (pin, strict I-JSON and
//! published schema, digest, duplicates, each Binding's target Interface
//! and operations), then the closure of every Form against them
//! (`providedInterfaces`, `acceptedBindings` and `sourceRole`,
//! `x-takoform-required-interface`, `x-takoform-binding`, a required
//! interface under a binding).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::Value;

use super::{sorted, At, ContractArtifact, ContractRef, Finding, FormRef, PackageArtifact};
use crate::codes::Code;
use crate::schemas::SchemaRef;

/// One compiled Interface.
#[derive(Clone, Debug)]
pub struct Interface {
    /// Its exact identity.
    pub identity: ContractRef,
    /// Its operation names.
    pub operations: BTreeSet<String>,
}

/// One compiled Binding.
#[derive(Clone, Debug)]
pub struct Binding {
    /// Its exact identity.
    pub identity: ContractRef,
    /// `sourceRole`.
    pub source_role: String,
    /// `targetInterface`.
    pub target: ContractRef,
    /// `runtimeProjection.operations` then each `accessModes[].operations`.
    pub operations: Vec<String>,
    /// `Input::bindings` index.
    pub index: usize,
}

/// The compiled contracts, each list in identity order.
#[derive(Clone, Debug, Default)]
pub struct Contracts {
    /// The Interfaces.
    pub interfaces: Vec<Interface>,
    /// The Bindings.
    pub bindings: Vec<Binding>,
}

impl Contracts {
    fn interface(&self, r: &ContractRef) -> Option<&Interface> {
        self.interfaces.iter().find(|i| &i.identity == r)
    }

    fn binding(&self, r: &ContractRef) -> Option<&Binding> {
        self.bindings.iter().find(|b| &b.identity == r)
    }
}

/// Which contract kind an artifact is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Interface,
    Binding,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Interface => "Interface",
            Kind::Binding => "Binding",
        }
    }

    fn schema(self) -> SchemaRef {
        match self {
            // The Core validates every Interface against the v1alpha1
            // schema and every Binding against the v1alpha2 schema, whatever
            // its apiVersion says (so a v1alpha1 Binding is refused).
            Kind::Interface => SchemaRef::InterfaceDefinition("v1alpha1"),
            Kind::Binding => SchemaRef::BindingDefinition("v1alpha2"),
        }
    }

    fn at(self, i: usize) -> At {
        match self {
            Kind::Interface => At::Interface(i),
            Kind::Binding => At::Binding(i),
        }
    }
}

/// One artifact checked alone: its identity and document, or its finding.
fn artifact(kind: Kind, i: usize, a: &ContractArtifact) -> Result<(ContractRef, Value), Finding> {
    let subject = if a.origin.trim().is_empty() {
        format!("bytes:{}", crate::canonical::sha256_digest(&a.bytes))
    } else {
        a.origin.clone()
    };
    let at = kind.at(i);
    let word = kind.word();
    if !crate::canonical::is_canonical_digest(&a.expected_digest) {
        return Err(Finding::new(
            Code::SnapshotPinNotCanonical,
            subject,
            "/expectedDigest",
            format!("expected {word} digest is not a canonical lowercase sha256 digest"),
            at,
        ));
    }
    let invalid = |message: String, violations: Vec<(String, String)>| {
        let mut f = Finding::new(
            Code::SnapshotContractInvalid,
            subject.clone(),
            "/definition",
            message,
            at,
        );
        f.violations = violations;
        f
    };
    let value = match crate::json::strict::parse_value(&a.bytes) {
        Ok(v) => v,
        Err(e) => {
            return Err(invalid(
                format!("{word} Definition: {}", e.reference_line()),
                vec![(e.pointer.as_str().to_owned(), e.detail.clone())],
            ))
        }
    };
    match crate::schemas::validate(kind.schema(), &value) {
        Ok(v) if v.is_empty() => {}
        Ok(v) => {
            let violations: Vec<(String, String)> = v
                .iter()
                .map(|x| (x.pointer.as_str().to_owned(), x.message.clone()))
                .collect();
            let first = violations
                .first()
                .map(|(p, m)| format!(" at {}: {m}", if p.is_empty() { "/" } else { p }))
                .unwrap_or_default();
            return Err(invalid(
                format!("{word} Definition: does not satisfy Draft 2020-12 schema{first}"),
                violations,
            ));
        }
        Err(e) => return Err(invalid(format!("{word} Definition: {e}"), Vec::new())),
    }
    let digest = match crate::canonical::canonicalize(&value) {
        Ok(bytes) => crate::canonical::sha256_digest(&bytes),
        Err(d) => return Err(invalid(d.message, Vec::new())),
    };
    if digest != a.expected_digest {
        return Err(Finding::new(
            Code::SnapshotDigestMismatch,
            subject,
            "/definition",
            format!(
                "{word} Definition digest is {digest}, expected {}",
                a.expected_digest
            ),
            at,
        ));
    }
    let s = |k: &str| {
        value
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let identity = ContractRef {
        api_version: s("apiVersion"),
        name: s("name"),
        version: s("version"),
        schema_digest: digest,
    };
    Ok((identity, value))
}

/// Strings of the array at `v` (none when it is not an array).
fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Stage 4: every contract alone, then duplicates, then each Binding's
/// target Interface and operations.
///
/// # Errors
/// The findings of the first part that has any.
pub fn compile(
    interfaces: &[ContractArtifact],
    bindings: &[ContractArtifact],
) -> Result<Contracts, Vec<Finding>> {
    let mut findings = Vec::new();
    let mut iface_candidates: BTreeMap<ContractRef, Vec<(usize, Value)>> = BTreeMap::new();
    for (i, a) in interfaces.iter().enumerate() {
        match artifact(Kind::Interface, i, a) {
            Ok((r, v)) => iface_candidates.entry(r).or_default().push((i, v)),
            Err(f) => findings.push(f),
        }
    }
    let mut binding_candidates: BTreeMap<ContractRef, Vec<(usize, Value)>> = BTreeMap::new();
    for (i, a) in bindings.iter().enumerate() {
        match artifact(Kind::Binding, i, a) {
            Ok((r, v)) => binding_candidates.entry(r).or_default().push((i, v)),
            Err(f) => findings.push(f),
        }
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    let mut out = Contracts::default();
    let duplicate =
        |r: &ContractRef, supplied: &[(usize, Value)], arts: &[ContractArtifact], kind: Kind| {
            let mut origins: Vec<&str> = supplied
                .iter()
                .filter_map(|(i, _)| arts.get(*i).map(|a| a.origin.as_str()))
                .collect();
            origins.sort_unstable();
            Finding::new(
                Code::DuplicateContractIdentity,
                r.subject(),
                "",
                format!(
                    "exact contract identity is supplied {} times by {}",
                    supplied.len(),
                    origins.join(", ")
                ),
                kind.at(supplied.first().map(|(i, _)| *i).unwrap_or_default()),
            )
        };
    for (r, supplied) in &iface_candidates {
        let [(_, v)] = supplied.as_slice() else {
            findings.push(duplicate(r, supplied, interfaces, Kind::Interface));
            continue;
        };
        let operations = v
            .get("operations")
            .and_then(Value::as_array)
            .map(|ops| {
                ops.iter()
                    .filter_map(|o| o.get("name").and_then(Value::as_str))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        out.interfaces.push(Interface {
            identity: r.clone(),
            operations,
        });
    }
    for (r, supplied) in &binding_candidates {
        let [(i, v)] = supplied.as_slice() else {
            findings.push(duplicate(r, supplied, bindings, Kind::Binding));
            continue;
        };
        let projection = v.get("runtimeProjection");
        let mut operations = strings(projection.and_then(|p| p.get("operations")));
        for mode in projection
            .and_then(|p| p.get("accessModes"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            operations.extend(strings(mode.get("operations")));
        }
        out.bindings.push(Binding {
            identity: r.clone(),
            source_role: v
                .get("sourceRole")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            target: v
                .get("targetInterface")
                .and_then(ContractRef::decode)
                .unwrap_or_default(),
            operations,
            index: *i,
        });
    }
    if !findings.is_empty() {
        return Err(findings);
    }
    for b in &out.bindings {
        let at = At::Binding(b.index);
        let Some(target) = out.interface(&b.target) else {
            findings.push(Finding::new(
                Code::BindingTargetInterfaceAbsent,
                b.identity.subject(),
                "/targetInterface",
                format!(
                    "exact target Interface {} is absent from the Snapshot",
                    b.target.subject()
                ),
                at,
            ));
            continue;
        };
        for op in &b.operations {
            if !target.operations.contains(op) {
                findings.push(Finding::new(
                    Code::BindingOperationNotInInterface,
                    b.identity.subject(),
                    "/runtimeProjection/operations",
                    format!(
                        "operation {} is absent from exact target Interface {}",
                        super::go_quote(op),
                        b.target.subject()
                    ),
                    at,
                ));
            }
        }
    }
    if findings.is_empty() {
        Ok(out)
    } else {
        Err(findings)
    }
}

/// Contract references of the definition's array `field`.
fn refs(definition: &Value, field: &str) -> Vec<ContractRef> {
    definition
        .get(field)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|v| ContractRef::decode(v).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

/// Stage 5: every Form closed against the compiled contracts.
pub fn closure(
    packages: &[PackageArtifact],
    forms: &[(FormRef, usize)],
    contracts: &Contracts,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (form_ref, i) in forms {
        let Some(p) = packages.get(*i) else { continue };
        let def = &p.definition;
        let subject = form_ref.subject();
        let at = At::Package(*i);
        let absent_interface = |pointer: &str, r: &ContractRef| {
            Finding::new(
                Code::InterfaceAbsent,
                subject.clone(),
                pointer,
                format!(
                    "exact Interface {} is absent from the Snapshot",
                    r.subject()
                ),
                at,
            )
        };
        for (n, r) in refs(def, "providedInterfaces").iter().enumerate() {
            if contracts.interface(r).is_none() {
                findings.push(absent_interface(&format!("/providedInterfaces/{n}"), r));
            }
        }
        let accepted = refs(def, "acceptedBindings");
        let role = def.get("role").and_then(Value::as_str).unwrap_or_default();
        for (n, r) in accepted.iter().enumerate() {
            let pointer = format!("/acceptedBindings/{n}");
            let Some(b) = contracts.binding(r) else {
                findings.push(Finding::new(
                    Code::BindingAbsent,
                    subject.clone(),
                    &pointer,
                    format!("exact Binding {} is absent from the Snapshot", r.subject()),
                    at,
                ));
                continue;
            };
            if b.source_role != role {
                findings.push(Finding::new(
                    Code::SnapshotBindingRoleMismatch,
                    subject.clone(),
                    &pointer,
                    format!(
                        "Binding sourceRole {} does not match Form role {}",
                        super::go_quote(&b.source_role),
                        super::go_quote(role)
                    ),
                    at,
                ));
            }
        }
        let Some(schema) = def.get("desiredSchema") else {
            continue;
        };
        let mut notes = Annotations::default();
        let mut walk = Walk {
            root: schema,
            root_pointer: "/desiredSchema",
            stack: HashSet::new(),
            out: &mut notes,
        };
        walk.visit(schema, "/desiredSchema".to_owned(), "");
        for a in &notes.interfaces {
            if contracts.interface(&a.r).is_none() {
                findings.push(absent_interface(&a.pointer, &a.r));
                continue;
            }
            if a.binding.is_empty() {
                continue;
            }
            let named: Vec<&ContractRef> =
                accepted.iter().filter(|b| b.name == a.binding).collect();
            let [one] = named.as_slice() else { continue };
            let Some(b) = contracts.binding(one) else {
                continue;
            };
            if a.r != b.target {
                findings.push(Finding::new(
                    Code::BindingAnnotationInterfaceMismatch,
                    subject.clone(),
                    &a.pointer,
                    format!(
                        "Binding annotation {} requires exact Interface {}, but resolved Binding {} targets {}",
                        super::go_quote(&a.binding),
                        a.r.subject(),
                        b.identity.subject(),
                        b.target.subject()
                    ),
                    at,
                ));
            }
        }
        for (pointer, name) in &notes.bindings {
            let n = accepted.iter().filter(|b| &b.name == name).count();
            if n != 1 {
                findings.push(Finding::new(
                    Code::BindingAnnotationNotOne,
                    subject.clone(),
                    pointer,
                    format!(
                        "Binding annotation {} resolves to {n} exact accepted Binding refs; want one",
                        super::go_quote(name)
                    ),
                    at,
                ));
            }
        }
    }
    findings
}

/// An `x-takoform-required-interface` found, with the binding it is under.
#[derive(Debug)]
struct Required {
    pointer: String,
    r: ContractRef,
    binding: String,
}

/// The annotations of one desired schema.
#[derive(Debug, Default)]
struct Annotations {
    interfaces: Vec<Required>,
    /// Each `x-takoform-binding` (its pointer, its name).
    bindings: Vec<(String, String)>,
}

/// The walk over a desired schema: a binding annotation covers its whole
/// node (set before the members are visited), and under one a local `$ref`
/// is followed (once per target and binding on the current path).
struct Walk<'a, 'o> {
    root: &'a Value,
    root_pointer: &'a str,
    stack: HashSet<String>,
    out: &'o mut Annotations,
}

impl<'a> Walk<'a, '_> {
    fn visit(&mut self, value: &'a Value, pointer: String, binding: &str) {
        match value {
            Value::Object(m) => {
                let mut binding = binding.to_owned();
                if let Some(Value::String(name)) = m.get("x-takoform-binding") {
                    binding.clone_from(name);
                    self.out
                        .bindings
                        .push((format!("{pointer}/x-takoform-binding"), name.clone()));
                }
                for (key, child) in sorted(m) {
                    let at = format!("{pointer}/{}", crate::json::pointer::escape(key));
                    match key.as_str() {
                        "x-takoform-required-interface" => {
                            if let Some(r) = ContractRef::decode(child) {
                                self.out.interfaces.push(Required {
                                    pointer: at,
                                    r,
                                    binding: binding.clone(),
                                });
                            }
                        }
                        "x-takoform-binding" => {}
                        "$ref" => {
                            if binding.is_empty() {
                                continue;
                            }
                            let Some(reference) = child.as_str() else {
                                continue;
                            };
                            let Some((target, target_pointer)) = self.resolve(reference) else {
                                continue;
                            };
                            let key = format!("{target_pointer}\u{0}{binding}");
                            if !self.stack.insert(key.clone()) {
                                continue;
                            }
                            self.visit(target, target_pointer, &binding);
                            self.stack.remove(&key);
                        }
                        _ => self.visit(child, at, &binding),
                    }
                }
            }
            Value::Array(a) => {
                for (n, e) in a.iter().enumerate() {
                    self.visit(e, format!("{pointer}/{n}"), binding);
                }
            }
            _ => {}
        }
    }

    /// A local `$ref` (`#` or `#/…`, percent-decoded, RFC 6901 tokens)
    /// resolved in the desired schema, with its canonical pointer.
    fn resolve(&self, reference: &str) -> Option<(&'a Value, String)> {
        if reference == "#" {
            return Some((self.root, self.root_pointer.to_owned()));
        }
        let rest = reference.strip_prefix("#/")?;
        let decoded = percent_decode(&format!("/{rest}"))?;
        let mut current = self.root;
        let mut pointer = self.root_pointer.to_owned();
        for raw in decoded.trim_start_matches('/').split('/') {
            let token = unescape_token(raw)?;
            pointer.push('/');
            pointer.push_str(&crate::json::pointer::escape(&token));
            current = match current {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => {
                    if token == "-" || (token.len() > 1 && token.starts_with('0')) {
                        return None;
                    }
                    let n: usize = token.parse().ok()?;
                    a.get(n)?
                }
                _ => return None,
            };
        }
        Some((current, pointer))
    }
}

/// RFC 6901 token decoding that refuses a `~` not followed by `0` or `1`.
fn unescape_token(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            _ => return None,
        }
    }
    Some(out)
}

/// Percent-decoding as Go's `url.PathUnescape` (a `%` must start two hex
/// digits; the result must be UTF-8 here, since it is a JSON string).
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = |j: usize| bytes.get(j).and_then(|c| char::from(*c).to_digit(16));
            let (h, l) = (hex(i + 1)?, hex(i + 2)?);
            out.push(u8::try_from(h * 16 + l).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
