//! Build script: records the git commit of the source tree for
//! `form-package version` (`current-profile.md` §11.1 `commit`: 40 or 64
//! lowercase hex). `FORM_PACKAGE_COMMIT` in the environment overrides it (a
//! packager building from a tarball); without git or a `.git`, `commit` is
//! simply left out.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_owned())
}

fn is_commit(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn main() {
    println!("cargo:rerun-if-env-changed=FORM_PACKAGE_COMMIT");
    let injected = std::env::var("FORM_PACKAGE_COMMIT").ok();
    let commit = match injected {
        Some(c) => Some(c),
        None => {
            // Rebuild when HEAD moves: watch HEAD, the ref it names, and packed-refs.
            for path in [
                git(&["rev-parse", "--git-path", "HEAD"]),
                git(&["symbolic-ref", "-q", "HEAD"])
                    .and_then(|r| git(&["rev-parse", "--git-path", &r])),
                git(&["rev-parse", "--git-path", "packed-refs"]),
            ]
            .into_iter()
            .flatten()
            {
                if std::path::Path::new(&path).exists() {
                    println!("cargo:rerun-if-changed={path}");
                }
            }
            git(&["rev-parse", "HEAD"])
        }
    };
    let commit = commit.filter(|c| is_commit(c)).unwrap_or_default();
    println!("cargo:rustc-env=FORM_PACKAGE_COMMIT={commit}");
    non_pie();
}

/// Optionally links the `form-package` binary as a position-dependent
/// executable on Linux with the GNU toolchain (`FORM_PACKAGE_NO_PIE=1`). A
/// PIE of this size carries ~35,000 relative relocations that the dynamic
/// loader applies at every start, writing (and so copy-on-write faulting)
/// every page of `.data.rel.ro`: ~150 of the ~300 page faults of
/// `form-package version`, about 0.4 ms on the benchmark machine
/// (docs/src/benchmarks.md). The default stays a PIE: the verifier reads untrusted
/// packages, and a position-dependent executable gives up address
/// randomisation of its own image, a hardening loss not worth 0.4 ms.
fn non_pie() {
    println!("cargo:rerun-if-env-changed=FORM_PACKAGE_NO_PIE");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && !var("FORM_PACKAGE_NO_PIE").is_empty()
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
