//! README.md and the docs book (`docs/src/`, mdBook layout) stay true
//! (issue 21 item 6): every relative link resolves, the book's
//! `SUMMARY.md` lists every page, every command of `form-package --help`
//! has a row in the README's command table and a page in
//! `docs/src/commands/` (and no row or page names a command that does not
//! exist), the README stays within its size, its real run is today's
//! output, and the code pages are what `src/codes/` generates today. Links are read with `pulldown-cmark`, so code spans and code
//! blocks are never taken for links.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use form_package::codes::TABLE;
use form_package::explain;
use pulldown_cmark::{Event, Parser, Tag};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file under `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

/// Every link and image destination of a Markdown text.
fn links(text: &str) -> Vec<String> {
    Parser::new(text)
        .filter_map(|e| match e {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some(dest_url.into_string())
            }
            _ => None,
        })
        .collect()
}

/// A destination that names a file of the repository (no scheme, not a
/// bare `#fragment`), without its fragment.
fn relative(dest: &str) -> Option<&str> {
    if dest.contains("://") || dest.starts_with("mailto:") || dest.starts_with('#') {
        return None;
    }
    Some(dest.split('#').next().unwrap())
}

#[test]
fn every_relative_link_resolves() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for dest in links(&text) {
            let Some(path) = relative(&dest) else {
                continue;
            };
            let target = file.parent().unwrap().join(path);
            if !target.exists() {
                broken.push(format!(
                    "{}: {dest}",
                    file.strip_prefix(root()).unwrap().display()
                ));
            }
            checked += 1;
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 100, "only {checked} relative links found");
}

/// The pages the book's `SUMMARY.md` lists (relative to `docs/src/`).
fn summary_pages() -> Vec<String> {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    links(&summary)
        .into_iter()
        .filter_map(|d| relative(&d).map(str::to_owned))
        .collect()
}

#[test]
fn summary_lists_every_page_once() {
    let src = root().join("docs/src");
    let listed = summary_pages();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(
        unique.len(),
        listed.len(),
        "a page listed twice: {listed:?}"
    );
    let mut pages = BTreeSet::new();
    for file in markdown_files() {
        if let Ok(rel) = file.strip_prefix(&src) {
            let rel = rel.to_str().unwrap().to_owned();
            if rel != "SUMMARY.md" {
                pages.insert(rel);
            }
        }
    }
    let listed: BTreeSet<String> = listed.into_iter().collect();
    let missing: Vec<_> = pages.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "pages SUMMARY.md does not list: {missing:?}"
    );
    let absent: Vec<_> = listed.difference(&pages).collect();
    assert!(
        absent.is_empty(),
        "SUMMARY.md lists missing pages: {absent:?}"
    );
    // Every Markdown file under docs/ is a page of the book.
    for file in markdown_files() {
        if file.starts_with(root().join("docs")) {
            assert!(
                file.starts_with(&src),
                "{} is outside docs/src",
                file.display()
            );
        }
    }
}

/// The subcommands `form-package --help` lists (without `help`).
fn help_commands() -> BTreeSet<String> {
    let out = Command::new(crate::common::BIN)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let commands = help
        .split("Commands:\n")
        .nth(1)
        .expect("--help has a Commands section");
    let commands = commands.split("\n\n").next().unwrap();
    let names: BTreeSet<String> = commands
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 20, "{names:?}");
    names
}

#[test]
fn readme_command_table_is_every_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("\n## Commands\n")
        .nth(1)
        .expect("README has a Commands section");
    let section = section.split("\n## ").next().unwrap();
    let mut table = BTreeSet::new();
    for row in section.lines().filter(|l| l.starts_with("| [`")) {
        let name = row["| [`".len()..]
            .split(['`', ' '])
            .next()
            .unwrap()
            .to_owned();
        assert!(
            row.contains(&format!("(docs/src/commands/{name}.md)")),
            "the README row of {name} links elsewhere: {row}"
        );
        assert!(table.insert(name), "a command listed twice: {row}");
    }
    assert_eq!(
        table,
        help_commands(),
        "README's command table and `form-package --help` differ"
    );
}

