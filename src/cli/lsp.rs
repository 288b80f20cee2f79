//! `form-package lsp`: the language server on standard input and output
//! ([`crate::lsp::serve`]).

use crate::output::Output;

/// `lsp`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Speak over standard input and output (the only transport; accepted
    /// because editor clients pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Serves one editor until it sends `exit` or closes standard input: exit
/// status 0 after `shutdown` then `exit`, 1 otherwise (LSP 3.17).
pub fn run(_a: &Args) -> Output {
    let clean = crate::lsp::serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
    Output {
        code: if clean { 0 } else { 1 },
        ..Default::default()
    }
}
