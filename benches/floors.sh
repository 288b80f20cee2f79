#!/bin/sh
# Issue 38 item 4: ours against the reference, against `sha256sum` of the same
# files and against a bare process start (`form-package version`), for one
# package, the corpus and a 10,000-package tree, in one run.
#
#   sh benches/floors.sh BINARY [ROUNDS]
#
# From the repository root. The corpus and the reference are found beside the
# clone (../shared); the 10,000-package tree is generated once into
# $TMPDIR/form-package-tree10k (benches/gen_tree.py, seed 6). Wall times are
# hyperfine -N medians of alternating rounds (benches/floors.py); the load
# average is printed before and after each block. Page faults and peak RSS
# (/usr/bin/time) and instruction counts (valgrind) do not depend on the load.
set -eu
B=$1
ROUNDS=${2:-10}
T=${TMPDIR:-/tmp}
R=../shared/oracle/form-package-reference
P=../shared/corpus/packages/v1beta1/worker-version-0.1.0-54e6d25738e7
C=../shared/corpus/packages
TREE=$T/form-package-tree10k
[ -d "$TREE" ] || python3 benches/gen_tree.py "$TREE" --count 10000 --seed 6

echo "# one package: $P"
PFILES=$(find "$P" -type f | sort | tr '\n' ' ')
python3 benches/floors.py "$ROUNDS" --start start \
  "ours=$B verify $P" "reference=$R verify $P" "sha256sum=sha256sum $PFILES" "start=$B version"
/usr/bin/time -f 'ours: peak RSS %M KB, minor faults %R, user %U s, sys %S s' "$B" verify "$P" >/dev/null
/usr/bin/time -f 'start: peak RSS %M KB, minor faults %R' "$B" version >/dev/null
valgrind --tool=callgrind --callgrind-out-file="$T/fp-cg.out" "$B" verify "$P" 2>&1 >/dev/null | grep -o 'Collected : [0-9]*'

echo "# corpus: $C (one run of ours; the reference once per package)"
python3 benches/floors.py "$ROUNDS" --start start \
  "ours=$B verify --quiet $C" \
  "sha256sum=sh -c 'find $C -type f -print0 | xargs -0 sha256sum >/dev/null'" \
  "start=$B version"
/usr/bin/time -f 'ours: peak RSS %M KB, minor faults %R, user %U s, sys %S s' "$B" verify --quiet "$C" >/dev/null || true
/usr/bin/time -f 'reference, one run per package: wall %e s, user %U s, sys %S s' \
  sh -c "for p in $C/*/*; do $R verify \"\$p\" >/dev/null 2>&1 || true; done"

echo "# 10,000-package tree: $TREE"
python3 benches/floors.py "$(( (ROUNDS + 4) / 5 ))" --start start \
  "ours=$B verify --quiet $TREE" \
  "sha256sum=sh -c 'find $TREE -type f -print0 | xargs -0 sha256sum >/dev/null'" \
  "start=$B version"
/usr/bin/time -f 'ours: peak RSS %M KB, minor faults %R, user %U s, sys %S s' "$B" verify --quiet "$TREE" >/dev/null || true
