//! The desired-schema verdict (issue 20, item 1; versioning-rules V3, V4).
//!
//! Interface shared by the prover and the `compat` command. The prover
//! decides, for two inline Draft 2020-12 schemas of this profile (each a
//! whole schema document: its `$ref`s are local to its own root), whether
//! every document OLD accepts is accepted by NEW (V4: the change is
//! compatible) and conversely.
//!
//! # What is proved
//!
//! [`compare`] first compares RFC 8785 bytes (`identical`). Otherwise both
//! schemas are read as the engine reads them (numbers through binary64,
//! `engine::through_binary64`, E4) and `prove` decides `OLD ⊆ NEW`, then
//! `NEW ⊆ OLD`, node by node over the profile: `type`, `enum`/`const`
//! (the engine's equality: numbers exact, `1` = `1.0`), numeric bounds and
//! `multipleOf` as exact rationals, string lengths, `pattern`, `format`,
//! objects (`properties`, `required`, `additionalProperties` including
//! closed objects, `patternProperties`, `propertyNames`,
//! `dependentRequired`, member counts), arrays (`items`, `prefixItems`,
//! `contains`, counts, `uniqueItems`), `allOf`/`anyOf`/`oneOf`/`not`/
//! `if`-`then`-`else` and local `$ref` (recursion coinductively). See
//! `prove` for the method.
//!
//! Every counterexample is a concrete document built where the inclusion
//! failed (`gen`) and re-checked here with [`crate::engine`] against both
//! whole schemas before it is returned; one that fails the re-check is
//! never shown (the verdict is then `unknown`, saying so).
//!
//! Anything the prover cannot decide within its [`Budget`] is
//! [`Verdict::Unknown`] with the pointer of the OLD node and a reason:
//! never a guess (V3: an unproved change counts as breaking). When OLD ⊆
//! NEW is proved and only the converse is undecided, the change is proved
//! compatible: [`Verdict::Compatible`], with the pointer and reason of what
//! was not decided (it may widen, so a minor fits).
//!
//! `pattern` inclusion is regular-language inclusion over Go's syntax
//! (`regular`: automata built from the engine's own parse tree), after a
//! cheaper test that needs no automaton (`literal`: a NEW literal, `^L` or
//! `L$` implied by OLD's prefix, suffix or literal runs).
//!
//! The prover asks the engine's own semantics ([`crate::engine::values`]:
//! the kinds `type` tells apart and Go's equality), and an `enum` is the
//! engine's hashed set of its values, so comparing two `enum`s of `n`
//! values costs `n`, not `n²`; the [`Budget`] grows with the size of the
//! pair, so such a pair is decided, not given up.
//!
//! Not yet decided (always `unknown` when NEW has them and they changed):
//! `unevaluatedProperties`, `unevaluatedItems`, `dependentSchemas`,
//! `$dynamicRef`, non-local `$ref`s and a changed `maxContains`. A schema
//! with a nested `$id` and a `$ref` is `unknown` whole (the prover resolves
//! `$ref` against the root only; a nested `$id` moves the base).

use serde_json::Value;

use crate::json::pointer::JsonPointer;

