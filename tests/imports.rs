//! The import graph of `src/` has no cycles (issue 11): each module file
//! (`src/json/strict.rs` is `json/strict`) depends on the modules its
//! non-test code names through `use crate::…` lines (and `crate::a::b`
//! paths in code), and that graph must be acyclic, so the pipeline reads
//! top-down: `checks` → `package` → the proofs, never back. A parent and
//! its own submodules (`super::`) are one unit and not counted.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)] // test code: a panic is a failed test

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
        for line in text.lines() {
            // Unit tests sit at the end of a file, after `#[cfg(test)]`.
            if line.trim() == "#[cfg(test)]" && !text.contains("#[cfg(test)]\nmod testing") {
                break;
            }
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
