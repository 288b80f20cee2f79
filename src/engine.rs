//! The Draft 2020-12 engine for inline schemas, tuned to behave like the
//! reference verifier's engine (`verifier-rules.md` §12 E1–E6).
//!
//! Built on the `jsonschema` crate (default features off: no HTTP, no file
//! access). What this module adds on top of the crate:
//!
//! - **Offline.** A retriever that refuses every URI; a remote `$ref` fails
//!   compilation without any connection attempt.
//! - **E1.** The crate's meta-schema validation runs at compile time;
//!   `engine/refs.rs` adds what the reference's engine checks and the crate does not
//!   (each `$ref` target outside the document's subschemas against the
//!   meta-schema) and hands the crate `$ref`s spelled its way (Go accepts a
//!   fragment with a space or `é`, the crate only RFC 3986).
//! - **E2.** `pattern`, `patternProperties` names and `format: "regex"`
//!   use Go's `regexp/syntax` grammar (Perl flags) with an unanchored
//!   search, decided by [`goregex`] exactly as Go decides it (Unicode
//!   15.0.0 tables, as Go 1.25). Every pattern is checked before the crate
//!   sees the schema, so a pattern Go cannot compile is refused with the
//!   pointer of that member; [`goregex`] translates the rest for the
//!   `regex` crate with every set written out.
//! - **E3.** Format assertion on for exactly the reference's list, each
//!   decided by the reference's own rules in [`formats`] (registered over
//!   the crate's checkers); `idn-email`, `idn-hostname` and unknown names
//!   are not asserted.
//! - **E4.** Numbers are decided exactly, as the reference's `big.Rat`
//!   does ([`numbers`]): every number in the inline schema is passed through
//!   binary64 and read back from its shortest decimal text
//!   ([`through_binary64`]), so `"maximum": 9223372036854775807` behaves as
//!   9223372036854776000; instance numbers keep their literal text (the
//!   strict reader's), so `1.0000000000000001` is not an integer and `1e24`
//!   is a multiple of `1e23`. `type`, `const`, `enum`, `uniqueItems`, the
//!   numeric bounds, `multipleOf` and the count keywords are this crate's
//!   own keywords (`engine::custom`); count keywords wrap like a Go
//!   `int`.
//! - **E5/E6.** Unknown keywords are ignored; string lengths are code points
//!   (both are the crate's behaviour, kept by tests).

use crate::diag::escape::{json_message, quote};
use jsonschema::{Draft, Keyword, ValidationError};
use serde_json::{Map, Number, Value};

use crate::diag::Target;
use crate::formats;
use crate::json::pointer::JsonPointer;

pub mod cache;
mod custom;
pub mod goregex;
pub mod numbers;
mod refs;
pub mod values;

/// The only `$schema` the caller accepts (checked by the caller, §3.2).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Formats the reference asserts (§12 E3). Every other name is ignored.
pub const ASSERTED_FORMATS: &[&str] = &[
    "regex",
    "json-pointer",
    "relative-json-pointer",
    "uuid",
    "duration",
    "period",
    "ipv4",
    "ipv6",
    "hostname",
    "email",
    "date",
    "time",
    "date-time",
    "uri",
    "iri",
    "uri-reference",
    "iri-reference",
    "uri-template",
    "semver",
];

/// Why an inline schema did not compile (§12 E1–E2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// Pointer into the inline schema (relative to its root) of the member
    /// at fault: the `pattern` member for a regex, the meta-schema error's
    /// location otherwise (root when the engine gives none).
    pub pointer: JsonPointer,
    /// Terse description (the engine's wording after our prefix).
    pub message: String,
}

/// One violation of an instance against a compiled schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Pointer into the instance document.
    pub instance_pointer: JsonPointer,
    /// Pointer into the inline schema (relative to its root) of the keyword
    /// that failed, e.g. `/properties/name/type`.
    pub schema_pointer: JsonPointer,
    /// `Key` when the finding is about a member name (an unexpected member
    /// refused by `additionalProperties: false`), else `Value`.
    pub target: Target,
    /// The engine's message.
    pub message: String,
}

