//! Choosing what to see (issue 14 items 6, 7): `--select`, `--ignore`,
//! `--warn`, `--exit-zero`, `--statistics`, and the `form-package.toml`
//! file holding the same settings plus the walk's `exclude` globs and
//! `no-ignore`.
//!
//! Selectors have ruff's meaning: a selector is a code id (`FD213`), a code
//! name (`open-object-schema`), an id prefix (`FD2`, `FD21`) or `ALL`.
//! A finding is shown when the most specific selector matching its code
//! comes from `select` (an empty `select` selects everything) and not from
//! `ignore`; at equal specificity `ignore` wins. `warn` downgrades a
//! matching error to a warning (it then fails only with `--deny-warnings`)
//! and raises a matching note to one (FD227 `non-portable-pattern` is a
//! note by default, a warning when selected so; issue 36 item 5).
//! A code's name is the most specific selector of all.
//!
//! The file: TOML with exactly the keys `select`, `ignore`, `warn`,
//! `exclude` (arrays of strings), `exit-zero`, `statistics`, `no-ignore`
//! (booleans). Any other key, a value of the wrong type or a TOML syntax
//! error is a finding `FD903 invalid-config` at the key's pointer in the
//! file. It is found upward from the first PATH ([`find_upward`]: the
//! nearest `form-package.toml` in the PATH's directory or an ancestor, no
//! higher than the repository root), or named with `--config FILE`;
//! `--isolated` reads none. A flag given on the command line replaces the
//! file's value.
//!
//! A file found by discovery was not named by the user: its `select`,
//! `ignore`, `warn` and `exit-zero` never hide, demote or zero the exit
//! status of an integrity finding ([`Code::is_integrity`]; issue 22
//! item 4). `--config FILE` and the flags are the user's own choice and
//! apply to every code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::codes::{Code, TABLE};
use crate::diag::{Diagnostic, Severity};
use crate::fileread::{read_file, Reach};
use crate::json::pointer::JsonPointer;

/// Choosing what to see and where to look (issue 14 items 6, 7; ruff's
/// meanings): the rule flags of a run as given on the command line
/// (`cli::args::SelectArgs` parses them: its doc comments are their
/// `--help`). `None`/`false`: the flag was not given. Each given flag
/// replaces the value of `form-package.toml`.
#[derive(Debug, Clone, Default)]
pub struct RuleArgs {
    /// `--select`: show only these selectors (code ids, names, id
    /// prefixes, `ALL`).
    pub select: Option<Vec<String>>,
    /// `--ignore`: hide these selectors.
    pub ignore: Option<Vec<String>>,
    /// `--warn`: report these selectors' errors and notes as warnings.
    pub warn: Option<Vec<String>>,
    /// `--exit-zero`: exit 0 even when a finding fails a package.
    pub exit_zero: bool,
    /// `--statistics`: the number of findings per code instead of the findings.
    pub statistics: bool,
    /// `--config FILE`: read settings from FILE instead of the nearest
    /// `form-package.toml`.
    pub config: Option<PathBuf>,
    /// `--isolated`: read no configuration file.
    pub isolated: bool,
    /// `--exclude`: gitignore-style globs of directories not searched.
    pub exclude: Option<Vec<String>>,
    /// `--no-ignore`: search hidden and `.gitignore`d directories too.
    pub no_ignore: bool,
}

/// The configuration file's name.
pub const CONFIG_FILE: &str = "form-package.toml";

/// The settings of a run (file, then flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// Selectors shown (empty: all).
    pub select: Vec<String>,
    /// Selectors hidden.
    pub ignore: Vec<String>,
    /// Selectors reported as warnings (errors downgraded, notes raised).
    pub warn: Vec<String>,
    /// Exit 0 even when findings fail a package (2 still means the command could not run).
    pub exit_zero: bool,
    /// Print the count of findings per code instead of the findings.
    pub statistics: bool,
    /// Walk: gitignore-style globs of directories not searched for packages.
    pub exclude: Vec<String>,
    /// Walk: do not skip hidden directories nor what `.gitignore` names.
    pub no_ignore: bool,
    /// Which values came from a configuration file found by discovery
    /// (not named on the command line): those never apply to integrity
    /// codes ([`Code::is_integrity`]).
    pub discovered: Discovered,
}

