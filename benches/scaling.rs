//! Time per package against tree size (issue 11).
//!
//! For trees of 100, 1,000, 3,000 and 10,000 generated packages
//! (`benches/gen_tree.py`, seed 6; generated once under `$TREES`, default
//! `$TMPDIR/form-package-trees`), runs the whole `form-package verify TREE`
//! process and the read + SHA-256 + parse floor of the same files (as
//! `benches/baseline.rs`), several runs each, alternating, and records the
//! medians.
//!
//! Writes `target/bench-scaling.csv` (`packages,verify_s,floor_s,
//! verify_us_per_package,floor_us_per_package,ratio`) and
//! `target/bench-scaling.svg` (microseconds per package against tree size,
//! verifier and floor), drawn with `plotters`' SVG backend (no font or
//! system dependencies). Usage: `cargo bench --bench scaling -- [RUNS]`.
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use plotters::prelude::*;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

const SIZES: [usize; 4] = [100, 1_000, 3_000, 10_000];

fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let trees = std::env::var_os("TREES").map_or_else(
        || std::env::temp_dir().join("form-package-trees"),
        PathBuf::from,
    );
    let bin = env!("CARGO_BIN_EXE_form-package");
    let mut rows = Vec::new();
    for n in SIZES {
        let dir = trees.join(format!("tree{n}"));
        if !dir.is_dir() {
            let ok = Command::new("python3")
                .arg(root.join("benches/gen_tree.py"))
                .arg(&dir)
                .args(["--count", &n.to_string(), "--seed", "6"])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "gen_tree.py failed for {n}");
        }
        // Warm the page cache once for both.
        floor(&dir);
        let (mut v, mut f) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let start = Instant::now();
            Command::new(bin)
                .args(["verify", "--quiet"])
                .arg(&dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            v.push(start.elapsed().as_secs_f64());
            let start = Instant::now();
            floor(&dir);
            f.push(start.elapsed().as_secs_f64());
        }
        let (vm, fm) = (median(&mut v), median(&mut f));
        println!(
            "{n:>6} packages: verify {vm:.3} s ({:.1} us/pkg), floor {fm:.3} s ({:.1} us/pkg), ratio {:.2}",
            vm / n as f64 * 1e6,
            fm / n as f64 * 1e6,
            vm / fm
        );
        rows.push((n, vm, fm));
    }
    let target = root.join("target");
    let mut csv = String::from(
        "packages,verify_s,floor_s,verify_us_per_package,floor_us_per_package,ratio\n",
    );
    for (n, v, f) in &rows {
        csv.push_str(&format!(
            "{n},{v:.4},{f:.4},{:.1},{:.1},{:.3}\n",
            v / *n as f64 * 1e6,
            f / *n as f64 * 1e6,
            v / f
        ));
    }
    std::fs::write(target.join("bench-scaling.csv"), csv).unwrap();
    chart(&target.join("bench-scaling.svg"), &rows);
    println!("wrote target/bench-scaling.csv and target/bench-scaling.svg");
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Read + SHA-256 + parse of every file under `dir` (rayon, like the
/// verifier), as `benches/baseline.rs`.
fn floor(dir: &Path) {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect();
    let x = files
        .par_iter()
        .map(|p| {
            let data = std::fs::read(p).unwrap_or_default();
            let d = Sha256::digest(&data);
            let ok = p.extension().is_some_and(|e| e == "json")
                && serde_json::from_slice::<serde_json::Value>(&data).is_ok();
            d[0] ^ u8::from(ok)
        })
        .reduce(|| 0, |a, b| a ^ b);
    std::hint::black_box(x);
}

/// Microseconds per package against packages (log scale), both series.
fn chart(path: &Path, rows: &[(usize, f64, f64)]) {
    let per = |t: f64, n: usize| t / n as f64 * 1e6;
    let ymax = rows
        .iter()
        .map(|(n, v, f)| per(*v, *n).max(per(*f, *n)))
        .fold(0.0_f64, f64::max)
        * 1.2;
    let area = SVGBackend::new(path, (720, 420)).into_drawing_area();
    area.fill(&WHITE).unwrap();
    let mut c = ChartBuilder::on(&area)
        .caption("form-package verify: time per package", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((80f64..12_000f64).log_scale(), 0f64..ymax)
        .unwrap();
    c.configure_mesh()
        .x_desc("packages in the tree")
        .y_desc("microseconds per package")
        .draw()
        .unwrap();
    for (label, color, pick) in [
        ("verify (whole process)", RED, 1usize),
        ("read + SHA-256 + parse floor", BLUE, 2usize),
    ] {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .map(|&(n, v, f)| (n as f64, per(if pick == 1 { v } else { f }, n)))
            .collect();
        c.draw_series(LineSeries::new(pts.clone(), color))
            .unwrap()
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        c.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled())))
            .unwrap();
    }
    c.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .unwrap();
    area.present().unwrap();
}