/// A compiled inline schema. Compile once, validate many times; clones
/// share one validator (the [`cache`] hands the same one to every package
/// of a run whose schema is the same document).
#[derive(Clone)]
pub struct CompiledSchema {
    validator: std::sync::Arc<jsonschema::Validator>,
    /// This compilation's number in the process ([`CompiledSchema::id`]).
    id: u64,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledSchema")
    }
}

/// Refuses every URI: inline schemas are compiled fully offline.
struct RefuseAll;

impl jsonschema::Retrieve for RefuseAll {
    fn retrieve(
        &self,
        uri: &jsonschema::Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        Err(format!(
            "retrieval of {} is refused: inline schemas are compiled offline",
            quote(uri.as_str())
        )
        .into())
    }
}

/// The `pattern` keyword with Go semantics (replaces the crate's ECMA-262
/// one).
struct GoPattern {
    regex: std::sync::Arc<regex::Regex>,
    source: String,
}

impl<'i> Keyword<'i> for GoPattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "{instance} does not match {}",
                quote(&self.source)
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::String(s) => self.regex.is_match(s),
            _ => true,
        }
    }
}

fn pattern_factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let Some(source) = value.as_str() else {
        return Err(ValidationError::custom("pattern must be a string"));
    };
    match goregex::compile(source) {
        Ok(regex) => Ok(Box::new(GoPattern {
            regex,
            source: source.to_owned(),
        })),
        Err(reason) => Err(ValidationError::custom(format!(
            "pattern {} is not valid Go regexp syntax: {reason}",
            quote(source)
        ))),
    }
}

/// Replaces every number in `value` by the binary64 value nearest to it,
/// written back from its shortest decimal text (integral results within
/// 64 bits become integers, e.g. `9223372036854775807` →
/// `9223372036854776000`; others stay binary64). Implements the schema side
/// of §12 E4 (QUIRK: the reference decodes definitions into float64 maps).
pub fn through_binary64(value: &Value) -> Value {
    match value {
        Value::Number(n) => Value::Number(binary64_number(n)),
        Value::Array(items) => Value::Array(items.iter().map(through_binary64).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), through_binary64(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// [`through_binary64`] without a copy when it would change nothing: the
/// schema itself when every number in it is already what binary64 gives
/// back (a value read from JSON text usually is: only integers beyond
/// 2^53 and integral fractions such as `7.0` change), else the copy. The
/// `compat` prover reads a schema of 2 MB this way (issue 35 item 4).
pub fn through_binary64_cow(value: &Value) -> std::borrow::Cow<'_, Value> {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if binary64_number(n) != *n => {
                return std::borrow::Cow::Owned(through_binary64(value));
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    std::borrow::Cow::Borrowed(value)
}

fn binary64_number(n: &Number) -> Number {
    // An integer binary64 holds exactly is itself (the path below gives
    // the same integer back, through a float's text and `go_rat`: most of
    // the cost of an 80,000-value `enum`, issue 35 item 4).
    const EXACT: u64 = 1 << 53;
    if n.as_u64().is_some_and(|u| u <= EXACT)
        || n.as_i64().is_some_and(|i| i.unsigned_abs() <= EXACT)
    {
        return n.clone();
    }
    let Some(f) = n.as_f64() else {
        return n.clone();
    };
    let Some(nearest) = Number::from_f64(f) else {
        return n.clone();
    };
    if f.fract() == 0.0 {
        // The shortest round-trip digits (ties to even, as Go prints them),
        // read as the integer the reference reads back.
        if let Some(int) = numbers::go_rat(&nearest.to_string()).map(|r| r.to_integer()) {
            if let Ok(u) = u64::try_from(&int) {
                return Number::from(u);
            }
            if let Ok(i) = i64::try_from(&int) {
                return Number::from(i);
            }
        }
    }
    nearest
}

use crate::keywords::{self, Shape};

/// Every `pattern` (and `patternProperties` name) in a schema position
/// that Go's `regexp` cannot compile, with the pointer of that member
/// (§12 E2).
pub fn check_patterns(schema: &Value) -> Vec<CompileError> {
    let mut out = Vec::new();
    walk_patterns(schema, &JsonPointer::root(), &mut out);
    out
}

fn walk_patterns(schema: &Value, at: &JsonPointer, out: &mut Vec<CompileError>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(p)) = crate::json::member(map, "pattern") {
        if let Err(reason) = goregex::compile(p) {
            out.push(CompileError {
                pointer: at.child("pattern"),
                message: format!(
                    "pattern {} is not valid Go regexp syntax: {reason}",
                    quote(p)
                ),
            });
        }
    }
    if let Some(Value::Object(props)) = crate::json::member(map, "patternProperties") {
        for name in props.keys() {
            if let Err(reason) = goregex::parse(name) {
                out.push(CompileError {
                    pointer: at.child("patternProperties").child(name),
                    message: format!(
                        "patternProperties name {} is not valid Go regexp syntax: {reason}",
                        quote(name)
                    ),
                });
            }
        }
    }
    for (k, v) in map {
        let k = k.as_str();
        match keywords::shape(k) {
            Some(Shape::Single) => walk_patterns(v, &at.child(k), out),
            Some(Shape::Map) => {
                if let Value::Object(m) = v {
                    for (name, sub) in m {
                        walk_patterns(sub, &at.child(k).child(name), out);
                    }
                }
            }
            Some(Shape::Array) => {
                if let Value::Array(items) = v {
                    for (i, sub) in items.iter().enumerate() {
                        walk_patterns(sub, &at.child(k).index(i), out);
                    }
                }
            }
            None => {}
        }
    }
}

/// The engine's options for inline schemas (§12): Draft 2020-12, offline,
/// Go patterns (E2), the reference's format rules (E3) and exact numbers
/// (E4).
fn options() -> jsonschema::ValidationOptions<'static> {
    let mut options = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .with_retriever(RefuseAll)
        .with_keyword("pattern", pattern_factory)
        .with_format("regex", goregex::is_valid);
    // Every other asserted format: the reference's own rules (E3), never
    // the crate's checkers.
    for &(name, check) in formats::CHECKS {
        options = options.with_format(name, check);
    }
    // Formats the reference does not assert (E3): never assert them, even
    // if a crate feature would.
    for name in ["idn-email", "idn-hostname"] {
        options = options.with_format(name, |_: &str| true);
    }
    custom::register(options)
}

