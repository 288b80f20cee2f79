//! Published-schema validators compiled to Rust ahead of time (issue 38
//! item 1): the runtime the generated code (`native_gen/`) calls.
//!
//! The published schemas are fixed when the binary is built, so building
//! their validators with the `jsonschema` crate at every start (the
//! Draft 2020-12 meta-schema validator first, then every `pattern` of the
//! schema's `$ref` closure compiled) was a third of a one-package run.
//! `tests/golden/native_gen.rs` turns each embedded schema into one Rust
//! function per subschema (`$ref`s are calls, enums are matches, fixed
//! patterns are character loops or a `regex::Regex` built once when first
//! reached); its output is committed and a test checks it is current.
//!
//! Why hand-rolled: the crate's own compile-time validators
//! (`jsonschema-macros`) are not published for the pinned 0.61.2. The crate
//! stays the oracle: `tests/golden/native.rs` runs both on every corpus
//! document, mutant, conformance case and generated structural edit and
//! requires identical findings (keyword, instance pointer, message). Only
//! the schemas listed in [`native_gen::ENABLED`] are switched over; any
//! other schema, a document with more errors than a report shows (the crate
//! decides which are shown), or a pattern that would not build falls back
//! to the crate.
//!
//! The Draft 2020-12 meta-schema (with its vocabulary documents, from the
//! crate's own copy) is generated the same way ([`meta_errors`]) and proved
//! to give the crate's errors and first error. The engine checks the `$ref`
//! targets outside an inline schema's subschemas with it
//! ([`super::check_meta`] from `engine::refs`); the schema itself is checked
//! by the crate's own meta-schema validator inside its compile (`jsonschema`
//! 0.61.2 has no public option to skip that), so no schema is checked twice.

use crate::json::member;
use serde_json::{Number, Value};

#[path = "native_gen/mod.rs"]
#[rustfmt::skip]
#[allow(
    clippy::too_many_lines,
    clippy::needless_return,
    clippy::collapsible_if,
    clippy::collapsible_else_if,
    clippy::single_match,
    clippy::match_like_matches_macro,
    clippy::redundant_closure_for_method_calls,
    clippy::unreadable_literal,
    unused_variables
)]
mod native_gen;

/// What kind of failure one error is (only the kinds the report words
/// differently, [`super::readable`]; the rest are `Other`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `additionalProperties: false`, with the unexpected member names.
    AdditionalProperties(Vec<String>),
    /// `contains` (or its `minContains`/`maxContains` bounds).
    Contains,
    /// `pattern`, with the schema's pattern.
    Pattern(String),
    /// `not`.
    Not,
    /// `anyOf`: no branch matched.
    AnyOf,
    /// `oneOf`: no branch matched.
    OneOfNotValid,
    /// Every other keyword.
    Other,
}

/// One error of a published-schema validation, before it becomes a
/// [`super::Violation`]: what the crate's `ValidationError` carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawError {
    /// The kind.
    pub kind: Kind,
    /// Instance location (JSON Pointer text).
    pub instance_path: String,
    /// Keyword location in the schema's own document (no `$ref` hops).
    pub schema_path: String,
    /// The engine's message.
    pub message: String,
}

/// The state of one validation: where in the instance, what failed.
pub(crate) struct Ctx {
    path: String,
    out: Vec<RawError>,
    /// > 0 while only validity is asked (`anyOf`, `not`, `if`, `contains`).
    quiet: u32,
    failed: bool,
    /// A pattern could not be built: the crate decides instead.
    broken: bool,
    /// Nonzero inside `propertyNames`: the crate wraps each error there
    /// (its kind is `PropertyNames`, reported as [`Kind::Other`]).
    wrap: u32,
}

/// The errors of `instance` under the schema `id` as the crate would give
/// them, in the crate's order; `None` when `id` is not switched over, a
/// pattern would not build, or there are more than `limit` errors (the
/// crate then decides which are shown first).
pub(crate) fn errors(id: &str, instance: &Value, limit: usize) -> Option<Vec<RawError>> {
    if !native_gen::ENABLED.contains(&id) {
        return None;
    }
    errors_of(id, instance, limit)
}