/// The values of [`Settings`] taken from a configuration file the user did
/// not name (found upward, not `--config FILE`, not replaced by a flag).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Discovered {
    /// `select` came from the discovered file.
    pub select: bool,
    /// `ignore` came from the discovered file.
    pub ignore: bool,
    /// `warn` came from the discovered file.
    pub warn: bool,
    /// `exit-zero = true` came from the discovered file (no `--exit-zero`).
    pub exit_zero: bool,
}

/// A loaded configuration file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The file's path, when one was found or named.
    pub path: Option<PathBuf>,
    /// Its settings (defaults where it says nothing or was invalid).
    pub settings: Settings,
    /// Findings about the file (`FD903`), package-relative file name
    /// [`CONFIG_FILE`]'s file name.
    pub findings: Vec<Diagnostic>,
    /// The file's bytes as read (empty when none was read): a finding's
    /// `line:column` is shown from them, never from a second read.
    pub bytes: Vec<u8>,
}

/// The `form-package.toml` in force for a run over `start` when none is
/// named (issue 22 item 4): the nearest one in `start`'s directory (`start`
/// itself when it is a directory, else its parent) or an ancestor, looking
/// no higher than a boundary, as ruff stops at a project's root:
/// - the repository root: the nearest of those directories holding `.git`
///   (a directory, or a file as in a worktree or submodule);
/// - outside any repository, the working directory `cwd` when `start` is
///   under it, else `start`'s directory alone.
///
/// Paths are resolved (symlinks, `..`) before they are compared, so a file
/// in a directory above both the PATH and the working directory, outside
/// every repository, is never read. Any entry of that name but a directory
/// is the one found, also a symlink or a FIFO: [`load`] refuses those
/// (a file found is never read through a link, [`Reach::Found`]) rather
/// than passing over them in silence.
pub fn find_upward(start: &Path, cwd: &Path) -> Option<PathBuf> {
    let resolve = |p: &Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p));
    let abs = resolve(start).ok()?;
    let dir = if abs.is_dir() {
        abs.as_path()
    } else {
        abs.parent()?
    };
    let repo = dir
        .ancestors()
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok());
    let cwd = resolve(cwd).ok();
    let top: &Path = match (repo, cwd.as_deref()) {
        (Some(root), _) => root,
        (None, Some(c)) if dir.starts_with(c) => c,
        (None, _) => dir,
    };
    dir.ancestors()
        .take_while(|d| d.starts_with(top))
        .map(|d| d.join(CONFIG_FILE))
        .find(|f| f.symlink_metadata().is_ok_and(|m| !m.is_dir()))
}

/// Reads and validates the configuration file at `path`, reached as
/// `reach` says ([`crate::fileread`]): `--config FILE` is named (the
/// user's link followed), a file found upward ([`find_upward`]) is never
/// read through a link; a regular file of at most
/// [`crate::limits::CONFIG_BYTES`] (1 MiB) in UTF-8.
///
/// # Errors
/// The message when the file cannot be read (the command cannot run).
pub fn load(path: &Path, reach: Reach) -> Result<Loaded, String> {
    let fail = |e: &dyn std::fmt::Display| format!("read {}: {e}", path.display());
    let bytes = read_file(path, reach, crate::limits::CONFIG_BYTES).map_err(|e| fail(&e))?;
    let text =
        std::str::from_utf8(&bytes).map_err(|_| fail(&"stream did not contain valid UTF-8"))?;
    let name = path.file_name().map_or_else(
        || CONFIG_FILE.to_owned(),
        |n| n.to_string_lossy().into_owned(),
    );
    let (settings, findings) = parse(text);
    Ok(Loaded {
        path: Some(path.to_path_buf()),
        settings,
        findings: findings
            .into_iter()
            .map(|d| d.in_file(name.clone()))
            .collect(),
        bytes,
    })
}

