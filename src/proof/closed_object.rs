//! The closed-object proof of one inline schema (`verifier-rules.md` §4.1–4.5,
//! with the name hook of §4.2 steps 9–11 / `current-profile.md` §7.3).
//!
//! [`Prover`] proves every schema node once per canonical pointer (§4.4
//! memo), follows local `$ref`s (§5 F3) with cycle detection, counts depth
//! (every child edge and `$ref` hop is one edge; limit 64) and operations
//! (+1 per first proof of a pointer, +1 per `$ref` occurrence, +1 per node of
//! an exact-object-const literal; limit 4096).
//!
//! Unlike the reference, which stops at its first error, the prover keeps
//! going and reports every independent violation; it stops only when the
//! depth or operation budget is exhausted. A node that already failed counts
//! as `closed` for its parents, so one fault is reported once (at the node
//! where it is). `$ref`s that F1 refused are skipped the same way.

use crate::diag::escape::quote;
// aHash (already in the tree): the memo is keyed by pointer texts, looked up
// at every schema node.
use ahash::AHashMap as HashMap;

use serde_json::{Map, Value};

use super::ref_closure::{is_local_ref, kind, resolve};
use super::{NamePolicy, NameQuery, NameSite};
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::member;
use crate::json::pointer::{escape, JsonPointer};
use crate::keywords::{ARRAY, MAP, OBJECT as OBJECT_KEYWORDS, SINGLE as SINGLES};

/// Deepest schema path accepted, in edges (§4.4).
pub const DEPTH_LIMIT: usize = crate::limits::PROOF_DEPTH;

/// Largest number of proof operations accepted (§4.4).
pub const OPERATION_LIMIT: usize = crate::limits::PROOF_OPERATIONS;

/// The only `$schema` value a nested schema may carry (§4.2 step 6).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// The reviewed map-key policy pattern (§4.3).
pub const MAP_KEY_PATTERN: &str = "^[A-Za-z][A-Za-z0-9._-]{0,63}$";

/// The reviewed map-key policy marker value (§4.3).
pub const MAP_KEY_MARKER: &str = "portable-data-only-v1";

/// Gist of `PROOF_OPEN` (§10).
pub const OPEN_GIST: &str = "can admit arbitrary object values; declare a non-object type, a closed object, or the reviewed typed-map escape";

/// Admission mode of a proven node (§4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The node cannot be an object.
    Excluded,
    /// Objects are admitted only by a closed object or the typed-map escape.
    Closed,
    /// The node can admit arbitrary objects.
    Open,
}

impl Mode {
    /// §4.1 intersect(a, b).
    pub fn intersect(self, other: Mode) -> Mode {
        use Mode::*;
        match (self, other) {
            (Excluded, _) | (_, Excluded) => Excluded,
            (Closed, _) | (_, Closed) => Closed,
            _ => Open,
        }
    }

    /// §4.1 union(a, b).
    pub fn union(self, other: Mode) -> Mode {
        use Mode::*;
        match (self, other) {
            (Open, _) | (_, Open) => Open,
            (Closed, _) | (_, Closed) => Closed,
            _ => Excluded,
        }
    }
}

/// The proof stopped because a budget ran out (the diagnostic is recorded).
#[derive(Debug)]
pub struct Stop;

#[derive(Clone, Copy)]
enum Memo {
    Visiting,
    Done { mode: Mode, height: usize },
}

/// What a proven node hands to its parent.
#[derive(Clone, Copy)]
struct Outcome {
    mode: Mode,
    height: usize,
}

/// How a node was reached.
enum Via<'s> {
    /// As a structural child (or the root).
    Child,
    /// Through the `$ref` member at this pointer (relative to the schema).
    Ref(&'s JsonPointer),
}

/// One node visit: where it is.
struct At<'s> {
    /// Memo key: canonical escaped pointer (raw array tokens kept).
    key: &'s str,
    /// Real location inside the inline schema.
    loc: &'s JsonPointer,
    /// Reference-style location (`desiredSchema.properties.x.$ref(#/…)`).
    disp: &'s str,
    depth: usize,
}

