//! `form-package canonicalize FILE` and `digest FILE`: a JSON file the
//! user named ([`crate::fileread`]: their link followed, a regular file of
//! at most `limits::JSON_BYTES`, 16 MiB) read strictly and printed in its RFC 8785 canonical form, or
//! as the `sha256:<64 hex>` of that form ([`crate::canonical`]). A refusal
//! ([`Refusal`]) prints the reference's `form-package: <message>` line,
//! then our finding (exit 1); a file that cannot be read is exit 2. The
//! text is `render::canonical`'s.

use std::path::Path;

use crate::canonical::{canonicalize, sha256_digest};
use crate::diag::Diagnostic;
use crate::error::Error;
use crate::fileread::{read_file, Reach};
use crate::verify::Source;

/// Why a file has no canonical form ([`run`]); `render::canonical` prints it.
#[derive(Debug)]
pub enum Refusal {
    /// The file cannot be read (exit 2).
    Unreadable(Error),
    /// The file is not strict I-JSON or has no RFC 8785 form (exit 1).
    Invalid(Box<Invalid>),
}

impl Refusal {
    /// The exit status of a refusal: the I/O error's (2, the command could
    /// not run) for a file that cannot be read, 1 for one with no canonical
    /// form.
    pub fn exit_code(&self) -> u8 {
        match self {
            Refusal::Unreadable(e) => e.exit_code(),
            Refusal::Invalid(_) => 1,
        }
    }
}

/// The exit status of `canonicalize`/`digest` for what [`run`] returned:
/// 0 printed, else [`Refusal::exit_code`]. `cli/canonicalize.rs` passes it
/// through; `render::canonical` only makes the text.
pub fn exit_code(result: &Result<Vec<u8>, Refusal>) -> u8 {
    result.as_ref().err().map_or(0, Refusal::exit_code)
}

/// A file that is not strict I-JSON or has no RFC 8785 form.
#[derive(Debug)]
pub struct Invalid {
    /// The reference's message (its `form-package: <message>` line).
    pub reference_line: String,
    /// Our finding, its file the path as given.
    pub finding: Diagnostic,
    /// The file's bytes (and spans, when it parsed), which the finding
    /// points into.
    pub source: Source,
}

/// `canonicalize FILE` (`digest`: false) or `digest FILE` (true): strict
/// read (a regular file of at most 16 MiB), RFC 8785. `Ok`: the canonical bytes, or the
/// `sha256:<64 hex>` digest of them, without a final newline.
///
/// # Errors
/// A [`Refusal`]: the file cannot be read, or has no canonical form.
pub fn run(file: &Path, digest: bool) -> Result<Vec<u8>, Refusal> {
    let limit = crate::limits::JSON_BYTES;
    let bytes = read_file(file, Reach::Named, limit).map_err(|refusal| {
        Refusal::Unreadable(Error::Io {
            path: file.to_path_buf(),
            source: refusal.into(),
        })
    })?;
    let name = file.display().to_string();
    // The reference's `form-package: <message>` line, then our finding.
    let refuse = |reference_line: String, d: Diagnostic, source: Source| {
        Refusal::Invalid(Box::new(Invalid {
            reference_line,
            finding: d.in_file(name.clone()),
            source,
        }))
    };
    let parsed = match crate::json::strict::parse(&bytes) {
        Ok(p) => p,
        Err(e) => {
            return Err(refuse(
                e.reference_line(),
                e.to_diagnostic(),
                Source { bytes, spans: None },
            ))
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
            return Err(refuse(line, d, source));
        }
    }
    match canonicalize(&parsed.value) {
        Ok(c) if digest => Ok(sha256_digest(&c).into_bytes()),
        Ok(c) => Ok(c),
        Err(d) => Err(refuse(
            d.message.clone(),
            d,
            Source {
                bytes,
                spans: Some(parsed.spans),
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_read_exits_2_with_its_cause_a_refused_one_1() {
        let missing = run(Path::new("/nonexistent/form-package/x.json"), true);
        assert_eq!(exit_code(&missing), 2);
        let (stdout, stderr) = crate::render::canonical::output(missing);
        assert!(stderr.starts_with("form-package: /nonexistent/form-package/x.json: "));
        assert!(stdout.is_empty());
        // Near miss: a file that has a canonical form exits 0, one that is
        // not strict I-JSON 1.
        let dir = tempfile::tempdir().unwrap();
        let (good, bad) = (dir.path().join("good.json"), dir.path().join("bad.json"));
        std::fs::write(&good, br#"{"b":1,"a":2}"#).unwrap();
        std::fs::write(&bad, br#"{"a":1,"a":2}"#).unwrap();
        assert_eq!(exit_code(&run(&good, false)), 0);
        assert_eq!(exit_code(&run(&bad, true)), 1);
    }
}