/// [`errors`] for any generated schema, switched over or not (the tests).
pub(crate) fn errors_of(id: &str, instance: &Value, limit: usize) -> Option<Vec<RawError>> {
    let root = native_gen::root(id)?;
    let mut c = Ctx::new(false);
    root(instance, &mut c);
    if c.broken || c.out.len() > limit {
        return None;
    }
    Some(c.out)
}

/// Whether the generated matcher of the published pattern `p` matches `s`
/// (`None`: no such pattern, or its regex would not build).
pub(crate) fn pattern_matches(p: &str, s: &str) -> Option<bool> {
    let f = native_gen::pattern(p)?;
    let mut c = Ctx::new(true);
    let m = f(s, &mut c);
    (!c.broken).then_some(m)
}

/// The `$id` of the Draft 2020-12 meta-schema.
const META: &str = "https://json-schema.org/draft/2020-12/schema";

/// The errors of the schema `schema` under the Draft 2020-12 meta-schema,
/// in the crate's order (its first is what the crate's `validate` returns);
/// `None` when a pattern would not build (the crate decides).
pub(crate) fn meta_errors(schema: &Value) -> Option<Vec<RawError>> {
    errors_of(META, schema, usize::MAX)
}

/// Whether `schema` satisfies the Draft 2020-12 meta-schema (nothing is
/// recorded: no pointers built, no messages); `None` when a pattern would
/// not build.
pub(crate) fn meta_valid(schema: &Value) -> Option<bool> {
    let root = native_gen::root(META)?;
    let mut c = Ctx::new(true);
    root(schema, &mut c);
    (!c.broken).then_some(!c.failed)
}

/// True when a generated validator exists for `id` and is switched over.
pub(crate) fn enabled(id: &str) -> bool {
    native_gen::ENABLED.contains(&id)
}

impl Ctx {
    /// A fresh context at the instance's root: `quiet` asks validity only
    /// (no error is recorded, no pointer built).
    fn new(quiet: bool) -> Self {
        Ctx {
            path: String::new(),
            out: Vec::new(),
            quiet: u32::from(quiet),
            failed: false,
            broken: false,
            wrap: 0,
        }
    }

    /// Records a failure of the keyword at `schema_path` on `v`; the
    /// message is only formatted when errors are collected.
    #[inline]
    fn fail(&mut self, kind: Kind, schema_path: &'static str, message: impl FnOnce() -> String) {
        self.failed = true;
        if self.quiet == 0 {
            self.out.push(RawError {
                kind: if self.wrap == 0 { kind } else { Kind::Other },
                instance_path: self.path.clone(),
                schema_path: schema_path.to_owned(),
                message: message(),
            });
        }
    }

    /// Enters member `key` of the current object; returns the length to
    /// [`Ctx::leave`] with.
    #[inline]
    fn enter(&mut self, key: &str) -> usize {
        let len = self.path.len();
        if self.quiet == 0 {
            self.path.push('/');
            crate::json::pointer::push_escaped(&mut self.path, key);
        }
        len
    }

    /// Enters item `i` of the current array.
    #[inline]
    fn enter_index(&mut self, i: usize) -> usize {
        let len = self.path.len();
        if self.quiet == 0 {
            self.path.push('/');
            self.path.push_str(itoa(i).as_str());
        }
        len
    }

    #[inline]
    fn leave(&mut self, len: usize) {
        self.path.truncate(len);
    }

    /// Whether `v` satisfies the subschema `f` (nothing is recorded).
    #[inline]
    fn valid(&mut self, v: &Value, f: fn(&Value, &mut Ctx)) -> bool {
        let failed = self.failed;
        self.failed = false;
        self.quiet += 1;
        f(v, self);
        self.quiet -= 1;
        let ok = !self.failed;
        self.failed = failed;
        ok
    }
}

fn itoa(i: usize) -> String {
    i.to_string()
}

/// Draft 6+ integer (`1.0` is one), exactly as the crate decides it.
fn is_integer(n: &Number) -> bool {
    jsonschema_value::types::number_is_integer(n)
}

