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
    /// `form-package: <error>` on stderr, exit 2: the command could not run.
    fn from(e: Error) -> Self {
        Output {
            stderr: format!("form-package: {e}\n"),
            code: e.exit_code(),
            ..Default::default()
        }
    }
}
