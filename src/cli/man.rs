//! `form-package man [SUBCOMMAND...]`: a manual page (clap_mangen).

use crate::error::Error;
use crate::output::Output;

/// `man`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The subcommand whose page to print (nested: `trust verify-bundle`).
    #[arg(value_name = "SUBCOMMAND")]
    pub command: Vec<String>,
}

/// Prints the page of the named subcommand of `root` (the whole command
/// line); a name that is no subcommand is a usage error (exit 2).
pub fn run(a: &Args, root: clap::Command) -> Output {
    let mut stdout = Vec::new();
    let Some(page) = man_page(root, &a.command) else {
        return Error::Usage(format!(
            "man: no subcommand {:?} (form-package --help lists them)",
            a.command.join(" ")
        ))
        .into();
    };
    match clap_mangen::Man::new(page).render(&mut stdout) {
        Ok(()) => Output {
            stdout,
            ..Default::default()
        },
        Err(e) => Output {
            stderr: crate::render::escape::line(&format!("man: {e}")),
            code: 2,
            ..Default::default()
        },
    }
}

/// The command whose manual page `man SUBCOMMAND...` prints: the root for
/// no name, else the named (nested) subcommand, built so its page is named
/// as the root's SUBCOMMANDS section names it (`form-package-verify(1)`).
/// `None` for a name that is no subcommand.
fn man_page(root: clap::Command, names: &[String]) -> Option<clap::Command> {
    let mut cmd = root.disable_help_subcommand(true);
    cmd.build();
    for name in names {
        cmd = cmd.find_subcommand(name)?.clone();
    }
    Some(cmd)
}
