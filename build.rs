//! Build script: records the git commit of the source tree for
//! `form-package version` (`current-profile.md` §11.1 `commit`: 40 or 64
//! lowercase hex). `FORM_PACKAGE_COMMIT` in the environment overrides it (a
//! packager building from a tarball); without git or a `.git`, `commit` is
//! simply left out. It also generates the table of diagnostic codes from
//! `src/codes/FDnnn.toml` ([`code_table`]).

// The restriction lints of src/lib.rs (see there), for the build script too.
#![warn(clippy::print_stdout, clippy::print_stderr)]
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

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
    corpus_presence();
    if let Err(e) = code_table() {
        println!("cargo:warning={e}");
        std::process::exit(1);
    }
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

/// Sets the cfg `no_corpus` when the shared corpus is missing
/// (`FORM_PACKAGE_CORPUS`, default `../shared/corpus` beside the clone, holds
/// no `manifest.json`). Tests that need the corpus carry
/// `#[cfg_attr(no_corpus, ignore = "needs the corpus")]`, so without it they
/// are reported ignored, never passed (issue 21 item 7); the libtest-mimic
/// test binaries decide the same at run time (`tests/common`). Rerun when the
/// variable or the manifest changes (and, through the git watch above, when
/// HEAD moves); a corpus that vanishes after the build makes those tests fail.
fn corpus_presence() {
    println!("cargo:rustc-check-cfg=cfg(no_corpus)");
    println!("cargo:rerun-if-env-changed=FORM_PACKAGE_CORPUS");
    let root = match std::env::var_os("FORM_PACKAGE_CORPUS") {
        Some(dir) => std::path::PathBuf::from(dir),
        // The directory Cargo runs this script for, read when it runs: a
        // compiled-in `env!` kept the checkout the script was first built
        // in, so a target shared by two checkouts (worktrees) looked for the
        // corpus beside the first and, once it was gone, ignored every
        // corpus test of the other.
        None => std::path::PathBuf::from(
            std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| ".".into()),
        )
        .join("../shared/corpus"),
    };
    let manifest = root.join("manifest.json");
    if manifest.is_file() {
        println!("cargo:rerun-if-changed={}", manifest.display());
    } else {
        println!("cargo:rustc-cfg=no_corpus");
    }
}

/// Keys of a code file: (key, required).
const CODE_KEYS: &[(&str, bool)] = &[
    ("name", true),
    ("variant", true),
    ("severity", true),
    ("status", true),
    ("catalogue", true),
    ("spec", true),
    ("summary", true),
    ("help", false),
    ("checks", true),
    ("why", true),
    ("failing", true),
    ("passing", true),
    ("unreachable", false),
    ("class", false),
    ("bump", false),
];

/// The classes a change kind of `compat` may take (`class`, a
/// space-separated list, the usual class first) and the bump each
/// requires from a `1.x` version (`bump`, the same length): versioning-rules
/// V3 ties them, documentation → patch, relaxation or addition → minor,
/// breaking → major, and a pair that breaks it stops the build.
fn change_kinds(class: Option<String>, bump: Option<String>) -> Result<String, String> {
    let (class, bump) = match (class, bump) {
        (None, None) => return Ok("[]".to_owned()),
        (Some(c), Some(b)) => (c, b),
        _ => return Err("\"class\" and \"bump\" go together".to_owned()),
    };
    let classes: Vec<&str> = class.split(' ').collect();
    let bumps: Vec<&str> = bump.split(' ').collect();
    if classes.len() != bumps.len() {
        return Err(format!(
            "class {class:?} and bump {bump:?}: one bump for each class"
        ));
    }
    let mut pairs = Vec::new();
    for (c, b) in classes.iter().zip(&bumps) {
        let (variant, rule) = match *c {
            "documentation" => ("Documentation", "patch"),
            "relaxation" => ("Relaxation", "minor"),
            "addition" => ("Addition", "minor"),
            "breaking" => ("Breaking", "major"),
            other => {
                return Err(format!(
                    "class {other:?}: documentation, relaxation, addition or breaking"
                ))
            }
        };
        if *b != rule {
            return Err(format!(
                "class {c:?} requires bump {rule:?} (versioning-rules V3), not {b:?}"
            ));
        }
        if pairs
            .iter()
            .any(|p: &String| p.starts_with(&format!("({variant},")))
        {
            return Err(format!("class {c:?} listed twice"));
        }
        let bump = match rule {
            "patch" => "Patch",
            "minor" => "Minor",
            _ => "Major",
        };
        pairs.push(format!("({variant}, {bump})"));
    }
    Ok(format!("[{}]", pairs.join(", ")))
}

