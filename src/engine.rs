//! The Draft 2020-12 engine for inline schemas, tuned to behave like the
//! reference verifier's engine (`verifier-rules.md` §12 E1–E6).
//!
//! Built on the `jsonschema` crate (default features off: no HTTP, no file
//! access). What this module adds on top of the crate:
//!
//! - **Offline.** A retriever that refuses every URI; a remote `$ref` fails
//!   compilation without any connection attempt.
//! - **E1.** The crate's meta-schema validation runs at compile time.
//! - **E2.** `pattern` and `format: "regex"` use RE2 (Go) syntax with an
//!   unanchored search. Every `pattern` is checked before the crate sees the
//!   schema, so a pattern Go cannot compile (lookaround, backreference,
//!   possessive or nested quantifier, unknown flag) is refused with the
//!   pointer of that `pattern` member. Patterns are translated to the `regex`
//!   crate's syntax by [`re2`]: `\d \w \s \b` become ASCII (as in Go).
//! - **E3.** Format assertion on for exactly the reference's list, each
//!   decided by the reference's own rules in [`formats`] (registered over
//!   the crate's checkers); `idn-email`, `idn-hostname` and unknown names
//!   are not asserted.
//! - **E4.** Every number in the inline schema is passed through binary64
//!   and read back from its shortest decimal text before compilation
//!   ([`through_binary64`]), so `"maximum": 9223372036854775807` behaves as
//!   9223372036854776000. Instance numbers are serde_json numbers: integers
//!   up to 64 bits are exact; fractions are binary64 values that the crate
//!   reads back from their shortest decimal text for `multipleOf` (so
//!   `0.3` is a multiple of `0.1`). Literals with more than ~15 significant
//!   digits are therefore rounded first (the reference keeps them exact).
//! - **E5/E6.** Unknown keywords are ignored; string lengths are code points
//!   (both are the crate's behaviour, kept by tests).

use jsonschema::{Draft, Keyword, ValidationError};
use serde_json::{Map, Number, Value};

use crate::diag::Target;
use crate::json::pointer::JsonPointer;

/// The only `$schema` the caller accepts (checked by the caller, §3.2).
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

pub mod formats;

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

/// A compiled inline schema. Compile once per package, validate many times.
pub struct CompiledSchema {
    validator: jsonschema::Validator,
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
            "retrieval of \"{}\" is refused: inline schemas are compiled offline",
            uri.as_str()
        )
        .into())
    }
}

/// The `pattern` keyword with RE2 semantics (replaces the crate's ECMA-262
/// one).
struct Re2Pattern {
    regex: regex::Regex,
    source: String,
}