/// The verdict on OLD ⊆ NEW and NEW ⊆ OLD, where each side is the set of
/// JSON documents a schema accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The two schemas are equal under RFC 8785 canonicalization.
    Identical,
    /// Different bytes, both inclusions proved: the same documents.
    Equivalent,
    /// OLD ⊆ NEW proved, and `newly_accepted` is a document NEW accepts and
    /// OLD refuses (checked by the engine before it is returned).
    Widened {
        /// A document valid under NEW and refused by OLD.
        newly_accepted: Value,
    },
    /// OLD ⊆ NEW proved (every OLD document is accepted by NEW: the change
    /// is compatible), but whether NEW accepts more than OLD could not be
    /// decided within the work budget. Treated as a possible widening:
    /// a minor fits (versioning-rules V3, V4).
    Compatible {
        /// Pointer into OLD (relative to its root) of the node where
        /// `NEW ⊆ OLD` could not be decided.
        pointer: JsonPointer,
        /// Why `NEW ⊆ OLD` could not be decided, in one phrase.
        reason: String,
    },
    /// `witness` is a document OLD accepts and NEW refuses (checked by the
    /// engine before it is returned).
    Breaking {
        /// A document valid under OLD and refused by NEW.
        witness: Value,
    },
    /// Neither proved nor refuted within the work budget; counts as
    /// breaking (versioning-rules V3).
    Unknown {
        /// Pointer into OLD (relative to its root) of the node that could
        /// not be decided.
        pointer: JsonPointer,
        /// Why it could not be decided, in one phrase.
        reason: String,
    },
}

impl Verdict {
    /// The verdict's name as printed: `identical`, `equivalent`, `widened`,
    /// `compatible`, `breaking` or `unknown`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Identical => "identical",
            Verdict::Equivalent => "equivalent",
            Verdict::Widened { .. } => "widened",
            Verdict::Compatible { .. } => "compatible",
            Verdict::Breaking { .. } => "breaking",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// Whether every document OLD accepts is accepted by NEW, proved
    /// (`identical`, `equivalent`, `widened`, `compatible`).
    pub fn is_compatible(&self) -> bool {
        matches!(
            self,
            Verdict::Identical
                | Verdict::Equivalent
                | Verdict::Widened { .. }
                | Verdict::Compatible { .. }
        )
    }
}

/// The work limits of one comparison (both directions share them).
///
/// Every step of the prover (a node pair visited, a flattening, a value
/// checked, a candidate built, a value of an `enum` indexed) counts one;
/// when `steps` (with `per_value` for each value of the inputs) run out the
/// undecided node is [`Verdict::Unknown`] with a reason, so a hostile pair
/// (nested `anyOf` × `oneOf`, deep recursion) ends, never hangs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Steps for the whole comparison (default 200,000: the largest real
    /// pair needs a few thousand).
    pub steps: u64,
    /// Deepest instance nesting (members and items) and schema nesting the
    /// prover follows (default 64).
    pub max_depth: u32,
    /// Largest array or object built for a counterexample (default 256).
    pub max_items: usize,
    /// Work one pattern inclusion may do (automaton states built and
    /// edges followed; default 4,000,000, a few tens of milliseconds),
    /// charged to `steps` as one step per thousand.
    pub regex_work: u64,
    /// Steps added to `steps` for each JSON value of the two schemas
    /// (default 8): the work allowed grows with the input, so a large but
    /// plain pair (an `enum` of 80,000 values, each checked once per
    /// direction) is decided, while the work stays linear in its size
    /// (issue 35, item 4).
    pub per_value: u64,
}

impl Budget {
    /// This budget for comparing `old` with `new`: `steps` plus
    /// `per_value` for each JSON value of both.
    fn for_pair(&self, old: &Value, new: &Value) -> Budget {
        let values = values(old).saturating_add(values(new));
        Budget {
            steps: self
                .steps
                .saturating_add(self.per_value.saturating_mul(values)),
            ..*self
        }
    }
}

/// How many JSON values `v` holds, itself included (iterative).
fn values(v: &Value) -> u64 {
    let mut n = 0u64;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Object(m) => stack.extend(m.values()),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    n
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            steps: 200_000,
            max_depth: 64,
            max_items: 256,
            regex_work: 4_000_000,
            per_value: 8,
        }
    }
}

/// Compares two desired schemas `old` and `new` (whole inline schema
/// documents, e.g. a definition's `/desiredSchema`) with the default
/// [`Budget`].
///
/// Never panics and always ends: hostile inputs end in
/// [`Verdict::Unknown`] with a reason.
pub fn compare(old: &Value, new: &Value) -> Verdict {
    compare_with(old, new, &Budget::default())
}

