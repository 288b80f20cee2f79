//! Local `$ref` closure (`verifier-rules.md` §5).
//!
//! * [`scan`] is rule F1: before the proof, the WHOLE inline schema value is
//!   walked (including `const`, `enum`, `default`, `examples` and members
//!   literally named `$ref` inside them); every `$dynamicRef` member and every
//!   `$ref` member that is not a string equal to `#` or starting with `#/` is
//!   a finding.
//! * [`resolve`] is rules F3/F4: it turns a local fragment into the target
//!   value, its canonical memo key (§4.4) and its real location.
//!
//! Pure functions over `serde_json::Value`; no I/O.

use crate::diag::escape::quote;
use std::fmt;

use serde_json::Value;

use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::json::pointer::{escape, JsonPointer};

/// Gist of the reference message for a non-local `$ref` (§10 `REF_NOT_LOCAL`).
pub const NON_LOCAL_GIST: &str = "must be a document-local fragment using the root or a JSON Pointer; network, package-path, anchor, and dynamic references are forbidden";

/// Gist of the reference message for `$dynamicRef` (§10 `REF_DYNAMIC`).
pub const DYNAMIC_GIST: &str = "is forbidden because dynamic resolution cannot be proven closed";

/// True when `value` is a `$ref` the proof may follow: a string equal to `#`
/// or starting with `#/` (`verifier-rules.md` §5 F1).
pub fn is_local_ref(value: &Value) -> bool {
    matches!(value, Value::String(s) if s == "#" || s.starts_with("#/"))
}

/// Rule F1 (`verifier-rules.md` §5): scans every object member of `schema`
/// at every depth, data literals included.
///
/// Returns one [`Code::DynamicRef`] diagnostic per `$dynamicRef` member (at
/// the member's pointer) and one [`Code::NonLocalRef`] per `$ref` member whose
/// value is not a local fragment (at the member's pointer). Pointers are
/// relative to `schema` (the caller prefixes the field). Iterative, so any
/// nesting depth is safe.
pub fn scan(schema: &Value) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, JsonPointer)> = vec![(schema, JsonPointer::root())];
    while let Some((value, at)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (name, member) in map {
                    let here = at.child(name);
                    if name == "$dynamicRef" {
                        out.push(
                            Diagnostic::new(
                                Code::DynamicRef,
                                format!("`$dynamicRef` {DYNAMIC_GIST}"),
                            )
                            .at(here.clone()),
                        );
                    } else if name == "$ref" && !is_local_ref(member) {
                        let found = match member {
                            Value::String(s) => format!("found {}", quote(s)),
                            other => format!("found a JSON {}, not a string", kind(other)),
                        };
                        out.push(
                            Diagnostic::new(Code::NonLocalRef, format!("`$ref` {NON_LOCAL_GIST}"))
                                .at(here.clone())
                                .note(found),
                        );
                    }
                    stack.push((member, here));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    stack.push((item, at.index(i)));
                }
            }
            _ => {}
        }
    }
    out
}

/// The JSON type name of a value, for messages.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A resolved local reference (`verifier-rules.md` §5 F3/F4).
#[derive(Clone, Debug, PartialEq)]
pub struct Target<'a> {
    /// Canonical memo key (§4.4): the decoded raw tokens re-escaped and joined
    /// with `/` (`""` for the root `#`). Array tokens are kept as written, so
    /// `+1` and `1` are different keys (the Go QUIRK of F3).
    pub key: String,
    /// Where the target really is inside the inline schema (array indices
    /// normalised, so `+1` becomes `1`).
    pub location: JsonPointer,
    /// The target value.
    pub value: &'a Value,
}

/// Why a local fragment does not resolve (`verifier-rules.md` §5 F3). The
/// `Display` text is the reference's gist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// Not `#` and not `#/…` (F1 normally reports these first).
    NotFragment,
    /// Malformed percent escape, e.g. `%zz`; carries the offending escape.
    Decode(String),
    /// `~` not followed by `0` or `1`.
    InvalidEscape,
    /// An object has no member with this (decoded) token.
    MissingToken(String),
    /// An array token that is `-`, has a leading zero, or is not a
    /// non-negative integer.
    InvalidArrayToken(String),
    /// An array index past the end.
    OutOfRange(String),
    /// A token tries to step into a scalar.
    NonContainer,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NotFragment => {
                f.write_str("only root or JSON Pointer fragments are supported")
            }
            ResolveError::Decode(esc) => {
                write!(f, "decode fragment: invalid URL escape {}", quote(esc))
            }
            ResolveError::InvalidEscape => {
                f.write_str("fragment contains invalid JSON Pointer escape")
            }
            ResolveError::MissingToken(t) => {
                write!(f, "fragment token {} does not exist", quote(t))
            }
            ResolveError::InvalidArrayToken(t) => {
                write!(f, "fragment array token {} is invalid", quote(t))
            }
            ResolveError::OutOfRange(t) => {
                write!(f, "fragment array token {} is out of range", quote(t))
            }
            ResolveError::NonContainer => f.write_str("fragment traverses non-container"),
        }
    }
}

