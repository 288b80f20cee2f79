//! Fixture-runner benchmarks (issue #4): compile + run every fixture of every
//! complete corpus package, and one fixture whose instance-aware work
//! estimate sits just under the 16,384 limit and fails validation.
//! Run with `cargo bench --bench fixtures`; numbers go in docs/src/benchmarks.md.
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use form_package::fixtures::{compile_stages, run_fixtures, PayloadView};
use form_package::proof::work::instance_work;
use serde_json::{json, Value};

fn corpus() -> PathBuf {
    std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

struct Loaded {
    definition: Value,
    media: BTreeMap<String, String>,
    docs: BTreeMap<String, Value>,
}

fn load(dir: &std::path::Path) -> Option<Loaded> {
    let index: Value =
        serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).ok()?).ok()?;
    let definition: Value =
        serde_json::from_slice(&std::fs::read(dir.join("definition.json")).ok()?).ok()?;
    let mut media = BTreeMap::new();
    let mut docs = BTreeMap::new();
    for f in index["files"].as_array()? {
        let path = f["path"].as_str()?.to_owned();
        let mt = f["mediaType"].as_str()?.to_owned();
        if mt == "application/json" {
            docs.insert(
                path.clone(),
                serde_json::from_slice(&std::fs::read(dir.join(&path)).ok()?).ok()?,
            );
        }
        media.insert(path, mt);
    }
    Some(Loaded {
        definition,
        media,
        docs,
    })
}

fn run_one(l: &Loaded) -> (usize, usize) {
    let (stages, _) = compile_stages(&l.definition);
    let lookup = |p: &str| {
        l.media.get(p).map(|m| PayloadView {
            media_type: m.as_str(),
            value: l.docs.get(p),
            literals: None,
            digest: None,
        })
    };
    let run = run_fixtures(&l.definition, &stages, &lookup, &instance_work);
    (
        run.positive_run + run.negative_run,
        run.diagnostics.iter().filter(|d| d.is_error()).count(),
    )
}

fn main() {
    let manifest: Option<Value> = std::fs::read(corpus().join("manifest.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    if let Some(manifest) = manifest {
        let loaded: Vec<Loaded> = manifest
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| e["complete"] == true && e["expect"] == "ok")
            .filter_map(|e| load(&corpus().join(e["path"].as_str()?)))
            .collect();
        let mut best = f64::MAX;
        let mut totals = (0, 0);
        for _ in 0..5 {
            let t = Instant::now();
            totals = loaded
                .iter()
                .map(run_one)
                .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "fixture runner over the corpus: {} packages, {} fixture validations, {} errors, best of 5: {:.1} ms (compile + run)",
            loaded.len(),
            totals.0,
            totals.1,
            best * 1000.0
        );
    } else {
        println!("corpus not found: set FORM_PACKAGE_CORPUS");
    }

    // 7-level doubling chain over strings (W = 509), behind `items`, 32 elements:
    // instance-aware work 1 + (1 + 32 * 510) = 16322 <= 16384; one element is not a string.
    let mut defs = serde_json::Map::new();
    defs.insert("N0".into(), json!({"type": "string"}));
    for k in 1..=7 {
        let prev = format!("#/$defs/N{}", k - 1);
        defs.insert(
            format!("N{k}"),
            json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}),
        );
    }
    let definition = json!({
        "desiredSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "additionalProperties": false,
            "properties": {"list": {"type": "array", "items": {"$ref": "#/$defs/N7"}}},
            "$defs": defs
        },
        "conformanceFixtures": [{"name": "near-limit", "desiredPath": "fixtures/near.json"}]
    });
    let mut list: Vec<Value> = (0..31).map(|i| json!(format!("v{i}"))).collect();
    list.push(json!(7));
    let doc = json!({"list": list});
    let work = instance_work(&definition["desiredSchema"], &doc);
    let (stages, _) = compile_stages(&definition);
    let lookup = |p: &str| {
        (p == "fixtures/near.json").then_some(PayloadView {
            media_type: "application/json",
            value: Some(&doc),
            literals: None,
            digest: None,
        })
    };
    let mut samples = Vec::new();
    let mut errors = 0;
    for _ in 0..21 {
        let t = Instant::now();
        for _ in 0..20 {
            errors = run_fixtures(&definition, &stages, &lookup, &instance_work)
                .diagnostics
                .len();
        }
        samples.push(t.elapsed().as_secs_f64() / 20.0);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    println!(
        "near-limit fixture: instance work {work} (limit 16384), {errors} finding(s), median {:.1} µs per run",
        samples[10] * 1e6
    );
}
