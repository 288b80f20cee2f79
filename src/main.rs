//! `form-package` binary: parse the command line, call the library, print,
//! and map the outcome to the exit status (0 ok, 1 findings, 2 could not run).

// The restriction lints of src/lib.rs (see there), for the binary too.
#![warn(clippy::print_stdout, clippy::print_stderr)]
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use form_package::cli::{self, Cli};

/// The global allocator: mimalloc (a maintained crate) instead of glibc
/// malloc. Building the validators and parsing a package are hundreds of
/// thousands of small allocations; see docs/src/benchmarks.md for the figures.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // `verify` and `check` validate against the Draft 2020-12 meta-schema
    // before anything else: start building it before the command line is
    // even parsed (a speed hint only; see `schemas::prewarm_meta`).
    if matches!(
        std::env::args_os()
            .nth(1)
            .as_deref()
            .and_then(|a| a.to_str()),
        Some("verify" | "check")
    ) {
        form_package::schemas::prewarm_meta();
    }
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // `--help > /dev/full` is a lost page too (T1 B2); a closed pipe is not.
            return match e.print() {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    let line = form_package::render::escape::line(&format!("write stdout: {w}"));
                    let _ = std::io::stderr().write_all(line.as_bytes());
                    ExitCode::from(2)
                }
                _ => ExitCode::from(code),
            };
        }
    };
    let result = cli::run(cli, std::io::stdout().is_terminal());
    let mut stderr = result.stderr;
    let mut code = result.code;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(&result.stdout)
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        // The reader left (`| head`): nothing more to say, the verdict stands.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        // The report was lost (`> /dev/full`): the command could not run (T1 B2).
        Err(e) => {
            stderr.push_str(&form_package::render::escape::line(&format!(
                "write stdout: {e}"
            )));
            code = 2;
        }
    }
    let _ = std::io::stderr().write_all(stderr.as_bytes());
    ExitCode::from(code)
}
