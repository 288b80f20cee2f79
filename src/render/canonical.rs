//! The view of `form-package canonicalize FILE` and `digest FILE`: the
//! canonical form or digest on stdout, or a refusal on stderr.
//! `ops::canonicalize` returns the bytes or its [`Refusal`]; this module alone
//! turns them into text (issue 21 item 3).

use crate::ops::canonicalize::Refusal;
use crate::render::{escape, human};

/// What `canonicalize`/`digest` prints for `result`, as (stdout, stderr):
/// - the canonical bytes or digest and a newline on stdout;
/// - a file with no canonical form: the reference's `form-package:
///   <message>` line, then our finding as `verify` prints it (uncoloured),
///   on stderr;
/// - a file that cannot be read: `form-package: <path>: <cause>`.
///
/// The exit status is the operation's ([`crate::ops::canonicalize::exit_code`]),
/// never this view's.
pub fn output(result: Result<Vec<u8>, Refusal>) -> (Vec<u8>, String) {
    match result {
        Ok(mut stdout) => {
            stdout.push(b'\n');
            (stdout, String::new())
        }
        Err(Refusal::Unreadable(e)) => (Vec::new(), escape::line(&e.to_string())),
        Err(Refusal::Invalid(invalid)) => {
            let text = human::render_diagnostic(&invalid.finding, Some(&invalid.source), false);
            (
                Vec::new(),
                format!("{}{text}", escape::line(&invalid.reference_line)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::ops::canonicalize::Invalid;
    use crate::verify::Source;

    #[test]
    fn the_canonical_form_is_one_line_and_a_refusal_is_the_reference_line_then_ours() {
        let (stdout, stderr) = output(Ok(b"sha256:00".to_vec()));
        assert_eq!(stdout, b"sha256:00\n");
        assert!(stderr.is_empty());
        let (stdout, stderr) = output(Err(Refusal::Invalid(Box::new(Invalid {
            reference_line: "duplicate object name \"a\"".into(),
            finding: Diagnostic::new(Code::InvalidIJson, "duplicate object name \"a\"")
                .in_file("x.json"),
            source: Source {
                bytes: br#"{"a":1,"a":2}"#.to_vec(),
                spans: None,
            },
        }))));
        assert!(stdout.is_empty());
        assert!(
            stderr.starts_with("form-package: duplicate object name \"a\"\nFD012 invalid-i-json\n"),
            "{stderr}"
        );
    }
}