/// Parses configuration text: the settings it gives and a finding per
/// problem (see the module docs).
pub fn parse(text: &str) -> (Settings, Vec<Diagnostic>) {
    let mut s = Settings::default();
    let mut findings = Vec::new();
    let table: toml::Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            let mut d = Diagnostic::new(
                Code::ConfigInvalid,
                format!("not valid TOML: {}", e.message()),
            );
            if let Some(span) = e.span() {
                d = d.span(span);
            }
            return (s, vec![d]);
        }
    };
    // Where each top-level key and its value are, so a finding shows its line.
    let spans: BTreeMap<String, (std::ops::Range<usize>, std::ops::Range<usize>)> =
        toml::de::DeTable::parse(text)
            .map(|t| {
                t.into_inner()
                    .iter()
                    .map(|(k, v)| (k.get_ref().to_string(), (k.span(), v.span())))
                    .collect()
            })
            .unwrap_or_default();
    for (key, value) in &table {
        let at = JsonPointer::root().child(key);
        let (key_span, value_span) = spans.get(key).cloned().unwrap_or_default();
        let wrong = |want: &str| {
            Diagnostic::new(
                Code::ConfigInvalid,
                format!("`{key}` must be {want}, not {}", value.type_str()),
            )
            .at(at.clone())
            .span(value_span.clone())
        };
        match key.as_str() {
            "select" | "ignore" | "warn" | "exclude" => {
                let list = value.as_array().and_then(|a| {
                    a.iter()
                        .map(|v| v.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>()
                });
                let Some(list) = list else {
                    findings.push(wrong("an array of strings"));
                    continue;
                };
                if key == "exclude" {
                    for glob in &list {
                        if let Err(e) = crate::discover::check_exclude_glob(glob) {
                            findings.push(
                                Diagnostic::new(Code::ConfigInvalid, format!("`{key}`: {e}"))
                                    .at(at.clone())
                                    .span(value_span.clone()),
                            );
                        }
                    }
                } else {
                    for sel in &list {
                        if let Err(e) = check_selector(sel) {
                            findings.push(
                                Diagnostic::new(Code::ConfigInvalid, format!("`{key}`: {e}"))
                                    .at(at.clone())
                                    .span(value_span.clone()),
                            );
                        }
                    }
                }
                match key.as_str() {
                    "select" => s.select = list,
                    "ignore" => s.ignore = list,
                    "warn" => s.warn = list,
                    _ => s.exclude = list,
                }
            }
            "exit-zero" | "statistics" | "no-ignore" => {
                let Some(b) = value.as_bool() else {
                    findings.push(wrong("a boolean"));
                    continue;
                };
                match key.as_str() {
                    "exit-zero" => s.exit_zero = b,
                    "statistics" => s.statistics = b,
                    _ => s.no_ignore = b,
                }
            }
            _ => findings.push(
                Diagnostic::new(Code::ConfigInvalid, format!("unknown key `{key}`"))
                    .at_key(at.clone())
                    .span(key_span.clone())
                    .help("keys: select, ignore, warn, exit-zero, statistics, exclude, no-ignore"),
            ),
        }
    }
    (s, findings)
}

/// Checks that a selector names at least one code.
///
/// # Errors
/// A message naming the selector.
pub fn check_selector(sel: &str) -> Result<(), String> {
    if TABLE.iter().any(|i| specificity(i.code, sel).is_some()) {
        Ok(())
    } else {
        Err(format!(
            "{sel:?} is no code, code name or id prefix (see `form-package rules`)"
        ))
    }
}

/// How specifically `sel` names `code` (longer is more specific), or
/// `None` when it does not.
fn specificity(code: Code, sel: &str) -> Option<usize> {
    let info = code.info();
    if sel.eq_ignore_ascii_case("ALL") {
        return Some(0);
    }
    if sel.eq_ignore_ascii_case(info.name) {
        return Some(usize::MAX);
    }
    let id = info.id;
    (sel.len() >= 2 && sel.len() <= id.len() && id[..sel.len()].eq_ignore_ascii_case(sel))
        .then_some(sel.len())
}

fn best(code: Code, sels: &[String]) -> Option<usize> {
    sels.iter().filter_map(|s| specificity(code, s)).max()
}

