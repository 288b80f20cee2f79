//! Package text inside a message, in one notation (breaker F13).
//!
//! A package comes from a stranger. Its text (member names, keys, values,
//! file names, pointers) reaches a finding's `message`, which every format
//! prints: the human renderer, a SARIF viewer, a `jq -r` of the JSON report,
//! a CI log of the GitHub or JUnit format. So a check never puts package
//! text into a message as it is: it writes [`quote`] (`"name"`, quoted) or
//! [`text`] (unquoted, e.g. a path after `file `), and every format shows the
//! same escaped characters. The escapes are Go's `strconv.Quote` escapes, as
//! the reference verifier prints them: `\n`, `\r`, `\t` and the other C
//! escapes, `\x1b` below U+0080, `\u0085`, `\u202e`, `\u2028`, and
//! `\U000e0041` past the BMP. A character is escaped when Go's
//! `unicode.IsPrint` is false for it: control (Cc), format (Cf, e.g. the
//! bidi controls), line and paragraph separators (Zl, Zp), every space but
//! U+0020 (Zs), private use (Co) and unassigned code points (Cn).
//! Printable non-ASCII text (`é`, `日本`) stays as it is.
//!
//! This module sits under `diag` (it imports nothing of the crate), so the
//! library that builds messages and `render` (which re-exports it as
//! `render::escape`) share it without an import cycle
//! (`tests/docs/imports.rs`).

use std::borrow::Cow;

use unicode_general_category::{get_general_category, GeneralCategory as G};

/// True when Go's `unicode.IsPrint` is false for `c` (see the module docs):
/// `c` is shown as an escape, never as itself.
pub fn needs_escape(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
            | G::PrivateUse
            | G::Surrogate
            | G::Unassigned
    )
}

/// `s` with every character [`needs_escape`] is true for written as Go's
/// `strconv.Quote` writes it (`\n`, `\x1b`, `\u0085`, `\u202e`,
/// `\U000e0041`); borrowed when nothing needs escaping.
pub fn text(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Appends Go's escape of `c` (`strconv.appendEscapedRune`).
fn push_escape(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let _ = match c {
        '\u{7}' => write!(out, "\\a"),
        '\u{8}' => write!(out, "\\b"),
        '\u{c}' => write!(out, "\\f"),
        '\n' => write!(out, "\\n"),
        '\r' => write!(out, "\\r"),
        '\t' => write!(out, "\\t"),
        '\u{b}' => write!(out, "\\v"),
        c if (c as u32) < 0x80 => write!(out, "\\x{:02x}", c as u32),
        c if (c as u32) < 0x1_0000 => write!(out, "\\u{:04x}", c as u32),
        c => write!(out, "\\U{:08x}", c as u32),
    };
}

/// A finding's message as the human, GitHub and JUnit formats show it: a
/// name the message quotes with Rust's `{:?}` (`"fbidi\u{202e}evil"`) is
/// respelled with Go's escapes as the reference quotes it with `%q`
/// (`"fbidi\u202eevil"`; `\u{1b}` → `\x1b`, `\0` → `\x00`; `\\`, `\"`,
/// `\n`, `\r`, `\t` are the same in both), then [`text`] escapes whatever
/// the message holds raw.
pub fn message(s: &str) -> Cow<'_, str> {
    respell(s, |tail| {
        // `\u{hex}` of Rust's Debug, re-spelled; Go prints what it deems
        // printable as itself (Rust's Debug also escapes a leading
        // combining mark).
        let braced = tail
            .strip_prefix("\\u{")
            .and_then(|t| t.split_once('}'))
            .and_then(|(hex, after)| {
                let c = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)?;
                (hex.len() <= 6).then_some((c, after))
            });
        braced.or_else(|| tail.strip_prefix("\\0").map(|after| ('\0', after)))
    })
}

/// `s` with each escape `escape` reads at a backslash (the character it
/// stands for and the text after it) respelled as Go's, any other escape
/// kept, then [`text`]: a `\\` stays a pair (a literal backslash), so what
/// follows it is never read as an escape.
fn respell<'a>(s: &'a str, escape: impl Fn(&str) -> Option<(char, &str)>) -> Cow<'a, str> {
    if !s.contains('\\') {
        return text(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some((c, after)) = escape(tail) {
            if needs_escape(c) {
                push_escape(&mut out, c);
            } else {
                out.push(c);
            }
            rest = after;
        } else {
            let n = if tail.starts_with("\\\\") { 2 } else { 1 };
            out.push_str(&tail[..n]);
            rest = &tail[n..];
        }
    }
    out.push_str(rest);
    Cow::Owned(text(&out).into_owned())
}

/// `s` quoted as Go's `%q` quotes it, the way every message shows a piece
/// of package text (a member name, a key, a value, a file name): `"`, then
/// `s` with `"` and `\` written `\"` and `\\` and every character
/// [`needs_escape`] is true for escaped as [`text`] escapes it, then `"`.
/// `quote("k\u{202e}\u{1b}é")` is `"k\u202e\x1bé"` (the escapes as
/// backslash sequences). The human renderer's [`message`] leaves
/// the result as it is, so a message shows the same in every format.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if needs_escape(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A message another library wrote that quotes package values as JSON text
/// (the schema crate: `"\u001b[31m" is not one of ["a"]`), in [`quote`]'s
/// notation: each JSON `\u00XX` escape of a control character is respelled
/// as Go's (`\x1b`, `\a`), then [`text`] escapes what the message holds raw
/// (JSON leaves DEL, C1 controls and bidi controls unescaped). JSON's other
/// escapes (`\"`, `\\`, `\n`, `\t`, `\b`, `\f`) are Go's already; a
/// backslash pair is never read as the start of an escape.
pub fn json_message(s: &str) -> Cow<'_, str> {
    respell(s, |tail| {
        let t = tail.strip_prefix("\\u00")?;
        let b = u8::from_str_radix(t.get(..2)?, 16).ok()?;
        (b < 0x20).then(|| (char::from(b), &t[2..]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each class of breaker F13 (ESC, OSC and BEL, U+0085, U+202E, C1 CSI
    /// U+009B, DEL, LF, U+2028) in one notation, with the quote and the
    /// backslash escaped; the human renderer's [`message`] keeps it as it
    /// is. Near miss: printable non-ASCII stays as it is.
    #[test]
    fn quote_escapes_in_one_notation() {
        let raw = "a\u{1b}[31m\u{1b}]0;T\u{7}\u{85}\u{202e}\u{9b}\u{7f}\n\u{2028}\"\\z";
        let want = r#""a\x1b[31m\x1b]0;T\a\u0085\u202e\u009b\x7f\n\u2028\"\\z""#;
        assert_eq!(quote(raw), want);
        assert_eq!(message(&quote(raw)), want);
        // What the human renderer showed for Rust's `{:?}` of the name.
        assert_eq!(message(&format!("{raw:?}")), want);
        assert_eq!(quote("é 日本 Straße"), "\"é 日本 Straße\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(text(&quote(raw)), want);
        // The schema crate's JSON quoting, respelled; a backslash pair
        // (`\\u001b` in the JSON: six characters of the value) is kept.
        let json = serde_json::Value::String(raw.to_owned()).to_string();
        assert_eq!(
            json_message(&format!("{json} is not one of")),
            format!("{want} is not one of")
        );
        assert_eq!(json_message(r#""a\\u001b\u0007""#), r#""a\\u001b\a""#);
        assert_eq!(json_message(r#""\u00e9 \u0020""#), r#""\u00e9 \u0020""#);
    }
}
