//! The import graph of `src/` (issue 11, issue 21 item 1): each module file
//! (`src/json/strict.rs` is `json/strict`) depends on the modules its
//! non-test code names through `use crate::…` lines (and `crate::a::b`
//! paths in code), read whole: only the items under `#[cfg(test)]` are
//! left out, wherever they sit (`proof/mod.rs` declares its tests first).
//! That graph must be acyclic, also with each module taken as its
//! top-level module (`json/strict` is `json`), so the pipeline reads
//! top-down: `checks` → `package` → the proofs, never back. A parent and
//! its own submodules (`super::`) are one unit and not counted.
//!
//! The layers: a subcommand file `cli/X` imports no other file of `cli/`
//! but the shared `cli/args` (which imports none), and nothing outside
//! `cli/` imports `cli` (the library never knows its command line), and
//! no library module parses arguments with clap (no argument struct; a
//! `clap::ValueEnum` value type is allowed).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module a file under `src/` is: its path without `.rs` and without a
/// final `/mod` (`json/strict`, `checks`, `checks/index`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?.to_str()?;
    let rel = rel.trim_end_matches(".rs");
    Some(rel.strip_suffix("/mod").unwrap_or(rel).to_owned())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Paths referenced as `crate::a::b::…` in `line`, as `a/b/…`.
fn referenced(line: &str) -> Vec<String> {
    let path_at = |text: &str| -> String {
        let mut segments = Vec::new();
        let mut rest = text;
        loop {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                break;
            }
            rest = &rest[name.len()..];
            segments.push(name);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        segments.join("/")
    };
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let p = path_at(rest);
        if !p.is_empty() {
            out.push(p);
        }
    }
    // `use crate::{a, b::c}` groups.
    if let Some(group) = line.trim().strip_prefix("use crate::{") {
        for part in group.split(',') {
            let p = path_at(part.trim());
            if !p.is_empty() {
                out.push(p);
            }
        }
    }
    out
}

/// The longest module id `path` starts with (`json/strict/parse` →
/// `json/strict`).
fn resolve(path: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut p = path.to_owned();
    loop {
        if modules.contains(&p) {
            return Some(p);
        }
        let cut = p.rfind('/')?;
        p.truncate(cut);
    }
}

