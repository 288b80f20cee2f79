#!/usr/bin/env python3
"""Alternating A/B timing of whole processes (issue 11, single-package goal).

    python3 benches/single_ab.py N 'label:[ENV=V ...] BINARY ARGS...' ...

Runs every command once per round, N rounds, alternating, and prints per
label the median, 10th percentile and minimum wall time, the median CPU
time (user + sys of the child, from wait4) and the median minor page
faults. Run it under `chrt -f 10` on a shared machine: the children then
inherit a real-time priority and are not queued behind other users'
compilers, which gives quiet-machine wall times without a quiet machine
(each run is a few milliseconds, so others barely notice).
"""
import os
import statistics
import sys
import time


def main():
    n = int(sys.argv[1])
    specs = []
    for spec in sys.argv[2:]:
        label, rest = spec.split(":", 1)
        parts = rest.split()
        env = dict(os.environ)
        while parts and "=" in parts[0] and not parts[0].startswith(("/", ".")):
            k, v = parts.pop(0).split("=", 1)
            env[k] = v
        specs.append((label, parts, env))
    results = {label: [] for label, _, _ in specs}
    null = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    for _ in range(n):
        for label, argv, env in specs:
            start = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
            _, _, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - start
            results[label].append((wall, ru.ru_utime + ru.ru_stime, ru.ru_minflt))
    med = statistics.median
    for label, _, _ in specs:
        rows = results[label]
        walls = sorted(r[0] for r in rows)
        print(
            f"{label:16s} wall med {med(walls) * 1e3:7.2f} ms  p10 {walls[len(walls) // 10] * 1e3:7.2f}"
            f"  min {walls[0] * 1e3:7.2f}  cpu med {med([r[1] for r in rows]) * 1e3:7.2f} ms"
            f"  minflt {med([r[2] for r in rows]):.0f}"
        )


if __name__ == "__main__":
    main()
