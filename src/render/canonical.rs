//! The view of `form-package canonicalize FILE` and `digest FILE`: the
//! canonical form or digest on stdout, or a refusal on stderr.
//! `canonical_cmd` returns the bytes or its [`Refusal`]; this module alone
//! turns them into text (issue 21 item 3).

use crate::canonical_cmd::Refusal;
use crate::output::Output;
use crate::render::human;

/// What `canonicalize`/`digest` prints for `result`:
/// - the canonical bytes or digest and a newline on stdout (exit 0);
/// - a file with no canonical form: the reference's `form-package:
///   <message>` line, then our finding as `verify` prints it (uncoloured),
///   on stderr (exit 1);
/// - a file that cannot be read: `form-package: <path>: <cause>` (exit 2).
pub fn output(result: Result<Vec<u8>, Refusal>) -> Output {
    match result {
        Ok(mut stdout) => {
            stdout.push(b'\n');
            Output {
                stdout,
                ..Default::default()
            }
        }
        Err(Refusal::Unreadable(e)) => e.into(),
        Err(Refusal::Invalid(invalid)) => {
            let text = human::render_diagnostic(&invalid.finding, Some(&invalid.source), false);
            Output {
                stderr: format!("form-package: {}\n{text}", invalid.reference_line),
                code: 1,
                ..Default::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical_cmd::Invalid;
    use crate::codes::Code;
    use crate::diag::Diagnostic;
    use crate::verify::Source;

    #[test]
    fn the_canonical_form_is_one_line_and_a_refusal_is_the_reference_line_then_ours() {
        let ok = output(Ok(b"sha256:00".to_vec()));
        assert_eq!((ok.stdout.as_slice(), ok.code), (&b"sha256:00\n"[..], 0));
        assert!(ok.stderr.is_empty());
        let refused = output(Err(Refusal::Invalid(Box::new(Invalid {
            reference_line: "duplicate object name \"a\"".into(),
            finding: Diagnostic::new(Code::InvalidIJson, "duplicate object name \"a\"")
                .in_file("x.json"),
            source: Source {
                bytes: br#"{"a":1,"a":2}"#.to_vec(),
                spans: None,
            },
        }))));
        assert_eq!(refused.code, 1);
        assert!(refused.stdout.is_empty());
        assert!(
            refused
                .stderr
                .starts_with("form-package: duplicate object name \"a\"\nFD012 invalid-i-json\n"),
            "{}",
            refused.stderr
        );
    }
}