/// State of one inline schema's proof. Diagnostics carry pointers relative
/// to the inline schema; the caller prefixes the field.
pub struct Prover<'a, 'p> {
    root: &'a Value,
    names: NamePolicy<'p>,
    in_desired: bool,
    memo: HashMap<String, Memo>,
    /// Operations spent so far (§4.4).
    pub ops: usize,
    /// Findings so far, pointers relative to the inline schema.
    pub diags: Vec<Diagnostic>,
}

impl<'a, 'p> Prover<'a, 'p> {
    /// A prover for the inline schema `root`. `in_desired` says whether it is
    /// `desiredSchema` (for the name hook).
    pub fn new(root: &'a Value, names: NamePolicy<'p>, in_desired: bool) -> Self {
        Prover {
            root,
            names,
            in_desired,
            memo: HashMap::new(),
            ops: 0,
            diags: Vec::new(),
        }
    }

    /// Proves the whole inline schema from its root; `label` is the
    /// reference-style field name (`desiredSchema`). Returns the root height
    /// (edges), or `Err(Stop)` when a budget ran out.
    pub fn prove_root(&mut self, label: &str) -> Result<usize, Stop> {
        let root = self.root;
        let at = At {
            key: "",
            loc: &JsonPointer::root(),
            disp: label,
            depth: 0,
        };
        self.prove(root, &at, Via::Child).map(|o| o.height)
    }

    fn report(&mut self, d: Diagnostic, disp: &str, gist: &str) {
        self.diags
            .push(d.note(format!("reference message: {disp} {gist}")));
    }

    fn charge(&mut self, loc: &JsonPointer, disp: &str, what: &str) -> Result<(), Stop> {
        self.ops += 1;
        if self.ops > OPERATION_LIMIT {
            let gist = format!(
                "exceeds combined node/ref operation budget {OPERATION_LIMIT} while proving {what}"
            );
            let d = Diagnostic::new(Code::ProofBudgetExceeded, format!("proof {gist}"))
                .at(loc.clone())
                .note("the proof stopped here; violations after this point are not reported");
            self.report(d, disp, &format!("portable schema closure proof {gist}"));
            return Err(Stop);
        }
        Ok(())
    }

    fn depth_exceeded(&mut self, loc: &JsonPointer, disp: &str, detail: String) -> Stop {
        let gist = format!("portable schema closure proof exceeds depth limit {DEPTH_LIMIT}");
        let d = Diagnostic::new(
            Code::ProofDepthExceeded,
            format!("schema path exceeds depth limit {DEPTH_LIMIT}"),
        )
        .at(loc.clone())
        .note(detail)
        .note("the proof stopped here; violations after this point are not reported");
        self.report(d, disp, &gist);
        Stop
    }

    /// Memo, budgets, then the per-node proof (§4.4, §4.2).
    fn prove(&mut self, value: &'a Value, at: &At<'_>, via: Via<'_>) -> Result<Outcome, Stop> {
        match self.memo.get(at.key).copied() {
            Some(Memo::Visiting) => {
                let site = match via {
                    Via::Ref(site) => site.clone(),
                    Via::Child => at.loc.clone(),
                };
                let gist =
                    "cyclic schema references are not accepted by the portable closure proof";
                let d = Diagnostic::new(Code::CyclicRef, "cyclic schema reference")
                    .at(site)
                    .note(format!("`$ref` leads back to #{} while it is being proven", at.key))
                    .help("break the cycle: the portable proof accepts only finite, acyclic `$ref` graphs");
                self.report(d, at.disp, gist);
                return Ok(Outcome {
                    mode: Mode::Closed,
                    height: 0,
                });
            }
            Some(Memo::Done { mode, height }) => {
                if at.depth + height > DEPTH_LIMIT {
                    let site = match via {
                        Via::Ref(site) => site.clone(),
                        Via::Child => at.loc.clone(),
                    };
                    return Err(self.depth_exceeded(
                        &site,
                        at.disp,
                        format!(
                            "#{} (height {height}) is reused at depth {}: {} edges",
                            at.key,
                            at.depth,
                            at.depth + height
                        ),
                    ));
                }
                return Ok(Outcome { mode, height });
            }
            None => {}
        }
        if at.depth > DEPTH_LIMIT {
            return Err(self.depth_exceeded(
                at.loc,
                at.disp,
                format!("this schema node is {} edges below the root", at.depth),
            ));
        }
        self.charge(at.loc, at.disp, "a schema node")?;
        self.memo.insert(at.key.to_owned(), Memo::Visiting);
        let out = self.node(value, at)?;
        if at.depth + out.height > DEPTH_LIMIT {
            return Err(self.depth_exceeded(
                at.loc,
                at.disp,
                format!(
                    "node at depth {} has height {}: {} edges",
                    at.depth,
                    out.height,
                    at.depth + out.height
                ),
            ));
        }
        self.memo.insert(
            at.key.to_owned(),
            Memo::Done {
                mode: out.mode,
                height: out.height,
            },
        );
        Ok(out)
    }

