//! The command could not run: the one error type for operational failures
//! (usage, I/O outside a package, an internal fault), as opposed to
//! findings about a package, which are [`crate::diag::Diagnostic`]s.
//!
//! Every [`Error`] exits with status 2 (the README's exit codes;
//! ripgrep and jaq do the same); a package finding exits with 1. An
//! internal fault (an embedded published schema that does not build) is an
//! `Error`, never a finding: the package is not at fault.

use std::path::PathBuf;

use crate::diag::Diagnostic;

/// Why a command could not run.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The command line asks for something impossible (a PATH that does not
    /// exist, an unknown profile, an unknown code).
    Usage(String),
    /// Reading or writing a file outside any package being verified.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A fault of the verifier itself (an embedded schema that does not
    /// build); never the package's fault.
    Internal(String),
}

/// Why an input was not accepted: findings about it, or a fault of the
/// verifier. `index` and the revocation documents return it; the command
/// maps [`Refused::Findings`] to exit 1 and [`Refused::Fault`] to exit 2.
#[derive(Debug)]
pub enum Refused {
    /// What the input gets wrong (exit 1): every finding.
    Findings(Vec<Diagnostic>),
    /// The command could not run (exit 2): an embedded schema that does
    /// not build.
    Fault(Error),
}

impl From<Vec<Diagnostic>> for Refused {
    fn from(findings: Vec<Diagnostic>) -> Self {
        Refused::Findings(findings)
    }
}

impl From<Error> for Refused {
    fn from(e: Error) -> Self {
        Refused::Fault(e)
    }
}

impl Error {
    /// The process exit status for this error: always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Usage(m) => f.write_str(m),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Usage(_) | Error::Internal(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_exits_2_and_names_its_cause() {
        let io = Error::Io {
            path: PathBuf::from("x.json"),
            source: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        assert_eq!(io.exit_code(), 2);
        assert!(io.to_string().starts_with("x.json: "));
        assert!(std::error::Error::source(&io).is_some());
        let internal = Error::Internal("no embedded schema".into());
        assert_eq!(internal.to_string(), "internal error: no embedded schema");
        assert_eq!(Error::Usage("u".into()).exit_code(), 2);
    }
}
