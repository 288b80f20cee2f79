//! `form-package` binary: parse the command line, call the library, print,
//! and map the outcome to the exit status (0 ok, 1 findings, 2 could not run).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use form_package::app;
use form_package::cli::Cli;

/// The global allocator: mimalloc (a maintained crate) instead of glibc
/// malloc. Building the validators and parsing a package are hundreds of
/// thousands of small allocations; see BENCHMARKS.md for the figures.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = app::run(cli, std::io::stdout().is_terminal());
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(&result.stdout);
    let _ = stdout.flush();
    let _ = std::io::stderr().write_all(result.stderr.as_bytes());
    ExitCode::from(result.code)
}