impl<'i> Keyword<'i> for Re2Pattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "{instance} does not match \"{}\"",
                self.source
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
    match re2::compile(source) {
        Ok(regex) => Ok(Box::new(Re2Pattern {
            regex,
            source: source.to_owned(),
        })),
        Err(reason) => Err(ValidationError::custom(format!(
            "pattern \"{source}\" is not valid RE2 syntax: {reason}"
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

fn binary64_number(n: &Number) -> Number {
    let Some(f) = n.as_f64() else {
        return n.clone();
    };
    if f.fract() == 0.0 {
        // Rust's Display prints the shortest round-trip digits padded with
        // zeros, i.e. the decimal the reference reads back.
        let text = format!("{f}");
        if let Ok(u) = text.parse::<u64>() {
            return Number::from(u);
        }
        if let Ok(i) = text.parse::<i64>() {
            return Number::from(i);
        }
    }
    Number::from_f64(f).unwrap_or_else(|| n.clone())
}

use crate::keywords::{self, Shape};

/// Every `pattern` in a schema position that RE2 cannot compile, with the
/// pointer of that `pattern` member (§12 E2).
pub fn check_patterns(schema: &Value) -> Vec<CompileError> {
    let mut out = Vec::new();
    walk_patterns(schema, &JsonPointer::root(), &mut out);
    out
}

fn walk_patterns(schema: &Value, at: &JsonPointer, out: &mut Vec<CompileError>) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(Value::String(p)) = map.get("pattern") {
        if let Err(reason) = re2::compile(p) {
            out.push(CompileError {
                pointer: at.child("pattern"),
                message: format!("pattern \"{p}\" is not valid RE2 syntax: {reason}"),
            });
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

/// Compiles one inline schema (Draft 2020-12, offline, §12).
///
/// `schema` is the inline schema as it appears in the definition; its
/// `$schema` is checked by the caller (§3.2), the draft is fixed here.
/// Numbers pass through binary64 first (E4).
///
/// # Errors
/// Every RE2-invalid `pattern` (E2), else the engine's first meta-schema or
/// resolution error (E1), each with a pointer relative to the schema root.
pub fn compile(schema: &Value) -> Result<CompiledSchema, Vec<CompileError>> {
    let bad_patterns = check_patterns(schema);
    if !bad_patterns.is_empty() {
        return Err(bad_patterns);
    }
    let schema = through_binary64(schema);
    let mut options = jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .with_retriever(RefuseAll)
        .with_keyword("pattern", pattern_factory)
        .with_format("regex", |s: &str| re2::compile(s).is_ok());
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
    match options.build(&schema) {
        Ok(validator) => Ok(CompiledSchema { validator }),
        Err(e) => {
            let pointer = JsonPointer::parse(e.instance_path().as_str()).unwrap_or_default();
            Err(vec![CompileError {
                pointer,
                message: e.to_string(),
            }])
        }
    }
}

impl CompiledSchema {
    /// True when `instance` satisfies the schema (fast path, no error
    /// collection).
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Up to `limit` violations, in the engine's order. An
    /// `additionalProperties: false` violation is split into one violation
    /// per unexpected member (sorted by name), each at that member's
    /// pointer with target `Key`.
    pub fn violations(&self, instance: &Value, limit: usize) -> Vec<Violation> {
        let mut out = Vec::new();
        for e in self.validator.iter_errors(instance) {
            if out.len() >= limit {
                break;
            }
            let instance_pointer =
                JsonPointer::parse(e.instance_path().as_str()).unwrap_or_default();
            let schema_pointer = JsonPointer::parse(e.schema_path().as_str()).unwrap_or_default();
            if let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } =
                e.kind()
            {
                let mut names: Vec<&String> = unexpected.iter().collect();
                names.sort();
                for name in names {
                    if out.len() >= limit {
                        break;
                    }
                    out.push(Violation {
                        instance_pointer: instance_pointer.child(name),
                        schema_pointer: schema_pointer.clone(),
                        target: Target::Key,
                        message: format!(
                            "unexpected member \"{name}\" (additionalProperties is false)"
                        ),
                    });
                }
                continue;
            }
            if let Some(names) = closed_without_properties(&e, instance) {
                for name in names {
                    if out.len() >= limit {
                        break;
                    }
                    out.push(Violation {
                        instance_pointer: instance_pointer.child(name),
                        schema_pointer: schema_pointer.clone(),
                        target: Target::Key,
                        message: format!(
                            "unexpected member \"{name}\" (additionalProperties is false)"
                        ),
                    });
                }
                continue;
            }
            out.push(Violation {
                instance_pointer,
                schema_pointer,
                target: Target::Value,
                message: e.to_string(),
            });
        }
        out
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

/// RE2 (Go `regexp/syntax`, Perl flags) patterns on top of the `regex`
/// crate (§12 E2).
pub mod re2 {
    /// Go's maximum counted repetition (`{n}`, `{n,m}`).
    const MAX_REPEAT: u32 = 1000;

    /// Compiles an RE2 pattern for an unanchored search.
    ///
    /// # Errors
    /// A terse reason when Go would refuse the pattern (lookaround,
    /// backreference, nested/possessive quantifier, repeat count over 1000,
    /// unknown flag or escape), or when the translation does not compile.
    pub fn compile(pattern: &str) -> Result<regex::Regex, String> {
        use std::collections::HashMap;
        use std::sync::{LazyLock, Mutex, PoisonError};
        /// Outcomes by pattern, shared by every thread: a pattern is checked
        /// (walk) and then compiled (keyword) for one schema, and recurs
        /// across the schemas of a tree. Bounded: cleared at `LIMIT`
        /// patterns. Cloning a `Regex` shares its compiled program.
        const LIMIT: usize = 4096;
        type Outcomes = HashMap<String, Result<regex::Regex, String>>;
        static CACHE: LazyLock<Mutex<Outcomes>> = LazyLock::new(|| Mutex::new(HashMap::new()));
        if let Some(hit) = CACHE
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(pattern)
        {
            return hit.clone();
        }
        let outcome = compile_uncached(pattern);
        let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= LIMIT {
            cache.clear();
        }
        cache.insert(pattern.to_owned(), outcome.clone());
        outcome
    }

    fn compile_uncached(pattern: &str) -> Result<regex::Regex, String> {
        let translated = translate(pattern)?;
        regex::RegexBuilder::new(&translated).build().map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or("invalid pattern")
                .trim()
                .to_owned()
        })
    }

    /// Translates RE2 syntax to the `regex` crate's: `\d \w \s \b` and their
    /// negations become ASCII classes, octal escapes become `\x{..}`,
    /// `\Q…\E` is quoted, a `{` that is not a repetition and a `[` inside a
    /// class are literal, `&`/`~`/`-` doubling inside a class is literal.
    ///
    /// # Errors
    /// The reasons listed for [`compile`].
    pub fn translate(p: &str) -> Result<String, String> {
        let chars: Vec<char> = p.chars().collect();
        let mut out = String::with_capacity(p.len() + 16);
        let mut i = 0;
        let mut in_class = false;
        let mut class_start = false;
        // Whether the previous item was a quantifier (for nested-repetition
        // errors) and whether it already took its lazy `?`.
        let mut after_quant = false;
        let mut lazy_taken = false;
        let mut can_repeat = false;
        while let Some(&c) = chars.get(i) {
            if in_class {
                let at_start = class_start;
                class_start = false;
                match c {
                    '\\' => {
                        let (text, used) = escape(&chars, i, true)?;
                        out.push_str(&text);
                        i += used;
                        continue;
                    }
                    ']' if !at_start => {
                        in_class = false;
                        out.push(']');
                        after_quant = false;
                        can_repeat = true;
                    }
                    '[' => {
                        if chars.get(i + 1) == Some(&':') {
                            // POSIX class `[:alpha:]` (or `[:^alpha:]`).
                            let rest: String = chars.get(i..).unwrap_or_default().iter().collect();
                            if let Some(end) = rest.find(":]") {
                                let body = &rest[..end + 2];
                                out.push_str(body);
                                i += body.chars().count();
                                continue;
                            }
                        }
                        out.push_str("\\[");
                    }
                    '&' | '~' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '-' if chars.get(i + 1) == Some(&'-') => out.push_str("\\-"),
                    _ => out.push(c),
                }
                i += 1;
                continue;
            }
            match c {
                '\\' => {
                    if chars.get(i + 1) == Some(&'Q') {
                        let rest: String = chars.get(i + 2..).unwrap_or_default().iter().collect();
                        let (lit, used) = match rest.find("\\E") {
                            Some(end) => (rest[..end].to_owned(), end + 2),
                            None => (rest.clone(), rest.len()),
                        };
                        out.push_str(&regex::escape(&lit));
                        i += 2 + rest[..used].chars().count();
                        can_repeat = !lit.is_empty();
                        after_quant = false;
                        continue;
                    }
                    let (text, used) = escape(&chars, i, false)?;
                    out.push_str(&text);
                    i += used;
                    can_repeat = !matches!(chars.get(i - used + 1), Some('A' | 'z' | 'b' | 'B'));
                    after_quant = false;
                    continue;
                }
                '[' => {
                    in_class = true;
                    class_start = true;
                    out.push('[');
                    if chars.get(i + 1) == Some(&'^') {
                        out.push('^');
                        i += 1;
                    }
                }
                '(' => {
                    if chars.get(i + 1) == Some(&'?') {
                        let used = group_prefix(&chars, i)?;
                        let text: String =
                            chars.get(i..i + used).unwrap_or_default().iter().collect();
                        out.push_str(&text);
                        i += used;
                        // A bare flag group `(?i)` is not repeatable.
                        can_repeat = false;
                        after_quant = false;
                        continue;
                    }
                    out.push('(');
                    can_repeat = false;
                    after_quant = false;
                    i += 1;
                    continue;
                }
                '*' | '+' | '?' => {
                    if after_quant {
                        if c == '?' && !lazy_taken {
                            lazy_taken = true;
                            out.push('?');
                            i += 1;
                            continue;
                        }
                        return Err(format!("invalid nested repetition operator at `{c}`"));
                    }
                    if !can_repeat {
                        return Err(format!("missing argument to repetition operator `{c}`"));
                    }
                    out.push(c);
                    after_quant = true;
                    lazy_taken = false;
                    i += 1;
                    continue;
                }
                '{' => {
                    if let Some((used, max)) = repetition(&chars, i) {
                        if max > MAX_REPEAT {
                            return Err(format!("invalid repeat count (over {MAX_REPEAT})"));
                        }
                        if after_quant {
                            return Err("invalid nested repetition operator".to_owned());
                        }
                        if !can_repeat {
                            return Err("missing argument to repetition operator".to_owned());
                        }
                        let text: String =
                            chars.get(i..i + used).unwrap_or_default().iter().collect();
                        out.push_str(&text);
                        after_quant = true;
                        lazy_taken = false;
                        i += used;
                        continue;
                    }
                    out.push_str("\\{");
                }
                '}' => out.push_str("\\}"),
                ')' | '|' => {
                    out.push(c);
                    can_repeat = c == ')';
                    after_quant = false;
                    i += 1;
                    continue;
                }
                '^' | '$' => {
                    out.push(c);
                    can_repeat = false;
                    after_quant = false;
                    i += 1;
                    continue;
                }
                _ => out.push(c),
            }
            if !in_class {
                can_repeat = true;
            }
            after_quant = false;
            i += 1;
        }
        if in_class {
            return Err("missing closing ]".to_owned());
        }
        Ok(out)
    }

    /// `{n}`, `{n,}`, `{n,m}` at `i`: (chars used, largest count).
    fn repetition(chars: &[char], i: usize) -> Option<(usize, u32)> {
        let mut j = i + 1;
        let mut nums: Vec<String> = vec![String::new()];
        while let Some(&c) = chars.get(j) {
            match c {
                '0'..='9' => nums.last_mut()?.push(c),
                ',' if nums.len() == 1 => nums.push(String::new()),
                '}' => break,
                _ => return None,
            }
            j += 1;
        }
        if chars.get(j) != Some(&'}') || nums.first().is_none_or(String::is_empty) {
            return None;
        }
        let parse = |s: &str| s.parse::<u32>().unwrap_or(u32::MAX);
        let lo = parse(nums.first().map_or("", String::as_str));
        let hi = match nums.get(1) {
            Some(s) if !s.is_empty() => parse(s),
            _ => lo,
        };
        Some((j - i + 1, lo.max(hi)))
    }

    /// `(?` group openers Go accepts: `(?:`, `(?P<n>`, `(?<n>`, flag groups
    /// of `imsU` (with `-`). Returns the chars used.
    fn group_prefix(chars: &[char], i: usize) -> Result<usize, String> {
        let rest: String = chars
            .get(i + 2..)
            .unwrap_or_default()
            .iter()
            .take(3)
            .collect();
        if rest.starts_with('=') || rest.starts_with('!') {
            return Err("lookahead is not supported by RE2".to_owned());
        }
        if rest.starts_with("<=") || rest.starts_with("<!") {
            return Err("lookbehind is not supported by RE2".to_owned());
        }
        if rest.starts_with("P<") || rest.starts_with('<') {
            let open = if rest.starts_with('P') { i + 4 } else { i + 3 };
            let mut j = open;
            while let Some(&c) = chars.get(j) {
                if c == '>' {
                    return Ok(j - i + 1);
                }
                if !(c.is_ascii_alphanumeric() || c == '_') {
                    return Err("invalid named capture".to_owned());
                }
                j += 1;
            }
            return Err("invalid named capture".to_owned());
        }
        let mut j = i + 2;
        while let Some(&c) = chars.get(j) {
            match c {
                'i' | 'm' | 's' | 'U' | '-' => j += 1,
                ':' | ')' => return Ok(j - i + 1),
                _ => return Err(format!("invalid or unsupported Perl syntax `(?{c}`")),
            }
        }
        Err("missing closing )".to_owned())
    }

    /// One escape at `i` (a backslash). Returns (translated text, chars used).
    /// The escape at `chars[i]` (a backslash) passed through unchanged:
    /// `\c{…}` up to its closing brace when a brace follows the letter,
    /// else `fixed` characters (`\xHH` is 4, `\pL` is 3). Returns the text
    /// and the number of characters used.
    fn braced_or_fixed(chars: &[char], i: usize, fixed: usize) -> (String, usize) {
        let end = if chars.get(i + 2) == Some(&'{') {
            let mut j = i + 3;
            while chars.get(j).is_some_and(|c| *c != '}') {
                j += 1;
            }
            (j + 1).min(chars.len())
        } else {
            (i + fixed).min(chars.len())
        };
        let text = chars.get(i..end).unwrap_or_default().iter().collect();
        (text, end - i)
    }

    fn escape(chars: &[char], i: usize, in_class: bool) -> Result<(String, usize), String> {
        let Some(&c) = chars.get(i + 1) else {
            return Err("trailing backslash at end of expression".to_owned());
        };
        let class = |inner: &str, negated: bool| -> String {
            match (in_class, negated) {
                (false, false) => format!("[{inner}]"),
                (_, true) => format!("[^{inner}]"),
                (true, false) => inner.to_owned(),
            }
        };
        let text = match c {
            'd' => class("0-9", false),
            'D' => class("0-9", true),
            'w' => class("0-9A-Za-z_", false),
            'W' => class("0-9A-Za-z_", true),
            's' => class("\\t\\n\\x0C\\r ", false),
            'S' => class("\\t\\n\\x0C\\r ", true),
            'b' if !in_class => "(?-u:\\b)".to_owned(),
            'B' if !in_class => "(?-u:\\B)".to_owned(),
            'A' | 'z' if !in_class => format!("\\{c}"),
            '1'..='7' if !matches!(chars.get(i + 2), Some('0'..='7')) => {
                return Err(format!("backreference \\{c} is not supported by RE2"));
            }
            '8' | '9' => return Err(format!("backreference \\{c} is not supported by RE2")),
            '0'..='7' => {
                let mut j = i + 1;
                let mut value = 0u32;
                while j < i + 4 {
                    match chars.get(j) {
                        Some(&d @ '0'..='7') => value = value * 8 + (d as u32 - '0' as u32),
                        _ => break,
                    }
                    j += 1;
                }
                return Ok((format!("\\x{{{value:X}}}"), j - i));
            }
            // `\xHH` or `\x{H…}`, `\pL` or `\p{Greek}`: passed through unchanged.
            'x' => return Ok(braced_or_fixed(chars, i, 4)),
            'p' | 'P' => return Ok(braced_or_fixed(chars, i, 3)),
            'a' | 'f' | 't' | 'n' | 'r' | 'v' => format!("\\{c}"),
            c if c.is_ascii_punctuation() => format!("\\{c}"),
            c => return Err(format!("invalid escape sequence `\\{c}`")),
        };
        Ok((text, 2))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn hex_and_class_escapes_pass_through_whole() {
            for (p, want) in [
                ("\\x41b", "\\x41b"),
                ("\\x{263A}b", "\\x{263A}b"),
                ("\\pLb", "\\pLb"),
                ("\\p{Greek}b", "\\p{Greek}b"),
            ] {
                assert_eq!(translate(p).as_deref(), Ok(want), "{p}");
            }
            assert!(compile("\\x{263A}").is_ok_and(|r| r.is_match("\u{263A}")));
            // an unterminated brace is refused, not a panic
            assert!(compile("\\x{26").is_err());
        }

        #[test]
        fn go_refusals() {
            for p in [
                "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b", "(a)\\1", "a*+", "a**", "a{2}{3}",
                "a{1001}", "(?x)a", "\\e", "[a", "*a",
            ] {
                assert!(compile(p).is_err(), "{p} must be refused");
            }
        }

        #[test]
        fn go_acceptances() {
            for (p, hit, miss) in [
                ("a{1000}", "a".repeat(1000), "b".to_owned()),
                ("^a*?b$", "aab".to_owned(), "aac".to_owned()),
                ("^\\w+$", "a_1".to_owned(), "é".to_owned()),
                ("^\\s$", "\t".to_owned(), "\u{a0}".to_owned()),
                ("^[\\d.]+$", "1.2".to_owned(), "x".to_owned()),
                ("^[^\\D]$", "7".to_owned(), "x".to_owned()),
                ("^a{,2}$", "a{,2}".to_owned(), "aa".to_owned()),
                ("^[[]$", "[".to_owned(), "]".to_owned()),
                ("^[a&&b]$", "&".to_owned(), "c".to_owned()),
                ("^\\101$", "A".to_owned(), "B".to_owned()),
                ("^\\Q.*\\E$", ".*".to_owned(), "ab".to_owned()),
                ("^(?P<x>a)(?<y>b)$", "ab".to_owned(), "ba".to_owned()),
                ("(?i)^é$", "É".to_owned(), "e".to_owned()),
                ("^\\pL+$", "Ωa".to_owned(), "1".to_owned()),
                ("\\bfoo\\b", "a foo".to_owned(), "afoo".to_owned()),
            ] {
                let re = compile(p).unwrap_or_else(|e| panic!("{p}: {e}"));
                assert!(re.is_match(&hit), "{p} should match {hit:?}");
                assert!(!re.is_match(&miss), "{p} should not match {miss:?}");
            }
        }
    }
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
    fn re2_incompatible_pattern_refuses_at_the_pattern() {
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
        // Near miss: RE2-only syntax is fine.
        assert!(compile(&schema(json!({"pattern": "(?i)^[[:alpha:]]+\\z"}))).is_ok());
    }

    #[test]
    fn pattern_is_unanchored_re2_with_ascii_classes() {
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