/// Resolves a local `$ref` against the inline schema `root`
/// (`verifier-rules.md` §5 F3, F4).
///
/// `#` is the root. For `#/…`: the text after `#` is percent-decoded (Go
/// `url.PathUnescape`: `%24defs` → `$defs`, `%2F` becomes a separator, a
/// malformed escape fails), the leading `/` dropped, the rest split on `/`,
/// each token unescaped (`~0` → `~`, `~1` → `/`), then walked: objects need
/// the member, arrays need a token that is not `-`, has no leading zero and
/// parses (Go `Atoi`, so a leading `+` is accepted) as an in-range index.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Result<Target<'a>, ResolveError> {
    let rest = reference
        .strip_prefix('#')
        .ok_or(ResolveError::NotFragment)?;
    if rest.is_empty() {
        return Ok(Target {
            key: String::new(),
            location: JsonPointer::root(),
            value: root,
        });
    }
    if !rest.starts_with('/') {
        return Err(ResolveError::NotFragment);
    }
    let decoded = percent_decode(rest)?;
    let mut tokens = Vec::new();
    // `rest` starts with '/', so `decoded` does too: drop it, then split.
    for raw in decoded.get(1..).unwrap_or_default().split(|b| *b == b'/') {
        tokens.push(unescape_token(raw)?);
    }
    let mut key = String::new();
    let mut location = JsonPointer::root();
    let mut value = root;
    for token in tokens {
        let text = String::from_utf8_lossy(&token).into_owned();
        match value {
            Value::Object(map) => {
                let member = std::str::from_utf8(&token)
                    .ok()
                    .and_then(|name| crate::json::member(map, name))
                    .ok_or_else(|| ResolveError::MissingToken(text.clone()))?;
                location.push(&text);
                value = member;
            }
            Value::Array(items) => {
                let index = array_index(&text)
                    .ok_or_else(|| ResolveError::InvalidArrayToken(text.clone()))?;
                value = items
                    .get(index)
                    .ok_or_else(|| ResolveError::OutOfRange(text.clone()))?;
                location.push_index(index);
            }
            _ => return Err(ResolveError::NonContainer),
        }
        key.push('/');
        key.push_str(&escape(&text));
    }
    Ok(Target {
        key,
        location,
        value,
    })
}

/// A help line for a local `$ref` whose last resolvable object lacks the
/// member it names (issue 26 item 5): `did you mean #/$defs/Origin?` when
/// an existing member is within a small edit distance of the missing token
/// ([`crate::diag::nearest`]), or the token is the older drafts'
/// `definitions` beside a `$defs` (issue 36 item 6), else the members that exist there
/// (at most 12, in document order). `None` when `reference` resolves or
/// fails otherwise (a bad escape, an array index, a scalar).
pub fn missing_member_help(root: &Value, reference: &str) -> Option<String> {
    let Err(ResolveError::MissingToken(missing)) = resolve(root, reference) else {
        return None;
    };
    // The longest prefix of the reference that resolves to an object: the
    // one that lacks `missing` (cut at `/` in the raw text, as `resolve`
    // splits after decoding; a `%2F` only makes the prefix shorter).
    let rest = reference.strip_prefix('#')?;
    let (prefix, parent) = rest
        .match_indices('/')
        .map(|(i, _)| rest.get(..i).unwrap_or_default())
        .rev()
        .find_map(|p| {
            let t = resolve(root, &format!("#{p}")).ok()?;
            t.value.as_object().map(|m| (p, m))
        })?;
    if parent.is_empty() {
        return Some(format!(
            "#{prefix} has no members: add {} there",
            quote(&missing)
        ));
    }
    // Draft 2019-09 and earlier kept definitions under `definitions`: a
    // `$ref` spelt that way beside a `$defs` means it (issue 36 item 6).
    let older = missing == "definitions" && crate::json::member(parent, "$defs").is_some();
    let best = if older {
        parent.get_key_value("$defs").map(|(k, _)| (0, k))
    } else {
        crate::diag::nearest(&missing, parent.keys().map(String::as_str))
            .and_then(|n| parent.get_key_value(n))
            .map(|(k, _)| (0, k))
    };
    Some(match best {
        Some((_, name)) => {
            // Keep what followed the missing token when the whole
            // corrected reference then resolves (`#/$def/Origin`).
            let near = format!("#{prefix}/{}", escape(name));
            let tail = rest
                .get(prefix.len() + 1..)
                .and_then(|t| t.find('/').and_then(|i| t.get(i..)))
                .unwrap_or_default();
            let whole = format!("{near}{tail}");
            if !tail.is_empty() && resolve(root, &whole).is_ok() {
                format!("did you mean {whole}?")
            } else {
                format!("did you mean {near}?")
            }
        }
        None => {
            let names: Vec<String> = parent.keys().take(12).map(|k| escape(k)).collect();
            let more = if parent.len() > 12 { ", …" } else { "" };
            format!(
                "#{prefix} has no member {}; it has: {}{more}",
                quote(&missing),
                names.join(", ")
            )
        }
    })
}

