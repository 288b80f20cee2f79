//! What a command produced: bytes for stdout, text for stderr, the exit
//! status. Commands return it; only `main` writes it out.

use crate::error::Error;

/// What a command produced.
#[derive(Debug, Default)]
pub struct Output {
    /// Bytes for stdout.
    pub stdout: Vec<u8>,
    /// Text for stderr.
    pub stderr: String,
    /// Exit status.
    pub code: u8,
}

impl From<Error> for Output {
    /// `form-package: <error>` on stderr ([`crate::render::escape::line`]:
    /// a path in it escaped), exit 2: the command could not run.
    fn from(e: Error) -> Self {
        Output {
            stderr: crate::render::escape::line(&e.to_string()),
            code: e.exit_code(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_cannot_run_exits_2_with_its_cause() {
        let o = Output::from(Error::Internal("no embedded schema x".into()));
        assert_eq!(o.code, 2);
        assert_eq!(
            o.stderr,
            "form-package: internal error: no embedded schema x\n"
        );
        assert!(o.stdout.is_empty());
    }
}
