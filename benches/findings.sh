#!/bin/sh
# Render benchmark (issue 11 item 2): one package with 80,000 findings,
# rendered in every format; wall time and peak memory of the whole process
# from /usr/bin/time -v. Usage, from the repository root:
#   sh benches/findings.sh [BASE_BINARY]
# BASE_BINARY (optional): another build measured the same way, side by side.
# Environment: CARGO_TARGET_DIR (default ./target), PKG (default $TMPDIR/findings80k),
# COUNT (default 80000).
set -eu
TMP=${TMPDIR:-/tmp}
T=${CARGO_TARGET_DIR:-target}
B=$T/release/form-package
PKG=${PKG:-$TMP/findings80k}
COUNT=${COUNT:-80000}
echo "== machine"; date -u; nproc; grep -m1 'model name' /proc/cpuinfo; uptime
cargo build --release --quiet
python3 benches/gen_findings.py "$PKG" --count "$COUNT"
n=$("$B" verify "$PKG" --format json | python3 -c "import json,sys;print(len(json.load(sys.stdin)['packages'][0]['diagnostics']))")
echo "findings: $n"
measure() {
    bin=$1; fmt=$2
    /usr/bin/time -v timeout "${LIMIT:-600}" "$bin" verify "$PKG" --format "$fmt" 2>$TMP/findings-time.txt >$TMP/findings-out.txt || true
    wall=$(grep 'Elapsed (wall clock)' $TMP/findings-time.txt | awk '{print $NF}')
    rss=$(grep 'Maximum resident' $TMP/findings-time.txt | awk '{print $NF}')
    user=$(grep 'User time' $TMP/findings-time.txt | awk '{print $NF}')
    sys=$(grep 'System time' $TMP/findings-time.txt | awk '{print $NF}')
    bytes=$(wc -c <$TMP/findings-out.txt)
    echo "$bin $fmt wall=$wall user_s=$user sys_s=$sys max_rss_kb=$rss output_bytes=$bytes"
}
for fmt in human json sarif github junit; do
    measure "$B" "$fmt"
done
if [ $# -ge 1 ]; then
    for fmt in human json sarif github; do
        measure "$1" "$fmt"
    done
fi