/// The lines of `text` outside the items gated by `#[cfg(test)]`: the
/// attribute, any attributes after it and the item it gates (a `mod x;`
/// line, or everything up to the brace that closes the item's first one).
/// Braces inside strings and comments are counted too: test code is kept
/// simple enough for that.
fn non_test_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[cfg(test)]" {
            out.push(lines[i]);
            i += 1;
            continue;
        }
        i += 1;
        while i < lines.len() && lines[i].trim_start().starts_with("#[") {
            i += 1;
        }
        let (mut depth, mut opened) = (0i64, false);
        while i < lines.len() {
            let line = lines[i];
            i += 1;
            let opens = line.matches('{').count() as i64;
            depth += opens - line.matches('}').count() as i64;
            opened |= opens > 0;
            if (opened && depth <= 0) || (!opened && line.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

/// The dependency graph: module → modules it names (itself excluded).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut modules: BTreeSet<String> = BTreeSet::new();
    for f in &files {
        if let Some(m) = module_of(&src, f) {
            modules.insert(m);
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let Some(m) = module_of(&src, f) else {
            continue;
        };
        // Test modules (`src/x/tests.rs`) and the support module for them.
        if f.file_name().is_some_and(|n| n == "tests.rs") || m == "testing" || m == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        let deps = g.entry(m.clone()).or_default();
        for line in non_test_lines(&text) {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for path in referenced(code) {
                if let Some(dep) = resolve(&path, &modules) {
                    if dep != m {
                        deps.insert(dep);
                    }
                }
            }
        }
    }
    g
}

/// A cycle through `start`, if any (depth-first search).
fn cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|n| n == node) {
            let mut c = stack[i..].to_vec();
            c.push(node.to_owned());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for dep in g.get(node).into_iter().flatten() {
            if let Some(c) = visit(g, dep, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for node in g.keys() {
        if let Some(c) = visit(g, node, &mut Vec::new(), &mut done) {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_import_graph_of_src_has_no_cycle() {
    let g = graph();
    // The graph is real: the runner depends on the model, never back.
    assert!(g["checks"].contains("package"), "{g:?}");
    assert!(!g["package"].contains("checks"), "{g:?}");
    assert_eq!(cycle(&g), None, "import cycle in src/");
}

/// `g` with each module taken as its top-level module (`json/strict` is
/// `json`), edges inside one top-level module dropped.
fn top_level(g: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split('/').next().unwrap_or(m).to_owned();
    let mut t: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in g {
        let entry = t.entry(top(m)).or_default();
        entry.extend(deps.iter().map(|d| top(d)).filter(|d| *d != top(m)));
    }
    t
}

#[test]
fn the_top_level_modules_have_no_cycle() {
    let g = top_level(&graph());
    // The strict reader's findings are built in `diag`, not in `json`.
    assert!(g["diag"].contains("json"), "{g:?}");
    assert!(!g["json"].contains("diag"), "{g:?}");
    assert_eq!(
        cycle(&g),
        None,
        "import cycle between top-level modules of src/"
    );
}

#[test]
fn whole_files_are_read_but_their_tests() {
    let g = graph();
    // `proof/mod.rs` declares its tests before its code.
    assert!(g["proof"].contains("diag"), "{g:?}");
    let text = "use crate::a;\n#[cfg(test)]\nmod tests;\nuse crate::b;\n#[cfg(test)]\n#[allow(x)]\nmod t {\n    fn f() {\n        crate::c::f();\n    }\n}\nfn g() {}\n";
    assert_eq!(
        non_test_lines(text),
        ["use crate::a;", "use crate::b;", "fn g() {}"]
    );
}

/// The breaches of the command-line layer in `g`: a subcommand file
/// `cli/X` importing a file of `cli/` other than `cli/args`, `cli/args`
/// importing any, a module outside `cli/` importing `cli`.
fn layer_breaches(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let in_cli = |m: &str| m == "cli" || m.starts_with("cli/");
    let mut out = Vec::new();
    for (m, deps) in g {
        for d in deps.iter().filter(|d| in_cli(d)) {
            let allowed = match m.as_str() {
                "cli" => true,
                "cli/args" => false,
                s if s.starts_with("cli/") => d == "cli/args",
                _ => false,
            };
            if !allowed {
                out.push(format!("{m} -> {d}"));
            }
        }
    }
    out
}

#[test]
fn the_command_line_is_a_layer_of_its_own() {
    let g = graph();
    // The layer is real: verify has its file and uses the shared groups.
    assert!(g["cli/verify"].contains("cli/args"), "{g:?}");
    assert!(g["cli/verify"].contains("ops/verify"), "{g:?}");
    assert_eq!(layer_breaches(&g), Vec::<String>::new());
}

#[test]
fn a_layer_breach_is_found() {
    let graph_of = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry((*a).into()).or_default().insert((*b).into());
        }
        g
    };
    let mut edges = vec![
        ("cli", "cli/verify"),
        ("cli/verify", "cli/args"),
        ("cli/verify", "ops/verify"),
    ];
    assert!(layer_breaches(&graph_of(&edges)).is_empty());
    edges.extend([
        ("cli/check", "cli/verify"),
        ("cli/args", "cli"),
        ("ops/verify", "cli/args"),
    ]);
    let g = graph_of(&edges);
    assert_eq!(
        layer_breaches(&g),
        [
            "cli/args -> cli",
            "cli/check -> cli/verify",
            "ops/verify -> cli/args"
        ]
    );
}

/// The files of `src/` named like a command module of the old layout
/// (`check_cmd.rs`, …): an operation lives in `src/ops/<command>.rs`.
fn cmd_files(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| f.file_name()?.to_str())
        .filter(|n| n.ends_with("_cmd.rs"))
        .map(str::to_owned)
        .collect()
}

/// The breaches of the operations layer in `g`: a module outside the
/// command line (`cli`, `cli/…`, `main`) naming an operation (`ops`,
/// `ops/…`), as `"m -> d"`. An operation naming another is a breach too:
/// what two operations share is library code.
fn ops_breaches(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let is_op = |m: &str| m == "ops" || m.starts_with("ops/");
    let may_import = |m: &str| m == "main" || m == "cli" || m.starts_with("cli/");
    let mut out = Vec::new();
    for (m, deps) in g {
        for d in deps.iter().filter(|d| is_op(d)) {
            if !may_import(m) {
                out.push(format!("{m} -> {d}"));
            }
        }
    }
    out
}

/// Render modules that still name an operation for the result types it
/// returns (issue 34 item 2): none is left; kept as the place to list one
/// while it moves, the list may only shrink.
const RENDER_OPS_LEFT: &[&str] = &[];

/// Issue 34 item 1: the operations have one home, `src/ops/<command>.rs`
/// beside `src/cli/<command>.rs` (no `*_cmd.rs` file is left), and only
/// the command line imports one: the library (the lone-document check is
/// `document`, which `compat`, `conformance`, the revocation commands and
/// the language server call) and `render/` never do: an operation's typed
/// result is in the report model (`report/<command>.rs`, issue 34 item 2),
/// which the operation builds and its view reads.
#[test]
fn operations_live_in_ops_and_only_the_command_line_imports_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert_eq!(cmd_files(&files), Vec::<String>::new());
    let g = graph();
    assert_eq!(
        ops_breaches(&g),
        RENDER_OPS_LEFT,
        "modules outside src/cli/ naming an operation"
    );
    // The rule is real: each command's face names its operation, the
    // lone-document check is library code that compat calls, a view reads
    // its command's result from the report model, and what the old layout
    // held is found (render/check naming check's operation, as it did
    // before `report::check` held `CheckRun`).
    for (face, op) in [
        ("cli/verify", "ops/verify"),
        ("cli/check", "ops/check"),
        ("cli/family", "ops/family"),
    ] {
        assert!(g[face].contains(op), "{face}: {g:?}");
    }
    assert!(g["compat/side"].contains("document"), "{g:?}");
    assert!(g["render/check"].contains("report/check"), "{g:?}");
    let mut before = g.clone();
    before
        .entry("render/check".into())
        .or_default()
        .insert("ops/check".into());
    before
        .entry("lsp/analysis".into())
        .or_default()
        .insert("ops/check".into());
    before
        .entry("compat/report".into())
        .or_default()
        .insert("ops/compat".into());
    let found: Vec<String> = ops_breaches(&before)
        .into_iter()
        .filter(|b| !RENDER_OPS_LEFT.contains(&b.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            "compat/report -> ops/compat",
            "lsp/analysis -> ops/check",
            "render/check -> ops/check"
        ]
    );
    assert_eq!(
        cmd_files(&[src.join("check_cmd.rs"), src.join("ops/check.rs")]),
        ["check_cmd.rs"]
    );
}

#[test]
fn a_cycle_is_found() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    g.get_mut("c").unwrap().clear();
    assert_eq!(cycle(&g), None);
    assert_eq!(
        referenced("use crate::{codes::Code, json::strict};"),
        ["codes/Code", "json/strict"]
    );
    let modules: BTreeSet<String> = ["json/strict".to_owned()].into();
    assert_eq!(
        resolve("json/strict/parse", &modules).as_deref(),
        Some("json/strict")
    );
    assert_eq!(resolve("json/pointer", &modules), None);
}

/// The lines of `text` (non-test code) that parse a command line with
/// clap: `use clap`, an argument struct's derive (`clap::Args`,
/// `clap::Parser`, `clap::Subcommand`) or attributes (`#[arg]`,
/// `#[command]`, `#[group]`). A `clap::ValueEnum` derive on a value type
/// (its variants are the values a flag takes, e.g. `render::human::Color`) is not
/// argument parsing.
fn clap_parsing_lines(text: &str) -> Vec<String> {
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            l.starts_with("use clap")
                || ["clap::Args", "clap::Parser", "clap::Subcommand"]
                    .iter()
                    .any(|d| l.contains(d))
                || ["#[arg(", "#[command(", "#[group("]
                    .iter()
                    .any(|a| l.starts_with(a))
        })
        .map(str::to_owned)
        .collect()
}

/// Issue 21 item 1: the library holds no clap argument struct; the
/// command line is parsed in `src/cli/` (and `main.rs`), which hands each
/// operation plain input types (`ops::trust::TrustRequest`,
/// `select::RuleArgs` from `cli::args::SelectArgs`, …). No module outside
/// `cli/` is left (the last, `select`, lost its clap struct).
#[test]
fn clap_parses_arguments_only_in_the_command_line_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = lines_per_module(
        |m, _| m == "main" || m == "cli" || m.starts_with("cli/"),
        clap_parsing_lines,
    );
    assert_eq!(found, BTreeMap::new(), "library modules parsing with clap");
    // The rule is real: the command line's own files do parse with clap
    // (`verify`'s rule flags among them), the library's plain type does not.
    let trust = std::fs::read_to_string(src.join("cli/trust.rs")).unwrap();
    assert!(!clap_parsing_lines(&trust).is_empty());
    let args = std::fs::read_to_string(src.join("cli/args.rs")).unwrap();
    assert!(
        clap_parsing_lines(&args)
            .iter()
            .any(|l| l.contains("clap::Args")),
        "cli/args.rs holds the argument groups"
    );
    let select = std::fs::read_to_string(src.join("select.rs")).unwrap();
    assert!(select.contains("pub struct RuleArgs"));
    let value_enum = "#[derive(Clone, Copy, Debug, clap::ValueEnum)]\npub enum Format {}\n";
    assert!(clap_parsing_lines(value_enum).is_empty());
    let breach = "use clap::Args;\n#[cfg(test)]\nmod t {\n    use clap::Parser;\n}\n#[arg(long)]\n";
    assert_eq!(
        clap_parsing_lines(breach),
        ["use clap::Args;", "#[arg(long)]"]
    );
}

