//! `--format github`: GitHub Actions workflow commands, one line per
//! diagnostic (errors first, then warnings, then notes; within each,
//! packages in the order given, diagnostics in their sorted order), then
//! one plain summary line:
//!
//! ```text
//! ::error file=<pkg>/definition.json,line=3,col=5,title=FD213 open-object-schema::<message> (at /desiredSchema)
//! ::warning file=<pkg>,title=FD223 unsatisfiable-all-of::<message>
//! form-package: 2 packages, 1 verified, 1 failed, 3 errors, 1 warning
//! ```
//!
//! - the command is `error`, `warning` or `notice` after the severity;
//! - `file` is the package path joined with the diagnostic's file (the
//!   package directory itself when there is none), made relative to the
//!   working directory and normalized (no `./`, no absolute path: GitHub
//!   places an annotation only on a path relative to the workspace, and a
//!   run of `verify .` or of an absolute PATH must still land on the
//!   diff); `line`/`col` are
//!   the 1-based start of the resolved span, exactly as [`super::json`]
//!   computes `line`/`column`, and are omitted when no span resolves;
//! - the message is followed by ` (at <pointer>)` unless the pointer is the
//!   document root;
//! - package text is escaped first as the human format escapes it (Go's
//!   escapes for every non-printable character: `\n`, `\x1b`, `\u202e`;
//!   [`super::escape`]), so nothing it holds ends a line or reaches the log
//!   raw; then GitHub's workflow-command rules apply: in the message `%`
//!   becomes `%25`; in property values additionally `:` and `,` become
//!   `%3A` and `%2C`.
//!
//! A configuration file in force is named by a first `::notice`, and the
//! directories the walk skipped by a rule by one more: `::notice
//! title=form-package skipped directories::1 directory skipped by a rule
//! (…): not verified: ./.hidden (hidden)`.
//!
//! GitHub shows 10 annotations of each type per step: they are spread over
//! the packages (every package with a finding of a type gets one before any
//! gets a second), the other findings are printed in place as plain log
//! lines and a last summary line says how many (see [`render`]). A package fails on an error, or on a warning under
//! `--deny-warnings`.

use std::fmt::Write as _;
use std::path::Path;

use super::sarif::relative_to;
use super::{Located, Options, RunView};
use crate::diag::{Diagnostic, Severity};

