#!/usr/bin/env python3
"""Whole-process wall times beside their floors (issue 38 item 4).

    python3 benches/floors.py ROUNDS 'label=COMMAND' ... [--start LABEL]

Runs `hyperfine -N` (Debian's hyperfine, no shell) once per round over all
the commands, `--runs 3` each, so the commands alternate in blocks of three
for ROUNDS rounds, and prints per label the median, 10th percentile and
minimum wall time of all runs, and the median minus the median of the
`--start` label (a bare process start, `form-package version`). Prints the
load average before and after. Failing exit codes are allowed (`-i`).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    start = None
    if "--start" in args:
        i = args.index("--start")
        start = args[i + 1]
        del args[i : i + 2]
    rounds = int(args[0])
    specs = [a.split("=", 1) for a in args[1:]]
    times = {label: [] for label, _ in specs}
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "h.json")
        for _ in range(rounds):
            cmd = ["hyperfine", "-N", "-i", "--style", "none", "--runs", "3", "--export-json", out]
            for label, command in specs:
                cmd += ["-n", label, command]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            with open(out) as f:
                for r in json.load(f)["results"]:
                    times[r["command"]].extend(r["times"])
    print(f"load after: {os.getloadavg()}")
    med = statistics.median
    base = med(times[start]) if start else 0.0
    for label, _ in specs:
        t = sorted(times[label])
        line = (
            f"{label:12s} n={len(t):3d} median {med(t) * 1e3:9.2f} ms  p10 {t[len(t) // 10] * 1e3:9.2f}"
            f"  min {t[0] * 1e3:9.2f}"
        )
        if start and label != start:
            line += f"  median - start {(med(t) - base) * 1e3:9.2f} ms"
        print(line)


if __name__ == "__main__":
    main()
