#!/usr/bin/env python3
"""One `verify --quiet` of the corpus tree against one reference run per package.

Usage: python3 benches/ref_runs.py BIN [CORPUS_PACKAGES] [REFERENCE]

Runs the reference verifier once on each package (310 in the corpus), then
ours 5 times on the whole tree, in the same session, and prints the total
reference time, our median and the ratio (issue 11: ours <= 1/100).
"""
import os
import statistics
import subprocess
import sys
import time

ours = sys.argv[1]
root = sys.argv[2] if len(sys.argv) > 2 else "../shared/corpus/packages"
ref = sys.argv[3] if len(sys.argv) > 3 else "../shared/oracle/form-package-reference"
packages = []
for d, ds, fs in os.walk(root):
    ds.sort()
    if "package-index.json" in fs:
        packages.append(d)
        ds[:] = []
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
t = time.perf_counter()
for p in packages:
    subprocess.run([ref, "verify", p], **quiet)
total = time.perf_counter() - t
mine = []
for _ in range(5):
    t = time.perf_counter()
    subprocess.run([ours, "verify", "--quiet", root], **quiet)
    mine.append(time.perf_counter() - t)
med = statistics.median(mine)
print(
    f"{len(packages)} packages; reference {len(packages)} runs {total:.2f} s; "
    f"ours median of 5 {med:.3f} s (min {min(mine):.3f}); ratio 1/{total / med:.0f} (min 1/{total / min(mine):.0f})"
)
