//! `form-package completions SHELL` (clap_complete).

use crate::output::Output;

/// `completions`' arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell.
    pub shell: clap_complete::Shell,
}

/// Prints the completion script of `root` (the whole command line) for the shell.
pub fn run(a: &Args, mut root: clap::Command) -> Output {
    let mut stdout = Vec::new();
    clap_complete::generate(a.shell, &mut root, "form-package", &mut stdout);
    Output {
        stdout,
        ..Default::default()
    }
}