/// [`compare`] within `budget`.
///
/// `identical`: RFC 8785 equal. `equivalent`: both inclusions proved.
/// `widened`: OLD ⊆ NEW proved and `newly_accepted` valid under NEW and
/// refused by OLD (engine-checked). `compatible`: OLD ⊆ NEW proved, NEW ⊆
/// OLD undecided (the pointer into OLD where, and why). `breaking`:
/// `witness` valid under OLD and refused by NEW (engine-checked).
/// `unknown`: anything else, with the
/// pointer into OLD of the node not decided (root when the schemas do not
/// compile) and why.
pub fn compare_with(old: &Value, new: &Value, budget: &Budget) -> Verdict {
    compare_engines(old, new, budget, [None, None])
}

/// [`compare`] with either schema's compilation by the engine when the
/// caller has it (`compat` has verification's: [`super::side::Side`]),
/// so the re-check of the witness compiles neither again (issue 35 item
/// 4). `compiled[0]` must be [`crate::engine::compile`] of `old` and
/// `compiled[1]` of `new`; a `None` is compiled here.
pub fn compare_compiled(
    old: &Value,
    new: &Value,
    compiled: [Option<&crate::engine::CompiledSchema>; 2],
) -> Verdict {
    compare_engines(old, new, &Budget::default(), compiled)
}

fn compare_engines(
    old: &Value,
    new: &Value,
    budget: &Budget,
    compiled: [Option<&crate::engine::CompiledSchema>; 2],
) -> Verdict {
    for (side, v) in [("OLD", old), ("NEW", new)] {
        if nesting(v) > MAX_NESTING {
            return Verdict::Unknown {
                pointer: JsonPointer::root(),
                reason: format!("{side} nests deeper than {MAX_NESTING} levels"),
            };
        }
    }
    // Everything that recurses on the schemas (canonical form, the
    // engine's compiler and validator, the prover) runs on a thread whose
    // stack is sized for the nesting allowed, so no input can overflow the
    // caller's stack.
    let budget = *budget;
    on_prover_stack(move || decide(old, new, budget, compiled)).unwrap_or_else(|| {
        Verdict::Unknown {
            pointer: JsonPointer::root(),
            reason: "the prover could not run (thread)".to_owned(),
        }
    })
}

/// Runs `f` on a thread whose stack is [`PROVER_STACK`] (`None`: the
/// thread could not start or panicked).
fn on_prover_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("desired-prover".into())
            .stack_size(PROVER_STACK)
            .spawn_scoped(scope, f)
            .ok()
            .and_then(|h| h.join().ok())
    })
}

/// A desired document valid under both `old` and `new` (whole schema
/// documents) that holds an object at the member path `parents` (each a
/// `properties` name, from the root; empty: the document itself) lacking
/// the member `member`: the counterexample of a changed `default`
/// (versioning-rules V3: such a document means something else once the
/// default changed). Built by the prover's generator as a minimal
/// instance of both schemas at once, then re-checked here with
/// [`crate::engine`] against both whole schemas; `None` when no such
/// document was built (none may exist: `member` required) or the re-check
/// refused it.
pub fn omitting(old: &Value, new: &Value, parents: &[String], member: &str) -> Option<Value> {
    let doc = omitting_unchecked(old, new, parents, member)?;
    on_prover_stack(|| {
        let (o, n) = (
            crate::engine::compile(old).ok()?,
            crate::engine::compile(new).ok()?,
        );
        (o.is_valid(&doc) && n.is_valid(&doc)).then_some(doc)
    })
    .flatten()
}

