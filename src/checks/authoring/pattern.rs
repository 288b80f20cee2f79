//! FD227's reading of a pattern (issue 36 item 5): the constructs Go's
//! regexp reads but ECMA-262 reads otherwise or refuses, each with its
//! portable spelling.

/// The constructs of `pattern` that Go's regexp reads but ECMA-262 reads
/// otherwise or refuses: (what it is, the portable spelling), in order.
/// Patterns Go refuses are FD222's, not this lint's.
pub fn unportable_constructs(pattern: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut class = false;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        match c {
            '\\' => {
                match next {
                    Some('A') if !class => {
                        found.push(("\\A (start of text)".into(), "^".into()));
                    }
                    Some('z') if !class => {
                        found.push(("\\z (end of text)".into(), "$".into()));
                    }
                    Some('Q') => {
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
                    _ => {}
                }
                i += 2;
                continue;
            }
            '[' if !class => {
                class = true;
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
            '[' if class && next == Some(':') => {
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
            ']' if class => class = false,
            '(' if !class && next == Some('?') => {
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
    found
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