/// What a run says about a configuration file found upward (issue 37
/// item 5): one note for each of its `ignore` and `warn` selectors that
/// matches an integrity code ([`Code::is_integrity`]), which it then
/// leaves alone, naming those codes and how to apply the selector (name
/// the file with `--config`). `file` is the file as the run names it.
/// Empty when the settings did not come from a discovered file.
pub fn discovered_notes(settings: &Settings, file: &Path) -> Vec<String> {
    let d = settings.discovered;
    let mut notes = Vec::new();
    for (key, from_file, list) in [
        ("ignore", d.ignore, &settings.ignore),
        ("warn", d.warn, &settings.warn),
    ] {
        if !from_file {
            continue;
        }
        for sel in list {
            let codes: Vec<&str> = TABLE
                .iter()
                .filter(|i| i.code.is_integrity() && specificity(i.code, sel).is_some())
                .map(|i| i.id)
                .collect();
            if codes.is_empty() {
                continue;
            }
            let verb = if key == "ignore" { "hides" } else { "demotes" };
            notes.push(format!(
                "note: {} found upward: `{key}` {sel:?} does not apply to the integrity code{} {} (a configuration file found upward never {verb} an integrity finding); name it with `--config {}` to apply it",
                file.display(),
                if codes.len() == 1 { "" } else { "s" },
                codes.join(", "),
                file.display()
            ));
        }
    }
    notes
}

/// The lists of `settings` that apply to `code`: a discovered file's list
/// is empty for an integrity code.
fn lists(settings: &Settings, code: Code) -> [&[String]; 3] {
    fn pick(list: &[String], dropped: bool) -> &[String] {
        if dropped {
            &[]
        } else {
            list
        }
    }
    let guarded = code.is_integrity();
    let d = settings.discovered;
    [
        pick(&settings.select, guarded && d.select),
        pick(&settings.ignore, guarded && d.ignore),
        pick(&settings.warn, guarded && d.warn),
    ]
}