/// [`omitting`] without the re-check: the minimal document of both
/// schemas lacking `member`, which may be valid under neither (a member
/// `required` on a side). What hosts that materialize make of it is judged
/// by the caller ([`super::meaning`], breaker F12: a `default` added to a
/// required member makes such hosts accept a document that omits it).
pub fn omitting_unchecked(
    old: &Value,
    new: &Value,
    parents: &[String],
    member: &str,
) -> Option<Value> {
    if nesting(old) > MAX_NESTING || nesting(new) > MAX_NESTING {
        return None;
    }
    on_prover_stack(|| {
        let (old_b, new_b) = (
            crate::engine::through_binary64_cow(old),
            crate::engine::through_binary64_cow(new),
        );
        let mut p = prove::Prover::new(Budget::default().for_pair(&old_b, &new_b));
        let nodes = [
            model::Node {
                root: &old_b,
                v: &old_b,
            },
            model::Node {
                root: &new_b,
                v: &new_b,
            },
        ];
        omit(&mut p, &nodes, parents, member, 0)
    })
    .flatten()
}

/// A minimal object of the conjunction `nodes` with, along `parents`, a
/// minimal object of each member's nodes, the last one without `member`.
fn omit<'a>(
    p: &mut prove::Prover<'a>,
    nodes: &[model::Node<'a>],
    parents: &[String],
    member: &str,
    lvl: u32,
) -> Option<Value> {
    let flat = p.flatten(nodes, &[]);
    let mut o = p.gen_object(&flat, lvl, None)?;
    match parents.split_first() {
        None => {
            o.remove(member);
        }
        Some((name, rest)) => {
            let inner = p.member_nodes(&flat, name)?;
            let v = omit(p, &inner, rest, member, lvl + 1)?;
            o.insert(name.clone(), v);
        }
    }
    Some(Value::Object(o))
}

/// Deepest JSON nesting a compared schema may have.
const MAX_NESTING: usize = 512;

