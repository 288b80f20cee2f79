//! The compiled-schema cache (issue 23 decision 2), with and without, on
//! real and distinct schemas. For every `DIR` (the corpus's `packages/`, a
//! tree from `benches/gen_tree.py --distinct-schemas`), every inline schema
//! of every `definition.json` below it (desired, observed, output, legacy
//! document schemas) is compiled in file order, as a run of `verify` meets
//! them:
//!
//! - *without*: `engine::compile` for each (what a run did before the cache);
//! - *with*: through a fresh `SchemaCache` with the default budget, as
//!   `verify` does; its own accounting (entries, charged and peak charged
//!   bytes, hits, misses, evictions) and the process's resident memory
//!   before and after (`/proc/self/status` `VmRSS`), so the charge per
//!   entry can be judged against real memory.
//!
//! Usage: `cargo bench --bench schema_cache -- DIR... [--runs N]` (default 3
//! runs; prints the best and the median of each). Whole-process figures:
//! `sh benches/schema_cache.sh`.
use std::path::{Path, PathBuf};
use std::time::Instant;

use form_package::engine::cache::{SchemaCache, DEFAULT_BUDGET};
use form_package::engine::compile;
use form_package::json::strict;
use serde_json::Value;

fn schemas_under(dir: &Path) -> Vec<Value> {
    let mut defs: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name() == "definition.json")
        .map(walkdir::DirEntry::into_path)
        .collect();
    defs.sort();
    let mut out = Vec::new();
    for path in defs {
        let Ok(def) = strict::parse_value(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        for member in ["desiredSchema", "observedSchema", "outputSchema"] {
            if let Some(s) = def.get(member).filter(|s| s.is_object()) {
                out.push(s.clone());
            }
        }
        if let Some(Value::Array(ifaces)) = def.get("interfaces") {
            for i in ifaces {
                if let Some(s) = i.get("documentSchema").filter(|s| s.is_object()) {
                    out.push(s.clone());
                }
            }
        }
    }
    out
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 3usize;
    if let Some(at) = args.iter().position(|a| a == "--runs") {
        runs = args.get(at + 1).and_then(|r| r.parse().ok()).unwrap_or(3);
        args.drain(at..(at + 2).min(args.len()));
    }
    let dirs: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if dirs.is_empty() {
        eprintln!("usage: cargo bench --bench schema_cache -- DIR... [--runs N]");
        std::process::exit(2);
    }
    // The meta-schema validator and the per-thread options are built once
    // per process, before any figure.
    let _ = compile(&serde_json::json!({"type": "object"}));
    for dir in dirs {
        let schemas = schemas_under(&dir);
        let mut distinct = std::collections::HashSet::new();
        for s in &schemas {
            distinct.insert(
                form_package::memo::content_key(s, form_package::memo::Numbers::Binary64).0,
            );
        }
        println!(
            "{}: {} inline schemas, {} distinct (content keys, numbers as binary64)",
            dir.display(),
            schemas.len(),
            distinct.len()
        );
        let (mut without, mut with) = (Vec::new(), Vec::new());
        for run in 0..runs {
            let start = Instant::now();
            let mut ok = 0usize;
            for s in &schemas {
                ok += usize::from(compile(s).is_ok());
            }
            without.push(start.elapsed().as_secs_f64());
            let rss_before = rss_kb();
            let cache = SchemaCache::new(DEFAULT_BUDGET);
            let start = Instant::now();
            let mut ok_cached = 0usize;
            for s in &schemas {
                ok_cached += usize::from(cache.get_or_compile(s, compile).is_ok());
            }
            with.push(start.elapsed().as_secs_f64());
            let rss_after = rss_kb();
            assert_eq!(ok, ok_cached, "the cache changed a compile result");
            if run == 0 {
                let st = cache.stats();
                println!(
                    "  cache: budget {} B, {} entries, charged {} B (peak {} B), {} hits, {} misses, {} evictions, {} too large; resident memory {} -> {} kB (+{} kB) while it held them",
                    st.budget,
                    st.entries,
                    st.charged,
                    st.peak_charged,
                    st.hits,
                    st.misses,
                    st.evictions,
                    st.too_large,
                    rss_before,
                    rss_after,
                    rss_after.saturating_sub(rss_before)
                );
            }
        }
        let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "  compile every inline schema: without cache best {:.1} ms, median {:.1} ms; with cache best {:.1} ms, median {:.1} ms ({} runs)",
            best(&without) * 1e3,
            median(&mut without.clone()) * 1e3,
            best(&with) * 1e3,
            median(&mut with.clone()) * 1e3,
            runs
        );
    }
}
