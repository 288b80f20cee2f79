//! Throughput floor for `form-package verify` on a tree (issue #6): read
//! every file under a directory, SHA-256 it and parse every `.json` file
//! once with serde_json, in parallel with rayon like the verifier. No
//! verification at all: whatever the verifier spends above this floor is
//! its own work. Usage:
//! `cargo bench --bench baseline -- DIR [RUNS]` (default 5 runs; prints
//! each run's wall time, the median, files and bytes).
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: cargo bench --bench baseline -- DIR [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        // Walk (sequential, like package discovery), then read + hash + parse in parallel.
        let files: Vec<PathBuf> = walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect();
        let (bytes, parsed, digest_xor) = files
            .par_iter()
            .map(|p| {
                let data = std::fs::read(p).unwrap_or_default();
                let digest = Sha256::digest(&data);
                let ok = p.extension().is_some_and(|e| e == "json")
                    && serde_json::from_slice::<serde_json::Value>(&data).is_ok();
                (data.len() as u64, usize::from(ok), digest[0])
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 ^ b.2));
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "baseline run: {:.3} s, {} files, {} bytes, {} JSON parsed (xor {:02x})",
            elapsed,
            files.len(),
            bytes,
            parsed,
            digest_xor
        );
        times.push(elapsed);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "baseline median: {:.3} s over {} runs",
        times[times.len() / 2],
        runs
    );
}