/// Escapes workflow-command data (the message): first every character a
/// CI log must not receive raw as Go's escape ([`super::escape::text`]:
/// LF is `\n`, ESC `\x1b`, U+202E `\u202e`; issue 22 item 2), then `%` →
/// `%25` (and `\r` → `%0D`, `\n` → `%0A`, which then no longer occur).
pub fn escape_data(s: &str) -> String {
    super::escape::text(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property value: [`escape_data`] plus
/// `:` → `%3A` and `,` → `%2C`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow command of a severity: `error`, `warning`, `notice`.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    }
}

/// GitHub shows at most this many annotations of each type (error,
/// warning, notice) per step; later workflow commands of that type are
/// dropped from the annotations.
pub const ANNOTATIONS_PER_TYPE: usize = 10;

/// The file of a finding as GitHub places it: the package path joined with
/// the finding's file, relative to `base` (`GITHUB_WORKSPACE`, else the
/// working directory `cwd`) and normalized (`.` for `base` itself; never
/// `./…` nor absolute; symlinks resolved when the names alone would climb
/// out of `base`).
pub fn annotation_path(package: &Path, f: &Located<'_>, base: &Path, cwd: &Path) -> String {
    relative_to(Path::new(&f.path(package)), base, cwd)
        .display()
        .to_string()
}

/// One located finding as one workflow-command line (no newline); `file`
/// is its [`annotation_path`].
pub fn line(file: &str, f: &Located<'_>) -> String {
    let d = f.diag;
    let info = d.code.info();
    let mut props = format!("file={}", escape_property(file));
    if let (Some(_), Some(p)) = (&d.file, f.start) {
        let _ = write!(props, ",line={},col={}", p.line, p.column);
    }
    let title = format!("{} {}", info.id, info.name);
    let _ = write!(props, ",title={}", escape_property(&title));
    format!(
        "::{} {}::{}",
        command(d.severity),
        props,
        escape_data(&super::escape::message(&message(d)))
    )
}

/// The message with ` (at <pointer>)` unless the pointer is the root.
fn message(d: &Diagnostic) -> String {
    let mut message = d.message.clone();
    if !d.pointer.is_root() {
        let _ = write!(message, " (at {})", d.pointer);
    }
    message
}

/// A finding past the annotation limit, as a plain log line (no workflow
/// command, so the runner shows it verbatim): `<severity>: <location>:
/// FDnnn name: <message>`, on one line (every character
/// [`super::escape::text`] escapes, CR and LF included, shown as its Go
/// escape).
pub fn plain_line(file: &str, f: &Located<'_>) -> String {
    let d = f.diag;
    let info = d.code.info();
    let location = match (&d.file, f.start) {
        (Some(_), Some(p)) => format!("{file}:{}:{}", p.line, p.column),
        _ => file.to_owned(),
    };
    let text = format!(
        "{}: {}: {} {}: {}",
        command(d.severity),
        location,
        info.id,
        info.name,
        super::escape::message(&message(d))
    );
    super::escape::text(&text).into_owned()
}

fn slot(s: Severity) -> usize {
    match s {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Note => 2,
    }
}

/// One finding's place in `--format github`, the one ordering key of
/// every command's GitHub output: its type first (errors, then warnings,
/// then notes: a run's many notes never come before what fails it, issue
/// 37 item 6), then whether its package is one `first` names (`compat`
/// serves the findings of failing pairs first, issue 35 item 7: the FD670
/// that failed the step was a plain log line behind other packages'
/// errors), then its round (its rank among its package's findings of its
/// type: every package with a finding of a type gets one before any gets
/// a second, issue 26 item 4: the first failing package took all ten),
/// then its package and its index in [`RunView::findings`].
///
/// The key's order is the order annotations are given in
/// ([`ANNOTATIONS_PER_TYPE`] per type); lines are printed by its type then
/// index ([`Key::printed`]: within a type, packages and findings in their
/// order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    /// The finding's type ([`slot`]).
    slot: usize,
    /// 0 for a package `first` names, 1 for the others.
    tier: usize,
    /// Its rank among its package's findings of its type.
    round: usize,
    /// Its package's index.
    package: usize,
    /// Its index in [`RunView::findings`].
    index: usize,
}

impl Key {
    /// The order lines are printed in: type, then index.
    fn printed(&self) -> (usize, usize) {
        (self.slot, self.index)
    }
}

/// The [`Key`] of every finding of `run`, in [`RunView::findings`] order.
fn keys(run: &RunView<'_>, first: &dyn Fn(usize) -> bool) -> Vec<Key> {
    let mut keys = Vec::new();
    for (package, p) in run.packages.iter().enumerate() {
        let mut rounds = [0usize; 3];
        let tier = usize::from(!first(package));
        for f in &p.findings {
            let slot = slot(f.diag.severity);
            let round = rounds.get(slot).copied().unwrap_or_default();
            if let Some(r) = rounds.get_mut(slot) {
                *r += 1;
            }
            keys.push(Key {
                slot,
                tier,
                round,
                package,
                index: keys.len(),
            });
        }
    }
    keys
}

/// Renders [`ANNOTATIONS_PER_TYPE`] findings of each type (spread over
/// the packages) as
/// workflow commands and every later one as a [`plain_line`] (nothing is
/// lost: the step log holds them all), then, unless `quiet`, the summary
/// line `form-package: N packages, V verified, F failed, E errors, W
/// warnings` (singular nouns for 1), and, when some findings were past the
/// limit, one line saying how many more of each type are in the log only:
/// `form-package: GitHub shows 10 annotations per type; 7 more errors, 2
/// more warnings are in this log only`. Every line ends with `\n`.
pub fn render(run: &RunView<'_>, opts: &Options) -> String {
    let (mut out, more) = annotations(run, opts, &|_| false);
    if opts.quiet {
        return out;
    }
    let [packages, verified, failed, errors, warnings, _] = run.tally();
    out.push_str(&super::escape::line(&format!(
        "{packages}, {verified}, {failed}, {errors}, {warnings}"
    )));
    out + &more
}