/// Generates `$OUT_DIR/codes_table.rs` from `src/codes/FDnnn.toml`, the
/// one source of each diagnostic code (issue 21 item 5): the `codes!`
/// invocation `src/codes.rs` includes, one row per file in id order. A file
/// that does not parse, lacks a key or has an unknown one, names an unknown
/// severity or status, or is not named after its id stops the build with
/// the file's name and what is wrong.
fn code_table() -> Result<(), String> {
    let dir = std::path::Path::new("src/codes");
    println!("cargo:rerun-if-changed=src/codes");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut rows = String::from("codes! {\n");
    for path in &files {
        let at = |what: String| format!("{}: {what}", path.display());
        let id = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        if !(id.len() == 5
            && id.starts_with("FD")
            && id.bytes().skip(2).all(|b| b.is_ascii_digit()))
        {
            return Err(at("a code file is named FDnnn.toml".into()));
        }
        let text = std::fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
        let table: toml::Table = text.parse().map_err(|e| at(format!("{e}")))?;
        for key in table.keys() {
            if !CODE_KEYS.iter().any(|(k, _)| k == key) {
                return Err(at(format!("unknown key {key:?}")));
            }
        }
        let value = |key: &str| -> Result<Option<String>, String> {
            match table.get(key) {
                None => {
                    if CODE_KEYS.iter().any(|(k, required)| *k == key && *required) {
                        Err(at(format!("missing key {key:?}")))
                    } else {
                        Ok(None)
                    }
                }
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(at(format!("{key:?} is not a string"))),
            }
        };
        let text_of = |key: &str| -> Result<String, String> { Ok(value(key)?.unwrap_or_default()) };
        let name = text_of("name")?;
        let variant = text_of("variant")?;
        if !(variant.starts_with(|c: char| c.is_ascii_uppercase())
            && variant.chars().all(|c| c.is_ascii_alphanumeric()))
        {
            return Err(at(format!("variant {variant:?} is not a Rust type name")));
        }
        let severity = match text_of("severity")?.as_str() {
            "error" => "Error",
            "warning" => "Warning",
            "note" => "Note",
            other => return Err(at(format!("severity {other:?}: error, warning or note"))),
        };
        let status = match text_of("status")?.as_str() {
            "active" => "Active",
            "removed" => "Removed",
            other => return Err(at(format!("status {other:?}: active or removed"))),
        };
        let optional =
            |v: Option<String>| v.map_or_else(|| "None".to_owned(), |s| format!("Some({s:?})"));
        let catalogue = text_of("catalogue")?;
        let spec = text_of("spec")?;
        let summary = text_of("summary")?;
        let help = optional(value("help")?);
        let checks = text_of("checks")?;
        let why = text_of("why")?;
        let failing = text_of("failing")?;
        let passing = text_of("passing")?;
        let unreachable = optional(value("unreachable")?);
        let change = change_kinds(value("class")?, value("bump")?).map_err(at)?;
        rows.push_str(&format!(
            "    {variant} = {id:?}, {name:?}, {severity}, {catalogue:?}, {spec:?}, {summary:?}, {help}, {status}, {checks:?}, {why:?}, {failing:?}, {passing:?}, {unreachable}, {change};\n"
        ));
    }
    rows.push_str("}\n");
    let out = std::env::var("OUT_DIR").map_err(|e| format!("OUT_DIR: {e}"))?;
    std::fs::write(std::path::Path::new(&out).join("codes_table.rs"), rows)
        .map_err(|e| format!("write codes_table.rs: {e}"))
}
