//! `compat` benchmarks (issue 20): the desired-schema verdict, in one
//! process, on the largest real pair (WorkerVersion `v1alpha3` 0.1.0 and
//! `v1beta1` 0.1.0, 25.6 KB definitions, both directions) and on the
//! hostile pair `fixtures/compat/hostile-{old,new}.json` (nested `anyOf` ×
//! `oneOf` 12 levels deep, a pattern with a counted repeat of 1000 whose
//! automaton has 2^21 states, a 300-deep `$ref` chain; each property
//! accepts the same documents on both sides, spelled otherwise, so there is
//! no witness to find), which must end in `unknown` with a reason
//! (`tests/compat/compat_desired.rs`, `hostile_pairs`).
//! Run with `cargo bench --bench compat`; figures go in docs/src/benchmarks.md.
//! Plain timing loops (median of runs), no benchmark framework.
use std::path::{Path, PathBuf};
use std::time::Instant;

use form_package::compat::desired::compare;
use serde_json::Value;

fn read(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn corpus() -> PathBuf {
    std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// Median wall time of `runs` calls, in milliseconds, and the verdict.
fn time(old: &Value, new: &Value, runs: usize) -> (f64, String) {
    let mut ms = Vec::with_capacity(runs);
    let mut verdict = String::new();
    for _ in 0..runs {
        let t = Instant::now();
        let v = compare(old, new);
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        verdict = match v {
            form_package::compat::desired::Verdict::Unknown { pointer, reason } => {
                format!("unknown at {pointer}: {reason}")
            }
            other => other.name().to_owned(),
        };
    }
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], verdict)
}

fn main() {
    // `cargo bench` passes `--bench`; a number argument sets the runs, and
    // `pair` or `hostile` runs that workload alone (e.g. under callgrind or
    // `/usr/bin/time`: `target/release/deps/compat-* 1 hostile`).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args.iter().find_map(|a| a.parse().ok()).unwrap_or(21);
    let only = |name: &str| {
        !args.iter().any(|a| a == "pair" || a == "hostile") || args.iter().any(|a| a == name)
    };
    let packages = corpus().join("packages");
    let a = packages.join("v1alpha3/worker-version-0.1.0-fceae6e22fac/definition.json");
    let b = packages.join("v1beta1/worker-version-0.1.0-54e6d25738e7/definition.json");
    if !only("pair") {
        // the hostile pair alone
    } else if a.exists() && b.exists() {
        let (a, b) = (
            read(&a)["desiredSchema"].clone(),
            read(&b)["desiredSchema"].clone(),
        );
        for (name, old, new) in [
            ("v1alpha3 -> v1beta1", &a, &b),
            ("v1beta1 -> v1alpha3", &b, &a),
        ] {
            let (ms, v) = time(old, new, runs);
            println!("worker-version desired {name}: median {ms:.2} ms ({runs} runs): {v}");
        }
    } else {
        println!("worker-version pair: corpus absent (FORM_PACKAGE_CORPUS), skipped");
    }
    if !only("hostile") {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/compat");
    let (old, new) = (
        read(&dir.join("hostile-old.json")),
        read(&dir.join("hostile-new.json")),
    );
    let (ms, v) = time(&old, &new, runs.min(5));
    println!(
        "hostile pair: median {ms:.2} ms ({} runs): {v}",
        runs.min(5)
    );
}