/// The lines of `text` (non-test, non-comment code) that give a command
/// an output format of its own: an `enum` named `…Format`, or a
/// `--format` flag parsed by clap's `value_enum` (rather than the one
/// `render::Format` through a `cli::args::Formats` table). `render/mod.rs`
/// declares the one enum and is not read.
fn own_format_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let format_enum = l.split_once("enum ").is_some_and(|(_, rest)| {
            rest.split([' ', '{', '<'])
                .next()
                .is_some_and(|n| n.ends_with("Format"))
        });
        let value_enum_flag = l.starts_with("pub format:")
            && i > 0
            && lines[i - 1].starts_with("#[arg(")
            && lines[i - 1].contains("value_enum");
        if format_enum {
            out.push((*l).to_owned());
        }
        if value_enum_flag {
            out.push(format!("{} {l}", lines[i - 1]));
        }
    }
    out
}

/// Issue 34 item 2: one `Format` (`render::Format`) for every command:
/// no module declares an output format of its own (`render::family` and
/// `render::conformance` had one, `cli/digest` a third), and every
/// `--format` parses into it through the values its command takes.
#[test]
fn every_command_prints_in_the_one_format() {
    let found = lines_per_module(|m, _| m == "render", own_format_lines);
    assert_eq!(found, BTreeMap::new(), "output formats of their own");
    // The rule is real: the one enum is found where it lives, and what
    // `render/family.rs` and `cli/digest.rs` held before is found; a
    // value type that is no format and a flag parsed by a table are not.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let one = std::fs::read_to_string(src.join("render/mod.rs")).unwrap();
    assert_eq!(own_format_lines(&one), ["pub enum Format {"]);
    let before = "#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]\npub enum DigestFormat {\n    Text,\n}\n/// Output format.\n#[arg(long, value_enum, default_value_t = Format::Human)]\npub format: Format,\n";
    assert_eq!(
        own_format_lines(before),
        [
            "pub enum DigestFormat {",
            "#[arg(long, value_enum, default_value_t = Format::Human)] pub format: Format,"
        ]
    );
    let allowed = "pub enum Color {\n    Auto,\n}\n#[arg(long, value_parser = FORMATS, default_value = \"human\")]\npub format: Format,\n#[arg(long, value_enum)]\npub color: Color,\n";
    assert!(own_format_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that turn a byte
/// offset or a pointer into `line:column` themselves: a call of the
/// position rule (`position::position(…)`, `strict::line_col(…)`, a line
/// index's `.position(&…)` or `.line_col(…)`) or of the span rule
/// (`resolve_span`).
fn locating_lines(text: &str) -> Vec<String> {
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            [
                "position::position(",
                "line_col(",
                ".position(&",
                "resolve_span(",
            ]
            .iter()
            .any(|c| l.contains(c))
        })
        .map(str::to_owned)
        .collect()
}

/// Issue 34 item 2: a finding is located (`file:line:column`, the span an
/// excerpt is drawn from) once, in one place: `src/locate.rs`, over the
/// position rule of `src/json/` (the strict reader's, which places what it
/// refuses). `render/model.rs`, `render/human.rs`, `compat/side.rs` (through
/// a made-up `Diagnostic`), `family/load.rs` and `render/family.rs` each did
/// it. The language server counts UTF-16 units for its protocol (`lsp/`).
#[test]
fn findings_are_located_in_one_place() {
    let found = lines_per_module(
        |m, f| {
            matches!(
                m.split('/').next(),
                Some("json" | "locate" | "lsp" | "testing")
            ) || f.file_name().is_some_and(|n| n == "tests.rs")
        },
        locating_lines,
    );
    assert_eq!(found, BTreeMap::new(), "locating outside src/locate.rs");
    // The rule is real: what `compat/side.rs` and `family/load.rs` held is
    // found; a call of the one place, a comment and a test are not.
    let before = "let span = crate::package::resolve_span(&d, Some(source))?;\nlet p = crate::json::position::position(&source.bytes, span.start);\nlet (line, column) = self.lines.line_col(&self.bytes, at);\nlet at = idx.position(&src.bytes, s.start);\n";
    assert_eq!(locating_lines(before).len(), 4);
    let allowed = "let p = crate::locate::pointer_position(source, pointer)?;\n// position::position(bytes, at)\n#[cfg(test)]\nmod t {\n    fn f() { position::position(b, 0); }\n}\n";
    assert!(locating_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that walk a PATH for
/// packages themselves (`discover::walk(…)`, `walk_with_files(…)`), or
/// bring the walk in by its bare name (`use crate::discover::{walk, …}`),
/// to call it as `walk(…)`.
fn walking_lines(text: &str) -> Vec<String> {
    let imports_the_walk = |l: &str| {
        l.strip_prefix("use crate::discover::")
            .is_some_and(|items| {
                items
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|name| name == "walk" || name == "walk_with_files")
            })
    };
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            l.contains("discover::walk(") || l.contains("walk_with_files(") || imports_the_walk(l)
        })
        .map(str::to_owned)
        .collect()
}

/// Modules that still walk for packages themselves (the list may only
/// shrink): none (`compat`'s trees went through the helper last).
const WALKS_LEFT: &[&str] = &[];

/// Closing note (duplicate D5): one walk-and-report helper,
/// `report::walk::discover`, gives every command the walk's findings as
/// Path entries beside the package roots: `locator`, `snapshot`,
/// `desired` and `family`'s loader each opened with the same loop.
#[test]
fn the_walk_for_packages_is_reported_by_one_helper() {
    let found = lines_per_module(
        |m, _| matches!(m, "discover" | "report/walk" | "testing"),
        walking_lines,
    );
    // `verify`'s run walked for itself: it calls the helper PATH by PATH,
    // its entries grouped and sorted as before.
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(left, WALKS_LEFT, "{found:#?}");
    // The rule is real: what `ops/locator.rs` and `family/load.rs` held is
    // found, and the walk imported by its bare name; the helper's call, a
    // comment and an import of the walk's rules are not.
    let before = "let walk = crate::discover::walk(dir, &crate::discover::WalkRules::default());\nlet walked = discover::walk_with_files(p, rules, &is_family_name);\nuse crate::discover::{walk, WalkRules};\n";
    assert_eq!(walking_lines(before).len(), 3);
    let allowed = "let walked = discover(dirs, &WalkRules::default(), &|_| false);\n// discover::walk(dir, rules)\nuse crate::discover::{WalkRules, Walk};\n";
    assert!(walking_lines(allowed).is_empty());
}

