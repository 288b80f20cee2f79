#!/bin/sh
# Reproduces every number in docs/src/benchmarks.md (issue #6). Usage, from the repo root:
#   sh benches/run.sh            # everything (generates $TMPDIR/tree10k once)
# Environment: CARGO_TARGET_DIR (default ./target), CORPUS (default
# ../shared/corpus/packages), TREE (default $TMPDIR/tree10k).
set -eu
TMP=${TMPDIR:-/tmp}
T=${CARGO_TARGET_DIR:-target}
B=$T/release/form-package
CORPUS=${CORPUS:-../shared/corpus/packages}
TREE=${TREE:-$TMP/tree10k}
SINGLE=${SINGLE:-$CORPUS/v1alpha3/worker-version-0.1.0-fceae6e22fac-v2}

echo "== machine"; date -u; nproc; grep -m1 'model name' /proc/cpuinfo; grep MemTotal /proc/meminfo; uptime
cargo build --release --quiet
cargo bench --bench baseline --no-run --quiet 2>/dev/null || true

echo "== single package (whole process)"
hyperfine -N --warmup 5 --runs 100 --export-json $TMP/bench-single.json "$B verify $SINGLE"
python3 -c "import json;r=json.load(open('$TMP/bench-single.json'))['results'][0];print('median_ms=%.2f user_ms=%.2f sys_ms=%.2f'%(r['median']*1e3,r['user']*1e3,r['system']*1e3))"

echo "== corpus tree (310 packages; 16 fail by design, hence -i)"
hyperfine -N -i --warmup 3 --runs 20 --export-json $TMP/bench-corpus.json "$B verify $CORPUS"
python3 -c "import json;r=json.load(open('$TMP/bench-corpus.json'))['results'][0];print('median_s=%.3f'%r['median'])"
/usr/bin/time -v "$B" verify "$CORPUS" 2>&1 >/dev/null | grep -E 'Maximum resident|Elapsed' || true

echo "== 10,000-package generated tree"
[ -d "$TREE" ] || python3 benches/gen_tree.py "$TREE" --count 10000 --seed 6
# Warm the page cache for both runs, then floor and verifier alternately.
cat "$TREE"/*/package-index.json >/dev/null
cargo bench --bench baseline --quiet -- "$TREE" 3
for i in 1 2 3; do
  /usr/bin/time -v "$B" verify "$TREE" 2>&1 >/dev/null | grep -E 'Maximum resident|Elapsed|User time|System time' || true
done

echo "== criterion-free library benches"
cargo bench --bench proof --quiet
cargo bench --bench fixtures --quiet