    /// §4.2 steps 1–17 for one node.
    fn node(&mut self, value: &'a Value, at: &At<'_>) -> Result<Outcome, Stop> {
        let neutral = Outcome {
            mode: Mode::Closed,
            height: 0,
        };
        let obj = match value {
            Value::Bool(false) => {
                return Ok(Outcome {
                    mode: Mode::Excluded,
                    height: 0,
                })
            }
            Value::Bool(true) => {
                let gist = "boolean true schema can admit arbitrary object values";
                let d = Diagnostic::new(Code::TrueSchema, gist).at(at.loc.clone());
                self.report(d, at.disp, gist);
                return Ok(neutral);
            }
            Value::Object(obj) => obj,
            other => {
                let gist = "must be a JSON Schema object or boolean";
                let d = Diagnostic::new(Code::NonSchemaValue, format!("schema {gist}"))
                    .at(at.loc.clone())
                    .note(format!("found a JSON {}", kind(other)));
                self.report(d, at.disp, gist);
                return Ok(neutral);
            }
        };
        let mut own_err = false;
        own_err |= self.forbidden_keywords(obj, at);

        // Step 8: exact-object-const escape.
        if let Some(Value::Object(_)) = member(obj, "const") {
            if obj.len() == 1 {
                let literal = &obj["const"];
                let height = self.charge_literal(literal, at)?;
                return Ok(Outcome {
                    mode: Mode::Closed,
                    height,
                });
            }
            let gist = "exact object const must be a single-key schema so the finite data boundary is unambiguous";
            let d = Diagnostic::new(Code::MixedObjectConst, gist)
                .at(at.loc.clone())
                .note(format!(
                    "sibling keywords: {}",
                    obj.keys()
                        .filter(|k| *k != "const")
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            self.report(d, at.disp, gist);
            own_err = true;
        }

        // Steps 9–11: shapes and the name hook.
        let properties = self.names_and_shapes(obj, at);

        // Step 12.
        let types = type_names(member(obj, "type"));
        if types.contains(&"array") && member(obj, "items").is_none() {
            let gist =
                "array schema must declare items so nested object admission is proven closed";
            let d = Diagnostic::new(Code::ArrayWithoutItems, gist).at(at.loc.clone());
            self.report(d, at.disp, gist);
            own_err = true;
        }

        // Step 13.
        let (mut skip_additional, mut skip_names) = (false, false);
        let mut mode = if types.contains(&"object") {
            let (err, skip_ap, skip_pn) = self.object_closure(obj, at);
            own_err |= err;
            skip_additional = skip_ap;
            skip_names = skip_pn;
            Mode::Closed
        } else if member(obj, "type").is_some() {
            Mode::Excluded
        } else if let Some(kw) = OBJECT_KEYWORDS.iter().find(|k| member(obj, k).is_some()) {
            let gist =
                "uses object keywords without explicit type=object and closed additionalProperties";
            let d = Diagnostic::new(Code::ImplicitObjectKeywords, gist)
                .at(at.loc.clone())
                .note(format!("first object keyword: `{kw}`"));
            self.report(d, at.disp, gist);
            own_err = true;
            Mode::Closed
        } else {
            Mode::Open
        };

        // Step 14: children.
        let mut height = 0usize;
        let mut combos: [Option<Mode>; 3] = [None, None, None];
        // Every map keyword but `patternProperties`, refused above (§4.2).
        for kw in MAP.into_iter().filter(|k| *k != "patternProperties") {
            let Some(container) = member(obj, kw) else {
                continue;
            };
            let Value::Object(members) = container else {
                if kw != "properties" || properties.is_some() {
                    own_err |= self.malformed(at, kw, format!("{kw} must be an object"));
                }
                continue;
            };
            for (name, child) in members {
                let o = self.child(child, at, kw, Token::Name(name))?;
                height = height.max(o.height + 1);
            }
        }
        for kw in SINGLES {
            let Some(child) = member(obj, kw) else {
                continue;
            };
            if (kw == "additionalProperties"
                && (matches!(child, Value::Bool(false)) || skip_additional))
                || (kw == "propertyNames" && skip_names)
            {
                continue;
            }
            let o = self.child(child, at, kw, Token::None)?;
            height = height.max(o.height + 1);
        }
        for (slot, kw) in ARRAY.iter().enumerate() {
            let Some(arr) = member(obj, kw) else {
                continue;
            };
            let items = match arr {
                Value::Array(items) if !items.is_empty() => items,
                _ => {
                    own_err |= self.malformed(
                        at,
                        kw,
                        format!("{kw} must be a non-empty array of schemas"),
                    );
                    continue;
                }
            };
            let mut acc: Option<Mode> = None;
            for (i, child) in items.iter().enumerate() {
                let o = self.child(child, at, kw, Token::Index(i))?;
                height = height.max(o.height + 1);
                acc = Some(match (acc, slot) {
                    (None, _) => o.mode,
                    (Some(a), 0) => a.intersect(o.mode),
                    (Some(a), _) => a.union(o.mode),
                });
            }
            if let Some(c) = combos.get_mut(slot) {
                *c = acc;
            }
        }

        // Step 16: narrowing.
        if let Some(c) = member(obj, "const") {
            let m = if c.is_object() {
                Mode::Open
            } else {
                Mode::Excluded
            };
            mode = mode.intersect(m);
        }
        if let Some(e) = member(obj, "enum") {
            match e {
                Value::Array(members) if !members.is_empty() => {
                    let m = members
                        .iter()
                        .map(|v| {
                            if v.is_object() {
                                Mode::Open
                            } else {
                                Mode::Excluded
                            }
                        })
                        .fold(Mode::Excluded, Mode::union);
                    mode = mode.intersect(m);
                }
                _ => {
                    own_err |= self.malformed(at, "enum", "enum must be a non-empty array".into());
                }
            }
        }
        if let Some(r) = member(obj, "$ref") {
            let site = at.loc.child("$ref");
            self.charge(&site, &format!("{}.$ref", at.disp), "local reference")?;
            if is_local_ref(r) {
                let text = r.as_str().unwrap_or_default();
                match resolve(self.root, text) {
                    Ok(t) => {
                        let disp = format!("{}.$ref({text})", at.disp);
                        let child_at = At {
                            key: &t.key,
                            loc: &t.location,
                            disp: &disp,
                            depth: at.depth + 1,
                        };
                        let o = self.prove(t.value, &child_at, Via::Ref(&site))?;
                        height = height.max(o.height + 1);
                        mode = mode.intersect(o.mode);
                    }
                    Err(e) => {
                        let d = Diagnostic::new(
                            Code::UnresolvedRef,
                            format!("`$ref` {}: {e}", quote(text)),
                        )
                        .at(site.clone())
                        .help(
                            match super::ref_closure::missing_member_help(self.root, text) {
                                Some(h) => {
                                    format!("point `$ref` at an existing member: {h}")
                                }
                                None => "point `$ref` at an existing member, e.g. #/$defs/Name"
                                    .to_owned(),
                            },
                        );
                        self.report(d, &format!("{}.$ref:", at.disp), &e.to_string());
                        mode = mode.intersect(Mode::Closed);
                    }
                }
            } else {
                // Already reported by the F1 scan; do not cascade.
                mode = mode.intersect(Mode::Closed);
            }
        }
        for m in combos.into_iter().flatten() {
            mode = mode.intersect(m);
        }
        self.unsatisfiable_all_of(obj, at);

        // Step 17.
        if own_err {
            mode = Mode::Closed;
        } else if mode == Mode::Open {
            let d =
                Diagnostic::new(Code::OpenSchema, format!("schema {OPEN_GIST}")).at(at.loc.clone());
            self.report(d, at.disp, OPEN_GIST);
            mode = Mode::Closed;
        }
        Ok(Outcome { mode, height })
    }

    /// Proves one structural child.
    fn child(
        &mut self,
        value: &'a Value,
        at: &At<'_>,
        kw: &str,
        token: Token<'_>,
    ) -> Result<Outcome, Stop> {
        let (key, loc, disp) = match token {
            Token::None => (
                format!("{}/{kw}", at.key),
                at.loc.child(kw),
                format!("{}.{kw}", at.disp),
            ),
            Token::Name(name) => (
                format!("{}/{kw}/{}", at.key, escape(name)),
                at.loc.child(kw).child(name),
                format!("{}.{kw}.{name}", at.disp),
            ),
            Token::Index(i) => (
                format!("{}/{kw}/{i}", at.key),
                at.loc.child(kw).index(i),
                format!("{}.{kw}[{i}]", at.disp),
            ),
        };
        let child_at = At {
            key: &key,
            loc: &loc,
            disp: &disp,
            depth: at.depth + 1,
        };
        self.prove(value, &child_at, Via::Child)
    }

    fn malformed(&mut self, at: &At<'_>, kw: &str, gist: String) -> bool {
        let d = Diagnostic::new(Code::MalformedSchemaKeyword, gist.clone()).at(at.loc.child(kw));
        self.report(d, &format!("{}.{kw}", at.disp), &gist);
        true
    }

    /// Steps 3–7. Returns whether any fired.
    fn forbidden_keywords(&mut self, obj: &Map<String, Value>, at: &At<'_>) -> bool {
        let mut err = false;
        if member(obj, "patternProperties").is_some() {
            let gist = "patternProperties is forbidden; use the reviewed typed-map escape";
            let d = Diagnostic::new(Code::PatternProperties, "patternProperties is forbidden")
                .at(at.loc.child("patternProperties"));
            self.report(d, at.disp, gist);
            err = true;
        }
        if member(obj, "dependencies").is_some() {
            let gist =
                "legacy dependencies is forbidden; use dependentRequired or dependentSchemas";
            let d = Diagnostic::new(
                Code::LegacyDependencies,
                "legacy `dependencies` is forbidden",
            )
            .at(at.loc.child("dependencies"));
            self.report(d, at.disp, gist);
            err = true;
        }
        for kw in ["contentEncoding", "contentMediaType", "contentSchema"] {
            if member(obj, kw).is_some() {
                let gist = "is forbidden because portable Forms do not decode or transform embedded content";
                let d = Diagnostic::new(Code::ContentKeyword, format!("`{kw}` {gist}"))
                    .at(at.loc.child(kw));
                self.report(d, &format!("{}.{kw}", at.disp), gist);
                err = true;
            }
        }
        if let Some(s) = member(obj, "$schema") {
            if s.as_str() != Some(DRAFT_2020_12) {
                let gist = "must remain Draft 2020-12";
                let d = Diagnostic::new(Code::NestedDialect, format!("nested `$schema` {gist}"))
                    .at(at.loc.child("$schema"))
                    .help(format!(
                        "use {} or remove the nested `$schema`",
                        quote(DRAFT_2020_12)
                    ));
                self.report(d, &format!("{}.$schema", at.disp), gist);
                err = true;
            }
        }
        for kw in [
            "$id",
            "$anchor",
            "$dynamicAnchor",
            "$recursiveAnchor",
            "$recursiveRef",
            "$vocabulary",
        ] {
            if member(obj, kw).is_some() {
                let gist = "is forbidden because alternate or recursive resolution scopes cannot be proven closed";
                let d = Diagnostic::new(Code::ResolutionScopeKeyword, format!("`{kw}` {gist}"))
                    .at(at.loc.child(kw))
                    .help("remove it and use a document-local `$ref` such as #/$defs/Name");
                self.report(d, &format!("{}.{kw}", at.disp), gist);
                err = true;
            }
        }
        err
    }

    /// Steps 9–11: `properties`, `required`, `dependentRequired` shapes and
    /// the name hook. Returns `properties` when it is an object.
    fn names_and_shapes(
        &mut self,
        obj: &'a Map<String, Value>,
        at: &At<'_>,
    ) -> Option<&'a Map<String, Value>> {
        let properties = match member(obj, "properties") {
            None => None,
            Some(Value::Object(p)) => Some(p),
            Some(_) => {
                self.malformed(at, "properties", "properties must be an object".into());
                None
            }
        };
        if let Some(props) = properties {
            for (name, schema) in props {
                let q = NameQuery {
                    name,
                    site: NameSite::Property,
                    in_desired: self.in_desired,
                    property_schema: Some(schema),
                };
                if let Some(reason) = (self.names)(&q) {
                    let loc = at.loc.child("properties").child(name);
                    self.forbidden_name(
                        loc,
                        true,
                        name,
                        &reason,
                        &format!("{}.properties", at.disp),
                    );
                }
            }
        }
        match member(obj, "required") {
            None => {}
            Some(Value::Array(entries)) => {
                for (i, entry) in entries.iter().enumerate() {
                    let Value::String(name) = entry else {
                        let gist = "required entries must be strings".to_owned();
                        let d = Diagnostic::new(Code::MalformedSchemaKeyword, gist.clone())
                            .at(at.loc.child("required").index(i));
                        self.report(d, &format!("{}.required", at.disp), &gist);
                        continue;
                    };
                    let q = NameQuery {
                        name,
                        site: NameSite::Required,
                        in_desired: self.in_desired,
                        property_schema: properties.and_then(|p| member(p, name)),
                    };
                    if let Some(reason) = (self.names)(&q) {
                        let loc = at.loc.child("required").index(i);
                        self.forbidden_name(
                            loc,
                            false,
                            name,
                            &reason,
                            &format!("{}.required", at.disp),
                        );
                    }
                }
            }
            Some(_) => {
                self.malformed(at, "required", "required must be an array".into());
            }
        }
        match member(obj, "dependentRequired") {
            None => {}
            Some(Value::Object(deps)) => {
                for (key, list) in deps {
                    let disp = format!("{}.dependentRequired", at.disp);
                    let q = NameQuery {
                        name: key,
                        site: NameSite::DependentRequired,
                        in_desired: self.in_desired,
                        property_schema: None,
                    };
                    let key_loc = at.loc.child("dependentRequired").child(key);
                    if let Some(reason) = (self.names)(&q) {
                        self.forbidden_name(key_loc.clone(), true, key, &reason, &disp);
                    }
                    let Value::Array(entries) = list else {
                        let gist = "dependentRequired values must be arrays of strings".to_owned();
                        let d =
                            Diagnostic::new(Code::MalformedSchemaKeyword, gist.clone()).at(key_loc);
                        self.report(d, &disp, &gist);
                        continue;
                    };
                    for (i, entry) in entries.iter().enumerate() {
                        let Value::String(name) = entry else {
                            let gist = "dependentRequired entries must be strings".to_owned();
                            let d = Diagnostic::new(Code::MalformedSchemaKeyword, gist.clone())
                                .at(key_loc.index(i));
                            self.report(d, &disp, &gist);
                            continue;
                        };
                        let q = NameQuery {
                            name,
                            site: NameSite::DependentRequired,
                            in_desired: self.in_desired,
                            property_schema: None,
                        };
                        if let Some(reason) = (self.names)(&q) {
                            self.forbidden_name(key_loc.index(i), false, name, &reason, &disp);
                        }
                    }
                }
            }
            Some(_) => {
                self.malformed(
                    at,
                    "dependentRequired",
                    "dependentRequired must be an object".into(),
                );
            }
        }
        properties
    }

    fn forbidden_name(
        &mut self,
        loc: JsonPointer,
        key: bool,
        name: &str,
        reason: &str,
        disp: &str,
    ) {
        let d = Diagnostic::new(
            Code::ForbiddenSchemaName,
            format!("forbidden field {}", quote(name)),
        )
        .note(reason.to_owned());
        let d = if key { d.at_key(loc) } else { d.at(loc) };
        self.diags.push(d.note(format!(
            "reference message: forbidden field {} at {disp}",
            quote(name)
        )));
    }

    /// §4.3 object closure. Returns (error reported, skip proving
    /// `additionalProperties` as a child, skip proving `propertyNames` as a
    /// child) — a child is skipped when its fault is already reported here.
    fn object_closure(&mut self, obj: &Map<String, Value>, at: &At<'_>) -> (bool, bool, bool) {
        match member(obj, "additionalProperties") {
            Some(Value::Bool(false)) => (false, false, false),
            Some(Value::Bool(true)) => {
                let gist = "object schema must set additionalProperties to false or use the reviewed typed-map escape";
                let d = Diagnostic::new(
                    Code::OpenObjectSchema,
                    "object schema with `additionalProperties: true` can admit arbitrary members",
                )
                .at(at.loc.child("additionalProperties"))
                .help("set \"additionalProperties\": false, or use the reviewed typed-map escape");
                self.report(d, at.disp, gist);
                (true, true, false)
            }
            Some(Value::Object(_)) => {
                let (err, skip_names) = self.typed_map(obj, at);
                (err, false, skip_names)
            }
            other => {
                let gist = "object schema must set additionalProperties to false or a typed schema";
                let d = Diagnostic::new(Code::OpenObjectSchema, gist);
                let d = match other {
                    None => d
                        .at(at.loc.clone())
                        .note("`additionalProperties` is absent"),
                    Some(v) => d
                        .at(at.loc.child("additionalProperties"))
                        .note(format!("`additionalProperties` is a JSON {}", kind(v))),
                };
                self.report(d, at.disp, gist);
                (true, other.is_some(), false)
            }
        }
    }

    /// §4.3 typed-map escape checks. Returns (error reported, `propertyNames`
    /// is present but not the marker).
    fn typed_map(&mut self, obj: &Map<String, Value>, at: &At<'_>) -> (bool, bool) {
        let mut bad_names = false;
        let mut err = false;
        let fixed: Vec<&str> = [
            "properties",
            "required",
            "dependentRequired",
            "dependentSchemas",
            "unevaluatedProperties",
        ]
        .into_iter()
        .filter(|k| member(obj, k).is_some())
        .collect();
        if !fixed.is_empty() {
            let gist = "typed map must be a pure map without fixed or dependent properties";
            let d = Diagnostic::new(Code::ImpureTypedMap, gist)
                .at(at.loc.clone())
                .note(format!(
                    "also declares {}",
                    fixed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                ))
                .help("drop the fixed keywords, or set \"additionalProperties\": false for a closed object");
            self.report(d, at.disp, gist);
            err = true;
        }
        match member(obj, "propertyNames") {
            None => {
                let gist = "must declare the reviewed portable map-key policy";
                let d = Diagnostic::new(Code::MapKeyPolicy, format!("typed map {gist}"))
                    .at(at.loc.clone())
                    .note("`propertyNames` is absent");
                self.report(d, &format!("{}.propertyNames", at.disp), gist);
                err = true;
            }
            Some(pn) if !is_map_key_marker(pn) => {
                let gist = format!(
                    "must be exactly type=string, pattern={}, and x-takoform-fieldPolicy={}",
                    quote(MAP_KEY_PATTERN),
                    quote(MAP_KEY_MARKER)
                );
                let d = Diagnostic::new(
                    Code::MapKeyPolicy,
                    "typed map propertyNames is not the reviewed portable map-key policy",
                )
                .at(at.loc.child("propertyNames"))
                .note(format!("propertyNames {gist}"));
                self.report(d, &format!("{}.propertyNames", at.disp), &gist);
                err = true;
                bad_names = true;
            }
            Some(_) => {}
        }
        (err, bad_names)
    }

    /// §4.5: walks an exact-object-const literal, +1 operation per node.
    /// Returns the literal's height.
    fn charge_literal(&mut self, literal: &Value, at: &At<'_>) -> Result<usize, Stop> {
        let base = at.loc.child("const");
        self.literal_node(literal, &base, 0, at.disp)
    }

    fn literal_node(
        &mut self,
        v: &Value,
        loc: &JsonPointer,
        depth: usize,
        disp: &str,
    ) -> Result<usize, Stop> {
        if depth > DEPTH_LIMIT {
            return Err(self.depth_exceeded(
                loc,
                disp,
                format!("exact const literal node {depth} levels deep"),
            ));
        }
        self.charge(loc, disp, "an exact const literal")?;
        let mut h = 0;
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    h = h.max(1 + self.literal_node(c, &loc.child(k), depth + 1, disp)?);
                }
            }
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    h = h.max(1 + self.literal_node(c, &loc.index(i), depth + 1, disp)?);
                }
            }
            _ => {}
        }
        Ok(h)
    }

    /// Our extra help (never changes a verdict): `allOf` branches that are
    /// each closed objects where one requires a name another does not declare.
    fn unsatisfiable_all_of(&mut self, obj: &Map<String, Value>, at: &At<'_>) {
        let Some(Value::Array(branches)) = member(obj, "allOf") else {
            return;
        };
        if branches.len() < 2 {
            return;
        }
        let closed: Vec<Option<&Map<String, Value>>> =
            branches.iter().map(|b| self.closed_branch(b)).collect();
        if closed.iter().any(Option::is_none) {
            return;
        }
        let closed: Vec<&Map<String, Value>> = closed.into_iter().flatten().collect();
        for (i, a) in closed.iter().enumerate() {
            let Some(Value::Array(req)) = member(a, "required") else {
                continue;
            };
            for name in req.iter().filter_map(Value::as_str) {
                for (j, b) in closed.iter().enumerate() {
                    let declared = member(b, "properties")
                        .and_then(Value::as_object)
                        .is_some_and(|p| member(p, name).is_some());
                    if i != j && !declared {
                        let d = Diagnostic::new(
                            Code::UnsatisfiableAllOf,
                            format!("allOf branch {i} requires {}, which closed branch {j} does not declare: no object satisfies both", quote(name)),
                        )
                        .at(at.loc.child("allOf"))
                        .help(format!("declare {} in the properties of branch {j}, or drop it from branch {i}'s required", quote(name)));
                        self.diags.push(d);
                        return;
                    }
                }
            }
        }
    }

    /// The branch object behind up to 8 `$ref` hops, when it has
    /// `additionalProperties: false`.
    fn closed_branch(&self, mut b: &'a Value) -> Option<&'a Map<String, Value>> {
        for _ in 0..8 {
            let obj = b.as_object()?;
            if member(obj, "additionalProperties") == Some(&Value::Bool(false)) {
                return Some(obj);
            }
            let r = member(obj, "$ref")?.as_str()?;
            b = resolve(self.root, r).ok()?.value;
        }
        None
    }
}

enum Token<'t> {
    None,
    Name(&'t str),
    Index(usize),
}

/// The names in `type` (string or array form); anything else yields none.
fn type_names(t: Option<&Value>) -> Vec<&str> {
    match t {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// True for exactly the reviewed `propertyNames` marker object (§4.3).
pub fn is_map_key_marker(v: &Value) -> bool {
    let Value::Object(m) = v else {
        return false;
    };
    m.len() == 3
        && member(m, "type").and_then(Value::as_str) == Some("string")
        && member(m, "pattern").and_then(Value::as_str) == Some(MAP_KEY_PATTERN)
        && member(m, "x-takoform-fieldPolicy").and_then(Value::as_str) == Some(MAP_KEY_MARKER)
}