/// Go `url.PathUnescape`: `%XX` with two hex digits becomes the byte; any
/// other `%` fails. `+` stays `+`.
fn percent_decode(text: &str) -> Result<Vec<u8>, ResolveError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hi = bytes.get(i + 1).and_then(|b| hex(*b));
            let lo = bytes.get(i + 2).and_then(|b| hex(*b));
            match (hi, lo) {
                (Some(hi), Some(lo)) => {
                    out.push(hi * 16 + lo);
                    i += 3;
                }
                _ => {
                    let esc = bytes.get(i..(i + 3).min(bytes.len())).unwrap_or_default();
                    return Err(ResolveError::Decode(
                        String::from_utf8_lossy(esc).into_owned(),
                    ));
                }
            }
        } else {
            out.push(b);
            i += 1;
        }
    }
    Ok(out)
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 6901 token unescape that rejects a `~` not followed by `0` or `1`.
fn unescape_token(raw: &[u8]) -> Result<Vec<u8>, ResolveError> {
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        if b == b'~' {
            match bytes.next() {
                Some(b'0') => out.push(b'~'),
                Some(b'1') => out.push(b'/'),
                _ => return Err(ResolveError::InvalidEscape),
            }
        } else {
            out.push(b);
        }
    }
    Ok(out)
}