/// What `src/render/` may read (issue 34 item 2): the report model
/// (`report`, its entries' outcomes in `verify`, their typed `summary`),
/// the findings (`diag`, `codes`, `locate`, `explain`'s text of a code),
/// JSON helpers (`json`, `canonical`: RFC 8785), the verifier's fault
/// (`error`) and the one writer of `--output-file` (`fswrite`); and itself.
const RENDER_READS: &[&str] = &[
    "canonical",
    "codes",
    "diag",
    "error",
    "explain",
    "fswrite",
    "json",
    "locate",
    "render",
    "report",
    "summary",
    "verify",
];

/// The edges of `g` from a module of `src/render/` to a top-level module
/// outside [`RENDER_READS`], as `"render/x -> top"`.
fn render_reads_beyond_the_model(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut out = BTreeSet::new();
    for (m, deps) in g {
        if !(m == "render" || m.starts_with("render/")) {
            continue;
        }
        for d in deps {
            let top = d.split('/').next().unwrap_or(d);
            if !RENDER_READS.contains(&top) {
                out.insert(format!("{m} -> {top}"));
            }
        }
    }
    out.into_iter().collect()
}

/// Issue 34 item 2: `render/` reads only the report model, diagnostics,
/// JSON helpers and codes, so a renderer does not change whenever an
/// operation does. What each view of a command needs is a value of the
/// model (`report::{check, compat, family, index, revocation, trust}`,
/// `summary`), filled by its operation; the list of render modules that
/// read beyond it (`RENDER_READS_LEFT`: compat's and family's own
/// reports, trust's verdict, the revocation document, a document's kind,
/// an index's profile choice, a derived relation) is empty.
#[test]
fn render_reads_only_the_report_model() {
    let g = graph();
    assert_eq!(
        render_reads_beyond_the_model(&g),
        Vec::<String>::new(),
        "render modules reading beyond the report model"
    );
    // The rule is real: a view naming an operation's model is found; the
    // model and a render module's own siblings are not.
    let mut breach = g.clone();
    breach.entry("render/snapshot".into()).or_default().extend([
        "host/snapshot".to_owned(),
        "report".to_owned(),
        "render".to_owned(),
    ]);
    assert!(render_reads_beyond_the_model(&breach).contains(&"render/snapshot -> host".to_owned()));
    assert!(
        !render_reads_beyond_the_model(&breach).contains(&"render/snapshot -> report".to_owned())
    );
}

/// The fields of the struct `name` in `text` that hold a raw JSON object
/// of members (`Map<String, Value>`).
fn raw_member_fields(text: &str, name: &str) -> Vec<String> {
    let start = format!("pub struct {name} {{");
    let Some(at) = text.find(&start) else {
        return vec![format!("no struct {name}")];
    };
    text[at..]
        .lines()
        .take_while(|l| *l != "}")
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.contains("Map<String, Value>"))
        .map(str::to_owned)
        .collect()
}

/// Issue 34 item 2: no raw-JSON hatch in an outcome: what a command says
/// about an entry besides its findings is a typed `summary::Summary`
/// (`PackageOutcome::extra`, a `Map<String, Value>`, held compat's pair
/// summary, desired's `formRef`/`materialized`, snapshot's roster and an
/// advance's pin).
#[test]
fn no_outcome_carries_raw_json_members() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let verify = std::fs::read_to_string(src.join("verify.rs")).unwrap();
    assert_eq!(
        raw_member_fields(&verify, "PackageOutcome"),
        Vec::<String>::new()
    );
    let report = std::fs::read_to_string(src.join("report/mod.rs")).unwrap();
    assert_eq!(raw_member_fields(&report, "Entry"), Vec::<String>::new());
    // The rule is real: the field that was there is found.
    let before = "pub struct PackageOutcome {\n    /// Members.\n    pub extra: serde_json::Map<String, Value>,\n    pub path: PathBuf,\n}\n";
    assert_eq!(
        raw_member_fields(before, "PackageOutcome"),
        ["pub extra: serde_json::Map<String, Value>,"]
    );
}

/// The format-specific renderers of `src/render/` (`render::human`,
/// `render::json`, …, and `render::family`, the four views of `family`)
/// named by a non-test, non-comment line of `text`
/// (`use crate::render::{self, human}`, `crate::render::json::…`).
fn format_renderer_lines(text: &str) -> Vec<String> {
    const RENDERERS: [&str; 6] = ["human", "json", "sarif", "junit", "github", "family"];
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            l.split("crate::render::").skip(1).any(|rest| {
                rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| RENDERERS.contains(&w))
            })
        })
        .map(str::to_owned)
        .collect()
}

/// Issue 21 item 3: one report model that `render/` alone prints. A
/// library module outside `src/render/` and `src/cli/` returns its typed
/// result and never calls a format's renderer (`check_cmd` did, with
/// `human::render_package`, until `render/check.rs` took its views; the
/// last ones, `canonical_cmd`, `conformance` and `relations_cmd`, did
/// until `render/canonical.rs`, `render/conformance.rs` and
/// `render/relations.rs` took theirs; `family` did, calling its views in
/// `src/family/graph.rs`, until they became `render/family.rs`, called by
/// `cli/family.rs`). No module is left.
#[test]
fn only_render_and_the_command_line_call_a_format_renderer() {
    let found = lines_per_module(
        |m, _| matches!(m.split('/').next(), Some("main" | "cli" | "render")),
        format_renderer_lines,
    );
    assert_eq!(
        found,
        BTreeMap::new(),
        "library modules calling a format's renderer"
    );
    // The rule is real: what `check_cmd` held before the move is found,
    // the shared front end and a format value are not.
    let before = "use crate::render::{self, human, Format};\nfn f() {\n    crate::render::json::diagnostic_value(d);\n}\n#[cfg(test)]\nmod t {\n    use crate::render::sarif;\n}\n";
    assert_eq!(
        format_renderer_lines(before),
        [
            "use crate::render::{self, human, Format};",
            "crate::render::json::diagnostic_value(d);"
        ]
    );
    assert_eq!(
        format_renderer_lines("FamilyFormat::Dot => crate::render::family::dot(&report),\n"),
        ["FamilyFormat::Dot => crate::render::family::dot(&report),"]
    );
    let allowed = "use crate::render::{self, Format};\nlet f = crate::render::Format::Json;\n// crate::render::human\n";
    assert!(format_renderer_lines(allowed).is_empty());
}

