//! FD227's reading of a pattern (issue 36 item 5): the constructs Go's
//! regexp reads but ECMA-262 reads otherwise or refuses, each with its
//! portable spelling.
//!
//! ECMA-262 here is what a JSON Schema validator runs: a regular
//! expression with the `u` flag (ajv's default, and the only mode that
//! reads `\u{…}` and `\p{…}`), which refuses identity escapes of
//! characters that are not syntax characters and lone braces, both of
//! which Go reads as text. A pattern Go refuses is FD222's, never this
//! lint's; the scan below assumes Go compiled the pattern.

use crate::engine::goregex::{self, Kind};

/// The characters ECMA-262's `u` flag lets a backslash escape (its
/// SyntaxCharacter and `/`); inside a class `-` too.
const ECMA_ESCAPABLE: &str = "^$\\.*+?()[]{}|/";

/// ECMA-262's `\s` (WhiteSpace and LineTerminator) in Go's class syntax:
/// Go's five ASCII spaces, `\v`, and the Unicode spaces and separators.
const ECMA_SPACE: &str = "\\t\\n\\v\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/// ECMA-262's `\S` in Go's class syntax: every character [`ECMA_SPACE`]
/// leaves out.
const ECMA_NON_SPACE: &str = "\\x00-\\x08\\x0E-\\x1F!-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";

/// Go's `\s` spelt out: the portable spelling inside a class.
const GO_SPACE: &str = "\\t\\n\\f\\r ";