/// Each README command row runs as written: its synopsis is its page's
/// heading with at most the optional (`[…]`) parts left off, so no required
/// argument (such as `init`'s `--group G --kind K`) is missing from the table.
#[test]
fn readme_rows_give_every_required_argument() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split("\n## Commands\n").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let mut rows = 0;
    for row in section.lines().filter(|l| l.starts_with("| [`")) {
        let synopsis = row["| [`".len()..].split('`').next().unwrap();
        let synopsis = synopsis.trim_end_matches(" \u{2026}");
        let name = synopsis.split(' ').next().unwrap();
        let page =
            std::fs::read_to_string(root().join(format!("docs/src/commands/{name}.md"))).unwrap();
        let heading = page
            .lines()
            .next()
            .unwrap()
            .trim_start_matches("# `")
            .trim_end_matches('`');
        let rest = heading.strip_prefix(synopsis).unwrap_or_else(|| {
            panic!("README row `{synopsis}` is not the start of its page's `{heading}`")
        });
        assert!(
            rest.is_empty() || rest.starts_with(" ["),
            "README row `{synopsis}` leaves off the required `{rest}` of `{heading}`"
        );
        rows += 1;
    }
    assert_eq!(rows, help_commands().len());
}

#[test]
fn every_command_has_a_page() {
    let pages: BTreeSet<String> = std::fs::read_dir(root().join("docs/src/commands"))
        .unwrap()
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        pages,
        help_commands(),
        "docs/src/commands/ and --help differ"
    );
}

#[test]
fn readme_is_short_and_starts_with_the_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.len() <= 8 * 1024,
        "README.md is {} bytes",
        readme.len()
    );
    let first: Vec<&str> = readme.lines().take(5).collect();
    assert_eq!(
        first,
        [
            "# form-package",
            "",
            "```sh",
            "cargo run --release -- verify fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632",
            "cargo test --locked",
        ]
    );
    // The package the first command verifies is there, and `.ci/run` runs
    // exactly the second.
    assert!(root()
        .join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632/package-index.json")
        .is_file());
    let run = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(run.lines().any(|l| l.trim() == "cargo test --locked"));
}

/// The README's real run is what this build prints.
#[test]
fn readme_run_is_the_real_output() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmd = "$ form-package verify fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632\n";
    let at = readme.find(cmd).expect("README shows a verify run") + cmd.len();
    let shown = &readme[at..at + readme[at..].find("```").unwrap()];
    let out = Command::new(crate::common::BIN)
        .args([
            "verify",
            "fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632",
        ])
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), shown);
}

/// The byte range between the line holding `start` and the line holding
/// `end` (the indentation of the `end` line left out).
fn between(text: &str, start: &str, end: &str) -> (usize, usize) {
    let i = text
        .find(start)
        .unwrap_or_else(|| panic!("marker {start:?} missing"))
        + start.len();
    let j = text[i..]
        .find(end)
        .unwrap_or_else(|| panic!("marker {end:?} missing"))
        + i;
    (i, text[..j].trim_end_matches(' ').len())
}

/// The code pages of the book (`docs/src/codes/FDnnn.md`), the code table
/// of `docs/src/codes.md` and the code list of `SUMMARY.md` are what
/// `form-package` generates from `src/codes/` today (issue 21 item 5);
/// `BLESS=1 cargo test --test docs code_pages` rewrites them.
#[test]
fn code_pages_are_current() {
    let bless = std::env::var_os("BLESS").is_some();
    let dir = root().join("docs/src/codes");
    let mut stale = Vec::new();
    let mut wanted = BTreeSet::new();
    for info in TABLE {
        let file = format!("{}.md", info.id);
        let page = explain::code_page(info.code);
        let path = dir.join(&file);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(page.as_str()) {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &page).unwrap();
            } else {
                stale.push(file.clone());
            }
        }
        wanted.insert(file);
    }
    for e in std::fs::read_dir(&dir).into_iter().flatten() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if !wanted.contains(&name) {
            if bless {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                stale.push(format!("{name} (no such code)"));
            }
        }
    }
    for (file, generated) in [
        ("docs/src/codes.md", explain::codes_markdown()),
        ("docs/src/SUMMARY.md", explain::codes_summary()),
    ] {
        let path = root().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let (i, j) = between(&text, "<!-- codes:start -->\n", "<!-- codes:end -->");
        if text[i..j] != generated {
            if bless {
                let mut new = text.clone();
                new.replace_range(i..j, &generated);
                std::fs::write(&path, new).unwrap();
            } else {
                stale.push(file.to_owned());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated from src/codes/ and not current \
         (BLESS=1 cargo test --test docs code_pages rewrites them): {stale:?}"
    );
    assert_eq!(wanted.len(), TABLE.len());
}
