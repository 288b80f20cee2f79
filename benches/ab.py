#!/usr/bin/env python3
"""Alternating A/B runs of whole commands (issue 11 speed record).

Usage: python3 benches/ab.py RUNS 'name=[VAR=value ...] command args' ...

Runs every command once per round, RUNS rounds, alternating, and prints per
command the median and minimum wall time, the median and minimum CPU time
(user + sys of the child, from wait4) and the peak RSS, with the load
average. Leading VAR=value words set the environment (e.g. LD_PRELOAD=...).
"""
import os
import shlex
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
cfgs = [a.split("=", 1) for a in sys.argv[2:]]
res = {n: [] for n, _ in cfgs}
for _ in range(runs):
    for n, cmd in cfgs:
        env = dict(os.environ)
        parts = shlex.split(cmd)
        while parts and "=" in parts[0] and not parts[0].startswith("/"):
            k, v = parts.pop(0).split("=", 1)
            env[k] = v
        t = time.perf_counter()
        p = subprocess.Popen(parts, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, _, ru = os.wait4(p.pid, 0)
        res[n].append((time.perf_counter() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
with open("/proc/loadavg") as f:
    print("load", " ".join(f.read().split()[:3]), time.strftime("%H:%M:%SZ", time.gmtime()))
for n, _ in cfgs:
    r = res[n]
    print(
        f"{n:12s} wall med {statistics.median(x[0] for x in r) * 1000:9.1f} ms min {min(x[0] for x in r) * 1000:9.1f}"
        f"  cpu med {statistics.median(x[1] for x in r) * 1000:9.1f} ms min {min(x[1] for x in r) * 1000:9.1f}"
        f"  rss {max(x[2] for x in r)} KB"
    )