/// `n >= limit` as the crate's `minimum` compares.
fn ge_u64(n: &Number, limit: u64) -> bool {
    jsonschema_value::numeric::ge(n, limit)
}

/// `n > limit` as the crate's `exclusiveMinimum` compares.
fn gt_u64(n: &Number, limit: u64) -> bool {
    jsonschema_value::numeric::gt(n, limit)
}

/// `n <= limit` as the crate's `maximum` compares.
fn le_u64(n: &Number, limit: u64) -> bool {
    jsonschema_value::numeric::le(n, limit)
}

/// Length in Unicode scalar values (`minLength`/`maxLength`).
#[inline]
fn chars(s: &str) -> usize {
    s.chars().count()
}

/// JSON equality as JSON Schema defines it (numbers by value): the crate's.
fn equal(a: &Value, b: &Value) -> bool {
    jsonschema_value::cmp::equal(a, b)
}

/// `uniqueItems`: the crate's.
fn is_unique(items: &[Value]) -> bool {
    jsonschema_value::unique::is_unique(items)
}

/// The crate's message of `additionalProperties: false`.
fn additional_message(unexpected: &[String]) -> String {
    let names: Vec<String> = unexpected.iter().map(|n| format!("'{n}'")).collect();
    format!(
        "Additional properties are not allowed ({} {} unexpected)",
        names.join(", "),
        if unexpected.len() == 1 { "was" } else { "were" }
    )
}

/// A published `format` checked by the reference's rules (the same table
/// the crate is given, [`crate::formats::CHECKS`]); an unknown
/// format asserts nothing.
fn format_ok(name: &str, s: &str) -> bool {
    crate::formats::CHECKS
        .iter()
        .find(|(n, _)| *n == name)
        .is_none_or(|(_, check)| check(s))
}

/// A pattern compiled once, on first use, by the `regex` crate (as the
/// crate's `PatternOptions::regex()` compiles it). The generator emits it
/// for a published pattern that is not byte-safe; none is today.
#[allow(dead_code)]
fn regex_match(
    cell: &'static std::sync::OnceLock<Option<regex::Regex>>,
    pattern: &str,
    s: &str,
    c: &mut Ctx,
) -> bool {
    match cell.get_or_init(|| regex::Regex::new(pattern).ok()) {
        Some(r) => r.is_match(s),
        None => {
            c.broken = true;
            true
        }
    }
}

/// [`regex_match`] for a pattern the generator proved byte-safe (ASCII,
/// every negated class repeating without bound): compiled once without
/// Unicode (no UTF-8 automata) and run on the bytes of `s`, which gives the
/// answer of the pattern on its characters.
fn regex_match_bytes(
    cell: &'static std::sync::OnceLock<Option<regex::bytes::Regex>>,
    pattern: &str,
    s: &str,
    c: &mut Ctx,
) -> bool {
    let built = cell.get_or_init(|| {
        regex::bytes::RegexBuilder::new(pattern)
            .unicode(false)
            .build()
            .ok()
    });
    match built {
        Some(r) => r.is_match(s.as_bytes()),
        None => {
            c.broken = true;
            true
        }
    }
}

/// How many characters of `s` from byte `at` are in `class`, up to `max`;
/// returns the byte offset after them and the count.
#[inline]
fn run(s: &[u8], at: usize, max: usize, class: fn(u8) -> bool) -> (usize, usize) {
    let mut i = at;
    let mut n = 0;
    while n < max {
        match s.get(i) {
            Some(&b) if class(b) => {
                i += 1;
                n += 1;
            }
            _ => break,
        }
    }
    (i, n)
}

/// Same as [`run`] for a negated class: any character (of any length in
/// UTF-8) but the ASCII bytes `class` names.
#[inline]
fn run_not(s: &str, at: usize, max: usize, class: fn(u8) -> bool) -> (usize, usize) {
    let mut n = 0;
    let mut end = at;
    if let Some(rest) = s.get(at..) {
        for (off, ch) in rest.char_indices() {
            if n >= max || (ch.is_ascii() && class(ch as u8)) {
                return (at + off, n);
            }
            n += 1;
            end = at + off + ch.len_utf8();
        }
    }
    (end, n)
}