/// The lines of `text` (non-test code) that write to the process's
/// standard streams or add text to a report's stdout or stderr: a print
/// macro (`print!`, `println!`, `eprint!`, `eprintln!`, `dbg!`), a handle
/// on stdout or stderr (`io::stdout()`, `io::stderr()`, indicatif's
/// `ProgressDrawTarget::stdout`/`stderr`), or text pushed onto a buffer
/// named `stdout` or `stderr` (`stdout.push_str(…)`,
/// `out.stderr.push_str(…)`, `stderr.extend(…)`, `write!(stdout, …)`).
/// Reading standard input and building an `Output` from a rendered text
/// are not writing.
fn stream_writing_lines(text: &str) -> Vec<String> {
    const MACROS: [&str; 5] = ["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!("];
    const HANDLES: [&str; 4] = [
        "io::stdout()",
        "io::stderr()",
        "ProgressDrawTarget::stdout",
        "ProgressDrawTarget::stderr",
    ];
    const APPENDS: [&str; 7] = [
        ".push_str(",
        ".push(",
        ".extend(",
        ".extend_from_slice(",
        ".insert_str(",
        ".write_all(",
        ".write_fmt(",
    ];
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            MACROS.iter().chain(&HANDLES).any(|m| l.contains(m))
                || ["stdout", "stderr"].iter().any(|s| {
                    APPENDS.iter().any(|a| l.contains(&format!("{s}{a}")))
                        || ["write!(", "writeln!("].iter().any(|w| {
                            l.contains(&format!("{w}{s}")) || l.contains(&format!("{w}&mut {s}"))
                        })
                })
        })
        .map(str::to_owned)
        .collect()
}

/// Library modules that still write, or add text, to stdout or stderr
/// themselves, each still to hand its text to a view under `src/render/`
/// (the list may only shrink; it is empty: `compat_cmd`, `index_cmd` and
/// `run` were the last).
const STREAM_WRITING_LEFT: &[&str] = &[];

/// Issue 21 item 3: `render/` alone prints. A library module outside
/// `src/render/` and `src/cli/` neither writes to the standard streams nor
/// adds lines to a report's stdout or stderr (`run` did both: the walk's
/// skipped directories and the progress bar, until `render::report`,
/// `render::skipped` and `render::progress` took them).
#[test]
fn only_render_and_the_command_line_write_to_stdout_or_stderr() {
    let found = lines_per_module(
        |m, _| matches!(m.split('/').next(), Some("main" | "cli" | "render")),
        stream_writing_lines,
    );
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(left, STREAM_WRITING_LEFT, "{found:#?}");
    // The rule is real: what `run` held before the move is found, in a
    // function and not in its tests.
    let before = "fn f() {\n    let progress = Progress::new(roots, std::io::stderr().is_terminal());\n    if human {\n        stdout.push_str(&text);\n    } else {\n        out.stderr.push_str(&text);\n    }\n    eprintln!(\"{n}\");\n}\n#[cfg(test)]\nmod t {\n    fn g() {\n        println!(\"x\");\n    }\n}\n";
    assert_eq!(
        stream_writing_lines(before),
        [
            "let progress = Progress::new(roots, std::io::stderr().is_terminal());",
            "stdout.push_str(&text);",
            "out.stderr.push_str(&text);",
            "eprintln!(\"{n}\");"
        ]
    );
    let allowed = "let (stdout, stderr) = render::report(format, &run, opts);\nOutput { stdout: stdout.into_bytes(), stderr, code }\nstd::io::stdin().read_to_end(&mut bytes)?;\nlet text = format!(\"{stdout}\");\n";
    assert!(stream_writing_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that build a render
/// view other than from a report, or patch one afterwards: a call of
/// `RunView::new`, `RunView::documents` or `PackageView::new` (views of
/// bare outcomes), a `RunView { … }` or `PackageView { … }` literal, or an
/// assignment to a view's `display` or `could_not_run`.
fn view_building_lines(text: &str) -> Vec<String> {
    const BUILDS: [&str; 5] = [
        "RunView::new(",
        "RunView::documents(",
        "PackageView::new(",
        "RunView {",
        "PackageView {",
    ];
    const PATCHES: [&str; 2] = [".display", ".could_not_run"];
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            BUILDS.iter().any(|b| l.contains(b))
                || PATCHES.iter().any(|p| {
                    l.split(p).skip(1).any(|rest| {
                        let rest = rest.trim_start();
                        rest.starts_with('=') && !rest.starts_with("==")
                    })
                })
        })
        .map(str::to_owned)
        .collect()
}

/// Modules that still build a view from bare outcomes or patch one, each
/// to return a `report::Report` its view is built from by `RunView::of`
/// (the list may only shrink; `render/check` (`check` and the revocation
/// commands), `render/conformance`, `render/index` and `lsp/analysis` left
/// it when their operations built a report, `render/relations` and
/// `render/compat` when `relations_cmd` and `compat::report` did: it is
/// empty).
const VIEW_PATCHES_LEFT: &[&str] = &[];

