//! The forbidden-field name policy (sensitive-name vocabulary).
//!
//! Implements `verifier-rules.md` §6 (decision procedure §6.2, lists
//! §6.3–§6.5, tokeniser §6.6) with the current-profile changes of
//! `current-profile.md` §7: seven exempt `x-takoform-*` keys (§7.1), the
//! reviewed bounded desired fields `command`, `concurrencyTarget` and
//! `target` (§7.2), and the exemption scopes of the definition-wide `$` scan
//! and the JSON payload scan (§7.3, §7.4, QUIRK W, QUIRK S).
//!
//! The name lists are data, one name per line, in `src/vocabulary/`:
//! `n.txt` (N, exact normalised names), `b.txt` (B, glued bases), `q.txt`
//! (Q, qualifier suffixes), `t.txt` (T, single tokens), `p.txt` (P, plural
//! tokens), `sequences.txt` (token sequences, words separated by one space)
//! and `alternates.txt` (a word and its plural alternate on one line).
//!
//! Everything here is pure: no I/O, no printing.

use crate::diag::escape::quote;
use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::{push_decimal, push_escaped, JsonPointer};

/// N: exact normalised names (`verifier-rules.md` §6.3).
pub const N_LIST: &str = include_str!("vocabulary/n.txt");
/// B: glued bases (`verifier-rules.md` §6.4).
pub const B_LIST: &str = include_str!("vocabulary/b.txt");
/// Q: qualifier suffixes of the glued bases (`verifier-rules.md` §6.4).
pub const Q_LIST: &str = include_str!("vocabulary/q.txt");
/// T: forbidden single tokens (`verifier-rules.md` §6.5).
pub const T_LIST: &str = include_str!("vocabulary/t.txt");
/// P: forbidden plural tokens, listed, never derived (`verifier-rules.md` §6.5).
pub const P_LIST: &str = include_str!("vocabulary/p.txt");
/// Forbidden token sequences, words separated by a space (`verifier-rules.md` §6.4).
pub const SEQUENCE_LIST: &str = include_str!("vocabulary/sequences.txt");
/// Plural alternates accepted at a sequence position: `word plural` per line
/// (`verifier-rules.md` §6.4).
pub const ALTERNATE_LIST: &str = include_str!("vocabulary/alternates.txt");

/// The seven exact, case-sensitive exempt annotation keys
/// (`current-profile.md` §7.1; the first four are `verifier-rules.md` §6.2 step 1).
pub const EXEMPT_KEYS: [&str; 7] = [
    "x-takoform-fieldPolicy",
    "x-takoform-binding",
    "x-takoform-target-formrefs",
    "x-takoform-required-interface",
    "x-takoform-discriminator",
    "x-takoform-standard-services",
    "x-takoform-required-entrypoint",
];

/// The whole forbidden-field vocabulary as text, for `explain FD300`,
/// `FD301` and `FD302` (issue 26 item 5): the exempt keys, then each list
/// of `src/vocabulary/` under the rule that reads it, names wrapped to
/// lines of at most 76 columns. Ends with a newline.
pub fn listing() -> String {
    let mut out = String::from(
        "The forbidden-field vocabulary (verifier-rules.md §6.2-§6.6, current-profile.md §7).\n\
         In order: an exempt key is allowed; a name whose normalised form (letters and\n\
         digits only, lower-cased) is in N is forbidden; so is a glued base (B or B+s)\n\
         alone or followed by a qualifier (Q); then the name is split into tokens\n\
         (camelCase, snake_case, kebab-case, digits: `APIKeys` -> `api keys`) and any\n\
         token in T or P, or a run of tokens equal to a sequence, is forbidden. No\n\
         substring matching: `keyboard` and `tokenizer` are allowed.\n",
    );
    let mut section = |title: &str, names: &mut dyn Iterator<Item = &str>| {
        out.push_str(&format!("\n{title}:\n"));
        // Comma-separated (a sequence holds spaces), wrapped at 76 columns.
        let mut line = String::from("  ");
        for (i, n) in names.enumerate() {
            if i > 0 {
                line.push(',');
                if line.len() + n.len() + 2 > 76 {
                    out.push_str(&line);
                    out.push('\n');
                    line = String::from("  ");
                } else {
                    line.push(' ');
                }
            }
            line.push_str(n);
        }
        out.push_str(&line);
        out.push('\n');
    };
    section(
        "Exempt annotation keys (exact, case-sensitive)",
        &mut EXEMPT_KEYS.iter().copied(),
    );
    section(
        "Forbidden exact names (N, normalised)",
        &mut list_entries(N_LIST),
    );
    section(
        "Glued bases (B): forbidden alone or followed by a qualifier",
        &mut list_entries(B_LIST),
    );
    section(
        "Qualifiers (Q) of the glued bases",
        &mut list_entries(Q_LIST),
    );
    section("Forbidden single tokens (T)", &mut list_entries(T_LIST));
    section("Forbidden plural tokens (P)", &mut list_entries(P_LIST));
    section(
        "Forbidden token sequences (words in a row)",
        &mut list_entries(SEQUENCE_LIST),
    );
    section(
        "Plural alternates accepted in a sequence (word plural)",
        &mut list_entries(ALTERNATE_LIST),
    );
    out
}

