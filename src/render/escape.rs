//! Escaping package text for a terminal and a CI log (issue 22 item 2).
//!
//! A package comes from a stranger: every piece of its text that a
//! renderer prints (names, keys, JSON Pointers, values, file names, the
//! directory names of a tree) passes through [`text`] in the human and
//! GitHub formats (and every message carries it escaped already: [`quote`],
//! breaker F13), so no byte of it can end a line (a following `::error`
//! would be a workflow command to the GitHub runner), move the cursor,
//! recolour the terminal (ESC, C1 CSI) or reorder what the reader sees
//! (bidi overrides). The escapes are Go's `strconv.Quote` escapes, as the
//! reference verifier prints them: `\n`, `\r`, `\t` and the other C
//! escapes, `\x1b` below U+0080, `\u0085`, `\u202e`, `\u2028`, and
//! `\U000e0041` past the BMP. A character is escaped when Go's
//! `unicode.IsPrint` is false for it: control (Cc), format (Cf, e.g. the
//! bidi controls), line and paragraph separators (Zl, Zp), every space but
//! U+0020 (Zs), private use (Co) and unassigned code points (Cn). A
//! backslash is printed as it is (the text is not quoted), so a name that
//! holds the six characters `\x1b` reads the same as one holding ESC; the
//! JSON and SARIF formats, which encode every string, tell them apart.
//!
//! Source excerpts are never escaped (that would move every column after
//! the character): the human renderer shows no excerpt whose lines hold a
//! character [`needs_escape`] is true for, and keeps the `file:line:column`
//! line.

pub use crate::diag::escape::{message, needs_escape, quote, text};

/// The one line the tool writes in its own voice, on stderr or in a log:
/// `form-package: ` then `text` escaped as a [`message`], then a newline.
/// A path, a name or an operating-system error quoting one (breaker F2:
/// `form-package: <path>: <io error>`, `wrote <path>`) can neither end the
/// line nor reach the terminal raw, and a name quoted with Rust's `{:?}`
/// reads as the reference's `%q`. Escaping is idempotent on what [`text`]
/// already escaped (a backslash stays as it is). Every `form-package: `
/// line of the command line and of `render` is made here (asserted by
/// `tests/docs/imports.rs`), so a new command cannot print one raw.
pub fn line(text: &str) -> String {
    format!("form-package: {}\n", message(text))
}

/// A path as [`text`] shows it (lossy for a name that is not UTF-8).
pub fn path(p: &std::path::Path) -> String {
    text(&p.display().to_string()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// Each class of the issue (LF, CR, ESC, C1, bidi, U+2028), and the
    /// rest of Go's non-printables, as the reference prints them. Near
    /// miss: printable text, non-ASCII letters and symbols stay as they are.
    #[test]
    fn go_escapes_for_every_non_printable() {
        let cases = [
            ("a\nb", "a\\nb"),
            ("a\rb", "a\\rb"),
            ("\u{1b}[31m", "\\x1b[31m"),
            ("x\u{85}y", "x\\u0085y"),
            ("ab\u{202e}cd", "ab\\u202ecd"),
            ("l\u{2028}s", "l\\u2028s"),
            ("p\u{2029}", "p\\u2029"),
            ("\t\u{0}\u{7f}\u{7}\u{b}", "\\t\\x00\\x7f\\a\\v"),
            ("nb\u{a0}sp", "nb\\u00a0sp"),
            ("\u{200b}\u{feff}\u{2066}", "\\u200b\\ufeff\\u2066"),
            ("tag\u{e0041}", "tag\\U000e0041"),
            ("pua\u{f8ff}", "pua\\uf8ff"),
        ];
        for (raw, want) in cases {
            assert_eq!(text(raw), want, "{raw:?}");
        }
        // Messages: Rust's `{:?}` escapes respelled as Go's; a literal
        // backslash (`\\` in Debug) is never read as an escape.
        assert_eq!(
            message("entry \"fc1\\u{85}::x\" and \"\\u{1b}\\0\\u{1f600}\\u{10ffff}\""),
            "entry \"fc1\\u0085::x\" and \"\\x1b\\x00\u{1f600}\\U0010ffff\""
        );
        assert_eq!(message("\"a\\\\u{1b}\""), "\"a\\\\u{1b}\"");
        assert_eq!(message("raw \u{1b} and \\u{zz}"), "raw \\x1b and \\u{zz}");
        // The tool's own line: its text escaped as a message, once.
        assert_eq!(
            line("p\u{1b}]0;T\u{7}\u{85}\u{202e}\n\u{2028}: gone"),
            "form-package: p\\x1b]0;T\\a\\u0085\\u202e\\n\\u2028: gone\n"
        );
        assert_eq!(
            line("unknown \"\\u{1b}\""),
            "form-package: unknown \"\\x1b\"\n"
        );
        assert_eq!(line(&text("a\u{1b}b")), line("a\u{1b}b"));
        assert_eq!(line("plain é: gone"), "form-package: plain é: gone\n");
        for ok in ["plain text", "Stra\u{df}e", "é €…×╰", "a b/c~1d", "\\x1b"] {
            assert!(matches!(text(ok), Cow::Borrowed(_)), "{ok:?}");
        }
    }
}