/// Issue 21 item 3: one report model, built complete. Outside
/// `render/model.rs` (which defines the views), a render view is built only
/// from a report (`RunView::of`) and nothing patches it afterwards: an
/// entry's name, kind and selection and whether the run could run are set
/// by the operation that builds the report (`Entry::named`,
/// `Report::could_not_read`), never by a view.
#[test]
fn a_view_is_built_from_a_report_and_never_patched() {
    let found = lines_per_module(|m, _| m == "render/model", view_building_lines);
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(left, VIEW_PATCHES_LEFT, "{found:#?}");
    // The rule is real: what `render/check` held before its operation
    // built a report is found, in a function and not in its tests.
    let before = "fn f() {\n    let mut run = render::RunView::documents(outcomes, names, deny);\n    run.could_not_run = outcomes.iter().any(|o| missing(o));\n    let v = PackageView::new(&a.outcome, false);\n    first.display = Some(name.into());\n}\n#[cfg(test)]\nmod t {\n    fn g() {\n        let run = RunView::new(&all, false);\n    }\n}\n";
    assert_eq!(
        view_building_lines(before),
        [
            "let mut run = render::RunView::documents(outcomes, names, deny);",
            "run.could_not_run = outcomes.iter().any(|o| missing(o));",
            "let v = PackageView::new(&a.outcome, false);",
            "first.display = Some(name.into());"
        ]
    );
    // Near misses: a view of a report, reading a view, a comparison.
    let allowed = "let run = render::RunView::of(&report);\nlet name = p.display.as_deref();\nif run.could_not_run == true {}\nlet d = p.display();\n";
    assert!(view_building_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that read a file or a
/// stream by themselves: `std::fs::read`, `read_to_string`, `File::open`,
/// `read_to_end`.
fn file_read_lines(text: &str) -> Vec<String> {
    const READS: [&str; 4] = [
        "fs::read(",
        "read_to_string(",
        "File::open(",
        "read_to_end(",
    ];
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| READS.iter().any(|r| l.contains(r)))
        .map(str::to_owned)
        .collect()
}

/// The two readers: `fsread` reads a package's files (relative to its held
/// root), `fileread` every single file outside a package and standard
/// input.
const READERS: [&str; 2] = ["fsread", "fileread"];

/// Library modules that still read a file their own way, each to move to
/// `fileread` (the list may only shrink).
const FILE_READS_LEFT: &[&str] = &[];

/// Issue 21 item 2: one single-file reader with one policy (a named file
/// followed through the user's link, a found one never; only a regular
/// file, never blocking; bounded). No library module outside the readers
/// reads a file itself (tests and the test support module excepted).
#[test]
fn only_the_readers_read_files() {
    let found = lines_per_module(
        |m, f| {
            READERS.contains(&m) || m == "testing" || f.file_name().is_some_and(|n| n == "tests.rs")
        },
        file_read_lines,
    );
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(left, FILE_READS_LEFT, "{found:#?}");
    // The rule is real: a breach is found, the reader's call and test code
    // are not.
    let breach = "fn f() {\n    let b = std::fs::read(p)?;\n    let s = fs::read_to_string(q);\n    std::io::stdin().read_to_end(&mut v);\n}\n#[cfg(test)]\nmod t {\n    fn g() { std::fs::read(p).unwrap(); }\n}\n";
    assert_eq!(
        file_read_lines(breach),
        [
            "let b = std::fs::read(p)?;",
            "let s = fs::read_to_string(q);",
            "std::io::stdin().read_to_end(&mut v);"
        ]
    );
    let allowed = "let b = read_file(p, Reach::Named, JSON_BYTES)?;\n// std::fs::read(p)\n";
    assert!(file_read_lines(allowed).is_empty());
}

/// The modules of `g` under `render/` that decide an exit status: they
/// name `crate::output` (the only type that carries one,
/// `output::Output`).
fn exit_deciders(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    g.iter()
        .filter(|(m, deps)| (*m == "render" || m.starts_with("render/")) && deps.contains("output"))
        .map(|(m, _)| m.clone())
        .collect()
}

/// Issue 21 follow-up (#21): exit statuses come from the operation's
/// report (`CheckRun::exit_code`, `SuiteReport::exit_code`,
/// `canonical_cmd::exit_code`, `relations_cmd::exit_code`,
/// `compat::report::Report::exit_code`, `run`), the command's `cli/` file
/// passes it through, and `render/` only makes text: no render module
/// builds an `Output` (the one place an exit status is set) or calls an
/// `exit_code`.
#[test]
fn render_makes_text_and_never_decides_an_exit_status() {
    let g = graph();
    assert_eq!(exit_deciders(&g), Vec::<String>::new());
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("render"), &mut files);
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let lines: Vec<String> = non_test_lines(&std::fs::read_to_string(f).unwrap())
            .into_iter()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && l.contains("exit_code("))
            .map(str::to_owned)
            .collect();
        if !lines.is_empty() {
            found.insert(module_of(&src, f).unwrap(), lines);
        }
    }
    assert_eq!(
        found,
        BTreeMap::new(),
        "render modules computing an exit status"
    );
    // The rule is real: the command line builds the `Output` (check's file
    // names the run's exit status), and a render module that did is found.
    assert!(g["cli/check"].contains("output"), "{g:?}");
    let mut breach = g.clone();
    breach
        .entry("render/check".into())
        .or_default()
        .insert("output".into());
    assert_eq!(exit_deciders(&breach), ["render/check"]);
}

/// The modules of `g` outside the command line (`cli/`, `main`) and
/// `render/` that name `render/progress`, the progress bar drawn on stderr.
fn progress_drawers(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    g.iter()
        .filter(|(m, deps)| {
            !matches!(m.split('/').next(), Some("main" | "cli" | "render"))
                && deps.contains("render/progress")
        })
        .map(|(m, _)| m.clone())
        .collect()
}

/// Issue 21: the library does not draw. The verify run (`ops/verify.rs`) tells
/// an observer (`ops::verify::Observer`) how far it is; `cli/verify.rs` fills it
/// with the progress bar of `render::progress` (`run` made the bar itself,
/// `Progress::on_stderr`, until the observer took it). No library module
/// outside `render/` and `cli/` names the bar.
#[test]
fn only_the_command_line_draws_the_progress_bar() {
    let g = graph();
    assert_eq!(progress_drawers(&g), Vec::<String>::new());
    // The rule is real: `verify`'s command line names the bar, and what
    // `run` held before is found.
    assert!(g["cli/verify"].contains("render/progress"), "{g:?}");
    assert!(!g["ops/verify"].contains("render/progress"), "{g:?}");
    let mut before = g.clone();
    before
        .entry("ops/verify".into())
        .or_default()
        .insert("render/progress".into());
    assert_eq!(progress_drawers(&before), ["ops/verify"]);
    assert_eq!(
        referenced("use crate::render::progress::Progress;"),
        ["render/progress/Progress"]
    );
}

/// For each module file of `src/` that `skip` (given the module and the
/// file) does not leave out, the lines `pick` finds in its text; modules
/// with none are not listed.
fn lines_per_module(
    skip: impl Fn(&str, &Path) -> bool,
    pick: fn(&str) -> Vec<String>,
) -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = BTreeMap::new();
    for f in &files {
        let m = module_of(&src, f).unwrap();
        if skip(&m, f) {
            continue;
        }
        let lines = pick(&std::fs::read_to_string(f).unwrap());
        if !lines.is_empty() {
            found.insert(m, lines);
        }
    }
    found
}

/// The lines of `text` (non-test, non-comment code) that build a command's
/// `Output` (name the type `Output`: a literal, `Output::from`, a function
/// returning one, its import) or write the `form-package: ` prefix of a
/// line a user reads.
fn output_building_lines(text: &str) -> Vec<String> {
    let names_output = |l: &str| {
        l.match_indices("Output").any(|(i, _)| {
            let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            !l[..i].ends_with(ident) && !l[i + "Output".len()..].starts_with(ident)
        })
    };
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| names_output(l) || l.contains("form-package: "))
        .map(str::to_owned)
        .collect()
}