/// Array token rule of F3: not `-`, no leading zero, Go `strconv.Atoi`
/// (optional sign, decimal digits, 64-bit range), non-negative. Rust's
/// `i64::from_str` has the same grammar as `Atoi`.
fn array_index(token: &str) -> Option<usize> {
    if token == "-" || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    let n: i64 = token.parse().ok()?;
    usize::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(v: &Value) -> Vec<(Code, String)> {
        let mut d: Vec<_> = scan(v)
            .into_iter()
            .map(|d| (d.code, d.pointer.as_str().to_owned()))
            .collect();
        d.sort();
        d
    }

    #[test]
    fn scan_accepts_local_refs_and_covers_literals() {
        let ok = json!({"$ref": "#", "properties": {"a": {"$ref": "#/$defs/x"}}, "const": {"$ref": "#/"}});
        assert!(scan(&ok).is_empty());
        let bad = json!({
            "properties": {"a": {"$ref": "#named"}, "b": {"$dynamicRef": "#x"}},
            "const": {"$ref": "https://attacker.invalid/s.json"},
            "enum": [{"$ref": 7}],
            "default": {"x": [{"$ref": ""}]}
        });
        assert_eq!(
            codes(&bad),
            vec![
                (Code::NonLocalRef, "/const/$ref".to_owned()),
                (Code::NonLocalRef, "/default/x/0/$ref".to_owned()),
                (Code::NonLocalRef, "/enum/0/$ref".to_owned()),
                (Code::NonLocalRef, "/properties/a/$ref".to_owned()),
                (Code::DynamicRef, "/properties/b/$dynamicRef".to_owned()),
            ]
        );
    }

    #[test]
    fn scan_refuses_empty_and_relative_refs() {
        for r in ["", "other.json#/x", "x", "#x", "/a"] {
            assert_eq!(codes(&json!({"$ref": r})).len(), 1, "{r}");
        }
        // A property literally named `$ref` is scanned too.
        let v = json!({"properties": {"$ref": {"type": "string"}}});
        assert_eq!(
            codes(&v),
            vec![(Code::NonLocalRef, "/properties/$ref".to_owned())]
        );
    }

    #[test]
    fn resolves_escaped_and_percent_encoded_tokens() {
        let root = json!({"$defs": {"m/z": 1, "a~b": 2, "e f": 3, "": 4, "x": [10, 11]}});
        let cases = [
            ("#/$defs/m~1z", 1, "/$defs/m~1z"),
            ("#/$defs/a~0b", 2, "/$defs/a~0b"),
            ("#/$defs/e%20f", 3, "/$defs/e f"),
            ("#/%24defs/m~1z", 1, "/$defs/m~1z"),
            ("#/$defs/", 4, "/$defs/"),
            ("#/$defs/x/1", 11, "/$defs/x/1"),
        ];
        for (r, want, loc) in cases {
            let t = resolve(&root, r).unwrap();
            assert_eq!(t.value, &json!(want), "{r}");
            assert_eq!(t.location.as_str(), loc, "{r}");
        }
        // %2F becomes a separator: `m/z` is then two tokens.
        assert_eq!(
            resolve(&root, "#/$defs/m%2Fz"),
            Err(ResolveError::MissingToken("m".to_owned()))
        );
        let t = resolve(&root, "#").unwrap();
        assert_eq!((t.key.as_str(), t.value), ("", &root));
    }

    #[test]
    fn plus_sign_index_quirk_has_its_own_key() {
        let root = json!({"a": [{"type": "string"}, 5]});
        let plus = resolve(&root, "#/a/+1").unwrap();
        let plain = resolve(&root, "#/a/1").unwrap();
        assert_eq!(plus.value, plain.value);
        assert_eq!(plus.location, plain.location);
        assert_eq!(plus.key, "/a/+1");
        assert_eq!(plain.key, "/a/1");
    }

    #[test]
    fn resolution_errors() {
        let root = json!({"$defs": {"x": {"type": "string"}}, "a": [1, 2]});
        let err = |r: &str| resolve(&root, r).unwrap_err();
        assert_eq!(err("#/$defs/x%zz"), ResolveError::Decode("%zz".to_owned()));
        assert_eq!(err("#/$defs/%2"), ResolveError::Decode("%2".to_owned()));
        assert_eq!(err("#/$defs/x~2"), ResolveError::InvalidEscape);
        assert_eq!(err("#/$defs/x~"), ResolveError::InvalidEscape);
        assert_eq!(err("#/$defs/y"), ResolveError::MissingToken("y".to_owned()));
        assert_eq!(
            err("#/a/-"),
            ResolveError::InvalidArrayToken("-".to_owned())
        );
        assert_eq!(
            err("#/a/01"),
            ResolveError::InvalidArrayToken("01".to_owned())
        );
        assert_eq!(
            err("#/a/-1"),
            ResolveError::InvalidArrayToken("-1".to_owned())
        );
        assert_eq!(
            err("#/a/x"),
            ResolveError::InvalidArrayToken("x".to_owned())
        );
        assert_eq!(err("#/a/2"), ResolveError::OutOfRange("2".to_owned()));
        assert_eq!(err("#/$defs/x/type/z"), ResolveError::NonContainer);
        assert_eq!(err("x"), ResolveError::NotFragment);
        assert_eq!(err("#x"), ResolveError::NotFragment);
        assert_eq!(
            err("#/$defs/x%zz").to_string(),
            "decode fragment: invalid URL escape \"%zz\""
        );
        // Near misses: 0 and in-range indices resolve.
        assert_eq!(resolve(&root, "#/a/0").unwrap().value, &json!(1));
    }

    /// Issue 26 item 5: a `$ref` to a missing `$defs` member names the
    /// nearest existing one; near misses: nothing near lists what exists,
    /// a ref that resolves or fails otherwise gets no suggestion.
    #[test]
    fn a_missing_member_suggests_the_nearest_existing_name() {
        let root = json!({"$defs": {"Origin": {}, "Backend": {}, "a/b": {}},
                          "properties": {"x": {}}, "items": [{}]});
        let help = |r: &str| missing_member_help(&root, r);
        assert_eq!(
            help("#/$defs/Orign").as_deref(),
            Some("did you mean #/$defs/Origin?")
        );
        assert_eq!(
            help("#/$defs/origin").as_deref(),
            Some("did you mean #/$defs/Origin?")
        );
        assert_eq!(
            help("#/$defs/a~1c").as_deref(),
            Some("did you mean #/$defs/a~1b?")
        );
        assert_eq!(
            help("#/$def/Origin").as_deref(),
            Some("did you mean #/$defs/Origin?")
        );
        assert_eq!(
            help("#/$def/Nope").as_deref(),
            Some("did you mean #/$defs?")
        );
        assert_eq!(
            help("#/$defs/Zone").as_deref(),
            Some("#/$defs has no member \"Zone\"; it has: Origin, Backend, a~1b")
        );
        // Issue 36 item 6: the older drafts' `definitions` beside `$defs`.
        assert_eq!(
            help("#/definitions/Origin").as_deref(),
            Some("did you mean #/$defs/Origin?")
        );
        assert_eq!(help("#/$defs/Origin"), None);
        assert_eq!(help("#/items/7"), None);
        assert_eq!(help("#/$defs/%zz"), None);
    }
}