/// The non-empty, trimmed lines of a data list.
pub fn list_entries(list: &'static str) -> impl Iterator<Item = &'static str> {
    list.lines().map(str::trim).filter(|l| !l.is_empty())
}

struct Tables {
    n: HashSet<&'static str>,
    /// Each glued base with its `s` plural, in list order.
    b: Vec<(&'static str, String)>,
    q: HashSet<&'static str>,
    tp: HashSet<&'static str>,
    sequences: Vec<Vec<&'static str>>,
    alternates: Vec<(&'static str, &'static str)>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables {
    n: list_entries(N_LIST).collect(),
    b: list_entries(B_LIST).map(|b| (b, format!("{b}s"))).collect(),
    q: list_entries(Q_LIST).collect(),
    tp: list_entries(T_LIST).chain(list_entries(P_LIST)).collect(),
    sequences: list_entries(SEQUENCE_LIST)
        .map(|l| l.split_whitespace().collect())
        .collect(),
    alternates: list_entries(ALTERNATE_LIST)
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?, it.next()?))
        })
        .collect(),
});

/// Why a name is forbidden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The name as written.
    pub name: String,
    /// Which step of `verifier-rules.md` §6.2 matched: `"exact name"` (step 2,
    /// list N), `"glued base"` (step 3, B + optional Q suffix), `"token"`
    /// (step 4, T ∪ P) or `"token sequence"` (step 5).
    pub rule: &'static str,
    /// What matched: the normalised name (exact name, glued base), the token,
    /// or the matched run of tokens joined by a space.
    pub matched: String,
}

impl Finding {
    /// `forbidden field "<name>" (<rule> "<matched>")`.
    pub fn message(&self) -> String {
        format!(
            "forbidden field {} ({} {})",
            quote(&self.name),
            self.rule,
            quote(&self.matched)
        )
    }
}

// Every character-class and case decision below is pinned to Unicode
// 15.0.0, the version of the reference's Go 1.25 tables (issue 22 item 1),
// as the regex side is: the general categories come from `regex-syntax`
// 0.7.5 (`regex-syntax-u15`, through [`crate::engine::goregex::property`]),
// never from a crate or a standard library of a newer Unicode. A scalar
// assigned after 15.0 (U+A7CB, a Latin letter of 16.0; U+10D40, a Garay
// digit of 16.0) is neither a letter nor a digit here, as in the reference.
// Every predicate has an ASCII fast path: an ASCII letter is Lu or Ll, an
// ASCII digit is Nd, and no other ASCII scalar is L* or Nd, so the answers
// equal the table lookups they skip.

/// Unicode 15.0.0 ranges (inclusive, sorted) of one class.
struct Ranges(Vec<(char, char)>);

impl Ranges {
    fn of(spec: &str) -> Self {
        Ranges(
            crate::engine::goregex::property(spec)
                .iter()
                .map(|r| (r.start(), r.end()))
                .collect(),
        )
    }