/// The constructs of `pattern` that Go's regexp reads but ECMA-262 reads
/// otherwise or refuses: (what it is, the portable spelling), in order,
/// each construct once. Patterns Go refuses are FD222's, not this lint's.
pub fn unportable_constructs(pattern: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    // The open class: where its `[` is and whether it holds `\s` or `\S`.
    let mut class: Option<(usize, bool)> = None;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        let in_class = class.is_some();
        match c {
            '\\' if next == Some('Q') => {
                found.push((
                    "\\Q…\\E (a quoted literal)".into(),
                    "each metacharacter escaped with \\".into(),
                ));
                // Everything up to `\E` (or the end) is literal.
                let mut j = i + 2;
                while j < chars.len()
                    && !(chars.get(j) == Some(&'\\') && chars.get(j + 1) == Some(&'E'))
                {
                    j += 1;
                }
                i = j + 2;
                continue;
            }
            '\\' => {
                if let (Some((_, spaces)), Some('s' | 'S')) = (class.as_mut(), next) {
                    *spaces = true;
                }
                let (note, used) = escape(&chars, i, in_class);
                found.extend(note);
                i += used;
                continue;
            }
            '[' if !in_class => {
                class = Some((i, false));
                // A leading `^` and a leading `]` belong to the class.
                let mut j = i + 1;
                if chars.get(j) == Some(&'^') {
                    j += 1;
                }
                if chars.get(j) == Some(&']') {
                    j += 1;
                }
                i = j;
                continue;
            }
            '[' if next == Some(':') => {
                let rest: String = chars.get(i + 2..).unwrap_or_default().iter().collect();
                if let Some(end) = rest.find(":]") {
                    let name = rest.get(..end).unwrap_or_default();
                    let name = name.strip_prefix('^').unwrap_or(name);
                    if let Some(portable) = posix_class(name) {
                        found.push((
                            format!("the POSIX class [:{name}:]"),
                            format!("{portable} in its place ([[:{name}:]] is [{portable}])"),
                        ));
                        i += 2 + end + 2;
                        continue;
                    }
                }
            }
            ']' if in_class => {
                if let Some((start, true)) = class {
                    let text: String = chars.get(start..=i).unwrap_or_default().iter().collect();
                    found.extend(spaces_in_class(&text));
                }
                class = None;
            }
            ']' => found.push((
                "a lone ] (Go reads the text ], ECMA-262 refuses it)".into(),
                "\\]".into(),
            )),
            '}' if !in_class => found.push((
                "a lone } (Go reads the text }, ECMA-262 refuses it)".into(),
                "\\}".into(),
            )),
            '{' if !in_class => {
                let (note, used) = brace(&chars, i);
                found.extend(note);
                i += used;
                continue;
            }
            '(' if !in_class && next == Some('?') => {
                let after = chars.get(i + 2).copied();
                match after {
                    Some('P') if chars.get(i + 3) == Some(&'<') => {
                        found.push(("the named group (?P<name>…)".into(), "(?<name>…)".into()));
                    }
                    Some(f) if f.is_ascii_alphabetic() || f == '-' => {
                        let flags: String = chars
                            .get(i + 2..)
                            .unwrap_or_default()
                            .iter()
                            .take_while(|c| c.is_ascii_alphabetic() || **c == '-')
                            .collect();
                        let portable = if flags.contains('i') {
                            "both cases in a class, [Aa] for a"
                        } else {
                            "no flags (ECMA-262 schema patterns are read without any)"
                        };
                        found.push((format!("the inline flags (?{flags})"), portable.to_owned()));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut seen = std::collections::BTreeSet::new();
    found.retain(|(what, _)| seen.insert(what.clone()));
    found
}

/// The escape at `chars[i]` (a backslash): the construct ECMA-262 reads
/// otherwise, if it is one, and how many characters the escape spans.
/// `\s` and `\S` inside a class are decided for the whole class
/// ([`spaces_in_class`]).
fn escape(chars: &[char], i: usize, in_class: bool) -> (Option<(String, String)>, usize) {
    let Some(&n) = chars.get(i + 1) else {
        return (None, 1);
    };
    let text = |end: usize| -> String { chars.get(i..end).unwrap_or_default().iter().collect() };
    // The end (exclusive) of a `{…}` that starts at `from`.
    let braced = |from: usize| -> Option<usize> {
        (chars.get(from) == Some(&'{'))
            .then(|| chars.iter().skip(from).position(|c| *c == '}'))
            .flatten()
            .map(|p| from + p + 1)
    };
    let note = |what: String, portable: String| Some((what, portable));
    match n {
        'A' if !in_class => (note("\\A (start of text)".into(), "^".into()), 2),
        'z' if !in_class => (note("\\z (end of text)".into(), "$".into()), 2),
        's' if !in_class => (
            note(
                "\\s (Go: the five ASCII spaces; ECMA-262: every Unicode space)".into(),
                format!("[{GO_SPACE}]"),
            ),
            2,
        ),
        'S' if !in_class => (
            note(
                "\\S (Go: all but the five ASCII spaces; ECMA-262: all but every Unicode space)"
                    .into(),
                format!("[^{GO_SPACE}]"),
            ),
            2,
        ),
        'x' => match braced(i + 2) {
            Some(end) => {
                let digits: String = chars
                    .get(i + 3..end - 1)
                    .unwrap_or_default()
                    .iter()
                    .collect();
                let portable = u32::from_str_radix(&digits, 16)
                    .map_or_else(|_| "two hex digits, \\xHH".to_owned(), one_character);
                (
                    note(format!("the braced hex escape {}", text(end)), portable),
                    end - i,
                )
            }
            None => (None, 4),
        },
        'p' | 'P' => (None, braced(i + 2).map_or(3, |end| end - i)),
        'a' => (note("\\a (the bell character)".into(), "\\x07".into()), 2),
        '0'..='7' => {
            let digits: String = chars
                .iter()
                .skip(i + 1)
                .take(3)
                .take_while(|c| matches!(c, '0'..='7'))
                .collect();
            let end = i + 1 + digits.len();
            // `\0` alone is NUL in both.
            if digits == "0" {
                return (None, end - i);
            }
            let portable =
                u32::from_str_radix(&digits, 8).map_or_else(|_| String::new(), one_character);
            (
                note(format!("the octal escape {}", text(end)), portable),
                end - i,
            )
        }
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => {
            if ECMA_ESCAPABLE.contains(c) || (in_class && c == '-') {
                return (None, 2);
            }
            let portable = if c == ' ' {
                "a plain space".to_owned()
            } else if c.is_ascii_control() {
                format!("\\x{:02X}", u32::from(c))
            } else {
                c.to_string()
            };
            let place = if in_class {
                "in a class"
            } else {
                "outside a class"
            };
            (
                note(
                    format!("the escape {} (ECMA-262 refuses it {place})", text(i + 2)),
                    portable,
                ),
                2,
            )
        }
        _ => (None, 2),
    }
}

/// The portable spelling of one character given by its code point: `\xHH`
/// up to U+00FF, else the character itself.
fn one_character(v: u32) -> String {
    if v <= 0xFF {
        format!("\\x{v:02X}")
    } else {
        match char::from_u32(v) {
            Some(c) => format!("the character {c} itself (U+{v:04X})"),
            None => format!("nothing: U+{v:04X} is a surrogate, which matches nothing in Go"),
        }
    }
}

/// A `{` outside a class at `chars[i]`: the construct ECMA-262 reads
/// otherwise, if it is one, and how many characters it spans. Go reads
/// `{n}`, `{n,}`, `{n,m}` (decimal, no leading zero) as a repetition and
/// any other brace as text; ECMA-262 reads `{01}` as a repetition and
/// refuses a lone brace.
fn brace(chars: &[char], i: usize) -> (Option<(String, String)>, usize) {
    let len = chars
        .iter()
        .skip(i + 1)
        .take_while(|c| c.is_ascii_digit() || **c == ',')
        .count();
    let close = i + 1 + len;
    if chars.get(close) != Some(&'}') {
        return (
            Some((
                "a lone { (Go reads the text {, ECMA-262 refuses it)".into(),
                "\\{".into(),
            )),
            1,
        );
    }
    let inner: String = chars.get(i + 1..close).unwrap_or_default().iter().collect();
    let used = close + 1 - i;
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let go_number = |s: &str| number(s) && (s == "0" || !s.starts_with('0'));
    let (low, high) = match inner.split_once(',') {
        Some((l, h)) => (l, Some(h)),
        None => (inner.as_str(), None),
    };
    if go_number(low) && high.is_none_or(|h| h.is_empty() || go_number(h)) {
        return (None, used);
    }
    let text = format!("{{{inner}}}");
    let as_text = format!("\\{{{inner}\\}} for the text");
    let note = if number(low) && high.is_none_or(|h| h.is_empty() || number(h)) {
        let trim = |s: &str| s.trim_start_matches('0').to_owned();
        let trim = |s: &str| {
            if trim(s).is_empty() {
                "0".to_owned()
            } else {
                trim(s)
            }
        };
        let counted = match high {
            Some(h) if !h.is_empty() => format!("{},{}", trim(low), trim(h)),
            Some(_) => format!("{},", trim(low)),
            None => trim(low),
        };
        (
            format!("{text} (Go reads the text {text}, ECMA-262 a repetition)"),
            format!("{{{counted}}} for a repetition, {as_text}"),
        )
    } else if low.is_empty() && high.is_some_and(number) {
        (
            format!("{text} (Go reads the text {text}, ECMA-262 refuses it)"),
            format!("{{0{inner}}} for a repetition, {as_text}"),
        )
    } else {
        (
            format!("{text} (Go reads the text {text}, ECMA-262 refuses it)"),
            format!("\\{{{inner}\\}}"),
        )
    };
    (Some(note), used)
}

/// A class holding `\s` or `\S` (`text`, from `[` to `]`): a note when
/// Go's set (ASCII spaces) and ECMA-262's (Unicode spaces) differ. The
/// same class with ECMA-262's sets spelt out is parsed by Go's grammar and
/// the two sets compared, so `[\s\S]`, or a class that lists the Unicode
/// spaces beside `\s`, reads the same in both and gets none.
fn spaces_in_class(text: &str) -> Option<(String, String)> {
    let mut ecma = String::new();
    let mut portable = String::new();
    let mut negated_space = false;
    let mut it = text.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            ecma.push(c);
            portable.push(c);
            continue;
        }
        match it.next() {
            Some('s') => {
                ecma.push_str(ECMA_SPACE);
                portable.push_str(GO_SPACE);
            }
            Some('S') => {
                ecma.push_str(ECMA_NON_SPACE);
                negated_space = true;
            }
            Some(n) => {
                for s in [&mut ecma, &mut portable] {
                    s.push('\\');
                    s.push(n);
                }
            }
            None => ecma.push('\\'),
        }
    }
    let (go, ecma_set) = (class_set(text), class_set(&ecma));
    if go.is_some() && go == ecma_set {
        return None;
    }
    let portable = if negated_space {
        format!("the class without \\S in a group with [^{GO_SPACE}], (?:{portable}|[^{GO_SPACE}])")
    } else {
        portable
    };
    Some((
        format!("\\s or \\S in the class {text} (Go: ASCII spaces; ECMA-262: every Unicode space)"),
        portable,
    ))
}

/// The characters a one-class pattern matches, as Go reads it (`None`
/// when it is not one class).
fn class_set(text: &str) -> Option<Vec<(char, char)>> {
    match goregex::parse(text).ok()?.kind {
        Kind::Class(c) => Some(c.ranges().iter().map(|r| (r.start(), r.end())).collect()),
        Kind::Literal(cs, false) => match cs.as_slice() {
            [one] => char::from_u32(*one).map(|c| vec![(c, c)]),
            _ => None,
        },
        _ => None,
    }
}

/// The portable spelling of a POSIX class inside brackets.
fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "alnum" => "A-Za-z0-9",
        "alpha" => "A-Za-z",
        "ascii" => "\\x00-\\x7F",
        "blank" => " \\t",
        "cntrl" => "\\x00-\\x1F\\x7F",
        "digit" => "0-9",
        "graph" => "!-~",
        "lower" => "a-z",
        "print" => " -~",
        "punct" => "!-/:-@[-`{-~",
        "space" => " \\t\\n\\v\\f\\r",
        "upper" => "A-Z",
        "word" => "A-Za-z0-9_",
        "xdigit" => "0-9A-Fa-f",
        _ => return None,
    })
}