/// Library modules that still build an `Output` or write a
/// `form-package: ` line themselves, each to return a typed result that its
/// `cli/` file turns into an `Output` (the list may only shrink; it is
/// empty: `family`, `revocation_cmd` and `run` were the last).
const OUTPUT_BUILDING_LEFT: &[&str] = &[];

/// Issue 21 item 3: every command a thin face over one library operation.
/// The operation returns a typed result carrying its exit status; only the
/// command line (`src/cli/`, `main.rs`, `output.rs`) builds the `Output`,
/// and only it and `src/render/` (which makes every text, the reference's
/// `form-package: …` lines among them) write the `form-package: ` prefix.
/// The language server (`src/lsp/`) is a front end of its own: its
/// messages go to its client over the protocol, never to a terminal.
/// Test code (`#[cfg(test)]` items, `tests.rs` files, `testing`) is not
/// read.
#[test]
fn only_the_command_line_builds_an_output() {
    let found = lines_per_module(
        |m, f| {
            matches!(
                m.split('/').next(),
                Some("main" | "cli" | "output" | "render" | "lsp" | "testing")
            ) || f.file_name().is_some_and(|n| n == "tests.rs")
        },
        output_building_lines,
    );
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(left, OUTPUT_BUILDING_LEFT, "{found:#?}");
    // The rule is real: what `revocation_cmd` held is found, in a function
    // and not in its tests; a typed result, a comment, a longer name are not.
    let breach = "use crate::output::Output;\nfn fail2(msg: String) -> Output {\n    Output {\n        stderr: format!(\"form-package: {msg}\\n\"),\n        ..Default::default()\n    }\n}\nfn g(e: Error) {\n    let o = crate::output::Output::from(e);\n}\n#[cfg(test)]\nmod t {\n    fn h() -> Output {\n        Output::default()\n    }\n}\n";
    assert_eq!(
        output_building_lines(breach),
        [
            "use crate::output::Output;",
            "fn fail2(msg: String) -> Output {",
            "Output {",
            "stderr: format!(\"form-package: {msg}\\n\"),",
            "let o = crate::output::Output::from(e);"
        ]
    );
    let allowed = "pub fn checkpoint(a: &Args) -> Result<RevocationRun, Refusal> {\n// builds an `Output` with \"form-package: …\"\nlet p = CheckOutputs::new();\nlet name = \"form-package\";\n";
    assert!(output_building_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that patch a report's
/// view after it was built: a `mark_…` method (declared or called), or an
/// assignment to a view's `kind` or `hidden`.
fn view_patching_lines(text: &str) -> Vec<String> {
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter(|l| {
            l.contains("fn mark_")
                || l.contains(".mark_")
                || l.contains(".kind = ")
                || l.contains(".hidden = ")
        })
        .map(str::to_owned)
        .collect()
}

/// Issue 21 item 3: one report model (`src/report.rs`), each entry built
/// complete (its kind, its name, its findings after the selection and what
/// the selection hid), and `src/render/` builds its views from it: no
/// module of `src/render/` nor the verify run (`ops/verify.rs`) marks or patches
/// a view afterwards (`mark_configuration`, `mark_path` and the `hidden`
/// vector zipped in were deleted).
#[test]
fn the_report_is_built_complete_and_its_views_never_patched() {
    let found = lines_per_module(
        |m, _| !(m == "ops/verify" || m.starts_with("render")),
        view_patching_lines,
    );
    assert_eq!(
        found,
        BTreeMap::new(),
        "views patched after they were built"
    );
    // The rule is real: what `run.rs` and `render/check.rs` held before is
    // found, outside the tests; the report's own fields and a comment are
    // not.
    let before = "for i in 0..config_kept {\n    run.mark_configuration(i, config_name.clone());\n}\npub fn mark_path(&mut self, index: usize) {\np.hidden = h;\np.kind = render::EntryKind::Document;\n#[cfg(test)]\nmod t {\n    fn g() { run.mark_path(0); }\n}\n";
    assert_eq!(
        view_patching_lines(before),
        [
            "run.mark_configuration(i, config_name.clone());",
            "pub fn mark_path(&mut self, index: usize) {",
            "p.hidden = h;",
            "p.kind = render::EntryKind::Document;"
        ]
    );
    let allowed = "let entry = Entry::selected(EntryKind::Package, o, Some(&settings));\n// p.kind = EntryKind::Path\nlet kind = p.kind;\nhidden: entry.hidden.clone(),\n";
    assert!(view_patching_lines(allowed).is_empty());
}

/// The lines of `text` (non-test, non-comment code) that write the
/// `form-package: ` prefix themselves instead of calling
/// `render::escape::line`.
fn hand_made_tool_lines(text: &str) -> Vec<String> {
    non_test_lines(text)
        .into_iter()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.contains("form-package: "))
        .map(str::to_owned)
        .collect()
}

/// Modules that still write a `form-package: ` line by hand (being made
/// typed operations on other branches; the list may only shrink).
const HAND_MADE_TOOL_LINES_LEFT: &[&str] = &[];

/// Breaker F2: a path or a name in a `form-package: <path>: <io error>`
/// line reached the terminal raw. Every such line (refusals, summaries,
/// "wrote …") is made by the one function `render::escape::line`, which
/// escapes its text, so a new command cannot print one raw: no other
/// module writes the prefix (the language server, whose messages go to
/// its client over the protocol, and test code are not read).
#[test]
fn every_form_package_line_is_made_by_escape_line() {
    let found = lines_per_module(
        |m, f| {
            matches!(m, "render/escape" | "testing")
                || m.split('/').next() == Some("lsp")
                || f.file_name().is_some_and(|n| n == "tests.rs")
        },
        hand_made_tool_lines,
    );
    let left: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(
        left, HAND_MADE_TOOL_LINES_LEFT,
        "write these lines with render::escape::line(text) (it adds the prefix and escapes the text): {found:#?}"
    );
    // The rule is real: a hand-made line is found, in code and not in its
    // tests; the call, a comment and the bare name are not.
    let breach = "fn f(p: &Path) -> String {\n    format!(\"form-package: {}: gone\\n\", p.display())\n}\nfn g() {\n    let _ = writeln!(out, \"form-package: write stdout: {e}\");\n    let ok = escape::line(&format!(\"{}: gone\", p.display()));\n    // prints \"form-package: …\"\n    let name = \"form-package\";\n}\n#[cfg(test)]\nmod t {\n    fn h() {\n        assert_eq!(x, \"form-package: a\\n\");\n    }\n}\n";
    assert_eq!(
        hand_made_tool_lines(breach),
        [
            "format!(\"form-package: {}: gone\\n\", p.display())",
            "let _ = writeln!(out, \"form-package: write stdout: {e}\");"
        ]
    );
}

/// The sibling graph of one folder: each file of `dir` (under `src/`) →
/// the siblings its non-test code names as `super::X` (a `use super::{…}`
/// group included) or as `crate::<module>::X`, where `<module>` is `dir`
/// as a path. The crate-wide graph counts `super::` as one unit; inside
/// a folder the files must not import each other in a circle either.
fn sibling_graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut names: BTreeSet<String> = BTreeSet::new();
    for e in std::fs::read_dir(&folder).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "rs") {
            names.insert(p.file_stem().unwrap().to_str().unwrap().to_owned());
        }
    }
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let prefixes = [
        "super::".to_owned(),
        format!("crate::{}::", dir.replace('/', "::")),
    ];
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in &names {
        let text = std::fs::read_to_string(folder.join(format!("{name}.rs"))).unwrap();
        let deps = g.entry(name.clone()).or_default();
        for line in non_test_lines(&text) {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for prefix in &prefixes {
                for (i, _) in code.match_indices(prefix.as_str()) {
                    let rest = &code[i + prefix.len()..];
                    let mut found = vec![word(rest)];
                    if let Some(group) = rest.strip_prefix('{') {
                        found.extend(group.split(',').map(|p| word(p.trim())));
                    }
                    for dep in found {
                        if names.contains(&dep) && dep != *name {
                            deps.insert(dep);
                        }
                    }
                }
            }
        }
    }
    g
}