    fn contains(&self, c: char) -> bool {
        self.0
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

/// L*, Nd, Lu and Ll of Unicode 15.0.0.
struct Classes {
    letter: Ranges,
    digit: Ranges,
    upper: Ranges,
    lower: Ranges,
}

static U15: LazyLock<Classes> = LazyLock::new(|| Classes {
    letter: Ranges::of("L"),
    digit: Ranges::of("Nd"),
    upper: Ranges::of("Lu"),
    lower: Ranges::of("Ll"),
});

/// `c` is in a character class: by `ascii` for ASCII, else by its
/// Unicode 15.0.0 table.
fn in_class(c: char, ascii: fn(&char) -> bool, table: &Ranges) -> bool {
    if c.is_ascii() {
        ascii(&c)
    } else {
        table.contains(c)
    }
}

fn is_letter(c: char) -> bool {
    in_class(c, char::is_ascii_alphabetic, &U15.letter)
}

fn is_digit(c: char) -> bool {
    in_class(c, char::is_ascii_digit, &U15.digit)
}

fn is_upper(c: char) -> bool {
    in_class(c, char::is_ascii_uppercase, &U15.upper)
}

fn is_lower(c: char) -> bool {
    in_class(c, char::is_ascii_lowercase, &U15.lower)
}

/// Lower-cases one scalar value to one scalar value as Go's
/// `unicode.ToLower` does under Unicode 15.0.0: the simple lowercase
/// mapping, `İ` U+0130 to `i`. The mapping is the standard library's,
/// kept only when the two are case variants in Unicode 15.0.0 (one simple
/// case-folding orbit of `regex-syntax` 0.7.5's tables), so a case pair
/// added after 15.0 is not applied.
fn lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if c == '\u{130}' {
        return 'i';
    }
    match c.to_lowercase().next() {
        Some(l) if l != c && crate::engine::goregex::same_fold_orbit(c, l) => l,
        _ => c,
    }
}

/// The normalised form of a name (`verifier-rules.md` §6.2 step 2): every
/// scalar value that is not a letter (general category L*) or decimal digit
/// (Nd) removed, the rest lower-cased.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|&c| is_letter(c) || is_digit(c))
        .map(lower)
        .collect()
}