/// Compiles one inline schema (Draft 2020-12, offline, §12).
///
/// `schema` is the inline schema as it appears in the definition; its
/// `$schema` is checked by the caller (§3.2), the draft is fixed here.
/// Numbers pass through binary64 first (E4).
///
/// # Errors
/// Every Go-invalid `pattern` (E2), else every `$ref` the meta-schema
/// refuses (its spelling, or a target outside the document's subschemas
/// that fails the meta-schema; at the `$ref` member) and the engine's first
/// meta-schema or resolution error (E1), each with a pointer relative to
/// the schema root.
pub fn compile(schema: &Value) -> Result<CompiledSchema, Vec<CompileError>> {
    let bad_patterns = check_patterns(schema);
    if !bad_patterns.is_empty() {
        return Err(bad_patterns);
    }
    // The schema is copied only when something below changes it (most
    // inline schemas are built as they are: issue 38).
    let mut schema = through_binary64_cow(schema);
    // `$ref`s as the reference compiles them (E1, §5 F3): its spelling rule
    // and the meta-schema check of every target outside the document's
    // subschemas; the crate gets each `$ref` percent-encoded.
    let survey = refs::survey(&schema);
    refs::encode_refs(&mut schema, &survey.refs);
    let mut errors = survey.errors;
    if custom::may_rewrite_contains_counts(&schema) {
        custom::rewrite_contains_counts(schema.to_mut());
    }
    // The options are the same for every inline schema: built once per
    // thread (about 40 format and keyword registrations), not per schema.
    thread_local! {
        static OPTIONS: jsonschema::ValidationOptions<'static> = options();
    }
    match OPTIONS.with(|options| options.build(&schema)) {
        Ok(validator) if errors.is_empty() => Ok(CompiledSchema {
            validator: std::sync::Arc::new(validator),
            id: next_id(),
        }),
        Ok(_) => Err(errors),
        Err(e) => {
            let pointer = JsonPointer::parse(e.instance_path().as_str()).unwrap_or_default();
            errors.push(CompileError {
                pointer,
                message: json_message(&e.to_string()).into_owned(),
            });
            Err(errors)
        }
    }
}

