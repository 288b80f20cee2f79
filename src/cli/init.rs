//! `form-package init DIR --group G --kind K [--profile P]`
//! ([`crate::ops::init::init`]): start a Form Package that verifies.

use std::path::PathBuf;

use crate::cli::args;
use crate::error::Refused;
use crate::output::Output;

/// `init`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The package directory to create (it may exist if it is empty; init never writes over a file).
    pub dir: PathBuf,
    /// The definition's `apiVersion`: a versionless group (`edge.example.com`, the current
    /// profile), a versioned one (`edge.example.com/v1beta1`) or a Legacy lane
    /// (`forms.takoform.com/v1alpha1`).
    #[arg(long, value_name = "G")]
    pub group: String,
    /// The Form's `kind` (`EdgeCache`: an uppercase letter, then letters and digits).
    #[arg(long, value_name = "K")]
    pub kind: String,
    /// `--profile P`, the new index's profile ([`args::profile_help`]).
    #[arg(long, value_name = "P", help = args::profile_help(
        "Default: the one the group implies, as `index` infers it."
    ))]
    pub profile: Option<String>,
}

/// Runs `init`: the files written, the profile and why, and what to do next.
pub fn run(a: &Args) -> Output {
    match crate::ops::init::init(&a.dir, &a.group, &a.kind, a.profile.as_deref()) {
        Ok(done) => {
            // DIR as given, escaped: a name can hold a control character.
            let dir = crate::render::escape::path(&done.dir);
            let mut out = format!(
                "profile {} ({})\n",
                done.profile.api_version,
                done.profile.why()
            );
            for f in &done.files {
                out.push_str(&format!("wrote {dir}/{f}\n"));
            }
            out.push_str(&format!(
                "next: edit {dir}/definition.json and its fixtures, then run `form-package index {dir}` and `form-package verify {dir}`\n"
            ));
            Output {
                stdout: out.into_bytes(),
                ..Default::default()
            }
        }
        Err(Refused::Fault(e)) => e.into(),
        Err(Refused::Findings(d)) => Output {
            stderr: d
                .iter()
                .map(|d| {
                    crate::render::escape::line(&format!("{} {}", d.code.info().id, d.message))
                })
                .collect(),
            code: 1,
            ..Default::default()
        },
    }
}