/// Splits a name into lower-case tokens (`verifier-rules.md` §6.6).
///
/// A scalar value that is neither a letter (L*) nor a decimal digit (Nd)
/// ends the current token and is dropped. Otherwise a new token starts
/// before it when the current token is non-empty and (a) it is `Lu` and the
/// previous one is `Ll` or `Nd`, (b) it and the previous one are `Lu` and the
/// next scalar value exists and is `Ll`, or (c) exactly one of it and the
/// previous one is `Nd`. Examples: `APIKeys` → `api keys`, `OAuthClient` →
/// `o auth client`, `oauth2Client` → `oauth 2 client`.
pub fn tokenize(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        if !(is_letter(c) || is_digit(c)) {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            prev = None;
            continue;
        }
        if let (false, Some(p)) = (current.is_empty(), prev) {
            let next_lower = chars.get(i + 1).is_some_and(|&n| is_lower(n));
            let split = (is_upper(c) && (is_lower(p) || is_digit(p)))
                || (is_upper(c) && is_upper(p) && next_lower)
                || (is_digit(c) != is_digit(p));
            if split {
                tokens.push(std::mem::take(&mut current));
            }
        }
        current.push(lower(c));
        prev = Some(c);
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

fn word_matches(word: &str, token: &str, alternates: &[(&str, &str)]) -> bool {
    word == token
        || alternates
            .iter()
            .any(|&(w, plural)| w == word && plural == token)
}

/// Decides whether a member name is forbidden (`verifier-rules.md` §6.2 with
/// the seven exemptions of `current-profile.md` §7.1). `None` means allowed.
///
/// Steps, in order: exact exempt keys; normalised name ∈ N; glued base (B or
/// B+`s`, alone or followed by a Q suffix); any token ∈ T ∪ P; a contiguous
/// run of tokens equal to a listed sequence (with the listed plural
/// alternates). No substring matching is ever used.
pub fn is_forbidden(name: &str) -> Option<Finding> {
    /// Decisions already taken on this thread, by name (member names repeat
    /// across the documents of a package and across packages). Bounded:
    /// cleared when it reaches `CACHE_LIMIT` names.
    const CACHE_LIMIT: usize = 1 << 16;
    type Decision = Option<(&'static str, String)>;
    // aHash: randomly keyed (no crafted-collision blow-up), faster than SipHash
    // on the short names looked up here.
    thread_local! {
        static CACHE: std::cell::RefCell<ahash::AHashMap<Box<str>, Decision>> =
            std::cell::RefCell::new(ahash::AHashMap::new());
    }
    let decision = CACHE.with(|cache| {
        if let Some(d) = cache.borrow().get(name) {
            return d.clone();
        }
        let d = decide(name);
        let mut cache = cache.borrow_mut();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(name.into(), d.clone());
        d
    });
    decision.map(|(rule, matched)| Finding {
        name: name.to_owned(),
        rule,
        matched,
    })
}

/// [`is_forbidden`] without the cache: the matching rule and what matched.
fn decide(name: &str) -> Option<(&'static str, String)> {
    if EXEMPT_KEYS.contains(&name) {
        return None;
    }
    let t = &*TABLES;
    let found = |rule: &'static str, matched: String| Some((rule, matched));
    let normalized = normalize(name);
    if t.n.contains(normalized.as_str()) {
        return found("exact name", normalized);
    }
    for (base, plural) in &t.b {
        for b in [*base, plural.as_str()] {
            if let Some(rest) = normalized.strip_prefix(b) {
                if rest.is_empty() || t.q.contains(rest) {
                    return found("glued base", normalized.clone());
                }
            }
        }
    }
    let tokens = tokenize(name);
    if let Some(tok) = tokens.iter().find(|tok| t.tp.contains(tok.as_str())) {
        return found("token", tok.clone());
    }
    for seq in &t.sequences {
        if seq.is_empty() || seq.len() > tokens.len() {
            continue;
        }
        for window in tokens.windows(seq.len()) {
            if seq
                .iter()
                .zip(window)
                .all(|(w, tok)| word_matches(w, tok, &t.alternates))
            {
                return found("token sequence", window.join(" "));
            }
        }
    }
    None
}

/// How "whole" numbers are judged in [`reviewed`] (`current-profile.md` §7.3
/// QUIRK W).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whole {
    /// Only a plain integer literal in the int64 range is whole (the
    /// definition-wide `$` scan: `64.0`, `6.4e1` or `2^63` are not whole).
    Int64Literal,
    /// Any finite number with an integral value is whole (the proof and the
    /// payload scan, which see float64: `64.0` is whole).
    Float64,
}

#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn positive(self) -> bool {
        match self {
            Num::I(i) => i > 0,
            Num::F(f) => f > 0.0,
        }
    }
    fn is(self, n: i64) -> bool {
        match self {
            Num::I(i) => i == n,
            // Small integers are exact in f64.
            Num::F(f) => f == n as f64,
        }
    }
}

fn whole(v: Option<&Value>, mode: Whole) -> Option<Num> {
    let n = v?.as_number()?;
    match mode {
        Whole::Int64Literal => n.as_i64().map(Num::I),
        Whole::Float64 => {
            let f = n.as_f64()?;
            (f.is_finite() && f.trunc() == f).then_some(Num::F(f))
        }
    }
}

fn str_eq(v: Option<&Value>, s: &str) -> bool {
    v.and_then(Value::as_str) == Some(s)
}

