//! Escaping package text (moved here from `render::escape`, which
//! re-exports it): the escapes are Go's `strconv.Quote` escapes, as the
//! reference verifier prints them: `\n`, `\r`, `\t` and the other C
//! escapes, `\x1b` below U+0080, `\u0085`, `\u202e`, `\u2028`, and
//! `\U000e0041` past the BMP. This module sits under `diag` (it imports
//! nothing of the crate), so the library that builds messages and `render`
//! can share it without an import cycle (`tests/docs/imports.rs`).

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
    if !s.contains('\\') {
        return text(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        // `\{hex}` of Rust's Debug, re-spelled; any other escape is kept.
        let braced = tail
            .strip_prefix("\\u{")
            .and_then(|t| t.split_once('}'))
            .and_then(|(hex, after)| {
                let c = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)?;
                (hex.len() <= 6).then_some((c, after))
            });
        if let Some((c, after)) = braced {
            // Go prints what it deems printable as itself (Rust's Debug
            // also escapes a leading combining mark).
            if needs_escape(c) {
                push_escape(&mut out, c);
            } else {
                out.push(c);
            }
            rest = after;
        } else if let Some(after) = tail.strip_prefix("\\0") {
            out.push_str("\\x00");
            rest = after;
        } else {
            // `\\` stays a pair (a literal backslash), so what follows it
            // is never read as an escape.
            let n = if tail.starts_with("\\\\") { 2 } else { 1 };
            out.push_str(&tail[..n]);
            rest = &tail[n..];
        }
    }
    out.push_str(rest);
    Cow::Owned(text(&out).into_owned())
}