/// [`compile`] through the process's bounded, content-addressed cache
/// ([`cache::SchemaCache::global`]): a schema that is the same document as
/// one compiled before in this process (in the same member order, numbers
/// as binary64: one content key, [`crate::memo::content_key`]) is not
/// compiled again. Same results as [`compile`].
///
/// # Errors
/// Those of [`compile`].
pub fn compile_shared(schema: &Value) -> Result<CompiledSchema, Vec<CompileError>> {
    cache::SchemaCache::global().get_or_compile(schema, compile)
}

/// A number no compilation of this process had before (the first is 1).
fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl CompiledSchema {
    /// This compilation's identity, unique in the process and never
    /// reused: clones share it (the schema cache hands one compiled schema
    /// to every package whose schema is the same document); two
    /// compilations of one schema have two. What the engine decides is a
    /// function of it and the instance (the fixture memo's key,
    /// [`crate::fixtures::memo`]).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// True when `instance` satisfies the schema (fast path, no error
    /// collection). Its numbers are read from their values (E4: as the
    /// reference reads a document decoded into binary64).
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.is_valid_with(instance, None)
    }

    /// [`CompiledSchema::is_valid`] with the literal text of every number of
    /// `instance` (from [`crate::json::strict::parse_value_with_numbers`]):
    /// numbers are then read exactly as written (E4).
    pub fn is_valid_with(&self, instance: &Value, literals: Option<&numbers::Literals>) -> bool {
        let _scope = numbers::Scope::enter(instance, literals);
        self.validator.is_valid(instance)
    }

    /// Up to `limit` violations, in the engine's order. An
    /// `additionalProperties: false` violation is split into one violation
    /// per unexpected member (sorted by name), each at that member's
    /// pointer with target `Key`.
    pub fn violations(&self, instance: &Value, limit: usize) -> Vec<Violation> {
        self.violations_with(instance, None, limit)
    }

    /// [`CompiledSchema::violations`] with the literal text of every number
    /// of `instance` (see [`CompiledSchema::is_valid_with`]).
    pub fn violations_with(
        &self,
        instance: &Value,
        literals: Option<&numbers::Literals>,
        limit: usize,
    ) -> Vec<Violation> {
        self.violations_counted(instance, literals, limit, false).0
    }

    /// [`CompiledSchema::violations_with`], and with `count_rest` the number
    /// of violations past the first `limit` (each unexpected member one, as
    /// above), counted without being built: a capped report says how many
    /// it does not show (issue 22 item 7). Without `count_rest` the count
    /// is 0 and the walk stops at the limit.
    pub fn violations_counted(
        &self,
        instance: &Value,
        literals: Option<&numbers::Literals>,
        limit: usize,
        count_rest: bool,
    ) -> (Vec<Violation>, usize) {
        let _scope = numbers::Scope::enter(instance, literals);
        let mut out = Vec::new();
        let mut rest: usize = 0;
        for e in self.validator.iter_errors(instance) {
            if out.len() >= limit {
                if !count_rest {
                    break;
                }
                rest = rest.saturating_add(match e.kind() {
                    jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } => {
                        unexpected.len()
                    }
                    _ => closed_without_properties(&e, instance).map_or(1, |n| n.len()),
                });
                continue;
            }
            let instance_pointer =
                JsonPointer::parse(e.instance_path().as_str()).unwrap_or_default();
            let schema_pointer = JsonPointer::parse(e.schema_path().as_str()).unwrap_or_default();
            let unexpected: Option<Vec<&String>> =
                if let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } =
                    e.kind()
                {
                    let mut names: Vec<&String> = unexpected.iter().collect();
                    names.sort();
                    Some(names)
                } else {
                    closed_without_properties(&e, instance)
                };
            if let Some(names) = unexpected {
                for name in names {
                    if out.len() >= limit {
                        rest = rest.saturating_add(1);
                        continue;
                    }
                    out.push(Violation {
                        instance_pointer: instance_pointer.child(name),
                        schema_pointer: schema_pointer.clone(),
                        target: Target::Key,
                        message: format!(
                            "unexpected member {} (additionalProperties is false)",
                            quote(name)
                        ),
                    });
                }
                continue;
            }
            out.push(Violation {
                instance_pointer,
                schema_pointer,
                target: Target::Value,
                message: json_message(&e.to_string()).into_owned(),
            });
        }
        (out, rest)
    }
}