fn non_empty_str(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

fn keys_subset(o: &Map<String, Value>, allowed: &[&str]) -> bool {
    o.keys().all(|k| allowed.contains(&k.as_str()))
}

fn keys_exactly(o: &Map<String, Value>, keys: &[&str]) -> bool {
    o.len() == keys.len() && keys.iter().all(|k| o.contains_key(*k))
}

/// `sha256:` followed by 64 lowercase hex digits.
fn canonical_digest(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .and_then(|s| s.strip_prefix("sha256:"))
        .is_some_and(|h| {
            h.len() == 64
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
}

/// `{type:"string", const:<non-empty string>}` exactly; returns the const.
fn string_const(v: Option<&Value>) -> Option<&str> {
    let o = v?.as_object()?;
    if !keys_exactly(o, &["type", "const"]) || !str_eq(o.get("type"), "string") {
        return None;
    }
    non_empty_str(o.get("const"))
}

/// `required` is a string array; the strings, or `None` when it is not one.
fn string_array(v: Option<&Value>) -> Option<Vec<&str>> {
    v?.as_array()?.iter().map(Value::as_str).collect()
}

fn reviewed_command(o: &Map<String, Value>, mode: Whole) -> bool {
    if !str_eq(o.get("type"), "array") || !whole(o.get("maxItems"), mode).is_some_and(Num::positive)
    {
        return false;
    }
    let Some(items) = o.get("items").and_then(Value::as_object) else {
        return false;
    };
    str_eq(items.get("type"), "string")
        && whole(items.get("maxLength"), mode).is_some_and(Num::positive)
        && non_empty_str(items.get("pattern")).is_some()
}

fn reviewed_concurrency_target(o: &Map<String, Value>, mode: Whole) -> bool {
    if !str_eq(o.get("type"), "integer") {
        return false;
    }
    match (whole(o.get("minimum"), mode), whole(o.get("maximum"), mode)) {
        (Some(min), Some(max)) => min <= max,
        _ => false,
    }
}

/// The canonical ResourceTarget shape (`current-profile.md` §7.2).
fn canonical_resource_target(v: &Value, mode: Whole) -> bool {
    const ALLOWED: [&str; 9] = [
        "type",
        "additionalProperties",
        "required",
        "properties",
        "description",
        "default",
        "x-takoform-target-formrefs",
        "x-takoform-required-interface",
        "x-takoform-required-entrypoint",
    ];
    let Some(o) = v.as_object() else {
        return false;
    };
    if !str_eq(o.get("type"), "object")
        || o.get("additionalProperties") != Some(&Value::Bool(false))
        || !keys_subset(o, &ALLOWED)
    {
        return false;
    }
    let Some(mut required) = string_array(o.get("required")) else {
        return false;
    };
    required.sort_unstable();
    if required != ["apiVersion", "kind", "name"] {
        return false;
    }
    let Some(props) = o.get("properties").and_then(Value::as_object) else {
        return false;
    };
    if !keys_exactly(props, &["apiVersion", "kind", "name"]) {
        return false;
    }
    let (Some(api), Some(kind)) = (
        string_const(props.get("apiVersion")),
        string_const(props.get("kind")),
    ) else {
        return false;
    };
    let Some(name) = props.get("name").and_then(Value::as_object) else {
        return false;
    };
    if !keys_exactly(name, &["type", "minLength", "maxLength", "pattern"])
        || !str_eq(name.get("type"), "string")
        || !whole(name.get("minLength"), mode).is_some_and(|n| n.is(1))
        || !whole(name.get("maxLength"), mode).is_some_and(Num::positive)
        || non_empty_str(name.get("pattern")).is_none()
    {
        return false;
    }
    for key in ["description", "x-takoform-required-entrypoint"] {
        if o.contains_key(key) && non_empty_str(o.get(key)).is_none() {
            return false;
        }
    }
    if let Some(default) = o.get("default") {
        let ok = default.as_object().is_some_and(|d| {
            keys_exactly(d, &["apiVersion", "kind", "name"])
                && str_eq(d.get("apiVersion"), api)
                && str_eq(d.get("kind"), kind)
                && non_empty_str(d.get("name")).is_some()
        });
        if !ok {
            return false;
        }
    }
    match (
        o.get("x-takoform-target-formrefs"),
        o.get("x-takoform-required-interface"),
    ) {
        (Some(refs), None) => {
            let Some(refs) = refs.as_array().filter(|a| !a.is_empty()) else {
                return false;
            };
            let mut seen = HashSet::new();
            refs.iter().all(|r| {
                r.as_object().is_some_and(|r| {
                    keys_exactly(
                        r,
                        &["apiVersion", "kind", "definitionVersion", "schemaDigest"],
                    ) && str_eq(r.get("apiVersion"), api)
                        && str_eq(r.get("kind"), kind)
                        && canonical_digest(r.get("schemaDigest"))
                        && non_empty_str(r.get("definitionVersion")).is_some_and(|dv| {
                            seen.insert((dv, r.get("schemaDigest").and_then(Value::as_str)))
                        })
                })
            })
        }
        (None, Some(iface)) => iface.as_object().is_some_and(|i| {
            keys_exactly(i, &["apiVersion", "name", "version", "schemaDigest"])
                && non_empty_str(i.get("apiVersion")).is_some()
                && non_empty_str(i.get("name")).is_some()
                && non_empty_str(i.get("version")).is_some()
                && canonical_digest(i.get("schemaDigest"))
        }),
        _ => false,
    }
}

/// True when `v` is, or contains through `properties` and `items`, a
/// canonical ResourceTarget.
fn contains_resource_target(v: &Value, mode: Whole) -> bool {
    if canonical_resource_target(v, mode) {
        return true;
    }
    let Some(o) = v.as_object() else {
        return false;
    };
    o.get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.values().any(|c| contains_resource_target(c, mode)))
        || o.get("items")
            .is_some_and(|i| i.is_object() && contains_resource_target(i, mode))
}

/// The closed tagged-union `target` shape (`current-profile.md` §7.2).
fn tagged_union_target(o: &Map<String, Value>, mode: Whole) -> bool {
    if !keys_subset(
        o,
        &[
            "oneOf",
            "x-takoform-discriminator",
            "description",
            "default",
        ],
    ) {
        return false;
    }
    let Some(disc) = non_empty_str(o.get("x-takoform-discriminator")) else {
        return false;
    };
    if o.contains_key("description") && non_empty_str(o.get("description")).is_none() {
        return false;
    }
    let Some(branches) = o.get("oneOf").and_then(Value::as_array) else {
        return false;
    };
    if !(2..=16).contains(&branches.len()) {
        return false;
    }
    let mut tags = HashSet::new();
    branches.iter().all(|b| {
        let Some(b) = b.as_object() else {
            return false;
        };
        if !str_eq(b.get("type"), "object")
            || b.get("additionalProperties") != Some(&Value::Bool(false))
            || !keys_subset(
                b,
                &["type", "additionalProperties", "required", "properties"],
            )
        {
            return false;
        }
        let requires_disc = b
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(disc)));
        let Some(props) = b.get("properties").and_then(Value::as_object) else {
            return false;
        };
        let Some(tag) = string_const(props.get(disc)) else {
            return false;
        };
        requires_disc
            && tags.insert(tag.to_owned())
            && props
                .iter()
                .any(|(k, v)| k != disc && contains_resource_target(v, mode))
    })
}