/// `compat/` and `compat/desired/` have no file-level import circle
/// (issue 34 item 3: `changes` ↔ `meaning`, `meaning` ↔ `side`, `eval` ↔
/// `prove` were); the near miss, the graph read with a circle added back,
/// is found.
#[test]
fn compat_files_have_no_circle() {
    for dir in ["compat", "compat/desired"] {
        let g = sibling_graph(dir);
        assert_eq!(cycle(&g), None, "import circle in src/{dir}: {g:?}");
    }
    let mut g = sibling_graph("compat/desired");
    // The graph is real: the evaluator names the prover's state.
    assert!(g["eval"].contains("prove"), "{g:?}");
    g.get_mut("prove").unwrap().insert("eval".to_owned());
    assert!(cycle(&g).is_some());
}

/// Issue 34's done-when: no production file of `src/` is over 1,500
/// lines. A module's tests in a file of their own (`tests.rs`, or a
/// `tests/` folder) are not production. The generated validators are no
/// exception: `schemas/native_gen/` holds them in parts (each checked
/// current by `native_validators_are_current`).
#[test]
fn no_production_file_is_over_1500_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let generated = src.join("schemas/native_gen");
    assert!(
        files.iter().filter(|f| f.starts_with(&generated)).count() > 2,
        "the generated validators are read, in parts"
    );
    let mut over = Vec::new();
    for f in &files {
        let is_test = f.file_name().is_some_and(|n| n == "tests.rs")
            || f.strip_prefix(&src)
                .unwrap()
                .components()
                .any(|c| c.as_os_str() == "tests");
        let lines = std::fs::read_to_string(f).unwrap().lines().count();
        if !is_test && lines > 1500 {
            over.push(format!("{} ({lines} lines)", f.display()));
        }
    }
    assert!(files.len() > 100, "src/ read: {} files", files.len());
    assert!(
        over.is_empty(),
        "production files over 1,500 lines: {over:?}"
    );
}

/// The structs of `text` (its non-test lines) that are a finding type of
/// their own: a field `code` of type `Code` and a field `message`, each
/// `struct Name {` … `}` block read field by field.
fn own_finding_types(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    // (name, holds a code, holds a message) of the struct being read.
    let mut current: Option<(String, bool, bool)> = None;
    for line in non_test_lines(text) {
        let t = line.trim();
        if let Some((name, code, message)) = &mut current {
            if t == "}" {
                if *code && *message {
                    found.push(name.clone());
                }
                current = None;
            } else {
                let field = t.strip_prefix("pub ").unwrap_or(t);
                if let Some(ty) = field.strip_prefix("code: ") {
                    let ty = ty.trim_end_matches(',');
                    *code |= ty == "Code" || ty.ends_with("::Code");
                }
                *message |= field.starts_with("message: ");
            }
            continue;
        }
        let decl = ["pub struct ", "pub(crate) struct ", "struct "]
            .iter()
            .find_map(|p| t.strip_prefix(p));
        if let Some(rest) = decl.filter(|_| t.ends_with('{')) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            current = Some((name, false, false));
        }
    }
    found
}

/// Finding types of their own left in `report/` and `render/`, as
/// `module::Struct` (trust's refusal, `report::trust::Failure`, was the
/// last: it holds a `Diagnostic` beside the Core's class).
const OWN_FINDING_TYPES_LEFT: &[&str] = &[];

/// Issue 34 item 2: every finding is a `Diagnostic`. No type of the report
/// model or of a view keeps its own (code, message) pair beside one:
/// family's finding holds a `Diagnostic` (its contract location the
/// diagnostic's related one), compat's change records and findings hold
/// one (OLD's location related), a package finding of `family` holds
/// `verify`'s, a refusal of `trust` holds one beside the Core's class.
#[test]
fn no_finding_type_beside_diagnostic() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("report"), &mut files);
    rust_files(&src.join("render"), &mut files);
    let mut left = Vec::new();
    for f in &files {
        let module = module_of(&src, f).unwrap();
        let text = std::fs::read_to_string(f).unwrap();
        for name in own_finding_types(&text) {
            left.push(format!("{module}::{name}"));
        }
    }
    assert_eq!(left, OWN_FINDING_TYPES_LEFT);
    // The rule is real: the family finding that was there is found (also
    // with a path to its code type); near misses: the finding that holds
    // a Diagnostic, a code without a message, and test code.
    let before = "/// One family finding.\n#[derive(Clone)]\npub struct Finding {\n    #[serde(serialize_with = \"code_id\")]\n    pub code: Code,\n    pub severity: Severity,\n    pub message: String,\n}\nstruct Change {\n    code: crate::codes::Code,\n    message: String,\n}\n";
    assert_eq!(own_finding_types(before), ["Finding", "Change"]);
    let after = "pub struct Finding {\n    pub diagnostic: Diagnostic,\n    pub step: Step,\n}\npub struct Edge {\n    pub code: Option<Code>,\n    pub message: String,\n}\npub struct Failure {\n    pub code: Code,\n}\n#[cfg(test)]\nmod t {\n    struct F {\n        code: Code,\n        message: String,\n    }\n}\n";
    assert!(own_finding_types(after).is_empty());
}