/// The members of the object refused by an `additionalProperties: false`
/// that has no `properties` and no `patternProperties` beside it, sorted by
/// name. The crate reports that case as one false-schema error at the
/// object (its instance is the first member's value); every member of the
/// object is unexpected there. `None` for any other error, including a
/// false schema applied to one member's value (its instance is the value
/// at its own pointer).
fn closed_without_properties<'v>(
    e: &ValidationError<'_>,
    root: &'v Value,
) -> Option<Vec<&'v String>> {
    if !matches!(
        e.kind(),
        jsonschema::error::ValidationErrorKind::FalseSchema
    ) || !e.schema_path().as_str().ends_with("/additionalProperties")
    {
        return None;
    }
    let Value::Object(members) = root.pointer(e.instance_path().as_str())? else {
        return None;
    };
    // The error's instance is the object's first member value (not the
    // object itself, as when a member's own value is refused).
    if members.values().next() != Some(e.instance().as_ref()) {
        return None;
    }
    let mut names: Vec<&String> = members.keys().collect();
    names.sort();
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(body: Value) -> Value {
        let mut m = body.as_object().cloned().unwrap_or_default();
        m.insert("$schema".into(), json!(DRAFT_2020_12));
        Value::Object(m)
    }

    /// `compile` copies a schema only when it changes it (issue 38): a
    /// nested `contains` with a `maxContains` Go's `int` reads as negative
    /// is still rewritten (every array fails, as in Go), a `$ref` that needs percent-encoding
    /// still resolves, and a schema with neither compiles as it is (near
    /// miss: `contains` only as a property name is no rewrite, and the
    /// schema behaves as written).
    #[test]
    fn a_schema_is_copied_only_to_be_changed() {
        let nested = json!({"properties": {"a": {"contains": {"type": "integer"}, "maxContains": 9_223_372_036_854_775_808_u64}}});
        assert!(custom::may_rewrite_contains_counts(&nested));
        assert!(!valid(nested, r#"{"a": [1]}"#));
        let named = json!({"properties": {"contains": {"type": "string"}}});
        assert!(custom::may_rewrite_contains_counts(&named));
        let plain = json!({"properties": {"a": {"type": "string", "maxLength": 2}}});
        assert!(!custom::may_rewrite_contains_counts(&plain));
        assert!(valid(plain.clone(), r#"{"a": "ab"}"#));
        assert!(!valid(plain, r#"{"a": "abc"}"#));
        let spaced = json!({"$defs": {"a b": {"type": "string"}}, "$ref": "#/$defs/a b"});
        assert!(valid(spaced.clone(), r#""x""#));
        assert!(!valid(spaced, "1"));
    }

    fn valid(s: Value, instance: &str) -> bool {
        let c = compile(&schema(s)).expect("compiles");
        let inst: Value = serde_json::from_str(instance).expect("json");
        let fast = c.is_valid(&inst);
        assert_eq!(
            fast,
            c.violations(&inst, 100).is_empty(),
            "is_valid and violations agree"
        );
        fast
    }

    /// FD222 says "Go's regexp", not "RE2": Go accepts what C++ RE2
    /// refuses (a repeated capture name) and has its own repeat limit.
    #[test]
    fn patterns_compile_as_go_regexp_not_re2() {
        let compiles = |p: &str| compile(&schema(json!({"pattern": p}))).is_ok();
        assert!(compiles("(?P<a>x)(?P<a>y)"));
        assert!(compiles("a{1000}"));
        assert!(!compiles("a{1001}"));
        let errs = compile(&schema(json!({"pattern": "x(?=y)"}))).unwrap_err();
        assert!(errs
            .iter()
            .any(|e| e.message.contains("not valid Go regexp syntax")));
    }

    #[test]
    fn multiple_of_is_exact_decimal() {
        let cents = json!({"type": "number", "multipleOf": 0.01});
        assert!(valid(cents.clone(), "0.07"));
        assert!(valid(cents.clone(), "19.99"));
        assert!(!valid(cents.clone(), "0.075"));
        assert!(valid(json!({"multipleOf": 0.1}), "0.3"));
        assert!(!valid(json!({"multipleOf": 0.1}), "0.35"));
        assert!(valid(json!({"multipleOf": 3}), "9"));
        assert!(!valid(json!({"multipleOf": 3}), "10"));
    }

    #[test]
    fn schema_numbers_pass_through_binary64() {
        let s: Value = serde_json::from_str(r#"{"maximum": 9223372036854775807}"#).expect("json");
        assert_eq!(
            through_binary64(&s),
            json!({"maximum": 9223372036854776000u64})
        );
        let max =
            serde_json::from_str::<Value>(r#"{"maximum": 9223372036854775807}"#).expect("json");
        assert!(valid(max.clone(), "9223372036854775808"));
        assert!(valid(max.clone(), "9223372036854775900"));
        assert!(!valid(max, "9223372036854776001"));
        // Small integers and fractions are unchanged.
        assert_eq!(through_binary64(&json!([1, -2, 0.5])), json!([1, -2, 0.5]));
        // Integer type accepts an integral value written with a fraction.
        assert!(valid(json!({"type": "integer"}), "1.0"));
        assert!(!valid(json!({"type": "integer"}), "1.5"));
    }

    #[test]
    fn meta_schema_errors_refuse_compile() {
        for (body, ptr) in [
            (json!({"type": "strin"}), "/type"),
            (json!({"minLength": -1}), "/minLength"),
            (json!({"items": [{"type": "string"}]}), "/items"),
            (json!({"required": "a"}), "/required"),
        ] {
            let err = compile(&schema(body.clone())).expect_err("must refuse");
            assert_eq!(err[0].pointer.as_str(), ptr, "{body}");
        }
        assert!(compile(&schema(json!({"type": "string", "minLength": 0}))).is_ok());
    }

    #[test]
    fn go_incompatible_pattern_refuses_at_the_pattern() {
        let s = schema(json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"code": {"type": "string", "pattern": "^a(?=b)"}}
        }));
        let err = compile(&s).expect_err("lookahead refused");
        assert_eq!(err.len(), 1);
        assert_eq!(err[0].pointer.as_str(), "/properties/code/pattern");
        let back = schema(json!({"$defs": {"x": {"pattern": "(a)\\1"}}}));
        let err = compile(&back).expect_err("backreference refused");
        assert_eq!(err[0].pointer.as_str(), "/$defs/x/pattern");
        // Near miss: Go-only syntax is fine.
        assert!(compile(&schema(json!({"pattern": "(?i)^[[:alpha:]]+\\z"}))).is_ok());
    }

    #[test]
    fn pattern_is_unanchored_go_with_ascii_classes() {
        assert!(valid(json!({"pattern": "b"}), r#""abc""#));
        assert!(!valid(json!({"pattern": "^b"}), r#""abc""#));
        assert!(valid(json!({"pattern": "^\\d+$"}), r#""123""#));
        // U+0663 ARABIC-INDIC DIGIT THREE is not \d in Go.
        assert!(!valid(json!({"pattern": "^\\d$"}), "\"\u{0663}\""));
        assert!(valid(json!({"pattern": "^[[:alpha:]]+$"}), r#""abc""#));
        assert!(valid(json!({"pattern": "(?i)^abc$"}), r#""ABC""#));
        // Non-strings are ignored.
        assert!(valid(json!({"pattern": "^x$"}), "12"));
    }

    #[test]
    fn formats_asserted_exactly_as_the_reference() {
        assert!(!valid(json!({"format": "period"}), r#""garbage""#));
        assert!(valid(
            json!({"format": "period"}),
            r#""2024-01-01T00:00:00Z/P1D""#
        ));
        assert!(valid(
            json!({"format": "period"}),
            r#""P1D/2024-01-01T00:00:00Z""#
        ));
        assert!(valid(
            json!({"format": "period"}),
            r#""2024-01-01T00:00:00Z/2024-02-01T00:00:00Z""#
        ));
        assert!(!valid(json!({"format": "semver"}), r#""1.0""#));
        assert!(!valid(json!({"format": "semver"}), r#""01.0.0""#));
        assert!(valid(
            json!({"format": "semver"}),
            r#""1.2.3-rc.1+build.5""#
        ));
        assert!(valid(json!({"format": "idn-email"}), r#""garbage""#));
        assert!(valid(json!({"format": "idn-hostname"}), r#""-bad-""#));
        assert!(valid(json!({"format": "no-such-format"}), r#""garbage""#));
        assert!(!valid(json!({"format": "email"}), r#""garbage""#));
        assert!(!valid(
            json!({"format": "date-time"}),
            r#""2024-01-01 00:00:00""#
        ));
        assert!(valid(
            json!({"format": "date-time"}),
            r#""2024-01-01T00:00:00Z""#
        ));
        assert!(!valid(json!({"format": "uri"}), r#""no-scheme""#));
        assert!(!valid(json!({"format": "ipv4"}), r#""01.2.3.4""#));
        assert!(valid(json!({"format": "regex"}), r#""(?i)x""#));
        assert!(!valid(json!({"format": "regex"}), r#""x(?=y)""#));
        assert!(!valid(json!({"format": "date"}), r#""2023-02-29""#));
    }

    #[test]
    fn remote_ref_is_refused_offline() {
        let s = schema(json!({"$ref": "https://attacker.invalid/x.json"}));
        let err = compile(&s).expect_err("remote $ref refused");
        assert!(!err[0].message.is_empty());
        // Near miss: a local $ref compiles.
        let local = schema(json!({"$defs": {"a": {"type": "string"}}, "$ref": "#/$defs/a"}));
        assert!(compile(&local).is_ok());
    }

    #[test]
    fn unknown_keywords_ignored_and_lengths_in_code_points() {
        assert!(valid(
            json!({"x-takoform-binding": {"type": 7}, "additionalItems": false}),
            "[1]"
        ));
        assert!(valid(json!({"maxLength": 2}), "\"\u{1F600}\u{1F600}\""));
        assert!(!valid(json!({"maxLength": 1}), "\"\u{1F600}\u{1F600}\""));
        assert!(!valid(json!({"uniqueItems": true}), "[1, 1.0]"));
    }

    #[test]
    fn additional_properties_split_per_key() {
        let s = schema(json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {"name": {"type": "string"}}
        }));
        let c = compile(&s).expect("compiles");
        let v = c.violations(&json!({"name": "x", "foo": 1, "bar": 2}), 100);
        let at: Vec<(&str, Target)> = v
            .iter()
            .map(|x| (x.instance_pointer.as_str(), x.target))
            .collect();
        assert_eq!(at, vec![("/bar", Target::Key), ("/foo", Target::Key)]);
        assert_eq!(v[0].schema_pointer.as_str(), "/additionalProperties");
    }

    #[test]
    fn additional_properties_without_properties_names_every_key() {
        let s = schema(json!({
            "type": "object",
            "properties": {"o": {"type": "object", "additionalProperties": false}}
        }));
        let c = compile(&s).expect("compiles");
        let v = c.violations(&json!({"o": {"zeta": 1, "alpha": {"k": 2}}}), 100);
        let at: Vec<(&str, Target, &str)> = v
            .iter()
            .map(|x| {
                (
                    x.instance_pointer.as_str(),
                    x.target,
                    x.schema_pointer.as_str(),
                )
            })
            .collect();
        assert_eq!(
            at,
            vec![
                (
                    "/o/alpha",
                    Target::Key,
                    "/properties/o/additionalProperties"
                ),
                ("/o/zeta", Target::Key, "/properties/o/additionalProperties"),
            ]
        );
        assert!(v[0].message.contains("\"alpha\""), "{}", v[0].message);
        // Near miss: an empty object is fine; the limit is honoured.
        assert!(c.violations(&json!({"o": {}}), 100).is_empty());
        assert_eq!(c.violations(&json!({"o": {"a": 1, "b": 2}}), 1).len(), 1);
        // A false schema refusing one member's (object) value stays one
        // finding at that member.
        let member = schema(json!({
            "type": "object",
            "patternProperties": {"^a": false},
        }));
        let c = compile(&member).expect("compiles");
        let v = c.violations(&json!({"ab": {"x": 1}}), 100);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].instance_pointer.as_str(), "/ab");
        assert_eq!(v[0].target, Target::Value);
    }
}