/// Whether a desired property is one of the reviewed bounded fields
/// (`current-profile.md` §7.2): `command` (bounded string array),
/// `concurrencyTarget` (bounded integer) or `target` (canonical
/// ResourceTarget or closed tagged union of them). Any other name → false.
/// `whole` selects how integral numbers are recognised (QUIRK W).
pub fn reviewed(name: &str, schema: &Value, whole: Whole) -> bool {
    let Some(o) = schema.as_object() else {
        return false;
    };
    match name {
        "command" => reviewed_command(o, whole),
        "concurrencyTarget" => reviewed_concurrency_target(o, whole),
        "target" => canonical_resource_target(schema, whole) || tagged_union_target(o, whole),
        _ => false,
    }
}

/// How to scan one JSON document with [`scan_document`].
#[derive(Clone, Copy, Debug)]
pub struct ScanOptions<'a> {
    /// How `reviewed` judges whole numbers: [`Whole::Int64Literal`] for the
    /// definition `$` scan, [`Whole::Float64`] for payloads (QUIRK W).
    pub whole: Whole,
    /// The document is a desired-only fixture (`current-profile.md` §7.4):
    /// its top-level keys that name a top-level desired property of
    /// `definition` passing `reviewed` are exempt (their values are still
    /// scanned).
    pub desired_only_fixture: bool,
    /// The parsed Form Definition, needed for the desired-only exemption.
    pub definition: Option<&'a Value>,
}

impl<'a> ScanOptions<'a> {
    /// Options of the definition-wide `$` scan (`current-profile.md` §7.3,
    /// int64 whole numbers).
    pub fn definition_scan() -> Self {
        ScanOptions {
            whole: Whole::Int64Literal,
            desired_only_fixture: false,
            definition: None,
        }
    }

    /// Options of the JSON payload scan (`current-profile.md` §7.4, float64
    /// whole numbers). `desired_only_fixture`: the payload is referenced only
    /// as a desired fixture of `definition`.
    pub fn payload_scan(definition: &'a Value, desired_only_fixture: bool) -> Self {
        ScanOptions {
            whole: Whole::Float64,
            desired_only_fixture,
            definition: Some(definition),
        }
    }
}