impl Settings {
    /// Whether findings of `code` are shown. A discovered file's `select`
    /// and `ignore` do not apply to an integrity code.
    pub fn shows(&self, code: Code) -> bool {
        let [select, ignore, _] = lists(self, code);
        let selected = if select.is_empty() {
            Some(0)
        } else {
            best(code, select)
        };
        match (selected, best(code, ignore)) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(s), Some(i)) => s > i,
        }
    }

    /// Applies `select`/`ignore`/`warn` to one package's findings (a
    /// discovered file's `warn` never demotes an integrity error): `warn`
    /// makes a matching error or note a warning.
    pub fn apply(&self, diags: &mut Vec<Diagnostic>) {
        diags.retain(|d| self.shows(d.code));
        for d in diags.iter_mut() {
            let [_, _, warn] = lists(self, d.code);
            if matches!(d.severity, Severity::Error | Severity::Note)
                && best(d.code, warn).is_some()
            {
                d.severity = Severity::Warning;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn sel(select: &[&str], ignore: &[&str]) -> Settings {
        Settings {
            select: select.iter().map(|s| (*s).to_owned()).collect(),
            ignore: ignore.iter().map(|s| (*s).to_owned()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn ruff_specificity() {
        let s = sel(&["FD2"], &["FD213"]);
        assert!(!s.shows(Code::PathNotFound));
        assert!(!s.shows(Code::OpenObjectSchema));
        assert!(s.shows(Code::NonLocalRef));
        assert!(!s.shows(Code::RootNotDirectory));
        let s = sel(&["FD213"], &["FD2"]);
        assert!(s.shows(Code::OpenObjectSchema));
        let s = sel(&[], &["open-object-schema"]);
        assert!(!s.shows(Code::OpenObjectSchema));
        assert!(s.shows(Code::RootNotDirectory));
        let s = sel(&["ALL"], &["ALL"]);
        assert!(
            !s.shows(Code::RootNotDirectory),
            "equal specificity: ignore wins"
        );
        let s = sel(&["fd0"], &[]);
        assert!(s.shows(Code::RootNotDirectory));
        assert!(!s.shows(Code::OpenObjectSchema));
    }

    #[test]
    fn warn_downgrades_errors_only() {
        let s = Settings {
            warn: vec!["FD213".into()],
            ..Default::default()
        };
        let mut d = vec![
            Diagnostic::new(Code::OpenObjectSchema, "x"),
            Diagnostic::new(Code::RootNotDirectory, "y"),
        ];
        s.apply(&mut d);
        assert_eq!(d[0].severity, Severity::Warning);
        assert_eq!(d[1].severity, Severity::Error);
    }

    /// Issue 22 item 4: a discovered file's `select`/`ignore`/`warn` do not
    /// apply to integrity codes; near miss: they apply to every other code,
    /// and the same lists named on the command line apply to all.
    #[test]
    fn a_discovered_selection_spares_integrity_codes() {
        let mut s = Settings {
            ignore: vec!["ALL".into()],
            warn: vec!["ALL".into()],
            discovered: Discovered {
                ignore: true,
                warn: true,
                ..Default::default()
            },
            ..Default::default()
        };
        assert!(s.shows(Code::PayloadDigestMismatch));
        assert!(!s.shows(Code::OpenObjectSchema));
        let mut d = vec![
            Diagnostic::new(Code::PayloadSizeMismatch, "a"),
            Diagnostic::new(Code::OpenObjectSchema, "b"),
        ];
        s.ignore.clear();
        s.apply(&mut d);
        assert_eq!(d[0].severity, Severity::Error, "never demoted");
        assert_eq!(d[1].severity, Severity::Warning);
        s.discovered = Discovered::default();
        s.ignore = vec!["ALL".into()];
        assert!(!s.shows(Code::PayloadDigestMismatch), "named: applies");
    }

    /// Issue 22 item 4: discovery stops at the repository root; outside a
    /// repository at the working directory, or at the PATH's own directory
    /// when the PATH is not under it.
    #[test]
    fn discovery_stops_at_the_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().canonicalize().unwrap();
        let deep = top.join("repo/a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(top.join(CONFIG_FILE), "").unwrap();
        let elsewhere = top.join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        assert_eq!(find_upward(&deep, &elsewhere), None);
        assert_eq!(find_upward(&deep, &top), Some(top.join(CONFIG_FILE)));
        std::fs::create_dir(top.join("repo/.git")).unwrap();
        assert_eq!(find_upward(&deep, &top), None, "above the repository");
        std::fs::write(top.join("repo").join(CONFIG_FILE), "").unwrap();
        assert_eq!(
            find_upward(&deep, &elsewhere),
            Some(top.join("repo").join(CONFIG_FILE))
        );
        std::fs::write(deep.join(CONFIG_FILE), "").unwrap();
        assert_eq!(find_upward(&deep, &elsewhere), Some(deep.join(CONFIG_FILE)));
    }

    /// T1 C11: an `exclude` glob that does not parse is an FD903 at `/exclude`.
    #[test]
    fn config_exclude_glob_must_parse() {
        let (_, f) = parse("exclude = [\"build/\", \"[\"]\n");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].code, Code::ConfigInvalid);
        assert_eq!(f[0].pointer.as_str(), "/exclude");
        assert!(
            f[0].message.contains("\"[\" is not a valid glob"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn config_keys_and_types() {
        let (s, f) = parse(
            "select = [\"FD2\"]\nexit-zero = true\nexclude = [\"build/\"]\nno-ignore = false\n",
        );
        assert!(f.is_empty(), "{f:?}");
        assert_eq!(s.select, vec!["FD2"]);
        assert!(s.exit_zero);
        assert_eq!(s.exclude, vec!["build/"]);
        let (_, f) = parse("selct = [\"FD2\"]\nstatistics = \"yes\"\nignore = [\"FD9999\"]\n");
        let msgs: Vec<String> = f
            .iter()
            .map(|d| format!("{} {} {}", d.code.info().id, d.pointer.as_str(), d.message))
            .collect();
        assert_eq!(
            msgs,
            vec![
                "FD903 /ignore `ignore`: \"FD9999\" is no code, code name or id prefix (see `form-package rules`)",
                "FD903 /selct unknown key `selct`",
                "FD903 /statistics `statistics` must be a boolean, not string",
            ]
        );
        // Each finding is located: an unknown key at the key, a bad value at the value.
        let text = "selct = [\"FD2\"]\nstatistics = \"yes\"\nignore = [\"FD9999\"]\n";
        let (_, f) = parse(text);
        let spans: Vec<&str> = f
            .iter()
            .map(|d| text.get(d.span.clone().unwrap()).unwrap())
            .collect();
        assert_eq!(spans, ["[\"FD9999\"]", "selct", "\"yes\""]);
        let (_, f) = parse("select = [");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.starts_with("not valid TOML"),
            "{}",
            f[0].message
        );
    }
}
