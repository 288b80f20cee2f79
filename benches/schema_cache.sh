#!/bin/sh
# Issue 23: the compiled-schema cache, whole process, with and without
# (FORM_PACKAGE_SCHEMA_CACHE=0), on the real corpus and on a generated tree
# whose inline schemas are all distinct (benches/gen_tree.py
# --distinct-schemas), side by side, then the library bench (the cache's own
# accounting and resident memory). From the repository root:
#   sh benches/schema_cache.sh [BINARY] [COUNT]
# Defaults: BINARY ${CARGO_TARGET_DIR:-target}/release/form-package, COUNT 1000.
set -eu
B=${1:-${CARGO_TARGET_DIR:-target}/release/form-package}
N=${2:-1000}
CORPUS=${FORM_PACKAGE_CORPUS:-../shared/corpus}/packages
T=${TMPDIR:-/tmp}/form-package-distinct-$N
[ -d "$T" ] || python3 benches/gen_tree.py "$T" --count "$N" --seed 6 --distinct-schemas
date -u; uptime
for tree in "$CORPUS" "$T"; do
  echo "== $tree"
  hyperfine -N -i --warmup 2 --runs "${RUNS:-10}" \
    -n "without cache" "env FORM_PACKAGE_SCHEMA_CACHE=0 $B verify --quiet $tree" \
    -n "with cache" "$B verify --quiet $tree"
  for budget in 0 33554432; do
    /usr/bin/time -f "budget=$budget wall=%e user=%U sys=%S peak_rss_kb=%M" \
      env FORM_PACKAGE_SCHEMA_CACHE=$budget "$B" verify --quiet "$tree" >/dev/null || true
  done
done
cargo bench --bench schema_cache -- "$CORPUS" "$T"