/// [`render`]'s lines before its summary: the notices, then every finding
/// as a workflow command or, past [`ANNOTATIONS_PER_TYPE`] of its type, a
/// [`plain_line`], the packages `first` names served first; and the line
/// that says how many findings of each type are in the log only (empty
/// when none is), which [`render`] prints after its summary and `compat`
/// after its own.
pub fn annotations(
    run: &RunView<'_>,
    opts: &Options,
    first: &dyn Fn(usize) -> bool,
) -> (String, String) {
    let base = opts.workspace.as_deref().unwrap_or(&opts.cwd);
    let mut out = String::new();
    // errors, warnings, notices annotated so far
    let mut shown = [0usize; 3];
    // The members of what a command said about an entry (an advance's
    // `pin`): one notice each, first (PackageOutcome::summary).
    for p in &run.packages {
        for (key, value) in &p.outcome.summary_members() {
            let _ = writeln!(
                out,
                "::notice title=form-package {}::{}",
                escape_property(key),
                escape_data(&format!("{key} {value}"))
            );
        }
    }
    if let Some(config) = &run.config {
        let _ = writeln!(
            out,
            "::notice title=form-package configuration::configuration in force: {}",
            escape_data(&config.display().to_string())
        );
    }
    // The directories the walk skipped by a rule: one notice naming each
    // with its rule, so the run's page says what was not verified.
    if !run.skipped.is_empty() {
        let dirs: Vec<String> = run
            .skipped
            .iter()
            .map(|(dir, rule)| format!("{} ({rule})", dir.display()))
            .collect();
        let _ = writeln!(
            out,
            "::notice title=form-package skipped directories::{}: not verified: {}",
            super::skipped_text(&run.skipped, false)
                .trim_end()
                .trim_end_matches("; -v lists them"),
            escape_data(&dirs.join(", "))
        );
    }
    let mut more = [0usize; 3];
    // Annotations go to the first ANNOTATIONS_PER_TYPE findings of each
    // type in key order; lines are printed in the key's printed order.
    let keys = keys(run, first);
    let mut ranked = keys.clone();
    ranked.sort_unstable();
    let mut given = [0usize; 3];
    let annotated: std::collections::BTreeSet<usize> = ranked
        .iter()
        .filter(|k| {
            given.get_mut(k.slot).is_some_and(|n| {
                *n += 1;
                *n <= ANNOTATIONS_PER_TYPE
            })
        })
        .map(|k| k.index)
        .collect();
    let mut ordered: Vec<_> = run.findings().zip(&keys).collect();
    ordered.sort_by_key(|(_, k)| k.printed());
    for ((p, f), k) in ordered {
        let (Some(n), Some(m)) = (shown.get_mut(k.slot), more.get_mut(k.slot)) else {
            continue;
        };
        if annotated.contains(&k.index) {
            *n += 1;
            out.push_str(&line(&annotation_path(p.path(), f, base, &opts.cwd), f));
        } else {
            *m += 1;
            out.push_str(&plain_line(
                &annotation_path(p.path(), f, base, &opts.cwd),
                f,
            ));
        }
        out.push('\n');
    }
    let parts: Vec<String> = more
        .iter()
        .zip(["error", "warning", "notice"])
        .filter(|(n, _)| **n > 0)
        .map(|(n, w)| {
            format!(
                "{n} more {}",
                if *n == 1 {
                    w.to_owned()
                } else {
                    format!("{w}s")
                }
            )
        })
        .collect();
    let more = if parts.is_empty() {
        String::new()
    } else {
        super::escape::line(&format!(
            "GitHub shows {ANNOTATIONS_PER_TYPE} annotations per type; {} are in this log only",
            parts.join(", ")
        ))
    };
    (out, more)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::json::pointer::JsonPointer;
    use crate::testing::outcome;
    use crate::verify::{PackageOutcome, Source};
    use std::path::PathBuf;

    fn render_all(all: &[PackageOutcome], deny: bool, quiet: bool) -> String {
        let opts = Options {
            quiet,
            cwd: PathBuf::from("/w"),
            ..Options::default()
        };
        render(&RunView::new(all, deny), &opts)
    }

    #[test]
    fn file_is_relative_to_the_working_directory_without_dot_slash() {
        let e = || Diagnostic::new(Code::UnlistedFile, "u").in_file("x.json");
        for (given, file) in [
            (".", "x.json"),
            ("./pkg", "pkg/x.json"),
            ("/w/pkg", "pkg/x.json"),
            ("/w/./a/../pkg", "pkg/x.json"),
            ("pkg", "pkg/x.json"),
            ("/elsewhere/pkg", "../elsewhere/pkg/x.json"),
        ] {
            let text = render_all(&[outcome(given, vec![e()])], false, true);
            assert_eq!(
                text,
                format!("::error file={file},title=FD018 unlisted-file::u\n"),
                "{given}"
            );
        }
        // A finding about the working directory itself names `.`.
        let d = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        assert_eq!(
            render_all(&[outcome("/w", vec![d])], false, true),
            "::warning file=.,title=FD223 unsatisfiable-all-of::w\n"
        );
        // A finding's own file spelled with `./` (relations of a bare
        // definition file) is normalized too.
        let d = Diagnostic::new(Code::UnlistedFile, "u").in_file("./deep/definition.json");
        assert_eq!(
            render_all(&[outcome("", vec![d])], false, true),
            "::error file=deep/definition.json,title=FD018 unlisted-file::u\n"
        );
        // GITHUB_WORKSPACE (Options::workspace) is the base when set.
        let opts = Options {
            quiet: true,
            cwd: PathBuf::from("/w/repo/pkg/fixtures"),
            workspace: Some(PathBuf::from("/w/repo")),
            ..Options::default()
        };
        let all = [outcome("..", vec![e()])];
        assert_eq!(
            render(&RunView::new(&all, false), &opts),
            "::error file=pkg/x.json,title=FD018 unlisted-file::u\n"
        );
    }

    /// T2 F4: a working directory reached through a symlink, and a PATH
    /// spelled through it, still give a path inside the working directory.
    #[cfg(unix)]
    #[test]
    fn a_symlinked_working_directory_is_resolved() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("repo");
        std::fs::create_dir_all(real.join("pkg")).unwrap();
        std::os::unix::fs::symlink(&real, t.path().join("link")).unwrap();
        let cwd = std::fs::canonicalize(&real).unwrap();
        let given = t.path().join("link/pkg");
        let rel = relative_to(&given, &cwd, &cwd);
        assert_eq!(rel, PathBuf::from("pkg"));
        // Near miss: a path really outside keeps its `..`.
        let outside = std::fs::canonicalize(t.path()).unwrap();
        assert_eq!(relative_to(&outside, &cwd, &cwd), PathBuf::from(".."));
    }

    #[test]
    fn escapes_data_and_properties() {
        // CR and LF (package text) are Go escapes, never a line break of
        // the annotation (issue 22 item 2); `%` is GitHub's own escape.
        assert_eq!(escape_data("a%b\r\nc: d, e"), "a%25b\\r\\nc: d, e");
        assert_eq!(escape_property("a%b\r\nc: d, e"), "a%25b\\r\\nc%3A d%2C e");
        assert_eq!(escape_data("\u{1b}[2J\u{202e}"), "\\x1b[2J\\u202e");
        // Near miss: nothing to escape.
        assert_eq!(
            escape_property("pkg/definition.json"),
            "pkg/definition.json"
        );
    }

    #[test]
    fn line_with_span_pointer_and_escapes() {
        let bytes = b"{\n  \"a\": 1\n}".to_vec();
        let d = Diagnostic::new(Code::OpenObjectSchema, "50% open\nreally")
            .in_file("d,x.json")
            .span(4..7)
            .at(JsonPointer::from("/a"));
        let mut p = outcome("pk:g", vec![d]);
        p.sources
            .insert("d,x.json".into(), Source { bytes, spans: None });
        let all = [p];
        let run = RunView::new(&all, false);
        let (pv, f) = run.findings().next().unwrap();
        assert_eq!(
            line(&annotation_path(pv.path(), f, Path::new("/w"), Path::new("/w")), f),
            "::error file=pk%3Ag/d%2Cx.json,line=2,col=3,title=FD213 open-object-schema::50%25 open\\nreally (at /a)"
        );
    }

    #[test]
    fn severities_and_missing_file_and_root_pointer() {
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let n = Diagnostic::new(Code::RootChanged, "n")
            .in_file("a.json")
            .severity(Severity::Note);
        let all = [outcome("pkg", vec![w, n])];
        assert_eq!(
            render_all(&all, false, true),
            "::warning file=pkg,title=FD223 unsatisfiable-all-of::w\n\
             ::notice file=pkg/a.json,title=FD003 root-changed::n\n"
        );
    }

    /// Issue 37 item 6: errors first, then warnings, then notes, whatever
    /// the packages' order (notes of a first package never come before a
    /// later package's error); near miss: within a type, packages keep
    /// their order.
    #[test]
    fn errors_then_warnings_then_notes() {
        let note = |m: &str| {
            Diagnostic::new(Code::RootChanged, m)
                .in_file("a.json")
                .severity(Severity::Note)
        };
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let e1 = Diagnostic::new(Code::UnlistedFile, "e1").in_file("x.json");
        let e2 = Diagnostic::new(Code::UnlistedFile, "e2").in_file("y.json");
        let all = [
            outcome("a", vec![note("n1"), note("n2")]),
            outcome("b", vec![w, e1]),
            outcome("c", vec![e2]),
        ];
        let text = render_all(&all, false, true);
        let order: Vec<&str> = text
            .lines()
            .map(|l| l.rsplit("::").next().unwrap())
            .collect();
        assert_eq!(order, ["e1", "e2", "w", "n1", "n2"], "{text}");
    }

    #[test]
    fn render_counts_and_summary() {
        let e = Diagnostic::new(Code::UnlistedFile, "u").in_file("x.json");
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning);
        let all = [
            outcome("a", vec![e]),
            outcome("b", vec![w]),
            outcome("c", vec![]),
        ];
        assert_eq!(
            render_all(&all, false, false),
            "::error file=a/x.json,title=FD018 unlisted-file::u\n\
             ::warning file=b,title=FD223 unsatisfiable-all-of::w\n\
             form-package: 3 packages, 2 verified, 1 failed, 1 error, 1 warning\n"
        );
        // --deny-warnings: the warning fails its package too
        assert!(render_all(&all, true, false)
            .ends_with("3 packages, 1 verified, 2 failed, 1 error, 1 warning\n"));
        // --quiet: findings only
        assert!(!render_all(&all, false, true).contains("form-package:"));
        assert_eq!(
            render_all(&[outcome("ok", vec![])], false, false),
            "form-package: 1 package, 1 verified, 0 failed, 0 errors, 0 warnings\n"
        );
    }

    #[test]
    fn ten_annotations_per_type_then_plain_lines_and_a_count() {
        let mut diags: Vec<Diagnostic> = (0..13)
            .map(|i| {
                Diagnostic::new(Code::UnlistedFile, format!("u{i}"))
                    .in_file(format!("f{i:02}.json"))
            })
            .collect();
        diags.push(Diagnostic::new(Code::UnsatisfiableAllOf, "w").severity(Severity::Warning));
        let all = [outcome("p", diags)];
        let text = render_all(&all, false, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("::error ")).count(),
            10
        );
        // The warning is the first of its type: still an annotation.
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("::warning ")).count(),
            1
        );
        assert!(
            lines.contains(&"error: p/f10.json: FD018 unlisted-file: u10"),
            "{text}"
        );
        assert_eq!(
            lines.last().copied(),
            Some("form-package: GitHub shows 10 annotations per type; 3 more errors are in this log only")
        );
        // Near miss: exactly ten of a type needs no such line.
        let ten: Vec<Diagnostic> = (0..10)
            .map(|i| {
                Diagnostic::new(Code::UnlistedFile, format!("u{i}")).in_file(format!("f{i}.json"))
            })
            .collect();
        assert!(!render_all(&[outcome("p", ten)], false, false).contains("log only"));
    }

    /// Issue 26 item 4: with 12 failing packages the annotations go one
    /// per package (the first ten packages), not ten to the first one;
    /// near miss: with two packages, the first one's second finding is
    /// annotated after the second's first.
    #[test]
    fn annotations_are_spread_over_the_failing_packages() {
        let many = |p: &str, n: usize| {
            let diags = (0..n)
                .map(|i| {
                    Diagnostic::new(Code::UnlistedFile, format!("u{i}"))
                        .in_file(format!("f{i:02}.json"))
                })
                .collect();
            outcome(p, diags)
        };
        let all: Vec<_> = (0..12).map(|i| many(&format!("p{i:02}"), 5)).collect();
        let text = render_all(&all, false, true);
        let annotated: Vec<&str> = text.lines().filter(|l| l.starts_with("::error ")).collect();
        assert_eq!(annotated.len(), 10);
        for (i, l) in annotated.iter().enumerate() {
            assert!(
                l.starts_with(&format!("::error file=p{i:02}/f00.json,")),
                "{l}"
            );
        }
        let all = [many("a", 8), many("b", 4)];
        let text = render_all(&all, false, true);
        let annotated: Vec<&str> = text.lines().filter(|l| l.starts_with("::error ")).collect();
        assert_eq!(annotated.len(), 10);
        assert_eq!(
            annotated.iter().filter(|l| l.contains("file=b/")).count(),
            4
        );
        assert_eq!(
            annotated.iter().filter(|l| l.contains("file=a/")).count(),
            6
        );
        // Output order is unchanged: package a's findings first.
        assert!(text.lines().next().unwrap().contains("a/f00.json"));
        assert!(
            text.contains("error: a/f06.json: FD018 unlisted-file: u6"),
            "{text}"
        );
    }

    /// One key orders everything: the packages `first` names get their
    /// annotations before the others' (`compat`'s failing pairs), errors
    /// before warnings before notes, yet lines print by type then in
    /// package order; near miss: with no package named first, the last
    /// package's error is a plain log line.
    #[test]
    fn one_key_serves_first_packages_and_keeps_the_printed_order() {
        let all: Vec<PackageOutcome> = (0..12)
            .map(|i| {
                let mut d = vec![Diagnostic::new(Code::UnlistedFile, format!("u{i}"))
                    .in_file(format!("f{i:02}.json"))];
                if i == 11 {
                    d.insert(
                        0,
                        Diagnostic::new(Code::RootChanged, "n").severity(Severity::Note),
                    );
                }
                outcome(&format!("p{i:02}"), d)
            })
            .collect();
        let run = RunView::new(&all, false);
        let opts = Options::default();
        let lines = |first: &dyn Fn(usize) -> bool| annotations(&run, &opts, first).0;
        let served = lines(&|p| p == 11);
        assert!(served.contains("::error file=p11/f11.json,"), "{served}");
        assert!(served.contains("error: p09/f09.json: FD018"), "{served}");
        let printed: Vec<&str> = served
            .lines()
            .map(|l| l.rsplit(':').next().unwrap().trim())
            .collect();
        let want: Vec<String> = (0..12)
            .map(|i| format!("u{i}"))
            .chain(["n".to_owned()])
            .collect();
        assert_eq!(printed, want, "{served}");
        let plain = lines(&|_| false);
        assert!(plain.contains("error: p11/f11.json: FD018"), "{plain}");
        assert!(plain.contains("::error file=p09/f09.json,"), "{plain}");
    }
}
