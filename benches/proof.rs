//! Proof benchmarks (issue #3): the closed-object proof, `$ref` closure and
//! structural work estimate on the largest corpus definition, and on a
//! generated schema that spends 4096 proof operations. Run with
//! `cargo bench --bench proof`; numbers go in docs/src/benchmarks.md.
//! Plain timing loops (median of batches), no benchmark framework.
use std::path::PathBuf;
use std::time::Instant;

use form_package::json::pointer::JsonPointer;
use form_package::proof::prove_inline_schema;
use serde_json::{json, Value};

fn median_ns(mut f: impl FnMut(), batches: usize, per_batch: usize) -> f64 {
    let mut samples = Vec::with_capacity(batches);
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..per_batch {
            f();
        }
        samples.push(t.elapsed().as_nanos() as f64 / per_batch as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

fn corpus() -> PathBuf {
    std::env::var_os("FORM_PACKAGE_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn largest_definition() -> Option<(PathBuf, Value)> {
    let mut best: Option<(u64, PathBuf)> = None;
    for e in walkdir::WalkDir::new(corpus().join("packages"))
        .into_iter()
        .flatten()
    {
        if e.file_name() == "definition.json" {
            let len = e.metadata().map(|m| m.len()).unwrap_or(0);
            if best.as_ref().is_none_or(|b| len > b.0) {
                best = Some((len, e.path().to_path_buf()));
            }
        }
    }
    let (_, path) = best?;
    let v = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    Some((path, v))
}

/// A desired schema whose proof spends exactly 4096 operations: a closed
/// root with one property whose `allOf` holds 2046 `$ref`s to one closed def.
fn budget_schema() -> Value {
    let refs: Vec<Value> = (0..2046).map(|_| json!({"$ref": "#/$defs/c"})).collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object", "additionalProperties": false,
        "properties": {"p": {"allOf": refs}},
        "$defs": {"c": {"type": "object", "additionalProperties": false, "properties": {"x": {"type": "string"}}}}
    })
}

fn main() {
    let none = |_: &form_package::proof::NameQuery<'_>| None;
    if let Some((path, def)) = largest_definition() {
        for field in ["desiredSchema", "observedSchema", "outputSchema"] {
            let Some(schema) = def.get(field) else {
                continue;
            };
            let ptr = JsonPointer::root().child(field);
            let report = prove_inline_schema(&ptr, schema, &none);
            let ns = median_ns(|| drop(prove_inline_schema(&ptr, schema, &none)), 21, 50);
            println!(
                "largest corpus definition {} {field}: {:.1} µs/proof, {} operations, W = {}, errors = {}",
                path.display(),
                ns / 1000.0,
                report.operations,
                report.structural_work,
                report.has_errors()
            );
        }
    } else {
        println!("corpus not found: set FORM_PACKAGE_CORPUS");
    }
    let schema = budget_schema();
    let ptr = JsonPointer::root().child("desiredSchema");
    let report = prove_inline_schema(&ptr, &schema, &none);
    let ns = median_ns(|| drop(prove_inline_schema(&ptr, &schema, &none)), 21, 20);
    println!(
        "generated 4096-operation schema: {:.1} µs/proof, {} operations, errors = {}",
        ns / 1000.0,
        report.operations,
        report.has_errors()
    );
}