/// The help line of every vocabulary finding.
pub const HELP: &str = "portable data must not carry credentials, operator placement, commercial terms or executable content: rename or remove this field";

/// The location suffix that exempts reviewed members (`current-profile.md`
/// §7.3, QUIRK S): tested on the reference's dotted location string.
const EXEMPT_LOCATION_SUFFIX: &str = "desiredSchema.properties";

struct Scan<'o, 'a> {
    code: Code,
    opts: &'o ScanOptions<'a>,
    /// The top-level desired properties of a desired-only fixture's
    /// definition (`/desiredSchema/properties`), looked up once per scan.
    desired_properties: Option<&'a Map<String, Value>>,
    out: Vec<Diagnostic>,
}

impl Scan<'_, '_> {
    /// `ptr`: escaped JSON Pointer text of `v`; `loc`: its dotted location.
    /// Both are extended in place and restored before returning.
    fn value(&mut self, v: &Value, ptr: &mut String, loc: &mut String, top: bool) {
        match v {
            Value::Object(o) => {
                let exempt_here = loc.ends_with(EXEMPT_LOCATION_SUFFIX);
                for (k, child) in o {
                    let ptr_len = ptr.len();
                    ptr.push('/');
                    push_escaped(ptr, k);
                    let exempt = (exempt_here && reviewed(k, child, self.opts.whole))
                        || (top && self.desired_only_exempt(k));
                    if !exempt {
                        if let Some(f) = is_forbidden(k) {
                            self.out.push(
                                Diagnostic::new(self.code, f.message())
                                    .at_key(JsonPointer::from(ptr.as_str()))
                                    .help(HELP),
                            );
                        }
                    }
                    if matches!(child, Value::Object(_) | Value::Array(_)) {
                        let loc_len = loc.len();
                        loc.push('.');
                        loc.push_str(k);
                        self.value(child, ptr, loc, false);
                        loc.truncate(loc_len);
                    }
                    ptr.truncate(ptr_len);
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    if !matches!(child, Value::Object(_) | Value::Array(_)) {
                        continue;
                    }
                    let (ptr_len, loc_len) = (ptr.len(), loc.len());
                    ptr.push('/');
                    push_decimal(ptr, i);
                    loc.push('[');
                    push_decimal(loc, i);
                    loc.push(']');
                    self.value(child, ptr, loc, false);
                    ptr.truncate(ptr_len);
                    loc.truncate(loc_len);
                }
            }
            _ => {}
        }
    }

    fn desired_only_exempt(&self, key: &str) -> bool {
        self.desired_properties
            .and_then(|p| crate::json::member(p, key))
            .is_some_and(|schema| reviewed(key, schema, self.opts.whole))
    }
}

/// Scans every object key of a JSON document at every depth
/// (`verifier-rules.md` §6.1 V1/V2) and returns one diagnostic per forbidden
/// key, with `code`, pointing at the member name (`Target::Key`), message
/// `forbidden field "<key>" (<rule> "<matched>")` and the [`HELP`] line. The
/// caller sets the file.
///
/// Exemptions (`current-profile.md` §7.3): a key directly under a location
/// whose dotted form (`$.a.b[0].c`) ends in `desiredSchema.properties` and
/// whose value passes [`reviewed`] with `opts.whole` (in a definition: the
/// top-level desired properties; in any payload too, QUIRK S); and, for a
/// desired-only fixture, top-level keys naming a reviewed top-level desired
/// property of `opts.definition`. Exempt keys' values are still scanned.
pub fn scan_document(doc: &Value, code: Code, opts: &ScanOptions<'_>) -> Vec<Diagnostic> {
    let desired_properties = opts
        .definition
        .filter(|_| opts.desired_only_fixture)
        .and_then(|d| d.get("desiredSchema"))
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let mut scan = Scan {
        code,
        opts,
        desired_properties,
        out: Vec::new(),
    };
    let mut loc = String::from("$");
    scan.value(doc, &mut String::new(), &mut loc, true);
    scan.out
}

#[cfg(test)]
mod tests;