/// The nesting depth of a JSON value (iterative).
fn nesting(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        deepest = deepest.max(d);
        match v {
            Value::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    deepest
}

fn decide(
    old: &Value,
    new: &Value,
    budget: Budget,
    compiled: [Option<&crate::engine::CompiledSchema>; 2],
) -> Verdict {
    // A boolean schema has no RFC 8785 form of its own here
    // (`canonicalize` takes containers only): compared as values. Two
    // containers are compared as their RFC 8785 bytes would be, without
    // writing them (`same_canonical`).
    let container = |v: &Value| matches!(v, Value::Object(_) | Value::Array(_));
    let same = if container(old) && container(new) {
        crate::canonical::same_canonical(old, new)
    } else {
        old == new
    };
    if same {
        return Verdict::Identical;
    }
    let unknown = |pointer: JsonPointer, reason: String| Verdict::Unknown { pointer, reason };
    for (side, v) in [("OLD", old), ("NEW", new)] {
        if let Some(at) = nested_id(v) {
            let reason = format!(
                "{side} has a nested `$id` at {at}: it changes the base the `$ref`s under it resolve against, and the prover resolves `$ref` against the root only"
            );
            let pointer = if side == "OLD" {
                at
            } else {
                JsonPointer::root()
            };
            return unknown(pointer, reason);
        }
    }
    let [old_compiled, new_compiled] = compiled;
    let compile = |given: Option<&crate::engine::CompiledSchema>, schema: &Value| match given {
        Some(c) => Ok(c.clone()),
        None => crate::engine::compile(schema),
    };
    let (old_engine, new_engine) = match (compile(old_compiled, old), compile(new_compiled, new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => {
            let first = e.into_iter().next();
            return unknown(
                first
                    .as_ref()
                    .map(|e| e.pointer.clone())
                    .unwrap_or_default(),
                format!(
                    "OLD does not compile: {}",
                    first.map(|e| e.message).unwrap_or_default()
                ),
            );
        }
        (_, Err(e)) => {
            return unknown(
                JsonPointer::root(),
                format!(
                    "NEW does not compile: {}",
                    e.into_iter().next().map(|e| e.message).unwrap_or_default()
                ),
            );
        }
    };
    let old_b = crate::engine::through_binary64_cow(old);
    let new_b = crate::engine::through_binary64_cow(new);
    let outcome = run(&old_b, &new_b, budget.for_pair(&old_b, &new_b));
    let valid = |engine: &crate::engine::CompiledSchema, doc: &Value| engine.is_valid(doc);
    match outcome {
        Outcome::Unknown(pointer, reason) => unknown(pointer, reason),
        Outcome::Breaking(witness, pointer) => {
            if valid(&old_engine, &witness) && !valid(&new_engine, &witness) {
                Verdict::Breaking { witness }
            } else {
                unknown(
                    pointer,
                    "OLD ⊆ NEW failed here, but the counterexample built failed the engine re-check"
                        .to_owned(),
                )
            }
        }
        Outcome::Equivalent => Verdict::Equivalent,
        Outcome::Widened(doc, pointer) => {
            if valid(&new_engine, &doc) && !valid(&old_engine, &doc) {
                Verdict::Widened {
                    newly_accepted: doc,
                }
            } else {
                Verdict::Compatible {
                    pointer,
                    reason:
                        "NEW ⊆ OLD failed here, but the example built failed the engine re-check"
                            .to_owned(),
                }
            }
        }
        Outcome::WidenedUnknown(pointer, reason) => Verdict::Compatible { pointer, reason },
    }
}

/// The pointer of a `$id` below the root of `schema` when `schema` also
/// has a `$ref` (a nested `$id` without any `$ref` changes nothing the
/// prover reads), over [`schema_objects`].
fn nested_id(schema: &Value) -> Option<JsonPointer> {
    let mut found = None;
    let mut has_ref = false;
    for (m, at) in schema_objects(schema) {
        has_ref |= matches!(m.get("$ref"), Some(Value::String(_)));
        if matches!(m.get("$id"), Some(Value::String(_))) && !at.is_root() {
            found.get_or_insert(at);
        }
    }
    found.filter(|_| has_ref)
}

/// Every schema object of `schema` with its pointer, walked as a schema
/// (iterative: no recursion on the depth): the values of `const`, `enum`,
/// `default`, `examples` and of `x-` annotations are data and are not
/// searched, and the members of `properties`, `patternProperties`,
/// `$defs` and `dependentSchemas` are schemas whatever their names.
pub fn schema_objects(schema: &Value) -> Vec<(&serde_json::Map<String, Value>, JsonPointer)> {
    let mut out = Vec::new();
    // (value, pointer, whether it is a map of names to schemas)
    let mut stack: Vec<(&Value, JsonPointer, bool)> = vec![(schema, JsonPointer::root(), false)];
    while let Some((v, at, names)) = stack.pop() {
        match v {
            Value::Object(m) if names => {
                stack.extend(m.iter().map(|(k, x)| (x, at.child(k), false)));
            }
            Value::Object(m) => {
                for (k, x) in m {
                    match k.as_str() {
                        "const" | "enum" | "default" | "examples" => {}
                        k if k.starts_with("x-") => {}
                        "properties" | "patternProperties" | "$defs" | "dependentSchemas" => {
                            stack.push((x, at.child(k), true));
                        }
                        _ => stack.push((x, at.child(k), false)),
                    }
                }
                out.push((m, at));
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    stack.push((x, at.index(i), false));
                }
            }
            _ => {}
        }
    }
    out
}

/// Stack of the prover's thread: far above what `Budget::max_depth`
/// levels of prover recursion and [`MAX_NESTING`] levels of schema need.
const PROVER_STACK: usize = 64 << 20;

/// What the prover found, before the engine re-check.
enum Outcome {
    Equivalent,
    Breaking(Value, JsonPointer),
    Widened(Value, JsonPointer),
    WidenedUnknown(JsonPointer, String),
    Unknown(JsonPointer, String),
}

fn run(old: &Value, new: &Value, budget: Budget) -> Outcome {
    let mut p = prove::Prover::new(budget);
    let o = model::Node { root: old, v: old };
    let n = model::Node { root: new, v: new };
    let at = |addr: usize| pointer_of(old, addr);
    match p.sub(&[o], n, 0) {
        prove::Out::Unk(a, b, why) => {
            let ptr = at(a).or_else(|| at(b)).unwrap_or_default();
            Outcome::Unknown(ptr, why)
        }
        prove::Out::No(w, a) => Outcome::Breaking(w, at(a).unwrap_or_default()),
        prove::Out::Yes => match p.sub(&[n], o, 0) {
            prove::Out::Yes => Outcome::Equivalent,
            prove::Out::No(w, a) => {
                let _ = a;
                Outcome::Widened(w, JsonPointer::root())
            }
            prove::Out::Unk(a, b, why) => {
                let ptr = at(b).or_else(|| at(a)).unwrap_or_default();
                Outcome::WidenedUnknown(ptr, swap_sides(&why))
            }
        },
    }
}

/// A reason of the prover's second direction (NEW ⊆ OLD) told from the
/// pair's side: the prover words every reason as "OLD ⊆ NEW" (its first
/// argument OLD), so the words `OLD` and `NEW` are swapped outside quoted
/// package text (issue 35 item 5: FD667 said "NEW asserts `format:
/// regex`" when OLD does).
fn swap_sides(why: &str) -> String {
    let mut out = String::with_capacity(why.len());
    let mut quoted = false;
    let mut escaped = false;
    let mut rest = why;
    while let Some(c) = rest.chars().next() {
        if !quoted {
            let word_start = !out.chars().next_back().is_some_and(char::is_alphanumeric);
            let swap = [("OLD", "NEW"), ("NEW", "OLD")].into_iter().find(|(w, _)| {
                word_start
                    && rest.starts_with(w)
                    && !rest
                        .get(w.len()..)
                        .and_then(|r| r.chars().next())
                        .is_some_and(char::is_alphanumeric)
            });
            if let Some((w, by)) = swap {
                out.push_str(by);
                rest = rest.get(w.len()..).unwrap_or_default();
                continue;
            }
        }
        if quoted && c == '\\' {
            escaped = !escaped;
        } else {
            if c == '"' && !escaped {
                quoted = !quoted;
            }
            escaped = false;
        }
        out.push(c);
        rest = rest.get(c.len_utf8()..).unwrap_or_default();
    }
    out
}

/// The pointer of the node at address `addr` inside `root`, if it is one
/// of its nodes (iterative: no recursion on the document's depth).
fn pointer_of(root: &Value, addr: usize) -> Option<JsonPointer> {
    let mut stack: Vec<(&Value, JsonPointer)> = vec![(root, JsonPointer::root())];
    while let Some((v, at)) = stack.pop() {
        if std::ptr::from_ref(v) as usize == addr {
            return Some(at);
        }
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    stack.push((x, at.child(k)));
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    stack.push((x, at.index(i)));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod side_tests {
    /// Issue 35 item 5: a reason of NEW ⊆ OLD names the side that asserts
    /// it. Near miss: the words inside quoted package text stay as written.
    #[test]
    fn swap_sides_swaps_the_words_outside_quotes() {
        assert_eq!(
            super::swap_sides(
                "NEW asserts `format: regex`, which OLD's strings were not proved to meet"
            ),
            "OLD asserts `format: regex`, which NEW's strings were not proved to meet"
        );
        assert_eq!(
            super::swap_sides(r#"NEW's pattern "OLD\"NEW": too big; NEWS"#),
            r#"OLD's pattern "OLD\"NEW": too big; NEWS"#
        );
    }
}

mod applicators;
mod arrays;
mod eval;
mod gen;
mod literal;
mod meter;
mod model;
mod numbers;
mod objects;
mod prove;
mod references;
mod regular;
mod strings;
