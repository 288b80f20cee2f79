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
        // A usage error quotes the arguments as given, a file name a glob
        // found in a stranger's package among them: each is written as
        // every `form-package:` line writes package text (breaker G5).
        Err(e) if e.use_stderr() => {
            let _ = std::io::stderr().write_all(usage_error(&e).as_bytes());
            return ExitCode::from(2);
        }
        Err(e) => {
            let code = 0;
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
    // The process exits once the output is written: a command's working
    // data is left to the exit, not freed (`output::dispose`).
    form_package::output::exit_after_run();
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

/// The text of clap's usage error `e`, plain (no colour), with every
/// argument it quotes escaped by `render::escape::text` (`\x1b`, `\a`,
/// `\n`, `\u202e`, ...) and every line escaped too. clap's plain
/// rendering drops the ESC sequences of an argument and keeps its line
/// breaks, so each quoted value (its context) is found in that rendering
/// and replaced by its escaped whole.
fn usage_error(e: &clap::Error) -> String {
    use clap::error::ContextValue;
    use form_package::render::escape;
    let mut text = e.render().to_string();
    let mut values: Vec<&str> = Vec::new();
    for (_, v) in e.context() {
        match v {
            ContextValue::String(s) => values.push(s),
            ContextValue::Strings(v) => values.extend(v.iter().map(String::as_str)),
            _ => {}
        }
    }
    for v in values
        .into_iter()
        .filter(|v| v.chars().any(escape::needs_escape))
    {
        let shown = clap::builder::StyledStr::from(v.to_owned()).to_string();
        if !shown.is_empty() {
            text = text.replace(&shown, &escape::text(v));
        }
    }
    text.split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(body) => format!("{}\n", escape::text(body)),
            None => escape::text(l).into_owned(),
        })
        .collect()
}
