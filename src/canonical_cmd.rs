//! `form-package canonicalize FILE` and `digest FILE`: a JSON file read
//! strictly (no size cap) and printed in its RFC 8785 canonical form, or
//! as the `sha256:<64 hex>` of that form ([`crate::canonical`]). A refusal
//! prints the reference's `form-package: <message>` line, then our
//! finding (exit 1); a file that cannot be read is exit 2.

use std::path::Path;

use crate::canonical::{canonicalize, sha256_digest};
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::output::Output;
use crate::render::human;
use crate::verify::Source;

/// `canonicalize FILE` (`digest`: false) or `digest FILE` (true): strict
/// read (no size cap), RFC 8785.
pub fn run(file: &Path, digest: bool) -> Output {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(source) => {
            return Error::Io {
                path: file.to_path_buf(),
                source,
            }
            .into()
        }
    };
    let name = file.display().to_string();
    // First the reference's `form-package: <message>` line, then our finding.
    let refuse = |line: String, d: Diagnostic, source: Source| {
        let d = d.in_file(name.clone());
        let text = human::render_diagnostic(&d, Some(&source), false);
        Output {
            stderr: format!("form-package: {line}\n{text}"),
            code: 1,
            ..Default::default()
        }
    };
    let parsed = match crate::json::strict::parse(&bytes) {
        Ok(p) => p,
        Err(e) => {
            return refuse(
                e.reference_line(),
                e.to_diagnostic(),
                Source { bytes, spans: None },
            )
        }
    };
    if !matches!(
        parsed.value,
        serde_json::Value::Object(_) | serde_json::Value::Array(_)
    ) {
        // The reference reads the top level expecting an object and names
        // the first byte it got (a scalar starts with an ASCII byte).
        let first = bytes
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .map_or(' ', |b| char::from(*b));
        let line = format!("RFC 8785 canonicalization: Expected '{{' but got '{first}'");
        if let Err(d) = canonicalize(&parsed.value) {
            let source = Source {
                bytes,
                spans: Some(parsed.spans),
            };
            return refuse(line, d, source);
        }
    }
    match canonicalize(&parsed.value) {
        Ok(c) => {
            let mut stdout = if digest {
                sha256_digest(&c).into_bytes()
            } else {
                c
            };
            stdout.push(b'\n');
            Output {
                stdout,
                ..Default::default()
            }
        }
        Err(d) => refuse(
            d.message.clone(),
            d,
            Source {
                bytes,
                spans: Some(parsed.spans),
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_read_exits_2_with_its_cause() {
        let missing = run(Path::new("/nonexistent/form-package/x.json"), true);
        assert_eq!(missing.code, 2);
        assert!(missing
            .stderr
            .starts_with("form-package: /nonexistent/form-package/x.json: "));
        assert!(missing.stdout.is_empty());
    }
}
