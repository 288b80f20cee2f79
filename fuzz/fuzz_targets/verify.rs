//! The whole pipeline: the input becomes `definition.json` of a copy of the
//! shipped example-store package, the index is rewritten to list its size and
//! digest (and a recomputed formRef when the indexer can), and
//! `verify_package` runs. It must never panic.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use form_package::canonical::sha256_digest;
use form_package::{index, verify};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn example_store() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632")
}

struct Scratch {
    _guard: tempfile::TempDir,
    dir: PathBuf,
    index: Value,
}

fn scratch() -> &'static Scratch {
    static S: OnceLock<Scratch> = OnceLock::new();
    S.get_or_init(|| {
        let guard = tempfile::tempdir().unwrap();
        let dir = guard.path().join("pkg");
        std::fs::create_dir_all(dir.join("fixtures")).unwrap();
        let src = example_store();
        for f in [
            "definition.json",
            "package-index.json",
            "fixtures/desired.json",
        ] {
            std::fs::copy(src.join(f), dir.join(f)).unwrap();
        }
        let index = serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap())
            .unwrap();
        Scratch {
            _guard: guard,
            dir,
            index,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let s = scratch();
    std::fs::write(s.dir.join("definition.json"), data).unwrap();
    // Start from the shipped index, then list the new definition bytes.
    let mut idx = s.index.clone();
    idx["files"][0]["size"] = Value::from(data.len());
    idx["files"][0]["digest"] = Value::from(sha256_digest(data));
    std::fs::write(
        s.dir.join("package-index.json"),
        serde_json::to_vec(&idx).unwrap(),
    )
    .unwrap();
    // When the definition parses, let the indexer recompute formRef too.
    if let Ok(built) = index::build(&s.dir, None) {
        index::write(&s.dir, &built).unwrap();
    }
    let out = verify::verify_package(&s.dir);
    if out.report.is_some() {
        assert!(!out.has_errors());
    }
});
